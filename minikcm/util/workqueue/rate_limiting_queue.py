"""Port of k8s.io/client-go/util/workqueue/rate_limiting_queue.go.

The queue every controller holds: a delaying queue plus a rate limiter. A worker
whose sync failed calls `add_rate_limited(key)`, and the key comes back after the
limiter's delay (longer with each failure); on success it calls `forget(key)` so
the next failure starts from the shortest delay again.

Start reading at: RateLimitingType.add_rate_limited.

Not ported: metrics, the Typed generics, the deprecated NewNamedRateLimitingQueue.
Differs from Go: the delaying queue's methods are passed through one by one
(Go embeds the interface), and `steps()` hands its waiting step to the driver.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from minikcm.clock import Clock, Seconds, or_real
from minikcm.driver import Step
from minikcm.util.workqueue.default_rate_limiters import RateLimiter
from minikcm.util.workqueue.delaying_queue import (
    DelayingInterface,
    DelayingQueueConfig,
    new_delaying_queue_with_config,
)


class RateLimitingInterface(DelayingInterface, Protocol):
    """Port of RateLimitingInterface / TypedRateLimitingInterface (rate_limiting_queue.go)."""

    def add_rate_limited(self, item: Any) -> None:
        """Port of RateLimitingInterface.AddRateLimited (rate_limiting_queue.go)."""
    def forget(self, item: Any) -> None:
        """Port of RateLimitingInterface.Forget (rate_limiting_queue.go)."""
    def num_requeues(self, item: Any) -> int:
        """Port of RateLimitingInterface.NumRequeues (rate_limiting_queue.go)."""


@dataclass
class RateLimitingQueueConfig:
    """Port of RateLimitingQueueConfig / TypedRateLimitingQueueConfig (rate_limiting_queue.go)."""

    name: str = ""
    """Names the queue (and its waiting thread)."""
    clock: Clock | None = None
    """For the delaying queue built when `delaying_queue` is None; None means the real clock."""
    delaying_queue: DelayingInterface | None = None
    """The delaying queue to wrap; None builds one from the fields above (a driven clock: no thread)."""


def new_rate_limiting_queue(rate_limiter: RateLimiter) -> RateLimitingType:
    """Port of NewRateLimitingQueue / NewTypedRateLimitingQueue (rate_limiting_queue.go).

    Remember to call `forget` when an item succeeds, or its failures are counted for ever.
    """
    return new_rate_limiting_queue_with_config(rate_limiter, RateLimitingQueueConfig())


def new_rate_limiting_queue_with_config(rate_limiter: RateLimiter, config: RateLimitingQueueConfig) -> RateLimitingType:
    """Port of NewRateLimitingQueueWithConfig / NewTypedRateLimitingQueueWithConfig (rate_limiting_queue.go)."""
    delaying_queue = config.delaying_queue
    if delaying_queue is None:
        delaying_queue = new_delaying_queue_with_config(
            DelayingQueueConfig(name=config.name, clock=or_real(config.clock))
        )
    return RateLimitingType(delaying_queue, rate_limiter)


def new_rate_limiting_queue_with_delaying_interface(
    di: DelayingInterface, rate_limiter: RateLimiter
) -> RateLimitingType:
    """Port of NewRateLimitingQueueWithDelayingInterface (rate_limiting_queue.go)."""
    return new_rate_limiting_queue_with_config(rate_limiter, RateLimitingQueueConfig(delaying_queue=di))


class RateLimitingType:
    """Port of rateLimitingType (rate_limiting_queue.go): a delaying queue that asks a limiter for delays.

    Thread: any; the wrapped queue and limiter do their own locking.
    """

    def __init__(self, delaying_queue: DelayingInterface, rate_limiter: RateLimiter) -> None:
        self.delaying_queue = delaying_queue  # Go: the embedded TypedDelayingInterface
        self.rate_limiter = rate_limiter

    def add_rate_limited(self, item: Any) -> None:
        """Port of rateLimitingType.AddRateLimited: add `item` after the delay the limiter gives it."""
        self.delaying_queue.add_after(item, self.rate_limiter.when(item))

    def num_requeues(self, item: Any) -> int:
        """Port of rateLimitingType.NumRequeues: how many times the limiter has seen `item` fail."""
        return self.rate_limiter.num_requeues(item)

    def forget(self, item: Any) -> None:
        """Port of rateLimitingType.Forget: reset `item`'s failures. It still needs `done`."""
        self.rate_limiter.forget(item)

    # -- the delaying queue, passed through (Go: embedding) ------------------------------
    def add(self, item: Any) -> None:
        self.delaying_queue.add(item)

    def len(self) -> int:
        return self.delaying_queue.len()

    def get(self) -> tuple[Any, bool]:
        return self.delaying_queue.get()

    def done(self, item: Any) -> None:
        self.delaying_queue.done(item)

    def shut_down(self) -> None:
        self.delaying_queue.shut_down()

    def shut_down_with_drain(self) -> None:
        self.delaying_queue.shut_down_with_drain()

    def shutting_down(self) -> bool:
        return self.delaying_queue.shutting_down()

    def add_after(self, item: Any, duration: Seconds) -> None:
        self.delaying_queue.add_after(item, duration)

    def steps(self) -> list[Step]:
        """The delaying queue's waiting step, for the driver of a driven clock."""
        return self.delaying_queue.steps()

    def __repr__(self) -> str:
        return f"RateLimitingQueue({self.delaying_queue!r}, limiter={self.rate_limiter!r})"
