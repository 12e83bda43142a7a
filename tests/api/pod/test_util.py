"""Tests for minikcm.api.pod.util: ports of pkg/api/v1/pod/util_test.go tables."""

from __future__ import annotations

from datetime import timedelta

import pytest
from kubernetes.client import (
    V1Container,
    V1ContainerRestartRule,
    V1ContainerRestartRuleOnExitCodes,
    V1ContainerStatus,
    V1EphemeralContainer,
    V1Pod,
    V1PodCondition,
    V1PodSpec,
    V1PodStatus,
    V1SecurityContext,
)

from minikcm.api.pod import util as podutil
from minikcm.clock import EPOCH, FakeClock

NOW = EPOCH


def new_pod(now, ready: bool, before_sec: int) -> V1Pod:
    """A pod whose Ready condition changed `before_sec` seconds before `now` (upstream's newPod)."""
    return V1Pod(status=V1PodStatus(conditions=[V1PodCondition(
        type="Ready",
        status="True" if ready else "False",
        last_transition_time=now - timedelta(seconds=before_sec),
    )]))


def spec_with_all_kinds(**extra) -> V1PodSpec:
    return V1PodSpec(
        containers=[V1Container(name="c1"), V1Container(name="c2", **extra)],
        init_containers=[V1Container(name="i1"), V1Container(name="i2", **extra)],
        ephemeral_containers=[V1EphemeralContainer(name="e1"), V1EphemeralContainer(name="e2", **extra)],
    )


VISIT_CONTAINERS_CASES = [
    pytest.param(V1PodSpec(containers=[]), podutil.ALL_CONTAINERS, [], id="empty podspec"),
    pytest.param(spec_with_all_kinds(), podutil.CONTAINERS, ["c1", "c2"], id="regular containers"),
    pytest.param(spec_with_all_kinds(), podutil.INIT_CONTAINERS, ["i1", "i2"], id="init containers"),
    pytest.param(spec_with_all_kinds(), podutil.INIT_CONTAINERS | podutil.CONTAINERS, ["i1", "i2", "c1", "c2"],
                 id="init + main containers"),
    pytest.param(spec_with_all_kinds(), podutil.EPHEMERAL_CONTAINERS, ["e1", "e2"], id="ephemeral containers"),
    pytest.param(spec_with_all_kinds(), podutil.ALL_CONTAINERS, ["i1", "i2", "c1", "c2", "e1", "e2"],
                 id="all container types"),
    pytest.param(spec_with_all_kinds(), podutil.all_feature_enabled_containers(),
                 ["i1", "i2", "c1", "c2", "e1", "e2"], id="all feature enabled container types"),
]


@pytest.mark.parametrize("spec, mask, want", VISIT_CONTAINERS_CASES)
def test_visit_containers(spec, mask, want):
    """Port of TestVisitContainers (pkg/api/v1/pod/util_test.go)."""
    got = []

    def visitor(c, kind):
        got.append(c.name)
        return True

    assert podutil.visit_containers(spec, mask, visitor) is True
    assert got == want


def test_visit_containers_dropping_fields():
    """Port of TestVisitContainers, row "dropping fields": the visitor may change containers in place."""
    spec = spec_with_all_kinds(security_context=V1SecurityContext())

    def drop(c, kind):
        c.security_context = None
        return True

    podutil.visit_containers(spec, podutil.ALL_CONTAINERS, drop)
    all_containers = spec.containers + spec.init_containers + spec.ephemeral_containers
    assert all(c.security_context is None for c in all_containers)


def test_visit_containers_stops_when_visitor_says_so():
    seen = []
    assert podutil.visit_containers(spec_with_all_kinds(), podutil.ALL_CONTAINERS,
                                    lambda c, kind: seen.append(c.name) or len(seen) < 3) is False
    assert seen == ["i1", "i2", "c1"]


@pytest.mark.parametrize("spec, mask, want", VISIT_CONTAINERS_CASES)
def test_container_iter(spec, mask, want):
    """Port of TestContainerIter (pkg/api/v1/pod/util_test.go): names and the kind yielded with each."""
    first_letter = {podutil.INIT_CONTAINERS: "i", podutil.CONTAINERS: "c", podutil.EPHEMERAL_CONTAINERS: "e"}
    got = []
    for c, kind in podutil.container_iter(spec, mask):
        assert c.name[0] == first_letter[kind]
        got.append(c.name)
    assert got == want


