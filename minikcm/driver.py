"""No upstream twin. The single-threaded driver for deterministic runs.

In production mode each long-running loop of minikcm (reflector, informer,
work-queue delays, controller workers, leader election, simulated kubelet) runs
in its own thread, calling one step function over and over. In deterministic
mode nothing starts a thread: this driver calls the same step functions itself,
one at a time, in the order its schedule policy picks from its `steps` list
(design notes below). When no step can run, it
moves the `FakeClock` to the earliest moment something can (a step's `wakeup`,
or a clock waiter) and goes on. The same scenario with the same seed therefore
gives the same trace, byte for byte, and a debugger breakpoint in any step stops
a world in which nothing else moves.

Start reading at: Driver.run_until_idle, then Driver.run_once.

This module sits on the ground floor, beside `minikcm.clock`: every component
that loops (work queues, reflectors, informers, leader election, controllers,
the API server's timers) imports `Step` from here and exposes `steps()`; nothing
here imports them back. The simulation (`minikcm.sim`) only builds worlds on top.

Which mode a component runs in is decided once, when it is built, by the clock
it is given: a clock whose `driven` attribute is True belongs to a Driver, so
the component starts no thread and waits to be stepped (see `minikcm.clock`).
A Driver refuses a clock that is not marked driven, so the two cannot disagree.

Design notes: the schedule is a policy, one of two. Steps are of two kinds.
*Delivery* steps carry what the API server said to the handlers (reflectors,
the informers' pop-and-index loops, the listeners, watch broadcasters); *work*
steps do something with it (controller workers, the simulated kubelet, leader
election, the API server's timers).

`deliver-first` (`DeliverFirst`, the default: demos, benchmarks, figures and
every recorded trace use it). A round runs every ready delivery step once, in
list order; only a round in which no delivery step is ready runs the work
steps, each ready one once, in list order. Rounds repeat until a round runs
nothing. So no worker takes a key until every event the last writes caused has
reached the handlers and their work queues. This is the best case for
batching, the one a loaded process approaches: watch events arrive and are
indexed faster than a worker gets through an O(pods) sync, so by the time a
worker takes a key, a whole burst (a hundred pod creations, the kubelet marking
a node's pods ready) has queued that key once, and the queue folds the burst
into one sync. A driver that let a worker run after each single event would
sync once per event instead: a rolling update of 500 replicas took 3,377
ReplicaSet syncs that way (27 under this rule), each reading every pod, and
the time grew with the square of the size. Its price: a worker never sees a
cache that lags behind its own writes, so the defences against that race
(the ReplicaSet controller's expectations, the consistency store) never have
anything to do.

`interleaved` (`Interleaved(seed)`: `minikcm demo run ... --schedule
interleaved`, `minikcm chaos run --schedule interleaved`, `minikcm explore`).
Each round runs ONE step, drawn by a `random.Random` seeded from the seed among
all ready steps, delivery and work alike. A worker may therefore take a key
while the events of its own last writes are still on their way (in the
reflector, the informer's queue or a listener's buffer), as it may on threads,
and the defences have to hold. The draw is the only randomness the policy adds,
so the same seed gives the same trace, byte for byte. What it does not do:
split one step's work (a listener step still delivers its whole buffer, a
reflector step its whole batch), so interleavings inside a step are not
explored.

Steps added later (a controller started by the leader-election callback) join
the end of the list and can run from the next round on, under either policy.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from minikcm.clock import FakeClock


@dataclass
class Step:
    """One unit of loop work, as the driver sees it.

    `ready()` is True when `run()` would do work without blocking. `wakeup()`,
    when given, returns the earliest fake time at which `ready()` may turn True
    without any other step running first (a delaying queue's next item, a lease's
    renew time), or None when only another step can make it ready.
    """

    name: str                                   # shown in the trace and the debugger
    ready: Callable[[], bool]
    run: Callable[[], object]
    wakeup: Callable[[], datetime | None] | None = None
    delivers: bool = False                      # a delivery step: deliver-first drains these before any work step

    def renamed(self, name: str, ready: Callable[[], bool] | None = None,
                wakeup: Callable[[], datetime | None] | None = None) -> Step:
        """This step under another name (and optionally a gated `ready` or translated `wakeup`), same kind."""
        return Step(name, ready if ready is not None else self.ready, self.run,
                    wakeup if wakeup is not None else self.wakeup, self.delivers)


@dataclass(frozen=True)
class TraceEntry:
    """One line of a run's trace: when, which step, and what it reported."""

    time: datetime
    step: str
    detail: str = ""

    def __str__(self) -> str:
        text = f"{self.time:%H:%M:%S.%f}"[:-3] + f"  {self.step}"
        return text + (f"  {self.detail}" if self.detail else "")

    def to_json(self) -> str:
        return json.dumps({"time": self.time.isoformat(), "step": self.step, "detail": self.detail},
                          ensure_ascii=False, sort_keys=True)


