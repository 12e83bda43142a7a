"""Tests for minikcm.controller.controller_utils: ports of pkg/controller/controller_utils_test.go.

Not ported: TestRemoveTaintOffNode and TestAddOrUpdateTaintOnNode (node taints are
out of scope), the LogarithmicScaleDown/PodDeletionCost gate-off rows of
TestSortingActivePodsWithRanks (the gates are not ported: always on).
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from kubernetes.client import (
    V1Container,
    V1ContainerStatus,
    V1LabelSelector,
    V1ObjectMeta,
    V1OwnerReference,
    V1Pod,
    V1PodCondition,
    V1PodSpec,
    V1PodStatus,
    V1PodTemplateSpec,
    V1ReplicaSet,
    V1ReplicaSetSpec,
    V1ReplicationController,
    V1ReplicationControllerSpec,
)

from minikcm.apimachinery import errors
from minikcm.apimachinery.meta import new_controller_ref
from minikcm.apimachinery.schema import GroupVersionKind
from minikcm.client.fake import new_simple_clientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller import controller_utils as cu
from minikcm.tools.cache.store import meta_namespace_key_func, new_indexer

RC_GVK = GroupVersionKind("", "v1", "ReplicationController")
NOW = EPOCH


class FakeRecorder:
    """Stands in for record.FakeRecorder: keeps "Type Reason Message" strings."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def eventf(self, obj, event_type, reason, message_fmt, *args) -> None:
        self.events.append(f"{event_type} {reason} {message_fmt % args}")


def new_replication_controller(replicas: int, uid: str = "rc-uid") -> V1ReplicationController:
    """Upstream's newReplicationController (a container name added: our server validates pods)."""
    return V1ReplicationController(
        api_version="v1", kind="ReplicationController",
        metadata=V1ObjectMeta(uid=uid, name="foobar", namespace="default", resource_version="18"),
        spec=V1ReplicationControllerSpec(
            replicas=replicas, selector={"foo": "bar"},
            template=V1PodTemplateSpec(
                metadata=V1ObjectMeta(labels={"name": "foo", "type": "production"}),
                spec=V1PodSpec(
                    containers=[V1Container(name="foo", image="foo/bar", image_pull_policy="IfNotPresent",
                                            termination_message_path="/dev/termination-log")],
                    restart_policy="Always", dns_policy="Default", node_selector={"baz": "blah"},
                ),
            ),
        ),
    )


def new_pod_list(count: int, phase: str, rc: V1ReplicationController) -> list[V1Pod]:
    """Upstream's newPodList: `count` pods with the rc's selector labels and namespace."""
    return [V1Pod(metadata=V1ObjectMeta(name=f"pod{i}", labels=dict(rc.spec.selector),
                                        namespace=rc.metadata.namespace),
                  status=V1PodStatus(phase=phase)) for i in range(count)]


def new_replica_set(name: str, replicas: int, uid: str = "rs-uid") -> V1ReplicaSet:
    return V1ReplicaSet(
        metadata=V1ObjectMeta(uid=uid, name=name, namespace="default", resource_version="18"),
        spec=V1ReplicaSetSpec(replicas=replicas, selector=V1LabelSelector(match_labels={"foo": "bar"})),
    )


# --- expectations ----------------------------------------------------------------------------


@pytest.fixture
def expectations_after_overshoot():
    """Expectations for 10 adds / 30 deletes that then saw 11 and 31 observations."""
    clock = FakeClock(NOW)
    e = cu.ControllerExpectations(clock=clock)
    rc_key = cu.key_func(new_replication_controller(1))
    e.set_expectations(rc_key, 10, 30)
    for _ in range(11):
        e.creation_observed(rc_key)
    assert e.satisfied_expectations(rc_key) is False, "rc would sync before its deletes are seen"
    for _ in range(31):
        e.deletion_observed(rc_key)
    return e, clock, rc_key


CONTROLLER_EXPECTATIONS_CASES = [
    pytest.param(None, False, (-1, -1), True, id="Expectations have been surpassed"),
    pytest.param((1, 2), True, (1, 2), False, id="Old expectations are cleared because of ttl"),
]


@pytest.mark.parametrize("to_set, expire, want_counts, want_satisfied", CONTROLLER_EXPECTATIONS_CASES)
def test_controller_expectations(expectations_after_overshoot, to_set, expire, want_counts, want_satisfied):
    """Port of TestControllerExpectations (controller_utils_test.go).

    Upstream's TTL store drops the entry after 30 s; here the entry stays and
    counts as expired after EXPECTATIONS_TIMEOUT on the fake clock.
    """
    e, clock, rc_key = expectations_after_overshoot
    if to_set is not None:
        e.set_expectations(rc_key, *to_set)
    exp, exists = e.get_expectations(rc_key)
    assert exists and exp is not None
    assert exp.get_expectations() == want_counts
    assert e.satisfied_expectations(rc_key) is want_satisfied
    if expire:
        clock.step(cu.EXPECTATIONS_TIMEOUT)
        assert e.satisfied_expectations(rc_key) is False, "exactly the timeout is not yet expired"
        clock.step(1)
        assert e.satisfied_expectations(rc_key) is True, "expectations should have expired"


