"""No upstream twin. The REST quirks of single resources, after pkg/registry/<group>/<resource>/storage.

Most verbs of most resources are the generic flow in `minikcm.apiserver.registry`.
A few endpoints are not, upstream as here, and each lives in its resource's own
storage.go there:

- the `scale` subresource of deployments, replicasets and statefulsets
  (ScaleREST: reads and writes spec.replicas through an autoscaling/v1 Scale);
- `pods/binding` (BindingREST: how a scheduler assigns a pod to a node);
- namespace deletion (the namespace REST's Delete: mark Terminating first,
  remove only once the `kubernetes` spec finalizer is gone) and its
  `finalize` subresource.

Start reading at: update_scale, then delete_namespace_locked.

Not ported: the pods/eviction, pods/log, pods/exec subresources, statefulset
and deployment `rollback`.
"""

from __future__ import annotations

from typing import Any

from minikcm.apimachinery import errors, field
from minikcm.apimachinery.schema import GroupKind, GroupResource, resource_info
from minikcm.apiserver import deletion
from minikcm.apiserver.deletion import DeleteRequest, format_time
from minikcm.apiserver.registry import (IMMORTAL_NAMESPACES, Registry, scale_resource,
                                        storage_precondition_error)
from minikcm.apiserver.storage import deep_copy_json, object_key
from minikcm.apiserver.strategy import FINALIZER_KUBERNETES, SCALABLE, scale_from_object, validate_scale


# --- scale (pkg/registry/apps/*/storage/storage.go, ScaleREST) ------------------------------


def update_scale(registry: Registry, resource: str, namespace: str, scale: dict[str, Any],
                 dry_run: bool = False) -> dict[str, Any]:
    """Port of ScaleREST.Update (pkg/registry/apps/deployment/storage/storage.go).

    Likewise for replicasets and statefulsets.

    The Scale's spec.replicas (and its resourceVersion, for optimistic
    concurrency) are written into the object, which then goes through the
    main resource's update (so the generation bumps); returns the new Scale.
    """
    if resource not in SCALABLE:
        raise errors.new_not_found(GroupResource(resource_info(resource).group,
                                                 f"{resource}/scale"), "")
    scale = deep_copy_json(scale)
    registry.check_type_meta("autoscaling/v1", "Scale", scale)
    name = (scale.get("metadata") or {}).get("name", "")
    with registry.storage.lock:
        existing = registry.existing_locked(resource, namespace, name, scale_resource(resource))
        errs = validate_scale(scale)
        if errs:
            raise errors.new_invalid(GroupKind("autoscaling", "Scale"), name, errs)
        uid = scale["metadata"].get("uid")
        if uid and uid != existing["metadata"].get("uid"):
            raise errors.new_conflict(scale_resource(resource), name, (
                f"Precondition failed: UID in precondition: {uid}, "
                f"UID in object meta: {existing['metadata'].get('uid', '')}"))
        obj = deep_copy_json(existing)
        obj.setdefault("spec", {})["replicas"] = (scale.get("spec") or {}).get("replicas") or 0
        obj["metadata"]["resourceVersion"] = scale["metadata"].get("resourceVersion", "")
        updated = registry.update(resource, namespace, obj, dry_run=dry_run)
        return scale_from_object(resource, updated)


# --- pods/binding (pkg/registry/core/pod/storage/storage.go, BindingREST) -------------------