class ScenarioDidNotSettle(RuntimeError):
    """Raised when a run hits its round limit; the trace says which steps kept looping."""


class Schedule(Protocol):
    """A scheduling policy: which ready steps one round of `Driver.run_once` runs (see the module docstring)."""

    name: str

    def run_round(self, driver: Driver) -> bool:
        """Run one round on `driver` (each step through `driver.run_step`); True when any step ran."""
        ...


class DeliverFirst:
    """Policy `deliver-first`: every ready delivery step in list order; only when none is ready, every ready work step."""

    name = "deliver-first"

    def run_round(self, driver: Driver) -> bool:
        ran = False
        for delivering in (True, False):
            for step in list(driver.steps):
                if step.delivers is not delivering or not step.ready():
                    continue
                driver.run_step(step)
                ran = True
            if ran:
                return True
        return False

    def __repr__(self) -> str:
        return "DeliverFirst()"


class Interleaved:
    """Policy `interleaved`: one step per round, drawn with a seeded generator among all ready steps.

    Delivery and work steps are drawn alike, so a worker can run on a cache
    that lags behind its own writes. The generator is seeded from `seed`
    alone (under its own name, apart from any other random choice of a run).
    """

    name = "interleaved"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(f"interleaved/{seed}")

    def run_round(self, driver: Driver) -> bool:
        ready = [step for step in list(driver.steps) if step.ready()]
        if not ready:
            return False
        driver.run_step(ready[self.rng.randrange(len(ready))] if len(ready) > 1 else ready[0])
        return True

    def __repr__(self) -> str:
        return f"Interleaved(seed={self.seed})"


SCHEDULES = ("deliver-first", "interleaved")
"""The policy names `--schedule` accepts, the default first."""


def new_schedule(name: str, seed: int) -> Schedule:
    """The policy called `name` (one of SCHEDULES); `seed` seeds `interleaved`'s draws.

    Raises:
        ValueError: `name` is not a policy.
    """
    if name == "deliver-first":
        return DeliverFirst()
    if name == "interleaved":
        return Interleaved(seed)
    raise ValueError(f"schedule: Unsupported value: {name!r}: supported values: {', '.join(SCHEDULES)}")


