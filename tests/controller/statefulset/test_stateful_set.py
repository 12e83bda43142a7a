"""Tests for minikcm.controller.statefulset.stateful_set.

Ports of pkg/controller/statefulset/stateful_set_test.go: a real controller
over informers that are never started (the fake object manager writes into
their indexers), whose control is swapped for one over the fakes, exactly as
upstream's newFakeStatefulSetController. The client behind it (used to re-read
the set before adopting and to patch adopted or released pods) is our fake
clientset seeded with the same objects.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from kubernetes.client import V1OwnerReference, V1Pod, V1StatefulSetPersistentVolumeClaimRetentionPolicy

from minikcm.apimachinery import labels
from minikcm.apimachinery.convert import deep_copy, to_wire
from minikcm.apimachinery.meta import get_controller_of, label_selector_as_selector
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.client.fake import new_simple_clientset
from minikcm.clock import EPOCH, FakeClock, RealClock
from minikcm.controller.controller_utils import key_func
from minikcm.controller.history.controller_history import new_controller_revision, new_fake_history
from minikcm.controller.statefulset.stateful_pod_control import new_stateful_pod_control_from_manager
from minikcm.controller.statefulset.stateful_set import StatefulSetController, new_stateful_set_controller
from minikcm.controller.statefulset.stateful_set_control import new_default_stateful_set_control
from minikcm.controller.statefulset.stateful_set_utils import (
    CONTROLLER_KIND,
    DELETE,
    RETAIN,
    get_ordinal,
    get_persistent_volume_claims,
    new_revision,
    new_stateful_set_pod,
)
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.tools.cache.delta_fifo import DeletedFinalStateUnknown
from tests.controller.statefulset.ss_testing import (
    NoopRecorder,
    FakeObjectManager,
    FakeStatefulSetStatusUpdater,
    assert_monotonic_invariants,
    claim_pod_name,
    fake_resource_version,
    new_stateful_set,
    new_stateful_set_with_labels,
    sorted_pods,
)


class Fixture:
    """Upstream's newFakeStatefulSetController."""

    def __init__(self, *objects: Any) -> None:
        clock = FakeClock(EPOCH, driven=True)
        self.client = new_simple_clientset(*objects, clock=clock)
        factory = new_shared_informer_factory_with_options(self.client, 0, clock=clock, rng=random.Random(1))
        self.om = FakeObjectManager(factory)
        self.spc = new_stateful_pod_control_from_manager(self.om, NoopRecorder())
        ssu = FakeStatefulSetStatusUpdater(self.om.sets_indexer)
        self.ssc: StatefulSetController = new_stateful_set_controller(
            factory.core().v1().pods(), factory.apps().v1().stateful_sets(),
            factory.core().v1().persistent_volume_claims(), factory.apps().v1().controller_revisions(), self.client)
        self.ssh = new_fake_history(factory.apps().v1().controller_revisions())
        self.ssc.pod_lister_synced = self.ssc.set_lister_synced = lambda: True
        self.ssc.control = new_default_stateful_set_control(self.spc, ssu, self.ssh, inline=clock.driven)

    def fake_worker(self) -> None:
        """Upstream's fakeWorker: one key, synced; its error is dropped, as upstream drops it."""
        key, done = self.ssc.queue.get()
        if done:
            return
        try:
            self.ssc.sync(key)
        except Exception:  # noqa: BLE001 - fakeWorker ignores sync's error
            pass
        finally:
            self.ssc.queue.done(key)

    def pods_of(self, set_) -> list[V1Pod]:
        return self.om.pods_of(set_)

    def stored(self, set_):
        obj, _ = self.om.sets_indexer.get(set_)
        return obj


def pod_at(pods, ordinal):
    pods = sorted_pods(pods)
    return pods[ordinal] if 0 <= ordinal < len(pods) else None


