"""Tests for the controller half of minikcm.tools.cache.controller (ports from tools/cache/controller_test.go).

test_controller.py covers the event-handler half. These tests run whole
informers: a FakeControllerSource plays the API server, and the controller's
steps run under the deterministic driver on a FakeClock (upstream runs
goroutines and waits). The hammer test also has a threaded twin.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from kubernetes.client import V1ObjectMeta, V1Pod, V1PodSpec

from minikcm.apimachinery import runtime
from minikcm.clock import FakeClock
from minikcm.driver import Driver
from minikcm.tools.cache import controller as controller_module
from minikcm.tools.cache.controller import (
    Config,
    ControllerImpl,
    InformerOptions,
    ResourceEventHandlerDetailedFuncs,
    ResourceEventHandlerFuncs,
    deletion_handling_meta_namespace_key_func,
    new,
    new_indexer_informer,
    new_informer,
    new_informer_with_options,
    new_queue_fifo,
    process_deltas,
    process_deltas_in_batch,
)
from minikcm.tools.cache.delta_fifo import DELETED, DeltaFIFO, Deltas
from minikcm.tools.cache.index import NAMESPACE_INDEX, meta_namespace_index_func
from minikcm.tools.cache.store import meta_namespace_key_func, new_store
from minikcm.tools.cache.the_real_fifo import RealFIFO, RealFIFOOptions, new_real_fifo, new_real_fifo_with_options

from .fake_controller_source import FakeControllerSource


def mk_pod(name: str, namespace: str = "", labels: dict[str, str] | None = None) -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(name=name, namespace=namespace or None, labels=labels))


def driver_for(c: ControllerImpl, clock: FakeClock) -> Driver:
    """The controller's steps on the fake clock (Go tests set the controller's clock the same way)."""
    c.clock = clock
    return Driver(clock, c.steps())


def test_example_controller_deletes_everything_added(driven_clock):
    """Port of Example (controller_test.go): a controller whose process function deletes what it sees."""
    source = FakeControllerSource()
    downstream = new_store(deletion_handling_meta_namespace_key_func)
    fifo = new_real_fifo(meta_namespace_key_func, downstream, None)
    deleted: list[str] = []

    def process(obj: Any, is_in_initial_list: bool) -> None:
        newest = obj.newest()
        if newest.type != DELETED:
            downstream.add(newest.object)
            source.delete(newest.object)
        else:
            downstream.delete(newest.object)
            deleted.append(fifo.key_of(newest.object))

    c = new(Config(queue=fifo, lister_watcher=source, process=process, object_type=V1Pod(), full_resync_period=0.1))
    driver = driver_for(c, driven_clock)
    for name in ["a-hello", "b-controller", "c-framework"]:
        source.add(mk_pod(name))
    assert driver.run_until(lambda: len(deleted) == 3, timeout=10)
    assert sorted(deleted) == ["a-hello", "b-controller", "c-framework"]


def test_example_new_informer(driven_clock):
    """Port of ExampleNewInformer (controller_test.go): the same with new_informer and a handler."""
    source = FakeControllerSource()
    deleted: list[str] = []
    _, c = new_informer(source, V1Pod(), 0.1, ResourceEventHandlerDetailedFuncs(
        add_func=lambda obj, initial: source.delete(obj),
        delete_func=lambda obj: deleted.append(deletion_handling_meta_namespace_key_func(obj))))
    driver = driver_for(c, driven_clock)
    for name in ["a-hello", "b-controller", "c-framework"]:
        source.add(mk_pod(name))
    assert driver.run_until(lambda: len(deleted) == 3, timeout=10)
    assert sorted(deleted) == ["a-hello", "b-controller", "c-framework"]


def hammer(source: FakeControllerSource, rng: random.Random, ops: int) -> None:
    """Random adds, updates and deletes, as TestHammerController's writer goroutines make them."""
    current: set[str] = set()
    for _ in range(ops):
        if not current or rng.randrange(3) == 1:
            name = f"pod-{rng.randrange(1000)}"
            is_new = True
        else:
            name = rng.choice(sorted(current))
            is_new = False
        pod = mk_pod(name, "default", labels={"n": str(rng.randrange(5))})
        if is_new:
            current.add(name)
            source.add(pod)
        elif rng.randrange(2) == 0:
            current.add(name)
            source.modify(pod)
        else:
            current.discard(name)
            source.delete(pod)


