"""Tests for minikcm.apiserver.defaults.

Expected values follow upstream's defaults_test.go tables for apps/v1 and
core/v1 (TestSetDefaultDeployment, TestSetDefaultReplicaSet,
TestSetDefaultStatefulSet, TestSetDefaultPodSpec, TestSetDefaultService, ...),
restated on wire dicts.
"""

from __future__ import annotations

import copy

import pytest

from minikcm.apiserver.defaults import default_object, parse_image_tag


def template(**spec):
    return {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": [{"name": "c", "image": "img:1"}], **spec}}


def workload(kind_spec=None, **template_spec):
    return {"metadata": {"name": "x", "namespace": "default"}, "spec": {"template": template(**template_spec), **(kind_spec or {})}}


DEFAULTED_TEMPLATE_SPEC = {
    "containers": [
        {
            "name": "c",
            "image": "img:1",
            "imagePullPolicy": "IfNotPresent",
            "terminationMessagePath": "/dev/termination-log",
            "terminationMessagePolicy": "File",
        }
    ],
    "restartPolicy": "Always",
    "terminationGracePeriodSeconds": 30,
    "dnsPolicy": "ClusterFirst",
    "securityContext": {},
    "schedulerName": "default-scheduler",
}


DEPLOYMENT_CASES = [
    pytest.param(
        {},
        {
            "replicas": 1,
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
            "revisionHistoryLimit": 10,
            "progressDeadlineSeconds": 600,
        },
        id="all-unset",
    ),
    pytest.param(
        {"replicas": 5, "strategy": {"rollingUpdate": {"maxSurge": 1}}},
        {
            "replicas": 5,
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": 1}},
            "revisionHistoryLimit": 10,
            "progressDeadlineSeconds": 600,
        },
        id="partial-rolling-update-kept",
    ),
    pytest.param(
        {"replicas": 0, "strategy": {"type": "Recreate"}, "revisionHistoryLimit": 0, "progressDeadlineSeconds": 30},
        {"replicas": 0, "strategy": {"type": "Recreate"}, "revisionHistoryLimit": 0, "progressDeadlineSeconds": 30},
        id="recreate-gets-no-rolling-update",
    ),
    pytest.param(
        {"strategy": {"type": "RollingUpdate"}},
        {
            "replicas": 1,
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
            "revisionHistoryLimit": 10,
            "progressDeadlineSeconds": 600,
        },
        id="explicit-rolling-update-filled",
    ),
]


@pytest.mark.parametrize("spec, expected", DEPLOYMENT_CASES)
def test_set_default_deployment(spec, expected):
    """Port of TestSetDefaultDeployment (pkg/apis/apps/v1/defaults_test.go); cases are ours."""
    obj = workload(spec)
    default_object("deployments", obj)
    template_spec = obj["spec"].pop("template")["spec"]
    assert obj["spec"] == expected
    assert template_spec == DEFAULTED_TEMPLATE_SPEC


REPLICA_SET_CASES = [
    pytest.param({}, 1, id="replicas-unset"),
    pytest.param({"replicas": 0}, 0, id="replicas-zero-kept"),
    pytest.param({"replicas": 3}, 3, id="replicas-three-kept"),
]


@pytest.mark.parametrize("spec, replicas", REPLICA_SET_CASES)
def test_set_default_replica_set(spec, replicas):
    """Port of TestSetDefaultReplicaSetReplicas (pkg/apis/apps/v1/defaults_test.go)."""
    obj = workload(spec)
    default_object("replicasets", obj)
    assert obj["spec"]["replicas"] == replicas
    assert obj["spec"]["template"]["spec"] == DEFAULTED_TEMPLATE_SPEC


STATEFUL_SET_CASES = [
    pytest.param(
        {},
        {
            "podManagementPolicy": "OrderedReady",
            "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}},
            "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"},
            "replicas": 1,
            "revisionHistoryLimit": 10,
        },
        id="all-unset",
    ),
    pytest.param(
        {"updateStrategy": {"type": "OnDelete"}, "podManagementPolicy": "Parallel"},
        {
            "podManagementPolicy": "Parallel",
            "updateStrategy": {"type": "OnDelete"},
            "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"},
            "replicas": 1,
            "revisionHistoryLimit": 10,
        },
        id="on-delete-gets-no-partition",
    ),
    pytest.param(
        {"updateStrategy": {"type": "RollingUpdate"}},
        {
            "podManagementPolicy": "OrderedReady",
            "updateStrategy": {"type": "RollingUpdate"},
            "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"},
            "replicas": 1,
            "revisionHistoryLimit": 10,
        },
        id="explicit-rolling-update-without-block-left-alone",
    ),
    pytest.param(
        {"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 2}}, "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Delete"}},
        {
            "podManagementPolicy": "OrderedReady",
            "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 2}},
            "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Delete", "whenScaled": "Retain"},
            "replicas": 1,
            "revisionHistoryLimit": 10,
        },
        id="partition-and-retention-kept",
    ),
]


