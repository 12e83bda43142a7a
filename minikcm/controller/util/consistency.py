"""Port of pkg/controller/util/consistency/consistency.go (k8s.io/kubernetes/pkg/controller/util/consistency).

New in Kubernetes 1.36 (gates StaleControllerConsistencyReplicaSet,
...StatefulSet, ...Job, ...DaemonSet; beta, on by default). A controller that
writes objects (pod creates, status updates) records the resourceVersion each
write returned, per owner and per resource. Before the next sync of that owner
it asks `ensure_ready`: if an informer has not yet seen a version at least as
new as the controller's last write, the sync is refused with a
`ConsistencyError` and retried later, so the controller never acts on a cache
that does not yet show its own work (the source of duplicate pod creates).

    owner (ns/name) --writes--> OwnerRecord{owner_uid, {GroupResource: newest written RV}}
    ensure_ready(owner): every written RV <= that resource's informer
        last_store_sync_resource_version()  -> ready, record dropped
                                       else -> ConsistencyError

Start reading at: RealConsistencyStore.ensure_ready, then OwnerRecord.wrote_at.

Not ported: nothing.
Differs from Go:
- `ensure_ready` raises ConsistencyError instead of returning it (PORTING §4).
- OwnerRecord.ensure_ready walks resources in sorted (group, resource) order
  (Go: map order), so with two lagging resources the error names the first.
- Go's RWMutex is a plain Lock.
- compare_resource_version, from k8s.io/apimachinery/pkg/util/resourceversion,
  lives here (its PORTING home would be minikcm.apimachinery.resourceversion).
"""

from __future__ import annotations

import threading
from typing import Protocol

from minikcm.apimachinery.schema import GroupResource
from minikcm.apimachinery.types import UID, NamespacedName


class InvalidResourceVersion(ValueError):
    """Port of InvalidResourceVersion (apimachinery util/resourceversion): an RV that is not a positive integer."""

    def __init__(self, rv: str) -> None:
        self.rv = rv
        super().__init__(f"resource version is not well formed: {rv}")


def compare_resource_version(a: str, b: str) -> int:
    """Port of CompareResourceVersion (k8s.io/apimachinery/pkg/util/resourceversion/resourceversion.go).

    -1, 0 or +1 as `a` is older than, equal to or newer than `b`. Both must be
    positive decimal integers without leading zeros ("0" is invalid: it is a
    special value in list and watch). They may be longer than any machine
    integer: a longer string is larger, equal lengths compare as text, so
    "9" < "10" and "123" < "124".

    Raises:
        InvalidResourceVersion: `a` or `b` is not well formed.
    """
    if not _is_well_formed(a):
        raise InvalidResourceVersion(a)
    if not _is_well_formed(b):
        raise InvalidResourceVersion(b)
    if len(a) != len(b):
        return -1 if len(a) < len(b) else 1
    return (a > b) - (a < b)


def _is_well_formed(s: str) -> bool:
    # Go: isWellFormed (ASCII digits only, no leading zero, not empty).
    return s != "" and s[0] != "0" and all("0" <= ch <= "9" for ch in s)


class ConsistencyStore(Protocol):
    """Port of ConsistencyStore: what a controller needs from a consistency store."""

    def wrote_at(self, owner: NamespacedName, owner_uid: UID, resource: GroupResource, rv: str) -> None:
        """Record that a write for `owner` returned resourceVersion `rv` of `resource`."""
        ...

    def clear(self, owner: NamespacedName, owner_uid: UID) -> None:
        """Forget `owner` if its record has `owner_uid` (any record when `owner_uid` is empty)."""
        ...

    def ensure_ready(self, owner: NamespacedName) -> None:
        """Raise ConsistencyError unless the informers have seen every recorded write."""
        ...


class ConsistencyError(Exception):
    """Port of ConsistencyError: an informer still lags behind a recorded write.

    Carries the versions compared and the resource, so that the caller can
    count requeues per resource (upstream's ReplicaSetRequeueSkips metric).
    """

    def __init__(self, read_rv: str, wrote_rv: str, group_resource: GroupResource) -> None:
        self.read_rv = read_rv
        """The newest resourceVersion the informer's store has seen."""
        self.wrote_rv = wrote_rv
        """The newest resourceVersion the controller wrote."""
        self.group_resource = group_resource
        super().__init__(
            f"read version: {read_rv} is not as new as written version: {wrote_rv} "
            f"for group resource {group_resource}"
        )


class LastSyncRVGetter(Protocol):
    """Port of LastSyncRVGetter: an informer store that knows the newest version it has seen."""

    def last_store_sync_resource_version(self) -> str:
        """Port of LastSyncRVGetter.LastStoreSyncResourceVersion (consistency.go)."""


