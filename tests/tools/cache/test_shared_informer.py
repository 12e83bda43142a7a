"""Tests for minikcm.tools.cache.shared_informer (ports from tools/cache/shared_informer_test.go and wait_test.go).

Most tests run the informer's steps under the deterministic driver on a
FakeClock, where upstream runs goroutines and polls (or uses synctest). The
tests about starting, stopping and concurrent registration need real threads
and are marked `threaded`.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from kubernetes.client import V1ObjectMeta, V1Pod

from minikcm.apimachinery import runtime
from minikcm.clock import FakeClock
from minikcm.driver import Driver
from minikcm.tools.cache.controller import ResourceEventHandlerDetailedFuncs, ResourceEventHandlerFuncs
from minikcm.tools.cache.reflector import Reflector
from minikcm.tools.cache.shared_informer import (
    AddNotification,
    SharedIndexInformerImpl,
    SharedIndexInformerOptions,
    determine_resync_period,
    is_done,
    new_shared_index_informer_with_options,
    new_shared_informer,
    wait_for,
    wait_for_cache_sync,
    wait_for_named_cache_sync,
)

from .fake_controller_source import FakeControllerSource


class Listener:
    """Port of testListener (shared_informer_test.go): records the names it is given on add and update."""

    def __init__(self, name: str, resync_period: float, *expected: str) -> None:
        self.name = name
        self.resync_period = resync_period
        self.expected_item_names = set(expected)
        self.received_item_names: list[str] = []
        self.lock = threading.Lock()

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        self.handle(obj)

    def on_update(self, old: Any, new_obj: Any) -> None:
        self.handle(new_obj)

    def on_delete(self, obj: Any) -> None:
        pass

    def handle(self, obj: Any) -> None:
        with self.lock:
            self.received_item_names.append(obj.metadata.name)

    def satisfied_expectations(self) -> bool:
        with self.lock:
            return set(self.received_item_names) == self.expected_item_names

    def ok(self, timeout: float = 2.0) -> bool:
        """Port of testListener.ok, for threaded tests: expectations met, and still met a moment later."""
        deadline = time.monotonic() + timeout
        while not self.satisfied_expectations() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)  # let stragglers arrive
        return self.satisfied_expectations()

    def reset(self) -> None:
        with self.lock:
            self.received_item_names = []


def pod(name: str, **meta: Any) -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(name=name, **meta))


def new_informer(source: FakeControllerSource, resync: float, clock: FakeClock | None = None,
                 indexers: dict | None = None) -> SharedIndexInformerImpl:
    return new_shared_index_informer_with_options(source, V1Pod(), SharedIndexInformerOptions(
        resync_period=resync, indexers=indexers or {}, clock=clock, rng=random.Random(1)))


def event_handler_count(i: SharedIndexInformerImpl) -> int:
    """Port of eventHandlerCount (shared_informer_test.go)."""
    return len(i.processor.listeners)


def is_registered(i: SharedIndexInformerImpl, h: Any) -> bool:
    """Port of isRegistered (shared_informer_test.go)."""
    return i.processor.get_listener(h) is not None


def label_keys(obj: Any) -> list[str]:
    return sorted((obj.metadata.labels or {}).keys())


def test_indexer(driven_clock):
    """Port of TestIndexer (shared_informer_test.go): indices added before and after start both work."""
    source = FakeControllerSource()
    pod1 = pod("pod1", labels={"a": "a-val", "b": "b-val1"})
    pod2 = pod("pod2", labels={"b": "b-val2"})
    pod3 = pod("pod3", labels={"a": "a-val2"})
    source.add(pod1)
    source.add(pod2)
    informer = new_informer(source, 1, driven_clock)
    informer.add_indexers({"labels": label_keys})
    driver = Driver(driven_clock, informer.steps())
    assert driver.run_until(informer.has_synced)
    assert informer.get_indexer().by_index("labels", "a") == [pod1]

    source.add(pod3)
    driver.run_for(0.5)
    assert informer.get_indexer().by_index("labels", "a") == [pod1, pod3]
    informer.add_indexers({"labels-again": label_keys})
    assert informer.get_indexer().by_index("labels-again", "a") == [pod1, pod3]
    assert sorted(informer.get_indexer().list_index_func_values("labels")) == ["a", "b"]
    assert sorted(informer.get_indexer().list_index_func_values("labels-again")) == ["a", "b"]


def test_listener_resync_periods(driven_clock):
    """Port of TestListenerResyncPeriods (shared_informer_test.go): each handler resyncs at its own period."""
    source = FakeControllerSource()
    source.add(pod("pod1"))
    source.add(pod("pod2"))
    informer = new_informer(source, 1, driven_clock)
    listener1 = Listener("listener1", 0, "pod1", "pod2")
    listener2 = Listener("listener2", 2, "pod1", "pod2")
    listener3 = Listener("listener3", 3, "pod1", "pod2")
    listeners = [listener1, listener2, listener3]
    for listener in listeners:
        informer.add_event_handler_with_resync_period(listener, listener.resync_period)
    driver = Driver(driven_clock, informer.steps())
    driver.run_for(0)
    assert all(listener.satisfied_expectations() for listener in listeners), "initial list"

    for listener in listeners:
        listener.reset()
    driver.run_for(2)  # t=2: listener2's resync
    assert listener2.satisfied_expectations()
    assert listener1.received_item_names == [] and listener3.received_item_names == []

    for listener in listeners:
        listener.reset()
    driver.run_for(1)  # t=3: listener3's resync
    assert listener3.satisfied_expectations()
    assert listener1.received_item_names == [] and listener2.received_item_names == []


def test_resync_check_period():
    """Port of TestResyncCheckPeriod (shared_informer_test.go): shorter handler periods lower the check period."""
    informer = new_informer(FakeControllerSource(), 12 * 3600)
    gl = informer.processor.get_listener
    steps = [  # (requested period, want check period, want periods of handlers 1..n)
        (0, 12 * 3600, [0]),
        (60, 60, [0, 60]),
        (55, 55, [0, 60, 55]),
        (5, 5, [0, 60, 55, 5]),
    ]
    handles = []
    for i, (requested, want_check, want_periods) in enumerate(steps):
        handles.append(informer.add_event_handler_with_resync_period(Listener(f"listener{i + 1}", requested),
                                                                     requested))
        assert informer.resync_check_period == want_check
        assert [gl(h).resync_period for h in handles] == want_periods


def test_resync_period_after_start_is_raised_to_the_check_period(driven_clock):
    # Once started, the check period no longer moves: a shorter request gets the check period.
    informer = new_informer(FakeControllerSource(), 60, driven_clock)
    informer.steps()
    handle = informer.add_event_handler_with_resync_period(Listener("late", 5), 5)
    assert informer.resync_check_period == 60 and handle.resync_period == 60
    tiny = informer.add_event_handler_with_resync_period(Listener("tiny", 0.001), 0.001)
    assert tiny.requested_resync_period == 60  # below the 1 s minimum, then below the check period


DETERMINE_RESYNC_PERIOD_CASES = [
    #            desired check want
    pytest.param(0, 30, 0, id="no resync wanted"),
    pytest.param(10, 0, 0, id="informer does not resync"),
    pytest.param(5, 30, 30, id="raised to the check period"),
    pytest.param(60, 30, 60, id="kept"),
]


@pytest.mark.parametrize("desired, check, want", DETERMINE_RESYNC_PERIOD_CASES)
def test_determine_resync_period(desired, check, want):
    assert determine_resync_period(desired, check) == want


@pytest.mark.threaded
def test_shared_informer_initialization_race():
    """Port of TestSharedInformerInitializationRace (shared_informer_test.go): add a handler while run starts."""
    informer = new_shared_informer(FakeControllerSource(), V1Pod(), 1)
    listener = Listener("raceListener", 0)
    adder = threading.Thread(target=informer.add_event_handler_with_resync_period, args=(listener, 0))
    stop = threading.Event()
    runner = threading.Thread(target=informer.run, args=(stop,), name="informer/test")
    adder.start()
    runner.start()
    adder.join(5)
    stop.set()
    runner.join(5)
    assert not runner.is_alive() and not adder.is_alive()


def test_shared_informer_watch_disruption(driven_clock):
    """Port of TestSharedInformerWatchDisruption (shared_informer_test.go): a relist delivers what the watch missed."""
    source = FakeControllerSource()
    source.add(pod("pod1", uid="pod1"))
    source.add(pod("pod2", uid="pod2"))
    informer = new_informer(source, 1, driven_clock)
    no_resync = Listener("listenerNoResync", 0, "pod1", "pod2")
    resync = Listener("listenerResync", 1, "pod1", "pod2")
    listeners = [no_resync, resync]
    for listener in listeners:
        informer.add_event_handler_with_resync_period(listener, listener.resync_period)
    driver = Driver(driven_clock, informer.steps())
    driver.run_for(0)
    assert all(listener.satisfied_expectations() for listener in listeners)

    # pod3 appears and pod2 changes without the watch seeing either: only a relist can tell.
    source.add_drop_watch(pod("pod3", uid="pod3"))
    source.modify_drop_watch(pod("pod2", uid="pod2"))
    driver.run_for(0)
    assert all(listener.satisfied_expectations() for listener in listeners), "nobody saw the dropped changes"

    for listener in listeners:
        listener.reset()
    no_resync.expected_item_names = {"pod2", "pod3"}
    resync.expected_item_names = {"pod1", "pod2", "pod3"}
    driver.run_for(1)  # the resync marks who is syncing
    source.reset_watch()  # a lost connection: the watch from RV 2 is now too old
    driver.run_for(2)  # backoff (at most 1.6 s), then the relist
    for listener in listeners:
        assert listener.satisfied_expectations(), (listener.name, listener.received_item_names)


def test_shared_informer_error_handling(driven_clock):
    """Port of TestSharedInformerErrorHandling (shared_informer_test.go): list errors reach the watch error handler."""
    source = FakeControllerSource()
    source.add(pod("pod1"))
    source.list_error = RuntimeError("Access Denied")
    informer = new_informer(source, 1, driven_clock)
    seen: list[BaseException] = []

    def on_error(r: Reflector, err: BaseException) -> None:
        seen.append(err)

    informer.set_watch_error_handler(on_error)
    driver = Driver(driven_clock, informer.steps())
    assert driver.run_until(lambda: bool(seen), timeout=10)
    assert "Access Denied" in str(seen[0])


def test_shared_informer_start_race(driven_clock):
    """Port of TestSharedInformerStartRace (shared_informer_test.go): setters work before start, refuse after."""
    informer = new_informer(FakeControllerSource(), 1, driven_clock)
    informer.set_transform(lambda obj: obj)
    informer.set_watch_error_handler(lambda r, err: None)
    informer.steps()
    with pytest.raises(RuntimeError, match="already started"):
        informer.set_transform(lambda obj: obj)
    with pytest.raises(RuntimeError, match="already started"):
        informer.set_watch_error_handler(lambda r, err: None)


def test_shared_informer_transformer(driven_clock):
    """Port of TestSharedInformerTransformer (shared_informer_test.go): handlers see transformed objects."""
    source = FakeControllerSource()
    source.add(pod("pod1", uid="pod1"))
    source.add(pod("pod2", uid="pod2"))
    informer = new_informer(source, 1, driven_clock)

    def upper_name(obj: Any) -> Any:
        obj.metadata.name = obj.metadata.name.upper()
        return obj

    informer.set_transform(upper_name)
    listener = Listener("listenerTransformer", 0, "POD1", "POD2")
    informer.add_event_handler(listener)
    Driver(driven_clock, informer.steps()).run_for(0)
    assert listener.satisfied_expectations(), listener.received_item_names


def test_shared_informer_remove_handler():
    """Port of TestSharedInformerRemoveHandler (shared_informer_test.go)."""
    informer = new_informer(FakeControllerSource(), 1)
    handle1 = informer.add_event_handler(ResourceEventHandlerFuncs())
    handle2 = informer.add_event_handler(ResourceEventHandlerFuncs())
    assert event_handler_count(informer) == 2
    informer.remove_event_handler(handle2)
    assert event_handler_count(informer) == 1
    informer.remove_event_handler(handle1)
    assert event_handler_count(informer) == 0


def test_shared_informer_remove_foreign_handler():
    """Port of TestSharedInformerRemoveForeignHandler (shared_informer_test.go): another informer's handle is ignored."""
    informer = new_informer(FakeControllerSource(), 1)
    informer2 = new_informer(FakeControllerSource(), 1)
    handle1 = informer.add_event_handler(ResourceEventHandlerFuncs())
    handle2 = informer.add_event_handler(ResourceEventHandlerFuncs())
    assert (event_handler_count(informer), event_handler_count(informer2)) == (2, 0)
    assert not is_registered(informer2, handle1) and not is_registered(informer2, handle2)
    informer2.remove_event_handler(handle1)
    assert (event_handler_count(informer), event_handler_count(informer2)) == (2, 0)
    assert is_registered(informer, handle1) and is_registered(informer, handle2)
    informer.remove_event_handler(handle2)
    assert event_handler_count(informer) == 1
    informer.remove_event_handler(handle1)
    assert event_handler_count(informer) == 0


