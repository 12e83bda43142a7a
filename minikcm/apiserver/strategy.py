"""No upstream twin. Per-resource rules of the embedded API server, after pkg/registry/*/strategy.go.

Upstream gives each resource a strategy object (PrepareForCreate,
PrepareForUpdate, AllowUnconditionalUpdate, CheckGracefulDelete, ...) and a
second one for its status subresource. Here each resource is one row of
`STRATEGIES` (the yes/no answers) and the few functions below hold the
behaviour, branching on the resource name so that a reader finds every rule for
every resource on one screen. The generic flow that calls them is
`minikcm.apiserver.registry`.

Start reading at: prepare_for_create, prepare_for_update, prepare_for_status_update.

Not ported: dropping of disabled feature-gated fields, warnings, managed-fields
reset sets, pod affinity / topology mutation, AppArmor skew handling.
Differs from upstream:
- Pod QoS class is computed from resource strings as written (`"1"` and
  `"1000m"` count as different), which only matters for hand-written pods.
- Service ClusterIPs come from a simple counter (`ClusterIPAllocator`), not the
  bitmap allocator, and are never released.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kubernetes.client import V1LabelSelector

from minikcm.apimachinery import field, meta
from minikcm.apimachinery.schema import resource_info

GC_DELETE_DEPENDENTS = "DeleteDependents"
GC_ORPHAN_DEPENDENTS = "OrphanDependents"
GC_UNSUPPORTED = "Unsupported"

FINALIZER_KUBERNETES = "kubernetes"
"""The namespace spec finalizer the namespace lifecycle removes once the namespace is empty."""


@dataclass(frozen=True)
class Strategy:
    """The yes/no answers of one resource's upstream REST strategies."""

    resource: str
    tracks_generation: bool = False
    """metadata.generation starts at 1 and grows on spec changes."""
    has_status: bool = False
    """A status subresource exists: the main resource ignores status changes."""
    allow_create_on_update: bool = False
    allow_unconditional_update: bool = True
    """An update without metadata.resourceVersion overwrites (instead of 422)."""
    graceful_delete: bool = False
    """Deletion may wait for a grace period (CheckGracefulDelete)."""
    return_deleted_object: bool = False
    """DELETE answers with the object instead of a Success Status."""
    gc_policy: str = GC_DELETE_DEPENDENTS
    """Port of DefaultGarbageCollectionPolicy for the served version (apps/v1, core/v1)."""

    @property
    def namespaced(self) -> bool:
        return resource_info(self.resource).namespaced


STRATEGIES: dict[str, Strategy] = {s.resource: s for s in (
    Strategy("namespaces", has_status=True, return_deleted_object=True),
    Strategy("nodes", has_status=True),  # create takes the status as given (nodes register with it)
    Strategy("pods", tracks_generation=True, has_status=True, graceful_delete=True,
             return_deleted_object=True),
    Strategy("events", allow_create_on_update=True),
    Strategy("persistentvolumeclaims", has_status=True),
    Strategy("services", has_status=True),
    Strategy("deployments", tracks_generation=True, has_status=True),
    Strategy("replicasets", tracks_generation=True, has_status=True),
    Strategy("statefulsets", tracks_generation=True, has_status=True),
    Strategy("controllerrevisions"),
    Strategy("leases", allow_unconditional_update=False),
)}
"""One row per served resource."""

SCALABLE = ("deployments", "replicasets", "statefulsets")
"""Resources with a scale subresource."""


class ClusterIPAllocator:
    """Hands out service ClusterIPs 10.96.0.10, 10.96.0.11, ... in order (deterministic)."""

    def __init__(self) -> None:
        self._next = 10

    def allocate(self) -> str:
        n, self._next = self._next, self._next + 1
        return f"10.96.{n // 256}.{n % 256}"


def _meta(obj: dict[str, Any]) -> dict[str, Any]:
    meta: dict[str, Any] = obj.setdefault("metadata", {})
    return meta


# --- create ---------------------------------------------------------------------------


