"""Tests for minikcm/apimachinery/wait/_backoff.py: the until family, Backoff and the backoff managers
(ports of wait_test.go, and the timer-type check of loop_test.go).

Most tests run on `AutoClock` (wait_testing.py), which jumps fake time to the next
deadline whenever code waits; tests marked `threaded` use real threads and the real clock.
"""

from __future__ import annotations

import random
import threading
import time
from datetime import timedelta

import pytest

from minikcm.apimachinery import wait
from minikcm.clock import EPOCH, FakeClock, RealClock
from tests.apimachinery.wait.wait_testing import ConditionFailed, always, counting, elapsed, fail, never


def stop_after(n: int, stop: threading.Event, clock: FakeClock, log: list, work: float = 0.0):
    """An `f` that logs the fake time, runs `work` fake seconds and sets `stop` on call `n`."""

    def f() -> None:
        log.append(elapsed(clock))
        clock.step(work)
        if len(log) >= n:
            stop.set()

    return f


UNTIL_FUNCS = [
    pytest.param(lambda f, stop, clock: wait.until(f, 0, stop, clock), id="until"),
    pytest.param(lambda f, stop, clock: wait.non_sliding_until(f, 0, stop, clock), id="non-sliding-until"),
    pytest.param(lambda f, stop, clock: wait.jitter_until(f, 0, 1.0, True, stop, clock), id="jitter-until"),
]


@pytest.mark.parametrize("loop", UNTIL_FUNCS)
def test_until(loop, clock):
    """Port of TestUntil, TestNonSlidingUntil and TestJitterUntil (pkg/util/wait/wait_test.go)."""
    stopped = threading.Event()
    stopped.set()

    def must_not_run() -> None:
        raise AssertionError("should not have been invoked")

    loop(must_not_run, stopped, clock)

    stop, log = threading.Event(), []
    loop(stop_after(3, stop, clock, log), stop, clock)
    assert log == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("loop", [
    pytest.param(lambda f, stop, clock: wait.until(f, 30, stop, clock), id="until"),
    pytest.param(lambda f, stop, clock: wait.jitter_until(f, 30, 1.0, True, stop, clock), id="jitter-until"),
])
def test_until_returns_immediately(loop):
    """Port of TestUntilReturnsImmediately and TestJitterUntilReturnsImmediately (pkg/util/wait/wait_test.go)."""
    clock = FakeClock(EPOCH)  # not AutoClock: a wait that did not return at once would hang
    stop, log = threading.Event(), []
    loop(stop_after(1, stop, clock, log), stop, clock)
    assert log == [0.0]
    assert clock.now() == EPOCH


def test_jitter_until_exception_propagates(clock):
    # Replaces TestJitterUntilRecoversPanic: with no HandleCrash inside the loop,
    # an exception from f ends the loop and reaches the caller (or the thread target).
    calls = []

    def f() -> None:
        calls.append(1)
        if len(calls) == 2:
            raise ConditionFailed("second call")

    with pytest.raises(ConditionFailed):
        wait.jitter_until(f, 0.001, 1.0, True, threading.Event(), clock)
    assert len(calls) == 2


def test_jitter_until_negative_factor(clock):
    """Port of TestJitterUntilNegativeFactor (pkg/util/wait/wait_test.go): a negative factor means no jitter."""
    stop, log = threading.Event(), []
    wait.jitter_until(stop_after(3, stop, clock, log), 1.0, -30.0, True, stop, clock)
    assert log == [0.0, 1.0, 2.0]


SLIDING_CASES = [
    #            sliding want call times (f runs 0.3 s, period 1 s)
    pytest.param(True,   [0.0, 1.3, 2.6], id="sliding-period-starts-after-f"),
    pytest.param(False,  [0.0, 1.0, 2.0], id="non-sliding-period-includes-f"),
]


@pytest.mark.parametrize("sliding, want", SLIDING_CASES)
def test_backoff_until_sliding(sliding, want, clock):
    stop, log = threading.Event(), []
    manager = wait.new_jittered_backoff_manager(1.0, 0.0, clock)
    wait.backoff_until(stop_after(3, stop, clock, log, work=0.3), manager, sliding, stop)
    assert log == pytest.approx(want)


def test_forever_ends_only_by_exception(clock):
    log = []

    def f() -> None:
        log.append(elapsed(clock))
        if len(log) == 3:
            raise ConditionFailed("done")

    with pytest.raises(ConditionFailed):
        wait.forever(f, 2.0, clock)
    assert log == [0.0, 2.0, 4.0]


@pytest.mark.threaded
def test_until_threaded_real_clock():
    """Port of TestUntil (pkg/util/wait/wait_test.go) with a real thread and the real clock."""
    stop = threading.Event()
    called = threading.Semaphore(0)
    thread = threading.Thread(target=wait.until, args=(called.release, 0.001, stop), daemon=True)
    thread.start()
    assert called.acquire(timeout=5)
    stop.set()
    thread.join(5)
    assert not thread.is_alive()


