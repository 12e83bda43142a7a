"""Tests for minikcm.apimachinery.wait (ports of pkg/util/wait wait_test.go, loop_test.go, error_test.go).

Most tests run on `AutoClock`, a FakeClock that jumps to the next pending deadline
whenever code waits on it, so loops run single-threaded, in fake time, with no
real time passing. Tests marked `threaded` use real threads and the real clock.
"""

from __future__ import annotations

import random
import threading
import time
from datetime import timedelta

import pytest

from minikcm.apimachinery import wait
from minikcm.clock import EPOCH, FakeClock, FakeTimer, RealClock


class AutoTimer:
    """Wraps a FakeTimer; waiting on it moves the fake time on instead of blocking."""

    def __init__(self, clock: AutoClock, inner: FakeTimer) -> None:
        self.clock = clock
        self.inner = inner

    @property
    def deadline(self):
        return self.inner.deadline

    def fired(self) -> bool:
        return self.inner.fired()

    def stop(self) -> bool:
        return self.inner.stop()

    def reset(self, d: float) -> bool:
        return self.inner.reset(d)

    def wait(self, stop: threading.Event | None = None) -> bool:
        while not self.inner.fired():
            if (stop is not None and stop.is_set()) or self.inner.dead:
                return False
            if not self.clock.step_to_next_waiter():
                raise AssertionError("a single-threaded test would block for ever here")
        return True


class AutoClock(FakeClock):
    """A FakeClock for single-threaded tests: a wait jumps the time to the next deadline."""

    def new_timer(self, d: float) -> AutoTimer:  # type: ignore[override]
        return AutoTimer(self, super().new_timer(d))

    def after(self, d: float) -> AutoTimer:  # type: ignore[override]
        return self.new_timer(d)


@pytest.fixture
def clock() -> AutoClock:
    return AutoClock(EPOCH)


def elapsed(clock: FakeClock) -> float:
    return (clock.now() - EPOCH).total_seconds()


def counting(results, clock: FakeClock | None = None, log: list | None = None):
    """A condition returning `results(attempt)`; counts calls in .attempts and logs fake times."""

    def condition() -> bool:
        condition.attempts += 1
        if log is not None and clock is not None:
            log.append(elapsed(clock))
        return results(condition.attempts)

    condition.attempts = 0
    return condition


def never(_: int) -> bool:
    return False


def always(_: int) -> bool:
    return True


class ConditionFailed(Exception):
    pass


def fail(_: int) -> bool:
    raise ConditionFailed("condition failed")


# ---------------------------------------------------------------------------
# error.go
# ---------------------------------------------------------------------------


def wrapped(inner: BaseException) -> BaseException:
    outer = RuntimeError(f"wrapped: {inner}")
    outer.__cause__ = inner
    return outer


def not_wrapped(inner: BaseException) -> BaseException:
    return RuntimeError(f"wrapped: {inner}")


INTERRUPTED_CASES = [
    pytest.param(lambda: wait.WaitTimeoutError(), True, id="wait-timeout"),
    pytest.param(lambda: wait.ContextCanceledError(), True, id="canceled"),
    pytest.param(lambda: wait.DeadlineExceededError(), True, id="deadline-exceeded"),
    pytest.param(lambda: wrapped(wait.WaitTimeoutError()), True, id="wrapped-wait-timeout"),
    pytest.param(lambda: wrapped(wait.ContextCanceledError()), True, id="wrapped-canceled"),
    pytest.param(lambda: wrapped(wait.DeadlineExceededError()), True, id="wrapped-deadline"),
    pytest.param(lambda: wait.error_interrupted(None), True, id="error-interrupted-nil"),
    pytest.param(lambda: wait.error_interrupted(ValueError("unknown")), True, id="error-interrupted-unknown"),
    pytest.param(lambda: wait.error_interrupted(wait.ContextCanceledError()), True, id="error-interrupted-canceled"),
    pytest.param(lambda: wait.error_interrupted(wait.WaitTimeoutError()), True, id="error-interrupted-timeout"),
    pytest.param(lambda: None, False, id="none"),
    pytest.param(lambda: ValueError("not a cancellation"), False, id="other-error"),
    pytest.param(lambda: not_wrapped(wait.WaitTimeoutError()), False, id="not-wrapped-timeout"),
    pytest.param(lambda: not_wrapped(wait.ContextCanceledError()), False, id="not-wrapped-canceled"),
    pytest.param(lambda: not_wrapped(wait.DeadlineExceededError()), False, id="not-wrapped-deadline"),
]


