"""Tests for minikcm.client.interface: the in-process backend has every method the protocols name."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys

import pytest

import minikcm.client
from minikcm.client import interface
from minikcm.client.inprocess import InProcessClientset


def protocol_methods(proto: type) -> set[str]:
    """The public methods a Protocol declares, its bases included."""
    names = set()
    for klass in proto.__mro__:
        if klass in (object,) or klass.__module__ == "typing":
            continue
        names |= {n for n, v in vars(klass).items() if callable(v) and not n.startswith("_")}
    return names


TYPED_CASES = [
    #            group accessor                 resource accessor (with namespace)          protocol
    pytest.param("core_v1", "namespaces", (), interface.NamespaceInterface, id="namespaces"),
    pytest.param("core_v1", "pods", ("ns",), interface.PodInterface, id="pods"),
    pytest.param("core_v1", "events", ("ns",), interface.EventInterface, id="events"),
    pytest.param("core_v1", "persistent_volume_claims", ("ns",),
                 interface.PersistentVolumeClaimInterface, id="persistentvolumeclaims"),
    pytest.param("core_v1", "services", ("ns",), interface.ServiceInterface, id="services"),
    pytest.param("apps_v1", "deployments", ("ns",), interface.DeploymentInterface, id="deployments"),
    pytest.param("apps_v1", "replica_sets", ("ns",), interface.ReplicaSetInterface, id="replicasets"),
    pytest.param("apps_v1", "stateful_sets", ("ns",), interface.StatefulSetInterface,
                 id="statefulsets"),
    pytest.param("apps_v1", "controller_revisions", ("ns",), interface.ControllerRevisionInterface,
                 id="controllerrevisions"),
    pytest.param("coordination_v1", "leases", ("ns",), interface.LeaseInterface, id="leases"),
]


@pytest.mark.parametrize("group, accessor, args, protocol", TYPED_CASES)
def test_in_process_typed_client_implements_protocol(group, accessor, args, protocol):
    cs = InProcessClientset(server=None)
    client = getattr(getattr(cs, group)(), accessor)(*args)
    missing = {m for m in protocol_methods(protocol) if not callable(getattr(client, m, None))}
    assert not missing
    for name in protocol_methods(protocol):
        want = list(inspect.signature(getattr(protocol, name)).parameters)[1:]
        assert list(inspect.signature(getattr(client, name)).parameters) == want, name


def test_scale_only_where_the_resource_has_it():
    cs = InProcessClientset(server=None)
    assert hasattr(cs.apps_v1().deployments("ns"), "get_scale")
    assert not hasattr(cs.core_v1().pods("ns"), "get_scale")
    assert not hasattr(cs.coordination_v1().leases("ns"), "update_status")


def test_group_accessors_match_protocols():
    cs = InProcessClientset(server=None)
    for proto in (interface.Interface,):
        assert protocol_methods(proto) <= set(dir(cs))
    assert protocol_methods(interface.CoreV1Interface) <= set(dir(cs.core_v1()))
    assert protocol_methods(interface.AppsV1Interface) <= set(dir(cs.apps_v1()))
    assert protocol_methods(interface.CoordinationV1Interface) <= set(dir(cs.coordination_v1()))


def test_package_all_is_sorted_and_resolves():
    names = minikcm.client.__all__
    assert names == sorted(set(names))
    assert all(hasattr(minikcm.client, n) for n in names)
    public = {n for n in vars(minikcm.client) if not n.startswith("_")}
    submodules = {"fake", "inprocess", "interface", "rest", "streamwatcher", "testing", "transport",
                  "typed"}
    assert public - submodules == set(names)


@pytest.mark.parametrize("package, submodules", [
    pytest.param("minikcm.client.testing", {"actions", "fake", "fixture"}, id="testing"),
    pytest.param("minikcm.client.fake", {"clientset_generated"}, id="fake"),
])
def test_test_double_packages_re_export_their_all(package, submodules):
    module = importlib.import_module(package)
    names = module.__all__
    assert names == sorted(set(names))
    public = {n for n in vars(module) if not n.startswith("_")}
    assert public - submodules == set(names)


def test_production_clientset_does_not_load_the_test_doubles():
    code = ("import sys, minikcm.client; "
            "print(any(m.startswith(('minikcm.client.testing', 'minikcm.client.fake')) for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
