"""Tests for minikcm.apiserver.http.discovery: /version, legacy and aggregated discovery."""

from __future__ import annotations

import pytest

from minikcm.apiserver.http import discovery

from .wire import AGGREGATED

NEGOTIATE_CASES = [
    pytest.param(AGGREGATED, "v2", id="kubectl-1.32"),
    pytest.param("application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json",
                 "v2beta1", id="kubectl-1.27"),
    pytest.param("application/json", None, id="legacy"),
    pytest.param(None, None, id="no-accept"),
    pytest.param("application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList", None, id="unknown-version"),
]


@pytest.mark.parametrize("accept, want", NEGOTIATE_CASES)
def test_negotiate_discovery(accept, want):
    assert discovery.negotiate_discovery(accept) == want


def test_version_selects_a_1_32_kubectl():
    info = discovery.version_info()
    assert (info["major"], info["minor"], info["gitVersion"]) == ("1", "32", "v1.32.4")


def test_legacy_core_and_groups():
    assert discovery.api_versions("127.0.0.1:6443") == {
        "kind": "APIVersions", "versions": ["v1"],
        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1:6443"}]}
    groups = discovery.api_group_list()["groups"]
    assert [g["name"] for g in groups] == ["apps", "coordination.k8s.io"]
    assert groups[0]["preferredVersion"] == {"groupVersion": "apps/v1", "version": "v1"}


def test_legacy_resource_list_has_short_names_categories_and_subresources():
    resources = {r["name"]: r for r in discovery.api_resource_list("apps", "v1")["resources"]}
    assert resources["deployments"]["shortNames"] == ["deploy"]
    assert resources["deployments"]["categories"] == ["all"]
    assert resources["deployments/scale"] == {"name": "deployments/scale", "singularName": "", "namespaced": True,
                                              "kind": "Scale", "verbs": ["get", "patch", "update"],
                                              "group": "autoscaling", "version": "v1"}
    assert "controllerrevisions/scale" not in resources
    core = {r["name"]: r for r in discovery.api_resource_list("", "v1")["resources"]}
    assert core["namespaces"]["namespaced"] is False
    assert core["pods/binding"]["verbs"] == ["create"]


def test_aggregated_core_has_one_unnamed_group():
    doc = discovery.aggregated_discovery(core=True)
    assert doc["apiVersion"] == "apidiscovery.k8s.io/v2"
    assert len(doc["items"]) == 1 and doc["items"][0]["metadata"] == {}
    pods = {r["resource"]: r for r in doc["items"][0]["versions"][0]["resources"]}["pods"]
    assert pods["scope"] == "Namespaced" and pods["categories"] == ["all"]
    assert [s["subresource"] for s in pods["subresources"]] == [
            "attach", "binding", "ephemeralcontainers", "eviction", "exec", "log", "portforward", "proxy", "status"]


def test_aggregated_groups():
    doc = discovery.aggregated_discovery(core=False, version="v2beta1")
    assert doc["apiVersion"] == "apidiscovery.k8s.io/v2beta1"
    assert [i["metadata"]["name"] for i in doc["items"]] == ["apps", "coordination.k8s.io"]
    deploy = {r["resource"]: r for r in doc["items"][0]["versions"][0]["resources"]}["deployments"]
    assert deploy["responseKind"] == {"group": "apps", "version": "v1", "kind": "Deployment"}
    assert deploy["subresources"][0]["responseKind"] == {"group": "autoscaling", "version": "v1", "kind": "Scale"}


def test_aggregated_content_types():
    assert discovery.aggregated_content_type("v2") == (
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
    assert "v=v2beta1" in discovery.aggregated_content_type("v2beta1")


def test_health_bodies():
    assert discovery.health_body("readyz", False) == "ok"
    assert "readyz check passed" in discovery.health_body("readyz", True)