@pytest.mark.parametrize("spec, expected", STATEFUL_SET_CASES)
def test_set_default_stateful_set(spec, expected):
    """Port of TestSetDefaultStatefulSet (pkg/apis/apps/v1/defaults_test.go); cases are ours."""
    obj = workload(spec)
    default_object("statefulsets", obj)
    template_spec = obj["spec"].pop("template")["spec"]
    assert obj["spec"] == expected
    assert template_spec == DEFAULTED_TEMPLATE_SPEC


def test_stateful_set_claim_templates_defaulted():
    obj = workload({"volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"]}}]})
    default_object("statefulsets", obj)
    claim = obj["spec"]["volumeClaimTemplates"][0]
    assert claim["spec"]["volumeMode"] == "Filesystem"
    assert claim["status"] == {"phase": "Pending"}


IMAGE_PULL_POLICY_CASES = [
    pytest.param("nginx", "Always", id="no-tag"),
    pytest.param("nginx:latest", "Always", id="latest"),
    pytest.param("nginx:1.27", "IfNotPresent", id="tag"),
    pytest.param("nginx@sha256:" + "a" * 64, "IfNotPresent", id="digest-only"),
    pytest.param("localhost:5000/nginx", "Always", id="registry-port-no-tag"),
    pytest.param("registry.k8s.io/pause:3.10", "IfNotPresent", id="registry-with-tag"),
    pytest.param("", "IfNotPresent", id="empty-image"),
]


@pytest.mark.parametrize("image, policy", IMAGE_PULL_POLICY_CASES)
def test_set_default_image_pull_policy(image, policy):
    """Port of TestSetDefaultImagePullPolicy (pkg/apis/core/v1/defaults_test.go)."""
    pod = {"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": image}]}}
    default_object("pods", pod)
    assert pod["spec"]["containers"][0]["imagePullPolicy"] == policy


def test_explicit_image_pull_policy_kept():
    pod = {"spec": {"containers": [{"name": "c", "image": "nginx", "imagePullPolicy": "Never"}]}}
    default_object("pods", pod)
    assert pod["spec"]["containers"][0]["imagePullPolicy"] == "Never"


def test_parse_image_tag_rejects_upper_case_repository():
    assert parse_image_tag("NGINX") == ""


def test_set_default_pod():
    """Port of TestSetDefaultPodSpec and TestSetDefaultRequestsPod (pkg/apis/core/v1/defaults_test.go)."""
    pod = {
        "metadata": {"name": "p", "namespace": "default"},
        "spec": {
            "containers": [
                {
                    "name": "c",
                    "image": "img:1",
                    "ports": [{"containerPort": 80}],
                    "resources": {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "500m"}},
                    "env": [{"name": "N", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}],
                    "readinessProbe": {"httpGet": {"port": 80}},
                }
            ],
            "volumes": [{"name": "scratch"}, {"name": "cfg", "configMap": {"name": "cm"}}],
        },
    }
    default_object("pods", pod)
    spec = pod["spec"]
    container = spec["containers"][0]
    assert container["ports"] == [{"containerPort": 80, "protocol": "TCP"}]
    assert container["resources"]["requests"] == {"cpu": "500m", "memory": "1Gi"}
    assert container["env"][0]["valueFrom"]["fieldRef"]["apiVersion"] == "v1"
    assert container["readinessProbe"] == {
        "httpGet": {"port": 80, "path": "/", "scheme": "HTTP"},
        "timeoutSeconds": 1,
        "periodSeconds": 10,
        "successThreshold": 1,
        "failureThreshold": 3,
    }
    assert spec["volumes"] == [{"name": "scratch", "emptyDir": {}}, {"name": "cfg", "configMap": {"name": "cm", "defaultMode": 420}}]
    assert spec["enableServiceLinks"] is True
    for key, value in (("restartPolicy", "Always"), ("dnsPolicy", "ClusterFirst"), ("schedulerName", "default-scheduler")):
        assert spec[key] == value
    assert spec["terminationGracePeriodSeconds"] == 30
    assert spec["securityContext"] == {}


def test_pod_template_gets_no_pod_only_defaults():
    # SetDefaults_Pod (enableServiceLinks, requests from limits) is for Pods only.
    obj = workload()
    obj["spec"]["template"]["spec"]["containers"][0]["resources"] = {"limits": {"cpu": "1"}}
    default_object("deployments", obj)
    spec = obj["spec"]["template"]["spec"]
    assert "enableServiceLinks" not in spec
    assert "requests" not in spec["containers"][0]["resources"]