def test_expectations_raise_lower_delete_and_absent():
    e = cu.new_controller_expectations(FakeClock(NOW))
    assert e.satisfied_expectations("ns/none") is True, "no expectations: always sync"
    e.raise_expectations("ns/none", 1, 1)  # nothing to raise
    assert e.get_expectations("ns/none") == (None, False)
    e.expect_creations("ns/rc", 2)
    e.raise_expectations("ns/rc", 1, 0)
    e.lower_expectations("ns/rc", 2, 0)
    assert e.get_expectations("ns/rc")[0].get_expectations() == (1, 0)
    e.delete_expectations("ns/rc")
    assert e.get_expectations("ns/rc") == (None, False)
    with pytest.raises(TypeError):
        cu.exp_key_func("not an expectation")


UID_EXPECTATIONS_CASES = [
    pytest.param(2, id="Replication controller with 2 replicas"),
    pytest.param(1, id="Replication controller with 1 replica"),
    pytest.param(0, id="Replication controller with no replicas"),
    pytest.param(5, id="Replication controller with 5 replicas"),
]


@pytest.mark.parametrize("num_replicas", UID_EXPECTATIONS_CASES)
def test_uid_expectations(num_replicas):
    """Port of TestUIDExpectations (controller_utils_test.go)."""
    uid_exp = cu.new_uid_tracking_controller_expectations(cu.new_controller_expectations(FakeClock(NOW)))
    rc = new_replication_controller(num_replicas)
    rc.metadata.name = f"rc-{num_replicas}"
    rc_key = cu.key_func(rc)
    pod_keys = []
    for pod in new_pod_list(5, "Running", rc):
        pod.metadata.name = f"{pod.metadata.name}-{rc.metadata.name}"
        pod_keys.append(cu.pod_key(pod))
    uid_exp.expect_deletions(rc_key, pod_keys)

    assert uid_exp.satisfied_expectations(rc_key) is False
    for key in pod_keys:
        uid_exp.deletion_observed(rc_key, key)
    assert uid_exp.satisfied_expectations(rc_key) is True
    uid_exp.delete_expectations(rc_key)
    assert uid_exp.get_uids(rc_key) is None


def test_uid_expectations_count_each_pod_once():
    """A graceful delete is observed twice (update, then delete); only the first counts."""
    uid_exp = cu.new_uid_tracking_controller_expectations(cu.new_controller_expectations(FakeClock(NOW)))
    uid_exp.expect_deletions("default/rc", ["default/a", "default/b"])
    uid_exp.deletion_observed("default/rc", "default/a")
    uid_exp.deletion_observed("default/rc", "default/a")
    uid_exp.deletion_observed("default/rc", "default/unexpected")
    assert uid_exp.get_expectations("default/rc")[0].get_expectations() == (0, 1)
    assert uid_exp.get_uids("default/rc") == {"default/b"}


# --- pod control -------------------------------------------------------------------------------

CREATE_PODS_CASES = [
    pytest.param(None, "foobar-", id="Create pod"),
    pytest.param("hello-", "hello-", id="Create pod with generate name"),
]


@pytest.mark.parametrize("generate_name, want_generate_name", CREATE_PODS_CASES)
def test_create_pods_with_generate_name(generate_name, want_generate_name):
    """Port of TestCreatePodsWithGenerateName (and TestCreatePods) (controller_utils_test.go).

    Upstream checks the POST body against a fake HTTP handler; we check the
    pod the in-process API server stored and the create action.
    """
    cs = new_simple_clientset()
    recorder = FakeRecorder()
    written = []
    control = cu.RealPodControl(cs, recorder, on_write=lambda pod, ref: written.append((pod.metadata.name, ref.uid)))
    rc = new_replication_controller(1)
    ref = new_controller_ref(rc, RC_GVK)
    if generate_name is None:
        control.create_pods("default", rc.spec.template, rc, ref)
    else:
        control.create_pods_with_generate_name("default", rc.spec.template, rc, ref, generate_name)

    assert [(a.verb, a.resource.resource) for a in cs.fake.actions()] == [("create", "pods")]
    (pod,) = cs.core_v1().pods("default").list().items
    assert pod.metadata.generate_name == want_generate_name
    assert pod.metadata.name.startswith(want_generate_name)
    assert pod.metadata.labels == rc.spec.template.metadata.labels
    assert pod.metadata.owner_references == [ref]
    assert pod.spec.containers[0].image == "foo/bar" and pod.spec.node_selector == {"baz": "blah"}
    assert recorder.events == [f"Normal SuccessfulCreate Created pod: {pod.metadata.name}"]
    assert written == [(pod.metadata.name, "rc-uid")]


