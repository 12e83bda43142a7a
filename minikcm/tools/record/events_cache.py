"""Port of k8s.io/client-go/tools/record/events_cache.go.

The event correlator sits between the recorder and the API server. Every event
the broadcaster hands to a sink passes through `EventCorrelator.event_correlate`
first, which does three things so that a misbehaving controller cannot flood
the cluster with Events:

- aggregate: when one source reports 10 events about one object that differ
  only in their message within 10 minutes, further ones are folded into a
  single "(combined from similar events): ..." event;
- count: an event identical to one already written becomes a PATCH that bumps
  `count` and `lastTimestamp` of the stored Event instead of a new object;
- filter: a token bucket per source and object (25 burst, one more token every
  5 minutes) drops events beyond that budget.

Start reading at: EventCorrelator.event_correlate, then
EventAggregator.event_aggregate and EventLogger.event_observe.

Not ported: nothing of this file is left out.
Differs from Go:
- The spam filter's token bucket is `minikcm.util.rate`'s Limiter (golang.org/x/time/rate),
  which is what client-go's flowcontrol.NewTokenBucketPassiveRateLimiterWithClock wraps.
- The counting patch is built by `create_two_way_merge_patch`, a plain JSON
  diff (maps recursed, lists replaced whole) standing in for
  strategicpatch.CreateTwoWayMergePatch. The two documents it compares differ
  only in top-level scalars (count, lastTimestamp, message), where both give
  the same patch.
- Go's set PopAny (random) removes the smallest key instead (determinism).
- `event_correlate` raises ValueError for a None event instead of returning an
  error; building the patch cannot fail here, so it returns no error.
- Events are `kubernetes.client.CoreV1Event` models; unset fields are None and
  read as Go's zero values ("" and 0).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from kubernetes.client import CoreV1Event, V1ObjectMeta

from minikcm.apimachinery.convert import deep_copy, to_wire
from minikcm.clock import Clock, or_real
from minikcm.util import lru, rate

if TYPE_CHECKING:
    from minikcm.tools.record.event import CorrelatorOptions

MAX_LRU_CACHE_ENTRIES = 4096
"""Port of maxLruCacheEntries: entries kept by each of the correlator's caches."""

DEFAULT_AGGREGATE_MAX_EVENTS = 10
"""Port of defaultAggregateMaxEvents: similar events allowed before aggregation starts."""

DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS = 600
"""Port of defaultAggregateIntervalInSeconds: how long similar events are remembered."""

DEFAULT_SPAM_BURST = 25
"""Port of defaultSpamBurst: events a source may send about one object at once."""

DEFAULT_SPAM_QPS = 1.0 / 300.0
"""Port of defaultSpamQPS: the refill rate after the burst, one event per 5 minutes."""

UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def unix_nano(t: datetime) -> int:
    """Go's Time.UnixNano for an aware datetime, computed without float rounding."""
    delta = t - UNIX_EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1_000


# --- small readers: None in a model is Go's zero value -----------------------------------------


def _source(event: CoreV1Event) -> tuple[str, str]:
    src = event.source
    return (src.component or "", src.host or "") if src is not None else ("", "")


def _involved(event: CoreV1Event) -> list[str]:
    """Kind, namespace, name, field path, uid, apiVersion of the involved object ("" when unset)."""
    ref = event.involved_object
    if ref is None:
        return [""] * 6
    return [ref.kind or "", ref.namespace or "", ref.name or "", ref.field_path or "",
            ref.uid or "", ref.api_version or ""]


def _ensure_meta(event: CoreV1Event) -> V1ObjectMeta:
    """The event's metadata, created when missing (Go's ObjectMeta is a value, never nil)."""
    if event.metadata is None:
        event.metadata = V1ObjectMeta()
    return event.metadata


# --- keys --------------------------------------------------------------------------------------


def get_event_key(event: CoreV1Event) -> str:
    """Port of getEventKey (events_cache.go).

    Everything that makes two events "the same event": source, involved object
    (with field path), type, reason and message, concatenated without a separator.
    """
    kind, namespace, name, field_path, uid, api_version = _involved(event)
    return "".join([*_source(event), kind, namespace, name, field_path, uid, api_version,
                     event.type or "", event.reason or "", event.message or ""])


