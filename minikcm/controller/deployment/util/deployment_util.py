"""Port of pkg/controller/deployment/util/deployment_util.go.

The Deployment controller's arithmetic and bookkeeping, free of clients and
queues. sync.go, rolling.go, recreate.go, rollback.go and progress.go call in
here to: tell the new ReplicaSet (same pod template) from the old ones; turn
maxSurge/maxUnavailable into pod counts; size ReplicaSets proportionally when a
Deployment is scaled mid-rollout; stamp revision and replica annotations on
ReplicaSets; and keep the Progressing/Available conditions that
`kubectl rollout status` reads.

Start reading at: resolve_fenceposts, then new_rs_new_replicas, find_new_replica_set,
set_new_replica_set_annotations and get_replica_set_fraction.

Not ported: the `logger`/`ctx` parameters (module logger instead; klog V(2)/V(4)
lines are DEBUG).
Differs from Go:
- Go ranges over annotation maps in random order; we go in sorted key order.
- new_deployment_condition and deployment_timed_out take their time from the
  keyword `now` when given, else from the module-level `now_fn` (upstream:
  metav1.Now() and nowFn). Deterministic runs pass their FakeClock's time.
- equal_ignore_hash compares wire dicts with
  minikcm.apimachinery.validation.semantic_deep_equal; quantities are compared
  as strings ("1" and "1000m" differ), which is safe for templates the API server
  stored, since it writes quantities in canonical form.
- find_new_replica_set and find_active_or_latest sort the caller's list in place,
  as upstream does; Python's sort is stable where Go's is not (ties are broken by
  name, so only identical name and timestamp could order differently).
- int32 overflow is not reproduced (Python ints are unbounded).
- k8s.io/api constants this package needs (`pod-template-hash`, strategy and
  condition types, ...) are defined here, next to their users.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any, Protocol

from kubernetes.client import (V1Deployment, V1DeploymentCondition, V1DeploymentStatus, V1ObjectMeta, V1Pod,
                               V1PodList, V1PodTemplateSpec, V1ReplicaSet, V1ReplicaSetCondition)

from minikcm.apimachinery import intstr, labels, wait
from minikcm.apimachinery.convert import object_meta, to_wire
from minikcm.apimachinery.field import go_quote
from minikcm.apimachinery.meta import ListOptions, get_controller_of, is_controlled_by, label_selector_as_selector
from minikcm.apimachinery.validation import semantic_deep_equal
from minikcm.clock import REAL_CLOCK, Clock
from minikcm.controller import controller_utils

logger = logging.getLogger(__name__)

# --- annotations, event reasons and condition reasons -------------------------------------

REVISION_ANNOTATION = "deployment.kubernetes.io/revision"
"""On a ReplicaSet (and copied to its Deployment): the rollout number it serves."""
REVISION_HISTORY_ANNOTATION = "deployment.kubernetes.io/revision-history"
"""On a ReplicaSet: earlier revisions it served, comma-separated (rollbacks reuse a ReplicaSet)."""
DESIRED_REPLICAS_ANNOTATION = "deployment.kubernetes.io/desired-replicas"
"""On a ReplicaSet: the Deployment's spec.replicas when the ReplicaSet was last sized."""
MAX_REPLICAS_ANNOTATION = "deployment.kubernetes.io/max-replicas"
"""On a ReplicaSet: spec.replicas + maxSurge at that time; the base of proportional scaling."""

ROLLBACK_REVISION_NOT_FOUND = "DeploymentRollbackRevisionNotFound"
"""Event reason: the revision asked for does not exist."""
ROLLBACK_TEMPLATE_UNCHANGED = "DeploymentRollbackTemplateUnchanged"
"""Event reason: the rollback target already has the current template."""
ROLLBACK_DONE = "DeploymentRollback"
"""Event reason: the template was rolled back."""

# Reasons of the Progressing condition.
REPLICA_SET_UPDATED_REASON = "ReplicaSetUpdated"
FAILED_RS_CREATE_REASON = "ReplicaSetCreateError"
NEW_REPLICA_SET_REASON = "NewReplicaSetCreated"
FOUND_NEW_RS_REASON = "FoundNewReplicaSet"
NEW_RS_AVAILABLE_REASON = "NewReplicaSetAvailable"
"""The rollout is done: the new ReplicaSet holds every replica and enough are available."""
TIMED_OUT_REASON = "ProgressDeadlineExceeded"
"""No progress within spec.progressDeadlineSeconds."""
PAUSED_DEPLOY_REASON = "DeploymentPaused"
RESUMED_DEPLOY_REASON = "DeploymentResumed"
# Reasons of the Available condition.
MINIMUM_REPLICAS_AVAILABLE = "MinimumReplicasAvailable"
MINIMUM_REPLICAS_UNAVAILABLE = "MinimumReplicasUnavailable"

# k8s.io/api constants used below (apps/v1 and core/v1 types.go).
DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY = "pod-template-hash"  # Go: apps.DefaultDeploymentUniqueLabelKey
DEPRECATED_ROLLBACK_TO = "deprecated.deployment.rollback.to"  # Go: apps.DeprecatedRollbackTo
LAST_APPLIED_CONFIG_ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration"  # Go: v1.LastAppliedConfigAnnotation
RECREATE_DEPLOYMENT_STRATEGY_TYPE = "Recreate"
ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE = "RollingUpdate"
DEPLOYMENT_AVAILABLE = "Available"  # condition types (Go: apps.DeploymentConditionType)
DEPLOYMENT_PROGRESSING = "Progressing"
DEPLOYMENT_REPLICA_FAILURE = "ReplicaFailure"

