"""Port of k8s.io/client-go/util/workqueue/default_rate_limiters.go, with the token bucket it uses.

A rate limiter answers one question for the rate-limiting queue: how long should
this item wait before it is retried? Per-item limiters count each item's failures
(exponential: 5 ms, 10 ms, 20 ms, ... capped at 1000 s; fast-then-slow); the
token bucket limits all retries together (10 per second, bursts of 100);
`MaxOfRateLimiter` takes the longest answer, which is what controllers use.

Start reading at: default_controller_rate_limiter, then
ItemExponentialFailureRateLimiter.when, then Limiter.reserve_n.

The second half of the file ports the part of golang.org/x/time/rate (v0.14.0,
rate.go) that BucketRateLimiter needs: Limiter with its reserve semantics.

Not ported: the Typed generics; from x/time/rate, Wait/WaitN, SetLimit/SetBurst,
Reservation.Cancel, Sometimes.
Differs from Go:
- Durations are float seconds, not truncated to nanoseconds.
- Limiter reads time from an injected clock (Go: time.Now()), so
  `default_controller_rate_limiter(clock)` and `Limiter(..., clock)` take one.
- Go's InfDuration (the largest time.Duration) is `math.inf`.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Protocol

from minikcm.clock import Clock, or_real

Seconds = float

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
        BucketRateLimiter(Limiter(10.0, 100, clock)),
    )


class BucketRateLimiter:
    """Port of BucketRateLimiter (default_rate_limiters.go): one token bucket shared by all items.

    Every `when` takes a token, whatever the item; it tracks no failures.
    """

    def __init__(self, limiter: Limiter) -> None:
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
        pass

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
        longest = 0.0
        for limiter in self.limiters:
            longest = max(longest, limiter.when(item))
        return longest

    def num_requeues(self, item: Any) -> int:
        """Port of MaxOfRateLimiter.NumRequeues (util/workqueue/default_rate_limiters.go).

        The highest count any limiter has for `item`.
        """
        most = 0
        for limiter in self.limiters:
            most = max(most, limiter.num_requeues(item))
        return most

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


# ---------------------------------------------------------------------------
# golang.org/x/time/rate (rate.go): the token bucket behind BucketRateLimiter
# ---------------------------------------------------------------------------

Limit = float
"""Port of rate.Limit: events per second."""

INF: Limit = math.inf
"""Port of rate.Inf: no limit at all (every reservation is granted at once)."""

INF_DURATION: Seconds = math.inf
"""Port of rate.InfDuration: the delay of a reservation that can never be met."""

ZERO_TIME = datetime.min.replace(tzinfo=timezone.utc)
"""Go's zero time.Time: a Limiter that has never been used was last updated then."""

END_OF_TIME = datetime.max.replace(tzinfo=timezone.utc)
"""Where a reservation that waits INF_DURATION is dated (Go adds InfDuration and saturates)."""


def every(interval: Seconds) -> Limit:
    """Port of rate.Every (golang.org/x/time/rate/rate.go).

    The limit that allows one event per `interval` (INF for a non-positive one).
    """
    if interval <= 0:
        return INF
    return 1 / interval


@dataclass
class Reservation:
    """Port of rate.Reservation (golang.org/x/time/rate/rate.go).

    The answer to reserve(): whether, and when, the events may happen.
    """

    ok: bool
    lim: Limiter
    tokens: int = 0
    time_to_act: datetime = ZERO_TIME
    limit: Limit = 0.0
    """The limit when the reservation was made (Go keeps it for Cancel)."""

    def delay(self) -> Seconds:
        """Port of Reservation.Delay (golang.org/x/time/rate/rate.go).

        How long from now (on the limiter's clock) until the reservation is met.
        """
        return self.delay_from(self.lim.clock.now())

    def delay_from(self, t: datetime) -> Seconds:
        """Port of Reservation.DelayFrom (golang.org/x/time/rate/rate.go).

        0 if already met at `t`; INF_DURATION if never.
        """
        if not self.ok or self.time_to_act == END_OF_TIME:
            return INF_DURATION
        return max(0.0, (self.time_to_act - t).total_seconds())


