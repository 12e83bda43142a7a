"""Tests for minikcm.apiserver.patcher and APIServer.patch: the four patch types."""

from __future__ import annotations

import json

import pytest

from minikcm.apimachinery import errors, types
from minikcm.apiserver.patcher import apply_patch, merge_patch

from .builders import deployment, drain

MERGE_CASES = [
    pytest.param({"a": 1}, {"a": 2}, {"a": 2}, id="replace"),
    pytest.param({"a": 1, "b": 2}, {"a": None}, {"b": 2}, id="null-deletes"),
    pytest.param({"a": {"b": 1, "c": 2}}, {"a": {"c": None, "d": 3}}, {"a": {"b": 1, "d": 3}}, id="nested"),
    pytest.param({"a": [1, 2]}, {"a": [3]}, {"a": [3]}, id="lists-replace"),
    pytest.param({"a": "x"}, {"a": {"b": 1}}, {"a": {"b": 1}}, id="scalar-to-map"),
    pytest.param({}, {"a": {"b": None}}, {"a": {}}, id="null-inside-new-map"),
]


@pytest.mark.parametrize("target, patch, want", MERGE_CASES)
def test_merge_patch(target, patch, want):
    before = json.dumps(target)
    assert merge_patch(target, patch) == want
    assert json.dumps(target) == before  # the input is not changed


def _web(server):
    return server.create("deployments", "default", deployment())


PATCH_CASES = [
    pytest.param(types.MERGE_PATCH_TYPE, b'{"spec":{"replicas":4}}', id="merge-bytes"),
    pytest.param(types.MERGE_PATCH_TYPE, {"spec": {"replicas": 4}}, id="merge-parsed"),
    pytest.param(types.JSON_PATCH_TYPE, '[{"op":"replace","path":"/spec/replicas","value":4}]', id="json"),
    pytest.param(types.STRATEGIC_MERGE_PATCH_TYPE, '{"spec":{"replicas":4}}', id="strategic"),
]


@pytest.mark.parametrize("patch_type, body", PATCH_CASES)
def test_patch_types(server, patch_type, body):
    _web(server)
    out = server.patch("deployments", "default", "web", patch_type, body)
    assert out["spec"]["replicas"] == 4 and out["metadata"]["generation"] == 2


def test_strategic_merge_patch_merges_containers_by_name(server):
    d = deployment()
    d["spec"]["template"]["spec"]["containers"].append({"name": "side", "image": "busybox"})
    server.create("deployments", "default", d)
    body = {"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "nginx:1.28"}]}}}}
    out = server.patch("deployments", "default", "web", types.STRATEGIC_MERGE_PATCH_TYPE, body)
    containers = out["spec"]["template"]["spec"]["containers"]
    assert [(c["name"], c["image"]) for c in containers] == [("app", "nginx:1.28"), ("side", "busybox")]
    assert containers[0]["imagePullPolicy"] == "IfNotPresent"  # defaults run on the patched object


def test_patch_status_subresource(server):
    _web(server)
    out = server.patch("deployments", "default", "web", types.MERGE_PATCH_TYPE,
                       {"status": {"replicas": 2}, "spec": {"replicas": 9}}, subresource="status")
    assert out["status"]["replicas"] == 2 and out["spec"]["replicas"] == 2


def test_patch_scale_subresource(server):
    _web(server)
    out = server.patch("deployments", "default", "web", types.MERGE_PATCH_TYPE,
                       {"spec": {"replicas": 7}}, subresource="scale")
    assert out["kind"] == "Scale" and out["spec"]["replicas"] == 7
    assert server.get("deployments", "default", "web")["spec"]["replicas"] == 7


def test_patch_with_stale_resource_version_conflicts(server):
    d = _web(server)
    server.patch("deployments", "default", "web", types.MERGE_PATCH_TYPE, {"spec": {"replicas": 3}})
    with pytest.raises(errors.StatusError) as info:
        server.patch("deployments", "default", "web", types.MERGE_PATCH_TYPE,
                     {"metadata": {"resourceVersion": d["metadata"]["resourceVersion"]},
                      "spec": {"replicas": 5}})
    assert errors.is_conflict(info.value)


def test_patch_missing_is_not_found(server):
    with pytest.raises(errors.StatusError) as info:
        server.patch("deployments", "default", "nope", types.MERGE_PATCH_TYPE, {})
    assert str(info.value) == 'deployments.apps "nope" not found'


BAD_PATCH_CASES = [
    pytest.param(types.MERGE_PATCH_TYPE, b"{not json", errors.is_bad_request, id="merge-not-json"),
    pytest.param(types.JSON_PATCH_TYPE, '{"op":"add"}', errors.is_bad_request, id="json-not-a-list"),
    pytest.param(types.JSON_PATCH_TYPE, '[{"op":"remove","path":"/spec/nope"}]', errors.is_invalid,
                 id="json-missing-path"),
    pytest.param(types.JSON_PATCH_TYPE, '[{"op":"test","path":"/spec/replicas","value":9}]',
                 errors.is_invalid, id="json-test-fails"),
    pytest.param(types.MERGE_PATCH_TYPE, '{"metadata":{"name":"other"}}', errors.is_bad_request,
                 id="rename"),
    pytest.param(types.MERGE_PATCH_TYPE, '{"spec":{"replicas":-3}}', errors.is_invalid,
                 id="invalid-result"),
    pytest.param(types.MERGE_PATCH_TYPE, "[1]", errors.is_invalid, id="not-an-object"),
    pytest.param("application/xml", "<x/>", errors.is_unsupported_media_type, id="unknown-type"),
]


@pytest.mark.parametrize("patch_type, body, predicate", BAD_PATCH_CASES)
def test_bad_patches_change_nothing(server, patch_type, body, predicate):
    _web(server)
    before = server.storage.dump()
    with pytest.raises(errors.StatusError) as info:
        server.patch("deployments", "default", "web", patch_type, body)
    assert predicate(info.value), info.value
    assert server.storage.dump() == before


APPLY_BODY = """
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: nginx:1.27
"""


def test_apply_creates_then_merges(server):
    w = server.watch("deployments", "default")
    created = server.patch("deployments", "default", "web", types.APPLY_PATCH_TYPE, APPLY_BODY,
                           field_manager="kubectl")
    assert created["spec"]["replicas"] == 3 and created["metadata"]["uid"]
    changed = server.patch("deployments", "default", "web", types.APPLY_PATCH_TYPE,
                           APPLY_BODY.replace("replicas: 3", "replicas: 5"), field_manager="kubectl")
    assert changed["spec"]["replicas"] == 5
    assert [t for t, _ in drain(w)] == ["ADDED", "MODIFIED"]


@pytest.mark.parametrize("patch_type, field_manager, force", [
    pytest.param(types.APPLY_PATCH_TYPE, "", False, id="apply-needs-field-manager"),
    pytest.param(types.MERGE_PATCH_TYPE, "me", True, id="force-only-for-apply"),
])
def test_patch_options_are_validated(server, patch_type, field_manager, force):
    with pytest.raises(errors.StatusError) as info:
        server.patch("deployments", "default", "web", patch_type, "{}",
                     field_manager=field_manager, force=force)
    assert errors.is_invalid(info.value)
    assert str(info.value).startswith('PatchOptions.meta.k8s.io "" is invalid')


def test_apply_patch_function_keeps_input():
    current = {"metadata": {"name": "x"}, "spec": {"a": 1}}
    out = apply_patch(types.MERGE_PATCH_TYPE, current, {"spec": {"a": 2}}, "Deployment")
    assert out["spec"] == {"a": 2} and current["spec"] == {"a": 1}
