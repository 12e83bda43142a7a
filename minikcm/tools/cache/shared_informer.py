"""Port of k8s.io/client-go/tools/cache/shared_informer.go.

One informer, many handlers. A shared index informer runs one controller
(reflector -> RealFIFO -> process) whose process function, `handle_deltas`,
applies each change to the shared indexer and then hands a notification to the
`sharedProcessor`, which copies it into every registered handler's
`processorListener`. Each listener has an unbounded buffer and delivers to its
handler in order, so a slow handler delays only itself. Listeners may ask for
periodic resyncs (every cached object again, as an update) at their own period.

Start reading at: SharedIndexInformerImpl.handle_deltas, then SharedProcessor.distribute,
then ProcessorListener.deliver_one (the step that ProcessorListener.run's thread loops over).

Design notes. One code path per loop: every loop is a step method, and a
thread only waits for work and then calls that step. Threaded mode
(`run(stop)`) has threads `reflector/<name>` (the reflector's steps), the
caller's (`process_next`), `informer/<name>/processor` (starts and stops the
listeners), `informer/<name>/synced` (waits, then `mark_synced`) and per
listener `informer/<name>/listener-<n>` (waits, then `deliver_one`) and
`.../listener-synced-<n>` (waits, then `pass_on_sync`).
On a driven clock (`steps()`) the driver calls the same bodies in this fixed
order: the reflector's list, watch and resync; `controller/<name>/process` (one
pop); `informer/<name>/synced`; `informer/<name>/listeners`, where each
listener in registration order passes the sync on and delivers one buffered
notification. Listeners come and go
while the informer runs, so they share that one step rather than needing the
driver to learn about each. Upstream's processorListener needs a second
goroutine, `pop`, only to make its channel unbounded (addCh -> ring buffer ->
nextCh); a deque under a Condition is unbounded already, so `add` appends,
`pop` takes, and one `run` thread per listener delivers. For the same reason
`distribute` never waits for the listeners to start (upstream's listenersRCond).

Not ported: the cache mutation detector, informer identity and metrics, the
processorListener trace for long backlogs, `sharedProcessorRunHook`,
contextual loggers and the `...WithContext` twins, `HandlerOptions.Logger`,
`SyncResult` and `WaitForCacheSyncWithContext`, the deprecated GetController
and dummyController. The handler names come from event_handler_name.py.
Differs from Go:
- The Go interface `SharedIndexInformer` and the struct `sharedIndexInformer`
  clash in Python: the protocol keeps the name, the struct is
  `SharedIndexInformerImpl` (likewise `sharedProcessor` -> `SharedProcessor`,
  `processorListener` -> `ProcessorListener`, with no protocol to clash).
- RWMutexes are plain Locks; channels closed as broadcasts are Events;
  `done()` of a checker returns a `threading.Event`.
- Listeners are kept in registration order (Go iterates a map).
- Errors are raised: adding a handler to a stopped informer, removing a
  registration of the wrong type, setting a transform after start.
- `wait_for_cache_sync` polls on an optional injected clock (real by default).
- A raising handler is Go's panic: ProcessorListener.deliver_one (the step
  both run modes call) hands it to runtime.handle_crash, which runs the
  PANIC_HANDLERS (the traceback is logged) and re-raises when REALLY_CRASH is
  on (the default, as in Go): the listener thread dies (in Go the process
  exits), and under the driver the exception reaches the driver's caller.
  With REALLY_CRASH off the notification is skipped and the listener sleeps
  one second of its clock after the next notification arrives (Go's
  sleepAfterCrash); an initial add that raised never counts as handled, so
  that registration never syncs, as in Go.
"""

from __future__ import annotations

import collections
import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from minikcm.apimachinery import runtime, wait
from minikcm.clock import Clock, RealClock, Seconds
from minikcm.driver import Step
from minikcm.tools.cache.controller import (
    Config,
    ControllerImpl,
    ResourceEventHandler,
    deletion_handling_meta_namespace_key_func,
    new,
    new_queue_fifo,
    process_deltas,
    process_deltas_in_batch,
)
from minikcm.tools.cache.delta_fifo import Delta, Deltas, TransformFunc
from minikcm.tools.cache.event_handler_name import name_for_handler
from minikcm.tools.cache.index import Indexer, Indexers
from minikcm.tools.cache.listwatch import ListerWatcher
from minikcm.tools.cache.reflector import WatchErrorHandler, default_reflector_name
from minikcm.tools.cache.store import KeyFunc, Store, meta_accessor, new_indexer
from minikcm.tools.cache.store_base import resource_version_of
from minikcm.tools.cache.synctrack import SingleFileTracker

logger = logging.getLogger(__name__)

WAIT_SLICE: Seconds = 0.05
"""Threaded mode: real seconds between looks at a stop event while waiting on another event (Go: select)."""

