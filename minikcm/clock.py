"""Port of k8s.io/utils/clock (clock.go) and its testing fake (clock/testing/fake_clock.go).

Every piece of minikcm that waits asks a `Clock` instead of the machine: the
reflector's backoff, the work queue's delays, leader election's lease arithmetic,
the simulated kubelet. In production that is `RealClock`; in tests and in
deterministic runs it is `FakeClock`, whose time moves only when someone calls
`step`, `set_time` or `step_to_next_waiter` (the deterministic driver does).

Start reading at: FakeClock.step, then FakeClock.step_to_next_waiter.

Not ported: `PassiveClock` as a separate interface (every clock here is a full
`Clock`), `AfterFunc`, `Tick` (use `new_ticker`), `SimpleIntervalClock`.
Differs from Go:
- Go hands out channels (`Timer.C()`, `After`); here a `Timer` and a `Ticker` are
  waited on with `wait(stop)`, which returns when the timer fires or `stop` is set.
- `sleep(d, stop)` takes an optional stop event and wakes early when it is set (Go
  code selects on the stop channel and `clock.After` for the same effect).
- Durations are float seconds; times are timezone-aware UTC datetimes.
- Every clock says whether a deterministic driver moves it (`driven`, no Go
  twin). That one attribute chooses the run mode of everything built on the
  clock: a component given a driven clock starts no thread of its own and
  waits for `minikcm.driver.Driver` to call its steps; on any other clock its
  `run()` starts threads that call the very same step bodies. A step that
  sleeps on a driven clock (a conflict retry's pause) moves the driven time,
  as Go's FakeClock.Sleep does.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from datetime import datetime, timedelta, timezone
from typing import Protocol

Seconds = float
"""A duration in seconds (Go: time.Duration); the one definition every module imports."""

EPOCH = datetime(2026, 1, 1, 0, 0, 0, tzinfo=timezone.utc)
"""The time a `FakeClock` starts at unless told otherwise: deterministic runs all begin here."""


class Timer(Protocol):
    """Port of Timer (clock.go): fires once at `deadline` unless stopped first."""

    deadline: datetime

    def fired(self) -> bool: ...
    def wait(self, stop: threading.Event | None = None) -> bool: ...
    def stop(self) -> bool: ...
    def reset(self, d: Seconds) -> bool: ...


class Ticker(Protocol):
    """Port of Ticker (clock.go): fires every period until stopped."""

    def wait(self, stop: threading.Event | None = None) -> bool: ...
    def stop(self) -> None: ...


class Clock(Protocol):
    """Port of Clock / WithTicker (clock.go): the time source every component is given.

    `driven` (no Go twin) is True only for a FakeClock that a deterministic
    Driver advances: components read it once, when they are built, to decide
    between starting threads and exposing steps.
    """

    driven: bool

    def now(self) -> datetime: ...
    def since(self, t: datetime) -> Seconds: ...
    def until(self, t: datetime) -> Seconds: ...
    def sleep(self, d: Seconds, stop: threading.Event | None = None) -> bool: ...
    def new_timer(self, d: Seconds) -> Timer: ...
    def after(self, d: Seconds) -> Timer: ...
    def new_ticker(self, d: Seconds) -> Ticker: ...


# ---------------------------------------------------------------------------
# The real clock
# ---------------------------------------------------------------------------


class RealClock:
    """Port of RealClock (clock.go): wall time for `now`, a monotonic clock for waits."""

    driven = False  # real time is never stepped by a driver: components start threads

    def now(self) -> datetime:
        return datetime.now(timezone.utc)

    def since(self, t: datetime) -> Seconds:
        return (self.now() - t).total_seconds()

    def until(self, t: datetime) -> Seconds:
        return (t - self.now()).total_seconds()

    def sleep(self, d: Seconds, stop: threading.Event | None = None) -> bool:
        """Wait `d` seconds; return True at once (early) if `stop` is or becomes set."""
        if stop is None:
            stop = threading.Event()  # never set: a plain, interruptible-free wait
        return stop.wait(max(0.0, d))

    def new_timer(self, d: Seconds) -> RealTimer:
        return RealTimer(self, d)

    def after(self, d: Seconds) -> RealTimer:
        return RealTimer(self, d)

    def new_ticker(self, d: Seconds) -> RealTicker:
        return RealTicker(self, d)

    def __repr__(self) -> str:
        return "RealClock()"


class RealTimer:
    """A one-shot timer on the monotonic clock. No thread: `wait` sleeps until the deadline."""

    def __init__(self, clock: RealClock, d: Seconds) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._stopped = False
        self._changed = threading.Event()  # set by stop/reset to wake a waiter
        self._due = time.monotonic() + d
        self.deadline = clock.now() + timedelta(seconds=d)

    def fired(self) -> bool:
        return not self._stopped and time.monotonic() >= self._due

    def wait(self, stop: threading.Event | None = None) -> bool:
        while True:
            with self._lock:
                if self._stopped:
                    return False
                remaining = self._due - time.monotonic()
                self._changed.clear()
            if remaining <= 0:
                return True
            if stop is not None and stop.is_set():
                return False
            # Wake on whichever comes first: the deadline, a stop/reset, or `stop`.
            woke = self._changed.wait(min(remaining, 0.05) if stop is not None else remaining)
            if not woke and stop is not None and stop.is_set():
                return False

    def stop(self) -> bool:
        with self._lock:
            active = not self._stopped and time.monotonic() < self._due
            self._stopped = True
            self._changed.set()
            return active

    def reset(self, d: Seconds) -> bool:
        with self._lock:
            active = not self._stopped and time.monotonic() < self._due
            self._stopped = False
            self._due = time.monotonic() + d
            self.deadline = self._clock.now() + timedelta(seconds=d)
            self._changed.set()
            return active


class RealTicker:
    """A periodic ticker on the monotonic clock; missed ticks are skipped, as Go's are."""

    def __init__(self, clock: RealClock, d: Seconds) -> None:
        if d <= 0:
            raise ValueError("non-positive interval for new_ticker")
        self._period = d
        self._next = time.monotonic() + d
        self._stop = threading.Event()

    def wait(self, stop: threading.Event | None = None) -> bool:
        while not self._stop.is_set():
            remaining = self._next - time.monotonic()
            if remaining <= 0:
                now = time.monotonic()
                while self._next <= now:
                    self._next += self._period
                return True
            if stop is not None and stop.wait(min(remaining, 0.05)):
                return False
            if stop is None:
                self._stop.wait(remaining)
        return False

    def stop(self) -> None:
        self._stop.set()


