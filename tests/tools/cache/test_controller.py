"""Tests for minikcm.tools.cache.controller, the event-handler half (ports from tools/cache/controller_test.go).

The controller half (ControllerImpl, informers over a FakeControllerSource) is
tested in test_controller_informer.py. The tests here check process_deltas and
the handler types on their own: the test plays the reflector (add, update,
replace) and the controller's process loop (pop until the queue is empty), so
store content, handler calls and resource versions are checked without a
controller in between.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from kubernetes.client import V1ConfigMap, V1ObjectMeta, V1Pod

from minikcm.tools.cache.controller import (
    FilteringResourceEventHandler,
    ResourceEventHandlerDetailedFuncs,
    ResourceEventHandlerFuncs,
    deletion_handling_meta_namespace_key_func,
    deletion_handling_object_to_name,
    process_deltas,
    process_deltas_in_batch,
)
from minikcm.tools.cache.delta_fifo import (
    ADDED,
    BOOKMARK,
    DELETED,
    REPLACED_ALL,
    SYNC_ALL,
    UPDATED,
    DeletedFinalStateUnknown,
    Delta,
    Deltas,
)
from minikcm.tools.cache.store import (
    Transaction,
    TransactionError,
    meta_accessor,
    meta_namespace_key_func,
    new_store,
    object_to_name,
)
from minikcm.tools.cache.the_real_fifo import BookmarkInfo, RealFIFOOptions, SyncAllInfo, new_real_fifo_with_options


def pod(name: str, rv: str = "", namespace: str = "default", labels: dict[str, str] | None = None) -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(name=name, namespace=namespace, resource_version=rv or None, labels=labels))


def cm(name: str) -> V1ConfigMap:
    return V1ConfigMap(metadata=V1ObjectMeta(name=name, namespace="testnamespace"))


def test_deletion_handling_object_to_name():
    """Port of TestDeletionHandlingObjectToName (controller_test.go)."""
    config_map = V1ConfigMap(metadata=V1ObjectMeta(name="testname", namespace="testnamespace"))
    deleted = DeletedFinalStateUnknown(meta_namespace_key_func(config_map), config_map)
    assert deletion_handling_object_to_name(deleted) == object_to_name(config_map)


DELETION_HANDLING_KEY_CASES = [
    #            obj                                               want
    pytest.param(pod("a"),                                         "default/a", id="object"),
    pytest.param(DeletedFinalStateUnknown("ns/gone", None),        "ns/gone",   id="tombstone-without-object"),
    pytest.param(DeletedFinalStateUnknown("ns/x", pod("other")),   "ns/x",      id="tombstone-key-wins"),
]


@pytest.mark.parametrize("obj, want", DELETION_HANDLING_KEY_CASES)
def test_deletion_handling_meta_namespace_key_func(obj, want):
    assert deletion_handling_meta_namespace_key_func(obj) == want


class MockTxnStore:
    """Port of mockTxnStore (controller_test.go): a store whose transaction fails for chosen objects."""

    def __init__(self, failing_objs: list[Any]) -> None:
        self.store = new_store(meta_namespace_key_func)
        self.failing_objs = failing_objs
        self.succeed_count = 0

    def __getattr__(self, name: str) -> Any:  # Go: embedded Store
        return getattr(self.store, name)

    def transaction(self, *txns: Transaction) -> TransactionError | None:
        successfuls, errs = [], []
        for i, txn in enumerate(txns):
            for fail in self.failing_objs:  # mirrors upstream: one verdict per failing object
                if fail == txn.object:
                    errs.append(ValueError("test error"))
                else:
                    successfuls.append(i)
        if errs:
            self.succeed_count = len(successfuls)
            return TransactionError(successfuls, len(txns), errs)
        self.succeed_count = len(txns)
        return None


CM1, CM2, CM3 = cm("testname1"), cm("testname2"), cm("testname3")

PROCESS_DELTAS_IN_BATCH_CASES = [
    #            deltas                                          failing       want received     want successes  want error
    pytest.param([Delta(ADDED, CM1)],                            [],           [CM1],            1,              None,
                 id="all transaction succeeding should works"),
    pytest.param([Delta(ADDED, CM1)],                            [CM1],        [],               0,              "failed to execute (1/1) transactions",
                 id="all transaction failing should not trigger listener"),
    pytest.param([Delta(ADDED, CM1), Delta(ADDED, CM2)],         [CM2],        [CM1],            1,              "failed to execute (1/2) transactions",
                 id="partial transaction failing should only trigger successful events to listener #1"),
    pytest.param([Delta(ADDED, CM1), Delta(ADDED, CM2), Delta(ADDED, CM3)], [CM2], [CM1, CM3], 2,              "failed to execute (1/3) transactions",
                 id="partial transaction failing should only trigger successful events to listener #2"),
]


@pytest.mark.parametrize("deltas, failing, want_received, want_successes, want_error", PROCESS_DELTAS_IN_BATCH_CASES)
def test_process_deltas_in_batch(deltas, failing, want_received, want_successes, want_error):
    """Port of TestProcessDeltasInBatch (controller_test.go)."""
    mock_store = MockTxnStore(failing)
    received: list[Any] = []
    listener = ResourceEventHandlerFuncs(
        add_func=received.append,
        update_func=lambda old, new: received.append(new),
        delete_func=received.append,
    )
    if want_error is None:
        process_deltas_in_batch(listener, mock_store, deltas, True, deletion_handling_meta_namespace_key_func)
    else:
        with pytest.raises(RuntimeError, match=want_error.replace("(", r"\(").replace(")", r"\)")):
            process_deltas_in_batch(listener, mock_store, deltas, True, deletion_handling_meta_namespace_key_func)
    assert mock_store.succeed_count == want_successes
    assert received == want_received


class EventRecorder:
    """Port of eventRecorder (controller_test.go): a handler that records each call with resource versions.

    `store_rv` is the version the store holds for the key at the time of the
    call, which shows whether the store was updated before the handler ran.
    """

    def __init__(self, store: Any, key_func: Any) -> None:
        self.store = store
        self.key_func = key_func
        self.history: list[EventRecord] = []

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        self.record("add", obj, is_in_initial_list)

    def on_update(self, old_obj: Any, new_obj: Any) -> None:
        self.record("update", new_obj, False)

    def on_delete(self, obj: Any) -> None:
        self.record("delete", obj, False)

    def record(self, action: str, obj: Any, is_in_initial_list: bool) -> None:
        key = self.key_func(obj)
        if isinstance(obj, DeletedFinalStateUnknown):
            obj = obj.obj
        event_rv = rv_of(obj)
        stored, exists = self.store.get_by_key(key)
        store_rv = rv_of(stored) if exists else ""
        self.history.append(EventRecord(action, key, event_rv, store_rv, is_in_initial_list))


@dataclass
class EventRecord:
    """Port of eventRecord (controller_test.go)."""

    action: str
    key: str
    event_rv: str
    store_rv: str
    is_in_initial_list: bool = False


def rv_of(obj: Any) -> str:
    try:
        return meta_accessor(obj).resource_version
    except TypeError:
        return ""


def drain(fifo: Any, recorder: EventRecorder, store: Any, key_func: Any = deletion_handling_meta_namespace_key_func) -> None:
    """The controller's process loop, by hand: pop and process until the queue is empty."""

    def process(obj: Any, is_in_initial_list: bool) -> None:
        process_deltas(recorder, store, obj, is_in_initial_list, key_func)

    while fifo.items:
        fifo.pop(process)


