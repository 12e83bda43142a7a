"""Port of k8s.io/client-go/util/workqueue/default_rate_limiters.go.

A rate limiter answers one question for the rate-limiting queue: how long should
this item wait before it is retried? Per-item limiters count each item's failures
(exponential: 5 ms, 10 ms, 20 ms, ... capped at 1000 s; fast-then-slow); the
token bucket limits all retries together (10 per second, bursts of 100);
`MaxOfRateLimiter` takes the longest answer, which is what controllers use.

Start reading at: default_controller_rate_limiter, then
ItemExponentialFailureRateLimiter.when. The token bucket is minikcm.util.rate
(golang.org/x/time/rate).

Not ported: the Typed generics.
Differs from Go:
- Durations are float seconds, not truncated to nanoseconds.
- `default_controller_rate_limiter(clock)` takes the clock its token bucket reads.
"""

from __future__ import annotations

import math
import threading
from typing import Any, Protocol

from minikcm.clock import Clock, Seconds
from minikcm.util import rate

MAX_INT64 = 2**63 - 1


class RateLimiter(Protocol):
    """Port of RateLimiter / TypedRateLimiter (default_rate_limiters.go): how long an item waits before its retry."""

    def when(self, item: Any) -> Seconds:
        """Port of RateLimiter.When (util/workqueue/default_rate_limiters.go).

        How long `item` should wait before it is added again; this counts one
        more failure for limiters that track them.
        """
        ...

    def forget(self, item: Any) -> None:
        """Port of RateLimiter.Forget (util/workqueue/default_rate_limiters.go).

        Stop tracking `item` (it succeeded, or we gave up on it).
        """
        ...

    def num_requeues(self, item: Any) -> int:
        """Port of RateLimiter.NumRequeues (util/workqueue/default_rate_limiters.go).

        How many failures `item` has had.
        """
        ...


def default_controller_rate_limiter(clock: Clock | None = None) -> MaxOfRateLimiter:
    """Port of DefaultControllerRateLimiter (default_rate_limiters.go).

    Per item: 5 ms doubling to 1000 s. Overall: a token bucket of 10 retries per
    second with bursts of 100. Each retry waits the longer of the two.
    Differs from Go: takes the clock the token bucket reads.
    """
    return new_max_of_rate_limiter(
        new_item_exponential_failure_rate_limiter(0.005, 1000.0),
        BucketRateLimiter(rate.new_limiter(10.0, 100, clock)),
    )


class BucketRateLimiter:
    """Port of BucketRateLimiter (default_rate_limiters.go): one token bucket shared by all items.

    Every `when` takes a token, whatever the item; it tracks no failures.
    """

    def __init__(self, limiter: rate.Limiter) -> None:
        self.limiter = limiter

    def when(self, item: Any) -> Seconds:
        """Port of BucketRateLimiter.When (util/workqueue/default_rate_limiters.go).

        Reserve a token; wait until it is due.
        """
        return self.limiter.reserve().delay()

    def num_requeues(self, item: Any) -> int:
        """Port of BucketRateLimiter.NumRequeues (util/workqueue/default_rate_limiters.go).

        Always 0, the bucket counts no failures.
        """
        return 0

    def forget(self, item: Any) -> None:
        """Port of BucketRateLimiter.Forget (util/workqueue/default_rate_limiters.go).

        Nothing to forget; a taken token stays taken.
        """

    def __repr__(self) -> str:
        return f"BucketRateLimiter({self.limiter!r})"


class ItemExponentialFailureRateLimiter:
    """Port of ItemExponentialFailureRateLimiter (default_rate_limiters.go).

    The n-th failure of an item (counting from 0) waits `base_delay * 2**n`,
    capped at `max_delay`. Example with base 5 ms: 5 ms, 10 ms, 20 ms, 40 ms;
    the 19th failure would be 1310.72 s, so from then on it is 1000 s.
    Thread: any; `_lock` guards `failures`.
    """

    def __init__(self, base_delay: Seconds, max_delay: Seconds) -> None:
        self.failures: dict[Any, int] = {}  # guarded by _lock
        self.base_delay = base_delay
        self.max_delay = max_delay
        self._lock = threading.Lock()

    def when(self, item: Any) -> Seconds:
        """Port of ItemExponentialFailureRateLimiter.When (util/workqueue/default_rate_limiters.go).

        How long `item` waits before its next retry; counts one more failure.
        The n-th failure of an item (counting from 0) waits base_delay * 2**n,
        capped at max_delay: with base 5 ms, 5 ms, 10 ms, 20 ms, ...
        """
        with self._lock:
            exp = self.failures.get(item, 0)
            self.failures[item] = exp + 1
            # Overflow guard: as Go, give the cap once the product no longer fits an int64 of ns.
            try:
                backoff = self.base_delay * math.pow(2, exp)
            except OverflowError:
                return self.max_delay
            if backoff * 1e9 > MAX_INT64:
                return self.max_delay
            if backoff > self.max_delay:
                return self.max_delay
            return backoff

    def num_requeues(self, item: Any) -> int:
        """Port of ItemExponentialFailureRateLimiter.NumRequeues (util/workqueue/default_rate_limiters.go).

        Failures counted for `item`.
        """
        with self._lock:
            return self.failures.get(item, 0)

    def forget(self, item: Any) -> None:
        """Port of ItemExponentialFailureRateLimiter.Forget (util/workqueue/default_rate_limiters.go).

        The next failure of `item` starts at base_delay.
        """
        with self._lock:
            self.failures.pop(item, None)

    def __repr__(self) -> str:
        return f"ItemExponentialFailureRateLimiter({self.base_delay}..{self.max_delay}, items={len(self.failures)})"


