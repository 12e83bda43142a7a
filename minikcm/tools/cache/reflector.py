"""Port of k8s.io/client-go/tools/cache/reflector.go.

The reflector keeps a store in step with the API server. Each pass of
ListAndWatch first gets the current state, then watches from it:

- watch-list (the v1.36 default, WatchListClient on): one watch request with
  sendInitialEvents=true streams every object as ADDED into a temporary
  store, then a BOOKMARK annotated `k8s.io/initial-events-end` says the state
  is complete; the store is replaced with it and the same watch goes on.
- list (the fallback, when watch-list fails or is off): a (paged) list,
  store.replace, then a new watch from the list's resourceVersion.

Each watch event becomes a store add, update or delete. A watch that ends
normally is reopened from the last resourceVersion seen; one that fails with
410 Gone ends the pass, and the next pass starts again. Errors go to a
WatchErrorHandler and passes are spaced by a jittered, growing backoff. In an
informer the store is the RealFIFO.

Start reading at: Reflector.list_and_watch, then watch_list, watch and handle_any_watch.

Design notes: Go's functions block (on a channel, on clock.After); here the
same functions, in Go's order and with Go's names, are generators that
`yield` what they would block on (`Wait`: the watch's channel, or a time).
`run_loop` (RunWithContext's loop) is one such generator, and `step` resumes
it until it blocks again. The driver calls `step` through the "list" step
(between passes) and the "watch" step (inside a pass) when what it waits for
has come; the threaded `run` calls the same `step`, blocking on the channel or
the clock in between. startResync's loop is the separate "resync" step.

Not ported: the data consistency check of watch-list (off unless an env var
is set), TransformingStore, the initial-events-end bookmark warning ticker (a
log line every 10 s while the initial stream has not ended), contextual
loggers, traces, metrics, the ...WithContext twins, `errorStopRequested`
(closing the generator does its job), `BenchmarkReflector*`.
Differs from Go:
- Go's `select` between the resync error channel and the watch channel picks
  at random; here a pending resync error is always handled first.
- Errors are raised (PORTING §4): list_and_watch raises what Go returns.
- watch_list's temporary store is keyed by meta_namespace_key_func, where Go
  uses DeletionHandlingMetaNamespaceKeyFunc (controller.go, which imports this
  module): a watch never carries tombstones, so the keys are the same.
- Watch timeouts and backoff jitter draw from an injected `random.Random`
  (`ReflectorOptions.rng`) when one is given.
- The type description of an expected object is its class name (`V1Pod`),
  where Go prints the Go type (`*v1.Pod`); unstructured objects are wire dicts.
"""

from __future__ import annotations

import errno
import logging
import math
import random
import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Protocol, runtime_checkable

from minikcm import features
from minikcm.apimachinery import errors, runtime, wait, watch
from minikcm.apimachinery.meta import (INITIAL_EVENTS_ANNOTATION_KEY, RESOURCE_VERSION_MATCH_NOT_OLDER_THAN,
                                       ListOptions)
from minikcm.apimachinery.watch import ResultChan
from minikcm.apimachinery.convert import gvk_of
from minikcm.apimachinery.schema import GroupVersionKind, resource_for_model
from minikcm.clock import Clock, Seconds, or_real
from minikcm.driver import Step
from minikcm.tools.cache.index import NAMESPACE_INDEX, Indexer, meta_namespace_index_func
from minikcm.tools.cache.listwatch import ListerWatcher
from minikcm.tools.cache.retry_with_deadline import RetryWithDeadline
from minikcm.tools.cache.store import meta_namespace_key_func, new_indexer, new_store
from minikcm.tools.cache.store_base import resource_version_of
from minikcm.tools.pager.pager import ListPager, extract_list, list_accessor
from minikcm.util.watchlist import does_client_not_support_watch_list_semantics

logger = logging.getLogger(__name__)

DEFAULT_EXPECTED_TYPE_NAME = "<unspecified>"
"""Port of defaultExpectedTypeName: the type description when no expected type is given."""

# Ports of defaultMinWatchTimeout & co. Watches ask for a timeout in [min, 2*min], spreading
# reconnects. Retries wait 0.8 s doubling to 30 s, each jittered by up to 100 % (so they settle
# in [30, 60) s), and start small again after two quiet minutes.
DEFAULT_MIN_WATCH_TIMEOUT: Seconds = 5 * 60.0
DEFAULT_MAX_WATCH_TIMEOUT: Seconds = 2 * DEFAULT_MIN_WATCH_TIMEOUT
DEFAULT_BACKOFF_INIT: Seconds = 0.8
DEFAULT_BACKOFF_MAX: Seconds = 30.0
DEFAULT_BACKOFF_RESET: Seconds = 120.0
DEFAULT_BACKOFF_FACTOR = 2.0
DEFAULT_BACKOFF_JITTER = 1.0

PHASE_LIST = "list"
"""The loop is between passes (or not started): the next pass starts when its delay is over."""
PHASE_WATCH = "watch"
"""The loop is inside a pass of list_and_watch."""