@pytest.mark.parametrize("make_err, want", INTERRUPTED_CASES)
def test_interrupted(make_err, want):
    """Port of TestInterrupted (pkg/util/wait/error_test.go)."""
    assert wait.interrupted(make_err()) is want


def test_error_interrupted():
    """Port of TestErrorInterrupted (pkg/util/wait/error_test.go)."""
    internal = wait.WaitTimeoutError()
    assert wait.error_interrupted(internal) is internal
    nested = wait.WaitTimeoutError(wait.WaitTimeoutError())
    assert wait.error_interrupted(nested) is nested

    cause = ValueError("test")
    err = wait.error_interrupted(cause)
    assert err.cause is cause and err.__cause__ is cause
    assert str(err) == str(cause)
    assert wait.interrupted(err)
    assert not wait.interrupted(cause)
    assert str(wait.WaitTimeoutError()) == "timed out waiting for the condition"


# ---------------------------------------------------------------------------
# wait.go: Group, jitter, NEVER_STOP
# ---------------------------------------------------------------------------


def test_group_deterministic_runs_inline_in_call_order():
    calls = []
    group = wait.Group(deterministic=True)
    for i in range(3):
        group.start(lambda i=i: calls.append((i, threading.current_thread().name)))
    assert [c[0] for c in calls] == [0, 1, 2]
    assert {c[1] for c in calls} == {threading.current_thread().name}
    group.wait()


def test_group_follows_module_switch(monkeypatch):
    monkeypatch.setattr(wait, "DETERMINISTIC", True)
    calls = []
    wait.Group().start(lambda: calls.append(threading.current_thread().name))
    assert calls == [threading.current_thread().name]


def test_group_deterministic_exception_reaches_caller():
    def boom():
        raise ConditionFailed("boom")

    with pytest.raises(ConditionFailed):
        wait.Group(deterministic=True).start(boom)


def test_group_start_with_channel_passes_stop():
    stop = threading.Event()
    seen = []
    wait.Group(deterministic=True).start_with_channel(stop, seen.append)
    assert seen == [stop]


@pytest.mark.threaded
def test_group_wait_joins_every_thread():
    release = threading.Event()
    finished = []
    lock = threading.Lock()

    def work(i: int) -> None:
        release.wait(5)
        with lock:
            finished.append(i)

    group = wait.Group(deterministic=False, name="test/group")
    for i in range(5):
        group.start(lambda i=i: work(i))
    assert "started=5" in repr(group)
    release.set()
    group.wait()
    assert sorted(finished) == [0, 1, 2, 3, 4]


def test_never_stop_cannot_be_set():
    with pytest.raises(RuntimeError):
        wait.NEVER_STOP.set()
    assert not wait.NEVER_STOP.is_set()


JITTER_CASES = [
    #            duration max_factor low   high
    pytest.param(2.0,     0.5,       2.0,  3.0, id="half"),
    pytest.param(2.0,     0.0,       2.0,  4.0, id="zero-factor-means-one"),
    pytest.param(2.0,     -3.0,      2.0,  4.0, id="negative-factor-means-one"),
    pytest.param(0.0,     1.0,       0.0,  0.0, id="zero-duration"),
]


