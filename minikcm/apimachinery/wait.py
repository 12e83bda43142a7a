"""Port of k8s.io/apimachinery/pkg/util/wait (error.go, wait.go, backoff.go, delay.go, timer.go, loop.go, poll.go).

The loops every long-running piece of minikcm is built from. `until` runs a step
function again and again with a pause between runs (controller workers, the
informer's processing loop); the poll family calls a condition until it holds,
fails, is stopped or times out (waiting for caches to sync, leader-election
renewals); `Backoff` and the backoff managers space out retries.

Start reading at: backoff_until (the loop behind until and jitter_until), then
loop_condition_until (the loop behind poll_until), then Backoff.step and delay.

The sections below follow the upstream files in this order: error.go, wait.go,
backoff.go, delay.go, timer.go, loop.go, poll.go.

Not ported: the `...WithContext` twins (a `stop` event does the context's job),
ContextForChannel and channelContext, ForeverTestTimeout, Group.StartWithContext,
ExponentialBackoffWithContext, DelayFunc.Concurrent, ConditionFunc.WithContext,
RealTimer, internalClock, and the legacy waitFunc / poller / waitForWithContext
channel plumbing (legacy_poll does the same job directly on the clock). Go's
legacy `PollUntil(interval, condition, stopCh)` has no twin under that name:
`poll_until` here is the modern core (see below).
Differs from Go:
- A condition returns a bool. Go's `(done, err)` error is raised instead, and any
  exception from the condition ends the loop and reaches the caller.
- Loops return None or raise: `WaitTimeoutError` (ErrWaitTimeout),
  `ContextCanceledError` (context.Canceled, our `stop` was set) or
  `DeadlineExceededError` (context.DeadlineExceeded). Every raise is a fresh
  exception, so test with `interrupted(err)` or `isinstance`, never identity.
- No crash protection inside the loops: Go wraps `f` and conditions in
  HandleCrash, which by default logs and re-panics; here the exception simply
  propagates, and the thread target reports it (STYLE.md section 5).
- Every wait is on an injected clock (`minikcm.clock`, real by default, also in
  jitter_until where Go hard-codes the real clock). Stop channels are
  `threading.Event`s.
- Go's `select` picks at random among ready channels. Here a set `stop` always
  wins, and when a tick and a timeout fall due at the same instant the timeout wins.
- `FixedTimer` re-arms a one-shot clock timer on a ticker's cadence instead of
  holding a clock ticker, so that the time of its next tick is known and can be
  compared with a timeout.
- `poll_until(interval, timeout, immediate, condition, stop, clock)` is the one
  modern core (Go's PollUntilContextTimeout, or PollUntilContextCancel when
  `timeout` is None); both Go names exist as thin aliases.
- Determinism: `Group.start` runs its function inline when `DETERMINISTIC` is set
  (or the group was made with `deterministic=True`); jitter draws from an
  injected `random.Random` when one is given.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Protocol

from minikcm.clock import Clock
from minikcm.clock import Timer as ClockTimer
from minikcm.clock import or_real

logger = logging.getLogger(__name__)

Seconds = float

ConditionFunc = Callable[[], bool]
"""Port of ConditionFunc (wait.go): True when done; raise to abort the loop."""

DelayFunc = Callable[[], Seconds]
"""Port of DelayFunc (delay.go): returns the next interval to wait."""

MAX_INT32 = 2**31 - 1


# ---------------------------------------------------------------------------
# error.go
# ---------------------------------------------------------------------------


class WaitTimeoutError(Exception):
    """Port of errInterrupted and ErrWaitTimeout (error.go).

    Raised when a loop ends for any reason other than its condition returning
    True or raising: a timeout, a stop, or a backoff out of steps. `cause`, when
    set, is the reason, and is also the exception's `__cause__` (Go's Unwrap).
    """

    def __init__(self, cause: BaseException | None = None) -> None:
        message = str(cause) if cause is not None else "timed out waiting for the condition"
        super().__init__(message)
        self.cause = cause
        self.__cause__ = cause  # Go: Unwrap


class ContextCanceledError(Exception):
    """Stand-in for context.Canceled: the loop's `stop` event was set."""

    def __init__(self, message: str = "context canceled") -> None:
        super().__init__(message)


