"""No upstream twin. The queue-and-worker loop the simulated cluster's components share.

The simulated kubelet and the volume binder work like small controllers: an
informer's handlers queue object keys, one worker takes a key at a time and
calls the component's sync function, a failure is retried with the default
controller backoff, and a sync may park its key with `queue.add_after` until
the next stage of the object's life is due. `KeyWorker` is that loop, once.
The components hold one and hand it their sync function (composition: the
component stays a plain class the debugger steps through).

Start reading at: KeyWorker.process_next_work_item.

The same loop in the ported controllers (`ReplicaSetController.process_next_work_item`
and friends) is kept in each controller, as upstream keeps it: there it is
part of what a reader compares with Go. Threads or driver steps come from the
same `ControllerRun` the controllers use (pkg/controller's controller_utils).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from minikcm.apimachinery import runtime
from minikcm.clock import Clock
from minikcm.controller.controller_run import ControllerRun
from minikcm.driver import Step
from minikcm.tools.cache.controller import ResourceEventHandlerFuncs, deletion_handling_meta_namespace_key_func
from minikcm.util.workqueue import (
    RateLimitingQueueConfig,
    default_controller_rate_limiter,
    new_rate_limiting_queue_with_config,
)
from minikcm.util.workqueue.rate_limiting_queue import RateLimitingType


class KeyWorker:
    """One rate-limited queue of object keys and the worker that syncs them.

    `name` names the queue, the driver step and the thread (`<name>/sync`);
    `what` names the kind of object in error messages ("pod", "claim").
    Thread: handlers run on the informer's thread; everything else on the
    worker thread or the driver's.
    """

    def __init__(self, name: str, what: str, sync: Callable[[str], None], clock: Clock) -> None:
        self.name = name
        self.what = what
        self.sync = sync
        self.queue: RateLimitingType = new_rate_limiting_queue_with_config(
            default_controller_rate_limiter(clock),
            RateLimitingQueueConfig(name=name, clock=clock))  # a driven clock: no waiting thread
        self.loop = ControllerRun(f"{name}/sync", name, self.queue, self.worker, self.process_queued, clock=clock)
        """The worker thread, or the driver's `<name>/sync` step (no caches to wait for, no events)."""

    def __repr__(self) -> str:
        return f"<KeyWorker {self.name} queued={self.queue.len()}>"

    # -- handlers -----------------------------------------------------------------------------

    def handlers(self) -> ResourceEventHandlerFuncs:
        """The event handlers to register on the component's informer."""
        return ResourceEventHandlerFuncs(add_func=self.enqueue, update_func=self.update, delete_func=self.enqueue)

    def enqueue(self, obj: Any) -> None:
        """Queue the object's key (add and delete handler; tombstones too)."""
        try:
            key = deletion_handling_meta_namespace_key_func(obj)
        except Exception as err:  # an object without a name: nothing to simulate
            runtime.handle_error(err)
            return
        self.queue.add(key)

    def update(self, old: Any, cur: Any) -> None:
        """Queue the object's key, unless it is a resync (same resourceVersion)."""
        if old.metadata.resource_version == cur.metadata.resource_version:
            return
        self.enqueue(cur)

    # -- running ------------------------------------------------------------------------------

    def steps(self) -> list[Step]:
        """Driver steps: `<name>/sync` (every key queued now) and the queue's waiting step."""
        return self.loop.steps()

    def run(self, stop: threading.Event) -> None:
        """Threaded mode: the worker loop on a `<name>/sync-0` thread until `stop` is set.

        Blocks: until `stop` is set and the thread has ended.
        """
        self.loop.run(1, stop)

    def worker(self) -> None:
        """Process keys until the queue shuts down."""
        while self.process_next_work_item():
            pass

    def process_queued(self) -> None:
        """One driver step: sync every key queued when the step began, one after another.

        The component stands for many workers side by side (a kubelet runs one
        pod worker per pod, on every node at once), so one step gives each
        queued key its turn; a key queued again meanwhile waits for the next step.
        """
        for _ in range(self.queue.len()):
            if not self.process_next_work_item():
                return

    def process_next_work_item(self) -> bool:
        """One unit of work: sync one key; a failure retries it with backoff.

        Returns False once the queue is shutting down.
        Blocks: until a key is queued (the driver calls this only when one is).
        """
        key, quit_ = self.queue.get()
        if quit_:
            return False
        try:
            self.sync(key)
        except Exception as err:  # the one catch-all of this loop
            runtime.handle_error(RuntimeError(f"{self.name}: syncing {self.what} {key!r} failed: {err}"))
            self.queue.add_rate_limited(key)
        else:
            self.queue.forget(key)
        finally:
            self.queue.done(key)
        return True