@pytest.mark.parametrize("duration, max_factor, low, high", JITTER_CASES)
def test_jitter_range(duration, max_factor, low, high):
    rng = random.Random(1)
    for _ in range(50):
        assert low <= wait.jitter(duration, max_factor, rng) <= high


def test_jitter_uses_module_rand_when_no_rng(monkeypatch):
    monkeypatch.setattr(wait, "jitter_rand", lambda: 0.5)
    assert wait.jitter(2.0, 1.0) == 3.0


# ---------------------------------------------------------------------------
# backoff.go: until, jitter_until, backoff_until
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# backoff.go: Backoff.step, exponential_backoff, backoff managers
# ---------------------------------------------------------------------------

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


def test_fixed_timer_drops_missed_ticks(clock):
    # A slow condition (2.5 s per call, interval 1 s) is called again at once, and
    # later ticks keep the 1 s cadence, as with Go's ticker.
    log: list[float] = []

    def slow(n: int) -> bool:
        clock.step(2.5)
        return n >= 3

    wait.poll_until(1.0, None, False, counting(slow, clock, log), clock=clock)
    assert log == [1.0, 3.5, 6.0]


# ---------------------------------------------------------------------------
# loop.go
# ---------------------------------------------------------------------------


def sleepy(clock: FakeClock, last: int):
    """Results for the long-condition rows: run 0.2 fake seconds, succeed on attempt `last`."""

    def results(n: int) -> bool:
        if n >= last:
            return True
        clock.step(0.2)
        return False

    return results


LOOP_SEMANTIC_CASES = [
    # immediate, sliding, stopped, timeout, results, stop_after, timer, want_attempts, raises
    pytest.param(False, False, False, None, lambda c: always, 0, None, 1, None,
                 id="condition-successful-is-only-one-attempt"),
    pytest.param(False, False, False, None, lambda c: (lambda n: n > 1), 0, None, 2, None,
                 id="delayed-condition-successful-causes-return-and-attempts"),
    pytest.param(False, False, False, None, lambda c: (lambda n: n >= 100), 0, None, 100, None,
                 id="delayed-condition-successful-many-times"),
    pytest.param(False, False, False, None, lambda c: fail, 0, None, 1, ConditionFailed,
                 id="condition-exits-after-an-error"),
    pytest.param(False, False, True, None, lambda c: never, 0, None, 0, wait.ContextCanceledError,
                 id="context-already-canceled-no-attempts-expected"),
    pytest.param(True, False, True, None, lambda c: always, 0, None, 1, None,
                 id="context-already-canceled-condition-success-and-immediate"),
    pytest.param(True, False, True, None, lambda c: fail, 0, None, 1, ConditionFailed,
                 id="context-already-canceled-condition-fail-and-immediate"),
    pytest.param(True, False, True, None, lambda c: never, 0, None, 1, wait.ContextCanceledError,
                 id="context-already-canceled-and-immediate-1-attempt"),
    pytest.param(False, False, False, None, lambda c: never, 5, None, 5, wait.ContextCanceledError,
                 id="context-cancelled-after-5-attempts"),
    pytest.param(True, False, False, None, lambda c: never, 5, None, 5, wait.ContextCanceledError,
                 id="context-cancelled-and-immediate-after-5-attempts"),
    pytest.param(True, False, False, 0.0, lambda c: never, 0, None, 1, wait.DeadlineExceededError,
                 id="context-at-deadline-and-immediate-1-attempt"),
    pytest.param(False, False, False, 0.0, lambda c: never, 0, None, 0, wait.DeadlineExceededError,
                 id="context-at-deadline-no-attempts"),
    pytest.param(True, False, False, 1.0, lambda c: never, 0, dict(duration=2.0), 1, wait.DeadlineExceededError,
                 id="context-canceled-before-the-second-execution-and-immediate"),
    pytest.param(True, False, False, 1.0, lambda c: sleepy(c, 4), 0, dict(duration=0.2, jitter=0.001), 4, None,
                 id="immediate-and-long-duration-of-condition-and-sliding-false"),
    pytest.param(True, True, False, 1.0, lambda c: sleepy(c, 4), 0, dict(duration=0.2, jitter=0.001), 3,
                 wait.DeadlineExceededError, id="immediate-and-long-duration-of-condition-and-sliding-true"),
]


