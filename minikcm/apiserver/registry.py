"""No upstream twin. The generic REST flow of every resource, after registry/generic/registry/store.go.

`Registry` is what kube-apiserver's generic `Store` plus the request handlers
and the NamespaceLifecycle admission plugin do for each verb: fill the system
metadata, call the resource's strategy (`minikcm.apiserver.strategy`), run
defaulting and validation (`minikcm.apiserver.defaults`, `.validation`), enforce
optimistic concurrency, and turn storage outcomes into Kubernetes errors.

Every public method holds the store lock for the whole operation and returns
fresh copies, never the stored dicts. A failed write raises before anything is
stored, so the store is left exactly as it was.

Start reading at: Registry.update (optimistic concurrency, generation, status),
then Registry.create and Registry.delete.

Not ported: admission webhooks and every admission plugin except
NamespaceLifecycle, managedFields, field validation directives, watch-list.
Differs from upstream: GuaranteedUpdate's read-modify-write retry loop is not
needed (the store lock makes the read and the write one step). The REST
quirks of single resources (scale, pods/binding, namespace deletion) are in
`minikcm.apiserver.resource_rest`.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

from minikcm.apimachinery import errors, field
from minikcm.apimachinery.schema import GroupKind, GroupResource, ResourceInfo, resource_info
from minikcm.apiserver import defaults, deletion, nulls, validation
from minikcm.apiserver.cacher import new_too_large_resource_version_error, parse_resource_version
from minikcm.apiserver.deletion import DeleteRequest, format_time
from minikcm.apiserver.selection import SelectionPredicate
from minikcm.apiserver.storage import (KeyExistsError, Storage, decode_continue, deep_copy_json,
                                       encode_continue, key_string, object_key)
from minikcm.apiserver.strategy import (STRATEGIES, ClusterIPAllocator, prepare_for_create,
                                        prepare_for_status_update, prepare_for_update,
                                        scale_from_object)
from minikcm.clock import Clock

OPTIMISTIC_LOCK_ERROR_MSG = ("the object has been modified; please apply your changes to the "
                             "latest version and try again")
"""Port of OptimisticLockErrorMsg (apiserver/pkg/registry/generic/registry/store.go)."""

MAX_NAME_GENERATION_CREATE_ATTEMPTS = 8
"""Port of maxNameGenerationCreateAttempts: tries of a generateName create before giving up."""

NAME_SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
"""Port of utilrand's alphanums: no vowels (no words), no 0/1/3 (no look-alikes)."""

MAX_GENERATED_NAME_LENGTH = 63 - 5
"""Port of names.MaxGeneratedNameLength: the base is cut so base + 5 fits in 63."""

IMMORTAL_NAMESPACES = ("default", "kube-public", "kube-system")
"""Port of the NamespaceLifecycle plugin's immortal namespaces: they cannot be deleted."""

CONTINUE_EXPIRED_MESSAGE = (
    "The provided continue parameter is too old to display a consistent list result. "
    "You can start a new list without the continue parameter.")


