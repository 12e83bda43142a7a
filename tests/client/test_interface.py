"""Tests for minikcm.client.interface: each Go interface names the class every accessor hands out."""

from __future__ import annotations

import importlib
import subprocess
import sys
import typing

import pytest

import minikcm.client
from minikcm.client import interface
from minikcm.client.inprocess import InProcessClientset


def implementing_class(name: object) -> type:
    """The class an interface name stands for (`PodClient` for `PodClient[V1Pod, V1PodList]`)."""
    return typing.get_origin(name) or name  # type: ignore[return-value]


TYPED_CASES = [
    #            group accessor                 resource accessor (with namespace)          interface
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


@pytest.mark.parametrize("group, accessor, args, name", TYPED_CASES)
def test_the_interface_names_the_class_the_accessor_hands_out(group, accessor, args, name):
    cs = InProcessClientset(server=None)
    client = getattr(getattr(cs, group)(), accessor)(*args)
    assert type(client) is implementing_class(name)
    assert isinstance(client, interface.ResourceInterface)


def test_scale_only_where_the_resource_has_it():
    cs = InProcessClientset(server=None)
    assert hasattr(cs.apps_v1().deployments("ns"), "get_scale")
    assert not hasattr(cs.core_v1().pods("ns"), "get_scale")
    assert not hasattr(cs.coordination_v1().leases("ns"), "update_status")


def test_group_interfaces_name_the_group_clients():
    cs = InProcessClientset(server=None)
    assert isinstance(cs, interface.Interface)
    assert type(cs.core_v1()) is interface.CoreV1Interface
    assert type(cs.apps_v1()) is interface.AppsV1Interface
    assert type(cs.coordination_v1()) is interface.CoordinationV1Interface


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