def get_spam_key(event: CoreV1Event) -> str:
    """Port of getSpamKey (events_cache.go): source, involved object (no field path) and type."""
    kind, namespace, name, _, uid, api_version = _involved(event)
    return "".join([*_source(event), kind, namespace, name, uid, api_version, event.type or ""])


EventSpamKeyFunc = Callable[[CoreV1Event], str]
"""Port of EventSpamKeyFunc: the key the spam filter budgets by."""

EventFilterFunc = Callable[[CoreV1Event], bool]
"""Port of EventFilterFunc: True when the event must be dropped."""


# --- the spam filter ---------------------------------------------------------------------------


class EventSourceObjectSpamFilter:
    """Port of EventSourceObjectSpamFilter (events_cache.go).

    Gives every spam key (by default: one source reporting about one object)
    its own token bucket of `burst` tokens refilled at `qps`, and drops events
    once the bucket is empty. Buckets live in an LRU cache, so a key not seen
    for a while starts again with a full bucket.
    """

    def __init__(self, lru_cache_size: int, burst: int, qps: float, clock: Clock,
                 spam_key_func: EventSpamKeyFunc) -> None:
        self.cache = lru.new(lru_cache_size)  # spam key -> SpamRecord
        self.burst = burst
        self.qps = qps
        self.clock = clock
        self.spam_key_func = spam_key_func

    def filter(self, event: CoreV1Event) -> bool:
        """Port of EventSourceObjectSpamFilter.Filter: True when `event` is over budget."""
        event_key = self.spam_key_func(event)
        value, found = self.cache.get(event_key)
        record = value if found else SpamRecord()
        if record.rate_limiter is None:
            # Go: flowcontrol.NewTokenBucketPassiveRateLimiterWithClock
            record.rate_limiter = rate.new_limiter(self.qps, self.burst, self.clock)
        filtered = not record.rate_limiter.allow_n(self.clock.now(), 1)  # Go: TryAccept
        self.cache.add(event_key, record)
        return filtered


def new_event_source_object_spam_filter(lru_cache_size: int, burst: int, qps: float, clock: Clock,
                                        spam_key_func: EventSpamKeyFunc) -> EventSourceObjectSpamFilter:
    """Port of NewEventSourceObjectSpamFilter (events_cache.go)."""
    return EventSourceObjectSpamFilter(lru_cache_size, burst, qps, clock, spam_key_func)


@dataclass
class SpamRecord:
    """Port of spamRecord (events_cache.go): the token bucket of one spam key."""

    rate_limiter: rate.Limiter | None = None


# --- aggregation -------------------------------------------------------------------------------


EventAggregatorKeyFunc = Callable[[CoreV1Event], tuple[str, str]]
"""Port of EventAggregatorKeyFunc: (aggregate key grouping similar events, local key within the group)."""


def event_aggregator_by_reason_func(event: CoreV1Event) -> tuple[str, str]:
    """Port of EventAggregatorByReasonFunc (events_cache.go).

    Events are similar when everything but the message matches (source,
    involved object without field path, type, reason, reporting controller and
    instance); the message is the local key that tells them apart.
    """
    kind, namespace, name, _, uid, api_version = _involved(event)
    aggregate_key = "".join([*_source(event), kind, namespace, name, uid, api_version,
                             event.type or "", event.reason or "",
                             event.reporting_component or "", event.reporting_instance or ""])
    return aggregate_key, event.message or ""


EventAggregatorMessageFunc = Callable[[CoreV1Event], str]
"""Port of EventAggregatorMessageFunc: the message of an aggregate event."""


def event_aggregator_by_reason_message_func(event: CoreV1Event) -> str:
    """Port of EventAggregatorByReasonMessageFunc (events_cache.go)."""
    return "(combined from similar events): " + (event.message or "")


@dataclass
class AggregateRecord:
    """Port of aggregateRecord (events_cache.go): one group of similar events.

    `local_keys` holds the distinct messages seen (at most max_events - 1 are
    kept once aggregating); `last_timestamp` is when the group last grew
    (None: Go's zero time, the group is new).
    """

    local_keys: set[str] = field(default_factory=set)
    last_timestamp: datetime | None = None


