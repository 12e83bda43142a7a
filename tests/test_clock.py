"""Tests for minikcm.clock, after k8s.io/utils/clock/testing/fake_clock_test.go."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from minikcm.clock import EPOCH, FakeClock, RealClock


def test_fake_clock_sleep_on_a_driven_clock_moves_the_time():
    """Port of TestFakeClockSleep: Sleep advances the fake time by its duration (Go's Sleep is a Step)."""
    clock = FakeClock(EPOCH, driven=True)
    timer = clock.new_timer(1800)
    assert clock.sleep(3600) is False
    assert clock.since(EPOCH) == 3600 and timer.fired()


def test_fake_clock_sleep(fake_clock):
    """Ours: a FakeClock that is not driven blocks its sleeper until another thread moves the time past it."""
    done = threading.Event()

    def sleeper():
        fake_clock.sleep(2)
        done.set()

    t = threading.Thread(target=sleeper, name="test/sleeper", daemon=True)
    t.start()
    while not fake_clock.has_waiters():
        threading.Event().wait(0.001)
    fake_clock.step(1)
    assert not done.wait(0.05)
    fake_clock.step(1)
    assert done.wait(2)


def test_sleep_returns_early_when_stop_is_set(fake_clock):
    stop = threading.Event()
    stop.set()
    assert fake_clock.sleep(10, stop) is True
    assert not fake_clock.has_waiters()


def test_fake_after(fake_clock):
    """Port of TestFakeAfter: has_waiters tracks a pending After until it fires."""
    assert not fake_clock.has_waiters()
    timer = fake_clock.after(1)
    assert fake_clock.has_waiters()
    fake_clock.step(0.5)
    assert not timer.fired()
    fake_clock.step(0.5)
    assert timer.fired()
    assert not fake_clock.has_waiters()


TIMER_CASES = [
    pytest.param(0.999, False, id="just-before-deadline"),
    pytest.param(1.0, True, id="at-deadline"),
    pytest.param(5.0, True, id="well-past-deadline"),
]


@pytest.mark.parametrize("advance, fired", TIMER_CASES)
def test_fake_timer_fires_at_its_deadline(fake_clock, advance, fired):
    timer = fake_clock.new_timer(1)
    fake_clock.step(advance)
    assert timer.fired() is fired


def test_timer_stop_and_reset(fake_clock):
    timer = fake_clock.new_timer(1)
    assert timer.stop() is True
    assert timer.stop() is False
    fake_clock.step(2)
    assert not timer.fired()
    assert timer.reset(1) is False
    fake_clock.step(0.5)
    assert timer.reset(1) is True  # the old deadline must not fire it
    fake_clock.step(0.6)
    assert not timer.fired()
    fake_clock.step(0.4)
    assert timer.fired()


def test_ticker_rearms_each_period(fake_clock):
    ticker = fake_clock.new_ticker(1)
    ticks = 0
    for _ in range(3):
        fake_clock.step_to_next_waiter()
        assert ticker.wait(threading.Event())
        ticks += 1
    assert ticks == 3
    assert fake_clock.now() == EPOCH + timedelta(seconds=3)
    ticker.stop()
    assert not fake_clock.has_waiters()


def test_step_to_next_waiter_fires_in_deadline_order(fake_clock):
    late = fake_clock.new_timer(5)
    early = fake_clock.new_timer(2)
    assert fake_clock.next_waiter_time() == EPOCH + timedelta(seconds=2)
    assert fake_clock.step_to_next_waiter()
    assert early.fired() and not late.fired()
    assert fake_clock.step_to_next_waiter()
    assert late.fired()
    assert fake_clock.step_to_next_waiter() is False


def test_fake_clock_needs_aware_time():
    from datetime import datetime

    with pytest.raises(ValueError):
        FakeClock(datetime(2026, 1, 1))


def test_since_and_until(fake_clock):
    start = fake_clock.now()
    fake_clock.step(3)
    assert fake_clock.since(start) == 3
    assert fake_clock.until(start + timedelta(seconds=5)) == 2


def test_real_clock_sleep_wakes_on_stop():
    stop = threading.Event()
    stop.set()
    assert RealClock().sleep(30, stop) is True


def test_real_timer_stop_wakes_waiter():
    timer = RealClock().new_timer(30)
    threading.Timer(0.05, timer.stop).start()
    assert timer.wait() is False


def test_reset_leaves_no_stale_waiter(fake_clock):
    timer = fake_clock.new_timer(1)
    timer.reset(5)
    assert fake_clock.next_waiter_time() == EPOCH + timedelta(seconds=5)
