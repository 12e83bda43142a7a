"""Tests for minikcm.apiserver.http.openapi: what kubectl's default validation needs, and nothing that misleads it."""

from __future__ import annotations

import json

import pytest

from minikcm.apimachinery.schema import RESOURCES
from minikcm.apiserver.http import openapi


def document(group: str, version: str = "v1") -> dict:
    return json.loads(openapi.group_version_document(group, version))


def test_root_links_every_group_version_with_its_hash():
    paths = openapi.root_document()["paths"]
    assert sorted(paths) == ["api/v1", "apis/apps/v1", "apis/coordination.k8s.io/v1"]
    url = paths["apis/apps/v1"]["serverRelativeURL"]
    assert url == f"/openapi/v3/apis/apps/v1?hash={openapi.document_hash('apps', 'v1')}"
    assert len(openapi.document_hash("apps", "v1")) == 128


@pytest.mark.parametrize("resource", sorted(RESOURCES))
def test_every_kind_has_a_patch_operation_with_field_validation(resource):
    """kubectl's QueryParamVerifierV3 looks for exactly this before it sends fieldValidation=Strict."""
    info = RESOURCES[resource]
    gvk = {"group": info.group, "version": info.version, "kind": info.kind}
    patches = [op["patch"] for op in document(info.group)["paths"].values()
               if "patch" in op and op["patch"]["x-kubernetes-group-version-kind"] == gvk]
    assert patches
    for patch in patches:
        assert {"name": "fieldValidation", "in": "query"}.items() <= next(
            p for p in patch["parameters"] if p["name"] == "fieldValidation").items()


@pytest.mark.parametrize("group", ["", "apps", "coordination.k8s.io"])
def test_no_operation_declares_a_request_body(group):
    """A requestBody with strategic-merge-patch would make client-side apply use these schemas."""
    for item in document(group)["paths"].values():
        for name, op in item.items():
            if name != "parameters":
                assert "requestBody" not in op


def test_components_describe_the_kinds_for_explain():
    schemas = document("apps")["components"]["schemas"]
    deployment = schemas["V1Deployment"]
    assert deployment["x-kubernetes-group-version-kind"] == [{"group": "apps", "kind": "Deployment", "version": "v1"}]
    assert deployment["properties"]["spec"]["allOf"] == [{"$ref": "#/components/schemas/V1DeploymentSpec"}]
    assert schemas["V1Scale"]["x-kubernetes-group-version-kind"][0]["group"] == "autoscaling"
    containers = schemas["V1PodSpec"]["properties"]["containers"]
    assert containers["type"] == "array" and containers["items"]["allOf"][0]["$ref"].endswith("V1Container")
    for schema in schemas.values():
        for prop in schema["properties"].values():
            for ref in [p["$ref"] for p in prop.get("allOf", [])]:
                assert ref.rsplit("/", 1)[1] in schemas


def test_documents_are_deterministic():
    first = openapi.group_version_document("apps", "v1")
    openapi._document_bytes.cache_clear()
    assert openapi.group_version_document("apps", "v1") == first
