"""No upstream twin. Chapter P1 scenario: `leader-failover`.

Three kube-controller-manager candidates, `kcm-a`, `kcm-b` and `kcm-c`, run
leader election (minikcm.tools.leaderelection) against one embedded API server,
with a LeaseLock on `kube-system/kube-controller-manager` and the default
timings of kube-controller-manager (lease 15 s, renew deadline 10 s, retry 2 s).
The first candidate to try takes the Lease and renews it every 2 s; the others
retry every 2 to 4.4 s (jittered from the seed) and back off while the record keeps changing.
At t=30 s the leader crashes: its steps leave the driver, nothing is released.
A follower takes over once it has seen no change in the Lease for a whole
lease duration, measured on its own clock from when it last saw a change.

Series: `lease holder`, `leader transitions`, `leaders` (how many candidates
believe they lead: never more than one), and `<candidate> is leader`.

Start reading at: LeaderFailover.play, then LeaderFailover.observe.
Good breakpoints: LeaderElector.try_acquire_or_renew, LeaderElector.renew_step.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from minikcm.apimachinery import errors
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.driver import Driver
from minikcm.sim.scenarios.base import Run
from minikcm.tools.leaderelection.leaderelection import (
    JITTER_FACTOR,
    LeaderCallbacks,
    LeaderElectionConfig,
    LeaderElector,
    new_leader_elector,
)
from minikcm.tools.leaderelection.resourcelock import LEASES_RESOURCE_LOCK, ResourceLockConfig, new

NAMESPACE, NAME = "kube-system", "kube-controller-manager"
"""The Lease kube-controller-manager elects its leader with."""
CANDIDATES = ("kcm-a", "kcm-b", "kcm-c")
LEASE_DURATION, RENEW_DEADLINE, RETRY_PERIOD = 15.0, 10.0, 2.0
"""kube-controller-manager's defaults (--leader-elect-lease-duration and friends)."""
CRASH_AT = 30.0
"""Fake seconds after the start at which the leader crashes."""
TAKEOVER_BOUND = LEASE_DURATION + RETRY_PERIOD * (1 + JITTER_FACTOR)
"""A follower takes over at most this long after it last saw the Lease change: 15 + 4.4 s."""


@dataclass(frozen=True)
class Takeover:
    """Who took over after the crash, when, and when it had last seen the Lease change."""

    who: str
    at: datetime
    last_seen_renewal: datetime
    """The winner's observed_time just before it took over: when it last saw the record change."""

    @property
    def after(self) -> float:
        """Seconds from the last change the winner saw to its takeover (15 to 19.4 s)."""
        return (self.at - self.last_seen_renewal).total_seconds()


class LeaseEvents:
    """The lock's event recorder: each "became leader" / "stopped leading" becomes a scenario event."""

    def __init__(self, run: Run) -> None:
        self.run = run

    def eventf(self, obj: Any, event_type: str, reason: str, message_fmt: str, *args: Any) -> None:
        self.run.event(f"{event_type} {reason} {message_fmt % args}")


class Candidate:
    """One kube-controller-manager process: its elector and the callbacks it was given."""

    def __init__(self, who: str, scenario: LeaderFailover, elector_rng: random.Random) -> None:
        self.who = who
        self.scenario = scenario
        lock = new(LEASES_RESOURCE_LOCK, NAMESPACE, NAME, scenario.client.coordination_v1(),
                   ResourceLockConfig(who, scenario.lease_events))
        config = LeaderElectionConfig(
            lock=lock, lease_duration=LEASE_DURATION, renew_deadline=RENEW_DEADLINE,
            retry_period=RETRY_PERIOD, name=NAME,
            callbacks=LeaderCallbacks(self.on_started_leading, self.on_stopped_leading))
        self.elector: LeaderElector = new_leader_elector(config, clock=scenario.clock, rng=elector_rng)
        self.stop = threading.Event()

    def on_started_leading(self, stop: threading.Event) -> None:
        """Where kube-controller-manager would start its controllers."""
        self.scenario.leading.add(self.who)

    def on_stopped_leading(self) -> None:
        self.scenario.leading.discard(self.who)

    def __repr__(self) -> str:
        return f"Candidate({self.who!r}, {self.elector!r})"


