"""Tests for minikcm.controller.replicaset.replica_set: ports of pkg/controller/replicaset/replica_set_test.go.

Upstream tests read at kubernetes/kubernetes@003e86297d18 (the stored copy; the
pinned commits hold none). As upstream, they call sync_replica_set and the
handlers directly on a controller whose informers are never started, with
seeded indexers, a FakePodControl and recorded client actions
(rs_testing.ControllerFixture). Tests that need a running informer
(TestWatchControllers, TestWatchPods, TestExpectationsOnRecreate) run it under
the deterministic driver instead of goroutines and real timeouts.

Not ported: BenchmarkGetReplicaSetsWithSameController. TestGetCondition,
TestSetCondition and TestRemoveCondition test replica_set_utils.py and live in
test_replica_set_utils.py, as does TestControllerUpdateStatusWithFailure.
"""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from kubernetes.client import (
    V1LabelSelector,
    V1ObjectMeta,
    V1OwnerReference,
    V1Pod,
    V1PodCondition,
    V1ReplicaSet,
    V1ReplicaSetSpec,
    V1ReplicaSetStatus,
)

from minikcm import features
from minikcm.apimachinery import watch
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.meta import DeleteOptions
from minikcm.client.fake import new_simple_clientset
from minikcm.client.testing import default_watch_reactor
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.controller_utils import (
    SLOW_START_INITIAL_BATCH_SIZE,
    ControllerExpectations,
    key_func,
    new_uid_tracking_controller_expectations,
    pod_key,
)
from minikcm.controller.replicaset.replica_set import (
    BURST_REPLICAS,
    get_pod_keys,
    get_pods_to_delete,
    new_replica_set_controller,
    slow_start_batch,
)
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.driver import Driver
from minikcm.tools.cache.delta_fifo import DeletedFinalStateUnknown
from minikcm.util.workqueue import (
    RateLimitingQueueConfig,
    new_max_of_rate_limiter,
    new_rate_limiting_queue_with_config,
)

from .rs_testing import (
    ControllerFixture,
    controller_ref_to,
    new_pod,
    new_pod_list,
    new_replica_set,
    new_uid,
)

LABEL_MAP = {"foo": "bar"}


def test_sync_replica_set_does_nothing():
    """Port of TestSyncReplicaSetDoesNothing (replica_set_test.go)."""
    fx = ControllerFixture()
    rs = new_replica_set(2, LABEL_MAP)  # 2 running pods, 2 replicas: nothing to do
    fx.rs_indexer.add(rs)
    new_pod_list(fx.pod_indexer, 2, "Running", LABEL_MAP, rs, "pod")
    fx.sync(rs)
    fx.expect_pod_control(0, 0, 0)


def test_delete_final_state_unknown():
    """Port of TestDeleteFinalStateUnknown (replica_set_test.go).

    A tombstone of a deleted pod wakes the ReplicaSet its controllerRef names.
    """
    fx = ControllerFixture()
    received: list[str] = []
    fx.rsc.sync_handler = received.append
    rs = new_replica_set(1, LABEL_MAP)
    fx.rs_indexer.add(rs)
    pods = new_pod_list(None, 1, "Running", LABEL_MAP, rs, "pod")
    fx.rsc.delete_pod(DeletedFinalStateUnknown(key="foo", obj=pods[0]))
    assert fx.rsc.process_next_work_item()
    assert received == [key_func(rs)]


def test_sync_replica_set_create_failures():
    """Port of TestSyncReplicaSetCreateFailures (replica_set_test.go).

    100 replicas wanted, but creates fail after 10 (a quota): slow start keeps
    the number of create calls near the limit instead of 100.
    """
    rs = new_replica_set(100, LABEL_MAP)
    fx = ControllerFixture(rs)
    fx.pod_control.create_limit = 10
    fx.rs_indexer.add(rs)
    with pytest.raises(RuntimeError, match="limit 10 already reached"):
        fx.sync(rs)
    fx.expect_pod_control(10, 0, 0)
    expected_limit, batch = 0, 0
    while expected_limit <= fx.pod_control.create_limit:
        expected_limit += SLOW_START_INITIAL_BATCH_SIZE << batch
        batch += 1
    assert fx.pod_control.create_call_count <= expected_limit  # 1 + 2 + 4 + 8 = 15


def test_sync_replica_set_dormancy():
    """Port of TestSyncReplicaSetDormancy (replica_set_test.go).

    Expectations keep a ReplicaSet from creating pods while earlier creates are
    unobserved, but its status is still written; a failed create lowers the
    expectations again so the next sync retries. The statuses carry
    terminatingReplicas 0, as the controller reports it with the 1.36 gate on.
    """
    fx = ControllerFixture()
    rs = new_replica_set(2, LABEL_MAP)
    fx.rs_indexer.add(rs)
    new_pod_list(fx.pod_indexer, 1, "Running", LABEL_MAP, rs, "pod")

    # Creates a replica and sets expectations.
    rs.status = V1ReplicaSetStatus(replicas=1, ready_replicas=1, available_replicas=1, terminating_replicas=0)
    fx.sync(rs)
    fx.expect_pod_control(1, 0, 0)

    # Expectations prevent creates but not a status update.
    rs.status = V1ReplicaSetStatus(replicas=0, ready_replicas=0, available_replicas=0, terminating_replicas=0)
    fx.pod_control.clear()
    fx.sync(rs)
    fx.expect_pod_control(0, 0, 0)

    # Lowering the expectations allows a create, which fails: expectations go back to 0.
    fx.rsc.expectations.creation_observed(key_func(rs))
    rs.status = V1ReplicaSetStatus(replicas=1, ready_replicas=1, available_replicas=1, terminating_replicas=0)
    fx.pod_control.clear()
    fx.pod_control.err = RuntimeError("fake Error")
    with pytest.raises(RuntimeError, match="fake Error"):
        fx.sync(rs)
    fx.expect_pod_control(1, 0, 0)

    # No lowering needed this time: the failed create was not expected any more.
    fx.pod_control.clear()
    fx.pod_control.err = None
    fx.sync(rs)
    fx.expect_pod_control(1, 0, 0)

    # Two status writes during the dormancy window (pod creates go through pod control).
    assert len(fx.status_updates()) == 2


