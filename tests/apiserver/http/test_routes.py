"""Tests for minikcm.apiserver.http.routes: URL paths to endpoints and resource requests."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import errors
from minikcm.apiserver.http import routes
from minikcm.apiserver.http.routes import Endpoint, ResourceRequest, parse_path

ENDPOINT_CASES = [
    pytest.param("/version", Endpoint(routes.VERSION, ("version",)), id="version"),
    pytest.param("/healthz", Endpoint(routes.HEALTH, ("healthz",)), id="healthz"),
    pytest.param("/readyz/", Endpoint(routes.HEALTH, ("readyz",)), id="readyz-trailing-slash"),
    pytest.param("/livez/ping", Endpoint(routes.HEALTH, ("livez", "ping")), id="livez-check"),
    pytest.param("/api", Endpoint(routes.API_ROOT), id="api"),
    pytest.param("/apis", Endpoint(routes.APIS_ROOT), id="apis"),
    pytest.param("/apis/apps", Endpoint(routes.API_GROUP, ("apps",)), id="group"),
    pytest.param("/api/v1", Endpoint(routes.GROUP_VERSION, ("", "v1")), id="core-version"),
    pytest.param("/apis/coordination.k8s.io/v1", Endpoint(routes.GROUP_VERSION, ("coordination.k8s.io", "v1")),
                 id="named-version"),
    pytest.param("/openapi/v2", Endpoint(routes.OPENAPI_V2), id="openapi-v2"),
    pytest.param("/openapi/v3", Endpoint(routes.OPENAPI_V3_ROOT), id="openapi-v3"),
    pytest.param("/openapi/v3/apis/apps/v1", Endpoint(routes.OPENAPI_V3_GV, ("apis/apps/v1",)), id="openapi-gv"),
    pytest.param("/openapi/v3/api/v1", Endpoint(routes.OPENAPI_V3_GV, ("api/v1",)), id="openapi-core"),
]


@pytest.mark.parametrize("path, want", ENDPOINT_CASES)
def test_parse_endpoints(path, want):
    assert parse_path(path) == want


RESOURCE_CASES = [
    #            path                                                         resource      ns         name   sub
    pytest.param("/api/v1/namespaces/default/pods", "pods", "default", None, None, id="namespaced-list"),
    pytest.param("/api/v1/pods", "pods", None, None, None, id="all-namespaces-list"),
    pytest.param("/api/v1/namespaces/default/pods/p", "pods", "default", "p", None, id="namespaced-object"),
    pytest.param("/api/v1/namespaces/default/pods/p/status", "pods", "default", "p", "status", id="status"),
    pytest.param("/api/v1/namespaces/default/pods/p/binding", "pods", "default", "p", "binding", id="binding"),
    pytest.param("/api/v1/namespaces", "namespaces", None, None, None, id="namespaces"),
    pytest.param("/api/v1/namespaces/team", "namespaces", None, "team", None, id="one-namespace"),
    pytest.param("/api/v1/namespaces/team/status", "namespaces", None, "team", "status", id="namespace-status"),
    pytest.param("/apis/apps/v1/namespaces/a/deployments/web/scale", "deployments", "a", "web", "scale",
                 id="scale"),
    pytest.param("/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kcm", "leases", "kube-system",
                 "kcm", None, id="lease"),
]


@pytest.mark.parametrize("path, resource, namespace, name, sub", RESOURCE_CASES)
def test_parse_resources(path, resource, namespace, name, sub):
    got = parse_path(path)
    assert isinstance(got, ResourceRequest)
    assert (got.resource, got.namespace, got.name, got.subresource, got.legacy_watch) == (
        resource, namespace, name, sub, False)


def test_legacy_watch_prefix():
    got = parse_path("/api/v1/watch/namespaces/default/pods/p")
    assert isinstance(got, ResourceRequest) and got.legacy_watch and got.name == "p"


NOT_FOUND_CASES = [
    pytest.param("/", id="root"),
    pytest.param("/api/v2", id="unknown-core-version"),
    pytest.param("/apis/apps/v2/deployments", id="unknown-version"),
    pytest.param("/apis/example.com/v1", id="unknown-group"),
    pytest.param("/apis/apps/v1/namespaces/default/widgets", id="unknown-resource"),
    pytest.param("/api/v1/namespaces/default/deployments", id="resource-in-the-wrong-group"),
    pytest.param("/api/v1/pods/p", id="namespaced-object-without-namespace"),
    pytest.param("/api/v1/namespaces/default/namespaces/x", id="cluster-scoped-in-a-namespace"),
    pytest.param("/apis/apps/v1/namespaces/default/deployments/web/exec", id="unknown-subresource"),
    pytest.param("/apis/apps/v1/namespaces/default/controllerrevisions/r/scale", id="no-scale-here"),
    pytest.param("/api/v1/namespaces/default/pods/p/status/extra", id="too-deep"),
    pytest.param("/openapi/v3/apis/example.com/v1", id="openapi-unknown-group"),
]


@pytest.mark.parametrize("path", NOT_FOUND_CASES)
def test_unserved_paths_are_404(path):
    with pytest.raises(errors.StatusError) as caught:
        parse_path(path)
    assert caught.value.code == 404 and caught.value.reason == "NotFound"


def test_served_group_versions():
    assert routes.served_group_versions() == {"": ("v1",), "apps": ("v1",), "coordination.k8s.io": ("v1",)}