def scale_up_stateful_set_controller(set_, f: Fixture, max_iterations: int = -1):
    """Upstream's scaleUpStatefulSetController(Bounded): drive one pod at a time through the handlers."""
    f.om.sets_indexer.add(set_)
    f.ssc.enqueue_stateful_set(set_)
    f.fake_worker()
    iterations = 0
    while (max_iterations < 0 or iterations < max_iterations) and \
            (set_.status.ready_replicas or 0) < set_.spec.replicas:
        iterations += 1
        ordinal = len(f.pods_of(set_)) - 1
        pods = f.om.set_pod_pending(set_, ordinal)
        f.ssc.add_pod(pod_at(pods, ordinal))
        f.fake_worker()
        prev = pod_at(pods, ordinal)
        pods = f.om.set_pod_running(set_, ordinal)
        f.ssc.update_pod(prev, pod_at(pods, ordinal))
        f.fake_worker()
        prev = pod_at(pods, ordinal)
        pods = f.om.set_pod_ready(set_, ordinal)
        f.ssc.update_pod(prev, pod_at(pods, ordinal))
        f.fake_worker()
        assert_monotonic_invariants(set_, f.om)
        set_ = f.stored(set_)
    assert_monotonic_invariants(set_, f.om)
    return set_


def scale_down_stateful_set_controller(set_, f: Fixture):
    """Upstream's scaleDownStatefulSetController: terminate and delete from the highest ordinal."""
    pods = f.pods_of(set_)
    ordinal = len(pods) - 1
    prev = pod_at(pods, ordinal)
    fake_resource_version(set_)
    f.om.sets_indexer.add(set_)
    f.ssc.enqueue_stateful_set(set_)
    f.fake_worker()
    pods = f.om.add_terminating_pod(set_, ordinal)
    pod = pod_at(pods, ordinal)
    f.ssc.update_pod(prev, pod)
    f.fake_worker()
    f.spc.delete_stateful_pod(set_, pod)
    f.ssc.delete_pod(pod)
    f.fake_worker()
    for _ in range(100):
        if (set_.status.replicas or 0) <= set_.spec.replicas:
            break
        ordinal = len(f.pods_of(set_))
        pods = f.om.add_terminating_pod(set_, ordinal)
        pod = pod_at(pods, ordinal)
        f.ssc.update_pod(prev, pod)
        f.fake_worker()
        f.spc.delete_stateful_pod(set_, pod)
        f.ssc.delete_pod(pod)
        f.fake_worker()
        set_ = f.stored(set_)
    assert_monotonic_invariants(set_, f.om)
    return set_


def test_stateful_set_controller_creates():
    """Port of TestStatefulSetControllerCreates."""
    set_ = new_stateful_set(3)
    f = Fixture(set_)
    scale_up_stateful_set_controller(set_, f)
    assert f.stored(set_).status.replicas == 3


def test_stateful_set_controller_deletes():
    """Port of TestStatefulSetControllerDeletes."""
    set_ = new_stateful_set(3)
    f = Fixture(set_)
    scale_up_stateful_set_controller(set_, f)
    set_ = f.stored(set_)
    assert set_.status.replicas == 3
    set_.spec.replicas = 0
    scale_down_stateful_set_controller(set_, f)
    assert f.stored(set_).status.replicas == 0


def test_stateful_set_controller_respects_termination():
    """Port of TestStatefulSetControllerRespectsTermination: terminating extra pods are waited for, not recreated."""
    set_ = new_stateful_set(3)
    f = Fixture(set_)
    scale_up_stateful_set_controller(set_, f)
    set_ = f.stored(set_)
    f.om.add_terminating_pod(set_, 3)
    pods = f.om.add_terminating_pod(set_, 4)
    f.ssc.sync_stateful_set(set_, pods)
    pods = sorted_pods(f.pods_of(set_))
    assert len(pods) == 5, "StatefulSet does not respect termination"
    f.spc.delete_stateful_pod(set_, pods[3])
    f.spc.delete_stateful_pod(set_, pods[4])
    set_.spec.replicas = 0
    scale_down_stateful_set_controller(set_, f)
    assert f.stored(set_).status.replicas == 0