def _rs(name: str, selector: dict[str, str], owner_uid: str = "123", deleting: bool = False) -> V1ReplicaSet:
    rs = new_replica_set(1, selector)
    rs.metadata.name = name
    rs.metadata.owner_references[0].uid = owner_uid
    if deleting:
        rs.metadata.deletion_timestamp = EPOCH
    return rs


SOME_RS = _rs("rs1", {"foo": "bar"})
RELATED_RS = _rs("rs2", {"foo": "baz"})
UNRELATED_RS = _rs("rs3", {"foo": "quux"}, owner_uid="456")
PENDING_DELETION_RS = _rs("rs4", {"foo": "xyzzy"}, owner_uid="789", deleting=True)

SAME_CONTROLLER_CASES = [
    pytest.param([PENDING_DELETION_RS, UNRELATED_RS], PENDING_DELETION_RS, ["rs4"],
                 id="expect to get back a ReplicaSet that is pending deletion"),
    pytest.param([SOME_RS, UNRELATED_RS], SOME_RS, ["rs1"],
                 id="expect to get back only the given ReplicaSet if there is no related ReplicaSet"),
    pytest.param([SOME_RS, RELATED_RS, UNRELATED_RS], SOME_RS, ["rs1", "rs2"],
                 id="expect to get back the given ReplicaSet as well as any related ReplicaSet "
                    "but not an unrelated ReplicaSet"),
]


@pytest.mark.parametrize("rss, rs, expected_names", SAME_CONTROLLER_CASES)
def test_get_replica_sets_with_same_controller(rss, rs, expected_names):
    """Port of TestGetReplicaSetsWithSameController (replica_set_test.go)."""
    fx = ControllerFixture()
    for r in rss:
        fx.rs_indexer.add(r)
    got = fx.rsc.get_replica_sets_with_same_controller(rs)
    assert sorted(r.metadata.name for r in got) == expected_names


POD_CONTROLLER_LOOKUP_CASES = [
    pytest.param([V1ReplicaSet(metadata=V1ObjectMeta(name="basic"), spec=V1ReplicaSetSpec.model_construct())],
                 V1Pod(metadata=V1ObjectMeta(name="foo1", namespace="")), "",
                 id="pods without labels don't match any ReplicaSets"),
    pytest.param([V1ReplicaSet(metadata=V1ObjectMeta(name="foo"),
                               spec=V1ReplicaSetSpec(selector=V1LabelSelector(match_labels={"foo": "bar"})))],
                 V1Pod(metadata=V1ObjectMeta(name="foo2", namespace="ns", labels={"foo": "bar"})), "",
                 id="matching labels, not namespace"),
    pytest.param([V1ReplicaSet(metadata=V1ObjectMeta(name="bar", namespace="ns"),
                               spec=V1ReplicaSetSpec(selector=V1LabelSelector(match_labels={"foo": "bar"})))],
                 V1Pod(metadata=V1ObjectMeta(name="foo3", namespace="ns", labels={"foo": "bar"})), "bar",
                 id="matching ns and labels returns the ReplicaSet"),
]


@pytest.mark.parametrize("in_rss, pod, out_rs_name", POD_CONTROLLER_LOOKUP_CASES)
def test_pod_controller_lookup(in_rss, pod, out_rs_name):
    """Port of TestPodControllerLookup (replica_set_test.go)."""
    fx = ControllerFixture()
    for r in in_rss:
        fx.rs_indexer.add(r)
    rss = fx.rsc.get_pod_replica_sets(pod)
    assert [r.metadata.name for r in rss] == ([out_rs_name] if out_rs_name else [])


def _related_pods_cases():
    some_rs = _rs("foo1", {"foo": "bar"})
    related_rs = _rs("foo2", {"foo": "baz"})
    unrelated_rs = _rs("bar1", {"foo": "quux"}, owner_uid="456")
    pending_deletion_rs = _rs("foo3", {"foo": "xyzzy"}, owner_uid="789", deleting=True)
    pod1 = new_pod("pod1", some_rs, "Running")
    pod2 = new_pod("pod2", some_rs, "Running")
    pod3 = new_pod("pod3", related_rs, "Running")
    pod4 = new_pod("pod4", unrelated_rs, "Running")
    return [
        pytest.param([pending_deletion_rs, unrelated_rs], [new_pod("pod", pending_deletion_rs, "Running")],
                     pending_deletion_rs, ["pod"],
                     id="expect to get a pod even if its owning ReplicaSet is pending deletion"),
        pytest.param([some_rs, unrelated_rs], [pod1, pod2, pod4], some_rs, ["pod1", "pod2"],
                     id="expect to get only the ReplicaSet's own pods if there is no related ReplicaSet"),
        pytest.param([some_rs, related_rs, unrelated_rs], [pod1, pod2, pod3, pod4], some_rs,
                     ["pod1", "pod2", "pod3"],
                     id="expect to get own pods as well as any related ReplicaSet's but not an unrelated "
                        "ReplicaSet's"),
    ]


