"""Integration: cascading deletion end to end, deterministic, under the driver.

The embedded API server (through the in-process clientset), a shared informer
factory and the garbage collector share one FakeClock; the driver runs the
informers' and the collector's steps. The owner chains are plain objects the
tests create (a ReplicaSet owning pods with controller references that block
owner deletion), so only the collector acts on them; the last test runs the
Deployment and ReplicaSet controllers and the simulated kubelet too, for
`kubectl delete deployment --cascade=foreground`.

These belong to tests/integration by kind; they live here because this
package's tests are the collector's helper's to write.
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from minikcm.apimachinery import errors, meta
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.garbagecollector.garbagecollector import GarbageCollector, new_garbage_collector
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.driver import Driver, Step

NS = "default"
POD_SPEC = {"containers": [{"name": "c", "image": "nginx:1.27"}]}


class Cluster:
    """The API server, the informers and the collector on one FakeClock."""

    def __init__(self, seed: int = 1) -> None:
        self.clock = FakeClock(EPOCH, driven=True)
        self.server = APIServer(clock=self.clock, rng=random.Random(seed))
        self.client = InProcessClientset(self.server)
        self.factory = new_shared_informer_factory_with_options(self.client, 0, clock=self.clock,
                                                                rng=random.Random(seed + 1))
        self.gc: GarbageCollector = new_garbage_collector(self.client, self.factory, None)

    def start(self, *extra_steps: Step) -> Driver:
        self.factory.start(threading.Event())
        self.driver = Driver(self.clock, self.factory.steps() + list(extra_steps) + self.gc.steps())
        return self.driver

    def create_rs(self, name: str = "web") -> Any:
        return self.client.apps_v1().replica_sets(NS).create({
            "apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": name, "namespace": NS},
            "spec": {"replicas": 0, "selector": {"matchLabels": {"app": name}},
                     "template": {"metadata": {"labels": {"app": name}}, "spec": POD_SPEC}}})

    def create_pod(self, name: str, owner: Any | None = None, *, owner_uid: str | None = None,
                   scheduled: bool = False) -> Any:
        m: dict[str, Any] = {"name": name, "namespace": NS, "labels": {"app": "web"}}
        if owner is not None or owner_uid is not None:
            m["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                     "name": owner.metadata.name if owner is not None else "web",
                                     "uid": owner.metadata.uid if owner is not None else owner_uid,
                                     "controller": True, "blockOwnerDeletion": True}]
        spec = dict(POD_SPEC, nodeName="sim-node-0") if scheduled else POD_SPEC  # scheduled: graceful delete
        return self.client.core_v1().pods(NS).create({"apiVersion": "v1", "kind": "Pod", "metadata": m,
                                                      "spec": spec})

    def pods(self) -> list[Any]:
        return self.client.core_v1().pods(NS).list().items

    def pod_names(self) -> list[str]:
        return sorted(p.metadata.name for p in self.pods())

    def replica_sets(self) -> list[Any]:
        return self.client.apps_v1().replica_sets(NS).list().items

    def delete_rs(self, policy: str, name: str = "web") -> None:
        self.client.apps_v1().replica_sets(NS).delete(name, meta.DeleteOptions(propagation_policy=policy))

    def finish_pod_deletions(self) -> None:
        """What a kubelet does at the end of a graceful deletion: delete with grace period 0."""
        for pod in self.pods():
            if pod.metadata.deletion_timestamp is not None:
                self.client.core_v1().pods(NS).delete(pod.metadata.name, meta.DeleteOptions(grace_period_seconds=0))


def rs_with_pods(c: Cluster, n: int = 2, *, scheduled: bool = False) -> Any:
    rs = c.create_rs()
    for i in range(n):
        c.create_pod(f"web-{i}", rs, scheduled=scheduled)
    c.start()
    c.driver.run_until_idle()
    return rs


def test_background_deletes_owner_first_then_dependents():
    c = Cluster()
    rs = rs_with_pods(c)
    assert c.gc.graph_has_uid(rs.metadata.uid)
    c.delete_rs(meta.DELETE_PROPAGATION_BACKGROUND)
    assert c.replica_sets() == [] and c.pod_names() == ["web-0", "web-1"]  # the owner goes at once
    c.driver.run_until_idle()
    assert c.pods() == []
    assert not c.gc.graph_has_uid(rs.metadata.uid)


def test_foreground_keeps_owner_until_blocking_dependents_are_gone():
    c = Cluster()
    rs_with_pods(c, scheduled=True)  # graceful pod deletion: the pods linger until "the kubelet" finishes
    c.delete_rs(meta.DELETE_PROPAGATION_FOREGROUND)
    c.driver.run_until_idle()
    (rs,) = c.replica_sets()
    assert rs.metadata.deletion_timestamp is not None
    assert rs.metadata.finalizers == [meta.FINALIZER_DELETE_DEPENDENTS]
    assert all(p.metadata.deletion_timestamp is not None for p in c.pods())  # the collector deleted them
    assert len(c.pods()) == 2
    c.finish_pod_deletions()
    c.driver.run_until_idle()
    assert c.pods() == [] and c.replica_sets() == []


def test_foreground_with_pods_that_go_at_once():
    c = Cluster()
    rs_with_pods(c, 3)
    c.delete_rs(meta.DELETE_PROPAGATION_FOREGROUND)
    c.driver.run_until_idle()
    assert c.pods() == [] and c.replica_sets() == []


def test_foreground_owner_is_not_held_by_non_blocking_dependents():
    c = Cluster()
    rs = c.create_rs()
    pod = c.create_pod("web-0", rs, scheduled=True)
    pod.metadata.owner_references[0].block_owner_deletion = False
    c.client.core_v1().pods(NS).update(pod)
    c.start()
    c.driver.run_until_idle()
    c.delete_rs(meta.DELETE_PROPAGATION_FOREGROUND)
    c.driver.run_until_idle()
    assert c.replica_sets() == []  # gone while its pod still terminates
    assert c.pods()[0].metadata.deletion_timestamp is not None


def test_orphan_keeps_dependents_without_the_reference():
    c = Cluster()
    rs_with_pods(c)
    c.delete_rs(meta.DELETE_PROPAGATION_ORPHAN)
    (rs,) = c.replica_sets()
    assert rs.metadata.finalizers == [meta.FINALIZER_ORPHAN_DEPENDENTS]  # the server added it
    c.driver.run_until_idle()
    assert c.replica_sets() == []
    assert c.pod_names() == ["web-0", "web-1"]
    assert all(not p.metadata.owner_references for p in c.pods())
    assert all(p.metadata.deletion_timestamp is None for p in c.pods())


DANGLING_CASES = [
    pytest.param(False, id="owner-uid-does-not-exist"),
    pytest.param(True, id="owner-name-holds-another-uid"),
]


@pytest.mark.parametrize("same_name_exists", DANGLING_CASES)
def test_dependent_of_missing_owner_is_deleted(same_name_exists):
    c = Cluster()
    if same_name_exists:
        c.create_rs("web")  # a ReplicaSet named web, but not the one the pod names
    c.create_pod("stray", owner_uid="no-such-uid")
    kept = c.create_rs("kept")
    c.create_pod("owned", kept)
    c.start()
    c.driver.run_until_idle()
    assert c.pod_names() == ["owned"]
    assert len(c.replica_sets()) == (2 if same_name_exists else 1)


def test_owner_recreated_under_the_same_name_does_not_adopt_old_dependents():
    c = Cluster()
    old = rs_with_pods(c, 1)
    c.delete_rs(meta.DELETE_PROPAGATION_ORPHAN)
    c.driver.run_until_idle()
    c.create_rs("web")
    orphan = c.pods()[0]
    orphan.metadata.owner_references = [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web",
                                         "uid": old.metadata.uid, "controller": True}]
    c.client.core_v1().pods(NS).update(orphan)  # points at the old uid again
    c.driver.run_until_idle()
    assert c.pods() == []  # the name exists, the uid does not: dangling


def trace_of_one_run() -> list[str]:
    c = Cluster(seed=3)
    rs_with_pods(c, 3)
    c.delete_rs(meta.DELETE_PROPAGATION_FOREGROUND)
    c.driver.run_until_idle()
    return [str(e) for e in c.driver.trace]


def test_same_seed_gives_same_trace():
    assert trace_of_one_run() == trace_of_one_run()


# --- kubectl delete deployment --cascade=foreground ------------------------------------------------


def test_deployment_foreground_cascade_through_replica_sets_to_pods():
    from minikcm.controller.deployment.deployment_controller import new_deployment_controller
    from minikcm.controller.replicaset.replica_set import BURST_REPLICAS, new_replica_set_controller
    from minikcm.sim.kubelet import new_kubelet

    c = Cluster()
    f = c.factory
    dc = new_deployment_controller(f.apps().v1().deployments(), f.apps().v1().replica_sets(),
                                   f.core().v1().pods(), c.client)
    rsc = new_replica_set_controller(f.apps().v1().replica_sets(), f.core().v1().pods(), c.client, BURST_REPLICAS)
    kubelet = new_kubelet(c.client, f.core().v1().pods(), rng=random.Random(2))
    c.start(*kubelet.steps(), *rsc.steps(), *dc.steps())
    c.client.apps_v1().deployments(NS).create({
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": NS},
        "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                 "template": {"metadata": {"labels": {"app": "web"}},
                              "spec": dict(POD_SPEC, terminationGracePeriodSeconds=5)}}})
    c.driver.run_until_idle()
    assert len(c.replica_sets()) == 1 and len(c.pods()) == 3

    seen: dict[str, Any] = {"max_pods": 3, "dep_gone_with_pods": False, "rs_gone_with_pods": False}

    def observe(driver: Driver) -> None:
        # the cascade's order: nothing is recreated, and no owner goes before its blocking dependents
        pods = len(c.server.list("pods", NS)["items"])
        seen["max_pods"] = max(seen["max_pods"], pods)
        if not c.server.list("deployments", NS)["items"] and (pods or c.server.list("replicasets", NS)["items"]):
            seen["dep_gone_with_pods"] = True
        if not c.server.list("replicasets", NS)["items"] and pods:
            seen["rs_gone_with_pods"] = True

    c.driver.observers.append(observe)
    c.client.apps_v1().deployments(NS).delete("web", meta.DeleteOptions(
        propagation_policy=meta.DELETE_PROPAGATION_FOREGROUND))  # kubectl delete --cascade=foreground
    deployment = c.client.apps_v1().deployments(NS).get("web")
    assert deployment.metadata.finalizers == [meta.FINALIZER_DELETE_DEPENDENTS]
    c.driver.run_for(1)
    (rs,) = c.replica_sets()
    assert rs.metadata.finalizers == [meta.FINALIZER_DELETE_DEPENDENTS]  # deleted in the foreground in turn
    c.driver.run_until_idle()
    with pytest.raises(errors.StatusError):
        c.client.apps_v1().deployments(NS).get("web")
    assert c.replica_sets() == [] and c.pods() == []
    assert seen == {"max_pods": 3, "dep_gone_with_pods": False, "rs_gone_with_pods": False}