def test_stateful_set_controller_blocks_scaling():
    """Port of TestStatefulSetControllerBlocksScaling: a terminating pod-0 blocks scale up until it is gone."""
    set_ = new_stateful_set(3)
    f = Fixture(set_)
    scale_up_stateful_set_controller(set_, f)
    set_ = f.stored(set_)
    set_.spec.replicas = 5
    fake_resource_version(set_)
    f.om.sets_indexer.update(set_)
    f.om.set_pod_terminated(set_, 0)
    f.ssc.enqueue_stateful_set(set_)
    f.fake_worker()
    pods = sorted_pods(f.pods_of(set_))
    assert len(pods) == 3, "StatefulSet does not block scaling"
    f.spc.delete_stateful_pod(set_, pods[0])
    f.ssc.enqueue_stateful_set(set_)
    f.fake_worker()
    assert len(f.pods_of(set_)) == 3, "StatefulSet does not resume when terminated Pod is removed"


def test_stateful_set_controller_deletion_timestamp():
    """Port of TestStatefulSetControllerDeletionTimestamp: a set being deleted gets no pods."""
    set_ = new_stateful_set(3)
    set_.metadata.deletion_timestamp = EPOCH
    f = Fixture()
    f.om.sets_indexer.add(set_)
    f.ssc.enqueue_stateful_set(set_)
    f.fake_worker()
    assert f.pods_of(set_) == []


def test_stateful_set_controller_deletion_timestamp_race():
    """Port of TestStatefulSetControllerDeletionTimestampRace: the live re-read forbids adoptions.

    The API server says the set is being deleted (it has a finalizer, so it
    stays), the cache does not yet: the orphan pod and revision stay orphans.
    """
    set_ = new_stateful_set(3)
    live = deep_copy(set_)
    live.metadata.finalizers = ["test/keep"]
    f = Fixture(live)
    f.client.apps_v1().stateful_sets("default").delete("foo")  # deletionTimestamp set; the finalizer keeps it
    f.om.sets_indexer.add(set_)
    pod = new_stateful_set_pod(set_, 1)
    pod.metadata.owner_references = None
    f.om.pods_indexer.add(pod)
    revision = new_revision(set_, 1, 0)
    revision.metadata.owner_references = None
    f.ssh.create_controller_revision(set_, revision, 0)
    f.ssc.enqueue_stateful_set(set_)
    f.fake_worker()
    pods = f.pods_of(set_)
    assert len(pods) == 1 and not pods[0].metadata.owner_references
    revisions = f.ssh.list_controller_revisions(set_, CONTROLLER_KIND, label_selector_as_selector(set_.spec.selector))
    assert len(revisions) == 1 and not revisions[0].metadata.owner_references


def _two_sets(second_name: str | None = "foo2"):
    set1, set2 = new_stateful_set(3), new_stateful_set(3)
    if second_name:
        set2.metadata.name = second_name
    return set1, set2


def _keys(f: Fixture) -> list[str]:
    keys = []
    while f.ssc.queue.len() > 0:
        key, _ = f.ssc.queue.get()
        keys.append(key)
        f.ssc.queue.done(key)
    return keys


def test_stateful_set_controller_add_pod():
    """Port of TestStatefulSetControllerAddPod: the pod's controller is queued."""
    f = Fixture()
    set1, set2 = _two_sets()
    f.om.sets_indexer.add(set1)
    f.om.sets_indexer.add(set2)
    f.ssc.add_pod(new_stateful_set_pod(set1, 0))
    assert _keys(f) == [key_func(set1)]
    f.ssc.add_pod(new_stateful_set_pod(set2, 0))
    assert _keys(f) == [key_func(set2)]


def test_stateful_set_controller_add_pod_orphan():
    """Port of TestStatefulSetControllerAddPodOrphan: every matching set is queued."""
    f = Fixture()
    set1, set2 = _two_sets()
    set3 = new_stateful_set(3)
    set3.metadata.name = "foo3"
    set3.spec.selector.match_labels = {"foo3": "bar"}
    for s in (set1, set2, set3):
        f.om.sets_indexer.add(s)
    pod = new_stateful_set_pod(set1, 0)
    pod.metadata.owner_references = None
    f.ssc.add_pod(pod)
    assert f.ssc.queue.len() == 2


