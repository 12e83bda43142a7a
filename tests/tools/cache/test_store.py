"""Tests for minikcm.tools.cache.store (port of tools/cache/store_test.go, plus key-function tables)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from kubernetes.client import V1ConfigMap, V1Namespace, V1ObjectMeta, V1Pod

from minikcm.tools.cache.delta_fifo import DeletedFinalStateUnknown
from minikcm.tools.cache.object_names import ObjectName
from minikcm.tools.cache.store import (
    TRANSACTION_TYPE_ADD,
    Cache,
    ExplicitKey,
    KeyErr,
    Transaction,
    TransactionError,
    TransactionStore,
    meta_accessor,
    meta_namespace_key_func,
    new_indexer,
    new_store,
    object_to_name,
    split_meta_namespace_key,
    with_transformer,
)

from .fifo_testing import TestingFIFO


@dataclass
class StoreObj:
    """Port of testStoreObject (store_test.go)."""

    id: str
    val: str


def store_key_func(obj: Any) -> str:
    """Port of testStoreKeyFunc."""
    return obj.id


def store_index_func(obj: Any) -> list[str]:
    """Port of testStoreIndexFunc."""
    return [obj.val]


def do_test_store(store: Any) -> None:
    """Port of doTestStore (store_test.go): the Store contract, run against each implementation."""
    store.add(StoreObj("foo", "bar"))
    item, ok = store.get(StoreObj("foo", ""))
    assert ok, "didn't find inserted item"
    assert item.val == "bar"

    store.update(StoreObj("foo", "baz"))
    item, ok = store.get(StoreObj("foo", ""))
    assert ok, "didn't find updated item"
    assert item.val == "baz"

    store.delete(StoreObj("foo", ""))
    _, ok = store.get(StoreObj("foo", ""))
    assert not ok, "found deleted item"

    for obj in (StoreObj("a", "b"), StoreObj("c", "d"), StoreObj("e", "e")):
        store.add(obj)
    assert sorted(item.val for item in store.list()) == ["b", "d", "e"]

    store.replace([StoreObj("foo", "foo"), StoreObj("bar", "bar")], "0")
    assert sorted(item.val for item in store.list()) == ["bar", "foo"]


def test_cache():
    """Port of TestCache (store_test.go)."""
    do_test_store(new_store(store_key_func))


def test_cache_with_transformer():
    """Port of TestCacheWithTransformer (store_test.go)."""
    called: list[Any] = []

    def transformer(obj: Any) -> Any:
        called.append(obj)
        if not isinstance(obj, StoreObj):
            raise TypeError("wrong object type")
        return obj

    do_test_store(new_store(store_key_func, with_transformer(transformer)))
    assert called, "transformer was not called"


def test_cache_transformer_failure_stores_nothing():
    # Go wraps the transformer's error ("transforming: ..."); the object is not stored.
    def broken(obj: Any) -> Any:
        raise ValueError("boom")

    store = new_store(store_key_func, with_transformer(broken))
    with pytest.raises(RuntimeError, match="transforming: boom"):
        store.add(StoreObj("a", "b"))
    assert store.list_keys() == []


def test_fifo_cache():
    """Port of TestFIFOCache (store_test.go)."""
    do_test_store(TestingFIFO(store_key_func))


def test_index():
    """Port of TestIndex / doTestIndex (store_test.go)."""
    indexer = new_indexer(store_key_func, {"by_val": store_index_func})
    for obj in (StoreObj("a", "b"), StoreObj("c", "b"), StoreObj("e", "f"), StoreObj("g", "h")):
        indexer.add(obj)
    expected = {"b": {"a", "c"}, "f": {"e"}, "h": {"g"}}
    for value, ids in expected.items():
        found = {item.id for item in indexer.index("by_val", StoreObj("", value))}
        assert found == ids, f"index {value}"


def test_key_error():
    """Port of TestKeyError (store_test.go): KeyErr unwraps to the key function's error."""
    err = ValueError("error")
    key_err = KeyErr(100, err)
    assert key_err.unwrap() is err
    assert key_err.__cause__ is err

    nested = KeyErr(100, key_err)
    # Go's errors.Is walks Unwrap; the Python chain is __cause__.
    assert nested.__cause__.__cause__ is err
    assert "couldn't create key for object 100: error" in str(key_err)


CACHE_TRANSACTION_CASES = [
    #            objs           want successful_indices (None: no error)
    pytest.param([1, 2],        None,   id="txn all success objects should work"),
    pytest.param([3, 4],        [],     id="txn all fail objects should work"),
    pytest.param([1, 3, 2, 4],  [0, 2], id="txn mix success and fail objects should work"),
]