@pytest.mark.parametrize(
    "immediate, sliding, stopped, timeout, results, stop_after, timer, want_attempts, raises", LOOP_SEMANTIC_CASES
)
def test_loop_condition_until_semantic(
    immediate, sliding, stopped, timeout, results, stop_after, timer, want_attempts, raises, clock
):
    """Port of Test_loopConditionUntilContext_semantic (pkg/util/wait/loop_test.go)."""
    stop = threading.Event()
    if stopped:
        stop.set()
    deadline = None if timeout is None else clock.now() + timedelta(seconds=timeout)
    backoff = wait.Backoff(**(timer or dict(duration=0.000001)), rng=random.Random(0))
    inner = counting(results(clock))

    def condition() -> bool:
        try:
            return inner()
        finally:
            if stop_after and inner.attempts == stop_after:
                stop.set()

    loop = lambda: wait.loop_condition_until(  # noqa: E731
        backoff.timer(clock), immediate, sliding, condition, stop, clock, deadline)
    if raises is None:
        loop()
    else:
        with pytest.raises(raises):
            loop()
    assert inner.attempts == want_attempts


def test_loop_condition_with_context_immediate_delay(clock):
    """Port of Test_loopConditionWithContextImmediateDelay (pkg/util/wait/loop_test.go).

    Not immediate: the first call comes after one full interval, and an error ends the loop.
    """
    log: list[float] = []
    timer = wait.Backoff(duration=1.0).timer(clock)
    with pytest.raises(ConditionFailed):
        wait.loop_condition_until(timer, False, True, counting(fail, clock, log), clock=clock)
    assert log == [1.0]


TIMINGS_CASES = [
    #            immediate sliding want delays asked for
    pytest.param(False,    False,  [1.0, 2.0], id="condition-success"),
    pytest.param(True,     False,  [1.0],      id="condition-success-and-immediate"),
    pytest.param(False,    True,   [1.0],      id="condition-success-and-sliding"),
]


@pytest.mark.parametrize("immediate, sliding, want", TIMINGS_CASES)
def test_loop_condition_until_timings(immediate, sliding, want, clock):
    """Port of Test_loopConditionUntilContext_timings (pkg/util/wait/loop_test.go).

    Non-sliding loops start the next interval before calling the condition, so
    the first row asks for a second delay; the others finish first.
    """
    delays: list[float] = []
    fn = wait.Backoff(duration=1.0, steps=2, factor=2.0).delay_func()

    def recorded() -> float:
        delays.append(fn())
        return delays[-1]

    wait.delay_func_until(recorded, immediate, sliding, counting(always), clock=clock)
    assert delays == want


# ---------------------------------------------------------------------------
# poll.go
# ---------------------------------------------------------------------------

LEGACY_POLL_CASES = [
    # immediate, stopped, interval, timeout, results, stop_after, want_attempts, raises
    pytest.param(True, False, 1, 10, fail, 0, 1, ConditionFailed, id="immediate-condition-returns-an-error"),
    pytest.param(True, False, 1, 10, always, 0, 1, None, id="immediate-condition-returns-true"),
    pytest.param(True, True, 1, 10, never, 0, 1, wait.WaitTimeoutError,
                 id="immediate-context-is-cancelled-condition-false"),
    pytest.param(False, True, 1, 10, never, 0, 0, wait.WaitTimeoutError, id="not-immediate-context-is-cancelled"),
    pytest.param(False, False, 1, 10, fail, 0, 1, ConditionFailed, id="not-immediate-condition-returns-an-error"),
    pytest.param(False, False, 1, 10, always, 0, 1, None, id="not-immediate-condition-returns-true"),
    pytest.param(False, False, 10, 1, always, 0, 1, None, id="ticker-channel-is-closed-condition-returns-true"),
    pytest.param(False, False, 10, 1, fail, 0, 1, ConditionFailed,
                 id="ticker-channel-is-closed-condition-returns-error"),
    pytest.param(False, False, 10, 1, never, 0, 1, wait.WaitTimeoutError,
                 id="ticker-channel-is-closed-condition-returns-false"),
    pytest.param(False, False, 1, 2.5, never, 0, 3, wait.WaitTimeoutError,
                 id="condition-always-returns-false-timeout-error-expected"),
    pytest.param(False, False, 1, 0, never, 2, 2, wait.WaitTimeoutError,
                 id="context-is-cancelled-after-n-attempts-legacy-error"),
]


