"""Port of pkg/api/v1/pod/util.go (k8s.io/kubernetes/pkg/api/v1/pod).

The rules every workload controller uses to judge a pod: is it ready, has it
been ready for `minReadySeconds` (available), is it finished (terminal); plus
finding and updating pod conditions and container statuses, and walking a
pod's containers. The ReplicaSet controller's status calculation, ActivePods
ordering and the Deployment controller's availability checks all end here.

Start reading at: is_pod_ready, then is_pod_available.

Not ported: VisitPodSecretNames and VisitPodConfigmapNames (and their helpers),
CalculatePodStatusObservedGeneration and CalculatePodConditionObservedGeneration
(kubelet-side, behind the PodObservedGenerationTracking gate).
Differs from Go:
- Pods, statuses and conditions are the official client models; a missing
  `status`, `conditions` or timestamp (None) reads as Go's zero value.
- get_container_status returns (None, False) when the name is not found, where Go
  returns an empty ContainerStatus (the model cannot be built empty).
- container_iter / visit_containers yield a V1EphemeralContainer as it is (it has
  the same fields); Go converts it to a Container.
- update_pod_condition takes an optional clock for "now" (Go: metav1.Now()) and
  stores a copy of the condition, as Go stores a copy of the struct.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

from kubernetes.client import (
    V1Container,
    V1ContainerRestartRule,
    V1ContainerStatus,
    V1Pod,
    V1PodCondition,
    V1PodSpec,
    V1PodStatus,
)

from minikcm.clock import Clock, or_real

# Pod phases, condition types and statuses (k8s.io/api/core/v1 constants).
POD_PENDING = "Pending"
POD_RUNNING = "Running"
POD_SUCCEEDED = "Succeeded"
POD_FAILED = "Failed"
POD_UNKNOWN = "Unknown"
POD_READY = "Ready"
CONTAINERS_READY = "ContainersReady"
CONDITION_TRUE = "True"
CONDITION_FALSE = "False"

# --- container walks ---------------------------------------------------------------

ContainerType = int
"""Port of ContainerType: a bit mask of container kinds."""

CONTAINERS: ContainerType = 1
"""Port of Containers: the regular containers."""
INIT_CONTAINERS: ContainerType = 2
"""Port of InitContainers."""
EPHEMERAL_CONTAINERS: ContainerType = 4
"""Port of EphemeralContainers."""
ALL_CONTAINERS: ContainerType = INIT_CONTAINERS | CONTAINERS | EPHEMERAL_CONTAINERS
"""Port of AllContainers."""

ContainerVisitor = Callable[[Any, ContainerType], bool]
"""Port of ContainerVisitor: called per container; returning False stops the walk."""


def all_feature_enabled_containers() -> ContainerType:
    """Port of AllFeatureEnabledContainers: every kind, since no container kind is gated any more."""
    return ALL_CONTAINERS


def container_iter(pod_spec: V1PodSpec, mask: ContainerType) -> Iterator[tuple[Any, ContainerType]]:
    """Port of ContainerIter: the containers of the kinds in `mask`, as (container, kind).

    Order: init containers, then regular containers, then ephemeral containers.
    """
    if mask & INIT_CONTAINERS:
        for c in pod_spec.init_containers or []:
            yield c, INIT_CONTAINERS
    if mask & CONTAINERS:
        for c in pod_spec.containers or []:
            yield c, CONTAINERS
    if mask & EPHEMERAL_CONTAINERS:
        for c in pod_spec.ephemeral_containers or []:
            yield c, EPHEMERAL_CONTAINERS


def visit_containers(pod_spec: V1PodSpec, mask: ContainerType, visitor: ContainerVisitor) -> bool:
    """Port of VisitContainers: call `visitor` on each container until it returns False.

    Returns True when every container was visited. The visitor receives the
    live container model, so it may change it in place.
    """
    for c, kind in container_iter(pod_spec, mask):
        if not visitor(c, kind):
            return False
    return True


# --- container statuses ------------------------------------------------------------


def get_container_status(statuses: list[V1ContainerStatus] | None, name: str) -> tuple[V1ContainerStatus | None, bool]:
    """Port of GetContainerStatus: the status of container `name`, and whether it was found."""
    for status in statuses or []:
        if status.name == name:
            return status, True
    return None, False


def get_existing_container_status(statuses: list[V1ContainerStatus] | None, name: str) -> V1ContainerStatus | None:
    """Port of GetExistingContainerStatus: like get_container_status, without the flag."""
    return get_container_status(statuses, name)[0]


def get_index_of_container_status(statuses: list[V1ContainerStatus] | None, name: str) -> tuple[int, bool]:
    """Port of GetIndexOfContainerStatus: (index, True) for container `name`, else (0, False)."""
    for i, status in enumerate(statuses or []):
        if status.name == name:
            return i, True
    return 0, False


# --- readiness and availability ----------------------------------------------------


def is_pod_available(pod: V1Pod, min_ready_seconds: int, now: datetime) -> bool:
    """Port of IsPodAvailable: ready, and ready for at least `min_ready_seconds`.

    A ready pod is available at once when `min_ready_seconds` is 0; otherwise
    its Ready condition must carry a transition time with
    `last_transition_time + min_ready_seconds <= now`. Example: ready since
    12:00:00 with min_ready_seconds=10 is available from 12:00:10 on (the
    boundary counts, as upstream's `Compare <= 0`), and never if the transition
    time is missing.
    """
    if not is_pod_ready(pod):
        return False
    c = get_pod_ready_condition(pod.status)
    if min_ready_seconds == 0:
        return True
    ltt = c.last_transition_time if c is not None else None
    return ltt is not None and ltt + timedelta(seconds=min_ready_seconds) <= now


def is_pod_ready(pod: V1Pod) -> bool:
    """Port of IsPodReady: the pod's Ready condition is True."""
    return is_pod_ready_condition_true(pod.status)


def is_pod_terminal(pod: V1Pod) -> bool:
    """Port of IsPodTerminal: the pod has Succeeded or Failed, so its containers never run again."""
    return is_pod_phase_terminal(pod.status.phase if pod.status is not None else None)


def is_pod_phase_terminal(phase: str | None) -> bool:
    """Port of IsPodPhaseTerminal: Failed and Succeeded are the terminal phases."""
    return phase in (POD_FAILED, POD_SUCCEEDED)


def is_pod_ready_condition_true(status: V1PodStatus | None) -> bool:
    """Port of IsPodReadyConditionTrue."""
    condition = get_pod_ready_condition(status)
    return condition is not None and condition.status == CONDITION_TRUE


def is_containers_ready_condition_true(status: V1PodStatus | None) -> bool:
    """Port of IsContainersReadyConditionTrue."""
    condition = get_containers_ready_condition(status)
    return condition is not None and condition.status == CONDITION_TRUE


def get_pod_ready_condition(status: V1PodStatus | None) -> V1PodCondition | None:
    """Port of GetPodReadyCondition: the Ready condition, or None."""
    return get_pod_condition(status, POD_READY)[1]


def get_containers_ready_condition(status: V1PodStatus | None) -> V1PodCondition | None:
    """Port of GetContainersReadyCondition: the ContainersReady condition, or None."""
    return get_pod_condition(status, CONTAINERS_READY)[1]


def get_pod_condition(status: V1PodStatus | None, condition_type: str) -> tuple[int, V1PodCondition | None]:
    """Port of GetPodCondition: (index, condition) of the given type, or (-1, None)."""
    if status is None:
        return -1, None
    return get_pod_condition_from_list(status.conditions, condition_type)


def get_pod_condition_from_list(conditions: list[V1PodCondition] | None,
                                condition_type: str) -> tuple[int, V1PodCondition | None]:
    """Port of GetPodConditionFromList: the first condition of that type, with its index."""
    for i, condition in enumerate(conditions or []):
        if condition.type == condition_type:
            return i, condition
    return -1, None


def update_pod_condition(status: V1PodStatus, condition: V1PodCondition, clock: Clock | None = None) -> bool:
    """Port of UpdatePodCondition: add or replace a condition; True when anything changed.

    The transition time is set to now, unless a condition of that type already
    has the same status: then the old transition time is kept (a condition
    "transitions" only when its status flips). Reason, message and probe time
    changes still count as a change.
    """
    condition.last_transition_time = or_real(clock).now()
    index, old = get_pod_condition(status, condition.type)
    if old is None:
        status.conditions = [*(status.conditions or []), condition.model_copy()]
        return True
    if condition.status == old.status:
        condition.last_transition_time = old.last_transition_time
    is_equal = (
        condition.status == old.status
        and condition.reason == old.reason
        and condition.message == old.message
        and condition.last_probe_time == old.last_probe_time
        and condition.last_transition_time == old.last_transition_time
    )
    assert status.conditions is not None  # found above
    status.conditions[index] = condition.model_copy()
    return not is_equal


# --- restart policy ------------------------------------------------------------------

CONTAINER_RESTART_POLICY_ALWAYS = "Always"
CONTAINER_RESTART_POLICY_ON_FAILURE = "OnFailure"
CONTAINER_RESTART_POLICY_NEVER = "Never"
CONTAINER_RESTART_RULE_ACTION_RESTART = "Restart"
CONTAINER_RESTART_RULE_ON_EXIT_CODES_OP_IN = "In"
CONTAINER_RESTART_RULE_ON_EXIT_CODES_OP_NOT_IN = "NotIn"


def is_restartable_init_container(init_container: V1Container | None) -> bool:
    """Port of IsRestartableInitContainer: restartPolicy Always, which makes an init container a sidecar."""
    if init_container is None or init_container.restart_policy is None:
        return False
    return init_container.restart_policy == CONTAINER_RESTART_POLICY_ALWAYS


def is_container_restartable(pod: V1PodSpec, container: V1Container) -> bool:
    """Port of IsContainerRestartable: can this container ever be restarted?

    A container-level policy wins over the pod's: any rule with action Restart,
    or a policy other than Never. Without one, anything but a pod policy of
    Never (an unset pod policy means Always).
    """
    if container.restart_policy is not None:
        for rule in container.restart_policy_rules or []:
            if rule.action == CONTAINER_RESTART_RULE_ACTION_RESTART:
                return True
        return container.restart_policy != CONTAINER_RESTART_POLICY_NEVER
    return pod.restart_policy != "Never"


def container_should_restart(container: V1Container, pod: V1PodSpec, exit_code: int) -> bool:
    """Port of ContainerShouldRestart: should a container that exited with `exit_code` restart?

    Precedence: the container's restart rules (only when it has its own
    policy), then its own policy, then the pod's policy (unset means Always).
    OnFailure restarts on a non-zero exit code only.
    """
    if container.restart_policy is not None:
        rule, ok = find_matching_container_restart_rule(container, exit_code)
        if ok and rule is not None and rule.action == CONTAINER_RESTART_RULE_ACTION_RESTART:
            return True
        if container.restart_policy == CONTAINER_RESTART_POLICY_ALWAYS:
            return True
        if container.restart_policy == CONTAINER_RESTART_POLICY_ON_FAILURE:
            return exit_code != 0
        if container.restart_policy == CONTAINER_RESTART_POLICY_NEVER:
            return False
        # An unknown container policy falls through to the pod's.
    if pod.restart_policy == "OnFailure":
        return exit_code != 0
    if pod.restart_policy == "Never":
        return False
    return True  # Always, or unset (the default is Always)


def find_matching_container_restart_rule(container: V1Container,
                                         exit_code: int) -> tuple[V1ContainerRestartRule | None, bool]:
    """Port of findMatchingContainerRestartRule: the first rule whose exit-code test matches.

    Returns (rule, True), or (None, False) when no rule matches (Go returns an
    empty rule). Rules without exit codes, or with an unknown operator, never match.
    """
    for rule in container.restart_policy_rules or []:
        if rule.exit_codes is None:
            continue
        matched = exit_code in (rule.exit_codes.values or [])
        op = rule.exit_codes.operator
        if op == CONTAINER_RESTART_RULE_ON_EXIT_CODES_OP_IN and matched:
            return rule, True
        if op == CONTAINER_RESTART_RULE_ON_EXIT_CODES_OP_NOT_IN and not matched:
            return rule, True
    return None, False