REPLACE_EVENTS_CASES = [
    pytest.param(
        [],
        [pod("pod-1", "1")],
        "1",
        [EventRecord("add", "default/pod-1", "1", "1")],
        id="Create with no initial objects",
    ),
    pytest.param(
        [pod("pod-1", "1"), pod("pod-3", "2")],
        [],
        "2",
        [EventRecord("delete", "default/pod-1", "1", ""), EventRecord("delete", "default/pod-3", "2", "")],
        id="Delete all objects",
    ),
    pytest.param(
        [pod("pod-1", "1"), pod("pod-2", "2", labels={"ver": "1"}), pod("pod-3", "3")],
        [pod("pod-1", "4"), pod("pod-2", "5", labels={"ver": "2"}), pod("pod-4", "6")],
        "6",
        [
            EventRecord("delete", "default/pod-3", "3", ""),
            EventRecord("update", "default/pod-1", "4", "4"),
            EventRecord("update", "default/pod-2", "5", "5"),
            EventRecord("add", "default/pod-4", "6", "6"),
        ],
        id="Create, update, delete",
    ),
]


@pytest.mark.parametrize("atomic", [pytest.param(False, id="per-item"), pytest.param(True, id="atomic")])
@pytest.mark.parametrize("initial_objs, replaced_items, replace_rv, want_history", REPLACE_EVENTS_CASES)
def test_replace_events(atomic, initial_objs, replaced_items, replace_rv, want_history):
    """Port of TestReplaceEvents (controller_test.go): atomic and per-item relists give the same events and store.

    In both modes the store already holds the new state when each handler runs
    (store_rv), and deletions come before updates and adds.
    """
    store = new_store(deletion_handling_meta_namespace_key_func)
    opts = RealFIFOOptions(atomic_events=atomic, known_objects=None if atomic else store)
    fifo = new_real_fifo_with_options(opts)
    recorder = EventRecorder(store, deletion_handling_meta_namespace_key_func)
    fifo.replace([], "0")  # the first (empty) list: the informer is synced
    drain(fifo, recorder, store)

    for obj in initial_objs:
        fifo.add(obj)
    drain(fifo, recorder, store)
    assert len(recorder.history) == len(initial_objs)
    recorder.history.clear()

    fifo.replace(replaced_items, replace_rv)
    drain(fifo, recorder, store)

    assert sorted(store.list(), key=meta_namespace_key_func) == replaced_items
    assert recorder.history == want_history