def test_create_pods_refuses_bad_input_and_reports_failures():
    cs = new_simple_clientset()
    recorder = FakeRecorder()
    control = cu.RealPodControl(cs, recorder)
    rc = new_replication_controller(1)
    with pytest.raises(ValueError, match="controllerRef is nil"):
        control.create_pods("default", rc.spec.template, rc, None)
    unlabeled = V1PodTemplateSpec(spec=rc.spec.template.spec)
    with pytest.raises(ValueError, match="no labels"):
        control.create_pods("default", unlabeled, rc, new_controller_ref(rc, RC_GVK))

    def refuse(action):
        return True, None, errors.new_bad_request("quota exceeded")

    cs.fake.prepend_reactor("create", "pods", refuse)
    with pytest.raises(errors.StatusError):
        control.create_pods("default", rc.spec.template, rc, new_controller_ref(rc, RC_GVK))
    assert recorder.events == ["Warning FailedCreate Error creating: quota exceeded"]


VALIDATE_CONTROLLER_REF_CASES = [
    pytest.param(None, "controllerRef is nil", id="nil"),
    pytest.param(V1OwnerReference(api_version="", kind="K", name="n", uid="u", controller=True,
                                  block_owner_deletion=True), "empty APIVersion", id="no-api-version"),
    pytest.param(V1OwnerReference(api_version="v1", kind="", name="n", uid="u", controller=True,
                                  block_owner_deletion=True), "empty Kind", id="no-kind"),
    pytest.param(V1OwnerReference(api_version="v1", kind="K", name="n", uid="u", block_owner_deletion=True),
                 "Controller is not set", id="not-controller"),
    pytest.param(V1OwnerReference(api_version="v1", kind="K", name="n", uid="u", controller=True),
                 "BlockOwnerDeletion is not set", id="no-block-owner-deletion"),
]


@pytest.mark.parametrize("ref, message", VALIDATE_CONTROLLER_REF_CASES)
def test_validate_controller_ref(ref, message):
    with pytest.raises(ValueError, match=message):
        cu.validate_controller_ref(ref)


def test_delete_pods_allows_missing():
    """Port of TestDeletePodsAllowsMissing (controller_utils_test.go): NotFound comes back unchanged."""
    recorder = FakeRecorder()
    control = cu.RealPodControl(new_simple_clientset(), recorder)
    with pytest.raises(errors.StatusError) as exc:
        control.delete_pod("namespace-name", "podName", new_replication_controller(1))
    assert errors.is_not_found(exc.value)
    assert recorder.events == []


def test_delete_pod_records_events():
    cs = new_simple_clientset(V1Pod(metadata=V1ObjectMeta(name="p", namespace="default"),
                                    spec=V1PodSpec(containers=[V1Container(name="c", image="i")])))
    recorder = FakeRecorder()
    control = cu.RealPodControl(cs, recorder)
    control.delete_pod("default", "p", new_replication_controller(1))
    assert recorder.events == ["Normal SuccessfulDelete Deleted pod: p"]
    cs.fake.prepend_reactor("delete", "pods", lambda action: (True, None, errors.new_bad_request("no")))
    with pytest.raises(RuntimeError, match="unable to delete pods: no") as exc:
        control.delete_pod("default", "p", new_replication_controller(1))
    assert not errors.is_bad_request(exc.value), "Go wraps with %v: the cause is not visible"
    assert recorder.events[-1] == "Warning FailedDelete Error deleting: no"


def test_get_pod_from_template():
    rc = new_replication_controller(1)
    rc.spec.template.metadata.annotations = {"a": "b"}
    rc.spec.template.metadata.finalizers = ["f"]
    ref = new_controller_ref(rc, RC_GVK)
    pod = cu.get_pod_from_template(rc.spec.template, rc, ref)
    assert pod.metadata.generate_name == "foobar-"
    assert (pod.metadata.labels, pod.metadata.annotations, pod.metadata.finalizers) == (
        {"name": "foo", "type": "production"}, {"a": "b"}, ["f"])
    assert pod.metadata.owner_references == [ref]
    pod.spec.containers[0].image = "changed"
    pod.metadata.labels["x"] = "y"
    assert rc.spec.template.spec.containers[0].image == "foo/bar", "the spec is a deep copy"
    assert "x" not in rc.spec.template.metadata.labels
    assert cu.get_pods_prefix("a" * 253) == "a" * 253 + "-", "the dash may replace the last allowed character"
    assert cu.get_pods_prefix("a" * 254) == "a" * 254, "no dash when the prefix is invalid anyway"


