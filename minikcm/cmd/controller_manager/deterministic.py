"""No upstream twin. One kube-controller-manager process (controllermanager.ControllerManager) as driver steps.

Only what differs from threads is here: each controller's jittered start as
a step due then, instead of a sleeping thread (run_controllers), and what a
simulation needs: a driver to add steps to, a process clock with its own
rate, and `kill` (SIGKILL). `steps()`, `cancel()` and `state` are Run's own.
"""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from minikcm.apimachinery import wait
from minikcm.clock import Clock
from minikcm.cmd.controller_manager import controllermanager as cm
from minikcm.cmd.controller_manager.config import CompletedConfig
from minikcm.cmd.controller_manager.controller_descriptor import Controller
from minikcm.driver import Driver, Step

KILLED = "killed"


class ControllerManager(cm.ControllerManager):
    """No upstream twin: one process under the driver; its step names start with `controller-manager/<identity>/`.

    `clock` (default: the driver's) must be driven, as must the event broadcaster's;
    `clock_to_driver` converts its times to the driver's. `release_on_cancel` (no
    kube-controller-manager flag) shows client-go's option. Thread: the driver's.
    """

    def __init__(self, c: CompletedConfig, driver: Driver, identity: str | None = None, clock: Clock | None = None,
                 rng: random.Random | None = None, *, clock_to_driver: Callable[[datetime], datetime] | None = None,
                 release_on_cancel: bool = False, **kwargs: Any) -> None:  # new_descriptors, new_informer_factory
        clock = clock if clock is not None else driver.clock
        if not clock.driven:
            raise ValueError(f"ControllerManager needs a driven clock (FakeClock(..., driven=True)), got {clock!r}")
        super().__init__(c, identity, clock, rng if rng is not None else random.Random(0), **kwargs)
        self.driver, self.record, self.clock_to_driver = driver, driver.record, clock_to_driver
        self.release_on_cancel = release_on_cancel
        self.start_at: dict[str, datetime] = {}  # controllers not yet started -> when they are due

    def adopt(self, step: Step, name: str | None = None) -> Step:
        """`step` under this process's prefix, with its wakeup in driver time."""
        step, convert = super().adopt(step, name), self.clock_to_driver
        if step.wakeup is None or convert is None:
            return step
        return step.renamed(step.name, wakeup=functools.partial(lambda w: None if (t := w()) is None else convert(t),
                                                                step.wakeup))

    def run_leading(self, leading_stop: threading.Event) -> None:
        """Run's local `run`: the term's start, the informers' steps, per controller a start step due a jittered
        interval later (threads: run_controllers). The term ends in `shutdown`."""
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
        """No upstream twin: controller `name`'s jittered start time has come (and the term goes on)."""
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
        """No upstream twin: the driven end of the term: Run's stopped-leading callback, then the shutdown."""
        super().stopped_leading()
        self.shutdown()

    def shutdown(self) -> None:
        """The end of the term and of Run: the controllers' and informers' steps leave the driver first."""
        for prefix in ("controllers/", "informers/"):
            self.driver.remove(f"controller-manager/{self.identity}/{prefix}")
        self.start_at.clear()
        super().shutdown()

    def kill(self) -> None:
        """SIGKILL: drop every step of this process from the driver; nothing is released or cleaned up."""
        self.driver.remove(f"controller-manager/{self.identity}/")
        self.running, self.state = [], KILLED
