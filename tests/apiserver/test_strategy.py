"""Tests for minikcm.apiserver.strategy: per-resource create/update rules, QoS, scale, grace."""

from __future__ import annotations

import pytest

from minikcm.apiserver.strategy import (STRATEGIES, ClusterIPAllocator, check_graceful_delete, get_pod_qos,
                                        prepare_for_create, prepare_for_status_update, prepare_for_update,
                                        scale_from_object, validate_scale)

from .builders import deployment, pod


def test_every_served_resource_has_a_strategy():
    from minikcm.apimachinery.schema import RESOURCES

    assert set(STRATEGIES) == set(RESOURCES)


INITIAL_STATUS_CASES = [
    pytest.param("deployments", {}, id="deployment"),
    pytest.param("replicasets", {"replicas": 0}, id="replicaset"),
    pytest.param("statefulsets", {"replicas": 0, "availableReplicas": 0}, id="statefulset"),
    pytest.param("persistentvolumeclaims", {"phase": "Pending"}, id="pvc"),
    pytest.param("namespaces", {"phase": "Active"}, id="namespace"),
    pytest.param("services", {"loadBalancer": {}}, id="service"),
]


@pytest.mark.parametrize("resource, want", INITIAL_STATUS_CASES)
def test_prepare_for_create_resets_status(resource, want):
    obj = {"metadata": {"name": "x"}, "status": {"junk": True}}
    prepare_for_create(resource, obj, ClusterIPAllocator())
    assert obj["status"] == want


def test_prepare_for_create_pod():
    obj = pod()
    prepare_for_create("pods", obj, ClusterIPAllocator())
    assert obj["status"] == {"phase": "Pending", "qosClass": "BestEffort"}
    assert obj["metadata"]["generation"] == 1


def test_namespace_gets_kubernetes_finalizer_once():
    obj = {"metadata": {"name": "n"}, "spec": {"finalizers": ["kubernetes", "x"]}}
    prepare_for_create("namespaces", obj, ClusterIPAllocator())
    assert obj["spec"]["finalizers"] == ["kubernetes", "x"]


def test_services_get_cluster_ips_in_order():
    ips = ClusterIPAllocator()
    first, second = {"spec": {}}, {"spec": {"clusterIP": "None"}}
    external = {"spec": {"type": "ExternalName"}}
    for svc in (first, second, external):
        prepare_for_create("services", svc, ips)
    assert first["spec"]["clusterIP"] == "10.96.0.10" and first["spec"]["clusterIPs"] == ["10.96.0.10"]
    assert second["spec"]["clusterIP"] == "None" and "clusterIP" not in external["spec"]
    new = {"spec": {"ports": []}}
    prepare_for_update("services", new, first)
    assert new["spec"]["clusterIP"] == "10.96.0.10"


def _res(requests=None, limits=None):
    return {"name": "c", "image": "i", "resources": {"requests": requests or {}, "limits": limits or {}}}


QOS_CASES = [
    pytest.param([_res()], "BestEffort", id="nothing-set"),
    pytest.param([_res(limits={"cpu": "1", "memory": "1Gi"})], "Guaranteed", id="limits-only"),
    pytest.param([_res({"cpu": "1", "memory": "1Gi"}, {"cpu": "1", "memory": "1Gi"})], "Guaranteed",
                 id="equal"),
    pytest.param([_res({"cpu": "500m"}, {"cpu": "1", "memory": "1Gi"})], "Burstable", id="lower-request"),
    pytest.param([_res({"cpu": "1"})], "Burstable", id="request-only"),
    pytest.param([_res(limits={"cpu": "1", "memory": "1Gi"}), _res()], "Burstable",
                 id="one-container-best-effort"),
]


@pytest.mark.parametrize("containers, want", QOS_CASES)
def test_get_pod_qos(containers, want):
    assert get_pod_qos({"spec": {"containers": containers}}) == want


def test_status_update_keeps_spec_and_missing_spec_stays_missing():
    old = {"metadata": {"name": "x"}, "spec": {"a": 1}}
    new = {"metadata": {"name": "x"}, "spec": {"a": 2}, "status": {"s": 1}}
    prepare_for_status_update("replicasets", new, old)
    assert new["spec"] == {"a": 1}
    no_spec = {"metadata": {"name": "n"}, "spec": {"x": 1}}
    prepare_for_status_update("events", no_spec, {"metadata": {"name": "n"}})
    assert "spec" not in no_spec


GRACE_CASES = [
    pytest.param("pods", {"spec": {"nodeName": "n", "terminationGracePeriodSeconds": 30}}, None, 30,
                 id="pod-default"),
    pytest.param("pods", {"spec": {"nodeName": "n", "terminationGracePeriodSeconds": 30}}, 5, 5,
                 id="pod-requested"),
    pytest.param("pods", {"spec": {"terminationGracePeriodSeconds": 30}}, 10, 0, id="pod-unscheduled"),
    pytest.param("pods", {"spec": {"nodeName": "n"}, "status": {"phase": "Failed"}}, 10, 0,
                 id="pod-failed"),
    pytest.param("pods", {"spec": {"nodeName": "n"}}, -5, 1, id="negative-is-one"),
    pytest.param("deployments", {"spec": {}}, 10, None, id="not-graceful"),
]


@pytest.mark.parametrize("resource, obj, requested, want", GRACE_CASES)
def test_check_graceful_delete(resource, obj, requested, want):
    assert check_graceful_delete(resource, obj, requested) == want


def test_scale_from_object():
    d = deployment(replicas=3)
    d["metadata"].update(uid="u", resourceVersion="9", creationTimestamp="t")
    d["status"] = {"replicas": 2}
    d["spec"]["selector"] = {"matchLabels": {"app": "web"},
                             "matchExpressions": [{"key": "tier", "operator": "In", "values": ["a", "b"]}]}
    scale = scale_from_object("deployments", d)
    assert scale == {"kind": "Scale", "apiVersion": "autoscaling/v1",
                     "metadata": {"name": "web", "namespace": "default", "uid": "u",
                                  "resourceVersion": "9", "creationTimestamp": "t"},
                     "spec": {"replicas": 3},
                     "status": {"replicas": 2, "selector": "app=web,tier in (a,b)"}}


@pytest.mark.parametrize("replicas, ok", [pytest.param(0, True, id="zero"),
                                          pytest.param(3, True, id="three"),
                                          pytest.param(-1, False, id="negative"),
                                          pytest.param("3", False, id="string")])
def test_validate_scale(replicas, ok):
    assert (validate_scale({"spec": {"replicas": replicas}}) == []) is ok
