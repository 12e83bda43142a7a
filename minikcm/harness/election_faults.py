"""No upstream twin. Seeded fault schedules for leader election (chapter P1, issue 13).

Three kube-controller-manager machines ("slots" `a`, `b`, `c`) run the ported
elector (minikcm.tools.leaderelection) with kube-controller-manager's timings
(lease 15 s, renew deadline 10 s, retry 2 s) against one embedded API server,
all on one driven FakeClock, stepped by the Driver. A seed picks a schedule:

- per-machine clocks: each slot sees the shared fake time through a
  SkewedClock, running at its own rate (and shifted by an offset, which must
  not matter). Within tolerance no two rates differ by more than the ratio
  upstream's package comment says the lease tolerates, LEASE_DURATION /
  RENEW_DEADLINE (1.5, see TOLERANCE): rates lie in [0.817, 1.224]. Beyond
  tolerance they range from 1/3 to 3 (a schedule counts as within whenever
  its rates happen to satisfy the ratio);
- crashes: the process on a slot dies (its steps stop; nothing is released);
- partitions: a slot's requests to the API server fail for a while (reads and
  writes, writes only, or reads only);
- API errors: for a while a fraction of a slot's requests get a 409 Conflict,
  a 500, a 504 timeout, or a timeout *after* the server applied the write,
  all through the clientset's reactor chain (minikcm.client.testing.Fake).

A process that stops leading exits, as kube-controller-manager does, and
every dead process is restarted after a few seconds under a new identity
(`a-2`, `a-3`, ...: kube-controller-manager's identity carries a fresh UUID).

Invariants, checked after every driver step, for schedules within tolerance:

1. never two live processes that both believe they lead (between their
   on_started_leading and on_stopped_leading callbacks) for longer than the
   renew deadline, in shared (real) time;
2. after the Lease's last write, if some process stayed healthy (alive,
   connected, no injected errors) for the whole window, the Lease is written
   again (by it or anyone) within TAKEOVER_BOUND / slowest rate. The bound is
   what upstream's timing guarantees, lease duration plus two jittered retry
   periods: a standby notices the last renewal up to one jittered retry
   period late (its observed_time) and then sees the expiry up to one jittered
   retry period late. `max_takeover` reports the longest gap seen, so the
   simpler "lease duration + retry period" reading of the issue can be
   compared with it (see `REPORT_BOUND`).

Beyond tolerance, the invariants are not checked; the overlaps are counted.
`beyond_tolerance_overlap()` builds the classic case upstream warns about: a
partitioned leader whose clock runs at half speed keeps believing it leads
for (retry + renew deadline) of its slow clock, 24 real seconds, while a
standby whose clock runs at twice the speed takes over after 15 of its own
seconds, 7.5 real seconds.

Run: `python -m minikcm.harness.election_faults --schedules 1000 --seed 1`.
Replay one schedule (schedule k of a run with --seed S has seed S+k):
`python -m minikcm.harness.election_faults --schedules 1 --seed <seed> --verbose`.

Start reading at: generate, then World.play, then World.observe.
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from minikcm.apimachinery import errors
from minikcm.apimachinery.convert import to_wire
from minikcm.apimachinery.schema import GroupResource
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.client.testing.actions import Action, CreateAction, UpdateAction
from minikcm.client.testing.fake import Fake
from minikcm.clock import EPOCH, FakeClock, Seconds
from minikcm.driver import Driver, Step
from minikcm.tools.leaderelection.leaderelection import (
    JITTER_FACTOR,
    LEADING,
    LeaderCallbacks,
    LeaderElectionConfig,
    LeaderElector,
    new_leader_elector,
)
from minikcm.tools.leaderelection.resourcelock import LEASES_RESOURCE_LOCK, ResourceLockConfig, new

NAMESPACE, NAME = "kube-system", "kube-controller-manager"
LEASE_DURATION, RENEW_DEADLINE, RETRY_PERIOD = 15.0, 10.0, 2.0
"""kube-controller-manager's defaults."""
SLOTS = ("a", "b", "c")
DURATION = 300.0
"""Fake seconds each schedule runs."""
TOLERANCE = Fraction(int(LEASE_DURATION), int(RENEW_DEADLINE))
"""Upstream's tolerance (package comment of leaderelection.go): the ratio of the fastest clock's rate to the
slowest's may approach lease duration / renew deadline, 15 / 10 = 1.5."""
NO_OVERLAP_RATIO = Fraction(int(LEASE_DURATION), int(RENEW_DEADLINE + RETRY_PERIOD))
"""Below this ratio (15 / 12 = 1.25) two believers never overlap at all: a cut-off leader believes for at most
retry period + renew deadline of its own clock after its last renewal, and a standby waits a lease duration
of its own clock after it saw that renewal. Between 1.25 and 1.5 they may overlap, for less than the renew
deadline (invariant 1)."""
RATE_WITHIN = (Fraction(817, 1000), Fraction(1224, 1000))
"""Within tolerance: 1.224 / 0.817 < 1.5."""
RATE_BEYOND = (Fraction(1, 3), Fraction(3, 1))
TAKEOVER_BOUND: Seconds = LEASE_DURATION + 2 * RETRY_PERIOD * (1 + JITTER_FACTOR)
"""Invariant 2, on a clock at rate 1: 15 + 2 x 4.4 = 23.8 s after the last write."""
REPORT_BOUND: Seconds = LEASE_DURATION + RETRY_PERIOD
"""The issue's reading of invariant 2 (17 s); reported, not enforced (see the module docstring)."""
API_GR = GroupResource(group="coordination.k8s.io", resource="leases")