def test_stateful_set_controller_add_pod_no_set():
    """Port of TestStatefulSetControllerAddPodNoSet."""
    f = Fixture()
    f.ssc.add_pod(new_stateful_set_pod(new_stateful_set(3), 0))
    assert f.ssc.queue.len() == 0


def _bumped(pod):
    new = deep_copy(pod)
    fake_resource_version(new)
    return new


def test_stateful_set_controller_update_pod():
    """Port of TestStatefulSetControllerUpdatePod."""
    f = Fixture()
    set1, set2 = _two_sets()
    f.om.sets_indexer.add(set1)
    f.om.sets_indexer.add(set2)
    for s in (set1, set2):
        pod = new_stateful_set_pod(s, 0)
        f.ssc.update_pod(pod, _bumped(pod))
        assert _keys(f) == [key_func(s)]


def test_stateful_set_controller_update_pod_with_no_set():
    """Port of TestStatefulSetControllerUpdatePodWithNoSet."""
    f = Fixture()
    pod = new_stateful_set_pod(new_stateful_set(3), 0)
    f.ssc.update_pod(pod, _bumped(pod))
    assert f.ssc.queue.len() == 0


def test_stateful_set_controller_update_pod_with_same_version():
    """Port of TestStatefulSetControllerUpdatePodWithSameVersion: a resync is ignored."""
    f = Fixture()
    set_ = new_stateful_set(3)
    f.om.sets_indexer.add(set_)
    pod = new_stateful_set_pod(set_, 0)
    f.ssc.update_pod(pod, pod)
    assert f.ssc.queue.len() == 0


def test_stateful_set_controller_update_pod_orphan_with_new_labels():
    """Port of TestStatefulSetControllerUpdatePodOrphanWithNewLabels."""
    f = Fixture()
    set1, set2 = _two_sets()
    f.om.sets_indexer.add(set1)
    f.om.sets_indexer.add(set2)
    pod = new_stateful_set_pod(set1, 0)
    pod.metadata.owner_references = None
    clone = _bumped(pod)
    clone.metadata.labels = {"foo2": "bar2"}
    f.ssc.update_pod(clone, pod)
    assert f.ssc.queue.len() == 2


def test_stateful_set_controller_update_pod_change_controller_ref():
    """Port of TestStatefulSetControllerUpdatePodChangeControllerRef: old and new controller are queued."""
    f = Fixture()
    set1, set2 = _two_sets()
    set2.metadata.uid = "test2"
    f.om.sets_indexer.add(set1)
    f.om.sets_indexer.add(set2)
    pod = new_stateful_set_pod(set1, 0)
    clone = _bumped(pod)
    clone.metadata.owner_references = new_stateful_set_pod(set2, 0).metadata.owner_references
    f.ssc.update_pod(clone, pod)
    assert f.ssc.queue.len() == 2


def test_stateful_set_controller_update_pod_release():
    """Port of TestStatefulSetControllerUpdatePodRelease: a released pod wakes every matching set."""
    f = Fixture()
    set1, set2 = _two_sets()
    f.om.sets_indexer.add(set1)
    f.om.sets_indexer.add(set2)
    pod = new_stateful_set_pod(set1, 0)
    clone = _bumped(pod)
    clone.metadata.owner_references = None
    f.ssc.update_pod(pod, clone)
    assert f.ssc.queue.len() == 2


def test_update_pod_that_became_ready_requeues_after_min_ready_seconds():
    from kubernetes.client import V1PodCondition, V1PodStatus

    f = Fixture()
    set_ = new_stateful_set(3)
    set_.spec.min_ready_seconds = 10
    f.om.sets_indexer.add(set_)
    old = new_stateful_set_pod(set_, 0)
    new = _bumped(old)
    new.status = V1PodStatus(phase="Running", conditions=[V1PodCondition(type="Ready", status="True")])
    f.ssc.update_pod(old, new)
    assert _keys(f) == [key_func(set_)]
    assert f.ssc.queue.delaying_queue.waiting_entry_by_data[key_func(set_)].ready_at == EPOCH + __import__(
        "datetime").timedelta(seconds=11)