def test_shared_informer_multiple_registration():
    """Port of TestSharedInformerMultipleRegistration (shared_informer_test.go): one handler, two registrations."""
    informer = new_informer(FakeControllerSource(), 1)
    handler = ResourceEventHandlerFuncs()
    reg1 = informer.add_event_handler(handler)
    reg2 = informer.add_event_handler(handler)
    assert is_registered(informer, reg1) and is_registered(informer, reg2)
    assert event_handler_count(informer) == 2
    informer.remove_event_handler(reg1)
    assert not is_registered(informer, reg1) and is_registered(informer, reg2)
    assert event_handler_count(informer) == 1
    informer.remove_event_handler(reg2)
    assert event_handler_count(informer) == 0


def test_removing_removed_shared_informer():
    """Port of TestRemovingRemovedSharedInformer (shared_informer_test.go): removal is idempotent."""
    informer = new_informer(FakeControllerSource(), 1)
    reg = informer.add_event_handler(ResourceEventHandlerFuncs())
    informer.remove_event_handler(reg)
    assert not is_registered(informer, reg)
    informer.remove_event_handler(reg)
    assert not is_registered(informer, reg)


def test_remove_event_handler_rejects_foreign_types():
    with pytest.raises(TypeError, match="invalid key type"):
        new_informer(FakeControllerSource(), 1).remove_event_handler("not a registration")


