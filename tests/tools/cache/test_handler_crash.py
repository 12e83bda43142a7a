"""Tests for the crash behaviour of minikcm/tools/cache/controller.py and shared_informer.py.

Go: a panicking handler goes through utilruntime.HandleCrash: the panic
handlers log it with the stack, then, with ReallyCrash on (the default), the
panic goes on and the process exits. With ReallyCrash off the notification is
skipped and the listener sleeps a second after the next notification arrives
(shared_informer.go, processorListener.run), and the plain informer's
processLoop starts again a second later (controller.go, wait.Until).
Each behaviour is tested with REALLY_CRASH on and off.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from typing import Any

import pytest
from kubernetes.client import V1ObjectMeta, V1Pod

from minikcm.apimachinery import runtime
from minikcm.clock import FakeClock, RealClock
from minikcm.driver import Driver
from minikcm.tools.cache import shared_informer
from minikcm.tools.cache.controller import ResourceEventHandlerDetailedFuncs, new_informer
from minikcm.tools.cache.shared_informer import SharedIndexInformerOptions, new_shared_index_informer_with_options

from .fake_controller_source import FakeControllerSource

RUNTIME_LOGGER = "minikcm.apimachinery.runtime"


@pytest.fixture
def no_crash(monkeypatch):
    """What `minikcm up`, the scenarios and chaos runs choose: REALLY_CRASH off."""
    monkeypatch.setattr(runtime, "REALLY_CRASH", False)


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


def test_raising_handler_reaches_the_drivers_caller_by_default(driven_clock, caplog):
    # REALLY_CRASH on (Go's default): the panic handlers log the traceback, then the exception goes on.
    assert runtime.REALLY_CRASH is True
    source = FakeControllerSource()
    informer = shared(source, driven_clock)
    informer.add_event_handler(Recorder("b"))
    driver = Driver(driven_clock, informer.steps())
    driver.run_for(0)
    source.add(pod("b"))
    with caplog.at_level(logging.ERROR, logger=RUNTIME_LOGGER), pytest.raises(RuntimeError, match="refuses b"):
        driver.run_for(0)
    assert "Observed a panic" in caplog.text and "Traceback" in caplog.text


def test_raising_handler_is_skipped_with_really_crash_off(driven_clock, caplog, no_crash):
    source = FakeControllerSource()
    source.add(pod("a"))
    informer = shared(source, driven_clock)
    bad, good = Recorder("b"), Recorder()
    informer.add_event_handler(bad)
    informer.add_event_handler(good)
    driver = Driver(driven_clock, informer.steps())
    driver.run_for(0)
    with caplog.at_level(logging.ERROR, logger=RUNTIME_LOGGER):
        source.add(pod("b"))
        source.add(pod("c"))
        driver.run_for(0)
        assert bad.seen == ["add a"], "the notification after the failure waits out the sleep"
        driver.run_for(1)
    assert bad.seen == ["add a", "add c"]
    assert good.seen == ["add a", "add b", "add c"]
    assert "Observed a panic" in caplog.text and "handler refuses b" in caplog.text


def test_sleep_after_crash_starts_when_the_next_notification_arrives(driven_clock, no_crash):
    # Go sleeps after receiving the next notification: one that comes 5 s later still waits 1 s.
    source = FakeControllerSource()
    informer = shared(source, driven_clock)
    handler = Recorder("b")
    informer.add_event_handler(handler)
    driver = Driver(driven_clock, informer.steps())
    driver.run_for(0)
    source.add(pod("b"))
    driver.run_for(5)
    source.add(pod("c"))
    arrived = driven_clock.now()
    assert driver.run_until(lambda: handler.seen == ["add c"], timeout=5)
    assert (driven_clock.now() - arrived).total_seconds() == pytest.approx(shared_informer.CRASH_PAUSE)


def test_initial_add_that_raises_never_syncs_the_handler(driven_clock, no_crash):
    # As in Go: the sync tracker is told only when the handler returned.
    source = FakeControllerSource()
    source.add(pod("a"))
    source.add(pod("b"))
    informer = shared(source, driven_clock)
    handle = informer.add_event_handler(Recorder("a"))
    Driver(driven_clock, informer.steps()).run_for(2)
    assert informer.has_synced() and not handle.has_synced()


def test_plain_informer_crash_reaches_the_drivers_caller_by_default(driven_clock):
    source = FakeControllerSource()
    handler = Recorder("b")
    _, c = new_informer(source, V1Pod(), 0, ResourceEventHandlerDetailedFuncs(add_func=handler.on_add))
    c.clock = driven_clock
    driver = Driver(driven_clock, c.steps())
    driver.run_for(0)
    source.add(pod("b"))
    with pytest.raises(RuntimeError, match="refuses b"):
        driver.run_for(1)


def test_plain_informer_resumes_a_second_later_with_really_crash_off(driven_clock, caplog, no_crash):
    source = FakeControllerSource()
    handler = Recorder("b")
    _, c = new_informer(source, V1Pod(), 0, ResourceEventHandlerDetailedFuncs(add_func=handler.on_add))
    c.clock = driven_clock
    driver = Driver(driven_clock, c.steps())
    driver.run_for(0)
    with caplog.at_level(logging.ERROR, logger=RUNTIME_LOGGER):
        source.add(pod("b"))  # popped alone: a batch that panics is lost whole, as in Go
        driver.run_for(0.5)
        source.add(pod("c"))
        driver.run_for(0.4)
        assert handler.seen == [], "processLoop waits out wait.Until's period"
        driver.run_for(0.2)
    assert handler.seen == ["add c"]
    assert "handler refuses b" in caplog.text


def add_b_then_c(source, handler, runner, stop) -> None:
    """Start `runner`, add pods b (the handler raises) and, a little later, c; wait up to 5 s for c, then stop."""
    runner.start()
    try:
        source.add(pod("b"))
        time.sleep(0.2)  # b is popped alone (a batch that panics is lost whole, as in Go)
        source.add(pod("c"))
        deadline = time.monotonic() + 5
        while handler.seen != ["add c"] and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        stop.set()
        runner.join(5)


@pytest.mark.threaded
def test_raising_handler_keeps_receiving_threaded(monkeypatch, no_crash):
    monkeypatch.setattr(shared_informer, "CRASH_PAUSE", 0.05)
    monkeypatch.setattr(runtime, "PANIC_HANDLERS", [])  # keep the expected traceback out of the log
    source = FakeControllerSource()
    informer = shared(source, RealClock())
    handler = Recorder("b")
    informer.add_event_handler(handler)
    stop = threading.Event()
    runner = threading.Thread(target=informer.run, args=(stop,), name="informer/crash-test")
    add_b_then_c(source, handler, runner, stop)
    assert handler.seen == ["add c"]


@pytest.mark.threaded
def test_raising_process_function_keeps_the_loop_threaded(no_crash, monkeypatch):
    monkeypatch.setattr(runtime, "PANIC_HANDLERS", [])
    source = FakeControllerSource()
    handler = Recorder("b")
    _, c = new_informer(source, V1Pod(), 0, ResourceEventHandlerDetailedFuncs(add_func=handler.on_add))
    stop = threading.Event()
    runner = threading.Thread(target=c.run, args=(stop,), name="controller/crash-test")
    add_b_then_c(source, handler, runner, stop)
    assert handler.seen == ["add c"]
    assert not runner.is_alive()


def test_fake_clock_listener_thread_waits_out_the_sleep(no_crash):
    # The sleep is measured on the listener's clock.
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
