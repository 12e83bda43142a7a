"""Tests for minikcm.apiserver.resource_rest: scale, pods/binding, namespace deletion."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import errors

from .builders import deployment, namespace, pod, replica_set, stateful_set


# --- scale ------------------------------------------------------------------------------


@pytest.mark.parametrize("resource, build", [
    pytest.param("deployments", deployment, id="deployments"),
    pytest.param("replicasets", replica_set, id="replicasets"),
    pytest.param("statefulsets", stateful_set, id="statefulsets"),
])
def test_scale_read_and_write(server, resource, build):
    server.create(resource, "default", build())
    scale = server.get(resource, "default", build()["metadata"]["name"], subresource="scale")
    assert scale["apiVersion"] == "autoscaling/v1" and scale["kind"] == "Scale"
    assert scale["status"]["selector"] == f"app={build()['metadata']['name']}"
    scale["spec"]["replicas"] = 6
    out = server.update(resource, "default", scale, subresource="scale")
    assert out["spec"] == {"replicas": 6}
    obj = server.get(resource, "default", scale["metadata"]["name"])
    assert obj["spec"]["replicas"] == 6 and obj["metadata"]["generation"] == 2
    assert out["metadata"]["resourceVersion"] == obj["metadata"]["resourceVersion"]


def test_scale_to_zero_has_empty_spec(server):
    server.create("deployments", "default", deployment(replicas=0))
    assert server.get("deployments", "default", "web", subresource="scale")["spec"] == {}


def test_scale_with_stale_version_conflicts(server):
    server.create("deployments", "default", deployment())
    scale = server.get("deployments", "default", "web", subresource="scale")
    server.patch("deployments", "default", "web", "application/merge-patch+json",
                 {"spec": {"replicas": 3}})
    scale["spec"]["replicas"] = 8
    with pytest.raises(errors.StatusError) as info:
        server.update("deployments", "default", scale, subresource="scale")
    assert errors.is_conflict(info.value)


def test_negative_scale_is_invalid(server):
    server.create("deployments", "default", deployment())
    scale = server.get("deployments", "default", "web", subresource="scale")
    scale["spec"]["replicas"] = -1
    with pytest.raises(errors.StatusError) as info:
        server.update("deployments", "default", scale, subresource="scale")
    assert str(info.value) == ('Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: '
                               "must be greater than or equal to 0")


def test_scale_of_missing_object(server):
    with pytest.raises(errors.StatusError) as info:
        server.get("deployments", "default", "nope", subresource="scale")
    assert str(info.value) == 'deployments/scale.apps "nope" not found'


def test_scale_of_resource_without_scale(server):
    server.create("pods", "default", pod())
    with pytest.raises(errors.StatusError) as info:
        server.get("pods", "default", "p", subresource="scale")
    assert errors.is_not_found(info.value)


# --- pods/binding -------------------------------------------------------------------------


def binding(name: str = "p", node: str = "node-1") -> dict:
    return {"apiVersion": "v1", "kind": "Binding", "metadata": {"name": name},
            "target": {"kind": "Node", "name": node}}


def test_binding_assigns_the_node(server):
    server.create("pods", "default", pod())
    assert server.create("pods", "default", binding(), subresource="binding")["status"] == "Success"
    bound = server.get("pods", "default", "p")
    assert bound["spec"]["nodeName"] == "node-1" and bound["metadata"]["generation"] == 1
    assert bound["status"]["conditions"] == [{"type": "PodScheduled", "status": "True",
                                              "lastProbeTime": None,
                                              "lastTransitionTime": "2026-01-01T00:00:00Z"}]


def test_binding_twice_is_a_conflict(server):
    server.create("pods", "default", pod(node="node-0"))
    with pytest.raises(errors.StatusError) as info:
        server.create("pods", "default", binding(), subresource="binding")
    assert str(info.value) == ('Operation cannot be fulfilled on pods/binding "p": '
                               'pod p is already assigned to node "node-0"')


def test_binding_without_a_node_is_invalid(server):
    server.create("pods", "default", pod())
    with pytest.raises(errors.StatusError) as info:
        server.create("pods", "default", binding(node=""), subresource="binding")
    assert str(info.value) == 'Binding "p" is invalid: target.name: Required value'


def test_pod_update_cannot_set_the_node(server):
    created = server.create("pods", "default", pod())
    created["spec"]["nodeName"] = "node-1"
    with pytest.raises(errors.StatusError) as info:
        server.update("pods", "default", created)
    assert errors.is_invalid(info.value)


# --- namespaces -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["default", "kube-system", "kube-public"])
def test_immortal_namespaces(server, name):
    with pytest.raises(errors.StatusError) as info:
        server.delete("namespaces", None, name)
    assert errors.is_forbidden(info.value)
    assert str(info.value) == f'namespaces "{name}" is forbidden: this namespace may not be deleted'


def test_namespace_deletion_marks_terminating(server):
    server.create("namespaces", None, namespace("team"))
    out = server.delete("namespaces", None, "team")
    assert out["status"]["phase"] == "Terminating" and out["metadata"]["deletionTimestamp"]
    with pytest.raises(errors.StatusError) as info:
        server.create("pods", "team", pod(namespace="team"))
    assert errors.is_forbidden(info.value)
    assert str(info.value) == ('pods "p" is forbidden: unable to create new content in namespace team '
                               "because it is being terminated")
    assert errors.has_status_cause(info.value, "NamespaceTerminating")
    with pytest.raises(errors.StatusError) as info:
        server.delete("namespaces", None, "team")
    assert errors.is_conflict(info.value)
