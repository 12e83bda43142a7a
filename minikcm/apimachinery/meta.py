"""Port of helpers from k8s.io/apimachinery/pkg/apis/meta/v1 (types.go options, helpers.go, controller_ref.go).

The request option structs every API call takes (ListOptions, DeleteOptions, ...)
and the helpers controllers use on object metadata: label selectors, owner
references, conditions.

Start reading at: label_selector_as_selector, then get_controller_of.

Not ported: TypeMeta/ObjectMeta (the official client models are used instead),
the conversion and defaulting of options, Table types.
Differs from Go: option structs are dataclasses with snake_case fields; Go's
`Continue` is `continue_` because `continue` is a Python keyword.
- Helpers raise ValueError where Go returns an error; matchLabels are walked in
  sorted key order (Go: map order).
- The owner-reference helpers take client models or wire dicts (through
  convert.object_meta); the condition helpers (from pkg/api/meta/conditions.go)
  edit the given list in place and take an optional clock for "now".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kubernetes.client import (
    V1Condition,
    V1LabelSelector,
    V1LabelSelectorRequirement,
    V1ObjectMeta,
    V1OwnerReference,
)

from minikcm.apimachinery import fields, labels, selection
from minikcm.apimachinery.convert import deep_copy, object_meta
from minikcm.apimachinery.field import go_quote
from minikcm.apimachinery.schema import GroupVersionKind
from minikcm.clock import Clock, or_real

# --- request options (types.go) -------------------------------------------------

DELETE_PROPAGATION_ORPHAN = "Orphan"
DELETE_PROPAGATION_BACKGROUND = "Background"
DELETE_PROPAGATION_FOREGROUND = "Foreground"

FINALIZER_ORPHAN_DEPENDENTS = "orphan"
FINALIZER_DELETE_DEPENDENTS = "foregroundDeletion"

DRY_RUN_ALL = "All"

RESOURCE_VERSION_MATCH_NOT_OLDER_THAN = "NotOlderThan"
RESOURCE_VERSION_MATCH_EXACT = "Exact"

INITIAL_EVENTS_ANNOTATION_KEY = "k8s.io/initial-events-end"
"""Port of InitialEventsAnnotationKey: set to "true" on the BOOKMARK that ends a watch-list's initial events."""


@dataclass
class ListOptions:
    """Port of ListOptions (also used for watch, as upstream does).

    `send_initial_events` is Go's `*bool`: None when not sent. With True (and
    resource_version_match NotOlderThan) a watch first streams the current
    objects as ADDED events and marks their end with a BOOKMARK annotated
    INITIAL_EVENTS_ANNOTATION_KEY; with False it starts at the resourceVersion.
    """

    label_selector: str = ""
    field_selector: str = ""
    watch: bool = False
    allow_watch_bookmarks: bool = False
    resource_version: str = ""
    resource_version_match: str = ""
    timeout_seconds: int | None = None
    limit: int = 0
    continue_: str = ""
    send_initial_events: bool | None = None


@dataclass
class GetOptions:
    """Port of GetOptions."""

    resource_version: str = ""


@dataclass
class CreateOptions:
    """Port of CreateOptions."""

    dry_run: list[str] = field(default_factory=list)
    field_manager: str = ""
    field_validation: str = ""


@dataclass
class UpdateOptions:
    """Port of UpdateOptions."""

    dry_run: list[str] = field(default_factory=list)
    field_manager: str = ""
    field_validation: str = ""


@dataclass
class PatchOptions:
    """Port of PatchOptions; `force` only matters for server-side apply."""

    dry_run: list[str] = field(default_factory=list)
    force: bool | None = None
    field_manager: str = ""
    field_validation: str = ""


@dataclass
class Preconditions:
    """Port of Preconditions: a delete only goes ahead when these still match."""

    uid: str | None = None
    resource_version: str | None = None


@dataclass
class DeleteOptions:
    """Port of DeleteOptions."""

    grace_period_seconds: int | None = None
    preconditions: Preconditions | None = None
    propagation_policy: str | None = None
    dry_run: list[str] = field(default_factory=list)


# --- helpers (helpers.go, controller_ref.go, conditions.go) ------------------------

LABEL_SELECTOR_OP_IN = "In"
LABEL_SELECTOR_OP_NOT_IN = "NotIn"
LABEL_SELECTOR_OP_EXISTS = "Exists"
LABEL_SELECTOR_OP_DOES_NOT_EXIST = "DoesNotExist"