@pytest.mark.threaded
def test_shared_informer_handler_abuse():
    """Port of TestSharedInformerHandlerAbuse (shared_informer_test.go), smaller: registrations churn while events flow."""
    source = FakeControllerSource()
    informer = new_shared_informer(source, V1Pod(), 1)
    informer_stop, workers_stop = threading.Event(), threading.Event()
    runner = threading.Thread(target=informer.run, args=(informer_stop,), name="informer/test")
    runner.start()
    failures: list[BaseException] = []

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        funcs = ResourceEventHandlerDetailedFuncs(add_func=lambda obj, initial: None,
                                                  update_func=lambda old, new_obj: None, delete_func=lambda obj: None)
        handles = []
        while not workers_stop.is_set():
            try:
                if rng.randrange(2) == 0:
                    handles.append(informer.add_event_handler_with_resync_period(funcs, 1))
                elif handles:
                    informer.remove_event_handler(handles.pop(rng.randrange(len(handles))))
            except RuntimeError as err:
                if "stopped already" in str(err):
                    return  # the test is over
                failures.append(err)
                return

    workers = [threading.Thread(target=worker, args=(i,)) for i in range(10)]
    for w in workers:
        w.start()
    rng = random.Random(0)
    objs: list[V1Pod] = []
    for i in range(500):
        if not objs or rng.randrange(3) == 0:
            objs.append(pod(f"pod{i}"))
            source.add(pod(f"pod{i}"))
        elif rng.randrange(2) == 0:
            source.modify(pod(rng.choice(objs).metadata.name))
        else:
            source.delete(objs.pop(rng.randrange(len(objs))))
    informer_stop.set()  # stop the informer first, to contend with the workers while it closes
    runner.join(5)
    workers_stop.set()
    for w in workers:
        w.join(5)
    assert failures == [] and not runner.is_alive()


