"""Port of k8s.io/client-go/tools/cache/delta_fifo.go.

A keyed queue between the reflector and the informer that remembers what
happened, not just the latest state: each key holds the list of changes
(`Deltas`) since it was last popped. `replace` (a relist) compares the new list
with what is queued and with `known_objects` (the informer's indexer) and queues
`DeletedFinalStateUnknown` tombstones for objects that vanished while the watch
was down. Informers switched to `RealFIFO` in 1.36; DeltaFIFO remains public and
keeps its tests, and its types (`Delta`, `Deltas`, the delta types, tombstones)
are shared by every queue.

Start reading at: DeltaFIFO.pop, then DeltaFIFO.queue_action_locked and DeltaFIFO.replace.

Not ported: logger options, the slow-pop trace, `NewDeltaFIFO`'s deprecation notes.
Differs from Go:
- RWMutex plus Cond become one `threading.Condition` over a `threading.Lock`.
- `replace` looks for deletions among queued keys in sorted order (Go walks a map);
  known objects come in the order their `list_keys` gives.
- Errors are raised (`KeyErr`, `ErrFIFOClosed`, the transformer's exception);
  an exception from `process` propagates out of `pop` after the item has left the queue.
- `name()` and `done()` (Go's DoneChecker) are methods; `done()` returns a `threading.Event`.
- What Go reports through utilruntime.HandleError (impossible states, failed
  lookups in the known objects) is logged at ERROR on this module's logger.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from minikcm.tools.cache.fifo import ErrFIFOClosed, PopProcessFunc
from minikcm.tools.cache.store import Key, KeyErr, KeyFunc, meta_namespace_key_func, preview_keys

logger = logging.getLogger(__name__)


@dataclass
class DeltaFIFOOptions:
    """Port of DeltaFIFOOptions (delta_fifo.go). Every field is optional."""

    name: str = ""
    """Replaces the default name "DeltaFIFO" (shown by name() and in logs)."""
    key_function: KeyFunc | None = None
    """How to key an object; meta_namespace_key_func when None."""
    known_objects: KeyListerGetter | None = None
    """The consumer's view (usually its indexer); lets replace find deletions the queue never saw."""
    emit_delta_type_replaced: bool = False
    """Queue REPLACED deltas from replace; the old default queues SYNC instead."""
    transformer: TransformFunc | None = None
    """Called on each object before it is queued."""


TransformFunc = Callable[[Any], Any]
"""Port of TransformFunc (delta_fifo.go).

Rewrites an object before it is queued or stored, typically to drop fields
nobody reads. It sees the object first, so it may change it in place; it must
be idempotent when objects already cached can be passed to replace. It runs on
the hot path: keep it cheap. Raises on failure.
"""

DeltaType = str
"""Port of DeltaType: the kind of change a Delta records."""

ADDED: DeltaType = "Added"
UPDATED: DeltaType = "Updated"
DELETED: DeltaType = "Deleted"
REPLACED: DeltaType = "Replaced"
"""A relist (or the first list) saw this object; it may or may not have changed."""
REPLACED_ALL: DeltaType = "ReplacedAll"
"""An atomic relist: the Delta's object is a ReplacedAllInfo holding the whole list (RealFIFO only)."""
SYNC: DeltaType = "Sync"
"""A periodic resync re-delivers an unchanged object."""
SYNC_ALL: DeltaType = "SyncAll"
"""An atomic resync of every known object: the Delta's object is a SyncAllInfo (RealFIFO only)."""
BOOKMARK: DeltaType = "Bookmark"
"""Carries a resource version to the consumer: the Delta's object is a BookmarkInfo (RealFIFO only)."""


@dataclass(frozen=True, slots=True)  # slots: one is built per watch event
class Delta:
    """Port of Delta (delta_fifo.go): one change and the object's state after it.

    For a deletion the object is the last state known before it went away.
    """

    type: DeltaType
    object: Any


