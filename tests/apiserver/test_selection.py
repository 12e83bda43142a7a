"""Tests for minikcm.apiserver.selection: field sets per resource and selector parsing."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import errors
from minikcm.apiserver.selection import new_selection_predicate, selectable_fields

from .builders import event, pod

FIELDS_CASES = [
    pytest.param("pods", pod(node="n1", phase="Running"),
                 {"metadata.name": "p", "metadata.namespace": "default", "spec.nodeName": "n1",
                  "status.phase": "Running", "spec.hostNetwork": "false"}, id="pod"),
    pytest.param("events", event("e", "Deployment", "web", reason="ScalingReplicaSet"),
                 {"involvedObject.kind": "Deployment", "involvedObject.name": "web",
                  "involvedObject.namespace": "default", "involvedObject.uid": "uid-web",
                  "reason": "ScalingReplicaSet", "type": "Normal",
                  "source": "deployment-controller"}, id="event"),
    pytest.param("namespaces", {"metadata": {"name": "n"}, "status": {"phase": "Active"}},
                 {"metadata.name": "n", "status.phase": "Active"}, id="namespace-cluster-scoped"),
    pytest.param("replicasets", {"metadata": {"name": "r", "namespace": "d"}},
                 {"status.replicas": "0"}, id="replicaset-missing-status-is-zero"),
]


@pytest.mark.parametrize("resource, obj, subset", FIELDS_CASES)
def test_selectable_fields(resource, obj, subset):
    got = selectable_fields(resource, obj)
    assert {k: got[k] for k in subset} == subset


def test_cluster_scoped_has_no_namespace_field():
    assert "metadata.namespace" not in selectable_fields("namespaces", {"metadata": {"name": "n"}})


MATCH_CASES = [
    pytest.param("pods", "app=web", "", pod(labels={"app": "web"}), True, id="label-match"),
    pytest.param("pods", "app in (db)", "", pod(labels={"app": "web"}), False, id="label-miss"),
    pytest.param("pods", "", "spec.nodeName=", pod(), True, id="unscheduled"),
    pytest.param("pods", "", "status.phase!=Running", pod(phase="Pending"), True, id="not-equal"),
    pytest.param("pods", "", "metadata.name=p,metadata.namespace=default", pod(), True, id="two-terms"),
    pytest.param("events", "", "involvedObject.kind=Pod", event("e", "Deployment", "web"), False,
                 id="event-kind-miss"),
    pytest.param("pods", "!app", "", pod(), True, id="does-not-exist"),
]


@pytest.mark.parametrize("resource, label, field, obj, want", MATCH_CASES)
def test_predicate_matches(resource, label, field, obj, want):
    assert new_selection_predicate(resource, label, field).matches(obj) is want


BAD_SELECTOR_CASES = [
    pytest.param("pods", "", "spec.foo=bar", "field label not supported: spec.foo", id="unsupported-field"),
    pytest.param("deployments", "", "spec.nodeName=x", "field label not supported: spec.nodeName",
                 id="pod-field-on-deployment"),
    pytest.param("pods", "", "nonsense", None, id="no-operator"),
    pytest.param("pods", "a b c", "", None, id="bad-label-selector"),
]


@pytest.mark.parametrize("resource, label, field, message", BAD_SELECTOR_CASES)
def test_bad_selectors_are_bad_requests(resource, label, field, message):
    with pytest.raises(errors.StatusError) as info:
        new_selection_predicate(resource, label, field)
    assert errors.is_bad_request(info.value)
    if message:
        assert str(info.value) == message


def test_empty_predicate_matches_anything():
    p = new_selection_predicate("pods")
    assert p.empty() and p.matches({})
