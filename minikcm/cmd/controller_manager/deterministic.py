"""No upstream twin. One kube-controller-manager process as steps of the deterministic driver.

`ControllerManager` runs what `run` (minikcm.cmd.controller_manager.controllermanager)
runs in threads, as driver steps: leader election steps first, then, once
leading, the informer steps and one start step per controller, which adds that
controller's own steps. Several instances can share one API server and one
FakeClock, which is how the scenarios and tests show failover.

Start reading at: ControllerManager.steps, then ControllerManager.started_leading
and ControllerManager.start_controllers.

Differs from Go (compared with Run in cmd/kube-controller-manager/app/controllermanager.go):
- No goroutines: each piece of work is a step, and a controller's jittered
  start is a step of its own (`ControllerStart`) that waits on the clock.
- `cancel()` stands for SIGTERM (Run's context is cancelled) and `kill()` for
  SIGKILL (the steps vanish; nothing is released).
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from datetime import datetime, timedelta

from minikcm.apimachinery import wait
from minikcm.clock import Clock
from minikcm.cmd.controller_manager.config import CompletedConfig
from minikcm.cmd.controller_manager.controller_descriptor import Controller
from minikcm.cmd.controller_manager.controllermanager import (
    CONTROLLER_START_JITTER,
    KUBE_CONTROLLER_MANAGER,
    ControllerContext,
    DescriptorsFunc,
    InformerFactoryFunc,
    SteppedInformerFactory,
    build_controllers,
    create_client_builders,
    create_controller_context,
    new_controller_descriptors,
    new_identity,
    new_leader_election_config,
    shutdown_events_pipeline,
    start_events_pipeline,
)
from minikcm.driver import Driver, Step
from minikcm.tools.leaderelection.leaderelection import LeaderCallbacks, LeaderElector, new_leader_elector

logger = logging.getLogger(__name__)

NEW = "new"
CAMPAIGNING = "campaigning"
RUNNING = "running"
STOPPED = "stopped"
KILLED = "killed"


class ControllerStart:
    """No upstream twin: one controller's jittered start (Go: the sleep before Run in RunControllers)."""

    def __init__(self, manager: ControllerManager, controller: Controller, start_at: datetime) -> None:
        self.manager = manager
        self.controller = controller
        self.start_at = start_at
        self.started = False

    def ready(self) -> bool:
        stop = self.manager.leading_stop
        return (not self.started and stop is not None and not stop.is_set()
                and self.manager.clock.now() >= self.start_at)

    def wakeup(self) -> datetime | None:
        return None if self.started else self.start_at

    def run(self) -> str:
        """Start the controller: add its steps to the driver."""
        self.started = True
        return self.manager.start_controller(self.controller)