MAX_INT32 = 2**31 - 1  # Go: math.MaxInt32, the "no limit" value of the deadline fields

now_fn: Callable[[], datetime] = REAL_CLOCK.now
"""Port of nowFn: the time source of deployment_timed_out; tests replace it."""


def _spec_replicas(obj: V1Deployment | V1ReplicaSet) -> int:
    # Go dereferences *spec.replicas; the API server always defaults it.
    if obj.spec is None or obj.spec.replicas is None:
        raise RuntimeError(f"{type(obj).__name__} has no spec.replicas; the API server always sets it")
    return obj.spec.replicas


def _annotations(obj: Any) -> dict[str, str]:
    """The object's annotations, created empty when missing (Go: make(map) on nil)."""
    if obj.metadata.annotations is None:
        obj.metadata.annotations = {}
    return obj.metadata.annotations  # the stored dict: pydantic copies on assignment


# --- conditions ---------------------------------------------------------------------------


def new_deployment_condition(cond_type: str, status: str, reason: str, message: str, *,
                             now: datetime | None = None) -> V1DeploymentCondition:
    """Port of NewDeploymentCondition: update and transition time both "now".

    Differs from Go: "now" is `now` when given, else now_fn().
    """
    t = now if now is not None else now_fn()
    return V1DeploymentCondition(type=cond_type, status=status, last_update_time=t, last_transition_time=t,
                                 reason=reason, message=message)


def get_deployment_condition(status: V1DeploymentStatus, cond_type: str) -> V1DeploymentCondition | None:
    """Port of GetDeploymentCondition (pkg/controller/deployment/util/deployment_util.go).

    The condition of that type, as a copy (Go returns a pointer to a copy), or None.
    """
    for c in status.conditions or []:
        if c.type == cond_type:
            return c.model_copy()
    return None


def set_deployment_condition(status: V1DeploymentStatus, condition: V1DeploymentCondition) -> None:
    """Port of SetDeploymentCondition (pkg/controller/deployment/util/deployment_util.go).

    Replaces the condition of its type, moved to the end. The same status and reason change nothing, so the
    timestamps survive repeated syncs; a new reason alone keeps the transition time (the status did not move).
    """
    current = get_deployment_condition(status, condition.type)
    if current is not None and current.status == condition.status and current.reason == condition.reason:
        return
    condition = condition.model_copy()  # Go: passed by value
    if current is not None and current.status == condition.status:
        condition.last_transition_time = current.last_transition_time
    status.conditions = (filter_out_condition(status.conditions, condition.type) or []) + [condition]


def remove_deployment_condition(status: V1DeploymentStatus, cond_type: str) -> None:
    """Port of RemoveDeploymentCondition (pkg/controller/deployment/util/deployment_util.go)."""
    status.conditions = filter_out_condition(status.conditions, cond_type)


def filter_out_condition(conditions: list[V1DeploymentCondition] | None,
                         cond_type: str) -> list[V1DeploymentCondition] | None:
    """Port of filterOutCondition: a new list without `cond_type`; None when empty (Go's nil slice)."""
    kept = [c for c in conditions or [] if c.type != cond_type]
    return kept or None


def replica_set_to_deployment_condition(cond: V1ReplicaSetCondition) -> V1DeploymentCondition:
    """Port of ReplicaSetToDeploymentCondition (pkg/controller/deployment/util/deployment_util.go).

    Lifts a ReplicaSet condition (ReplicaFailure, in practice) to the Deployment;
    both timestamps take the ReplicaSet condition's transition time.
    """
    return V1DeploymentCondition(type=cond.type, status=cond.status, last_transition_time=cond.last_transition_time,
                                 last_update_time=cond.last_transition_time, reason=cond.reason, message=cond.message)


# --- revisions ----------------------------------------------------------------------------


def set_deployment_revision(deployment: V1Deployment, revision: str) -> bool:
    """Port of SetDeploymentRevision: writes the revision annotation on the Deployment; True when it changed."""
    annotations = _annotations(deployment)
    if annotations.get(REVISION_ANNOTATION, "") != revision:
        annotations[REVISION_ANNOTATION] = revision
        return True
    return False


def max_revision(all_rss: list[V1ReplicaSet]) -> int:
    """Port of MaxRevision: the highest revision (0 when none); an unparsable annotation is skipped."""
    highest = 0
    for rs in all_rss:
        try:
            v = revision(rs)
        except ValueError as err:
            logger.debug("cannot parse the revision of replica set %s, skipping it: %s", rs.metadata.name, err)
            continue
        if v > highest:
            highest = v
    return highest


def last_revision(all_rss: list[V1ReplicaSet]) -> int:
    """Port of LastRevision (pkg/controller/deployment/util/deployment_util.go).

    The second-highest revision: the one a rollback "to revision 0" goes back to.
    Example: revisions 3, 7, 5 give 5; revisions 4, 4 give 4 (ties count twice).
    """
    highest, second = 0, 0
    for rs in all_rss:
        try:
            v = revision(rs)
        except ValueError as err:
            logger.debug("cannot parse the revision of replica set %s, skipping it: %s", rs.metadata.name, err)
            continue
        if v >= highest:
            second, highest = highest, v
        elif v > second:
            second = v
    return second


def revision(obj: Any) -> int:
    """Port of Revision: the revision annotation as an int64, 0 when absent.

    Raises: ValueError, not a decimal integer (Go's strconv error text).
    """
    v = (object_meta(obj).annotations or {}).get(REVISION_ANNOTATION)
    if v is None:
        return 0
    return intstr.parse_int(v, 64)


# --- copying annotations between a Deployment and its ReplicaSets -------------------------