def test_fake_pod_control_records_and_limits():
    fake = cu.FakePodControl(create_limit=2)
    rc = new_replication_controller(1)
    ref = new_controller_ref(rc, RC_GVK)
    fake.create_pods("default", rc.spec.template, rc, ref)
    fake.create_pods_with_generate_name("default", rc.spec.template, rc, ref, "gen-")
    with pytest.raises(RuntimeError, match="limit 2 already reached"):
        fake.create_pods("default", rc.spec.template, rc, ref)
    assert [t.metadata.generate_name for t in fake.templates] == ["", "gen-"]
    assert rc.spec.template.metadata.generate_name is None, "the caller's template is not changed"
    fake.err = RuntimeError("boom")
    with pytest.raises(RuntimeError, match="boom"):
        fake.delete_pod("default", "p", rc)
    with pytest.raises(RuntimeError, match="boom"):
        fake.patch_pod("default", "p", b"{}")
    assert (fake.delete_pod_name, fake.patches, fake.create_call_count) == (["p"], [b"{}"], 3)
    fake.clear()
    assert (fake.templates, fake.delete_pod_name, fake.create_limit, fake.create_call_count) == ([], [], 0, 0)


# --- filters and sorting ---------------------------------------------------------------------------


def test_count_terminating_pods():
    """Port of TestCountTerminatingPods (controller_utils_test.go)."""
    pods = new_pod_list(7, "Running", new_replication_controller(0))
    pods[0].status.phase = "Succeeded"
    pods[1].status.phase = "Failed"
    pods[2].status.phase = "Pending"
    pods[2].metadata.deletion_timestamp = NOW
    pods[3].metadata.deletion_timestamp = NOW
    assert cu.count_terminating_pods(pods) == 2
    assert len(cu.filter_terminating_pods(pods)) == 2


ACTIVE_POD_FILTERING_CASES = [
    pytest.param([("pod-1", "Succeeded"), ("pod-2", "Failed"), ("pod-3", "Running"), ("pod-4", "Running"),
                  ("pod-5", "Running")], ["pod-3", "pod-4", "pod-5"], id="Filters active pods"),
    pytest.param([("pod-1", "Running"), ("pod-2", "Pending")], ["pod-1", "pod-2"], id="keeps-running-and-pending"),
]


@pytest.mark.parametrize("pods, want_names", ACTIVE_POD_FILTERING_CASES)
def test_active_pod_filtering(pods, want_names):
    """Port of TestActivePodFiltering (controller_utils_test.go)."""
    pod_list = [V1Pod(metadata=V1ObjectMeta(name=n, namespace="default"), status=V1PodStatus(phase=ph))
                for n, ph in pods]
    assert sorted(p.metadata.name for p in cu.filter_active_pods(pod_list)) == want_names


def test_deleted_pods_are_not_active():
    pod = V1Pod(metadata=V1ObjectMeta(name="p", deletion_timestamp=NOW), status=V1PodStatus(phase="Running"))
    assert cu.is_pod_active(pod) is False and cu.is_pod_terminating(pod) is True


def ready(since=None):
    return [V1PodCondition(type="Ready", status="True", last_transition_time=since)]


def restarts(*counts: int) -> list[V1ContainerStatus]:
    return [V1ContainerStatus(name=f"c{i}", image="i", image_id="", ready=True, restart_count=n)
            for i, n in enumerate(counts)]


THEN = NOW - timedelta(days=30)  # Go: now.AddDate(0, -1, 0), close enough for the ordering

SORTING_ACTIVE_PODS = [
    V1Pod(metadata=V1ObjectMeta(name="unscheduled"), spec=V1PodSpec(containers=[], node_name=""),
          status=V1PodStatus(phase="Pending")),
    V1Pod(metadata=V1ObjectMeta(name="scheduledButPending"), spec=V1PodSpec(containers=[], node_name="bar"),
          status=V1PodStatus(phase="Pending")),
    V1Pod(metadata=V1ObjectMeta(name="unknownPhase"), spec=V1PodSpec(containers=[], node_name="foo"),
          status=V1PodStatus(phase="Unknown")),
    V1Pod(metadata=V1ObjectMeta(name="runningButNotReady"), spec=V1PodSpec(containers=[], node_name="foo"),
          status=V1PodStatus(phase="Running")),
    V1Pod(metadata=V1ObjectMeta(name="runningNoLastTransitionTime"), spec=V1PodSpec(containers=[], node_name="foo"),
          status=V1PodStatus(phase="Running", conditions=ready(), container_statuses=restarts(3, 0))),
    V1Pod(metadata=V1ObjectMeta(name="runningWithLastTransitionTime"), spec=V1PodSpec(containers=[], node_name="foo"),
          status=V1PodStatus(phase="Running", conditions=ready(NOW), container_statuses=restarts(3, 0))),
    V1Pod(metadata=V1ObjectMeta(name="runningLongerTime"), spec=V1PodSpec(containers=[], node_name="foo"),
          status=V1PodStatus(phase="Running", conditions=ready(THEN), container_statuses=restarts(3, 0))),
    V1Pod(metadata=V1ObjectMeta(name="lowerContainerRestartCount", creation_timestamp=NOW),
          spec=V1PodSpec(containers=[], node_name="foo"),
          status=V1PodStatus(phase="Running", conditions=ready(THEN), container_statuses=restarts(2, 1))),
    V1Pod(metadata=V1ObjectMeta(name="oldest", creation_timestamp=THEN), spec=V1PodSpec(containers=[], node_name="foo"),
          status=V1PodStatus(phase="Running", conditions=ready(THEN), container_statuses=restarts(2, 1))),
]


