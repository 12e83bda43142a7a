"""The HTTP side of nodes and pods where the simulation stops: eviction over HTTP, logs/exec/... answers."""

from __future__ import annotations

import pytest

from ..builders import pod
from .wire import body_of, call

PODS = "/api/v1/namespaces/default/pods"


def bound_pod(server, name="p"):
    obj = pod(name)
    obj["spec"]["nodeName"] = "sim-node-0"
    return server.create("pods", "default", obj)


def test_eviction_over_http_answers_201_success(handler, server):
    bound_pod(server)
    body = {"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": "p", "namespace": "default"},
            "deleteOptions": {"gracePeriodSeconds": 0}}
    response = call(handler, "POST", PODS + "/p/eviction", body)
    assert response.code == 201, response.body
    assert body_of(response)["status"] == "Success"
    assert server.list("pods", "default")["items"] == []


def test_eviction_name_must_match_the_url(handler, server):
    bound_pod(server)
    body = {"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": "other"}}
    response = call(handler, "POST", PODS + "/p/eviction", body)
    assert response.code == 400
    assert body_of(response)["message"] == "name in URL does not match name in Eviction object"
    assert len(server.list("pods", "default")["items"]) == 1


def test_eviction_is_create_only(handler, server):
    bound_pod(server)
    assert call(handler, "GET", PODS + "/p/eviction").code == 405


@pytest.mark.parametrize("method, sub, words", [
    ("GET", "log", "has no container logs"),
    ("GET", "exec?command=ls&stdout=true", "cannot run commands"),
    ("POST", "exec?command=ls", "cannot run commands"),
    ("POST", "attach?stdin=true", "cannot be attached to"),
    ("POST", "portforward?ports=80", "has no ports to forward"),
    ("GET", "proxy", "cannot be proxied to"),
    ("PATCH", "ephemeralcontainers", "cannot run ephemeral (debug) containers"),
])
def test_unserved_subresources_say_why(handler, server, method, sub, words):
    bound_pod(server)
    response = call(handler, method, f"{PODS}/p/{sub}")
    status = body_of(response)
    assert response.code == 400 and status["reason"] == "BadRequest"
    assert words in status["message"] and "minikcm" in status["message"]


def test_unserved_subresource_of_a_missing_pod_is_not_found(handler):
    response = call(handler, "GET", PODS + "/ghost/log")
    assert response.code == 404
    assert body_of(response)["message"] == 'pods "ghost" not found'


def test_node_proxy_says_why(handler, server):
    server.create("nodes", None, {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}})
    response = call(handler, "GET", "/api/v1/nodes/n1/proxy")
    assert response.code == 400 and "serve no network traffic" in body_of(response)["message"]


@pytest.mark.parametrize("method, path, what", [
    ("POST", "/apis/batch/v1/namespaces/default/jobs", "(jobs.batch): minikcm does not serve it"),
    ("POST", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers",
     "(horizontalpodautoscalers.autoscaling): minikcm does not serve it"),
    ("GET", "/api/v1/namespaces/default/configmaps/x", "(configmaps): minikcm does not serve it"),
    ("GET", "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods", "minikcm runs no metrics server"),
])
def test_well_known_resources_that_are_not_served_say_so(handler, method, path, what):
    response = call(handler, method, path, {} if method == "POST" else None)
    status = body_of(response)
    assert response.code == 404 and status["reason"] == "NotFound"
    assert status["message"].startswith("the server could not find the requested resource") and what in status["message"]


def test_other_unknown_paths_stay_the_plain_404(handler):
    response = call(handler, "GET", "/apis/example.com/v1/widgets")
    assert response.code == 404
    assert body_of(response)["message"] == "the server could not find the requested resource"
