"""Null list elements over the HTTPS front (minikcm.apiserver.nulls behind the REST handlers).

A body with `[null]` in a list of structs must get 422 Invalid naming the
element, never 500, on POST, PUT and PATCH alike, and leave the store as it
was; a null string element is stored as "".
"""

from __future__ import annotations

import copy
import json

import pytest

from ..builders import deployment, pod

pytestmark = pytest.mark.threaded

PODS = "/api/v1/namespaces/default/pods"
DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments"
TPL = "spec.template.spec"


def _pod_with(**spec):
    obj = pod()
    obj["spec"].update(spec)
    return obj


def _deployment_with(path: str, value):
    obj = deployment()
    target = obj
    *parents, last = path.split(".")
    for part in parents:
        target = target[int(part)] if part.isdigit() else target[part]
    target[last] = value
    return obj


def _causes(body) -> list[str]:
    return [c.get("field") for c in (body.get("details") or {}).get("causes") or []]


CREATES = [
    pytest.param(PODS, _pod_with(containers=[None]), "spec.containers[0].name", id="pod-containers"),
    pytest.param(PODS, _pod_with(volumes=[None]), "spec.volumes[0].name", id="pod-volumes"),
    pytest.param(PODS, _pod_with(containers=[{"name": "a", "image": "x", "env": [None]}]),
                 "spec.containers[0].env[0].name", id="pod-env"),
    pytest.param(DEPLOYMENTS, _deployment_with("spec.template.spec.containers", [None]),
                 f"{TPL}.containers[0].name", id="deployment-template-containers"),
    pytest.param(DEPLOYMENTS, _deployment_with("spec.template.spec.containers.0.ports", [None]),
                 f"{TPL}.containers[0].ports[0].containerPort", id="deployment-template-ports"),
    pytest.param(DEPLOYMENTS, _deployment_with("metadata.ownerReferences", [None]),
                 "metadata.ownerReferences.apiVersion", id="deployment-owner-references"),
]


@pytest.mark.parametrize("path, body, want_field", CREATES)
def test_post_with_a_null_element_is_422(https, server, path, body, want_field):
    before = server.storage.resource_version
    status, reply = https.json("POST", path, body)
    assert status == 422, reply
    assert reply["reason"] == "Invalid"
    assert want_field in _causes(reply)
    assert server.storage.resource_version == before


def test_post_yaml_with_a_null_element_is_422(https):
    body = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
            "spec:\n  containers:\n  - null\n")
    status, _, data = https.request("POST", PODS, body, headers={"Content-Type": "application/yaml"})
    reply = json.loads(data)
    assert status == 422, reply
    assert "spec.containers[0].name" in _causes(reply)


UPDATES = [
    pytest.param("spec.template.spec.containers", [None], f"{TPL}.containers[0].name",
                 id="template-containers"),
    pytest.param("spec.template.spec.volumes", [None], f"{TPL}.volumes[0].name", id="template-volumes"),
    pytest.param("spec.selector.matchExpressions", [None], "spec.selector.matchExpressions[0].operator",
                 id="selector-match-expressions"),
]


@pytest.mark.parametrize("path, value, want_field", UPDATES)
def test_put_with_a_null_element_is_422_and_keeps_the_object(https, path, value, want_field):
    status, stored = https.json("POST", DEPLOYMENTS, deployment())
    assert status == 201
    obj = copy.deepcopy(stored)
    target = obj
    *parents, last = path.split(".")
    for part in parents:
        target = target[part]
    target[last] = value
    status, reply = https.json("PUT", f"{DEPLOYMENTS}/web", obj)
    assert status == 422, reply
    assert want_field in _causes(reply)
    assert https.json("GET", f"{DEPLOYMENTS}/web") == (200, stored)


PATCHES = [
    pytest.param("application/merge-patch+json", {"spec": {"template": {"spec": {"containers": [None]}}}},
                 f"{TPL}.containers[0].name", id="merge-containers"),
    pytest.param("application/merge-patch+json", {"metadata": {"ownerReferences": [None]}},
                 "metadata.ownerReferences.apiVersion", id="merge-owner-references"),
    pytest.param("application/json-patch+json",
                 [{"op": "add", "path": "/spec/template/spec/containers/-", "value": None}],
                 f"{TPL}.containers[1].name", id="json-patch-append"),
    pytest.param("application/strategic-merge-patch+json",
                 {"spec": {"template": {"spec": {"containers": [{"name": "app", "env": [None]}]}}}},
                 f"{TPL}.containers[0].env[0].name", id="strategic-env"),
]


@pytest.mark.parametrize("content_type, patch, want_field", PATCHES)
def test_patch_leading_to_a_null_element_is_422_and_keeps_the_object(https, content_type, patch,
                                                                     want_field):
    status, stored = https.json("POST", DEPLOYMENTS, deployment())
    assert status == 201
    status, _, data = https.request("PATCH", f"{DEPLOYMENTS}/web", json.dumps(patch),
                                    headers={"Content-Type": content_type})
    reply = json.loads(data)
    assert status == 422, reply
    assert want_field in _causes(reply)
    assert https.json("GET", f"{DEPLOYMENTS}/web") == (200, stored)


def test_a_null_string_element_is_stored_as_empty(https):
    body = _pod_with(containers=[{"name": "a", "image": "x", "args": [None, "-v"]}])
    status, created = https.json("POST", PODS, body)
    assert status == 201, created
    assert created["spec"]["containers"][0]["args"] == ["", "-v"]
