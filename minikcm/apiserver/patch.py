"""No upstream twin. The three PATCH flavours the embedded API server accepts.

`kubectl apply`, `kubectl set image`, `kubectl rollout undo statefulset` and
the Python client send strategic merge patches; `kubectl scale` sends a JSON
merge patch (RFC 7386); `kubectl rollout undo deployment` sends a JSON patch
(RFC 6902). The server decodes the body, calls one of the `apply_*` functions
on the stored object, then defaults and validates the result like an update.

The strategic merge itself is the port in minikcm.apimachinery.strategicpatch;
this module supplies what upstream reads from Go struct tags: which lists of
each kind merge, and on which key (`PATCH_META_BY_KIND`, keyed by the field's
path from the object root).

Start reading at: apply_strategic_merge_patch, then PATCH_META_BY_KIND.

Not ported: server-side apply (the server's patcher handles it).
Differs from Go:
- Tolerations, volumeClaimTemplates and every other list without a
  `patchStrategy` tag upstream are replaced whole, as upstream does; kinds
  we have no table for are refused, as upstream refuses custom resources.
- apply_json_merge_patch refuses a patch that is not a JSON object (upstream
  would replace the whole document and then fail to decode it).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonpatch

from minikcm.apimachinery.mergepatch import (
    ERR_BAD_JSON_DOC,
    ERR_NO_LIST_OF_LISTS,
    ERR_UNSUPPORTED_STRATEGIC_MERGE_PATCH_FORMAT,
    PatchError,
)
from minikcm.apimachinery.strategicpatch import (
    MERGE_DIRECTIVE,
    RETAIN_KEYS_STRATEGY,
    PatchMeta,
    PatchMetaFromTable,
    strategic_merge_map_patch_using_lookup_patch_meta,
)

__all__ = [
    "ERR_NO_LIST_OF_LISTS",
    "PATCH_META_BY_KIND",
    "PatchError",
    "apply_json_merge_patch",
    "apply_json_patch",
    "apply_strategic_merge_patch",
    "decode_patch",
    "patch_meta_for_kind",
]

_MERGE = (MERGE_DIRECTIVE,)
_MERGE_RETAIN_KEYS = (MERGE_DIRECTIVE, RETAIN_KEYS_STRATEGY)


def object_meta_patch_meta(prefix: str) -> dict[str, PatchMeta]:
    """The merge lists of an ObjectMeta at `prefix` (k8s.io/apimachinery meta/v1 types.go tags)."""
    return {f"{prefix}.ownerReferences": PatchMeta(_MERGE, "uid"), f"{prefix}.finalizers": PatchMeta(_MERGE)}


def pod_spec_patch_meta(prefix: str) -> dict[str, PatchMeta]:
    """The merge lists of a PodSpec at `prefix` (k8s.io/api core/v1 types.go tags)."""
    table: dict[str, PatchMeta] = {}
    for containers in ("containers", "initContainers", "ephemeralContainers"):
        base = f"{prefix}.{containers}"
        table[base] = PatchMeta(_MERGE, "name")
        table[f"{base}.ports"] = PatchMeta(_MERGE, "containerPort")
        table[f"{base}.env"] = PatchMeta(_MERGE, "name")
        table[f"{base}.volumeMounts"] = PatchMeta(_MERGE, "mountPath")
        table[f"{base}.volumeDevices"] = PatchMeta(_MERGE, "devicePath")
    table[f"{prefix}.volumes"] = PatchMeta(_MERGE_RETAIN_KEYS, "name")
    table[f"{prefix}.imagePullSecrets"] = PatchMeta(_MERGE, "name")
    table[f"{prefix}.hostAliases"] = PatchMeta(_MERGE, "ip")
    table[f"{prefix}.topologySpreadConstraints"] = PatchMeta(_MERGE, "topologyKey")
    table[f"{prefix}.schedulingGates"] = PatchMeta(_MERGE, "name")
    table[f"{prefix}.resourceClaims"] = PatchMeta(_MERGE_RETAIN_KEYS, "name")
    return table


def _workload_patch_meta(extra: dict[str, PatchMeta]) -> dict[str, PatchMeta]:
    table = object_meta_patch_meta("metadata")
    table.update(object_meta_patch_meta("spec.template.metadata"))
    table.update(pod_spec_patch_meta("spec.template.spec"))
    table["status.conditions"] = PatchMeta(_MERGE, "type")
    table.update(extra)
    return table


PATCH_META_BY_KIND: dict[str, dict[str, PatchMeta]] = {
    "Pod": {
        **object_meta_patch_meta("metadata"),
        **pod_spec_patch_meta("spec"),
        "status.conditions": PatchMeta(_MERGE, "type"),
    },
    "Deployment": _workload_patch_meta({"spec.strategy": PatchMeta((RETAIN_KEYS_STRATEGY,))}),
    "ReplicaSet": _workload_patch_meta({}),
    # volumeClaimTemplates has no patch strategy upstream: it is replaced whole.
    "StatefulSet": _workload_patch_meta({}),
    "ControllerRevision": object_meta_patch_meta("metadata"),
    "PersistentVolumeClaim": {**object_meta_patch_meta("metadata"), "status.conditions": PatchMeta(_MERGE, "type")},
    "Service": {
        **object_meta_patch_meta("metadata"),
        "spec.ports": PatchMeta(_MERGE, "port"),
        "status.conditions": PatchMeta(_MERGE, "type"),
    },
    "Namespace": {**object_meta_patch_meta("metadata"), "status.conditions": PatchMeta(_MERGE, "type")},
    "Node": {**object_meta_patch_meta("metadata"), "status.conditions": PatchMeta(_MERGE, "type"),
             "status.addresses": PatchMeta(_MERGE, "type")},
    "Event": object_meta_patch_meta("metadata"),
    "Lease": object_meta_patch_meta("metadata"),
    "Scale": object_meta_patch_meta("metadata"),
}
"""Merge metadata per Kind, keyed by dotted path from the object root."""

_KIND_BY_RESOURCE = {
    "pods": "Pod",
    "deployments": "Deployment",
    "replicasets": "ReplicaSet",
    "statefulsets": "StatefulSet",
    "controllerrevisions": "ControllerRevision",
    "persistentvolumeclaims": "PersistentVolumeClaim",
    "services": "Service",
    "namespaces": "Namespace",
    "nodes": "Node",
    "events": "Event",
    "leases": "Lease",
}


def patch_meta_for_kind(kind: str) -> PatchMetaFromTable:
    """The schema for a Kind ("Deployment"); a plural resource name ("deployments") works too.

    Raises:
        PatchError: for a kind we have no table for; upstream refuses strategic
            merge patches for types without struct tags (custom resources) too.
    """
    name = kind if kind in PATCH_META_BY_KIND else _KIND_BY_RESOURCE.get(kind, "")
    if not name:
        raise PatchError(f"{ERR_UNSUPPORTED_STRATEGIC_MERGE_PATCH_FORMAT}: no patch metadata for kind {kind!r}")
    return PatchMetaFromTable(name, PATCH_META_BY_KIND[name])


# --- entry points ---------------------------------------------------------------------


def decode_patch(body: bytes | str | Any) -> Any:
    """Parse a PATCH body; values that are already parsed are returned unchanged.

    Raises:
        PatchError: when the body is not valid JSON.
    """
    if isinstance(body, (bytes, bytearray)):
        body = body.decode("utf-8")
    if isinstance(body, str):
        try:
            return json.loads(body)
        except json.JSONDecodeError as err:
            raise PatchError(f"{ERR_BAD_JSON_DOC}: {err}") from err
    return body


def apply_strategic_merge_patch(original: dict[str, Any], patch: dict[str, Any], kind: str) -> dict[str, Any]:
    """Apply a strategic merge patch to `original`; returns a new dict.

    Mirrors StrategicMergeMapPatch (pkg/util/strategicpatch/patch.go) as the
    API server calls it. Maps merge key by key, `null` deletes a key, lists
    with a merge strategy merge item by item on their merge key (containers
    by `name`, container ports by `containerPort`, ...), other lists are
    replaced; `$patch`, `$deleteFromPrimitiveList/<f>`, `$setElementOrder/<f>`
    and `$retainKeys` directives are honoured.

    Raises:
        PatchError: for a malformed patch or an unknown kind.
    """
    return strategic_merge_map_patch_using_lookup_patch_meta(original, patch, patch_meta_for_kind(kind))


def apply_json_merge_patch(original: Any, patch: Any) -> dict[str, Any]:
    """Apply an RFC 7386 JSON merge patch; returns a new document.

    Objects merge recursively, `null` removes a key, any other value
    (including a list) replaces the target. kube-apiserver does the same
    through evanphx/json-patch's MergePatch.

    Raises:
        PatchError: when the patch is not a JSON object (the result must be an object).
    """
    if not isinstance(patch, dict):
        raise PatchError("a JSON merge patch for an object must itself be a JSON object")
    result = json_merge_patch(original, patch)
    assert isinstance(result, dict)  # a dict patch always yields a dict
    return result


def json_merge_patch(target: Any, patch: Any) -> Any:
    """The MergePatch algorithm of RFC 7386 section 2, without mutating its inputs."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key in patch:
        value = patch[key]
        if value is None:
            result.pop(key, None)
        else:
            result[key] = json_merge_patch(result.get(key), value)
    return result


def apply_json_patch(original: Any, ops: Any) -> dict[str, Any]:
    """Apply an RFC 6902 JSON patch (a list of operations) with the `jsonpatch` library.

    Raises:
        PatchError: when `ops` is not a list of operations, an operation is
            malformed, a path does not exist, or a `test` operation fails.
    """
    if not isinstance(ops, list):
        raise PatchError("a JSON patch must be a list of operations")
    try:
        result = jsonpatch.JsonPatch(ops).apply(original, in_place=False)
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as err:
        raise PatchError(f"the JSON patch could not be applied: {err}") from err
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as err:
        # jsonpatch lets these escape for ops without "path"/"value" and similar.
        raise PatchError(f"malformed JSON patch operation: {err!r}") from err
    if not isinstance(result, dict):
        raise PatchError("the JSON patch turned the object into a non-object")
    return result