@pytest.mark.threaded
def test_state_shared_informer():
    """Port of TestStateSharedInformer (shared_informer_test.go): started and stopped, before, during, after run."""
    source = FakeControllerSource()
    source.add(pod("pod1"))
    informer = new_shared_informer(source, V1Pod(), 1)
    listener = Listener("listener", 0, "pod1")
    informer.add_event_handler_with_resync_period(listener, 0)
    assert not informer.has_started() and not informer.is_stopped()
    stop = threading.Event()
    runner = threading.Thread(target=informer.run, args=(stop,), name="informer/test")
    runner.start()
    assert listener.ok(), "informer did not report initial objects"
    assert informer.has_started() and not informer.is_stopped()
    stop.set()
    runner.join(5)
    assert informer.is_stopped() and informer.has_started()


@pytest.mark.threaded
def test_add_on_stopped_shared_informer():
    """Port of TestAddOnStoppedSharedInformer (shared_informer_test.go): a stopped informer refuses handlers."""
    source = FakeControllerSource()
    source.add(pod("pod1"))
    informer = new_shared_informer(source, V1Pod(), 1)
    stop = threading.Event()
    stop.set()
    informer.run(stop)
    assert informer.is_stopped()
    with pytest.raises(RuntimeError, match="was not added to shared informer because it has stopped already$"):
        informer.add_event_handler_with_resync_period(Listener("listener", 0, "pod1"), 0)