class EventAggregator:
    """Port of EventAggregator (events_cache.go): folds floods of similar events into one.

    Once a group (see `key_func`) has had `max_events` distinct local keys with
    no gap longer than `max_interval_in_seconds`, each further event of the group
    is replaced by an aggregate event whose message comes from `message_func`,
    and whose cache key is the group's key, so the event logger counts all of
    them on one stored Event.
    Thread: any; `_lock` guards the cache's records (Go: RWMutex, here a Lock).
    """

    def __init__(self, lru_cache_size: int, key_func: EventAggregatorKeyFunc,
                 message_func: EventAggregatorMessageFunc, max_events: int,
                 max_interval_in_seconds: int, clock: Clock) -> None:
        self.cache = lru.new(lru_cache_size)  # aggregate key -> AggregateRecord
        self.key_func = key_func
        self.message_func = message_func
        self.max_events = max_events
        self.max_interval_in_seconds = max_interval_in_seconds
        self.clock = clock
        self._lock = threading.Lock()

    def event_aggregate(self, new_event: CoreV1Event) -> tuple[CoreV1Event, str]:
        """Port of EventAggregator.EventAggregate (events_cache.go).

        Returns the event to write and its cache key for the event logger:
        `new_event` itself with its full event key while its group is under
        the threshold; otherwise a fresh aggregate event with the group's key.
        Example (defaults): nine messages "a-0" ... "a-8" about a pod within ten
        minutes pass through; the tenth distinct one turns into
        "(combined from similar events): a-9", and so do the ones after it.
        """
        now = self.clock.now()
        event_key = get_event_key(new_event)
        aggregate_key, local_key = self.key_func(new_event)

        with self._lock:
            value, found = self.cache.get(aggregate_key)
            record: AggregateRecord = value if found else AggregateRecord()
            # A group not seen for longer than the interval starts over (a new one too).
            if record.last_timestamp is None or \
                    (now - record.last_timestamp).total_seconds() > self.max_interval_in_seconds:
                record = AggregateRecord()
            record.local_keys.add(local_key)
            record.last_timestamp = now
            self.cache.add(aggregate_key, record)

            if len(record.local_keys) < self.max_events:
                return new_event, event_key

            record.local_keys.discard(min(record.local_keys))  # Go: PopAny, keeps the set bounded
            involved = new_event.involved_object
            source = new_event.source
            event_copy = CoreV1Event(
                metadata=V1ObjectMeta(
                    name=f"{(involved.name if involved else None) or ''}.{unix_nano(now):x}",
                    namespace=new_event.metadata.namespace if new_event.metadata else None),
                count=1,
                first_timestamp=now,
                involved_object=deep_copy(involved) if involved is not None else None,
                last_timestamp=now,
                message=self.message_func(new_event),
                type=new_event.type,
                reason=new_event.reason,
                source=deep_copy(source) if source is not None else None,
            )
            return event_copy, aggregate_key


def new_event_aggregator(lru_cache_size: int, key_func: EventAggregatorKeyFunc,
                         message_func: EventAggregatorMessageFunc, max_events: int,
                         max_interval_in_seconds: int, clock: Clock) -> EventAggregator:
    """Port of NewEventAggregator (events_cache.go)."""
    return EventAggregator(lru_cache_size, key_func, message_func, max_events,
                           max_interval_in_seconds, clock)


# --- counting ----------------------------------------------------------------------------------


@dataclass
class EventLog:
    """Port of eventLog (events_cache.go): what we know of an event already written.

    `count` is how often it has occurred (0: never seen); `name` and
    `resource_version` identify the stored Event to patch.
    """

    count: int = 0
    first_timestamp: datetime | None = None
    name: str = ""
    resource_version: str = ""


