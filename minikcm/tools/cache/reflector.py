"""Port of k8s.io/client-go/tools/cache/reflector.go.

The reflector keeps a store in step with the API server. It lists the
resource, replaces the store's content with the list (tagged with the list's
resourceVersion), then watches from that resourceVersion and turns each watch
event into a store add, update or delete. A watch that ends normally is
reopened from the last resourceVersion seen; one that fails with 410 Gone
(the server no longer has that version) ends the pass, and the next pass lists
again. Errors are reported to a WatchErrorHandler and retried with a jittered,
growing backoff. In an informer the store is the RealFIFO.

Start reading at: Reflector.list_step, Reflector.watch_step, then Reflector.watch_ended.

Design notes: upstream's Run is `wait.Until(ListAndWatch)`, and ListAndWatch a
list followed by a blocking watch loop with a resync goroutine beside it. Here
that control flow is a small state machine with three steps:
- `list_step` (phase "list"): one list and store.replace; on success the phase
  becomes "watch" and the resync timer starts (upstream's watchWithResync).
- `watch_step` (phase "watch"): opens a watch when none is open, else handles
  every event already waiting on it without blocking (`recv(timeout=0)`),
  stopping at an error or at the end of the stream. "All available events"
  rather than one, as upstream's loop also reads as fast as events come.
- `resync_step`: when the resync timer is due, should_resync, then store.resync.
Every upstream wait (`clock.After(delayHandler())`, the delay between passes of
Run) becomes `retry_at`, before which no list or watch step is ready; `wakeup()`
tells the driver. The threaded `run` is a thin loop over the same three bodies.

Not ported: watch-list streaming (`watchList`, `handleListWatch`, `rewatchResourceVersion`,
the initial-events-end bookmark ticker, the WatchListClient gate and the data
consistency check): the reflector always lists then watches, which is what
upstream does when its client does not support watch-list (the in-process
clientset and the REST backend fall in that case), and TransformingStore,
which only watch-list uses. Also: contextual loggers,
traces, metrics, the ...WithContext twins, `errorStopRequested` (a step never
blocks, so nothing needs to interrupt it), `BenchmarkReflector*`.
Differs from Go:
- `ListAndWatch` is split into list_step / watch_step / resync_step; an error
  that ends a pass goes to end_list_and_watch, which does what Run does with
  ListAndWatch's return value (call the handler, wait, start again).
- Go's `select` between the resync error channel and the watch channel picks
  at random; here a pending resync error is always handled first.
- Watch timeouts and backoff jitter draw from an injected `random.Random`
  (`ReflectorOptions.rng`) when one is given.
- The type description of an expected object is its class name (`V1Pod`),
  where Go prints the Go type (`*v1.Pod`); unstructured objects are wire dicts.
"""

from __future__ import annotations

import logging
import math
import queue
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Protocol, runtime_checkable