@pytest.mark.parametrize(
    "immediate, stopped, interval, timeout, results, stop_after, want_attempts, raises", LEGACY_POLL_CASES
)
def test_legacy_poll(immediate, stopped, interval, timeout, results, stop_after, want_attempts, raises, clock):
    """Port of Test_poll and Test_waitFor (pkg/util/wait/wait_test.go); fake tickers become intervals on the clock."""
    stop = threading.Event()
    if stopped:
        stop.set()
    inner = counting(results)

    def condition() -> bool:
        try:
            return inner()
        finally:
            if stop_after and inner.attempts == stop_after:
                stop.set()

    if raises is None:
        wait.legacy_poll(stop, immediate, interval, timeout, condition, clock)
    else:
        with pytest.raises(raises):
            wait.legacy_poll(stop, immediate, interval, timeout, condition, clock)
    assert inner.attempts == want_attempts


def test_poller(clock):
    """Port of TestPoller (pkg/util/wait/wait_test.go): 1 ms ticks within 2 ms give at most three calls."""
    log: list[float] = []
    with pytest.raises(wait.WaitTimeoutError):
        wait.poll(0.001, 0.002, counting(never, clock, log), clock)
    assert len(log) <= 3
    assert log == [0.001, 0.002]  # at 2 ms the timeout wins over the tick: one last call


POLL_FUNC_CASES = [
    #            poll, results, want call times, raises
    pytest.param(wait.poll, always, [1.0], None, id="poll"),
    pytest.param(wait.poll, fail, [1.0], ConditionFailed, id="poll-error"),
    pytest.param(wait.poll_immediate, always, [0.0], None, id="poll-immediate"),
    pytest.param(wait.poll_immediate, fail, [0.0], ConditionFailed, id="poll-immediate-error"),
    pytest.param(wait.poll, never, [1.0, 2.0, 2.5], wait.WaitTimeoutError, id="poll-last-call-at-timeout"),
    pytest.param(wait.poll_immediate, never, [0.0, 1.0, 2.0, 2.5], wait.WaitTimeoutError,
                 id="poll-immediate-last-call-at-timeout"),
]


@pytest.mark.parametrize("poll, results, want, raises", POLL_FUNC_CASES)
def test_poll(poll, results, want, raises, clock):
    """Port of TestPoll, TestPollError, TestPollImmediate, TestPollImmediateError (pkg/util/wait/wait_test.go)."""
    log: list[float] = []
    if raises is None:
        poll(1.0, 2.5, counting(results, clock, log), clock)
    else:
        with pytest.raises(raises):
            poll(1.0, 2.5, counting(results, clock, log), clock)
    assert log == want


@pytest.mark.parametrize("poll, first", [
    pytest.param(wait.poll_infinite, 1.0, id="poll-infinite"),
    pytest.param(wait.poll_immediate_infinite, 0.0, id="poll-immediate-infinite"),
])
def test_poll_forever(poll, first, clock):
    """Port of TestPollForever (pkg/util/wait/wait_test.go): no timeout, so it runs until the condition holds."""
    log: list[float] = []
    poll(1.0, counting(lambda n: n > 10, clock, log), clock)
    assert log == [first + i for i in range(11)]


