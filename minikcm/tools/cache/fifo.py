"""Port of k8s.io/client-go/tools/cache/fifo.go.

The `Queue` contract between a reflector (the producer, which adds, updates,
deletes and replaces) and one consumer that pops. `FIFO` is its simplest form:
one slot per key holding the latest object, keys served in first-added order.
Informers use `RealFIFO` (the_real_fifo.py); `FIFO` remains for small consumers
and as the reference the other queues are compared with.

Start reading at: FIFO.pop, then FIFO.replace.

Not ported: metrics; `HasSyncedChecker`'s channel is a `threading.Event`.
Differs from Go:
- RWMutex plus Cond become one `threading.Condition` over a `threading.Lock`.
- `pop` raises `ErrFIFOClosed` instead of returning it, and lets an exception
  from `process` propagate; the item has left the queue either way, as in Go.
- `replace` and `resync` queue keys in sorted order where Go walks a map.
- `name()` and `done()` (Go's DoneChecker) are methods; `done()` returns the
  Event that is set once the initial list has been popped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from minikcm.tools.cache.store import Key, KeyErr, KeyFunc, preview_keys

if TYPE_CHECKING:
    from minikcm.tools.cache.controller import ProcessBatchFunc

PopProcessFunc = Callable[[Any, bool], None]
"""Port of PopProcessFunc: handles one popped accumulator; the bool is is_in_initial_list. Raises on failure."""


class ErrFIFOClosed(Exception):
    """Port of ErrFIFOClosed (fifo.go): raised by pop once the queue is closed and empty."""

    def __init__(self, message: str = "DeltaFIFO: manipulating with closed queue") -> None:
        super().__init__(message)


class Queue(Protocol):
    """Port of Queue (fifo.go).

    The reflector's writing half of a Store (add, update, delete, replace,
    resync: Go's ReflectorStore) plus the consumer side. One consumer is
    expected; several would run process functions at the same time.
    """

    def add(self, obj: Any) -> None:
        """Port of Queue.Add (fifo.go)."""
    def update(self, obj: Any) -> None:
        """Port of Queue.Update (fifo.go)."""
    def delete(self, obj: Any) -> None:
        """Port of Queue.Delete (fifo.go)."""
    def replace(self, list_: list[Any], resource_version: str) -> None:
        """Port of Queue.Replace (fifo.go)."""
    def resync(self) -> None:
        """Port of Queue.Resync (fifo.go)."""

    def pop(self, process: PopProcessFunc) -> Any:
        """Block until something is queued, remove it, run `process` on it, return it.

        Raises ErrFIFOClosed once the queue is closed and empty.
        """
        ...

    def has_synced(self) -> bool:
        """True once the items of the first replace have all been popped (or a write came first)."""
        ...

    def has_synced_checker(self) -> Any:
        """The DoneChecker (`name()`, `done()`) that completes when has_synced turns true."""
        ...

    def close(self) -> None:
        """Port of Queue.Close (fifo.go)."""


@runtime_checkable
class QueueWithBatch(Queue, Protocol):
    """Port of QueueWithBatch (fifo.go): a Queue that can also hand over several deltas at once."""

    def pop_batch(self, process_batch: ProcessBatchFunc, process_single: PopProcessFunc) -> None:
        """Port of QueueWithBatch.PopBatch (fifo.go)."""


class FIFO:
    """Port of FIFO (fifo.go): a keyed queue that keeps only the latest object per key.

    Several writes of one key before it is popped are processed once, with the
    newest object; a key keeps its place in line. Delete drops the object but
    leaves the key queued (pop skips it). Resync is a no-op in practice.

    Invariant: every key in `items` is in `queue` (the reverse need not hold).
    """

    def __init__(self, key_func: KeyFunc) -> None:
        self.lock = threading.Lock()  # Go: RWMutex
        self.cond = threading.Condition(self.lock)  # Go: sync.Cond on the same lock
        self.items: dict[Key, Any] = {}
        self.queue: list[Key] = []  # keys in pop order
        self.synced = threading.Event()  # set once, by check_synced (Go: closed channel)
        self.populated = False  # the first replace happened, or a write came before it
        self.initial_population_count = 0  # items of the first replace not yet popped
        self.key_func = key_func
        self.closed = False

    def __repr__(self) -> str:
        return f"<FIFO {len(self.queue)} queued {preview_keys(self.queue)} synced={self.synced.is_set()}>"

    def close(self) -> None:
        """Port of FIFO.Close: wake every waiting pop; they raise ErrFIFOClosed once the queue is empty."""
        with self.lock:
            self.closed = True
            self.cond.notify_all()

    def has_synced(self) -> bool:
        """Port of FIFO.HasSynced."""
        with self.lock:
            return self.has_synced_locked()

    def has_synced_checker(self) -> FIFO:
        """Port of FIFO.HasSyncedChecker: the FIFO itself (see name and done)."""
        return self

    def name(self) -> str:
        """Port of FIFO.Name (DoneChecker)."""
        return "FIFO"

    def done(self) -> threading.Event:
        """Port of FIFO.Done (DoneChecker): set once the initial list has been popped."""
        return self.synced

    def has_synced_locked(self) -> bool:
        """Port of FIFO.hasSynced_locked: the result of the last check_synced. Locking: `lock` held."""
        return self.synced.is_set()

    def check_synced(self) -> None:
        """Port of FIFO.checkSynced: mark synced once populated and the first batch is drained.

        Locking: `lock` held; call after changing populated or initial_population_count.
        """
        if self.populated and self.initial_population_count == 0 and not self.synced.is_set():
            self.synced.set()

    def add(self, obj: Any) -> None:
        """Port of FIFO.Add: store the object; queue its key unless already queued."""
        id_ = self.key_of(obj)
        with self.lock:
            self.populated = True
            self.check_synced()
            if id_ not in self.items:
                self.queue.append(id_)
            self.items[id_] = obj
            self.cond.notify_all()

    def update(self, obj: Any) -> None:
        """Port of FIFO.Update: the same as add."""
        self.add(obj)

    def delete(self, obj: Any) -> None:
        """Port of FIFO.Delete: drop the object; its key stays queued and pop skips it."""
        id_ = self.key_of(obj)
        with self.lock:
            self.populated = True
            self.check_synced()
            self.items.pop(id_, None)

    def is_closed(self) -> bool:
        """Port of FIFO.IsClosed."""
        with self.lock:
            return self.closed

    def pop(self, process: PopProcessFunc) -> Any:
        """Port of FIFO.Pop: take the oldest queued object, process it, return it.

        The object leaves the store before `process` runs, so a failed item is
        not retried unless the caller adds it back.

        Blocks: until a key is queued or the FIFO is closed.
        Locking: `process` runs with `lock` held, so it may update state that
        must stay in step with the queue (and must not call back into the FIFO).
        Raises:
            ErrFIFOClosed: the FIFO is closed and empty.
        """
        with self.lock:
            counted = False  # Go: each decrement defers a checkSynced
            try:
                while True:
                    while not self.queue:
                        if self.closed:
                            raise ErrFIFOClosed()
                        self.cond.wait()
                    is_in_initial_list = not self.has_synced_locked()
                    id_ = self.queue.pop(0)
                    if self.initial_population_count > 0:
                        self.initial_population_count -= 1
                        counted = True
                    if id_ not in self.items:
                        continue  # deleted after it was queued
                    item = self.items.pop(id_)
                    process(item, is_in_initial_list)
                    return item
            finally:
                if counted:
                    self.check_synced()  # only after process finished

    def replace(self, list_: list[Any], resource_version: str) -> None:
        """Port of FIFO.Replace: make `list_` the whole content and queue every key.

        The first replace (before any other write) defines the initial list
        that has_synced waits for.
        """
        items: dict[Key, Any] = {}
        for item in list_:
            items[self.key_of(item)] = item
        with self.lock:
            if not self.populated:
                self.populated = True
                self.initial_population_count = len(items)
                self.check_synced()
            self.items = items
            self.queue = sorted(items)
            if self.queue:
                self.cond.notify_all()

    def resync(self) -> None:
        """Port of FIFO.Resync: queue any stored key that is missing from the queue."""
        with self.lock:
            in_queue = set(self.queue)
            for id_ in sorted(self.items):
                if id_ not in in_queue:
                    self.queue.append(id_)
            if self.queue:
                self.cond.notify_all()

    def key_of(self, obj: Any) -> Key:
        """No upstream twin. Runs key_func, wrapping a failure in KeyErr as each Go method does."""
        try:
            return self.key_func(obj)
        except Exception as err:
            raise KeyErr(obj, err) from err


def new_fifo(key_func: KeyFunc) -> FIFO:
    """Port of NewFIFO (fifo.go)."""
    return FIFO(key_func)
