"""No upstream twin. The part of a controller's Run that every controller repeats, written once.

Each Go Run (ReplicaSet, Deployment, StatefulSet; the garbage collector's two
worker kinds; the simulated kubelet's and volume binder's loops follow the
same shape) starts the event pipeline, waits for its informers' caches,
starts `workers` goroutines that each call the worker again every second
until the context ends, blocks, then shuts its queue down and waits for them.
`ControllerRun.run` does exactly that with threads; on a driven clock the
driver runs `ControllerRun.steps()` instead (DESIGN.md, "Every loop has a step").

Why a module of its own beside controller_utils: pkg/controller is the
package every controller already imports, but controller_utils.go has no such
helper (each Go controller writes its Run out), so it does not belong in the
port of that file; the work queue's package sits below the informers and the
event recorder this needs.

Start reading at: ControllerRun.run, then ControllerRun.steps.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

from minikcm.apimachinery import wait
from minikcm.client.interface import Interface
from minikcm.clock import Clock
from minikcm.driver import Step
from minikcm.tools.cache.shared_informer import wait_for_named_cache_sync
from minikcm.tools.record import new_event_sink

log = logging.getLogger(__name__)


class ControllerRun:
    """No upstream twin. The part of a controller's Run that every controller repeats, written once.

    Each Go Run (ReplicaSet, Deployment, StatefulSet; the garbage collector's
    two worker kinds; the simulated kubelet's and volume binder's loops follow
    the same shape) does the same things in the same order: start the event
    pipeline, wait for its informers' caches, start `workers` goroutines that
    each call the worker again every second until the context ends, block,
    then shut its queue down and wait for them. `run` does exactly that with
    threads. On a driven clock the driver runs `steps()` instead, and the worker
    step is ready only when `synced()` (the controller's caches have their
    first lists) and a key is queued, so a driven world waits for its caches as Run does.

    Why here: these are the lines a controller's Run shares with every other,
    and pkg/controller is the package every controller already imports; the
    work queue's package sits below the informers and the event recorder it
    would need.

    `name` names the step (`<name>`) and the threads (`<name>-<i>`);
    `controller_name` is the name Run logs and WaitForNamedCacheSync reports.
    `process` is one unit of work (a controller's process_next_work_item): the
    step body. `worker` is Go's worker method, which loops over `process`
    until the queue shuts down: the threads' body. The event pipeline starts
    in `start_event_recording`, which `run` calls first and a driven world
    calls once before it adds the steps; `steps()` starts nothing.
    """

    def __init__(self, name: str, controller_name: str, queue: Any, worker: Callable[[], object],
                 process: Callable[[], object], *, clock: Clock, synced: Callable[[], bool] | None = None,
                 wakeup: Callable[[], datetime | None] | None = None, event_broadcaster: Any = None,
                 event_client: Interface | None = None) -> None:
        self.name = name
        self.controller_name = controller_name
        self.queue = queue
        """The work queue `process` takes keys from (a rate-limiting queue)."""
        self.worker = worker
        self.process = process
        self.clock = clock
        self.synced = synced if synced is not None else always_synced
        """Run's wait before the workers start: by default, the controller's informers have synced."""
        self.wakeup = wakeup
        self.event_broadcaster = event_broadcaster
        """Started by start_event_recording and shut down when run ends; None: the caller owns it."""
        self.event_client = event_client
        self.events_started = False  # start_event_recording ran

    def __repr__(self) -> str:
        return f"<ControllerRun {self.name} queued={self.queue.len()} events_started={self.events_started}>"

    def start_event_recording(self) -> None:
        """The first lines of Go's Run: log events and write them to the API server (once)."""
        if self.events_started or self.event_broadcaster is None:
            return
        self.events_started = True
        self.event_broadcaster.start_structured_logging(3)
        if self.event_client is not None:
            self.event_broadcaster.start_recording_to_sink(new_event_sink(self.event_client.core_v1().events("")))

    def run(self, workers: int, stop: threading.Event) -> None:
        """Go's Run with threads: events, caches, `workers` worker threads, block until `stop`.

        Blocks: until `stop` is set and every worker thread has ended.
        """
        self.start_event_recording()
        log.info("Starting controller name=%s", self.controller_name)
        threads: list[threading.Thread] = []  # Go: WaitGroup
        try:
            if not wait_for_named_cache_sync(self.controller_name, stop, self.synced, clock=self.clock):
                return
            threads = self.start_workers(workers, stop)
            stop.wait()
        finally:
            log.info("Shutting down controller name=%s", self.controller_name)
            self.queue.shut_down()  # Go: deferred ShutDown
            for thread in threads:
                thread.join()
            if self.event_broadcaster is not None:
                self.event_broadcaster.shutdown()  # Go: deferred Shutdown

    def start_workers(self, workers: int, stop: threading.Event) -> list[threading.Thread]:
        """Go: `go wait.UntilWithContext(ctx, worker, time.Second)` once per worker; returns the threads."""
        threads = []
        for i in range(workers):
            thread = threading.Thread(name=f"{self.name}-{i}", target=wait.until,
                                      args=(self.worker, 1.0, stop, self.clock), daemon=True)
            threads.append(thread)
            thread.start()
        return threads

    def worker_ready(self) -> bool:
        """The worker step may run: Run would have started the workers, and a key is queued."""
        return self.queue.len() > 0 and self.synced()

    def steps(self) -> list[Step]:
        """The driven twin of `run`: the worker step, the queue's waiting step, the broadcaster's step.

        Starts nothing (call start_event_recording first). The broadcaster's
        step is included only when its clock is driven too.
        """
        out = [Step(self.name, self.worker_ready, self.process, self.wakeup)]
        out += self.queue.steps()
        if self.event_broadcaster is not None and self.event_broadcaster.clock.driven:
            out += self.event_broadcaster.steps()
        return out


def always_synced() -> bool:
    """No upstream twin: the `synced` of a loop with no caches to wait for."""
    return True