@pytest.mark.parametrize("seed", [pytest.param(s, id=f"shuffle-{s}") for s in range(20)])
def test_sorting_active_pods(seed):
    """Port of TestSortingActivePods, "Sorts by active pod" (controller_utils_test.go): 20 shuffles."""
    pods = list(SORTING_ACTIVE_PODS)
    random.Random(seed).shuffle(pods)
    cu.ActivePods(pods).sort()
    assert [p.metadata.name for p in pods] == [p.metadata.name for p in SORTING_ACTIVE_PODS]


def rank_pod(name, node, phase, is_ready, restart_count, ready_since, created, annotations=None, uid=None):
    """Upstream's pod() builder in TestSortingActivePodsWithRanks."""
    return V1Pod(
        metadata=V1ObjectMeta(name=name, creation_timestamp=created, annotations=annotations, uid=uid),
        spec=V1PodSpec(containers=[], node_name=node),
        status=V1PodStatus(phase=phase, conditions=ready(ready_since) if is_ready else None,
                           container_statuses=restarts(restart_count) if is_ready else None),
    )


H = timedelta(hours=1)
COST = cu.POD_DELETION_COST
UNSCHEDULED = rank_pod("unscheduled", "", "Pending", False, 0, None, None)
SCHEDULED_PENDING = rank_pod("pending", "node", "Pending", False, 0, None, None)
UNKNOWN_PHASE = rank_pod("unknown-phase", "node", "Unknown", False, 0, None, None)
RUNNING_NOT_READY = rank_pod("not-ready", "node", "Running", False, 0, None, None)
READY_NO_LTT = rank_pod("ready-no-last-transition-time", "node", "Running", True, 0, None, None)
READY_NOW = rank_pod("ready-now", "node", "Running", True, 0, NOW, NOW)
READY_THEN = rank_pod("ready-then", "node", "Running", True, 0, THEN, THEN)
READY_NOW_HIGH_RESTARTS = rank_pod("ready-high-restarts", "node", "Running", True, 9001, NOW, NOW)
READY_NOW_CREATED_THEN = rank_pod("ready-now-created-then", "node", "Running", True, 0, NOW, THEN)
LOW_COST = rank_pod("low-deletion-cost", "node", "Running", True, 0, NOW, THEN, {COST: "10"})
HIGH_COST = rank_pod("high-deletion-cost", "node", "Running", True, 0, NOW, THEN, {COST: "100"})
UNSCHEDULED_5H = rank_pod("unscheduled-5-hours", "", "Pending", False, 0, NOW - 5 * H, NOW - 5 * H)
UNSCHEDULED_8H = rank_pod("unscheduled-10-hours", "", "Pending", False, 0, NOW - 8 * H, NOW - 8 * H)
READY_2H = rank_pod("ready-2-hours", "", "Running", True, 0, NOW - 2 * H, THEN)
READY_5H = rank_pod("ready-5-hours", "", "Running", True, 0, NOW - 5 * H, THEN)
READY_8H = rank_pod("ready-10-hours", "", "Running", True, 0, NOW - 8 * H, THEN)

EQUALITY_CASES = [
    pytest.param(UNSCHEDULED, None, id="Equality tests 0"),
    pytest.param(SCHEDULED_PENDING, None, id="Equality tests 1"),
    pytest.param(UNKNOWN_PHASE, None, id="Equality tests 2"),
    pytest.param(RUNNING_NOT_READY, None, id="Equality tests 3"),
    pytest.param(READY_NOW_CREATED_THEN, None, id="Equality tests 4"),
    pytest.param(READY_NOW, None, id="Equality tests 5"),
    pytest.param(READY_THEN, None, id="Equality tests 6"),
    pytest.param(READY_NOW_HIGH_RESTARTS, None, id="Equality tests 7"),
    pytest.param(READY_NOW_CREATED_THEN, None, id="Equality tests 8"),
    pytest.param(UNSCHEDULED_5H, UNSCHEDULED_8H, id="Equality tests 9"),
    pytest.param(READY_5H, READY_8H, id="Equality tests 10"),
]


@pytest.mark.parametrize("p1, p2", EQUALITY_CASES)
def test_sorting_active_pods_with_ranks_equality(p1, p2):
    """Port of TestSortingActivePodsWithRanks, equality rows (controller_utils_test.go).

    Rows 9 and 10: 5 h and 8 h share a log2 bucket, so only the UID (both empty) is left.
    """
    ranked = cu.ActivePodsWithRanks([p1, p2 or p1], [1, 1], NOW)
    assert not ranked.less(0, 1) and not ranked.less(1, 0)


