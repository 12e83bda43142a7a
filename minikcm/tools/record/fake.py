"""Port of k8s.io/client-go/tools/record/fake.go.

A recorder for controller tests: instead of building Events it writes one
line per event, "Type Reason Message", into a buffer that the test reads back
(Go: a buffered channel of strings).

Start reading at: FakeRecorder.write_event.

Not ported: nothing; `drain` is ours.
Differs from Go:
- `events` is a `queue.Queue[str]`. A full buffer raises RuntimeError where Go
  would block the sender (in a single-threaded test, forever), and
  new_fake_recorder(0) gives an unbounded buffer where Go gives an unbuffered
  channel that only a concurrent reader can empty.
- The involved object's kind and apiVersion are read from the object's own
  fields, as Go reads its TypeMeta (empty for most typed objects).
"""

from __future__ import annotations

import logging
import queue
from typing import Any

from minikcm.tools.record.gofmt import go_sprintf, go_value_string


def object_string(obj: Any, include_object: bool) -> str:
    """Port of objectString (fake.go): ` involvedObject{kind=...,apiVersion=...}` when asked for."""
    if not include_object:
        return ""
    if isinstance(obj, dict):
        kind, api_version = obj.get("kind") or "", obj.get("apiVersion") or ""
    else:
        kind, api_version = getattr(obj, "kind", None) or "", getattr(obj, "api_version", None) or ""
    return f" involvedObject{{kind={kind},apiVersion={api_version}}}"


def annotations_string(annotations: dict[str, str] | None) -> str:
    """Port of annotationsString (fake.go): ` map[k:v ...]` (sorted keys), or "" for none."""
    if not annotations:
        return ""
    return " " + go_value_string(annotations)


class FakeRecorder:
    """Port of FakeRecorder (fake.go): records events as "Type Reason Message" strings.

    `events` is the buffer (None: events are thrown away); with
    `include_object` each line ends with the object's kind and apiVersion.
    Thread: any (the queue has its own lock).
    """

    def __init__(self, events: queue.Queue[str] | None = None, include_object: bool = False) -> None:
        self.events = events
        self.include_object = include_object

    def write_event(self, obj: Any, annotations: dict[str, str] | None, event_type: str, reason: str,
                    message_fmt: str, *args: Any) -> None:
        """Port of FakeRecorder.writeEvent (fake.go).

        Tricky: the type and reason are part of the format, as upstream builds it.
        Raises: RuntimeError when the buffer is full (Go would block).
        """
        if self.events is None:
            return
        line = (go_sprintf(f"{event_type} {reason} {message_fmt}", *args)
                + object_string(obj, self.include_object) + annotations_string(annotations))
        try:
            self.events.put_nowait(line)
        except queue.Full:
            raise RuntimeError(f"FakeRecorder buffer of {self.events.maxsize} events is full; "
                               f"read recorder.events or make it larger (dropping {line!r})") from None

    def event(self, obj: Any, event_type: str, reason: str, message: str) -> None:
        """Port of FakeRecorder.Event (fake.go)."""
        self.write_event(obj, None, event_type, reason, "%s", message)

    def eventf(self, obj: Any, event_type: str, reason: str, message_fmt: str, *args: Any) -> None:
        """Port of FakeRecorder.Eventf (fake.go)."""
        self.write_event(obj, None, event_type, reason, message_fmt, *args)

    def annotated_eventf(self, obj: Any, annotations: dict[str, str] | None, event_type: str,
                         reason: str, message_fmt: str, *args: Any) -> None:
        """Port of FakeRecorder.AnnotatedEventf (fake.go)."""
        self.write_event(obj, annotations, event_type, reason, message_fmt, *args)

    def with_logger(self, log: logging.Logger) -> FakeRecorder:
        """Port of FakeRecorder.WithLogger (fake.go): the recorder itself; a fake does not log."""
        del log
        return self

    def drain(self) -> list[str]:
        """No upstream twin: take every buffered line, oldest first (Go: receive until empty)."""
        lines: list[str] = []
        while self.events is not None:
            try:
                lines.append(self.events.get_nowait())
            except queue.Empty:
                break
        return lines

    def __repr__(self) -> str:
        pending = self.events.qsize() if self.events is not None else 0
        return f"FakeRecorder(pending={pending}, include_object={self.include_object})"


def new_fake_recorder(buffer_size: int) -> FakeRecorder:
    """Port of NewFakeRecorder (fake.go): a recorder buffering up to `buffer_size` events (0: no limit)."""
    return FakeRecorder(queue.Queue(maxsize=max(buffer_size, 0)))