@pytest.mark.parametrize("rss, pods, rs, expected_pod_names", _related_pods_cases())
def test_related_pods_lookup(rss, pods, rs, expected_pod_names):
    """Port of TestRelatedPodsLookup (replica_set_test.go)."""
    fx = ControllerFixture()
    for r in rss:
        fx.rs_indexer.add(r)
    for pod in pods:
        fx.pod_indexer.add(pod)
        fx.rsc.add_pod(pod)
    got = fx.rsc.get_indirectly_related_pods(rs)
    assert sorted(p.metadata.name for p in got) == expected_pod_names


def _watching_controller(resource: str):
    """A controller over a fake clientset whose `resource` watch is a FakeWatcher, informers started."""
    fake_watch = watch.FakeWatcher()
    client = new_simple_clientset()
    client.fake.prepend_watch_reactor(resource, default_watch_reactor(fake_watch, None))
    factory = new_shared_informer_factory_with_options(client, 0, rng=random.Random(1),
                                                       clock=FakeClock(EPOCH, driven=True))
    rsc = new_replica_set_controller(factory.apps().v1().replica_sets(), factory.core().v1().pods(), client,
                                     BURST_REPLICAS)
    factory.start(threading.Event())
    driver = Driver(factory.clock, factory.steps() + rsc.steps())  # type: ignore[arg-type]
    return fake_watch, factory, rsc, driver


def test_watch_controllers():
    """Port of TestWatchControllers (replica_set_test.go).

    A ReplicaSet sent through the watch reaches the informer cache, the queue
    and the sync handler.
    """
    fake_watch, factory, rsc, driver = _watching_controller("replicasets")
    received: list[V1ReplicaSet] = []

    def sync_handler(key: str) -> None:
        obj, exists = factory.apps().v1().replica_sets().informer().get_indexer().get_by_key(key)
        assert exists, key
        received.append(obj)

    rsc.sync_handler = sync_handler
    driver.run_until(rsc.caches_synced)  # informers list and start watching
    test_rs = new_replica_set(1, LABEL_MAP)
    test_rs.metadata.name = "foo"
    fake_watch.add(test_rs)
    assert driver.run_until(lambda: bool(received), timeout=60)
    assert received[0].metadata.name == "foo"
    assert received[0].spec == test_rs.spec


def test_watch_pods():
    """Port of TestWatchPods (replica_set_test.go).

    A pod sent through the watch wakes the ReplicaSet its controllerRef names.
    """
    fake_watch, factory, rsc, driver = _watching_controller("pods")
    rs = new_replica_set(1, LABEL_MAP)
    factory.apps().v1().replica_sets().informer().get_indexer().add(rs)
    received: list[str] = []
    rsc.sync_handler = received.append
    driver.run_until(lambda: factory.core().v1().pods().informer().has_synced())
    pod = new_pod_list(None, 1, "Running", LABEL_MAP, rs, "pod")[0]
    pod.status.phase = "Failed"
    pod.metadata.resource_version = "1"
    fake_watch.add(pod)
    assert driver.run_until(lambda: bool(received), timeout=60)
    assert received == [key_func(rs)]


def test_update_pods():
    """Port of TestUpdatePods (replica_set_test.go): which ReplicaSets a pod update wakes."""
    fx = ControllerFixture()
    label_map1, label_map2 = {"foo": "bar"}, {"bar": "foo"}
    rs1 = new_replica_set(1, label_map1)
    fx.rs_indexer.add(rs1)
    rs2 = deep_copy(rs1)
    rs2.spec.selector = V1LabelSelector(match_labels=label_map2)
    rs2.metadata.name = "barfoo"
    fx.rs_indexer.add(rs2)
    ref1, ref2 = controller_ref_to(rs1, "v1"), controller_ref_to(rs2, "v1")

    def pod_pair(labels1, refs1, labels2, refs2):
        pod1 = new_pod_list(fx.pod_indexer, 1, "Running", label_map1, rs1, "pod")[0]
        pod1.metadata.resource_version, pod1.metadata.labels, pod1.metadata.owner_references = "1", labels1, refs1
        pod2 = deep_copy(pod1)
        pod2.metadata.resource_version, pod2.metadata.labels, pod2.metadata.owner_references = "2", labels2, refs2
        return pod1, pod2

    # case 1: a pod with a ControllerRef: its owner is synced
    fx.rsc.update_pod(*pod_pair(label_map1, [ref1], label_map2, [ref1]))
    assert set(fx.drain_queue()) == {"foobar"}
    # case 2: ControllerRef removed (orphan): the label-matching RS is synced
    fx.rsc.update_pod(*pod_pair(label_map2, [ref2], label_map2, None))
    assert set(fx.drain_queue()) == {"barfoo"}
    # case 3: ControllerRef removed: the former owner and the label-matching RS are synced
    fx.rsc.update_pod(*pod_pair(label_map2, [ref1], label_map2, None))
    assert set(fx.drain_queue()) == {"foobar", "barfoo"}
    # case 4: ControllerRef kept, labels changed: the owner is synced
    fx.rsc.update_pod(*pod_pair(label_map1, [ref2], label_map2, [ref2]))
    assert set(fx.drain_queue()) == {"barfoo"}