class DeadlineExceededError(Exception):
    """Stand-in for context.DeadlineExceeded: the loop's timeout passed on its clock."""

    def __init__(self, message: str = "context deadline exceeded") -> None:
        super().__init__(message)


def interrupted(err: BaseException | None) -> bool:
    """Port of Interrupted (error.go).

    True when `err`, or an exception it wraps through `__cause__` (Go's
    errors.Is walking Unwrap), says a loop was cut short: a wait timeout, a stop,
    or a deadline. An exception that merely mentions one in its message is not.
    """
    seen: set[int] = set()
    while err is not None and id(err) not in seen:
        if isinstance(err, (WaitTimeoutError, ContextCanceledError, DeadlineExceededError)):
            return True
        seen.add(id(err))
        err = err.__cause__
    return False


def error_interrupted(cause: BaseException | None) -> WaitTimeoutError:
    """Port of ErrorInterrupted (error.go): wrap `cause` so interrupted() is True, once only."""
    if isinstance(cause, WaitTimeoutError):
        return cause
    return WaitTimeoutError(cause)


# ---------------------------------------------------------------------------
# wait.go
# ---------------------------------------------------------------------------


class _NeverStop(threading.Event):
    """A stop event that refuses to be set (Go's NeverStop channel is never closed)."""

    def set(self) -> None:
        raise RuntimeError("wait.NEVER_STOP must never be set; make your own threading.Event")


NEVER_STOP: threading.Event = _NeverStop()
"""Port of NeverStop (wait.go): pass it to `until` to loop for ever."""

DETERMINISTIC = False
"""Process-wide deterministic switch, read at call time by `Group.start` (and by the
delaying work queue's constructor). The deterministic driver and tests set it; a
`Group(deterministic=...)` argument overrides it for one group."""


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
        """True or False forces the mode; None follows the module's DETERMINISTIC."""
        self.name = name
        """Prefix of the started threads' names (`<name>-<n>`)."""
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []  # Go: WaitGroup counter; started, not yet joined
        self._started = 0

    def start(self, f: Callable[[], object]) -> None:
        """Port of Group.Start (wait.go): run `f` in a new thread (inline in deterministic mode)."""
        inline = DETERMINISTIC if self.deterministic is None else self.deterministic
        if inline:
            f()
            return
        with self._lock:
            self._started += 1
            thread = threading.Thread(name=f"{self.name}-{self._started}", target=f, daemon=True)
            self._threads.append(thread)
        thread.start()

    def start_with_channel(self, stop: threading.Event, f: Callable[[threading.Event], object]) -> None:
        """Port of Group.StartWithChannel (wait.go): start `f(stop)`."""

        def call_with_stop() -> None:
            f(stop)

        self.start(call_with_stop)

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

    def __repr__(self) -> str:
        return f"Group({self.name!r}, started={self._started}, unjoined={len(self._threads)})"


def forever(f: Callable[[], object], period: Seconds, clock: Clock | None = None) -> None:
    """Port of Forever (wait.go): `until` with a stop event that never fires."""
    until(f, period, NEVER_STOP, clock)


jitter_rand: Callable[[], float] = random.random
"""Port of jitterRand (wait.go): the default source of jitter, looked up at call
time so tests can replace it as upstream tests do."""


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


# ---------------------------------------------------------------------------
# backoff.go
# ---------------------------------------------------------------------------


