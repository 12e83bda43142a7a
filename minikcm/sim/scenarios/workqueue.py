"""No upstream twin. Chapter P2 scenario: `workqueue-retry`.

A controller's rate-limited work queue (minikcm.util.workqueue) with
`default_controller_rate_limiter` (per item: 5 ms doubling up to 1000 s; overall:
a token bucket of 10 retries a second, bursts of 100; each retry waits the
longer of the two) and one worker written the way every controller writes
`processNextWorkItem`: get, sync, then forget on success or add_rate_limited on
failure, and always done.

- `default/web` fails 6 times before it syncs: it comes back after 5, 10, 20,
  40, 80 and 160 ms. On success the worker calls `forget`, which resets its count.
- `default/db` syncs at once: backoff is per item, so it never waits for web.
- At t=1 s `default/web` is added again and fails once more: it waits 5 ms,
  not 320 ms, because `forget` reset its failures.

Series: `default/web retry delay (ms)` (measured: from the failed sync to the
next get of the key), `default/web requeues` (the limiter's failure count),
`queue length` (keys ready for a worker) and `waiting` (keys parked until their
retry time).

Start reading at: WorkqueueRetry.process_next_work_item, then
RateLimitingType.add_rate_limited and ItemExponentialFailureRateLimiter.when.
Good breakpoints: RateLimitingType.add_rate_limited, DelayingType.process_waiting.
"""

from __future__ import annotations

from datetime import datetime

from minikcm.clock import EPOCH, FakeClock
from minikcm.driver import Driver, Step
from minikcm.sim.scenarios.base import Run
from minikcm.util.workqueue.default_rate_limiters import default_controller_rate_limiter
from minikcm.util.workqueue.delaying_queue import DelayingQueueConfig, DelayingType, new_delaying_queue_with_config
from minikcm.util.workqueue.rate_limiting_queue import RateLimitingType, new_rate_limiting_queue_with_delaying_interface

FAILURES = {"default/web": 6, "default/db": 0}
"""How many times each key's sync fails before it succeeds, at first."""
READD_AT = 1.0
"""Fake seconds after the start at which `default/web` is added again."""


class SyncError(Exception):
    """What the scenario's sync raises while a key is still meant to fail."""


class WorkqueueRetry:
    """The `workqueue-retry` world and its script (see the module docstring).

    The seed changes nothing here: no part of this scenario draws random numbers.
    """

    def __init__(self, seed: int) -> None:
        self.clock = FakeClock(EPOCH, driven=True)
        self.driver = Driver(self.clock)
        self.run = Run("workqueue-retry", seed, self.clock, self.driver, self.play)
        self.delaying: DelayingType = new_delaying_queue_with_config(
            DelayingQueueConfig(name="demo", clock=self.clock))  # a driven clock: no waiting thread
        self.queue: RateLimitingType = new_rate_limiting_queue_with_delaying_interface(
            self.delaying, default_controller_rate_limiter(self.clock))
        self.failures_left = dict(FAILURES)
        self.failed_at: dict[str, datetime] = {}  # key -> when its last sync failed
        self.synced: list[str] = []
        self.driver.add_all(self.queue.steps())
        self.driver.add(Step("worker", self.has_work, self.process_next_work_item))

        sampler = self.run.sampler
        sampler.declare("default/web retry delay (ms)")  # measured by the worker
        sampler.watch("default/web requeues", self.web_requeues)
        sampler.watch("queue length", self.queue.len)
        sampler.watch("waiting", self.waiting)
        self.run.objects.update(queue=self.queue, scenario=self)

    # -- the script --------------------------------------------------------------------

    def play(self) -> None:
        """Add both keys, let the worker retry until idle, then add web again at t=1 s and fail it once."""
        self.queue.add("default/web")
        self.queue.add("default/db")
        self.run.sampler.sample()
        self.driver.run_until_idle()
        self.driver.run_for(READD_AT - self.run.sampler.elapsed())
        self.failures_left["default/web"] = 1
        self.run.say("default/web changed again: add it, its next sync fails once")
        self.queue.add("default/web")
        self.run.sampler.sample()
        self.driver.run_until_idle()

    # -- the worker (the shape of every controller's processNextWorkItem) ------------------

    def has_work(self) -> bool:
        return self.queue.len() > 0

    def process_next_work_item(self) -> bool:
        """One unit of worker work: get a key, sync it, tell the queue how it went."""
        key, shutting_down = self.queue.get()
        if shutting_down:
            return False
        if key in self.failed_at:
            waited = (self.clock.now() - self.failed_at.pop(key)).total_seconds()
            self.run.sampler.add(f"{key} retry delay (ms)", round(waited * 1000, 3))
        try:
            self.sync(key)
        except SyncError as err:  # the one catch-all of this loop: retry later, slower each time
            self.queue.add_rate_limited(key)
            self.failed_at[key] = self.clock.now()
            back_in = (self.delaying.waiting_entry_by_data[key].ready_at - self.clock.now())
            self.driver.record("worker", f"{err}; add_rate_limited: back in "
                                         f"{back_in.total_seconds() * 1000:g} ms "
                                         f"(failures so far: {self.queue.num_requeues(key)})")
        else:
            failures = self.queue.num_requeues(key)
            self.queue.forget(key)
            self.driver.record("worker", f"synced {key}; forget resets its failures")
            if failures:
                self.run.event(f"{key} synced after {failures} failed attempt{'s' if failures != 1 else ''}")
        finally:
            self.queue.done(key)
        return True

    def sync(self, key: str) -> None:
        """The scenario's sync handler: fails while the key has failures left."""
        if self.failures_left.get(key, 0) > 0:
            self.failures_left[key] -= 1
            raise SyncError(f"sync {key} failed")
        self.synced.append(key)

    # -- what the sampler reads ------------------------------------------------------------

    def web_requeues(self) -> int:
        return self.queue.num_requeues("default/web")

    def waiting(self) -> int:
        return len(self.delaying.waiting_entry_by_data)

    def __repr__(self) -> str:
        return f"WorkqueueRetry(queue={self.queue!r}, failures_left={self.failures_left})"


def build_workqueue_retry(seed: int) -> Run:
    """Scenario `workqueue-retry` (chapter P2): the world, ready to play."""
    return WorkqueueRetry(seed).run