class EventLogger:
    """Port of eventLogger (events_cache.go): counts repeats of identical events.

    Thread: any; `_lock` guards the cache's records (Go: RWMutex, here a Lock).
    """

    def __init__(self, lru_cache_entries: int, clock: Clock) -> None:
        self.cache = lru.new(lru_cache_entries)  # cache key -> EventLog
        self.clock = clock
        self._lock = threading.Lock()

    def event_observe(self, new_event: CoreV1Event, key: str) -> tuple[CoreV1Event, bytes | None]:
        """Port of eventLogger.eventObserve (events_cache.go).

        Returns a copy of `new_event` and, when `key` was seen before, the patch
        that turns the stored Event into this occurrence: the copy takes the
        stored name, resourceVersion and firstTimestamp and a count one higher,
        and the patch carries `count`, `lastTimestamp` and `message`.
        Example: the third identical "Started" event comes back with count 3 and
        the patch {"count": 3, "lastTimestamp": ..., "message": "Started"}.
        """
        event = deep_copy(new_event)  # Go: copies the struct
        patch: bytes | None = None
        with self._lock:
            last = self.last_event_observation_from_cache(key)
            if last.count > 0:
                meta = _ensure_meta(event)
                meta.name = last.name or None  # Go's "" is an unset field here
                meta.resource_version = last.resource_version or None
                event.first_timestamp = last.first_timestamp
                event.count = last.count + 1

                # The "before" side: the same event as if never counted nor sent.
                before = deep_copy(event)
                before.count = None  # Go: 0, left out by omitempty
                before.last_timestamp = UNIX_EPOCH
                before.message = None  # Go: "", left out by omitempty
                diff = create_two_way_merge_patch(to_wire(before), to_wire(event))
                patch = json.dumps(diff, sort_keys=True).encode()

            self.cache.add(key, EventLog(count=event.count or 0, first_timestamp=event.first_timestamp,
                                         name=(event.metadata.name if event.metadata else None) or "",
                                         resource_version=(event.metadata.resource_version
                                                           if event.metadata else None) or ""))
        return event, patch

    def update_state(self, event: CoreV1Event) -> None:
        """Port of eventLogger.updateState (events_cache.go).

        Remembers the server's copy of `event` (its name, resourceVersion and
        count) under the event's full key, so that the next repeat patches it.
        Tricky: the key is always get_event_key, even for an aggregate event
        that event_observe filed under its group key, as upstream does.
        """
        key = get_event_key(event)
        meta = event.metadata
        with self._lock:
            self.cache.add(key, EventLog(count=event.count or 0, first_timestamp=event.first_timestamp,
                                         name=(meta.name if meta else None) or "",
                                         resource_version=(meta.resource_version if meta else None) or ""))

    def last_event_observation_from_cache(self, key: str) -> EventLog:
        """Port of eventLogger.lastEventObservationFromCache: the record, or an empty one.

        Locking: `_lock` held by the caller.
        """
        value, ok = self.cache.get(key)
        if ok and isinstance(value, EventLog):
            return value
        return EventLog()


def new_event_logger(lru_cache_entries: int, clock: Clock) -> EventLogger:
    """Port of newEventLogger (events_cache.go)."""
    return EventLogger(lru_cache_entries, clock)


def create_two_way_merge_patch(original: dict[str, Any], modified: dict[str, Any]) -> dict[str, Any]:
    """Stand-in for strategicpatch.CreateTwoWayMergePatch on documents without merge lists.

    The patch that turns `original` into `modified`: changed or added keys with
    their new value, removed keys as None (JSON null), nested maps diffed key
    by key, anything else (lists included) replaced whole.
    """
    patch: dict[str, Any] = {}
    for key in sorted(set(original) | set(modified)):
        if key not in modified:
            patch[key] = None
        elif key not in original:
            patch[key] = modified[key]
        elif original[key] != modified[key]:
            old, new = original[key], modified[key]
            if isinstance(old, dict) and isinstance(new, dict):
                patch[key] = create_two_way_merge_patch(old, new)
            else:
                patch[key] = new
    return patch


# --- the correlator ----------------------------------------------------------------------------


@dataclass
class EventCorrelateResult:
    """Port of EventCorrelateResult (events_cache.go).

    `event` is what to write; `patch`, when set, is the strategic merge patch
    for the stored copy (the event was seen before); `skip` means drop it.
    """

    event: CoreV1Event | None = None
    patch: bytes | None = None
    skip: bool = False


