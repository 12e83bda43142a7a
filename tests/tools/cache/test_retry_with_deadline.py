"""Tests for minikcm.tools.cache.retry_with_deadline (port of retry_with_deadline_test.go)."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import errors
from minikcm.clock import FakeClock
from minikcm.tools.cache.retry_with_deadline import new_retry_with_deadline

INTERNAL_ERROR = errors.new_internal_error("etcdserver: no leader")
OTHER_ERROR = RuntimeError("some other error")


def never(err):
    return False


RETRY_WITH_DEADLINE_CASES = [
    #            duration reset is_retryable               scenario: (clock step, error, want retry)
    pytest.param(0, 30, never, [(1, None, False), (0, INTERNAL_ERROR, False), (1, OTHER_ERROR, False)],
                 id="Never retry when duration is zero"),
    pytest.param(1, 30, errors.is_internal_error,
                 [(1, INTERNAL_ERROR, True), (1, INTERNAL_ERROR, True), (1, INTERNAL_ERROR, False)],
                 id="Retry when internal error happens only within duration"),
    pytest.param(1, 30, errors.is_internal_error, [(1, OTHER_ERROR, False)],
                 id="Don't retry when other error happens"),
    pytest.param(1, 30, errors.is_internal_error,
                 [(1, INTERNAL_ERROR, True), (0, OTHER_ERROR, True), (1, INTERNAL_ERROR, True)],
                 id="Ignore other errors for retries"),
]


@pytest.mark.parametrize("duration, reset, is_retryable, scenario", RETRY_WITH_DEADLINE_CASES)
def test_retry_with_deadline(duration, reset, is_retryable, scenario):
    """Port of TestRetryWithDeadline (retry_with_deadline_test.go)."""
    clock = FakeClock()
    retry = new_retry_with_deadline(duration, reset, is_retryable, clock)
    for i, (clock_step, err, want_retry) in enumerate(scenario):
        clock.step(clock_step)
        retry.after(err)
        assert retry.should_retry() == want_retry, f"step {i}"


def test_retry_streak_restarts_after_quiet_period():
    # Errors further apart than min_reset_period start a new streak, so retries resume.
    clock = FakeClock()
    retry = new_retry_with_deadline(1, 10, errors.is_internal_error, clock)
    retry.after(INTERNAL_ERROR)
    clock.step(2)
    retry.after(INTERNAL_ERROR)  # 2 s since the last error: same streak, now too old
    assert not retry.should_retry()
    clock.step(11)
    retry.after(INTERNAL_ERROR)  # 11 s of quiet: a new streak
    assert retry.should_retry()