@dataclass
class Driver:
    """Runs step functions one at a time on a fake clock (see the module docstring).

    Thread: one. Nothing here takes a lock; every step runs on the caller's thread.
    """

    clock: FakeClock
    steps: list[Step] = field(default_factory=list)
    trace: list[TraceEntry] = field(default_factory=list)
    trace_steps: bool = True                       # record each step run, not only `record` calls
    observers: list[Callable[[Driver], None]] = field(default_factory=list)  # called after each step
    schedule: Schedule = field(default_factory=DeliverFirst)  # which ready steps a round runs

    def __post_init__(self) -> None:
        if not getattr(self.clock, "driven", False):
            raise ValueError(f"Driver needs a driven clock (FakeClock(..., driven=True)), got {self.clock!r}: "
                             "components built on any other clock start their own threads")

    # -- building the schedule -------------------------------------------------------
    def add(self, *steps: Step) -> None:
        """Append steps to the schedule; they run from the next round on."""
        self.steps.extend(steps)

    def add_all(self, steps: Iterable[Step]) -> None:
        self.steps.extend(steps)

    def remove(self, prefix: str) -> None:
        """Drop every step whose name starts with `prefix` (a stopped component)."""
        self.steps = [s for s in self.steps if not s.name.startswith(prefix)]

    def record(self, step: str, detail: str = "") -> None:
        """Append a line to the trace; components call this to explain what they decided."""
        self.trace.append(TraceEntry(self.clock.now(), step, detail))

    # -- running -----------------------------------------------------------------------
    def run_once(self) -> bool:
        """One round of the schedule policy (deliver-first by default). True when any step ran."""
        return self.schedule.run_round(self)

    def run_step(self, step: Step) -> None:
        """Run one step now: trace it, run it, call the observers (what a policy's round does per step)."""
        if self.trace_steps:
            self.trace.append(TraceEntry(self.clock.now(), step.name))
        step.run()
        for observe in self.observers:
            observe(self)

    def next_wakeup(self) -> datetime | None:
        """The earliest future time at which a step or a clock waiter can make progress.

        A step wakeup at or before now is ignored: the step was not ready this
        round, so waiting for that moment again would spin. Clock waiters that
        are already due count (firing them is progress).
        """
        now = self.clock.now()
        times = [t for s in self.steps
                 if s.wakeup is not None and (t := s.wakeup()) is not None and t > now]
        waiter = self.clock.next_waiter_time()
        if waiter is not None:
            times.append(waiter)
        return min(times) if times else None

    def advance(self, limit: datetime | None = None) -> bool:
        """Move the clock to the next wakeup (never past `limit`). False when nothing pends."""
        wake = self.next_wakeup()
        now = self.clock.now()
        if wake is None or (limit is not None and wake > limit):
            if limit is not None and limit > now:
                self.clock.set_time(limit)
            return False
        if wake > now:
            self.clock.set_time(wake)
        else:
            self.clock.step_to_next_waiter()  # a clock waiter is due: fire it
        return True

    def run_until_idle(self, max_rounds: int = 100_000) -> None:
        """Run rounds, jumping the clock over idle gaps, until nothing can ever run again.

        Raises ScenarioDidNotSettle if `max_rounds` pass first: something keeps
        rescheduling itself (a resync period, a lease renewal). Use `run_for` for
        scenarios with periodic work.
        """
        for _ in range(max_rounds):
            if self.run_once():
                continue
            if not self.advance():
                return
        raise ScenarioDidNotSettle(self._loop_report())

    def run_for(self, seconds: float, max_rounds: int = 1_000_000) -> None:
        """Run for `seconds` of fake time: everything due before the end runs, then stop."""
        from datetime import timedelta

        end = self.clock.now() + timedelta(seconds=seconds)
        for _ in range(max_rounds):
            if self.run_once():
                continue
            if not self.advance(limit=end):
                return
        raise ScenarioDidNotSettle(self._loop_report())

    def run_until(self, predicate: Callable[[], bool], timeout: float = 3600.0,
                  max_rounds: int = 1_000_000) -> bool:
        """Run until `predicate()` holds (checked after every step); False if `timeout` fake seconds pass."""
        from datetime import timedelta

        end = self.clock.now() + timedelta(seconds=timeout)
        for _ in range(max_rounds):
            if predicate():
                return True
            if self.run_once():
                if predicate():
                    return True
                continue
            if not self.advance(limit=end) or self.clock.now() >= end:
                return predicate()
        raise ScenarioDidNotSettle(self._loop_report())

    # -- reading the trace ---------------------------------------------------------------
    def trace_text(self) -> str:
        return "\n".join(str(e) for e in self.trace)

    def trace_json_lines(self) -> str:
        return "".join(e.to_json() + "\n" for e in self.trace)

    def _loop_report(self) -> str:
        tail = self.trace[-10:]
        names = ", ".join(sorted({e.step for e in tail}))
        return (f"scenario did not settle by {self.clock.now().isoformat()}; "
                f"steps still running at the end: {names}")

    def __repr__(self) -> str:
        return f"Driver(now={self.clock.now():%H:%M:%S}, steps={len(self.steps)}, trace={len(self.trace)})"


def step_names(steps: Iterable[Step]) -> list[str]:
    """The names of `steps`, in order (handy in tests and in `minikcm demo` output)."""
    return [s.name for s in steps]


def always(_: Any = None) -> bool:
    """A `ready` function for steps that can always run (use sparingly: they never idle)."""
    return True