# ---------------------------------------------------------------------------
# The fake clock
# ---------------------------------------------------------------------------


class FakeClock:
    """Port of FakeClock (clock/testing/fake_clock.go): time that moves only when told.

    Timers, tickers and sleepers registered here are "waiters". Moving the time
    fires every waiter whose deadline has passed, in deadline order (ties in
    creation order), and wakes threads blocked in `sleep` or `wait`.

    The deterministic driver uses `has_waiters`, `next_waiter_time` and
    `step_to_next_waiter` to jump straight to the next moment something can happen.

    `driven=True` marks a clock that belongs to a deterministic Driver (see the
    module docstring); a plain FakeClock still suits threaded tests that want
    to move time by hand.

    Thread: any. Every method takes the clock's lock; `__repr__` does not.
    Differs from Go: a waiter that is a ticker re-arms itself for the next period
    instead of being re-added by the caller.
    """

    def __init__(self, t: datetime | None = None, *, driven: bool = False) -> None:
        self.driven = driven
        """True when a deterministic Driver moves this clock: what is built on it starts no threads."""
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._time = t if t is not None else EPOCH
        if self._time.tzinfo is None:
            raise ValueError("FakeClock needs a timezone-aware datetime")
        self._waiters: list[tuple[datetime, int, _FakeWaiter]] = []  # heap by (deadline, seq)
        self._seq = itertools.count()

    # -- reading the time ---------------------------------------------------
    def now(self) -> datetime:
        with self._lock:
            return self._time

    def since(self, t: datetime) -> Seconds:
        return (self.now() - t).total_seconds()

    def until(self, t: datetime) -> Seconds:
        return (t - self.now()).total_seconds()

    # -- moving the time ----------------------------------------------------
    def set_time(self, t: datetime) -> None:
        """Port of FakeClock.SetTime: jump to `t` (forward or back) and fire what is due."""
        with self._lock:
            self._time = t
            self._fire_due_locked()

    def step(self, d: Seconds) -> None:
        """Port of FakeClock.Step: move the time forward by `d` seconds."""
        with self._lock:
            self._time = self._time + timedelta(seconds=d)
            self._fire_due_locked()

    def has_waiters(self) -> bool:
        """Port of FakeClock.HasWaiters: is any timer, ticker or sleeper pending?"""
        with self._lock:
            self._drop_dead_locked()
            return bool(self._waiters)

    def next_waiter_time(self) -> datetime | None:
        """The deadline of the earliest pending waiter, or None when there is none."""
        with self._lock:
            self._drop_dead_locked()
            return self._waiters[0][0] if self._waiters else None

    def step_to_next_waiter(self) -> bool:
        """Move the time to the earliest pending deadline and fire it; False if none pends."""
        with self._lock:
            self._drop_dead_locked()
            if not self._waiters:
                return False
            deadline = self._waiters[0][0]
            if deadline > self._time:
                self._time = deadline
            self._fire_due_locked()
            return True

    # -- waiting ------------------------------------------------------------
    def new_timer(self, d: Seconds) -> FakeTimer:
        timer = FakeTimer(self)
        with self._lock:
            timer.deadline = self._time + timedelta(seconds=d)
            self._add_locked(timer, timer.deadline)
            if d <= 0:
                self._fire_due_locked()
        return timer

    def after(self, d: Seconds) -> FakeTimer:
        return self.new_timer(d)

    def new_ticker(self, d: Seconds) -> FakeTicker:
        if d <= 0:
            raise ValueError("non-positive interval for new_ticker")
        ticker = FakeTicker(self, d)
        with self._lock:
            self._add_locked(ticker, self._time + timedelta(seconds=d))
        return ticker

    def sleep(self, d: Seconds, stop: threading.Event | None = None) -> bool:
        """Port of FakeClock.Sleep: on a driven clock, move the time `d` seconds on (Go's Sleep is Step).

        On a clock that is not driven: block until fake time has moved `d`
        seconds on. Blocks: until another thread moves the clock past the
        deadline, or `stop` is set (then returns True). A non-positive `d`
        returns at once.
        Tricky: in a deterministic run nothing else could move the clock, so a
        step that sleeps (a retry's pause, util.retry) moves the driven time as
        Go's FakeClock.Sleep does; the waiters that fall due fire and the driver
        runs them after the step.
        Differs from Go: a FakeClock that is not driven blocks, for threaded
        tests that move time by hand.
        """
        if d <= 0:
            return stop.is_set() if stop is not None else False
        if self.driven:
            self.step(d)
            return stop.is_set() if stop is not None else False
        timer = self.new_timer(d)
        fired = timer.wait(stop)
        if not fired:
            timer.stop()
        return not fired

    # -- internals ----------------------------------------------------------
    def _add_locked(self, waiter: _FakeWaiter, deadline: datetime) -> None:
        heapq.heappush(self._waiters, (deadline, next(self._seq), waiter))

    def _drop_dead_locked(self) -> None:
        # A stopped or fired waiter, or a heap entry left behind by Timer.reset, is dead.
        while self._waiters and not self._waiters[0][2].live_at(self._waiters[0][0]):
            heapq.heappop(self._waiters)

    def _fire_due_locked(self) -> None:
        while self._waiters and self._waiters[0][0] <= self._time:
            deadline, _, waiter = heapq.heappop(self._waiters)
            if not waiter.live_at(deadline):
                continue
            again = waiter.fire_locked(deadline)
            if again is not None:
                self._add_locked(waiter, again)
        self._cond.notify_all()

    def __repr__(self) -> str:
        return f"FakeClock({self._time.isoformat()}, waiters={len(self._waiters)})"


