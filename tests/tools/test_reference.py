"""Tests for minikcm/tools/reference.py (ports of tools/reference/ref_test.go, plus our own)."""

from __future__ import annotations

import pytest
from kubernetes.client import (
    V1Container,
    V1Deployment,
    V1DeploymentSpec,
    V1LabelSelector,
    V1Lease,
    V1ListMeta,
    V1ObjectMeta,
    V1ObjectReference,
    V1Pod,
    V1PodList,
    V1PodSpec,
    V1PodTemplateSpec,
)

from minikcm.tools.reference import get_partial_reference, get_reference

TEST_POD = V1Pod(metadata=V1ObjectMeta(name="foo", namespace="baz", uid="bar"))


def test_get_reference_nil_scheme_with_populated_gvk():
    """Port of TestGetReferenceNilSchemeWithPopulatedGVK (tools/reference/ref_test.go)."""
    ref = get_reference(None, {"apiVersion": "foo.group/v3", "kind": "Bar", "metadata": {"name": "a-name"}})
    assert (ref.api_version, ref.kind, ref.name) == ("foo.group/v3", "Bar", "a-name")


def new_deployment(name: str) -> V1Deployment:
    labels = {"app": name}
    return V1Deployment(
        metadata=V1ObjectMeta(name=name, namespace="default"),
        spec=V1DeploymentSpec(selector=V1LabelSelector(match_labels=labels), template=V1PodTemplateSpec(
            metadata=V1ObjectMeta(labels=labels), spec=V1PodSpec(containers=[V1Container(name="c", image="nginx")]))))


GET_REFERENCE_CASES = [
    pytest.param(TEST_POD, ("Pod", "v1", "foo", "baz", "bar"), id="typed-object-without-type-meta"),
    pytest.param(new_deployment("web"), ("Deployment", "apps/v1", "web", "default", None),
                 id="group-from-resource-table"),
    pytest.param(V1Lease(api_version="coordination.k8s.io/v1", kind="Lease", metadata=V1ObjectMeta(name="l")),
                 ("Lease", "coordination.k8s.io/v1", "l", None, None), id="type-meta-set"),
    pytest.param({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "w", "namespace": "d", "uid": "x"}},
                 ("Pod", "v1", "w", "d", "x"), id="wire-dict"),
    pytest.param(V1PodList(metadata=V1ListMeta(resource_version="5"), items=[]),
                 ("PodList", "v1", None, None, None), id="list-only-metadata"),
]


@pytest.mark.parametrize("obj, want", GET_REFERENCE_CASES)
def test_get_reference(obj, want):
    ref = get_reference(None, obj)
    assert (ref.kind, ref.api_version, ref.name, ref.namespace, ref.uid) == want


def test_get_reference_edge_cases():
    ref = V1ObjectReference(kind="Pod", name="p")
    assert get_reference(None, ref) is ref
    partial = get_partial_reference(None, ref, "spec.containers[0]")
    assert partial.field_path == "spec.containers[0]" and ref.field_path is None
    assert get_reference(None, V1PodList(metadata=V1ListMeta(resource_version="5"), items=[])).resource_version == "5"
    with pytest.raises(ValueError, match="nil object"):
        get_reference(None, None)
    with pytest.raises(ValueError, match="unexpected gvks"):
        get_reference(None, V1ObjectMeta(name="no-kind"))
    with pytest.raises(TypeError):
        get_reference(None, 42)