CRASH_PAUSE: Seconds = 1.0
"""Port of the one-second sleep of processorListener.run before the notification that follows a crash."""


class DoneChecker(Protocol):
    """Port of DoneChecker (shared_informer.go): a name and an Event set once something is done."""

    def name(self) -> str:
        """Port of DoneChecker.Name (shared_informer.go)."""
    def done(self) -> threading.Event:
        """Port of DoneChecker.Done (shared_informer.go)."""


class ResourceEventHandlerRegistration(Protocol):
    """Port of ResourceEventHandlerRegistration (shared_informer.go): the handle add_event_handler returns.

    has_synced: the handler has returned from every object of the initial list.
    """

    def has_synced(self) -> bool:
        """Port of ResourceEventHandlerRegistration.HasSynced (shared_informer.go)."""
    def has_synced_checker(self) -> DoneChecker:
        """Port of ResourceEventHandlerRegistration.HasSyncedChecker (shared_informer.go)."""


class SharedInformer(Protocol):
    """Port of SharedInformer (shared_informer.go): a cache of one resource shared by many handlers.

    Eventually consistent: each object's states appear in order (some may be
    skipped), with no order across objects. A handler added late first gets an
    add per cached object. Handlers get one notification at a time, must be
    quick and must not change the objects.
    """

    def add_event_handler(self, handler: ResourceEventHandler) -> ResourceEventHandlerRegistration:
        """Port of SharedInformer.AddEventHandler (shared_informer.go)."""
    def add_event_handler_with_resync_period(self, handler: ResourceEventHandler,
                                             resync_period: Seconds) -> ResourceEventHandlerRegistration:
        """Port of SharedInformer.AddEventHandlerWithResyncPeriod (shared_informer.go)."""
    def add_event_handler_with_options(self, handler: ResourceEventHandler,
                                       options: HandlerOptions) -> ResourceEventHandlerRegistration:
        """Port of SharedInformer.AddEventHandlerWithOptions (shared_informer.go)."""
    def remove_event_handler(self, handle: ResourceEventHandlerRegistration) -> None:
        """Port of SharedInformer.RemoveEventHandler (shared_informer.go)."""
    def get_store(self) -> Store:
        """Port of SharedInformer.GetStore (shared_informer.go)."""
    def run(self, stop: threading.Event) -> None:
        """Port of SharedInformer.Run (shared_informer.go)."""
    def has_synced(self) -> bool:
        """Port of SharedInformer.HasSynced (shared_informer.go)."""
    def has_synced_checker(self) -> DoneChecker:
        """Port of SharedInformer.HasSyncedChecker (shared_informer.go)."""
    def last_sync_resource_version(self) -> str:
        """Port of SharedInformer.LastSyncResourceVersion (shared_informer.go)."""
    def set_watch_error_handler(self, handler: WatchErrorHandler) -> None:
        """Port of SharedInformer.SetWatchErrorHandler (shared_informer.go)."""
    def set_transform(self, handler: TransformFunc) -> None:
        """Port of SharedInformer.SetTransform (shared_informer.go)."""
    def is_stopped(self) -> bool:
        """Port of SharedInformer.IsStopped (shared_informer.go)."""


@dataclass
class HandlerOptions:
    """Port of HandlerOptions (shared_informer.go)."""

    resync_period: Seconds | None = None
    """None: the informer's default resync period."""


class SharedIndexInformer(SharedInformer, Protocol):
    """Port of SharedIndexInformer (shared_informer.go): a SharedInformer whose cache is an Indexer."""

    def add_indexers(self, indexers: Indexers) -> None:
        """Port of SharedIndexInformer.AddIndexers (shared_informer.go)."""
    def get_indexer(self) -> Indexer:
        """Port of SharedIndexInformer.GetIndexer (shared_informer.go)."""


def new_shared_informer(lw: ListerWatcher, example_object: Any,
                        default_event_handler_resync_period: Seconds) -> SharedIndexInformerImpl:
    """Port of NewSharedInformer (shared_informer.go): a shared informer with no extra indices."""
    return new_shared_index_informer(lw, example_object, default_event_handler_resync_period, {})


def new_shared_index_informer(lw: ListerWatcher, example_object: Any, default_event_handler_resync_period: Seconds,
                              indexers: Indexers) -> SharedIndexInformerImpl:
    """Port of NewSharedIndexInformer (shared_informer.go)."""
    return new_shared_index_informer_with_options(
        lw, example_object,
        SharedIndexInformerOptions(resync_period=default_event_handler_resync_period, indexers=indexers))


def new_shared_index_informer_with_options(lw: ListerWatcher, example_object: Any,
                                           options: SharedIndexInformerOptions) -> SharedIndexInformerImpl:
    """Port of NewSharedIndexInformerWithOptions (shared_informer.go).

    The resync period is the handlers' default and the first resync check period.
    """
    return SharedIndexInformerImpl(lw, example_object, options)


