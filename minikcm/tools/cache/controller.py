"""Port of k8s.io/client-go/tools/cache/controller.go.

The plain informer: a Reflector fills a queue (RealFIFO, since InOrderInformers
is GA at 1.36) and the `controller` pops it, one item at a time, into a
process function. For the informers built here (`new_informer` & co.) that
function is `process_deltas`: it applies the changes to the client-side store
(the indexer) first, then tells a `ResourceEventHandler` (on_add / on_update /
on_delete), so a handler that reads the cache already sees the change it is
told about. `process_replaced_all_info` does the same for an atomic relist,
working out deletions against the store. The handler adapters
(`ResourceEventHandlerFuncs`, `FilteringResourceEventHandler`) and the
tombstone-aware key function live here too. The shared informer
(shared_informer.py) reuses Config, the controller and process_deltas.

Start reading at: ControllerImpl.process_next, then process_deltas, then ResourceEventHandler.

Not ported: contextual loggers (the `logger` parameters are dropped), the
`...WithContext` twins, `WatchErrorHandlerWithContext`, informer identity and
metrics (`Identifier`, `InformerMetricsProvider`), the deprecated
NewTransformingInformer and NewTransformingIndexerInformer (use
new_informer_with_options with `transform`).
Differs from Go:
- ResourceEventHandlerFuncs & co. are dataclasses of optional callables.
- process_deltas* raise where Go returns an error.
- The Go interface `Controller` and the struct `controller` clash in Python:
  the protocol keeps `Controller`, the struct is `ControllerImpl`. Likewise the
  unexported `newInformer` is `new_informer_internal`, since `NewInformer`
  takes `new_informer`.
- A raising process function (a handler of a plain informer, a store or
  index error) is Go's panic in processLoop: runtime.handle_crash runs the
  PANIC_HANDLERS and, with REALLY_CRASH on (the default, as in Go), re-raises:
  the threaded `run` ends (Go: the process exits) and under the driver the
  exception reaches the driver's caller. With REALLY_CRASH off the popped
  item is lost and popping resumes one second of the clock later (Go: the
  period of the wait.Until around processLoop).
- The client-go feature gates this file reads are module constants
  (FEATURE_IN_ORDER_INFORMERS & co., set as at 1.36), read at call time.
- One code path per loop: `steps()` (for the driver of a driven clock) gives
  the reflector's steps and one `process` step (`process_next`, one pop per
  run); `run()` starts a reflector thread looping over the same reflector
  steps and pops with the same `process_next` on the calling thread.
"""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from minikcm.apimachinery import runtime, wait
from minikcm.clock import Clock, RealClock, Seconds
from minikcm.driver import Step

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
    DeltaFIFO,
    DeltaFIFOOptions,
    Deltas,
    TransformFunc,
    new_delta_fifo_with_options,
)
from minikcm.tools.cache.fifo import FIFO, ErrFIFOClosed, Queue, QueueWithBatch
from minikcm.tools.cache.index import Indexer, Indexers
from minikcm.tools.cache.listwatch import ListerWatcher
from minikcm.tools.cache.object_names import ObjectName, parse_object_name
from minikcm.tools.cache.reflector import Reflector, ReflectorOptions, WatchErrorHandler, new_reflector_with_options
from minikcm.tools.cache.store import (
    TRANSACTION_TYPE_ADD,
    TRANSACTION_TYPE_DELETE,
    TRANSACTION_TYPE_UPDATE,
    Key,
    KeyFunc,
    Store,
    Transaction,
    TransactionStore,
    meta_namespace_key_func,
    new_indexer,
    new_store,
    object_to_name,
)
from minikcm.tools.cache.the_real_fifo import (
    BookmarkInfo,
    RealFIFO,
    RealFIFOOptions,
    ReplacedAllInfo,
    SyncAllInfo,
    new_real_fifo_with_options,
    reconcile_replacement,
)

if TYPE_CHECKING:
    from minikcm.tools.cache.shared_informer import DoneChecker

logger = logging.getLogger(__name__)

PROCESS_LOOP_PERIOD: Seconds = 1.0
"""Port of the period of the wait.Until around processLoop: the pause after a crash with REALLY_CRASH off."""

