"""Port of k8s.io/client-go/tools/cache/retry_with_deadline.go.

Bookkeeping for "retry this kind of error, but not for ever": the reflector
uses it to re-watch at once after 500 Internal Error responses for at most
`MaxInternalErrorRetryDuration`, then falls back to a relist.

Start reading at: RetryWithDeadline.after, then RetryWithDeadline.should_retry.

Not ported: nothing.
Differs from Go: the interface RetryWithDeadline and its only implementation
retryWithDeadlineImpl are one class, RetryWithDeadline; Go's zero time is None.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from minikcm.clock import Clock, Seconds


class RetryWithDeadline:
    """Port of retryWithDeadlineImpl (retry_with_deadline.go): retry an error kind for a while.

    `after(err)` records retryable errors; errors further apart than
    `min_reset_period` start a new streak. `should_retry()` says yes while the
    streak is younger than `max_retry_duration` (never when that is 0).
    """

    def __init__(self, max_retry_duration: Seconds, min_reset_period: Seconds,
                 is_retryable: Callable[[BaseException | None], bool], clock: Clock) -> None:
        self.first_error_time: datetime | None = None  # Go: zero time
        self.last_error_time: datetime | None = None
        self.max_retry_duration = max_retry_duration
        self.min_reset_period = min_reset_period
        self.is_retryable = is_retryable
        self.clock = clock

    def reset(self) -> None:
        """Port of retryWithDeadlineImpl.reset."""
        self.first_error_time = None
        self.last_error_time = None

    def after(self, err: BaseException | None) -> None:
        """Port of retryWithDeadlineImpl.After: note one outcome."""
        if not self.is_retryable(err):
            return
        now = self.clock.now()
        if self.last_error_time is None or (now - self.last_error_time).total_seconds() >= self.min_reset_period:
            self.reset()
        if self.first_error_time is None:
            self.first_error_time = now
        self.last_error_time = now

    def should_retry(self) -> bool:
        """Port of retryWithDeadlineImpl.ShouldRetry."""
        if self.max_retry_duration <= 0:
            return False
        if self.first_error_time is not None and self.clock.since(self.first_error_time) <= self.max_retry_duration:
            return True
        self.reset()
        return False


def new_retry_with_deadline(max_retry_duration: Seconds, min_reset_period: Seconds,
                            is_retryable: Callable[[BaseException | None], bool], clock: Clock) -> RetryWithDeadline:
    """Port of NewRetryWithDeadline (retry_with_deadline.go)."""
    return RetryWithDeadline(max_retry_duration, min_reset_period, is_retryable, clock)
