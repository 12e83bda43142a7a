"""Tests for minikcm.tools.cache.synctrack (port of tools/cache/synctrack/synctrack_test.go and lazy_test.go)."""

from __future__ import annotations

import threading

import pytest

from minikcm.tools.cache.synctrack import Lazy, new_async_tracker, new_single_file_tracker


def single_file_funcs():
    """Port of testSingleFileFuncs (synctrack_test.go)."""
    t = new_single_file_tracker("")
    return t.upstream_has_synced, t.start, t.finished, t.has_synced, t.done()


def async_funcs():
    """Port of testAsyncFuncs (synctrack_test.go)."""
    t = new_async_tracker("")
    return t.upstream_has_synced, lambda: t.start("key"), lambda: t.finished("key"), t.has_synced, t.done()


BASIC_LOGIC_CASES = [
    #            synced  synced_before_finish  start  finish  want synced
    pytest.param(False,  False,                True,  True,   False, id="finished-but-upstream-not-synced"),
    pytest.param(True,   False,                True,  False,  False, id="upstream-synced-item-unfinished"),
    pytest.param(True,   True,                 True,  False,  False, id="upstream-synced-first-item-unfinished"),
    pytest.param(False,  False,                True,  False,  False, id="nothing-done"),
    pytest.param(True,   False,                True,  True,   True,  id="finish-then-upstream"),
    pytest.param(True,   True,                 True,  True,   True,  id="upstream-then-finish"),
]


@pytest.mark.parametrize("construct", [pytest.param(single_file_funcs, id="SingleFile"), pytest.param(async_funcs, id="Async")])
@pytest.mark.parametrize("synced, synced_before_finish, start, finish, want", BASIC_LOGIC_CASES)
def test_basic_logic(construct, synced, synced_before_finish, start, finish, want):
    """Port of TestBasicLogic (synctrack_test.go)."""
    upstream_has_synced, start_fn, finished_fn, has_synced, done = construct()
    assert not has_synced() and not done.is_set(), "synced before start"
    if start:
        start_fn()
    assert not has_synced() and not done.is_set(), "synced after start"
    # "upstream has synced" may come before or after finished, never before start.
    if synced and synced_before_finish:
        upstream_has_synced()
        assert not has_synced() and not done.is_set(), "synced after upstream synced but before finish"
    if finish:
        finished_fn()
    if synced and not synced_before_finish:
        assert not has_synced() and not done.is_set(), "synced after finish but before upstream synced"
        upstream_has_synced()
    assert has_synced() == want
    assert done.is_set() == want


@pytest.mark.threaded
def test_async_locking():
    """Port of TestAsyncLocking (synctrack_test.go): start and finish from many threads."""
    aft = new_async_tracker("")
    threads = []
    for i in range(11):
        aft.start(i)
        t = threading.Thread(target=aft.finished, args=(i,), name=f"finisher-{i}")
        t.start()
        threads.append(t)
    for t in threads:
        t.join(timeout=5)
    aft.upstream_has_synced()
    assert aft.has_synced(), "async tracker must have made a threading error?"


def test_single_file_counting():
    """Port of TestSingleFileCounting (synctrack_test.go)."""
    sft = new_single_file_tracker("")
    for _ in range(100):
        sft.start()
    assert not sft.has_synced()
    for _ in range(99):
        sft.finished()
    assert not sft.has_synced()
    sft.finished()
    sft.upstream_has_synced()
    assert sft.has_synced()

    with pytest.raises(RuntimeError, match="negative counter"):  # Go panics
        sft.finished()
    assert sft.has_synced(), "a negative counter still means synced"


SINGLE_FILE_CASES = [
    #            synced  synced_before_stops  starts  stops  want synced
    pytest.param(False,  False,               1,      1,     False, id="stopped-but-upstream-not-synced"),
    pytest.param(True,   False,               1,      0,     False, id="upstream-synced-after-no-stops"),
    pytest.param(True,   True,                1,      0,     False, id="upstream-synced-before-no-stops"),
    pytest.param(False,  False,               1,      0,     False, id="nothing"),
    pytest.param(True,   False,               1,      1,     True,  id="stop-then-upstream"),
    pytest.param(True,   True,                1,      1,     True,  id="upstream-then-stop"),
]


@pytest.mark.parametrize("synced, synced_before_stops, starts, stops, want", SINGLE_FILE_CASES)
def test_single_file(synced, synced_before_stops, starts, stops, want):
    """Port of TestSingleFile (synctrack_test.go)."""
    sft = new_single_file_tracker("")
    for _ in range(starts):
        sft.start()
    if synced and synced_before_stops:
        sft.upstream_has_synced()
    for _ in range(stops):
        sft.finished()
    if synced and not synced_before_stops:
        sft.upstream_has_synced()
    assert sft.has_synced() == want