DELETE_POD_CASES = [pytest.param(False, id="TestStatefulSetControllerDeletePod"),
                    pytest.param(True, id="TestStatefulSetControllerDeletePodTombstone")]


@pytest.mark.parametrize("tombstone", DELETE_POD_CASES)
def test_stateful_set_controller_delete_pod(tombstone):
    """Ports of TestStatefulSetControllerDeletePod and TestStatefulSetControllerDeletePodTombstone."""
    f = Fixture()
    set1, set2 = _two_sets()
    f.om.sets_indexer.add(set1)
    f.om.sets_indexer.add(set2)
    for s in (set1, set2):
        pod = new_stateful_set_pod(s, 0)
        f.ssc.delete_pod(DeletedFinalStateUnknown(key=key_func(pod), obj=pod) if tombstone else pod)
        assert _keys(f) == [key_func(s)]


def test_stateful_set_controller_delete_pod_orphan():
    """Port of TestStatefulSetControllerDeletePodOrphan: nobody cares about deleted orphans."""
    f = Fixture()
    set1, set2 = _two_sets()
    f.om.sets_indexer.add(set1)
    f.om.sets_indexer.add(set2)
    pod = new_stateful_set_pod(set1, 0)
    pod.metadata.owner_references = None
    f.ssc.delete_pod(pod)
    assert f.ssc.queue.len() == 0


def test_stateful_set_controller_get_stateful_sets_for_pod():
    """Port of TestStatefulSetControllerGetStatefulSetsForPod: both overlapping sets are returned."""
    f = Fixture()
    set1, set2 = _two_sets()
    f.om.sets_indexer.add(set1)
    f.om.sets_indexer.add(set2)
    pod = new_stateful_set_pod(set1, 0)
    f.om.pods_indexer.add(pod)
    assert len(f.ssc.get_stateful_sets_for_pod(pod)) == 2


def test_get_pods_for_stateful_set_adopt():
    """Port of TestGetPodsForStatefulSetAdopt: the orphan member is adopted; wrong labels or name are ignored."""
    set_ = new_stateful_set(5)
    pod1 = new_stateful_set_pod(set_, 1)
    pod2 = new_stateful_set_pod(set_, 2)
    pod2.metadata.owner_references = None
    pod3 = new_stateful_set_pod(set_, 3)
    pod3.metadata.owner_references = None
    pod3.metadata.labels = None
    pod4 = new_stateful_set_pod(set_, 4)
    pod4.metadata.owner_references = None
    pod4.metadata.name = "x" + pod4.metadata.name
    f = Fixture(set_, pod1, pod2, pod3, pod4)
    for pod in (pod1, pod2, pod3, pod4):
        f.om.pods_indexer.add(pod)
    pods = f.ssc.get_pods_for_stateful_set(set_, label_selector_as_selector(set_.spec.selector))
    assert {p.metadata.name for p in pods} == {"foo-1", "foo-2"}
    patched = f.client.core_v1().pods("default").get("foo-2")
    assert get_controller_of(patched).uid == set_.metadata.uid


def test_adopt_orphan_revisions():
    """Port of TestAdoptOrphanRevisions: the orphaned revision gets the set as controller."""
    ss1 = new_stateful_set_with_labels(3, "ss1", "ss1", {"foo": "bar"})
    ss1.status.collision_count = 0
    rev1 = new_controller_revision(ss1, CONTROLLER_KIND, ss1.spec.template.metadata.labels,
                                   to_wire(ss1.spec.template), 1, 0)
    rev1.metadata.namespace = "default"
    ss1.spec.template.metadata.annotations = {"ss1": "ss1"}
    rev2 = new_controller_revision(ss1, CONTROLLER_KIND, ss1.spec.template.metadata.labels,
                                   to_wire(ss1.spec.template), 2, 0)
    rev2.metadata.namespace = "default"
    rev2.metadata.owner_references = []
    f = Fixture(ss1, rev1, rev2)
    f.om.revisions_indexer.add(rev1)
    f.om.revisions_indexer.add(rev2)
    f.ssc.adopt_orphan_revisions(ss1)
    adopted = [r for r in f.ssc.control.list_revisions(ss1) if r.metadata.name == rev2.metadata.name]
    assert adopted and get_controller_of(adopted[0]) is not None