FEATURE_IN_ORDER_INFORMERS = True
"""Stand-in for client-go's InOrderInformers gate (GA, locked on at 1.36): informers use RealFIFO."""
FEATURE_ATOMIC_FIFO = True
"""Stand-in for the AtomicFIFO gate (beta, on): relists and resyncs are single atomic deltas."""
FEATURE_UNLOCK_WHILE_PROCESSING_FIFO = True
"""Stand-in for the UnlockWhileProcessingFIFO gate (beta, on)."""
FEATURE_IN_ORDER_INFORMERS_BATCH_PROCESS = True
"""Stand-in for the InOrderInformersBatchProcess gate (beta, on): pop runs of deltas as one batch."""


@dataclass
class Config:
    """Port of Config (controller.go): everything a controller needs to run an informer loop.

    Go embeds the Queue and the ListerWatcher; here they are the fields
    `queue` and `lister_watcher`.
    """

    queue: Queue
    """Filled by the reflector, drained by process_next. Its has_synced is the controller's."""
    lister_watcher: ListerWatcher
    """Lists and watches the objects the reflector puts in `queue`."""
    process: ProcessFunc
    """Called with each popped item (a Deltas) and is_in_initial_list."""
    process_batch: ProcessBatchFunc | None = None
    """Called with a batch of deltas (distinct objects) when the queue can pop batches."""
    object_type: Any = None
    """An example object: the reflector drops watch events of any other class."""
    object_description: str = ""
    """What the objects are, for logs; empty means derived from object_type."""
    full_resync_period: Seconds = 0.0
    """How often the reflector asks should_resync; 0 turns resyncs off."""
    min_watch_timeout: Seconds = 0.0
    """Honoured only above the reflector's 5-minute default."""
    should_resync: ShouldResyncFunc | None = None
    """Asked on each resync period; None means resync every time."""
    watch_error_handler: WatchErrorHandler | None = None
    """Called when a list-and-watch pass fails; None keeps the reflector's default."""
    watch_list_page_size: int = 0
    """Page size of the reflector's lists; 0 lets it choose."""


ShouldResyncFunc = Callable[[], bool]
"""Port of ShouldResyncFunc: asked by the reflector whether a periodic resync is due."""

ProcessFunc = Callable[[Any, bool], None]
"""Port of ProcessFunc: handles one popped item (a Deltas); the bool is is_in_initial_list."""

ProcessBatchFunc = Callable[[list[Delta], bool], None]
"""Port of ProcessBatchFunc: handles a batch of deltas, at most one per object."""


