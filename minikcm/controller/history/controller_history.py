"""Port of pkg/controller/history/controller_history.go (k8s.io/kubernetes/pkg/controller/history).

The StatefulSet controller remembers every pod template it has rolled out as a
ControllerRevision: `data` holds the snapshot (a patch that restores the
template), `revision` a number that grows with each rollout or rollback, and
the name `<parent>-<hash of data>`. This module hashes and compares such
snapshots, sorts them, and reads and writes them: `RealHistory` through the
API server (the controller), `FakeHistory` straight into an informer's
indexer (tests).

The 1.36 additions, the controller-revision index and the `parent_kind`
argument of ListControllerRevisions, are reconstructed from pull request
#135579 and the 1.36 benchmark_test.go on top of the pre-1.36 layout.

Start reading at: hash_controller_revision, then RealHistory.create_controller_revision
and RealHistory.list_controller_revisions.

Design notes: the bytes of a revision. Go keeps `data` as the raw JSON bytes
the revision was created with, and hashes and compares those bytes. Our
client models hold `data` as a decoded dict, so `raw_data` re-encodes it as
Go's encoding/json does for a decoded map: keys sorted, no spaces, `<`, `>`,
`&` escaped. For a snapshot made by the StatefulSet controller (whose patch
is itself a Go-encoded map) that re-encoding gives back the very bytes Go
stored, so names match upstream's exactly: the 1.33 and 1.34 revisions of
upstream's stateful_set_compatibility_test.go hash to `c77f6d978` and
`776999688b` here too (tests/controller/history). The hash is FNV-1, 32 bit
(Go's `fnv.New32`, not FNV-1a), with the collision count appended as decimal
text.

Not ported: BenchmarkListControllerRevisions, contextual logging.
Differs from Go:
- `raw_data` stands for Go's `Data.Raw` (see the design notes); a revision
  written by another client with unsorted keys hashes differently here.
  `Data.Object` does not exist in the models and is never compared.
- create_controller_revision returns (revision, collision_count) instead of
  incrementing Go's `*int32` in place; a None count raises ValueError.
- `clock` (new_history; Go: none) paces update_controller_revision's
  conflict retries (minikcm.util.retry).
- RealHistory.update_controller_revision keeps its copy after a failed update
  (Go's client returns an empty object on error and the code copies it).
- The index name `controllerRevisionController` and its key layout
  (`<namespace>/<Kind>/<name>/<uid>`, orphans under `<namespace>`, as the pod
  controller index) are reconstructed from PR #135579's review.
"""

from __future__ import annotations

import functools
import json
import logging
import re
from datetime import datetime, timezone
from typing import Any, Protocol

from kubernetes.client import V1ControllerRevision, V1ObjectMeta, V1OwnerReference

from minikcm.apimachinery import errors, labels
from minikcm.apimachinery.convert import deep_copy, object_meta
from minikcm.apimachinery.meta import (
    CreateOptions,
    DeleteOptions,
    GetOptions,
    PatchOptions,
    UpdateOptions,
    get_controller_of,
    get_controller_of_no_copy,
    new_controller_ref,
)
from minikcm.apimachinery.schema import GroupResource, GroupVersionKind
from minikcm.apimachinery.types import STRATEGIC_MERGE_PATCH_TYPE
from minikcm.client.interface import Interface as ClientInterface
from minikcm.clock import Clock, or_real
from minikcm.controller.controller_ref_manager import (
    generate_delete_owner_ref_strategic_merge_bytes,
    owner_ref_controller_patch,
)
from minikcm.controller.controller_utils import safe_encode_string
from minikcm.informers.factory import ResourceInformer
from minikcm.informers.listers import ControllerRevisionLister
from minikcm.tools.cache.controller import deletion_handling_meta_namespace_key_func
from minikcm.tools.cache.index import Indexer
from minikcm.util import retry

log = logging.getLogger(__name__)

CONTROLLER_REVISION_HASH_LABEL = "controller.kubernetes.io/hash"
"""Port of ControllerRevisionHashLabel: the label holding the hash of a revision's data."""

