"""Port of k8s.io/apimachinery/pkg/watch/mux.go.

A `Broadcaster` fans one stream of events out to any number of watchers:
`action` queues an event once, and the step `distribute_incoming` copies every
queued event into each watcher's own result channel, in the order the events
came. The event recorder (minikcm.tools.record) is built on one: recorders
queue events with `action_or_drop`, and each sink or logger is a watcher.

Start reading at: Broadcaster.distribute_incoming (the step), then
Broadcaster.watch and Broadcaster.shutdown.

Not ported: Go's function-in-the-queue device (blockQueue and
functionFakeRuntimeObject); see the second bullet below.
Differs from Go:
- Every loop has a step: `distribute_incoming` hands every queued event to the
  watchers. On a driven clock no thread starts and the driver runs `steps()`;
  otherwise the `watch/broadcaster` thread runs the same step whenever events
  arrive (Go: `go m.loop()`). The mode is decided once, in the constructor.
- Go sends a function down the incoming channel so that watch, stop_watching
  and shutdown happen between two events. Here they take the lock and first
  distribute what is already queued, which orders them the same way: a new
  watcher sees only later events; a stopped one still gets the earlier ones.
- A step must not block, so where Go blocks a sender we do not: `action` queues
  past a full incoming queue, and with WAIT_IF_CHANNEL_FULL each watcher's
  result channel is unbounded. DROP_IF_CHANNEL_FULL keeps Go's bounds and drops.
- Watchers are served in the order they were added (Go: map order).
- Go's `(Interface, error)` and `error` returns raise RuntimeError
  ("broadcaster already stopped"). `shutdown` distributes and closes under the
  lock itself instead of waiting for the loop, and a second call does nothing.
"""

from __future__ import annotations

import collections
import threading
from typing import Any

from minikcm.apimachinery.watch.watch import Event, EventType, ResultChan
from minikcm.clock import Clock, or_real
from minikcm.driver import Step

FullChannelBehavior = int
"""Port of FullChannelBehavior: what distribution does when a watcher's channel is full."""

WAIT_IF_CHANNEL_FULL: FullChannelBehavior = 0
"""Go waits for room; here the watcher's channel is unbounded (see the module docstring)."""
DROP_IF_CHANNEL_FULL: FullChannelBehavior = 1
"""The watcher misses the event; the other watchers still get it."""

INCOMING_QUEUE_LENGTH = 25
"""Port of incomingQueueLength: events queued before distribution, for new_broadcaster."""