class LeaderFailover:
    """The `leader-failover` world and its script (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        self.clock = FakeClock(EPOCH, driven=True)
        self.server = APIServer(clock=self.clock, rng=random.Random(rng.getrandbits(64)))
        self.client = InProcessClientset(self.server)
        self.driver = Driver(self.clock, trace_steps=False)  # every elector step narrates its decision
        self.leading: set[str] = set()
        """Candidates whose on_started_leading ran and that have neither stopped nor crashed."""
        self.run = Run("leader-failover", seed, self.clock, self.driver, self.play)
        self.lease_events = LeaseEvents(self.run)
        self.candidates = {who: Candidate(who, self, random.Random(rng.getrandbits(64))) for who in CANDIDATES}
        for candidate in self.candidates.values():
            self.driver.add_all(candidate.elector.steps(candidate.stop, record=self.driver.record))
        self.crashed: str | None = None
        self.last_renewal: datetime | None = None
        """The crashed leader's last renewTime in the Lease."""
        self.takeover: Takeover | None = None
        self.max_leaders = 0
        self._leading_before: set[str] = set()
        self._observed_before = {who: c.elector.observed_time for who, c in self.candidates.items()}

        sampler = self.run.sampler
        sampler.watch("lease holder", self.lease_holder)
        sampler.watch("leader transitions", self.leader_transitions)
        sampler.watch("leaders", self.leader_count)
        for who in CANDIDATES:
            sampler.watch(f"{who} is leader", self.is_leader_probe(who))
        self.driver.observers.append(self.observe)
        self.run.objects.update(server=self.server, client=self.client, candidates=self.candidates,
                                scenario=self)

    # -- the script --------------------------------------------------------------------

    def play(self) -> None:
        """Run to t=30 s, crash the leader, run until another candidate leads, then 20 s more."""
        self.driver.run_for(CRASH_AT)
        leader = self.sole_leader()
        if leader is None:
            raise RuntimeError(f"no single leader at t={CRASH_AT} s (leading: {sorted(self.leading)})")
        self.crash(leader)
        if not self.driver.run_until(self.someone_took_over, timeout=4 * LEASE_DURATION):
            raise RuntimeError("nobody took over within four lease durations of the crash")
        self.driver.run_for(20.0)

    def crash(self, who: str) -> None:
        """The process dies: its steps vanish, the Lease is not released, its controllers stop with it."""
        lease = self.lease()
        self.last_renewal = self.lease_renew_time(lease) if lease else None
        self.driver.remove(f"leaderelection/{who}/")
        self.leading.discard(who)
        self.crashed = who
        self.run.event(f"{who} crashed (no release); the Lease still names it until it expires")

    def someone_took_over(self) -> bool:
        return self.takeover is not None

    # -- what the sampler and the observer read ------------------------------------------

    def observe(self, driver: Driver) -> None:
        """After each step: count leaders, and note a takeover with what the winner had last seen."""
        self.max_leaders = max(self.max_leaders, len(self.leading))
        for who in sorted(self.leading - self._leading_before):
            if self.crashed is not None and self.takeover is None:
                self.takeover = Takeover(who, self.clock.now(), self._observed_before[who])
                self.run.event(f"{who} took over {self.takeover.after:.3f} s after it last saw the Lease "
                               f"change (at most {LEASE_DURATION:g} + {RETRY_PERIOD:g} x "
                               f"{1 + JITTER_FACTOR:g} = {TAKEOVER_BOUND:g} s)")
        self._leading_before = set(self.leading)
        self._observed_before = {who: c.elector.observed_time for who, c in self.candidates.items()}

    def lease(self) -> dict[str, Any]:
        """The Lease as the server holds it ({} before anyone created it)."""
        try:
            return self.server.get("leases", NAMESPACE, NAME)
        except errors.StatusError as err:
            if errors.is_not_found(err):
                return {}
            raise

    @staticmethod
    def lease_renew_time(lease: dict[str, Any]) -> datetime:
        return datetime.fromisoformat(lease["spec"]["renewTime"].replace("Z", "+00:00"))

    def lease_holder(self) -> str:
        return self.lease().get("spec", {}).get("holderIdentity") or ""

    def leader_transitions(self) -> int:
        return int(self.lease().get("spec", {}).get("leaseTransitions") or 0)

    def leader_count(self) -> int:
        return len(self.leading)

    def is_leader_probe(self, who: str) -> Callable[[], bool]:
        """The probe of series `<who> is leader`."""
        def is_leader() -> bool:
            return who in self.leading
        return is_leader

    def sole_leader(self) -> str | None:
        return next(iter(self.leading)) if len(self.leading) == 1 else None

    def __repr__(self) -> str:
        return f"LeaderFailover(leading={sorted(self.leading)}, crashed={self.crashed!r}, takeover={self.takeover})"


def build_leader_failover(seed: int) -> Run:
    """Scenario `leader-failover` (chapter P1): the world, ready to play."""
    return LeaderFailover(seed).run
