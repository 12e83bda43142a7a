"""No upstream twin. One kube-controller-manager process as steps of the deterministic driver.

`ControllerManager` is controllermanager.ControllerManager (Run) handed to a
driver: the election's steps instead of run_or_die's thread, and each
controller's jittered start as a step due at that time instead of a thread
that sleeps (run_controllers). Everything else is Run's own code. What only a
simulation needs is here too: step names per process (several share one
driver), a process clock that runs at its own rate, and `kill` (SIGKILL: the
steps vanish, nothing is released); `cancel` is SIGTERM.
"""

from __future__ import annotations

import functools
import logging
import random
import threading
from collections.abc import Callable
from datetime import datetime, timedelta

from minikcm.apimachinery import wait
from minikcm.clock import Clock
from minikcm.cmd.controller_manager import controllermanager as cm
from minikcm.cmd.controller_manager.config import CompletedConfig
from minikcm.cmd.controller_manager.controller_descriptor import Controller
from minikcm.driver import Driver, Step
from minikcm.tools.leaderelection.leaderelection import LeaderElector, new_leader_elector

logger = logging.getLogger(__name__)

KILLED = "killed"


class ControllerManager(cm.ControllerManager):
    """No upstream twin: one kube-controller-manager process under the deterministic driver.

    Every step name starts with `controller-manager/<identity>/`. `clock` is
    this process's clock (default: the driver's); when it is not the driver's,
    `clock_to_driver` converts its times for the steps' wakeups. Both must be
    driven, and so must the config's event broadcaster's clock. `release_on_cancel`
    has no kube-controller-manager flag; it shows client-go's option.
    Thread: the driver's; not locked.
    """

    def __init__(self, c: CompletedConfig, driver: Driver, identity: str | None = None, clock: Clock | None = None,
                 rng: random.Random | None = None,
                 new_descriptors: cm.DescriptorsFunc = cm.new_controller_descriptors,
                 new_informer_factory: cm.InformerFactoryFunc | None = None,
                 clock_to_driver: Callable[[datetime], datetime] | None = None, release_on_cancel: bool = False) -> None:
        clock = clock if clock is not None else driver.clock
        if not clock.driven:
            raise ValueError(f"ControllerManager needs a driven clock (FakeClock(..., driven=True)), got {clock!r}")
        super().__init__(c, identity, clock, rng if rng is not None else random.Random(0), new_descriptors,
                         new_informer_factory)
        self.driver = driver
        self.record = driver.record
        self.clock_to_driver = clock_to_driver
        self.release_on_cancel = release_on_cancel
        self.elector: LeaderElector | None = None
        self.leading_stop = threading.Event()
        self.start_at: dict[str, datetime] = {}  # controllers not yet started -> when they are due
        self.running: list[str] = []  # controllers started and not yet stopped

    def steps(self) -> list[Step]:
        """Run's start: the events pipeline, then the election's steps (or the run step, without election).

        Raises: RuntimeError for a bad lock or election config (Go: RunOrDie panics).
        """
        logger.info("starting %s %s", cm.KUBE_CONTROLLER_MANAGER, self.identity)
        cm.start_events_pipeline(self.c)
        broadcaster = self.c.event_broadcaster
        events = [self.adopt(s, "events/" + s.name) for s in broadcaster.steps()] if broadcaster else []
        le = self.c.component_config.generic.leader_election
        if not le.leader_elect:
            self.state = cm.CAMPAIGNING
            return [self.adopt(Step("run", self.run_ready, self.run_directly)),
                    self.adopt(Step("shutdown", self.shutdown_ready, self.shutdown)), *events]
        config = cm.new_leader_election_config(self.c, self.identity, None, le.resource_lock, le.resource_name,
                                               self.callbacks())
        config.release_on_cancel = self.release_on_cancel
        try:
            self.elector = new_leader_elector(config, clock=self.clock, rng=self.rng)
        except ValueError as err:
            raise RuntimeError(str(err)) from err  # Go: RunOrDie panics on a bad config
        self.state = cm.CAMPAIGNING
        return [*(self.adopt(s, "leaderelection/" + s.name.rsplit("/", 1)[-1])
                  for s in self.elector.steps(self.stop, record=self.driver.record)), *events]

    def adopt(self, step: Step, name: str | None = None) -> Step:
        """`step` under this process's prefix, with its wakeup in driver time."""
        wakeup, convert = step.wakeup, self.clock_to_driver
        if wakeup is not None and convert is not None:
            wakeup = functools.partial(lambda w: None if (t := w()) is None else convert(t), wakeup)
        return step.renamed(f"controller-manager/{self.identity}/{name or step.name}", wakeup=wakeup)

    def run_leading(self, leading_stop: threading.Event) -> None:
        """Run's local `run` on a driven clock: start the term, then the informers' steps and a start step per
        controller due a jittered interval later (threaded: run_controllers). The term ends in `shutdown`."""
        self.leading_stop = leading_stop
        self.start_leading(leading_stop)
        assert self.controller_ctx is not None
        new_steps = [self.adopt(s, "informers/" + s.name) for s in self.controller_ctx.informer_factory.steps()]
        interval = self.c.component_config.generic.controller_start_interval
        for controller in self.controllers:
            delay = wait.jitter(interval, cm.CONTROLLER_START_JITTER, self.rng)
            self.start_at[controller.name()] = self.clock.now() + timedelta(seconds=delay)
            new_steps.append(self.adopt(Step(f"controllers/{controller.name()}/start",
                                             functools.partial(self.start_due, controller.name()),
                                             functools.partial(self.start_controller, controller),
                                             functools.partial(self.start_at.get, controller.name()))))
        self.driver.add_all(new_steps)

    def start_due(self, name: str) -> bool:
        at = self.start_at.get(name)
        return at is not None and not self.leading_stop.is_set() and self.clock.now() >= at

    def start_controller(self, controller: Controller) -> None:
        """One controller goroutine of RunControllers after its sleep: its steps join the driver."""
        del self.start_at[controller.name()]
        stepped = controller.steps(self.leading_stop)  # type: ignore[attr-defined]
        self.driver.add_all(self.adopt(s, f"controllers/{controller.name()}/{s.name}") for s in stepped)
        self.running.append(controller.name())
        self.note("run", f"controller {controller.name()} started")

    def stopped_leading(self) -> None:
        super().stopped_leading()
        self.shutdown()

    def run_ready(self) -> bool:
        return self.state == cm.CAMPAIGNING and not self.stop.is_set()

    def run_directly(self) -> None:
        """Run's no-leader-election path: the term at once, until cancel()."""
        self.started_leading(self.stop)
        if self.errors:  # Go: Run returns run's error
            self.shutdown()

    def shutdown_ready(self) -> bool:
        return self.state == cm.RUNNING and self.stop.is_set()

    def shutdown(self) -> None:
        """The end of the term and of Run: the controllers' and informers' steps go, the informers shut down."""
        for prefix in ("controllers/", "informers/"):
            self.driver.remove(f"controller-manager/{self.identity}/{prefix}")
        self.end_leading()
        if self.running:
            self.note("run", "all controllers terminated")
        self.running, self.start_at = [], {}
        self.state = cm.STOPPED
        cm.shutdown_events_pipeline(self.c)  # Go: Run's deferred Shutdown

    def kill(self) -> None:
        """SIGKILL: drop every step of this process from the driver; nothing is released or cleaned up."""
        self.driver.remove(f"controller-manager/{self.identity}/")
        self.running = []
        self.state = KILLED

    def running_controllers(self) -> list[str]:
        return list(self.running)

    def is_leader(self) -> bool:
        return self.elector is not None and self.state == cm.RUNNING and self.elector.is_leader()

    def __repr__(self) -> str:
        return f"ControllerManager({self.identity!r}, state={self.state}, running={self.running})"