def set_new_replica_set_annotations(deployment: V1Deployment, new_rs: V1ReplicaSet, new_revision: str, exists: bool,
                                    rev_history_limit_in_chars: int) -> bool:
    """Port of SetNewReplicaSetAnnotations (pkg/controller/deployment/util/deployment_util.go).

    True when any annotation changed. The revision only ever rises (old ReplicaSets may have been deleted
    since `new_revision` was computed); a ReplicaSet that already had one is a rollback target, so its old
    revision joins the history, oldest entries dropped to fit `rev_history_limit_in_chars` (limit 5:
    "11,12" plus 13 is "11,12,13", 8 characters; dropping "11," leaves "12,13").
    """
    annotation_changed = copy_deployment_annotations_to_replica_set(deployment, new_rs)
    annotations = _annotations(new_rs)
    old_revision = annotations.get(REVISION_ANNOTATION)
    ok = old_revision is not None
    old_revision = old_revision or ""

    # Phase 1: parse both revisions; an empty old revision counts as 0.
    try:
        old_revision_int = intstr.parse_int(old_revision, 64)
    except ValueError as err:
        if old_revision != "":
            logger.info("not updating the replica set revision: old revision is not an integer: %s", err)
            return False
        old_revision_int = 0
    try:
        new_revision_int = intstr.parse_int(new_revision, 64)
    except ValueError as err:
        logger.info("not updating the replica set revision: new revision is not an integer: %s", err)
        return False

    # Phase 2: only ever raise the revision.
    if old_revision_int < new_revision_int:
        annotations[REVISION_ANNOTATION] = new_revision
        annotation_changed = True
        logger.debug("updating replica set %s revision to %s", new_rs.metadata.name, new_revision)

    # Phase 3: a ReplicaSet that had a revision and got a newer one is a rollback target;
    # remember the revision it served before, within the length limit.
    if ok and old_revision_int < new_revision_int:
        history = annotations.get(REVISION_HISTORY_ANNOTATION, "")
        old_revisions = history.split(",")
        if len(old_revisions[0]) == 0:
            annotations[REVISION_HISTORY_ANNOTATION] = old_revision
        else:
            total_len = len(history) + len(old_revision) + 1
            start = 0  # first entry of old_revisions that we keep
            while total_len > rev_history_limit_in_chars and start < len(old_revisions):
                total_len = total_len - len(old_revisions[start]) - 1
                start += 1
            if total_len <= rev_history_limit_in_chars:
                annotations[REVISION_HISTORY_ANNOTATION] = ",".join(old_revisions[start:] + [old_revision])
            else:
                logger.info("not appending to the revision history: %d-character limit reached",
                            rev_history_limit_in_chars)

    # Phase 4: a ReplicaSet about to be created also gets the replica annotations.
    if not exists:
        replicas = _spec_replicas(deployment)
        if set_replicas_annotations(new_rs, replicas, replicas + max_surge(deployment)):
            annotation_changed = True
    return annotation_changed


annotations_to_skip: dict[str, bool] = {
    LAST_APPLIED_CONFIG_ANNOTATION: True,
    REVISION_ANNOTATION: True,
    REVISION_HISTORY_ANNOTATION: True,
    DESIRED_REPLICAS_ANNOTATION: True,
    MAX_REPLICAS_ANNOTATION: True,
    DEPRECATED_ROLLBACK_TO: True,
}
"""Port of annotationsToSkip: annotations that stay put when copying between a Deployment and its ReplicaSets."""


def skip_copy_annotation(key: str) -> bool:
    """Port of skipCopyAnnotation: kubectl's last-applied, our bookkeeping, the deprecated rollback request."""
    return annotations_to_skip.get(key, False)


def copy_deployment_annotations_to_replica_set(deployment: V1Deployment, rs: V1ReplicaSet) -> bool:
    """Port of copyDeploymentAnnotationsToReplicaSet (pkg/controller/deployment/util/deployment_util.go).

    True when the ReplicaSet's annotations changed. The revision is never copied this way: the ReplicaSet's
    own is the reliable one.
    """
    changed = False
    rs_annotations = _annotations(rs)
    d_annotations = deployment.metadata.annotations or {}
    for k in sorted(d_annotations):  # Go: map order; we sort
        v = d_annotations[k]
        if skip_copy_annotation(k) or (k in rs_annotations and rs_annotations[k] == v):
            continue
        rs_annotations[k] = v
        changed = True
    return changed


def set_deployment_annotations_to(deployment: V1Deployment, rollback_to_rs: V1ReplicaSet) -> None:
    """Port of SetDeploymentAnnotationsTo (pkg/controller/deployment/util/deployment_util.go).

    A rollback: the Deployment takes the ReplicaSet's annotations; the skipped ones keep its own values.
    """
    new_annotations = get_skipped_annotations(deployment.metadata.annotations)
    rs_annotations = rollback_to_rs.metadata.annotations or {}
    for k in sorted(rs_annotations):  # Go: map order; we sort
        if not skip_copy_annotation(k):
            new_annotations[k] = rs_annotations[k]
    deployment.metadata.annotations = new_annotations


def get_skipped_annotations(annotations: dict[str, str] | None) -> dict[str, str]:
    """Port of getSkippedAnnotations (pkg/controller/deployment/util/deployment_util.go): only the skipped keys."""
    source = annotations or {}
    return {k: source[k] for k in sorted(source) if skip_copy_annotation(k)}


