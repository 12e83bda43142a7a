"""No upstream twin. Validation for the embedded API server: which upstream validator runs when.

The server validates every write after defaulting it, and answers a non-empty
error list with 422 Invalid, as kube-apiserver's registry strategies do. The
entry points pick, per resource, what the strategies call:

- `validate_object`: create (the strategies' Validate);
- `validate_object_update`: update and patch (ValidateUpdate);
- `validate_status_update`: the status subresource (the status strategies).

The per-kind checks live in core_validation (pkg/apis/core/validation) and
apps_validation (pkg/apis/apps/validation); core/v1 events (events.go) and
leases (pkg/apis/coordination/validation) are small enough to live here. The
generic pieces (names, labels, ObjectMeta) are in minikcm.apimachinery.validation.

Start reading at: validate_object, then apps_validation.validate_deployment_spec.

Not ported: events.k8s.io events (only the core/v1 legacy checks run, as
upstream does for that version), warnings (WarningsOnCreate/Update).
Differs from Go:
- ReplicaSet updates validate the new spec once (upstream's strategy runs
  the spec checks twice and reports every error twice).
- The apps/v1 selector immutability of Deployments and ReplicaSets is added
  here; upstream's strategies got it from the request's group version.
"""

from __future__ import annotations

from typing import Any

from minikcm.apimachinery import field
from minikcm.apimachinery import validation as meta_validation
from minikcm.apimachinery.field import ErrorList, Path, new_path
from minikcm.apimachinery.validation import is_qualified_name, name_is_dns_subdomain, validate_immutable_field
from minikcm.apiserver.apps_validation import (
    validate_controller_revision,
    validate_controller_revision_update,
    validate_deployment,
    validate_deployment_status_update,
    validate_deployment_update,
    validate_replica_set,
    validate_replica_set_status_update,
    validate_stateful_set,
    validate_stateful_set_status_update,
    validate_stateful_set_update,
)
from minikcm.apiserver.core_validation import (
    spec_of,
    validate_namespace,
    validate_namespace_status_update,
    validate_namespace_update,
    validate_object_meta_update,
    validate_persistent_volume_claim,
    validate_persistent_volume_claim_update,
    validate_pod_create,
    validate_pod_status_update,
    validate_pod_update,
    validate_service,
    validate_service_update,
)
from minikcm.apiserver.node_validation import validate_node, validate_node_update


def validate_object(resource: str, obj: dict[str, Any]) -> list[field.Error]:
    """Validate `obj` (a wire dict of plural `resource`) for creation."""
    match resource:
        case "pods":
            return validate_pod_create(obj)
        case "deployments":
            return validate_deployment(obj)
        case "replicasets":
            return validate_replica_set(obj)
        case "statefulsets":
            return validate_stateful_set(obj)
        case "controllerrevisions":
            return validate_controller_revision(obj)
        case "persistentvolumeclaims":
            return validate_persistent_volume_claim(obj)
        case "services":
            return validate_service(obj)
        case "namespaces":
            return validate_namespace(obj)
        case "events":
            return validate_event_create(obj)
        case "leases":
            return validate_lease(obj)
        case "nodes":
            return validate_node(obj)
    return ErrorList()


