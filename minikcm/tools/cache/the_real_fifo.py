"""Port of k8s.io/client-go/tools/cache/the_real_fifo.go.

The queue informers use in 1.36 (the InOrderInformers gate is GA): every
notification from the reflector is kept, in arrival order, as its own Delta.
Nothing is merged per key, so handlers see each add, update and delete as it
happened, across all keys in one order.

A relist (`replace`) and a periodic resync come in two styles:
- atomic (`atomic_events`, what informers use: the AtomicFIFO gate is on) queues
  one REPLACED_ALL delta carrying the whole list (`ReplacedAllInfo`) or one
  SYNC_ALL delta (`SyncAllInfo`); the consumer (controller.process_replaced_all_info)
  works out deletions against its own store. Bookmarks can travel as BOOKMARK
  deltas so the store learns how far it has caught up.
- per item (needs `known_objects`): `reconcile_replacement` queues a DELETED
  tombstone for each key missing from the new list, then one REPLACED per item.

With `unlock_while_processing` (the UnlockWhileProcessingFIFO gate, on) the lock
is released while the handler runs, so the reflector is not held up by slow
handlers.

Start reading at: RealFIFO.pop, then RealFIFO.replace and reconcile_replacement.

Not ported: metrics, logger options, the slow-pop trace, `Identifier`.
Differs from Go:
- RWMutex plus Cond become one `threading.Condition` over a `threading.Lock`.
- Errors are raised (`KeyErr`, `ErrFIFOClosed`, the transformer's exception);
  an exception from a process function propagates out of pop / pop_batch after
  the deltas have left the queue. Invalid options raise RuntimeError (Go panics).
- `name()` and `done()` (Go's DoneChecker) are methods; `done()` returns a `threading.Event`.
- What Go reports through utilruntime.HandleError (impossible states, failed
  lookups in the known objects) is logged at ERROR on this module's logger.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from minikcm.tools.cache.delta_fifo import (
    ADDED,
    BOOKMARK,
    DELETED,
    REPLACED,
    REPLACED_ALL,
    SYNC,
    SYNC_ALL,
    UPDATED,
    DeletedFinalStateUnknown,
    Delta,
    Deltas,
    DeltaType,
    ErrZeroLengthDeltasObject,
    KeyListerGetter,
    TransformFunc,
)
from minikcm.tools.cache.fifo import ErrFIFOClosed, PopProcessFunc
from minikcm.tools.cache.store import Key, KeyErr, KeyFunc, meta_namespace_key_func

if TYPE_CHECKING:
    from minikcm.tools.cache.controller import ProcessBatchFunc

logger = logging.getLogger(__name__)


@dataclass
class RealFIFOOptions:
    """Port of RealFIFOOptions (the_real_fifo.go)."""

    name: str = ""
    """Replaces the default name "RealFIFO"."""
    key_function: KeyFunc | None = None
    """How to key an object; meta_namespace_key_func when None."""
    known_objects: KeyListerGetter | None = None
    """The consumer's store; required without atomic_events, forbidden with it."""
    transformer: TransformFunc | None = None
    """Called on each object before it is queued."""
    atomic_events: bool = False
    """Queue a relist as one REPLACED_ALL delta and a resync as one SYNC_ALL delta."""
    unlock_while_processing: bool = False
    """Release the lock while process functions run; needs atomic_events."""
    emit_delta_type_bookmark: bool = False
    """Queue bookmarks as BOOKMARK deltas; needs atomic_events."""


DEFAULT_BATCH_SIZE = 1000
"""Port of defaultBatchSize: at most this many deltas go to one batch."""