@dataclass
class Backoff:
    """Port of Backoff (backoff.go): the parameters of a growing, capped, jittered delay.

    `step()` returns the next delay and moves the state on: `duration` is
    multiplied by `factor` while `steps` remain; `cap`, when positive, bounds the
    new duration, and reaching it ends the growth (steps drop to zero). Jitter
    lengthens each returned delay but never feeds into the next duration.

    Example: Backoff(duration=1, factor=2, steps=3, cap=3) steps as 1, 2, 3, 3, ...
    (2 x 2 = 4 is over the cap, so the duration becomes 3 and growth stops).
    """

    duration: Seconds = 0.0
    """The next base delay; grows by `factor` on each step."""
    factor: float = 0.0
    """Multiplier applied to `duration` per step; zero means no growth."""
    jitter: float = 0.0
    """Each delay is lengthened by up to `jitter * duration`, chosen at random."""
    steps: int = 0
    """How many more times `duration` may change; at zero or below it stays fixed."""
    cap: Seconds = 0.0
    """Upper bound on a grown duration; zero means no bound."""
    rng: random.Random | None = field(default=None, compare=False, repr=False)
    """Seeded source for jitter (deterministic runs); None uses `jitter_rand`."""

    def step(self) -> Seconds:
        """Port of Backoff.Step (backoff.go): return the next delay and update duration and steps."""
        next_delay, self.duration, self.steps = delay(
            self.steps, self.duration, self.cap, self.factor, self.jitter, self.rng
        )
        return next_delay

    def delay_func(self) -> DelayFunc:
        """Port of Backoff.DelayFunc (backoff.go): a delay function over a private copy of this state.

        Thread: the returned function is for one thread only.
        """
        state = replace(self)

        def next_delay() -> Seconds:
            return state.step()

        return next_delay

    def timer(self, clock: Clock | None = None) -> Timer:
        """Port of Backoff.Timer (backoff.go): the cheapest Timer that honours these parameters."""
        clk = or_real(clock)
        if self.steps > 1 or self.jitter != 0:
            return VariableTimer(self.delay_func(), clk)
        if self.duration > 0:
            return FixedTimer(self.duration, clk)
        return NoopTimer()

    def delay_with_reset(self, clock: Clock, reset_interval: Seconds) -> DelayFunc:
        """Port of Backoff.DelayWithReset (backoff.go).

        A delay function that starts again from these parameters every
        `reset_interval` of `clock` time. With no factor it is `delay_func()`; with
        a non-positive `reset_interval` it never grows.
        Thread: the returned function is safe to share between threads.
        """
        if self.factor <= 0:
            return self.delay_func()
        if reset_interval <= 0:
            return replace(self, steps=0, factor=0.0).delay_func()
        manager = ResettingBackoffManager(replace(self), reset_interval, clock)
        return manager.step


def delay(
    steps: int,
    duration: Seconds,
    cap: Seconds,
    factor: float,
    jitter_factor: float,
    rng: random.Random | None = None,
) -> tuple[Seconds, Seconds, int]:
    """Port of delay (backoff.go): the core arithmetic behind Backoff.step.

    Returns (this delay, next duration, steps left). With no steps left the
    duration never changes (only jitter varies the delay). Otherwise one step is
    spent and the duration is multiplied by `factor`; a product above a positive
    `cap` becomes `cap` and zeroes the steps.
    Differs from Go: durations are float seconds, so nothing is truncated to nanoseconds.
    """
    if steps < 1:
        if jitter_factor > 0:
            return jitter(duration, jitter_factor, rng), duration, 0
        return duration, duration, 0
    steps -= 1

    if factor != 0:
        next_duration = duration * factor
        if cap > 0 and next_duration > cap:
            next_duration = cap
            steps = 0
    else:
        next_duration = duration

    if jitter_factor > 0:
        duration = jitter(duration, jitter_factor, rng)
    return duration, next_duration, steps


def until(f: Callable[[], object], period: Seconds, stop: threading.Event, clock: Clock | None = None) -> None:
    """Port of Until (backoff.go): call `f` every `period` until `stop` is set.

    The period is measured from the end of one call to the start of the next
    (sliding). `f` is not called at all if `stop` is already set.
    Blocks: until `stop` is set.
    """
    jitter_until(f, period, 0.0, True, stop, clock)


def non_sliding_until(
    f: Callable[[], object], period: Seconds, stop: threading.Event, clock: Clock | None = None
) -> None:
    """Port of NonSlidingUntil (backoff.go): like `until`, but the period includes `f`'s own run time."""
    jitter_until(f, period, 0.0, False, stop, clock)


