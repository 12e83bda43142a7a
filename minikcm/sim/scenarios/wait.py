"""No upstream twin. Chapter `wait` scenario: `wait-backoff`.

The three ways minikcm.apimachinery.wait spaces out retries, on a fake clock
with a seeded random source, one after the other:

1. `Backoff.step` (t=0 to about 2 min), called from a driver step: Backoff(duration=1 s,
   factor=2, jitter=0.1, steps=8, cap=20 s). The base duration doubles, 1, 2, 4,
   8, 16 s, until doubling would pass the cap; then it is 20 s and stays there
   (steps drop to 0). Each delay is the base lengthened by up to 10 %.
2. `exponential_backoff`: Backoff(duration=0.5 s, factor=3, steps=5), a condition
   that holds on its 4th try (a server that comes back): tries 0.5, 1.5 and
   4.5 s apart, then success.
3. `jitter_until`: a function run every 2 s with jitter factor 1.2 (the leader
   election's), sliding, stopped after 8 calls: every period lies in [2, 4.4] s.

The blocking loops (2 and 3) run whole inside one driver step each, on a
`JumpingClock`: a FakeClock whose sleeps and timer waits move fake time to
their deadline instead of blocking, since in a single-threaded run nothing else
could. The functions they call record what happened at each call.

Series: `Backoff.step delay (s)` and `Backoff duration (s)` (the base before
the step), `exponential_backoff gap (s)`, `jitter_until period (s)`.

Start reading at: WaitBackoff.play, then Backoff.step and wait.delay.
Good breakpoints: minikcm.apimachinery.wait.delay, minikcm.apimachinery.wait.exponential_backoff,
minikcm.apimachinery.wait.backoff_until.
"""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from datetime import datetime, timedelta

from minikcm.apimachinery import wait
from minikcm.clock import EPOCH, FakeClock, FakeTimer, Seconds
from minikcm.driver import Driver, Step
from minikcm.sim.scenarios.base import Run

BACKOFF = wait.Backoff(duration=1.0, factor=2.0, jitter=0.1, steps=8, cap=20.0)
"""Part 1: the Backoff stepped by the driver (each run steps its own copy)."""
BACKOFF_CALLS = 10
EXPONENTIAL = wait.Backoff(duration=0.5, factor=3.0, steps=5)
"""Part 2: the Backoff of exponential_backoff (no jitter; the function steps its own copy)."""
SUCCEEDS_ON_TRY = 4
JITTER_PERIOD, JITTER_FACTOR, JITTER_CALLS = 2.0, 1.2, 8
"""Part 3: jitter_until's period, jitter factor and number of calls."""


class JumpingTimer:
    """A FakeTimer whose `wait` moves the clock to the timer's deadline instead of blocking.

    Implements minikcm.clock.Timer by delegating to the FakeTimer it holds.
    """

    def __init__(self, clock: FakeClock, timer: FakeTimer) -> None:
        self.clock = clock
        self.timer = timer

    @property
    def deadline(self) -> datetime:
        return self.timer.deadline

    def fired(self) -> bool:
        return self.timer.fired()

    def wait(self, stop: threading.Event | None = None) -> bool:
        """Jump fake time to the deadline (unless stopped), then wait: which returns at once."""
        if not (stop is not None and stop.is_set()) and not self.timer.dead and self.deadline > self.clock.now():
            self.clock.set_time(self.deadline)
        return self.timer.wait(stop)

    def stop(self) -> bool:
        return self.timer.stop()

    def reset(self, d: Seconds) -> bool:
        return self.timer.reset(d)

    def __repr__(self) -> str:
        return f"JumpingTimer({self.timer!r})"


class JumpingClock(FakeClock):
    """A FakeClock for single-threaded runs of blocking loops: a wait jumps to its own deadline.

    Like trio's autojump clock: when the only thread would block until fake time
    moves, nothing else can move it, so the wait itself does. `step`, `set_time`
    and the driver's jumps work as on any FakeClock.
    """

    def new_timer(self, d: Seconds) -> JumpingTimer:  # type: ignore[override]
        return JumpingTimer(self, super().new_timer(d))

    def after(self, d: Seconds) -> JumpingTimer:  # type: ignore[override]
        return self.new_timer(d)

    def sleep(self, d: Seconds, stop: threading.Event | None = None) -> bool:
        """Move fake time `d` seconds on at once (False), or return True when `stop` is set."""
        if stop is not None and stop.is_set():
            return True
        if d > 0:
            self.step(d)
        return False