class Broadcaster:
    """Port of Broadcaster (watch/mux.go): every event goes to every watcher.

    Events are distributed in the order they were queued. A watcher added
    after an event never sees it; a watcher stopped after an event still does.
    Thread: any thread may queue events, add or stop watchers. `_lock` guards
    `_incoming`, `_watchers`, `_next_watcher` and `_stopped`; `__repr__` takes none.
    """

    def __init__(self, queue_length: int, full_channel_behavior: FullChannelBehavior,
                 incoming_queue_length: int = INCOMING_QUEUE_LENGTH, clock: Clock | None = None) -> None:
        self.watch_queue_length = queue_length
        """Length of each watcher's result channel (its bound under DROP_IF_CHANNEL_FULL)."""
        self.full_channel_behavior = full_channel_behavior
        self.incoming_queue_length = incoming_queue_length
        """How many events action_or_drop lets wait for distribution."""
        self.clock = or_real(clock)
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)  # the loop waits here for events or shutdown
        self._incoming: collections.deque[Event] = collections.deque()  # Go: the incoming channel
        self._watchers: dict[int, BroadcasterWatcher] = {}  # by id; insertion order is registration order
        self._next_watcher = 0
        self._stopped = False  # Go: the stopped channel is closed
        self.thread: threading.Thread | None = None  # runs `loop` (none on a driven clock)
        if not self.clock.driven:  # the mode, decided once: a driven clock's driver runs steps()
            self.thread = threading.Thread(name="watch/broadcaster", target=self.loop, daemon=True)
            self.thread.start()  # Go: go m.loop()

    def watch(self) -> BroadcasterWatcher:
        """Port of Broadcaster.Watch (watch/mux.go): a new watcher, for events queued from now on.

        Raises: RuntimeError once the broadcaster is shut down.
        """
        return self.watch_with_prefix([])

    def watch_with_prefix(self, queued_events: list[Event]) -> BroadcasterWatcher:
        """Port of Broadcaster.WatchWithPrefix (watch/mux.go): a new watcher that first gets `queued_events`.

        Its channel is made long enough for the prefix plus one event.
        Raises: RuntimeError once the broadcaster is shut down.
        """
        with self._lock:
            if self._stopped:
                raise RuntimeError("broadcaster already stopped")
            self.distribute_locked()  # events queued earlier are not for this watcher
            length = max(self.watch_queue_length, len(queued_events) + 1)
            if self.full_channel_behavior == WAIT_IF_CHANNEL_FULL:
                length = 0  # unbounded: Go would block the distributor instead
            w = BroadcasterWatcher(ResultChan(length), self._next_watcher, self)
            self._next_watcher += 1
            self._watchers[w.id] = w
            for e in queued_events:
                w.result.put(e)
        return w

    def stop_watching(self, id: int) -> None:
        """Port of Broadcaster.stopWatching (watch/mux.go): remove the watcher and close its channel.

        Events queued before the call still reach it; a second call does nothing.
        """
        with self._lock:
            self.distribute_locked()
            w = self._watchers.pop(id, None)
            if w is not None:
                w.result.close()

    def close_all_locked(self) -> None:
        """Port of Broadcaster.closeAll (watch/mux.go): close and forget every watcher. Locking: `_lock` held."""
        for w in self._watchers.values():
            w.result.close()
        self._watchers = {}

    def action(self, action: EventType, obj: Any) -> None:
        """Port of Broadcaster.Action (watch/mux.go): queue an event for every watcher.

        Differs from Go: never blocks; the queue grows past its length instead.
        Raises: RuntimeError once the broadcaster is shut down.
        """
        with self._lock:
            if self._stopped:
                raise RuntimeError("broadcaster already stopped")
            self._incoming.append(Event(action, obj))
            self._wake.notify()

    def action_or_drop(self, action: EventType, obj: Any) -> bool:
        """Port of Broadcaster.ActionOrDrop (watch/mux.go): queue an event, or drop it when the queue is full.

        Returns True when queued, False when dropped.
        Raises: RuntimeError once the broadcaster is shut down.
        """
        with self._lock:
            if self._stopped:
                raise RuntimeError("broadcaster already stopped")
            if len(self._incoming) >= self.incoming_queue_length:
                return False
            self._incoming.append(Event(action, obj))
            self._wake.notify()
            return True

    def shutdown(self) -> None:
        """Port of Broadcaster.Shutdown (watch/mux.go): refuse new events, hand out the queued ones, close every watcher.

        Watchers may still have events in their channels; their readers get
        those before the channel reports closed.
        """
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
            self.distribute_locked()
            self.close_all_locked()
            self._wake.notify_all()

    # -- the step ----------------------------------------------------------------------------------

    def distribute_incoming(self) -> int:
        """Port of the body of Broadcaster.loop (watch/mux.go): distribute every queued event.

        Returns the number of events distributed.
        """
        with self._lock:
            n = len(self._incoming)
            self.distribute_locked()
            return n

    def distribute_locked(self) -> None:
        """Port of Broadcaster.distribute (watch/mux.go), for everything queued. Locking: `_lock` held.

        Each watcher gets each event; under DROP_IF_CHANNEL_FULL a watcher whose
        channel is full misses it. Differs from Go: a watcher being stopped
        still gets the events queued before its stop (Go races the two).
        """
        while self._incoming:
            event = self._incoming.popleft()
            for w in self._watchers.values():
                w.result.put(event)  # False when full: dropped for this watcher only

    def has_incoming(self) -> bool:
        """True when `distribute_incoming` has work (no lock: a torn read only delays a step)."""
        return bool(self._incoming)

    def steps(self) -> list[Step]:
        """The distribution loop as one driver step (on a driven clock)."""
        return [Step("watch/broadcaster", self.has_incoming, self.distribute_incoming, delivers=True)]

    def wait_for_incoming(self) -> bool:
        """Block until events are queued (True) or the broadcaster is shut down (False)."""
        with self._lock:
            while not self._incoming and not self._stopped:
                self._wake.wait()
            return not self._stopped

    def loop(self) -> None:
        """Port of Broadcaster.loop (watch/mux.go): body of the `watch/broadcaster` thread.

        Thread: the broadcaster's own (not on a driven clock). Like Go's loop,
        it does not catch crashes.
        """
        while self.wait_for_incoming():
            self.distribute_incoming()

    def __repr__(self) -> str:
        mode = "threaded" if self.thread is not None else "driven"
        return (f"Broadcaster({mode}, queued={len(self._incoming)}, watchers={len(self._watchers)}, "
                f"stopped={self._stopped})")


def new_broadcaster(queue_length: int, full_channel_behavior: FullChannelBehavior, *,
                    clock: Clock | None = None) -> Broadcaster:
    """Port of NewBroadcaster (watch/mux.go): `queue_length` per watcher, 25 waiting for distribution.

    On a driven `clock` no thread starts: the driver runs `steps()`.
    """
    return Broadcaster(queue_length, full_channel_behavior, INCOMING_QUEUE_LENGTH, clock)


def new_long_queue_broadcaster(queue_length: int, full_channel_behavior: FullChannelBehavior, *,
                               clock: Clock | None = None) -> Broadcaster:
    """Port of NewLongQueueBroadcaster (watch/mux.go): like new_broadcaster, with `queue_length` waiting too."""
    return Broadcaster(queue_length, full_channel_behavior, queue_length, clock)


class BroadcasterWatcher:
    """Port of broadcasterWatcher (watch/mux.go): one watcher of a Broadcaster.

    `result` is its own channel; `stop()` ends it (once), after which the
    events already in the channel can still be read, then it reports closed.
    """

    def __init__(self, result: ResultChan, id: int, m: Broadcaster) -> None:
        self.result = result
        self.id = id
        self.m = m
        self.stopped = False  # Go: the stopped channel is closed
        self._stop_once = threading.Lock()  # Go: sync.Once

    def result_chan(self) -> ResultChan:
        """Port of broadcasterWatcher.ResultChan (watch/mux.go)."""
        return self.result

    def stop(self) -> None:
        """Port of broadcasterWatcher.Stop (watch/mux.go): leave the broadcaster. Idempotent."""
        with self._stop_once:
            if self.stopped:
                return
            self.stopped = True
        self.m.stop_watching(self.id)

    def __repr__(self) -> str:
        return f"BroadcasterWatcher(id={self.id}, queued={len(self.result)}, stopped={self.stopped})"
