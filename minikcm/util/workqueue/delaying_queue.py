"""Port of k8s.io/client-go/util/workqueue/delaying_queue.go.

A work queue that can also add an item later: `add_after(item, 5.0)` parks the
item in a min-heap ordered by the time it becomes ready, and the waiting loop
moves it into the work queue when that time comes. Controllers use it to retry
after a failure without a hot loop and to re-check an object after a deadline
(a Deployment's progress deadline, a StatefulSet's minReadySeconds). If the same
item is parked twice, the earlier time wins.

Start reading at: DelayingType.add_after, then DelayingType.process_waiting (the
step), then waiting_loop (its threaded wrapper).

Design notes: in Go the heap belongs to one goroutine (waitingLoop) and
AddAfter hands entries to it over a buffered channel. We keep the heap under a
small lock instead, so `add_after` inserts directly and one iteration of the loop
becomes a plain method, `process_waiting`, that both the thread and the
deterministic driver call. In threaded mode the constructor starts the waiting
thread, as Go's constructor starts its goroutine. On a driven clock
(`clock.driven`, read once in the constructor) no thread starts: the driver
runs `steps()` and jumps its FakeClock to `next_ready_at()`. The mode follows
the clock's `driven` mark rather than "the clock is a FakeClock" because
upstream's own tests drive a FakeClock with a live waiting goroutine, and so do
ours (a plain `FakeClock()` is not driven).

Not ported: retry metrics, the logger option, the deprecated constructors
NewDelayingQueueWithCustomQueue, NewNamedDelayingQueue and
NewDelayingQueueWithCustomClock (pass a DelayingQueueConfig), the Typed generics.
Differs from Go:
- No waitingForAddCh: `add_after` inserts into the heap under `_lock` and wakes
  the waiting thread through an Event.
- The 10 s heartbeat is a cap on each sleep of the waiting thread rather than a
  separate ticker; the driver needs no heartbeat at all.
- `steps()` exists for the driver of a driven clock; the waiting thread loops
  over the same `process_waiting`.
"""

from __future__ import annotations

import heapq
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from minikcm.clock import Clock, Seconds, or_real
from minikcm.driver import Step
from minikcm.util.workqueue.queue import Interface, QueueConfig, new_with_config

MAX_WAIT: Seconds = 10.0
"""Port of maxWait (delaying_queue.go): the waiting thread looks at the heap at least this often."""


class DelayingInterface(Interface, Protocol):
    """Port of DelayingInterface / TypedDelayingInterface (delaying_queue.go): a queue with add_after.

    Differs from Go: also `steps()`, so wrappers can hand the waiting step to the driver.
    """

    def add_after(self, item: Any, duration: Seconds) -> None:
        """Port of DelayingInterface.AddAfter (delaying_queue.go)."""

    def steps(self) -> list[Step]: ...


@dataclass
class DelayingQueueConfig:
    """Port of DelayingQueueConfig / TypedDelayingQueueConfig (delaying_queue.go)."""

    name: str = ""
    """Names the queue and its waiting thread."""
    clock: Clock | None = None
    """Decides when parked items are ready; None means the real clock."""
    queue: Interface | None = None
    """The work queue items go into; None means a new FIFO work queue."""


def new_delaying_queue() -> DelayingType:
    """Port of NewDelayingQueue / NewTypedDelayingQueue (delaying_queue.go)."""
    return new_delaying_queue_with_config(DelayingQueueConfig())


def new_delaying_queue_with_config(config: DelayingQueueConfig) -> DelayingType:
    """Port of NewDelayingQueueWithConfig / NewTypedDelayingQueueWithConfig (delaying_queue.go)."""
    clock = or_real(config.clock)
    queue = config.queue
    if queue is None:
        queue = new_with_config(QueueConfig(name=config.name, clock=clock))
    return DelayingType(clock, queue, config.name)


@dataclass
class WaitFor:
    """Port of waitFor (delaying_queue.go): an item and the time it may join the work queue."""

    data: Any
    ready_at: datetime
    index: int = -1
    """Position in the heap (kept up to date by WaitForPriorityQueue.swap); -1 once popped."""


