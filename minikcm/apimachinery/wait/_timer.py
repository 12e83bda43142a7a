"""Port of k8s.io/apimachinery/pkg/util/wait/timer.go.

The timers the polling loop (minikcm.apimachinery.wait._loop) waits on between
condition calls: a no-op timer for zero intervals, a variable one that asks a
DelayFunc for every interval, and a fixed one that ticks at a steady cadence.
`Backoff.timer` picks the cheapest that fits.

Start reading at: Timer, then FixedTimer.wait.

Not ported: RealTimer and internalClock (every timer is built on the injected
minikcm.clock).
Differs from Go:
- Go hands out a channel `C()`; here `start()` creates the underlying clock
  timer (what the first `C()` call does), `ready_at()` says when the next tick
  is due and `wait(stop)` blocks for it.
- `FixedTimer` re-arms a one-shot clock timer on a ticker's cadence instead of
  holding a clock ticker, so that the time of its next tick is known and can be
  compared with a timeout.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from minikcm.clock import Clock, Seconds
from minikcm.clock import Timer as ClockTimer

if TYPE_CHECKING:
    from minikcm.apimachinery.wait._delay import DelayFunc


class Timer(Protocol):
    """Port of Timer (timer.go): what the polling loop waits on between condition calls.

    Differs from Go: Go hands out a channel `C()`; here `start()` does what the
    first `C()` call does (create the underlying clock timer), `ready_at()` says
    when the next tick is due (None: right now), and `wait(stop)` blocks for it.
    """

    def start(self) -> None:
        """Port of Timer.C (timer.go), first call: arm the timer; later calls do nothing."""

    def ready_at(self) -> datetime | None:
        """Port of Timer.C (timer.go), read without waiting: when the next tick is due (None: now)."""

    def wait(self, stop: threading.Event) -> bool:
        """Port of a receive from Timer.C (timer.go): block for the tick; False if `stop` came first."""

    def next(self) -> None:
        """Port of Timer.Next (timer.go): the loop has consumed a tick; arm for the next one."""

    def stop(self) -> None:
        """Port of Timer.Stop (timer.go): release the underlying clock timer."""


class NoopTimer:
    """Port of noopTimer (timer.go): always due (Go: a closed channel). Used for zero intervals."""

    def start(self) -> None:
        """Port of noopTimer.C (timer.go), first call: nothing to arm."""

    def ready_at(self) -> datetime | None:
        """Port of noopTimer.C (timer.go), read without waiting: always due now."""
        return None

    def wait(self, stop: threading.Event) -> bool:
        """Port of a receive from noopTimer.C (timer.go): a closed channel never blocks."""
        return True

    def next(self) -> None:
        """Port of noopTimer.Next (timer.go): nothing to do."""

    def stop(self) -> None:
        """Port of noopTimer.Stop (timer.go): nothing to release."""


class VariableTimer:
    """Port of variableTimer (timer.go): a one-shot clock timer reset to `fn()` for each interval."""

    def __init__(self, fn: DelayFunc, clock: Clock) -> None:
        self.fn = fn
        self.clock = clock
        self._t: ClockTimer | None = None  # created by the first start(), dropped by stop()

    def start(self) -> None:
        """Port of variableTimer.C (timer.go), first call: a clock timer for the first `fn()` interval."""
        if self._t is None:
            self._t = self.clock.new_timer(self.fn())

    def ready_at(self) -> datetime | None:
        """Port of variableTimer.C (timer.go), read without waiting: the clock timer's deadline."""
        self.start()
        assert self._t is not None
        return self._t.deadline

    def wait(self, stop: threading.Event) -> bool:
        """Port of a receive from variableTimer.C (timer.go): wait for the clock timer, or `stop`."""
        self.start()
        assert self._t is not None
        return self._t.wait(stop)

    def next(self) -> None:
        """Port of variableTimer.Next (timer.go): reset the clock timer to a fresh `fn()` interval."""
        if self._t is not None:
            self._t.reset(self.fn())

    def stop(self) -> None:
        """Port of variableTimer.Stop (timer.go): stop and drop the clock timer."""
        if self._t is not None:
            self._t.stop()
            self._t = None

    def __repr__(self) -> str:
        return f"VariableTimer({self._t!r})"


class FixedTimer:
    """Port of fixedTimer (timer.go): ticks every `interval`, dropping ticks nobody waited for.

    Differs from Go: built on a one-shot clock timer instead of a clock ticker.
    After each tick the timer is re-armed for the next multiple of `interval`
    after now; as with Go's ticker (a channel holding one tick), a waiter that
    comes late gets one tick at once and later ticks keep the original cadence.
    """

    def __init__(self, interval: Seconds, clock: Clock) -> None:
        self.interval = interval
        self.clock = clock
        self._t: ClockTimer | None = None  # created by the first start(), dropped by stop()

    def start(self) -> None:
        """Port of fixedTimer.C (timer.go), first call: arm for one `interval` from now."""
        if self._t is None:
            self._t = self.clock.new_timer(self.interval)

    def ready_at(self) -> datetime | None:
        """Port of fixedTimer.C (timer.go), read without waiting: when the next tick is due."""
        self.start()
        assert self._t is not None
        return self._t.deadline

    def wait(self, stop: threading.Event) -> bool:
        """Port of a receive from fixedTimer.C (timer.go): wait for the tick, then re-arm on the cadence.

        Example (interval 1 s, armed at t=0): a waiter that arrives at t=2.5
        gets the tick at once, and the next one is due at t=3.
        """
        self.start()
        assert self._t is not None
        if not self._t.wait(stop):
            return False
        now = self.clock.now()
        due = self._t.deadline + timedelta(seconds=self.interval)
        while due <= now:  # ticks that fell due while nobody waited are dropped
            due += timedelta(seconds=self.interval)
        self._t.reset((due - now).total_seconds())
        return True

    def next(self) -> None:
        """Port of fixedTimer.Next (timer.go): nothing to do, the cadence is fixed."""

    def stop(self) -> None:
        """Port of fixedTimer.Stop (timer.go): stop and drop the clock timer."""
        if self._t is not None:
            self._t.stop()
            self._t = None

    def __repr__(self) -> str:
        return f"FixedTimer({self.interval}, {self._t!r})"
