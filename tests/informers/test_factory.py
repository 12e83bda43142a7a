"""Tests for minikcm.informers.factory (informers/factory.go and the generated typed informers).

client-go's factory_test.go has no test functions at v0.36.3; these are ours.
The factory runs over the in-process clientset and the embedded API server,
under the deterministic driver (a driven FakeClock) unless marked `threaded`.
"""

from __future__ import annotations

import random
import threading

import pytest
from kubernetes.client import V1Deployment, V1Lease, V1Namespace, V1Pod

from minikcm.apimachinery import labels
from minikcm.apimachinery.meta import ListOptions
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.informers import listers
from minikcm.informers.factory import (
    SharedInformerFactory,
    new_filtered_shared_informer_factory,
    new_shared_informer_factory,
    new_shared_informer_factory_with_options,
)
from minikcm.driver import Driver


@pytest.fixture
def server(driven_clock):
    return APIServer(clock=driven_clock, rng=random.Random(1))


@pytest.fixture
def cs(server):
    return InProcessClientset(server)


def wire_pod(name: str, namespace: str = "default", labels_: dict | None = None) -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace, "labels": labels_},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}}


def deterministic_factory(cs, driven_clock, **kwargs) -> SharedInformerFactory:
    assert driven_clock.driven
    return new_shared_informer_factory_with_options(cs, 0, clock=driven_clock, rng=random.Random(2), **kwargs)


def test_informer_for_shares_one_informer_per_model(cs):
    factory = new_shared_informer_factory(cs, 30)
    first = factory.apps().v1().deployments().informer()
    assert factory.apps().v1().deployments().informer() is first
    assert factory.core().v1().pods().informer() is not first
    assert set(factory.informers) == {V1Deployment, V1Pod}
    assert first.default_event_handler_resync_period == 30


def test_custom_resync_and_transform(cs):
    def drop_managed_fields(obj):
        obj.metadata.managed_fields = None
        return obj

    factory = new_shared_informer_factory_with_options(cs, 30, custom_resync={V1Pod: 5},
                                                       transform=drop_managed_fields)
    pods = factory.core().v1().pods().informer()
    assert pods.default_event_handler_resync_period == 5
    assert pods.transform is drop_managed_fields
    assert factory.coordination().v1().leases().informer().default_event_handler_resync_period == 30


LISTER_CASES = [
    pytest.param("apps", "deployments", listers.DeploymentLister, id="deployments"),
    pytest.param("apps", "replica_sets", listers.ReplicaSetLister, id="replicasets"),
    pytest.param("apps", "stateful_sets", listers.StatefulSetLister, id="statefulsets"),
    pytest.param("apps", "controller_revisions", listers.ControllerRevisionLister, id="controllerrevisions"),
    pytest.param("core", "pods", listers.PodLister, id="pods"),
    pytest.param("core", "persistent_volume_claims", listers.PersistentVolumeClaimLister, id="pvcs"),
    pytest.param("core", "events", listers.EventLister, id="events"),
    pytest.param("core", "namespaces", listers.NamespaceLister, id="namespaces"),
    pytest.param("coordination", "leases", listers.LeaseLister, id="leases"),
]


@pytest.mark.parametrize("group, kind, lister_class", LISTER_CASES)
def test_group_accessors_give_typed_listers(cs, group, kind, lister_class):
    factory = new_shared_informer_factory(cs, 0)
    typed = getattr(getattr(factory, group)().v1(), kind)()
    lister = typed.lister()
    assert type(lister) is lister_class
    assert lister.indexer is typed.informer().get_indexer()


