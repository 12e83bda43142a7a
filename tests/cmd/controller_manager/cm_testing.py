"""Test doubles for the controller manager tests: fake controllers, a scaled clock, a small cluster.

`TickingController` is a controller that does nothing but note, once per
second of its own clock, that it is running; the notes show which process
ran controllers when. `ScaledClock` is a process clock that runs `rate` times
as fast as the shared FakeClock. `Cluster` puts several `ControllerManager`
processes on one in-process API server and one driver, each with its own
clientset (so a reactor can cut one process off the API server).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import pytest

from minikcm.apimachinery.meta import GetOptions
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.client.testing import Fake
from minikcm.clock import EPOCH, FakeClock, Seconds
from minikcm.cmd.controller_manager import (
    ControllerManager,
    apps,
    core,
    controller_aliases,
    controllers_disabled_by_default,
    known_controllers,
)
from minikcm.cmd.controller_manager.controller_descriptor import ControllerDescriptor
from minikcm.cmd.options import new_kube_controller_manager_options
from minikcm.driver import Driver, Step

NAMESPACE, NAME = "kube-system", "kube-controller-manager"
FAKE_CONTROLLER = "fake-controller"


class ScaledClock:
    """A process clock running `rate` times as fast as `base` (both start at `base.now()`).

    Only now/since/until are used by deterministic runs; waiting on it is not supported.
    """

    def __init__(self, base: FakeClock, rate: float) -> None:
        self.base = base
        self.rate = rate
        self.origin = base.now()
        self.driven = base.driven  # the base's driver moves this clock too: steps, no threads

    def now(self) -> datetime:
        return self.origin + (self.base.now() - self.origin) * self.rate

    def since(self, t: datetime) -> Seconds:
        return (self.now() - t).total_seconds()

    def until(self, t: datetime) -> Seconds:
        return (t - self.now()).total_seconds()

    def to_base(self, t: datetime) -> datetime:
        """The earliest shared-clock time at which this clock shows `t` or later.

        Rounded up to whole microseconds: a wakeup reported a microsecond early
        would find its step not ready, and the driver would stop early.
        """
        base = self.origin + (t - self.origin) / self.rate
        while self.origin + (base - self.origin) * self.rate < t:
            base += timedelta(microseconds=1)
        return base

    def sleep(self, d: Seconds, stop: threading.Event | None = None) -> bool:
        raise NotImplementedError("ScaledClock is for deterministic runs")

    def new_timer(self, d: Seconds):  # pragma: no cover - not used
        raise NotImplementedError("ScaledClock is for deterministic runs")

    after = new_timer
    new_ticker = new_timer


@dataclass
class TickLog:
    """Every tick of every fake controller: (driver time, process identity)."""

    clock: FakeClock
    ticks: list[tuple[datetime, str]] = field(default_factory=list)

    def note(self, who: str) -> None:
        self.ticks.append((self.clock.now(), who))

    def who(self) -> list[str]:
        """Processes that ticked, in order of their first tick."""
        seen: list[str] = []
        for _, w in self.ticks:
            if w not in seen:
                seen.append(w)
        return seen

    def span(self, who: str) -> tuple[datetime, datetime]:
        times = [t for t, w in self.ticks if w == who]
        return min(times), max(times)


class TickingController:
    """A controller that notes into a TickLog once per second of its process clock, until stopped."""

    def __init__(self, controller_name: str, who: str, clock, log: TickLog) -> None:
        self.controller_name = controller_name
        self.who = who
        self.clock = clock
        self.log = log
        self.next_tick: datetime | None = None
        self.ran_threaded = False

    def name(self) -> str:
        return self.controller_name

    def run(self, stop: threading.Event) -> None:
        self.ran_threaded = True
        stop.wait()

    def steps(self, stop: threading.Event) -> list[Step]:
        self.next_tick = self.clock.now()

        def ready() -> bool:
            return not stop.is_set() and self.clock.now() >= self.next_tick

        def tick() -> None:
            self.log.note(self.who)
            self.next_tick = self.clock.now() + timedelta(seconds=1)

        return [Step("tick", ready, tick, lambda: self.next_tick)]


def ticking_descriptors(who: str, clock, log: TickLog):
    """A descriptor registry holding only the ticking fake controller."""

    def new_descriptors() -> dict[str, ControllerDescriptor]:
        def construct(controller_ctx, controller_name):
            return TickingController(controller_name, who, clock, log)

        return {FAKE_CONTROLLER: ControllerDescriptor(FAKE_CONTROLLER, construct)}

    return new_descriptors


def new_config(client, clock, rng, *args: str):
    """A CompletedConfig from kube-controller-manager flags, over `client`, for deterministic runs."""
    options = new_kube_controller_manager_options()
    options.flags(known_controllers(), controllers_disabled_by_default(), controller_aliases()).parse_args(list(args))
    c = options.config(known_controllers(), controllers_disabled_by_default(), controller_aliases(),
                       client=client, clock=clock, rng=rng)
    return c.complete()


class Unreachable(ConnectionRefusedError):
    """What a client sees when the API server cannot be reached."""


class Cluster:
    """Controller manager processes over one API server, one driver and one FakeClock."""

    def __init__(self, seed: int = 1) -> None:
        self.clock = FakeClock(EPOCH, driven=True)
        self.server = APIServer(clock=self.clock, rng=random.Random(seed))
        self.driver = Driver(self.clock)
        self.log = TickLog(self.clock)
        self.managers: dict[str, ControllerManager] = {}
        self.clients: dict[str, InProcessClientset] = {}
        self.max_running = 0  # most processes running controllers at one moment
        self.driver.observers.append(self.observe)

    def add(self, who: str, *flags: str, rate: float = 1.0, release_on_cancel: bool = False,
            seed: int | None = None) -> ControllerManager:
        client = InProcessClientset(self.server, fake=Fake())
        clock = self.clock if rate == 1.0 else ScaledClock(self.clock, rate)
        rng = random.Random(seed if seed is not None else sum(map(ord, who)))
        c = new_config(client, clock, rng, *flags)
        cm = ControllerManager(
            c, self.driver, identity=who, clock=clock, rng=rng,
            new_descriptors=ticking_descriptors(who, clock, self.log),
            clock_to_driver=clock.to_base if isinstance(clock, ScaledClock) else None,
            release_on_cancel=release_on_cancel,
        )
        self.managers[who] = cm
        self.clients[who] = client
        self.driver.add_all(cm.steps())
        return cm

    def observe(self, driver: Driver) -> None:
        running = sum(1 for cm in self.managers.values() if cm.running_controllers())
        self.max_running = max(self.max_running, running)

    def running(self) -> list[str]:
        return sorted(who for who, cm in self.managers.items() if cm.running_controllers())

    def partition(self, who: str) -> None:
        """Cut `who` off the API server: every call its clientset makes fails."""

        def unreachable(action):
            return True, None, Unreachable(f"dial tcp 127.0.0.1:6443: connect: connection refused ({action})")

        fake = self.clients[who].fake
        assert fake is not None
        fake.prepend_reactor("*", "*", unreachable)

    def lease(self):
        return InProcessClientset(self.server).coordination_v1().leases(NAMESPACE).get(NAME, GetOptions())

    def lease_renewals(self) -> list[tuple[datetime, str]]:
        """(driver time, holder) of every successful renewal seen in the trace."""
        return [(e.time, e.step.split("/")[1]) for e in self.driver.trace
                if e.step.startswith("leaderelection/") and e.detail in ("renewed", "became leader")]


@pytest.fixture
def no_ported_controllers(monkeypatch):
    """Make the four ported controllers' constructors build nothing (as a disabled one does).

    For tests of the registry and of the process around it, without the controllers' own work.
    """
    def build_nothing(controller_ctx, controller_name):
        return None

    for module, constructor in ((apps, "new_deployment_controller"), (apps, "new_replica_set_controller"),
                                (apps, "new_stateful_set_controller"), (core, "new_garbage_collector_controller")):
        monkeypatch.setattr(module, constructor, build_nothing)