@pytest.mark.threaded
def test_remove_on_stopped_shared_informer():
    """Port of TestRemoveOnStoppedSharedInformer (shared_informer_test.go): removal still works once stopped."""
    source = FakeControllerSource()
    source.add(pod("pod1"))
    informer = new_shared_informer(source, V1Pod(), 1)
    handle = informer.add_event_handler_with_resync_period(Listener("listener", 0, "pod1"), 0)
    stop = threading.Event()
    stop.set()
    informer.run(stop)
    assert informer.is_stopped()
    informer.remove_event_handler(handle)


def test_remove_while_active(driven_clock):
    """Port of TestRemoveWhileActive (shared_informer_test.go): a removed handler hears nothing more."""
    source = FakeControllerSource()
    informer = new_informer(source, 0, driven_clock)
    listener = Listener("listener", 0, "pod1")
    handle = informer.add_event_handler(listener)
    driver = Driver(driven_clock, informer.steps())
    source.add(pod("pod1"))
    driver.run_until_idle()
    assert listener.satisfied_expectations()
    informer.remove_event_handler(handle)
    assert not is_registered(informer, handle)
    source.add(pod("pod2"))
    driver.run_until_idle()
    assert listener.satisfied_expectations(), listener.received_item_names


def test_add_while_active(driven_clock):
    """Port of TestAddWhileActive (shared_informer_test.go): a late handler gets the cache, then syncs."""
    source = FakeControllerSource()
    informer = new_informer(source, 0, driven_clock)
    listener1 = Listener("originalListener", 0, "pod1")
    listener2 = Listener("listener2", 0, "pod1", "pod2")
    handle1 = informer.add_event_handler(listener1)
    assert not handle1.has_synced(), "synced before run"
    driver = Driver(driven_clock, informer.steps())
    source.add(pod("pod1"))
    driver.run_until_idle()
    assert listener1.satisfied_expectations()
    assert handle1.has_synced() and is_done(handle1.has_synced_checker())

    handle2 = informer.add_event_handler(listener2)
    assert not handle2.has_synced(), "synced before processing anything"
    source.add(pod("pod2"))
    driver.run_until_idle()
    assert listener2.satisfied_expectations()
    assert handle2.has_synced()
    assert is_registered(informer, handle1) and is_registered(informer, handle2)
    listener1.expected_item_names = listener2.expected_item_names
    assert listener1.satisfied_expectations()