class ControllerImpl:
    """Port of controller (controller.go): runs one reflector and pops its queue into `config.process`.

    Thread: in threaded mode `run` starts the reflector thread and pops on the
    calling thread; on a driven clock the driver calls `steps()` (the same bodies).
    Differs from Go: named ControllerImpl because the interface keeps `Controller`.
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        self.reflector: Reflector | None = None  # made by build_reflector; guarded by _reflector_lock
        self._reflector_lock = threading.Lock()  # Go: reflectorMutex (an RWMutex)
        self.clock: Clock = RealClock()
        """The reflector's clock; shared informers replace it with their own (as Go does)."""
        self.rng: random.Random | None = None
        """No upstream twin: seeded source for the reflector's watch timeouts and jitter."""
        self.use_batch_process: bool | None = None  # decided at the first pop, as processLoop does
        self.resume_at: datetime | None = None  # after a crash with REALLY_CRASH off: wait.Until's period

    def __repr__(self) -> str:
        return f"<ControllerImpl queue={self.config.queue!r} reflector={self.reflector!r}>"

    def run(self, stop: threading.Event) -> None:
        """Port of controller.Run (controller.go): run the reflector and pop the queue until `stop` is set.

        Starts the reflector in a thread named `reflector/<name>` and a thread
        that closes the queue once `stop` is set; pops on the calling thread.
        Threaded mode only: the driver of a driven clock uses steps() instead.
        Blocks: until `stop` is set and the reflector thread has ended.
        A raising process function goes through runtime.handle_crash (see process_next).
        """
        try:
            queue = self.config.queue

            def close_queue_on_stop() -> None:  # Go: the goroutine waiting on ctx.Done()
                stop.wait()
                queue.close()

            r = self.build_reflector()
            threading.Thread(name=f"controller/{r.name}/close-queue", target=close_queue_on_stop, daemon=True).start()
            reflector_thread = threading.Thread(name=f"reflector/{r.name}", target=r.run, args=(stop,), daemon=True)
            reflector_thread.start()  # Go: wg.StartWithContext(ctx, r.RunWithContext)
            wait.until(functools.partial(self.process_loop, stop), PROCESS_LOOP_PERIOD, stop, self.clock)
            reflector_thread.join()  # Go: wg.Wait()
        except Exception:
            runtime.handle_crash()  # Go: deferred HandleCrash; re-raises unless REALLY_CRASH is off

    def build_reflector(self) -> Reflector:
        """No upstream twin. The part of Run that makes the reflector (once), shared by run and steps."""
        with self._reflector_lock:
            if self.reflector is not None:
                return self.reflector
            c = self.config
            r = new_reflector_with_options(
                c.lister_watcher, c.object_type, c.queue,
                ReflectorOptions(resync_period=c.full_resync_period, min_watch_timeout=c.min_watch_timeout,
                                 type_description=c.object_description, clock=self.clock, rng=self.rng))
            r.should_resync = c.should_resync
            r.watch_list_page_size = c.watch_list_page_size
            if c.watch_error_handler is not None:
                r.watch_error_handler = c.watch_error_handler
            self.reflector = r
            return r

    def steps(self) -> list[Step]:
        """No upstream twin. The reflector's steps, then one `process` step (one pop per run)."""
        r = self.build_reflector()
        return r.steps() + [Step(f"controller/{r.name}/process", self.process_ready, self.process_next,
                                 lambda: self.resume_at, delivers=True)]

    def has_synced(self) -> bool:
        """Port of controller.HasSynced: the queue has handed out its whole initial list."""
        return self.config.queue.has_synced()

    def has_synced_checker(self) -> DoneChecker:
        """Port of controller.HasSyncedChecker: the queue's checker (name() and done())."""
        return self.config.queue.has_synced_checker()

    def last_sync_resource_version(self) -> str:
        """Port of controller.LastSyncResourceVersion: the reflector's, or "" before it exists."""
        with self._reflector_lock:
            if self.reflector is None:
                return ""
            return self.reflector.last_sync_resource_version()

    def process_loop(self, stop: threading.Event) -> None:
        """Port of controller.processLoop (controller.go): pop until the queue closes or `stop` is set.

        Returns after a crash with REALLY_CRASH off, so that wait.until calls it
        again a period later. Blocks: in pop, while the queue is empty (threaded mode only).
        """
        self.resume_at = None
        while not stop.is_set():
            if not self.process_next() or self.resume_at is not None:
                return

    def process_ready(self) -> bool:
        """No upstream twin. True when process_next would not block: something is queued, no crash pause runs."""
        return queue_has_items(self.config.queue) and (self.resume_at is None or self.clock.now() >= self.resume_at)

    def process_next(self) -> bool:
        """Port of one turn of controller.processLoop: pop one item (or one batch) into the process function.

        Batches are used when the queue can pop them, a batch function is set
        and the InOrderInformersBatchProcess gate is on.
        An exception from the process function is a panic (module docstring):
        runtime.handle_crash re-raises it unless REALLY_CRASH is off; then the
        item stays popped and popping resumes a second later (`resume_at`).
        Returns False once the queue is closed and empty.
        Blocks: while the queue is empty (never under the driver, see process_ready).
        """
        q, c = self.config.queue, self.config
        if self.use_batch_process is None:
            self.use_batch_process = (isinstance(q, QueueWithBatch) and c.process_batch is not None
                                      and FEATURE_IN_ORDER_INFORMERS_BATCH_PROCESS)
        try:
            if self.use_batch_process:
                q.pop_batch(c.process_batch, c.process)  # type: ignore[attr-defined]
            else:
                q.pop(c.process)
        except ErrFIFOClosed:
            return False
        except Exception:
            runtime.handle_crash()  # Go: Until's HandleCrash around processLoop; re-raises unless REALLY_CRASH is off
            self.resume_at = self.clock.now() + timedelta(seconds=PROCESS_LOOP_PERIOD)
        else:
            self.resume_at = None
        return True


class Controller(Protocol):
    """Port of Controller (controller.go): what the low-level informer constructors hand back."""

    def run(self, stop: threading.Event) -> None:
        """Port of Controller.Run (controller.go)."""
    def has_synced(self) -> bool:
        """Port of Controller.HasSynced (controller.go)."""
    def has_synced_checker(self) -> DoneChecker:
        """Port of Controller.HasSyncedChecker (controller.go)."""
    def last_sync_resource_version(self) -> str:
        """Port of Controller.LastSyncResourceVersion (controller.go)."""