IS_POD_AVAILABLE_CASES = [
    pytest.param(new_pod(NOW, False, 0), 0, False, id="not-ready"),
    pytest.param(new_pod(NOW, True, 0), 1, False, id="ready-just-now-min-ready-1"),
    pytest.param(V1Pod(status=V1PodStatus(conditions=[V1PodCondition(type="Ready", status="True")])), 1, False,
                 id="ready-without-transition-time"),
    pytest.param(new_pod(NOW, True, 0), 0, True, id="ready-min-ready-0"),
    pytest.param(new_pod(NOW, True, 51), 50, True, id="ready-51s-min-50"),
    pytest.param(new_pod(NOW, True, 51), 51, True, id="ready-51s-min-51-boundary-counts"),
    pytest.param(new_pod(NOW, True, 51), 52, False, id="ready-51s-min-52"),
]


@pytest.mark.parametrize("pod, min_ready_seconds, expected", IS_POD_AVAILABLE_CASES)
def test_is_pod_available(pod, min_ready_seconds, expected):
    """Port of TestIsPodAvailable (pkg/api/v1/pod/util_test.go)."""
    assert podutil.is_pod_available(pod, min_ready_seconds, NOW) is expected


IS_POD_TERMINAL_CASES = [
    pytest.param("Failed", True, id="Failed"),
    pytest.param("Succeeded", True, id="Succeeded"),
    pytest.param("Unknown", False, id="Unknown"),
    pytest.param("Pending", False, id="Pending"),
    pytest.param("Running", False, id="Running"),
    pytest.param(None, False, id="no-phase"),
]


@pytest.mark.parametrize("phase, expected", IS_POD_TERMINAL_CASES)
def test_is_pod_terminal(phase, expected):
    """Port of TestIsPodTerminal (pkg/api/v1/pod/util_test.go)."""
    pod = new_pod(NOW, True, 0)
    pod.status.phase = phase
    assert podutil.is_pod_terminal(pod) is expected


def status(name, ready, image):
    return V1ContainerStatus(name=name, ready=ready, image=image, image_id="", restart_count=0)


GET_CONTAINER_STATUS_CASES = [
    pytest.param([status("test1", False, "image1"), status("test2", True, "image1")], "test1",
                 status("test1", False, "image1"), True, id='retrieve ContainerStatus with Name="test1"'),
    pytest.param([status("test2", False, "image2")], "test1", None, False,
                 id='no matching ContainerStatus with Name="test1"'),
    pytest.param([status("test3", False, "image3")], "", None, False,
                 id="retrieve an empty ContainerStatus with container name empty"),
    pytest.param(None, "", None, False, id="retrieve an empty ContainerStatus with status nil"),
]


@pytest.mark.parametrize("statuses, name, want_status, want_exists", GET_CONTAINER_STATUS_CASES)
def test_get_container_status(statuses, name, want_status, want_exists):
    """Port of TestGetContainerStatus (pkg/api/v1/pod/util_test.go); "empty status" is None here."""
    assert podutil.get_container_status(statuses, name) == (want_status, want_exists)
    assert podutil.get_existing_container_status(statuses, name) == want_status


GET_INDEX_OF_CONTAINER_STATUS_CASES = [
    pytest.param("c1", True, 0, id="first container"),
    pytest.param("c2", True, 1, id="second container"),
    pytest.param("c3", False, 0, id="non-existent container"),
]


@pytest.mark.parametrize("name, want_exists, want_index", GET_INDEX_OF_CONTAINER_STATUS_CASES)
def test_get_index_of_container_status(name, want_exists, want_index):
    """Port of TestGetIndexOfContainerStatus (pkg/api/v1/pod/util_test.go)."""
    statuses = [status("c1", False, "image1"), status("c2", True, "image1")]
    assert podutil.get_index_of_container_status(statuses, name) == (want_index, want_exists)


def ready_condition(**overrides) -> V1PodCondition:
    fields = dict(type="Ready", status="True", reason="successfully", message="sync pod successfully",
                  last_probe_time=NOW, last_transition_time=NOW + timedelta(microseconds=1))
    fields.update(overrides)
    return V1PodCondition(**fields)


UPDATE_POD_CONDITION_CASES = [
    pytest.param(ready_condition(), False, id="all equal, no update"),
    pytest.param(ready_condition(type="PodScheduled"), True, id="not equal Type, should get updated"),
    pytest.param(ready_condition(status="False"), True, id="not equal Status, should get updated"),
    pytest.param(ready_condition(reason="other"), True, id="not equal Reason, should get updated"),
]