def test_update_pod_ready_with_min_ready_seconds_requeues_after():
    """Ours: a pod turning ready wakes its ReplicaSet now and again after minReadySeconds."""
    fx = ControllerFixture()
    rs = new_replica_set(1, LABEL_MAP)
    rs.spec.min_ready_seconds = 30
    fx.rs_indexer.add(rs)
    old = new_pod("pod", rs, "Pending")
    old.metadata.resource_version = "1"
    cur = deep_copy(old)
    cur.metadata.resource_version = "2"
    cur.status.phase = "Running"
    cur.status.conditions = [V1PodCondition(type="Ready", status="True", last_transition_time=EPOCH)]
    fx.rsc.update_pod(old, cur)
    assert fx.rsc.queue.len() == 1
    assert fx.rsc.queue.delaying_queue.next_ready_at() == EPOCH + timedelta(seconds=30)


def test_controller_update_requeue():
    """Port of TestControllerUpdateRequeue (replica_set_test.go): a failed status write requeues the key."""
    rs = new_replica_set(1, LABEL_MAP)
    fx = ControllerFixture(rs, accept_status_updates=False)

    def fail_status_update(action):
        if action.get_subresource() != "status":
            return False, None, None
        return True, None, RuntimeError("failed to update status")

    fx.client.fake.prepend_reactor("update", "replicasets", fail_status_update)
    fx.rs_indexer.add(rs)
    rs.status = V1ReplicaSetStatus(replicas=2)
    new_pod_list(fx.pod_indexer, 1, "Running", LABEL_MAP, rs, "pod")
    # Enqueue once, then process it, without rate limiting.
    fx.rsc.queue = new_rate_limiting_queue_with_config(
        new_max_of_rate_limiter(), RateLimitingQueueConfig(clock=fx.clock))
    fx.rsc.enqueue_rs(rs)
    fx.rsc.process_next_work_item()
    assert fx.rsc.queue.len() == 1  # requeued


def _sim_pod(name: str, rs: V1ReplicaSet) -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(
        name=name, namespace="default", labels=dict(rs.spec.selector.match_labels),
        owner_references=[controller_ref_to(rs, "v1")]))


def do_test_controller_burst_replicas(burst_replicas: int, num_replicas: int) -> None:
    """Port of doTestControllerBurstReplicas (replica_set_test.go): size up, then down, in bursts."""
    rs = new_replica_set(num_replicas, LABEL_MAP)
    fx = ControllerFixture(rs, burst_replicas=burst_replicas)
    fx.rs_indexer.add(rs)
    rs_key = key_func(rs)
    pods = new_pod_list(None, num_replicas, "Pending", LABEL_MAP, rs, "pod")

    for replicas in (num_replicas, 0):
        rs.spec.replicas = replicas
        fx.rs_indexer.add(rs)
        for _ in range(0, num_replicas, burst_replicas):
            fx.sync(rs)
            active_pods = len(fx.pod_indexer.list())
            if replicas != 0:
                # Pods in flight: created above, the RS sleeps until all are observed.
                expected_pods = min(replicas - active_pods, burst_replicas)
                fx.expect_pod_control(expected_pods, 0, 0)
                # Watch events for all but one of them: none of these wakes the RS.
                for pod in pods[:expected_pods - 1]:
                    fx.pod_indexer.add(pod)
                    fx.rsc.add_pod(pod)
                exp, exists = fx.rsc.expectations.get_expectations(rs_key)
                assert exists and exp.get_expectations()[0] == 1, exp
            else:
                expected_pods = min(active_pods - replicas, burst_replicas)
                fx.expect_pod_control(0, expected_pods, 0)
                # Simulate the watch: delete exactly the pods the RS waits for, all but the last.
                expected_dels = sorted(fx.rsc.expectations.get_uids(rs_key))
                for key in expected_dels[:-1]:
                    pod = _sim_pod(key.split("/")[1], rs)
                    fx.pod_indexer.delete(pod)
                    fx.rsc.delete_pod(pod)
                exp, exists = fx.rsc.expectations.get_expectations(rs_key)
                assert exists and exp.get_expectations()[1] == 1, exp

            # The RS takes no action for the pods above.
            fx.pod_control.clear()
            fx.sync(rs)
            fx.expect_pod_control(0, 0, 0)

            # The last add or delete brings the expectations to 0: the next sync acts again.
            if replicas != 0:
                fx.pod_indexer.add(pods[expected_pods - 1])
                fx.rsc.add_pod(pods[expected_pods - 1])
            else:
                expected_del = fx.rsc.expectations.get_uids(rs_key)
                assert len(expected_del) == 1, "waiting on unexpected number of deletes"
                last_pod = _sim_pod(next(iter(expected_del)).split("/")[1], rs)
                fx.pod_indexer.delete(last_pod)
                fx.rsc.delete_pod(last_pod)
            pods = pods[expected_pods:]

        assert len(fx.pod_indexer.list()) == rs.spec.replicas
        pods = new_pod_list(None, replicas, "Running", LABEL_MAP, rs, "pod")  # replenish