WATCH_POLL_INTERVAL: Seconds = 0.1
"""Threaded mode only: real seconds `run` blocks on an open watch before looking at timers again."""
IDLE_POLL_INTERVAL: Seconds = 1.0
"""Threaded mode only: the longest clock sleep of `run` when no step is ready."""


@runtime_checkable
class ReflectorStore(Protocol):
    """Port of ReflectorStore (reflector.go): the writing half of a Store, all a reflector needs."""

    def add(self, obj: Any) -> None: ...
    def update(self, obj: Any) -> None: ...
    def delete(self, obj: Any) -> None: ...
    def replace(self, list_: list[Any], resource_version: str) -> None: ...
    def resync(self) -> None: ...


@runtime_checkable
class ReflectorBookmarkStore(Protocol):
    """Port of ReflectorBookmarkStore (reflector.go): a store that wants the resourceVersion of bookmarks."""

    def bookmark(self, resource_version: str) -> None: ...


@runtime_checkable
class ResourceVersionUpdater(Protocol):
    """Port of ResourceVersionUpdater (reflector.go): told each time the reflector's resourceVersion moves."""

    def update_resource_version(self, resource_version: str) -> None: ...


WatchErrorHandler = Callable[["Reflector", BaseException], None]
"""Port of WatchErrorHandler: called when a list-and-watch pass ends with an error;
the reflector then backs off and lists again. Must return quickly."""


def default_watch_error_handler(r: Reflector, err: BaseException) -> None:
    """Port of DefaultWatchErrorHandler (reflector.go): log the error at a level that fits it.

    An expired resourceVersion is routine (a quiet debug line); anything else
    goes to runtime.handle_error.
    """
    if is_expired_error(err):
        logger.debug("Watch closed: reflector=%s type=%s err=%s", r.name, r.type_description, err)
        return
    runtime.handle_error(err, "Failed to watch", "reflector", r.name, "type", r.type_description)


Wait = "ResultChan | datetime"
"""What the reflector's loop is blocked on: an event (or the end) of this watch, or a time (Go: clock.After)."""


