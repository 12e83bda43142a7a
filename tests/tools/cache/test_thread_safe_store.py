"""Tests for minikcm.tools.cache.thread_safe_store (port of tools/cache/thread_safe_store_test.go)."""

from __future__ import annotations

import pytest
from kubernetes.client import V1ObjectMeta

from minikcm.tools.cache.store import TRANSACTION_TYPE_DELETE, TRANSACTION_TYPE_UPDATE, Transaction
from minikcm.tools.cache.thread_safe_store import ThreadSafeStoreTransaction, new_thread_safe_store


def test_thread_safe_store_delete_removes_empty_sets_from_index():
    """Port of TestThreadSafeStoreDeleteRemovesEmptySetsFromIndex (thread_safe_store_test.go)."""
    store = new_thread_safe_store({"testIndexer": lambda obj: [obj]}, {})
    store.add("testKey", "testKey")
    assert len(store.store_index.indices["testIndexer"]["testKey"]) == 1

    store.delete("testKey")
    assert "testKey" not in store.store_index.indices["testIndexer"]


def test_thread_safe_store_add_keeps_non_empty_set_post_delete_from_index():
    """Port of TestThreadSafeStoreAddKeepsNonEmptySetPostDeleteFromIndex (thread_safe_store_test.go)."""
    store = new_thread_safe_store({"testIndexer": lambda obj: ["testIndex"]}, {})
    store.add("retain", "retain")
    store.add("delete", "delete")
    assert len(store.store_index.indices["testIndexer"]["testIndex"]) == 2

    store.delete("delete")
    assert store.store_index.indices["testIndexer"]["testIndex"] == {"retain"}


# Each step: (operation, key, value) applied in order, then the expected index.
MULTIPLE_VALUES_STEPS = [
    #            op        key     value          want index: value -> keys
    pytest.param("add",    "key1", "foo",         {"foo": ["key1"]},                                       id="add-key1-foo"),
    pytest.param("add",    "key2", "bar",         {"foo": ["key1"], "bar": ["key2"]},                      id="add-key2-bar"),
    pytest.param("update", "key2", "foo,bar",     {"foo": ["key1", "key2"], "bar": ["key2"]},              id="key2-gains-foo"),
    pytest.param("update", "key1", "foo,bar",     {"foo": ["key1", "key2"], "bar": ["key1", "key2"]},      id="key1-gains-bar"),
    pytest.param("add",    "key3", "foo,bar,baz", {"foo": ["key1", "key2", "key3"], "bar": ["key1", "key2", "key3"], "baz": ["key3"]}, id="add-key3-three-values"),
    pytest.param("update", "key1", "foo",         {"foo": ["key1", "key2", "key3"], "bar": ["key2", "key3"], "baz": ["key3"]}, id="key1-loses-bar"),
    pytest.param("update", "key2", "bar",         {"foo": ["key1", "key3"], "bar": ["key2", "key3"], "baz": ["key3"]}, id="key2-loses-foo"),
    pytest.param("delete", "key1", None,          {"foo": ["key3"], "bar": ["key2", "key3"], "baz": ["key3"]}, id="delete-key1"),
    pytest.param("delete", "key3", None,          {"bar": ["key2"]},                                       id="delete-key3-drops-empty-sets"),
]


def test_thread_safe_store_indexing_functions_with_multiple_values():
    """Port of TestThreadSafeStoreIndexingFunctionsWithMultipleValues (thread_safe_store_test.go).

    Upstream checks each value after each step; we run the same steps and
    compare the whole index, which also proves empty sets are dropped.
    """
    store = new_thread_safe_store({"testIndexer": lambda obj: obj.split(",")}, {})
    for step in MULTIPLE_VALUES_STEPS:
        op, key, value, want = step.values
        if op == "add":
            store.add(key, value)
        elif op == "update":
            store.update(key, value)
        else:
            store.delete(key)
        got = {v: sorted(keys) for v, keys in store.store_index.indices["testIndexer"].items()}
        assert got == want, step.id
        for v, keys in want.items():
            assert store.index_keys("testIndexer", v) == keys


def meta(rv: str) -> V1ObjectMeta:
    return V1ObjectMeta(resource_version=rv)


def test_thread_safe_store_rv_initial_state():
    """Port of TestThreadSafeStoreRV/Initial state (thread_safe_store_test.go)."""
    assert new_thread_safe_store({}, {}).last_store_sync_resource_version() == ""