class WaitForPriorityQueue:
    """Port of waitForPriorityQueue (delaying_queue.go): a min-heap of WaitFor by `ready_at`.

    The methods are the heap.Interface that Go's container/heap drives; the
    module functions heap_push, heap_pop and heap_fix are that driver.
    """

    def __init__(self) -> None:
        self.entries: list[WaitFor] = []

    def len(self) -> int:
        """Port of waitForPriorityQueue.Len (delaying_queue.go)."""
        return len(self.entries)

    def less(self, i: int, j: int) -> bool:
        """Port of waitForPriorityQueue.Less (delaying_queue.go)."""
        return self.entries[i].ready_at < self.entries[j].ready_at

    def swap(self, i: int, j: int) -> None:
        """Port of waitForPriorityQueue.Swap (delaying_queue.go)."""
        self.entries[i], self.entries[j] = self.entries[j], self.entries[i]
        self.entries[i].index = i
        self.entries[j].index = j

    def push(self, entry: WaitFor) -> None:
        """Append at the end; call heap_push instead, which restores the heap order."""
        entry.index = len(self.entries)
        self.entries.append(entry)

    def pop(self) -> WaitFor:
        """Remove the last entry; call heap_pop instead, which moves the minimum there first."""
        entry = self.entries.pop()
        entry.index = -1
        return entry

    def peek(self) -> WaitFor:
        """The entry that is ready first, without removing it."""
        return self.entries[0]

    def __repr__(self) -> str:
        soonest = heapq.nsmallest(3, list(self.entries), key=_ready_at)  # copy: no lock taken
        shown = ", ".join(f"{e.data!r}@{e.ready_at:%H:%M:%S.%f}" for e in soonest)
        more = ", ..." if len(self.entries) > 3 else ""
        return f"WaitForPriorityQueue(len={len(self.entries)}, soonest=[{shown}{more}])"


def _ready_at(entry: WaitFor) -> datetime:
    return entry.ready_at


# -- container/heap, the three operations the delaying queue uses ---------------------


def heap_push(h: WaitForPriorityQueue, entry: WaitFor) -> None:
    """Port of heap.Push (container/heap): add `entry` and sift it up."""
    h.push(entry)
    heap_up(h, h.len() - 1)


def heap_pop(h: WaitForPriorityQueue) -> WaitFor:
    """Port of heap.Pop (container/heap): remove and return the minimum."""
    n = h.len() - 1
    h.swap(0, n)
    heap_down(h, 0, n)
    return h.pop()


def heap_fix(h: WaitForPriorityQueue, i: int) -> None:
    """Port of heap.Fix (container/heap): restore the order after entry `i`'s time changed."""
    if not heap_down(h, i, h.len()):
        heap_up(h, i)


def heap_up(h: WaitForPriorityQueue, j: int) -> None:
    """Port of up (container/heap)."""
    while j > 0:
        parent = (j - 1) // 2
        if not h.less(j, parent):
            break
        h.swap(parent, j)
        j = parent


def heap_down(h: WaitForPriorityQueue, i0: int, n: int) -> bool:
    """Port of down (container/heap). Returns True when the entry moved."""
    i = i0
    while True:
        left = 2 * i + 1
        if left >= n:
            break
        j = left
        if left + 1 < n and h.less(left + 1, left):
            j = left + 1
        if not h.less(j, i):
            break
        h.swap(i, j)
        i = j
    return i > i0