@pytest.mark.parametrize("objs, want_successful", CACHE_TRANSACTION_CASES)
def test_cache_transaction_should_index_errors(objs, want_successful):
    """Port of TestCacheTransactionShouldIndexErrors (store_test.go)."""

    def key_func(obj: Any) -> str:
        if obj in (1, 2):
            return str(obj)
        raise ValueError("test error")

    store = new_store(key_func)
    assert isinstance(store, TransactionStore)
    txn_err = store.transaction(*(Transaction(obj, TRANSACTION_TYPE_ADD) for obj in objs))
    if want_successful is None:
        assert txn_err is None
        return
    assert isinstance(txn_err, TransactionError)
    assert txn_err.successful_indices == want_successful
    assert txn_err.total_transactions == len(objs)
    assert all(isinstance(e, KeyErr) for e in txn_err.errors)
    assert store.list_keys() == sorted(str(objs[i]) for i in want_successful)


def test_transaction_error_message():
    err = TransactionError([0], 3, [ValueError("x"), ValueError("y")])
    assert str(err).startswith("failed to execute (2/3) transactions failed due to:")


POD = V1Pod(metadata=V1ObjectMeta(name="web-0", namespace="default", resource_version="7"))
NODE_LIKE = V1Namespace(metadata=V1ObjectMeta(name="kube-system"))

META_NAMESPACE_KEY_FUNC_CASES = [
    #            obj                                                         want
    pytest.param(POD,                                                        "default/web-0", id="namespaced-model"),
    pytest.param(NODE_LIKE,                                                  "kube-system",   id="cluster-scoped-model"),
    pytest.param(V1ObjectMeta(name="m", namespace="ns"),                     "ns/m",          id="bare-object-meta"),
    pytest.param({"metadata": {"name": "w", "namespace": "ns"}},             "ns/w",          id="wire-dict"),
    pytest.param({"metadata": {"name": "w"}},                                "w",             id="wire-dict-cluster-scoped"),
    pytest.param(ExplicitKey("any/thing"),                                   "any/thing",     id="explicit-key"),
    pytest.param(V1ConfigMap(),                                              "",              id="nil-metadata-reads-as-empty"),
]


@pytest.mark.parametrize("obj, want", META_NAMESPACE_KEY_FUNC_CASES)
def test_meta_namespace_key_func(obj, want):
    assert meta_namespace_key_func(obj) == want


@pytest.mark.parametrize(
    "obj",
    [
        pytest.param("just a string", id="string"),
        pytest.param(42, id="int"),
        pytest.param({"kind": "Pod"}, id="dict-without-metadata"),
        pytest.param(DeletedFinalStateUnknown("ns/a", None), id="tombstone-needs-deletion-handling-func"),
    ],
)
def test_meta_namespace_key_func_rejects_objects_without_meta(obj):
    with pytest.raises(TypeError, match="object has no meta"):
        meta_namespace_key_func(obj)


def test_object_to_name():
    assert object_to_name(POD) == ObjectName("default", "web-0")


def test_meta_accessor_reads_wire_dict_resource_version_and_labels():
    meta = meta_accessor({"metadata": {"name": "a", "resourceVersion": "12", "labels": {"app": "x"}}})
    assert (meta.namespace, meta.name, meta.resource_version, meta.labels) == ("", "a", "12", {"app": "x"})


SPLIT_META_NAMESPACE_KEY_CASES = [
    #            key        want
    pytest.param("ns/name", ("ns", "name"), id="namespace-and-name"),
    pytest.param("name",    ("", "name"),   id="name-only"),
    pytest.param("/name",   ("", "name"),   id="empty-namespace"),
    pytest.param("",        ("", ""),       id="empty"),
]


@pytest.mark.parametrize("key, want", SPLIT_META_NAMESPACE_KEY_CASES)
def test_split_meta_namespace_key(key, want):
    assert split_meta_namespace_key(key) == want


def test_split_meta_namespace_key_rejects_two_slashes():
    with pytest.raises(ValueError, match="unexpected key format"):
        split_meta_namespace_key("a/b/c")


def test_cache_wraps_key_failures_and_keeps_content():
    store = new_store(meta_namespace_key_func)
    store.add(POD)
    with pytest.raises(KeyErr):
        store.add("not an object")
    with pytest.raises(KeyErr):
        store.replace([POD, "not an object"], "9")
    assert store.list_keys() == ["default/web-0"]
    assert store.last_store_sync_resource_version() == "7"


def test_cache_delete_and_bookmark_record_resource_versions():
    store = new_store(meta_namespace_key_func)
    store.add(POD)
    gone = V1Pod(metadata=V1ObjectMeta(name="web-0", namespace="default", resource_version="9"))
    store.delete(gone)
    assert store.list_keys() == []
    assert store.last_store_sync_resource_version() == "9"
    store.bookmark("12")
    assert store.last_store_sync_resource_version() == "12"
    store.replace([], "15")
    assert store.last_store_sync_resource_version() == "15"


def test_cache_repr_is_short_and_names_first_keys():
    store = new_store(meta_namespace_key_func)
    for i in range(5):
        store.add(V1Pod(metadata=V1ObjectMeta(name=f"p{i}", namespace="ns")))
    text = repr(store)
    assert isinstance(store, Cache)
    assert "5 items" in text and "'ns/p0'" in text and "..." in text
