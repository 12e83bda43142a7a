"""Port of pkg/controller/replicaset/replica_set_utils.go.

The status half of the ReplicaSet controller. After each sync,
`calculate_status` counts what the claimed pods look like (how many exist,
carry all the template's labels, are ready, are available, are terminating)
and turns a failed create or delete into a ReplicaFailure condition;
`update_replica_set_status` writes that status back, skipping the write when
nothing changed and retrying once on a fresh copy when the write fails.

Start reading at: calculate_status, then update_replica_set_status.

Not ported: contextual logging (one debug line per status write instead).
Differs from Go:
- Unset status counters (None on the wire when zero) compare as 0, as Go's
  zero values do; `terminatingReplicas` keeps its nil/0 distinction (a pointer
  in Go).
- new_replica_set_condition takes an optional `now` (calculate_status passes
  the controller clock's time; Go reads metav1.Now()).
- update_replica_set_status raises the update's (or the re-read's) error
  instead of returning it (PORTING §4).
- STATUS_UPDATE_RETRIES (Go: statusUpdateRetries, in replica_set.go) lives
  here, beside its only user, so that replica_set.py imports this module and
  this module does not import replica_set.py back.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

from kubernetes.client import V1Pod, V1ReplicaSet, V1ReplicaSetCondition, V1ReplicaSetStatus

from minikcm import features
from minikcm.api.pod import util as podutil
from minikcm.apimachinery import labels
from minikcm.apimachinery.meta import GetOptions, UpdateOptions
from minikcm.client.interface import ReplicaSetInterface
from minikcm.clock import RealClock

if TYPE_CHECKING:
    from minikcm.controller.replicaset.replica_set import ReplicaSetControllerFeatures

log = logging.getLogger(__name__)

STATUS_UPDATE_RETRIES = 1
"""Port of statusUpdateRetries (replica_set.go): how often a failed status write is retried on a fresh copy."""

REPLICA_SET_REPLICA_FAILURE = "ReplicaFailure"
"""Port of apps.ReplicaSetReplicaFailure (k8s.io/api/apps/v1): a pod could not be created or deleted."""

def update_replica_set_status(c: ReplicaSetInterface, rs: V1ReplicaSet, new_status: V1ReplicaSetStatus,
                              controller_features: ReplicaSetControllerFeatures) -> V1ReplicaSet:
    """Port of updateReplicaSetStatus (replica_set_utils.go): write `new_status` to `rs`, retrying once.

    Steady state first: if every counter, the conditions and terminatingReplicas
    already match and the status has observed the current generation, nothing
    is written and `rs` itself is returned. Otherwise the new status gets
    observedGeneration = rs.metadata.generation (the generation this sync
    acted on, so a retry cannot claim to have seen a newer spec) and is
    written with UpdateStatus. A failed write is retried STATUS_UPDATE_RETRIES
    times, each on a copy fetched fresh from the API server (its
    resourceVersion may have moved on).

    `rs` must be the caller's own copy: its status is overwritten.

    Returns: the ReplicaSet as the API server stored it.
    Raises: the last update error, or the error of the re-read.
    """
    old = rs.status or V1ReplicaSetStatus(replicas=0)
    if ((old.replicas or 0) == (new_status.replicas or 0)
            and (old.fully_labeled_replicas or 0) == (new_status.fully_labeled_replicas or 0)
            and (old.ready_replicas or 0) == (new_status.ready_replicas or 0)
            and (old.available_replicas or 0) == (new_status.available_replicas or 0)
            and old.terminating_replicas == new_status.terminating_replicas  # Go: ptr.Equal
            and (rs.metadata.generation or 0) == (old.observed_generation or 0)
            and old.conditions == new_status.conditions):
        return rs

    # Record the generation we acted on (Go: newStatus is a copy; so is ours).
    new_status = new_status.model_copy(update={"observed_generation": rs.metadata.generation or 0})

    update_err: Exception | None = None
    i = 0
    while True:
        log_status_update(rs, new_status, controller_features)
        rs.status = new_status
        try:
            return c.update_status(rs, UpdateOptions())
        except Exception as err:  # kept and raised below once retries are used up
            update_err = err
        if i >= STATUS_UPDATE_RETRIES:
            break  # the caller requeues with rate limiting
        # A fresh copy for the next attempt. If this read fails, its error says
        # more than the update's, so it is the one raised.
        rs = c.get(rs.metadata.name or "", GetOptions())
        i += 1
    assert update_err is not None
    raise update_err


def log_status_update(rs: V1ReplicaSet, new_status: V1ReplicaSetStatus,
                      controller_features: ReplicaSetControllerFeatures) -> None:
    """No upstream twin: the debug line Go builds inline in updateReplicaSetStatus."""
    if not log.isEnabledFor(logging.DEBUG):
        return
    old = rs.status or V1ReplicaSetStatus(replicas=0)
    terminating = ""
    if (features.DEFAULT_FEATURE_GATE.enabled(features.DEPLOYMENT_REPLICA_SET_TERMINATING_REPLICAS)
            and controller_features.enable_status_terminating_replicas):
        terminating = (f"terminatingReplicas {deref_int32_to_str(old.terminating_replicas)}->"
                       f"{deref_int32_to_str(new_status.terminating_replicas)}, ")
    log.debug("Updating status for %s: %s/%s, replicas %d->%d (need %d), fullyLabeledReplicas %d->%d, "
              "readyReplicas %d->%d, availableReplicas %d->%d, %ssequence No: %d->%d",
              rs.kind or "ReplicaSet", rs.metadata.namespace, rs.metadata.name, old.replicas or 0,
              new_status.replicas or 0, rs.spec.replicas or 0, old.fully_labeled_replicas or 0,
              new_status.fully_labeled_replicas or 0, old.ready_replicas or 0, new_status.ready_replicas or 0,
              old.available_replicas or 0, new_status.available_replicas or 0, terminating,
              old.observed_generation or 0, new_status.observed_generation or 0)


def calculate_status(rs: V1ReplicaSet, active_pods: list[V1Pod], terminating_pods: list[V1Pod] | None,
                     manage_replicas_err: BaseException | None,
                     controller_features: ReplicaSetControllerFeatures, now: datetime) -> V1ReplicaSetStatus:
    """Port of calculateStatus (replica_set_utils.go): the status this sync observed.

    Counts over `active_pods` (the pods the ReplicaSet owns that are neither
    finished nor being deleted):
    - replicas: all of them;
    - fullyLabeledReplicas: those carrying every label of the pod template
      (they may carry more);
    - readyReplicas: those whose Ready condition is True;
    - availableReplicas: ready ones that have been ready for minReadySeconds
      at `now`.
    Example: minReadySeconds 10, now 12:00:30, three pods ready since
    12:00:00, 12:00:25 and not at all -> replicas 3, ready 2, available 1.

    terminatingReplicas is len(terminating_pods) when the
    DeploymentReplicaSetTerminatingReplicas gate and the controller feature are
    both on, else None. A `manage_replicas_err` adds a ReplicaFailure condition
    (reason FailedCreate when pods were missing, FailedDelete when there were
    too many) unless one is already there; a clean sync removes it.
    Everything else (observedGeneration, other conditions) is carried over
    from rs.status.
    """
    new_status = (rs.status or V1ReplicaSetStatus(replicas=0)).model_copy()  # Go: struct copy
    fully_labeled_replicas_count = 0
    ready_replicas_count = 0
    available_replicas_count = 0
    template_labels = rs.spec.template.metadata.labels if rs.spec.template and rs.spec.template.metadata else None
    template_label = labels.Set(template_labels or {}).as_selector_pre_validated()
    for pod in active_pods:
        if template_label.matches(pod.metadata.labels or {}):
            fully_labeled_replicas_count += 1
        if podutil.is_pod_ready(pod):
            ready_replicas_count += 1
            if podutil.is_pod_available(pod, rs.spec.min_ready_seconds or 0, now):
                available_replicas_count += 1

    terminating_replicas_count: int | None = None
    if (features.DEFAULT_FEATURE_GATE.enabled(features.DEPLOYMENT_REPLICA_SET_TERMINATING_REPLICAS)
            and controller_features.enable_status_terminating_replicas):
        terminating_replicas_count = len(terminating_pods or [])

    failure_cond = get_condition(rs.status, REPLICA_SET_REPLICA_FAILURE)
    if manage_replicas_err is not None and failure_cond is None:
        reason = ""
        diff = len(active_pods) - (rs.spec.replicas or 0)
        if diff < 0:
            reason = "FailedCreate"
        elif diff > 0:
            reason = "FailedDelete"
        cond = new_replica_set_condition(REPLICA_SET_REPLICA_FAILURE, podutil.CONDITION_TRUE, reason,
                                         str(manage_replicas_err), now=now)
        set_condition(new_status, cond)
    elif manage_replicas_err is None and failure_cond is not None:
        remove_condition(new_status, REPLICA_SET_REPLICA_FAILURE)

    new_status.replicas = len(active_pods)
    new_status.fully_labeled_replicas = fully_labeled_replicas_count
    new_status.ready_replicas = ready_replicas_count
    new_status.available_replicas = available_replicas_count
    new_status.terminating_replicas = terminating_replicas_count
    return new_status


def new_replica_set_condition(cond_type: str, status: str, reason: str, msg: str,
                              now: datetime | None = None) -> V1ReplicaSetCondition:
    """Port of NewReplicaSetCondition (replica_set_utils.go): a condition that changed `now`.

    Differs from Go: `now` may be given (the controller's clock); it defaults to the real time.
    """
    return V1ReplicaSetCondition(type=cond_type, status=status,
                                 last_transition_time=now if now is not None else RealClock().now(),
                                 reason=reason, message=msg)


def get_condition(status: V1ReplicaSetStatus | None, cond_type: str) -> V1ReplicaSetCondition | None:
    """Port of GetCondition (replica_set_utils.go): a copy of the condition of `cond_type`, or None."""
    for c in (status.conditions if status is not None else None) or []:
        if c.type == cond_type:
            return c.model_copy()  # Go returns the address of a loop copy
    return None


def set_condition(status: V1ReplicaSetStatus, condition: V1ReplicaSetCondition) -> None:
    """Port of SetCondition (replica_set_utils.go): add `condition`, replacing one of its type.

    A condition of the same type with the same status and reason is left as
    it is, so its lastTransitionTime keeps telling when it first happened.
    The replaced or added condition goes to the end of the list.
    """
    current_cond = get_condition(status, condition.type)
    if current_cond is not None and current_cond.status == condition.status and current_cond.reason == condition.reason:
        return
    new_conditions = filter_out_condition(status.conditions, condition.type) or []
    status.conditions = [*new_conditions, condition]


def remove_condition(status: V1ReplicaSetStatus, cond_type: str) -> None:
    """Port of RemoveCondition (replica_set_utils.go): drop the condition of `cond_type`, if any."""
    status.conditions = filter_out_condition(status.conditions, cond_type)


def filter_out_condition(conditions: list[V1ReplicaSetCondition] | None,
                         cond_type: str) -> list[V1ReplicaSetCondition] | None:
    """Port of filterOutCondition (replica_set_utils.go): a new list without `cond_type`.

    None when nothing is left (Go: a nil slice), so an emptied status looks
    like one that never had conditions.
    """
    new_conditions = [c for c in conditions or [] if c.type != cond_type]
    return new_conditions or None


def deref_int32_to_str(ptr: int | None) -> str:
    """Port of derefInt32ToStr (replica_set_utils.go): "nil" for None, else the number."""
    return "nil" if ptr is None else str(ptr)
