"""Tests for minikcm.tools.cache.fifo (port of tools/cache/fifo_test.go)."""

from __future__ import annotations

import threading

import pytest

from minikcm.tools.cache.fifo import FIFO, ErrFIFOClosed, QueueWithBatch, new_fifo
from minikcm.tools.cache.store import KeyErr

from .fifo_testing import TestingFIFO, fifo_obj_key_func, mk_fifo_obj, pop

AMOUNT = 500


@pytest.mark.threaded
def test_fifo_basic():
    """Port of TestFIFO_basic (fifo_test.go): two producers, one consumer, each producer's order kept."""
    f = new_fifo(fifo_obj_key_func)

    def produce(prefix: str) -> None:
        for i in range(AMOUNT):
            f.add(mk_fifo_obj(prefix + chr(i), (prefix, i + 1)))

    producers = [threading.Thread(target=produce, args=(p,), name=f"producer-{p}") for p in "ab"]
    for t in producers:
        t.start()
    last = {"a": 0, "b": 0}
    for _ in range(AMOUNT * 2):
        prefix, n = pop(f).val
        assert n > last[prefix], f"got {n} ({prefix}) out of order, last was {last[prefix]}"
        last[prefix] = n
    for t in producers:
        t.join(timeout=5)


def test_fifo_add_update():
    """Port of TestFIFO_addUpdate (fifo_test.go): the update replaces the queued object; one pop."""
    f = TestingFIFO(fifo_obj_key_func)
    f.add(mk_fifo_obj("foo", 10))
    f.update(mk_fifo_obj("foo", 15))
    assert f.list() == [mk_fifo_obj("foo", 15)]
    assert f.list_keys() == ["foo"]

    assert pop(f).val == 15
    # Upstream waits 50 ms for a second value; the queue being empty says the same without waiting.
    assert f.queue == []
    _, exists = f.get(mk_fifo_obj("foo", ""))
    assert not exists, "item did not get removed"


def test_fifo_add_replace():
    """Port of TestFIFO_addReplace (fifo_test.go)."""
    f = TestingFIFO(fifo_obj_key_func)
    f.add(mk_fifo_obj("foo", 10))
    f.replace([mk_fifo_obj("foo", 15)], "15")
    assert pop(f).val == 15
    assert f.queue == []
    _, exists = f.get(mk_fifo_obj("foo", ""))
    assert not exists, "item did not get removed"


def test_fifo_detect_line_jumpers():
    """Port of TestFIFO_detectLineJumpers (fifo_test.go): a re-added key keeps (not regains) its place."""
    f = new_fifo(fifo_obj_key_func)
    f.add(mk_fifo_obj("foo", 10))
    f.add(mk_fifo_obj("bar", 1))
    f.add(mk_fifo_obj("foo", 11))
    f.add(mk_fifo_obj("foo", 13))
    f.add(mk_fifo_obj("zab", 30))

    assert pop(f).val == 13
    f.add(mk_fifo_obj("foo", 14))  # foo must go to the back now
    assert pop(f).val == 1
    assert pop(f).val == 30
    assert pop(f).val == 14


def add_a(f):
    f.add(mk_fifo_obj("a", 1))


def replace_empty(f):
    f.replace([], "0")


def replace_ab(f):
    f.replace([mk_fifo_obj("a", 1), mk_fifo_obj("b", 2)], "0")


FIFO_HAS_SYNCED_CASES = [
    #            actions                        want synced
    pytest.param([],                            False, id="nothing-happened"),
    pytest.param([add_a],                       True,  id="add-before-replace"),
    pytest.param([replace_empty],               True,  id="empty-replace"),
    pytest.param([replace_ab],                  False, id="replace-not-popped"),
    pytest.param([replace_ab, pop],             False, id="replace-half-popped"),
    pytest.param([replace_ab, pop, pop],        True,  id="replace-all-popped"),
]


@pytest.mark.parametrize("actions, want", FIFO_HAS_SYNCED_CASES)
def test_fifo_has_synced(actions, want):
    """Port of TestFIFO_HasSynced (fifo_test.go)."""
    f = new_fifo(fifo_obj_key_func)
    for action in actions:
        action(f)
    assert f.has_synced() == want
    assert f.has_synced_checker().done().is_set() == want


@pytest.mark.threaded
def test_fifo_pop_should_unblock_when_closed():
    """Port of TestFIFO_PopShouldUnblockWhenClosed (fifo_test.go)."""
    f = new_fifo(fifo_obj_key_func)
    returned: list[str] = []

    def blocked_pop() -> None:
        with pytest.raises(ErrFIFOClosed):
            f.pop(lambda obj, initial: None)
        returned.append("done")

    jobs = [threading.Thread(target=blocked_pop, name=f"popper-{i}") for i in range(10)]
    for t in jobs:
        t.start()
    f.close()
    for t in jobs:
        t.join(timeout=0.5)
        assert not t.is_alive(), "timed out waiting for pop to return after close"
    assert len(returned) == 10


def test_fifo_pop_on_closed_empty_fifo_raises_at_once():
    f = new_fifo(fifo_obj_key_func)
    f.close()
    assert f.is_closed()
    with pytest.raises(ErrFIFOClosed, match="manipulating with closed queue"):
        f.pop(lambda obj, initial: None)


def test_fifo_delete_leaves_key_queued_and_pop_skips_it():
    f = new_fifo(fifo_obj_key_func)
    f.replace([mk_fifo_obj("a", 1), mk_fifo_obj("b", 2)], "0")
    f.delete(mk_fifo_obj("a"))
    assert f.queue == ["a", "b"]
    assert pop(f).val == 2  # "a" was skipped, but still counted as part of the initial list
    assert f.has_synced()


def test_fifo_pop_reports_initial_list_and_propagates_process_errors():
    f = new_fifo(fifo_obj_key_func)
    f.replace([mk_fifo_obj("a", 1)], "0")
    seen = []

    def failing(obj, is_in_initial_list):
        seen.append(is_in_initial_list)
        raise ValueError("handler failed")

    with pytest.raises(ValueError, match="handler failed"):
        f.pop(failing)
    assert seen == [True]
    assert f.queue == [] and f.has_synced()  # the item is gone anyway, as in Go


def test_fifo_resync_requeues_missing_keys():
    f = TestingFIFO(fifo_obj_key_func)
    f.add(mk_fifo_obj("a", 1))
    f.queue.clear()  # simulate a lost queue entry: resync restores the invariant
    f.resync()
    assert f.queue == ["a"]


def test_fifo_key_errors():
    f = new_fifo(fifo_obj_key_func)
    with pytest.raises(KeyErr):
        f.add("not a fifo object")
    with pytest.raises(KeyErr):
        f.replace(["not a fifo object"], "0")


def test_fifo_is_not_a_batch_queue():
    assert not isinstance(new_fifo(fifo_obj_key_func), QueueWithBatch)
    assert isinstance(new_fifo(fifo_obj_key_func), FIFO)


def test_fifo_repr():
    f = new_fifo(fifo_obj_key_func)
    f.add(mk_fifo_obj("a", 1))
    assert repr(f) == "<FIFO 1 queued ['a'] synced=True>"