@pytest.mark.parametrize("condition, expected", UPDATE_POD_CONDITION_CASES)
def test_update_pod_condition(condition, expected):
    """Port of TestUpdatePodCondition (pkg/api/v1/pod/util_test.go); the Reason row is ours."""
    pod_status = V1PodStatus(conditions=[ready_condition()])
    assert podutil.update_pod_condition(pod_status, condition, FakeClock(NOW + timedelta(hours=1))) is expected


def test_update_pod_condition_keeps_transition_time_unless_status_flips():
    clock = FakeClock(NOW + timedelta(hours=1))
    pod_status = V1PodStatus(conditions=[ready_condition()])
    podutil.update_pod_condition(pod_status, ready_condition(message="again"), clock)
    assert pod_status.conditions[0].last_transition_time == NOW + timedelta(microseconds=1)
    assert pod_status.conditions[0].message == "again"
    podutil.update_pod_condition(pod_status, ready_condition(status="False"), clock)
    assert pod_status.conditions[0].last_transition_time == clock.now()
    assert podutil.update_pod_condition(V1PodStatus(), ready_condition(), clock) is True


GET_CONTAINERS_READY_CONDITION_CASES = [
    pytest.param(V1PodStatus(conditions=[ready_condition(type="ContainersReady")]),
                 ready_condition(type="ContainersReady"), id="containers ready condition exists"),
    pytest.param(V1PodStatus(conditions=[]), None, id="containers ready condition does not exist"),
]


@pytest.mark.parametrize("pod_status, expected", GET_CONTAINERS_READY_CONDITION_CASES)
def test_get_containers_ready_condition(pod_status, expected):
    """Port of TestGetContainersReadyCondition (pkg/api/v1/pod/util_test.go)."""
    assert podutil.get_containers_ready_condition(pod_status) == expected


IS_CONTAINERS_READY_CONDITION_TRUE_CASES = [
    pytest.param([ready_condition(type="ContainersReady")], True, id="containers ready condition is true"),
    pytest.param([ready_condition(type="ContainersReady", status="False")], False,
                 id="containers ready condition is false"),
    pytest.param([], False, id="containers ready condition is empty"),
]


@pytest.mark.parametrize("conditions, expected", IS_CONTAINERS_READY_CONDITION_TRUE_CASES)
def test_is_containers_ready_condition_true(conditions, expected):
    """Port of TestIsContainersReadyConditionTrue (pkg/api/v1/pod/util_test.go)."""
    assert podutil.is_containers_ready_condition_true(V1PodStatus(conditions=conditions)) is expected


def test_get_pod_condition_and_readiness_without_status():
    pod = V1Pod()
    assert podutil.is_pod_ready(pod) is False
    assert podutil.get_pod_condition(None, "Ready") == (-1, None)
    status_ = V1PodStatus(conditions=[ready_condition(type="PodScheduled"), ready_condition()])
    index, condition = podutil.get_pod_condition(status_, "Ready")
    assert index == 1 and condition is status_.conditions[1]


def restart_rule(op, values, action="Restart"):
    return V1ContainerRestartRule(action=action,
                                  exit_codes=V1ContainerRestartRuleOnExitCodes(operator=op, values=values))


IS_CONTAINER_RESTARTABLE_CASES = [
    pytest.param("Never", V1Container(name="c", restart_policy="Never",
                                      restart_policy_rules=[V1ContainerRestartRule(action="Restart")]),
                 True, id="Container: Rule action 'Restart' should always be true"),
    pytest.param("Never", V1Container(name="c", restart_policy="Always"), True,
                 id="Container: Policy 'Always' is restartable"),
    pytest.param("Never", V1Container(name="c", restart_policy="OnFailure"), True,
                 id="Container: Policy 'OnFailure' is restartable"),
    pytest.param("Always", V1Container(name="c", restart_policy="Never"), False,
                 id="Container: Policy 'Never' is not restartable"),
    pytest.param("Always", V1Container(name="c"), True, id="Pod Fallback: Policy 'Always' is restartable"),
    pytest.param("OnFailure", V1Container(name="c"), True, id="Pod Fallback: Policy 'OnFailure' is restartable"),
    pytest.param("Never", V1Container(name="c"), False, id="Pod Fallback: Policy 'Never' is not restartable"),
    pytest.param(None, V1Container(name="c"), True, id="Pod Fallback: Default empty policy is restartable"),
]


@pytest.mark.parametrize("pod_policy, container, expected", IS_CONTAINER_RESTARTABLE_CASES)
def test_is_container_restartable(pod_policy, container, expected):
    """Port of TestIsContainerRestartable (pkg/api/v1/pod/util_test.go)."""
    spec = V1PodSpec(containers=[], restart_policy=pod_policy)
    assert podutil.is_container_restartable(spec, container) is expected


