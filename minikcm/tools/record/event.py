"""Port of k8s.io/client-go/tools/record/event.go.

Controllers report what they did as core/v1 Events ("Scaled up replica set web-5d
to 3"). A controller holds an `EventRecorder`; each `eventf` builds an Event
about an object and queues it on the `EventBroadcaster`, a watch.Broadcaster
(minikcm.apimachinery.watch.mux) that hands it to every watcher: usually one
that writes to the API server through an `EventSink` (after the correlator in
events_cache.py has aggregated, counted and filtered it) and one that logs it.
Recording never blocks the controller: a full queue drops the event.

Start reading at: RecorderImpl.generate_event, then EventWatcher.process (the
step each watcher runs), then SinkRecording.attempt and record_event.

Not ported: EventRecorderAdapter (the events/v1-style adapter), WithContext's
logger, klog verbosity (StartStructuredLogging logs at INFO for 0, DEBUG above),
metrics.
Differs from Go:
- Every loop has a step. The Broadcaster's loop is its `distribute_incoming`;
  the loop StartEventWatcher runs for each watcher (Go: a goroutine) is
  `EventWatcher.process`. On a driven clock the driver runs `steps()`: the
  Broadcaster's step, then `record/broadcaster`, which runs every watcher's
  step once. Otherwise each watcher has a `record/watcher-<id>` thread calling
  its step. The mode is decided once, in the constructor, from the clock.
- recordToSink's retries wait on the injected clock without blocking the step:
  a failed write is parked in `SinkRecording.pending` with the time of its next
  try, which the step's wakeup reports. `record_to_sink` keeps Go's blocking
  shape (it sleeps on the clock) for direct callers.
- Broadcaster options are keyword arguments of `new_broadcaster`; a
  `threading.Event` stands in for WithContext's context. The recorder and the
  correlator use the broadcaster's clock (Go: the real clock, unless
  CorrelatorOptions.clock is set); jitter and uuids come from `rng`.
- Watchers are served in registration order (Go: map order). After shutdown,
  events still queued for a watcher are dropped (Go: a race; here stop wins).
- Messages use Go formats, rendered by gofmt.go_sprintf. StartLogging's `logf`
  gets a `%s`-only format with pre-rendered strings, so Python logging calls
  work too.
- `action_or_drop` raises RuntimeError once stopped (Go returns an error).
- `RequestConstructionError` stands in for rest.RequestConstructionError. Neither
  of the port's transports raises it (both build every request they are given),
  so only a sink written for a test meets it.
- With `stop` and a clock that is not driven, a second thread polls it (two
  Events cannot be selected on together).
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from kubernetes.client import CoreV1Event, V1EventSource, V1ObjectMeta, V1ObjectReference

from minikcm.apimachinery import errors, runtime, watch
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.field import go_quote
from minikcm.client.typed import EventSinkImpl
from minikcm.clock import Clock, Seconds
from minikcm.driver import Step
from minikcm.tools.record.events_cache import (
    EventAggregatorKeyFunc,
    EventAggregatorMessageFunc,
    EventCorrelator,
    EventSpamKeyFunc,
    new_event_correlator_with_options,
    unix_nano,
)
from minikcm.tools.record.gofmt import go_sprintf, object_reference_go_string
from minikcm.tools.record.util import generate_event_name, is_key_not_found_error, validate_event_type
from minikcm.tools.reference import get_reference

if TYPE_CHECKING:
    from minikcm.client.interface import EventInterface

logger = logging.getLogger(__name__)

MAX_TRIES_PER_EVENT = 12
"""Port of maxTriesPerEvent: writes of one event before it is given up."""

DEFAULT_SLEEP_DURATION: Seconds = 10.0
"""Port of defaultSleepDuration: the pause between two tries (the first one jittered)."""

MAX_QUEUED_EVENTS = 1000
"""Port of maxQueuedEvents: the broadcaster's queue, and each watcher's; beyond it events drop."""

CONTEXT_POLL_INTERVAL: Seconds = 0.05
"""Real seconds between two looks at the `stop` event given to new_broadcaster (threaded mode)."""

NAMESPACE_DEFAULT = "default"  # Go: metav1.NamespaceDefault
NAMESPACE_TERMINATING_CAUSE = "NamespaceTerminating"  # Go: corev1.NamespaceTerminatingCause


class RequestConstructionError(Exception):
    """Stand-in for rest.RequestConstructionError: the request itself could not be built.

    record_event gives such an event up at once, since the next try would fail the same way.
    """


class EventSink(Protocol):
    """Port of EventSink (event.go): where events are stored, each in its own namespace.

    Methods raise the clientset's errors (StatusError for API failures).
    """

    def create(self, event: CoreV1Event) -> CoreV1Event:
        """Port of EventSink.Create (event.go)."""
    def update(self, event: CoreV1Event) -> CoreV1Event:
        """Port of EventSink.Update (event.go)."""
    def patch(self, old_event: CoreV1Event, data: bytes) -> CoreV1Event:
        """Port of EventSink.Patch (event.go)."""


@dataclass
class CorrelatorOptions:
    """Port of CorrelatorOptions (event.go): overrides for the correlator; zero means default.

    Defaults (events_cache.populate_defaults): 4096 LRU entries, spam burst 25
    refilled at 1/300 per second, aggregation by reason after 10 events within
    600 s, the real clock, get_spam_key.
    """

    lru_cache_size: int = 0
    burst_size: int = 0
    qps: float = 0.0
    key_func: EventAggregatorKeyFunc | None = None
    message_func: EventAggregatorMessageFunc | None = None
    max_events: int = 0
    max_interval_in_seconds: int = 0
    clock: Clock | None = None
    spam_key_func: EventSpamKeyFunc | None = None


class EventRecorder(Protocol):
    """Port of EventRecorder (event.go): what controllers call to report on an object.

    `event_type` is Normal or Warning; `reason` is a short UpperCamelCase word
    that tools switch on; the message is for humans. The event goes to the
    namespace of the object (or "default").
    """

    def event(self, obj: Any, event_type: str, reason: str, message: str) -> None:
        """Port of EventRecorder.Event (event.go)."""
    def eventf(self, obj: Any, event_type: str, reason: str, message_fmt: str, *args: Any) -> None:
        """Port of EventRecorder.Eventf (event.go)."""
    def annotated_eventf(self, obj: Any, annotations: dict[str, str] | None, event_type: str,
                         reason: str, message_fmt: str, *args: Any) -> None:
        """Port of EventRecorder.AnnotatedEventf (event.go)."""


class EventRecorderLogger(EventRecorder, Protocol):
    """Port of EventRecorderLogger (event.go): a recorder whose own errors go to a chosen logger."""

    def with_logger(self, log: logging.Logger) -> EventRecorderLogger:
        """Port of EventRecorderLogger.WithLogger (event.go)."""


class EventBroadcaster(Protocol):
    """Port of EventBroadcaster (event.go): fans recorded events out to sinks, handlers and logs.

    Each `start_*` returns a watch.Interface whose `stop()` ends that delivery.
    After `shutdown`, a sink gets at most one more try per event in flight.
    """

    def start_event_watcher(self, event_handler: Callable[[CoreV1Event], None]) -> watch.Interface:
        """Port of EventBroadcaster.StartEventWatcher (event.go)."""
    def start_recording_to_sink(self, sink: EventSink) -> watch.Interface:
        """Port of EventBroadcaster.StartRecordingToSink (event.go)."""
    def start_logging(self, logf: Callable[..., None]) -> watch.Interface:
        """Port of EventBroadcaster.StartLogging (event.go)."""
    def start_structured_logging(self, verbosity: int) -> watch.Interface:
        """Port of EventBroadcaster.StartStructuredLogging (event.go)."""
    def new_recorder(self, scheme: Any, source: V1EventSource) -> EventRecorderLogger:
        """Port of EventBroadcaster.NewRecorder (event.go)."""
    def shutdown(self) -> None:
        """Port of EventBroadcaster.Shutdown (event.go)."""


def new_broadcaster(*, sleep_duration: Seconds = DEFAULT_SLEEP_DURATION,
                    correlator_options: CorrelatorOptions | None = None,
                    stop: threading.Event | None = None, clock: Clock | None = None,
                    rng: random.Random | None = None) -> EventBroadcasterImpl:
    """Port of NewBroadcaster (event.go); Go's options are keyword arguments.

    `sleep_duration` is WithSleepDuration, `correlator_options`
    WithCorrelatorOptions, `stop` WithContext (setting it shuts the broadcaster
    down). On a driven `clock` (`clock.driven`) no thread starts: the driver
    runs `steps()`.
    """
    return EventBroadcasterImpl(sleep_duration, correlator_options or CorrelatorOptions(), stop,
                                clock, rng)


def new_broadcaster_for_tests(sleep_duration: Seconds, **kwargs: Any) -> EventBroadcasterImpl:
    """Port of NewBroadcasterForTests (event.go)."""
    return new_broadcaster(sleep_duration=sleep_duration, **kwargs)


def new_broadcaster_with_correlator_options(options: CorrelatorOptions, **kwargs: Any) -> EventBroadcasterImpl:
    """Port of NewBroadcasterWithCorrelatorOptions (event.go)."""
    return new_broadcaster(correlator_options=options, **kwargs)


class EventBroadcasterImpl(watch.Broadcaster):
    """Port of eventBroadcasterImpl (event.go): a watch.Broadcaster of Events, and its watchers' loops.

    Go embeds *watch.Broadcaster; here the class extends it, so a recorder
    queues with the Broadcaster's `action_or_drop` and `shutdown` ends the
    Broadcaster first, as Go's does. Each `start_*` adds a Broadcaster watcher
    and an EventWatcher that runs StartEventWatcher's loop over it.
    Thread: any thread may record or add watchers; handlers run on the
    watchers' `record/watcher-<id>` threads, or on the driver's on a driven
    clock (decided once, here). `_record_lock` guards `_event_watchers` and
    `_last_name_nanos`; the Broadcaster's `_lock` guards its own fields.
    """

    def __init__(self, sleep_duration: Seconds, options: CorrelatorOptions, context: threading.Event | None,
                 clock: Clock | None, rng: random.Random | None) -> None:
        # Go: watch.NewLongQueueBroadcaster(maxQueuedEvents, watch.DropIfChannelFull)
        super().__init__(MAX_QUEUED_EVENTS, watch.DROP_IF_CHANNEL_FULL, MAX_QUEUED_EVENTS, clock)
        self.sleep_duration = sleep_duration
        self.options = options
        self.rng = rng if rng is not None else (random.Random(0) if self.clock.driven else random.Random())
        self._record_lock = threading.Lock()
        self._last_name_nanos = 0  # guarded by _record_lock: last stamp handed to an event name
        self._event_watchers: list[EventWatcher] = []  # registration order; finished ones are dropped
        self._cancel = threading.Event()  # Go: cancelationCtx
        self._context = context  # Go: the parent context given WithContext
        self.context_thread: threading.Thread | None = None  # polls `context` (not on a driven clock)
        if not self.clock.driven and context is not None:  # the mode, decided once (the Broadcaster's too)
            self.context_thread = threading.Thread(name="record/broadcaster-context",
                                                   target=self.shutdown_on_context, daemon=True)
            self.context_thread.start()

    # -- event.go ----------------------------------------------------------------------------------

    def unique_unix_nano(self, t: datetime) -> int:
        """No upstream twin: `t` in Unix nanoseconds, bumped past any stamp this broadcaster gave.

        Differs from Go: Go's real clock never repeats a nanosecond, but a fake
        clock does, and two events stamped at the same fake instant would get
        the same name (the server refuses the second as AlreadyExists). Bumping
        by one nanosecond keeps names unique and runs deterministic.
        """
        nanos = unix_nano(t)
        with self._record_lock:
            if nanos <= self._last_name_nanos:
                nanos = self._last_name_nanos + 1
            self._last_name_nanos = nanos
            return nanos

    def start_recording_to_sink(self, sink: EventSink) -> watch.Interface:
        """Port of eventBroadcasterImpl.StartRecordingToSink (event.go).

        Every event from now on goes through a correlator of its own (so two
        sinks count separately) and then to `sink`, with retries.
        """
        options = self.options if self.options.clock is not None else replace(self.options, clock=self.clock)
        recording = SinkRecording(self, sink, new_event_correlator_with_options(options))
        return self.start_watcher(recording.record, recording)

    def shutdown(self) -> None:
        """Port of eventBroadcasterImpl.Shutdown (event.go): the Broadcaster's shutdown, then cancel.

        The Broadcaster refuses new events, hands the queued ones to the
        watchers and closes every watcher; cancelling then stops the handlers
        and makes a sink drop its retry.
        """
        super().shutdown()  # Go: e.Broadcaster.Shutdown()
        self._cancel.set()  # Go: e.cancel()

    def record_to_sink(self, sink: EventSink, event: CoreV1Event, event_correlator: EventCorrelator) -> None:
        """Port of eventBroadcasterImpl.recordToSink (event.go): write one event, retrying.

        Up to MAX_TRIES_PER_EVENT tries, `sleep_duration` apart (the first pause
        jittered); gives up at once on errors a retry cannot fix.
        Blocks: on the clock between tries, so under a FakeClock only with
        sleep_duration 0; the broadcaster itself uses SinkRecording's steps.
        """
        recording = SinkRecording(self, sink, event_correlator)
        recording.record(event)
        while recording.pending is not None:
            if self.clock.sleep(self.clock.until(recording.pending.next_try), self._cancel):
                logger.error("Unable to write event %s (broadcaster is shut down)", describe(event))
                return
            recording.attempt()

    def start_logging(self, logf: Callable[..., None]) -> watch.Interface:
        """Port of eventBroadcasterImpl.StartLogging (event.go).

        Calls `logf(format, *args)` for each event; every argument is already a
        string and the format uses only `%s`, so both `go_sprintf` and Python's
        logging calls (`logger.info`) render it, as
        `Event(v1.ObjectReference{Kind:"Pod", ...}): type: 'Normal' reason: 'Started' message`.
        """
        def log_event(e: CoreV1Event) -> None:
            logf("Event(%s): type: '%s' reason: '%s' %s", object_reference_go_string(e.involved_object),
                 e.type or "", e.reason or "", e.message or "")
        return self.start_event_watcher(log_event)

    def start_structured_logging(self, verbosity: int) -> watch.Interface:
        """Port of eventBroadcasterImpl.StartStructuredLogging (event.go): one log record per event.

        Verbosity 0 logs at INFO, higher levels at DEBUG (klog's V levels).
        """
        level = logging.INFO if verbosity <= 0 else logging.DEBUG

        def log_event(e: CoreV1Event) -> None:
            ref = e.involved_object or V1ObjectReference()
            obj = f"{ref.namespace}/{ref.name}" if ref.namespace else (ref.name or "")
            logger.log(level, "Event occurred object=%s fieldPath=%s kind=%s apiVersion=%s type=%s reason=%s message=%s",
                       *(go_quote(v or "") for v in (obj, ref.field_path, ref.kind, ref.api_version,
                                                     e.type, e.reason, e.message)))
        return self.start_event_watcher(log_event)

    def start_event_watcher(self, event_handler: Callable[[CoreV1Event], None]) -> watch.Interface:
        """Port of eventBroadcasterImpl.StartEventWatcher (event.go): call `event_handler` for each event.

        Returns the Broadcaster's watcher; `stop()` ends delivery once the events
        already queued for it are handled. After shutdown, an empty watch.
        """
        return self.start_watcher(event_handler, None)

    def new_recorder(self, scheme: Any, source: V1EventSource) -> RecorderImpl:
        """Port of eventBroadcasterImpl.NewRecorder (event.go): a recorder stamping `source` on events.

        `scheme` is kept for the signature; references come from get_reference.
        """
        return RecorderImpl(scheme, source, self, self.clock, self.rng, logger)

    def start_watcher(self, handler: Callable[[CoreV1Event], None],
                      recording: SinkRecording | None) -> watch.Interface:
        """Port of the body of eventBroadcasterImpl.StartEventWatcher (event.go), for any handler.

        Adds a Broadcaster watcher and an EventWatcher running `handler` over
        it (`recording` is kept beside it for the step). After shutdown: logs,
        and returns an empty watch.
        """
        try:
            watcher = self.watch()
        except RuntimeError as err:
            logger.error("Unable start event watcher (will not retry!): %s", err)
            return watch.new_empty_watch()
        event_watcher = EventWatcher(self, watcher, handler, recording)
        with self._record_lock:
            self._event_watchers.append(event_watcher)
        if not self.clock.driven:
            event_watcher.start()  # Go: the go func() of StartEventWatcher
        return watcher

    # -- the step -----------------------------------------------------------------------------------
    def deliver(self) -> int:
        """No upstream twin: the `record/broadcaster` step, one round of every watcher's loop.

        Lets each watcher handle its events until its channel is empty or its
        sink waits for a retry. Shuts down first when the `stop` given to
        new_broadcaster is set. Returns the number of events handled (or tries made).
        """
        if self._context is not None and self._context.is_set():
            self.shutdown()
            return 0
        with self._record_lock:
            event_watchers = [w for w in self._event_watchers if not w.done]
        handled = sum(w.process() for w in event_watchers)
        with self._record_lock:
            self._event_watchers = [w for w in self._event_watchers if not w.done]
        return handled

    def deliver_ready(self) -> bool:
        """True when `deliver` has work now."""
        if self._cancel.is_set():
            return False
        if self._context is not None and self._context.is_set():
            return True
        now = self.clock.now()
        return any(w.ready(now) for w in list(self._event_watchers))

    def next_retry_time(self) -> datetime | None:
        """The earliest time a parked sink write is due again (None: none is parked)."""
        if self._cancel.is_set():
            return None
        times = [t for w in list(self._event_watchers) if (t := w.next_try()) is not None]
        return min(times) if times else None

    def steps(self) -> list[Step]:
        """The Broadcaster's step, then the watchers' `record/broadcaster` step (on a driven clock)."""
        return [*super().steps(), Step("record/broadcaster", self.deliver_ready, self.deliver, self.next_retry_time)]

    def shutdown_on_context(self) -> None:
        """Body of the `record/broadcaster-context` thread: Go's goroutine waiting on the context.

        Go selects on the context and on shutdown; two threading.Events cannot be
        waited on together, so this polls the context every CONTEXT_POLL_INTERVAL.
        """
        assert self._context is not None
        while not self._cancel.is_set():
            if self._context.wait(CONTEXT_POLL_INTERVAL):
                self.shutdown()

    def cancelled(self) -> bool:
        """True once shut down (Go: cancelationCtx is done)."""
        return self._cancel.is_set()

    def __repr__(self) -> str:
        mode = "threaded" if self.thread is not None else "driven"
        return (f"EventBroadcasterImpl({mode}, queued={len(self._incoming)}, "
                f"watchers={len(self._event_watchers)}, stopped={self._stopped})")


class EventWatcher:
    """No upstream twin: the loop StartEventWatcher (event.go) runs for one watcher, with a step.

    `process`, the step, hands the events in the watcher's channel to the
    handler. `recording` is set for sink watchers, whose handler may park an
    event for a retry, holding back the events after it. `loop` is the body of
    the watcher's own thread (not on a driven clock).
    """

    def __init__(self, broadcaster: EventBroadcasterImpl, watcher: watch.BroadcasterWatcher,
                 handler: Callable[[CoreV1Event], None], recording: SinkRecording | None) -> None:
        self.broadcaster = broadcaster
        self.watcher = watcher
        self.handler = handler
        self.recording = recording
        self.done = False  # the loop has ended: channel closed and drained
        self.thread: threading.Thread | None = None  # runs `loop` (none on a driven clock)

    def start(self) -> None:
        """Start the `record/watcher-<id>` thread running `loop` (Go: StartEventWatcher's goroutine)."""
        self.thread = threading.Thread(name=f"record/watcher-{self.watcher.id}", target=self.loop, daemon=True)
        self.thread.start()

    def ready(self, now: datetime) -> bool:
        """True when `process` would handle something at `now`."""
        if self.done:
            return False
        if self.recording is not None and self.recording.pending is not None:
            return now >= self.recording.pending.next_try
        return len(self.watcher.result) > 0 or self.watcher.result.closed

    def process(self) -> int:
        """Port of the loop in StartEventWatcher (event.go): handle events until none is ready.

        Stops when the queue is empty, when a parked sink write is not due yet,
        or when the broadcaster is shut down (Go: the context wins).
        """
        handled = 0
        while not self.broadcaster.cancelled():
            if self.recording is not None and self.recording.pending is not None:
                if self.broadcaster.clock.now() < self.recording.pending.next_try:
                    break
                self.recording.attempt()
                handled += 1
                continue
            try:
                event = self.watcher.result.recv(timeout=0)
            except queue.Empty:
                break
            if event is None:  # Go: the channel is closed
                self.done = True
                break
            self.handler(event.object)
            handled += 1
        return handled

    def next_try(self) -> datetime | None:
        """When this watcher's parked sink write is due again (None: nothing is parked)."""
        if self.recording is not None and self.recording.pending is not None:
            return self.recording.pending.next_try
        return None

    def loop(self) -> None:
        """Body of the `record/watcher-<id>` thread: run `process`, then wait for an event or the next try.

        Thread: the watcher's own. Ends once the channel is closed and drained,
        or the broadcaster is shut down (Go: the context wins).
        """
        clock = self.broadcaster.clock
        try:
            while not self.done and not self.broadcaster.cancelled():
                if self.process():
                    continue
                wake_at = self.next_try()
                if wake_at is None:
                    self.watcher.result.wait()
                else:
                    clock.sleep(clock.until(wake_at), self.broadcaster._cancel)
        except Exception:
            runtime.handle_crash()

    def __repr__(self) -> str:
        return f"EventWatcher(id={self.watcher.id}, queued={len(self.watcher.result)}, parked={self.next_try() is not None})"


@dataclass
class PendingEvent:
    """No upstream twin: the locals of recordToSink's retry loop, kept between steps."""

    event: CoreV1Event  # what the correlator said to write
    patch: bytes | None  # the counting patch, when the event was seen before
    original: CoreV1Event  # the event as recorded, for messages
    next_try: datetime  # when to try (again)
    tries: int = 0  # failed tries so far


class SinkRecording:
    """No upstream twin: recordToSink (event.go) cut into steps for one sink.

    `record` correlates a new event and makes the first try; a retryable
    failure parks the event in `pending` until `next_try` on the clock, and
    `attempt` makes the next try. At most one event is pending per sink.
    Thread: the broadcaster's step (or record_to_sink's caller) only.
    """

    def __init__(self, broadcaster: EventBroadcasterImpl, sink: EventSink, correlator: EventCorrelator) -> None:
        self.broadcaster = broadcaster
        self.sink = sink
        self.correlator = correlator
        self.pending: PendingEvent | None = None

    def record(self, event: CoreV1Event) -> None:
        """Port of the start of recordToSink (event.go): copy, correlate, first try."""
        event_copy = deep_copy(event)  # Go: copy first; other watchers share the event
        try:
            result = self.correlator.event_correlate(event_copy)
        except ValueError as err:
            runtime.handle_error(err)
            return
        if result.skip or result.event is None:
            return
        self.pending = PendingEvent(result.event, result.patch, event, self.broadcaster.clock.now())
        self.attempt()

    def attempt(self) -> None:
        """Port of one pass of recordToSink's loop (event.go): try, then finish, park or give up.

        Example (sleep_duration 10 s): try 1 fails at t=0, try 2 comes at a
        random time in [0 s, 10 s), then every 10 s: try 12 runs between 100 s
        and 110 s; if it fails the event is dropped.
        """
        p = self.pending
        assert p is not None
        if record_event(self.sink, p.event, p.patch, (p.event.count or 0) > 1, self.correlator):
            self.pending = None
            return
        p.tries += 1
        if p.tries >= MAX_TRIES_PER_EVENT:
            logger.error("Unable to write event %s (retry limit exceeded!)", describe(p.original))
            self.pending = None
            return
        if self.broadcaster.cancelled():  # Go: the select sees the context done
            logger.error("Unable to write event %s (broadcaster is shut down)", describe(p.original))
            self.pending = None
            return
        delay = self.broadcaster.sleep_duration
        if p.tries == 1:  # spread clients out when the server comes back
            delay *= self.broadcaster.rng.random()
        p.next_try = self.broadcaster.clock.now() + timedelta(seconds=delay)


def record_event(sink: EventSink, event: CoreV1Event, patch: bytes | None, update_existing_event: bool,
                 event_correlator: EventCorrelator) -> bool:
    """Port of recordEvent (event.go): one write of `event`. True when done (written or given up).

    A repeat is patched; a new event, or a repeat whose stored copy is gone
    (404), is created with its resourceVersion cleared. On success the
    correlator learns the server's copy. API errors and unbuildable requests
    are final; anything else (a transport error) is worth a retry.
    """
    new_event: CoreV1Event | None = None
    err: Exception | None = None
    if update_existing_event:
        try:
            new_event = sink.patch(event, patch or b"")
        except Exception as e:  # judged below, as Go judges the returned error
            err = e
    if not update_existing_event or is_key_not_found_error(err):
        if event.metadata is not None:
            event.metadata.resource_version = None  # Go: ""
        try:
            new_event, err = sink.create(event), None
        except Exception as e:  # judged below
            err = e
    if err is None:
        if new_event is not None:
            event_correlator.update_state(new_event)
        return True

    if isinstance(err, RequestConstructionError):
        logger.error("Unable to construct event %s (will not retry!): %s", describe(event), err)
        return True
    if isinstance(err, errors.StatusError):
        if errors.is_already_exists(err) or errors.has_status_cause(err, NAMESPACE_TERMINATING_CAUSE):
            logger.debug("Server rejected event %s (will not retry!): %s", describe(event), err)
        else:
            logger.error("Server rejected event %s (will not retry!): %s", describe(event), err)
        return True
    # errors.UnexpectedObjectError and transport errors: retry.
    logger.error("Unable to write event %s (may retry after sleeping): %s", describe(event), err)
    return False


def describe(event: CoreV1Event) -> str:
    """No upstream twin: a short text naming an event in log messages: `ns/name (Reason)`."""
    meta = event.metadata or V1ObjectMeta()
    return f"{meta.namespace or ''}/{meta.name or ''} ({event.reason or ''})"


class RecorderImpl:
    """Port of recorderImpl and recorderImplLogger (event.go): builds Events and queues them.

    Never blocks and never raises: a bad object, an unknown event type, a full
    queue or a shut-down broadcaster are logged and the event is dropped.
    """

    def __init__(self, scheme: Any, source: V1EventSource, broadcaster: EventBroadcasterImpl,
                 clock: Clock, rng: random.Random, log: logging.Logger) -> None:
        self.scheme = scheme
        self.source = source
        self.broadcaster = broadcaster
        self.clock = clock
        self.rng = rng
        self.logger = log

    def generate_event(self, obj: Any, annotations: dict[str, str] | None, event_type: str,
                       reason: str, message: str) -> None:
        """Port of recorderImpl.generateEvent (event.go)."""
        try:
            ref = get_reference(self.scheme, obj)
        except (TypeError, ValueError) as err:
            self.logger.error("Could not construct reference to %r, will not report event %s %s: %s",
                              obj, event_type, reason, err)
            return
        if not validate_event_type(event_type):
            self.logger.error("Unsupported event type %r", event_type)
            return

        event = self.make_event(ref, annotations, event_type, reason, message)
        event.source = self.source.model_copy()
        event.reporting_instance = self.source.host
        event.reporting_component = self.source.component
        # Queue without waiting; a full queue drops the event (Go: ActionOrDrop).
        try:
            sent = self.broadcaster.action_or_drop(watch.ADDED, event)
        except RuntimeError as err:
            self.logger.error("Unable to record event (will not retry!): %s", err)
            return
        if not sent:
            self.logger.error("Unable to record event: too many queued events, dropped event %s", describe(event))

    def event(self, obj: Any, event_type: str, reason: str, message: str) -> None:
        """Port of recorderImpl.Event (event.go)."""
        self.generate_event(obj, None, event_type, reason, message)

    def eventf(self, obj: Any, event_type: str, reason: str, message_fmt: str, *args: Any) -> None:
        """Port of recorderImpl.Eventf (event.go): the message is `go_sprintf(message_fmt, *args)`."""
        self.event(obj, event_type, reason, go_sprintf(message_fmt, *args))

    def annotated_eventf(self, obj: Any, annotations: dict[str, str] | None, event_type: str,
                         reason: str, message_fmt: str, *args: Any) -> None:
        """Port of recorderImpl.AnnotatedEventf (event.go): eventf with annotations on the Event."""
        self.generate_event(obj, annotations, event_type, reason, go_sprintf(message_fmt, *args))

    def make_event(self, ref: V1ObjectReference, annotations: dict[str, str] | None, event_type: str,
                   reason: str, message: str) -> CoreV1Event:
        """Port of recorderImpl.makeEvent (event.go): a new Event, count 1, stamped now.

        Its name is `<object name>.<now in Unix nanoseconds, hex>`, its
        namespace the object's ("default" for cluster-scoped objects).
        """
        t = self.clock.now()
        return CoreV1Event(
            metadata=V1ObjectMeta(name=generate_event_name(ref.name or "", self.broadcaster.unique_unix_nano(t), self.rng),
                                  namespace=ref.namespace or NAMESPACE_DEFAULT,
                                  annotations=dict(annotations) if annotations else None),
            involved_object=deep_copy(ref),
            reason=reason, message=message, first_timestamp=t, last_timestamp=t, count=1, type=event_type)

    def with_logger(self, log: logging.Logger) -> RecorderImpl:
        """Port of recorderImplLogger.WithLogger (event.go): the same recorder logging to `log`."""
        return RecorderImpl(self.scheme, self.source, self.broadcaster, self.clock, self.rng, log)


def new_event_sink(events_client: EventInterface) -> EventSinkImpl:
    """No upstream twin (Go writes `&v1core.EventSinkImpl{Interface: c}`): a sink over an events client.

    EventSinkImpl itself lives where Go has it, in the clientset's typed layer (minikcm.client.typed).
    """
    return EventSinkImpl(events_client)