@pytest.mark.threaded
@pytest.mark.parametrize("case", ["no-context", "no-context-later", "no-run"])
def test_shutdown(case):
    """Port of TestShutdown (shared_informer_test.go): every thread an informer starts ends when it stops."""
    before = set(threading.enumerate())
    informer = new_shared_informer(FakeControllerSource(), V1Pod(), 1)
    handle = None
    if case != "no-context-later":
        handle = informer.add_event_handler(ResourceEventHandlerFuncs(add_func=lambda obj: None))
    if case != "no-run":
        stop = threading.Event()
        runner = threading.Thread(target=informer.run, args=(stop,), name="informer/test")
        runner.start()
        assert wait_for_cache_sync(threading.Event(), informer.has_synced)
        if case == "no-context-later":
            handle = informer.add_event_handler(ResourceEventHandlerFuncs(add_func=lambda obj: None))
        informer.remove_event_handler(handle)
        stop.set()
        runner.join(5)
    deadline = time.monotonic() + 2  # helpers notice the stop within a wait slice
    while (leaked := [t.name for t in set(threading.enumerate()) - before if t.is_alive()]) and \
            time.monotonic() < deadline:
        time.sleep(0.01)
    assert leaked == []


@pytest.mark.threaded
def test_event_panics(monkeypatch, caplog):
    """Port of TestEventPanics (shared_informer_test.go), "simple": with REALLY_CRASH off a panicking handler
    is logged with its traceback, and the registration whose initial add panicked never syncs."""
    monkeypatch.setattr(runtime, "REALLY_CRASH", False)
    source = FakeControllerSource()
    source.add(pod("pod1"))
    informer = new_shared_informer(source, V1Pod(), 1)

    def add_func(obj: Any) -> None:
        raise RuntimeError("fake panic")

    handle = informer.add_event_handler(ResourceEventHandlerFuncs(add_func=add_func))
    stop = threading.Event()
    runner = threading.Thread(target=informer.run, args=(stop,), name="informer/test")
    with caplog.at_level(logging.ERROR, logger="minikcm.apimachinery.runtime"):
        runner.start()
        assert wait_for_cache_sync(threading.Event(), informer.has_synced)
        deadline = time.monotonic() + 5
        while "fake panic" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.01)
        informer.remove_event_handler(handle)
        stop.set()
        runner.join(5)
    assert '"Observed a panic" panic="fake panic"' in caplog.text and "Traceback" in caplog.text
    assert not handle.has_synced(), "a raising initial add never counts as handled, as in Go"


@pytest.mark.parametrize("really_crash", [True, False])
def test_event_panics_deterministic(driven_clock, monkeypatch, really_crash):
    # Under the driver: with REALLY_CRASH on the exception reaches the driver's caller; off, the steps go on.
    monkeypatch.setattr(runtime, "REALLY_CRASH", really_crash)
    source = FakeControllerSource()
    source.add(pod("pod1"))
    informer = new_informer(source, 1, driven_clock)

    def add_func(obj: Any) -> None:
        raise RuntimeError("fake panic")

    handle = informer.add_event_handler(ResourceEventHandlerFuncs(add_func=add_func))
    driver = Driver(driven_clock, informer.steps())
    if really_crash:
        with pytest.raises(RuntimeError, match="fake panic"):
            driver.run_for(0)
    else:
        driver.run_for(0)
        assert informer.has_synced() and not handle.has_synced()