class Registry:
    """The verbs of every served resource over one `Storage` (see the module docstring).

    Thread: any; each public method is atomic under `storage.lock`. Randomness
    (generated names, uids) comes only from `rng`, time only from `clock`.
    """

    def __init__(self, storage: Storage, clock: Clock, rng: random.Random) -> None:
        self.storage = storage
        self.clock = clock
        self.rng = rng
        self.ips = ClusterIPAllocator()

    # -- small helpers ------------------------------------------------------------------

    def generate_name(self, base: str) -> str:
        """Port of simpleNameGenerator.GenerateName (apiserver/pkg/storage/names/generate.go).

        Base (cut to 58) plus 5 random characters.
        """
        suffix = "".join(self.rng.choice(NAME_SUFFIX_ALPHABET) for _ in range(5))
        return base[:MAX_GENERATED_NAME_LENGTH] + suffix

    def new_uid(self) -> str:
        """A version-4 UUID drawn from `rng` (Go: uuid.NewUUID), so seeded runs repeat."""
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def check_type_meta(self, api_version: str, kind: str, obj: dict[str, Any]) -> None:
        """Fill apiVersion and kind when missing (first in key order); refuse another type."""
        if obj.get("apiVersion", api_version) != api_version:
            raise errors.new_bad_request(
                f"the API version in the data ({obj['apiVersion']}) does not match the expected "
                f"API version ({api_version})")
        if obj.get("kind", kind) != kind:
            raise errors.new_bad_request(
                f"the kind in the data ({obj['kind']}) does not match the expected kind ({kind})")
        rest = {k: v for k, v in obj.items() if k not in ("apiVersion", "kind")}
        obj.clear()
        obj.update(apiVersion=api_version, kind=kind, **rest)

    def _decode(self, resource: str, namespace: str, obj_in: dict[str, Any]) -> dict[str, Any]:
        """What the request decoder does: a private copy, type meta checked, namespace set, defaults.

        Values of the wrong JSON type and malformed quantities are refused with
        400, and null list elements and map values become their Go zero values
        first (minikcm.apiserver.nulls.decode_typed), so validation refuses them
        by field path.
        """
        info = resource_info(resource)
        obj = deep_copy_json(obj_in)
        if not isinstance(obj, dict):
            raise errors.new_bad_request(f"expected a {info.kind} object, got {type(obj).__name__}")
        self.check_type_meta(info.api_version, info.kind, obj)
        nulls.decode_typed(obj, info.model.__name__, info.kind, info.version)
        ensure_object_namespace_matches_request_namespace(namespace, obj, info.namespaced)
        defaults.default_object(resource, obj)
        return obj

    def _admit_namespace_locked(self, info: ResourceInfo, operation: str, namespace: str,
                                name: str) -> None:
        """Port of the NamespaceLifecycle admission plugin for writes into a namespace.

        A missing namespace is NotFound; creating in a Terminating one is Forbidden.
        """
        if not info.namespaced:
            return
        ns = self.storage.get_locked("namespaces", ("", namespace))
        if ns is None:
            raise errors.new_not_found(GroupResource("", "namespaces"), namespace)
        if operation == "create" and (ns.get("status") or {}).get("phase") == "Terminating":
            err = errors.new_forbidden(info.group_resource(), name, (
                f"unable to create new content in namespace {namespace} because it is being "
                "terminated"))
            err.err_status["details"]["causes"] = [{
                "reason": "NamespaceTerminating", "field": "metadata.namespace",
                "message": f"namespace {namespace} is being terminated"}]
            raise err

    def existing_locked(self, resource: str, namespace: str, name: str,
                        qualified: GroupResource | None = None) -> dict[str, Any]:
        """The stored object (not a copy), or NotFound named by `qualified` (default: the resource).

        Locking: `storage.lock` is held.
        """
        info = resource_info(resource)
        obj = self.storage.get_locked(resource, (namespace if info.namespaced else "", name))
        if obj is None:
            raise errors.new_not_found(qualified or info.group_resource(), name)
        return obj

    # -- reads ----------------------------------------------------------------------------

    def get(self, resource: str, namespace: str, name: str, subresource: str | None = None) -> dict[str, Any]:
        """Port of Store.Get (apiserver/pkg/registry/generic/registry/store.go).

        A copy of the object, or (scale REST's Get) its Scale.
        """
        check_subresource(resource, subresource)
        with self.storage.lock:
            if subresource == "scale":
                obj = self.existing_locked(resource, namespace, name, scale_resource(resource))
                return scale_from_object(resource, obj)
            return deep_copy_json(self.existing_locked(resource, namespace, name))

    def list(self, resource: str, namespace: str, predicate: SelectionPredicate,
             resource_version: str = "", limit: int = 0, continue_: str = "",
             resource_version_match: str = "") -> dict[str, Any]:
        """Port of Store.List (apiserver/pkg/registry/generic/registry/store.go).

        A `<Kind>List` of the matching objects at the current version.

        `limit` > 0 pages the result: the list then carries `metadata.continue`,
        a token for the next page. Later pages show the objects as they were at
        the first page's version, as etcd's read at that revision does, however
        much was written since; the token expires (410) once the history window
        no longer reaches back to that version (upstream: etcd compaction).
        A resourceVersion newer than the store's is refused (504, as upstream
        does after its wait), an older one is served from the current state.
        """
        info = resource_info(resource)
        requested = parse_resource_version(resource, resource_version)
        with self.storage.lock:
            current = self.storage.resource_version
            if requested > current:
                raise new_too_large_resource_version_error(requested, current, 1)
            list_rv, start = current, ""
            objects: list[dict[str, Any]] | None
            if continue_:
                list_rv, start = decode_continue(continue_)
                objects = self.storage.list_at_locked(resource, namespace, list_rv)
                if objects is None:  # upstream: the revision was compacted away
                    raise errors.new_resource_expired(CONTINUE_EXPIRED_MESSAGE)
            else:
                objects = self.storage.list_locked(resource, namespace)
            items = [o for o in objects
                     if predicate.matches(o) and (not start or key_string(object_key(o)) >= start)]
            list_meta: dict[str, Any] = {"resourceVersion": str(list_rv)}
            if 0 < limit < len(items):
                list_meta["continue"] = encode_continue(
                    list_rv, key_string(object_key(items[limit - 1])) + "\x00")
                if predicate.empty():
                    list_meta["remainingItemCount"] = len(items) - limit
                items = items[:limit]
            return {"kind": info.list_kind, "apiVersion": info.api_version, "metadata": list_meta,
                    "items": [deep_copy_json(o) for o in items]}

    # -- create ---------------------------------------------------------------------------

    def create(self, resource: str, namespace: str, obj_in: dict[str, Any],
               dry_run: bool = False) -> dict[str, Any]:
        """Port of Store.Create (apiserver/pkg/registry/generic/registry/store.go).

        With the handler's decoding and NamespaceLifecycle admission folded in.

        Fills uid and creationTimestamp, turns generateName into a name (retrying
        up to 8 names on a clash), prepares and validates through the strategy,
        and stores the object at a new resourceVersion.

        Raises:
            StatusError: NotFound / Forbidden for the namespace, Invalid (422),
                AlreadyExists (409), BadRequest for a namespace mismatch.
        """
        info = resource_info(resource)
        obj = self._decode(resource, namespace, obj_in)
        m = obj.setdefault("metadata", {})
        with self.storage.lock:
            self._admit_namespace_locked(info, "create", m.get("namespace", ""), m.get("name", ""))
            if m.get("name") or not m.get("generateName"):
                return deep_copy_json(self._create_locked(resource, obj, dry_run))
            for attempt in range(MAX_NAME_GENERATION_CREATE_ATTEMPTS):
                try:
                    return deep_copy_json(self._create_locked(resource, deep_copy_json(obj), dry_run))
                except errors.StatusError as err:
                    last = attempt == MAX_NAME_GENERATION_CREATE_ATTEMPTS - 1
                    if not errors.is_already_exists(err) or last:
                        raise
            raise AssertionError("unreachable: the last attempt re-raises")

    def _create_locked(self, resource: str, obj: dict[str, Any], dry_run: bool) -> dict[str, Any]:
        """Port of Store.create (apiserver/pkg/registry/generic/registry/store.go).

        Everything after decoding and admission. Returns the stored dict.
        """
        info = resource_info(resource)
        m = obj["metadata"]
        m["creationTimestamp"] = format_time(self.clock.now())  # Go: FillObjectMetaSystemFields
        m["uid"] = self.new_uid()
        generated = bool(m.get("generateName")) and not m.get("name")
        if generated:
            m["name"] = self.generate_name(m["generateName"])
        # Go: rest.BeforeCreate
        prepare_for_create(resource, obj, self.ips)
        errs = validation.validate_object(resource, obj)
        if not errs and not m.get("name"):
            errs = [field.required(field.new_path("metadata", "name"), "name or generateName is required")]
        if errs:
            raise errors.new_invalid(info.group_kind(), m.get("name", ""), errs)
        if m.get("resourceVersion", "") not in ("", "0"):
            raise errors.new_internal_error("resourceVersion should not be set on objects to be created")
        m.pop("resourceVersion", None)
        existing = self.storage.get_locked(resource, object_key(obj))
        if existing is not None:
            err = errors.new_already_exists(info.group_resource(), m["name"])
            if generated:
                err = errors.new_generate_name_conflict(info.group_resource(), m["name"], 1)
            if (existing.get("metadata") or {}).get("deletionTimestamp"):
                err.err_status["message"] = f"object is being deleted: {err.err_status['message']}"
            raise err
        try:
            return self.storage.create_locked(resource, obj, dry_run)
        except KeyExistsError:  # cannot happen under the lock; kept to mirror InterpretCreateError
            raise errors.new_already_exists(info.group_resource(), m["name"]) from None

    # -- update ---------------------------------------------------------------------------

    def update(self, resource: str, namespace: str, obj_in: dict[str, Any],
               subresource: str | None = None, dry_run: bool = False,
               force_allow_create: bool = False) -> dict[str, Any]:
        """Port of Store.Update (apiserver/pkg/registry/generic/registry/store.go).

        For the main resource or the status subresource.

        Optimistic concurrency: a resourceVersion that is not the stored one is a
        409 Conflict; an empty one overwrites where the strategy allows
        unconditional updates (all but leases), else 422. The strategy then keeps
        what this endpoint may not change (status for the main resource, spec
        for status) and bumps metadata.generation on a spec change. An update
        that removes the last finalizer of an object marked for deletion deletes
        it. An update that changes nothing writes nothing (no new resourceVersion,
        no event), as etcd's store does.
        """
        if subresource == "scale":
            raise ValueError("scale updates go through resource_rest.update_scale")
        check_subresource(resource, subresource)
        info = resource_info(resource)
        obj = self._decode(resource, namespace, obj_in)
        m = obj.setdefault("metadata", {})
        if not m.get("name"):
            raise errors.new_bad_request("name is required for an update")
        with self.storage.lock:
            self._admit_namespace_locked(info, "update", m.get("namespace", ""), m["name"])
            existing = self.storage.get_locked(resource, object_key(obj))
            if existing is None:
                if not (STRATEGIES[resource].allow_create_on_update or force_allow_create):
                    raise errors.new_not_found(info.group_resource(), m["name"])
                m.pop("resourceVersion", None)
                return deep_copy_json(self._create_locked(resource, obj, dry_run))
            return deep_copy_json(self._update_locked(resource, obj, existing, subresource, dry_run))

    def _update_locked(self, resource: str, obj: dict[str, Any], existing: dict[str, Any],
                       subresource: str | None, dry_run: bool) -> dict[str, Any]:
        """The body of GuaranteedUpdate's update function, plus the write."""
        info, strategy = resource_info(resource), STRATEGIES[resource]
        m, old_m = obj["metadata"], existing["metadata"]
        name = m["name"]
        if m.get("uid") and m["uid"] != old_m.get("uid"):
            raise errors.new_conflict(info.group_resource(), name, storage_precondition_error(
                resource, object_key(obj), f"Precondition failed: UID in precondition: {m['uid']}, "
                f"UID in object meta: {old_m.get('uid', '')}"))
        new_rv = parse_resource_version(resource, m.get("resourceVersion", ""))
        if new_rv == 0:
            if not strategy.allow_unconditional_update:
                raise errors.new_invalid(GroupKind(info.group, resource), name, [field.invalid(
                    field.new_path("metadata", "resourceVersion"), 0, "must be specified for an update")])
            m["resourceVersion"] = old_m["resourceVersion"]
        elif str(new_rv) != old_m["resourceVersion"]:
            raise errors.new_conflict(info.group_resource(), name, OPTIMISTIC_LOCK_ERROR_MSG)
        # Go: rest.BeforeUpdate
        if "generation" in old_m:
            m["generation"] = old_m["generation"]
        else:
            m.pop("generation", None)
        if subresource == "status":
            prepare_for_status_update(resource, obj, existing)
        else:
            prepare_for_update(resource, obj, existing)
        if not m.get("uid"):
            m["uid"] = old_m.get("uid", "")
        if old_m.get("creationTimestamp"):
            m["creationTimestamp"] = old_m["creationTimestamp"]
        if old_m.get("deletionTimestamp"):
            m["deletionTimestamp"] = old_m["deletionTimestamp"]
        old_grace = old_m.get("deletionGracePeriodSeconds")
        if old_grace is not None and m.get("deletionGracePeriodSeconds") is None:
            m["deletionGracePeriodSeconds"] = old_grace
        if subresource == "status":
            errs = validation.validate_status_update(resource, obj, existing)
        else:
            errs = validation.validate_object_update(resource, obj, existing)
        if errs:
            raise errors.new_invalid(info.group_kind(), name, errs)
        if deletion.should_delete_during_update(obj, existing):
            self.storage.delete_locked(resource, object_key(obj), dry_run)
            return obj  # Go: deleteWithoutFinalizers answers with the updated object
        return self.write_unless_unchanged(resource, obj, existing, dry_run)

    def write_unless_unchanged(self, resource: str, obj: dict[str, Any], existing: dict[str, Any],
                                dry_run: bool) -> dict[str, Any]:
        """Store `obj` over `existing`, unless they are equal (etcd3's no-op update: no write)."""
        if obj == existing:
            return existing
        return self.storage.update_locked(resource, obj, dry_run)

    # -- delete ---------------------------------------------------------------------------

    def delete(self, resource: str, namespace: str, name: str, request: DeleteRequest) -> dict[str, Any]:
        """Port of Store.Delete (apiserver/pkg/registry/generic/registry/store.go).

        Remove, or only mark, an object (namespaces: see resource_rest).

        Returns the object when it was only marked (grace period or
        finalizers), else the finalize_delete answer (the object for pods and
        namespaces, a Success Status otherwise). Dry-run decides everything and
        stores nothing.
        """
        deletion.validate_delete_options(request)
        with self.storage.lock:
            existing = self.existing_locked(resource, namespace, name)
            return deep_copy_json(self.delete_locked(resource, existing, request))

    def delete_locked(self, resource: str, existing: dict[str, Any],
                       request: DeleteRequest) -> dict[str, Any]:
        key = object_key(existing)
        obj = deep_copy_json(existing)
        graceful, pending_graceful = deletion.before_delete(resource, obj, request, self.clock.now())
        if pending_graceful:
            return deletion.finalize_delete(resource, obj)
        pending_finalizers = bool(obj["metadata"].get("finalizers"))
        update_finalizers, _ = deletion.deletion_finalizers_for_garbage_collection(resource, obj, request)
        if graceful or pending_finalizers or update_finalizers:
            out, delete_now = self._update_for_graceful_deletion_and_finalizers(resource, existing, request)
            if not delete_now:
                return out
            if request.dry_run:
                return out
        last = self.storage.delete_locked(resource, key, request.dry_run)
        return deletion.finalize_delete(resource, last)

    def _update_for_graceful_deletion_and_finalizers(
            self, resource: str, existing: dict[str, Any],
            request: DeleteRequest) -> tuple[dict[str, Any], bool]:
        """Port of Store.updateForGracefulDeletionAndFinalizers (apiserver/.../registry/store.go).

        Returns (object, delete now?).

        Marks the object (deletionTimestamp, grace period, GC finalizers) and
        stores the mark. "Delete now" is True only when no finalizer is pending
        and the grace period is over (0).
        """
        obj = deep_copy_json(existing)
        graceful, pending_graceful = deletion.before_delete(resource, obj, request, self.clock.now())
        if pending_graceful:
            return deletion.finalize_delete(resource, obj), False
        changed, finalizers = deletion.deletion_finalizers_for_garbage_collection(resource, obj, request)
        if changed:
            obj["metadata"]["finalizers"] = finalizers
        pending_finalizers = bool(obj["metadata"].get("finalizers"))
        if not graceful:
            if not pending_finalizers:
                return obj, True  # Go: errDeleteNow, nothing written
            deletion.mark_as_deleting(obj, self.clock.now())
            return self.write_unless_unchanged(resource, obj, existing, request.dry_run), False
        stored = self.write_unless_unchanged(resource, obj, existing, request.dry_run)
        if pending_finalizers or (request.grace_period_seconds or 0) > 0:
            return stored, False
        return stored, True

    def delete_collection(self, resource: str, namespace: str, predicate: SelectionPredicate,
                          request: DeleteRequest) -> dict[str, Any]:
        """Port of Store.DeleteCollection (apiserver/pkg/registry/generic/registry/store.go).

        Delete every matching object; returns them as a list.

        Differs from Go: atomic (one lock), and one object's failure stops the rest.
        """
        with self.storage.lock:
            listed = self.list(resource, namespace, predicate)
            for item in listed["items"]:
                m = item["metadata"]
                one = DeleteRequest(request.grace_period_seconds, request.uid,
                                    request.resource_version, request.propagation_policy,
                                    request.dry_run)
                try:
                    self.delete(resource, m.get("namespace", ""), m["name"], one)
                except errors.StatusError as err:
                    if not errors.is_not_found(err):
                        raise
            return listed

    # -- seeding (tests) ------------------------------------------------------------------

    def seed(self, resource: str, namespace: str, obj_in: dict[str, Any]) -> dict[str, Any]:
        """Port of tracker.add (client-go testing/fixture.go), as the embedded server does it.

        Store `obj_in` as the caller wrote it, for tests that start from a given
        state: its uid, creationTimestamp, generation, status, finalizers,
        deletionTimestamp and ownerReferences are kept. Only what is missing is
        filled in as a create would (uid, creationTimestamp, generation 1,
        the initial status, defaults). The resourceVersion is always a fresh
        one from the store's counter, so versions keep growing in write order.
        The object is still validated, a missing namespace is created, and
        watchers see an ADDED event (and the write is persisted), exactly as
        for a create.

        Raises:
            StatusError: Invalid (422), AlreadyExists (409), BadRequest for a
                namespace mismatch.
        """
        info = resource_info(resource)
        obj = self._decode(resource, namespace, obj_in)
        m = obj.setdefault("metadata", {})
        given = {k: m[k] for k in ("uid", "creationTimestamp", "generation") if m.get(k)}
        with self.storage.lock:
            if not m.get("name") and m.get("generateName"):
                m["name"] = self.generate_name(m["generateName"])
            status = obj.get("status")
            prepare_for_create(resource, obj, self.ips)  # initial status, generation 1, ...
            if status is not None:
                obj["status"] = status  # the given status wins over the initial one
            m.update(given)
            m.setdefault("uid", self.new_uid())
            m.setdefault("creationTimestamp", format_time(self.clock.now()))
            m.pop("resourceVersion", None)
            errs = validation.validate_object(resource, obj)
            if not errs and not m.get("name"):
                errs = [field.required(field.new_path("metadata", "name"),
                                       "name or generateName is required")]
            if errs:
                raise errors.new_invalid(info.group_kind(), m.get("name", ""), errs)
            if self.storage.get_locked(resource, object_key(obj)) is not None:
                raise errors.new_already_exists(info.group_resource(), m["name"])
            if info.namespaced and self.storage.get_locked("namespaces", ("", m["namespace"])) is None:
                self.create("namespaces", "", {"metadata": {"name": m["namespace"]}})
            return deep_copy_json(self.storage.create_locked(resource, obj))