def jitter_until(
    f: Callable[[], object],
    period: Seconds,
    jitter_factor: float,
    sliding: bool,
    stop: threading.Event,
    clock: Clock | None = None,
    rng: random.Random | None = None,
) -> None:
    """Port of JitterUntil (backoff.go): `until` with each period jittered by up to `jitter_factor`.

    A non-positive `jitter_factor` leaves the period exact.
    Blocks: until `stop` is set.
    Differs from Go: waits on `clock` (Go always uses the real clock); `rng` seeds the jitter.
    """
    manager = new_jittered_backoff_manager(period, jitter_factor, or_real(clock), rng)
    backoff_until(f, manager, sliding, stop)


def backoff_until(f: Callable[[], object], backoff: BackoffManager, sliding: bool, stop: threading.Event) -> None:
    """Port of BackoffUntil (backoff.go): call `f`, wait as long as `backoff` says, repeat.

    With `sliding` the wait is computed after `f` returns; without it, the timer
    starts before `f` runs, so a slow `f` eats into the wait.
    Blocks: until `stop` is set. An exception from `f` ends the loop and propagates.
    """
    timer: ClockTimer | None = None
    while True:
        if stop.is_set():  # checked first so a stopped loop never calls f again
            return
        if not sliding:
            timer = backoff.backoff()
        f()
        if sliding:
            timer = backoff.backoff()
        assert timer is not None
        if not timer.wait(stop):  # Go: select on the stop channel and the timer
            timer.stop()
            return


class ResettingBackoffManager:
    """Port of backoffManager (backoff.go), the state behind Backoff.delay_with_reset.

    Steps a Backoff and puts it back to its initial parameters once
    `reset_interval` of clock time has passed since the last reset (or on every
    step when `reset_interval` is zero).
    Thread: any; `step` and `backoff` take the lock.
    Differs from Go: renamed, because the interface BackoffManager takes the plain
    name; Go's `backoff` field is `backoff_state`, since the method `Backoff` is
    `backoff`. Upstream's Backoff calls Step while holding the (non-reentrant)
    lock Step takes again; we share one `step_locked` body instead.
    """

    def __init__(self, backoff: Backoff, reset_interval: Seconds, clock: Clock) -> None:
        self.backoff_state = replace(backoff)
        """The live state, stepped on each call."""
        self.initial_backoff = replace(backoff)
        """What a reset restores."""
        self.reset_interval = reset_interval
        self.clock = clock
        self._lock = threading.Lock()
        self.last_start: datetime = clock.now()  # guarded by _lock: time of the last reset
        self._timer: ClockTimer | None = None    # guarded by _lock: reused by backoff()

    def step(self) -> Seconds:
        """Port of backoffManager.Step (backoff.go): the next delay, after a reset if one is due."""
        with self._lock:
            return self.step_locked()

    def step_locked(self) -> Seconds:
        """The body of `step`. Locking: `_lock` held."""
        if self.reset_interval == 0:
            self.backoff_state = replace(self.initial_backoff)
        elif self.clock.since(self.last_start) > self.reset_interval:
            self.backoff_state = replace(self.initial_backoff)
            self.last_start = self.clock.now()
        return self.backoff_state.step()

    def backoff(self) -> ClockTimer:
        """Port of backoffManager.Backoff (backoff.go): one shared clock timer, reset to the next delay."""
        with self._lock:
            d = self.step_locked()
            if self._timer is None:
                self._timer = self.clock.new_timer(d)
            else:
                self._timer.reset(d)
            return self._timer

    def timer(self) -> Timer:
        """Port of backoffManager.Timer (backoff.go): a Timer sharing this clock and reset behaviour."""
        return delay_func_timer(self.step, self.clock)

    def __repr__(self) -> str:
        return f"ResettingBackoffManager({self.backoff_state!r}, reset_interval={self.reset_interval})"


class BackoffManager(Protocol):
    """Port of BackoffManager (backoff.go): hands out the timer to wait on before the next try.

    `backoff()` returns one shared clock timer, reset on each call; wait for it
    before calling again.
    """

    def backoff(self) -> ClockTimer: ...