@pytest.mark.parametrize("burst_replicas, num_replicas", [
    pytest.param(5, 30, id="burst-5-of-30"),
    pytest.param(5, 12, id="burst-5-of-12"),
    pytest.param(3, 2, id="burst-3-of-2"),
])
def test_controller_burst_replicas(burst_replicas, num_replicas):
    """Port of TestControllerBurstReplicas (replica_set_test.go)."""
    do_test_controller_burst_replicas(burst_replicas, num_replicas)


class FakeRSExpectations(ControllerExpectations):
    """Upstream's FakeRSExpectations: a fixed answer, with a hook run when asked."""

    def __init__(self, satisfied: bool, exp_satisfied) -> None:
        super().__init__()
        self.satisfied = satisfied
        self.exp_satisfied = exp_satisfied

    def satisfied_expectations(self, controller_key: str) -> bool:
        self.exp_satisfied()
        return self.satisfied


def test_rs_sync_expectations():
    """Port of TestRSSyncExpectations (replica_set_test.go).

    A pod that arrives between the expectations check and the pod listing
    must not make the sync create a replacement.
    """
    fx = ControllerFixture(burst_replicas=2)
    rs = new_replica_set(2, LABEL_MAP)
    fx.rs_indexer.add(rs)
    pods = new_pod_list(None, 2, "Pending", LABEL_MAP, rs, "pod")
    fx.pod_indexer.add(pods[0])
    post_expectations_pod = pods[1]

    def add_post_expectations_pod() -> None:
        fx.pod_indexer.add(post_expectations_pod)

    fx.rsc.expectations = new_uid_tracking_controller_expectations(
        FakeRSExpectations(True, add_post_expectations_pod))
    fx.sync(rs)
    fx.expect_pod_control(0, 0, 0)


def test_delete_controller_and_expectations():
    """Port of TestDeleteControllerAndExpectations (replica_set_test.go)."""
    rs = new_replica_set(1, LABEL_MAP)
    fx = ControllerFixture(rs, burst_replicas=10)
    fx.rs_indexer.add(rs)
    fx.sync(rs)  # sets expectations
    fx.expect_pod_control(1, 0, 0)
    fx.pod_control.clear()
    rs_key = key_func(rs)

    # A concurrent add_pod still holds the expectations while the RS is deleted.
    pod_exp, exists = fx.rsc.expectations.get_expectations(rs_key)
    assert exists
    fx.rs_indexer.delete(rs)
    fx.rsc.delete_rs(rs)
    fx.sync(rs)
    assert fx.rsc.expectations.get_expectations(rs_key) == (None, False)

    # No effect: the RS is gone.
    pod_exp.add(-1, 0)
    fx.pod_indexer.replace([], "0")
    fx.sync(rs)
    fx.expect_pod_control(0, 0, 0)


def test_expectations_on_recreate():
    """Port of TestExpectationsOnRecreate (replica_set_test.go).

    Deleting a ReplicaSet drops its expectations, so a new one of the same
    name starts clean. Informers run under the driver (Go: goroutines and polls).
    """
    client = new_simple_clientset()
    factory = new_shared_informer_factory_with_options(client, 0, rng=random.Random(1),
                                                       clock=FakeClock(EPOCH, driven=True))
    rsc = new_replica_set_controller(factory.apps().v1().replica_sets(), factory.core().v1().pods(), client, 100)
    factory.start(threading.Event())
    driver = Driver(factory.clock, factory.steps())  # type: ignore[arg-type]
    fx_pod_control = ControllerFixture().pod_control
    rsc.pod_control = fx_pod_control
    assert rsc.queue.len() == 0

    old_rs = new_replica_set(1, LABEL_MAP)
    old_rs.metadata.resource_version = None
    old_rs = client.apps_v1().replica_sets("default").create(old_rs)
    assert driver.run_until(lambda: rsc.queue.len() == 1, timeout=30), "initial RS didn't reach the queue"
    assert rsc.process_next_work_item()
    assert len(fx_pod_control.templates) == 1
    fx_pod_control.clear()
    old_key = key_func(old_rs)
    exp, exists = rsc.expectations.get_expectations(old_key)
    assert exists and not exp.fulfilled()
    assert rsc.queue.len() == 0

    client.apps_v1().replica_sets("default").delete(old_rs.metadata.name, DeleteOptions())
    assert driver.run_until(lambda: rsc.expectations.get_expectations(old_key)[1] is False, timeout=30)
    assert rsc.queue.len() == 1
    key, _ = rsc.queue.get()  # skip the sync of the deleted RS
    rsc.queue.done(key)
    assert key == old_key
    assert rsc.queue.len() == 0

    new_rs = deep_copy(old_rs)
    new_rs.metadata.uid = new_uid()
    new_rs.metadata.resource_version = None
    new_rs = client.apps_v1().replica_sets("default").create(new_rs)
    assert new_rs.metadata.uid != old_rs.metadata.uid
    assert driver.run_until(lambda: rsc.queue.len() == 1, timeout=30), "re-created RS didn't reach the queue"
    assert rsc.process_next_work_item()
    exp, exists = rsc.expectations.get_expectations(key_func(new_rs))
    assert exists and not exp.fulfilled()
    assert len(fx_pod_control.templates) == 1