def prepare_for_create(resource: str, obj: dict[str, Any], ips: ClusterIPAllocator) -> None:
    """Port of the PrepareForCreate methods (pkg/registry/<group>/<resource>/strategy.go).

    Clear what users may not set, start counters.

    Status is reset to its initial value (users cannot create an object with a
    status), generation starts at 1 where tracked, and a few resources get
    server-assigned values (namespace finalizer, service ClusterIP).
    """
    if STRATEGIES[resource].tracks_generation:
        _meta(obj)["generation"] = 1
    if resource == "pods":
        obj["status"] = {"phase": "Pending", "qosClass": get_pod_qos(obj)}
    elif resource == "deployments":
        obj["status"] = {}
    elif resource == "replicasets":
        obj["status"] = {"replicas": 0}
    elif resource == "statefulsets":
        obj["status"] = {"replicas": 0, "availableReplicas": 0}
    elif resource == "persistentvolumeclaims":
        obj["status"] = {"phase": "Pending"}
    elif resource == "namespaces":
        obj["status"] = {"phase": "Active"}
        spec = obj.setdefault("spec", {})
        finalizers = spec.get("finalizers") or []
        if FINALIZER_KUBERNETES not in finalizers:
            spec["finalizers"] = [*finalizers, FINALIZER_KUBERNETES]
    elif resource == "services":
        obj["status"] = {"loadBalancer": {}}
        spec = obj.setdefault("spec", {})
        if spec.get("type") != "ExternalName" and not spec.get("clusterIP"):
            ip = ips.allocate()
            spec["clusterIP"], spec["clusterIPs"] = ip, [ip]


def get_pod_qos(pod: dict[str, Any]) -> str:
    """Port of qos.GetPodQOS (pkg/apis/core/helper/qos/qos.go).

    Simplified: BestEffort, Guaranteed or Burstable.

    BestEffort: no container requests or limits cpu or memory. Guaranteed: every
    container limits both, and any requests equal the limits. Otherwise Burstable.
    """
    spec = pod.get("spec") or {}
    containers = (spec.get("containers") or []) + (spec.get("initContainers") or [])
    compute = ("cpu", "memory")
    any_set = False
    guaranteed = True
    for c in containers:
        resources = c.get("resources") or {}
        requests, limits = resources.get("requests") or {}, resources.get("limits") or {}
        if any(requests.get(r) not in (None, "0") or limits.get(r) not in (None, "0")
               for r in compute):
            any_set = True
        for r in compute:
            if r not in limits or (r in requests and str(requests[r]) != str(limits[r])):
                guaranteed = False
    if not any_set:
        return "BestEffort"
    return "Guaranteed" if guaranteed else "Burstable"


# --- update ---------------------------------------------------------------------------


def prepare_for_update(resource: str, new: dict[str, Any], old: dict[str, Any]) -> None:
    """Port of the PrepareForUpdate methods (pkg/registry/<group>/<resource>/strategy.go).

    For the main resource.

    The main resource cannot change status (the status subresource does that);
    a changed spec bumps metadata.generation (for Deployments, changed
    annotations too, since they are copied to ReplicaSets).
    """
    strategy = STRATEGIES[resource]
    if strategy.has_status:
        if "status" in old:
            new["status"] = old["status"]
        else:
            new.pop("status", None)
    if resource == "namespaces":
        new.setdefault("spec", {})["finalizers"] = (old.get("spec") or {}).get("finalizers", [])
    if resource == "services":
        _keep_allocated_ips(new, old)
    if strategy.tracks_generation:
        changed = new.get("spec") != old.get("spec")
        if resource == "deployments":
            changed = changed or (_meta(new).get("annotations") or {}) != (
                _meta(old).get("annotations") or {})
        if changed:
            _meta(new)["generation"] = (_meta(old).get("generation") or 0) + 1


def _keep_allocated_ips(new: dict[str, Any], old: dict[str, Any]) -> None:
    """Port of patchAllocatedValues (pkg/registry/core/service/storage/storage.go).

    An update that leaves out the ClusterIP keeps the old one.
    """
    new_spec, old_spec = new.setdefault("spec", {}), old.get("spec") or {}
    if not new_spec.get("clusterIP") and old_spec.get("clusterIP"):
        new_spec["clusterIP"] = old_spec["clusterIP"]
        if old_spec.get("clusterIPs"):
            new_spec["clusterIPs"] = old_spec["clusterIPs"]


