"""Port of k8s.io/apimachinery/pkg/util/wait/wait.go.

The small pieces the loops share: NEVER_STOP, the `Group` that stands in for
`go` plus a WaitGroup, `forever`, and `jitter`, the random stretch every
jittered period goes through.

Start reading at: Group.start, then jitter.

Not ported: ForeverTestTimeout, Group.StartWithContext, ConditionWithContextFunc
and ConditionFunc.WithContext, ContextForChannel and channelContext, the crash
protection wrappers, and the legacy waitFunc / waitForWithContext channel
plumbing (minikcm.apimachinery.wait._poll.legacy_poll does that job on the clock).
Differs from Go:
- A ConditionFunc returns a bool; Go's `(done, err)` error is raised instead,
  and any exception from the condition ends the loop and reaches the caller.
- No crash protection: Go wraps conditions in HandleCrash, which by default logs
  and re-panics; here the exception simply propagates, and the thread target
  reports it (STYLE.md section 5).
- Determinism: `Group.start` runs its function inline when the package's
  `DETERMINISTIC` switch is set (or the group was made with
  `deterministic=True`); `jitter` draws from an injected `random.Random` when
  one is given.
- The two package-level variables that tests replace, `jitterRand` and our
  `DETERMINISTIC`, live in the package `__init__` (one binding to patch); this
  module reads them from there at call time.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from minikcm.apimachinery import wait  # the package: its DETERMINISTIC and jitter_rand, read at call time
from minikcm.clock import Clock, Seconds


class _NeverStop(threading.Event):
    """A stop event that refuses to be set (Go's NeverStop channel is never closed)."""

    def set(self) -> None:
        raise RuntimeError("wait.NEVER_STOP must never be set; make your own threading.Event")


NEVER_STOP: threading.Event = _NeverStop()
"""Port of NeverStop (wait.go): pass it to `until` to loop for ever."""


class Group:
    """Port of Group (wait.go): start functions concurrently, then wait for all of them.

    The Python stand-in for Go's `go` plus `sync.WaitGroup` for bounded fan-out.
    In deterministic mode `start` calls the function inline, in call order, so a
    group is only for work that finishes (long loops belong in `run()` wrappers).

    Thread: `start` and `wait` may be called from any thread.
    Differs from Go: an exception in a started function does not kill the
    process. In threaded mode it goes to `threading.excepthook`; in deterministic
    mode it propagates out of `start`.
    """

    def __init__(self, deterministic: bool | None = None, name: str = "wait.Group") -> None:
        self.deterministic = deterministic
        """True or False forces the mode; None follows the package's `wait.DETERMINISTIC`."""
        self.name = name
        """Prefix of the started threads' names (`<name>-<n>`)."""
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []  # Go: WaitGroup counter; started, not yet joined
        self._started = 0

    def wait(self) -> None:
        """Port of Group.Wait (wait.go).

        Blocks: until every function started so far (and any started while we
        wait) has returned. Returns at once in deterministic mode.
        """
        while True:
            with self._lock:
                if not self._threads:
                    return
                thread = self._threads.pop(0)
            thread.join()

    def start_with_channel(self, stop: threading.Event, f: Callable[[threading.Event], object]) -> None:
        """Port of Group.StartWithChannel (wait.go): start `f(stop)`."""

        def call_with_stop() -> None:
            f(stop)

        self.start(call_with_stop)

    def start(self, f: Callable[[], object]) -> None:
        """Port of Group.Start (wait.go): run `f` in a new thread (inline in deterministic mode)."""
        inline = wait.DETERMINISTIC if self.deterministic is None else self.deterministic
        if inline:
            f()
            return
        with self._lock:
            self._started += 1
            thread = threading.Thread(name=f"{self.name}-{self._started}", target=f, daemon=True)
            self._threads.append(thread)
        thread.start()

    def __repr__(self) -> str:
        return f"Group({self.name!r}, started={self._started}, unjoined={len(self._threads)})"


def forever(f: Callable[[], object], period: Seconds, clock: Clock | None = None) -> None:
    """Port of Forever (wait.go): `until` with a stop event that never fires."""
    # Imported here: backoff.go's loops use jitter from this file, so a top-level
    # import of _backoff would be circular (one Go package, two Python modules).
    from minikcm.apimachinery.wait._backoff import until

    until(f, period, NEVER_STOP, clock)


# Go's jitterRand is `minikcm.apimachinery.wait.jitter_rand` (in the package
# __init__, so that a test replaces one binding); jitter reads it at call time.


def jitter(duration: Seconds, max_factor: float, rng: random.Random | None = None) -> Seconds:
    """Port of Jitter (wait.go).

    Returns a duration picked uniformly between `duration` and
    `duration * (1 + max_factor)`, so that many clients do not fall into step. A
    non-positive `max_factor` means 1.0. Example: jitter(2.0, 0.5) is in [2.0, 3.0].
    `rng` is a seeded `random.Random` for deterministic runs; without it the
    package's `wait.jitter_rand` is used.
    """
    if max_factor <= 0.0:
        max_factor = 1.0
    draw = rng.random() if rng is not None else wait.jitter_rand()
    return duration + draw * max_factor * duration


ConditionFunc = Callable[[], bool]
"""Port of ConditionFunc (wait.go): True when done; raise to abort the loop."""