@dataclass
class SharedIndexInformerOptions:
    """Port of SharedIndexInformerOptions (shared_informer.go)."""

    resync_period: Seconds = 0.0  # the handlers' default, and the first resync check period
    indexers: Indexers = field(default_factory=dict)  # indices of the shared indexer
    object_description: str = ""  # for logs; empty: derived from the example object
    clock: Clock | None = None  # no upstream twin (Go tests set the field): resyncs and reflector
    rng: random.Random | None = field(default=None, repr=False)  # no upstream twin: the reflector's seed


InformerSynced = Callable[[], bool]
"""Port of InformerSynced: a has_synced function, as controllers collect them."""

SYNCED_POLL_PERIOD: Seconds = 0.1
"""Port of syncedPollPeriod: how often wait_for_cache_sync asks."""


def wait_for_named_cache_sync(controller_name: str, stop: threading.Event, *cache_syncs: InformerSynced,
                              clock: Clock | None = None) -> bool:
    """Port of WaitForNamedCacheSync (shared_informer.go): wait_for_cache_sync with log lines naming the controller."""
    logger.info("Waiting for caches to sync for %s", controller_name)
    if not wait_for_cache_sync(stop, *cache_syncs, clock=clock):
        runtime.handle_error(None, "Unable to sync caches", "controller", controller_name)
        return False
    logger.info("Caches are synced for %s", controller_name)
    return True


def wait_for_cache_sync(stop: threading.Event, *cache_syncs: InformerSynced, clock: Clock | None = None) -> bool:
    """Port of WaitForCacheSync (shared_informer.go): wait until every function returns True.

    Asks now, then every 100 ms of `clock` time; False if `stop` was set first.
    Blocks: until then. Threaded mode only (under the driver, run the driver instead).
    """

    def all_synced() -> bool:
        return all(sync_func() for sync_func in cache_syncs)

    try:
        wait.poll_immediate_until(SYNCED_POLL_PERIOD, all_synced, stop, clock)
    except wait.WaitTimeoutError:
        return False
    return True


def wait_for(stop: threading.Event, what: str, *checkers: DoneChecker) -> bool:
    """Port of WaitFor (shared_informer.go): True once every checker is done; False if `stop` came first.

    Logs, when `what` is set, what it waits for and which checkers never finished.
    Blocks: in Event waits of WAIT_SLICE real seconds, checking `stop` in between.
    """
    if what:
        logger.info("Waiting for %s", what)
    for checker in checkers:
        done = checker.done()
        while not done.is_set() and not stop.is_set():
            done.wait(WAIT_SLICE)
    instances = sorted(c.name() for c in checkers if not c.done().is_set())
    if what and instances:
        logger.info("Timed out waiting for %s: %s", what, instances)
    return not instances


def is_done(checker: DoneChecker) -> bool:
    """Port of IsDone (shared_informer.go)."""
    return checker.done().is_set()