class Deltas(list[Delta]):
    """Port of Deltas (delta_fifo.go): the changes to one object, oldest first. Never empty in a queue."""

    def oldest(self) -> Delta | None:
        """Port of Deltas.Oldest: the first change, or None."""
        return self[0] if self else None

    def newest(self) -> Delta | None:
        """Port of Deltas.Newest: the latest change, or None."""
        return self[-1] if self else None


class ErrZeroLengthDeltasObject(Exception):
    """Port of ErrZeroLengthDeltasObject (delta_fifo.go): an empty Deltas has no key."""

    def __init__(self, message: str = "0 length Deltas object; can't get key") -> None:
        super().__init__(message)


class DeltaFIFO:
    """Port of DeltaFIFO (delta_fifo.go): a keyed queue of change lists.

    Each write appends a Delta to its key's list (`items`); a key is queued once
    and keeps its place until popped, so pop hands over everything that
    happened to one object since it was last processed. Two deletions in a row
    collapse into one (dedup_deltas).

    Invariants: a key is in `queue` iff it is in `items`; no key is queued
    twice; every list in `items` is non-empty.
    """

    def __init__(self, opts: DeltaFIFOOptions | None = None) -> None:
        opts = opts or DeltaFIFOOptions()
        self._name = opts.name or "DeltaFIFO"  # Go: field name; name() is the DoneChecker method
        self.lock = threading.Lock()  # Go: RWMutex
        self.cond = threading.Condition(self.lock)  # Go: sync.Cond on the same lock
        self.items: dict[Key, Deltas] = {}
        self.queue: list[Key] = []  # keys in pop order, no duplicates
        self.synced = threading.Event()  # set once, by check_synced_locked (Go: closed channel)
        self.populated = False  # the first replace happened, or a write came before it
        self.initial_population_count = 0  # keys of the first replace not yet popped
        self.key_func: KeyFunc = opts.key_function or meta_namespace_key_func
        self.known_objects = opts.known_objects  # consulted by delete, replace, resync
        self.closed = False
        self.emit_delta_type_replaced = opts.emit_delta_type_replaced
        self._transformer = opts.transformer  # Go: field transformer; transformer() is the method

    def __repr__(self) -> str:
        return (
            f"<DeltaFIFO {self._name!r} {len(self.queue)} queued {preview_keys(self.queue)}"
            f" synced={self.synced.is_set()}>"
        )

    def close(self) -> None:
        """Port of DeltaFIFO.Close: wake every waiting pop; they raise ErrFIFOClosed once the queue is empty."""
        with self.lock:
            self.closed = True
            self.cond.notify_all()

    def key_of(self, obj: Any) -> Key:
        """Port of DeltaFIFO.KeyOf: key_func that also understands Deltas and tombstones.

        A Deltas is keyed by its newest object; a DeletedFinalStateUnknown by
        the key it carries.

        Raises:
            KeyErr: an empty Deltas, or key_func failed.
        """
        if isinstance(obj, Deltas):
            newest = obj.newest()
            if newest is None:
                raise KeyErr(obj, ErrZeroLengthDeltasObject())
            obj = newest.object
        if isinstance(obj, DeletedFinalStateUnknown):
            return obj.key
        try:
            return self.key_func(obj)
        except Exception as err:
            raise KeyErr(obj, err) from err

    def transformer(self) -> TransformFunc | None:
        """Port of DeltaFIFO.Transformer (TransformingStore): the reflector asks for it."""
        return self._transformer

    def has_synced(self) -> bool:
        """Port of DeltaFIFO.HasSynced: true once a write came first or the first replace is fully popped."""
        with self.lock:
            return self.has_synced_locked()

    def has_synced_checker(self) -> DeltaFIFO:
        """Port of DeltaFIFO.HasSyncedChecker: the queue itself (see name and done)."""
        return self

    def name(self) -> str:
        """Port of DeltaFIFO.Name (DoneChecker)."""
        return self._name

    def done(self) -> threading.Event:
        """Port of DeltaFIFO.Done (DoneChecker): set once has_synced turns true."""
        return self.synced

    def has_synced_locked(self) -> bool:
        """Port of DeltaFIFO.hasSynced_locked. Locking: `lock` held."""
        return self.synced.is_set()

    def check_synced_locked(self) -> None:
        """Port of DeltaFIFO.checkSynced_locked: set `synced` once populated and drained.

        Locking: `lock` held; call after changing populated or initial_population_count.
        """
        if self.populated and self.initial_population_count == 0 and not self.synced.is_set():
            self.synced.set()

    def add(self, obj: Any) -> None:
        """Port of DeltaFIFO.Add: queue an ADDED delta."""
        with self.lock:
            self.populated = True
            self.check_synced_locked()
            self.queue_action_locked(ADDED, obj)

    def update(self, obj: Any) -> None:
        """Port of DeltaFIFO.Update: queue an UPDATED delta."""
        with self.lock:
            self.populated = True
            self.check_synced_locked()
            self.queue_action_locked(UPDATED, obj)

    def delete(self, obj: Any) -> None:
        """Port of DeltaFIFO.Delete: queue a DELETED delta, unless the object is unknown.

        Unknown means: not queued, and (when there are known objects) not among
        them either. A relist has then already reported the deletion, and a
        second report would be a duplicate.
        """
        id_ = self.key_of(obj)
        with self.lock:
            self.populated = True
            self.check_synced_locked()
            if self.known_objects is None:
                if id_ not in self.items:
                    return  # presumably deleted by a relist already
            else:
                try:
                    _, exists = self.known_objects.get_by_key(id_)
                except Exception:  # Go: a lookup error counts as "might exist"; queue the delete
                    exists = True
                if not exists and id_ not in self.items:
                    return  # presumably deleted by a relist already
            # Known to the queue and/or the consumer; a second DELETED is deduped below.
            self.queue_action_locked(DELETED, obj)

    def queue_action_locked(self, action_type: DeltaType, obj: Any) -> None:
        """Port of DeltaFIFO.queueActionLocked: append a delta to the object's list.

        Locking: `lock` held.
        """
        self.queue_action_internal_locked(action_type, action_type, obj)

    def queue_action_internal_locked(self, action_type: DeltaType, internal_action_type: DeltaType, obj: Any) -> None:
        """Port of DeltaFIFO.queueActionInternalLocked: the body of queue_action_locked.

        `action_type` is what gets queued (SYNC or REPLACED for a replace,
        depending on emit_delta_type_replaced); `internal_action_type` is what
        really happened and decides whether the transformer runs. Tombstones
        and SYNC deltas carry objects that were transformed already.

        Locking: `lock` held.
        """
        id_ = self.key_of(obj)
        if self._transformer is not None:
            if not isinstance(obj, DeletedFinalStateUnknown) and internal_action_type != SYNC:
                obj = self._transformer(obj)

        old_deltas = self.items.get(id_)
        new_deltas = dedup_deltas(Deltas([*(old_deltas or ()), Delta(action_type, obj)]))
        if new_deltas:
            if id_ not in self.items:
                self.queue.append(id_)
            self.items[id_] = new_deltas
            self.cond.notify_all()
            return
        # Unreachable: dedup_deltas never empties a non-empty list. Report and carry on, as upstream does.
        if old_deltas is None:
            logger.error("Impossible dedupDeltas for id=%r, ignoring", id_)  # Go: utilruntime.HandleError
            return
        logger.error("Impossible dedupDeltas for id=%r, storing empty Deltas", id_)  # Go: utilruntime.HandleError
        self.items[id_] = new_deltas
        raise RuntimeError(f"Impossible dedupDeltas for id={id_!r}: broke DeltaFIFO invariant by storing empty Deltas")

    def is_closed(self) -> bool:
        """Port of DeltaFIFO.IsClosed."""
        with self.lock:
            return self.closed

    def pop(self, process: PopProcessFunc) -> Deltas:
        """Port of DeltaFIFO.Pop: take the oldest key's Deltas, process them, return them.

        The Deltas leave the queue before `process` runs; a failure is not
        retried unless the caller queues the object again.

        Blocks: until a key is queued or the queue is closed.
        Locking: `process` runs with `lock` held (upstream does the same), so it
        can update state that must stay in step with the queue, such as the
        known objects; writers wait meanwhile. It must not call back into the queue.
        Raises:
            ErrFIFOClosed: the queue is closed and empty.
        """
        with self.lock:
            while True:
                while not self.queue:
                    if self.closed:
                        raise ErrFIFOClosed()
                    self.cond.wait()
                is_in_initial_list = not self.has_synced_locked()
                id_ = self.queue.pop(0)
                if self.initial_population_count > 0:
                    self.initial_population_count -= 1
                    self.check_synced_locked()
                item = self.items.pop(id_, None)
                if item is None:
                    logger.error("Inconceivable! %r was queued but has no deltas; ignoring", id_)  # Go: HandleError
                    continue
                process(item, is_in_initial_list)
                return item  # ownership passes to the caller: no copy needed

    def replace(self, list_: list[Any], resource_version: str) -> None:
        """Port of DeltaFIFO.Replace: queue a relist, then tombstones for whatever vanished.

        1. Every object in `list_` gets a SYNC delta (REPLACED when
           emit_delta_type_replaced is set).
        2. Every queued key not in `list_` gets a DELETED delta holding
           DeletedFinalStateUnknown(key, newest queued object).
        3. Every known object not in `list_` and not queued gets the same,
           holding the known object.

        The first replace sets how many pops has_synced waits for. The
        resource version is not used here.
        """
        with self.lock:
            keys: set[Key] = set()
            action = REPLACED if self.emit_delta_type_replaced else SYNC  # SYNC keeps old clients working
            for item in list_:
                key = self.key_of(item)
                keys.add(key)
                try:
                    self.queue_action_internal_locked(action, REPLACED, item)
                except Exception as err:
                    raise RuntimeError(f"couldn't enqueue object: {err}") from err

            # Deletions among queued objects: a watch DELETED event may have been missed.
            queued_deletions = 0
            for k in sorted(self.items):
                if k in keys:
                    continue
                deleted_obj = None
                newest = self.items[k].newest()
                if newest is not None:
                    deleted_obj = newest.object
                    if isinstance(deleted_obj, DeletedFinalStateUnknown):
                        deleted_obj = deleted_obj.obj  # unwrap an earlier tombstone
                queued_deletions += 1
                self.queue_action_locked(DELETED, DeletedFinalStateUnknown(k, deleted_obj))

            # Deletions among known objects that are not queued.
            if self.known_objects is not None:
                for k in self.known_objects.list_keys():
                    if k in keys or self.items.get(k):
                        continue
                    try:
                        deleted_obj, exists = self.known_objects.get_by_key(k)
                    except Exception as err:  # tombstone without object, as upstream does
                        logger.error("Unexpected error during lookup of %r, placing tombstone without object: %s",
                                     k, err)
                        deleted_obj = None
                    else:
                        if not exists:
                            deleted_obj = None
                            logger.info("Key %r does not exist in known objects store, placing tombstone without object",
                                        k)
                    queued_deletions += 1
                    self.queue_action_locked(DELETED, DeletedFinalStateUnknown(k, deleted_obj))

            if not self.populated:
                self.populated = True
                self.initial_population_count = len(keys) + queued_deletions
                self.check_synced_locked()

    def resync(self) -> None:
        """Port of DeltaFIFO.Resync: queue a SYNC delta for each known object that is not queued.

        Does nothing without known objects.
        """
        with self.lock:
            if self.known_objects is None:
                return
            for k in self.known_objects.list_keys():
                self.sync_key_locked(k)

    def sync_key_locked(self, key: Key) -> None:
        """Port of DeltaFIFO.syncKeyLocked: queue SYNC for one known object.

        Skipped when the key already has queued deltas: the known object is
        older than what is queued, and syncing it would deliver stale state
        after newer changes.

        Locking: `lock` held.
        """
        assert self.known_objects is not None
        try:
            obj, exists = self.known_objects.get_by_key(key)
        except Exception as err:  # reported and skipped, as upstream does
            logger.error("Unexpected error during lookup of %r, unable to queue object for sync: %s", key, err)
            return
        if not exists:
            logger.info("Key %r does not exist in known objects store, unable to queue object for sync", key)
            return
        id_ = self.key_of(obj)
        if self.items.get(id_):
            return  # a newer change is queued; see the docstring
        try:
            self.queue_action_locked(SYNC, obj)
        except Exception as err:
            raise RuntimeError(f"couldn't queue object: {err}") from err