CONTAINER_SHOULD_RESTART_CASES = [
    pytest.param(V1Container(name="c", restart_policy="Never", restart_policy_rules=[restart_rule("In", [42, 50, 60])]),
                 None, 42, True, id="Rule: 'In' operator matches with 'Restart' action"),
    pytest.param(V1Container(name="c", restart_policy="Never", restart_policy_rules=[restart_rule("NotIn", [0, 1, 2])]),
                 None, 99, True, id="Rule: 'NotIn' operator matches with 'Restart' action"),
    pytest.param(V1Container(name="c", restart_policy="Never", restart_policy_rules=[restart_rule("In", [10, 20])]),
                 None, 30, False, id="Rule: 'In' operator does not match, should fall back to container policy"),
    pytest.param(V1Container(name="c", restart_policy="Never", restart_policy_rules=[restart_rule("NotIn", [10, 20])]),
                 None, 10, False, id="Rule: 'NotIn' operator does not match, should fall back to container policy"),
    pytest.param(V1Container(name="c", restart_policy="Always"), "Never", 0, True, id="Container Policy: 'Always'"),
    pytest.param(V1Container(name="c", restart_policy="OnFailure"), "Never", 0, False,
                 id="Container Policy: 'OnFailure' with exit code 0"),
    pytest.param(V1Container(name="c", restart_policy="OnFailure"), "Never", 1, True,
                 id="Container Policy: 'OnFailure' with non-zero exit code"),
    pytest.param(V1Container(name="c", restart_policy="Never"), "Always", 1, False,
                 id="Container Policy: 'Never' should return false"),
    pytest.param(V1Container(name="c"), "Always", 0, True, id="Pod Policy: Fallback to pod 'Always'"),
    pytest.param(V1Container(name="c"), "OnFailure", 1, True,
                 id="Pod Policy: Fallback to pod 'OnFailure' with non-zero exit code"),
    pytest.param(V1Container(name="c"), "Never", 1, False, id="Pod Policy: Fallback to pod 'Never'"),
    pytest.param(V1Container(name="c"), None, 0, True,
                 id="Pod Policy: Fallback with no policies specified should return true"),
]


@pytest.mark.parametrize("container, pod_policy, exit_code, expected", CONTAINER_SHOULD_RESTART_CASES)
def test_container_has_restartable_policy(container, pod_policy, exit_code, expected):
    """Port of TestContainerHasRestartablePolicy (pkg/api/v1/pod/util_test.go): ContainerShouldRestart."""
    spec = V1PodSpec(containers=[], restart_policy=pod_policy)
    assert podutil.container_should_restart(container, spec, exit_code) is expected


RULE_IN = restart_rule("In", [42, 50, 60])
RULE_NOT_IN = restart_rule("NotIn", [0, 1, 2])
RULE_IN_42 = restart_rule("In", [42])

FIND_MATCHING_RULE_CASES = [
    pytest.param([RULE_IN], 42, True, RULE_IN, id="a rule with op In matches"),
    pytest.param([RULE_NOT_IN], 99, True, RULE_NOT_IN, id="a rule with op NotIn matches"),
    pytest.param([RULE_IN, RULE_IN_42], 42, True, RULE_IN, id="matches the first rule if two rules both matched"),
    pytest.param([RULE_IN], 100, False, None, id="no rules matched"),
    pytest.param(None, 0, False, None, id="no rules defined"),
]


@pytest.mark.parametrize("rules, exit_code, expected_found, expected_rule", FIND_MATCHING_RULE_CASES)
def test_find_matching_container_restart_rule(rules, exit_code, expected_found, expected_rule):
    """Port of TestFindMatchingContainerRestartRule (pkg/api/v1/pod/util_test.go); "empty rule" is None."""
    rule, found = podutil.find_matching_container_restart_rule(
        V1Container(name="c", restart_policy_rules=rules), exit_code)
    assert found is expected_found
    assert rule == expected_rule


RESTARTABLE_INIT_CASES = [
    pytest.param(None, False, id="no-container"),
    pytest.param(V1Container(name="i"), False, id="no-policy"),
    pytest.param(V1Container(name="i", restart_policy="OnFailure"), False, id="on-failure"),
    pytest.param(V1Container(name="i", restart_policy="Always"), True, id="sidecar"),
]


@pytest.mark.parametrize("container, expected", RESTARTABLE_INIT_CASES)
def test_is_restartable_init_container(container, expected):
    assert podutil.is_restartable_init_container(container) is expected