def test_overlapping_rss():
    """Port of TestOverlappingRSs (replica_set_test.go): a pod's controllerRef picks one of many matching RSs."""
    fx = ControllerFixture(burst_replicas=10)
    controllers = []
    for j in range(1, 10):
        rs = new_replica_set(1, LABEL_MAP)
        rs.metadata.creation_timestamp = EPOCH  # the same for all: the ControllerRef decides
        rs.metadata.name = f"rs{j}"
        controllers.append(rs)
    for rs in random.Random(3).sample(controllers, len(controllers)):
        fx.rs_indexer.add(rs)
    rs = controllers[3]  # one in the middle: old code sorted by name on equal timestamps
    pod = new_pod_list(None, 1, "Pending", LABEL_MAP, rs, "pod")[0]
    pod.metadata.owner_references = [controller_ref_to(rs, "v1")]
    fx.rsc.add_pod(pod)
    key, _ = fx.rsc.queue.get()
    assert key == key_func(rs)


def test_deletion_timestamp():
    """Port of TestDeletionTimestamp (replica_set_test.go): each expected deletion is counted once."""
    fx = ControllerFixture(burst_replicas=10)
    rs = new_replica_set(1, LABEL_MAP)
    fx.rs_indexer.add(rs)
    rs_key = key_func(rs)
    pod = new_pod_list(None, 1, "Pending", LABEL_MAP, rs, "pod")[0]
    pod.metadata.deletion_timestamp = EPOCH
    pod.metadata.resource_version = "1"
    fx.rsc.expectations.expect_deletions(rs_key, [pod_key(pod)])

    def next_key() -> str:
        key, _ = fx.rsc.queue.get()
        fx.rsc.queue.done(key)
        return key

    def fulfilled() -> bool:
        exp, exists = fx.rsc.expectations.get_expectations(rs_key)
        assert exists
        return exp.fulfilled()

    # A pod added with a deletion timestamp counts as a deletion, not a creation.
    fx.rsc.add_pod(pod)
    assert next_key() == rs_key
    assert fulfilled()

    # An update that sets the deletion timestamp counts as a deletion.
    old_pod = new_pod_list(None, 1, "Pending", LABEL_MAP, rs, "pod")[0]
    old_pod.metadata.resource_version = "2"
    fx.rsc.expectations.expect_deletions(rs_key, [pod_key(pod)])
    fx.rsc.update_pod(old_pod, pod)
    assert next_key() == rs_key
    assert fulfilled()

    # A further update (even of the deletion timestamp) does not count again.
    second_pod = V1Pod(metadata=V1ObjectMeta(namespace=pod.metadata.namespace, name="secondPod",
                                             labels=pod.metadata.labels,
                                             owner_references=[controller_ref_to(rs, "v1")]))
    fx.rsc.expectations.expect_deletions(rs_key, [pod_key(second_pod)])
    old_pod.metadata.deletion_timestamp = EPOCH
    old_pod.metadata.resource_version = "2"
    fx.rsc.update_pod(old_pod, pod)
    assert not fulfilled()

    # Nor does the delete of a pod already counted by its update.
    fx.rsc.delete_pod(pod)
    assert not fulfilled()

    # Deleting the second pod clears the expectations.
    fx.rsc.delete_pod(second_pod)
    assert next_key() == rs_key
    assert fulfilled()


def test_do_not_patch_pod_with_other_control_ref():
    """Port of TestDoNotPatchPodWithOtherControlRef (replica_set_test.go)."""
    rs = new_replica_set(2, LABEL_MAP)
    fx = ControllerFixture(rs)
    fx.rs_indexer.add(rs)
    pod = new_pod("pod", rs, "Running")
    pod.metadata.owner_references = [V1OwnerReference(uid=new_uid(), api_version="v1beta1", kind="ReplicaSet",
                                                      name="AnotherRS", controller=True)]
    fx.pod_indexer.add(pod)
    fx.sync(rs)
    fx.expect_pod_control(2, 0, 0)  # the matching pod has another controller: 2 creates, no patch


def test_patch_pod_fails():
    """Port of TestPatchPodFails (replica_set_test.go): failed adoptions fail the sync, which is requeued."""
    rs = new_replica_set(2, LABEL_MAP)
    fx = ControllerFixture(rs)
    fx.rs_indexer.add(rs)
    fx.pod_indexer.add(new_pod("pod1", rs, "Running", None, False))
    fx.pod_indexer.add(new_pod("pod2", rs, "Running", None, False))
    fx.pod_control.err = RuntimeError("fake Error")
    rs_key = key_func(rs)
    err = fx.process_sync(rs_key)
    assert err is not None and "fake Error" in str(err)
    fx.expect_pod_control(0, 0, 2)  # two adoption patches, both failed
    # Requeued with backoff (Go's Get waits out the 5 ms; we move the fake clock).
    fx.clock.step(1.0)
    fx.rsc.queue.delaying_queue.process_waiting()
    key, _ = fx.rsc.queue.get()
    assert key == rs_key


def _get_returns(rs: V1ReplicaSet):
    def reaction(action):
        return True, deep_copy(rs), None
    return reaction


def test_do_not_adopt_or_create_if_being_deleted():
    """Port of TestDoNotAdoptOrCreateIfBeingDeleted (replica_set_test.go)."""
    rs = new_replica_set(2, LABEL_MAP)
    rs.metadata.deletion_timestamp = EPOCH
    fx = ControllerFixture()
    fx.client.fake.prepend_reactor("get", "replicasets", _get_returns(rs))  # Go: the tracker holds rs
    fx.rs_indexer.add(rs)
    fx.pod_indexer.add(new_pod("pod1", rs, "Running", None, False))
    fx.sync(rs)
    fx.expect_pod_control(0, 0, 0)