class _FakeWaiter(Protocol):
    def live_at(self, deadline: datetime) -> bool: ...
    def fire_locked(self, deadline: datetime) -> datetime | None: ...


class FakeTimer:
    """Port of fakeTimer (fake_clock.go). Fires once when the fake time reaches `deadline`."""

    def __init__(self, clock: FakeClock) -> None:
        self._clock = clock
        self.deadline: datetime = clock._time
        self._fired = False
        self._stopped = False

    @property
    def dead(self) -> bool:
        """True once the timer has fired or been stopped: it will never fire (again)."""
        return self._fired or self._stopped

    def live_at(self, deadline: datetime) -> bool:
        # Tricky: reset pushes a new heap entry and leaves the old one; only the
        # entry matching the current deadline is live.
        return not self._fired and not self._stopped and deadline == self.deadline

    def fire_locked(self, deadline: datetime) -> datetime | None:
        self._fired = True
        return None

    def fired(self) -> bool:
        with self._clock._lock:
            return self._fired

    def wait(self, stop: threading.Event | None = None) -> bool:
        with self._clock._cond:
            while not self._fired:
                if self._stopped or (stop is not None and stop.is_set()):
                    return False
                # Tricky: a stop Event cannot notify our Condition, so poll it in real time.
                self._clock._cond.wait(0.01 if stop is not None else None)
            return True

    def stop(self) -> bool:
        with self._clock._lock:
            active = not self._fired and not self._stopped
            self._stopped = True
            self._clock._cond.notify_all()
            return active

    def reset(self, d: Seconds) -> bool:
        with self._clock._lock:
            active = not self._fired and not self._stopped
            self._fired = False
            self._stopped = False
            self.deadline = self._clock._time + timedelta(seconds=d)
            self._clock._add_locked(self, self.deadline)
            if d <= 0:
                self._clock._fire_due_locked()
            return active

    def __repr__(self) -> str:
        state = "fired" if self._fired else "stopped" if self._stopped else "pending"
        return f"FakeTimer({self.deadline.isoformat()}, {state})"