def check_hammer_output(output: dict[str, list[str]], store_keys: list[str], source: FakeControllerSource) -> None:
    """Every key's events read add (update)* [delete], repeatedly; the cache ends equal to the source."""
    for key, events in output.items():
        alive = False
        for event in events:
            if event == "add":
                assert not alive, (key, events)
                alive = True
            elif event == "update":
                assert alive, (key, events)
            else:
                assert alive, (key, events)
                alive = False
    want = sorted(f"{ns}/{name}" if ns else name for ns, name, _ in source.items)
    assert store_keys == want


def recording_handler(output: dict[str, list[str]], lock: threading.Lock) -> ResourceEventHandlerDetailedFuncs:
    def record(event_type: str, obj: Any) -> None:
        with lock:
            output.setdefault(deletion_handling_meta_namespace_key_func(obj), []).append(event_type)

    return ResourceEventHandlerDetailedFuncs(add_func=lambda obj, initial: record("add", obj),
                                             update_func=lambda old, new_obj: record("update", new_obj),
                                             delete_func=lambda obj: record("delete", obj))


def test_hammer_controller(driven_clock):
    """Port of TestHammerController (controller_test.go), deterministic: random churn, consistent events."""
    source = FakeControllerSource()
    output: dict[str, list[str]] = {}
    store, c = new_informer(source, V1Pod(), 0.1, recording_handler(output, threading.Lock()))
    assert not c.has_synced(), "synced before the controller started"
    driver = driver_for(c, driven_clock)
    assert driver.run_until(c.has_synced, timeout=10)
    rng = random.Random(42)
    for _ in range(3):
        hammer(source, rng, 100)
        driver.run_for(0.5)
    driver.run_for(1)
    check_hammer_output(output, store.list_keys(), source)
    assert c.last_sync_resource_version() == str(source.last_rv)


@pytest.mark.threaded
def test_hammer_controller_threaded():
    """Port of TestHammerController (controller_test.go): the same churn from three writer threads."""
    source = FakeControllerSource()
    output: dict[str, list[str]] = {}
    store, c = new_informer(source, V1Pod(), 0.1, recording_handler(output, threading.Lock()))
    stop = threading.Event()
    runner = threading.Thread(target=c.run, args=(stop,), name="controller/test")
    runner.start()
    deadline = time.monotonic() + 5
    while not c.has_synced() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert c.has_synced()
    writers = [threading.Thread(target=hammer, args=(source, random.Random(i), 100)) for i in range(3)]
    for w in writers:
        w.start()
    for w in writers:
        w.join()
    while c.last_sync_resource_version() != str(source.last_rv) and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)  # let the process loop drain the queue
    stop.set()
    runner.join(5)
    assert not runner.is_alive()
    check_hammer_output(output, store.list_keys(), source)


def test_update(driven_clock):
    """Port of TestUpdate (controller_test.go): update handlers see only from->to (or resync) transitions."""
    source = FakeControllerSource()
    allowed = {("from", "to"), ("to", "to"), ("from", "from")}
    deleted: list[str] = []
    seen: list[tuple[str, str]] = []

    def on_update(old: V1Pod, new_obj: V1Pod) -> None:
        seen.append((old.metadata.labels["check"], new_obj.metadata.labels["check"]))
        if new_obj.metadata.labels.get("final") == "true":
            source.delete(new_obj)

    _, c = new_informer(source, V1Pod(), 0, ResourceEventHandlerFuncs(
        update_func=on_update, delete_func=lambda obj: deleted.append(obj.metadata.name)))
    driver = driver_for(c, driven_clock)
    assert driver.run_until(lambda: len(source.watch_calls) == 1, timeout=10)
    for i in range(3):
        name = f"a-{i}-0"
        source.add(mk_pod(name, labels={"check": "from"}))
        source.modify(mk_pod(name, labels={"check": "to", "final": "true"}))
    assert driver.run_until(lambda: len(deleted) == 3, timeout=10)
    assert set(seen) <= allowed and ("from", "to") in seen


def test_panic_propagated(driven_clock):
    """Port of TestPanicPropagated (controller_test.go): a handler's panic comes out of the loop (REALLY_CRASH on)."""
    source = FakeControllerSource()

    def panic(obj: Any, is_in_initial_list: bool) -> None:
        raise RuntimeError("Just panic.")

    _, c = new_informer(source, V1Pod(), 0.1, ResourceEventHandlerDetailedFuncs(add_func=panic))
    driver = driver_for(c, driven_clock)
    source.add(mk_pod("test"))
    with pytest.raises(RuntimeError, match="Just panic."):
        driver.run_for(1)