from minikcm.apimachinery import errors, runtime, wait, watch
from minikcm.apimachinery.meta import ListOptions
from minikcm.apimachinery.convert import gvk_of
from minikcm.apimachinery.schema import GroupVersionKind, resource_for_model
from minikcm.clock import Clock, Seconds, or_real
from minikcm.driver import Step
from minikcm.tools.cache.index import NAMESPACE_INDEX, Indexer, meta_namespace_index_func
from minikcm.tools.cache.listwatch import ListerWatcher
from minikcm.tools.cache.retry_with_deadline import RetryWithDeadline
from minikcm.tools.cache.store import meta_accessor, meta_namespace_key_func, new_indexer
from minikcm.tools.cache.store_base import resource_version_of
from minikcm.tools.pager.pager import ListPager, extract_list, list_accessor

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
"""The next unit of work is a (re)list."""
PHASE_WATCH = "watch"
"""The list is done; the reflector watches (opening a watch when none is open)."""

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
        # Go asserts the store's optional interfaces per event; Protocol isinstance checks are slow, so once here.
        self.store_wants_bookmarks = isinstance(store, ReflectorBookmarkStore)
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
        """Port of WatchListPageSize: page size of lists; 0 lets list_step choose."""
        self.should_resync: Callable[[], bool] | None = None
        """Port of ShouldResync: asked when the resync timer fires; None means always."""
        self.max_internal_error_retry_duration: Seconds = 0.0
        """Port of MaxInternalErrorRetryDuration: how long to re-watch at once after 500s."""

        # The state machine (see the module's design notes); all of it belongs to the step thread.
        self.phase = PHASE_LIST
        self.retry_at: datetime | None = None  # backoff: no list/watch step before this time
        self.watcher: watch.Interface | None = None  # the open watch, if any
        self.watch_start: datetime | None = None  # when the open watch was asked for
        self.event_count = 0  # events handled on the open watch
        self.event_received_besides_added = False  # past the synthetic ADDED events of RV "" / "0"
        self.propagate_rv_from_start = True
        self.next_resync: datetime | None = None  # Go: the resync timer of startResync
        self.resync_error: BaseException | None = None  # Go: resyncerrc, buffered, size 1
        self.retry = RetryWithDeadline(0.0, 60.0, errors.is_internal_error, self.clock)
        self.passes = 0
        """How many list-and-watch passes have ended (for traces and tests)."""
        self._steps = [
            Step(f"reflector/{self.name}/list", self.list_ready, self.list_step, self.wakeup, delivers=True),
            Step(f"reflector/{self.name}/watch", self.watch_ready, self.watch_step, self.wakeup, delivers=True),
            Step(f"reflector/{self.name}/resync", self.resync_ready, self.resync_step, self.wakeup, delivers=True),
        ]

    def __repr__(self) -> str:
        watching = "open" if self.watcher is not None else "none"
        return (f"<Reflector {self.name!r} phase={self.phase} rv={self._last_sync_resource_version!r} "
                f"watch={watching} passes={self.passes}>")

    # --- the loop, as steps ------------------------------------------------------------

    def steps(self) -> list[Step]:
        """No upstream twin. The reflector's steps for the driver, in this fixed order: list, watch, resync."""
        return list(self._steps)

    def run(self, stop: threading.Event) -> None:
        """Port of Reflector.Run (reflector.go): list and watch until `stop` is set.

        Threaded mode only (the caller names the thread `reflector/<name>`):
        runs whichever steps are ready, and otherwise blocks on the open watch
        or sleeps on the clock until the next timer. Holds no logic of its own.
        Blocks: until `stop` is set; then stops the open watch.
        """
        logger.info("Starting reflector %s (%s), resync period %s", self.name, self.type_description,
                    self.resync_period)
        try:
            while not stop.is_set():
                ran = False
                for step in self._steps:
                    if step.ready():
                        step.run()
                        ran = True
                if not ran:
                    self.wait_for_work(stop)
        finally:
            self.stop_watching()
            logger.info("Stopping reflector %s (%s)", self.name, self.type_description)

    def wait_for_work(self, stop: threading.Event) -> None:
        """No upstream twin. Threaded mode: block until some step may be ready.

        With a watch open, wait for its next event (and handle what arrives);
        otherwise sleep on the clock until the next backoff or resync time.
        """
        if self.phase == PHASE_WATCH and self.watcher is not None and self.backoff_over():
            self.watch_step(WATCH_POLL_INTERVAL)
            return
        wake = self.wakeup()
        pause = IDLE_POLL_INTERVAL if wake is None else min(max(self.clock.until(wake), 0.0), IDLE_POLL_INTERVAL)
        self.clock.sleep(pause, stop)

    def wakeup(self) -> datetime | None:
        """No upstream twin. The next time a step may become ready by itself: backoff end or resync."""
        times = [t for t in (self.retry_at, self.next_resync) if t is not None and t > self.clock.now()]
        return min(times) if times else None

    def backoff_over(self) -> bool:
        """No upstream twin. True unless a backoff delay is still running."""
        return self.retry_at is None or self.clock.now() >= self.retry_at

    def list_ready(self) -> bool:
        """No upstream twin. The list step has work: phase "list", no backoff running."""
        return self.phase == PHASE_LIST and self.backoff_over()

    def watch_ready(self) -> bool:
        """No upstream twin. The watch step has work: a watch to open, events or an end to handle."""
        if self.phase != PHASE_WATCH or not self.backoff_over():
            return False
        if self.watcher is None or self.resync_error is not None:
            return True
        chan = self.watcher.result_chan()
        return len(chan) > 0 or chan.closed

    def resync_ready(self) -> bool:
        """No upstream twin. The resync timer is due."""
        return self.phase == PHASE_WATCH and self.next_resync is not None and self.clock.now() >= self.next_resync

    def list_step(self) -> None:
        """Port of the list half of Reflector.ListAndWatch (reflector.go): list, replace the store.

        On success the watch phase begins (upstream's watchWithResync: the
        resync timer starts, internal-error retries are tracked afresh). On
        failure the pass ends with the error.
        """
        self.retry_at = None
        logger.debug("Listing and watching %s (%s)", self.type_description, self.name)
        try:
            self.list()
        except Exception as err:  # the pass ends; end_list_and_watch reports it
            self.end_list_and_watch(err)
            return
        logger.debug("Caches populated for %s (%s)", self.type_description, self.name)
        self.phase = PHASE_WATCH
        self.next_resync = self.resync_chan()
        self.resync_error = None
        self.retry = RetryWithDeadline(self.max_internal_error_retry_duration, 60.0,
                                       errors.is_internal_error, self.clock)

    def watch_step(self, timeout: Seconds = 0.0) -> None:
        """Port of one turn of Reflector.watch's loop (reflector.go): open a watch, or handle what it queued.

        Handles the events already queued (waiting up to `timeout` real seconds
        for the first; 0 under the driver) until an ERROR or the end of the stream.
        """
        if self.watcher is None:
            self.open_watch()
            return
        if self.resync_error is not None:  # Go: the errc case of handleAnyWatch's select
            err, self.resync_error = self.resync_error, None
            self.watch_ended(err)
            return
        chan = self.watcher.result_chan()
        for i in range(max(len(chan), 1)):  # what is queued now; later events wait for the next step
            try:
                event = chan.recv(timeout=timeout if i == 0 else 0)
            except queue.Empty:
                return
            if event is None:  # the server (or someone) closed the stream
                self.watch_ended(self.closed_watch_error())
                return
            err = self.handle_event(event)
            if err is not None:
                self.watch_ended(err)
                return

    def resync_step(self) -> None:
        """Port of one turn of Reflector.startResync (reflector.go): resync the store if anyone wants it.

        A resync error ends the watch and the pass (Go: via resyncerrc); the timer stops.
        """
        if self.should_resync is None or self.should_resync():
            logger.debug("Forcing resync (%s)", self.name)
            try:
                self.store.resync()
            except Exception as err:  # reported through the watch, as upstream does
                self.resync_error = err
                self.next_resync = None
                return
        self.next_resync = self.resync_chan()

    def resync_chan(self) -> datetime | None:
        """Port of Reflector.resyncChan (reflector.go): when the next resync is due; None for never."""
        if self.resync_period == 0:
            return None
        return self.clock.now() + timedelta(seconds=self.resync_period)

    def open_watch(self) -> None:
        """Port of the first half of Reflector.watch's loop: ask for a watch from the last resourceVersion.

        The timeout is random in [min, max]. A 429 or a refused connection backs
        off without a relist; any other error ends the pass.
        """
        now = self.clock.now()
        draw = self.rng.random() if self.rng is not None else random.random()
        timeout_seconds = int(self.min_watch_timeout + draw * (self.max_watch_timeout - self.min_watch_timeout))
        options = ListOptions(resource_version=self.last_sync_resource_version(),
                              timeout_seconds=timeout_seconds, allow_watch_bookmarks=True)
        # From "" or "0" the server first sends synthetic ADDED events in no RV order.
        self.propagate_rv_from_start = options.resource_version not in ("", "0")
        try:
            w = self.lister_watcher.watch(options)
        except Exception as err:
            if is_watch_error_retriable(err):
                logger.debug("Watch failed, backing off (%s): %s", self.name, err)
                self.retry_at = now + timedelta(seconds=self.delay_handler())
                return
            self.end_list_and_watch(err)
            return
        self.watcher = w
        self.watch_start = now
        self.event_count = 0
        self.event_received_besides_added = False

    def handle_event(self, event: watch.Event) -> BaseException | None:
        """Port of one iteration of handleAnyWatch (reflector.go): apply one watch event to the store.

        Returns the error an ERROR event carries (the watch must end); wrong types,
        unreadable metadata and store failures are reported and skipped, as upstream does.
        """
        if event.type == watch.ERROR:
            return errors.from_object(event.object)
        obj = event.object
        if self.expected_type is not None and type(obj) is not self.expected_type:
            runtime.handle_error(None, "Unexpected watch event object type", "reflector", self.name,
                                 "expectedType", self.expected_type.__name__, "actualType", type(obj).__name__)
            return None
        if self.expected_gvk is not None and gvk_of(obj) != self.expected_gvk:
            runtime.handle_error(None, "Unexpected watch event object gvk", "reflector", self.name,
                                 "expectedGVK", self.expected_gvk, "actualGVK", gvk_of(obj))
            return None
        if is_unsupported_table_object(obj):
            runtime.handle_error(None, "Unsupported watch event object gvk", "reflector", self.name)
            return None
        try:
            resource_version = resource_version_of(obj)
        except TypeError as err:
            runtime.handle_error(err, "Unable to understand watch event", "reflector", self.name)
            return None
        self.apply_event(event.type, obj, resource_version)
        # Once past the synthetic ADDED events, the resourceVersion may move.
        if self.propagate_rv_from_start or self.event_received_besides_added:
            self.set_last_sync_resource_version(resource_version)
            if self.store_tracks_resource_version:
                self.store.update_resource_version(resource_version)  # type: ignore[attr-defined]
        self.event_count += 1
        return None

    def apply_event(self, event_type: str, obj: Any, resource_version: str) -> None:
        """Port of the event switch of handleAnyWatch: add, update, delete or bookmark; errors are reported."""
        try:
            if event_type == watch.ADDED:
                self.store.add(obj)
            elif event_type == watch.MODIFIED:
                self.event_received_besides_added = True
                self.store.update(obj)
            elif event_type == watch.DELETED:
                self.event_received_besides_added = True
                self.store.delete(obj)
            elif event_type == watch.BOOKMARK:  # the server vouches we are caught up to here
                self.event_received_besides_added = True
                if self.store_wants_bookmarks:
                    self.store.bookmark(resource_version)  # type: ignore[attr-defined]
            else:
                runtime.handle_error(None, "Unknown watch event", "reflector", self.name, "event", event_type)
        except Exception as err:  # a store failure skips this event, as upstream does
            runtime.handle_error(err, f"Unable to apply {event_type} watch event to store", "reflector", self.name)

    def closed_watch_error(self) -> BaseException | None:
        """Port of the end of handleAnyWatch: a watch that closed at once with nothing in it is an error."""
        start = self.watch_start or self.clock.now()
        if self.clock.since(start) < 1.0 and self.event_count == 0:
            return VeryShortWatchError(self.name)
        logger.debug("Watch close (%s): %d events", self.name, self.event_count)
        return None

    def watch_ended(self, err: BaseException | None) -> None:
        """Port of the second half of Reflector.watch's loop: decide what follows a finished watch.

        | how the watch ended      | what follows                                   |
        | normally (err is None)   | a new watch from the last resourceVersion, now |
        | 410 Expired / Gone       | the pass ends: backoff, then a relist          |
        | 429 Too Many Requests    | a new watch after a backoff delay (no relist)  |
        | 500, while retries last  | a new watch, now                               |
        | anything else            | logged; the pass ends: backoff, then relist    |
        """
        self.stop_watching()
        self.retry.after(err)
        if err is None:
            return
        if is_expired_error(err):
            logger.debug("Watch closed (%s): %s", self.name, err)
            self.end_list_and_watch(None)
        elif errors.is_too_many_requests(err):
            logger.info("Watch returned 429, backing off (%s)", self.name)
            self.retry_at = self.clock.now() + timedelta(seconds=self.delay_handler())
        elif errors.is_internal_error(err) and self.retry.should_retry():
            logger.info("Retrying watch after internal error (%s): %s", self.name, err)
        else:
            logger.warning("Watch ended with error (%s, %s): %s", self.name, self.type_description, err)
            self.end_list_and_watch(None)

    def end_list_and_watch(self, err: BaseException | None) -> None:
        """Port of Reflector.RunWithContext's handling of ListAndWatch returning (reflector.go).

        Stops the watch and the resync timer, reports `err` (if any) to the
        watch error handler, and schedules the next list after one backoff
        delay (sliding: measured from now).
        """
        self.stop_watching()
        self.next_resync = None
        self.resync_error = None
        if err is not None:
            self.watch_error_handler(self, err)
        self.phase = PHASE_LIST
        self.passes += 1
        self.retry_at = self.clock.now() + timedelta(seconds=self.delay_handler())

    def stop_watching(self) -> None:
        """No upstream twin. Stop and forget the open watch (Go: the deferred w.Stop())."""
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None

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

    def set_is_last_sync_resource_version_unavailable(self, is_unavailable: bool) -> None:
        """Port of Reflector.setIsLastSyncResourceVersionUnavailable: the last version gave Expired or Too large."""
        with self._rv_lock:
            self._is_last_sync_resource_version_unavailable = is_unavailable


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
    return isinstance(err, ConnectionRefusedError) or errors.is_too_many_requests(err)


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