class RealFIFO:
    """Port of RealFIFO (the_real_fifo.go): every notification, in order.

    Unlike DeltaFIFO it delivers deletions of objects it never saw added and
    several notifications per object. `items` is the queue itself.
    """

    def __init__(self, opts: RealFIFOOptions | None = None) -> None:
        opts = opts or RealFIFOOptions()
        if opts.atomic_events:
            # The consumer must be free to change its store while we are unlocked.
            if opts.known_objects is not None:
                raise RuntimeError("coding error: known_objects must not be provided when atomic_events is true")
        else:
            if opts.unlock_while_processing:
                raise RuntimeError("coding error: unlock_while_processing must be false when atomic_events is false")
            if opts.known_objects is None:
                raise RuntimeError("coding error: known_objects must be provided when atomic_events is false")
            if opts.emit_delta_type_bookmark:
                raise RuntimeError("coding error: emit_delta_type_bookmark must be false when atomic_events is false")
        self._name = opts.name or "RealFIFO"  # Go: field name; name() is the DoneChecker method
        self.lock = threading.Lock()  # Go: RWMutex
        self.cond = threading.Condition(self.lock)  # Go: sync.Cond on the same lock
        self.items: list[Delta] = []  # the queue, oldest first
        self.synced = threading.Event()  # set once, by check_synced_locked (Go: closed channel)
        self.populated = False  # the first replace happened, or a write came before it
        self.initial_population_count = 0  # deltas of the first replace not yet processed
        self.key_func: KeyFunc = opts.key_function or meta_namespace_key_func
        self.known_objects = opts.known_objects  # None in atomic mode
        self.closed = False
        self._transformer = opts.transformer  # Go: field transformer; transformer() is the method
        self.batch_size = DEFAULT_BATCH_SIZE
        self.emit_atomic_events = opts.atomic_events
        self.unlock_while_processing = opts.unlock_while_processing  # single consumer only
        self.emit_delta_type_bookmark = opts.emit_delta_type_bookmark

    def __repr__(self) -> str:
        items = self.items[:4]  # lock-free read for debugging
        head = ", ".join(self.describe(d) for d in items[:3]) + (", ..." if len(items) > 3 else "")
        return f"<RealFIFO {self._name!r} {len(self.items)} queued [{head}] synced={self.synced.is_set()}>"

    def describe(self, d: Delta) -> str:
        """No upstream twin. `Type key` of one queued delta, for __repr__."""
        if d.type not in BATCHABLE:
            return d.type  # the marker deltas carry no single object
        try:
            return f"{d.type} {self.key_of(d)!r}"
        except Exception:  # debugging output only
            return f"{d.type} ?"

    def close(self) -> None:
        """Port of RealFIFO.Close: wake every waiting pop; they raise ErrFIFOClosed once the queue is empty."""
        with self.lock:
            self.closed = True
            self.cond.notify_all()

    def key_of(self, obj: Any) -> Key:
        """Port of RealFIFO.keyOf: key_func that also understands Deltas, a Delta and tombstones.

        Raises:
            KeyErr: an empty Deltas, or key_func failed.
        """
        if isinstance(obj, Deltas):
            newest = obj.newest()
            if newest is None:
                raise KeyErr(obj, ErrZeroLengthDeltasObject())
            obj = newest.object
        if isinstance(obj, Delta):
            obj = obj.object
        if isinstance(obj, DeletedFinalStateUnknown):
            return obj.key
        try:
            return self.key_func(obj)
        except Exception as err:
            raise KeyErr(obj, err) from err

    def has_synced(self) -> bool:
        """Port of RealFIFO.HasSynced: true once a write came first or the first replace is fully processed."""
        with self.lock:
            return self.has_synced_locked()

    def has_synced_checker(self) -> RealFIFO:
        """Port of RealFIFO.HasSyncedChecker: the queue itself (see name and done)."""
        return self

    def name(self) -> str:
        """Port of RealFIFO.Name (DoneChecker)."""
        return self._name

    def done(self) -> threading.Event:
        """Port of RealFIFO.Done (DoneChecker): set once has_synced turns true."""
        return self.synced

    def has_synced_locked(self) -> bool:
        """Port of RealFIFO.hasSynced_locked. Locking: `lock` held."""
        return self.synced.is_set()

    def check_synced_locked(self) -> None:
        """Port of RealFIFO.checkSynced_locked: set `synced` once populated and drained.

        Locking: `lock` held; call after changing populated or initial_population_count.
        """
        if self.populated and self.initial_population_count == 0 and not self.synced.is_set():
            self.synced.set()

    def add_to_items_locked(self, delta_action_type: DeltaType, skip_transform: bool, obj: Any) -> None:
        """Port of RealFIFO.addToItems_locked: append one delta.

        The key is computed only to reject objects without one. Tombstones and
        `skip_transform` objects (resyncs of cached objects) are not transformed again.

        Locking: `lock` held.
        """
        self.key_of(obj)
        if self._transformer is not None and not skip_transform and not isinstance(obj, DeletedFinalStateUnknown):
            obj = self._transformer(obj)
        self.items.append(Delta(delta_action_type, obj))
        self.cond.notify_all()

    def add_replace_to_items_locked(self, objs: list[Any], resource_version: str) -> None:
        """Port of RealFIFO.addReplaceToItemsLocked: append one REPLACED_ALL delta for a whole relist.

        Locking: `lock` held.
        """
        if self._transformer is not None:
            objs = [self._transformer(obj) for obj in objs]  # these objects are new: transform them all
        self.items.append(Delta(REPLACED_ALL, ReplacedAllInfo(resource_version, objs)))
        self.cond.notify_all()

    def add_resync_to_items_locked(self) -> None:
        """Port of RealFIFO.addResyncToItemsLocked: append one SYNC_ALL delta. Locking: `lock` held."""
        self.items.append(Delta(SYNC_ALL, SyncAllInfo()))
        self.cond.notify_all()

    def add(self, obj: Any) -> None:
        """Port of RealFIFO.Add: queue an ADDED delta."""
        with self.lock:
            self.populated = True
            self.check_synced_locked()
            self.add_to_items_locked(ADDED, False, obj)

    def update(self, obj: Any) -> None:
        """Port of RealFIFO.Update: queue an UPDATED delta."""
        with self.lock:
            self.populated = True
            self.check_synced_locked()
            self.add_to_items_locked(UPDATED, False, obj)

    def delete(self, obj: Any) -> None:
        """Port of RealFIFO.Delete: queue a DELETED delta, whether or not the object was ever seen."""
        with self.lock:
            self.populated = True
            self.check_synced_locked()
            self.add_to_items_locked(DELETED, False, obj)

    def is_closed(self) -> bool:
        """Port of RealFIFO.IsClosed."""
        with self.lock:
            return self.closed

    def pop(self, process: PopProcessFunc) -> Deltas:
        """Port of RealFIFO.Pop: take the oldest delta, process it (wrapped in a Deltas), return it.

        The initial-list count drops only after `process` returns, so
        has_synced never turns true while the last initial item is still
        being handled.

        Blocks: until a delta is queued or the queue is closed.
        Locking: `process` runs with `lock` held, unless unlock_while_processing
        is set (then see while_processing_locked). One consumer only.
        Raises:
            ErrFIFOClosed: the queue is closed and empty.
        """
        with self.lock:
            while not self.items:
                if self.closed:
                    raise ErrFIFOClosed()
                self.cond.wait()
            is_in_initial_list = not self.has_synced_locked()
            item = self.items.pop(0)
            popped = Deltas([item])  # a Deltas, as consumers of the older queues expect

            def process_popped() -> None:
                process(popped, is_in_initial_list)

            try:
                self.while_processing_locked(process_popped)
            finally:  # Go: deferred, so it runs after processing
                if self.initial_population_count > 0:
                    self.initial_population_count -= 1
                    self.check_synced_locked()
            return popped

    def while_processing_locked(self, process: Callable[[], None]) -> None:
        """Port of RealFIFO.whileProcessing_locked: run `process`, unlocked if allowed.

        The lock is released around `process` when unlock_while_processing is
        set and fewer than two full batches are queued, so producers can keep
        adding; past that, holding the lock throttles them.

        Locking: `lock` held on entry and on return.
        """
        if self.unlock_while_processing and len(self.items) < self.batch_size * 2:
            self.lock.release()
            try:
                process()
            finally:
                self.lock.acquire()  # Go: deferred Lock
            return
        process()

    def pop_batch(self, process_batch: ProcessBatchFunc, process_single: PopProcessFunc) -> None:
        """Port of RealFIFO.PopBatch: hand over a run of deltas at once.

        The batch takes deltas from the front while they are batchable (not
        REPLACED_ALL, SYNC_ALL or BOOKMARK), their keys are distinct, the batch
        is below batch_size, and it does not mix initial-list deltas with later
        ones. A lone delta goes to `process_single`, several to `process_batch`.
        A delta whose key cannot be computed ends the batch but still goes with it.

        Blocks: until a delta is queued or the queue is closed.
        Locking: as pop.
        Raises:
            ErrFIFOClosed: the queue is closed and empty.
        """
        with self.lock:
            while not self.items:
                if self.closed:
                    raise ErrFIFOClosed()
                self.cond.wait()
            is_in_initial_list = not self.has_synced_locked()
            deltas = self.take_batch_locked()

            def process_taken() -> None:
                if len(deltas) == 1:
                    process_single(Deltas(deltas), is_in_initial_list)
                else:
                    process_batch(deltas, is_in_initial_list)

            try:
                self.while_processing_locked(process_taken)
            finally:  # Go: deferred, so it runs after processing
                if self.initial_population_count > 0:
                    self.initial_population_count -= len(deltas)
                    self.check_synced_locked()

    def take_batch_locked(self) -> list[Delta]:
        """No upstream twin: the selection loop of PopBatch, removing the chosen deltas from `items`.

        Locking: `lock` held; `items` is not empty.
        """
        unique: set[Key] = set()
        deltas: list[Delta] = []
        for i in range(min(self.batch_size, len(self.items))):
            if 0 < self.initial_population_count <= i:
                break  # never mix the initial list with later deltas
            item = self.items[i]
            if item.type not in BATCHABLE:
                if not deltas:
                    deltas.append(item)  # an unbatchable delta first in line goes alone
                break
            try:
                id_ = self.key_of(item)
            except Exception:  # the broken delta still leaves the queue, closing the batch
                deltas.append(item)
                break
            if id_ in unique:
                break  # a batch never holds two deltas of one object
            unique.add(id_)
            deltas.append(item)
        del self.items[: len(deltas)]
        return deltas

    def bookmark(self, resource_version: str) -> None:
        """Port of RealFIFO.Bookmark: queue a BOOKMARK delta, when emit_delta_type_bookmark is set."""
        if not self.emit_delta_type_bookmark:
            return
        with self.lock:
            self.items.append(Delta(BOOKMARK, BookmarkInfo(resource_version)))
            self.cond.notify_all()

    def replace(self, new_items: list[Any], resource_version: str) -> None:
        """Port of RealFIFO.Replace: queue a relist.

        Atomic mode queues one REPLACED_ALL delta. Otherwise reconcile_replacement
        queues a tombstone for every queued or known key missing from
        `new_items`, then a REPLACED delta per new item. The first replace sets
        how many deltas has_synced waits for (everything queued by then).
        """
        with self.lock:
            if self.emit_atomic_events:
                self.add_replace_to_items_locked(new_items, resource_version)
            else:
                assert self.known_objects is not None  # checked at construction

                def on_delete(obj: DeletedFinalStateUnknown) -> None:
                    self.add_to_items_locked(DELETED, True, obj)

                def on_replace(obj: Any) -> None:
                    self.add_to_items_locked(REPLACED, False, obj)

                reconcile_replacement(self.items, self.known_objects, new_items, self.key_of, on_delete, on_replace)

            if not self.populated:
                self.populated = True
                self.initial_population_count = len(self.items)
                self.check_synced_locked()

    def resync(self) -> None:
        """Port of RealFIFO.Resync: queue SYNC_ALL (atomic), or SYNC for each known object not queued.

        A known object with a queued delta is skipped: the queued change is
        newer than the cached object.
        """
        with self.lock:
            if self.emit_atomic_events:
                self.add_resync_to_items_locked()
                return
            if self.known_objects is None:
                return
            keys_in_queue: set[Key] = set()
            for item in self.items:
                keys_in_queue.add(self.key_of(item.object))
            for known_key in self.known_objects.list_keys():
                if known_key in keys_in_queue:
                    continue
                try:
                    known_obj, exists = self.known_objects.get_by_key(known_key)
                except Exception as err:  # reported and skipped, as upstream does
                    logger.error("Unable to queue object %r for sync: %s", known_key, err)  # Go: HandleError
                    continue
                if not exists:
                    logger.error("Key %r does not exist in known objects store, unable to queue object for sync",
                                 known_key)
                    continue
                self.add_to_items_locked(SYNC, True, known_obj)

    def transformer(self) -> TransformFunc | None:
        """Port of RealFIFO.Transformer (TransformingStore): the reflector asks for it."""
        return self._transformer