@pytest.mark.threaded
def test_panic_propagated_out_of_run(monkeypatch):
    """Port of TestPanicPropagated (controller_test.go), threaded: run() ends with the handler's exception."""
    monkeypatch.setattr(runtime, "PANIC_HANDLERS", [])  # keep the expected traceback out of the log
    source = FakeControllerSource()

    def panic(obj: Any, is_in_initial_list: bool) -> None:
        raise RuntimeError("Just panic.")

    _, c = new_informer(source, V1Pod(), 0.1, ResourceEventHandlerDetailedFuncs(add_func=panic))
    stop = threading.Event()
    propagated: list[BaseException] = []

    def run() -> None:
        try:
            c.run(stop)
        except RuntimeError as err:
            propagated.append(err)

    runner = threading.Thread(target=run, name="controller/test")
    runner.start()
    source.add(mk_pod("test"))
    runner.join(5)
    stop.set()
    assert not runner.is_alive() and [str(e) for e in propagated] == ["Just panic."]


def test_transforming_informer(driven_clock):
    """Port of TestTransformingInformer (controller_test.go), through new_informer_with_options(transform=...)."""
    source = FakeControllerSource()

    def make_pod(name: str, generation: str) -> V1Pod:
        return V1Pod(metadata=V1ObjectMeta(name=name, namespace="namespace", labels={"generation": generation}),
                     spec=V1PodSpec(containers=[], hostname="hostname", subdomain="subdomain"))

    def expected_pod(name: str, generation: str) -> V1Pod:
        pod = make_pod(name, generation)
        pod.spec.hostname, pod.spec.subdomain, pod.spec.node_name = "new-hostname", None, "nodename"
        return pod

    def pod_transformer(obj: Any) -> Any:
        obj.spec.hostname, obj.spec.subdomain, obj.spec.node_name = "new-hostname", None, "nodename"
        obj.metadata.resource_version = None  # simplifies the comparisons
        return obj

    events: list[tuple[str, Any, Any]] = []
    source.add(make_pod("pod1", "1"))
    source.modify(make_pod("pod1", "2"))
    store, c = new_informer_with_options(InformerOptions(
        lister_watcher=source, object_type=V1Pod(), transform=pod_transformer,
        handler=ResourceEventHandlerDetailedFuncs(
            add_func=lambda obj, initial: events.append(("ADDED", None, obj)),
            update_func=lambda old, new_obj: events.append(("MODIFIED", old, new_obj)),
            delete_func=lambda obj: events.append(("DELETED", obj, None)))))
    driver = driver_for(c, driven_clock)
    driver.run_for(1)
    assert events == [("ADDED", None, expected_pod("pod1", "2"))]
    source.add(make_pod("pod2", "1"))
    source.add(make_pod("pod3", "1"))
    source.modify(make_pod("pod2", "2"))
    source.delete(make_pod("pod1", "2"))
    driver.run_for(1)
    assert events[1:] == [("ADDED", None, expected_pod("pod2", "1")), ("ADDED", None, expected_pod("pod3", "1")),
                          ("MODIFIED", expected_pod("pod2", "1"), expected_pod("pod2", "2")),
                          ("DELETED", expected_pod("pod1", "2"), None)]
    assert store.list() == [expected_pod("pod2", "2"), expected_pod("pod3", "1")]


class EventRecorder:
    """Port of eventRecorder (controller_test.go), reduced: (action, key, is_in_initial_list) per call."""

    def __init__(self) -> None:
        self.history: list[tuple[str, str, bool]] = []

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        self.history.append(("add", deletion_handling_meta_namespace_key_func(obj), is_in_initial_list))

    def on_update(self, old: Any, new_obj: Any) -> None:
        self.history.append(("update", deletion_handling_meta_namespace_key_func(new_obj), False))

    def on_delete(self, obj: Any) -> None:
        self.history.append(("delete", deletion_handling_meta_namespace_key_func(obj), False))


