"""No upstream twin as a file. The Node checks of pkg/apis/core/validation/validation.go, called from validation.

kube-apiserver validates a Node with ValidateNode on create and with
ValidateNode plus ValidateNodeUpdate on update; the status subresource runs
ValidateNodeUpdate alone (pkg/registry/core/node/strategy.go). They live here
rather than in core_validation so that module stays readable; the functions
keep their Go names and order.

Start reading at: validate_node, then validate_node_update.

Not ported: the deprecated `spec.configSource` / `status.config` checks (the
field is gone from the v1 client models minikcm uses), the taint and
avoid-pods annotations (ValidateNodeSpecificAnnotations: both annotations are
obsolete).
Tricky, as upstream: taints are reported under `metadata.taints`, not
`spec.taints` (ValidateNode builds the path from the metadata path).
"""

from __future__ import annotations

import ipaddress
from fractions import Fraction
from typing import Any

from minikcm.apimachinery import field
from minikcm.apimachinery.field import ErrorList, Path, new_path
from minikcm.apimachinery.resource import interpret_suffix, parse_quantity_string, quantity_error
from minikcm.apimachinery.validation import (
    is_qualified_name,
    is_valid_label_value,
    name_is_dns_subdomain,
    validate_label_name,
)
from minikcm.apiserver.core_validation import spec_of, status_of, validate_object_meta, validate_object_meta_update

validate_node_name = name_is_dns_subdomain
"""Port of ValidateNodeName (pkg/apis/core/validation/validation.go). A node name is a DNS subdomain."""

TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")
"""The supported taint effects (core.TaintEffect constants)."""

INTEGER_RESOURCES = frozenset({
    "pods", "services", "replicationcontrollers", "resourcequotas", "secrets", "configmaps",
    "persistentvolumeclaims", "services.nodeports", "services.loadbalancers",
})
"""Port of integerResources (pkg/apis/core/helper/helpers.go)."""


def quantity_value(text: str) -> Fraction:
    """The exact value of a quantity string (`500m` -> 1/2, `1Gi` -> 2**30).

    Raises:
        ValueError: the string is not a quantity (resource.quantity_error's message).
    """
    problem = quantity_error(text)
    if problem:
        raise ValueError(problem)
    positive, _value, num, denom, suffix = parse_quantity_string(text)
    interpreted = interpret_suffix(suffix)
    assert interpreted is not None  # quantity_error checked the suffix
    base, exponent, _fmt = interpreted
    number = Fraction(int(num or "0")) + (Fraction(int(denom), 10 ** len(denom)) if denom else 0)
    value = number * Fraction(base) ** exponent
    return value if positive else -value


def is_extended_resource_name(name: str) -> bool:
    """Port of IsExtendedResourceName (pkg/apis/core/helper/helpers.go).

    Not native (no `kubernetes.io/` domain, not `requests.`-prefixed) and fully qualified.
    """
    if "/" not in name or name.startswith("requests."):
        return False
    domain = name.split("/", 1)[0]
    if domain == "kubernetes.io" or domain.endswith(".kubernetes.io"):
        return False
    return not is_qualified_name(f"requests.{name}")


def is_integer_resource_name(name: str) -> bool:
    """Port of IsIntegerResourceName (pkg/apis/core/helper/helpers.go)."""
    return name in INTEGER_RESOURCES or is_extended_resource_name(name)


def validate_resource_quantity_value(resource: str, value: Any, fld_path: Path) -> ErrorList:
    """Port of ValidateResourceQuantityValue (pkg/apis/core/validation/validation.go).

    Non-negative, and a whole number for integer resources (pods, extended resources).
    """
    errs = ErrorList()
    try:
        amount = quantity_value(str(value))
    except ValueError as err:
        errs.append(field.invalid(fld_path, value, str(err)))
        return errs
    if amount < 0:
        errs.append(field.invalid(fld_path, value, "must be greater than or equal to 0"))
    if is_integer_resource_name(resource) and amount.denominator != 1:
        errs.append(field.invalid(fld_path, value, "must be an integer"))
    return errs


def validate_taint_effect(effect: str, allow_empty: bool, fld_path: Path) -> ErrorList:
    """Port of validateTaintEffect (pkg/apis/core/validation/validation.go)."""
    errs = ErrorList()
    if not effect and not allow_empty:
        errs.append(field.required(fld_path, ""))
        return errs
    if effect not in TAINT_EFFECTS:
        errs.append(field.not_supported(fld_path, effect, TAINT_EFFECTS))
    return errs