def find_active_or_latest(new_rs: V1ReplicaSet | None, old_rss: list[V1ReplicaSet]) -> V1ReplicaSet | None:
    """Port of FindActiveOrLatest (pkg/controller/deployment/util/deployment_util.go).

    The one ReplicaSet a scale can go to alone (the only active one; with none, the new one, else the
    newest old one); None when several are active: proportional scaling. Sorts `old_rss` in place.
    """
    if new_rs is None and len(old_rss) == 0:
        return None
    controller_utils.go_sort(controller_utils.ReplicaSetsByCreationTimestamp(old_rss), reverse=True)
    all_rss = controller_utils.filter_active_replica_sets(old_rss + [new_rs])
    if len(all_rss) == 0:
        return new_rs if new_rs is not None else old_rss[0]
    if len(all_rss) == 1:
        return all_rss[0]
    return None


# --- replica annotations ------------------------------------------------------------------


def get_desired_replicas_annotation(rs: V1ReplicaSet) -> tuple[int, bool]:
    """Port of GetDesiredReplicasAnnotation: returns (value, ok); (0, False) when missing or malformed."""
    return get_non_negative_int32_from_annotation_verbose(rs, DESIRED_REPLICAS_ANNOTATION)


def get_max_replicas_annotation(rs: V1ReplicaSet) -> tuple[int, bool]:
    """Port of getMaxReplicasAnnotation (pkg/controller/deployment/util/deployment_util.go)."""
    return get_non_negative_int32_from_annotation_verbose(rs, MAX_REPLICAS_ANNOTATION)


def get_non_negative_int32_from_annotation_verbose(rs: V1ReplicaSet, annotation_key: str) -> tuple[int, bool]:
    """Port of getNonNegativeInt32FromAnnotationVerbose: a malformed value is logged and gives (0, False)."""
    try:
        return get_non_negative_int32_from_annotation(rs, annotation_key)
    except ValueError:
        logger.debug("cannot convert annotation %s=%r of replica set %s", annotation_key,
                     (rs.metadata.annotations or {}).get(annotation_key), rs.metadata.name)
        return 0, False


_DIGITS = re.compile(r"[0-9]+")
_MAX_UINT32 = 2**32 - 1


def get_non_negative_int32_from_annotation(rs: V1ReplicaSet, annotation_key: str) -> tuple[int, bool]:
    """Port of getNonNegativeInt32FromAnnotation (pkg/controller/deployment/util/deployment_util.go).

    (value, True) for a decimal in 0..2147483647, (0, False) when absent.

    Raises: ValueError, not plain digits ("-1", "x") or above int32 ("out of range" either way, as in Go).
    """
    value = (rs.metadata.annotations or {}).get(annotation_key)
    if value is None:
        return 0, False
    # Go: strconv.ParseUint(value, 10, 32): digits only, no sign.
    if _DIGITS.fullmatch(value) is None:
        raise ValueError(f"strconv.ParseUint: parsing {go_quote(value)}: invalid syntax")
    int_value = int(value)
    if int_value > _MAX_UINT32:
        raise ValueError(f"strconv.ParseUint: parsing {go_quote(value)}: value out of range")
    if int_value > MAX_INT32:
        raise ValueError(f"value {int_value} is out of range (higher than {MAX_INT32})")
    return int_value, True


def set_replicas_annotations(rs: V1ReplicaSet, desired_replicas: int, max_replicas: int) -> bool:
    """Port of SetReplicasAnnotations (pkg/controller/deployment/util/deployment_util.go).

    Records the Deployment's desired replicas and its maximum (desired +
    maxSurge) on the ReplicaSet; True when either changed.
    """
    annotations = _annotations(rs)
    updated = False
    if annotations.get(DESIRED_REPLICAS_ANNOTATION, "") != str(desired_replicas):
        annotations[DESIRED_REPLICAS_ANNOTATION] = str(desired_replicas)
        updated = True
    if annotations.get(MAX_REPLICAS_ANNOTATION, "") != str(max_replicas):
        annotations[MAX_REPLICAS_ANNOTATION] = str(max_replicas)
        updated = True
    return updated


def replicas_annotations_need_update(rs: V1ReplicaSet, desired_replicas: int, max_replicas: int) -> bool:
    """Port of ReplicasAnnotationsNeedUpdate: would set_replicas_annotations change anything?"""
    annotations = rs.metadata.annotations
    if annotations is None:
        return True
    if annotations.get(DESIRED_REPLICAS_ANNOTATION, "") != str(desired_replicas):
        return True
    return annotations.get(MAX_REPLICAS_ANNOTATION, "") != str(max_replicas)


# --- surge, unavailability and proportions ------------------------------------------------


def _rolling_update_params(deployment: V1Deployment) -> tuple[intstr.IntOrString | None, intstr.IntOrString | None]:
    # (maxSurge, maxUnavailable); the API server defaults rollingUpdate for this strategy.
    ru = deployment.spec.strategy.rolling_update if deployment.spec.strategy else None
    if ru is None:
        return None, None
    return ru.max_surge, ru.max_unavailable


def max_unavailable(deployment: V1Deployment) -> int:
    """Port of MaxUnavailable (pkg/controller/deployment/util/deployment_util.go).

    Capped at spec.replicas; 0 for Recreate, 0 replicas or a malformed value (validation rejects those).
    Example: 10 replicas, "25%" -> 2; 3 replicas, 5 -> 3.
    """
    if not is_rolling_update(deployment) or _spec_replicas(deployment) == 0:
        return 0
    replicas = _spec_replicas(deployment)
    surge, unavailable = _rolling_update_params(deployment)
    try:
        _, max_unavail = resolve_fenceposts(surge, unavailable, replicas)
    except ValueError:
        max_unavail = 0  # Go: error ignored, validation catches it
    return min(max_unavail, replicas)