class ExponentialBackoffManager:
    """Port of exponentialBackoffManagerImpl (backoff.go).

    Delays double (by `backoff_factor`) from `init_backoff` up to `max_backoff`,
    jittered; if no backoff was asked for during `backoff_reset_duration`, the
    next one starts from `init_backoff` again. Example (factor 2, max 10, no
    jitter): 1, 2, 4, 8, 10, 10, ...
    Thread: one caller at a time, as in Go.
    """

    def __init__(
        self,
        init_backoff: Seconds,
        max_backoff: Seconds,
        reset_duration: Seconds,
        backoff_factor: float,
        jitter_factor: float,
        clock: Clock,
        rng: random.Random | None = None,
    ) -> None:
        # Steps is effectively unlimited so the duration keeps growing until the cap.
        self.backoff_state = Backoff(init_backoff, backoff_factor, jitter_factor, MAX_INT32, max_backoff, rng)
        self.backoff_timer: ClockTimer | None = None
        self.initial_backoff = init_backoff
        self.last_backoff_start: datetime = clock.now()
        self.backoff_reset_duration = reset_duration
        self.clock = clock

    def get_next_backoff(self) -> Seconds:
        """Port of exponentialBackoffManagerImpl.getNextBackoff (backoff.go)."""
        if self.clock.since(self.last_backoff_start) > self.backoff_reset_duration:
            self.backoff_state.steps = MAX_INT32
            self.backoff_state.duration = self.initial_backoff
        self.last_backoff_start = self.clock.now()
        return self.backoff_state.step()

    def backoff(self) -> ClockTimer:
        """Port of exponentialBackoffManagerImpl.Backoff (backoff.go): the shared timer, reset."""
        d = self.get_next_backoff()
        if self.backoff_timer is None:
            self.backoff_timer = self.clock.new_timer(d)
        else:
            self.backoff_timer.reset(d)
        return self.backoff_timer

    def __repr__(self) -> str:
        return f"ExponentialBackoffManager(next={self.backoff_state.duration}, cap={self.backoff_state.cap})"


def new_exponential_backoff_manager(
    init_backoff: Seconds,
    max_backoff: Seconds,
    reset_duration: Seconds,
    backoff_factor: float,
    jitter_factor: float,
    clock: Clock,
    rng: random.Random | None = None,
) -> ExponentialBackoffManager:
    """Port of NewExponentialBackoffManager (backoff.go)."""
    return ExponentialBackoffManager(init_backoff, max_backoff, reset_duration, backoff_factor, jitter_factor, clock, rng)


class JitteredBackoffManager:
    """Port of jitteredBackoffManagerImpl (backoff.go): a fixed period, jittered when `jitter` > 0."""

    def __init__(self, clock: Clock, duration: Seconds, jitter_factor: float, rng: random.Random | None = None) -> None:
        self.clock = clock
        self.duration = duration
        self.jitter = jitter_factor
        self.rng = rng
        self.backoff_timer: ClockTimer | None = None

    def get_next_backoff(self) -> Seconds:
        """Port of jitteredBackoffManagerImpl.getNextBackoff (backoff.go)."""
        if self.jitter > 0.0:
            return jitter(self.duration, self.jitter, self.rng)
        return self.duration

    def backoff(self) -> ClockTimer:
        """Port of jitteredBackoffManagerImpl.Backoff (backoff.go): the shared timer, reset."""
        d = self.get_next_backoff()
        if self.backoff_timer is None:
            self.backoff_timer = self.clock.new_timer(d)
        else:
            self.backoff_timer.reset(d)
        return self.backoff_timer

    def __repr__(self) -> str:
        return f"JitteredBackoffManager(duration={self.duration}, jitter={self.jitter})"


def new_jittered_backoff_manager(
    duration: Seconds, jitter_factor: float, clock: Clock, rng: random.Random | None = None
) -> JitteredBackoffManager:
    """Port of NewJitteredBackoffManager (backoff.go)."""
    return JitteredBackoffManager(clock, duration, jitter_factor, rng)


