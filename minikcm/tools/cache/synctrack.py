"""Port of k8s.io/client-go/tools/cache/synctrack (synctrack.go and lazy.go, in one module).

"Synced" for an event handler means more than "the informer has its first
list": the handler must also have finished with every item of that list. These
trackers count the initial-list items a handler has started but not finished,
and combine that with the upstream signal. The shared informer gives each
registered handler a `SingleFileTracker`. `Lazy` caches a value until told it
is stale.

Start reading at: SingleFileTracker.finished.

Not ported: nothing.
Differs from Go:
- One module instead of the package's two files (synctrack.go, then lazy.go below).
- Atomics and the cancelled context become a lock and a `threading.Event`; `done()`
  returns that Event. Go's panic on a negative counter is a RuntimeError.
- `Lazy.get` raises the evaluate function's exception (never cached) instead of
  returning it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


class AsyncTracker(Generic[K]):
    """Port of AsyncTracker (synctrack.go): HasSynced for handlers that finish keys out of order.

    Tracks initial-list keys individually, so several workers may finish them
    in any order; finishing a key that was never started is harmless.
    """

    def __init__(self, name: str) -> None:
        self._name = name  # Go: field name; name() is the method
        self.upstream_synced = False  # Go: upstreamHasSynced; set once by upstream_has_synced()
        self.lock = threading.Lock()  # guards waiting
        self.waiting: set[K] = set()
        self.synced = threading.Event()  # Go: cancelled context; set once both sides are done

    def __repr__(self) -> str:
        return f"<AsyncTracker {self._name!r} waiting={len(self.waiting)} synced={self.synced.is_set()}>"

    def start(self, key: K) -> None:
        """Port of AsyncTracker.Start: call before processing each initial-list key."""
        with self.lock:
            self.waiting.add(key)

    def finished(self, key: K) -> None:
        """Port of AsyncTracker.Finished: call after processing a key (extra calls are harmless)."""
        with self.lock:
            self.waiting.discard(key)
            if self.upstream_synced and not self.waiting:
                self.synced.set()

    def upstream_has_synced(self) -> None:
        """Port of AsyncTracker.UpstreamHasSynced: the source delivered its whole initial list.

        Call at least once, after every initial key has been passed to start.
        """
        self.upstream_synced = True
        with self.lock:
            if not self.waiting:
                self.synced.set()

    def has_synced(self) -> bool:
        """Port of AsyncTracker.HasSynced: upstream synced and every started key finished."""
        return self.synced.is_set()

    def done(self) -> threading.Event:
        """Port of AsyncTracker.Done: set when has_synced turns true."""
        return self.synced

    def name(self) -> str:
        """Port of AsyncTracker.Name."""
        return self._name


def new_async_tracker(name: str) -> AsyncTracker[K]:
    """Port of NewAsyncTracker (synctrack.go)."""
    return AsyncTracker(name)


class SingleFileTracker:
    """Port of SingleFileTracker (synctrack.go): HasSynced for handlers fed in order, one at a time.

    A counter of initial-list items started but not finished. Each finished()
    must follow its start(); a counter below zero is a logic error.
    """

    def __init__(self, name: str) -> None:
        self._name = name  # Go: field name; name() is the method
        self.lock = threading.Lock()  # Go: atomic counter
        self.count = 0
        self.upstream_synced = False  # Go: upstreamHasSynced; set once by upstream_has_synced()
        self.synced = threading.Event()  # Go: cancelled context

    def __repr__(self) -> str:
        return f"<SingleFileTracker {self._name!r} count={self.count} synced={self.synced.is_set()}>"

    def start(self) -> None:
        """Port of SingleFileTracker.Start: call before processing each initial-list item."""
        with self.lock:
            self.count += 1

    def finished(self) -> None:
        """Port of SingleFileTracker.Finished: call after processing an item started with start().

        Raises:
            RuntimeError: more finished() than start() calls (Go panics); the
            tracker stays synced if it already was.
        """
        with self.lock:
            self.count -= 1
            result = self.count
        if result < 0:
            raise RuntimeError("synctrack: negative counter; this logic error means HasSynced may return incorrect value")
        if result == 0 and self.upstream_synced:
            self.synced.set()

    def upstream_has_synced(self) -> None:
        """Port of SingleFileTracker.UpstreamHasSynced: the source delivered its whole initial list."""
        self.upstream_synced = True
        with self.lock:
            if self.count == 0:
                self.synced.set()

    def has_synced(self) -> bool:
        """Port of SingleFileTracker.HasSynced: upstream synced and every started item finished."""
        return self.synced.is_set()

    def done(self) -> threading.Event:
        """Port of SingleFileTracker.Done: set when has_synced turns true."""
        return self.synced

    def name(self) -> str:
        """Port of SingleFileTracker.Name."""
        return self._name


def new_single_file_tracker(name: str) -> SingleFileTracker:
    """Port of NewSingleFileTracker (synctrack.go)."""
    return SingleFileTracker(name)


# --- lazy.go ---


class CacheEntry(Generic[T]):
    """Port of cacheEntry (lazy.go): one generation of a Lazy's value, computed at most once."""

    def __init__(self, evaluate: Callable[[], T]) -> None:
        self.eval = evaluate
        self.lock = threading.Lock()  # Go: RWMutex; serializes evaluation
        self.has_result = False
        self.result: T | None = None

    def get(self) -> T:
        """Port of cacheEntry.get: the cached result, or evaluate once (failures are not cached)."""
        if self.has_result:  # fast path, as Go's read lock
            return self.result  # type: ignore[return-value]
        with self.lock:
            if self.has_result:
                return self.result  # type: ignore[return-value]
            r = self.eval()
            self.result = r
            self.has_result = True
            return r


class Lazy(Generic[T]):
    """Port of Lazy (lazy.go): a value computed by `evaluate` on demand and cached until notify().

    `evaluate` may run on several threads, but each generation (between two
    notify calls) evaluates once when it succeeds; concurrent get calls of one
    generation wait for the same evaluation.
    """

    def __init__(self, evaluate: Callable[[], T]) -> None:
        self.evaluate = evaluate
        self.cache: CacheEntry[T] | None = None  # Go: atomic.Pointer; replaced whole, never mutated
        self.swap_lock = threading.Lock()  # Go: CompareAndSwap on a nil cache

    def __repr__(self) -> str:
        entry = self.cache
        return f"<Lazy cached={entry is not None and entry.has_result}>"

    def new_cache_entry(self) -> CacheEntry[T]:
        """Port of Lazy.newCacheEntry."""
        return CacheEntry(self.evaluate)

    def notify(self) -> None:
        """Port of Lazy.Notify: the value is stale; the next get evaluates again."""
        self.cache = self.new_cache_entry()

    def get(self) -> T:
        """Port of Lazy.Get: the current value, evaluating it if this generation has none yet.

        Raises:
            Exception: whatever `evaluate` raised (a later get tries again).
        """
        e = self.cache
        if e is None:
            with self.swap_lock:  # only the first caller installs an entry
                if self.cache is None:
                    self.cache = self.new_cache_entry()
                e = self.cache
        return e.get()
