"""Tests for the crash behaviour of minikcm/tools/cache/controller.py and shared_informer.py (no upstream twin).

A raising process function or event handler must not silence an informer: it is
logged through runtime.handle_error (naming the informer or the handler),
counted, and the loop goes on, on a driven clock and in threads alike.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from typing import Any

import pytest
from kubernetes.client import V1ObjectMeta, V1Pod

from minikcm.clock import FakeClock, RealClock
from minikcm.driver import Driver
from minikcm.tools.cache import shared_informer
from minikcm.tools.cache.controller import ResourceEventHandlerDetailedFuncs, new_indexer_informer, new_informer
from minikcm.tools.cache.shared_informer import SharedIndexInformerOptions, new_shared_index_informer_with_options

from .fake_controller_source import FakeControllerSource

RUNTIME_LOGGER = "minikcm.apimachinery.runtime"


def pod(name: str) -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(name=name, namespace="ns"))


class Recorder:
    """A handler that records names and raises on the pods named in `bad`."""

    def __init__(self, *bad: str) -> None:
        self.bad = set(bad)
        self.seen: list[str] = []

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        self.handle("add", obj)

    def on_update(self, old: Any, new_obj: Any) -> None:
        self.handle("update", new_obj)

    def on_delete(self, obj: Any) -> None:
        self.handle("delete", obj)

    def handle(self, what: str, obj: Any) -> None:
        name = obj.metadata.name
        if name in self.bad:
            raise RuntimeError(f"handler refuses {name}")
        self.seen.append(f"{what} {name}")


def shared(source: FakeControllerSource, clock: Any) -> shared_informer.SharedIndexInformerImpl:
    return new_shared_index_informer_with_options(source, V1Pod(), SharedIndexInformerOptions(
        resync_period=0, clock=clock, rng=random.Random(1)))


def test_raising_handler_keeps_receiving_deterministic(driven_clock, caplog):
    source = FakeControllerSource()
    source.add(pod("a"))
    informer = shared(source, driven_clock)
    bad, good = Recorder("b"), Recorder()
    bad_handle = informer.add_event_handler(bad)
    good_handle = informer.add_event_handler(good)
    driver = Driver(driven_clock, informer.steps())
    driver.run_for(0)
    with caplog.at_level(logging.ERROR, logger=RUNTIME_LOGGER):
        source.add(pod("b"))
        source.add(pod("c"))
        driver.run_for(0)
        assert bad.seen == ["add a"], "the notification after the failure waits out the pause"
        driver.run_for(1)
    assert bad.seen == ["add a", "add c"]
    assert good.seen == ["add a", "add b", "add c"]
    assert bad_handle.handler_errors == 1 and good_handle.handler_errors == 0
    assert informer.handler_errors() == {f"{__name__}.Recorder": 1}
    assert "Event handler failed" in caplog.text and "handler refuses b" in caplog.text
    assert f'handler="{__name__}.Recorder"' in caplog.text


def test_crash_pause_is_a_wakeup_of_the_listeners_step(driven_clock):
    source = FakeControllerSource()
    informer = shared(source, driven_clock)
    handler = Recorder("b")
    informer.add_event_handler(handler)
    driver = Driver(driven_clock, informer.steps())
    driver.run_for(0)
    source.add(pod("b"))
    source.add(pod("c"))
    start = driven_clock.now()
    driver.run_until(lambda: handler.seen == ["add c"], timeout=5)
    assert (driven_clock.now() - start).total_seconds() == pytest.approx(shared_informer.CRASH_PAUSE)


def test_initial_add_that_raises_still_syncs_the_handler(driven_clock, caplog):
    source = FakeControllerSource()
    source.add(pod("a"))
    source.add(pod("b"))
    informer = shared(source, driven_clock)
    handle = informer.add_event_handler(Recorder("a"))
    with caplog.at_level(logging.ERROR, logger=RUNTIME_LOGGER):
        Driver(driven_clock, informer.steps()).run_for(2)
    assert handle.has_synced()
    assert handle.handler_errors == 1


def test_raising_process_function_keeps_the_loop_deterministic(driven_clock, caplog):
    source = FakeControllerSource()
    handler = Recorder("b")
    _, c = new_informer(source, V1Pod(), 0, ResourceEventHandlerDetailedFuncs(
        add_func=handler.on_add, update_func=handler.on_update, delete_func=handler.on_delete))
    c.clock = driven_clock
    driver = Driver(driven_clock, c.steps())
    driver.run_for(0)  # the (empty) initial list; later adds arrive one watch event, one delta, at a time
    with caplog.at_level(logging.ERROR, logger=RUNTIME_LOGGER):
        source.add(pod("a"))
        source.add(pod("b"))
        source.add(pod("c"))
        driver.run_for(1)
        source.modify(pod("a"))
        driver.run_for(1)
    assert handler.seen == ["add a", "add c", "update a"]
    assert c.handler_errors() == 1 and c.process_errors == 0
    assert "Event handler failed" in caplog.text and "handler refuses b" in caplog.text
    assert f'handler="{__name__}.Recorder"' in caplog.text


def test_raising_handler_skips_only_its_notification_in_a_relist(driven_clock, caplog):
    # The initial list is one atomic delta: a raising call must not cost the objects after it.
    source = FakeControllerSource()
    for name in "abc":
        source.add(pod(name))
    handler = Recorder("b")
    store, c = new_informer(source, V1Pod(), 0, ResourceEventHandlerDetailedFuncs(add_func=handler.on_add))
    c.clock = driven_clock
    with caplog.at_level(logging.ERROR, logger=RUNTIME_LOGGER):
        Driver(driven_clock, c.steps()).run_for(1)
    assert handler.seen == ["add a", "add c"]
    assert sorted(store.list_keys()) == ["ns/a", "ns/b", "ns/c"], "the store holds the object the handler refused"
    assert c.handler_errors() == 1 and c.has_synced()


def test_raising_store_keeps_the_loop_deterministic(driven_clock, caplog):
    source = FakeControllerSource()
    handler = Recorder()
    store, c = new_indexer_informer(source, V1Pod(), 0, ResourceEventHandlerDetailedFuncs(add_func=handler.on_add),
                                    {"by-name": refuse_b_index})
    c.clock = driven_clock
    driver = Driver(driven_clock, c.steps())
    driver.run_for(0)
    with caplog.at_level(logging.ERROR, logger=RUNTIME_LOGGER):
        source.add(pod("b"))
        driver.run_for(1)
        source.add(pod("c"))
        driver.run_for(1)
    assert handler.seen == ["add c"]
    assert c.process_errors == 1 and c.handler_errors() == 0
    assert "Processing a popped item failed" in caplog.text and 'informer="v1/pods"' in caplog.text


def refuse_b_index(obj: Any) -> list[str]:
    if obj.metadata.name == "b":
        raise ValueError("index func refuses b")
    return [obj.metadata.name]


def test_shared_informer_process_errors_counts_store_failures(driven_clock, caplog):
    source = FakeControllerSource()
    source.add(pod("a"))
    informer = shared(source, driven_clock)

    informer.add_indexers({"by-name": refuse_b_index})
    handler = Recorder()
    informer.add_event_handler(handler)
    driver = Driver(driven_clock, informer.steps())
    with caplog.at_level(logging.ERROR, logger=RUNTIME_LOGGER):
        driver.run_for(0)
        source.add(pod("b"))
        driver.run_for(1)
        source.add(pod("c"))
        driver.run_for(1)
    assert informer.process_errors() == 1
    assert handler.seen == ["add a", "add c"]
    assert "index func refuses b" in caplog.text


def add_b_then_c(source, handler, runner, stop, caplog) -> None:
    """Start `runner`, add pods b (the handler raises) and c, wait up to 5 s for c, then stop."""
    with caplog.at_level(logging.ERROR, logger=RUNTIME_LOGGER):
        runner.start()
        try:
            source.add(pod("b"))
            source.add(pod("c"))
            deadline = time.monotonic() + 5
            while handler.seen != ["add c"] and time.monotonic() < deadline:
                time.sleep(0.01)
        finally:
            stop.set()
            runner.join(5)


@pytest.mark.threaded
def test_raising_handler_keeps_receiving_threaded(monkeypatch, caplog):
    monkeypatch.setattr(shared_informer, "CRASH_PAUSE", 0.05)
    source = FakeControllerSource()
    informer = shared(source, RealClock())
    handler = Recorder("b")
    handle = informer.add_event_handler(handler)
    stop = threading.Event()
    runner = threading.Thread(target=informer.run, args=(stop,), name="informer/crash-test")
    add_b_then_c(source, handler, runner, stop, caplog)
    assert handler.seen == ["add c"]
    assert handle.handler_errors == 1
    assert f'handler="{__name__}.Recorder"' in caplog.text


@pytest.mark.threaded
def test_raising_process_function_keeps_the_loop_threaded(caplog):
    source = FakeControllerSource()
    handler = Recorder("b")
    _, c = new_informer(source, V1Pod(), 0, ResourceEventHandlerDetailedFuncs(add_func=handler.on_add))
    stop = threading.Event()
    runner = threading.Thread(target=c.run, args=(stop,), name="controller/crash-test")
    add_b_then_c(source, handler, runner, stop, caplog)
    assert handler.seen == ["add c"]
    assert c.handler_errors() == 1
    assert not runner.is_alive()


def test_fake_clock_listener_thread_waits_out_the_pause():
    # Threaded listener on a (non-driven) fake clock: the pause is measured on the listener's clock.
    clock = FakeClock()
    source = FakeControllerSource()
    informer = shared(source, clock)
    handler = Recorder("b")
    informer.add_event_handler(handler)
    listener = next(iter(informer.processor.listeners))
    listener.add(shared_informer.AddNotification(new_obj=pod("b"), is_in_initial_list=False))
    listener.add(shared_informer.AddNotification(new_obj=pod("c"), is_in_initial_list=False))
    assert listener.deliver_one() is True
    assert listener.deliver_one() is False and handler.seen == []
    clock.step(shared_informer.CRASH_PAUSE)
    assert listener.deliver_one() is True and handler.seen == ["add c"]