class Reflector:
    """Port of Reflector (reflector.go): keeps `store` in step with the server's copy of one resource.

    Guarantees: the store only receives objects of the expected type (or GVK,
    for wire dicts), and every pass starts with a replace of the whole store.
    Not guaranteed: anything about order across passes beyond "each object's
    states arrive in order"; the resourceVersion is not synchronized with the store.

    Thread: steps run on one thread (the driver's, or the `reflector/<name>`
    thread); last_sync_resource_version may be read from any thread.
    """

    def __init__(self, lw: ListerWatcher, expected_type: Any, store: ReflectorStore,
                 options: ReflectorOptions) -> None:
        self.clock: Clock = or_real(options.clock)
        self.rng = options.rng  # None: the random module (Go: math/rand)
        min_watch_timeout, max_watch_timeout = DEFAULT_MIN_WATCH_TIMEOUT, DEFAULT_MAX_WATCH_TIMEOUT
        if options.min_watch_timeout > DEFAULT_MIN_WATCH_TIMEOUT:  # shorter ones are ignored on purpose
            min_watch_timeout = options.min_watch_timeout
            max_watch_timeout = 2 * min_watch_timeout
        backoff = options.backoff or wait.Backoff(
            duration=DEFAULT_BACKOFF_INIT, cap=DEFAULT_BACKOFF_MAX,
            steps=math.ceil(DEFAULT_BACKOFF_MAX / DEFAULT_BACKOFF_INIT),
            factor=DEFAULT_BACKOFF_FACTOR, jitter=DEFAULT_BACKOFF_JITTER)
        if backoff.rng is None and self.rng is not None:
            backoff = replace(backoff, rng=self.rng)

        self.name: str = options.name or default_reflector_name(expected_type)
        """Identifies this reflector in logs, thread and step names."""
        self.type_description: str = options.type_description or get_type_description_from_object(expected_type)
        """What the store holds, for display only."""
        self.expected_type: type | None = None if expected_type is None else type(expected_type)
        self.expected_gvk: GroupVersionKind | None = get_expected_gvk_from_object(expected_type)
        self.store = store
        # Go asserts the store's optional interface per event; Protocol isinstance checks are slow, so once here.
        self.store_tracks_resource_version = isinstance(store, ResourceVersionUpdater)
        self.lister_watcher = lw
        self.resync_period: Seconds = options.resync_period
        self.delay_handler: wait.DelayFunc = backoff.delay_with_reset(self.clock, DEFAULT_BACKOFF_RESET)
        self.min_watch_timeout = min_watch_timeout
        self.max_watch_timeout = max_watch_timeout
        self.paginated_result = False  # set when the first (RV="0") list came back in pages
        self._rv_lock = threading.Lock()  # Go: lastSyncResourceVersionMutex (an RWMutex)
        self._last_sync_resource_version = ""  # guarded by _rv_lock
        self._is_last_sync_resource_version_unavailable = False  # guarded by _rv_lock
        self.watch_error_handler: WatchErrorHandler = default_watch_error_handler
        self.watch_list_page_size: int = 0
        """Port of WatchListPageSize: page size of lists; 0 lets list choose."""
        self.should_resync: Callable[[], bool] | None = None
        """Port of ShouldResync: asked when the resync timer fires; None means always."""
        self.max_internal_error_retry_duration: Seconds = 0.0
        """Port of MaxInternalErrorRetryDuration: how long to re-watch at once after 500s."""
        self.use_watch_list = features.DEFAULT_FEATURE_GATE.enabled(features.WATCH_LIST_CLIENT)
        """Port of useWatchList: start each pass with a streaming list (watch_list), falling back to list."""
        if self.use_watch_list and does_client_not_support_watch_list_semantics(lw):
            logger.debug("The client used to build this reflector (%s) doesn't support WatchList semantics; "
                         "the feature is disabled", self.name)
            self.use_watch_list = False

        # The loop (see the module's design notes); all of it belongs to the step thread.
        self.loop: Generator[Wait, None, None] | None = None  # run_loop, once started
        self.blocked_on: Wait | None = None  # what the loop yielded last
        self.phase = PHASE_LIST
        self.next_resync: datetime | None = None  # Go: the resync timer of startResync
        self.resync_errc: list[BaseException] = []  # Go: resyncerrc, buffered, size 1
        self.passes = 0
        """How many list-and-watch passes have ended (for traces and tests)."""
        self._steps = [
            Step(f"reflector/{self.name}/list", self.list_ready, self.step, self.wakeup, delivers=True),
            Step(f"reflector/{self.name}/watch", self.watch_ready, self.step, self.wakeup, delivers=True),
            Step(f"reflector/{self.name}/resync", self.resync_ready, self.resync_step, self.wakeup, delivers=True),
        ]

    def __repr__(self) -> str:
        return (f"<Reflector {self.name!r} phase={self.phase} rv={self._last_sync_resource_version!r} "
                f"passes={self.passes}>")

    # --- Run: the loop, and how both modes advance it ------------------------------------------

    def run(self, stop: threading.Event) -> None:
        """Port of Reflector.Run (reflector.go): list and watch until `stop` is set.

        Threaded mode only (the caller names the thread `reflector/<name>`):
        advances the same loop as the driver's steps, and otherwise blocks on
        the open watch or sleeps on the clock until the next timer.
        Blocks: until `stop` is set; then closes the loop (which stops the open watch).
        """
        logger.info("Starting reflector %s (%s), resync period %s", self.name, self.type_description,
                    self.resync_period)
        try:
            while not stop.is_set():
                if self.resync_ready():
                    self.resync_step()
                elif self.list_ready() or self.watch_ready():
                    self.step()
                else:
                    self.wait_for_work(stop)
        finally:
            self.stop_loop()
            logger.info("Stopping reflector %s (%s)", self.name, self.type_description)

    def run_loop(self) -> Generator[Wait, None, None]:
        """Port of the loop of Reflector.RunWithContext (reflector.go): ListAndWatch, again and again.

        A generator: it yields what it would block on (see `Wait`), and `step`
        resumes it. After each pass (an error goes to the watch error handler)
        it waits one backoff delay, measured from the pass's end (Go: Until,
        immediate and sliding).
        """
        while True:
            self.phase = PHASE_WATCH
            try:
                yield from self.list_and_watch()
            except Exception as err:
                self.watch_error_handler(self, err)
            self.passes += 1
            self.phase = PHASE_LIST
            yield from self.after(self.delay_handler())

    def after(self, delay: Seconds) -> Generator[Wait, None, None]:
        """Port of `<-r.clock.After(delay)`: yield until `delay` seconds of the clock have passed.

        Yields at least once, even for no delay (a step ends there, as a goroutine parks on the channel).
        """
        until = self.clock.now() + timedelta(seconds=delay)
        yield until
        while self.clock.now() < until:
            yield until

    def step(self) -> None:
        """No upstream twin. The list and watch steps: resume the loop until it blocks again."""
        if self.loop is None:
            self.loop = self.run_loop()
        self.blocked_on = next(self.loop)

    def stop_loop(self) -> None:
        """No upstream twin. Close the loop: its `finally` clauses stop the open watch (Go: the deferred Stops)."""
        if self.loop is not None:
            self.loop.close()
            self.loop = None
            self.blocked_on = None
        self.next_resync = None

    def steps(self) -> list[Step]:
        """No upstream twin. The reflector's steps for the driver, in this fixed order: list, watch, resync."""
        return list(self._steps)

    def loop_ready(self) -> bool:
        """No upstream twin. What the loop waits for has come: an event, the watch's end, a resync error, a time."""
        b = self.blocked_on
        if b is None:
            return True
        if isinstance(b, datetime):
            return self.clock.now() >= b
        return len(b) > 0 or b.closed or bool(self.resync_errc)

    def list_ready(self) -> bool:
        """No upstream twin. A pass may start: the loop has not started, or its delay between passes is over."""
        return self.phase == PHASE_LIST and self.loop_ready()

    def watch_ready(self) -> bool:
        """No upstream twin. Inside a pass, what the loop waits for has come."""
        return self.phase == PHASE_WATCH and self.loop_ready()

    def resync_ready(self) -> bool:
        """No upstream twin. The resync timer is due."""
        return self.next_resync is not None and self.clock.now() >= self.next_resync

    def wakeup(self) -> datetime | None:
        """No upstream twin. The next time a step may become ready by itself: a delay's end or the resync."""
        now = self.clock.now()
        times = [t for t in (self.blocked_on, self.next_resync) if isinstance(t, datetime) and t > now]
        return min(times) if times else None

    def wait_for_work(self, stop: threading.Event) -> None:
        """No upstream twin. Threaded mode: block until some step may be ready.

        On a watch: until an event arrives (a slice at a time); otherwise sleep on the clock until the next timer.
        """
        wake = self.wakeup()
        pause = IDLE_POLL_INTERVAL if wake is None else min(max(self.clock.until(wake), 0.0), IDLE_POLL_INTERVAL)
        if isinstance(self.blocked_on, ResultChan):
            self.blocked_on.wait(min(pause, WATCH_POLL_INTERVAL))
        else:
            self.clock.sleep(pause, stop)

    # --- ListAndWatch and what it calls, in reflector.go's order ---------------------------------

    def resync_chan(self) -> datetime | None:
        """Port of Reflector.resyncChan (reflector.go): when the next resync is due; None for never."""
        if self.resync_period == 0:
            return None
        return self.clock.now() + timedelta(seconds=self.resync_period)

    def list_and_watch(self) -> Generator[Wait, None, None]:
        """Port of Reflector.ListAndWatch (reflector.go): get the current state, then watch from it.

        With WatchListClient on, the state comes as a stream (watch_list) whose
        watch goes on afterwards; if that fails for any reason, a plain list
        (list) does the job and watch opens a new watch.
        Raises: the list's error (the pass ends; run_loop reports it).
        """
        logger.debug("Listing and watching %s (%s)", self.type_description, self.name)
        w: watch.Interface | None = None
        fallback_to_list = not self.use_watch_list
        try:
            if self.use_watch_list:
                try:
                    w = yield from self.watch_list()
                except Exception as err:
                    logger.debug("Data couldn't be fetched in watchlist mode (%s); falling back to a regular "
                                 "list: %s", self.name, err)
                    fallback_to_list = True
                    w = None  # no garbage down the watch
            if fallback_to_list:
                self.list()
            logger.debug("Caches populated for %s (%s)", self.type_description, self.name)
            yield from self.watch_with_resync(w)
        finally:
            if w is not None:
                w.stop()

    def resync_step(self) -> None:
        """Port of one turn of Reflector.startResync (reflector.go): resync the store if anyone wants it.

        A resync error stops the timer and is handed to the watch (Go: resyncerrc), which ends the pass.
        """
        if self.should_resync is None or self.should_resync():
            logger.debug("Forcing resync (%s)", self.name)
            try:
                self.store.resync()
            except Exception as err:
                self.resync_errc.append(err)
                self.next_resync = None
                return
        self.next_resync = self.resync_chan()

    def watch_with_resync(self, w: watch.Interface | None) -> Generator[Wait, None, None]:
        """Port of Reflector.watchWithResync (reflector.go): watch, with the resync timer running beside it."""
        self.resync_errc = []
        self.next_resync = self.resync_chan()  # Go: go startResync(...)
        try:
            yield from self.watch(w, self.resync_errc)
        finally:
            self.next_resync = None  # Go: cancel()
            self.resync_errc = []

    def watch(self, w: watch.Interface | None, resync_errc: list[BaseException]) -> Generator[Wait, None, None]:
        """Port of Reflector.watch (reflector.go): watch from the last resourceVersion until a pass must end.

        Uses `w` first when given (the watch-list stream). Each watch gets a
        random timeout in [min, max].

        | how a watch ended        | what follows                                   |
        | opening it: 429, refused | a new watch after a backoff delay (no relist)  |
        | opening it: other error  | raised: the pass ends, run_loop reports it      |
        | normally                 | a new watch from the last resourceVersion, now |
        | 410 Expired / Gone       | the pass ends quietly: backoff, then a relist  |
        | 429 Too Many Requests    | a new watch after a backoff delay (no relist)  |
        | 500, while retries last  | a new watch, now                               |
        | anything else            | logged; the pass ends: backoff, then relist    |
        """
        retry = RetryWithDeadline(self.max_internal_error_retry_duration, 60.0, errors.is_internal_error, self.clock)
        try:
            while True:
                start = self.clock.now()  # before the request: some proxies flush headers only with an event
                propagate_rv_from_start = True  # a given w is past any synthetic ADDED events
                if w is None:
                    draw = self.rng.random() if self.rng is not None else random.random()
                    timeout_seconds = int(self.min_watch_timeout
                                          + draw * (self.max_watch_timeout - self.min_watch_timeout))
                    options = ListOptions(resource_version=self.last_sync_resource_version(),
                                          timeout_seconds=timeout_seconds, allow_watch_bookmarks=True)
                    # From "" or "0" the server first sends synthetic ADDED events in no RV order.
                    propagate_rv_from_start = options.resource_version not in ("", "0")
                    try:
                        w = self.lister_watcher.watch(options)
                    except Exception as err:
                        if is_watch_error_retriable(err):
                            logger.debug("Watch failed, backing off (%s): %s", self.name, err)
                            yield from self.after(self.delay_handler())
                            continue
                        raise

                def set_last_sync_resource_version(rv: str, event_received_besides_added: bool,
                                                   propagate: bool = propagate_rv_from_start) -> None:
                    # Only once past the synthetic ADDED events may the resourceVersion move.
                    if propagate or event_received_besides_added:
                        self.set_last_sync_resource_version(rv)
                        if self.store_tracks_resource_version:
                            self.store.update_resource_version(rv)  # type: ignore[attr-defined]

                err: BaseException | None = None
                try:
                    yield from handle_watch(start, w, self.store, self.expected_type, self.expected_gvk, self.name,
                                            self.type_description, set_last_sync_resource_version, self.clock,
                                            resync_errc)
                except Exception as e:
                    err = e
                w = None  # handle_watch stopped it
                retry.after(err)
                if err is None:
                    continue
                if is_expired_error(err):
                    logger.debug("Watch closed (%s): %s", self.name, err)
                elif errors.is_too_many_requests(err):
                    logger.info("Watch returned 429, backing off (%s)", self.name)
                    yield from self.after(self.delay_handler())
                    continue
                elif errors.is_internal_error(err) and retry.should_retry():
                    logger.info("Retrying watch after internal error (%s): %s", self.name, err)
                    continue
                else:
                    logger.warning("Watch ended with error (%s, %s): %s", self.name, self.type_description, err)
                return
        finally:
            if w is not None:
                w.stop()

    def list(self) -> None:
        """Port of Reflector.list (reflector.go): list everything, replace the store, remember the version.

        Page size: `watch_list_page_size` when set; the pager default when the
        first list came back in pages; no paging for a list at a given
        resourceVersion (so a server can answer it from its watch cache);
        otherwise the pager default. A list at an expired or too-new
        resourceVersion is retried at once as a fresh list (resourceVersion "").

        Raises:
            RuntimeError: the list failed (its cause is the error), or the
                result could not be read.
        """
        options = ListOptions(resource_version=self.relist_resource_version())
        pager = ListPager(self.lister_watcher.list)
        if self.watch_list_page_size != 0:
            pager.page_size = self.watch_list_page_size
        elif self.paginated_result:
            pass  # the server pages: keep the default page size
        elif options.resource_version not in ("", "0"):
            pager.page_size = 0
        try:
            try:
                list_obj, paginated = pager.list(options)
            except Exception as err:
                if not (is_expired_error(err) or is_too_large_resource_version_error(err)):
                    raise
                self.set_is_last_sync_resource_version_unavailable(True)
                list_obj, paginated = pager.list(ListOptions(resource_version=self.relist_resource_version()))
            unsupported, gvk = is_unsupported_table_list_object(list_obj)
            if unsupported:
                raise RuntimeError(f"unsupported list gvk: {gvk}, type: {self.type_description}")
        except Exception as err:
            raise RuntimeError(f"failed to list {self.type_description}: {err}") from err

        if options.resource_version == "0" and paginated:
            self.paginated_result = True
        self.set_is_last_sync_resource_version_unavailable(False)  # the list worked
        resource_version, _ = list_accessor(list_obj)
        self.sync_with(extract_list(list_obj), resource_version)
        self.set_last_sync_resource_version(resource_version)

    def watch_list(self) -> Generator[Wait, None, watch.Interface]:
        """Port of Reflector.watchList (reflector.go): get the current state as a stream, keep the stream.

        Asks for a watch with sendInitialEvents, resourceVersionMatch
        NotOlderThan and bookmarks, from the last resourceVersion ("" at
        first: the latest, a consistent read). The server sends every object
        as ADDED, then a BOOKMARK annotated `k8s.io/initial-events-end`. The
        objects go to a temporary store; at that bookmark the real store is
        replaced with them in one go, at the bookmark's resourceVersion, and
        the same watch is returned for `watch` to go on with.
        A 429 or refused connection waits one backoff delay and tries again;
        an expired or too-new resourceVersion tries again at once from "".
        Raises: any other error (list_and_watch then falls back to list).
        """
        def is_error_retriable_with_side_effects(err: BaseException) -> Generator[Wait, None, bool]:
            if is_watch_error_retriable(err):
                logger.debug("watch-list failed, backing off (%s): %s", self.name, err)
                yield from self.after(self.delay_handler())
                return True
            if is_expired_error(err) or is_too_large_resource_version_error(err):
                self.set_is_last_sync_resource_version_unavailable(True)  # start again at the latest
                return True
            return False

        resource_version = ""

        def set_last_sync_resource_version(rv: str, event_received_besides_added: bool) -> None:
            nonlocal resource_version
            if event_received_besides_added:
                resource_version = rv

        while True:
            resource_version = ""
            temporary_store = new_store(meta_namespace_key_func)  # Go: DeletionHandling... (module docstring)
            draw = self.rng.random() if self.rng is not None else random.random()
            timeout_seconds = int(self.min_watch_timeout + draw * (self.max_watch_timeout - self.min_watch_timeout))
            options = ListOptions(resource_version=self.rewatch_resource_version(), allow_watch_bookmarks=True,
                                  send_initial_events=True,
                                  resource_version_match=RESOURCE_VERSION_MATCH_NOT_OLDER_THAN,
                                  timeout_seconds=timeout_seconds)
            start = self.clock.now()
            try:
                w = self.lister_watcher.watch(options)
            except Exception as err:
                if (yield from is_error_retriable_with_side_effects(err)):
                    continue
                raise
            try:
                bookmark_received = yield from handle_list_watch(
                    start, w, temporary_store, self.expected_type, self.expected_gvk, self.name,
                    self.type_description, set_last_sync_resource_version, self.clock, [])
            except BaseException as err:
                w.stop()  # stop, and try again with a clean state
                if not isinstance(err, Exception):
                    raise  # the loop is being closed
                if (yield from is_error_retriable_with_side_effects(err)):
                    continue
                raise
            if bookmark_received:
                break
        # The initial state is complete, confirmed by the "k8s.io/initial-events-end" bookmark.
        self.set_is_last_sync_resource_version_unavailable(False)
        try:
            self.store.replace(temporary_store.list(), resource_version)
        except Exception as err:
            w.stop()
            raise RuntimeError(f"unable to sync watch-list result: {err}") from err
        self.set_last_sync_resource_version(resource_version)
        return w

    def sync_with(self, items: list[Any], resource_version: str) -> None:
        """Port of Reflector.syncWith (reflector.go): replace the store's content with `items`."""
        self.store.replace(list(items), resource_version)

    # --- the resourceVersion ---------------------------------------------------------------

    def last_sync_resource_version(self) -> str:
        """Port of Reflector.LastSyncResourceVersion: the version last listed or seen on the watch."""
        with self._rv_lock:
            return self._last_sync_resource_version

    def set_last_sync_resource_version(self, v: str) -> None:
        """Port of Reflector.setLastSyncResourceVersion."""
        with self._rv_lock:
            self._last_sync_resource_version = v

    def relist_resource_version(self) -> str:
        """Port of Reflector.relistResourceVersion (reflector.go): the version to list at.

        | situation                             | list at                            |
        | last list/watch version unavailable   | "" (fresh, consistent read)        |
        | nothing seen yet                      | "0" (any cached state will do)     |
        | otherwise                             | the last version seen (no going back) |
        """
        with self._rv_lock:
            if self._is_last_sync_resource_version_unavailable:
                return ""
            if self._last_sync_resource_version == "":
                return "0"
            return self._last_sync_resource_version

    def rewatch_resource_version(self) -> str:
        """Port of Reflector.rewatchResourceVersion (reflector.go): the version to stream from.

        "" (the latest, consistent) when the last one was unavailable, else the last version seen ("" at first).
        """
        with self._rv_lock:
            if self._is_last_sync_resource_version_unavailable:
                return ""
            return self._last_sync_resource_version

    def set_is_last_sync_resource_version_unavailable(self, is_unavailable: bool) -> None:
        """Port of Reflector.setIsLastSyncResourceVersionUnavailable: the last version gave Expired or Too large."""
        with self._rv_lock:
            self._is_last_sync_resource_version_unavailable = is_unavailable