def test_do_not_adopt_or_create_if_being_deleted_race():
    """Port of TestDoNotAdoptOrCreateIfBeingDeletedRace (replica_set_test.go).

    The cache says alive, the API server says deleted: the recheck before
    adopting refuses, and the sync fails.
    """
    rs = new_replica_set(2, LABEL_MAP)
    rs.metadata.deletion_timestamp = EPOCH
    fx = ControllerFixture()
    fx.client.fake.prepend_reactor("get", "replicasets", _get_returns(rs))
    rs2 = deep_copy(rs)
    rs2.metadata.deletion_timestamp = None
    fx.rs_indexer.add(rs2)
    fx.pod_indexer.add(new_pod("pod1", rs, "Running", None, False))  # an orphan triggers the recheck
    with pytest.raises(Exception, match="has just been deleted"):
        fx.sync(rs)
    fx.expect_pod_control(0, 0, 0)


def test_consistency_store_refuses_sync_until_cache_caught_up():
    """Ours: with StaleControllerConsistencyReplicaSet on, a sync waits for the cache to show our last write."""
    rs = new_replica_set(1, LABEL_MAP)
    fx = ControllerFixture(rs, accept_status_updates=False)
    fresh = fx.client.apps_v1().replica_sets("default").get("foobar")  # the server's copy and RV
    fx.rs_indexer.add(fresh)
    fx.sync(fresh)  # one create and a status write with a newer RV
    fx.rsc.expectations.creation_observed(key_func(rs))
    with pytest.raises(Exception, match="is not as new as written version"):
        fx.sync(fresh)
    fx.rs_indexer.add(fx.client.apps_v1().replica_sets("default").get("foobar"))  # the watch event arrives
    fx.pod_control.clear()
    fx.sync(fresh)
    fx.expect_pod_control(1, 0, 0)


def test_consistency_gate_off_uses_noop_store():
    """Ours: with the gate off the controller never refuses a sync for a lagging cache."""
    with features.set_feature_gate_during_test(features.DEFAULT_FEATURE_GATE,
                                               features.STALE_CONTROLLER_CONSISTENCY_REPLICA_SET, False):
        fx = ControllerFixture()
    assert type(fx.rsc.consistency_store).__name__ == "NoopConsistencyStore"


def test_manage_replicas_deletes_ranked_pods_and_tracks_their_keys():
    """Ours: scale-down deletes the least valuable pods and expects exactly their keys."""
    rs = new_replica_set(1, LABEL_MAP)
    fx = ControllerFixture(rs)
    fx.rs_indexer.add(rs)
    running = new_pod("running", rs, "Running")
    running.spec.node_name = "n1"
    pending = new_pod("pending", rs, "Pending")
    pending.spec.node_name = "n1"
    unscheduled = new_pod("unscheduled", rs, "Pending")
    for p in (running, pending, unscheduled):
        fx.pod_indexer.add(p)
    fx.sync(rs)
    assert sorted(fx.pod_control.delete_pod_name) == ["pending", "unscheduled"]
    assert fx.rsc.expectations.get_uids(key_func(rs)) == {"default/pending", "default/unscheduled"}


SLOW_START_CASES = [
    #            count call_limit successes error  calls
    pytest.param(10, 0, 0, True, 1, id="callLimit = 0 (all fail)"),
    pytest.param(10, 10, 10, False, 10, id="callLimit = count (all succeed)"),
    pytest.param(10, 5, 5, True, 7, id="callLimit < count (some succeed)"),
]


@pytest.mark.parametrize("count, call_limit, expected_successes, expect_error, expected_call_cnt", SLOW_START_CASES)
def test_slow_start_batch(count, call_limit, expected_successes, expect_error, expected_call_cnt):
    """Port of TestSlowStartBatch (replica_set_test.go)."""
    fake_err = RuntimeError("fake error")
    calls = 0
    lock = threading.Lock()

    def fn() -> None:
        nonlocal calls
        with lock:
            calls += 1
            if calls > call_limit:
                raise fake_err

    successes, err = slow_start_batch(count, 1, fn, inline=True)
    assert successes == expected_successes
    assert err is (fake_err if expect_error else None)
    assert calls == expected_call_cnt  # no calls after a failed batch


def test_slow_start_batch_threaded():
    """Ours: the threaded batches give the same counts (calls of one batch run concurrently)."""
    successes, err = slow_start_batch(10, 1, lambda: None)
    assert (successes, err) == (10, None)


def _pods_to_delete_fixtures():
    rs = new_replica_set(1, {"name": "foo"})
    unscheduled_pending = new_pod("unscheduled-pending-pod", rs, "Pending")
    scheduled_pending = new_pod("scheduled-pending-pod", rs, "Pending")
    scheduled_pending.spec.node_name = "fake-node"
    not_ready = new_pod("scheduled-running-not-ready-pod", rs, "Running")
    not_ready.spec.node_name = "fake-node"
    not_ready.status.conditions = [V1PodCondition(type="Ready", status="False")]
    ready1 = new_pod("scheduled-running-ready-pod-on-node-1", rs, "Running")
    ready1.spec.node_name = "fake-node-1"
    ready1.status.conditions = [V1PodCondition(type="Ready", status="True")]
    ready2 = new_pod("scheduled-running-ready-pod-on-node-2", rs, "Running")
    ready2.spec.node_name = "fake-node-2"
    ready2.status.conditions = [V1PodCondition(type="Ready", status="True")]
    return unscheduled_pending, scheduled_pending, not_ready, ready1, ready2