def test_steps_order_and_trace_are_deterministic():
    # The step list is fixed, and the same scenario gives the same trace twice.
    def one_run() -> list[str]:
        clock = FakeClock(driven=True)
        source = FakeControllerSource()
        source.add(pod("pod1"))
        informer = new_informer(source, 1, clock)
        informer.add_event_handler(Listener("a", 0))
        informer.add_event_handler(Listener("b", 2))
        driver = Driver(clock, informer.steps())
        driver.run_for(0)
        source.add(pod("pod2"))
        source.reset_watch()
        driver.run_for(5)
        return [str(e) for e in driver.trace]

    first = one_run()
    assert first == one_run()
    assert first[:5] == ["00:00:00.000  reflector/v1/pods/list",  # lists and opens the watch
                         "00:00:00.000  controller/v1/pods/process", "00:00:00.000  informer/v1/pods/synced",
                         "00:00:00.000  informer/v1/pods/listeners",  # both listeners deliver in one step
                         "00:00:00.000  reflector/v1/pods/watch"]  # pod2 arrives


def test_listener_sync_follows_initial_adds(driven_clock):
    # A handler is synced once the informer synced and it returned from every initial add.
    source = FakeControllerSource()
    for name in ("a", "b"):
        source.add(pod(name))
    informer = new_informer(source, 0, driven_clock)
    handle = informer.add_event_handler(Listener("l", 0))
    steps = informer.steps()
    # Everything but the listeners: the informer syncs while both adds wait in the listener's buffer.
    driver = Driver(driven_clock, [s for s in steps if not s.name.endswith("/listeners")])
    assert driver.run_until(informer.has_synced)
    assert not handle.has_synced()
    assert [type(n) for n in handle.pending_notifications] == [AddNotification, AddNotification]
    handle.pass_on_sync()
    assert handle.deliver_one()  # one add returned, the other still buffered: not synced yet
    assert not handle.has_synced()
    assert [type(n) for n in handle.pending_notifications] == [AddNotification]
    driver.add(*[s for s in steps if s.name.endswith("/listeners")])
    driver.run_until_idle()
    assert handle.has_synced() and handle.pending_notifications == type(handle.pending_notifications)()


def test_update_with_same_resource_version_is_a_resync_for_due_listeners_only(driven_clock):
    informer = new_informer(FakeControllerSource(), 1, driven_clock)
    due, not_due = Listener("due", 1), Listener("not-due", 0)
    informer.add_event_handler_with_resync_period(due, 1)
    informer.add_event_handler_with_resync_period(not_due, 0)
    informer.steps()
    driven_clock.step(1)
    assert informer.processor.should_resync()
    informer.on_update(pod("x", resource_version="3"), pod("x", resource_version="3"))  # a resync
    informer.on_update(pod("y", resource_version="3"), pod("y", resource_version="4"))  # a real update
    informer.processor.deliver_step()
    informer.processor.deliver_step()
    assert due.received_item_names == ["x", "y"] and not_due.received_item_names == ["y"]
    next_resync = informer.processor.get_listener(list(informer.processor.listeners)[0]).next_resync
    assert next_resync == driven_clock.now() + timedelta(seconds=1)


def test_wait_for_cache_sync(driven_clock):
    """Port of WaitForCacheSync's contract: True once all synced (asked right away), False when stopped."""
    assert wait_for_cache_sync(threading.Event(), lambda: True, lambda: True, clock=driven_clock)
    stop = threading.Event()
    stop.set()
    assert not wait_for_cache_sync(stop, lambda: True, lambda: False, clock=driven_clock)
    assert not wait_for_named_cache_sync("test", stop, lambda: False, clock=driven_clock)


