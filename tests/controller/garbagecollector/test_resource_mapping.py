"""Tests for minikcm.controller.garbagecollector.resource_mapping (no upstream twin); cases are ours."""

from __future__ import annotations

import pytest

from minikcm.apimachinery.schema import RESOURCES, GroupVersionKind, GroupVersionResource
from minikcm.client.fake import new_simple_clientset
from minikcm.controller.garbagecollector.errors import RestMappingError
from minikcm.controller.garbagecollector.resource_mapping import (
    INFORMER_KINDS,
    RESOURCE_CLIENTS,
    api_resource_using,
    kind_for,
    resource_client,
)

API_RESOURCE_CASES = [
    pytest.param("apps/v1", "ReplicaSet", GroupVersionResource("apps", "v1", "replicasets"), True, id="apps-kind"),
    pytest.param("v1", "Namespace", GroupVersionResource("", "v1", "namespaces"), False, id="cluster-scoped"),
    pytest.param("v1", "Pod", GroupVersionResource("", "v1", "pods"), True, id="core-kind"),
]


@pytest.mark.parametrize("api_version, kind, want_resource, want_namespaced", API_RESOURCE_CASES)
def test_api_resource_using(api_version, kind, want_resource, want_namespaced):
    assert api_resource_using(api_version, kind) == (want_resource, want_namespaced)


UNSERVED_CASES = [
    pytest.param("extensions/v1beta1", "Deployment", id="unserved-version"),
    pytest.param("v1", "Secret", id="unserved-kind"),
    pytest.param("", "", id="empty"),
]


@pytest.mark.parametrize("api_version, kind", UNSERVED_CASES)
def test_api_resource_using_unserved(api_version, kind):
    with pytest.raises(RestMappingError):
        api_resource_using(api_version, kind)


def test_every_served_resource_has_a_client():
    assert set(RESOURCE_CLIENTS) == set(RESOURCES)
    client = new_simple_clientset()
    for info in RESOURCES.values():
        rc = resource_client(client, info.gvr(), "default" if info.namespaced else "")
        assert rc.list().items is not None


def test_informer_kinds_are_the_served_resources_minikcm_can_watch():
    # nodes: not watched by the collector, so that the chapter scenarios' traces stay as they were;
    # a Lease owned by a Node is still checked against the Node through RESOURCE_CLIENTS.
    assert set(INFORMER_KINDS) == set(RESOURCES) - {"services", "nodes"}


def test_kind_for():
    assert kind_for(GroupVersionResource("apps", "v1", "deployments")) == GroupVersionKind("apps", "v1", "Deployment")
    assert kind_for(GroupVersionResource("extensions", "v1beta1", "deployments")) is None