SetLastSyncResourceVersion = Callable[[str, bool], None]
"""Told each event's resourceVersion, and whether the stream is past its synthetic ADDED events."""


def handle_list_watch(start: datetime, w: watch.Interface, store: Any, expected_type: type | None,
                      expected_gvk: GroupVersionKind | None, name: str, expected_type_name: str,
                      set_last_sync_resource_version: SetLastSyncResourceVersion, clock: Clock,
                      err_ch: list[BaseException]) -> Generator[Wait, None, bool]:
    """Port of handleListWatch (reflector.go): handle_any_watch up to the initial-events-end bookmark.

    At that bookmark it returns True and leaves `w` open for the caller to go on watching.
    """
    return (yield from handle_any_watch(start, w, store, expected_type, expected_gvk, name, expected_type_name,
                                        set_last_sync_resource_version, True, clock, err_ch))


def handle_watch(start: datetime, w: watch.Interface, store: ReflectorStore, expected_type: type | None,
                 expected_gvk: GroupVersionKind | None, name: str, expected_type_name: str,
                 set_last_sync_resource_version: SetLastSyncResourceVersion, clock: Clock,
                 err_ch: list[BaseException]) -> Generator[Wait, None, None]:
    """Port of handleWatch (reflector.go): handle_any_watch until the watch ends; `w` is always stopped."""
    yield from handle_any_watch(start, w, store, expected_type, expected_gvk, name, expected_type_name,
                                set_last_sync_resource_version, False, clock, err_ch)


