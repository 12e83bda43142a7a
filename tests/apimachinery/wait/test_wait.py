"""Tests for minikcm/apimachinery/wait/_wait.py: Group, NEVER_STOP and jitter (wait_test.go).

Most tests run on `AutoClock` (wait_testing.py), which jumps fake time to the next
deadline whenever code waits; tests marked `threaded` use real threads and the real clock.
"""

from __future__ import annotations

import random
import threading

import pytest

from minikcm.apimachinery import wait
from minikcm.apimachinery.wait import _wait
from minikcm.clock import FakeClock
from tests.apimachinery.wait.wait_testing import ConditionFailed


def test_group_inline_runs_in_call_order():
    calls = []
    group = wait.Group(inline=True)
    for i in range(3):
        group.start(lambda i=i: calls.append((i, threading.current_thread().name)))
    assert [c[0] for c in calls] == [0, 1, 2]
    assert {c[1] for c in calls} == {threading.current_thread().name}
    group.wait()


def test_group_inline_follows_a_driven_clock():
    calls = []
    wait.Group(inline=FakeClock(driven=True).driven).start(lambda: calls.append(threading.current_thread().name))
    assert calls == [threading.current_thread().name]


def test_group_has_no_mode_switch_but_its_own():
    assert not hasattr(wait, "DETERMINISTIC")
    assert wait.Group().inline is False
    with pytest.raises(TypeError):
        wait.Group(True)  # inline is keyword-only


def test_group_inline_exception_reaches_caller():
    def boom():
        raise ConditionFailed("boom")

    with pytest.raises(ConditionFailed):
        wait.Group(inline=True).start(boom)


def test_group_start_with_channel_passes_stop():
    stop = threading.Event()
    seen = []
    wait.Group(inline=True).start_with_channel(stop, seen.append)
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

    group = wait.Group(inline=False, name="test/group")
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
    monkeypatch.setattr(_wait, "jitter_rand", lambda: 0.5)
    assert wait.jitter(2.0, 1.0) == 3.0