BACKOFF_STEP_CASES = [
    #            initial                                                        want
    pytest.param(dict(duration=1, steps=-1),                                    [1, 1, 1], id="negative-steps"),
    pytest.param(dict(duration=1, steps=0),                                     [1, 1, 1], id="zero-steps"),
    pytest.param(dict(duration=1, steps=1),                                     [1, 1, 1], id="one-step-no-factor"),
    pytest.param(dict(duration=1, factor=1.0, steps=1),                         [1, 1, 1], id="one-step-factor-one"),
    pytest.param(dict(duration=1, factor=2, steps=3),                           [1, 2, 4], id="doubling"),
    pytest.param(dict(duration=1, factor=2, steps=3, cap=3),                    [1, 2, 3], id="doubling-capped"),
    pytest.param(dict(duration=1, factor=2, steps=2, cap=3, jitter=0.5),        [2, 3, 3], id="capped-jittered"),
    pytest.param(dict(duration=1, factor=2, steps=6, jitter=4),                 [1, 2, 4, 8, 16, 32], id="jittered"),
]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("initial, want", BACKOFF_STEP_CASES)
def test_backoff_step(initial, want, seed):
    """Port of TestBackoff_Step (pkg/util/wait/wait_test.go); Go's nil-Backoff row has no Python twin."""
    backoff = wait.Backoff(**initial, rng=random.Random(seed))
    for i, expected in enumerate(want):
        got = backoff.step()
        if backoff.jitter > 0:
            assert got != expected, f"step {i}: no jitter"
            assert (expected - got) / expected <= backoff.jitter, f"step {i}: {got} outside range"
        else:
            assert got == expected, f"step {i}"


def test_backoff_step_cap_zeroes_steps():
    backoff = wait.Backoff(duration=1, factor=2, steps=10, cap=3)
    assert [backoff.step() for _ in range(4)] == [1, 2, 3, 3]
    assert backoff.steps == 0 and backoff.duration == 3


def test_backoff_delay_func_does_not_mutate():
    backoff = wait.Backoff(duration=1, factor=2, steps=3)
    fn = backoff.delay_func()
    assert [fn(), fn(), fn(), fn()] == [1, 2, 4, 8]  # steps spent: the last duration stays
    assert backoff == wait.Backoff(duration=1, factor=2, steps=3)


EXPONENTIAL_BACKOFF_CASES = [
    #            backoff                              results  want_attempts  raises
    pytest.param(dict(factor=1.0),                    never,   0,             wait.WaitTimeoutError, id="exits-immediately-no-steps"),
    pytest.param(dict(factor=1.0, steps=3),           never,   3,             wait.WaitTimeoutError, id="waits-up-to-steps"),
    pytest.param(dict(factor=1.0, steps=3),           always,  1,             None,                  id="returns-immediately"),
    pytest.param(dict(factor=1.0, steps=3),           fail,    1,             ConditionFailed,       id="returns-immediately-on-error"),
    pytest.param(dict(factor=1.0, steps=3),           lambda n: n >= 2, 2,    None,                  id="invoked-multiple-times"),
    pytest.param(dict(factor=1.0, steps=1),           never,   1,             wait.WaitTimeoutError, id="single-step-false"),
    pytest.param(dict(factor=1.0, steps=5),           lambda n: n == 3, 3,    None,                  id="true-after-three"),
]


@pytest.mark.parametrize("params, results, want_attempts, raises", EXPONENTIAL_BACKOFF_CASES)
def test_exponential_backoff(params, results, want_attempts, raises, clock):
    """Port of TestExponentialBackoff (and the step rows of TestExponentialBackoffWithContext) (pkg/util/wait/wait_test.go)."""
    condition = counting(results)
    backoff = wait.Backoff(duration=0.001, **params)
    if raises is None:
        wait.exponential_backoff(backoff, condition, clock)
    else:
        with pytest.raises(raises):
            wait.exponential_backoff(backoff, condition, clock)
    assert condition.attempts == want_attempts


def test_exponential_backoff_sleeps_on_clock(clock):
    log: list[float] = []
    backoff = wait.Backoff(duration=1, factor=2, steps=3)
    with pytest.raises(wait.WaitTimeoutError):
        wait.exponential_backoff(backoff, counting(never, clock, log), clock)
    assert log == [0.0, 1.0, 3.0]
    assert backoff.steps == 3  # the caller's Backoff is a value: unchanged


def test_exponential_backoff_manager_get_next_backoff(fake_clock):
    """Port of TestExponentialBackoffManagerGetNextBackoff (pkg/util/wait/wait_test.go)."""
    manager = wait.new_exponential_backoff_manager(1, 10, 10, 2.0, 0.0, fake_clock)
    assert [manager.get_next_backoff() for _ in range(7)] == [1, 2, 4, 8, 10, 10, 10]
    fake_clock.step(11)
    assert manager.get_next_backoff() == 1