def new_item_exponential_failure_rate_limiter(base_delay: Seconds, max_delay: Seconds) -> ItemExponentialFailureRateLimiter:
    """Port of NewItemExponentialFailureRateLimiter (default_rate_limiters.go)."""
    return ItemExponentialFailureRateLimiter(base_delay, max_delay)


def default_item_based_rate_limiter() -> ItemExponentialFailureRateLimiter:
    """Port of DefaultItemBasedRateLimiter (default_rate_limiters.go): 1 ms doubling to 1000 s."""
    return new_item_exponential_failure_rate_limiter(0.001, 1000.0)


class ItemFastSlowRateLimiter:
    """Port of ItemFastSlowRateLimiter (default_rate_limiters.go).

    The first `max_fast_attempts` failures of an item wait `fast_delay`, every
    later one `slow_delay`.
    Thread: any; `_lock` guards `failures`.
    """

    def __init__(self, fast_delay: Seconds, slow_delay: Seconds, max_fast_attempts: int) -> None:
        self.failures: dict[Any, int] = {}  # guarded by _lock
        self.max_fast_attempts = max_fast_attempts
        self.fast_delay = fast_delay
        self.slow_delay = slow_delay
        self._lock = threading.Lock()

    def when(self, item: Any) -> Seconds:
        """Port of ItemFastSlowRateLimiter.When (util/workqueue/default_rate_limiters.go).

        Count a failure; fast_delay while few, then slow_delay.
        """
        with self._lock:
            self.failures[item] = self.failures.get(item, 0) + 1
            if self.failures[item] <= self.max_fast_attempts:
                return self.fast_delay
            return self.slow_delay

    def num_requeues(self, item: Any) -> int:
        """Port of ItemFastSlowRateLimiter.NumRequeues (util/workqueue/default_rate_limiters.go).

        Failures counted for `item`.
        """
        with self._lock:
            return self.failures.get(item, 0)

    def forget(self, item: Any) -> None:
        """Port of ItemFastSlowRateLimiter.Forget (util/workqueue/default_rate_limiters.go).

        `item` gets fast retries again.
        """
        with self._lock:
            self.failures.pop(item, None)

    def __repr__(self) -> str:
        return (f"ItemFastSlowRateLimiter({self.fast_delay} x{self.max_fast_attempts}, then {self.slow_delay}, "
                f"items={len(self.failures)})")


def new_item_fast_slow_rate_limiter(
    fast_delay: Seconds, slow_delay: Seconds, max_fast_attempts: int
) -> ItemFastSlowRateLimiter:
    """Port of NewItemFastSlowRateLimiter (default_rate_limiters.go)."""
    return ItemFastSlowRateLimiter(fast_delay, slow_delay, max_fast_attempts)


class MaxOfRateLimiter:
    """Port of MaxOfRateLimiter (default_rate_limiters.go): asks every limiter, keeps the longest wait.

    Every limiter is asked on each `when`, so each counts the failure. Combined
    with a token bucket, single items delayed longer by their own limiter may let
    more than a burst through at once later.
    """

    def __init__(self, *limiters: RateLimiter) -> None:
        self.limiters: list[RateLimiter] = list(limiters)

    def when(self, item: Any) -> Seconds:
        """Port of MaxOfRateLimiter.When (util/workqueue/default_rate_limiters.go).

        Ask every limiter (each counts the failure); keep the longest.
        """
        return max([0.0] + [limiter.when(item) for limiter in self.limiters])

    def num_requeues(self, item: Any) -> int:
        """Port of MaxOfRateLimiter.NumRequeues (util/workqueue/default_rate_limiters.go).

        The highest count any limiter has for `item`.
        """
        return max([0] + [limiter.num_requeues(item) for limiter in self.limiters])

    def forget(self, item: Any) -> None:
        """Port of MaxOfRateLimiter.Forget (util/workqueue/default_rate_limiters.go): every limiter forgets `item`."""
        for limiter in self.limiters:
            limiter.forget(item)

    def __repr__(self) -> str:
        return f"MaxOfRateLimiter({', '.join(repr(x) for x in self.limiters)})"


def new_max_of_rate_limiter(*limiters: RateLimiter) -> MaxOfRateLimiter:
    """Port of NewMaxOfRateLimiter (default_rate_limiters.go)."""
    return MaxOfRateLimiter(*limiters)


class WithMaxWaitRateLimiter:
    """Port of WithMaxWaitRateLimiter (default_rate_limiters.go): another limiter's answer, capped at `max_delay`."""

    def __init__(self, limiter: RateLimiter, max_delay: Seconds) -> None:
        self.limiter = limiter
        self.max_delay = max_delay

    def when(self, item: Any) -> Seconds:
        """Port of WithMaxWaitRateLimiter.When (util/workqueue/default_rate_limiters.go).

        The wrapped limiter's wait, at most max_delay.
        """
        return min(self.limiter.when(item), self.max_delay)

    def forget(self, item: Any) -> None:
        """Port of WithMaxWaitRateLimiter.Forget (util/workqueue/default_rate_limiters.go).

        Passed on to the wrapped limiter.
        """
        self.limiter.forget(item)

    def num_requeues(self, item: Any) -> int:
        """Port of WithMaxWaitRateLimiter.NumRequeues (util/workqueue/default_rate_limiters.go).

        The wrapped limiter's count.
        """
        return self.limiter.num_requeues(item)

    def __repr__(self) -> str:
        return f"WithMaxWaitRateLimiter({self.limiter!r}, max={self.max_delay})"


def new_with_max_wait_rate_limiter(limiter: RateLimiter, max_delay: Seconds) -> WithMaxWaitRateLimiter:
    """Port of NewWithMaxWaitRateLimiter (default_rate_limiters.go)."""
    return WithMaxWaitRateLimiter(limiter, max_delay)