_UP, _SP, _NR, _R1, _R2 = _pods_to_delete_fixtures()

# Deletion order: unscheduled pending, scheduled pending, scheduled running not
# ready, ready on a node with related pods, ready alone. (A pending pod cannot be ready.)
GET_PODS_TO_DELETE_CASES = [
    #             pods                             related           diff expected
    pytest.param([], None, 0, [], id="len(pods) = 0 (i.e., diff = 0 too)"),
    pytest.param([_NR, _R1], None, 2, [_NR, _R1], id="diff = len(pods)"),
    pytest.param([_R1, _NR], None, 1, [_NR], id="diff < len(pods)"),
    pytest.param([_R1, _R1, _R2, _NR, _SP, _UP], None, 6, [_R1, _R1, _R2, _NR, _SP, _UP],
                 id="various pod phases and conditions, diff = len(pods)"),
    pytest.param([_R1, _R1, _R2, _NR, _SP, _UP], [], 6, [_R1, _R1, _R2, _NR, _SP, _UP],
                 id="various pod phases and conditions, diff = len(pods), relatedPods empty"),
    pytest.param([_SP, _UP], None, 1, [_UP], id="scheduled vs unscheduled, diff < len(pods)"),
    pytest.param([_R1, _NR, _NR], None, 2, [_NR, _NR], id="ready vs not-ready, diff < len(pods)"),
    pytest.param([_R1, _R2], [_R1, _R2, _R2], 1, [_R2],
                 id="ready and colocated with another ready pod vs not colocated, diff < len(pods)"),
    pytest.param([_SP, _NR], None, 1, [_SP], id="pending vs running, diff < len(pods)"),
    pytest.param([_R1, _R2, _NR, _SP, _UP], None, 3, [_UP, _SP, _NR],
                 id="various pod phases and conditions, diff < len(pods)"),
]


@pytest.mark.parametrize("pods, related, diff, expected", GET_PODS_TO_DELETE_CASES)
def test_get_pods_to_delete(pods, related, diff, expected):
    """Port of TestGetPodsToDelete (replica_set_test.go); `related` defaults to the pods."""
    pods = list(pods)
    related = pods if related is None else related
    got = get_pods_to_delete(pods, related, diff, EPOCH)
    assert [p.metadata.name for p in got] == [p.metadata.name for p in expected]


def _pod_keys_cases():
    rs = new_replica_set(1, {"name": "foo"})
    return [
        pytest.param([], [], id="len(pods) = 0 (i.e., pods = nil)"),
        pytest.param([new_pod("pod1", rs, "Running"), new_pod("pod2", rs, "Running")],
                     ["default/pod1", "default/pod2"], id="len(pods) > 0"),
    ]


@pytest.mark.parametrize("pods, expected_pod_keys", _pod_keys_cases())
def test_get_pod_keys(pods, expected_pod_keys):
    """Port of TestGetPodKeys (replica_set_test.go)."""
    assert get_pod_keys(pods) == expected_pod_keys


def test_steps_name_the_worker_and_the_queue():
    """Ours: the deterministic steps are the worker, the queue's waiting step and the event broadcaster."""
    fx = ControllerFixture()
    names = [s.name for s in fx.rsc.steps()]
    assert names == ["replicaset/worker", "workqueue/replicaset/waiting", "watch/broadcaster", "record/broadcaster"]
    worker = fx.rsc.steps()[0]
    assert not worker.ready()
    fx.rsc.queue.add("default/x")
    assert worker.ready()


def test_worker_waits_for_both_caches_as_run_does():
    """Ours: with a key queued, the driven worker step stays unready until both caches have synced (Run's wait)."""
    fx = ControllerFixture()
    synced = {"pods": False, "rs": False}
    fx.rsc.pod_lister_synced = lambda: synced["pods"]
    fx.rsc.rs_lister_synced = lambda: synced["rs"]
    worker = fx.rsc.steps()[0]
    fx.rsc.queue.add("default/x")
    assert not worker.ready()
    synced["pods"] = True
    assert not worker.ready()
    synced["rs"] = True
    assert worker.ready()


def test_steps_start_nothing():
    """Ours: steps() has no side effect; the event pipeline starts only in start_event_recording (Run's first lines)."""
    fx = ControllerFixture()
    fx.rsc.steps()
    assert not fx.rsc.loop.events_started
    fx.rsc.start_event_recording()
    fx.rsc.start_event_recording()
    assert fx.rsc.loop.events_started


@pytest.mark.threaded
def test_run_starts_workers_and_stops():
    """Ours: the threaded run() syncs queued keys on worker threads and returns when stopped."""
    fx = ControllerFixture()
    seen = threading.Event()
    fx.rsc.sync_handler = lambda key: seen.set()
    stop = threading.Event()
    runner = threading.Thread(target=fx.rsc.run, args=(2, stop), daemon=True)
    runner.start()
    fx.rsc.queue.add("default/foobar")
    assert seen.wait(5)
    stop.set()
    runner.join(5)
    assert not runner.is_alive()
    assert fx.rsc.queue.shutting_down()