class EventCorrelator:
    """Port of EventCorrelator (events_cache.go): aggregate, count, then filter.

    Built by `new_event_correlator` (defaults) or
    `new_event_correlator_with_options`; each sink gets its own, so two sinks
    count independently.
    """

    def __init__(self, filter_func: EventFilterFunc, aggregator: EventAggregator,
                 logger: EventLogger) -> None:
        self.filter_func = filter_func
        self.aggregator = aggregator
        self.logger = logger

    def event_correlate(self, new_event: CoreV1Event | None) -> EventCorrelateResult:
        """Port of EventCorrelator.EventCorrelate (events_cache.go).

        Aggregation runs first, so counting sees the aggregate event; the spam
        filter runs last, on the event as it would be written.
        Raises: ValueError for a None event.
        """
        if new_event is None:
            raise ValueError("event is nil")
        aggregate_event, ckey = self.aggregator.event_aggregate(new_event)
        observed_event, patch = self.logger.event_observe(aggregate_event, ckey)
        if self.filter_func(observed_event):
            return EventCorrelateResult(skip=True)
        return EventCorrelateResult(event=observed_event, patch=patch)

    def update_state(self, event: CoreV1Event) -> None:
        """Port of EventCorrelator.UpdateState: learn the server's copy of a written event."""
        self.logger.update_state(event)


def new_event_correlator(clock: Clock | None = None) -> EventCorrelator:
    """Port of NewEventCorrelator (events_cache.go): the correlator with every default.

    Aggregates after 10 similar events in 10 minutes, counts identical events,
    and lets a source burst 25 events per object, then one per 5 minutes.
    Differs from Go: `clock` may be None for the real clock.
    """
    clock = or_real(clock)
    spam_filter = new_event_source_object_spam_filter(
        MAX_LRU_CACHE_ENTRIES, DEFAULT_SPAM_BURST, DEFAULT_SPAM_QPS, clock, get_spam_key)
    aggregator = new_event_aggregator(
        MAX_LRU_CACHE_ENTRIES, event_aggregator_by_reason_func, event_aggregator_by_reason_message_func,
        DEFAULT_AGGREGATE_MAX_EVENTS, DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS, clock)
    return EventCorrelator(spam_filter.filter, aggregator, new_event_logger(MAX_LRU_CACHE_ENTRIES, clock))


def new_event_correlator_with_options(options: CorrelatorOptions) -> EventCorrelator:
    """Port of NewEventCorrelatorWithOptions (events_cache.go): zero options take the defaults."""
    opts = populate_defaults(options)
    clock = or_real(opts.clock)
    assert opts.key_func is not None and opts.message_func is not None and opts.spam_key_func is not None
    spam_filter = new_event_source_object_spam_filter(
        opts.lru_cache_size, opts.burst_size, opts.qps, clock, opts.spam_key_func)
    aggregator = new_event_aggregator(
        opts.lru_cache_size, opts.key_func, opts.message_func, opts.max_events,
        opts.max_interval_in_seconds, clock)
    return EventCorrelator(spam_filter.filter, aggregator, new_event_logger(opts.lru_cache_size, clock))


def populate_defaults(options: CorrelatorOptions) -> CorrelatorOptions:
    """Port of populateDefaults (events_cache.go): a copy with every zero field set to its default."""
    return replace(
        options,
        lru_cache_size=options.lru_cache_size or MAX_LRU_CACHE_ENTRIES,
        burst_size=options.burst_size or DEFAULT_SPAM_BURST,
        qps=options.qps or DEFAULT_SPAM_QPS,
        key_func=options.key_func or event_aggregator_by_reason_func,
        message_func=options.message_func or event_aggregator_by_reason_message_func,
        max_events=options.max_events or DEFAULT_AGGREGATE_MAX_EVENTS,
        max_interval_in_seconds=options.max_interval_in_seconds or DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS,
        clock=or_real(options.clock),
        spam_key_func=options.spam_key_func or get_spam_key,
    )