INEQUALITY_CASES = [
    pytest.param((UNSCHEDULED, 1), (SCHEDULED_PENDING, 2), id="Inequality tests 0"),
    pytest.param((UNSCHEDULED, 2), (SCHEDULED_PENDING, 1), id="Inequality tests 1"),
    pytest.param((SCHEDULED_PENDING, 1), (UNKNOWN_PHASE, 2), id="Inequality tests 2"),
    pytest.param((UNKNOWN_PHASE, 1), (RUNNING_NOT_READY, 2), id="Inequality tests 3"),
    pytest.param((RUNNING_NOT_READY, 1), (READY_NO_LTT, 1), id="Inequality tests 4"),
    pytest.param((READY_NO_LTT, 1), (READY_NOW, 1), id="Inequality tests 5"),
    pytest.param((READY_NOW, 2), (READY_NO_LTT, 1), id="Inequality tests 6"),
    pytest.param((READY_NOW, 1), (READY_THEN, 1), id="Inequality tests 7"),
    pytest.param((READY_NOW, 2), (READY_THEN, 1), id="Inequality tests 8"),
    pytest.param((READY_NOW_HIGH_RESTARTS, 1), (READY_NOW, 1), id="Inequality tests 9"),
    pytest.param((READY_NOW, 2), (READY_NOW_HIGH_RESTARTS, 1), id="Inequality tests 10"),
    pytest.param((READY_NOW, 1), (READY_NOW_CREATED_THEN, 1), id="Inequality tests 11"),
    pytest.param((READY_NOW_CREATED_THEN, 2), (READY_NOW, 1), id="Inequality tests 12"),
    pytest.param((LOW_COST, 2), (HIGH_COST, 1), id="Inequality tests 13"),
    pytest.param((READY_2H, 1), (READY_5H, 1), id="Inequality tests 15"),
]


@pytest.mark.parametrize("lesser, greater", INEQUALITY_CASES)
def test_sorting_active_pods_with_ranks_inequality(lesser, greater):
    """Port of TestSortingActivePodsWithRanks, inequality rows (controller_utils_test.go).

    Row 14 (deletion cost ignored with the PodDeletionCost gate off) is not ported.
    """
    ranked = cu.ActivePodsWithRanks([lesser[0], greater[0]], [lesser[1], greater[1]], NOW)
    assert ranked.less(0, 1), f"{lesser[0].metadata.name} should sort before {greater[0].metadata.name}"
    assert not ranked.less(1, 0)


def test_active_pods_with_ranks_sort_moves_ranks_and_breaks_bucket_ties_by_uid():
    a = rank_pod("a", "node", "Running", True, 0, NOW - 5 * H, THEN, uid="uid-b")
    b = rank_pod("b", "node", "Running", True, 0, NOW - 8 * H, THEN, uid="uid-a")
    c = rank_pod("c", "node", "Running", True, 0, NOW - 1 * H, THEN, uid="uid-c")
    pods, ranks = [a, b, c], [0, 0, 5]
    cu.ActivePodsWithRanks(pods, ranks, NOW).sort()
    assert [p.metadata.name for p in pods] == ["c", "b", "a"]
    assert ranks == [5, 0, 0]


LOG_RANK_CASES = [
    pytest.param(NOW - 1 * H, NOW - timedelta(hours=1.2), 0, id="same-bucket"),
    pytest.param(NOW - 1 * H, NOW - timedelta(hours=1.5), -1, id="next-bucket"),
    pytest.param(NOW + H, NOW - timedelta(microseconds=1), -1 - 9, id="future-is-bucket-minus-one"),
]


@pytest.mark.parametrize("t1, t2, want", LOG_RANK_CASES)
def test_logarithmic_rank_diff(t1, t2, want):
    # 1 h = 3.6e12 ns -> bucket 41; 1.5 h -> 42; 1 us = 1000 ns -> bucket 9.
    assert cu.logarithmic_rank_diff(t1, t2, NOW) == want


DELETION_COST_CASES = [
    pytest.param(None, 0, False, id="no-annotations"),
    pytest.param({COST: "10"}, 10, False, id="positive"),
    pytest.param({COST: "-7"}, -7, False, id="negative"),
    pytest.param({COST: "0"}, 0, False, id="zero"),
    pytest.param({COST: "+10"}, 0, True, id="plus-sign"),
    pytest.param({COST: "008"}, 0, True, id="leading-zero"),
    pytest.param({COST: "2147483648"}, 0, True, id="beyond-int32"),
    pytest.param({COST: "abc"}, 0, True, id="not-a-number"),
]


@pytest.mark.parametrize("annotations, want, want_err", DELETION_COST_CASES)
def test_get_deletion_cost_from_pod_annotations(annotations, want, want_err):
    cost, err = cu.get_deletion_cost_from_pod_annotations(annotations)
    assert cost == want and (err is not None) is want_err


