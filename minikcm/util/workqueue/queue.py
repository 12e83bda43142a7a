"""Port of k8s.io/client-go/util/workqueue/queue.go.

The basic work queue. Event handlers `add` keys; workers `get` a key, sync it and
call `done`. Two sets make it more than a FIFO: `dirty` holds every key that needs
processing, `processing` every key a worker holds. So a key added twice before it
is taken is handed out once, and a key added while a worker holds it is handed
out again only after that worker calls `done`: no key is ever worked on by two
workers at once.

Start reading at: Type.add, Type.get, Type.done.

Not ported: metrics (the metrics provider, the unfinished-work update loop and its
goroutine, so `shut_down` has nothing to wait for), the deprecated NewNamed, and the
Typed generics (one class, `Type`, holds any hashable item; `Typed` is an alias).
Differs from Go:
- Items must be hashable (Go: comparable).
- The slice FIFO behind `DefaultQueue` is a `collections.deque`.
- `QueueConfig.clock` is kept for the config's shape but unused (only metrics read it).
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from typing import Any, Protocol

from minikcm.clock import Clock


class Interface(Protocol):
    """Port of Interface / TypedInterface (queue.go): what controllers call on a work queue."""

    def add(self, item: Any) -> None:
        """Port of Interface.Add (queue.go)."""
    def len(self) -> int:
        """Port of Interface.Len (queue.go)."""
    def get(self) -> tuple[Any, bool]:
        """Port of Interface.Get (queue.go)."""
    def done(self, item: Any) -> None:
        """Port of Interface.Done (queue.go)."""
    def shut_down(self) -> None:
        """Port of Interface.ShutDown (queue.go)."""
    def shut_down_with_drain(self) -> None:
        """Port of Interface.ShutDownWithDrain (queue.go)."""
    def shutting_down(self) -> bool:
        """Port of Interface.ShuttingDown (queue.go)."""


class Queue(Protocol):
    """Port of Queue (queue.go): the storage order behind a work queue.

    The work queue calls these with its own lock held, from one thread at a time.
    `touch` is called when an already-queued item is added again (a priority
    queue could move it); the default FIFO ignores it.
    """

    def touch(self, item: Any) -> None:
        """Port of Queue.Touch (queue.go)."""
    def push(self, item: Any) -> None:
        """Port of Queue.Push (queue.go)."""
    def len(self) -> int:
        """Port of Queue.Len (queue.go)."""
    def pop(self) -> Any:
        """Port of Queue.Pop (queue.go)."""


def default_queue() -> SliceQueue:
    """Port of DefaultQueue (queue.go): a plain FIFO."""
    return SliceQueue()


class SliceQueue:
    """Port of queue (queue.go), the FIFO slice behind DefaultQueue.

    Differs from Go: renamed, since the interface Queue takes the plain name; a
    deque instead of a slice (Go clears the popped slot so the item can be
    garbage collected; a deque drops its reference by itself).
    """

    def __init__(self) -> None:
        self.items: deque[Any] = deque()

    def touch(self, item: Any) -> None:
        """Port of queue.Touch (queue.go)."""
        pass

    def push(self, item: Any) -> None:
        """Port of queue.Push (queue.go)."""
        self.items.append(item)

    def len(self) -> int:
        """Port of queue.Len (queue.go)."""
        return len(self.items)

    def pop(self) -> Any:
        """Port of queue.Pop (queue.go)."""
        return self.items.popleft()

    def __repr__(self) -> str:
        return f"SliceQueue(len={len(self.items)}, head={_head(self.items)})"


@dataclass
class QueueConfig:
    """Port of QueueConfig / TypedQueueConfig (queue.go), without the metrics provider."""

    name: str = ""
    """The queue's name (Go registers metrics under it; we only show it in repr)."""
    clock: Clock | None = None
    """Kept for the config's shape; only Go's metrics use it."""
    queue: Queue | None = None
    """The storage order; None means a FIFO (`default_queue()`)."""


def new() -> Type:
    """Port of New / NewTyped (queue.go): an unnamed FIFO work queue."""
    return new_with_config(QueueConfig(name=""))


def new_with_config(config: QueueConfig) -> Type:
    """Port of NewWithConfig / NewTypedWithConfig and newQueueWithConfig (queue.go)."""
    return new_queue(config.clock, config.queue if config.queue is not None else default_queue(), config.name)


def new_queue(clock: Clock | None, queue: Queue, name: str = "") -> Type:
    """Port of newQueue (queue.go), without the metrics goroutine."""
    return Type(queue, clock, name)


