"""Port of pkg/registry/core/pod/storage/eviction.go (EvictionREST), without PodDisruptionBudgets.

`POST /api/v1/namespaces/{ns}/pods/{name}/eviction` with a policy/v1 Eviction
body is how `kubectl drain` removes pods: the API server marks the pod with a
DisruptionTarget condition and deletes it with the Eviction's DeleteOptions, so
the grace period is honoured (the kubelet finishes the deletion when it is
over). Upstream first checks the pod's PodDisruptionBudgets and answers 429
when evicting would break one.

Start reading at: evict_pod.

Not ported: PodDisruptionBudgets. minikcm serves no `policy/v1`
PodDisruptionBudget and runs no disruption controller, so budgets are not
enforced: every eviction of a pod that exists is the path upstream takes for a
pod with no budget (delete at once). The retry on conflict
(EvictionsRetry) is not needed: the storage lock makes the read and the
writes one step.
"""

from __future__ import annotations

from typing import Any

from minikcm.apimachinery import errors
from minikcm.apimachinery.schema import GroupResource
from minikcm.apiserver.deletion import DeleteRequest, format_time
from minikcm.apiserver.registry import Registry
from minikcm.apiserver.storage import deep_copy_json

EVICTION_API_VERSIONS = ("policy/v1", "policy/v1beta1")
"""The Eviction versions the subresource accepts (kubectl picks the one discovery names)."""
DISRUPTION_TARGET = "DisruptionTarget"
"""The pod condition an eviction adds before deleting (core.DisruptionTarget)."""


def can_ignore_pdb(pod: dict[str, Any]) -> bool:
    """Port of canIgnorePDB (pkg/registry/core/pod/storage/eviction.go).

    Terminal, pending and terminating pods are deleted without a budget check.
    """
    phase = (pod.get("status") or {}).get("phase")
    return phase in ("Succeeded", "Failed", "Pending") or bool(pod["metadata"].get("deletionTimestamp"))


def should_enforce_resource_version(pod: dict[str, Any]) -> bool:
    """Port of shouldEnforceResourceVersion (pkg/registry/core/pod/storage/eviction.go).

    Not for terminal or terminating pods.
    """
    phase = (pod.get("status") or {}).get("phase")
    return not (phase in ("Succeeded", "Failed") or pod["metadata"].get("deletionTimestamp"))


def delete_request(options: dict[str, Any] | None, dry_run: bool) -> DeleteRequest:
    """The Eviction's deleteOptions as a DeleteRequest (Go: propagateDryRun merges the dry-run flags)."""
    options = options or {}
    pre = options.get("preconditions") or {}
    return DeleteRequest(options.get("gracePeriodSeconds"), pre.get("uid") or None,
                         pre.get("resourceVersion") or None, options.get("propagationPolicy"),
                         dry_run or bool(options.get("dryRun")))


def evict_pod(registry: Registry, namespace: str, name: str, eviction: dict[str, Any],
              dry_run: bool = False) -> dict[str, Any]:
    """Port of EvictionREST.Create (pkg/registry/core/pod/storage/eviction.go).

    Returns a Success Status (the handler answers it with 201).

    Raises:
        StatusError: 400 when the names differ or the body is not an Eviction,
            404 for a missing pod, 409 when a precondition fails.
    """
    api_version, kind = eviction.get("apiVersion", "policy/v1"), eviction.get("kind", "Eviction")
    if api_version not in EVICTION_API_VERSIONS or kind != "Eviction":
        raise errors.new_bad_request(f"not a Eviction object: {api_version}, Kind={kind}")
    if (eviction.get("metadata") or {}).get("name", "") != name:
        raise errors.new_bad_request("name in URL does not match name in Eviction object")
    request = delete_request(eviction.get("deleteOptions"), dry_run)
    with registry.storage.lock:
        pod = registry.existing_locked("pods", namespace, name)
        if (can_ignore_pdb(pod) and should_enforce_resource_version(pod)
                and request.resource_version is None):
            request.resource_version = pod["metadata"].get("resourceVersion")
        # No budgets are served, so every other pod takes upstream's "no PDB" path as it is.
        add_condition_and_delete_pod(registry, namespace, name, request)
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success"}


def add_condition_and_delete_pod(registry: Registry, namespace: str, name: str,
                                 request: DeleteRequest) -> None:
    """Port of addConditionAndDeletePod (pkg/registry/core/pod/storage/eviction.go).

    DisruptionTarget=True on the pod's status, then the delete.

    The condition is written through the status subresource (upstream's eviction
    store is the status store); a resourceVersion precondition moves to the
    version that write produced. Dry-run writes nothing.
    """
    if not request.dry_run:
        latest = deep_copy_json(registry.existing_locked("pods", namespace, name))
        meta = latest["metadata"]
        for want, have, label in ((request.uid, meta.get("uid"), "UID"),
                                  (request.resource_version, meta.get("resourceVersion"), "ResourceVersion")):
            if want and want != have:
                raise errors.new_conflict(GroupResource("", "pods"), name, (
                    f"the {label} in the precondition ({want}) does not match the {label} in record ({have}). "
                    "The object might have been modified"))
        update_pod_condition(latest.setdefault("status", {}), {
            "type": DISRUPTION_TARGET, "status": "True", "reason": "EvictionByEvictionAPI",
            "message": "Eviction API: evicting"}, format_time(registry.clock.now()))
        updated = registry.update("pods", namespace, latest, "status")
        if request.resource_version is not None:
            request.resource_version = updated["metadata"].get("resourceVersion")
    registry.delete("pods", namespace, name, request)


def update_pod_condition(status: dict[str, Any], condition: dict[str, Any], now: str) -> bool:
    """Port of podutil.UpdatePodCondition (pkg/api/v1/pod/util.go), for a condition without probe time.

    Adds the condition or updates it in place; lastTransitionTime moves only
    when the status changes. Returns whether anything changed.
    """
    conditions = status.setdefault("conditions", [])
    for i, old in enumerate(conditions):
        if old.get("type") != condition["type"]:
            continue
        new = dict(condition, lastTransitionTime=now if old.get("status") != condition["status"]
                   else old.get("lastTransitionTime"))
        if new == {k: v for k, v in old.items() if k != "lastProbeTime"}:
            return False
        conditions[i] = new
        return True
    conditions.append(dict(condition, lastTransitionTime=now))
    return True