class MockChecker:
    """Port of mockChecker (wait_test.go): done at once, never, or when a test sets it."""

    def __init__(self, name: str, done: bool) -> None:
        self._name = name
        self.event = threading.Event()
        if done:
            self.event.set()

    def name(self) -> str:
        return self._name

    def done(self) -> threading.Event:
        return self.event


WAIT_FOR_CASES = [
    #            checkers (name, done at once)                  stopped  want
    pytest.param([], False, True, id="empty"),
    pytest.param([("first", True), ("second", True), ("last", True)], False, True, id="no-logging"),
    pytest.param([("first", True), ("second", False), ("last", True)], True, False, id="some-canceled"),
    pytest.param([("first", False), ("second", False), ("last", False)], True, False, id="all"),
]


@pytest.mark.parametrize("checkers, stopped, want", WAIT_FOR_CASES)
def test_wait_for(caplog, checkers, stopped, want):
    """Port of TestWaitFor (wait_test.go), the cases that need no waiting."""
    stop = threading.Event()
    if stopped:
        stop.set()
    with caplog.at_level(logging.INFO, logger="minikcm.tools.cache.shared_informer"):
        assert wait_for(stop, "my-caches", *(MockChecker(n, d) for n, d in checkers)) is want
    if not want:
        pending = sorted(n for n, d in checkers if not d)
        assert f"Timed out waiting for my-caches: {pending}" in caplog.text


@pytest.mark.threaded
def test_wait_for_checkers_done_later():
    """Port of TestWaitFor (wait_test.go), "with-logging": checkers that finish while we wait."""
    first, second = MockChecker("first", False), MockChecker("second", False)
    threading.Timer(0.02, second.event.set).start()
    threading.Timer(0.04, first.event.set).start()
    assert wait_for(threading.Event(), "my-caches", first, second, MockChecker("last", True))


# -- one code path per loop: the threads call the driver's step bodies ---------------------------------


def test_mark_synced_and_pass_on_sync_act_only_when_due(driven_clock):
    """Ours: the synced step and the listener's sync step check their own condition, so a thread may call them."""
    source = FakeControllerSource()
    source.add(pod("pod1"))
    informer = new_informer(source, 0, driven_clock)
    listener = informer.add_event_handler(Listener("a", 0))
    driver = Driver(driven_clock, informer.steps())
    assert informer.mark_synced() is False and not informer.has_synced()  # nothing listed yet
    assert listener.pass_on_sync() is False
    driver.run_until(informer.has_synced)
    assert informer.mark_synced() is True  # idempotent once synced
    driver.run_until_idle()
    assert listener.has_synced() and listener.pass_on_sync() is False  # told once, by the listeners step


@pytest.mark.threaded
def test_listener_thread_delivers_through_deliver_one(driven_clock, monkeypatch):
    """Ours: ProcessorListener.run waits for a notification, then calls the same deliver_one the driver calls."""
    informer = new_informer(FakeControllerSource(), 0, driven_clock)
    listener = informer.add_event_handler(Listener("a", 0))
    delivered = []
    real_deliver_one = listener.deliver_one

    def counting_deliver_one() -> bool:
        delivered.append(1)
        return real_deliver_one()

    monkeypatch.setattr(listener, "deliver_one", counting_deliver_one)
    thread = threading.Thread(target=listener.run, name="test/listener", daemon=True)
    thread.start()
    listener.add(AddNotification(pod("pod1"), False))
    listener.add(AddNotification(pod("pod2"), False))
    deadline = time.monotonic() + 5
    while len(delivered) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    listener.close()
    thread.join(5)
    assert len(delivered) == 2 and not thread.is_alive()
    assert listener.handler.received_item_names == ["pod1", "pod2"]