class FakeTicker:
    """Port of fakeTicker (fake_clock.go): counts ticks as the fake time passes each period."""

    def __init__(self, clock: FakeClock, period: Seconds) -> None:
        self._clock = clock
        self._period = timedelta(seconds=period)
        self._ticks = 0  # fired but not yet consumed by wait()
        self._stopped = False

    @property
    def dead(self) -> bool:
        return self._stopped

    def live_at(self, deadline: datetime) -> bool:
        return not self._stopped

    def fire_locked(self, deadline: datetime) -> datetime | None:
        self._ticks = 1  # Go's ticker channel holds one tick; extra ticks are dropped
        return deadline + self._period

    def wait(self, stop: threading.Event | None = None) -> bool:
        with self._clock._cond:
            while self._ticks == 0:
                if self._stopped or (stop is not None and stop.is_set()):
                    return False
                self._clock._cond.wait(0.01 if stop is not None else None)
            self._ticks -= 1
            return True

    def stop(self) -> None:
        with self._clock._lock:
            self._stopped = True
            self._clock._cond.notify_all()


REAL_CLOCK = RealClock()
"""The shared real clock used when a component is given none."""


def or_real(clock: Clock | None) -> Clock:
    """Return `clock`, or the shared `RealClock` when it is None."""
    return clock if clock is not None else REAL_CLOCK
