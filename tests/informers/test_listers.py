"""Tests for minikcm.informers.listers (listers/generic_helpers.go, the typed listers and their expansions).

client-go has no unit tests for these generated files at v0.36.3; the cases
are ours, following the expansion functions' documented rules.
"""

from __future__ import annotations

import pytest
from kubernetes.client import (
    V1LabelSelector,
    V1LabelSelectorRequirement,
    V1Namespace,
    V1ObjectMeta,
    V1Pod,
    V1ReplicaSet,
    V1ReplicaSetSpec,
    V1StatefulSet,
    V1StatefulSetSpec,
)

from minikcm.apimachinery import errors, labels
from minikcm.informers import listers
from minikcm.tools.cache.controller import deletion_handling_meta_namespace_key_func
from minikcm.tools.cache.index import NAMESPACE_INDEX, meta_namespace_index_func
from minikcm.tools.cache.store import new_indexer


def indexer_with(*objs):
    indexer = new_indexer(deletion_handling_meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})
    for obj in objs:
        indexer.add(obj)
    return indexer


def meta(name: str, namespace: str = "default", labels_: dict | None = None) -> V1ObjectMeta:
    return V1ObjectMeta(name=name, namespace=namespace, labels=labels_)


def pod(name: str, namespace: str = "default", labels_: dict | None = None) -> V1Pod:
    return V1Pod(metadata=meta(name, namespace, labels_))


def rs(name: str, selector: V1LabelSelector | None, namespace: str = "default") -> V1ReplicaSet:
    # model_construct: the spec requires a selector, and the "missing selector" case needs None.
    return V1ReplicaSet(metadata=meta(name, namespace), spec=V1ReplicaSetSpec.model_construct(selector=selector))


def sts(name: str, selector: V1LabelSelector | None, namespace: str = "default") -> V1StatefulSet:
    return V1StatefulSet(metadata=meta(name, namespace), spec=V1StatefulSetSpec.model_construct(selector=selector))


WEB = V1LabelSelector(match_labels={"app": "web"})
WEB_EXPR = V1LabelSelector(match_expressions=[V1LabelSelectorRequirement(key="app", operator="In", values=["web"])])
EMPTY = V1LabelSelector()
INVALID = V1LabelSelector(match_expressions=[V1LabelSelectorRequirement(key="app", operator="Near", values=["x"])])


def test_resource_indexer_list_and_get():
    indexer = indexer_with(pod("a", labels_={"app": "web"}), pod("b"), pod("c", "other", {"app": "web"}))
    pods = listers.new_pod_lister(indexer)
    assert [p.metadata.name for p in pods.list(labels.everything())] == ["a", "b", "c"]
    assert [p.metadata.name for p in pods.list(labels.selector_from_set({"app": "web"}))] == ["a", "c"]
    assert [p.metadata.name for p in pods.pods("default").list(labels.everything())] == ["a", "b"]
    assert pods.pods("other").get("c").metadata.namespace == "other"
    assert pods.list(labels.nothing()) == []


def test_get_missing_object_is_not_found_with_the_singular_resource():
    with pytest.raises(errors.StatusError) as info:
        listers.new_deployment_lister(indexer_with()).deployments("default").get("web")
    assert errors.is_not_found(info.value)
    assert str(info.value) == 'deployment.apps "web" not found'


def test_cluster_scoped_lister_gets_by_name():
    namespaces = listers.new_namespace_lister(indexer_with(V1Namespace(metadata=V1ObjectMeta(name="kube-system"))))
    assert namespaces.get("kube-system").metadata.name == "kube-system"
    with pytest.raises(errors.StatusError, match='namespace "nope" not found'):
        namespaces.get("nope")