def min_available(deployment: V1Deployment) -> int:
    """Port of MinAvailable (pkg/controller/deployment/util/deployment_util.go).

    spec.replicas minus max_unavailable for a rolling update, else 0.
    Example: 10 replicas, maxUnavailable "60%" -> 10 - 6 = 4.
    """
    if not is_rolling_update(deployment):
        return 0
    return _spec_replicas(deployment) - max_unavailable(deployment)


def max_surge(deployment: V1Deployment) -> int:
    """Port of MaxSurge (pkg/controller/deployment/util/deployment_util.go).

    How many pods above spec.replicas a rolling update may run; 0 for Recreate
    or a malformed value. Example: 10 replicas, maxSurge "25%" -> 3 (rounded up).
    """
    if not is_rolling_update(deployment):
        return 0
    surge, unavailable = _rolling_update_params(deployment)
    try:
        result, _ = resolve_fenceposts(surge, unavailable, _spec_replicas(deployment))
    except ValueError:
        result = 0  # Go: error ignored, validation catches it
    return result


def get_replica_set_proportion(rs: V1ReplicaSet | None, d: V1Deployment, deployment_replicas_to_add: int,
                               deployment_replicas_added: int) -> int:
    """Port of GetReplicaSetProportion (pkg/controller/deployment/util/deployment_util.go).

    `rs`'s share of a proportional scale (negative: taken away): its fraction, clamped so the running total
    never passes `deployment_replicas_to_add`. Example: to add 5, 3 added, fraction 4 -> 2; to add -5, -4
    added, fraction -3 -> -1.
    """
    if rs is None or _spec_replicas(rs) == 0 or deployment_replicas_to_add in (0, deployment_replicas_added):
        return 0
    rs_fraction = get_replica_set_fraction(rs, d)
    allowed = deployment_replicas_to_add - deployment_replicas_added
    if deployment_replicas_to_add > 0:
        return min(rs_fraction, allowed)  # scaling up: never add more than is left
    return max(rs_fraction, allowed)  # scaling down: never remove more than is left


def get_replica_set_fraction(rs: V1ReplicaSet, d: V1Deployment) -> int:
    """Port of getReplicaSetFraction (pkg/controller/deployment/util/deployment_util.go).

    The change `rs` would get if every ReplicaSet kept its share of the
    Deployment while the Deployment's maximum (replicas + maxSurge) moves from
    the value recorded in the ReplicaSet's max-replicas annotation to today's.
    Scaling to 0 removes the whole ReplicaSet. Without a usable annotation,
    status.replicas stands in for the old maximum; if that is 0 too, nothing moves.
    Example: annotation 8, rs has 4, Deployment now 10 + surge 2 = 12:
    round(4 * 12 / 8) - 4 = 6 - 4 = 2.
    """
    rs_replicas = _spec_replicas(rs)
    if _spec_replicas(d) == 0:
        return -rs_replicas

    deployment_max_replicas = _spec_replicas(d) + max_surge(d)
    before_scale, ok = get_max_replicas_annotation(rs)
    if not ok or before_scale == 0:
        # The annotation was removed or zeroed by someone else: fall back to the
        # current size. Less accurate, but the clamping in get_replica_set_proportion
        # keeps the result within bounds.
        before_scale = (d.status.replicas or 0) if d.status else 0
        if before_scale == 0:
            return 0
    # rs_replicas is not 0 here: get_replica_set_proportion never scales up from zero.
    new_rs_size = float(rs_replicas * deployment_max_replicas) / float(before_scale)
    return _round_to_int32(new_rs_size) - rs_replicas


def _round_to_int32(a: float) -> int:
    # Go: integer.RoundToInt32 (k8s.io/utils/integer): half away from zero, then truncate.
    return int(a - 0.5) if a < 0 else int(a + 0.5)


# --- listing through a client -------------------------------------------------------------

RsListFunc = Callable[[str, ListOptions], list[V1ReplicaSet]]
"""Port of RsListFunc: lists ReplicaSets of a namespace with the given options."""

PodListFunc = Callable[[str, ListOptions], V1PodList]
"""Port of podListFunc: lists pods of a namespace with the given options."""


class _ReplicaSetsGetter(Protocol):
    def replica_sets(self, namespace: str) -> Any: ...


def rs_list_from_client(c: _ReplicaSetsGetter) -> RsListFunc:
    """Port of RsListFromClient: an RsListFunc that lists through the apps/v1 client `c`."""

    def list_replica_sets_with_client(namespace: str, options: ListOptions) -> list[V1ReplicaSet]:
        rs_list = c.replica_sets(namespace).list(options)
        return list(rs_list.items or [])

    return list_replica_sets_with_client


def list_replica_sets(deployment: V1Deployment, get_rs_list: RsListFunc) -> list[V1ReplicaSet]:
    """Port of ListReplicaSets (pkg/controller/deployment/util/deployment_util.go).

    Those matching the selector and controlled by the Deployment; adopts nothing (only the controller may).

    Raises: ValueError, an invalid selector; anything `get_rs_list` raises.
    """
    selector = label_selector_as_selector(deployment.spec.selector)
    options = ListOptions(label_selector=str(selector))
    all_rss = get_rs_list(deployment.metadata.namespace or "", options)
    return [rs for rs in all_rss if is_controlled_by(rs, deployment)]


def list_pods(deployment: V1Deployment, rs_list: list[V1ReplicaSet], get_pod_list: PodListFunc) -> V1PodList:
    """Port of ListPods (pkg/controller/deployment/util/deployment_util.go).

    Those matching the selector and controlled by one of `rs_list`; no adoption.

    Raises: ValueError, an invalid selector; anything `get_pod_list` raises.
    """
    selector = label_selector_as_selector(deployment.spec.selector)
    options = ListOptions(label_selector=str(selector))
    all_pods = get_pod_list(deployment.metadata.namespace or "", options)
    rs_uids = {rs.metadata.uid for rs in rs_list}
    owned: list[V1Pod] = []
    for pod in all_pods.items or []:
        controller_ref = get_controller_of(pod)
        if controller_ref is not None and controller_ref.uid in rs_uids:
            owned.append(pod)
    return V1PodList(items=owned)


