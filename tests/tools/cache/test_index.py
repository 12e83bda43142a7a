"""Tests for minikcm.tools.cache.index (port of tools/cache/index_test.go, plus adapter tables)."""

from __future__ import annotations

import pytest
from kubernetes.client import V1ObjectMeta, V1Pod

from minikcm.tools.cache.index import (
    NAMESPACE_INDEX,
    index_func_to_key_func_adapter,
    meta_namespace_index_func,
)
from minikcm.tools.cache.store import meta_namespace_key_func, new_indexer


def pod(name: str, labels=None, annotations=None, namespace=None) -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(name=name, namespace=namespace, labels=labels, annotations=annotations))


def index_func(obj):
    """Port of testIndexFunc (index_test.go): index pods by their "foo" label."""
    return [obj.metadata.labels["foo"]]


def users_index_func(obj):
    """Port of testUsersIndexFunc (index_test.go): index pods by the comma-separated "users" annotation."""
    return obj.metadata.annotations["users"].split(",")


def test_get_index_func_values():
    """Port of TestGetIndexFuncValues (index_test.go)."""
    index = new_indexer(meta_namespace_key_func, {"testmodes": index_func})
    index.add(pod("one", labels={"foo": "bar"}))
    index.add(pod("two", labels={"foo": "bar"}))
    index.add(pod("tre", labels={"foo": "biz"}))
    assert index.list_index_func_values("testmodes") == ["bar", "biz"]


MULTI_INDEX_KEYS_CASES = [
    #            indexed value  want pod names
    pytest.param("ernie",       {"one", "tre"}, id="ernie"),
    pytest.param("bert",        {"one", "two"}, id="bert"),
    pytest.param("elmo",        {"tre"},        id="elmo"),
    pytest.param("oscar",       {"two"},        id="oscar"),
    pytest.param("elmo1",       set(),          id="unknown-value"),
]


@pytest.fixture
def users_index():
    index = new_indexer(meta_namespace_key_func, {"byUser": users_index_func})
    index.add(pod("one", annotations={"users": "ernie,bert"}))
    index.add(pod("two", annotations={"users": "bert,oscar"}))
    index.add(pod("tre", annotations={"users": "ernie,elmo"}))
    return index


@pytest.mark.parametrize("value, want", MULTI_INDEX_KEYS_CASES)
def test_multi_index_keys(users_index, value, want):
    """Port of TestMultiIndexKeys (index_test.go), lookup part."""
    assert {p.metadata.name for p in users_index.by_index("byUser", value)} == want


def test_multi_index_keys_after_delete_and_update(users_index):
    """Port of TestMultiIndexKeys (index_test.go), delete and update part."""
    pod3 = pod("tre", annotations={"users": "ernie,elmo"})
    users_index.delete(pod3)
    assert [p.metadata.name for p in users_index.by_index("byUser", "ernie")] == ["one"]
    assert users_index.by_index("byUser", "elmo") == []

    pod2, _ = users_index.get_by_key("two")
    copy_of_pod2 = pod2.model_copy(deep=True)  # Go: DeepCopy
    copy_of_pod2.metadata.annotations["users"] = "oscar"
    users_index.update(copy_of_pod2)
    assert [p.metadata.name for p in users_index.by_index("byUser", "bert")] == ["one"]


def test_index_func_to_key_func_adapter():
    key_func = index_func_to_key_func_adapter(lambda obj: obj)
    assert key_func(["only"]) == "only"
    with pytest.raises(ValueError, match="too many keys"):
        key_func(["a", "b"])
    with pytest.raises(ValueError, match="unexpected empty indexKeys"):
        key_func([])


META_NAMESPACE_INDEX_FUNC_CASES = [
    #            obj                                              want
    pytest.param(pod("a", namespace="ns1"),                       ["ns1"], id="namespaced-model"),
    pytest.param(pod("a"),                                        [""],    id="cluster-scoped"),
    pytest.param(V1ObjectMeta(namespace="ns2"),                   ["ns2"], id="bare-object-meta"),
    pytest.param({"metadata": {"name": "a", "namespace": "ns3"}}, ["ns3"], id="wire-dict"),
]


@pytest.mark.parametrize("obj, want", META_NAMESPACE_INDEX_FUNC_CASES)
def test_meta_namespace_index_func(obj, want):
    assert meta_namespace_index_func(obj) == want


def test_meta_namespace_index_func_rejects_objects_without_meta():
    with pytest.raises(TypeError, match="object has no meta"):
        meta_namespace_index_func("nope")


def test_namespace_index_name():
    assert NAMESPACE_INDEX == "namespace"