class SharedIndexInformerImpl:
    """Port of sharedIndexInformer (shared_informer.go): the SharedIndexInformer implementation.

    Invariant: `controller` is None until the informer starts (run, or the first steps()), once.
    Locking: `_started_lock` guards started/stopped; `_block_deltas` keeps handle_deltas and
    handler registration apart, so a new handler's replay never interleaves with live notifications.
    """

    def __init__(self, lw: ListerWatcher, example_object: Any, options: SharedIndexInformerOptions) -> None:
        self.name = default_reflector_name(example_object)
        """No upstream twin: names the informer's threads and steps (`v1/pods`)."""
        self.clock: Clock = options.clock or RealClock()
        self.rng = options.rng
        self.indexer: Indexer = new_indexer(deletion_handling_meta_namespace_key_func, options.indexers)
        self.controller: ControllerImpl | None = None
        self.synced = threading.Event()  # Go: a channel closed once the controller has synced
        self.processor = SharedProcessor(self.clock, self.name)
        self.lister_watcher = lw
        self.object_type = example_object
        self.object_description = options.object_description
        self.resync_check_period: Seconds = options.resync_period  # lowered by handlers that ask for less
        self.default_event_handler_resync_period: Seconds = options.resync_period
        self.started = False  # guarded by _started_lock
        self.stopped = False  # guarded by _started_lock
        self._started_lock = threading.Lock()
        self._block_deltas = threading.Lock()
        self.watch_error_handler: WatchErrorHandler | None = None
        self.transform: TransformFunc | None = None
        self.key_func: KeyFunc = deletion_handling_meta_namespace_key_func

    def __repr__(self) -> str:
        return (f"<SharedIndexInformer {self.name!r} started={self.started} synced={self.synced.is_set()} "
                f"handlers={len(self.processor.listeners)}>")

    def set_watch_error_handler(self, handler: WatchErrorHandler) -> None:
        """Port of sharedIndexInformer.SetWatchErrorHandler. Raises RuntimeError once started."""
        with self._started_lock:
            if self.started:
                raise RuntimeError("informer has already started")
            self.watch_error_handler = handler

    def set_transform(self, handler: TransformFunc) -> None:
        """Port of sharedIndexInformer.SetTransform. Raises RuntimeError once started."""
        with self._started_lock:
            if self.started:
                raise RuntimeError("informer has already started")
            self.transform = handler

    def run(self, stop: threading.Event) -> None:
        """Port of sharedIndexInformer.Run (shared_informer.go): build the pipeline, run it until `stop`.

        Starts the processor and the `synced` thread, then runs the controller here; a second call only warns.
        Blocks: until `stop` is set and the processor's threads have ended.
        """
        if self.has_started():
            logger.warning("The sharedIndexInformer %s has started, run more than once is not allowed", self.name)
            return
        with self._started_lock:
            controller = self.start_locked()
        processor_stop = threading.Event()  # Go: a context that outlives ctx until Run returns
        threads = [  # Go: wg
            threading.Thread(name=f"informer/{self.name}/processor", target=self.processor.run,
                             args=(processor_stop,), daemon=True),
            threading.Thread(name=f"informer/{self.name}/synced", target=self.close_synced_when_done,
                             args=(stop,), daemon=True),
        ]
        for thread in threads:
            thread.start()
        try:
            controller.run(stop)
        finally:
            with self._started_lock:
                self.stopped = True  # no new listeners
            processor_stop.set()
            for thread in threads:
                thread.join()  # Go: deferred wg.Wait()

    def start_locked(self) -> ControllerImpl:
        """No upstream twin. The first half of Run: build the FIFO and controller, mark started. Locking: held."""
        if self.controller is not None:
            return self.controller
        fifo = new_queue_fifo(self.object_type, self.indexer, self.transform)
        cfg = Config(queue=fifo, lister_watcher=self.lister_watcher, object_type=self.object_type,
                     object_description=self.object_description, full_resync_period=self.resync_check_period,
                     should_resync=self.processor.should_resync, process=self.handle_deltas,
                     process_batch=self.handle_batch_deltas, watch_error_handler=self.watch_error_handler)
        self.controller = new(cfg)
        self.controller.clock = self.clock
        self.controller.rng = self.rng
        self.started = True
        return self.controller

    def steps(self) -> list[Step]:
        """No upstream twin. Start the informer without threads and return its steps (see the design notes)."""
        with self._started_lock:
            controller = self.start_locked()
        self.processor.start_without_threads()
        return controller.steps() + [
            Step(f"informer/{self.name}/synced", self.synced_ready, self.mark_synced, delivers=True),
            Step(f"informer/{self.name}/listeners", self.processor.deliver_ready, self.processor.deliver_step,
                 self.processor.deliver_wakeup, delivers=True),
        ]

    def close_synced_when_done(self, stop: threading.Event) -> None:
        """Port of the goroutine in Run that closes `synced` once the controller has synced (threaded mode).

        Holds no logic: waits for the controller's checker, then calls the step `mark_synced`.
        """
        assert self.controller is not None
        done = self.controller.has_synced_checker().done()
        while not stop.is_set():
            if done.wait(WAIT_SLICE):
                self.mark_synced()
                return

    def synced_ready(self) -> bool:
        """No upstream twin. The synced step has work: the controller synced, `synced` not yet set."""
        return self.controller is not None and not self.synced.is_set() and self.controller.has_synced()

    def mark_synced(self) -> bool:
        """No upstream twin. The synced step: once the controller has synced, set `synced` (Go: close(s.synced)).

        Returns whether `synced` is set. The `synced` thread and the driver both call it.
        """
        if self.controller is None or not self.controller.has_synced():
            return False
        self.synced.set()
        return True

    def has_started(self) -> bool:
        """Port of sharedIndexInformer.HasStarted."""
        with self._started_lock:
            return self.started

    def has_synced(self) -> bool:
        """Port of sharedIndexInformer.HasSynced: the store holds at least one full list."""
        return self.synced.is_set()

    def has_synced_checker(self) -> DoneChecker:
        """Port of sharedIndexInformer.HasSyncedChecker."""
        return SharedIndexInformerDone(self)

    def last_sync_resource_version(self) -> str:
        """Port of sharedIndexInformer.LastSyncResourceVersion: "" before start."""
        with self._started_lock:
            if self.controller is None:
                return ""
            return self.controller.last_sync_resource_version()

    def get_store(self) -> Store:
        """Port of sharedIndexInformer.GetStore."""
        return self.indexer

    def get_indexer(self) -> Indexer:
        """Port of sharedIndexInformer.GetIndexer."""
        return self.indexer

    def add_indexers(self, indexers: Indexers) -> None:
        """Port of sharedIndexInformer.AddIndexers. Raises RuntimeError once stopped."""
        with self._started_lock:
            if self.stopped:
                raise RuntimeError("indexer was not added because it has stopped already")
            self.indexer.add_indexers(indexers)

    def add_event_handler(self, handler: ResourceEventHandler) -> ProcessorListener:
        """Port of sharedIndexInformer.AddEventHandler: register with the default resync period."""
        return self.add_event_handler_with_options(handler, HandlerOptions())

    def add_event_handler_with_resync_period(self, handler: ResourceEventHandler,
                                             resync_period: Seconds) -> ProcessorListener:
        """Port of sharedIndexInformer.AddEventHandlerWithResyncPeriod."""
        return self.add_event_handler_with_options(handler, HandlerOptions(resync_period=resync_period))

    def add_event_handler_with_options(self, handler: ResourceEventHandler,
                                       options: HandlerOptions) -> ProcessorListener:
        """Port of sharedIndexInformer.AddEventHandlerWithOptions (shared_informer.go).

        A positive resync period is at least 1 s; below the check period it lowers
        that period before start, and is raised to it after. Example: check period
        60 s, request 5 s: before start the check period becomes 5 s, after start
        the handler gets 60 s. A handler added after start first gets an initial
        add for every cached object.
        Raises: RuntimeError when the informer has stopped.
        """
        with self._started_lock:
            if self.stopped:
                raise RuntimeError(f"handler {handler!r} was not added to shared informer "
                                   "because it has stopped already")
            resync_period = self.default_event_handler_resync_period
            if options.resync_period is not None:
                resync_period = options.resync_period
            if resync_period > 0:
                if resync_period < MINIMUM_RESYNC_PERIOD:
                    logger.warning("resync period %s is too small, using %s", resync_period, MINIMUM_RESYNC_PERIOD)
                    resync_period = MINIMUM_RESYNC_PERIOD
                if resync_period < self.resync_check_period:
                    if self.started:
                        logger.warning("resync period %s is below the resync check period %s of a started "
                                       "informer; using the latter", resync_period, self.resync_check_period)
                        resync_period = self.resync_check_period
                    else:
                        self.resync_check_period = resync_period
                        self.processor.resync_check_period_changed(resync_period)
            listener = new_process_listener(handler, resync_period,
                                            determine_resync_period(resync_period, self.resync_check_period),
                                            self.clock.now(), self.has_synced_checker(), self.clock)
            if not self.started:
                self.processor.add_listener(listener)
                return listener
            with self._block_deltas:  # the replay must not interleave with live notifications
                threaded = self.processor.add_listener(listener)
                for item in self.indexer.list():
                    listener.add(AddNotification(new_obj=item, is_in_initial_list=True))
                if threaded:
                    self.processor.synced_group.start(listener.watch_synced)
            return listener

    def handle_deltas(self, obj: Any, is_in_initial_list: bool) -> None:
        """Port of sharedIndexInformer.HandleDeltas: the controller's process function (indexer, then listeners).

        Raises: TypeError when `obj` is not a Deltas.
        """
        with self._block_deltas:
            if not isinstance(obj, Deltas):
                raise TypeError("object given as Process argument is not Deltas")
            process_deltas(self, self.indexer, obj, is_in_initial_list, self.key_func)

    def handle_batch_deltas(self, deltas: list[Delta], is_in_initial_list: bool) -> None:
        """Port of sharedIndexInformer.handleBatchDeltas: handle_deltas for a batch of distinct objects."""
        with self._block_deltas:
            process_deltas_in_batch(self, self.indexer, deltas, is_in_initial_list, self.key_func)

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        """Port of sharedIndexInformer.OnAdd: tell every listener."""
        self.processor.distribute(AddNotification(new_obj=obj, is_in_initial_list=is_in_initial_list), False)

    def on_update(self, old: Any, new_obj: Any) -> None:
        """Port of sharedIndexInformer.OnUpdate: an unchanged resourceVersion is a resync, for due listeners only."""
        is_sync = False
        try:
            is_sync = resource_version_of(new_obj) == resource_version_of(old)
        except TypeError:  # no metadata: treat as a real update, as upstream does
            pass
        self.processor.distribute(UpdateNotification(old_obj=old, new_obj=new_obj), is_sync)

    def on_delete(self, old: Any) -> None:
        """Port of sharedIndexInformer.OnDelete: tell every listener."""
        self.processor.distribute(DeleteNotification(old_obj=old), False)

    def is_stopped(self) -> bool:
        """Port of sharedIndexInformer.IsStopped."""
        with self._started_lock:
            return self.stopped

    def remove_event_handler(self, handle: ResourceEventHandlerRegistration) -> None:
        """Port of sharedIndexInformer.RemoveEventHandler: idempotent; unknown handles are ignored.

        Raises: TypeError when `handle` is not a registration made by an informer.
        """
        with self._started_lock, self._block_deltas:
            self.processor.remove_listener(handle)


