"""Port of k8s.io/apimachinery/pkg/util/wait/backoff.go.

How long to wait before trying again. `Backoff` holds the parameters of a
growing, capped, jittered delay and `delay` does its arithmetic; `until` and
its siblings run a function on a period (controller workers, the informer's
processing loop); the backoff managers hand those loops their timers; and
`exponential_backoff` retries a condition with growing sleeps.

Start reading at: backoff_until (the loop behind until and jitter_until), then
Backoff.step and delay.

Not ported: the `...WithContext` twins (UntilWithContext,
NonSlidingUntilWithContext, JitterUntilWithContext, BackoffUntilWithContext,
ExponentialBackoffWithContext): a `stop` event does the context's job.
Differs from Go:
- Loops return None or raise; an exhausted exponential_backoff raises
  WaitTimeoutError (Go: ErrWaitTimeout).
- No crash protection: an exception from the looped function ends the loop and
  propagates (Go wraps it in HandleCrash, which logs and re-panics).
- Every wait is on an injected clock (real by default), also in jitter_until
  where Go hard-codes the real clock; stop channels are `threading.Event`s.
  Jitter draws from an injected `random.Random` when one is given.
- Go's `select` between the stop channel and the timer: a set `stop` wins.
- `forever` (Go: Forever in wait.go) is here, beside the `until` it calls, so
  that `_wait` needs nothing from this module (no import cycle).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Protocol

from minikcm.apimachinery.wait._delay import DelayFunc, delay_func_timer
from minikcm.apimachinery.wait._error import WaitTimeoutError
from minikcm.apimachinery.wait._timer import FixedTimer, NoopTimer, Timer, VariableTimer
from minikcm.apimachinery.wait._wait import NEVER_STOP, ConditionFunc, jitter
from minikcm.clock import Clock, Seconds, or_real
from minikcm.clock import Timer as ClockTimer

MAX_INT32 = 2**31 - 1


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


def forever(f: Callable[[], object], period: Seconds, clock: Clock | None = None) -> None:
    """Port of Forever (wait.go): `until` with a stop event that never fires."""
    until(f, period, NEVER_STOP, clock)


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

    def backoff(self) -> ClockTimer:
        """Port of BackoffManager.Backoff (backoff.go)."""


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