def test_store_resource_version():
    """Port of TestStoreResourceVersion (controller_test.go): the store's RV follows adds, updates and deletes."""
    store = new_store(deletion_handling_meta_namespace_key_func)
    fifo = new_real_fifo_with_options(RealFIFOOptions(atomic_events=True))
    recorder = EventRecorder(store, deletion_handling_meta_namespace_key_func)

    fifo.replace([pod("pod-1", "1")], "1")
    drain(fifo, recorder, store)
    assert recorder.history == [EventRecord("add", "default/pod-1", "1", "1", is_in_initial_list=True)]

    recorder.history.clear()
    fifo.update(pod("pod-1", "2", labels={"foo": "bar"}))
    drain(fifo, recorder, store)
    assert store.last_store_sync_resource_version() == recorder.history[0].event_rv == "2"

    recorder.history.clear()
    fifo.delete(pod("pod-1", "3"))
    drain(fifo, recorder, store)
    assert store.last_store_sync_resource_version() == recorder.history[0].event_rv == "3"


def test_store_resource_version_with_non_meta_transform():
    """Port of TestStoreResourceVersionWithNonMetaTransform (controller_test.go).

    The transformer turns pods into bare names, so only relists (which carry
    their own RV) move the store's resource version.
    """

    def key_func(obj: Any) -> str:
        return "pod-1"

    def to_name(obj: Any) -> Any:
        if not isinstance(obj, V1Pod):
            raise TypeError(f"expected V1Pod, got {type(obj).__name__}")
        return obj.metadata.name

    store = new_store(key_func)
    fifo = new_real_fifo_with_options(RealFIFOOptions(transformer=to_name, key_function=key_func, atomic_events=True))
    recorder = EventRecorder(store, key_func)

    fifo.replace([pod("pod-1", "1")], "1")
    drain(fifo, recorder, store, key_func)
    assert recorder.history == [EventRecord("add", "pod-1", "", "", is_in_initial_list=True)]
    replace_rv = store.last_store_sync_resource_version()
    assert replace_rv == "1"

    fifo.update(pod("pod-1", "2", labels={"foo": "bar"}))
    drain(fifo, recorder, store, key_func)
    assert store.last_store_sync_resource_version() == replace_rv  # a name carries no RV

    fifo.replace([pod("pod-1", "3", labels={"foo": "bar2"})], "3")
    drain(fifo, recorder, store, key_func)
    assert store.last_store_sync_resource_version() == "3"


def test_process_deltas_applies_store_before_handler():
    store = new_store(meta_namespace_key_func)
    recorder = EventRecorder(store, deletion_handling_meta_namespace_key_func)
    deltas = Deltas(
        [
            Delta(ADDED, pod("a", "1")),
            Delta(UPDATED, pod("a", "2")),
            Delta(DELETED, pod("a", "3")),
            Delta(BOOKMARK, BookmarkInfo("9")),
        ]
    )
    process_deltas(recorder, store, deltas, True, meta_namespace_key_func)
    assert recorder.history == [
        EventRecord("add", "default/a", "1", "1", is_in_initial_list=True),
        EventRecord("update", "default/a", "2", "2"),
        EventRecord("delete", "default/a", "3", ""),
    ]
    assert store.last_store_sync_resource_version() == "9"


def test_process_deltas_sync_all_updates_every_object_and_stops():
    store = new_store(meta_namespace_key_func)
    store.add(pod("a", "1"))
    store.add(pod("b", "2"))
    updates: list[tuple[Any, Any]] = []
    handler = ResourceEventHandlerFuncs(update_func=lambda old, new: updates.append((old, new)))
    # Tricky (upstream too): nothing after a SYNC_ALL in the same Deltas is processed.
    process_deltas(handler, store, Deltas([Delta(SYNC_ALL, SyncAllInfo()), Delta(ADDED, pod("c"))]), False, meta_namespace_key_func)
    assert [new.metadata.name for _, new in updates] == ["a", "b"]
    assert all(old is new for old, new in updates)
    assert store.list_keys() == ["default/a", "default/b"]