def test_get_pods_for_stateful_set_release():
    """Port of TestGetPodsForStatefulSetRelease: owned pods with a wrong name or labels are released."""
    set_ = new_stateful_set(3)
    pod1 = new_stateful_set_pod(set_, 1)
    pod2 = new_stateful_set_pod(set_, 2)
    pod2.metadata.name = "x" + pod2.metadata.name
    pod3 = new_stateful_set_pod(set_, 3)
    pod3.metadata.labels = None
    pod4 = new_stateful_set_pod(set_, 4)
    pod4.metadata.owner_references = None
    pod4.metadata.labels = None
    f = Fixture(set_, pod1, pod2, pod3, pod4)
    for pod in (pod1, pod2, pod3, pod4):
        f.om.pods_indexer.add(pod)
    pods = f.ssc.get_pods_for_stateful_set(set_, label_selector_as_selector(set_.spec.selector))
    assert {p.metadata.name for p in pods} == {"foo-1"}
    for name in ("xfoo-2", "foo-3"):
        assert not f.client.core_v1().pods("default").get(name).metadata.owner_references


PVC_POLICY_CASES = [pytest.param(s, d, id=f"ScaleDown:{s}/SetDeletion:{d}")
                    for s in (RETAIN, DELETE) for d in (RETAIN, DELETE)]


@pytest.mark.parametrize("scaled, deleted", PVC_POLICY_CASES)
def test_orphaned_pods_with_pvc_delete_policy(scaled, deleted):
    """Port of TestOrphanedPodsWithPVCDeletePolicy: adopted and condemned pods' claims get the policy's owners."""
    set_ = new_stateful_set(4)
    set_.spec.replicas = 2
    set_.spec.persistent_volume_claim_retention_policy = V1StatefulSetPersistentVolumeClaimRetentionPolicy(
        when_scaled=scaled, when_deleted=deleted)
    pods = [new_stateful_set_pod(set_, 0), new_stateful_set_pod(set_, 1), new_stateful_set_pod(set_, 2)]
    pods[1].metadata.owner_references = None  # an orphan, adopted
    pods[2].metadata.name = "x" + pods[2].metadata.name  # owned, wrong name: released
    for pod in pods:
        pod.metadata.uid = f"{pod.metadata.name}-uid"
    f = Fixture(set_, *pods)
    f.om.sets_indexer.add(set_)
    for pod in pods:
        f.om.pods_indexer.add(pod)
        for claim in get_persistent_volume_claims(set_, pod).values():
            f.om.create_claim(claim)
    for i in range(2):  # upstream's third call fails: xfoo-2 has no ordinal in range
        f.om.set_pod_ready(set_, i)
        f.om.set_pod_running(set_, i)
    f.ssc.enqueue_stateful_set(set_)
    f.fake_worker()
    # As upstream: the first sync stored a copy of the set, so this edit of the caller's object
    # does not reach the controller; foo-0 and foo-1 stay members ("verifyOwnerRefs(claim, false)").
    set_.spec.replicas = 0
    f.ssc.enqueue_stateful_set(set_)
    f.fake_worker()

    def has_named_owner_ref(claim, name):
        return any(r.name == name for r in claim.metadata.owner_references or [])

    claims = f.om.claims_lister.list(labels.everything())
    assert len(claims) == len(pods)
    for claim in claims:
        pod_name = claim_pod_name(set_, claim)
        if claim.metadata.name in ("datadir-foo-0", "datadir-foo-1"):
            # Only the first pod and the reclaimed orphan get owners: the set's, for whenDeleted=Delete.
            assert not has_named_owner_ref(claim, pod_name), claim.metadata.owner_references
            assert has_named_owner_ref(claim, set_.metadata.name) == (deleted == DELETE)
        else:
            assert claim.metadata.name == "datadir-foo-2"
            assert not claim.metadata.owner_references