def test_jittered_backoff_manager_get_next_backoff(fake_clock):
    """Port of TestJitteredBackoffManagerGetNextBackoff (pkg/util/wait/wait_test.go)."""
    manager = wait.new_jittered_backoff_manager(1, 1, fake_clock, random.Random(3))
    for _ in range(5):
        assert 1 <= manager.get_next_backoff() <= 2
    manager = wait.new_jittered_backoff_manager(1, -1, fake_clock)
    assert manager.get_next_backoff() == 1


def test_backoff_manager_reuses_one_timer(fake_clock):
    manager = wait.new_exponential_backoff_manager(1, 10, 100, 2.0, 0.0, fake_clock)
    first = manager.backoff()
    fake_clock.step(1)
    assert first.fired()
    second = manager.backoff()
    assert second is first and not second.fired()
    assert second.deadline == EPOCH + timedelta(seconds=3)


@pytest.mark.threaded
def test_jitter_backoff_manager_with_real_clock():
    """Port of TestJitterBackoffManagerWithRealClock (pkg/util/wait/wait_test.go)."""
    manager = wait.new_jittered_backoff_manager(0.001, 0, RealClock())
    for _ in range(5):
        start = time.monotonic()
        assert manager.backoff().wait()
        assert time.monotonic() - start >= 0.001


@pytest.mark.threaded
def test_exponential_backoff_manager_with_real_clock():
    """Port of TestExponentialBackoffManagerWithRealClock (pkg/util/wait/wait_test.go)."""
    manager = wait.new_exponential_backoff_manager(0.001, 0.010, 3600, 2.0, 0.0, RealClock())
    for factor in [1, 2, 4, 8, 10, 10, 10]:
        start = time.monotonic()
        assert manager.backoff().wait()
        assert time.monotonic() - start >= factor * 0.001


def test_backoff_delay_with_reset_exponential(fake_clock):
    """Port of TestBackoffDelayWithResetExponential (pkg/util/wait/wait_test.go)."""
    delay = wait.Backoff(duration=1, cap=10, factor=2.0, steps=10).delay_with_reset(fake_clock, 10)
    assert [delay() for _ in range(7)] == [1, 2, 4, 8, 10, 10, 10]
    fake_clock.step(11)
    assert delay() == 1


def test_backoff_delay_with_reset_empty(fake_clock):
    """Port of TestBackoffDelayWithResetEmpty (pkg/util/wait/wait_test.go): a zero interval never grows."""
    delay = wait.Backoff(duration=1, cap=10, factor=2.0, steps=10).delay_with_reset(fake_clock, 0)
    assert [delay() for _ in range(7)] == [1] * 7
    fake_clock.step(11)
    assert delay() == 1


def test_backoff_delay_with_reset_jitter(fake_clock):
    """Port of TestBackoffDelayWithResetJitter (pkg/util/wait/wait_test.go)."""
    delay = wait.Backoff(duration=1, jitter=1, rng=random.Random(5)).delay_with_reset(fake_clock, 0)
    for _ in range(5):
        assert 1 <= delay() <= 2
    delay = wait.Backoff(duration=1, jitter=-1).delay_with_reset(fake_clock, 0)
    assert delay() == 1


def test_resetting_backoff_manager_timer(fake_clock):
    manager = wait.ResettingBackoffManager(wait.Backoff(duration=1, factor=2, steps=5), 100, fake_clock)
    timer = manager.backoff()
    assert timer.deadline == EPOCH + timedelta(seconds=1)
    assert manager.backoff() is timer and timer.deadline == EPOCH + timedelta(seconds=2)
    assert isinstance(manager.timer(), wait.VariableTimer)


TIMER_KIND_CASES = [
    pytest.param(dict(duration=0.001, jitter=1.0), wait.VariableTimer, id="variable-timer-with-jitter"),
    pytest.param(dict(duration=0.001, steps=2, factor=2), wait.VariableTimer, id="variable-timer-with-steps"),
    pytest.param(dict(duration=0.001), wait.FixedTimer, id="fixed-timer"),
    pytest.param(dict(), wait.NoopTimer, id="no-op-timer"),
]


@pytest.mark.parametrize("params, kind", TIMER_KIND_CASES)
def test_backoff_timer_kind(params, kind, clock):
    """The timer-type check of Test_loopConditionUntilContext_Elapsed (pkg/util/wait/loop_test.go), in fake time."""
    timer = wait.Backoff(**params).timer(clock)
    assert type(timer) is kind
    log: list[float] = []
    wait.loop_condition_until(timer, False, False, counting(lambda n: n >= 10, clock, log), clock=clock)
    assert len(log) == 10
    assert elapsed(clock) >= 10 * params.get("duration", 0)
