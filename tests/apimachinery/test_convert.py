"""Tests for minikcm.apimachinery.convert (no upstream twin)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from kubernetes import client as k8s
from pydantic import ValidationError

from minikcm.apimachinery import convert
from minikcm.apimachinery.schema import GroupVersionKind


def wire_pod():
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": "web-1", "namespace": "default", "uid": "u1", "resourceVersion": "7",
            "labels": {"app": "web"},
            "creationTimestamp": "2026-01-01T00:00:00Z",
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web",
                                 "uid": "u0", "controller": True}],
        },
        "spec": {"containers": [{"name": "c", "image": "nginx"}]},
        "status": {"phase": "Running"},
    }


MODEL_FOR_KIND_CASES = [
    pytest.param("v1", "Pod", k8s.V1Pod, id="served-core"),
    pytest.param("apps/v1", "Deployment", k8s.V1Deployment, id="served-apps"),
    pytest.param("v1", "Event", k8s.CoreV1Event, id="core-event"),
    pytest.param("apps/v1", "ReplicaSetList", k8s.V1ReplicaSetList, id="list-kind"),
    pytest.param("v1", "Status", k8s.V1Status, id="status"),
    pytest.param("autoscaling/v1", "Scale", k8s.V1Scale, id="scale"),
    pytest.param("coordination.k8s.io/v1", "Lease", k8s.V1Lease, id="lease"),
    pytest.param("apps/v1", "Pod", None, id="wrong-group"),
    pytest.param("v1", "WidgetList", None, id="unknown-list"),
]


@pytest.mark.parametrize("api_version, kind, want", MODEL_FOR_KIND_CASES)
def test_model_for_kind(api_version, kind, want):
    assert convert.model_for_kind(api_version, kind) is want


FROM_WIRE_CASES = [
    pytest.param({"apiVersion": "v1", "kind": "Pod"}, k8s.V1Pod, id="pod"),
    pytest.param({"apiVersion": "v1", "kind": "PodList", "items": []}, k8s.V1PodList, id="pod-list"),
    pytest.param({"apiVersion": "v1", "kind": "Status", "code": 404}, k8s.V1Status, id="status"),
    pytest.param({"apiVersion": "autoscaling/v1", "kind": "Scale", "spec": {"replicas": 2}}, k8s.V1Scale, id="scale"),
]


@pytest.mark.parametrize("d, want", FROM_WIRE_CASES)
def test_from_wire_picks_class_from_kind(d, want):
    obj = convert.from_wire(d)
    assert type(obj) is want
    assert convert.to_wire(obj) == d


FROM_WIRE_ERROR_CASES = [
    pytest.param({"apiVersion": "v1"}, "no kind", id="no-kind"),
    pytest.param({"apiVersion": "v9", "kind": "Pod"}, "no model class known", id="unknown-version"),
    pytest.param({"apiVersion": "example.com/v1", "kind": "Widget"}, "no model class known", id="unknown-kind"),
]


@pytest.mark.parametrize("d, message", FROM_WIRE_ERROR_CASES)
def test_from_wire_errors(d, message):
    with pytest.raises(ValueError, match=message):
        convert.from_wire(d)


def test_from_wire_with_explicit_class_and_bad_field():
    pod = convert.from_wire({"metadata": {"name": "a"}}, k8s.V1Pod)
    assert pod.metadata.name == "a"
    with pytest.raises(ValidationError):
        convert.from_wire({"metadata": {"name": "a"}, "bogus": 1}, k8s.V1Pod)


def test_round_trip_is_exact():
    d = wire_pod()
    pod = convert.from_wire(d)
    assert pod.metadata.creation_timestamp == datetime(2026, 1, 1, tzinfo=timezone.utc)
    assert convert.to_wire(pod) == d


def test_to_wire_of_dict_is_a_copy():
    d = wire_pod()
    out = convert.to_wire(d)
    assert out == d
    out["metadata"]["labels"]["app"] = "changed"
    assert d["metadata"]["labels"]["app"] == "web"


def test_deep_copy_model_is_independent():
    pod = convert.from_wire(wire_pod())
    cp = convert.deep_copy(pod)
    assert cp == pod and cp is not pod
    cp.metadata.labels["app"] = "other"
    cp.metadata.owner_references[0].name = "other"
    assert pod.metadata.labels["app"] == "web"
    assert pod.metadata.owner_references[0].name == "web"


def test_deep_copy_copies_free_form_data():
    rev = k8s.V1ControllerRevision.model_validate(
        {"metadata": {"name": "r"}, "revision": 1, "data": {"spec": {"a": [1, None]}}})
    cp = convert.deep_copy(rev)
    cp.data["spec"]["a"].append(2)
    assert rev.data == {"spec": {"a": [1, None]}}


def test_deep_copy_dict_and_none():
    d = wire_pod()
    cp = convert.deep_copy(d)
    cp["metadata"]["labels"]["x"] = "y"
    assert "x" not in d["metadata"]["labels"]
    assert convert.deep_copy(None) is None


def test_object_meta_of_model_is_live():
    pod = convert.from_wire(wire_pod())
    meta = convert.object_meta(pod)
    assert meta is pod.metadata
    assert convert.object_meta(pod.metadata) is pod.metadata


def test_object_meta_of_dict_is_a_view():
    d = wire_pod()
    meta = convert.object_meta(d)
    assert (meta.name, meta.namespace, meta.uid, meta.resource_version) == ("web-1", "default", "u1", "7")
    assert meta.creation_timestamp == datetime(2026, 1, 1, tzinfo=timezone.utc)
    assert meta.deletion_timestamp is None and meta.generation is None
    assert meta.owner_references[0].controller is True
    meta.labels["tier"] = "front"  # the containers are live
    assert d["metadata"]["labels"]["tier"] == "front"


def test_object_meta_when_missing_does_not_change_object():
    pod = k8s.V1Pod()
    assert convert.object_meta(pod).name is None
    assert pod.metadata is None
    d = {"kind": "Pod"}
    assert convert.object_meta(d).labels is None
    assert "metadata" not in d
    with pytest.raises(TypeError):
        convert.object_meta(k8s.V1PodSpec(containers=[]))


def test_object_meta_class_memo_keeps_answers_per_class():
    # The per-class memo must not let one class's answer leak to another: ask each twice, in turn.
    pod, spec, d = k8s.V1Pod(metadata=k8s.V1ObjectMeta(name="p")), k8s.V1PodSpec(containers=[]), {"metadata": {"name": "w"}}
    for _ in range(2):
        assert convert.object_meta(pod) is pod.metadata
        assert convert.object_meta(d).name == "w"
        assert convert.object_meta(pod.metadata) is pod.metadata
        with pytest.raises(TypeError):
            convert.object_meta(spec)
        with pytest.raises(TypeError):
            convert.object_meta(3)


GVK_CASES = [
    pytest.param(wire_pod(), GroupVersionKind("", "v1", "Pod"), id="wire-dict"),
    pytest.param(k8s.V1Lease(api_version="coordination.k8s.io/v1", kind="Lease"),
                 GroupVersionKind("coordination.k8s.io", "v1", "Lease"), id="model-with-typemeta"),
    pytest.param(k8s.V1Lease(), GroupVersionKind("coordination.k8s.io", "v1", "Lease"), id="model-without-typemeta"),
    pytest.param(k8s.V1PodList(items=[]), GroupVersionKind("", "v1", "PodList"), id="list-model"),
    pytest.param({"metadata": {}}, GroupVersionKind("", "", ""), id="unknown-dict"),
    pytest.param(k8s.V1Scale(), GroupVersionKind("", "", ""), id="unserved-model-without-typemeta"),
]


@pytest.mark.parametrize("obj, want", GVK_CASES)
def test_gvk_of(obj, want):
    assert convert.gvk_of(obj) == want