# --- matching pod templates ---------------------------------------------------------------


def equal_ignore_hash(template1: V1PodTemplateSpec, template2: V1PodTemplateSpec) -> bool:
    """Port of EqualIgnoreHash (pkg/controller/deployment/util/deployment_util.go).

    The hash is left out because the Deployment's template never carries it and an unchanged template's
    hash can change when the API gains fields.
    """
    wire1, wire2 = to_wire(template1), to_wire(template2)  # Go: DeepCopy; fresh dicts here
    for wire in (wire1, wire2):
        wire.get("metadata", {}).get("labels", {}).pop(DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, None)
    return semantic_deep_equal(wire1, wire2)


def find_new_replica_set(deployment: V1Deployment, rs_list: list[V1ReplicaSet]) -> V1ReplicaSet | None:
    """Port of FindNewReplicaSet (pkg/controller/deployment/util/deployment_util.go).

    When several match (after an upgrade changed hashes), the oldest wins, so the choice is stable.
    Sorts `rs_list` in place.
    """
    controller_utils.go_sort(controller_utils.ReplicaSetsByCreationTimestamp(rs_list))
    for rs in rs_list:
        if equal_ignore_hash(rs.spec.template, deployment.spec.template):
            return rs
    return None


def find_old_replica_sets(deployment: V1Deployment,
                          rs_list: list[V1ReplicaSet]) -> tuple[list[V1ReplicaSet] | None, list[V1ReplicaSet] | None]:
    """Port of FindOldReplicaSets (pkg/controller/deployment/util/deployment_util.go).

    (with replicas > 0, all) of the ReplicaSets but the new one; None when empty (Go's nil slice).
    """
    required: list[V1ReplicaSet] = []
    all_rss: list[V1ReplicaSet] = []
    new_rs = find_new_replica_set(deployment, rs_list)
    for rs in rs_list:
        if new_rs is not None and rs.metadata.uid == new_rs.metadata.uid:
            continue  # the new ReplicaSet is not old
        all_rss.append(rs)
        if _spec_replicas(rs) != 0:
            required.append(rs)
    return required or None, all_rss or None


def set_from_replica_set_template(deployment: V1Deployment, template: V1PodTemplateSpec) -> V1Deployment:
    """Port of SetFromReplicaSetTemplate (pkg/controller/deployment/util/deployment_util.go).

    A rollback, without the pod-template-hash label. Differs from Go: shallow copies of metadata and
    spec (Go copies the structs), so the ReplicaSet's template never changes through the Deployment.
    """
    metadata = template.metadata.model_copy() if template.metadata is not None else V1ObjectMeta()
    metadata.labels = _clone_and_remove_label(metadata.labels, DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY)
    deployment.spec.template.metadata = metadata
    deployment.spec.template.spec = template.spec.model_copy() if template.spec is not None else None
    return deployment


def _clone_and_remove_label(label_map: dict[str, str] | None, label_key: str) -> dict[str, str]:
    # Go: labelsutil.CloneAndRemoveLabel (pkg/util/labels): a new map without the key.
    return {k: v for k, v in (label_map or {}).items() if k != label_key}


# --- replica counts over ReplicaSets ------------------------------------------------------


def get_replica_count_for_replica_sets(replica_sets: list[V1ReplicaSet | None]) -> int:
    """Port of GetReplicaCountForReplicaSets (pkg/controller/deployment/util/deployment_util.go).

    Sum of spec.replicas (what the ReplicaSets are asked to run); None entries are skipped.
    """
    return sum(_spec_replicas(rs) for rs in replica_sets if rs is not None)


def get_actual_replica_count_for_replica_sets(replica_sets: list[V1ReplicaSet | None]) -> int:
    """Port of GetActualReplicaCountForReplicaSets: sum of status.replicas (pods that exist and are not terminating)."""
    return sum((rs.status.replicas or 0) if rs.status else 0 for rs in replica_sets if rs is not None)


def get_ready_replica_count_for_replica_sets(replica_sets: list[V1ReplicaSet | None]) -> int:
    """Port of GetReadyReplicaCountForReplicaSets (pkg/controller/deployment/util/deployment_util.go): sum of status.readyReplicas."""
    return sum((rs.status.ready_replicas or 0) if rs.status else 0 for rs in replica_sets if rs is not None)


def get_available_replica_count_for_replica_sets(replica_sets: list[V1ReplicaSet | None]) -> int:
    """Port of GetAvailableReplicaCountForReplicaSets (pkg/controller/deployment/util/deployment_util.go): sum of status.availableReplicas."""
    return sum((rs.status.available_replicas or 0) if rs.status else 0 for rs in replica_sets if rs is not None)


def get_terminating_replica_count_for_replica_sets(replica_sets: list[V1ReplicaSet | None]) -> int | None:
    """Port of GetTerminatingReplicaCountForReplicaSets (pkg/controller/deployment/util/deployment_util.go).

    None when unknown: a ReplicaSet synced by its controller (observedGeneration > 0) reports no count (its
    feature gate was off). Example: 3 and 1 -> 4; 3 and an unsynced one -> 3; 3 and a synced one -> None.
    """
    terminating = 0
    for rs in replica_sets:
        if rs is None:
            continue
        observed = (rs.status.observed_generation or 0) if rs.status else 0
        count = rs.status.terminating_replicas if rs.status else None
        if observed == 0 and count is None:
            continue  # never synced: contributes nothing
        if count is None:
            return None  # synced but silent: the sum cannot be known
        terminating += count
    return terminating


