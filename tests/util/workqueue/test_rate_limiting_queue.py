"""Tests for minikcm.util.workqueue.rate_limiting_queue (port of util/workqueue/rate_limiting_queue_test.go)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from minikcm.clock import EPOCH
from minikcm.driver import Driver
from minikcm.util import workqueue
from minikcm.util.workqueue.queue import Type


class RecordingDelayingQueue:
    """Stands in for the delaying queue and records each add_after (Go's test reads waitingForAddCh)."""

    def __init__(self) -> None:
        self.queue = Type()
        self.added_after: list[tuple[object, float]] = []

    def add_after(self, item, duration: float) -> None:
        self.added_after.append((item, duration))

    def last(self) -> tuple[object, float]:
        return self.added_after[-1]


RATE_LIMITING_QUEUE_SCRIPT = [
    #            action, item, want delay handed to add_after (None: check requeues) , want requeues
    pytest.param("add_rate_limited", "one", 0.001, 1, id="one-first-failure"),
    pytest.param("add_rate_limited", "one", 0.002, 2, id="one-second-failure"),
    pytest.param("add_rate_limited", "two", 0.001, 1, id="two-first-failure"),
    pytest.param("add_rate_limited", "two", 0.002, 2, id="two-second-failure"),
    pytest.param("forget", "one", None, 0, id="forget-one"),
    pytest.param("add_rate_limited", "one", 0.001, 1, id="one-starts-over"),
]


def test_rate_limiting_queue():
    """Port of TestRateLimitingQueue (util/workqueue/rate_limiting_queue_test.go)."""
    limiter = workqueue.new_item_exponential_failure_rate_limiter(0.001, 1.0)
    delaying = RecordingDelayingQueue()
    queue = workqueue.new_rate_limiting_queue_with_delaying_interface(delaying, limiter)
    for case in RATE_LIMITING_QUEUE_SCRIPT:
        action, item, want_delay, want_requeues = case.values
        if action == "add_rate_limited":
            queue.add_rate_limited(item)
            assert delaying.last() == (item, want_delay), case.id
        else:
            queue.forget(item)
        assert queue.num_requeues(item) == want_requeues, case.id


def test_rate_limited_retries_come_back_later(driven_clock):
    queue = workqueue.new_rate_limiting_queue_with_config(
        workqueue.new_item_exponential_failure_rate_limiter(1.0, 60.0),
        workqueue.RateLimitingQueueConfig(name="rs", clock=driven_clock),
    )
    driver = Driver(driven_clock, queue.steps())
    arrivals = []
    for _ in range(3):  # three failures in a row: back after 1 s, then 2 s, then 4 s
        queue.add_rate_limited("ns/web")
        driver.run_until_idle()
        item, _ = queue.get()
        arrivals.append((driven_clock.now() - EPOCH).total_seconds())
        queue.done(item)
    assert arrivals == [1.0, 3.0, 7.0]
    queue.forget("ns/web")
    assert queue.num_requeues("ns/web") == 0
    queue.shut_down()
    assert queue.shutting_down() and queue.get() == (None, True)


def test_passes_through_to_the_delaying_queue(driven_clock):
    queue = workqueue.new_rate_limiting_queue_with_config(
        workqueue.default_controller_rate_limiter(driven_clock),
        workqueue.RateLimitingQueueConfig(clock=driven_clock),
    )
    queue.add("a")
    queue.add_after("b", 5)
    assert queue.len() == 1
    assert queue.steps()[0].wakeup() == EPOCH + timedelta(seconds=5)
    item, _ = queue.get()
    queue.done(item)
    queue.shut_down_with_drain()
    assert "RateLimitingQueue(DelayingQueue(''" in repr(queue)
