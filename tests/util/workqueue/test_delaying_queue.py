"""Tests for minikcm.util.workqueue.delaying_queue (port of util/workqueue/delaying_queue_test.go).

The upstream tests run the waiting goroutine and poll for its effects. Here the
queue is built on a driven FakeClock (no thread) and the test calls the step,
`process_waiting`, after moving the FakeClock; one threaded test keeps the
upstream shape with a live waiting thread.
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minikcm.apimachinery import wait
from minikcm.clock import EPOCH, FakeClock
from minikcm.driver import Driver
from minikcm.util import workqueue
from minikcm.util.workqueue.delaying_queue import (
    MAX_WAIT,
    DelayingType,
    WaitFor,
    WaitForPriorityQueue,
    heap_fix,
    heap_pop,
    heap_push,
)


def new_queue(clock: FakeClock, name: str = "") -> DelayingType:
    assert clock.driven, "build the queue on FakeClock(..., driven=True)"
    return workqueue.new_delaying_queue_with_config(workqueue.DelayingQueueConfig(name=name, clock=clock))


def step(q: DelayingType, clock: FakeClock, seconds: float) -> None:
    """Move the fake time on and run the waiting step once, as the driver would."""
    clock.step(seconds)
    q.process_waiting()


def take(q: DelayingType):
    item, shutdown = q.get()
    assert not shutdown
    q.done(item)
    return item


def test_simple_queue(driven_clock):
    """Port of TestSimpleQueue (util/workqueue/delaying_queue_test.go)."""
    q = new_queue(driven_clock)
    q.add_after("foo", 0.050)
    q.process_waiting()
    assert q.len() == 0
    step(q, driven_clock, 0.060)
    assert q.len() == 1
    assert take(q) == "foo"
    step(q, driven_clock, 10)  # past the next heartbeat: nothing more arrives
    assert q.len() == 0


def test_deduping(driven_clock):
    """Port of TestDeduping (util/workqueue/delaying_queue_test.go): the earlier time wins."""
    q = new_queue(driven_clock)
    q.add_after("foo", 0.050)
    q.add_after("foo", 0.070)  # later: ignored
    q.process_waiting()
    assert q.len() == 0
    step(q, driven_clock, 0.060)
    assert q.len() == 1
    take(q)
    step(q, driven_clock, 0.020)  # past the second (dropped) time
    assert q.len() == 0

    q.add_after("foo", 0.050)
    q.add_after("foo", 0.030)  # earlier: moves the entry forward
    q.process_waiting()
    assert q.len() == 0
    step(q, driven_clock, 0.040)
    assert q.len() == 1
    take(q)
    step(q, driven_clock, 0.020)
    assert q.len() == 0


def test_add_two_fire_early(driven_clock):
    """Port of TestAddTwoFireEarly (util/workqueue/delaying_queue_test.go)."""
    q = new_queue(driven_clock)
    q.add_after("foo", 1)
    q.add_after("bar", 0.050)
    q.process_waiting()
    assert q.len() == 0
    step(q, driven_clock, 0.060)
    assert q.len() == 1
    assert take(q) == "bar"
    q.add_after("baz", 2)
    step(q, driven_clock, 1)
    assert q.len() == 1
    assert take(q) == "foo"
    step(q, driven_clock, 2)
    assert q.len() == 1
    assert take(q) == "baz"


def test_copy_shifting(driven_clock):
    """Port of TestCopyShifting (util/workqueue/delaying_queue_test.go): ready items leave in time order."""
    q = new_queue(driven_clock)
    q.add_after("foo", 1)
    q.add_after("bar", 0.500)
    q.add_after("baz", 0.250)
    q.process_waiting()
    assert q.len() == 0
    step(q, driven_clock, 2)
    assert q.len() == 3
    assert [take(q), take(q), take(q)] == ["baz", "bar", "foo"]


def test_add_after_non_positive_adds_now(driven_clock):
    q = new_queue(driven_clock)
    q.add_after("now", 0)
    q.add_after("past", -1)
    assert q.len() == 2 and q.next_ready_at() is None


def test_add_after_ignored_once_shutting_down(driven_clock):
    q = new_queue(driven_clock)
    q.add_after("early", 1)
    q.shut_down()
    q.shut_down()  # a second call is harmless
    q.add_after("late", 1)
    assert list(q.waiting_entry_by_data) == ["early"]
    step(q, driven_clock, 5)
    assert q.len() == 0  # the waiting loop has ended
    assert not q.waiting_ready() and q.waiting_wakeup() is None


def test_driver_runs_the_waiting_step(driven_clock):
    q = new_queue(driven_clock, name="pods")
    driver = Driver(driven_clock, q.steps())
    q.add_after("ns/b", 2)
    q.add_after("ns/a", 1)
    driver.run_until_idle()
    assert driven_clock.now() == EPOCH + timedelta(seconds=2)
    assert [(e.time - EPOCH).total_seconds() for e in driver.trace] == [1.0, 2.0]
    assert {e.step for e in driver.trace} == {"workqueue/pods/waiting"}
    assert [take(q), take(q)] == ["ns/a", "ns/b"]


def test_driven_clock_starts_no_thread(driven_clock):
    q = workqueue.new_delaying_queue_with_config(workqueue.DelayingQueueConfig(clock=driven_clock))
    assert q._thread is None and "driven" in repr(q)
    assert not hasattr(workqueue.DelayingQueueConfig(), "deterministic")


@pytest.mark.threaded
def test_undriven_fake_clock_starts_the_waiting_thread(fake_clock):
    q = workqueue.new_delaying_queue_with_config(workqueue.DelayingQueueConfig(clock=fake_clock))
    assert q._thread is not None and "threaded" in repr(q)
    q.shut_down()
    q._thread.join(5)


def test_repr_takes_no_lock(driven_clock):
    q = new_queue(driven_clock, name="rs")
    for i, key in enumerate(["d", "c", "b", "a"]):
        q.add_after(key, 4 - i)
    with q._lock:
        text = repr(q)
    assert "waiting=WaitForPriorityQueue(len=4, soonest=['a'@00:00:01" in text
    assert "'c'@00:00:03.000000, ...]" in text


@given(st.lists(st.tuples(st.sampled_from("abcdef"), st.integers(1, 20)), max_size=30))
def test_earliest_time_wins_and_order_is_by_time(adds):
    clock = FakeClock(EPOCH, driven=True)
    q = new_queue(clock)
    earliest: dict[str, int] = {}
    for item, delay in adds:
        q.add_after(item, delay)
        earliest[item] = min(delay, earliest.get(item, delay))
    entries = q.waiting_for_queue.entries
    assert all(e.index == i for i, e in enumerate(entries))
    step(q, clock, 21)
    got = [take(q) for _ in range(q.len())]
    assert [earliest[x] for x in got] == sorted(earliest.values())
    assert set(got) == set(earliest)


def test_heap_operations_keep_indexes():
    h = WaitForPriorityQueue()
    entries = [WaitFor(name, EPOCH + timedelta(seconds=s)) for name, s in [("x", 5), ("y", 3), ("z", 4)]]
    for e in entries:
        heap_push(h, e)
    assert h.peek().data == "y"
    entries[0].ready_at = EPOCH  # x becomes the soonest
    heap_fix(h, entries[0].index)
    assert [heap_pop(h).data for _ in range(3)] == ["x", "y", "z"]
    assert all(e.index == -1 for e in entries)


def parked_until(clock: FakeClock, seconds: float) -> None:
    """Wait (real time) until the waiting thread sleeps on the clock until EPOCH + `seconds`."""
    want = EPOCH + timedelta(seconds=seconds)
    wait.poll_immediate(0.001, 5, lambda: clock.next_waiter_time() == want)


@pytest.mark.threaded
def test_simple_queue_threaded():
    """Port of TestSimpleQueue (util/workqueue/delaying_queue_test.go) with the live waiting thread."""
    clock = FakeClock(EPOCH)
    q = workqueue.new_delaying_queue_with_config(
        workqueue.DelayingQueueConfig(name="threaded", clock=clock))
    assert q._thread is not None and q._thread.name == "workqueue/threaded/waiting"
    q.add_after("foo", 0.050)
    parked_until(clock, 0.050)
    assert q.len() == 0
    clock.step(0.060)
    wait.poll(0.001, 5, lambda: q.len() == 1)
    assert take(q) == "foo"
    clock.step(MAX_WAIT)  # past the next heartbeat
    time.sleep(0.03)
    assert q.len() == 0
    q.shut_down()
    q._thread.join(5)
    assert not q._thread.is_alive()


@pytest.mark.threaded
def test_add_after_wakes_the_waiting_thread():
    clock = FakeClock(EPOCH)
    q = workqueue.new_delaying_queue_with_config(workqueue.DelayingQueueConfig(clock=clock))
    seen = threading.Event()

    def consumer() -> None:
        item, _ = q.get()
        if item == "soon":
            seen.set()

    threading.Thread(target=consumer, daemon=True).start()
    q.add_after("later", 100)
    parked_until(clock, MAX_WAIT)  # the heartbeat cap, since "later" is far off
    q.add_after("soon", 1)  # earlier than anything parked: must wake the sleeping thread
    parked_until(clock, 1)
    clock.step(1)
    assert seen.wait(5)
    q.shut_down()