def sidecar_pod(regular: int, sidecar: int) -> V1Pod:
    return V1Pod(
        metadata=V1ObjectMeta(name="p"),
        spec=V1PodSpec(containers=[V1Container(name="c0")],
                       init_containers=[V1Container(name="side", restart_policy="Always"), V1Container(name="init")]),
        status=V1PodStatus(container_statuses=restarts(regular),
                           init_container_statuses=[
                               V1ContainerStatus(name="side", image="i", image_id="", ready=True, restart_count=sidecar),
                               V1ContainerStatus(name="init", image="i", image_id="", ready=True, restart_count=99)]),
    )


COMPARE_RESTARTS_CASES = [
    pytest.param(sidecar_pod(3, 0), sidecar_pod(1, 9), True, id="regular-decides-first"),
    pytest.param(sidecar_pod(1, 2), sidecar_pod(1, 1), True, id="sidecar-breaks-tie"),
    pytest.param(sidecar_pod(1, 1), sidecar_pod(1, 2), False, id="other-has-more"),
    pytest.param(sidecar_pod(1, 1), sidecar_pod(1, 1), None, id="equal"),
]


@pytest.mark.parametrize("pi, pj, want", COMPARE_RESTARTS_CASES)
def test_compare_max_container_restarts(pi, pj, want):
    # Plain init containers (restart count 99 above) never count.
    assert cu.compare_max_container_restarts(pi, pj) is want


def test_active_replica_sets_filtering():
    """Port of TestActiveReplicaSetsFiltering, "Filters active replica sets" (controller_utils_test.go)."""
    rss = [new_replica_set("zero", 0), None, new_replica_set("foo", 1), new_replica_set("bar", 2)]
    assert cu.filter_active_replica_sets(rss) == [new_replica_set("foo", 1), new_replica_set("bar", 2)]


def dated_rs(name: str, replicas: int, created) -> V1ReplicaSet:
    rs = new_replica_set(name, replicas)
    rs.metadata.creation_timestamp = created
    return rs


RS_SORT_CASES = [
    pytest.param(cu.ReplicaSetsByCreationTimestamp, ["no-time", "old", "a-new", "b-new"], id="by-creation-timestamp"),
    pytest.param(cu.ReplicaSetsBySizeOlder, ["old", "a-new", "b-new", "no-time"], id="by-size-older"),
    pytest.param(cu.ReplicaSetsBySizeNewer, ["b-new", "a-new", "old", "no-time"], id="by-size-newer"),
    pytest.param(cu.ControllersByCreationTimestamp, ["no-time", "old", "a-new", "b-new"], id="controllers"),
]


@pytest.mark.parametrize("sort_type, want", RS_SORT_CASES)
def test_replica_set_sorts(sort_type, want):
    rss = [dated_rs("b-new", 3, NOW), dated_rs("no-time", 1, None), dated_rs("a-new", 3, NOW),
           dated_rs("old", 3, THEN)]
    sort_type(rss).sort()
    assert [rs.metadata.name for rs in rss] == want
    cu.go_sort(sort_type(rss), reverse=True)
    assert [rs.metadata.name for rs in rss] == list(reversed(want))


# --- availability checks, indexers ------------------------------------------------------------------

AVAILABILITY_CHECK_CASES = [
    pytest.param([10, 25], 30, 0, 5.0, id="soonest-pod-wins"),
    pytest.param([10, 25], 30, 4, 1.0, id="recomputed-at-clock-now"),
    pytest.param([29], 30, 2, 0.0, id="turned-available-meanwhile-checks-at-once"),
    pytest.param([31, 40], 30, 0, None, id="all-already-available"),
    pytest.param([10], 0, 0, None, id="no-min-ready-seconds"),
]


@pytest.mark.parametrize("ready_ago, min_ready, clock_advance, want", AVAILABILITY_CHECK_CASES)
def test_find_min_next_pod_availability_check(ready_ago, min_ready, clock_advance, want):
    pods = [V1Pod(metadata=V1ObjectMeta(name=f"p{i}"),
                  status=V1PodStatus(conditions=ready(NOW - timedelta(seconds=s))))
            for i, s in enumerate(ready_ago)]
    pods.append(V1Pod(metadata=V1ObjectMeta(name="not-ready"), status=V1PodStatus()))
    clock = FakeClock(NOW + timedelta(seconds=clock_advance))
    assert cu.find_min_next_pod_availability_check(pods, min_ready, NOW, clock) == want


class FakeInformer:
    """Just enough of a SharedIndexInformer: an indexer and add_indexers."""

    def __init__(self) -> None:
        self.indexer = new_indexer(meta_namespace_key_func, {})

    def get_indexer(self):
        return self.indexer

    def add_indexers(self, indexers) -> None:
        self.indexer.add_indexers(indexers)