def test_deterministic_start_steps_and_listers(cs, driven_clock, server):
    cs.core_v1().pods("default").create(wire_pod("a", labels_={"app": "web"}))
    factory = deterministic_factory(cs, driven_clock)
    pods = factory.core().v1().pods()
    deployments = factory.apps().v1().deployments()
    pods.informer(), deployments.informer()
    factory.start(threading.Event())
    names = [s.name for s in factory.steps()]
    assert names[0] == "reflector/apps/v1/deployments/list" and names[6] == "reflector/v1/pods/list"
    assert len(names) == 12
    assert factory.wait_for_cache_sync(threading.Event()) == {V1Deployment: False, V1Pod: False}

    driver = Driver(driven_clock, factory.steps())
    driver.run_until_idle()
    assert factory.wait_for_cache_sync(threading.Event()) == {V1Deployment: True, V1Pod: True}
    assert [p.metadata.name for p in pods.lister().pods("default").list(labels.everything())] == ["a"]
    cs.core_v1().pods("default").create(wire_pod("b"))
    driver.run_until_idle()
    assert pods.lister().pods("default").get("b").metadata.name == "b"


def test_start_is_idempotent_and_late_informers_start_later(cs, driven_clock):
    factory = deterministic_factory(cs, driven_clock)
    factory.core().v1().pods().informer()
    factory.start(threading.Event())
    first = factory.steps()
    factory.start(threading.Event())
    assert [s.name for s in factory.steps()] == [s.name for s in first]
    factory.coordination().v1().leases().informer()
    assert factory.wait_for_cache_sync(threading.Event()).keys() == {V1Pod}, "not started yet"
    factory.start(threading.Event())
    assert factory.wait_for_cache_sync(threading.Event()).keys() == {V1Lease, V1Pod}
    assert len(factory.steps()) == 2 * len(first)


def test_namespace_and_tweak_list_options(cs, driven_clock, server):
    cs.core_v1().namespaces().create({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "other"}})
    cs.core_v1().pods("default").create(wire_pod("web-1", labels_={"app": "web"}))
    cs.core_v1().pods("default").create(wire_pod("db-1", labels_={"app": "db"}))
    cs.core_v1().pods("other").create(wire_pod("web-2", "other", {"app": "web"}))

    def only_web(options: ListOptions) -> None:
        options.label_selector = "app=web"

    factory = new_filtered_shared_informer_factory(cs, 0, "default", only_web)
    factory.clock, factory.rng = driven_clock, random.Random(3)  # the driven clock: steps, no threads
    pods = factory.core().v1().pods()
    pods.informer()
    factory.start(threading.Event())
    Driver(driven_clock, factory.steps()).run_until_idle()
    assert [p.metadata.name for p in pods.lister().list(labels.everything())] == ["web-1"]


def test_cluster_scoped_informer(cs, driven_clock, server):
    factory = deterministic_factory(cs, driven_clock)
    namespaces = factory.core().v1().namespaces()
    namespaces.informer()
    factory.start(threading.Event())
    Driver(driven_clock, factory.steps()).run_until_idle()
    assert namespaces.lister().get("kube-system").metadata.name == "kube-system"
    assert isinstance(namespaces.lister().get("default"), V1Namespace)


def test_start_after_shutdown_does_nothing(cs, driven_clock):
    factory = deterministic_factory(cs, driven_clock)
    factory.core().v1().pods().informer()
    factory.shutdown()
    factory.start(threading.Event())
    assert factory.steps() == [] and factory.started_informers == {}


@pytest.mark.threaded
def test_threaded_start_wait_and_shutdown():
    server = APIServer()
    cs = InProcessClientset(server)
    cs.core_v1().pods("default").create(wire_pod("a"))
    factory = new_shared_informer_factory_with_options(cs, 0)  # the real clock: threads
    pods = factory.core().v1().pods()
    pods.informer()
    factory.apps().v1().deployments().informer()
    stop = threading.Event()
    factory.start(stop)
    assert sorted(t.name for t in factory.threads) == ["informer/apps/v1/deployments", "informer/v1/pods"]
    assert factory.wait_for_cache_sync(stop) == {V1Deployment: True, V1Pod: True}
    assert pods.lister().pods("default").get("a").metadata.name == "a"
    stop.set()
    factory.shutdown()
    assert all(not t.is_alive() for t in factory.threads)