def validate_node_taints(taints: list[dict[str, Any]], fld_path: Path) -> ErrorList:
    """Port of validateNodeTaints (pkg/apis/core/validation/validation.go).

    Key a label name, value a label value, a known effect, unique (key, effect).
    """
    errs = ErrorList()
    seen: set[tuple[str, str]] = set()
    for i, taint in enumerate(taints):
        idx_path = fld_path.index(i)
        key, value, effect = taint.get("key") or "", taint.get("value") or "", taint.get("effect") or ""
        errs.extend(validate_label_name(key, idx_path.child("key")))
        problems = is_valid_label_value(value)
        if problems:
            errs.append(field.invalid(idx_path.child("value"), value, ";".join(problems)))
        errs.extend(validate_taint_effect(effect, False, idx_path.child("effect")))
        if (effect, key) in seen:
            dup = field.duplicate(idx_path, taint)
            dup.detail = "taints must be unique by key and effect pair"
            errs.append(dup)
            continue
        seen.add((effect, key))
    return errs


def validate_node(node: dict[str, Any]) -> ErrorList:
    """Port of ValidateNode (pkg/apis/core/validation/validation.go)."""
    fld_path = new_path("metadata")
    errs = validate_object_meta(node.get("metadata"), False, validate_node_name, fld_path)
    taints = spec_of(node).get("taints") or []
    if taints:
        errs.extend(validate_node_taints(taints, fld_path.child("taints")))
    errs.extend(validate_node_resources(node))
    pod_cidrs = spec_of(node).get("podCIDRs") or []
    if pod_cidrs:
        cidrs_path = new_path("spec", "podCIDRs")
        networks = []
        for idx, value in enumerate(pod_cidrs):
            try:
                networks.append(ipaddress.ip_network(value, strict=False))
            except ValueError:
                errs.append(field.invalid(cidrs_path.index(idx), pod_cidrs, "must be valid CIDR"))
        if len(pod_cidrs) > 1:
            families = {n.version for n in networks}
            if len(pod_cidrs) > 2 or len(networks) != len(pod_cidrs) or len(families) != 2:
                errs.append(field.invalid(cidrs_path, pod_cidrs,
                                          "may specify no more than one CIDR for each IP family"))
            seen: set[str] = set()
            for i, value in enumerate(pod_cidrs):
                if value in seen:
                    errs.append(field.duplicate(cidrs_path.index(i), value))
                seen.add(value)
    return errs


def validate_node_resources(node: dict[str, Any]) -> ErrorList:
    """Port of ValidateNodeResources (pkg/apis/core/validation/validation.go).

    Capacity and allocatable hold valid quantities.
    """
    errs = ErrorList()
    status = status_of(node)
    for key in ("capacity", "allocatable"):
        for name, value in sorted((status.get(key) or {}).items()):
            errs.extend(validate_resource_quantity_value(name, value, new_path("status", key, name)))
    return errs


def validate_node_update(node: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidateNodeUpdate (pkg/apis/core/validation/validation.go).

    Status and metadata may change; of the spec, podCIDRs and providerID only
    from unset to a value; unschedulable and taints freely.
    """
    fld_path = new_path("metadata")
    errs = validate_object_meta_update(node.get("metadata"), old.get("metadata"), fld_path)
    errs.extend(validate_node_resources(node))
    seen: list[dict[str, Any]] = []
    for i, address in enumerate(status_of(node).get("addresses") or []):
        if address in seen:
            errs.append(field.duplicate(new_path("status", "addresses").index(i), address))
        seen.append(address)
    new_spec, old_spec = spec_of(node), spec_of(old)
    old_cidrs, new_cidrs = old_spec.get("podCIDRs") or [], new_spec.get("podCIDRs") or []
    if old_cidrs:
        message = 'node updates may not change podCIDR except from "" to valid'
        if len(old_cidrs) != len(new_cidrs):
            errs.append(field.forbidden(new_path("spec", "podCIDRs"), message))
        else:
            errs.extend(field.forbidden(new_path("spec", "podCIDRs"), message)
                        for a, b in zip(old_cidrs, new_cidrs) if a != b)
    old_provider = old_spec.get("providerID") or ""
    if old_provider and old_provider != (new_spec.get("providerID") or ""):
        errs.append(field.forbidden(new_path("spec", "providerID"),
                                    'node updates may not change providerID except from "" to valid'))
    taints = new_spec.get("taints") or []
    if taints:
        errs.extend(validate_node_taints(taints, fld_path.child("taints")))
    if (new_spec.get("externalID") or "") != (old_spec.get("externalID") or ""):
        errs.append(field.forbidden(new_path("spec", "externalID"), "may not be updated"))
    return errs