def new(c: Config) -> ControllerImpl:
    """Port of New (controller.go): a controller for `c`, on the real clock."""
    return ControllerImpl(c)


def queue_has_items(queue: Queue) -> bool:
    """No upstream twin. Whether pop would find something without waiting (closed queues count: pop returns).

    Go has no need for it: a goroutine simply blocks in Pop.
    """
    if isinstance(queue, RealFIFO):
        return bool(queue.items) or queue.closed
    if isinstance(queue, DeltaFIFO):
        return bool(queue.queue) or queue.closed
    if isinstance(queue, FIFO):
        return any(key in queue.items for key in queue.queue) or queue.closed
    raise TypeError(f"queue_has_items does not know {type(queue).__name__}")


class ResourceEventHandler(Protocol):
    """Port of ResourceEventHandler (controller.go): what an informer notifies.

    Handlers must not change the objects they are given (nor anything
    reachable from them): the objects are the cache's own.

    - on_add: an object appeared; `is_in_initial_list` is true while the
      informer delivers its first list.
    - on_update: `old_obj` is the last state the cache had, so several changes
      may be folded into one call. A relist or resync also calls it, even when
      nothing changed: handy for periodic re-checks.
    - on_delete: the final state, or a DeletedFinalStateUnknown when the
      deletion was only noticed at a relist.
    """

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        """Port of ResourceEventHandler.OnAdd (controller.go)."""
    def on_update(self, old_obj: Any, new_obj: Any) -> None:
        """Port of ResourceEventHandler.OnUpdate (controller.go)."""
    def on_delete(self, obj: Any) -> None:
        """Port of ResourceEventHandler.OnDelete (controller.go)."""


@dataclass
class ResourceEventHandlerFuncs:
    """Port of ResourceEventHandlerFuncs (controller.go): a handler from up to three plain functions.

    Missing functions make their event a no-op. `add_func` takes just the
    object; use ResourceEventHandlerDetailedFuncs to receive is_in_initial_list.
    """

    add_func: Callable[[Any], None] | None = None
    update_func: Callable[[Any, Any], None] | None = None
    delete_func: Callable[[Any], None] | None = None

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        """Port of ResourceEventHandlerFuncs.OnAdd: call add_func, if set."""
        if self.add_func is not None:
            self.add_func(obj)

    def on_update(self, old_obj: Any, new_obj: Any) -> None:
        """Port of ResourceEventHandlerFuncs.OnUpdate: call update_func, if set."""
        if self.update_func is not None:
            self.update_func(old_obj, new_obj)

    def on_delete(self, obj: Any) -> None:
        """Port of ResourceEventHandlerFuncs.OnDelete: call delete_func, if set."""
        if self.delete_func is not None:
            self.delete_func(obj)


@dataclass
class ResourceEventHandlerDetailedFuncs:
    """Port of ResourceEventHandlerDetailedFuncs (controller.go): like ResourceEventHandlerFuncs,
    but `add_func(obj, is_in_initial_list)` learns whether the add belongs to the initial list."""

    add_func: Callable[[Any, bool], None] | None = None
    update_func: Callable[[Any, Any], None] | None = None
    delete_func: Callable[[Any], None] | None = None

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        """Port of ResourceEventHandlerDetailedFuncs.OnAdd: call add_func, if set."""
        if self.add_func is not None:
            self.add_func(obj, is_in_initial_list)

    def on_update(self, old_obj: Any, new_obj: Any) -> None:
        """Port of ResourceEventHandlerDetailedFuncs.OnUpdate: call update_func, if set."""
        if self.update_func is not None:
            self.update_func(old_obj, new_obj)

    def on_delete(self, obj: Any) -> None:
        """Port of ResourceEventHandlerDetailedFuncs.OnDelete: call delete_func, if set."""
        if self.delete_func is not None:
            self.delete_func(obj)


