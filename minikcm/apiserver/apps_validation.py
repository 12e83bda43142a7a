"""No upstream twin. The apps/v1 validation the embedded API server runs, on wire dicts.

Mirrors pkg/apis/apps/validation/validation.go (the StatefulSet update rule
with its v1.35+ message) for StatefulSets, ControllerRevisions, Deployments
and ReplicaSets. minikcm.apiserver.validation picks the function per resource
and adds the apps/v1 rule of the registry strategies that a Deployment's or
ReplicaSet's spec.selector is immutable.

Start reading at: validate_deployment_spec, then validate_stateful_set_spec.

Not ported: DaemonSets, DeploymentRollback, the PodValidationOptions switches.
Differs from Go:
- StatefulSet pod templates are checked for labels only, as upstream does;
  Deployment and ReplicaSet templates get the (reduced) pod checks of
  core_validation.
- Label selectors are wire dicts; `label_selector_as_selector` converts them
  for minikcm.apimachinery.meta.label_selector_as_selector.
"""

from __future__ import annotations

import copy
from typing import Any

from kubernetes.client import V1LabelSelector

from minikcm.apimachinery import field, intstr, labels, meta
from minikcm.apimachinery import validation as meta_validation
from minikcm.apimachinery.field import ErrorList, Path, new_path
from minikcm.apimachinery.validation import (
    name_is_dns_label,
    name_is_dns_subdomain,
    semantic_deep_equal,
    validate_annotations,
    validate_immutable_field,
    validate_label_selector,
    validate_labels,
    validate_nonnegative_field,
)
from minikcm.apiserver.core_validation import (
    copy_key,
    go_int,
    spec_of,
    status_of,
    validate_object_meta,
    validate_object_meta_update,
    validate_pod_template_spec,
)


def label_selector_as_selector(ps: dict[str, Any] | None) -> labels.Selector:
    """LabelSelectorAsSelector (pkg/apis/meta/v1/helpers.go) for a wire selector.

    None matches nothing (and is not empty); {} matches everything.

    Raises:
        ValueError: for a selector that does not convert (bad key, value or operator).
    """
    if ps is None:
        return meta.label_selector_as_selector(None)
    return meta.label_selector_as_selector(V1LabelSelector.model_validate(ps))


# --- apps: StatefulSet (pkg/apis/apps/validation/validation.go) --------------------------------


def validate_pod_template_spec_for_stateful_set(
    template: dict[str, Any], selector: labels.Selector, fld_path: Path
) -> ErrorList:
    """Port of ValidatePodTemplateSpecForStatefulSet: labels match the selector; labels and annotations valid."""
    errs = ErrorList()
    template_labels = (template.get("metadata") or {}).get("labels")
    if not selector.empty() and not selector.matches(template_labels or {}):
        errs.append(
            field.invalid(
                fld_path.child("metadata", "labels"),
                template_labels or {},
                "`selector` does not match template `labels`",
            )
        )
    errs.extend(validate_labels(template_labels, fld_path.child("labels")))
    errs.extend(
        validate_annotations((template.get("metadata") or {}).get("annotations"), fld_path.child("annotations"))
    )
    return errs


def validate_persistent_volume_claim_retention_policy(policy: dict[str, Any] | None, fld_path: Path) -> ErrorList:
    """Port of ValidatePersistentVolumeClaimRetentionPolicy: whenDeleted and whenScaled are Retain or Delete."""
    errs = ErrorList()
    if policy is None:
        return errs
    for key in ("whenDeleted", "whenScaled"):
        value = policy.get(key) or ""
        if value not in ("Retain", "Delete"):
            errs.append(field.not_supported(fld_path.child(key), value, ["Retain", "Delete"]))
    return errs