def handle_any_watch(start: datetime, w: watch.Interface, store: ReflectorStore, expected_type: type | None,
                     expected_gvk: GroupVersionKind | None, name: str, expected_type_name: str,
                     set_last_sync_resource_version: SetLastSyncResourceVersion,
                     exit_on_watch_list_bookmark_received: bool, clock: Clock,
                     err_ch: list[BaseException]) -> Generator[Wait, None, bool]:
    """Port of handleAnyWatch (reflector.go): apply `w`'s events to `store` until the watch ends.

    Yields the watch's channel whenever it is empty (the step ends there).
    Wrong types, unreadable metadata and store failures are reported and
    skipped. Returns whether the initial-events-end bookmark came; with
    `exit_on_watch_list_bookmark_received` it returns right after it and
    leaves `w` open, otherwise `w` is always stopped.

    Raises:
        StatusError: an ERROR event (the watch must end).
        BaseException: what `err_ch` received (a resync failure).
        VeryShortWatchError: the watch closed within a second, with no events.
    """
    watch_list_bookmark_received = False
    event_received_besides_added = False
    event_count = 0
    wants_bookmarks = isinstance(store, ReflectorBookmarkStore)
    stop_watcher = True
    chan = w.result_chan()
    try:
        while True:
            if err_ch:  # Go: the errc case of the select (checked first here)
                raise err_ch.pop()
            if not chan:
                if chan.closed:
                    break
                yield chan
                continue
            event = chan.recv(0)
            if event is None:
                break
            if event.type == watch.ERROR:
                raise errors.from_object(event.object)
            obj = event.object
            if expected_type is not None and type(obj) is not expected_type:
                runtime.handle_error(None, "Unexpected watch event object type", "reflector", name,
                                     "expectedType", expected_type.__name__, "actualType", type(obj).__name__)
                continue
            if expected_gvk is not None and gvk_of(obj) != expected_gvk:
                runtime.handle_error(None, "Unexpected watch event object gvk", "reflector", name,
                                     "expectedGVK", expected_gvk, "actualGVK", gvk_of(obj))
                continue
            if is_unsupported_table_object(obj):
                runtime.handle_error(None, "Unsupported watch event object gvk", "reflector", name)
                continue
            try:
                resource_version = resource_version_of(obj)
            except TypeError as err:
                runtime.handle_error(err, "Unable to understand watch event", "reflector", name)
                continue
            try:
                if event.type == watch.ADDED:
                    store.add(obj)
                elif event.type == watch.MODIFIED:
                    event_received_besides_added = True
                    store.update(obj)
                elif event.type == watch.DELETED:
                    event_received_besides_added = True
                    store.delete(obj)
                elif event.type == watch.BOOKMARK:  # the server vouches we are caught up to here
                    event_received_besides_added = True
                    if annotations_of(obj).get(INITIAL_EVENTS_ANNOTATION_KEY) == "true":
                        watch_list_bookmark_received = True
                    if wants_bookmarks:
                        store.bookmark(resource_version)  # type: ignore[attr-defined]
                else:
                    runtime.handle_error(None, "Unknown watch event", "reflector", name, "event", event.type)
            except Exception as err:  # a store failure skips this event, as upstream does
                runtime.handle_error(err, f"Unable to apply {event.type} watch event to store", "reflector", name)
            set_last_sync_resource_version(resource_version, event_received_besides_added)
            event_count += 1
            if exit_on_watch_list_bookmark_received and watch_list_bookmark_received:
                stop_watcher = False
                logger.debug("Exiting watch because received the bookmark that marks the end of initial "
                             "events stream (%s): %d items in %.3fs", name, event_count, clock.since(start))
                return watch_list_bookmark_received
    finally:
        if stop_watcher:
            w.stop()
    if clock.since(start) < 1.0 and event_count == 0:
        raise VeryShortWatchError(name)
    logger.debug("Watch close (%s, %s): %d events", name, expected_type_name, event_count)
    return watch_list_bookmark_received