def bind_pod(registry: Registry, namespace: str, binding_in: dict[str, Any],
             dry_run: bool = False) -> dict[str, Any]:
    """Port of BindingREST.Create (pkg/registry/core/pod/storage/storage.go).

    Assign a pod to a node.

    This is how a scheduler sets spec.nodeName, which a pod update may not
    change. The pod gets the node and a PodScheduled=True condition; its
    generation does not move. Returns a Success Status.

    Raises:
        StatusError: 422 for a binding without a node, 409 (on `pods/binding`)
            when the pod is already bound or being deleted, NotFound.
    """
    binding = deep_copy_json(binding_in)
    registry.check_type_meta("v1", "Binding", binding)
    bm = binding.setdefault("metadata", {})
    name, target = bm.get("name", ""), binding.get("target") or {}
    errs = []
    if target.get("kind", "Node") not in ("", "Node"):
        errs.append(field.not_supported(field.new_path("target", "kind"), target["kind"],
                                        ["Node", "<empty>"]))
    if not target.get("name"):
        errs.append(field.required(field.new_path("target", "name"), ""))
    if errs:
        raise errors.new_invalid(GroupKind("", "Binding"), name, errs)
    with registry.storage.lock:
        existing = registry.existing_locked("pods", namespace, name)
        m = existing["metadata"]
        for key, label in (("uid", "UID"), ("resourceVersion", "ResourceVersion")):
            want = bm.get(key)
            if want and want != m.get(key):
                raise errors.new_conflict(GroupResource("", "pods"), name, storage_precondition_error(
                    "pods", object_key(existing), f"Precondition failed: {label} in precondition: "
                    f"{want}, {label} in object meta: {m.get(key, '')}"))
        problem = ""
        if m.get("deletionTimestamp"):
            problem = f"pod {name} is being deleted, cannot be assigned to a host"
        elif (existing.get("spec") or {}).get("nodeName"):
            problem = f'pod {name} is already assigned to node "{existing["spec"]["nodeName"]}"'
        elif (existing.get("spec") or {}).get("schedulingGates"):
            problem = f"pod {name} has non-empty .spec.schedulingGates"
        if problem:
            raise errors.new_conflict(GroupResource("", "pods/binding"), name, problem)
        pod = deep_copy_json(existing)
        pod["spec"]["nodeName"] = target["name"]
        if bm.get("annotations"):
            pod["metadata"].setdefault("annotations", {}).update(bm["annotations"])
        conditions = pod.setdefault("status", {}).setdefault("conditions", [])
        scheduled = {"type": "PodScheduled", "status": "True", "lastProbeTime": None,
                     "lastTransitionTime": format_time(registry.clock.now())}
        for i, c in enumerate(conditions):
            if c.get("type") == "PodScheduled":
                if c.get("status") == "True":
                    scheduled["lastTransitionTime"] = c.get("lastTransitionTime")
                conditions[i] = scheduled
                break
        else:
            conditions.append(scheduled)
        registry.storage.update_locked("pods", pod, dry_run)
        return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success"}


# --- namespaces (pkg/registry/core/namespace/storage/storage.go) ---------------------------


def delete_namespace(registry: Registry, name: str, request: DeleteRequest) -> dict[str, Any]:
    """The namespace DELETE endpoint: options checked, then delete_namespace_locked; returns a copy."""
    deletion.validate_delete_options(request)
    with registry.storage.lock:
        existing = registry.existing_locked("namespaces", "", name)
        return deep_copy_json(delete_namespace_locked(registry, existing, request))


def delete_namespace_locked(registry: Registry, existing: dict[str, Any],
                            request: DeleteRequest) -> dict[str, Any]:
    """Port of REST.Delete (pkg/registry/core/namespace/storage/storage.go).

    With the NamespaceLifecycle admission plugin's immortal namespaces.

    The first delete only marks the namespace: deletionTimestamp, phase
    Terminating, GC finalizers as the policy says. The namespace is removed
    by a later delete once its `kubernetes` spec finalizer is gone (see
    `minikcm.apiserver.namespace`); until then a delete is a 409.
    """
    name = existing["metadata"]["name"]
    gr = GroupResource("", "namespaces")
    if name in IMMORTAL_NAMESPACES:
        raise errors.new_forbidden(gr, name, "this namespace may not be deleted")
    uid = existing["metadata"].get("uid", "")
    if request.uid is not None and request.uid != uid:
        raise errors.new_conflict(gr, name, (
            f"Precondition failed: UID in precondition: {request.uid}, UID in object meta: {uid}"))
    deletion.check_preconditions("namespaces", existing, request)
    if not existing["metadata"].get("deletionTimestamp"):
        obj = deep_copy_json(existing)
        obj["metadata"]["deletionTimestamp"] = format_time(registry.clock.now())
        obj.setdefault("status", {})["phase"] = "Terminating"
        finalizers = deletion.namespace_deletion_finalizers(obj, request)
        if finalizers:
            obj["metadata"]["finalizers"] = finalizers
        else:
            obj["metadata"].pop("finalizers", None)
        return registry.storage.update_locked("namespaces", obj, request.dry_run)
    if (existing.get("spec") or {}).get("finalizers"):
        raise errors.new_conflict(gr, name, (
            "The system is ensuring all content is removed from this namespace.  Upon "
            "completion, this namespace will automatically be purged by the system."))
    return registry.delete_locked("namespaces", existing, request)


def finalize_namespace_locked(registry: Registry, name: str) -> dict[str, Any]:
    """Port of FinalizeREST.Update (pkg/registry/core/namespace/storage/storage.go), in small.

    Drops the `kubernetes` spec finalizer.
    """
    obj = deep_copy_json(registry.existing_locked("namespaces", "", name))
    spec = obj.setdefault("spec", {})
    spec["finalizers"] = [f for f in spec.get("finalizers") or [] if f != FINALIZER_KUBERNETES]
    return registry.storage.update_locked("namespaces", obj)