class Limiter:
    """Port of rate.Limiter (golang.org/x/time/rate/rate.go).

    A token bucket of `burst` tokens, refilled at `limit` tokens per second.

    Starts full. Each event takes a token; when none is left, a reservation is
    still granted but dated in the future, and the bucket goes into debt.
    Example (limit 10, burst 100): 100 reservations at once are due now, the
    101st in 0.1 s, the 102nd in 0.2 s; one second later ten more are due at once.
    Thread: any; `_lock` guards the bucket.
    """

    def __init__(self, r: Limit, b: int, clock: Clock | None = None) -> None:
        self.limit = r
        self.burst = b
        self.clock = or_real(clock)
        self.tokens = float(b)             # guarded by _lock; negative when in debt
        self.last: datetime = ZERO_TIME    # guarded by _lock: when `tokens` was last updated
        self.last_event: datetime = ZERO_TIME  # guarded by _lock: latest time_to_act handed out
        self._lock = threading.Lock()

    def tokens_at(self, t: datetime) -> float:
        """Port of Limiter.TokensAt (golang.org/x/time/rate/rate.go).

        How many tokens the bucket holds at `t` (negative: debt).
        """
        with self._lock:
            return self.advance(t)

    def allow(self) -> bool:
        """Port of Limiter.Allow (golang.org/x/time/rate/rate.go): take a token if one is available now."""
        return self.allow_n(self.clock.now(), 1)

    def allow_n(self, t: datetime, n: int) -> bool:
        """Port of Limiter.AllowN (golang.org/x/time/rate/rate.go): take `n` tokens at `t` only if they are there."""
        return self.reserve_n_limited(t, n, 0).ok

    def reserve(self) -> Reservation:
        """Port of Limiter.Reserve (golang.org/x/time/rate/rate.go): reserve one token now, however long that takes."""
        return self.reserve_n(self.clock.now(), 1)

    def reserve_n(self, t: datetime, n: int) -> Reservation:
        """Port of Limiter.ReserveN (golang.org/x/time/rate/rate.go).

        Reserve `n` tokens at `t`; `ok` is False only if n > burst.
        """
        return self.reserve_n_limited(t, n, INF_DURATION)

    def reserve_n_limited(self, t: datetime, n: int, max_future_reserve: Seconds) -> Reservation:
        """Port of Limiter.reserveN (golang.org/x/time/rate/rate.go): the one place tokens are taken.

        Refills the bucket up to `t`, takes `n` tokens, and if that leaves a debt,
        dates the reservation when the refill will have paid it. The reservation
        is refused (nothing taken) if `n` exceeds the burst or the wait would be
        longer than `max_future_reserve`.
        Differs from Go: renamed, since the exported ReserveN takes `reserve_n`.
        """
        with self._lock:
            if self.limit == INF:
                return Reservation(ok=True, lim=self, tokens=n, time_to_act=t)

            tokens = self.advance(t) - n
            wait_duration = 0.0
            if tokens < 0:
                wait_duration = duration_from_tokens(self.limit, -tokens)

            ok = n <= self.burst and wait_duration <= max_future_reserve
            r = Reservation(ok=ok, lim=self, limit=self.limit)
            if ok:
                r.tokens = n
                r.time_to_act = _add(t, wait_duration)
                self.last = t
                self.tokens = tokens
                self.last_event = r.time_to_act
            return r

    def advance(self, t: datetime) -> float:
        """Port of Limiter.advance (golang.org/x/time/rate/rate.go).

        The tokens at `t`, refilled since `last`, at most `burst`.

        Does not change the limiter. A `t` before `last` counts as no time passed.
        Locking: `_lock` held.
        """
        last = min(self.last, t)
        elapsed = (t - last).total_seconds()
        tokens = self.tokens + tokens_from_duration(self.limit, elapsed)
        return min(tokens, float(self.burst))

    def __repr__(self) -> str:
        return f"Limiter(limit={self.limit}/s, burst={self.burst}, tokens={self.tokens:.2f})"


def new_limiter(r: Limit, b: int, clock: Clock | None = None) -> Limiter:
    """Port of rate.NewLimiter (golang.org/x/time/rate/rate.go).

    A full bucket of `b` tokens refilled at `r` per second.
    """
    return Limiter(r, b, clock)


def duration_from_tokens(limit: Limit, tokens: float) -> Seconds:
    """Port of Limit.durationFromTokens (golang.org/x/time/rate/rate.go): how long the refill takes to make `tokens`."""
    if limit <= 0:
        return INF_DURATION
    return tokens / limit


def tokens_from_duration(limit: Limit, d: Seconds) -> float:
    """Port of Limit.tokensFromDuration (golang.org/x/time/rate/rate.go).

    How many tokens `d` seconds of refill makes.
    """
    if limit <= 0:
        return 0.0
    return d * limit


def _add(t: datetime, d: Seconds) -> datetime:
    """`t + d`, saturating at the largest datetime (Go's time arithmetic does not raise)."""
    try:
        return t + timedelta(seconds=d)
    except OverflowError:
        return END_OF_TIME