class SkewedClock:
    """A machine's clock: the shared fake clock seen at `rate` and shifted by `offset` seconds.

    Only what a driven elector uses is provided (now, since, until, driven);
    times are whole microseconds and rounded down, so a wakeup translated back
    with `to_shared` (rounded up) always finds the step ready.
    """

    driven = True

    def __init__(self, shared: FakeClock, rate: Fraction, offset: Seconds) -> None:
        self.shared = shared
        self.rate = rate
        self.origin = shared.now()
        self.base = self.origin + timedelta(seconds=offset)

    def now(self) -> datetime:
        elapsed_us = micros(self.shared.now() - self.origin)
        return self.base + timedelta(microseconds=(elapsed_us * self.rate.numerator) // self.rate.denominator)

    def since(self, t: datetime) -> Seconds:
        return (self.now() - t).total_seconds()

    def until(self, t: datetime) -> Seconds:
        return (t - self.now()).total_seconds()

    def to_shared(self, t: datetime | None) -> datetime | None:
        """The earliest shared time at which this clock reads `t` or later."""
        if t is None:
            return None
        own_us = micros(t - self.base)
        shared_us = -((-own_us * self.rate.denominator) // self.rate.numerator)  # ceil
        return self.origin + timedelta(microseconds=shared_us)

    def __repr__(self) -> str:
        return f"SkewedClock(rate={float(self.rate):.3f}, now={self.now():%H:%M:%S.%f})"


def micros(d: timedelta) -> int:
    return (d.days * 86_400 + d.seconds) * 1_000_000 + d.microseconds


# -- schedules -------------------------------------------------------------------------


@dataclass(frozen=True)
class Fault:
    """One injected fault. `target` is a slot, or "leader" (the slot leading when it starts)."""

    kind: str  # "crash", "partition", "errors"
    at: Seconds
    target: str
    duration: Seconds = 0.0
    mode: str = ""  # partition: "both", "writes", "reads"
    fraction: float = 0.0  # errors: share of requests that fail

    def __str__(self) -> str:
        extra = {"crash": "", "partition": f" {self.mode} for {self.duration:.1f}s",
                 "errors": f" {self.fraction:.0%} for {self.duration:.1f}s"}[self.kind]
        return f"t={self.at:.1f}s {self.kind} {self.target}{extra}"


@dataclass(frozen=True)
class Schedule:
    """What one seed injects: the clocks of the slots, the faults, the restart delays."""

    seed: int
    rates: dict[str, Fraction]
    offsets: dict[str, Seconds]
    faults: tuple[Fault, ...]
    restart_delay: tuple[Seconds, Seconds] = (3.0, 30.0)

    @property
    def ratio(self) -> Fraction:
        """Fastest clock rate over slowest."""
        return max(self.rates.values()) / min(self.rates.values())

    @property
    def within_tolerance(self) -> bool:
        return self.ratio <= TOLERANCE

    def describe(self) -> str:
        rates = " ".join(f"{s}={float(r):.3f}" for s, r in sorted(self.rates.items()))
        tol = "within" if self.within_tolerance else "BEYOND"
        return f"seed {self.seed}: rates {rates} ({tol} tolerance); " + "; ".join(map(str, self.faults))


def generate(seed: int, beyond: bool | None = None) -> Schedule:
    """The schedule of `seed`. One seed in four runs beyond tolerance unless `beyond` says otherwise.

    Within tolerance, one seed in three puts every clock at an edge of the band (or at rate 1), where
    overlaps shorter than the renew deadline can happen.
    """
    rng = random.Random(seed)
    if beyond is None:
        beyond = rng.random() < 0.25
    lo, hi = RATE_BEYOND if beyond else RATE_WITHIN
    edges = not beyond and rng.random() < 1 / 3
    rates = {}
    for slot in SLOTS:
        if beyond:  # log-uniform, so slow and fast are as likely
            rates[slot] = Fraction(round(float(lo) ** (1 - 2 * rng.random()) * 1000), 1000)
        elif edges:
            rates[slot] = rng.choice((lo, hi, Fraction(1)))
        else:
            rates[slot] = Fraction(rng.randint(lo.numerator * 1000 // lo.denominator,
                                               hi.numerator * 1000 // hi.denominator), 1000)
    offsets = {slot: rng.uniform(-3600, 3600) for slot in SLOTS}
    faults = []
    for _ in range(rng.randint(2, 7)):
        kind = rng.choice(("crash", "partition", "partition", "errors", "errors"))
        at = rng.uniform(10, DURATION - 60)
        target = rng.choice(("leader", "leader") + SLOTS)
        if kind == "crash":
            faults.append(Fault("crash", at, target))
        elif kind == "partition":
            faults.append(Fault("partition", at, target, rng.uniform(1, 40), rng.choice(("both", "writes", "reads"))))
        else:
            faults.append(Fault("errors", at, target, rng.uniform(1, 40), fraction=rng.choice((0.2, 0.5, 0.9, 1.0))))
    faults.sort(key=lambda f: f.at)
    return Schedule(seed, rates, offsets, tuple(faults))


def beyond_tolerance_overlap() -> Schedule:
    """The overlap upstream warns about: leader `a` (clock at half speed) partitioned, standby `b` at double speed."""
    return Schedule(0, {"a": Fraction(1, 2), "b": Fraction(2), "c": Fraction(1)}, {"a": 0.0, "b": 0.0, "c": 0.0},
                    (Fault("crash", 0.0, "c"), Fault("partition", 30.0, "leader", 60.0, "both")),
                    restart_delay=(1000.0, 1000.0))


# -- the world -------------------------------------------------------------------------


class Process:
    """One kube-controller-manager process on a slot: its elector and whether it believes it leads."""

    def __init__(self, world: World, slot: Slot, identity: str) -> None:
        self.slot = slot
        self.identity = identity
        self.alive = True
        self.leading = False
        lock = new(LEASES_RESOURCE_LOCK, NAMESPACE, NAME, slot.client.coordination_v1(), ResourceLockConfig(identity))
        config = LeaderElectionConfig(
            lock=lock, lease_duration=LEASE_DURATION, renew_deadline=RENEW_DEADLINE, retry_period=RETRY_PERIOD,
            name=NAME, callbacks=LeaderCallbacks(self.on_started_leading, self.on_stopped_leading))
        self.elector: LeaderElector = new_leader_elector(config, clock=slot.clock,
                                                         rng=random.Random(world.rng.getrandbits(64)))
        self.world = world
        self.stop = threading.Event()

    def steps(self) -> list[Step]:
        """The elector's steps, gated on being alive, their wakeups translated to shared time."""
        def wrap(s: Step) -> Step:
            wakeup = s.wakeup
            return s.renamed(s.name, ready=lambda: self.alive and s.ready(),
                             wakeup=(lambda: self.slot.clock.to_shared(wakeup())) if wakeup is not None else None)
        return [wrap(s) for s in self.elector.steps(self.stop, record=self.world.driver.record)]

    def on_started_leading(self, stop: threading.Event) -> None:
        self.leading = True

    def on_stopped_leading(self) -> None:
        # kube-controller-manager exits when it stops leading (even if it never led).
        self.leading = False
        self.world.died(self, "stopped leading")

    def __repr__(self) -> str:
        return f"Process({self.identity!r}, alive={self.alive}, leading={self.leading}, {self.elector!r})"


class Slot:
    """A machine: its clock, its clientset (with the fault reactors) and its current process."""

    def __init__(self, world: World, name: str, rate: Fraction, offset: Seconds) -> None:
        self.world = world
        self.name = name
        self.clock = SkewedClock(world.clock, rate, offset)
        self.fake = Fake()
        self.fake.prepend_reactor("*", "leases", self.react)
        self.client = InProcessClientset(world.server, fake=self.fake)
        self.rng = random.Random(world.rng.getrandbits(64))
        self.partition: tuple[datetime, str] | None = None  # until, mode
        self.errors: tuple[datetime, float] | None = None  # until, fraction
        self.incarnation = 0
        self.process: Process | None = None
        self.restart_at: datetime | None = None
        self.bad: list[tuple[datetime, datetime | None]] = []
        """When this slot was unhealthy: no live process (end None while dead), cut off, or failing requests."""

    def start_process(self) -> None:
        self.incarnation += 1
        identity = self.name if self.incarnation == 1 else f"{self.name}-{self.incarnation}"
        self.process = Process(self.world, self, identity)
        self.world.driver.add_all(self.process.steps())
        self.restart_at = None
        if self.bad and self.bad[-1][1] is None:
            self.bad[-1] = (self.bad[-1][0], self.world.clock.now())
        self.world.note(f"start {identity}")

    def react(self, action: Action) -> tuple[bool, Any, BaseException | None]:
        """The reactor in front of this slot's clientset: partitions and injected API errors."""
        now = self.world.clock.now()
        self.fake.clear_actions()  # keep no record: nobody reads it, and schedules are long
        if self.partition is not None and now < self.partition[0]:
            mode = self.partition[1]
            is_write = action.verb in ("create", "update")
            if mode == "both" or (mode == "writes") == is_write:
                return True, None, ConnectionError(f"{self.name}: cut off from the API server ({mode})")
        if self.errors is not None and now < self.errors[0] and self.rng.random() < self.errors[1]:
            kind = self.rng.choice(("409", "500", "504", "504-after"))
            name = action.name if hasattr(action, "name") and action.name else NAME
            if kind == "409" and action.verb in ("create", "update"):
                return True, None, errors.new_conflict(API_GR, name, "injected conflict")
            if kind == "500":
                return True, None, errors.new_internal_error("injected")
            if kind == "504-after" and isinstance(action, (CreateAction, UpdateAction)):
                wire = to_wire(action.object)
                if isinstance(action, CreateAction):
                    self.world.server.create("leases", NAMESPACE, wire)
                else:
                    self.world.server.update("leases", NAMESPACE, wire)
                return True, None, errors.new_timeout_error("injected: applied, answer lost", 1)
            return True, None, errors.new_timeout_error("injected", 1)
        return False, None, None

    def healthy_throughout(self, start: datetime, end: datetime) -> bool:
        """No unhealthy stretch of this slot touches [start, end]."""
        return not any(s <= end and (e is None or e > start) for s, e in self.bad)


@dataclass
class Result:
    """What a schedule did and which invariants it broke."""

    schedule: Schedule
    violations: list[str] = field(default_factory=list)
    max_overlap: Seconds = 0.0
    """Longest stretch (shared seconds) in which two or more live processes believed they led."""
    max_takeover: Seconds = 0.0
    """Longest gap between two Lease writes that invariant 2 covers (a healthy process was there),
    in seconds of the slowest clock (shared seconds times the slowest rate), to compare with TAKEOVER_BOUND."""
    over_report_bound: int = 0
    """How many such gaps exceeded REPORT_BOUND (lease duration + retry period, scaled by the slowest rate)."""
    transitions: int = 0
    log: list[str] = field(default_factory=list)
    """Faults, deaths, restarts and overlaps, one line each: `<seconds since start> <what>`."""
    trace: list[str] = field(default_factory=list)
    """Every elector decision (the driver's trace), in the same format."""

    def story(self) -> list[str]:
        """The log and the trace merged in time order: what `--verbose` prints for a replay."""
        return sorted(self.log + self.trace, key=lambda line: float(line.split()[0]))


class World:
    """One schedule played on the driver (see the module docstring)."""

    def __init__(self, schedule: Schedule) -> None:
        self.schedule = schedule
        self.rng = random.Random(schedule.seed)
        self.clock = FakeClock(EPOCH, driven=True)
        self.server = APIServer(clock=self.clock, rng=random.Random(self.rng.getrandbits(64)))
        self.driver = Driver(self.clock, trace_steps=False)
        self.result = Result(schedule)
        self.slots = {s: Slot(self, s, schedule.rates[s], schedule.offsets[s]) for s in SLOTS}
        self.pending = list(schedule.faults)
        self.start = self.clock.now()
        self.overlap_since: datetime | None = None
        self.last_write: datetime | None = None
        self.last_rv: str | None = None
        self.min_rate = min(schedule.rates.values())
        self.bound = TAKEOVER_BOUND / float(self.min_rate)
        self.driver.add(Step("faults", self.fault_ready, self.apply_fault, self.fault_wakeup))
        for slot in self.slots.values():
            slot.start_process()
        self.driver.add(Step("restarts", self.restart_ready, self.restart, self.restart_wakeup))
        self.driver.observers.append(self.observe)

    # -- faults and restarts -------------------------------------------------------------

    def t(self, when: datetime | None = None) -> float:
        return ((when or self.clock.now()) - self.start).total_seconds()

    def at(self, seconds: Seconds) -> datetime:
        return self.start + timedelta(seconds=seconds)

    def note(self, line: str) -> None:
        self.result.log.append(f"{self.t():8.3f} {line}")

    def fault_ready(self) -> bool:
        return bool(self.pending) and self.clock.now() >= self.at(self.pending[0].at)

    def fault_wakeup(self) -> datetime | None:
        return self.at(self.pending[0].at) if self.pending else None

    def apply_fault(self) -> None:
        fault = self.pending.pop(0)
        slot = self.leader_slot() if fault.target == "leader" else self.slots[fault.target]
        if slot is None:
            self.note(f"{fault}: no leader, skipped")
            return
        now = self.clock.now()
        until = now + timedelta(seconds=fault.duration)
        if fault.kind == "crash":
            if slot.process is not None and slot.process.alive:
                self.died(slot.process, "crashed")
        elif fault.kind == "partition":
            slot.partition = (max(until, slot.partition[0]) if slot.partition else until, fault.mode)
            slot.bad.append((now, until))
        else:
            slot.errors = (max(until, slot.errors[0]) if slot.errors else until, fault.fraction)
            slot.bad.append((now, until))
        self.note(f"{fault} -> slot {slot.name}")

    def died(self, process: Process, why: str) -> None:
        process.alive = False
        process.leading = False
        slot = process.slot
        self.driver.remove(f"leaderelection/{process.identity}/")
        lo, hi = self.schedule.restart_delay
        slot.restart_at = self.clock.now() + timedelta(seconds=self.rng.uniform(lo, hi))
        slot.bad.append((self.clock.now(), None))
        self.note(f"{process.identity} {why}")

    def restart_ready(self) -> bool:
        now = self.clock.now()
        return any(s.restart_at is not None and now >= s.restart_at for s in self.slots.values())

    def restart_wakeup(self) -> datetime | None:
        times = [s.restart_at for s in self.slots.values() if s.restart_at is not None]
        return min(times) if times else None

    def restart(self) -> None:
        now = self.clock.now()
        for slot in self.slots.values():
            if slot.restart_at is not None and now >= slot.restart_at:
                slot.start_process()

    def leader_slot(self) -> Slot | None:
        leaders = [s for s in self.slots.values() if s.process is not None and s.process.alive and s.process.leading]
        return leaders[0] if len(leaders) == 1 else None

    # -- invariants ----------------------------------------------------------------------

    def believers(self) -> list[str]:
        return sorted(s.process.identity for s in self.slots.values()
                      if s.process is not None and s.process.alive and s.process.leading
                      and s.process.elector.state == LEADING)

    def observe(self, _: Driver | None = None) -> None:
        """After every step: overlap of believers (invariant 1) and staleness of the Lease (invariant 2)."""
        now = self.clock.now()
        believers = self.believers()
        if len(believers) >= 2:
            if self.overlap_since is None:
                self.overlap_since = now
                self.note(f"overlap begins: {believers}")
            self.check_overlap(now, believers)
        elif self.overlap_since is not None:
            self.check_overlap(now, believers)
            self.note(f"overlap ends after {(now - self.overlap_since).total_seconds():.3f}s")
            self.overlap_since = None
        try:
            rv = self.server.get("leases", NAMESPACE, NAME)["metadata"]["resourceVersion"]
        except errors.StatusError:
            rv = None
        if rv is not None and rv != self.last_rv:
            if self.last_write is not None:
                self.check_gap(self.last_write, now)
            self.last_rv, self.last_write = rv, now
            self.result.transitions = self.lease_transitions()

    def check_overlap(self, now: datetime, believers: list[str]) -> None:
        assert self.overlap_since is not None
        length = (now - self.overlap_since).total_seconds()
        self.result.max_overlap = max(self.result.max_overlap, length)
        if self.schedule.within_tolerance and length > RENEW_DEADLINE:
            msg = f"t={self.t():.3f}s: {believers} believed they led for {length:.3f}s > {RENEW_DEADLINE}s"
            if msg.split(":")[0] not in {v.split(":")[0] for v in self.result.violations}:
                self.result.violations.append(msg)

    def check_gap(self, since: datetime, now: datetime) -> None:
        """Invariant 2 for the gap between the Lease write at `since` and the next one (or the end) at `now`."""
        gap = (now - since).total_seconds()
        window_end = since + timedelta(seconds=self.bound)
        covered = [s.name for s in self.slots.values() if s.healthy_throughout(since, window_end)]
        if not covered:
            return
        self.result.max_takeover = max(self.result.max_takeover, gap * float(self.min_rate))
        if gap > REPORT_BOUND / float(self.min_rate):
            self.result.over_report_bound += 1
        if self.schedule.within_tolerance and gap > self.bound:
            self.result.violations.append(
                f"t={self.t(since):.3f}s: the Lease was not written for {gap:.3f}s > {self.bound:.3f}s "
                f"although {covered} stayed healthy")

    def lease_transitions(self) -> int:
        try:
            return int(self.server.get("leases", NAMESPACE, NAME)["spec"].get("leaseTransitions", 0))
        except errors.StatusError:
            return 0

    # -- the script ----------------------------------------------------------------------

    def play(self) -> Result:
        self.driver.run_for(DURATION)
        now = self.clock.now()
        self.observe()
        if self.overlap_since is not None:
            self.check_overlap(now, self.believers())
        if self.last_write is not None and (now - self.last_write).total_seconds() > self.bound:
            self.check_gap(self.last_write, now)
        self.result.trace = [f"{self.t(e.time):8.3f} {e.step} {e.detail}" for e in self.driver.trace]
        return self.result


def run_schedule(schedule: Schedule) -> Result:
    """Play one schedule and return what happened."""
    return World(schedule).play()


# -- command line ----------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """`python -m minikcm.harness.election_faults --schedules N --seed S [--verbose]`: exit 1 on any violation."""
    parser = argparse.ArgumentParser(prog="python -m minikcm.harness.election_faults", description=__doc__.split("\n")[0])
    parser.add_argument("--schedules", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="print each schedule and its fault log")
    args = parser.parse_args(argv)
    log = logging.getLogger("minikcm")
    level = log.level
    log.setLevel(logging.CRITICAL)  # the electors log every injected failure
    try:
        return run_schedules(args)
    finally:
        log.setLevel(level)  # a caller in the same process (a test) keeps its logging


def run_schedules(args: argparse.Namespace) -> int:
    """No upstream twin. The body of `main`: run, print the report, 1 on any violation."""
    started = time.monotonic()
    violations = within = beyond = beyond_overlaps = over_report = within_overlaps = 0
    max_overlap = max_takeover = 0.0
    for k in range(args.schedules):
        result = run_schedule(generate(args.seed + k))
        schedule = result.schedule
        if schedule.within_tolerance:
            within += 1
            max_overlap = max(max_overlap, result.max_overlap)
            within_overlaps += result.max_overlap > 0
            max_takeover = max(max_takeover, result.max_takeover)
            over_report += result.over_report_bound
        else:
            beyond += 1
            beyond_overlaps += result.max_overlap > RENEW_DEADLINE
        if args.verbose:
            print(schedule.describe())
            print("\n".join(result.story()))
        if result.violations:
            violations += len(result.violations)
            print(f"VIOLATION {schedule.describe()}")
            for v in result.violations:
                print(f"  {v}")
            print(f"  replay: python -m minikcm.harness.election_faults --schedules 1 --seed {schedule.seed} --verbose")
    elapsed = time.monotonic() - started
    print(f"{args.schedules} schedules (seeds {args.seed}..{args.seed + args.schedules - 1}) in {elapsed:.1f}s: "
          f"{within} within tolerance, {beyond} beyond; violations: {violations}")
    print(f"within tolerance: {within_overlaps} schedules with two believers at some point, "
          f"longest overlap {max_overlap:.3f}s (limit {RENEW_DEADLINE}s); "
          f"longest Lease gap with a healthy standby {max_takeover:.3f}s of the slowest clock "
          f"(bound {TAKEOVER_BOUND}s); gaps over lease+retry ({REPORT_BOUND}s): {over_report}")
    print(f"beyond tolerance: {beyond_overlaps} schedules with two believers for more than {RENEW_DEADLINE}s")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