POLL_IMMEDIATE_UNTIL_CASES = [
    #            stopped results          stop_after want_attempts raises
    pytest.param(False,  fail,            0,         1,            ConditionFailed,
                 id="condition-throws-error-on-immediate-attempt"),
    pytest.param(False,  always,          0,         1,            None,
                 id="condition-returns-done-on-immediate-attempt"),
    pytest.param(True,   never,           0,         1,            wait.WaitTimeoutError,
                 id="context-is-already-cancelled-no-retry"),
    pytest.param(False,  lambda n: n > 3, 0,         4,            None,
                 id="context-not-cancelled-retry-is-attempted"),
    pytest.param(False,  never,           4,         4,            wait.WaitTimeoutError,
                 id="context-gets-cancelled-after-n-attempts"),
]


@pytest.mark.parametrize("stopped, results, stop_after, want_attempts, raises", POLL_IMMEDIATE_UNTIL_CASES)
def test_poll_immediate_until(stopped, results, stop_after, want_attempts, raises, clock):
    """Port of TestPollImmediateUntilWithContext (pkg/util/wait/wait_test.go)."""
    stop = threading.Event()
    if stopped:
        stop.set()
    inner = counting(results)

    def condition() -> bool:
        try:
            return inner()
        finally:
            if stop_after and inner.attempts == stop_after:
                stop.set()

    if raises is None:
        wait.poll_immediate_until(0.001, condition, stop, clock)
    else:
        with pytest.raises(raises):
            wait.poll_immediate_until(0.001, condition, stop, clock)
    assert inner.attempts == want_attempts


def test_poll_until_stops_on_stop(clock):
    """Port of TestPollUntil (pkg/util/wait/wait_test.go) for the modern core: a stop ends it with ContextCanceledError."""
    stop = threading.Event()

    def condition() -> bool:
        stop.set()
        return False

    with pytest.raises(wait.ContextCanceledError) as info:
        wait.poll_until(0.000001, None, False, condition, stop, clock)
    assert wait.interrupted(info.value)


POLL_UNTIL_CASES = [
    #            timeout immediate results          want call times       raises
    pytest.param(2.5,    False,    never,           [1.0, 2.0],           wait.DeadlineExceededError, id="times-out"),
    pytest.param(2.5,    True,     never,           [0.0, 1.0, 2.0],      wait.DeadlineExceededError,
                 id="immediate-times-out"),
    pytest.param(None,   False,    lambda n: n > 2, [1.0, 2.0, 3.0],      None,                       id="no-timeout"),
    pytest.param(2.0,    False,    never,           [1.0],                wait.DeadlineExceededError,
                 id="deadline-wins-a-tie-with-a-tick"),
]


@pytest.mark.parametrize("timeout, immediate, results, want, raises", POLL_UNTIL_CASES)
def test_poll_until(timeout, immediate, results, want, raises, clock):
    log: list[float] = []
    if raises is None:
        wait.poll_until(1.0, timeout, immediate, counting(results, clock, log), clock=clock)
    else:
        with pytest.raises(raises):
            wait.poll_until(1.0, timeout, immediate, counting(results, clock, log), clock=clock)
    assert log == want
    if raises is wait.DeadlineExceededError:
        assert elapsed(clock) == timeout


def test_poll_until_aliases(clock):
    log: list[float] = []
    wait.poll_until_context_timeout(1.0, 10.0, True, counting(always, clock, log), clock=clock)
    wait.poll_until_context_cancel(1.0, False, counting(always, clock, log), clock=clock)
    assert log == [0.0, 1.0]


@pytest.mark.threaded
def test_poll_until_real_clock_timeout():
    start = time.monotonic()
    with pytest.raises(wait.DeadlineExceededError):
        wait.poll_until(0.005, 0.03, False, lambda: False)
    assert 0.03 <= time.monotonic() - start < 5
