"""Port of k8s.io/apimachinery/pkg/watch/watch.go: events, the watch interface, fake and empty watchers.

A watch is a stream of `Event`s. The embedded API server pushes wire dicts into
each watcher's `ResultChan` synchronously during a write, so a single-threaded
deterministic run sees an event as soon as the write returns. The clientset
wraps that stream and turns each object into a model; the reflector drains it.

Start reading at: ResultChan.recv.

Not ported: RaceFreeFakeWatcher, ProxyWatcher, MockWatcher, FakeWatcher's Reset
and chan-size options. The Broadcaster (mux.go) is in mux.py; filter.go and
streamwatcher.go are not ported (the REST clientset has its own reader thread).
Differs from Go:
- Go's result channel is a `chan Event`; here it is `ResultChan`, an unbounded
  (or bounded, when the producer asks) queue whose `recv` returns None once the
  channel is closed and drained (Go's `ok == false`) and raises `queue.Empty`
  when a timeout passes, so a step can poll it with `timeout=0`.
"""

from __future__ import annotations

import collections
import queue
import threading
from dataclasses import dataclass
from typing import Any, Protocol

EventType = str

ADDED: EventType = "ADDED"
MODIFIED: EventType = "MODIFIED"
DELETED: EventType = "DELETED"
BOOKMARK: EventType = "BOOKMARK"
ERROR: EventType = "ERROR"

DEFAULT_CHAN_SIZE = 100
"""Port of DefaultChanSize; used by FakeWatcher's bounded form."""


@dataclass
class Event:
    """Port of Event: a type and the object it is about.

    For ADDED and MODIFIED the object's new state; for DELETED its last state; for
    BOOKMARK an object of the watched kind holding only a resourceVersion; for
    ERROR a Status (a wire dict, which `errors.from_object` turns into a StatusError).
    """

    type: EventType
    object: Any


class ResultChan:
    """A closable queue of events, standing in for Go's `chan Event`.

    `maxsize=0` means unbounded. `put` returns False when the channel is closed
    or (bounded) full, so a producer can decide what a slow consumer costs.
    Thread: any; one lock guards everything; `__repr__` takes none.
    """

    def __init__(self, maxsize: int = 0) -> None:
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._items: collections.deque[Event] = collections.deque()
        self._maxsize = maxsize
        self._closed = False

    def put(self, event: Event) -> bool:
        with self._lock:
            if self._closed or (self._maxsize and len(self._items) >= self._maxsize):
                return False
            self._items.append(event)
            self._cond.notify()
            return True

    def put_final(self, event: Event) -> None:
        """Append `event` even past the bound, then close: for a last ERROR event."""
        with self._lock:
            if not self._closed:
                self._items.append(event)
                self._closed = True
                self._cond.notify_all()

    def recv(self, timeout: float | None = None) -> Event | None:
        """Take the next event. None once closed and drained; queue.Empty after `timeout`.

        Blocks: until an event arrives, the channel closes, or `timeout` (real
        seconds; 0 polls) passes.
        """
        with self._cond:
            if timeout is None:
                while not self._items and not self._closed:
                    self._cond.wait()
            elif not self._items and not self._closed:
                if timeout > 0:
                    self._cond.wait(timeout)
                if not self._items and not self._closed:
                    raise queue.Empty
            if self._items:
                return self._items.popleft()
            return None

    def wait(self, timeout: float | None = None) -> bool:
        """Block until an event is queued or the channel is closed; take nothing.

        For a reader that must not consume yet (a broadcaster watcher's loop).
        Returns False when `timeout` (real seconds) passed first.
        """
        with self._cond:
            return self._cond.wait_for(lambda: bool(self._items) or self._closed, timeout)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._cond.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self):  # drains until closed; handy in threaded code and tests
        while True:
            event = self.recv()
            if event is None:
                return
            yield event

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"ResultChan({state}, pending={len(self._items)})"


class Interface(Protocol):
    """Port of watch.Interface: stop the watch, and read its events."""

    def stop(self) -> None:
        """Port of Interface.Stop (watch/watch.go): end the watch; its result channel closes."""
    def result_chan(self) -> ResultChan:
        """Port of Interface.ResultChan (watch/watch.go): where the events arrive."""


class EmptyWatch:
    """Port of emptyWatch (watch/watch.go): a watch that is over before it starts.

    Its result channel is closed and empty; `stop` does nothing.
    """

    def __init__(self) -> None:
        self._chan = ResultChan()
        self._chan.close()

    def stop(self) -> None:
        """Port of emptyWatch.Stop (watch/watch.go)."""

    def result_chan(self) -> ResultChan:
        """Port of emptyWatch.ResultChan (watch/watch.go)."""
        return self._chan


def new_empty_watch() -> EmptyWatch:
    """Port of NewEmptyWatch (watch/watch.go)."""
    return EmptyWatch()


class FakeWatcher:
    """Port of FakeWatcher: a watch whose events a test pushes by hand."""

    def __init__(self, maxsize: int = 0) -> None:
        self._chan = ResultChan(maxsize)
        self.stopped = False

    def stop(self) -> None:
        """Port of FakeWatcher.Stop (watch/watch.go)."""
        self.stopped = True
        self._chan.close()

    def is_stopped(self) -> bool:
        """Port of FakeWatcher.IsStopped (watch/watch.go)."""
        return self.stopped

    def result_chan(self) -> ResultChan:
        """Port of FakeWatcher.ResultChan (watch/watch.go)."""
        return self._chan

    def add(self, obj: Any) -> None:
        """Port of FakeWatcher.Add (watch/watch.go): send an ADDED event."""
        self._chan.put(Event(ADDED, obj))

    def modify(self, obj: Any) -> None:
        """Port of FakeWatcher.Modify (watch/watch.go): send a MODIFIED event."""
        self._chan.put(Event(MODIFIED, obj))

    def delete(self, last_value: Any) -> None:
        """Port of FakeWatcher.Delete (watch/watch.go): send a DELETED event."""
        self._chan.put(Event(DELETED, last_value))

    def error(self, status: Any) -> None:
        """Port of FakeWatcher.Error (watch/watch.go): send an ERROR event."""
        self._chan.put(Event(ERROR, status))

    def action(self, action: EventType, obj: Any) -> None:
        """Port of FakeWatcher.Action (watch/watch.go): send an event of any type."""
        self._chan.put(Event(action, obj))

    def __repr__(self) -> str:
        return f"FakeWatcher(stopped={self.stopped}, pending={len(self._chan)})"


def new_fake() -> FakeWatcher:
    """Port of NewFake."""
    return FakeWatcher()
