"""Tests for minikcm/tools/record/events_cache.py (ports of events_cache_test.go, plus our own)."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from kubernetes.client import CoreV1Event, V1ObjectMeta, V1ObjectReference

from minikcm.clock import EPOCH, FakeClock
from minikcm.tools.record.event import CorrelatorOptions
from minikcm.tools.record.events_cache import (
    DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS,
    DEFAULT_AGGREGATE_MAX_EVENTS,
    DEFAULT_SPAM_BURST,
    DEFAULT_SPAM_QPS,
    MAX_LRU_CACHE_ENTRIES,
    create_two_way_merge_patch,
    event_aggregator_by_reason_func,
    event_aggregator_by_reason_message_func,
    get_event_key,
    get_spam_key,
    new_event_correlator,
    new_event_correlator_with_options,
    populate_defaults,
    unix_nano,
)

from .record_testing import (
    SimpleIntervalClock,
    make_event,
    make_events,
    make_object_reference,
    make_similar_events,
    make_unique_events,
    set_count,
    validate_event,
)


def test_event_aggregator_by_reason_func():
    """Port of TestEventAggregatorByReasonFunc (events_cache_test.go)."""
    event1 = make_event("end-of-world", "it was fun", make_object_reference("Pod", "pod1", "other"))
    event2 = make_event("end-of-world", "it was awful", make_object_reference("Pod", "pod1", "other"))
    event3 = make_event("nevermind", "it was a bug", make_object_reference("Pod", "pod1", "other"))

    agg_key1, local_key1 = event_aggregator_by_reason_func(event1)
    agg_key2, local_key2 = event_aggregator_by_reason_func(event2)
    agg_key3, _ = event_aggregator_by_reason_func(event3)

    assert agg_key1 == agg_key2
    assert local_key1 != local_key2
    assert agg_key1 != agg_key3


def test_event_aggregator_by_reason_message_func():
    """Port of TestEventAggregatorByReasonMessageFunc (events_cache_test.go)."""
    event1 = make_event("end-of-world", "it was fun", make_object_reference("Pod", "pod1", "other"))
    assert event_aggregator_by_reason_message_func(event1) == "(combined from similar events): it was fun"


# --- TestEventCorrelator --------------------------------------------------------------------------

FIRST = make_event("first", "i am first", make_object_reference("Pod", "my-pod", "my-ns"))
DUPLICATE = make_event("duplicate", "me again", make_object_reference("Pod", "my-pod", "my-ns"))
UNIQUE = make_event("unique", "snowflake", make_object_reference("Pod", "my-pod", "my-ns"))
SIMILAR = make_event("similar", "similar message", make_object_reference("Pod", "my-pod", "my-ns"))
SIMILAR.involved_object.field_path = "spec.containers{container1}"
AGGREGATE = make_event(SIMILAR.reason, event_aggregator_by_reason_message_func(SIMILAR), SIMILAR.involved_object)
SIMILAR_OTHER_CONTAINER = SIMILAR.model_copy(deep=True)
SIMILAR_OTHER_CONTAINER.involved_object.field_path = "spec.containers{container2}"

EVENT_CORRELATOR_CASES = [
    #            previous events                                         new event  expected event                        interval  skip
    pytest.param([], FIRST, set_count(FIRST, 1), 5, False, id="create-a-single-event"),
    pytest.param(make_events(1, DUPLICATE), DUPLICATE, set_count(DUPLICATE, 2), 5, False,
                 id="the-same-event-should-just-count"),
    pytest.param(make_events(DEFAULT_AGGREGATE_MAX_EVENTS, DUPLICATE), DUPLICATE,
                 set_count(DUPLICATE, DEFAULT_AGGREGATE_MAX_EVENTS + 1), 30, False,
                 id="the-same-event-should-just-count-even-if-more-than-aggregate"),
    pytest.param(make_events(DEFAULT_SPAM_BURST + 1, DUPLICATE), DUPLICATE, None, 1, True,
                 id="the-same-event-is-spam-if-happens-too-frequently"),
    pytest.param(make_unique_events(30), UNIQUE, set_count(UNIQUE, 1), 5, False, id="create-many-unique-events"),
    pytest.param(make_similar_events(DEFAULT_AGGREGATE_MAX_EVENTS - 1, SIMILAR, SIMILAR.message), SIMILAR,
                 set_count(AGGREGATE, 1), 5, False, id="similar-events-should-aggregate-event"),
    pytest.param(make_similar_events(DEFAULT_AGGREGATE_MAX_EVENTS, SIMILAR, SIMILAR.message), SIMILAR,
                 set_count(AGGREGATE, 2), 5, False, id="similar-events-many-times-should-count-the-aggregate"),
    pytest.param(make_events(1, SIMILAR_OTHER_CONTAINER), SIMILAR, set_count(SIMILAR, 1), 5, False,
                 id="events-from-different-containers-do-not-aggregate"),
    pytest.param(make_similar_events(DEFAULT_AGGREGATE_MAX_EVENTS - 1, SIMILAR, SIMILAR.message), SIMILAR,
                 set_count(SIMILAR, 1), DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS, False,
                 id="similar-events-whose-interval-is-greater-than-aggregate-interval-do-not-aggregate"),
]


@pytest.mark.parametrize("previous_events, new_event, expected_event, interval_seconds, expected_skip",
                         EVENT_CORRELATOR_CASES)
def test_event_correlator(previous_events, new_event, expected_event, interval_seconds, expected_skip):
    """Port of TestEventCorrelator (events_cache_test.go)."""
    clock = SimpleIntervalClock(EPOCH, interval_seconds)
    correlator = new_event_correlator(clock)
    for previous in previous_events:
        event = previous.model_copy(deep=True)
        event.first_timestamp = event.last_timestamp = clock.now()
        result = correlator.event_correlate(event)
        if not result.skip:
            correlator.update_state(result.event)

    event = new_event.model_copy(deep=True)
    event.first_timestamp = event.last_timestamp = clock.now()
    result = correlator.event_correlate(event)

    assert result.skip == expected_skip
    if not expected_skip:
        validate_event("correlated", result.event, expected_event)


SPAM_KEY_BY_OBJECT_AND_REASON = "by-object-and-reason"


def spam_key_func_based_on_objects_and_reason(e: CoreV1Event) -> str:
    ref = e.involved_object
    return "".join([e.source.component, e.source.host, ref.kind, ref.namespace, ref.name, ref.uid,
                    ref.api_version, e.reason])


ORIGINAL = make_event("original", "i am first", make_object_reference("Pod", "my-pod", "my-ns"))
DIFFERENT_REASON = make_event("duplicate", "me again", make_object_reference("Pod", "my-pod", "my-ns"))
SPAM = make_event("original", "me again", make_object_reference("Pod", "my-pod", "my-ns"))

EVENT_SPAM_FILTER_CASES = [
    pytest.param(DIFFERENT_REASON, None, True, None,
                 id="event should be reported as spam if object reference is the same for default spam filter"),
    pytest.param(DIFFERENT_REASON, DIFFERENT_REASON, False, spam_key_func_based_on_objects_and_reason,
                 id="event should not be reported as spam if object reference is the same, but reason is "
                    "different for custom spam filter"),
    pytest.param(SPAM, None, True, spam_key_func_based_on_objects_and_reason,
                 id="event should be reported as spam if object reference and reason is the same, but message "
                    "is different for custom spam filter"),
]


@pytest.mark.parametrize("new_event, expected_event, expected_skip, spam_key_func", EVENT_SPAM_FILTER_CASES)
def test_event_spam_filter(new_event, expected_event, expected_skip, spam_key_func):
    """Port of TestEventSpamFilter (events_cache_test.go)."""
    clock = SimpleIntervalClock(EPOCH, 1.0)
    correlator = new_event_correlator_with_options(
        CorrelatorOptions(clock=clock, spam_key_func=spam_key_func, burst_size=1))
    result = correlator.event_correlate(ORIGINAL.model_copy(deep=True))
    if not result.skip:
        correlator.update_state(result.event)

    result = correlator.event_correlate(new_event.model_copy(deep=True))

    assert result.skip == expected_skip
    if not expected_skip:
        validate_event("spam filter", result.event, expected_event)


# --- our own ---------------------------------------------------------------------------------------


def test_counting_builds_the_patch_upstream_sends():
    clock = FakeClock(EPOCH)
    correlator = new_event_correlator(clock)
    first = correlator.event_correlate(make_event("Started", "hello", make_object_reference("Pod", "p", "ns"), EPOCH))
    assert first.patch is None and first.event.count == 1
    stored = first.event.model_copy(deep=True)
    stored.metadata = V1ObjectMeta(name="p.abc", namespace="ns", resource_version="7")
    correlator.update_state(stored)

    clock.step(5)
    second = correlator.event_correlate(make_event("Started", "hello", make_object_reference("Pod", "p", "ns"),
                                                   clock.now()))

    assert second.event.count == 2
    assert second.event.metadata.name == "p.abc" and second.event.metadata.resource_version == "7"
    assert second.event.first_timestamp == EPOCH
    assert json.loads(second.patch) == {"count": 2, "lastTimestamp": "2026-01-01T00:00:05Z", "message": "hello"}


def test_aggregation_starts_at_the_tenth_distinct_message_and_keeps_the_set_bounded():
    clock = FakeClock(EPOCH)
    correlator = new_event_correlator(clock)
    ref = make_object_reference("Pod", "p", "ns")
    messages = [correlator.event_correlate(make_event("Failed", f"try {i}", ref)).event.message for i in range(12)]
    assert messages[:9] == [f"try {i}" for i in range(9)]
    assert messages[9:] == [f"(combined from similar events): try {i}" for i in range(9, 12)]
    record, _ = correlator.aggregator.cache.get(event_aggregator_by_reason_func(make_event("Failed", "", ref))[0])
    assert len(record.local_keys) == DEFAULT_AGGREGATE_MAX_EVENTS - 1


def test_spam_filter_refills_one_token_every_five_minutes():
    clock = FakeClock(EPOCH)
    correlator = new_event_correlator(clock)
    ref = make_object_reference("Pod", "p", "ns")
    skips = [correlator.event_correlate(make_event("R", "m", ref)).skip for _ in range(DEFAULT_SPAM_BURST + 1)]
    assert skips == [False] * DEFAULT_SPAM_BURST + [True]
    clock.step(299)
    assert correlator.event_correlate(make_event("R", "m", ref)).skip
    clock.step(1)
    assert not correlator.event_correlate(make_event("R", "m", ref)).skip


def test_event_correlate_rejects_none():
    with pytest.raises(ValueError, match="event is nil"):
        new_event_correlator(FakeClock(EPOCH)).event_correlate(None)


def test_keys_read_unset_fields_as_empty():
    empty = CoreV1Event(metadata=V1ObjectMeta(), involved_object=V1ObjectReference())
    assert get_event_key(empty) == ""
    assert get_spam_key(empty) == ""
    event = make_event("R", "m", make_object_reference("Pod", "p", "ns"))
    assert get_event_key(event) == ("kubelet" "kublet.node1" "Pod" "ns" "p" "spec.containers{mycontainer}"
                                    "C934D34AFB20242" "version" "Normal" "R" "m")
    assert get_spam_key(event) == "kubelet" "kublet.node1" "Pod" "ns" "p" "C934D34AFB20242" "version" "Normal"


TWO_WAY_MERGE_PATCH_CASES = [
    pytest.param({"a": 1}, {"a": 1}, {}, id="equal"),
    pytest.param({"a": 1}, {"a": 2, "b": 3}, {"a": 2, "b": 3}, id="changed-and-added"),
    pytest.param({"a": 1, "b": 2}, {"a": 1}, {"b": None}, id="removed-is-null"),
    pytest.param({"m": {"x": 1, "y": 2}}, {"m": {"x": 1, "y": 3}}, {"m": {"y": 3}}, id="nested-maps-diffed"),
    pytest.param({"l": [1, 2]}, {"l": [1]}, {"l": [1]}, id="lists-replaced-whole"),
]


@pytest.mark.parametrize("original, modified, want", TWO_WAY_MERGE_PATCH_CASES)
def test_create_two_way_merge_patch(original, modified, want):
    assert create_two_way_merge_patch(original, modified) == want


def test_populate_defaults_fills_only_zero_fields():
    opts = populate_defaults(CorrelatorOptions(burst_size=3))
    assert (opts.lru_cache_size, opts.burst_size, opts.qps) == (MAX_LRU_CACHE_ENTRIES, 3, DEFAULT_SPAM_QPS)
    assert (opts.max_events, opts.max_interval_in_seconds) == (10, 600)
    assert opts.key_func is event_aggregator_by_reason_func
    assert opts.spam_key_func is get_spam_key
    assert opts.clock is not None


def test_unix_nano_is_exact():
    t = datetime(2026, 1, 1, 0, 0, 0, 123456, tzinfo=timezone.utc)
    assert unix_nano(t) == 1767225600_123456000
