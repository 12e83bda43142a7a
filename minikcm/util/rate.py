"""Port of golang.org/x/time/rate/rate.go (v0.14.0, the version client-go v0.36.3 requires): a token bucket.

A `Limiter` holds up to `burst` tokens and gains `limit` tokens a second.
Each event takes one; with none left the event is still granted a
`Reservation`, dated when the refill will have paid for it (the bucket goes
into debt). The work queue's BucketRateLimiter (10 a second, bursts of 100)
and the event correlator's spam filter are its callers.

Start reading at: Limiter.reserve_n_limited, then Reservation.delay_from.

Not ported: Wait/WaitN, SetLimit/SetBurst, Reservation.Cancel, Sometimes
(no caller here).
Differs from Go:
- Durations are float seconds, not truncated to nanoseconds; Go's InfDuration
  (the largest time.Duration) is `math.inf`.
- Limiter reads time from an injected clock (Go: time.Now()), so
  `new_limiter(r, b, clock)` takes one.
- The unexported reserveN is `reserve_n_limited` (the exported ReserveN is `reserve_n`).

Why a module of its own: golang.org/x/time is a Go module outside Kubernetes
with one file for this package; following PORTING's mapping of k8s.io/utils/clock
to `minikcm.clock`, its one file is one module, on the `util` floor where both
callers (util/workqueue and tools/record) can import it.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from minikcm.clock import Clock, Seconds, or_real

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