class OwnerRecord:
    """Port of ownerRecord: the newest written resourceVersion per resource, for one owner incarnation.

    `owner_uid` never changes after creation; a new incarnation of the owner
    (same name, new UID) gets a new record.
    """

    def __init__(self, owner_uid: UID) -> None:
        self.owner_uid = owner_uid
        """UID of the owner this record belongs to; fixed for the record's life."""
        self.versions_lock = threading.Lock()  # guards versions
        self.versions: dict[GroupResource, str] = {}

    def wrote_at(self, resource: GroupResource, rv: str) -> None:
        """Port of ownerRecord.WroteAt: keep `rv` if it is newer than the recorded one.

        A first write is always kept. A version that cannot be compared (not a
        positive integer) replaces the recorded one, as upstream does.
        """
        with self.versions_lock:
            current = self.versions.get(resource)
            if current is None:
                self.versions[resource] = rv
                return
            try:
                if compare_resource_version(current, rv) >= 0:
                    return
            except InvalidResourceVersion:
                pass  # Go: a comparison error falls through and overwrites
            self.versions[resource] = rv

    def ensure_ready(self, c: RealConsistencyStore) -> None:
        """Port of ownerRecord.EnsureReady: raise unless every informer read >= what was written.

        Resources without a store, stores that report "" (no resourceVersion
        tracking) and versions that cannot be compared are skipped, so a data
        problem never blocks syncing.
        """
        with self.versions_lock:
            for gr in sorted(self.versions, key=lambda g: (g.group, g.resource)):  # Go: map order
                wrote_rv = self.versions[gr]
                store = c.stores.get(gr)
                if store is None:
                    continue
                read_rv = store.last_store_sync_resource_version()
                if read_rv == "":
                    continue
                try:
                    newer = compare_resource_version(wrote_rv, read_rv) > 0
                except InvalidResourceVersion:
                    continue  # a data problem must not block syncing
                if newer:
                    raise ConsistencyError(read_rv=read_rv, wrote_rv=wrote_rv, group_resource=gr)


def new_owner_record(owner_uid: UID) -> OwnerRecord:
    """Port of newOwnerRecord."""
    return OwnerRecord(owner_uid)


class RealConsistencyStore:
    """Port of RealConsistencyStore: owner -> OwnerRecord, checked against informer stores.

    Thread: any. `writes_lock` guards the map; each record guards its own versions.
    `ensure_ready` must not run concurrently with `wrote_at` for the same owner
    (one worker syncs one key at a time, so it never does).
    """

    def __init__(self, stores: dict[GroupResource, LastSyncRVGetter] | None) -> None:
        self.writes_lock = threading.Lock()  # guards writes
        self.writes: dict[NamespacedName, OwnerRecord] = {}
        self.stores: dict[GroupResource, LastSyncRVGetter] = dict(stores or {})
        """The informer store to compare against, per resource."""

    def get_written_record(self, owner: NamespacedName) -> OwnerRecord | None:
        """Port of getWrittenRecord: the owner's record, or None."""
        with self.writes_lock:
            return self.writes.get(owner)

    def ensure_written_record(self, owner: NamespacedName, owner_uid: UID) -> OwnerRecord:
        """Port of ensureWrittenRecord: the owner's record for `owner_uid`, made if needed.

        A record for another UID (an earlier incarnation of the owner) is
        replaced by an empty one.
        """
        record = self.get_written_record(owner)
        if record is not None and record.owner_uid == owner_uid:
            return record  # fast path
        with self.writes_lock:
            record = self.writes.get(owner)  # again, under the lock
            if record is not None and record.owner_uid == owner_uid:
                return record
            record = new_owner_record(owner_uid)
            self.writes[owner] = record
            return record

    def wrote_at(self, owner: NamespacedName, owner_uid: UID, resource: GroupResource, rv: str) -> None:
        """Port of RealConsistencyStore.WroteAt: remember `rv` if it is the newest write for `resource`."""
        self.ensure_written_record(owner, owner_uid).wrote_at(resource, rv)

    def clear(self, owner: NamespacedName, owner_uid: UID) -> None:
        """Port of RealConsistencyStore.Clear: drop the owner's record if the UID matches (or is empty)."""
        with self.writes_lock:
            record = self.writes.get(owner)
            if record is not None and (owner_uid == "" or record.owner_uid == owner_uid):
                del self.writes[owner]

    def ensure_ready(self, owner: NamespacedName) -> None:
        """Port of RealConsistencyStore.EnsureReady.

        Returns when the owner has no record, or when the informers have seen
        all its writes (the record is then dropped: once caught up, later reads
        can only be newer). Otherwise raises the record's ConsistencyError.
        """
        record = self.get_written_record(owner)
        if record is None:
            return
        record.ensure_ready(self)
        self.clear(owner, record.owner_uid)


def new_consistency_store(stores: dict[GroupResource, LastSyncRVGetter] | None) -> RealConsistencyStore:
    """Port of NewConsistencyStore: a store that compares against the given informer stores."""
    return RealConsistencyStore(stores)


class NoopConsistencyStore:
    """Port of NoopConsistencyStore: records nothing and is always ready (the gate is off)."""

    def wrote_at(self, owner: NamespacedName, owner_uid: UID, resource: GroupResource, rv: str) -> None:
        """Port of NoopConsistencyStore.WroteAt: does nothing."""

    def read_at(self, resource: GroupResource, rv: str) -> None:
        """Port of NoopConsistencyStore.ReadAt: does nothing."""

    def clear(self, owner: NamespacedName, owner_uid: UID) -> None:
        """Port of NoopConsistencyStore.Clear: does nothing."""

    def ensure_ready(self, owner: NamespacedName) -> None:
        """Port of NoopConsistencyStore.EnsureReady: always ready."""


def new_noop_consistency_store() -> NoopConsistencyStore:
    """Port of NewNoopConsistencyStore."""
    return NoopConsistencyStore()
