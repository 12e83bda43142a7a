"""Tests for minikcm/apimachinery/wait/_loop.py: ports of loop_test.go.

Most tests run on `AutoClock` (wait_testing.py), which jumps fake time to the next
deadline whenever code waits; tests marked `threaded` use real threads and the real clock.
"""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest

from minikcm.apimachinery import wait
from minikcm.clock import FakeClock
from tests.apimachinery.wait.wait_testing import ConditionFailed, always, counting, fail, never


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
