"""Port of pkg/controller/garbagecollector/patch.go: the patches that edit owner references.

The collector changes dependents in two ways: it removes owner references
(to a dangling owner, to an owner being orphaned, to an owner waiting for its
dependents) and it unblocks them (blockOwnerDeletion false, to break a cycle
of foreground deletions). Each edit is tried first as a strategic merge patch
(the `$patch: delete` directive removes one reference by uid without reading
the object) and, if the server does not support that for the kind, as a JSON
merge patch of the whole list, computed from the cached object and guarded by
its resourceVersion.

The strategic merge patch that deletes references moved to pkg/controller upstream:
minikcm.controller.controller_ref_manager.generate_delete_owner_ref_strategic_merge_bytes.

Start reading at: PatchMixin.patch, then delete_owner_ref_json_merge_patch.

Differs from Go:
- node.unblockOwnerReferencesStrategicMergePatch is a module function taking
  the node (Node lives in graph.py; a one-method mixin would add nothing).
- The unblock patch is built as a dict: metadata with ownerReferences and
  uid only (Go marshals a MetadataOnlyObject, whose zero creationTimestamp
  comes out as null; our server would read that as "remove the field").
- These methods live on a mixin that GarbageCollector combines.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kubernetes.client import V1OwnerReference

from minikcm.apimachinery import errors
from minikcm.apimachinery.types import MERGE_PATCH_TYPE, STRATEGIC_MERGE_PATCH_TYPE, UID
from minikcm.controller.garbagecollector.graph import Node
from minikcm.controller.garbagecollector.resource_mapping import resource_client

if TYPE_CHECKING:
    from minikcm.controller.garbagecollector.garbagecollector import GarbageCollector

JSONMergePatchFunc = Callable[[Node], bytes]
"""Port of jsonMergePatchFunc: builds the JSON merge patch fallback for a node."""


def owner_reference_wire(ref: V1OwnerReference) -> dict[str, Any]:
    """metav1.OwnerReference as Go marshals it: the four coordinates always, the two flags when set."""
    out: dict[str, Any] = {"apiVersion": ref.api_version, "kind": ref.kind, "name": ref.name, "uid": ref.uid}
    if ref.controller is not None:
        out["controller"] = ref.controller
    if ref.block_owner_deletion is not None:
        out["blockOwnerDeletion"] = ref.block_owner_deletion
    return out


def object_for_patch(resource_version: str, owner_references: list[V1OwnerReference]) -> bytes:
    """Port of objectForPatch / ObjectMetaForPatch marshalled: the whole ownerReferences list, guarded by rv.

    An empty list is sent as null (Go marshals a nil slice so), which removes the field.
    """
    refs = [owner_reference_wire(r) for r in owner_references] or None
    return json.dumps({"metadata": {"resourceVersion": resource_version, "ownerReferences": refs}},
                      separators=(",", ":")).encode()


class PatchMixin:
    """The methods of patch.go, on the GarbageCollector (see the module docstring)."""

    def get_metadata(self: GarbageCollector, api_version: str, kind: str, namespace: str, name: str) -> Any:
        """Port of GarbageCollector.getMetadata: the object from its monitor's cache, else from the server.

        Raises:
            RestMappingError: the kind is not served.
            StatusError: the GET's error, when the cache does not have it.
        """
        api_resource, namespaced = self.api_resource(api_version, kind)
        builder = self.dependency_graph_builder
        with builder.monitor_lock:
            monitor = builder.monitors.get(api_resource)
        if monitor is None:
            return resource_client(self.client, api_resource, namespace).get(name)
        key = f"{namespace}/{name}" if namespace else name
        obj, exists = monitor.store.get_by_key(key)
        if not exists:
            return resource_client(self.client, api_resource, namespace).get(name)
        return obj

    def patch(self: GarbageCollector, item: Node, smp: bytes, jmp: JSONMergePatchFunc) -> Any:
        """Port of GarbageCollector.patch: the strategic merge patch, or the JSON merge patch fallback.

        The fallback is built (by `jmp`) and sent only when the server answers
        415 Unsupported Media Type to the strategic merge patch.

        Raises:
            StatusError: the patch failed.
        """
        try:
            return self.patch_object(item.identity, smp, STRATEGIC_MERGE_PATCH_TYPE)
        except errors.StatusError as err:
            if not errors.is_unsupported_media_type(err):
                raise
        return self.patch_object(item.identity, jmp(item), MERGE_PATCH_TYPE)

    def delete_owner_ref_json_merge_patch(self: GarbageCollector, item: Node, *owner_uids: UID) -> bytes:
        """Port of GarbageCollector.deleteOwnerRefJSONMergePatch: the item's references minus `owner_uids`."""
        obj = self.get_metadata(item.identity.api_version, item.identity.kind, item.identity.namespace,
                                item.identity.name)
        m = obj.metadata
        kept = [ref for ref in (m.owner_references or []) if ref.uid not in owner_uids]
        return object_for_patch(m.resource_version or "", kept)

    def unblock_owner_references_json_merge_patch(self: GarbageCollector, n: Node) -> bytes:
        """Port of GarbageCollector.unblockOwnerReferencesJSONMergePatch: every reference of n, none blocking."""
        obj = self.get_metadata(n.identity.api_version, n.identity.kind, n.identity.namespace, n.identity.name)
        expected = [ref.model_copy(update={"block_owner_deletion": False}) for ref in n.owners]
        return object_for_patch(obj.metadata.resource_version or "", expected)


def unblock_owner_references_strategic_merge_patch(n: Node) -> bytes:
    """Port of node.unblockOwnerReferencesStrategicMergePatch (patch.go): unblock n's blocking references.

    Only the references with blockOwnerDeletion true are listed, each with it
    set to false; the strategic merge (by uid) leaves the others alone. n's
    uid rides along as a precondition.
    Example: owners [u1 blocking, u2 not, u3 unset] give
    {"metadata":{"ownerReferences":[{..."uid":"u1","blockOwnerDeletion":false}],"uid":"<n's uid>"}}.
    """
    blocking_refs = [owner_reference_wire(owner.model_copy(update={"block_owner_deletion": False}))
                     for owner in n.owners if owner.block_owner_deletion]
    meta: dict[str, Any] = {}
    if blocking_refs:  # Go: omitempty
        meta["ownerReferences"] = blocking_refs
    if n.identity.uid:
        meta["uid"] = n.identity.uid
    return json.dumps({"metadata": meta}, separators=(",", ":")).encode()