GET_POD_REPLICA_SETS_CASES = [
    #            pod labels        replica sets                                           want names
    pytest.param({"app": "web"}, [rs("match", WEB)], ["match"], id="selector matches"),
    pytest.param({"app": "web"}, [rs("expr", WEB_EXPR), rs("labels", WEB)], ["expr", "labels"], id="two candidates"),
    pytest.param({"app": "web"}, [rs("other-ns", WEB, "other"), rs("match", WEB)], ["match"], id="other namespace"),
    pytest.param({"app": "web"}, [rs("empty", EMPTY), rs("match", WEB)], ["match"], id="empty selector matches nothing"),
    pytest.param({"app": "web"}, [rs("nil", None), rs("match", WEB)], ["match"], id="missing selector matches nothing"),
    pytest.param({"app": "web"}, [rs("bad", INVALID), rs("match", WEB)], ["match"], id="invalid selector skipped"),
]


@pytest.mark.parametrize("pod_labels, replica_sets, want", GET_POD_REPLICA_SETS_CASES)
def test_get_pod_replica_sets(pod_labels, replica_sets, want):
    lister = listers.new_replica_set_lister(indexer_with(*replica_sets))
    assert [r.metadata.name for r in lister.get_pod_replica_sets(pod("p", labels_=pod_labels))] == want


GET_POD_OWNERS_ERROR_CASES = [
    pytest.param(None, "because it has no labels", id="pod without labels"),
    pytest.param({"app": "db"}, "could not find", id="no selector matches"),
]


@pytest.mark.parametrize("pod_labels, message", GET_POD_OWNERS_ERROR_CASES)
def test_get_pod_replica_sets_errors(pod_labels, message):
    lister = listers.new_replica_set_lister(indexer_with(rs("web", WEB)))
    with pytest.raises(LookupError, match=message):
        lister.get_pod_replica_sets(pod("p", labels_=pod_labels))


GET_POD_STATEFUL_SETS_CASES = [
    pytest.param({"app": "web"}, [sts("match", WEB), sts("empty", EMPTY)], ["match"], id="selector matches"),
    pytest.param({"app": "web"}, [sts("other-ns", WEB, "other"), sts("expr", WEB_EXPR)], ["expr"],
                 id="other namespace skipped"),
]


@pytest.mark.parametrize("pod_labels, stateful_sets, want", GET_POD_STATEFUL_SETS_CASES)
def test_get_pod_stateful_sets(pod_labels, stateful_sets, want):
    lister = listers.new_stateful_set_lister(indexer_with(*stateful_sets))
    assert [s.metadata.name for s in lister.get_pod_stateful_sets(pod("p", labels_=pod_labels))] == want


@pytest.mark.parametrize("pod_labels, message", GET_POD_OWNERS_ERROR_CASES)
def test_get_pod_stateful_sets_errors(pod_labels, message):
    lister = listers.new_stateful_set_lister(indexer_with(sts("web", WEB)))
    with pytest.raises(LookupError, match=message):
        lister.get_pod_stateful_sets(pod("p", labels_=pod_labels))


TYPED_LISTER_CASES = [
    pytest.param(listers.new_deployment_lister, "deployments", "deployment.apps", id="deployments"),
    pytest.param(listers.new_replica_set_lister, "replica_sets", "replicaset.apps", id="replicasets"),
    pytest.param(listers.new_stateful_set_lister, "stateful_sets", "statefulset.apps", id="statefulsets"),
    pytest.param(listers.new_controller_revision_lister, "controller_revisions", "controllerrevision.apps",
                 id="controllerrevisions"),
    pytest.param(listers.new_pod_lister, "pods", "pod", id="pods"),
    pytest.param(listers.new_persistent_volume_claim_lister, "persistent_volume_claims", "persistentvolumeclaim",
                 id="persistentvolumeclaims"),
    pytest.param(listers.new_event_lister, "events", "event", id="events"),
    pytest.param(listers.new_lease_lister, "leases", "lease.coordination.k8s.io", id="leases"),
]


@pytest.mark.parametrize("new_lister, accessor, resource", TYPED_LISTER_CASES)
def test_typed_namespace_accessors(new_lister, accessor, resource):
    lister = new_lister(indexer_with())
    namespaced = getattr(lister, accessor)("ns1")
    assert namespaced.namespace == "ns1" and str(namespaced.resource) == resource
    assert namespaced.list(labels.everything()) == []