CONTROLLER_REVISION_CONTROLLER_INDEX = "controllerRevisionController"
"""Port of ControllerRevisionControllerIndex (1.36): revisions indexed by their controller."""

CONTROLLER_REVISIONS = GroupResource("apps", "controllerrevisions")
"""Go: apps.Resource("controllerrevisions"), named in NotFound and AlreadyExists errors."""


def controller_revision_name(prefix: str, hash_: str) -> str:
    """Port of ControllerRevisionName: `<prefix>-<hash>`, the prefix cut to 223 characters.

    223 + 1 + a hash of at most 10 characters stays under the 253 allowed for a name.
    """
    if len(prefix) > 223:
        prefix = prefix[:223]
    return f"{prefix}-{hash_}"


def new_controller_revision(parent: Any, parent_kind: GroupVersionKind, template_labels: dict[str, str] | None,
                            data: dict[str, Any], revision: int,
                            collision_count: int | None) -> V1ControllerRevision:
    """Port of NewControllerRevision: a revision of `parent`, not yet created.

    It carries a copy of `template_labels` plus the hash label, a controller
    reference to `parent`, `data` and `revision`, and is named after the hash
    of `data` and `collision_count`. The namespace is left empty; the caller
    (or create_controller_revision) places it.
    """
    label_map = dict(template_labels or {})
    cr = V1ControllerRevision(
        metadata=V1ObjectMeta(labels=label_map, owner_references=[new_controller_ref(parent, parent_kind)]),
        data=data,
        revision=revision,
    )
    hash_ = hash_controller_revision(cr, collision_count)
    cr.metadata.name = controller_revision_name(object_meta(parent).name or "", hash_)
    cr.metadata.labels = {**label_map, CONTROLLER_REVISION_HASH_LABEL: hash_}  # models copy dicts on assignment
    return cr