def owned_pod(name: str, owner: V1ReplicaSet | None, namespace: str = "default", node: str = "") -> V1Pod:
    refs = [new_controller_ref(owner, GroupVersionKind("apps", "v1", "ReplicaSet"))] if owner else None
    return V1Pod(metadata=V1ObjectMeta(name=name, namespace=namespace, owner_references=refs),
                 spec=V1PodSpec(containers=[], node_name=node))


FILTER_PODS_BY_OWNER_CASES = [
    pytest.param(False, ["mine"], id="owned-only"),
    pytest.param(True, ["mine", "orphan"], id="with-orphans-of-the-namespace"),
]


@pytest.mark.parametrize("include_orphans, want", FILTER_PODS_BY_OWNER_CASES)
def test_filter_pods_by_owner(include_orphans, want):
    rs, other = new_replica_set("rs", 1, uid="uid-rs"), new_replica_set("other", 1, uid="uid-other")
    informer = FakeInformer()
    cu.add_pod_controller_indexer(informer)
    cu.add_pod_controller_indexer(informer)  # a second call changes nothing
    for pod in (owned_pod("mine", rs), owned_pod("theirs", other), owned_pod("orphan", None),
                owned_pod("orphan-elsewhere", None, namespace="other")):
        informer.indexer.add(pod)
    got = cu.filter_pods_by_owner(informer.indexer, rs.metadata, "ReplicaSet", include_orphans)
    assert sorted(p.metadata.name for p in got) == want


def test_filter_pods_by_owner_needs_a_complete_owner():
    with pytest.raises(ValueError, match="no owner uid provided"):
        cu.filter_pods_by_owner(FakeInformer().indexer, V1ObjectMeta(name="rs", namespace="ns"), "ReplicaSet", True)
    with pytest.raises(ValueError, match="no owner kind provided"):
        cu.filter_pods_by_owner(FakeInformer().indexer, new_replica_set("rs", 1).metadata, "", True)


def test_pod_node_name_indexer_and_keys():
    informer = FakeInformer()
    cu.add_pod_node_name_indexer(informer)
    informer.indexer.add(owned_pod("a", None, node="n1"))
    informer.indexer.add(owned_pod("b", None))
    assert [p.metadata.name for p in informer.indexer.by_index(cu.POD_NODE_NAME_KEY_INDEX, "n1")] == ["a"]
    assert cu.pod_controller_index_key("ns", None) == "ns"
    rs = new_replica_set("rs", 1, uid="u")
    assert cu.pod_controller_index_key("ns", new_controller_ref(rs, GroupVersionKind("apps", "v1", "ReplicaSet"))) \
        == "ns/ReplicaSet/rs/u"
    assert cu.pod_key(owned_pod("a", None)) == "default/a"
    assert cu.static_resync_period_func(30.0)() == 30.0 and cu.no_resync_period_func() == 0.0


# --- hashing ---------------------------------------------------------------------------------------

COMPUTE_HASH_CASES = [
    pytest.param(V1PodTemplateSpec(), 1, 2, id="simple"),
    pytest.param(V1PodTemplateSpec(), None, 2**31 - 1, id="using math.MaxInt64"),
]


@pytest.mark.parametrize("template, collision_count, other_collision_count", COMPUTE_HASH_CASES)
def test_compute_hash(template, collision_count, other_collision_count):
    """Port of TestComputeHash (controller_utils_test.go): the collision count changes the hash."""
    assert cu.compute_hash(template, collision_count) != cu.compute_hash(template, other_collision_count)


def test_compute_hash_is_stable_and_alphabet_safe():
    rc = new_replication_controller(1)
    h = cu.compute_hash(rc.spec.template, None)
    assert h == cu.compute_hash(new_replication_controller(1).spec.template, None), "same template, same hash"
    assert set(h) <= set(cu.ALPHANUMS)
    # Pins the canonical form: changing the serialisation would rename every ReplicaSet.
    assert cu.compute_hash(V1PodTemplateSpec(), None) == "5859f96865"
    assert cu.compute_hash(V1PodTemplateSpec(), 1) == "648d6bd896"
    changed = new_replication_controller(1).spec.template
    changed.spec.containers[0].image = "foo/baz"
    assert cu.compute_hash(changed, None) != h


FNV_CASES = [
    pytest.param(b"", 0x811C9DC5, id="empty"),
    pytest.param(b"a", 0xE40C292C, id="a"),
    pytest.param(b"foobar", 0xBF9CF968, id="foobar"),
]


@pytest.mark.parametrize("data, want", FNV_CASES)
def test_fnv32a(data, want):
    # Published FNV-1a 32-bit test vectors.
    h = cu.Fnv32a()
    h.write(data)
    assert h.sum32() == want


SAFE_ENCODE_CASES = [
    pytest.param("0123456789", "456789bcdf", id="digits"),
    pytest.param("", "", id="empty"),
    pytest.param("1592", "59f6", id="mixed"),
]


@pytest.mark.parametrize("s, want", SAFE_ENCODE_CASES)
def test_safe_encode_string(s, want):
    assert cu.safe_encode_string(s) == want
