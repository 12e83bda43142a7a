"""Helpers shared by the tools/record tests (ports of event_test.go's and events_cache_test.go's helpers)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from kubernetes.client import CoreV1Event, V1EventSource, V1ObjectMeta, V1ObjectReference

from minikcm.apimachinery.convert import from_wire, to_wire
from minikcm.apiserver.patch import apply_strategic_merge_patch
from minikcm.clock import EPOCH
from minikcm.tools.record.events_cache import get_event_key


class SimpleIntervalClock:
    """Port of testing.SimpleIntervalClock (k8s.io/utils/clock): every now() moves on by `duration` first."""

    def __init__(self, t: datetime = EPOCH, duration: float = 1.0) -> None:
        self.time = t
        self.duration = duration

    def now(self) -> datetime:
        self.time = self.time + timedelta(seconds=self.duration)
        return self.time

    def since(self, t: datetime) -> float:
        return (self.now() - t).total_seconds()

    def until(self, t: datetime) -> float:
        return (t - self.now()).total_seconds()

    def sleep(self, d: float, stop: threading.Event | None = None) -> bool:
        return stop.is_set() if stop is not None else False


@dataclass
class SinkCall:
    """A recorded sink call: the verb and the event it returned."""

    verb: str
    event: CoreV1Event


@dataclass
class EventSinkForTests:
    """Port of testEventSink (event_test.go): each verb calls its hook, or echoes the event."""

    on_create: Callable[[CoreV1Event], CoreV1Event] | None = None
    on_update: Callable[[CoreV1Event], CoreV1Event] | None = None
    on_patch: Callable[[CoreV1Event, bytes], CoreV1Event] | None = None

    def create(self, event: CoreV1Event) -> CoreV1Event:
        return self.on_create(event) if self.on_create else event

    def update(self, event: CoreV1Event) -> CoreV1Event:
        return self.on_update(event) if self.on_update else event

    def patch(self, event: CoreV1Event, data: bytes) -> CoreV1Event:
        return self.on_patch(event, data) if self.on_patch else event


@dataclass
class CachingSink:
    """OnCreateFactory and OnPatchFactory (event_test.go) in one sink.

    Creates are stored by event key; patches are applied to the stored copy as
    the API server would (strategic merge). `calls` replaces Go's channels.
    """

    cache: dict[str, CoreV1Event] = field(default_factory=dict)
    calls: list[SinkCall] = field(default_factory=list)

    def create(self, event: CoreV1Event) -> CoreV1Event:
        self.cache[get_event_key(event)] = event
        self.calls.append(SinkCall("create", event))
        return event

    def update(self, event: CoreV1Event) -> CoreV1Event:
        self.calls.append(SinkCall("update", event))
        return event

    def patch(self, event: CoreV1Event, data: bytes) -> CoreV1Event:
        cached = self.cache.get(get_event_key(event))
        if cached is None:
            raise RuntimeError("unexpected error: couldn't find Event in testCache.")
        patched = apply_strategic_merge_patch(to_wire(cached), json.loads(data), "Event")
        result = from_wire(patched, CoreV1Event)
        self.calls.append(SinkCall("patch", result))
        return result


def make_object_reference(kind: str, name: str, namespace: str) -> V1ObjectReference:
    """Port of makeObjectReference (events_cache_test.go)."""
    return V1ObjectReference(kind=kind, name=name, namespace=namespace, uid="C934D34AFB20242",
                             api_version="version", field_path="spec.containers{mycontainer}")


def make_event(reason: str, message: str, involved_object: V1ObjectReference, t: datetime = EPOCH) -> CoreV1Event:
    """Port of makeEvent (events_cache_test.go)."""
    return CoreV1Event(metadata=V1ObjectMeta(), reason=reason, message=message, involved_object=involved_object.model_copy(),
                       source=V1EventSource(component="kubelet", host="kublet.node1"),
                       count=1, first_timestamp=t, last_timestamp=t, type="Normal")


def make_events(num: int, template: CoreV1Event) -> list[CoreV1Event]:
    """Port of makeEvents (events_cache_test.go)."""
    return [template.model_copy(deep=True) for _ in range(num)]


def make_unique_events(num: int) -> list[CoreV1Event]:
    """Port of makeUniqueEvents (events_cache_test.go)."""
    return [make_event(f"reason-{i}", f"message-{i}", make_object_reference("Pod", f"pod-{i}", f"ns-{i}"))
            for i in range(num)]


def make_similar_events(num: int, template: CoreV1Event, message_prefix: str) -> list[CoreV1Event]:
    """Port of makeSimilarEvents (events_cache_test.go)."""
    events = make_events(num, template)
    for i, e in enumerate(events):
        e.message = f"{message_prefix}-{i}-{e.message}"
    return events


def set_count(event: CoreV1Event, count: int) -> CoreV1Event:
    """Port of setCount (events_cache_test.go)."""
    copy = event.model_copy(deep=True)
    copy.count = count
    return copy


def comparable(event: CoreV1Event) -> dict[str, Any]:
    wire = to_wire(event)
    for key in ("firstTimestamp", "lastTimestamp", "reportingComponent"):
        wire.pop(key, None)
    meta = wire.pop("metadata", {})
    meta.pop("name", None)
    if meta:
        wire["metadata"] = meta
    return wire


def validate_event(prefix: str, actual: CoreV1Event, expected: CoreV1Event) -> None:
    """Port of validateEvent (events_cache_test.go).

    Timestamps must be set, equal for a first occurrence and different for a
    counted one; the name must start with the expected name; everything else
    (but the reporting controller) must match.
    """
    assert actual.first_timestamp is not None and actual.last_timestamp is not None, f"{prefix}: timestamp wasn't set"
    if actual.first_timestamp == actual.last_timestamp:
        assert (expected.count or 0) <= 1, f"{prefix}: timestamps equal but the event was counted"
    else:
        assert expected.count != 1, f"{prefix}: timestamps differ for a single occurrence"
    expected_name = (expected.metadata.name if expected.metadata else None) or ""
    actual_name = (actual.metadata.name if actual.metadata else None) or ""
    assert actual_name.startswith(expected_name), f"{prefix}: name {actual_name!r} lacks prefix {expected_name!r}"
    assert comparable(actual) == comparable(expected), prefix