class SharedIndexInformerDone:
    """Port of sharedIndexInformerDone (shared_informer.go): the informer's DoneChecker."""

    def __init__(self, s: SharedIndexInformerImpl) -> None:
        self.s = s

    def name(self) -> str:
        """Port of sharedIndexInformerDone.Name."""
        return f"SharedIndexInformer {type(self.s.object_type).__name__}"

    def done(self) -> threading.Event:
        """Port of sharedIndexInformerDone.Done: the informer's `synced` Event."""
        return self.s.synced


@dataclass(frozen=True, slots=True)  # slots: one is built per watch event
class UpdateNotification:
    """Port of updateNotification."""

    old_obj: Any
    new_obj: Any


@dataclass(frozen=True, slots=True)  # slots: one is built per watch event
class AddNotification:
    """Port of addNotification."""

    new_obj: Any
    is_in_initial_list: bool


@dataclass(frozen=True, slots=True)  # slots: one is built per watch event
class DeleteNotification:
    """Port of deleteNotification."""

    old_obj: Any


def determine_resync_period(desired: Seconds, check: Seconds) -> Seconds:
    """Port of determineResyncPeriod (shared_informer.go): the resync period a handler really gets.

    0 stays 0; none when the informer never checks (check 0); raised to the check period (5, 30 -> 30).
    """
    if desired == 0:
        return desired
    if check == 0:
        logger.warning("resync period %s ignored: this shared informer does not resync", desired)
        return 0
    if desired < check:
        logger.warning("resync period %s raised to the resync check period %s", desired, check)
        return check
    return desired


