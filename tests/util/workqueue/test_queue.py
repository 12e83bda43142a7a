"""Tests for minikcm.util.workqueue.queue (port of util/workqueue/queue_test.go)."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

from minikcm.util import workqueue
from minikcm.util.workqueue.queue import SliceQueue


class TraceQueue(SliceQueue):
    """A FIFO that records which items were touched (Go: traceQueue)."""

    def __init__(self) -> None:
        super().__init__()
        self.touched: set = set()

    def touch(self, item) -> None:
        super().touch(item)
        self.touched.add(item)


def start(target, *args) -> threading.Thread:
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread


def get_until_shutdown(q: workqueue.Type) -> None:
    """Go's `for !shuttingDown { _, shuttingDown = q.Get() }`: blocks until the queue says so."""
    shutting_down = False
    while not shutting_down:
        _, shutting_down = q.get()


SHUTDOWN_CASES = [
    pytest.param(workqueue.Type.shut_down, id="shut-down"),
    pytest.param(workqueue.Type.shut_down_with_drain, id="shut-down-with-drain"),
]


@pytest.mark.threaded
@pytest.mark.parametrize("shut_down", SHUTDOWN_CASES)
def test_basic(shut_down):
    """Port of TestBasic (util/workqueue/queue_test.go): many producers and consumers, then shutdown."""
    q = workqueue.new()
    bad = []

    def produce(i: int) -> None:
        for _ in range(50):
            q.add(i)

    def consume() -> None:
        while True:
            item, quit_ = q.get()
            if item == "added after shutdown!":
                bad.append(item)
            if quit_:
                return
            q.done(item)

    producers = [start(produce, i) for i in range(50)]
    consumers = [start(consume) for _ in range(10)]
    for t in producers:
        t.join(10)
    shut_down(q)
    q.add("added after shutdown!")
    for t in consumers:
        t.join(10)
        assert not t.is_alive()
    assert bad == []
    assert q.len() == 0


@pytest.mark.threaded
@pytest.mark.parametrize("shut_down", SHUTDOWN_CASES)
def test_add_while_processing(shut_down):
    """Port of TestAddWhileProcessing (util/workqueue/queue_test.go): items re-added by the worker holding them."""
    q = workqueue.new()
    producers = [start(q.add, i) for i in range(50)]

    def consume() -> None:
        counters: dict = {}
        while True:
            item, quit_ = q.get()
            if quit_:
                return
            counters[item] = counters.get(item, 0) + 1
            if counters[item] < 2:
                q.add(item)
            q.done(item)

    consumers = [start(consume) for _ in range(10)]
    for t in producers:
        t.join(10)
    shut_down(q)
    for t in consumers:
        t.join(10)
        assert not t.is_alive()
    assert q.len() == 0


def test_len():
    """Port of TestLen (util/workqueue/queue_test.go): adding a queued item again does not grow the queue."""
    q = workqueue.new()
    q.add("foo")
    assert q.len() == 1
    q.add("bar")
    assert q.len() == 2
    q.add("foo")
    assert q.len() == 2


def test_reinsert():
    """Port of TestReinsert (util/workqueue/queue_test.go): an item re-added while processing comes back after done."""
    q = workqueue.new()
    q.add("foo")
    item, _ = q.get()
    assert item == "foo"
    q.add(item)
    assert q.len() == 0  # dirty, but held back until done
    q.done(item)
    item, _ = q.get()
    assert item == "foo"
    q.done(item)
    assert q.len() == 0


def test_collapse():
    """Port of TestCollapse (util/workqueue/queue_test.go): a second add of a queued item only touches it."""
    tq = TraceQueue()
    q = workqueue.new_with_config(workqueue.QueueConfig(name="", queue=tq))
    q.add("bar")
    q.add("bar")
    item, _ = q.get()
    assert item == "bar"
    q.done(item)
    assert q.len() == 0
    assert "bar" in tq.touched