def annotations_of(obj: Any) -> dict[str, str]:
    """No upstream twin. An object's annotations (a model's or a wire dict's); {} when it has none."""
    meta = obj.get("metadata") if isinstance(obj, dict) else getattr(obj, "metadata", None)
    if meta is None:
        return {}
    annotations = meta.get("annotations") if isinstance(meta, dict) else getattr(meta, "annotations", None)
    return annotations or {}


def default_reflector_name(expected_type: Any) -> str:
    """No upstream twin. The served resource of `expected_type` (`apps/v1/deployments`), else the caller's name.

    Go names a reflector after the source line that made it.
    """
    info = resource_for_model(type(expected_type)) if expected_type is not None else None
    if info is not None:
        return "/".join(part for part in (info.group, info.version, info.resource) if part)
    return runtime.get_caller()


def new_namespace_keyed_indexer_and_reflector(lw: ListerWatcher, expected_type: Any,
                                              resync_period: Seconds) -> tuple[Indexer, Reflector]:
    """Port of NewNamespaceKeyedIndexerAndReflector (reflector.go): a namespace-indexed indexer and its reflector."""
    indexer = new_indexer(meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})
    return indexer, new_reflector(lw, expected_type, indexer, resync_period)


def new_reflector(lw: ListerWatcher, expected_type: Any, store: ReflectorStore, resync_period: Seconds) -> Reflector:
    """Port of NewReflector (reflector.go)."""
    return new_reflector_with_options(lw, expected_type, store, ReflectorOptions(resync_period=resync_period))