@dataclass
class FilteringResourceEventHandler:
    """Port of FilteringResourceEventHandler (controller.go): pass on only events whose object passes `filter_func`.

    An update that makes an object start passing is an add for `handler`;
    one that makes it stop passing is a delete. The filter must not change
    the objects either.
    """

    filter_func: Callable[[Any], bool]
    handler: ResourceEventHandler

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        """Port of FilteringResourceEventHandler.OnAdd."""
        if not self.filter_func(obj):
            return
        self.handler.on_add(obj, is_in_initial_list)

    def on_update(self, old_obj: Any, new_obj: Any) -> None:
        """Port of FilteringResourceEventHandler.OnUpdate: update, add, delete or nothing.

        | old passes | new passes | handler gets        |
        | yes        | yes        | on_update(old, new) |
        | no         | yes        | on_add(new, False)  |
        | yes        | no         | on_delete(old)      |
        | no         | no         | nothing             |
        """
        newer = self.filter_func(new_obj)
        older = self.filter_func(old_obj)
        if newer and older:
            self.handler.on_update(old_obj, new_obj)
        elif newer and not older:
            self.handler.on_add(new_obj, False)
        elif not newer and older:
            self.handler.on_delete(old_obj)

    def on_delete(self, obj: Any) -> None:
        """Port of FilteringResourceEventHandler.OnDelete."""
        if not self.filter_func(obj):
            return
        self.handler.on_delete(obj)


def deletion_handling_meta_namespace_key_func(obj: Any) -> Key:
    """Port of DeletionHandlingMetaNamespaceKeyFunc (controller.go).

    meta_namespace_key_func that also accepts a tombstone, returning the key
    it carries. Delete handlers use it, since they may get either.
    """
    if isinstance(obj, DeletedFinalStateUnknown):
        return obj.key
    return meta_namespace_key_func(obj)


def deletion_handling_object_to_name(obj: Any) -> ObjectName:
    """Port of DeletionHandlingObjectToName (controller.go): object_to_name that also accepts a tombstone."""
    if isinstance(obj, DeletedFinalStateUnknown):
        return parse_object_name(obj.key)
    return object_to_name(obj)



@dataclass
class InformerOptions:
    """Port of InformerOptions (controller.go)."""

    lister_watcher: ListerWatcher
    """The source of the objects."""
    object_type: Any
    """An example object of the expected class."""
    handler: ResourceEventHandler
    """Told about every change, after the store has it."""
    resync_period: Seconds = 0.0
    """How often every cached object is sent to on_update again; 0 for never."""
    min_watch_timeout: Seconds = 0.0
    """Honoured only above the reflector's 5-minute default."""
    indexers: Indexers | None = None
    """None: a plain store; otherwise an indexer with these indices."""
    transform: TransformFunc | None = None
    """Applied to each object before it is queued."""


def new_informer_with_options(options: InformerOptions) -> tuple[Store, ControllerImpl]:
    """Port of NewInformerWithOptions (controller.go): a store kept in sync, and the controller that feeds it.

    Returns the store (an indexer when `options.indexers` is set) and the
    controller; run the controller (or its steps) to fill the store and call
    the handler.
    """
    client_state: Store
    if options.indexers is None:
        client_state = new_store(deletion_handling_meta_namespace_key_func)
    else:
        client_state = new_indexer(deletion_handling_meta_namespace_key_func, options.indexers)
    return client_state, new_informer_internal(client_state, options, deletion_handling_meta_namespace_key_func)


def new_informer(lw: ListerWatcher, obj_type: Any, resync_period: Seconds,
                 h: ResourceEventHandler) -> tuple[Store, ControllerImpl]:
    """Port of NewInformer (controller.go), deprecated upstream: new_informer_with_options with a plain store."""
    client_state = new_store(deletion_handling_meta_namespace_key_func)
    options = InformerOptions(lister_watcher=lw, object_type=obj_type, handler=h, resync_period=resync_period)
    return client_state, new_informer_internal(client_state, options, deletion_handling_meta_namespace_key_func)


def new_indexer_informer(lw: ListerWatcher, obj_type: Any, resync_period: Seconds, h: ResourceEventHandler,
                         indexers: Indexers) -> tuple[Indexer, ControllerImpl]:
    """Port of NewIndexerInformer (controller.go), deprecated upstream: the same with an indexer."""
    client_state = new_indexer(deletion_handling_meta_namespace_key_func, indexers)
    options = InformerOptions(lister_watcher=lw, object_type=obj_type, handler=h, resync_period=resync_period,
                              indexers=indexers)
    return client_state, new_informer_internal(client_state, options, deletion_handling_meta_namespace_key_func)