def prepare_for_status_update(resource: str, new: dict[str, Any], old: dict[str, Any]) -> None:
    """Port of the status strategies' PrepareForUpdate (pkg/registry/<group>/<resource>/strategy.go).

    The status subresource ignores spec.

    Deployments also keep their labels; pods keep their owner references, QoS
    class and observedGeneration when the new status leaves them out.
    """
    if "spec" in old:
        new["spec"] = old["spec"]
    else:
        new.pop("spec", None)
    if resource == "deployments":
        _copy_meta_field(new, old, "labels")
    elif resource == "pods":
        _copy_meta_field(new, old, "ownerReferences")
        _meta(new).pop("deletionTimestamp", None)  # put back from old by the generic update
        status, old_status = new.setdefault("status", {}), old.get("status") or {}
        for key in ("qosClass", "observedGeneration"):
            if not status.get(key) and old_status.get(key):
                status[key] = old_status[key]


def _copy_meta_field(new: dict[str, Any], old: dict[str, Any], key: str) -> None:
    if key in _meta(old):
        _meta(new)[key] = _meta(old)[key]
    else:
        _meta(new).pop(key, None)


# --- delete ---------------------------------------------------------------------------


def check_graceful_delete(resource: str, obj: dict[str, Any], grace_period_seconds: int | None) -> int | None:
    """Port of podStrategy.CheckGracefulDelete (pkg/registry/core/pod/strategy.go).

    The grace period to use, or None if not graceful.

    For pods: the requested period, else spec.terminationGracePeriodSeconds
    (else 0); 0 for a pod that was never scheduled or has already finished;
    negative periods become 1. Other resources are not deleted gracefully.
    """
    if not STRATEGIES[resource].graceful_delete:
        return None
    spec, status = obj.get("spec") or {}, obj.get("status") or {}
    if grace_period_seconds is not None:
        period = grace_period_seconds
    else:
        period = spec.get("terminationGracePeriodSeconds") or 0
    if not spec.get("nodeName"):
        period = 0
    if status.get("phase") in ("Failed", "Succeeded"):
        period = 0
    return 1 if period < 0 else period


# --- scale subresource ------------------------------------------------------------------


def scale_from_object(resource: str, obj: dict[str, Any]) -> dict[str, Any]:
    """Port of scaleFromDeployment (pkg/registry/apps/deployment/storage/storage.go).

    Likewise scaleFromReplicaSet and scaleFromStatefulSet.

    An autoscaling/v1 Scale whose metadata mirrors the object's (name, namespace,
    uid, resourceVersion, creationTimestamp), spec.replicas the desired count,
    status.replicas the observed one and status.selector the label selector as
    a string (`app=web`).
    """
    m = obj.get("metadata") or {}
    scale_meta = {k: m[k] for k in ("name", "namespace", "uid", "resourceVersion",
                                    "creationTimestamp") if m.get(k)}
    replicas = (obj.get("spec") or {}).get("replicas") or 0
    status: dict[str, Any] = {"replicas": (obj.get("status") or {}).get("replicas") or 0}
    selector = (obj.get("spec") or {}).get("selector")
    if selector is not None:
        as_string = str(meta.label_selector_as_selector(V1LabelSelector.model_validate(selector)))
        if as_string:
            status["selector"] = as_string
    return {"kind": "Scale", "apiVersion": "autoscaling/v1", "metadata": scale_meta,
            "spec": {"replicas": replicas} if replicas else {}, "status": status}


def validate_scale(scale: dict[str, Any]) -> list[field.Error]:
    """Port of ValidateScale (pkg/apis/autoscaling/validation/validation.go).

    spec.replicas must not be negative.
    """
    errs: list[field.Error] = []
    replicas = (scale.get("spec") or {}).get("replicas") or 0
    if not isinstance(replicas, int) or isinstance(replicas, bool):
        errs.append(field.invalid(field.new_path("spec", "replicas"), replicas,
                                  "must be an integer"))
    elif replicas < 0:
        errs.append(field.invalid(field.new_path("spec", "replicas"), replicas,
                                  "must be greater than or equal to 0"))
    return errs