# --- rollout state ------------------------------------------------------------------------


def is_rolling_update(deployment: V1Deployment) -> bool:
    """Port of IsRollingUpdate (pkg/controller/deployment/util/deployment_util.go)."""
    strategy = deployment.spec.strategy
    return strategy is not None and strategy.type == ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE


def deployment_complete(deployment: V1Deployment, new_status: V1DeploymentStatus) -> bool:
    """Port of DeploymentComplete (pkg/controller/deployment/util/deployment_util.go).

    Complete means: every desired replica is updated and available, no old pod
    is left (total == desired), and the status describes the current generation.
    """
    replicas = _spec_replicas(deployment)
    generation = (deployment.metadata.generation or 0) if deployment.metadata else 0
    return (
        (new_status.updated_replicas or 0) == replicas
        and (new_status.replicas or 0) == replicas
        and (new_status.available_replicas or 0) == replicas
        and (new_status.observed_generation or 0) >= generation
    )


def deployment_progressing(deployment: V1Deployment, new_status: V1DeploymentStatus) -> bool:
    """Port of DeploymentProgressing (pkg/controller/deployment/util/deployment_util.go).

    Progress, from the stored status to the one about to be written: more updated, ready or available
    pods, or fewer old ones (replicas 10 -> 8 with 4 updated: old pods 6 -> 4).
    """
    old = deployment.status or V1DeploymentStatus()
    old_status_old_replicas = (old.replicas or 0) - (old.updated_replicas or 0)
    new_status_old_replicas = (new_status.replicas or 0) - (new_status.updated_replicas or 0)
    return (
        (new_status.updated_replicas or 0) > (old.updated_replicas or 0)
        or new_status_old_replicas < old_status_old_replicas
        or (new_status.ready_replicas or 0) > (old.ready_replicas or 0)
        or (new_status.available_replicas or 0) > (old.available_replicas or 0)
    )


_ZERO_TIME = datetime(1, 1, 1, tzinfo=timezone.utc)  # Go: time.Time{}


def deployment_timed_out(deployment: V1Deployment, new_status: V1DeploymentStatus, *,
                         now: datetime | None = None) -> bool:
    """Port of DeploymentTimedOut (pkg/controller/deployment/util/deployment_util.go).

    False without a deadline or a Progressing condition, and when it says NewReplicaSetAvailable (a stale
    cache can show an old "complete" while a new rollout starts). Differs from Go: `now` when given.
    """
    if not has_progress_deadline(deployment):
        return False
    condition = get_deployment_condition(new_status, DEPLOYMENT_PROGRESSING)
    if condition is None:
        return False
    if condition.reason == NEW_RS_AVAILABLE_REASON:
        return False
    if condition.reason == TIMED_OUT_REASON:
        return True
    since = condition.last_update_time or _ZERO_TIME
    current = now if now is not None else now_fn()
    deadline = timedelta(seconds=deployment.spec.progress_deadline_seconds or 0)
    timed_out = since + deadline < current
    logger.debug("deployment %s timed out=%s (last progress %s, now %s)",
                 deployment.metadata.name if deployment.metadata else "", timed_out, since, current)
    return timed_out


def new_rs_new_replicas(deployment: V1Deployment, all_rss: list[V1ReplicaSet | None], new_rs: V1ReplicaSet) -> int:
    """Port of NewRSNewReplicas (pkg/controller/deployment/util/deployment_util.go).

    The size the new ReplicaSet should have now. Recreate: spec.replicas at
    once. RollingUpdate: grow it by whatever room maxSurge leaves over all
    ReplicaSets, never beyond spec.replicas.
    Example: 10 replicas, maxSurge 3, all ReplicaSets hold 12, new has 4:
    room is 13 - 12 = 1, so 5. If they held 13 or more, it stays at 4.

    Raises:
        ValueError: maxSurge is missing or malformed, or the strategy type is unknown.
    """
    strategy_type = deployment.spec.strategy.type if deployment.spec.strategy else None
    replicas = _spec_replicas(deployment)
    if strategy_type == ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE:
        surge, _ = _rolling_update_params(deployment)
        surge_pods = intstr.get_scaled_value_from_int_or_percent(surge, replicas, True)
        current_pod_count = get_replica_count_for_replica_sets(all_rss)
        max_total_pods = replicas + surge_pods
        if current_pod_count >= max_total_pods:
            return _spec_replicas(new_rs)  # no room to scale up
        scale_up_count = max_total_pods - current_pod_count
        scale_up_count = min(scale_up_count, replicas - _spec_replicas(new_rs))  # never past desired
        return _spec_replicas(new_rs) + scale_up_count
    if strategy_type == RECREATE_DEPLOYMENT_STRATEGY_TYPE:
        return replicas
    raise ValueError(f"deployment type {strategy_type or ''} isn't supported")


def is_saturated(deployment: V1Deployment, rs: V1ReplicaSet | None) -> bool:
    """Port of IsSaturated (pkg/controller/deployment/util/deployment_util.go).

    Its spec.replicas, desired-replicas annotation and available pods all equal the Deployment's replicas.
    """
    if rs is None:
        return False
    try:
        desired = intstr.atoi((rs.metadata.annotations or {}).get(DESIRED_REPLICAS_ANNOTATION, ""))
    except ValueError:
        return False
    replicas = _spec_replicas(deployment)
    available = (rs.status.available_replicas or 0) if rs.status else 0
    return _spec_replicas(rs) == replicas and desired == replicas and available == replicas