MINIMUM_RESYNC_PERIOD: Seconds = 1.0
"""Port of minimumResyncPeriod."""


class SharedProcessor:
    """Port of sharedProcessor (shared_informer.go): fans notifications out to every listener.

    `listeners` maps each listener, in registration order, to "due for the resync in progress".
    Locking: `_lock` guards listeners and listeners_started (Go: an RWMutex).
    """

    def __init__(self, clock: Clock, name: str = "") -> None:
        self.listeners_started = False
        self.threaded = False  # listeners get threads (run) rather than steps
        self._lock = threading.Lock()
        self.listeners: dict[ProcessorListener, bool] = {}
        self.clock = clock
        # Go: one wg for every listener goroutine; two groups here, so thread names say what they do.
        # Only `run` uses them (threads); on a driven clock the driver calls deliver_step instead.
        self.group = wait.Group(name=f"informer/{name}/listener")
        self.synced_group = wait.Group(name=f"informer/{name}/listener-synced")

    def __repr__(self) -> str:
        return f"<SharedProcessor listeners={len(self.listeners)} started={self.listeners_started}>"

    def get_listener(self, registration: Any) -> ProcessorListener | None:
        """Port of sharedProcessor.getListener: the listener behind a handle, if it is registered here."""
        with self._lock:
            if isinstance(registration, ProcessorListener) and registration in self.listeners:
                return registration
            return None

    def add_listener(self, listener: ProcessorListener) -> bool:
        """Port of sharedProcessor.addListener. Returns whether listeners run in threads already."""
        with self._lock:
            self.listeners[listener] = True
            if self.listeners_started and self.threaded:
                self.group.start(listener.run)
            return self.listeners_started and self.threaded

    def remove_listener(self, handle: Any) -> None:
        """Port of sharedProcessor.removeListener: forget and stop the listener (a no-op if unknown).

        Raises: TypeError when `handle` is not a ProcessorListener.
        """
        with self._lock:
            if not isinstance(handle, ProcessorListener):
                raise TypeError(f"invalid key type {type(handle).__name__}")
            if handle not in self.listeners:
                return
            del self.listeners[handle]
            if self.listeners_started:
                handle.close()

    def distribute(self, obj: Any, sync: bool) -> None:
        """Port of sharedProcessor.distribute: add `obj` to every listener (for a resync: only those due)."""
        with self._lock:
            for listener, is_syncing in self.listeners.items():
                if not sync or is_syncing:
                    listener.add(obj)

    def run(self, stop: threading.Event) -> None:
        """Port of sharedProcessor.run (shared_informer.go): start the listener threads, stop them on `stop`.

        Blocks: until `stop` is set and every listener thread has ended.
        """
        with self._lock:
            for listener in self.listeners:
                self.synced_group.start(listener.watch_synced)
                self.group.start(listener.run)
            self.listeners_started = True
            self.threaded = True
        stop.wait()
        with self._lock:
            for listener in self.listeners:
                listener.close()  # Go: close(addCh)
            self.listeners = {}
            self.listeners_started = False
        self.group.wait()
        self.synced_group.wait()

    def start_without_threads(self) -> None:
        """No upstream twin. Start on a driven clock: listeners are served by deliver_step, not threads."""
        with self._lock:
            self.listeners_started = True

    def deliver_ready(self) -> bool:
        """No upstream twin. The listeners step has work: a buffered notification, or a sync signal to pass on."""
        with self._lock:
            listeners = list(self.listeners)
        return any(listener.ready() or listener.needs_upstream_sync() for listener in listeners)

    def deliver_wakeup(self) -> datetime | None:
        """No upstream twin. When the listeners step may turn ready by itself: the end of a listener's crash pause."""
        with self._lock:
            listeners = list(self.listeners)
        times = [listener.paused_until for listener in listeners if listener.paused_until is not None]
        return min(times) if times else None

    def deliver_step(self) -> None:
        """No upstream twin. The driver's stand-in for the listener threads: each listener, in registration order,
        runs `pass_on_sync` once, then `deliver_one` until its buffer is empty or a raising handler pauses it
        (a listener thread, too, goes on to the next notification as soon as its handler returns)."""
        with self._lock:
            listeners = list(self.listeners)
        for listener in listeners:
            listener.pass_on_sync()
            while listener.deliver_one():
                pass

    def should_resync(self) -> bool:
        """Port of sharedProcessor.shouldResync: mark the due listeners (next resync: a period from now); any?"""
        with self._lock:
            resync_needed = False
            now = self.clock.now()
            for listener in self.listeners:
                due = listener.should_resync(now)
                self.listeners[listener] = due
                if due:
                    resync_needed = True
                    listener.determine_next_resync(now)
            return resync_needed

    def resync_check_period_changed(self, resync_check_period: Seconds) -> None:
        """Port of sharedProcessor.resyncCheckPeriodChanged: recompute every listener's effective period."""
        with self._lock:
            for listener in self.listeners:
                listener.set_resync_period(determine_resync_period(listener.requested_resync_period,
                                                                   resync_check_period))