class DelayingType:
    """Port of delayingType (delaying_queue.go): a work queue plus a heap of parked items.

    All work-queue methods pass through to `queue`. Parked items live in
    `waiting_for_queue`, and `waiting_entry_by_data` finds an item's entry so that
    parking it again can only bring its time forward.
    Thread: any. `_lock` guards the heap and the index; `__repr__` takes no lock.
    """

    def __init__(self, clock: Clock, queue: Interface, name: str = "") -> None:
        self.queue = queue  # Go: the embedded TypedInterface
        self.clock = clock
        self.name = name
        self.waiting_for_queue = WaitForPriorityQueue()
        """Parked entries, soonest first."""
        self.waiting_entry_by_data: dict[Any, WaitFor] = {}
        """Each parked item's entry (Go: the loop's local waitingEntryByData)."""
        self._lock = threading.Lock()     # guards the two fields above
        self._wake = threading.Event()    # Go: a send on waitingForAddCh, or closing stopCh
        self._stopped = False             # Go: stopOnce
        self._thread: threading.Thread | None = None
        if not clock.driven:  # the mode, decided once: a driven clock's driver runs steps() instead
            self._thread = threading.Thread(
                name=f"workqueue/{name or 'delaying'}/waiting", target=self.waiting_loop, daemon=True
            )
            self._thread.start()  # Go: go ret.waitingLoop()

    # -- the work queue, passed through (Go: embedding) ---------------------------------
    def add(self, item: Any) -> None:
        self.queue.add(item)

    def len(self) -> int:
        return self.queue.len()

    def get(self) -> tuple[Any, bool]:
        return self.queue.get()

    def done(self, item: Any) -> None:
        self.queue.done(item)

    def shut_down_with_drain(self) -> None:
        self.queue.shut_down_with_drain()

    def shutting_down(self) -> bool:
        return self.queue.shutting_down()

    # -- delaying -----------------------------------------------------------------------
    def shut_down(self) -> None:
        """Port of delayingType.ShutDown (delaying_queue.go): shut the queue down and end the waiting loop.

        Safe to call more than once.
        """
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        self.queue.shut_down()
        self._wake.set()

    def add_after(self, item: Any, duration: Seconds) -> None:
        """Port of delayingType.AddAfter (delaying_queue.go): add `item` once `duration` has passed.

        A non-positive duration adds at once. Ignored while shutting down. If
        the item is already parked, the earlier of the two times is kept.
        """
        if self.queue.shutting_down():
            return
        if duration <= 0:
            self.queue.add(item)
            return
        entry = WaitFor(item, self.clock.now() + timedelta(seconds=duration))
        with self._lock:
            insert(self.waiting_for_queue, self.waiting_entry_by_data, entry)
        self._wake.set()

    def process_waiting(self) -> int:
        """The step of Go's waitingLoop (delaying_queue.go): move every ready item into the queue.

        Returns how many items moved. Does nothing once the queue is shutting down.
        Thread: the waiting thread, or the driver.
        """
        if self.queue.shutting_down():
            return 0
        now = self.clock.now()
        moved = 0
        with self._lock:
            while self.waiting_for_queue.len() > 0:
                entry = self.waiting_for_queue.peek()
                if entry.ready_at > now:
                    break
                heap_pop(self.waiting_for_queue)
                self.queue.add(entry.data)
                del self.waiting_entry_by_data[entry.data]
                moved += 1
        return moved

    def next_ready_at(self) -> datetime | None:
        """When the soonest parked item becomes ready, or None when nothing is parked."""
        with self._lock:
            if self.waiting_for_queue.len() == 0:
                return None
            return self.waiting_for_queue.peek().ready_at

    def waiting_ready(self) -> bool:
        """True when `process_waiting` would move something (the driver's `ready`)."""
        ready_at = self.next_ready_at()
        return ready_at is not None and ready_at <= self.clock.now() and not self.queue.shutting_down()

    def waiting_wakeup(self) -> datetime | None:
        """The driver's `wakeup`: the next ready time, or None once shutting down."""
        return None if self.queue.shutting_down() else self.next_ready_at()

    def steps(self) -> list[Step]:
        """The waiting loop as one driver step (on a driven clock)."""
        return [Step(f"workqueue/{self.name or 'delaying'}/waiting", self.waiting_ready,
                     self.process_waiting, self.waiting_wakeup)]

    def waiting_loop(self) -> None:
        """Port of delayingType.waitingLoop (delaying_queue.go): the waiting thread's body.

        Runs `process_waiting`, then sleeps on the clock until the next parked
        item is due (at most MAX_WAIT), a new item is parked, or shutdown.
        Thread: the queue's own waiting thread (not on a driven clock).
        """
        while not self.queue.shutting_down():
            self._wake.clear()  # before processing, so an add_after from now on wakes the sleep below
            self.process_waiting()
            self.clock.sleep(self.wait_duration(), self._wake)

    def wait_duration(self) -> Seconds:
        """How long the waiting thread may sleep: until the next item is due, at most MAX_WAIT."""
        ready_at = self.next_ready_at()
        if ready_at is None:
            return MAX_WAIT
        return min(MAX_WAIT, self.clock.until(ready_at))

    def __repr__(self) -> str:
        mode = "driven" if self._thread is None else "threaded"
        return f"DelayingQueue({self.name!r}, {mode}, waiting={self.waiting_for_queue!r}, queue={self.queue!r})"


def insert(q: WaitForPriorityQueue, known_entries: dict[Any, WaitFor], entry: WaitFor) -> None:
    """Port of insert (delaying_queue.go): park `entry`, or move an existing entry's time earlier.

    Locking: the caller holds the delaying queue's `_lock`.
    """
    existing = known_entries.get(entry.data)
    if existing is not None:
        if existing.ready_at > entry.ready_at:
            existing.ready_at = entry.ready_at
            heap_fix(q, existing.index)
        return
    heap_push(q, entry)
    known_entries[entry.data] = entry