@dataclass
class ReplacedAllInfo:
    """Port of ReplacedAllInfo (the_real_fifo.go): the object of a REPLACED_ALL delta."""

    resource_version: str
    """The resource version passed to replace."""
    objects: list[Any] = field(default_factory=list)
    """The new list, already transformed."""


@dataclass(frozen=True)
class BookmarkInfo:
    """Port of BookmarkInfo (the_real_fifo.go): the object of a BOOKMARK delta."""

    resource_version: str


@dataclass(frozen=True)
class SyncAllInfo:
    """Port of SyncAllInfo (the_real_fifo.go): the (empty) object of a SYNC_ALL delta."""


BATCHABLE: frozenset[DeltaType] = frozenset({SYNC, REPLACED, ADDED, UPDATED, DELETED})
"""Port of batchable: delta types pop_batch may put in a batch."""


def reconcile_replacement(
    queued_items: list[Delta] | None,
    known_objects: KeyListerGetter,
    new_items: list[Any],
    key_of: KeyFunc,
    on_delete: Callable[[DeletedFinalStateUnknown], None],
    on_replace: Callable[[Any], None],
) -> None:
    """Port of reconcileReplacement (the_real_fifo.go): turn a relist into deletes and replaces.

    1. A key that is queued (`queued_items`) but not in `new_items`, and whose
       last queued delta is not already a deletion, gets
       on_delete(DeletedFinalStateUnknown(key, last queued object)).
    2. A key in `known_objects` that is neither in `new_items` nor queued gets
       on_delete(DeletedFinalStateUnknown(key, known object or None)).
    3. Then on_replace(obj) for each new item, in list order.

    Deletions come first so handlers never see an object replaced and then
    deleted by the same relist. Used by RealFIFO.replace (non-atomic) and by
    controller.process_replaced_all_info (atomic, with no queued items).

    Raises:
        KeyErr: a key could not be computed.
    """
    new_keys: set[Key] = set()
    for obj in new_items:
        new_keys.add(key_or_raise(key_of, obj))

    queued_keys: list[Key] = []  # first-seen order
    last_queued_item_for_key: dict[Key, Delta] = {}
    for queued_item in queued_items or ():
        queued_key = key_or_raise(key_of, queued_item.object)
        if queued_key not in last_queued_item_for_key:
            queued_keys.append(queued_key)
        last_queued_item_for_key[queued_key] = queued_item

    # Queued deletions stay meaningful either way: a delete followed by a replace
    # of the same key is a new object under an old name.
    for queued_key in queued_keys:
        if queued_key in new_keys:
            continue
        last_queued_item = last_queued_item_for_key[queued_key]
        if last_queued_item.type == DELETED:
            continue  # already reported as deleted
        # A watch DELETED event was missed while disconnected.
        try:
            on_delete(DeletedFinalStateUnknown(queued_key, last_queued_item.object))
        except Exception as err:
            raise RuntimeError(f"couldn't enqueue object: {err}") from err

    for known_key in known_objects.list_keys():
        if known_key in new_keys or known_key in last_queued_item_for_key:
            continue  # still present, or handled above
        try:
            deleted_obj, exists = known_objects.get_by_key(known_key)
        except Exception as err:  # tombstone without object, as upstream does
            logger.error("Error during lookup of %r, placing tombstone without object: %s", known_key, err)
            deleted_obj = None
        else:
            if not exists:
                deleted_obj = None
                logger.error("Key %r does not exist in known objects store, placing tombstone without object",
                             known_key)
        try:
            on_delete(DeletedFinalStateUnknown(known_key, deleted_obj))
        except Exception as err:
            raise RuntimeError(f"couldn't enqueue object: {err}") from err

    for obj in new_items:
        try:
            on_replace(obj)
        except Exception as err:
            raise RuntimeError(f"couldn't enqueue object: {err}") from err


def key_or_raise(key_of: KeyFunc, obj: Any) -> Key:
    """No upstream twin. Go wraps every key failure of reconcileReplacement in KeyError; ours may already be one."""
    try:
        return key_of(obj)
    except KeyErr:
        raise
    except Exception as err:
        raise KeyErr(obj, err) from err


def new_real_fifo(
    key_func: KeyFunc | None, known_objects: KeyListerGetter | None, transformer: TransformFunc | None
) -> RealFIFO:
    """Port of NewRealFIFO (the_real_fifo.go), deprecated upstream: non-atomic, with known objects."""
    return new_real_fifo_with_options(
        RealFIFOOptions(key_function=key_func, known_objects=known_objects, transformer=transformer)
    )


def new_real_fifo_with_options(opts: RealFIFOOptions) -> RealFIFO:
    """Port of NewRealFIFOWithOptions (the_real_fifo.go).

    Raises:
        RuntimeError: inconsistent options (Go panics): known_objects with
            atomic_events, or unlock_while_processing / emit_delta_type_bookmark
            without it, or neither known_objects nor atomic_events.
    """
    return RealFIFO(opts)
