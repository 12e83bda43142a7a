"""Tests for minikcm/apimachinery/watch/mux.py (ports of pkg/watch/mux_test.go, plus our own)."""

from __future__ import annotations

import threading

import pytest

from minikcm.apimachinery import watch
from minikcm.apimachinery.watch import ADDED, DELETED, MODIFIED, Event
from minikcm.clock import EPOCH, FakeClock
from minikcm.driver import Driver

TABLE = [
    Event(ADDED, {"id": "foo", "value": "hello world 1"}),
    Event(ADDED, {"id": "bar", "value": "hello world 2"}),
    Event(MODIFIED, {"id": "foo", "value": "goodbye world 3"}),
    Event(DELETED, {"id": "bar", "value": "hello world 4"}),
]


def driven(queue_length: int, behavior: int) -> tuple[watch.Broadcaster, Driver]:
    clock = FakeClock(EPOCH, driven=True)
    m = watch.new_broadcaster(queue_length, behavior, clock=clock)
    return m, Driver(clock, m.steps())


def drain(w: watch.BroadcasterWatcher) -> list[Event]:
    """Everything in the watcher's channel; asserts the channel is closed at the end."""
    got = []
    while (event := w.result_chan().recv(timeout=0)) is not None:
        got.append(event)
    return got


def test_broadcaster():
    """Port of TestBroadcaster (mux_test.go): every watcher gets every event, in order."""
    m, driver = driven(0, watch.WAIT_IF_CHANNEL_FULL)
    watchers = [m.watch() for _ in range(2)]
    for item in TABLE:
        m.action(item.type, item.object)
    driver.run_until_idle()
    m.shutdown()
    for w in watchers:
        assert drain(w) == TABLE


@pytest.mark.threaded
def test_broadcaster_threaded():
    """Port of TestBroadcaster (mux_test.go) with the `watch/broadcaster` thread and one reader thread per watcher."""
    m = watch.new_broadcaster(0, watch.WAIT_IF_CHANNEL_FULL)
    results: list[list[Event]] = [[], []]
    readers = []
    for got in results:
        w = m.watch()
        readers.append(threading.Thread(target=lambda w=w, got=got: got.extend(w.result_chan())))
        readers[-1].start()
    for item in TABLE:
        m.action(item.type, item.object)
    m.shutdown()
    for r in readers:
        r.join(timeout=2)
    assert results == [TABLE, TABLE]
    m.thread.join(timeout=2)
    assert not m.thread.is_alive()


def test_broadcaster_watcher_close():
    """Port of TestBroadcasterWatcherClose (mux_test.go): stop and shutdown both close; extra stops are harmless."""
    m, _ = driven(0, watch.WAIT_IF_CHANNEL_FULL)
    w, w2 = m.watch(), m.watch()
    w.stop()
    m.shutdown()
    assert w.result_chan().recv(timeout=0) is None
    assert w2.result_chan().recv(timeout=0) is None
    w.stop()
    w2.stop()


def test_broadcaster_watcher_stop_deadlock():
    """Port of TestBroadcasterWatcherStopDeadlock (mux_test.go): stopping one watcher after the other got the event."""
    m, driver = driven(0, watch.WAIT_IF_CHANNEL_FULL)
    w, w2 = m.watch(), m.watch()
    m.action(ADDED, {})
    driver.run_until_idle()
    assert w.result_chan().recv(timeout=0) == Event(ADDED, {})
    w2.stop()
    m.shutdown()


def test_broadcaster_drop_if_channel_full():
    """Port of TestBroadcasterDropIfChannelFull (mux_test.go): a full watcher misses the second event."""
    m, driver = driven(1, watch.DROP_IF_CHANNEL_FULL)
    watchers = [m.watch() for _ in range(2)]
    m.action(TABLE[0].type, TABLE[0].object)
    m.action(TABLE[1].type, TABLE[1].object)
    m.shutdown()
    driver.run_until_idle()
    for w in watchers:
        assert drain(w) == [TABLE[0]]


def test_broadcaster_watch_after_shutdown():
    """Port of TestBroadcasterWatchAfterShutdown (mux_test.go)."""
    m, _ = driven(0, watch.WAIT_IF_CHANNEL_FULL)
    m.shutdown()
    with pytest.raises(RuntimeError, match="broadcaster already stopped"):
        m.watch()
    with pytest.raises(RuntimeError, match="broadcaster already stopped"):
        m.watch_with_prefix(TABLE[:2])


def test_broadcaster_send_event_after_shutdown():
    """Port of TestBroadcasterSendEventAfterShutdown (mux_test.go)."""
    m, _ = driven(1, watch.DROP_IF_CHANNEL_FULL)
    for _ in range(2):
        m.watch()
    m.shutdown()
    with pytest.raises(RuntimeError, match="broadcaster already stopped"):
        m.action(ADDED, {"id": "foo"})
    with pytest.raises(RuntimeError, match="broadcaster already stopped"):
        m.action_or_drop(ADDED, {"id": "foo"})


# --- our own -----------------------------------------------------------------------------------


def test_watch_with_prefix_gets_the_prefix_first():
    m, driver = driven(1, watch.DROP_IF_CHANNEL_FULL)
    w = m.watch_with_prefix(TABLE[:3])
    m.action(TABLE[3].type, TABLE[3].object)
    driver.run_until_idle()
    m.shutdown()
    assert drain(w) == TABLE  # the channel was made 3 + 1 long


def test_a_new_watcher_sees_only_later_events_and_a_stopped_one_the_earlier():
    m, driver = driven(10, watch.DROP_IF_CHANNEL_FULL)
    early = m.watch()
    m.action(ADDED, "before")
    late = m.watch()
    m.action(ADDED, "between")
    early.stop()
    m.action(ADDED, "after")
    driver.run_until_idle()
    m.shutdown()
    assert [e.object for e in drain(early)] == ["before", "between"]
    assert [e.object for e in drain(late)] == ["between", "after"]


def test_action_or_drop_drops_past_the_incoming_queue():
    m, driver = driven(100, watch.DROP_IF_CHANNEL_FULL)
    w = m.watch()
    sent = [m.action_or_drop(ADDED, i) for i in range(watch.mux.INCOMING_QUEUE_LENGTH + 1)]
    assert sent == [True] * watch.mux.INCOMING_QUEUE_LENGTH + [False]
    long = watch.new_long_queue_broadcaster(100, watch.DROP_IF_CHANNEL_FULL, clock=FakeClock(EPOCH, driven=True))
    assert all(long.action_or_drop(ADDED, i) for i in range(100)) and not long.action_or_drop(ADDED, 100)
    driver.run_until_idle()
    assert len(w.result_chan()) == watch.mux.INCOMING_QUEUE_LENGTH


def test_mode_follows_the_clock():
    m, _ = driven(0, watch.DROP_IF_CHANNEL_FULL)
    assert m.thread is None and m.steps()[0].name == "watch/broadcaster"
    assert not m.steps()[0].ready()
    m.action(ADDED, 1)
    assert m.steps()[0].ready() and "driven" in repr(m)
    threaded = watch.new_broadcaster(0, watch.DROP_IF_CHANNEL_FULL, clock=FakeClock(EPOCH))
    assert threaded.thread is not None and threaded.thread.name == "watch/broadcaster"
    threaded.shutdown()
    threaded.thread.join(timeout=2)
    assert not threaded.thread.is_alive()
