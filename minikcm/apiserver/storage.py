"""No upstream twin. The versioned object store under the embedded API server.

kube-apiserver keeps objects in etcd and serves watches from a per-resource
watch cache (k8s.io/apiserver/pkg/storage/etcd3 and .../storage/cacher). This
module is both in small: objects are wire dicts keyed by (resource, namespace,
name), every write takes the next value of one resourceVersion counter shared
by all resources (etcd's revision), and each resource keeps a bounded window of
its recent changes from which watches, exact lists and continued lists are served.

The registry (`minikcm.apiserver.registry`) writes through it and the cacher
(`minikcm.apiserver.cacher`) reads its history. Callers hold `Storage.lock`
around a whole API operation (read, decide, write), which is what makes each
operation atomic and lets exactly one of two racing updates win.

Start reading at: Storage.update_locked, then Storage._commit_locked and
Storage._record_locked.

Design notes: stored dicts are never changed in place. A write stores a new
dict, so the history window and the registry can hold references to old
states without copying; anything handed out of the server is a copy
(`deep_copy_json`). Watch events are put into each watcher's ResultChan during
the write, under the lock, so every watcher sees events in resourceVersion
order and a single-threaded deterministic run sees them as soon as the write
returns. A watcher that does not keep up is closed with an error rather than
allowed to hold up writers (`CacheWatcher.deliver_locked`). With a
`persistence` (SQLite, `minikcm.apiserver.persistence`), each write is
committed there first, in `_commit_locked`, and applied in memory only once
it is on disk; a restored store starts with an empty history window whose
floor is the restored resourceVersion (`compacted_resource_version`).

Differs from upstream:
- One lock for the whole store (etcd and the cacher are lock-free or sharded).
- The history window counts events per resource (the watch cache's capacity),
  with a fixed size instead of upstream's dynamic resizing.
- Older states are rebuilt from the history window (`list_at_locked`) instead
  of being read from etcd's MVCC revisions or the cache's snapshots: an exact
  list or a continue token works for as long as the window reaches back to
  its version, and gets 410 Expired after that (etcd: after compaction).
"""

from __future__ import annotations

import collections
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from minikcm.apimachinery import watch

if TYPE_CHECKING:
    from minikcm.apiserver.cacher import CacheWatcher
    from minikcm.apiserver.persistence import SQLitePersistence

Key = tuple[str, str]
"""An object's place in its resource: (namespace, name); namespace is "" when cluster-scoped."""

T = TypeVar("T")

DEFAULT_HISTORY_WINDOW = 1000
"""Events kept per resource for watches that resume from a resourceVersion."""


def deep_copy_json(value: T) -> T:
    """Copy a wire value (dicts, lists and scalars), the only kind the store holds.

    Several times faster than `copy.deepcopy` (and than a JSON round trip) for
    these values, since it knows the only containers are dicts and lists.
    """
    return cast(T, _copy_json(value))


