"""Tests for minikcm.util.workqueue.default_rate_limiters (port of util/workqueue/default_rate_limiters_test.go).

The two token-bucket tests at the end are ours: BucketRateLimiter over minikcm.util.rate.
"""

from __future__ import annotations

import pytest

from minikcm.util import workqueue
from minikcm.util.rate import new_limiter

MS = 0.001


def run_script(limiter, script) -> None:
    """Apply (action, item, want) steps: `when` returns a delay, `requeues` a count, `forget` nothing."""
    for i, (action, item, want) in enumerate(script):
        if action == "when":
            assert limiter.when(item) == pytest.approx(want), f"step {i}"
        elif action == "requeues":
            assert limiter.num_requeues(item) == want, f"step {i}"
        else:
            limiter.forget(item)


def test_item_exponential_failure_rate_limiter():
    """Port of TestItemExponentialFailureRateLimiter (util/workqueue/default_rate_limiters_test.go)."""
    run_script(workqueue.new_item_exponential_failure_rate_limiter(1 * MS, 1.0), [
        ("when", "one", 1 * MS), ("when", "one", 2 * MS), ("when", "one", 4 * MS),
        ("when", "one", 8 * MS), ("when", "one", 16 * MS), ("requeues", "one", 5),
        ("when", "two", 1 * MS), ("when", "two", 2 * MS), ("requeues", "two", 2),
        ("forget", "one", None), ("requeues", "one", 0), ("when", "one", 1 * MS),
    ])


OVERFLOW_CASES = [
    #            base   max          failures before  want
    pytest.param(MS,    1000.0,      5,               32 * MS,     id="ms-sixth-failure"),
    pytest.param(MS,    1000.0,      1000,            1000.0,      id="ms-overflow"),
    pytest.param(60.0,  1000 * 3600, 2,               4 * 60.0,    id="minute-third-failure"),
    pytest.param(60.0,  1000 * 3600, 1000,            1000 * 3600, id="minute-overflow"),
    pytest.param(MS,    1e12,        70,              1e12,        id="past-int64-nanoseconds-gives-max"),
]


@pytest.mark.parametrize("base, max_delay, failures, want", OVERFLOW_CASES)
def test_item_exponential_failure_rate_limiter_over_flow(base, max_delay, failures, want):
    """Port of TestItemExponentialFailureRateLimiterOverFlow (util/workqueue/default_rate_limiters_test.go)."""
    limiter = workqueue.new_item_exponential_failure_rate_limiter(base, max_delay)
    for _ in range(failures):
        limiter.when("item")
    assert limiter.when("item") == pytest.approx(want)


def test_item_fast_slow_rate_limiter():
    """Port of TestItemFastSlowRateLimiter (util/workqueue/default_rate_limiters_test.go)."""
    run_script(workqueue.new_item_fast_slow_rate_limiter(5 * MS, 10.0, 3), [
        ("when", "one", 5 * MS), ("when", "one", 5 * MS), ("when", "one", 5 * MS),
        ("when", "one", 10.0), ("when", "one", 10.0), ("requeues", "one", 5),
        ("when", "two", 5 * MS), ("when", "two", 5 * MS), ("requeues", "two", 2),
        ("forget", "one", None), ("requeues", "one", 0), ("when", "one", 5 * MS),
    ])


def test_max_of_rate_limiter():
    """Port of TestMaxOfRateLimiter (util/workqueue/default_rate_limiters_test.go)."""
    run_script(workqueue.new_max_of_rate_limiter(
        workqueue.new_item_fast_slow_rate_limiter(5 * MS, 3.0, 3),
        workqueue.new_item_exponential_failure_rate_limiter(1 * MS, 1.0),
    ), [
        ("when", "one", 5 * MS), ("when", "one", 5 * MS), ("when", "one", 5 * MS),
        ("when", "one", 3.0), ("when", "one", 3.0), ("requeues", "one", 5),
        ("when", "two", 5 * MS), ("when", "two", 5 * MS), ("requeues", "two", 2),
        ("forget", "one", None), ("requeues", "one", 0), ("when", "one", 5 * MS),
    ])


class StepRateLimiter:
    """`base_delay` for the first `threshold` calls, `max_delay` after (Go: the test's StepRateLimiter)."""

    def __init__(self, base_delay: float, max_delay: float, threshold: int) -> None:
        self.count = 0
        self.threshold = threshold
        self.base_delay = base_delay
        self.max_delay = max_delay

    def when(self, item) -> float:
        self.count += 1
        return self.base_delay if self.count <= self.threshold else self.max_delay

    def num_requeues(self, item) -> int:
        return 0

    def forget(self, item) -> None:
        pass


def test_with_max_wait_rate_limiter():
    """Port of TestWithMaxWaitRateLimiter (util/workqueue/default_rate_limiters_test.go)."""
    limiter = workqueue.new_with_max_wait_rate_limiter(StepRateLimiter(5 * MS, 1000.0, 100), 500.0)
    assert [limiter.when(i) for i in range(100)] == [5 * MS] * 100
    assert [limiter.when(i) for i in range(100, 200)] == [500.0] * 100


def test_default_item_based_rate_limiter():
    limiter = workqueue.default_item_based_rate_limiter()
    assert [limiter.when("x") for _ in range(3)] == pytest.approx([MS, 2 * MS, 4 * MS])


# -- the token bucket (minikcm.util.rate) -------------------------------------------------


def test_bucket_burst_then_refill(fake_clock):
    bucket = workqueue.BucketRateLimiter(new_limiter(10, 100, fake_clock))
    assert [bucket.when(i) for i in range(100)] == [0.0] * 100
    assert bucket.when("101st") == pytest.approx(0.1)
    assert bucket.when("102nd") == pytest.approx(0.2)
    fake_clock.step(1.0)  # pays the 0.2 debt and refills 8 more
    assert [bucket.when(i) for i in range(8)] == [0.0] * 8
    assert bucket.when("next") == pytest.approx(0.1)
    assert bucket.num_requeues("next") == 0


def test_default_controller_rate_limiter(fake_clock):
    limiter = workqueue.default_controller_rate_limiter(fake_clock)
    assert [limiter.when(f"ns/{i}") for i in range(100)] == [0.005] * 100  # per item: 5 ms
    assert limiter.when("ns/100") == pytest.approx(0.1)  # the bucket is empty: 10 per second
    assert limiter.when("ns/0") == pytest.approx(0.2)
    assert limiter.num_requeues("ns/0") == 2
    limiter.forget("ns/0")
    assert limiter.num_requeues("ns/0") == 0
