"""Tests for minikcm.controller.deployment.deployment_controller.

Ports of pkg/controller/deployment/deployment_controller_test.go (the tests
listed in shared/reference/upstream-map.md C.2), through the `Fixture` of
fixtures.py: seeded informer indexers, a clientset over the embedded API
server, the expected client actions. Plus our own tests of the work loop
(handle_err's retry budget) and of steps().
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from kubernetes.client import V1LabelSelector, V1PodStatus

from minikcm.apimachinery import errors
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.meta import new_controller_ref
from minikcm.apimachinery.schema import GroupResource
from minikcm.controller.deployment import deployment_controller as dcmod
from minikcm.controller.deployment.rollback import RollbackConfig, set_rollback_to
from minikcm.controller.deployment.util import deployment_util as util
from minikcm.tools.cache.delta_fifo import DeletedFinalStateUnknown

from .fixtures import (
    Fixture,
    bump_resource_version,
    generate_pod_from_rs,
    get_key,
    new_deployment,
    new_replica_set,
    recreate,
    server_valid,
)

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
FOO_BAR = {"foo": "bar"}


def test_sync_deployment_creates_replica_set():
    """Port of TestSyncDeploymentCreatesReplicaSet: create the RS, then two status writes."""
    f = Fixture()
    d = server_valid(new_deployment("foo", 1, selector=FOO_BAR))
    f.d_lister.append(d)
    f.objects.append(d)
    r = new_replica_set(d, "deploymentrs-4186632231", 1)
    f.expect_create_rs_action(r)
    f.expect_update_deployment_status_action(d)
    f.expect_update_deployment_status_action(d)
    f.run(get_key(d))


def test_sync_deployment_dont_do_anything_during_deletion():
    """Port of TestSyncDeploymentDontDoAnythingDuringDeletion: only the status is written."""
    f = Fixture()
    d = server_valid(new_deployment("foo", 1, selector=FOO_BAR))
    d.metadata.deletion_timestamp = NOW
    d.metadata.finalizers = ["example.com/hold"]  # a deleted object stays stored only while it has finalizers
    f.d_lister.append(d)
    f.objects.append(d)
    f.expect_update_deployment_status_action(d)
    f.run(get_key(d))


def test_sync_deployment_deletion_race():
    """Port of TestSyncDeploymentDeletionRace: a live read shows the deletion, so no adoption and an error."""
    f = Fixture()
    d = server_valid(new_deployment("foo", 1, selector=FOO_BAR))
    d2 = deep_copy(d)
    f.d_lister.append(d)  # the cache says: not deleted
    d2.metadata.deletion_timestamp = NOW  # the server says: deleted (more up to date)
    d2.metadata.finalizers = ["example.com/hold"]  # keeps a deleted object stored, as in a real cluster
    f.objects.append(d2)
    # The recheck only happens when there is an orphan to adopt.
    r = new_replica_set(d, "rs1", 1)
    r.metadata.owner_references = None
    f.objects.append(r)
    f.rs_lister.append(r)
    f.expect_get_deployment_action(d)  # only the recheck
    f.run_expect_error(get_key(d))


def test_dont_sync_deployments_with_empty_pod_selector():
    """Port of TestDontSyncDeploymentsWithEmptyPodSelector: no action (generation 0 is observed already)."""
    f = Fixture()
    d = new_deployment("foo", 1, selector=FOO_BAR)
    d.spec.selector = V1LabelSelector()
    f.d_lister.append(d)  # not seeded into the server: validation refuses an empty selector
    f.run(get_key(d))


def test_dont_sync_deployments_with_empty_pod_selector_records_observed_generation():
    """Ours: with a generation to observe, the warning comes with one status write."""
    f = Fixture()
    d = server_valid(new_deployment("foo", 1, selector=FOO_BAR))
    f.objects.append(deep_copy(d))
    d.spec.selector = V1LabelSelector()
    d.metadata.generation = 2
    f.d_lister.append(d)
    f.expect_update_deployment_status_action(d)
    f.run(get_key(d))


def test_reentrant_rollback():
    """Port of TestReentrantRollback: the rollback updates the Deployment and no ReplicaSet.

    Differs: upstream also puts pod-template-hash=hash into the shared selector
    map; our objects must pass validation, and the label plays no part here.
    """
    f = Fixture()
    d = server_valid(new_deployment("foo", 1, selector=FOO_BAR))
    d.metadata.annotations = {util.REVISION_ANNOTATION: "2"}
    set_rollback_to(d, RollbackConfig(revision=0))
    f.d_lister.append(d)

    rs1 = new_replica_set(d, "deploymentrs-old", 0)
    rs1.metadata.annotations = {util.REVISION_ANNOTATION: "1"}
    rs1.spec.template.spec.termination_grace_period_seconds = 1
    rs2 = new_replica_set(d, "deploymentrs-new", 1)
    rs2.metadata.annotations = {util.REVISION_ANNOTATION: "2"}
    f.rs_lister += [rs1, rs2]
    f.objects += [d, rs1, rs2]

    f.expect_update_deployment_action(d)  # the rollback; no update of the replica sets
    f.run(get_key(d))


def _capture_enqueues(dc: dcmod.DeploymentController) -> list[str]:
    names: list[str] = []
    dc.enqueue_deployment = lambda d: names.append(d.metadata.name)
    return names


def test_pod_deletion_enqueues_recreate_deployment():
    """Port of TestPodDeletionEnqueuesRecreateDeployment: the last pod gone wakes a Recreate Deployment."""
    f = Fixture()
    foo = recreate(new_deployment("foo", 1, selector=FOO_BAR))
    r = new_replica_set(foo, "foo-1", 1)
    pod = generate_pod_from_rs(r)
    f.d_lister.append(foo)
    f.rs_lister.append(r)
    f.objects += [foo, r]
    dc, _ = f.new_controller()
    enqueued = _capture_enqueues(dc)
    dc.delete_pod(pod)
    assert enqueued == ["foo"]


def test_pod_deletion_doesnt_enqueue_recreate_deployment():
    """Port of TestPodDeletionDoesntEnqueueRecreateDeployment: another pod still exists, so no wake-up."""
    f = Fixture()
    foo = recreate(new_deployment("foo", 1, selector=FOO_BAR))
    r = new_replica_set(foo, "foo-1", 1)
    pod1 = generate_pod_from_rs(r)
    pod2 = generate_pod_from_rs(r)
    pod2.metadata.name = "foo-1-pod-2"
    f.d_lister.append(foo)
    f.rs_lister.append(r)
    f.objects += [foo, r]
    f.pod_lister.append(pod2)  # the pod lister still has a pod of the deployment
    dc, _ = f.new_controller()
    enqueued = _capture_enqueues(dc)
    dc.delete_pod(pod1)
    assert enqueued == []


def test_pod_deletion_partial_replica_set_ownership_enqueue_recreate_deployment():
    """Port of TestPodDeletionPartialReplicaSetOwnershipEnqueueRecreateDeployment: an orphan RS is not counted."""
    f = Fixture()
    foo = recreate(new_deployment("foo", 1, selector=FOO_BAR))
    rs1 = new_replica_set(foo, "foo-1", 1)
    rs2 = new_replica_set(foo, "foo-2", 2)
    rs2.metadata.owner_references = None
    pod = generate_pod_from_rs(rs1)
    f.d_lister.append(foo)
    f.rs_lister += [rs1, rs2]
    f.objects += [foo, rs1, rs2]
    dc, _ = f.new_controller()
    enqueued = _capture_enqueues(dc)
    dc.delete_pod(pod)
    assert enqueued == ["foo"]


def test_pod_deletion_partial_replica_set_ownership_doesnt_enqueue_recreate_deployment():
    """Port of TestPodDeletionPartialReplicaSetOwnershipDoesntEnqueueRecreateDeployment."""
    f = Fixture()
    foo = recreate(new_deployment("foo", 1, selector=FOO_BAR))
    rs1 = new_replica_set(foo, "foo-1", 1)
    rs2 = new_replica_set(foo, "foo-2", 2)
    rs2.metadata.owner_references = None
    pod = generate_pod_from_rs(rs1)
    f.d_lister.append(foo)
    f.rs_lister += [rs1, rs2]
    f.objects += [foo, rs1, rs2]
    f.pod_lister.append(pod)  # still in the cache: the deployment has a pod
    dc, _ = f.new_controller()
    enqueued = _capture_enqueues(dc)
    dc.delete_pod(pod)
    assert enqueued == []


def test_pod_deletion_of_rolling_deployment_pod_enqueues_nothing():
    """Ours: only Recreate Deployments care about pod deletions."""
    f = Fixture()
    foo = server_valid(new_deployment("foo", 1, selector=FOO_BAR))
    r = new_replica_set(foo, "foo-1", 1)
    f.d_lister.append(foo)
    f.rs_lister.append(r)
    f.objects += [foo, r]
    dc, _ = f.new_controller()
    enqueued = _capture_enqueues(dc)
    dc.delete_pod(DeletedFinalStateUnknown("default/foo-1-pod", generate_pod_from_rs(r)))
    assert enqueued == []


def test_get_replica_sets_for_deployment():
    """Port of TestGetReplicaSetsForDeployment: each Deployment gets only the ReplicaSet it controls."""
    f = Fixture()
    d1 = server_valid(new_deployment("foo", 1, selector=FOO_BAR))
    d2 = server_valid(new_deployment("bar", 1, selector=FOO_BAR))
    rs1 = new_replica_set(d1, "rs1", 1)
    rs2 = new_replica_set(d2, "rs2", 1)
    f.d_lister += [d1, d2]
    f.rs_lister += [rs1, rs2]
    f.objects += [d1, d2, rs1, rs2]
    dc, _ = f.new_controller()
    assert [r.metadata.name for r in dc.get_replica_sets_for_deployment(d1)] == ["rs1"]
    assert [r.metadata.name for r in dc.get_replica_sets_for_deployment(d2)] == ["rs2"]


def test_get_replica_sets_for_deployment_adopt_release():
    """Port of TestGetReplicaSetsForDeploymentAdoptRelease: adopt the matching orphan, release the mismatch."""
    f = Fixture()
    d = server_valid(new_deployment("foo", 1, selector=FOO_BAR))
    rs_adopt = new_replica_set(d, "rsadopt", 1)
    rs_adopt.metadata.owner_references = None  # matching labels, orphaned: adopted and returned
    rs_release = new_replica_set(d, "rsrelease", 1)
    rs_release.metadata.labels = {"foo": "notbar"}  # ours, wrong labels: released
    f.d_lister.append(d)
    f.rs_lister += [rs_adopt, rs_release]
    f.objects += [d, rs_adopt, rs_release]
    dc, _ = f.new_controller()
    assert [r.metadata.name for r in dc.get_replica_sets_for_deployment(d)] == ["rsadopt"]
    assert f.client is not None
    adopted = f.client.apps_v1().replica_sets("default").get("rsadopt")
    released = f.client.apps_v1().replica_sets("default").get("rsrelease")
    assert [o.uid for o in adopted.metadata.owner_references] == [d.metadata.uid]
    assert not released.metadata.owner_references


def test_get_pod_map_for_replica_sets():
    """Port of TestGetPodMapForReplicaSets: pods grouped by their controller, inactive ones included."""
    f = Fixture()
    d = server_valid(new_deployment("foo", 1, selector=FOO_BAR))
    rs1 = new_replica_set(d, "rs1", 1)
    rs2 = new_replica_set(d, "rs2", 1)
    pod1 = generate_pod_from_rs(rs1)
    pod2 = generate_pod_from_rs(rs2)
    pod3 = generate_pod_from_rs(rs1)  # matching labels, no controller
    pod3.metadata.name = "pod3"
    pod3.metadata.owner_references = None
    pod4 = generate_pod_from_rs(rs1)  # controlled but inactive
    pod4.metadata.name = "pod4"
    pod4.status = V1PodStatus(phase="Failed")
    f.d_lister.append(d)
    f.rs_lister += [rs1, rs2]
    f.pod_lister += [pod1, pod2, pod3, pod4]
    dc, _ = f.new_controller()

    pod_map = dc.get_pod_map_for_deployment(d, f.rs_lister)
    assert sum(len(pods) for pods in pod_map.values()) == 3
    assert len(pod_map) == 2
    assert sorted(p.metadata.name for p in pod_map[rs1.metadata.uid]) == ["pod4", "rs1-pod"]
    assert [p.metadata.name for p in pod_map[rs2.metadata.uid]] == ["rs2-pod"]


def _take_key(dc: dcmod.DeploymentController) -> str:
    key, shutdown = dc.queue.get()
    assert not shutdown and key is not None
    dc.queue.done(key)
    return key


def _two_deployments_two_owned_rs(f: Fixture):
    d1 = server_valid(new_deployment("d1", 1, selector=FOO_BAR))
    d2 = server_valid(new_deployment("d2", 1, selector=FOO_BAR))
    rs1 = new_replica_set(d1, "rs1", 1)
    rs2 = new_replica_set(d2, "rs2", 1)
    f.d_lister += [d1, d2]
    f.rs_lister += [rs1, rs2]
    return d1, d2, rs1, rs2


def test_add_replica_set():
    """Port of TestAddReplicaSet: an owned ReplicaSet wakes its owner only."""
    f = Fixture()
    d1, d2, rs1, rs2 = _two_deployments_two_owned_rs(f)
    dc, _ = f.new_controller()
    dc.add_replica_set(rs1)
    assert dc.queue.len() == 1
    assert _take_key(dc) == get_key(d1)
    dc.add_replica_set(rs2)
    assert dc.queue.len() == 1
    assert _take_key(dc) == get_key(d2)


def test_add_replica_set_orphan():
    """Port of TestAddReplicaSetOrphan: an orphan wakes every Deployment that matches it."""
    f = Fixture()
    d1 = new_deployment("d1", 1, selector=FOO_BAR)
    d2 = new_deployment("d2", 1, selector=FOO_BAR)
    d3 = new_deployment("d3", 1, selector=FOO_BAR)
    d3.spec.selector.match_labels = {"foo": "notbar"}
    r = new_replica_set(d1, "rs1", 1)
    r.metadata.owner_references = None
    f.d_lister += [d1, d2, d3]
    dc, _ = f.new_controller()
    dc.add_replica_set(r)
    assert dc.queue.len() == 2


def test_update_replica_set():
    """Port of TestUpdateReplicaSet: an update of an owned ReplicaSet wakes its owner."""
    f = Fixture()
    d1, d2, rs1, rs2 = _two_deployments_two_owned_rs(f)
    dc, _ = f.new_controller()
    for r, d in ((rs1, d1), (rs2, d2)):
        prev, nxt = deep_copy(r), deep_copy(r)
        bump_resource_version(nxt)
        dc.update_replica_set(prev, nxt)
        assert dc.queue.len() == 1
        assert _take_key(dc) == get_key(d)


def test_update_replica_set_resync_is_ignored():
    """Ours: the same resourceVersion (a resync) wakes nobody."""
    f = Fixture()
    _, _, rs1, _ = _two_deployments_two_owned_rs(f)
    dc, _ = f.new_controller()
    dc.update_replica_set(deep_copy(rs1), deep_copy(rs1))
    assert dc.queue.len() == 0


def test_update_replica_set_orphan_with_new_labels():
    """Port of TestUpdateReplicaSetOrphanWithNewLabels: changed labels on an orphan wake all matches."""
    f = Fixture()
    d1 = new_deployment("d1", 1, selector=FOO_BAR)
    d2 = new_deployment("d2", 1, selector=FOO_BAR)
    r = new_replica_set(d1, "rs1", 1)
    r.metadata.owner_references = None
    f.d_lister += [d1, d2]
    f.rs_lister.append(r)
    dc, _ = f.new_controller()
    prev = deep_copy(r)
    prev.metadata.labels = {"foo": "notbar"}
    nxt = deep_copy(r)
    bump_resource_version(nxt)
    dc.update_replica_set(prev, nxt)
    assert dc.queue.len() == 2


def test_update_replica_set_change_controller_ref():
    """Port of TestUpdateReplicaSetChangeControllerRef: the old and the new owner both wake."""
    f = Fixture()
    d1 = new_deployment("d1", 1, selector=FOO_BAR)
    d2 = new_deployment("d2", 1, selector=FOO_BAR)
    r = new_replica_set(d1, "rs1", 1)
    f.d_lister += [d1, d2]
    f.rs_lister.append(r)
    dc, _ = f.new_controller()
    prev = deep_copy(r)
    prev.metadata.owner_references = [new_controller_ref(d2, dcmod.controller_kind)]
    nxt = deep_copy(r)
    bump_resource_version(nxt)
    dc.update_replica_set(prev, nxt)
    assert dc.queue.len() == 2


def test_update_replica_set_release():
    """Port of TestUpdateReplicaSetRelease: a released ReplicaSet wakes the old owner and the matches."""
    f = Fixture()
    d1 = new_deployment("d1", 1, selector=FOO_BAR)
    d2 = new_deployment("d2", 1, selector=FOO_BAR)
    r = new_replica_set(d1, "rs1", 1)
    f.d_lister += [d1, d2]
    f.rs_lister.append(r)
    dc, _ = f.new_controller()
    prev = deep_copy(r)
    nxt = deep_copy(r)
    nxt.metadata.owner_references = None
    bump_resource_version(nxt)
    dc.update_replica_set(prev, nxt)
    assert dc.queue.len() == 2


def test_delete_replica_set():
    """Port of TestDeleteReplicaSet: a deleted owned ReplicaSet wakes its owner."""
    f = Fixture()
    d1, d2, rs1, rs2 = _two_deployments_two_owned_rs(f)
    dc, _ = f.new_controller()
    dc.delete_replica_set(rs1)
    assert dc.queue.len() == 1
    assert _take_key(dc) == get_key(d1)
    dc.delete_replica_set(DeletedFinalStateUnknown("default/rs2", rs2))  # a tombstone works too
    assert dc.queue.len() == 1
    assert _take_key(dc) == get_key(d2)


def test_delete_replica_set_orphan():
    """Port of TestDeleteReplicaSetOrphan: nobody cares about an orphan being deleted."""
    f = Fixture()
    d1 = new_deployment("d1", 1, selector=FOO_BAR)
    d2 = new_deployment("d2", 1, selector=FOO_BAR)
    r = new_replica_set(d1, "rs1", 1)
    r.metadata.owner_references = None
    f.d_lister += [d1, d2]
    f.rs_lister.append(r)
    dc, _ = f.new_controller()
    dc.delete_replica_set(r)
    assert dc.queue.len() == 0


def test_add_replica_set_being_deleted_is_handled_as_delete():
    """Ours: an RS that shows up already being deleted wakes its owner, as a delete does."""
    f = Fixture()
    d1, _, rs1, _ = _two_deployments_two_owned_rs(f)
    rs1.metadata.deletion_timestamp = NOW
    dc, _ = f.new_controller()
    dc.add_replica_set(rs1)
    assert _take_key(dc) == get_key(d1)


RESOLVE_CONTROLLER_REF_CASES = [
    pytest.param("Deployment", True, True, id="matching-uid"),
    pytest.param("Deployment", False, False, id="uid-mismatch"),
    pytest.param("ReplicaSet", True, False, id="wrong-kind"),
]


@pytest.mark.parametrize("kind, same_uid, found", RESOLVE_CONTROLLER_REF_CASES)
def test_resolve_controller_ref(kind, same_uid, found):
    """Ours: resolve_controller_ref checks kind, name and uid."""
    f = Fixture()
    d = new_deployment("d1", 1, selector=FOO_BAR)
    f.d_lister.append(d)
    dc, _ = f.new_controller()
    ref = new_replica_set(d, "rs", 1).metadata.owner_references[0]
    ref.kind = kind
    if not same_uid:
        ref.uid = "someone-else"
    assert (dc.resolve_controller_ref("default", ref) is not None) == found


# --- the work loop (ours) -------------------------------------------------------------------------


def test_handle_err_retries_then_drops(monkeypatch):
    """Ours: MAX_RETRIES rate-limited retries, then the key is dropped and its failures forgotten."""
    f = Fixture()
    dc, _ = f.new_controller()
    reported = []
    monkeypatch.setattr(dcmod.runtime, "handle_error", lambda err, *a: reported.append(err))
    err = RuntimeError("boom")
    for _ in range(dcmod.MAX_RETRIES):
        dc.handle_err(err, "default/foo")
    assert dc.queue.num_requeues("default/foo") == dcmod.MAX_RETRIES
    assert reported == []
    dc.handle_err(err, "default/foo")
    assert reported == [err]
    assert dc.queue.num_requeues("default/foo") == 0


def test_handle_err_forgets_namespace_terminating():
    """Ours: an error caused by a terminating namespace is not retried."""
    f = Fixture()
    dc, _ = f.new_controller()
    dc.queue.add_rate_limited("default/foo")
    err = errors.new_forbidden(GroupResource("apps", "replicasets"), "x", RuntimeError("ns terminating"))
    err.err_status.setdefault("details", {})["causes"] = [{"reason": "NamespaceTerminating"}]
    dc.handle_err(err, "default/foo")
    assert dc.queue.num_requeues("default/foo") == 0


def test_process_next_work_item_requeues_failed_sync():
    """Ours: the one catch-all turns a failing sync into a rate-limited retry."""
    f = Fixture()
    dc, _ = f.new_controller()
    calls = []

    def failing(key: str) -> None:
        calls.append(key)
        raise RuntimeError("sync failed")

    dc.sync_handler = failing
    dc.queue.add("default/foo")
    assert dc.process_next_work_item() is True
    assert calls == ["default/foo"]
    assert dc.queue.num_requeues("default/foo") == 1
    assert dc.queue.len() == 0  # parked in the delaying queue, not yet back


def test_steps_names_and_readiness():
    """Ours: one worker step, ready only with a key, plus the queue's and broadcaster's steps."""
    f = Fixture()
    dc, _ = f.new_controller()
    steps = dc.steps()
    assert [s.name for s in steps] == ["deployment/worker", "workqueue/deployment/waiting", "watch/broadcaster",
                                      "record/broadcaster"]
    assert not steps[0].ready()
    dc.queue.add("default/foo")
    assert steps[0].ready()


def test_sync_deployment_missing_is_a_no_op():
    """Ours: a key whose Deployment is gone from the cache syncs to nothing."""
    f = Fixture()
    f.run("default/gone")


@pytest.mark.threaded
def test_run_threaded_smoke():
    """Ours: run() with real threads and the real clock rolls a Deployment out (short real timings)."""
    import random
    import threading
    import time

    from minikcm.apiserver.server import APIServer
    from minikcm.client import InProcessClientset
    from minikcm.controller.replicaset.replica_set import BURST_REPLICAS, new_replica_set_controller
    from minikcm.informers import new_shared_informer_factory_with_options
    from minikcm.sim.kubelet import KubeletConfig, new_kubelet

    server = APIServer(rng=random.Random(1))
    client = InProcessClientset(server)
    factory = new_shared_informer_factory_with_options(client, 0)
    f = factory
    dc = dcmod.new_deployment_controller(f.apps().v1().deployments(), f.apps().v1().replica_sets(),
                                         f.core().v1().pods(), client)
    rsc = new_replica_set_controller(f.apps().v1().replica_sets(), f.core().v1().pods(), client, BURST_REPLICAS)
    kubelet = new_kubelet(client, f.core().v1().pods(), config=KubeletConfig(start_delay=0.05, ready_delay=0.05))
    stop = threading.Event()
    threads = [threading.Thread(name=n, target=t, args=a, daemon=True) for n, t, a in (
        ("test/deployment", dc.run, (2, stop)), ("test/replicaset", rsc.run, (2, stop)),
        ("test/kubelet", kubelet.run, (stop,)))]
    factory.start(stop)
    for t in threads:
        t.start()
    try:
        d = server_valid(new_deployment("web", 2, selector={"app": "web"}))
        d.metadata.uid = None
        client.apps_v1().deployments("default").create(d)
        deadline = time.monotonic() + 10
        status = None
        while time.monotonic() < deadline:
            status = client.apps_v1().deployments("default").get("web").status
            if status is not None and (status.available_replicas or 0) == 2 and (status.updated_replicas or 0) == 2:
                break
            time.sleep(0.05)
        assert status is not None and status.available_replicas == 2, status
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=5)
        factory.shutdown()
    assert all(not t.is_alive() for t in threads)
