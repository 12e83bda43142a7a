"""Port of k8s.io/apimachinery/pkg/util/wait/wait.go.

The small pieces the loops share: NEVER_STOP, the `Group` that stands in for
`go` plus a WaitGroup, and `jitter`, the random stretch every jittered period
goes through.

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
- Determinism: a `Group` made with `inline=True` runs each started function
  inline, in call order (callers pass `inline=clock.driven`, so the mode comes
  from the clock they were given); `jitter` draws from an injected
  `random.Random` when one is given.
- `forever` (Go: Forever, in wait.go) lives in `_backoff.py`, beside the
  `until` it calls, so that this module imports nothing of the package.
- `jitter_rand` (Go's jitterRand) lives here, beside `jitter`, as in wait.go;
  the package re-exports it. A test that replaces it patches
  `minikcm.apimachinery.wait._wait.jitter_rand`, the binding `jitter` reads at
  call time. No submodule imports the package back.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from minikcm.clock import Seconds


class _NeverStop(threading.Event):
    """A stop event that refuses to be set (Go's NeverStop channel is never closed)."""

    def set(self) -> None:
        raise RuntimeError("wait.NEVER_STOP must never be set; make your own threading.Event")


NEVER_STOP: threading.Event = _NeverStop()
"""Port of NeverStop (wait.go): pass it to `until` to loop for ever."""


class Group:
    """Port of Group (wait.go): start functions concurrently, then wait for all of them.

    The Python stand-in for Go's `go` plus `sync.WaitGroup` for bounded fan-out.
    An `inline` group (no Go twin; callers pass `inline=clock.driven`) calls each
    function in `start`, in call order, so an inline group is only for work that
    finishes (long loops belong in `run()` wrappers).

    Thread: `start` and `wait` may be called from any thread.
    Differs from Go: an exception in a started function does not kill the
    process. In a thread it goes to `threading.excepthook`; in an inline group it
    propagates out of `start`.
    """

    def __init__(self, *, inline: bool = False, name: str = "") -> None:
        self.inline = inline
        """True: `start` calls the function on the caller's thread (a driven clock's world)."""
        self.name = name or "wait.Group"
        """Prefix of the started threads' names (`<name>-<n>`)."""
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []  # Go: WaitGroup counter; started, not yet joined
        self._started = 0

    def wait(self) -> None:
        """Port of Group.Wait (wait.go).

        Blocks: until every function started so far (and any started while we
        wait) has returned. Returns at once for an inline group.
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
        """Port of Group.Start (wait.go): run `f` in a new thread (on this one for an inline group)."""
        if self.inline:
            f()
            return
        with self._lock:
            self._started += 1
            thread = threading.Thread(name=f"{self.name}-{self._started}", target=f, daemon=True)
            self._threads.append(thread)
        thread.start()

    def __repr__(self) -> str:
        return f"Group({self.name!r}, started={self._started}, unjoined={len(self._threads)})"


jitter_rand = random.random
"""Port of jitterRand (wait.go): the default source of jitter, looked up at call
time so tests can replace it (patch this module's binding) as upstream tests do."""


def jitter(duration: Seconds, max_factor: float, rng: random.Random | None = None) -> Seconds:
    """Port of Jitter (wait.go).

    Returns a duration picked uniformly between `duration` and
    `duration * (1 + max_factor)`, so that many clients do not fall into step. A
    non-positive `max_factor` means 1.0. Example: jitter(2.0, 0.5) is in [2.0, 3.0].
    `rng` is a seeded `random.Random` for deterministic runs; without it the
    module's `jitter_rand` is used.
    """
    if max_factor <= 0.0:
        max_factor = 1.0
    draw = rng.random() if rng is not None else jitter_rand()
    return duration + draw * max_factor * duration


ConditionFunc = Callable[[], bool]
"""Port of ConditionFunc (wait.go): True when done; raise to abort the loop."""
