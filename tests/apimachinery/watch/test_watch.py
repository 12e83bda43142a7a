"""Tests for minikcm/apimachinery/watch/watch.py: the result channel and the fake and empty watchers."""

from __future__ import annotations

import queue
import threading

import pytest

from minikcm.apimachinery import watch
from minikcm.apimachinery.watch import ADDED, ERROR, Event


def test_empty_watch_is_closed_and_stop_is_harmless():
    w = watch.new_empty_watch()
    assert w.result_chan().recv(timeout=0) is None
    w.stop()
    w.stop()


def test_fake_watcher_sends_what_the_test_pushes():
    w = watch.new_fake()
    w.add("a")
    w.error("boom")
    w.stop()
    assert list(w.result_chan()) == [Event(ADDED, "a"), Event(ERROR, "boom")]
    assert w.is_stopped()


def test_recv_polls_with_zero_timeout():
    chan = watch.ResultChan()
    with pytest.raises(queue.Empty):
        chan.recv(timeout=0)


@pytest.mark.threaded
def test_wait_takes_nothing_and_wakes_on_put_or_close():
    chan = watch.ResultChan()
    assert chan.wait(timeout=0) is False
    chan.put(Event(ADDED, 1))
    assert chan.wait(timeout=0) is True and len(chan) == 1
    chan.recv()
    woke = []
    t = threading.Thread(target=lambda: woke.append(chan.wait(timeout=2)))
    t.start()
    chan.close()
    t.join(timeout=2)
    assert woke == [True]