def process_deltas(
    handler: ResourceEventHandler,
    client_state: Store,
    deltas: Deltas,
    is_in_initial_list: bool,
    key_func: KeyFunc,
) -> None:
    """Port of processDeltas (controller.go): apply deltas to the store, then notify, oldest first.

    - SYNC, REPLACED, ADDED, UPDATED: update the store and call on_update(old,
      new) when the key was there, else add and call on_add.
    - DELETED: delete from the store, then on_delete.
    - REPLACED_ALL: process_replaced_all_info.
    - SYNC_ALL: on_update(obj, obj) for every stored object.
    - BOOKMARK: record the resource version in the store.

    Tricky: a SYNC_ALL delta ends the walk; deltas after it in the same
    Deltas are not looked at (upstream returns there too; RealFIFO never puts
    anything after it, since each of its Deltas holds one delta).

    Raises:
        TypeError: a marker delta carries the wrong object.
        KeyErr / any store error: the store rejected the object.
    """
    for d in deltas:
        obj = d.object
        if d.type == REPLACED_ALL:
            if not isinstance(obj, ReplacedAllInfo):
                raise TypeError(f"ReplacedAll did not contain ReplacedAllInfo: {type(obj).__name__}")
            process_replaced_all_info(handler, obj, client_state, is_in_initial_list, key_func)
        elif d.type == SYNC_ALL:
            if not isinstance(obj, SyncAllInfo):
                raise TypeError(f"SyncAll did not contain SyncAllInfo: {type(obj).__name__}")
            for stored in client_state.list():
                handler.on_update(stored, stored)
            return
        elif d.type in (SYNC, REPLACED, ADDED, UPDATED):
            old, exists = stored_object(client_state, obj)
            if exists:
                client_state.update(obj)
                handler.on_update(old, obj)
            else:
                client_state.add(obj)
                handler.on_add(obj, is_in_initial_list)
        elif d.type == DELETED:
            client_state.delete(obj)
            handler.on_delete(obj)
        elif d.type == BOOKMARK:
            if not isinstance(obj, BookmarkInfo):
                raise TypeError(f"bookmark delta did not contain BookmarkInfo: {type(obj).__name__}")
            client_state.bookmark(obj.resource_version)


def stored_object(client_state: Store, obj: Any) -> tuple[Any, bool]:
    """No upstream twin. Store.get where a key error reads as "not stored", as Go's `err == nil && exists` does.

    The add that follows reports the key error.
    """
    try:
        return client_state.get(obj)
    except Exception:  # see the docstring: the caller's add raises the same error
        return None, False


def process_deltas_in_batch(
    handler: ResourceEventHandler,
    client_state: Store,
    deltas: list[Delta],
    is_in_initial_list: bool,
    key_func: KeyFunc,
) -> None:
    """Port of processDeltasInBatch (controller.go): process_deltas for a batch of distinct objects.

    With a TransactionStore, all writes go in one transaction and the handler
    calls follow, only for the writes that succeeded. Otherwise each delta goes
    through process_deltas on its own and the errors are collected.

    Raises:
        RuntimeError: some deltas failed (the others were applied and notified).
        ValueError: a delta type that cannot be batched (REPLACED_ALL, SYNC_ALL, BOOKMARK).
    """
    if not isinstance(client_state, TransactionStore):
        errs: list[Exception] = []
        for delta in deltas:
            try:
                process_deltas(handler, client_state, Deltas([delta]), is_in_initial_list, key_func)
            except Exception as err:  # collected and raised together below
                errs.append(err)
        if errs:
            raise RuntimeError(f"unexpected error when handling deltas: {errs}")
        return

    txns: list[Transaction] = []
    callbacks: list[Callable[[], None]] = []  # callbacks[i] belongs to txns[i]
    for d in deltas:
        obj = d.object
        if d.type in (SYNC, REPLACED, ADDED, UPDATED):
            old, exists = stored_object(client_state, obj)  # one lookup per object: the batch has no repeats
            if exists:
                txns.append(Transaction(obj, TRANSACTION_TYPE_UPDATE))
                callbacks.append(functools.partial(handler.on_update, old, obj))
            else:
                txns.append(Transaction(obj, TRANSACTION_TYPE_ADD))
                callbacks.append(functools.partial(handler.on_add, obj, is_in_initial_list))
        elif d.type == DELETED:
            txns.append(Transaction(obj, TRANSACTION_TYPE_DELETE))
            callbacks.append(functools.partial(handler.on_delete, obj))
        else:
            raise ValueError(f"Delta type {d.type} is not supported in batch processing")

    err = client_state.transaction(*txns)
    if err is not None:
        for i in err.successful_indices:  # notify only what reached the store
            if i < len(callbacks):
                callbacks[i]()
        raise RuntimeError(f"not all items in the batch successfully processed: {err}") from err
    for callback in callbacks:
        callback()