def test_tracker_names_and_repr():
    assert new_single_file_tracker("pods + handler").name() == "pods + handler"
    assert new_async_tracker("x").name() == "x"
    assert "count=0" in repr(new_single_file_tracker("s"))


@pytest.mark.threaded
def test_lazy():
    """Port of TestLazy (lazy_test.go): after notify, get never returns a value older than the notify."""
    reality = [0]
    lock = threading.Lock()

    def read() -> int:
        with lock:
            return reality[0]

    z = Lazy(read)
    failures: list[str] = []

    def worker() -> None:
        for _ in range(100):
            with lock:
                reality[0] += 1
                want = reality[0]
            z.notify()
            got = z.get()
            if got < want:
                failures.append(f"time went backwards. {got} vs {want}")

    threads = [threading.Thread(target=worker, name=f"lazy-{i}") for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=5)
    assert failures == []


class Sequence:
    """Port of sequence (lazy_test.go): steps that must run in order, across threads, without sleeps."""

    def __init__(self, n: int) -> None:
        self.events = [threading.Event() for _ in range(n)]

    def start(self) -> None:
        self.events[0].set()

    def step(self, n: int) -> None:
        assert self.events[n].wait(timeout=5), f"step {n} never came"
        if n + 1 < len(self.events):
            self.events[n + 1].set()


def async_get(seq: Sequence, z: Lazy, pre: int, post: int):
    """Port of asyncGet (lazy_test.go): get on a thread between two steps; returns a function that joins."""
    result: list = []

    def run() -> None:
        seq.step(pre)
        result.append(z.get())
        seq.step(post)

    t = threading.Thread(target=run, name=f"get-{pre}-{post}")
    t.start()

    def join():
        t.join(timeout=5)
        return result[0]

    return join


@pytest.mark.threaded
def test_lazy_slow_eval():
    """Port of TestLazySlowEval (lazy_test.go): a slow first evaluation must not overwrite a newer generation."""
    seq = Sequence(10)
    count = [0]
    clock = iter(range(1, 100))  # stands in for time.Now(): strictly increasing values

    def evaluate() -> int:
        count[0] += 1
        if count[0] == 1:
            seq.step(1)
            seq.step(6)
        elif count[0] > 2:
            raise AssertionError(f"Eval called extra times. count={count[0]}")
        else:
            seq.step(4)
        return next(clock)

    z = Lazy(evaluate)
    seq.start()
    get_a = async_get(seq, z, 0, 7)
    seq.step(2)
    z.notify()
    get_b = async_get(seq, z, 3, 5)
    get_c = async_get(seq, z, 8, 9)
    a, b, c = get_a(), get_b(), get_c()
    assert a > b, "failed to create the test condition"
    assert c == b, "wrong value was cached"


@pytest.mark.threaded
def test_lazy_slow_eval2():
    """Port of TestLazySlowEval2 (lazy_test.go): a first evaluation that finishes first is replaced by the newer one."""
    seq = Sequence(11)
    count = [0]
    clock = iter(range(1, 100))  # stands in for time.Now()

    def evaluate() -> int:
        count[0] += 1
        if count[0] == 1:
            seq.step(1)
            seq.step(5)
        elif count[0] > 2:
            raise AssertionError(f"Eval called extra times. count={count[0]}")
        else:
            seq.step(4)
            seq.step(7)
        return next(clock)

    z = Lazy(evaluate)
    seq.start()
    get_a = async_get(seq, z, 0, 6)
    seq.step(2)
    z.notify()
    get_b = async_get(seq, z, 3, 8)
    get_c = async_get(seq, z, 9, 10)
    a, b, c = get_a(), get_b(), get_c()
    assert a < b, "failed to create the test condition"
    assert c == b, "wrong value was cached"


@pytest.mark.threaded
def test_lazy_only_once():
    """Port of TestLazyOnlyOnce (lazy_test.go): concurrent gets of one generation share one evaluation."""
    seq = Sequence(8)
    count = [0]

    def evaluate() -> int:
        count[0] += 1
        if count[0] == 1:
            seq.step(1)
            seq.step(4)
        else:
            raise AssertionError(f"Eval called extra times. count={count[0]}")
        return 42

    z = Lazy(evaluate)
    seq.start()
    z.notify()
    get_a = async_get(seq, z, 0, 5)
    get_b = async_get(seq, z, 2, 6)
    get_c = async_get(seq, z, 3, 7)
    assert (get_a(), get_b(), get_c()) == (42, 42, 42)
    assert count[0] == 1


def test_lazy_error():
    """Port of TestLazyError (lazy_test.go): failures are not cached."""
    succeed = [False]

    def evaluate() -> bool:
        if not succeed[0]:
            raise ValueError("deliberate fail")
        return True

    z = Lazy(evaluate)
    with pytest.raises(ValueError, match="deliberate fail"):
        z.get()
    succeed[0] = True  # no notify: the failure was simply not cached
    assert z.get() is True