def exponential_backoff(backoff: Backoff, condition: ConditionFunc, clock: Clock | None = None) -> None:
    """Port of ExponentialBackoff (backoff.go): try `condition`, sleeping `backoff.step()` between tries.

    Stops when the condition returns True (returns) or raises (propagates), or
    after `backoff.steps` tries, or once a capped step has been slept. The
    caller's `backoff` is not changed (Go passes it by value).
    Example: Backoff(duration=1, factor=2, steps=3) tries at t=0, 1 and 3.
    Blocks: for the sleeps, on `clock`.
    Raises:
        WaitTimeoutError: the tries ran out without the condition holding.
    """
    clk = or_real(clock)
    backoff = replace(backoff)
    while backoff.steps > 0:
        if condition():
            return
        if backoff.steps == 1:
            break
        clk.sleep(backoff.step())
    raise WaitTimeoutError()


# ---------------------------------------------------------------------------
# delay.go
# ---------------------------------------------------------------------------


def delay_func_timer(fn: DelayFunc, clock: Clock) -> Timer:
    """Port of DelayFunc.Timer (delay.go): a Timer whose every interval comes from `fn`."""
    return VariableTimer(fn, clock)


def delay_func_until(
    fn: DelayFunc,
    immediate: bool,
    sliding: bool,
    condition: ConditionFunc,
    stop: threading.Event | None = None,
    clock: Clock | None = None,
) -> None:
    """Port of DelayFunc.Until (delay.go): loop_condition_until with intervals from `fn`.

    Blocks: until the condition holds, or raises; see loop_condition_until.
    """
    clk = or_real(clock)
    loop_condition_until(VariableTimer(fn, clk), immediate, sliding, condition, stop, clk)


# ---------------------------------------------------------------------------
# timer.go
# ---------------------------------------------------------------------------


class Timer(Protocol):
    """Port of Timer (timer.go): what the polling loop waits on between condition calls.

    Differs from Go: Go hands out a channel `C()`; here `start()` does what the
    first `C()` call does (create the underlying clock timer), `ready_at()` says
    when the next tick is due (None: right now), and `wait(stop)` blocks for it.
    """

    def start(self) -> None: ...
    def ready_at(self) -> datetime | None: ...
    def wait(self, stop: threading.Event) -> bool: ...
    def next(self) -> None: ...
    def stop(self) -> None: ...


class NoopTimer:
    """Port of noopTimer (timer.go): always due (Go: a closed channel). Used for zero intervals."""

    def start(self) -> None:
        pass

    def ready_at(self) -> datetime | None:
        return None

    def wait(self, stop: threading.Event) -> bool:
        return True

    def next(self) -> None:
        pass

    def stop(self) -> None:
        pass


class VariableTimer:
    """Port of variableTimer (timer.go): a one-shot clock timer reset to `fn()` for each interval."""

    def __init__(self, fn: DelayFunc, clock: Clock) -> None:
        self.fn = fn
        self.clock = clock
        self._t: ClockTimer | None = None  # created by the first start(), dropped by stop()

    def start(self) -> None:
        if self._t is None:
            self._t = self.clock.new_timer(self.fn())

    def ready_at(self) -> datetime | None:
        self.start()
        assert self._t is not None
        return self._t.deadline

    def wait(self, stop: threading.Event) -> bool:
        self.start()
        assert self._t is not None
        return self._t.wait(stop)

    def next(self) -> None:
        if self._t is not None:
            self._t.reset(self.fn())

    def stop(self) -> None:
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
        if self._t is None:
            self._t = self.clock.new_timer(self.interval)

    def ready_at(self) -> datetime | None:
        self.start()
        assert self._t is not None
        return self._t.deadline

    def wait(self, stop: threading.Event) -> bool:
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
        pass  # the cadence is fixed; nothing to do between intervals

    def stop(self) -> None:
        if self._t is not None:
            self._t.stop()
            self._t = None

    def __repr__(self) -> str:
        return f"FixedTimer({self.interval}, {self._t!r})"