class ProcessorListener:
    """Port of processorListener (shared_informer.go): one handler's unbounded buffer and delivery loop.

    Also the handler's registration (has_synced: informer synced, every initial add returned).
    Thread: add from the informer's process thread; delivery from `run` or the driver.
    """

    def __init__(self, handler: ResourceEventHandler, requested_resync_period: Seconds, resync_period: Seconds,
                 now: datetime, has_synced: DoneChecker, clock: Clock) -> None:
        self.handler = handler
        self.handler_name = name_for_handler(handler)
        self.sync_tracker = SingleFileTracker(f"{has_synced.name()} + event handler {self.handler_name}")
        self.upstream_has_synced = has_synced
        self._mutex = threading.Lock()  # guards pending_notifications and closed (entered directly where
        self._cond = threading.Condition(self._mutex)  # nothing waits: the Condition's own enter is Python code)
        self.pending_notifications: collections.deque[Any] = collections.deque()  # Go: addCh + buffer + nextCh
        self.closed = False  # Go: addCh closed
        self.done = threading.Event()  # Go: done channel, closed when the listener stops
        self.requested_resync_period = requested_resync_period
        self.resync_period = resync_period  # 0: never
        self.next_resync = now
        self._resync_lock = threading.Lock()
        self.clock = clock  # for the pause after a crashing handler
        self.sleep_after_crash = False  # Go: sleepAfterCrash, set while a handler runs and left set if it raised
        self.paused_until: datetime | None = None  # the end of that sleep, once the next notification arrived
        self.determine_next_resync(now)

    def __repr__(self) -> str:
        return (f"<ProcessorListener {self.handler_name} pending={len(self.pending_notifications)} "
                f"synced={self.sync_tracker.has_synced()}>")

    def has_synced(self) -> bool:
        """Port of processorListener.HasSynced."""
        return self.sync_tracker.has_synced()

    def has_synced_checker(self) -> DoneChecker:
        """Port of processorListener.HasSyncedChecker."""
        return self.sync_tracker

    def add(self, notification: Any) -> None:
        """Port of processorListener.add: buffer a notification (never blocks); count initial adds as started."""
        if isinstance(notification, AddNotification) and notification.is_in_initial_list:
            self.sync_tracker.start()
        with self._mutex:
            if self.closed:
                return  # a stopped listener delivers nothing more
            self.pending_notifications.append(notification)
            self._cond.notify()

    def pop(self) -> Any | None:
        """Port of processorListener.pop's hand-off, without its goroutine: the next notification or None."""
        with self._mutex:
            if self.closed or not self.pending_notifications:
                return None
            return self.pending_notifications.popleft()

    def close(self) -> None:
        """No upstream twin (Go: close(addCh)): stop delivering; buffered notifications are dropped."""
        with self._cond:
            self.closed = True
            self._cond.notify_all()
        self.done.set()

    def run(self) -> None:
        """Port of processorListener.run (shared_informer.go): deliver notifications until closed (threaded mode).

        Holds no logic: waits for a notification (and out the pause after a
        raising handler, see deliver_one), then calls the step `deliver_one`.
        """
        while self.wait_for_notification():
            if not self.ready():  # the pause after a raising handler is running
                self.clock.sleep(self.pause_remaining(), self.done)
                continue
            self.deliver_one()

    def wait_for_notification(self) -> bool:
        """No upstream twin. Block until a notification is buffered (True) or the listener is closed (False)."""
        with self._cond:
            while not self.pending_notifications and not self.closed:
                self._cond.wait()
            return not self.closed

    def pause_remaining(self) -> Seconds:
        """No upstream twin. Seconds of the sleep after a crash still to wait (0 when none).

        The sleep starts when the next notification is there (Go sleeps right
        after receiving it), so this starts the clock on first sight of one.
        """
        if not self.sleep_after_crash:
            return 0.0
        if self.paused_until is None:
            if not self.pending_notifications:
                return 0.0
            self.paused_until = self.clock.now() + timedelta(seconds=CRASH_PAUSE)
        return max(0.0, self.clock.until(self.paused_until))

    def ready(self) -> bool:
        """No upstream twin. deliver_one would deliver: a notification is buffered and no sleep is running."""
        return bool(self.pending_notifications) and self.pause_remaining() <= 0

    def deliver_one(self) -> bool:
        """Port of one turn of processorListener.run's loop (shared_informer.go): deliver one notification.

        The listener thread (`run`) and the driver (`SharedProcessor.deliver_step`)
        both call it; False when nothing was delivered (none buffered, or the
        sleep after a crash is running). A raising handler goes through
        runtime.handle_crash (see the module's "Differs from Go").
        """
        if self.pause_remaining() > 0:
            return False
        notification = self.pop()
        if notification is None:
            return False
        self.paused_until = None
        self.sleep_after_crash = True  # reset below, but only if the handler returns
        try:
            self.handle(notification)
        except Exception:
            runtime.handle_crash()  # Go: deferred HandleCrashWithLogger; re-raises unless REALLY_CRASH is off
            return True
        self.sleep_after_crash = False
        return True

    def handle(self, notification: Any) -> None:
        """Port of the switch in processorListener.run: call the handler method the notification asks for."""
        if isinstance(notification, UpdateNotification):
            self.handler.on_update(notification.old_obj, notification.new_obj)
        elif isinstance(notification, AddNotification):
            self.handler.on_add(notification.new_obj, notification.is_in_initial_list)
            if notification.is_in_initial_list:
                self.sync_tracker.finished()
        elif isinstance(notification, DeleteNotification):
            self.handler.on_delete(notification.old_obj)
        else:
            runtime.handle_error(None, "unrecognized notification", "notificationType", type(notification).__name__)

    def watch_synced(self) -> None:
        """Port of processorListener.watchSynced: once the informer has synced, tell the sync tracker (threaded).

        Holds no logic: waits for the informer's `done`, then calls the step `pass_on_sync`.
        """
        upstream = self.upstream_has_synced.done()
        while not self.done.is_set():
            if upstream.wait(WAIT_SLICE):
                self.pass_on_sync()
                return

    def pass_on_sync(self) -> bool:
        """No upstream twin. The body of watchSynced: once the informer has synced, tell the tracker (once).

        Returns whether it told the tracker now. The listener-synced thread and the driver both call it.
        """
        if not self.needs_upstream_sync():
            return False
        self.sync_tracker.upstream_has_synced()
        return True

    def needs_upstream_sync(self) -> bool:
        """No upstream twin. The informer synced but the tracker has not been told."""
        return not self.sync_tracker.upstream_synced and self.upstream_has_synced.done().is_set()

    def should_resync(self, now: datetime) -> bool:
        """Port of processorListener.shouldResync: due when the period is set and now >= next_resync."""
        with self._resync_lock:
            if self.resync_period == 0:
                return False
            return now >= self.next_resync

    def determine_next_resync(self, now: datetime) -> None:
        """Port of processorListener.determineNextResync."""
        with self._resync_lock:
            self.next_resync = now + timedelta(seconds=self.resync_period)

    def set_resync_period(self, resync_period: Seconds) -> None:
        """Port of processorListener.setResyncPeriod."""
        with self._resync_lock:
            self.resync_period = resync_period


def new_process_listener(handler: ResourceEventHandler, requested_resync_period: Seconds, resync_period: Seconds,
                         now: datetime, has_synced: DoneChecker, clock: Clock | None = None) -> ProcessorListener:
    """Port of newProcessListener (shared_informer.go). The buffer size parameter is gone: deques grow."""
    return ProcessorListener(handler, requested_resync_period, resync_period, now, has_synced,
                             clock if clock is not None else RealClock())