def check_subresource(resource: str, subresource: str | None) -> None:
    """Refuse a subresource the resource does not serve (upstream: no such route, 404)."""
    if subresource is None:
        return
    if subresource in resource_info(resource).subresources:
        return
    raise errors.new_not_found(GroupResource(resource_info(resource).group,
                                             f"{resource}/{subresource}"), "")


def scale_resource(resource: str) -> GroupResource:
    """The GroupResource a scale subresource names itself by in errors: `deployments/scale.apps`."""
    return GroupResource(resource_info(resource).group, f"{resource}/scale")


def ensure_object_namespace_matches_request_namespace(request_namespace: str, obj: dict[str, Any],
                                                      namespaced: bool) -> None:
    """Port of EnsureObjectNamespaceMatchesRequestNamespace (apiserver/pkg/registry/rest/meta.go).

    With ExpectedNamespaceForScope folded in.

    An unset namespace takes the request's; a cluster-scoped object loses any
    namespace; a different one is a 400.
    """
    m = obj.setdefault("metadata", {})
    expected = request_namespace if namespaced else ""
    actual = m.get("namespace") or ""
    if actual == expected:
        return
    if not actual:
        m["namespace"] = expected
    elif not expected:
        m.pop("namespace", None)
    else:
        raise errors.new_bad_request(
            "the namespace of the provided object does not match the namespace sent on the request")


def storage_precondition_error(resource: str, key: tuple[str, str], message: str) -> str:
    """The text of etcd3's StorageError for a failed precondition (it ends up in a 409's message)."""
    path = f"/registry/{resource}/{key_string(key)}"
    return (f"StorageError: invalid object, Code: 4, Key: {path}, ResourceVersion: 0, "
            f"AdditionalErrorMsg: {message}")
