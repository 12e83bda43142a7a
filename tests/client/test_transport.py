"""Tests for minikcm.client.transport: the body conversions both transports share."""

from __future__ import annotations

import pytest
from kubernetes.client import V1Scale, V1ScaleSpec

from minikcm.apimachinery.meta import DRY_RUN_ALL
from minikcm.apimachinery.schema import resource_info
from minikcm.client.transport import body_to_wire, is_dry_run, object_to_wire, patch_bytes, resource_of

from .objects import new_deployment

BODY_CASES = [
    #            resource       subresource name   body                                   want apiVersion, kind, name
    pytest.param("deployments", "", "", {"metadata": {"name": "d"}}, ("apps/v1", "Deployment", "d"), id="main"),
    pytest.param("deployments", "status", "d", {}, ("apps/v1", "Deployment", "d"), id="status-gets-name"),
    pytest.param("deployments", "scale", "d", V1Scale(spec=V1ScaleSpec(replicas=2)),
                 ("autoscaling/v1", "Scale", "d"), id="scale"),
    pytest.param("pods", "binding", "p", {"metadata": {"name": "p"}}, ("v1", "Binding", "p"), id="binding"),
    pytest.param("pods", "", "", {"apiVersion": "v9", "kind": "Odd"}, ("v9", "Odd", None), id="kept"),
]


@pytest.mark.parametrize("resource, subresource, name, body, want", BODY_CASES)
def test_body_to_wire(resource, subresource, name, body, want):
    wire = body_to_wire(resource_info(resource), subresource, name, body)
    assert (wire["apiVersion"], wire["kind"], (wire.get("metadata") or {}).get("name")) == want


def test_object_to_wire_leaves_the_callers_object_alone():
    d = new_deployment("web")
    wire = object_to_wire(d, "apps/v1", "Deployment")
    wire["metadata"]["name"] = "changed"
    assert d.metadata.name == "web" and d.api_version is None
    body = {"metadata": {"name": "x"}}
    object_to_wire(body, "v1", "Pod")["metadata"]["name"] = "y"
    assert body == {"metadata": {"name": "x"}}


@pytest.mark.parametrize("data, want", [
    pytest.param(b"{}", b"{}", id="bytes"),
    pytest.param('{"a": 1}', b'{"a": 1}', id="str"),
    pytest.param({"a": 1}, b'{"a": 1}', id="json"),
    pytest.param([{"op": "remove", "path": "/x"}], b'[{"op": "remove", "path": "/x"}]', id="json-patch"),
])
def test_patch_bytes(data, want):
    assert patch_bytes(data) == want


def test_resource_of_and_is_dry_run():
    assert resource_of(new_deployment("d")).resource == "deployments"
    assert resource_of({"apiVersion": "v1", "kind": "Pod"}).resource == "pods"
    with pytest.raises(KeyError):
        resource_of({"apiVersion": "v1", "kind": "Nothing"})
    assert is_dry_run([DRY_RUN_ALL]) and not is_dry_run([])