@pytest.mark.parametrize("atomic", [False, True], ids=["atomic false", "atomic true"])
def test_reset_watch(driven_clock, atomic):
    """Port of TestResetWatch (controller_test.go): a watch reset recovers drop-watch changes by relisting."""
    source = FakeControllerSource()
    source.add(mk_pod("pod-1", "default"))
    store = new_store(deletion_handling_meta_namespace_key_func)
    options = RealFIFOOptions(atomic_events=atomic, known_objects=None if atomic else store)
    fifo = new_real_fifo_with_options(options)
    recorder = EventRecorder()

    def process(obj: Any, is_in_initial_list: bool) -> None:
        process_deltas(recorder, store, obj, is_in_initial_list, deletion_handling_meta_namespace_key_func)

    def process_batch(deltas: list, is_in_initial_list: bool) -> None:
        process_deltas_in_batch(recorder, store, deltas, is_in_initial_list, deletion_handling_meta_namespace_key_func)

    c = new(Config(queue=fifo, lister_watcher=source, object_type=V1Pod(), process=process,
                   process_batch=process_batch))
    driver = driver_for(c, driven_clock)
    assert driver.run_until(c.has_synced, timeout=10)
    assert recorder.history == [("add", "default/pod-1", True)]

    recorder.history.clear()
    source.modify_drop_watch(mk_pod("pod-1", "default"))
    source.add_drop_watch(mk_pod("pod-2", "default"))
    source.reset_watch()
    assert driver.run_until(lambda: len(recorder.history) == 2, timeout=60)
    assert sorted(recorder.history) == [("add", "default/pod-2", False), ("update", "default/pod-1", False)]


def test_controller_steps_and_sync_state(driven_clock):
    # The steps come in a fixed order, and the sync signals follow the first list.
    source = FakeControllerSource()
    source.add(mk_pod("a", "default"))
    indexer, c = new_indexer_informer(source, V1Pod(), 0, ResourceEventHandlerFuncs(),
                                      {NAMESPACE_INDEX: meta_namespace_index_func})
    assert c.last_sync_resource_version() == ""
    driver = driver_for(c, driven_clock)
    assert [s.name for s in driver.steps] == ["reflector/v1/pods/list", "reflector/v1/pods/watch",
                                              "reflector/v1/pods/resync", "controller/v1/pods/process"]
    driver.run_until_idle()
    assert c.has_synced() and c.has_synced_checker().done().is_set()
    assert c.last_sync_resource_version() == "1"
    assert indexer.by_index(NAMESPACE_INDEX, "default")[0].metadata.name == "a"
    # one list step lists (the fake source refuses watch-list) and opens the watch
    assert [e.step for e in driver.trace] == ["reflector/v1/pods/list", "controller/v1/pods/process"]


def test_process_next_returns_false_once_closed():
    fifo = new_queue_fifo(V1Pod(), new_store(meta_namespace_key_func), None)
    c = new(Config(queue=fifo, lister_watcher=FakeControllerSource(), process=lambda obj, initial: None))
    assert not c.process_ready()
    fifo.close()
    assert c.process_ready() and c.process_next() is False


def test_process_loop_stops_on_stop_event():
    fifo = new_queue_fifo(V1Pod(), new_store(meta_namespace_key_func), None)
    popped: list[Any] = []
    c = new(Config(queue=fifo, lister_watcher=FakeControllerSource(), process=lambda obj, initial: popped.append(obj)))
    fifo.add(mk_pod("a"))
    stop = threading.Event()
    stop.set()
    c.process_loop(stop)
    assert popped == [], "a set stop event ends the loop before the next pop"


NEW_QUEUE_FIFO_CASES = [
    #            in-order  atomic  want class  want atomic  want known objects
    pytest.param(True, True, RealFIFO, True, False, id="1.36 defaults: atomic RealFIFO"),
    pytest.param(True, False, RealFIFO, False, True, id="AtomicFIFO off: RealFIFO with known objects"),
    pytest.param(False, True, DeltaFIFO, None, True, id="InOrderInformers off: DeltaFIFO"),
]


@pytest.mark.parametrize("in_order, atomic, want_class, want_atomic, want_known", NEW_QUEUE_FIFO_CASES)
def test_new_queue_fifo(monkeypatch, in_order, atomic, want_class, want_atomic, want_known):
    monkeypatch.setattr(controller_module, "FEATURE_IN_ORDER_INFORMERS", in_order)
    monkeypatch.setattr(controller_module, "FEATURE_ATOMIC_FIFO", atomic)
    store = new_store(meta_namespace_key_func)
    q = new_queue_fifo(V1Pod(), store, None)
    assert type(q) is want_class
    if isinstance(q, RealFIFO):
        assert q.emit_atomic_events is want_atomic and q.unlock_while_processing is want_atomic
        assert q.name() == "RealFIFO V1Pod"
    assert (q.known_objects is store) is want_known


def test_process_rejects_non_deltas(driven_clock):
    _, c = new_informer(FakeControllerSource(), V1Pod(), 0, ResourceEventHandlerFuncs())
    with pytest.raises(TypeError, match="not Deltas"):
        c.config.process("not deltas", False)
    c.config.process(Deltas(), False)  # an empty Deltas is fine
