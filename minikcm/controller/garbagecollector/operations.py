"""Port of pkg/controller/garbagecollector/operations.go: the collector's calls to the API server.

The collector reads, deletes and patches objects of any watched kind, knowing
them only by an ObjectReference (apiVersion, kind, namespace, name, uid).
These helpers turn such a reference into a call on the right typed client:
a GET to check an owner, a DELETE with the uid (and resourceVersion) as
preconditions so that a recreated object of the same name is never hit, a
PATCH, and the removal of a finalizer once a cascading deletion is done.

Reconstructed from an old copy of operations.go and excerpts of later ones:
deleteObject with the resourceVersion precondition and the retry without it,
getObject refusing a namespaced kind without a namespace, removeFinalizer
sending a JSON merge patch guarded by resourceVersion.

Start reading at: OperationsMixin.delete_object, then remove_finalizer.

Not ported: the metadata client (calls go through the typed clientset and
return whole objects, which carry the same metadata).
Differs from Go:
- The REST mapper and the metadata client are the tables of
  resource_mapping.py (a fixed set of served kinds, typed clients by name).
- remove_finalizer's conflict retries (retry.RetryOnConflict with
  retry.DefaultBackoff, minikcm.util.retry) pause on the collector's clock; on
  a driven clock the pause moves the driven time (Go: time.Sleep).
- These methods live on a mixin that GarbageCollector combines (Go: methods
  of *GarbageCollector in this file).
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from minikcm.apimachinery import errors
from minikcm.apimachinery.meta import DeleteOptions, Preconditions
from minikcm.apimachinery.schema import GroupVersionResource
from minikcm.apimachinery.types import MERGE_PATCH_TYPE, PatchType
from minikcm.controller.garbagecollector.errors import NamespacedOwnerOfClusterScopedObjectError
from minikcm.controller.garbagecollector.graph import Node, ObjectReference
from minikcm.controller.garbagecollector.resource_mapping import api_resource_using, resource_client
from minikcm.util import retry

if TYPE_CHECKING:
    from minikcm.controller.garbagecollector.garbagecollector import GarbageCollector

log = logging.getLogger(__name__)


def resource_default_namespace(namespaced: bool, default_namespace: str) -> str:
    """Port of resourceDefaultNamespace (operations.go): the namespace to use, "" for cluster-scoped kinds."""
    return default_namespace if namespaced else ""


class OperationsMixin:
    """The methods of operations.go, on the GarbageCollector (see the module docstring)."""

    def api_resource(self: GarbageCollector, api_version: str, kind: str) -> tuple[GroupVersionResource, bool]:
        """Port of GarbageCollector.apiResource: (resource, namespaced) of an apiVersion/kind.

        Raises:
            RestMappingError: the apiVersion/kind is not served.
        """
        return api_resource_using(api_version, kind)

    def delete_object(self: GarbageCollector, item: ObjectReference, resource_version: str,
                      owners_at_resource_version: list[Any] | None, policy: str | None) -> None:
        """Port of GarbageCollector.deleteObject: delete `item` if it is still the object we judged.

        The uid is always a precondition; `resource_version`, when given, too,
        so an object whose owner references changed since it was read is not
        deleted. If only the resourceVersion moved (a status write) and the
        owner references are the same, the delete is retried with the uid
        alone, so that busy objects do not starve the collector.

        Raises:
            StatusError: the delete's error (NotFound when the object is gone).
            RestMappingError: the kind is not served.
        """
        resource, namespaced = self.api_resource(item.api_version, item.kind)
        preconditions = Preconditions(uid=item.uid, resource_version=resource_version or None)
        delete_options = DeleteOptions(preconditions=preconditions, propagation_policy=policy)
        rc = resource_client(self.client, resource, resource_default_namespace(namespaced, item.namespace))
        try:
            rc.delete(item.name, delete_options)
        except errors.StatusError as err:
            if not (errors.is_conflict(err) and resource_version):
                raise
            try:
                live = rc.get(item.name)
            except errors.StatusError as live_err:
                if errors.is_not_found(live_err):
                    raise live_err from err  # gone meanwhile: the caller handles NotFound
                raise err from live_err
            m = live.metadata
            if (m.uid == item.uid and m.resource_version != resource_version
                    and (m.owner_references or []) == (owners_at_resource_version or [])):
                # only the resourceVersion changed: delete without that precondition
                log.debug("retrying delete without resourceVersion precondition item=%s", item)
                preconditions.resource_version = None
                rc.delete(item.name, delete_options)
                return
            raise

    def get_object(self: GarbageCollector, item: ObjectReference) -> Any:
        """Port of GarbageCollector.getObject: the live object behind `item` (a model).

        Raises:
            NamespacedOwnerOfClusterScopedObjectError: a namespaced kind with no
                namespace coordinate (only a cluster-scoped dependent names one so).
            RestMappingError: the kind is not served.
            StatusError: the GET's error (NotFound when it does not exist).
        """
        resource, namespaced = self.api_resource(item.api_version, item.kind)
        namespace = resource_default_namespace(namespaced, item.namespace)
        if namespaced and not namespace:
            raise NamespacedOwnerOfClusterScopedObjectError()
        return resource_client(self.client, resource, namespace).get(item.name)

    def patch_object(self: GarbageCollector, item: ObjectReference, patch: bytes, pt: PatchType) -> Any:
        """Port of GarbageCollector.patchObject: patch the object behind `item`; returns the result.

        Raises:
            RestMappingError: the kind is not served.
            StatusError: the PATCH's error.
        """
        resource, namespaced = self.api_resource(item.api_version, item.kind)
        rc = resource_client(self.client, resource, resource_default_namespace(namespaced, item.namespace))
        return rc.patch(item.name, pt, patch)

    def remove_finalizer(self: GarbageCollector, owner: Node, target_finalizer: str) -> None:
        """Port of GarbageCollector.removeFinalizer: take `target_finalizer` off the owner.

        Reads the owner fresh and sends a JSON merge patch with the remaining
        finalizers and the resourceVersion it read, so a concurrent change
        causes a conflict and a retry (up to 4 tries) instead of being
        overwritten. A missing owner or finalizer is success. Removing the last
        finalizer of a deleted object makes the server delete it.

        Raises:
            RuntimeError: the retries ran out on conflicts, or the owner could not be read.
            StatusError: the patch failed otherwise.
        """

        def remove_once() -> None:
            try:
                owner_object = self.get_object(owner.identity)
            except Exception as err:  # Go: any error of getObject but NotFound is wrapped
                if errors.is_not_found(err):
                    return
                raise RuntimeError(f"cannot finalize owner {owner.identity}, because cannot get it: {err}. "
                                   "The garbage collector will retry later") from err
            m = owner_object.metadata
            finalizers = m.finalizers or []
            if target_finalizer not in finalizers:
                log.debug("finalizer already removed from object finalizer=%s object=%s", target_finalizer,
                          owner.identity)
                return
            new_finalizers = [f for f in finalizers if f != target_finalizer] or None  # Go: nil -> null
            patch = json.dumps({"metadata": {"resourceVersion": m.resource_version or "",
                                             "finalizers": new_finalizers}}, separators=(",", ":"))
            self.patch_object(owner.identity, patch.encode(), MERGE_PATCH_TYPE)

        try:
            retry.retry_on_conflict(retry.DEFAULT_BACKOFF, remove_once, self.clock)
        except errors.StatusError as err:
            if errors.is_conflict(err):
                raise RuntimeError(f"updateMaxRetries({retry.DEFAULT_BACKOFF.steps}) has reached. The garbage collector "
                                   f"will retry later for owner {owner.identity}") from err
            raise