@pytest.mark.parametrize("deleted", [RETAIN, DELETE])
def test_stale_owner_ref_on_scaleup(deleted):
    """Port of TestStaleOwnerRefOnScaleup: a claim still owned by the old pod-2 blocks its recreation."""
    set_ = new_stateful_set(3)
    set_.spec.persistent_volume_claim_retention_policy = V1StatefulSetPersistentVolumeClaimRetentionPolicy(
        when_scaled=DELETE, when_deleted=deleted)
    f = Fixture(set_)
    scale_up_stateful_set_controller(set_, f)
    set_ = f.stored(set_)
    assert set_.status.replicas == 3
    set_.spec.replicas = 2
    scale_down_stateful_set_controller(set_, f)
    set_ = f.stored(set_)
    assert set_.status.replicas == 2
    claim = deep_copy(f.om.claims_lister.persistent_volume_claims("default").get("datadir-foo-2"))
    refs = claim.metadata.owner_references
    assert len(refs) == 1
    refs[0].uid = "stale"  # the garbage collector has not caught up with the old pod yet
    f.om.claims_indexer.update(claim)
    set_.spec.replicas = 3
    scale_up_stateful_set_controller(set_, f, max_iterations=10)
    assert f.stored(set_).status.replicas == 2, "the stale claim must block foo-2"
    claim = f.om.claims_lister.persistent_volume_claims("default").get("datadir-foo-2")
    assert [r.uid for r in claim.metadata.owner_references] == ["stale"], "the stale claim must be left alone"
    f.om.claims_indexer.delete(claim)
    scale_up_stateful_set_controller(set_, f)
    assert f.stored(set_).status.replicas == 3


def test_sync_of_a_deleted_set_is_a_no_op():
    """Ours: a key whose set is gone syncs to nothing: no API call, no pod, nothing requeued."""
    f = Fixture()
    f.ssc.sync("default/gone")
    assert f.client.fake.actions() == []
    assert f.om.pods_indexer.list() == []
    assert f.ssc.queue.len() == 0


def test_process_next_work_item_requeues_failures():
    f = Fixture()
    set_ = new_stateful_set(1)
    f.om.sets_indexer.add(set_)

    def boom(key: str) -> None:
        raise RuntimeError("boom")

    f.ssc.sync = boom  # type: ignore[method-assign]
    f.ssc.enqueue_stateful_set(set_)
    assert f.ssc.process_next_work_item()
    assert f.ssc.queue.num_requeues(key_func(set_)) == 1
    assert f.ssc.steps()[0].name == "statefulset/worker"
    assert get_ordinal(new_stateful_set_pod(set_, 0)) == 0
    assert isinstance(V1OwnerReference, type)


@pytest.mark.threaded
def test_threaded_run_creates_parallel_pods_and_stops():
    """Ours: run() with real threads over the embedded API server creates a Parallel set's pods, then stops."""
    clock = RealClock()
    client = InProcessClientset(APIServer(clock=clock, rng=random.Random(1)))
    factory = new_shared_informer_factory_with_options(client, 0, clock=clock)
    ssc = new_stateful_set_controller(
        factory.core().v1().pods(), factory.apps().v1().stateful_sets(),
        factory.core().v1().persistent_volume_claims(), factory.apps().v1().controller_revisions(), client)
    stop = threading.Event()
    factory.start(stop)
    runner = threading.Thread(target=ssc.run, args=(2, stop), daemon=True)
    runner.start()
    try:
        client.apps_v1().stateful_sets("default").create({
            "apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "web", "namespace": "default"},
            "spec": {"replicas": 2, "podManagementPolicy": "Parallel", "selector": {"matchLabels": {"app": "web"}},
                     "template": {"metadata": {"labels": {"app": "web"}},
                                  "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}})
        deadline = time.monotonic() + 10
        names: list[str] = []
        while time.monotonic() < deadline and names != ["web-0", "web-1"]:
            names = sorted(p.metadata.name for p in client.core_v1().pods("default").list().items)
            time.sleep(0.02)
        assert names == ["web-0", "web-1"]
    finally:
        stop.set()
        runner.join(5)
        factory.shutdown()
    assert not runner.is_alive()
    assert ssc.queue.shutting_down()