# The matchExpressions operators and the selector operators they become.
_LABEL_SELECTOR_OPS = {
    LABEL_SELECTOR_OP_IN: selection.IN,
    LABEL_SELECTOR_OP_NOT_IN: selection.NOT_IN,
    LABEL_SELECTOR_OP_EXISTS: selection.EXISTS,
    LABEL_SELECTOR_OP_DOES_NOT_EXIST: selection.DOES_NOT_EXIST,
}
_SELECTOR_TO_LABEL_SELECTOR_OPS = {v: k for k, v in _LABEL_SELECTOR_OPS.items()}


def label_selector_as_selector(ps: V1LabelSelector | None) -> labels.Selector:
    """Port of LabelSelectorAsSelector (pkg/apis/meta/v1/helpers.go).

    Turns an API `spec.selector` into a selector that can match labels. Tricky,
    and on purpose: a missing selector (None) matches nothing, while an empty
    one ({}) matches everything. matchLabels become `key=value` requirements,
    matchExpressions their In/NotIn/Exists/DoesNotExist counterparts; all must
    hold. The input is not changed.

    Raises:
        ValueError: for an unknown operator, or (labels.RequirementError) an
            invalid key or value, values given to Exists, none given to In, ...
    """
    if ps is None:
        return labels.nothing()
    match_labels = ps.match_labels or {}
    match_expressions = ps.match_expressions or []
    if not match_labels and not match_expressions:
        return labels.everything()
    requirements: list[labels.Requirement] = []
    for k in sorted(match_labels):  # Go: map order; we sort
        requirements.append(labels.new_requirement(k, selection.EQUALS, [match_labels[k]]))
    for expr in match_expressions:
        op = _LABEL_SELECTOR_OPS.get(expr.operator)
        if op is None:
            raise ValueError(f"{go_quote(expr.operator)} is not a valid label selector operator")
        requirements.append(labels.new_requirement(expr.key, op, list(expr.values or [])))
    return labels.new_selector().add(*requirements)


def label_selector_as_map(ps: V1LabelSelector | None) -> dict[str, str] | None:
    """Port of LabelSelectorAsMap (pkg/apis/meta/v1/helpers.go).

    The selector as a plain `key: value` map, which is only possible for
    matchLabels and In expressions with exactly one value. None gives None.

    Raises:
        ValueError: for NotIn, Exists, DoesNotExist, an In without exactly one
            value, or an unknown operator.
    Differs from Go: Go also returns the map built so far beside the error.
    """
    if ps is None:
        return None
    selector = dict(ps.match_labels or {})
    for expr in ps.match_expressions or []:
        op = expr.operator
        if op == LABEL_SELECTOR_OP_IN:
            values = expr.values or []
            if len(values) != 1:
                raise ValueError(f"operator {go_quote(op)} without a single value cannot be converted "
                                 "into the old label selector format")
            selector[expr.key] = values[0]
        elif op in (LABEL_SELECTOR_OP_NOT_IN, LABEL_SELECTOR_OP_EXISTS, LABEL_SELECTOR_OP_DOES_NOT_EXIST):
            raise ValueError(f"operator {go_quote(op)} cannot be converted into the old label selector format")
        else:
            raise ValueError(f"{go_quote(op)} is not a valid selector operator")
    return selector


def parse_to_label_selector(selector: str) -> V1LabelSelector:
    """Port of ParseToLabelSelector (pkg/apis/meta/v1/helpers.go).

    The reverse of format_label_selector: `a=b,c in (d)` becomes matchLabels
    {a: b} and an In expression on c.

    Raises:
        ValueError: for a string labels.parse rejects, or `>`/`<` requirements,
            which API label selectors cannot express.
    """
    try:
        reqs = labels.parse_to_requirements(selector)
    except ValueError as err:
        raise ValueError(f'couldn\'t parse the selector string "{selector}": {err}') from err
    match_labels: dict[str, str] = {}
    match_expressions: list[V1LabelSelectorRequirement] = []
    for req in reqs:
        operator = req.operator
        if operator in (selection.EQUALS, selection.DOUBLE_EQUALS):
            values = req.values()
            if len(values) != 1:
                raise ValueError("equals operator must have exactly one value")
            match_labels[req.key] = next(iter(values))
            continue
        if operator in (selection.GREATER_THAN, selection.LESS_THAN):
            raise ValueError(f"{go_quote(operator)} isn't supported in label selectors")
        op = _SELECTOR_TO_LABEL_SELECTOR_OPS.get(operator)
        if op is None:
            raise ValueError(f"{go_quote(operator)} is not a valid label selector operator")
        match_expressions.append(
            V1LabelSelectorRequirement(key=req.key, operator=op, values=sorted(req.values()))
        )
    return V1LabelSelector(match_labels=match_labels, match_expressions=match_expressions)