def raw_data(revision: V1ControllerRevision) -> bytes:
    """No upstream twin: the bytes Go holds in `revision.Data.Raw` (see the module's design notes).

    `{"b":1,"a":"<x>"}` encodes as `{"a":"\\u003cx\\u003e","b":1}`; no data gives b"".
    """
    if revision.data is None:
        return b""
    text = json.dumps(revision.data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                    ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text.encode("utf-8")


def fnv1_32(data: bytes, h: int = 2166136261) -> int:
    """Port of hash/fnv New32 (Go standard library): 32-bit FNV-1 (multiply, then xor).

    Pass the previous sum as `h` to keep hashing (Go: more Write calls).
    """
    for byte in data:
        h = ((h * 16777619) & 0xFFFFFFFF) ^ byte
    return h


def hash_controller_revision(revision: V1ControllerRevision, probe: int | None) -> str:
    """Port of HashControllerRevision: the safe-encoded FNV-1 hash of the data, plus the probe.

    With a probe (the collision count) its decimal text is hashed after the
    data, so collision count 0 hashes `...}` + `0`. The 32-bit sum is written in
    decimal and mapped through safe_encode_string (no vowels, no 0/1/3):
    upstream's 1.34 compatibility revision hashes to `776999688b`.
    """
    h = fnv1_32(raw_data(revision))
    if probe is not None:
        h = fnv1_32(str(probe).encode(), h)
    return safe_encode_string(str(h))


def sort_controller_revisions(revisions: list[V1ControllerRevision]) -> None:
    """Port of SortControllerRevisions: sort in place by revision number (stable; see ByRevision)."""
    order = ByRevision(revisions)
    keyed = sorted(range(len(revisions)), key=functools.cmp_to_key(order.compare))
    revisions[:] = [revisions[i] for i in keyed]


def _parse_int32(s: str) -> int | None:
    # Go: strconv.ParseInt(s, 10, 32), then uint32(...); None where Go returns an error.
    if not re.fullmatch(r"[+-]?[0-9]+", s):
        return None
    value = int(s)
    if not -(2**31) <= value < 2**31:
        return None
    return value & 0xFFFFFFFF


def equal_revision(lhs: V1ControllerRevision | None, rhs: V1ControllerRevision | None) -> bool:
    """Port of EqualRevision: both None, or both hold the same data.

    Hash labels that parse as numbers and differ prove inequality at once
    (safe-encoded hashes mostly contain letters, so this rarely applies);
    otherwise the data bytes decide.
    """
    if lhs is None or rhs is None:
        return lhs is rhs
    lhs_hash = _parse_int32(((lhs.metadata.labels if lhs.metadata else None) or {}).get(
        CONTROLLER_REVISION_HASH_LABEL, "x"))
    rhs_hash = _parse_int32(((rhs.metadata.labels if rhs.metadata else None) or {}).get(
        CONTROLLER_REVISION_HASH_LABEL, "x"))
    if lhs_hash is not None and rhs_hash is not None and lhs_hash != rhs_hash:
        return False
    return raw_data(lhs) == raw_data(rhs)


def find_equal_revisions(revisions: list[V1ControllerRevision],
                         needle: V1ControllerRevision) -> list[V1ControllerRevision]:
    """Port of FindEqualRevisions: the revisions equal to `needle`, in their order."""
    return [r for r in revisions if equal_revision(r, needle)]


def _creation(revision: V1ControllerRevision) -> datetime:
    # Go: a zero metav1.Time for an unset timestamp.
    ts = revision.metadata.creation_timestamp if revision.metadata else None
    return ts if ts is not None else datetime.min.replace(tzinfo=timezone.utc)


class ByRevision:
    """Port of byRevision: orders revisions by number, then creation time, then name."""

    def __init__(self, revisions: list[V1ControllerRevision]) -> None:
        self.revisions = revisions

    def __len__(self) -> int:
        return len(self.revisions)

    def less(self, i: int, j: int) -> bool:
        """Port of byRevision.Less: smaller revision first; ties go to the older, then the smaller name."""
        a, b = self.revisions[i], self.revisions[j]
        if a.revision == b.revision:
            if _creation(a) == _creation(b):
                return (a.metadata.name or "") < (b.metadata.name or "")
            return _creation(b) > _creation(a)
        return a.revision < b.revision

    def compare(self, i: int, j: int) -> int:
        """No upstream twin: `less` as a comparison function for functools.cmp_to_key."""
        if self.less(i, j):
            return -1
        if self.less(j, i):
            return 1
        return 0


# --- the history interface -----------------------------------------------------------------


class Interface(Protocol):
    """Port of Interface: how a controller reads and writes its ControllerRevisions.

    Arguments are inputs only: implementations copy before they change anything.
    """

    def list_controller_revisions(self, parent: Any, parent_kind: GroupVersionKind,
                                  selector: labels.Selector) -> list[V1ControllerRevision]:
        """The revisions matching `selector` that `parent` controls or nobody controls."""
        ...

    def create_controller_revision(self, parent: Any, revision: V1ControllerRevision,
                                   collision_count: int | None) -> tuple[V1ControllerRevision, int]:
        """Create `revision` for `parent`, renaming on a clash; returns it and the new collision count."""
        ...

    def delete_controller_revision(self, revision: V1ControllerRevision) -> None:
        """Delete `revision`; raises on failure."""
        ...

    def update_controller_revision(self, revision: V1ControllerRevision,
                                   new_revision: int) -> V1ControllerRevision:
        """Set `revision.revision` to `new_revision` (retrying on conflicts); returns the stored one."""
        ...

    def adopt_controller_revision(self, parent: Any, parent_kind: GroupVersionKind,
                                  revision: V1ControllerRevision) -> V1ControllerRevision:
        """Make `parent` the controller of the orphan `revision`; raises if it has a controller."""
        ...

    def release_controller_revision(self, parent: Any,
                                    revision: V1ControllerRevision) -> V1ControllerRevision | None:
        """Drop `parent`'s owner reference from `revision`; None when it is gone or was not owned."""
        ...


def controller_revision_controller_index_key(namespace: str, controller_ref: V1OwnerReference | None) -> str:
    """Port of ControllerRevisionControllerIndexKey (1.36): `ns/Kind/name/uid`, or `ns` for orphans."""
    if controller_ref is None:
        return namespace
    return f"{namespace}/{controller_ref.kind}/{controller_ref.name}/{controller_ref.uid}"


class _IndexedInformer(Protocol):
    def get_indexer(self) -> Indexer: ...
    def add_indexers(self, indexers: Any) -> None: ...


def add_controller_revision_controller_indexer(informer: _IndexedInformer) -> None:
    """Port of AddControllerRevisionControllerIndexer (1.36): index revisions by controller.

    Adding it twice does nothing the second time.
    """
    if CONTROLLER_REVISION_CONTROLLER_INDEX in informer.get_indexer().get_indexers():
        return

    def controller_revision_controller_index(obj: Any) -> list[str]:
        if not isinstance(obj, V1ControllerRevision):
            return []
        return [controller_revision_controller_index_key(object_meta(obj).namespace or "",
                                                         get_controller_of_no_copy(obj))]

    informer.add_indexers({CONTROLLER_REVISION_CONTROLLER_INDEX: controller_revision_controller_index})


def new_history(client: ClientInterface, lister: ControllerRevisionLister,
                indexer: Indexer | None = None, clock: Clock | None = None) -> RealHistory:
    """Port of NewHistory: the history the controller uses, over the API server.

    With `indexer` (an informer indexer with the controller-revision index),
    listing reads only the parent's and the orphans' index entries. `clock`
    (real by default) paces the conflict retries of update_controller_revision.
    """
    return RealHistory(client, lister, indexer, or_real(clock))


def new_fake_history(informer: ResourceInformer[ControllerRevisionLister]) -> FakeHistory:
    """Port of NewFakeHistory: a history kept in `informer`'s indexer, for tests."""
    return FakeHistory(informer.informer().get_indexer(), informer.lister())


def _owned(history: list[V1ControllerRevision], parent: Any) -> list[V1ControllerRevision]:
    # The revisions nobody controls or `parent` controls.
    uid = object_meta(parent).uid
    return [r for r in history if (ref := get_controller_of_no_copy(r)) is None or ref.uid == uid]


class RealHistory:
    """Port of realHistory: revisions read from the informer's cache, written to the API server."""

    def __init__(self, client: ClientInterface, lister: ControllerRevisionLister, indexer: Indexer | None,
                 clock: Clock) -> None:
        self.client = client
        self.lister = lister
        self.indexer = indexer
        """The informer's indexer with the controller index, or None to list by selector only."""
        self.clock = clock  # no Go twin: paces the conflict retries (Go sleeps in real time)

    def __repr__(self) -> str:
        return f"<RealHistory indexed={self.indexer is not None}>"

    def list_controller_revisions(self, parent: Any, parent_kind: GroupVersionKind,
                                  selector: labels.Selector) -> list[V1ControllerRevision]:
        """Port of realHistory.ListControllerRevisions: `parent`'s and the orphan revisions matching `selector`."""
        meta = object_meta(parent)
        namespace = meta.namespace or ""
        if self.indexer is not None:
            owner = V1OwnerReference(api_version=parent_kind.group_version(), kind=parent_kind.kind,
                                     name=meta.name or "", uid=meta.uid or "")
            keys = [controller_revision_controller_index_key(namespace, owner),
                    controller_revision_controller_index_key(namespace, None)]
            found: list[V1ControllerRevision] = []
            for key in keys:
                found += [r for r in self.indexer.by_index(CONTROLLER_REVISION_CONTROLLER_INDEX, key)
                          if selector.matches(labels.Set(r.metadata.labels or {}))]
            return found
        return _owned(self.lister.controller_revisions(namespace).list(selector), parent)

    def create_controller_revision(self, parent: Any, revision: V1ControllerRevision,
                                   collision_count: int | None) -> tuple[V1ControllerRevision, int]:
        """Port of realHistory.CreateControllerRevision: create, renaming while names clash.

        A name taken by a revision with the same data is that revision: it is
        returned as it is. A name taken by different data is a hash collision:
        the count goes up and the next name is tried.
        """
        if collision_count is None:
            raise ValueError("collisionCount should not be nil")
        clone = deep_copy(revision)
        namespace = object_meta(parent).namespace or ""
        while True:
            hash_ = hash_controller_revision(revision, collision_count)
            clone.metadata.name = controller_revision_name(object_meta(parent).name or "", hash_)
            try:
                created = self.client.apps_v1().controller_revisions(namespace).create(clone, CreateOptions())
            except errors.StatusError as err:
                if not errors.is_already_exists(err):
                    raise
                exists = self.client.apps_v1().controller_revisions(namespace).get(clone.metadata.name, GetOptions())
                if raw_data(exists) == raw_data(clone):
                    return exists, collision_count
                collision_count += 1
                continue
            return created, collision_count

    def update_controller_revision(self, revision: V1ControllerRevision, new_revision: int) -> V1ControllerRevision:
        """Port of realHistory.UpdateControllerRevision: renumber, retrying on conflicts with a fresh copy."""
        clone = deep_copy(revision)

        def attempt() -> None:
            nonlocal clone
            if clone.revision == new_revision:
                return
            clone.revision = new_revision
            namespace = clone.metadata.namespace or ""
            try:
                self.client.apps_v1().controller_revisions(namespace).update(clone, UpdateOptions())
                return  # as in Go, the caller gets its renumbered copy, not the server's answer
            except Exception as update_err:
                try:
                    clone = deep_copy(self.lister.controller_revisions(namespace).get(clone.metadata.name or ""))
                except errors.StatusError:
                    pass  # Go ignores a failed re-read and retries with its own copy
                raise update_err  # noqa: B904 - the update's error is the one that counts

        retry.retry_on_conflict(retry.DEFAULT_BACKOFF, attempt, self.clock)
        return clone

    def delete_controller_revision(self, revision: V1ControllerRevision) -> None:
        """Port of realHistory.DeleteControllerRevision."""
        self.client.apps_v1().controller_revisions(revision.metadata.namespace or "").delete(
            revision.metadata.name or "", DeleteOptions())

    def adopt_controller_revision(self, parent: Any, parent_kind: GroupVersionKind,
                                  revision: V1ControllerRevision) -> V1ControllerRevision:
        """Port of realHistory.AdoptControllerRevision: patch a controller reference onto an orphan.

        The strategic merge patch carries the revision's uid, so a revision
        deleted and recreated under the same name is not adopted by mistake.
        """
        owner = get_controller_of_no_copy(revision)
        if owner is not None:
            raise RuntimeError(f"attempt to adopt revision owned by {owner}")
        patch = owner_ref_controller_patch(parent, parent_kind, revision.metadata.uid or "")
        return self.client.apps_v1().controller_revisions(object_meta(parent).namespace or "").patch(
            revision.metadata.name or "", STRATEGIC_MERGE_PATCH_TYPE, patch, PatchOptions())

    def release_controller_revision(self, parent: Any,
                                    revision: V1ControllerRevision) -> V1ControllerRevision | None:
        """Port of realHistory.ReleaseControllerRevision: patch `parent`'s owner reference away.

        A revision that is gone (NotFound) or that `parent` does not own
        (Invalid) needs no release: None.
        """
        data = generate_delete_owner_ref_strategic_merge_bytes(revision.metadata.uid or "",
                                                               [object_meta(parent).uid or ""])
        try:
            return self.client.apps_v1().controller_revisions(revision.metadata.namespace or "").patch(
                revision.metadata.name or "", STRATEGIC_MERGE_PATCH_TYPE, data, PatchOptions())
        except errors.StatusError as err:
            if errors.is_not_found(err) or errors.is_invalid(err):
                return None  # deleted meanwhile, or not ours to release
            raise


class FakeHistory:
    """Port of fakeHistory: every operation goes straight to an informer's indexer."""

    def __init__(self, indexer: Indexer, lister: ControllerRevisionLister) -> None:
        self.indexer = indexer
        self.lister = lister

    def __repr__(self) -> str:
        return f"<FakeHistory revisions={len(self.indexer.list())}>"

    def list_controller_revisions(self, parent: Any, parent_kind: GroupVersionKind,
                                  selector: labels.Selector) -> list[V1ControllerRevision]:
        """Port of fakeHistory.ListControllerRevisions: by selector, then owner (parent or nobody)."""
        return _owned(self.lister.controller_revisions(object_meta(parent).namespace or "").list(selector), parent)

    def add_revision(self, revision: V1ControllerRevision) -> V1ControllerRevision:
        """Port of fakeHistory.addRevision: store `revision` unless its key is taken (AlreadyExists)."""
        key = deletion_handling_meta_namespace_key_func(revision)
        _, found = self.indexer.get_by_key(key)
        if found:
            raise errors.new_already_exists(GroupResource("apps", "controllerrevision"), revision.metadata.name or "")
        self.indexer.update(revision)
        return revision

    def create_controller_revision(self, parent: Any, revision: V1ControllerRevision,
                                   collision_count: int | None) -> tuple[V1ControllerRevision, int]:
        """Port of fakeHistory.CreateControllerRevision: any taken name counts as a collision."""
        if collision_count is None:
            raise ValueError("collisionCount should not be nil")
        clone = deep_copy(revision)
        clone.metadata.namespace = object_meta(parent).namespace
        while True:
            hash_ = hash_controller_revision(revision, collision_count)
            clone.metadata.name = controller_revision_name(object_meta(parent).name or "", hash_)
            try:
                return self.add_revision(clone), collision_count
            except errors.StatusError as err:
                if not errors.is_already_exists(err):
                    raise
                collision_count += 1

    def delete_controller_revision(self, revision: V1ControllerRevision) -> None:
        """Port of fakeHistory.DeleteControllerRevision: NotFound when it is not stored."""
        key = deletion_handling_meta_namespace_key_func(revision)
        obj, found = self.indexer.get_by_key(key)
        if not found:
            raise errors.new_not_found(CONTROLLER_REVISIONS, revision.metadata.name or "")
        self.indexer.delete(obj)

    def update_controller_revision(self, revision: V1ControllerRevision, new_revision: int) -> V1ControllerRevision:
        """Port of fakeHistory.UpdateControllerRevision: store a renumbered copy."""
        clone = deep_copy(revision)
        clone.revision = new_revision
        self.indexer.update(clone)
        return clone

    def adopt_controller_revision(self, parent: Any, parent_kind: GroupVersionKind,
                                  revision: V1ControllerRevision) -> V1ControllerRevision:
        """Port of fakeHistory.AdoptControllerRevision: add a controller reference to a stored orphan."""
        owner = get_controller_of(revision)
        if owner is not None:
            raise RuntimeError(f"attempt to adopt revision owned by {owner}")
        key = deletion_handling_meta_namespace_key_func(revision)
        _, found = self.indexer.get_by_key(key)
        if not found:
            raise errors.new_not_found(CONTROLLER_REVISIONS, revision.metadata.name or "")
        clone = deep_copy(revision)
        clone.metadata.owner_references = [*(clone.metadata.owner_references or []),
                                           new_controller_ref(parent, parent_kind)]
        self.indexer.update(clone)
        return clone

    def release_controller_revision(self, parent: Any,
                                    revision: V1ControllerRevision) -> V1ControllerRevision | None:
        """Port of fakeHistory.ReleaseControllerRevision: drop `parent`'s references; None if not stored."""
        key = deletion_handling_meta_namespace_key_func(revision)
        _, found = self.indexer.get_by_key(key)
        if not found:
            return None
        clone = deep_copy(revision)
        uid = object_meta(parent).uid
        clone.metadata.owner_references = [r for r in clone.metadata.owner_references or [] if r.uid != uid] or None
        self.indexer.update(clone)
        return clone