class ControllerManager:
    """No upstream twin: one kube-controller-manager process under the deterministic driver.

    The steps are the ones `run` would run in threads: the leader election's
    acquire and renew steps; once leading, the informer factory's steps and
    a start step per controller (after the jittered start interval), which
    adds that controller's steps. Every step name starts with `step_prefix`
    (`controller-manager/<identity>/`). `cancel()` is SIGTERM (the election
    ends, with release when `release_on_cancel`); `kill()` is SIGKILL (the
    steps vanish, nothing is cleaned up).

    `clock` is this process's clock (default: the driver's); when it is not
    the driver's clock, `clock_to_driver` converts its times to driver times
    for the steps' wakeups. Both clocks must be driven (`FakeClock(..., driven=True)`),
    and so must the config's event broadcaster's (`options.config(..., clock=clock)`),
    or it is None. `release_on_cancel` has no kube-controller-manager
    flag (upstream does not release); it exists to show client-go's option.

    Thread: the driver's; not locked.
    """

    def __init__(
        self,
        c: CompletedConfig,
        driver: Driver,
        identity: str | None = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        new_descriptors: DescriptorsFunc = new_controller_descriptors,
        new_informer_factory: InformerFactoryFunc | None = None,
        clock_to_driver: Callable[[datetime], datetime] | None = None,
        release_on_cancel: bool = False,
    ) -> None:
        self.c = c
        self.driver = driver
        self.clock: Clock = clock if clock is not None else driver.clock
        if not self.clock.driven:
            raise ValueError(f"ControllerManager needs a driven clock (FakeClock(..., driven=True)), got {self.clock!r}")
        self.rng = rng if rng is not None else random.Random(0)
        self.identity = identity if identity is not None else new_identity(self.rng)
        self.step_prefix = f"controller-manager/{self.identity}/"
        self.new_descriptors = new_descriptors
        self.new_informer_factory = new_informer_factory
        self.clock_to_driver = clock_to_driver
        self.release_on_cancel = release_on_cancel
        self.stop = threading.Event()  # the process's context: set by cancel()
        self.state = NEW
        self.elector: LeaderElector | None = None
        self.leading_stop: threading.Event | None = None  # set when this term ends
        self.controller_ctx: ControllerContext | None = None
        self.controllers: list[Controller] = []
        self.running: list[str] = []  # controllers started and not yet stopped
        self.errors: list[Exception] = []  # Go: errs of Run

    # -- building the steps ------------------------------------------------------------

    def steps(self) -> list[Step]:
        """The process's first steps; later ones are added to the driver as the process goes on.

        Raises: RuntimeError for a bad lock or election config (Go: RunOrDie panics).
        """
        logger.info("starting %s %s", KUBE_CONTROLLER_MANAGER, self.identity)
        start_events_pipeline(self.c)
        event_steps = self.event_steps()
        le_config = self.c.component_config.generic.leader_election
        if not le_config.leader_elect:
            self.state = CAMPAIGNING  # nothing to campaign for: the run step goes at once
            return [self.adopt(Step("run", self.run_ready, self.run_directly)),
                    self.adopt(Step("shutdown", self.shutdown_ready, self.shutdown)), *event_steps]
        callbacks = LeaderCallbacks(on_started_leading=self.started_leading, on_stopped_leading=self.stopped_leading)
        config = new_leader_election_config(self.c, self.identity, None, le_config.resource_lock,
                                            le_config.resource_name, callbacks)
        config.release_on_cancel = self.release_on_cancel
        try:
            self.elector = new_leader_elector(config, clock=self.clock, rng=self.rng)
        except ValueError as err:
            raise RuntimeError(str(err)) from err  # Go: RunOrDie panics on a bad config
        self.state = CAMPAIGNING
        election_steps = self.elector.steps(self.stop, record=self.driver.record)
        return [*(self.adopt(s, "leaderelection/" + s.name.rsplit("/", 1)[-1]) for s in election_steps),
                *event_steps]

    def event_steps(self) -> list[Step]:
        """The event broadcaster's steps (none without a broadcaster); its clock must be driven."""
        broadcaster = self.c.event_broadcaster
        if broadcaster is None:
            return []
        return [self.adopt(s, "events/" + s.name) for s in broadcaster.steps()]

    def adopt(self, step: Step, name: str | None = None) -> Step:
        """Rename `step` under this process's prefix, with its wakeup in driver time."""
        wakeup = step.wakeup
        if wakeup is not None and self.clock_to_driver is not None:
            wakeup = self.driver_wakeup(wakeup)
        return step.renamed(self.step_prefix + (name if name is not None else step.name), wakeup=wakeup)

    def driver_wakeup(self, wakeup: Callable[[], datetime | None]) -> Callable[[], datetime | None]:
        """A wakeup function that reports `wakeup()`'s time on the driver's clock."""
        convert = self.clock_to_driver
        assert convert is not None

        def in_driver_time() -> datetime | None:
            t = wakeup()
            return convert(t) if t is not None else None

        return in_driver_time

    # -- leader election callbacks (called inline by the elector's steps) ----------------------

    def started_leading(self, leading_stop: threading.Event) -> None:
        """Port of the OnStartedLeading callback of Run (startedLeading around `run`), one step's worth.

        Builds the context and the controllers and schedules the informers
        and the controller starts. A failure ends the process, as Go's
        startedLeading cancels Run's context.
        """
        self.leading_stop = leading_stop
        try:
            self.start_controllers(leading_stop)
        except Exception as err:  # Go: run's error goes to errs, then cancel()
            logger.error("error running controllers: %s", err)
            self.errors.append(err)
            self.driver.record(self.step_prefix + "run", f"failed: {err}")
            self.stop.set()

    def stopped_leading(self) -> None:
        """Port of the OnStoppedLeading callback of Run, plus the end of `run`: stop the controllers, exit."""
        logger.error("leaderelection lost/stopped")
        self.driver.record(self.step_prefix + "leaderelection", "leaderelection lost/stopped")
        self.shutdown()

    # -- the `run` closure of Run, as steps ------------------------------------------------

    def start_controllers(self, stop: threading.Event) -> None:
        """Port of Run's local `run` up to RunControllers: context, build, informers, starts."""
        client_builder, root_client_builder = create_client_builders(self.c)
        ctx = create_controller_context(self.c, root_client_builder, client_builder, stop, clock=self.clock,
                                        rng=self.rng, new_informer_factory=self.new_informer_factory)
        self.controller_ctx = ctx
        self.controllers = build_controllers(ctx, self.new_descriptors())
        factory = ctx.informer_factory
        if not isinstance(factory, SteppedInformerFactory):
            raise RuntimeError(f"informer factory {factory!r} has no steps(); it cannot run deterministically")
        factory.start(stop)  # on a driven clock a factory starts nothing; its steps do the work
        new_steps = [self.adopt(s, "informers/" + s.name) for s in factory.steps()]
        ctx.informers_started.set()  # Go: close(InformersStarted)
        interval = self.c.component_config.generic.controller_start_interval
        for controller in self.controllers:
            delay = wait.jitter(interval, CONTROLLER_START_JITTER, self.rng)
            start = ControllerStart(self, controller, self.clock.now() + timedelta(seconds=delay))
            name = f"controllers/{controller.name()}/start"
            new_steps.append(self.adopt(Step(name, start.ready, start.run, start.wakeup)))
        self.state = RUNNING
        self.driver.add_all(new_steps)
        self.driver.record(self.step_prefix + "run",
                           "built controllers: " + (", ".join(c.name() for c in self.controllers) or "none"))

    def start_controller(self, controller: Controller) -> str:
        """Port of one controller goroutine of RunControllers, after its sleep: run it (as steps)."""
        stop = self.leading_stop
        assert stop is not None
        stepped = controller.steps(stop)  # type: ignore[attr-defined]
        self.driver.add_all(self.adopt(s, f"controllers/{controller.name()}/{s.name}") for s in stepped)
        self.running.append(controller.name())
        detail = f"controller {controller.name()} started"
        self.driver.record(self.step_prefix + "run", detail)
        return detail

    def run_ready(self) -> bool:
        return self.state == CAMPAIGNING and not self.stop.is_set()

    def run_directly(self) -> None:
        """Port of Run's no-leader-election path: `run` at once, until cancel()."""
        self.leading_stop = self.stop
        self.started_leading(self.stop)
        if self.errors:  # Go: Run returns run's error
            self.shutdown()

    def shutdown_ready(self) -> bool:
        return self.state == RUNNING and self.stop.is_set()

    def shutdown(self) -> None:
        """The end of Run: controllers and informers stop, the process is done."""
        for prefix in ("controllers/", "informers/"):
            self.driver.remove(self.step_prefix + prefix)
        if self.controller_ctx is not None:
            self.controller_ctx.informer_factory.shutdown()  # Go: deferred Shutdown
        if self.running:
            self.driver.record(self.step_prefix + "run", "all controllers terminated")
        self.running = []
        self.stop.set()  # Go: startedLeading's deferred cancel
        self.state = STOPPED
        shutdown_events_pipeline(self.c)  # Go: Run's deferred Shutdown

    # -- the process from outside ---------------------------------------------------------

    def cancel(self) -> None:
        """SIGTERM: cancel Run's context; the election ends at its next step (releasing if configured)."""
        self.stop.set()

    def kill(self) -> None:
        """SIGKILL: drop every step of this process from the driver; nothing is released or cleaned up."""
        self.driver.remove(self.step_prefix)
        self.running = []
        self.state = KILLED

    def running_controllers(self) -> list[str]:
        """Names of the controllers this process runs right now."""
        return list(self.running)

    def is_leader(self) -> bool:
        """Whether this process's elector last saw itself as the holder (False without election)."""
        return self.elector is not None and self.state == RUNNING and self.elector.is_leader()

    def __repr__(self) -> str:
        return f"ControllerManager({self.identity!r}, state={self.state}, running={self.running})"
