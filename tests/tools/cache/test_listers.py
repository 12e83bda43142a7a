"""Tests for minikcm.tools.cache.listers (port of tools/cache/listers_test.go, plus namespace and generic lister cases)."""

from __future__ import annotations

import logging

import pytest
from kubernetes.client import V1ObjectMeta, V1Pod

from minikcm.apimachinery import errors, labels
from minikcm.apimachinery.schema import GroupResource
from minikcm.tools.cache.index import NAMESPACE_INDEX, meta_namespace_index_func
from minikcm.tools.cache.listers import list_all, list_all_by_namespace, new_generic_lister
from minikcm.tools.cache.store import meta_accessor, meta_namespace_key_func, new_indexer, new_store


def must_create_store(num_objects: int, num_matching: int, matching_labels: dict[str, str]):
    """Port of mustCreateStore (listers_test.go): the first num_matching objects carry the labels."""
    assert num_matching <= num_objects, "there can not be more matches than objects"
    store = new_store(lambda obj: meta_accessor(obj).name)
    for i in range(num_objects):
        lbls = matching_labels if i < num_matching else {}
        store.add(V1Pod(metadata=V1ObjectMeta(name=f"obj-{i}", labels=lbls)))
    return store


# Upstream lists 100 000 and 1 000 000 objects; a hundredth of that proves the same thing here.
LIST_ALL_CASES = [
    #            num_objects num_matching matching_labels      selector                                       want
    pytest.param(1000,       100,         {"match": "true"},   labels.selector_from_set({"match": "true"}),   100,   id="subset match"),
    pytest.param(10000,      0,           {},                  labels.everything(),                           10000, id="all match"),
    pytest.param(10000,      0,           {"nomatch": "true"}, labels.selector_from_set({"match": "true"}),   0,     id="no match"),
    pytest.param(100,        100,         {"match": "true"},   labels.nothing(),                              0,     id="nothing selector"),
]


@pytest.mark.parametrize("num_objects, num_matching, matching_labels, selector, want", LIST_ALL_CASES)
def test_list_all(num_objects, num_matching, matching_labels, selector, want):
    """Port of TestListAll (listers_test.go)."""
    store = must_create_store(num_objects, num_matching, matching_labels)
    got: list = []
    list_all(store, selector, got.append)
    assert len(got) == want


def ns_pod(namespace: str, name: str, app: str) -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(namespace=namespace, name=name, labels={"app": app}))


PODS = [ns_pod("a", "p1", "web"), ns_pod("a", "p2", "db"), ns_pod("b", "p3", "web")]

LIST_ALL_BY_NAMESPACE_CASES = [
    #            namespace selector                                   want names
    pytest.param("a",      labels.everything(),                       ["p1", "p2"],       id="one-namespace-everything"),
    pytest.param("a",      labels.selector_from_set({"app": "web"}),  ["p1"],             id="one-namespace-selected"),
    pytest.param("",       labels.selector_from_set({"app": "web"}),  ["p1", "p3"],       id="all-namespaces"),
    pytest.param("c",      labels.everything(),                       [],                 id="empty-namespace"),
    pytest.param("a",      labels.nothing(),                          [],                 id="nothing-selector"),
]


@pytest.mark.parametrize("with_index", [pytest.param(True, id="namespace-index"), pytest.param(False, id="no-index")])
@pytest.mark.parametrize("namespace, selector, want", LIST_ALL_BY_NAMESPACE_CASES)
def test_list_all_by_namespace(with_index, namespace, selector, want, caplog):
    indexers = {NAMESPACE_INDEX: meta_namespace_index_func} if with_index else {}
    indexer = new_indexer(meta_namespace_key_func, indexers)
    for p in PODS:
        indexer.add(p)
    got: list = []
    with caplog.at_level(logging.INFO, logger="minikcm.tools.cache.listers"):
        list_all_by_namespace(indexer, namespace, selector, got.append)
    assert [p.metadata.name for p in got] == want
    # Without the index, a one-namespace listing logs and falls back to a full scan.
    scanned = "can not retrieve list of objects using index" in caplog.text
    assert scanned == (not with_index and namespace != "" and not labels.matches_nothing(selector))


def test_generic_lister():
    indexer = new_indexer(meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})
    for p in PODS:
        indexer.add(p)
    lister = new_generic_lister(indexer, GroupResource("", "pods"))
    assert [p.metadata.name for p in lister.list(labels.everything())] == ["p1", "p2", "p3"]
    assert lister.get("a/p1") is PODS[0]
    ns_lister = lister.by_namespace("b")
    assert [p.metadata.name for p in ns_lister.list(labels.everything())] == ["p3"]
    assert ns_lister.get("p3") is PODS[2]

    with pytest.raises(errors.StatusError) as err:
        ns_lister.get("p1")
    assert errors.is_not_found(err.value)
    with pytest.raises(errors.StatusError) as err:
        lister.get("p1")
    assert errors.is_not_found(err.value)


LABELS_OF_CASES = [
    pytest.param(V1Pod(metadata=V1ObjectMeta(name="a", labels={"app": "web"})), {"app": "web"}, id="model"),
    pytest.param(V1Pod(metadata=V1ObjectMeta(name="a")), {}, id="model without labels"),
    pytest.param(V1Pod(), {}, id="model without metadata"),
    pytest.param({"metadata": {"name": "a", "labels": {"app": "web"}}}, {"app": "web"}, id="wire dict"),
    pytest.param(V1ObjectMeta(name="a", labels={"x": "1"}), {"x": "1"}, id="bare ObjectMeta"),
]


@pytest.mark.parametrize(("obj", "want"), LABELS_OF_CASES)
def test_labels_of_agrees_with_meta_accessor(obj, want):
    from minikcm.tools.cache.listers import labels_of

    assert labels_of(obj) == want == meta_accessor(obj).labels


def test_labels_of_rejects_objects_without_metadata():
    from minikcm.tools.cache.listers import labels_of

    with pytest.raises(TypeError):
        labels_of(object())