def new_named_reflector(name: str, lw: ListerWatcher, expected_type: Any, store: ReflectorStore,
                        resync_period: Seconds) -> Reflector:
    """Port of NewNamedReflector (reflector.go)."""
    return new_reflector_with_options(lw, expected_type, store,
                                      ReflectorOptions(name=name, resync_period=resync_period))


@dataclass
class ReflectorOptions:
    """Port of ReflectorOptions (reflector.go)."""

    name: str = ""  # empty: named after the expected type's resource (default_reflector_name)
    type_description: str = ""  # empty: derived from the expected type
    resync_period: Seconds = 0.0  # zero: never resync
    min_watch_timeout: Seconds = 0.0  # honoured only above the 5-minute default; the max is twice it
    clock: Clock | None = None  # None: the real clock
    backoff: wait.Backoff | None = None  # None: the DEFAULT_BACKOFF_* parameters
    rng: random.Random | None = field(default=None, repr=False)  # no upstream twin: seeds timeouts, jitter


def new_reflector_with_options(lw: ListerWatcher, expected_type: Any, store: ReflectorStore,
                               options: ReflectorOptions) -> Reflector:
    """Port of NewReflectorWithOptions (reflector.go): see Reflector; `expected_type` None accepts any object."""
    return Reflector(lw, expected_type, store, options)


