"""Tests for minikcm.util.retry: client-go's util_test.go (TestRetryOnConflict) as a table, plus the clock."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import replace

import pytest

from minikcm.apimachinery import errors, wait
from minikcm.apimachinery.schema import GroupResource
from minikcm.clock import EPOCH, FakeClock
from minikcm.util import retry

OPTS = wait.Backoff(factor=1.0, steps=3)  # upstream's table: no duration, no jitter
SOME_OTHER_ERROR = RuntimeError("some other error")


def conflict() -> errors.StatusError:
    return errors.new_conflict(GroupResource("", "test"), "other", None)


def failing(errs: list[Exception | None]) -> Callable[[], None]:
    """fn for the table: raises errs[i] on the i-th call (None: returns); the last entry repeats."""
    def fn() -> None:
        calls.append(1)
        err = errs[min(len(calls) - 1, len(errs) - 1)]
        if err is not None:
            raise err
    calls: list[int] = []
    fn.calls = calls  # type: ignore[attr-defined]
    return fn


RETRY_ON_CONFLICT_CASES = [
    #            what fn raises, call by call       calls  raised
    pytest.param([conflict()],                        3, errors.StatusError, id="never returns: the last conflict"),
    pytest.param([None],                              1, None,               id="returns immediately"),
    pytest.param([SOME_OTHER_ERROR],                  1, RuntimeError,       id="another error at once"),
    pytest.param([conflict(), conflict(), None],      3, None,               id="keeps retrying"),
]


@pytest.mark.parametrize("errs, calls, raised", RETRY_ON_CONFLICT_CASES)
def test_retry_on_conflict(errs, calls, raised):
    fn = failing(errs)
    if raised is None:
        retry.retry_on_conflict(OPTS, fn)
    else:
        with pytest.raises(raised) as info:
            retry.retry_on_conflict(OPTS, fn)
        assert info.value is errs[-1]  # Go compares err == conflictErr / testErr
    assert len(fn.calls) == calls


def test_on_error_with_no_steps_tries_nothing_and_raises_nothing():
    # Ours: Go's ExponentialBackoff never calls fn with Steps 0, and OnError returns the nil lastErr.
    fn = failing([conflict()])
    retry.on_error(replace(OPTS, steps=0), errors.is_conflict, fn)
    assert fn.calls == []


def test_retriable_decides_what_is_retried():
    fn = failing([SOME_OTHER_ERROR, SOME_OTHER_ERROR, None])
    retry.on_error(OPTS, lambda err: err is SOME_OTHER_ERROR, fn)
    assert len(fn.calls) == 3


PAUSE_CASES = [
    #            backoff                 tries  pauses without jitter (s)
    pytest.param(retry.DEFAULT_BACKOFF,  4,     [0.010, 0.050, 0.250], id="DefaultBackoff"),
    pytest.param(retry.DEFAULT_RETRY,    5,     [0.010] * 4,           id="DefaultRetry"),
]


@pytest.mark.parametrize("backoff, tries, pauses", PAUSE_CASES)
def test_pauses_move_a_driven_clock(backoff, tries, pauses):
    # Ours: a step cannot block, so on a driven clock the pauses move the time (Go's FakeClock.Sleep is a Step);
    # no pause after the last try; jitter adds up to 10 % and is seeded, so two runs agree.
    moved = []
    for _ in range(2):
        clock = FakeClock(EPOCH, driven=True)
        fn = failing([conflict()])
        with pytest.raises(errors.StatusError):
            retry.retry_on_conflict(backoff, fn, clock)
        assert len(fn.calls) == tries
        moved.append(clock.since(EPOCH))
    assert sum(pauses) <= moved[0] <= sum(pauses) * 1.1
    assert moved[0] == moved[1]
    assert backoff.steps == tries  # the caller's backoff is untouched


def test_a_seeded_backoff_brings_its_own_jitter():
    clock_a, clock_b = FakeClock(EPOCH, driven=True), FakeClock(EPOCH, driven=True)
    for clock, seed in ((clock_a, 1), (clock_b, 2)):
        with pytest.raises(errors.StatusError):
            retry.retry_on_conflict(replace(retry.DEFAULT_BACKOFF, rng=random.Random(seed)), failing([conflict()]),
                                    clock)
    assert clock_a.now() != clock_b.now()


def test_a_clock_that_is_not_driven_blocks_until_moved():
    # A plain FakeClock keeps blocking in sleep (threaded tests move it by hand): the retry waits for the step.
    clock = FakeClock(EPOCH)
    fn = failing([conflict(), None])
    done = threading.Event()
    worker = threading.Thread(target=lambda: (retry.retry_on_conflict(retry.DEFAULT_BACKOFF, fn, clock), done.set()))
    worker.start()
    try:
        assert not done.wait(0.2) and len(fn.calls) == 1
        clock.step(0.011)
        assert done.wait(5) and len(fn.calls) == 2
    finally:
        clock.step(1.0)
        worker.join(5)
