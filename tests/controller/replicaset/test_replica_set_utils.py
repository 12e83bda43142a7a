"""Tests for minikcm.controller.replicaset.replica_set_utils: ports of replica_set_utils_test.go.

Upstream tables read at kubernetes/kubernetes@04791b490660 (the stored copy, from
before terminatingReplicas; the rows about terminating pods and the gate are
ours). Also here, because they test this module's functions: TestGetCondition,
TestSetCondition, TestRemoveCondition and TestControllerUpdateStatusWithFailure
of replica_set_test.go.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from kubernetes.client import V1ReplicaSetCondition, V1ReplicaSetStatus

from minikcm import features
from minikcm.client.fake import new_simple_clientset
from minikcm.client.testing import GetAction, UpdateAction
from minikcm.clock import EPOCH
from minikcm.controller.replicaset.replica_set import ReplicaSetControllerFeatures
from minikcm.controller.replicaset.replica_set_utils import (
    REPLICA_SET_REPLICA_FAILURE,
    calculate_status,
    deref_int32_to_str,
    get_condition,
    new_replica_set_condition,
    remove_condition,
    set_condition,
    update_replica_set_status,
)

from .rs_testing import new_pod, new_replica_set

NOW = EPOCH + timedelta(hours=1)
ALL_ON = ReplicaSetControllerFeatures(enable_status_terminating_replicas=True)
FULL_LABEL_MAP = {"name": "foo", "type": "production"}
NOT_FULLY_LABELLED_RS = new_replica_set(1, {"name": "foo"})
FULLY_LABELLED_RS = new_replica_set(2, FULL_LABEL_MAP)  # 2 replicas: for diff < 0 and diff > 0
LONG_MIN_READY_SECONDS_RS = new_replica_set(1, FULL_LABEL_MAP)
LONG_MIN_READY_SECONDS_RS.spec.min_ready_seconds = 3600
# Template labels name=foo,type=production; NOT_FULLY_LABELLED_RS's pods carry only name=foo.
NOT_FULLY_LABELLED_RS.spec.template.metadata.labels = dict(FULL_LABEL_MAP)


def _terminating(rs):
    pod = new_pod("terminating", rs, "Running")
    pod.metadata.deletion_timestamp = NOW
    return pod


def status(replicas, fully_labeled, ready, available, terminating=0):
    return V1ReplicaSetStatus(replicas=replicas, fully_labeled_replicas=fully_labeled, ready_replicas=ready,
                              available_replicas=available, terminating_replicas=terminating)


CALCULATE_STATUS_CASES = [
    #            rs                         active pods                                       terminating  expected
    pytest.param(FULLY_LABELLED_RS, [new_pod("pod1", FULLY_LABELLED_RS, "Running", NOW)], [],
                 status(1, 1, 1, 1), id="1 fully labelled pod"),
    pytest.param(NOT_FULLY_LABELLED_RS, [new_pod("pod1", NOT_FULLY_LABELLED_RS, "Running", NOW)], [],
                 status(1, 0, 1, 1), id="1 not fully labelled pod"),
    pytest.param(FULLY_LABELLED_RS, [new_pod("pod1", FULLY_LABELLED_RS, "Running", NOW),
                                     new_pod("pod2", FULLY_LABELLED_RS, "Running", NOW)], [],
                 status(2, 2, 2, 2), id="2 fully labelled pods"),
    pytest.param(NOT_FULLY_LABELLED_RS, [new_pod("pod1", NOT_FULLY_LABELLED_RS, "Running", NOW),
                                         new_pod("pod2", NOT_FULLY_LABELLED_RS, "Running", NOW)], [],
                 status(2, 0, 2, 2), id="2 not fully labelled pods"),
    pytest.param(NOT_FULLY_LABELLED_RS, [new_pod("pod1", NOT_FULLY_LABELLED_RS, "Running", NOW),
                                         new_pod("pod2", FULLY_LABELLED_RS, "Running", NOW)], [],
                 status(2, 1, 2, 2), id="1 fully labelled pod, 1 not fully labelled pod"),
    pytest.param(FULLY_LABELLED_RS, [new_pod("pod1", FULLY_LABELLED_RS, "Pending")], [],
                 status(1, 1, 0, 0), id="1 non-ready pod"),
    pytest.param(LONG_MIN_READY_SECONDS_RS, [new_pod("pod1", LONG_MIN_READY_SECONDS_RS, "Running", NOW)], [],
                 status(1, 1, 1, 0), id="1 ready but non-available pod"),
    pytest.param(LONG_MIN_READY_SECONDS_RS,
                 [new_pod("pod1", LONG_MIN_READY_SECONDS_RS, "Running", NOW - timedelta(seconds=3600))], [],
                 status(1, 1, 1, 1), id="ready exactly minReadySeconds ago is available"),
    pytest.param(FULLY_LABELLED_RS, [new_pod("pod1", FULLY_LABELLED_RS, "Running", NOW)],
                 [_terminating(FULLY_LABELLED_RS), _terminating(FULLY_LABELLED_RS)],
                 status(1, 1, 1, 1, terminating=2), id="terminating pods are counted apart"),
]


@pytest.mark.parametrize("rs, active_pods, terminating_pods, expected", CALCULATE_STATUS_CASES)
def test_calculate_status(rs, active_pods, terminating_pods, expected):
    """Port of TestCalculateStatus (replica_set_utils_test.go); the last two rows are ours."""
    assert calculate_status(rs, active_pods, terminating_pods, None, ALL_ON, NOW) == expected


@pytest.mark.parametrize("gate, controller_feature", [
    pytest.param(False, True, id="gate-off"),
    pytest.param(True, False, id="controller-feature-off"),
])
def test_calculate_status_without_terminating_replicas(gate, controller_feature):
    """Ours: terminatingReplicas stays unset unless the gate and the controller feature are both on."""
    rs = FULLY_LABELLED_RS
    with features.set_feature_gate_during_test(features.DEFAULT_FEATURE_GATE,
                                               features.DEPLOYMENT_REPLICA_SET_TERMINATING_REPLICAS, gate):
        got = calculate_status(rs, [], [_terminating(rs)], None,
                               ReplicaSetControllerFeatures(enable_status_terminating_replicas=controller_feature),
                               NOW)
    assert got.terminating_replicas is None


REPLICA_FAILURE_RS = new_replica_set(10, {"name": "foo"})
REPLICA_FAILURE_RS.status = V1ReplicaSetStatus(
    replicas=0, conditions=[V1ReplicaSetCondition(type=REPLICA_SET_REPLICA_FAILURE, status="True")])
CONDITIONS_RS = new_replica_set(2, {"name": "foo"})
FAKE_ERR = RuntimeError("fake manageReplicasErr")


def failure(reason=None, message=None):
    return [V1ReplicaSetCondition(type=REPLICA_SET_REPLICA_FAILURE, status="True", reason=reason, message=message)]


CALCULATE_STATUS_CONDITIONS_CASES = [
    pytest.param(CONDITIONS_RS, 1, FAKE_ERR, failure("FailedCreate", "fake manageReplicasErr"),
                 id="manageReplicasErr != nil && failureCond == nil, diff < 0"),
    pytest.param(CONDITIONS_RS, 3, FAKE_ERR, failure("FailedDelete", "fake manageReplicasErr"),
                 id="manageReplicasErr != nil && failureCond == nil, diff > 0"),
    pytest.param(REPLICA_FAILURE_RS, 1, None, None, id="manageReplicasErr == nil && failureCond != nil"),
    pytest.param(REPLICA_FAILURE_RS, 1, FAKE_ERR, failure(), id="manageReplicasErr != nil && failureCond != nil"),
    pytest.param(CONDITIONS_RS, 1, None, None, id="manageReplicasErr == nil && failureCond == nil"),
]


@pytest.mark.parametrize("rs, pod_count, manage_replicas_err, expected_conditions", CALCULATE_STATUS_CONDITIONS_CASES)
def test_calculate_status_conditions(rs, pod_count, manage_replicas_err, expected_conditions):
    """Port of TestCalculateStatusConditions (replica_set_utils_test.go)."""
    pods = [new_pod(f"pod{i + 1}", rs, "Running") for i in range(pod_count)]
    got = calculate_status(rs, pods, [], manage_replicas_err, ALL_ON, NOW).conditions
    if got:  # every row has at most one condition; a new one is stamped now
        for c in expected_conditions:
            c.last_transition_time = got[0].last_transition_time
    assert got == expected_conditions
    if manage_replicas_err is not None and rs is CONDITIONS_RS:
        assert got[0].last_transition_time == NOW


def cond_image_pull_back_off():
    return V1ReplicaSetCondition(type="ImagePullBackOff", status="True", reason="NonExistentImage")


def cond_replica_failure():
    return V1ReplicaSetCondition(type=REPLICA_SET_REPLICA_FAILURE, status="True", reason="OtherFailure")


def cond_replica_failure2():
    return V1ReplicaSetCondition(type=REPLICA_SET_REPLICA_FAILURE, status="True", reason="AnotherFailure")


def example_status():
    return V1ReplicaSetStatus(replicas=0, conditions=[cond_replica_failure()])


@pytest.mark.parametrize("cond_type, expected", [
    pytest.param(REPLICA_SET_REPLICA_FAILURE, True, id="condition exists"),
    pytest.param("ImagePullBackOff", False, id="condition does not exist"),
])
def test_get_condition(cond_type, expected):
    """Port of TestGetCondition (replica_set_test.go)."""
    assert (get_condition(example_status(), cond_type) is not None) == expected


@pytest.mark.parametrize("before, cond, after", [
    pytest.param([], cond_replica_failure(), [cond_replica_failure()], id="set for the first time"),
    pytest.param([cond_image_pull_back_off()], cond_replica_failure(),
                 [cond_image_pull_back_off(), cond_replica_failure()], id="simple set"),
    pytest.param([cond_replica_failure()], cond_replica_failure2(), [cond_replica_failure2()], id="overwrite"),
])
def test_set_condition(before, cond, after):
    """Port of TestSetCondition (replica_set_test.go)."""
    st = V1ReplicaSetStatus(replicas=0, conditions=before or None)
    set_condition(st, cond)
    assert st.conditions == after


def test_set_condition_keeps_same_status_and_reason():
    """Ours: re-setting an equal condition keeps its original transition time."""
    st = V1ReplicaSetStatus(replicas=0)
    set_condition(st, new_replica_set_condition(REPLICA_SET_REPLICA_FAILURE, "True", "FailedCreate", "a", now=EPOCH))
    set_condition(st, new_replica_set_condition(REPLICA_SET_REPLICA_FAILURE, "True", "FailedCreate", "b", now=NOW))
    assert [(c.message, c.last_transition_time) for c in st.conditions] == [("a", EPOCH)]


@pytest.mark.parametrize("before, cond_type, after", [
    pytest.param(None, REPLICA_SET_REPLICA_FAILURE, None, id="remove from empty status"),
    pytest.param([cond_replica_failure()], REPLICA_SET_REPLICA_FAILURE, None, id="simple remove"),
    pytest.param([cond_replica_failure()], "ImagePullBackOff", [cond_replica_failure()],
                 id="doesn't remove anything"),
])
def test_remove_condition(before, cond_type, after):
    """Port of TestRemoveCondition (replica_set_test.go)."""
    st = V1ReplicaSetStatus(replicas=0, conditions=before)
    remove_condition(st, cond_type)
    assert st.conditions == after


def test_controller_update_status_with_failure():
    """Port of TestControllerUpdateStatusWithFailure (replica_set_test.go).

    A failed status write is retried once after a fresh GET; both writes
    carry the new replica count although the GET returned the old one.
    """
    rs = new_replica_set(1, {"foo": "bar"})
    client = new_simple_clientset()
    client.fake.add_reactor("get", "replicasets", lambda action: (True, rs.model_copy(deep=True), None))
    client.fake.add_reactor("*", "*", lambda action: (True, None, RuntimeError("fake error")))
    new_status = V1ReplicaSetStatus(replicas=10)
    with pytest.raises(RuntimeError, match="fake error"):
        update_replica_set_status(client.apps_v1().replica_sets("default"), rs.model_copy(deep=True),
                                  new_status, ALL_ON)
    gets, updates = 0, 0
    for action in client.fake.actions():
        assert action.get_resource().resource == "replicasets"
        if isinstance(action, GetAction):
            gets += 1
            assert action.get_name() == rs.metadata.name
        elif isinstance(action, UpdateAction):
            updates += 1
            assert action.get_object().status.replicas == 10
        else:
            pytest.fail(f"unexpected action {action}")
    assert (gets, updates) == (1, 2)


def test_update_replica_set_status_skips_steady_state_and_sets_observed_generation():
    """Ours: nothing is written when the status is current; a write records the generation acted on."""
    rs = new_replica_set(1, {"foo": "bar"})
    rs.metadata.resource_version = None
    client = new_simple_clientset(rs)
    stored = client.apps_v1().replica_sets("default").get("foobar")
    stored.metadata.generation = stored.metadata.generation or 1
    client.fake.clear_actions()
    new_status = V1ReplicaSetStatus(replicas=3, ready_replicas=2, terminating_replicas=0)
    updated = update_replica_set_status(client.apps_v1().replica_sets("default"), stored, new_status, ALL_ON)
    assert updated.status.observed_generation == stored.metadata.generation
    assert updated.status.replicas == 3
    assert len(client.fake.actions()) == 1
    client.fake.clear_actions()
    again = update_replica_set_status(client.apps_v1().replica_sets("default"), updated, new_status, ALL_ON)
    assert again is updated
    assert client.fake.actions() == []


def test_deref_int32_to_str():
    """Ours: the log helper's two cases."""
    assert (deref_int32_to_str(None), deref_int32_to_str(3)) == ("nil", "3")