def get_type_description_from_object(expected_type: Any) -> str:
    """Port of getTypeDescriptionFromObject (reflector.go): the class name, or the GVK of a wire dict."""
    if expected_type is None:
        return DEFAULT_EXPECTED_TYPE_NAME
    gvk = get_expected_gvk_from_object(expected_type)
    if gvk is not None:
        return str(gvk)
    return type(expected_type).__name__


def get_expected_gvk_from_object(expected_type: Any) -> GroupVersionKind | None:
    """Port of getExpectedGVKFromObject (reflector.go): the GVK of a wire dict example, if it has one."""
    if not isinstance(expected_type, dict):
        return None
    gvk = gvk_of(expected_type)
    return None if gvk == GroupVersionKind("", "", "") else gvk


def is_expired_error(err: BaseException | None) -> bool:
    """Port of isExpiredError (reflector.go): 410 with reason Expired, or the older Gone."""
    return errors.is_resource_expired(err) or errors.is_gone(err)


def is_too_large_resource_version_error(err: BaseException | None) -> bool:
    """Port of isTooLargeResourceVersionError (reflector.go): the server has not reached that resourceVersion.

    Knows the ResourceVersionTooLarge cause and two older forms (in a Timeout's cause or message).
    """
    if errors.has_status_cause(err, errors.CAUSE_TYPE_RESOURCE_VERSION_TOO_LARGE):
        return True
    if not errors.is_timeout(err) or not isinstance(err, errors.StatusError):  # Go: a type assertion
        return False
    status = err.status()
    if status.get("details") is None:
        return False
    for cause in status["details"].get("causes", []):
        if cause.get("message") == "Too large resource version":
            return True
    return "Too large resource version" in str(status.get("message", ""))


def is_watch_error_retriable(err: BaseException | None) -> bool:
    """Port of isWatchErrorRetriable (reflector.go): watch again later (no relist) on 429 or a refused connection."""
    return is_connection_refused(err) or errors.is_too_many_requests(err)


def is_connection_refused(err: BaseException | None) -> bool:
    """Port of IsConnectionRefused (apimachinery pkg/util/net/util.go): ECONNREFUSED anywhere in the chain.

    Go unwraps with errors.As; here the chain is `__cause__`/`__context__`, and
    the `reason` of urllib3's MaxRetryError (which is how the REST transport
    reports a refused connection).
    """
    seen: set[int] = set()
    while err is not None and id(err) not in seen:
        seen.add(id(err))
        if isinstance(err, ConnectionRefusedError) or (isinstance(err, OSError) and err.errno == errno.ECONNREFUSED):
            return True
        reason = getattr(err, "reason", None)
        err = reason if isinstance(reason, BaseException) else (err.__cause__ or err.__context__)
    return False


class VeryShortWatchError(Exception):
    """Port of VeryShortWatchError (reflector.go): the watch closed within a second, with no events."""

    def __init__(self, name: str) -> None:
        super().__init__(f"very short watch: {name}: Unexpected watch close - "
                         "watch lasted less than a second and no items received")
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VeryShortWatchError) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("VeryShortWatchError", self.name))


UNSUPPORTED_TABLE_GVK = frozenset({GroupVersionKind("meta.k8s.io", "v1beta1", "Table"),
                                   GroupVersionKind("meta.k8s.io", "v1", "Table")})
"""Port of unsupportedTableGVK: server-side Table output is not something to cache."""


def is_unsupported_table_object(raw_object: Any) -> bool:
    """Port of isUnsupportedTableObject (reflector.go): a wire dict of kind Table in meta.k8s.io."""
    if not isinstance(raw_object, dict) or raw_object.get("kind") != "Table":
        return False
    return gvk_of(raw_object) in UNSUPPORTED_TABLE_GVK


def is_unsupported_table_list_object(raw_object: Any) -> tuple[bool, GroupVersionKind]:
    """Port of isUnsupportedTableListObject (reflector.go): the same check for a list answer."""
    if not isinstance(raw_object, dict):
        return False, GroupVersionKind("", "", "")
    gvk = gvk_of(raw_object)
    return gvk in UNSUPPORTED_TABLE_GVK, gvk