def dedup_deltas(deltas: Deltas) -> Deltas:
    """Port of dedupDeltas (delta_fifo.go): merge the last two deltas when they report the same event.

    Relists and watches can deliver one deletion twice; only deletions are
    merged today (see is_dup).
    """
    n = len(deltas)
    if n < 2:
        return deltas
    out = is_dup(deltas[n - 1], deltas[n - 2])
    if out is not None:
        return Deltas([*deltas[: n - 2], out])
    return deltas


def is_dup(a: Delta, b: Delta) -> Delta | None:
    """Port of isDup (delta_fifo.go): the delta to keep if `a` and `b` are the same event, else None."""
    return is_deletion_dup(a, b)


def is_deletion_dup(a: Delta, b: Delta) -> Delta | None:
    """Port of isDeletionDup (delta_fifo.go): of two deletions, keep the one that knows more.

    A tombstone (DeletedFinalStateUnknown) knows less than a real final state,
    so `b` (the earlier) wins unless it is a tombstone.
    """
    if b.type != DELETED or a.type != DELETED:
        return None
    if isinstance(b.object, DeletedFinalStateUnknown):
        return a
    return b


class KeyLister(Protocol):
    """Port of KeyLister (delta_fifo.go): anything that can list its keys."""

    def list_keys(self) -> list[Key]:
        """Port of KeyLister.ListKeys (delta_fifo.go)."""