class Type:
    """Port of Type / Typed (queue.go): the work queue (see the module docstring).

    Invariants, under `_cond`'s lock:
    - every item in `queue` is in `dirty` and not in `processing`;
    - an item in both `dirty` and `processing` is waiting for `done` to be queued again.
    Thread: any. `get` blocks; everything else returns promptly. `__repr__` takes no lock.
    """

    def __init__(self, queue: Queue | None = None, clock: Clock | None = None, name: str = "") -> None:
        self.name = name
        self.clock = clock
        self.queue: Queue = queue if queue is not None else default_queue()
        """Items in the order they will be handed out; each is dirty and not processing."""
        self.dirty: set[Any] = set()
        """Every item that needs processing (queued, or re-added while processing)."""
        self.processing: set[Any] = set()
        """Items a worker got and has not yet marked done."""
        self._cond = threading.Condition(threading.Lock())  # Go: sync.Cond over a Mutex; guards all state
        self.shutting_down_flag = False  # Go: shuttingDown
        self.drain = False

    def add(self, item: Any) -> None:
        """Port of Typed.Add (queue.go): mark `item` as needing processing.

        Ignored once the queue is shutting down. An item already dirty is not
        queued twice (the storage is only `touch`ed); an item being processed is
        only marked dirty, and `done` will queue it.
        """
        with self._cond:
            if self.shutting_down_flag:
                return
            if item in self.dirty:
                if item not in self.processing:
                    self.queue.touch(item)
                return
            self.dirty.add(item)
            if item in self.processing:
                return
            self.queue.push(item)
            self._cond.notify()

    def len(self) -> int:
        """Port of Typed.Len (queue.go): items waiting to be handed out (for display, not for control)."""
        with self._cond:
            return self.queue.len()

    def get(self) -> tuple[Any, bool]:
        """Port of Typed.Get (queue.go): take the next item; call `done(item)` when finished with it.

        Returns (item, shutdown). When `shutdown` is True the queue is empty and
        shutting down, `item` is None, and the worker should return.
        Blocks: until an item is queued or the queue shuts down.
        """
        with self._cond:
            while self.queue.len() == 0 and not self.shutting_down_flag:
                self._cond.wait()
            if self.queue.len() == 0:
                return None, True  # only possible when shutting down
            item = self.queue.pop()
            self.processing.add(item)
            self.dirty.discard(item)
            return item, False

    def done(self, item: Any) -> None:
        """Port of Typed.Done (queue.go): the worker has finished `item`.

        If `item` was added again meanwhile, it is queued now. Also wakes a
        `shut_down_with_drain` waiting for the last item in flight.
        """
        with self._cond:
            self.processing.discard(item)
            if item in self.dirty:
                self.queue.push(item)
                self._cond.notify()
            elif not self.processing:
                self._cond.notify()

    def shut_down(self) -> None:
        """Port of Typed.ShutDown (queue.go): ignore new adds; workers drain what is queued, then stop.

        Also ends a `shut_down_with_drain` that is still waiting.
        """
        with self._cond:
            self.drain = False
            self.shutting_down_flag = True
            self._cond.notify_all()

    def shut_down_with_drain(self) -> None:
        """Port of Typed.ShutDownWithDrain (queue.go): shut down, then wait for items in flight.

        Blocks: until every item handed out has been marked `done`, or until
        `shut_down` is called. Workers must call `done`, or this never returns.
        """
        with self._cond:
            self.drain = True
            self.shutting_down_flag = True
            self._cond.notify_all()
            while self.processing and self.drain:
                self._cond.wait()

    def shutting_down(self) -> bool:
        """Port of Typed.ShuttingDown (queue.go)."""
        with self._cond:
            return self.shutting_down_flag

    def __repr__(self) -> str:
        # Lock-free on purpose: a debugger may call this while a thread holds the lock.
        head = _head(self.queue.items) if isinstance(self.queue, SliceQueue) else "?"
        state = " shutting-down" if self.shutting_down_flag else ""
        return (
            f"workqueue.Type({self.name!r}, queued={self.queue.len()}, head={head}, "
            f"dirty={len(self.dirty)}, processing={len(self.processing)}{state})"
        )


Typed = Type
"""Port of Typed[T] (queue.go): Python needs no type parameter, so it is `Type`."""


def _head(items: Any, n: int = 3) -> str:
    """The first `n` items of a sequence for a repr, copied without locking (a torn read is fine)."""
    try:
        first = [items[i] for i in range(min(n, len(items)))]
    except (IndexError, RuntimeError):  # changed under our feet; display only
        return "[...]"
    more = ", ..." if len(items) > n else ""
    return "[" + ", ".join(repr(x) for x in first) + more + "]"