class WaitBackoff:
    """The `wait-backoff` world and its script (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        self.clock = JumpingClock(EPOCH, driven=True)
        self.driver = Driver(self.clock)
        self.run = Run("wait-backoff", seed, self.clock, self.driver, self.play)
        self.backoff = replace(BACKOFF, rng=random.Random(rng.getrandbits(64)))
        self.backoff_calls = 0
        self.backoff_next: datetime | None = self.clock.now()
        self.jitter_rng = random.Random(rng.getrandbits(64))
        self.tries: list[datetime] = []  # when exponential_backoff called the condition
        self.calls: list[datetime] = []  # when jitter_until called its function
        self.jitter_stop = threading.Event()
        self.outcome = ""
        for name in ("Backoff.step delay (s)", "Backoff duration (s)", "exponential_backoff gap (s)",
                     "jitter_until period (s)"):
            self.run.sampler.declare(name)
        self.run.objects.update(backoff=self.backoff, scenario=self)

    # -- the script --------------------------------------------------------------------

    def play(self) -> None:
        """The three parts of the module docstring, one after the other."""
        self.run.say(f"part 1: {BACKOFF!r}.step(), {BACKOFF_CALLS} times")
        self.driver.add(Step("wait/backoff-step", self.backoff_due, self.backoff_step, self.backoff_wakeup))
        self.driver.run_until_idle()
        self.run.say(f"part 2: exponential_backoff({EXPONENTIAL!r}, a condition that holds on try {SUCCEEDS_ON_TRY})")
        self.driver.add(Step("wait/exponential-backoff", self.exponential_pending, self.exponential))
        self.driver.run_until_idle()
        self.run.say(f"part 3: jitter_until(f, period={JITTER_PERIOD:g}, jitter_factor={JITTER_FACTOR:g}, "
                     f"sliding=True), stopped after {JITTER_CALLS} calls")
        self.driver.add(Step("wait/jitter-until", self.jitter_pending, self.jitter))
        self.driver.run_until_idle()

    # -- part 1: Backoff.step from a driver step -----------------------------------------

    def backoff_due(self) -> bool:
        return self.backoff_next is not None and self.clock.now() >= self.backoff_next

    def backoff_wakeup(self) -> datetime | None:
        return self.backoff_next

    def backoff_step(self) -> None:
        """Take one delay from the Backoff and come back when it has passed."""
        base = self.backoff.duration
        delay = self.backoff.step()
        self.backoff_calls += 1
        self.run.sampler.add("Backoff duration (s)", round(base, 6))
        self.run.sampler.add("Backoff.step delay (s)", round(delay, 6))
        self.driver.record("wait/backoff-step", f"base {base:g} s, delay {delay:.3f} s, "
                                                 f"next base {self.backoff.duration:g} s, steps left {self.backoff.steps}")
        if self.backoff_calls >= BACKOFF_CALLS:
            self.backoff_next = None
            self.run.event(f"Backoff stepped {BACKOFF_CALLS} times; its duration stays at the cap, "
                           f"{self.backoff.duration:g} s")
        else:
            self.backoff_next = self.clock.now() + timedelta(seconds=delay)

    # -- part 2: exponential_backoff ---------------------------------------------------------

    def exponential_pending(self) -> bool:
        return not self.tries

    def exponential(self) -> None:
        """Run exponential_backoff to its end (the clock jumps over its sleeps)."""
        try:
            wait.exponential_backoff(EXPONENTIAL, self.server_is_back, self.clock)
        except wait.WaitTimeoutError:
            self.outcome = "gave up"
        else:
            self.outcome = f"succeeded on try {len(self.tries)}"
        self.run.event(f"exponential_backoff {self.outcome}")

    def server_is_back(self) -> bool:
        """exponential_backoff's condition: records the try; holds on try SUCCEEDS_ON_TRY."""
        now = self.clock.now()
        if self.tries:
            self.run.sampler.add("exponential_backoff gap (s)", round((now - self.tries[-1]).total_seconds(), 6))
        self.tries.append(now)
        ok = len(self.tries) >= SUCCEEDS_ON_TRY
        self.driver.record("wait/exponential-backoff", f"try {len(self.tries)}: {'ok' if ok else 'not yet'}")
        return ok

    # -- part 3: jitter_until --------------------------------------------------------------

    def jitter_pending(self) -> bool:
        return not self.calls

    def jitter(self) -> None:
        """Run jitter_until until tick stops it (the clock jumps over its waits)."""
        wait.jitter_until(self.tick, JITTER_PERIOD, JITTER_FACTOR, True, self.jitter_stop, self.clock,
                          self.jitter_rng)
        self.run.event(f"jitter_until stopped after {len(self.calls)} calls")

    def tick(self) -> None:
        """jitter_until's function: records the call; sets the stop event after JITTER_CALLS calls."""
        now = self.clock.now()
        if self.calls:
            self.run.sampler.add("jitter_until period (s)", round((now - self.calls[-1]).total_seconds(), 6))
        self.calls.append(now)
        self.driver.record("wait/jitter-until", f"call {len(self.calls)}")
        if len(self.calls) >= JITTER_CALLS:
            self.jitter_stop.set()

    def __repr__(self) -> str:
        return (f"WaitBackoff(backoff={self.backoff!r}, tries={len(self.tries)}, calls={len(self.calls)}, "
                f"now={self.clock.now():%H:%M:%S.%f})")


def build_wait_backoff(seed: int) -> Run:
    """Scenario `wait-backoff` (chapter wait): the world, ready to play."""
    return WaitBackoff(seed).run