def set_as_label_selector(ls: Mapping[str, str] | None) -> V1LabelSelector | None:
    """Port of SetAsLabelSelector (pkg/apis/meta/v1/helpers.go): matchLabels from a label set."""
    if ls is None:
        return None
    return V1LabelSelector(match_labels=dict(ls))


def format_label_selector(label_selector: V1LabelSelector | None) -> str:
    """Port of FormatLabelSelector (pkg/apis/meta/v1/helpers.go).

    The selector in string form for messages and kubectl columns: "<none>" when
    it selects without restriction or is missing, "<error>" when invalid.
    """
    try:
        selector = label_selector_as_selector(label_selector)
    except ValueError:
        return "<error>"
    return str(selector) or "<none>"


def has_annotation(obj: V1ObjectMeta, ann: str) -> bool:
    """Port of HasAnnotation (pkg/apis/meta/v1/helpers.go)."""
    return ann in (obj.annotations or {})


def set_meta_data_annotation(obj: V1ObjectMeta, ann: str, value: str) -> None:
    """Port of SetMetaDataAnnotation (pkg/apis/meta/v1/helpers.go): creates the map when unset."""
    if obj.annotations is None:
        obj.annotations = {}
    obj.annotations[ann] = value


def has_label(obj: V1ObjectMeta, label: str) -> bool:
    """Port of HasLabel (pkg/apis/meta/v1/helpers.go)."""
    return label in (obj.labels or {})


def set_meta_data_label(obj: V1ObjectMeta, label: str, value: str) -> None:
    """Port of SetMetaDataLabel (pkg/apis/meta/v1/helpers.go): creates the map when unset."""
    if obj.labels is None:
        obj.labels = {}
    obj.labels[label] = value


def single_object(meta: V1ObjectMeta) -> ListOptions:
    """Port of SingleObject (pkg/apis/meta/v1/helpers.go): list/watch options for one object by name."""
    return ListOptions(
        field_selector=str(fields.one_term_equal_selector("metadata.name", meta.name or "")),
        resource_version=meta.resource_version or "",
    )


def new_delete_options(grace: int) -> DeleteOptions:
    """Port of NewDeleteOptions (pkg/apis/meta/v1/helpers.go): delete within `grace` seconds (0: now)."""
    return DeleteOptions(grace_period_seconds=grace)


def new_precondition_delete_options(uid: str) -> DeleteOptions:
    """Port of NewPreconditionDeleteOptions (pkg/apis/meta/v1/helpers.go): delete only this UID."""
    return DeleteOptions(preconditions=Preconditions(uid=uid))


def new_uid_preconditions(uid: str) -> Preconditions:
    """Port of NewUIDPreconditions (pkg/apis/meta/v1/helpers.go)."""
    return Preconditions(uid=uid)


def new_rv_deletion_precondition(rv: str) -> DeleteOptions:
    """Port of NewRVDeletionPrecondition (pkg/apis/meta/v1/helpers.go): delete only at this resourceVersion."""
    return DeleteOptions(preconditions=Preconditions(resource_version=rv))


# --- controller_ref.go -------------------------------------------------------------------


def is_controlled_by(obj: Any, owner: Any) -> bool:
    """Port of IsControlledBy (pkg/apis/meta/v1/controller_ref.go).

    True when `obj`'s controller reference points at `owner`'s UID. Both may be
    models or wire dicts.
    """
    ref = get_controller_of_no_copy(obj)
    if ref is None:
        return False
    return ref.uid == (object_meta(owner).uid or "")


def get_controller_of(controllee: Any) -> V1OwnerReference | None:
    """Port of GetControllerOf (pkg/apis/meta/v1/controller_ref.go): a copy of the controller reference."""
    ref = get_controller_of_no_copy(controllee)
    if ref is None:
        return None
    return ref.model_copy()


def get_controller_of_no_copy(controllee: Any) -> V1OwnerReference | None:
    """Port of GetControllerOfNoCopy (pkg/apis/meta/v1/controller_ref.go).

    The first owner reference with `controller: true`, or None. For a model
    this is the object's own reference (do not change it: the object may be
    shared with a cache); for a wire dict a freshly built model.
    """
    for ref in object_meta(controllee).owner_references or []:
        if ref.controller:
            return ref
    return None


def new_controller_ref(owner: Any, gvk: GroupVersionKind) -> V1OwnerReference:
    """Port of NewControllerRef (pkg/apis/meta/v1/controller_ref.go).

    An owner reference to `owner` that marks it as the controller and blocks
    the owner's foreground deletion until this dependent is gone.
    """
    meta = object_meta(owner)
    return V1OwnerReference(
        api_version=gvk.group_version(),
        kind=gvk.kind,
        name=meta.name or "",
        uid=meta.uid or "",
        block_owner_deletion=True,
        controller=True,
    )