# ---------------------------------------------------------------------------
# loop.go
# ---------------------------------------------------------------------------


class _Done:
    """What a Go context gives the loops: a stop signal plus an optional deadline on a clock."""

    def __init__(self, stop: threading.Event, clock: Clock, deadline: datetime | None) -> None:
        self.stop = stop
        self.clock = clock
        self.deadline = deadline
        self._deadline_timer: ClockTimer | None = None  # made when we first wait for the deadline

    def check(self) -> None:
        """Go's ctx.Err(): raise if stopped or past the deadline (a stop takes precedence)."""
        if self.stop.is_set():
            raise ContextCanceledError()
        if self.deadline is not None and self.clock.now() >= self.deadline:
            raise DeadlineExceededError()

    def wait_for_tick(self, timer: Timer) -> None:
        """Block until `timer` ticks; raise instead if stopped or the deadline comes first.

        Go: the select between ctx.Done() and the timer channel.
        """
        self.check()
        tick_at = timer.ready_at()
        if tick_at is None:
            return
        if self.deadline is not None and tick_at >= self.deadline:  # a tie goes to the deadline
            if self._deadline_timer is None:
                self._deadline_timer = self.clock.new_timer(self.clock.until(self.deadline))
            self._deadline_timer.wait(self.stop)
            if self.stop.is_set():
                raise ContextCanceledError()
            raise DeadlineExceededError()
        if not timer.wait(self.stop):
            self.check()

    def release(self) -> None:
        if self._deadline_timer is not None:
            self._deadline_timer.stop()


def loop_condition_until(
    timer: Timer,
    immediate: bool,
    sliding: bool,
    condition: ConditionFunc,
    stop: threading.Event | None = None,
    clock: Clock | None = None,
    deadline: datetime | None = None,
) -> None:
    """Port of loopConditionUntilContext (loop.go): the one loop behind all modern polling.

    Calls `condition` each time `timer` ticks until it returns True (we return)
    or raises (it propagates). With `immediate` it is called once before the
    first wait, even if `stop` is already set. Without `sliding` the timer runs
    while the condition does; with it, each interval starts after the condition
    returns. `stop` and `deadline` play the caller's context: after every wait
    they are checked again before the condition runs.

    Blocks: on `clock` between ticks.
    Raises:
        ContextCanceledError: `stop` was set.
        DeadlineExceededError: `clock` reached `deadline`.
    """
    done = _Done(stop if stop is not None else NEVER_STOP, or_real(clock), deadline)
    try:
        if not sliding:
            timer.start()  # Go: t.C() before the first call, so the interval includes it
        if immediate and condition():
            return
        if sliding:
            timer.start()
        while True:
            done.wait_for_tick(timer)
            done.check()  # never call the condition again once stopped
            if not sliding:
                timer.next()
            if condition():
                return
            if sliding:
                timer.next()
    finally:
        timer.stop()  # Go: deferred t.Stop()
        done.release()


# ---------------------------------------------------------------------------
# poll.go
# ---------------------------------------------------------------------------


def poll_until(
    interval: Seconds,
    timeout: Seconds | None,
    immediate: bool,
    condition: ConditionFunc,
    stop: threading.Event | None = None,
    clock: Clock | None = None,
) -> None:
    """Port of PollUntilContextTimeout / PollUntilContextCancel (poll.go): the modern poll.

    Calls `condition` every `interval` (first right away when `immediate`) until
    it returns True or raises, `stop` is set, or `timeout` seconds of `clock` time
    pass (None: no timeout; 0: already expired, as Go's zero timeout context).
    A slow condition makes the next call come at once, not later.
    Example: interval 1, timeout 2.5, never true: calls at t=1 and t=2, then
    DeadlineExceededError at t=2.5.

    Blocks: on `clock` between calls.
    Raises:
        ContextCanceledError: `stop` was set.
        DeadlineExceededError: the timeout passed.
    """
    clk = or_real(clock)
    deadline = None if timeout is None else clk.now() + timedelta(seconds=timeout)
    timer = Backoff(duration=interval).timer(clk)
    loop_condition_until(timer, immediate, False, condition, stop, clk, deadline)