MARKER_TYPE_ERRORS = [
    pytest.param(REPLACED_ALL, "ReplacedAll did not contain ReplacedAllInfo", id="replaced-all"),
    pytest.param(SYNC_ALL, "SyncAll did not contain SyncAllInfo", id="sync-all"),
    pytest.param(BOOKMARK, "bookmark delta did not contain BookmarkInfo", id="bookmark"),
]


@pytest.mark.parametrize("delta_type, message", MARKER_TYPE_ERRORS)
def test_process_deltas_rejects_marker_with_wrong_object(delta_type, message):
    store = new_store(meta_namespace_key_func)
    with pytest.raises(TypeError, match=message):
        process_deltas(ResourceEventHandlerFuncs(), store, Deltas([Delta(delta_type, pod("a"))]), False, meta_namespace_key_func)


def test_process_deltas_in_batch_with_real_store_and_plain_store():
    received: list[Any] = []
    handler = ResourceEventHandlerFuncs(add_func=received.append, delete_func=received.append)

    txn_store = new_store(meta_namespace_key_func)  # Cache supports transactions
    process_deltas_in_batch(handler, txn_store, [Delta(ADDED, pod("a")), Delta(ADDED, pod("b"))], False, meta_namespace_key_func)
    assert txn_store.list_keys() == ["default/a", "default/b"]

    class PlainStore:  # no transaction(): each delta goes through process_deltas
        def __init__(self) -> None:
            self.store = new_store(meta_namespace_key_func)

        def __getattr__(self, name: str) -> Any:
            if name == "transaction":
                raise AttributeError(name)
            return getattr(self.store, name)

    plain = PlainStore()
    with pytest.raises(RuntimeError, match="unexpected error when handling deltas"):
        process_deltas_in_batch(handler, plain, [Delta(ADDED, pod("c")), Delta(ADDED, "no meta")], False, meta_namespace_key_func)
    assert plain.list_keys() == ["default/c"]
    assert [getattr(o, "metadata", None) and o.metadata.name for o in received] == ["a", "b", "c"]

    with pytest.raises(ValueError, match="not supported in batch processing"):
        process_deltas_in_batch(handler, txn_store, [Delta(SYNC_ALL, SyncAllInfo())], False, meta_namespace_key_func)


def test_resource_event_handler_funcs_and_detailed_funcs():
    calls: list[tuple[Any, ...]] = []
    plain = ResourceEventHandlerFuncs(add_func=lambda obj: calls.append(("add", obj)))
    plain.on_add("x", True)
    plain.on_update("o", "n")  # no update_func: nothing happens
    plain.on_delete("x")
    detailed = ResourceEventHandlerDetailedFuncs(
        add_func=lambda obj, initial: calls.append(("add", obj, initial)),
        update_func=lambda old, new: calls.append(("update", old, new)),
        delete_func=lambda obj: calls.append(("delete", obj)),
    )
    detailed.on_add("y", True)
    detailed.on_update("o", "n")
    detailed.on_delete("y")
    assert calls == [("add", "x"), ("add", "y", True), ("update", "o", "n"), ("delete", "y")]


FILTERING_CASES = [
    #            old passes  new passes  want call
    pytest.param(True,       True,       ("update", "old", "new"), id="both-pass-update"),
    pytest.param(False,      True,       ("add", "new", False),    id="starts-passing-add"),
    pytest.param(True,       False,      ("delete", "old"),        id="stops-passing-delete"),
    pytest.param(False,      False,      None,                     id="neither-nothing"),
]


@pytest.mark.parametrize("old_passes, new_passes, want", FILTERING_CASES)
def test_filtering_resource_event_handler_on_update(old_passes, new_passes, want):
    calls: list[tuple[Any, ...]] = []
    inner = ResourceEventHandlerDetailedFuncs(
        add_func=lambda obj, initial: calls.append(("add", obj, initial)),
        update_func=lambda old, new: calls.append(("update", old, new)),
        delete_func=lambda obj: calls.append(("delete", obj)),
    )
    passing = {"old": old_passes, "new": new_passes}
    handler = FilteringResourceEventHandler(filter_func=lambda obj: passing[obj], handler=inner)
    handler.on_update("old", "new")
    assert calls == ([want] if want else [])


def test_filtering_resource_event_handler_add_and_delete():
    calls: list[tuple[Any, ...]] = []
    inner = ResourceEventHandlerDetailedFuncs(
        add_func=lambda obj, initial: calls.append(("add", obj, initial)),
        delete_func=lambda obj: calls.append(("delete", obj)),
    )
    handler = FilteringResourceEventHandler(filter_func=lambda obj: obj.startswith("keep"), handler=inner)
    for obj in ("keep-1", "drop-1"):
        handler.on_add(obj, True)
        handler.on_delete(obj)
    assert calls == [("add", "keep-1", True), ("delete", "keep-1")]