def process_replaced_all_info(
    handler: ResourceEventHandler,
    info: ReplacedAllInfo,
    client_state: Store,
    is_in_initial_list: bool,
    key_func: KeyFunc,
) -> None:
    """Port of processReplacedAllInfo (controller.go): apply an atomic relist and notify.

    Compares the new list with the store (reconcile_replacement with no
    queued items), replaces the store's content in one step, then calls
    on_delete for every vanished object (a tombstone), then on_update or
    on_add for each listed object, in list order. Handlers therefore always
    read a store that already shows the whole relist; the order of calls is
    the one RealFIFO's per-item replace would produce.
    """
    deletions: list[DeletedFinalStateUnknown] = []
    replacements: list[tuple[Any, Any]] = []  # (old or None, new)

    def on_delete(obj: DeletedFinalStateUnknown) -> None:
        deletions.append(obj)

    def on_replace(obj: Any) -> None:
        old, exists = stored_object(client_state, obj)  # same rule as process_deltas for REPLACED
        replacements.append((old if exists else None, obj))

    reconcile_replacement(None, client_state, info.objects, key_func, on_delete, on_replace)

    client_state.replace(info.objects, info.resource_version)  # the store first, so handlers see it
    for tombstone in deletions:
        handler.on_delete(tombstone)
    for old_obj, new_obj in replacements:
        if old_obj is not None:
            handler.on_update(old_obj, new_obj)
        else:
            handler.on_add(new_obj, is_in_initial_list)


def new_informer_internal(client_state: Store, options: InformerOptions, key_func: KeyFunc) -> ControllerImpl:
    """Port of newInformer (controller.go): the controller behind the NewInformer family.

    Its process functions apply each popped Deltas (or batch) to
    `client_state` and then call `options.handler` (process_deltas).
    Differs from Go: renamed, because NewInformer is `new_informer`.
    """
    fifo = new_queue_fifo(options.object_type, client_state, options.transform)
    handler = options.handler

    def process(obj: Any, is_in_initial_list: bool) -> None:
        if not isinstance(obj, Deltas):
            raise TypeError("object given as Process argument is not Deltas")
        process_deltas(handler, client_state, obj, is_in_initial_list, key_func)

    def process_batch(deltas: list[Delta], is_in_initial_list: bool) -> None:
        process_deltas_in_batch(handler, client_state, deltas, is_in_initial_list, key_func)

    cfg = Config(queue=fifo, lister_watcher=options.lister_watcher, object_type=options.object_type,
                 full_resync_period=options.resync_period, min_watch_timeout=options.min_watch_timeout,
                 process=process, process_batch=process_batch)
    return new(cfg)


def new_queue_fifo(object_type: Any, client_state: Store, transform: TransformFunc | None) -> Queue:
    """Port of newQueueFIFO (controller.go): the queue an informer uses.

    At 1.36 (InOrderInformers GA, AtomicFIFO and UnlockWhileProcessingFIFO on)
    that is an atomic RealFIFO: relists and resyncs arrive as one delta each,
    bookmarks travel through the queue, and the lock is released while the
    process function runs. With the gates off: a RealFIFO that knows the
    client store, or (InOrderInformers off) the older DeltaFIFO.
    """
    type_name = type(object_type).__name__
    if FEATURE_IN_ORDER_INFORMERS:
        options = RealFIFOOptions(name=f"RealFIFO {type_name}", key_function=meta_namespace_key_func,
                                  transformer=transform)
        if FEATURE_ATOMIC_FIFO:
            options.atomic_events = True
            options.unlock_while_processing = FEATURE_UNLOCK_WHILE_PROCESSING_FIFO
            options.emit_delta_type_bookmark = True
        else:
            options.known_objects = client_state
        return new_real_fifo_with_options(options)
    return new_delta_fifo_with_options(DeltaFIFOOptions(name=f"DeltaFIFO {type_name}", known_objects=client_state,
                                                        emit_delta_type_replaced=True, transformer=transform))