# --- labels.go (meta/v1) -----------------------------------------------------------------


def clone_selector_and_add_label(
    selector: V1LabelSelector, label_key: str, label_value: str
) -> V1LabelSelector:
    """Port of CloneSelectorAndAddLabel (pkg/apis/meta/v1/labels.go).

    A copy of `selector` that also requires `label_key=label_value`; the
    selector itself when `label_key` is empty.
    """
    if label_key == "":
        return selector
    new_selector = deep_copy(selector)
    if new_selector.match_labels is None:
        new_selector.match_labels = {}
    new_selector.match_labels[label_key] = label_value
    return new_selector


def add_label_to_selector(selector: V1LabelSelector, label_key: str, label_value: str) -> V1LabelSelector:
    """Port of AddLabelToSelector (pkg/apis/meta/v1/labels.go): like the clone, but in place."""
    if label_key == "":
        return selector
    if selector.match_labels is None:
        selector.match_labels = {}
    selector.match_labels[label_key] = label_value
    return selector


def selector_has_label(selector: V1LabelSelector, label_key: str) -> bool:
    """Port of SelectorHasLabel (pkg/apis/meta/v1/labels.go): matchLabels has a non-empty value for the key."""
    return len((selector.match_labels or {}).get(label_key, "")) > 0


# --- conditions.go (k8s.io/apimachinery/pkg/api/meta) -----------------------------------

CONDITION_TRUE = "True"
CONDITION_FALSE = "False"
CONDITION_UNKNOWN = "Unknown"


def set_status_condition(
    conditions: list[V1Condition] | None, new_condition: V1Condition, clock: Clock | None = None
) -> bool:
    """Port of SetStatusCondition (pkg/api/meta/conditions.go).

    Adds `new_condition` to `conditions` (in place), or updates the condition of
    the same type. The transition time moves only when the status changes:
    to `new_condition`'s time if set, else to now. Returns whether anything changed.

    Differs from Go: "now" comes from `clock` (default: the real clock); the
    appended condition is a copy, as Go appends a copy of its value argument.
    """
    if conditions is None:
        return False
    existing = find_status_condition(conditions, new_condition.type)
    if existing is None:
        added = new_condition.model_copy()
        if added.last_transition_time is None:
            added.last_transition_time = or_real(clock).now()
        conditions.append(added)
        return True
    changed = False
    if existing.status != new_condition.status:
        existing.status = new_condition.status
        if new_condition.last_transition_time is not None:
            existing.last_transition_time = new_condition.last_transition_time
        else:
            existing.last_transition_time = or_real(clock).now()
        changed = True
    if existing.reason != new_condition.reason:
        existing.reason = new_condition.reason
        changed = True
    if existing.message != new_condition.message:
        existing.message = new_condition.message
        changed = True
    if existing.observed_generation != new_condition.observed_generation:
        existing.observed_generation = new_condition.observed_generation
        changed = True
    return changed


def remove_status_condition(conditions: list[V1Condition] | None, condition_type: str) -> bool:
    """Port of RemoveStatusCondition (pkg/api/meta/conditions.go): drops that type in place."""
    if not conditions:
        return False
    kept = [c for c in conditions if c.type != condition_type]
    removed = len(kept) != len(conditions)
    conditions[:] = kept
    return removed


def find_status_condition(conditions: list[V1Condition] | None, condition_type: str) -> V1Condition | None:
    """Port of FindStatusCondition (pkg/api/meta/conditions.go): the live condition of that type, or None."""
    for c in conditions or []:
        if c.type == condition_type:
            return c
    return None


def is_status_condition_true(conditions: list[V1Condition] | None, condition_type: str) -> bool:
    """Port of IsStatusConditionTrue (pkg/api/meta/conditions.go)."""
    return is_status_condition_present_and_equal(conditions, condition_type, CONDITION_TRUE)


def is_status_condition_false(conditions: list[V1Condition] | None, condition_type: str) -> bool:
    """Port of IsStatusConditionFalse (pkg/api/meta/conditions.go)."""
    return is_status_condition_present_and_equal(conditions, condition_type, CONDITION_FALSE)


def is_status_condition_present_and_equal(
    conditions: list[V1Condition] | None, condition_type: str, status: str
) -> bool:
    """Port of IsStatusConditionPresentAndEqual (pkg/api/meta/conditions.go): the first of that type has `status`."""
    for c in conditions or []:
        if c.type == condition_type:
            return c.status == status
    return False
