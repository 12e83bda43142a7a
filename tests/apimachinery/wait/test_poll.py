"""Tests for minikcm/apimachinery/wait/_poll.py: the modern and legacy polls (ports of wait_test.go).

Most tests run on `AutoClock` (wait_testing.py), which jumps fake time to the next
deadline whenever code waits; tests marked `threaded` use real threads and the real clock.
"""

from __future__ import annotations

import threading
import time

import pytest

from minikcm.apimachinery import wait
from tests.apimachinery.wait.wait_testing import ConditionFailed, always, counting, elapsed, fail, never


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