@pytest.mark.threaded
def test_collapse_while_processing():
    """Port of TestCollapseWhileProcessing (util/workqueue/queue_test.go): no touch, and no second worker until done."""
    tq = TraceQueue()
    q = workqueue.new_with_config(workqueue.QueueConfig(name="", queue=tq))
    q.add("foo")
    item, _ = q.get()
    assert item == "foo"
    q.add("foo")
    q.add("foo")
    got = []

    def other_worker() -> None:
        i, _ = q.get()
        got.append(i)
        q.done(i)

    worker = start(other_worker)
    worker.join(0.1)
    assert worker.is_alive(), "worker should be blocked until we are done"
    q.done("foo")
    worker.join(10)
    assert got == ["foo"]
    assert q.len() == 0
    assert "foo" not in tq.touched


@pytest.mark.threaded
def test_queue_drainage_using_shut_down_with_drain():
    """Port of TestQueueDrainageUsingShutDownWithDrain (util/workqueue/queue_test.go)."""
    q = workqueue.new()
    q.add("foo")
    q.add("bar")
    first, _ = q.get()
    second, _ = q.get()
    drainer = start(q.shut_down_with_drain)
    get_until_shutdown(q)
    assert drainer.is_alive()  # still waiting for the two items in flight
    q.done(first)
    q.done(second)
    drainer.join(10)
    assert not drainer.is_alive()


def test_no_queue_drainage_using_shut_down():
    """Port of TestNoQueueDrainageUsingShutDown (util/workqueue/queue_test.go): shut_down does not wait."""
    q = workqueue.new()
    q.add("foo")
    q.add("bar")
    q.get()
    q.get()
    q.shut_down()  # returns although nothing was marked done
    assert q.shutting_down()


@pytest.mark.threaded
def test_force_queue_shutdown_using_shut_down():
    """Port of TestForceQueueShutdownUsingShutDown (util/workqueue/queue_test.go): shut_down ends a drain."""
    q = workqueue.new()
    q.add("foo")
    q.add("bar")
    q.get()
    q.get()
    drainer = start(q.shut_down_with_drain)
    get_until_shutdown(q)
    q.shut_down()
    drainer.join(10)
    assert not drainer.is_alive()


@pytest.mark.threaded
def test_queue_drainage_using_shut_down_with_drain_with_dirty_item():
    """Port of TestQueueDrainageUsingShutDownWithDrainWithDirtyItem (util/workqueue/queue_test.go)."""
    q = workqueue.new()
    q.add("foo")
    gotten, _ = q.get()
    q.add("foo")
    drainer = start(q.shut_down_with_drain)
    get_until_shutdown(q)
    q.done(gotten)
    again, shutting_down = q.get()  # done queued the dirty item again
    assert not shutting_down and again == "foo"
    q.done(again)
    _, shutting_down = q.get()
    assert shutting_down
    drainer.join(10)
    assert not drainer.is_alive()


class BigObject:
    def __init__(self) -> None:
        self.data = b"hello"


def test_garbage_collection():
    """Port of TestGarbageCollection (util/workqueue/queue_test.go): a processed item is not kept alive."""
    q = workqueue.new()
    obj = BigObject()
    ref = weakref.ref(obj)
    q.add(obj)
    item, _ = q.get()
    q.done(item)
    del obj, item
    gc.collect()
    assert ref() is None


def test_get_after_shut_down_drains_then_reports():
    q = workqueue.new()
    q.add("a")
    q.shut_down()
    q.add("b")  # ignored
    assert q.get() == ("a", False)
    assert q.get() == (None, True)


def test_repr_takes_no_lock():
    q = workqueue.new_with_config(workqueue.QueueConfig(name="pods"))
    for key in ["ns/a", "ns/b", "ns/c", "ns/d"]:
        q.add(key)
    q.get()
    with q._cond:  # a debugger may call repr while the lock is held
        text = repr(q)
    assert text == ("workqueue.Type('pods', queued=3, head=['ns/b', 'ns/c', 'ns/d'], "
                    "dirty=3, processing=1)")


def test_typed_is_type():
    assert workqueue.Typed is workqueue.Type
    assert isinstance(workqueue.default_queue(), SliceQueue)


def test_all_matches_package():
    import minikcm.util.workqueue as package

    public = {name for name in vars(package) if not name.startswith("_")} - {
        "default_rate_limiters", "delaying_queue", "parallelizer", "queue", "rate_limiting_queue"}
    assert set(package.__all__) == public