class KeyGetter(Protocol):
    """Port of KeyGetter (delta_fifo.go): anything that can look an object up by key."""

    def get_by_key(self, key: Key) -> tuple[Any, bool]:
        """Port of KeyGetter.GetByKey (delta_fifo.go)."""


class KeyListerGetter(KeyLister, KeyGetter, Protocol):
    """Port of KeyListerGetter (delta_fifo.go): both; an informer's indexer is one."""


def copy_deltas(d: Deltas) -> Deltas:
    """Port of copyDeltas (delta_fifo.go): a new list holding the same Delta values."""
    return Deltas(d)


@dataclass(frozen=True)
class DeletedFinalStateUnknown:
    """Port of DeletedFinalStateUnknown (delta_fifo.go), the tombstone.

    Handed to delete handlers when an object vanished while the watch was
    down: its final state was never seen, so `obj` is the last state known
    (possibly stale, possibly None) and `key` is its cache key.
    """

    key: Key
    obj: Any


def new_delta_fifo(key_func: KeyFunc | None, known_objects: KeyListerGetter | None) -> DeltaFIFO:
    """Port of NewDeltaFIFO (delta_fifo.go), deprecated upstream: replace queues SYNC deltas.

    Use new_delta_fifo_with_options(DeltaFIFOOptions(..., emit_delta_type_replaced=True))
    to tell a relist apart from a resync.
    """
    return new_delta_fifo_with_options(DeltaFIFOOptions(key_function=key_func, known_objects=known_objects))


def new_delta_fifo_with_options(opts: DeltaFIFOOptions) -> DeltaFIFO:
    """Port of NewDeltaFIFOWithOptions (delta_fifo.go)."""
    return DeltaFIFO(opts)