def poll_until_context_cancel(
    interval: Seconds,
    immediate: bool,
    condition: ConditionFunc,
    stop: threading.Event | None = None,
    clock: Clock | None = None,
) -> None:
    """Port of PollUntilContextCancel (poll.go): poll_until with no timeout."""
    poll_until(interval, None, immediate, condition, stop, clock)


def poll_until_context_timeout(
    interval: Seconds,
    timeout: Seconds,
    immediate: bool,
    condition: ConditionFunc,
    stop: threading.Event | None = None,
    clock: Clock | None = None,
) -> None:
    """Port of PollUntilContextTimeout (poll.go): poll_until under its upstream name."""
    poll_until(interval, timeout, immediate, condition, stop, clock)


def poll(interval: Seconds, timeout: Seconds, condition: ConditionFunc, clock: Clock | None = None) -> None:
    """Port of Poll (poll.go), legacy: wait `interval`, call, repeat; one last call at `timeout`.

    Raises:
        WaitTimeoutError: the timeout passed and the last call was not True.
    """
    legacy_poll(None, False, interval, timeout, condition, clock)


def poll_infinite(interval: Seconds, condition: ConditionFunc, clock: Clock | None = None) -> None:
    """Port of PollInfinite (poll.go), legacy: poll without a timeout, waiting before each call."""
    legacy_poll(None, False, interval, 0, condition, clock)


def poll_immediate(interval: Seconds, timeout: Seconds, condition: ConditionFunc, clock: Clock | None = None) -> None:
    """Port of PollImmediate (poll.go), legacy: `poll` with a first call before any wait."""
    legacy_poll(None, True, interval, timeout, condition, clock)


def poll_immediate_until(
    interval: Seconds, condition: ConditionFunc, stop: threading.Event, clock: Clock | None = None
) -> None:
    """Port of PollImmediateUntil (poll.go), legacy: call now, then every `interval` until `stop`.

    Raises:
        WaitTimeoutError: `stop` was set before the condition held (legacy
            callers expect this, not ContextCanceledError).
    """
    legacy_poll(stop, True, interval, 0, condition, clock)


def poll_immediate_infinite(interval: Seconds, condition: ConditionFunc, clock: Clock | None = None) -> None:
    """Port of PollImmediateInfinite (poll.go), legacy: call now, then every `interval`, for ever."""
    legacy_poll(None, True, interval, 0, condition, clock)


def legacy_poll(
    stop: threading.Event | None,
    immediate: bool,
    interval: Seconds,
    timeout: Seconds,
    condition: ConditionFunc,
    clock: Clock | None = None,
) -> None:
    """Port of poll, poller and waitForWithContext (poll.go, wait.go): the legacy poll loop.

    Waits for a tick every `interval` and calls `condition` on each. When
    `timeout` (0: none) passes, the condition is called one last time, as Go's
    closing tick channel does. A set `stop` ends the wait without that last call.
    Differs from Go: renamed (the exported Poll takes `poll`); no goroutine or
    channel, the loop waits on the clock itself.
    Raises:
        WaitTimeoutError: stopped, or timed out without the condition holding.
    """
    clk = or_real(clock)
    stop = stop if stop is not None else NEVER_STOP
    if immediate and condition():
        return
    if stop.is_set():
        raise WaitTimeoutError()
    # Go: poller starts its ticker and its timeout when waiting begins.
    deadline = clk.now() + timedelta(seconds=timeout) if timeout != 0 else None
    done = _Done(stop, clk, deadline)
    ticker = FixedTimer(interval, clk)
    try:
        while True:
            closed = False
            try:
                done.wait_for_tick(ticker)
            except ContextCanceledError:
                raise WaitTimeoutError() from None
            except DeadlineExceededError:
                closed = True  # Go: the poller closes its channel; one more call follows
            if condition():
                return
            if closed:
                raise WaitTimeoutError()
    finally:
        ticker.stop()
        done.release()