def test_thread_safe_store_rv_add_update_and_delete():
    """Port of TestThreadSafeStoreRV/Add Update and Delete (thread_safe_store_test.go)."""
    store = new_thread_safe_store({}, {})
    store.add("key1", meta("10"))
    assert store.last_store_sync_resource_version() == "10"
    store.add("key3", meta("10"))
    assert store.last_store_sync_resource_version() == "10"
    store.add("key4", meta("20"))
    assert store.last_store_sync_resource_version() == "20"
    store.delete_with_object("key4", meta("30"))  # an older object deleted at a newer RV
    assert store.last_store_sync_resource_version() == "30"
    store.add("key5", "just a string")  # no metadata: the RV stays
    assert store.last_store_sync_resource_version() == "30"
    store.add("key6", meta("40"))
    assert store.last_store_sync_resource_version() == "40"
    store.delete("key6")  # no object: the RV stays
    assert store.last_store_sync_resource_version() == "40"

    store.transaction(
        ThreadSafeStoreTransaction(Transaction(meta("40"), TRANSACTION_TYPE_UPDATE), "key9"),
        ThreadSafeStoreTransaction(Transaction(meta("30"), TRANSACTION_TYPE_UPDATE), "key10"),
        ThreadSafeStoreTransaction(Transaction(meta("50"), TRANSACTION_TYPE_UPDATE), "key11"),
    )
    assert store.last_store_sync_resource_version() == "50"  # the last transaction's RV


def test_thread_safe_store_rv_replace():
    """Port of TestThreadSafeStoreRV/Replace (thread_safe_store_test.go)."""
    store = new_thread_safe_store({}, {})
    store.add("key1", meta("10"))
    store.replace({"key3": meta("40"), "key2": meta("30")}, "50")
    assert store.last_store_sync_resource_version() == "50"
    assert store.list_keys() == ["key2", "key3"]


def test_thread_safe_store_rv_delete():
    """Port of TestThreadSafeStoreRV/Delete (thread_safe_store_test.go)."""
    store = new_thread_safe_store({}, {})
    store.add("key1", meta("10"))
    store.delete_with_object("key1", meta("20"))
    assert store.last_store_sync_resource_version() == "20"
    assert store.get("key1") == (None, False)


def test_transaction_deletes_and_reindexes():
    store = new_thread_safe_store({"by_rv": lambda obj: [obj.resource_version]}, {})
    store.add("a", meta("1"))
    store.transaction(
        ThreadSafeStoreTransaction(Transaction(meta("2"), TRANSACTION_TYPE_UPDATE), "b"),
        ThreadSafeStoreTransaction(Transaction(None, TRANSACTION_TYPE_DELETE), "a"),
    )
    assert store.list_keys() == ["b"]
    assert store.list_index_func_values("by_rv") == ["2"]


def test_replace_rebuilds_indices():
    store = new_thread_safe_store({"first": lambda obj: [obj[0]]}, {})
    store.add("k1", "apple")
    store.add("k2", "avocado")
    store.replace({"k3": "banana", "k1": "blueberry"}, "")
    assert store.list_index_func_values("first") == ["b"]
    assert store.by_index("first", "b") == ["blueberry", "banana"]  # key order: k1, k3
    assert store.by_index("first", "a") == []


def test_add_indexers_indexes_existing_items_and_rejects_conflicts():
    store = new_thread_safe_store({"first": lambda obj: [obj[0]]}, {})
    store.add("k1", "apple")
    store.add_indexers({"last": lambda obj: [obj[-1]]})
    assert store.index_keys("last", "e") == ["k1"]
    with pytest.raises(ValueError, match="indexer conflict"):
        store.add_indexers({"first": lambda obj: []})


def test_unknown_index_is_an_error():
    store = new_thread_safe_store({}, {})
    with pytest.raises(ValueError, match="Index with name nope does not exist"):
        store.by_index("nope", "x")
    with pytest.raises(ValueError, match="does not exist"):
        store.index("nope", "x")


def test_failing_index_function_raises_runtime_error():
    # Go panics when an index function fails while the lock is held.
    def broken(obj):
        raise KeyError("missing label")

    store = new_thread_safe_store({"broken": broken}, {})
    with pytest.raises(RuntimeError, match="unable to calculate an index entry"):
        store.add("k", "v")


def test_index_with_multiple_values_dedups():
    store = new_thread_safe_store({"chars": lambda obj: sorted(set(obj))}, {})
    store.add("k1", "ab")
    store.add("k2", "bc")
    assert store.index("chars", "abc") == ["ab", "bc"]