def validate_stateful_set_spec(spec: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of ValidateStatefulSetSpec."""
    errs = ErrorList()
    policy = spec.get("podManagementPolicy") or ""
    if not policy:
        errs.append(field.required(fld_path.child("podManagementPolicy"), ""))
    elif policy not in ("OrderedReady", "Parallel"):
        errs.append(
            field.invalid(fld_path.child("podManagementPolicy"), policy, "must be 'OrderedReady' or 'Parallel'")
        )

    strategy = spec.get("updateStrategy") or {}
    strategy_type = strategy.get("type") or ""
    rolling_update = strategy.get("rollingUpdate")
    if not strategy_type:
        errs.append(field.required(fld_path.child("updateStrategy"), ""))
    elif strategy_type == "OnDelete":
        if rolling_update is not None:
            errs.append(
                field.invalid(
                    fld_path.child("updateStrategy", "rollingUpdate"),
                    rolling_update,
                    "only allowed for updateStrategy 'RollingUpdate'",
                )
            )
    elif strategy_type == "RollingUpdate":
        if rolling_update is not None:
            errs.extend(
                validate_rolling_update_stateful_set(rolling_update, fld_path.child("updateStrategy", "rollingUpdate"))
            )
    else:
        errs.append(field.invalid(fld_path.child("updateStrategy"), strategy, "must be 'RollingUpdate' or 'OnDelete'"))

    errs.extend(
        validate_persistent_volume_claim_retention_policy(
            spec.get("persistentVolumeClaimRetentionPolicy"), fld_path.child("persistentVolumeClaimRetentionPolicy")
        )
    )
    errs.extend(validate_nonnegative_field(go_int(spec.get("replicas")), fld_path.child("replicas")))
    errs.extend(validate_nonnegative_field(go_int(spec.get("minReadySeconds")), fld_path.child("minReadySeconds")))
    if spec.get("revisionHistoryLimit") is not None:  # zero is a valid limit
        errs.extend(validate_nonnegative_field(go_int(spec["revisionHistoryLimit"]),
                                               fld_path.child("revisionHistoryLimit")))
    if spec.get("ordinals") is not None:
        errs.extend(validate_nonnegative_field(go_int(spec["ordinals"].get("start")), fld_path.child("ordinals.start")))
    errs.extend(_validate_workload_selector(spec.get("selector"), fld_path.child("selector"), "statefulset"))

    try:
        selector = label_selector_as_selector(spec.get("selector"))
    except ValueError:
        errs.append(field.invalid(fld_path.child("selector"), spec.get("selector"), ""))
    else:
        errs.extend(
            validate_pod_template_spec_for_stateful_set(
                spec.get("template") or {}, selector, fld_path.child("template")
            )
        )

    template_spec = (spec.get("template") or {}).get("spec") or {}
    restart_policy = template_spec.get("restartPolicy") or ""
    if restart_policy != "Always":
        errs.append(
            field.not_supported(fld_path.child("template", "spec", "restartPolicy"), restart_policy, ["Always"])
        )
    if template_spec.get("activeDeadlineSeconds") is not None:
        errs.append(
            field.forbidden(
                fld_path.child("template", "spec", "activeDeadlineSeconds"),
                "activeDeadlineSeconds in StatefulSet is not Supported",
            )
        )
    return errs


def _validate_workload_selector(selector: dict[str, Any] | None, fld_path: Path, kind: str) -> ErrorList:
    # The selector block shared by the StatefulSet, Deployment and ReplicaSet spec checks.
    errs = ErrorList()
    if selector is None:
        errs.append(field.required(fld_path, ""))
        return errs
    errs.extend(validate_label_selector(selector, fld_path))
    if not selector.get("matchLabels") and not selector.get("matchExpressions"):
        errs.append(field.invalid(fld_path, selector, f"empty selector is invalid for {kind}"))
    return errs


def validate_stateful_set(sts: dict[str, Any]) -> ErrorList:
    """Port of ValidateStatefulSet: metadata (name a DNS label) and spec."""
    errs = validate_object_meta(sts.get("metadata"), True, name_is_dns_label, new_path("metadata"))
    errs.extend(validate_stateful_set_spec(spec_of(sts), new_path("spec")))
    return errs


STATEFUL_SET_UPDATABLE_FIELDS = (
    "replicas",
    "ordinals",
    "template",
    "updateStrategy",
    "revisionHistoryLimit",
    "persistentVolumeClaimRetentionPolicy",
    "minReadySeconds",
)
STATEFUL_SET_UPDATE_FORBIDDEN_MSG = (
    "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', "
    "'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"
)


def validate_stateful_set_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidateStatefulSetUpdate: metadata update, the new spec, and only the updatable fields changed."""
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata"))
    errs.extend(validate_stateful_set_spec(spec_of(new), new_path("spec")))
    clone = copy.deepcopy(spec_of(new))
    for key in STATEFUL_SET_UPDATABLE_FIELDS:
        copy_key(clone, spec_of(old), key)
    if not semantic_deep_equal(clone, spec_of(old)):
        errs.append(field.forbidden(new_path("spec"), STATEFUL_SET_UPDATE_FORBIDDEN_MSG))
    return errs


def validate_stateful_set_status(status: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of ValidateStatefulSetStatus: counters not negative nor above status.replicas."""
    errs = ErrorList()
    counts = {
        k: go_int(status.get(k))
        for k in ("replicas", "readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas")
    }
    for key, value in counts.items():
        errs.extend(validate_nonnegative_field(value, fld_path.child(key)))
    for key in ("observedGeneration", "collisionCount"):
        if status.get(key) is not None:
            errs.extend(validate_nonnegative_field(go_int(status[key]), fld_path.child(key)))
    msg = "cannot be greater than status.replicas"
    for key in ("readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"):
        if counts[key] > counts["replicas"]:
            errs.append(field.invalid(fld_path.child(key), counts[key], msg))
    if counts["availableReplicas"] > counts["readyReplicas"]:
        errs.append(
            field.invalid(
                fld_path.child("availableReplicas"),
                counts["availableReplicas"],
                "cannot be greater than status.readyReplicas",
            )
        )
    return errs


def validate_stateful_set_status_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidateStatefulSetStatusUpdate: status, metadata update, collisionCount not decremented."""
    errs = validate_stateful_set_status(status_of(new), new_path("status"))
    errs.extend(validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata")))
    errs.extend(_validate_collision_count_not_decremented(new, old))
    return errs


def _validate_collision_count_not_decremented(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    # Port of the IsDecremented check the three status-update validators share.
    errs = ErrorList()
    new_count, old_count = status_of(new).get("collisionCount"), status_of(old).get("collisionCount")
    if old_count is not None and (new_count is None or new_count < old_count):
        errs.append(field.invalid(new_path("status", "collisionCount"), go_int(new_count), "cannot be decremented"))
    return errs


# --- apps: ControllerRevision ------------------------------------------------------------------


def validate_controller_revision(revision: dict[str, Any]) -> ErrorList:
    """Port of ValidateControllerRevision: metadata, data present, revision not negative."""
    errs = validate_object_meta(revision.get("metadata"), True, name_is_dns_subdomain, new_path("metadata"))
    if revision.get("data") is None:
        errs.append(field.required(new_path("data"), "data is mandatory"))
    errs.extend(validate_nonnegative_field(go_int(revision.get("revision")), new_path("revision")))
    return errs


def validate_controller_revision_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidateControllerRevisionUpdate: the new revision valid, data unchanged."""
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata"))
    errs.extend(validate_controller_revision(new))
    errs.extend(validate_immutable_field(new.get("data"), old.get("data"), new_path("data")))
    return errs


# --- apps: Deployment and ReplicaSet -----------------------------------------------------------


def validate_positive_int_or_percent(value: Any, fld_path: Path) -> ErrorList:
    """Port of ValidatePositiveIntOrPercent: a valid percentage or a non-negative integer."""
    errs = ErrorList()
    if isinstance(value, str):
        errs.extend(field.invalid(fld_path, value, msg) for msg in meta_validation.is_valid_percent(value))
    elif isinstance(value, int) and not isinstance(value, bool):
        errs.extend(validate_nonnegative_field(value, fld_path))
    else:
        errs.append(field.invalid(fld_path, value, "must be an integer or percentage (e.g '5%%')"))
    return errs


def get_percent_value(value: Any) -> tuple[int, bool]:
    """Port of getPercentValue: (n, True) for a valid "n%", else (0, False)."""
    if not isinstance(value, str) or meta_validation.is_valid_percent(value):
        return 0, False
    return int(value[:-1]), True


def get_int_or_percent_value(value: Any) -> int:
    """Port of getIntOrPercentValue: the percentage or the integer (0 for anything else)."""
    percent, is_percent = get_percent_value(value)
    if is_percent:
        return percent
    return intstr.int_value(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else 0


def is_not_more_than_100_percent(value: Any, fld_path: Path) -> ErrorList:
    """Port of IsNotMoreThan100Percent."""
    percent, is_percent = get_percent_value(value)
    if not is_percent or percent <= 100:
        return ErrorList()
    return ErrorList([field.invalid(fld_path, value, "must not be greater than 100%")])


def validate_rolling_update_stateful_set(rolling_update: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of validateRollingUpdateStatefulSet: partition not negative; maxUnavailable 1..100%."""
    errs = validate_nonnegative_field(go_int(rolling_update.get("partition")), fld_path.child("partition"))
    max_unavailable = rolling_update.get("maxUnavailable")
    if max_unavailable is not None:
        path = fld_path.child("maxUnavailable")
        errs.extend(validate_positive_int_or_percent(max_unavailable, path))
        if get_int_or_percent_value(max_unavailable) == 0:
            errs.append(field.invalid(path, max_unavailable, "cannot be 0"))
        errs.extend(is_not_more_than_100_percent(max_unavailable, path))
    return errs


def validate_rolling_update_deployment(rolling_update: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of ValidateRollingUpdateDeployment: both valid, not both 0, maxUnavailable at most 100%."""
    max_unavailable = rolling_update.get("maxUnavailable", 0)
    max_surge = rolling_update.get("maxSurge", 0)
    max_unavailable = 0 if max_unavailable is None else max_unavailable
    max_surge = 0 if max_surge is None else max_surge
    errs = validate_positive_int_or_percent(max_unavailable, fld_path.child("maxUnavailable"))
    errs.extend(validate_positive_int_or_percent(max_surge, fld_path.child("maxSurge")))
    if get_int_or_percent_value(max_unavailable) == 0 and get_int_or_percent_value(max_surge) == 0:
        errs.append(
            field.invalid(fld_path.child("maxUnavailable"), max_unavailable, "may not be 0 when `maxSurge` is 0")
        )
    errs.extend(is_not_more_than_100_percent(max_unavailable, fld_path.child("maxUnavailable")))
    return errs


def validate_deployment_strategy(strategy: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of ValidateDeploymentStrategy: Recreate without rollingUpdate, RollingUpdate with a valid one."""
    errs = ErrorList()
    strategy_type = strategy.get("type") or ""
    rolling_update = strategy.get("rollingUpdate")
    if strategy_type == "Recreate":
        if rolling_update is not None:
            errs.append(
                field.forbidden(
                    fld_path.child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'"
                )
            )
    elif strategy_type == "RollingUpdate":
        if rolling_update is None:
            errs.append(field.required(fld_path.child("rollingUpdate"), "this should be defaulted and never be nil"))
        else:
            errs.extend(validate_rolling_update_deployment(rolling_update, fld_path.child("rollingUpdate")))
    else:
        errs.append(field.not_supported(fld_path, strategy, ["Recreate", "RollingUpdate"]))
    return errs


def validate_pod_template_spec_for_replica_set(
    template: dict[str, Any], selector: labels.Selector, fld_path: Path, kind: str
) -> ErrorList:
    """Port of ValidatePodTemplateSpecForReplicaSet: labels match; the pod template valid; restartPolicy Always."""
    errs = ErrorList()
    template_labels = (template.get("metadata") or {}).get("labels")
    if not selector.empty() and not selector.matches(template_labels or {}):
        errs.append(
            field.invalid(
                fld_path.child("metadata", "labels"),
                template_labels or {},
                "`selector` does not match template `labels`",
            )
        )
    errs.extend(validate_pod_template_spec(template, fld_path))
    spec = template.get("spec") or {}
    restart_policy = spec.get("restartPolicy") or ""
    if restart_policy != "Always":
        errs.append(field.not_supported(fld_path.child("spec", "restartPolicy"), restart_policy, ["Always"]))
    if spec.get("activeDeadlineSeconds") is not None:
        errs.append(
            field.forbidden(
                fld_path.child("spec", "activeDeadlineSeconds"), f"activeDeadlineSeconds in {kind} is not Supported"
            )
        )
    return errs


def _validate_template_against_selector(spec: dict[str, Any], fld_path: Path) -> ErrorList:
    # The LabelSelectorAsSelector step shared by ValidateDeploymentSpec and ValidateReplicaSetSpec.
    try:
        selector = label_selector_as_selector(spec.get("selector"))
    except ValueError:
        return ErrorList([field.invalid(fld_path.child("selector"), spec.get("selector"), "invalid label selector")])
    return validate_pod_template_spec_for_replica_set(
        spec.get("template") or {}, selector, fld_path.child("template"), "ReplicaSet"
    )


def validate_deployment_spec(spec: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of ValidateDeploymentSpec.

    replicas not negative; selector present, valid, non-empty and matching
    the template labels; the pod template valid; the strategy valid;
    minReadySeconds and revisionHistoryLimit not negative;
    progressDeadlineSeconds not negative and greater than minReadySeconds.
    """
    errs = validate_nonnegative_field(go_int(spec.get("replicas")), fld_path.child("replicas"))
    errs.extend(_validate_workload_selector(spec.get("selector"), fld_path.child("selector"), "deployment"))
    errs.extend(_validate_template_against_selector(spec, fld_path))
    errs.extend(validate_deployment_strategy(spec.get("strategy") or {}, fld_path.child("strategy")))
    min_ready = go_int(spec.get("minReadySeconds"))
    errs.extend(validate_nonnegative_field(min_ready, fld_path.child("minReadySeconds")))
    if spec.get("revisionHistoryLimit") is not None:
        errs.extend(
            validate_nonnegative_field(go_int(spec["revisionHistoryLimit"]), fld_path.child("revisionHistoryLimit"))
        )
    deadline = spec.get("progressDeadlineSeconds")
    if deadline is not None:
        errs.extend(validate_nonnegative_field(go_int(deadline), fld_path.child("progressDeadlineSeconds")))
        if go_int(deadline) <= min_ready:
            errs.append(
                field.invalid(
                    fld_path.child("progressDeadlineSeconds"), deadline, "must be greater than minReadySeconds"
                )
            )
    return errs


def validate_deployment(deployment: dict[str, Any]) -> ErrorList:
    """Port of ValidateDeployment: metadata (name a DNS subdomain) and spec."""
    errs = validate_object_meta(deployment.get("metadata"), True, name_is_dns_subdomain, new_path("metadata"))
    errs.extend(validate_deployment_spec(spec_of(deployment), new_path("spec")))
    return errs


def validate_deployment_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidateDeploymentUpdate: metadata update and the new spec.

    validate_object_update adds the apps/v1 rule that spec.selector is immutable.
    """
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata"))
    errs.extend(validate_deployment_spec(spec_of(new), new_path("spec")))
    return errs


def validate_deployment_status(status: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of ValidateDeploymentStatus: counters not negative, none above replicas, available <= ready."""
    keys = (
        "observedGeneration",
        "replicas",
        "updatedReplicas",
        "readyReplicas",
        "availableReplicas",
        "unavailableReplicas",
    )
    counts = {k: go_int(status.get(k)) for k in keys}
    errs = ErrorList()
    for key in keys:
        errs.extend(validate_nonnegative_field(counts[key], fld_path.child(key)))
    for key in ("terminatingReplicas", "collisionCount"):
        if status.get(key) is not None:
            errs.extend(validate_nonnegative_field(go_int(status[key]), fld_path.child(key)))
    msg = "cannot be greater than status.replicas"
    for key in ("updatedReplicas", "readyReplicas", "availableReplicas"):
        if counts[key] > counts["replicas"]:
            errs.append(field.invalid(fld_path.child(key), counts[key], msg))
    if counts["availableReplicas"] > counts["readyReplicas"]:
        errs.append(
            field.invalid(
                fld_path.child("availableReplicas"), counts["availableReplicas"], "cannot be greater than readyReplicas"
            )
        )
    return errs


def validate_deployment_status_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidateDeploymentStatusUpdate: metadata update, status, collisionCount not decremented."""
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata"))
    errs.extend(validate_deployment_status(status_of(new), new_path("status")))
    errs.extend(_validate_collision_count_not_decremented(new, old))
    return errs


def validate_replica_set_spec(spec: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of ValidateReplicaSetSpec (its empty-selector message says "deployment", as upstream's)."""
    errs = validate_nonnegative_field(go_int(spec.get("replicas")), fld_path.child("replicas"))
    errs.extend(validate_nonnegative_field(go_int(spec.get("minReadySeconds")), fld_path.child("minReadySeconds")))
    errs.extend(_validate_workload_selector(spec.get("selector"), fld_path.child("selector"), "deployment"))
    errs.extend(_validate_template_against_selector(spec, fld_path))
    return errs


def validate_replica_set(rs: dict[str, Any]) -> ErrorList:
    """Port of ValidateReplicaSet: metadata (name a DNS subdomain) and spec."""
    errs = validate_object_meta(rs.get("metadata"), True, name_is_dns_subdomain, new_path("metadata"))
    errs.extend(validate_replica_set_spec(spec_of(rs), new_path("spec")))
    return errs


def validate_replica_set_status(status: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of ValidateReplicaSetStatus: counters not negative, none above replicas, available <= ready."""
    keys = ("replicas", "fullyLabeledReplicas", "readyReplicas", "availableReplicas", "observedGeneration")
    counts = {k: go_int(status.get(k)) for k in keys}
    errs = ErrorList()
    for key in keys:
        errs.extend(validate_nonnegative_field(counts[key], fld_path.child(key)))
    if status.get("terminatingReplicas") is not None:
        errs.extend(
            validate_nonnegative_field(go_int(status["terminatingReplicas"]), fld_path.child("terminatingReplicas"))
        )
    msg = "cannot be greater than status.replicas"
    for key in ("fullyLabeledReplicas", "readyReplicas", "availableReplicas"):
        if counts[key] > counts["replicas"]:
            errs.append(field.invalid(fld_path.child(key), counts[key], msg))
    if counts["availableReplicas"] > counts["readyReplicas"]:
        errs.append(
            field.invalid(
                fld_path.child("availableReplicas"), counts["availableReplicas"], "cannot be greater than readyReplicas"
            )
        )
    return errs


def validate_replica_set_status_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidateReplicaSetStatusUpdate: metadata update and status."""
    errs = validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata"))
    errs.extend(validate_replica_set_status(status_of(new), new_path("status")))
    return errs