def wait_for_observed_deployment(get_deployment_func: Callable[[], V1Deployment], desired_generation: int,
                                 interval: float, timeout: float, clock: Clock | None = None) -> None:
    """Port of WaitForObservedDeployment (pkg/controller/deployment/util/deployment_util.go).

    Blocks: until status.observedGeneration reaches `desired_generation` (polled at once, then every
    `interval`), or `timeout` on `clock`. Raises: WaitTimeoutError; anything `get_deployment_func` raises.
    """

    def observed() -> bool:
        deployment = get_deployment_func()
        status = deployment.status
        return ((status.observed_generation or 0) if status else 0) >= desired_generation

    wait.poll_immediate(interval, timeout, observed, clock)


def resolve_fenceposts(max_surge: intstr.IntOrString | None, max_unavailable: intstr.IntOrString | None,
                       desired: int) -> tuple[int, int]:
    """Port of ResolveFenceposts (pkg/controller/deployment/util/deployment_util.go).

    Turns maxSurge and maxUnavailable into pod counts for `desired` replicas,
    together, because of one corner: a percentage of surge rounds up, one of
    unavailability rounds down, and if both end at 0 a rollout could never
    move; then unavailability becomes 1 (surge might be blocked by quota, so
    taking one pod down is the safer way to make room). None counts as 0.
    Example: "25%" and "25%" of 10 -> (3, 2); 0 and 0 of 5 -> (0, 1);
    0 and "10%" of 5 -> 0.5 rounds down to 0 -> (0, 1).

    Returns:
        (surge, unavailable).
    Raises:
        ValueError: a value is a string that is not a whole percentage.
    """
    surge = intstr.get_scaled_value_from_int_or_percent(intstr.value_or_default(max_surge, 0), desired, True)
    unavailable = intstr.get_scaled_value_from_int_or_percent(intstr.value_or_default(max_unavailable, 0), desired, False)
    if surge == 0 and unavailable == 0:
        # Validation forbids two explicit zeros, but rounding down can produce them.
        unavailable = 1
    return surge, unavailable


def has_progress_deadline(d: V1Deployment) -> bool:
    """Port of HasProgressDeadline: True when spec.progressDeadlineSeconds is set and not MaxInt32 ("never")."""
    seconds = d.spec.progress_deadline_seconds if d.spec else None
    return seconds is not None and seconds != MAX_INT32


def has_revision_history_limit(d: V1Deployment) -> bool:
    """Port of HasRevisionHistoryLimit: set and not MaxInt32 ("keep all"); 0 is a limit (keep none)."""
    limit = d.spec.revision_history_limit if d.spec else None
    return limit is not None and limit != MAX_INT32


# --- lookups and ordering -----------------------------------------------------------------


class _DeploymentLister(Protocol):
    def deployments(self, namespace: str) -> Any: ...


def get_deployments_for_replica_set(deployment_lister: _DeploymentLister, rs: V1ReplicaSet) -> list[V1Deployment]:
    """Port of GetDeploymentsForReplicaSet (pkg/controller/deployment/util/deployment_util.go).

    Several may match; only the controller reference's owns it. Invalid or empty selectors match nothing.

    Raises: ValueError, the ReplicaSet has no labels or no Deployment matches.
    """
    rs_labels = rs.metadata.labels or {}
    if not rs_labels:
        raise ValueError(f"no deployments found for ReplicaSet {rs.metadata.name} because it has no labels")
    d_list = deployment_lister.deployments(rs.metadata.namespace or "").list(labels.everything())
    deployments: list[V1Deployment] = []
    for d in d_list:
        try:
            selector = label_selector_as_selector(d.spec.selector)
        except ValueError:
            continue  # an invalid selector matches no ReplicaSet
        if selector.empty() or not selector.matches(labels.Set(rs_labels)):
            continue  # an empty selector must match nothing, not everything
        deployments.append(d)
    if not deployments:
        raise ValueError(
            f"could not find deployments set for ReplicaSet {rs.metadata.name} in namespace "
            f"{rs.metadata.namespace or ''} with labels: {_go_map(rs_labels)}"
        )
    return deployments


def _go_map(m: dict[str, str]) -> str:
    # Go's %v of a map[string]string: map[k1:v1 k2:v2], keys sorted.
    return "map[" + " ".join(f"{k}:{m[k]}" for k in sorted(m)) + "]"


class ReplicaSetsByRevision:
    """Port of ReplicaSetsByRevision (pkg/controller/deployment/util/deployment_util.go).

    Oldest revision first; equal or unparsable ones by creation time, then name.
    """

    def __init__(self, items: list[V1ReplicaSet]) -> None:
        self.items = items

    def __len__(self) -> int:
        return len(self.items)

    def reorder(self, order: list[int]) -> None:
        self.items[:] = [self.items[i] for i in order]  # Go: Swap; see controller_utils.go_sort

    def sort(self, reverse: bool = False) -> None:
        """Sort the wrapped list in place (Go: sort.Sort(ReplicaSetsByRevision(rss)))."""
        controller_utils.go_sort(self, reverse)

    def less(self, i: int, j: int) -> bool:
        """Port of ReplicaSetsByRevision.Less (pkg/controller/deployment/util/deployment_util.go)."""
        try:
            revision1, revision2 = revision(self.items[i]), revision(self.items[j])
        except ValueError:
            revision1 = revision2 = 0  # unparsable: fall back to creation time, as for a tie
        if revision1 == revision2:
            return controller_utils.ReplicaSetsByCreationTimestamp(self.items).less(i, j)
        return revision1 < revision2