def validate_object_update(resource: str, new: dict[str, Any], old: dict[str, Any]) -> list[field.Error]:
    """Validate an update (PUT or PATCH result) of `old` into `new`."""
    match resource:
        case "pods":
            return validate_pod_update(new, old)
        case "deployments":
            errs = validate_deployment_update(new, old)
            errs.extend(
                validate_immutable_field(
                    spec_of(new).get("selector"), spec_of(old).get("selector"), new_path("spec", "selector")
                )
            )
            return errs
        case "replicasets":
            errs = validate_replica_set(new)
            errs.extend(validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata")))
            errs.extend(
                validate_immutable_field(
                    spec_of(new).get("selector"), spec_of(old).get("selector"), new_path("spec", "selector")
                )
            )
            return errs
        case "statefulsets":
            return validate_stateful_set_update(new, old)
        case "controllerrevisions":
            return validate_controller_revision_update(new, old)
        case "persistentvolumeclaims":
            return validate_persistent_volume_claim_update(new, old)
        case "services":
            return validate_service_update(new, old)
        case "namespaces":
            return ErrorList(validate_namespace(new) + validate_namespace_update(new, old))
        case "events":
            return validate_event_update(new, old)
        case "leases":
            return validate_lease_update(new, old)
        case "nodes":
            return ErrorList(validate_node(new) + validate_node_update(new, old))
    return ErrorList()


def validate_status_update(resource: str, new: dict[str, Any], old: dict[str, Any]) -> list[field.Error]:
    """Validate a write to the status subresource of `old` giving `new`."""
    match resource:
        case "pods":
            return validate_pod_status_update(new, old)
        case "deployments":
            return validate_deployment_status_update(new, old)
        case "replicasets":
            return validate_replica_set_status_update(new, old)
        case "statefulsets":
            return validate_stateful_set_status_update(new, old)
        case "namespaces":
            return validate_namespace_status_update(new, old)
        case "nodes":
            return validate_node_update(new, old)
    return validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata"))


# --- core/v1 events (pkg/apis/core/validation/events.go) -------------------------------------------


def validate_event_create(event: dict[str, Any]) -> ErrorList:
    """Port of ValidateEventCreate for core/v1: only the legacy checks, as upstream does for v1."""
    return legacy_validate_event(event)


def validate_event_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidateEventUpdate for core/v1: the legacy checks on the new event."""
    del old  # core/v1 events get no update-specific checks
    return legacy_validate_event(new)


def legacy_validate_event(event: dict[str, Any]) -> ErrorList:
    """Port of legacyValidateEvent (pkg/apis/core/validation/events.go).

    Without eventTime (old-style events) the involved object's namespace must
    match the event's (or both be empty/"default"); with eventTime the
    reporting fields are required and lengths capped. The namespace must be
    a DNS subdomain.
    """
    errs = ErrorList()
    namespace = (event.get("metadata") or {}).get("namespace") or ""
    involved_ns = (event.get("involvedObject") or {}).get("namespace") or ""
    involved_path = new_path("involvedObject", "namespace")
    if not event.get("eventTime"):
        if not involved_ns:
            if namespace not in ("", "default"):
                errs.append(field.invalid(involved_path, involved_ns, "does not match event.namespace"))
        elif namespace != involved_ns:
            errs.append(field.invalid(involved_path, involved_ns, "does not match event.namespace"))
    else:
        if not involved_ns and namespace not in ("default", "kube-system"):
            errs.append(field.invalid(involved_path, involved_ns, "does not match event.namespace"))
        controller = event.get("reportingComponent") or ""
        if not controller:
            errs.append(field.required(new_path("reportingController"), ""))
        errs.extend(
            field.invalid(new_path("reportingController"), controller, m) for m in is_qualified_name(controller)
        )
        for key, limit in (("reportingInstance", 128), ("action", 128), ("reason", 128)):
            value = event.get(key) or ""
            if not value:
                errs.append(field.required(new_path(key), ""))
            if len(value) > limit:
                errs.append(field.invalid(new_path(key), "", f"can have at most {limit} characters"))
        if len(event.get("message") or "") > 1024:
            errs.append(field.invalid(new_path("message"), "", "can have at most 1024 characters"))
    errs.extend(
        field.invalid(new_path("namespace"), namespace, m) for m in meta_validation.is_dns1123_subdomain(namespace)
    )
    return errs


# --- coordination: Lease (pkg/apis/coordination/validation/validation.go) ---------------------------


def validate_lease(lease: dict[str, Any]) -> ErrorList:
    """Port of ValidateLease: metadata (apimachinery's checks) and spec."""
    errs = meta_validation.validate_object_meta(
        lease.get("metadata"), True, name_is_dns_subdomain, new_path("metadata")
    )
    errs.extend(validate_lease_spec(spec_of(lease), new_path("spec")))
    return errs


def validate_lease_update(new: dict[str, Any], old: dict[str, Any]) -> ErrorList:
    """Port of ValidateLeaseUpdate: metadata update and spec."""
    errs = meta_validation.validate_object_meta_update(new.get("metadata"), old.get("metadata"), new_path("metadata"))
    errs.extend(validate_lease_spec(spec_of(new), new_path("spec")))
    return errs


def validate_lease_spec(spec: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of ValidateLeaseSpec: duration > 0, transitions >= 0, preferredHolder only with a strategy."""
    errs = ErrorList()
    duration = spec.get("leaseDurationSeconds")
    if duration is not None and duration <= 0:
        errs.append(field.invalid(fld_path.child("leaseDurationSeconds"), duration, "must be greater than 0"))
    transitions = spec.get("leaseTransitions")
    if transitions is not None and transitions < 0:
        errs.append(
            field.invalid(fld_path.child("leaseTransitions"), transitions, "must be greater than or equal to 0")
        )
    strategy = spec.get("strategy")
    if strategy is not None and strategy != "OldestEmulationVersion" and "/" not in strategy:
        errs.append(field.not_supported(fld_path.child("strategy"), strategy, ["OldestEmulationVersion"]))
    if spec.get("preferredHolder") and not strategy:
        errs.append(
            field.forbidden(fld_path.child("preferredHolder"), "may only be specified if `strategy` is defined")
        )
    return errs