def _copy_json(value: Any) -> Any:
    if type(value) is dict:
        return {k: _copy_json(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy_json(v) for v in value]
    return value


def key_string(key: Key) -> str:
    """The key as etcd orders it: `namespace/name`, or `name` when cluster-scoped.

    Lists come back in this string order, as upstream's do (so `a-b/x` sorts
    before `a/x`, since "-" sorts before "/").
    """
    return f"{key[0]}/{key[1]}" if key[0] else key[1]


def object_key(obj: dict[str, Any]) -> Key:
    """The (namespace, name) key of a wire object."""
    meta = obj.get("metadata") or {}
    return meta.get("namespace") or "", meta.get("name") or ""


class KeyExistsError(Exception):
    """Port of the storage layer's ErrCodeKeyExists: create found the key taken."""


class KeyNotFoundError(Exception):
    """Port of the storage layer's ErrCodeKeyNotFound: no object under the key."""


@dataclass(frozen=True)
class WatchCacheEvent:
    """One stored change, as upstream's watchCacheEvent keeps it.

    `object` is the new state (for DELETED: the last state, carrying the
    resourceVersion of the deletion); `prev_object` the state before (None for
    ADDED). Watchers need both to turn a change into ADDED or DELETED when an
    object starts or stops matching their selectors.
    """

    type: str
    object: dict[str, Any]
    prev_object: dict[str, Any] | None
    resource_version: int


class Storage:
    """The store: objects, the resourceVersion counter, per-resource history and watchers.

    Invariants: `resource_version` only grows; every stored object's
    metadata.resourceVersion is the counter value of the write that stored it;
    each resource's history holds its last `history_window` events in order.
    Thread: any. Methods ending in `_locked` need `lock` held (it is re-entrant);
    the others take it. `__repr__` takes no lock.
    """

    def __init__(self, history_window: int = DEFAULT_HISTORY_WINDOW,
                 persistence: SQLitePersistence | None = None) -> None:
        if history_window < 1:
            raise ValueError("history_window must be at least 1")
        self.lock = threading.RLock()
        """Held by the registry around each whole API operation."""
        self.history_window = history_window
        self._rv = 0  # the last resourceVersion handed out (etcd's revision)
        self._objects: dict[str, dict[Key, dict[str, Any]]] = collections.defaultdict(dict)
        self._history: dict[str, collections.deque[WatchCacheEvent]] = {}
        self._evicted: dict[str, bool] = {}  # resource -> has any event left the window
        self._last_write: dict[str, int] = {}  # resource -> rv of its latest write
        self._watchers: dict[str, list[CacheWatcher]] = collections.defaultdict(list)
        self.persistence = persistence
        """Where writes are committed before they are applied (None: memory only)."""
        self.compacted_resource_version = 0
        """The version the store was restored at: no watch can resume from before it."""
        if persistence is not None:
            self._restore(persistence)

    def _restore(self, persistence: SQLitePersistence) -> None:
        """Take the objects and the counter from `persistence` (at start, before any write).

        The history window starts empty, as a watch cache does after a restart,
        so watches from older versions get 410 Expired and clients relist.
        """
        rv, objects = persistence.load()
        for resource, obj in objects:
            self._objects[resource][object_key(obj)] = obj
        self._rv = self.compacted_resource_version = rv

    def close(self) -> None:
        """Close the persistence, if any (writes after this fail). Memory-only: nothing to do."""
        with self.lock:
            if self.persistence is not None:
                self.persistence.close()

    @property
    def resource_version(self) -> int:
        """The current resourceVersion: that of the latest write to any resource."""
        return self._rv

    # -- reads -------------------------------------------------------------------------

    def get_locked(self, resource: str, key: Key) -> dict[str, Any] | None:
        """The stored object under `key`, or None. The dict is the store's: do not change it."""
        return self._objects[resource].get(key)

    def list_locked(self, resource: str, namespace: str = "") -> list[dict[str, Any]]:
        """The stored objects of `resource` in key order, only `namespace` when given."""
        objects = self._objects[resource]
        keys = sorted((k for k in objects if not namespace or k[0] == namespace), key=key_string)
        return [objects[k] for k in keys]

    def list_at_locked(self, resource: str, namespace: str, resource_version: int) -> list[dict[str, Any]] | None:
        """The objects of `resource` as they were at `resource_version`, in key order (only `namespace` when given).

        What etcd gives an exact list and a paged list's later pages: a read at
        that revision. Here it is the current objects with the kept history after
        that version undone, newest first. None when the version is out of
        reach, as after an etcd compaction: before the restore point, or when
        events after it have already left the history window.
        """
        if resource_version < self.compacted_resource_version:
            return None
        if self._last_write.get(resource, 0) <= resource_version:
            return self.list_locked(resource, namespace)
        oldest = self.oldest_watchable_locked(resource)
        if oldest is not None and resource_version < oldest:
            return None
        snapshot = dict(self._objects[resource])
        for event in reversed(self._history.get(resource, ())):
            if event.resource_version <= resource_version:
                break
            key = object_key(event.object)
            if event.prev_object is None:  # created after the version: it did not exist then
                snapshot.pop(key, None)
            else:  # changed or deleted after the version: it was prev_object then
                snapshot[key] = event.prev_object
        keys = sorted((k for k in snapshot if not namespace or k[0] == namespace), key=key_string)
        return [snapshot[k] for k in keys]

    def count_locked(self, resource: str, namespace: str = "") -> int:
        """How many objects of `resource` exist (in `namespace` when given)."""
        return sum(1 for k in self._objects[resource] if not namespace or k[0] == namespace)

    def modified_since_locked(self, resource: str, resource_version: int) -> bool:
        """Whether any object of `resource` was written after `resource_version`.

        Before the restore point nothing is known, so it counts as modified.
        """
        last = max(self._last_write.get(resource, 0), self.compacted_resource_version)
        return last > resource_version

    # -- writes ------------------------------------------------------------------------

    def create_locked(self, resource: str, obj: dict[str, Any], dry_run: bool = False) -> dict[str, Any]:
        """Store a new object; it becomes the store's (the caller must not keep changing it).

        Raises:
            KeyExistsError: an object already lives under the same key.
        """
        key = object_key(obj)
        if key in self._objects[resource]:
            raise KeyExistsError(key)
        if dry_run:
            return obj
        self._write_locked(resource, key, obj, watch.ADDED, None)
        return obj

    def update_locked(self, resource: str, obj: dict[str, Any], dry_run: bool = False) -> dict[str, Any]:
        """Replace the object under `obj`'s key with `obj`, at a new resourceVersion.

        Raises:
            KeyNotFoundError: nothing to replace.
        """
        key = object_key(obj)
        prev = self._objects[resource].get(key)
        if prev is None:
            raise KeyNotFoundError(key)
        if dry_run:
            return obj
        self._write_locked(resource, key, obj, watch.MODIFIED, prev)
        return obj

    def delete_locked(self, resource: str, key: Key, dry_run: bool = False) -> dict[str, Any]:
        """Remove the object under `key`; returns its last state stamped with the delete's version.

        Raises:
            KeyNotFoundError: nothing to delete.
        """
        prev = self._objects[resource].get(key)
        if prev is None:
            raise KeyNotFoundError(key)
        if dry_run:
            return prev
        rv = self._rv + 1
        last = dict(prev)
        last["metadata"] = {**prev["metadata"], "resourceVersion": str(rv)}
        self._commit_locked(resource, key, None, rv)
        del self._objects[resource][key]
        self._record_locked(resource, WatchCacheEvent(watch.DELETED, last, prev, rv))
        return last

    def _write_locked(self, resource: str, key: Key, obj: dict[str, Any], event_type: str,
                      prev: dict[str, Any] | None) -> None:
        rv = self._rv + 1
        obj.setdefault("metadata", {})["resourceVersion"] = str(rv)
        self._commit_locked(resource, key, obj, rv)
        self._objects[resource][key] = obj
        self._record_locked(resource, WatchCacheEvent(event_type, obj, prev, rv))

    def _commit_locked(self, resource: str, key: Key, obj: dict[str, Any] | None, rv: int) -> None:
        """Make one write durable, then take its resourceVersion: the one place every write passes.

        `obj` is the new state under `key`, or None for a delete. With a
        persistence, the write is committed to SQLite first; if that fails, the
        error (a 500 StatusError) propagates before anything in memory changed,
        so the counter, the objects and the watchers are as they were.
        """
        if self.persistence is not None:
            self.persistence.commit(resource, key, obj, rv)
        self._rv = rv

    def _record_locked(self, resource: str, event: WatchCacheEvent) -> None:
        """Append `event` to the resource's window and hand it to every watcher of the resource."""
        history = self._history.get(resource)
        if history is None:
            history = self._history[resource] = collections.deque(maxlen=self.history_window)
        if len(history) == self.history_window:
            self._evicted[resource] = True  # the oldest event is about to fall out
        history.append(event)
        self._last_write[resource] = event.resource_version
        watchers = self._watchers.get(resource)
        if not watchers:
            return
        for watcher in list(watchers):
            if not watcher.deliver_locked(event):
                watchers.remove(watcher)  # it fell behind and was closed with an error

    # -- watch -------------------------------------------------------------------------

    def oldest_watchable_locked(self, resource: str) -> int | None:
        """Port of the bound in watchCache.getAllEventsSinceLocked.

        None while no event of `resource` has left the window (any version can
        be resumed from); otherwise the oldest version a watch may start at,
        which is one before the oldest event still kept. A store restored from
        persistence starts with that bound at the restored version.
        """
        if not self._evicted.get(resource):
            return self.compacted_resource_version or None
        return self._history[resource][0].resource_version - 1

    def events_since_locked(self, resource: str, resource_version: int) -> list[WatchCacheEvent]:
        """The kept events of `resource` newer than `resource_version`, oldest first."""
        history = self._history.get(resource, ())
        return [e for e in history if e.resource_version > resource_version]

    def add_watcher_locked(self, resource: str, watcher: CacheWatcher) -> None:
        """Start delivering `resource`'s live events to `watcher`."""
        self._watchers[resource].append(watcher)

    def remove_watcher(self, watcher: CacheWatcher) -> None:
        """Stop delivering to `watcher` (a no-op when it is already gone)."""
        with self.lock:
            watchers = self._watchers.get(watcher.resource, [])
            if watcher in watchers:
                watchers.remove(watcher)

    def watchers_locked(self) -> list[CacheWatcher]:
        """Every live watcher, resources in sorted order, then in the order they started."""
        return [w for r in sorted(self._watchers) for w in self._watchers[r]]

    def dump(self) -> dict[str, Any]:
        """A copy of everything stored, for tests and debugging: rv and every object by key."""
        with self.lock:
            return {"resourceVersion": self._rv, "objects": {
                resource: {key_string(k): deep_copy_json(o) for k, o in sorted(objs.items())}
                for resource, objs in sorted(self._objects.items()) if objs}}

    def __repr__(self) -> str:
        counts = {r: len(objs) for r, objs in sorted(list(self._objects.items())) if objs}
        watching = sum(len(ws) for ws in list(self._watchers.values()))
        persisted = "" if self.persistence is None else f", persistence={self.persistence!r}"
        return f"Storage(rv={self._rv}, objects={counts}, watchers={watching}{persisted})"