def test_host_network_ports():
    pod = {"spec": {"hostNetwork": True, "containers": [{"name": "c", "image": "i", "ports": [{"containerPort": 8080}]}]}}
    default_object("pods", pod)
    assert pod["spec"]["containers"][0]["ports"][0]["hostPort"] == 8080


SERVICE_CASES = [
    pytest.param(
        {"ports": [{"port": 80}]},
        {"ports": [{"port": 80, "protocol": "TCP", "targetPort": 80}], "sessionAffinity": "None", "type": "ClusterIP", "internalTrafficPolicy": "Cluster"},
        id="cluster-ip",
    ),
    pytest.param(
        {"type": "NodePort", "ports": [{"port": 80, "targetPort": "http", "protocol": "UDP"}]},
        {
            "type": "NodePort",
            "ports": [{"port": 80, "targetPort": "http", "protocol": "UDP"}],
            "sessionAffinity": "None",
            "externalTrafficPolicy": "Cluster",
            "internalTrafficPolicy": "Cluster",
        },
        id="node-port",
    ),
    pytest.param(
        {"type": "LoadBalancer", "ports": [{"port": 443, "targetPort": 0}]},
        {
            "type": "LoadBalancer",
            "ports": [{"port": 443, "targetPort": 443, "protocol": "TCP"}],
            "sessionAffinity": "None",
            "externalTrafficPolicy": "Cluster",
            "internalTrafficPolicy": "Cluster",
            "allocateLoadBalancerNodePorts": True,
        },
        id="load-balancer",
    ),
    pytest.param(
        {"type": "ExternalName", "externalName": "example.com", "sessionAffinity": "ClientIP"},
        {
            "type": "ExternalName",
            "externalName": "example.com",
            "sessionAffinity": "ClientIP",
            "sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 10800}},
        },
        id="external-name-client-ip",
    ),
]


@pytest.mark.parametrize("spec, expected", SERVICE_CASES)
def test_set_default_service(spec, expected):
    """Port of TestSetDefaultService and TestSetDefaultServiceSessionAffinityConfig (pkg/apis/core/v1/defaults_test.go)."""
    svc = {"metadata": {"name": "s"}, "spec": copy.deepcopy(spec)}
    default_object("services", svc)
    assert svc["spec"] == expected


def test_set_default_namespace():
    """Port of TestSetDefaultNamespace and TestSetDefaultNamespaceLabels (pkg/apis/core/v1/defaults_test.go)."""
    ns = {"metadata": {"name": "team-a", "labels": {"kubernetes.io/metadata.name": "wrong", "x": "y"}}}
    default_object("namespaces", ns)
    assert ns["status"] == {"phase": "Active"}
    assert ns["metadata"]["labels"] == {"kubernetes.io/metadata.name": "team-a", "x": "y"}


def test_namespace_without_name_gets_no_label():
    ns = {"metadata": {"generateName": "team-"}}
    default_object("namespaces", ns)
    assert "labels" not in ns["metadata"]
    assert ns["status"]["phase"] == "Active"


def test_set_default_persistent_volume_claim():
    """Port of TestSetDefaultPersistentVolumeClaim (pkg/apis/core/v1/defaults_test.go)."""
    pvc = {"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"]}}
    default_object("persistentvolumeclaims", pvc)
    assert pvc["spec"]["volumeMode"] == "Filesystem"
    assert pvc["status"]["phase"] == "Pending"


@pytest.mark.parametrize("resource", ["events", "leases", "controllerrevisions", "unknown"])
def test_resources_without_defaults_are_untouched(resource):
    obj = {"metadata": {"name": "x"}, "spec": {"holderIdentity": "a"}}
    before = copy.deepcopy(obj)
    default_object(resource, obj)
    assert obj == before


def test_defaulting_is_idempotent():
    obj = workload()
    default_object("deployments", obj)
    once = copy.deepcopy(obj)
    default_object("deployments", obj)
    assert obj == once


def test_stateful_set_max_unavailable_defaults_only_with_its_gate():
    # MaxUnavailableStatefulSet is beta and off by default at v1.36; with it on, maxUnavailable defaults to 1.
    from minikcm import features
    from minikcm.apiserver.defaults import default_object

    obj = {"metadata": {"name": "db"}, "spec": {}}
    with features.set_feature_gate_during_test(features.DEFAULT_FEATURE_GATE,
                                               features.MAX_UNAVAILABLE_STATEFUL_SET, True):
        default_object("statefulsets", obj)
    assert obj["spec"]["updateStrategy"]["rollingUpdate"] == {"partition": 0, "maxUnavailable": 1}
