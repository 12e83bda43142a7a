"""Tests for minikcm.apiserver.patch: the per-kind merge tables, JSON merge patch and JSON patch.

The strategic merge itself is tested against upstream's tables in
tests/apimachinery/strategicpatch/test_patch.py.
"""

from __future__ import annotations

import copy

import pytest

from minikcm.apiserver import patch as smp
from minikcm.apiserver.patch import (
    PatchError,
    apply_json_merge_patch,
    apply_json_patch,
    apply_strategic_merge_patch,
)


def test_unknown_kind_is_refused():
    with pytest.raises(PatchError, match="strategic merge patch format is not supported"):
        apply_strategic_merge_patch({}, {}, "Widget")


def test_decode_patch():
    assert smp.decode_patch(b'{"a": 1}') == {"a": 1}
    assert smp.decode_patch({"a": 1}) == {"a": 1}
    with pytest.raises(PatchError, match="invalid JSON document"):
        smp.decode_patch("<THIS IS NOT JSON>")


def test_strategic_merge_patch_rejects_non_objects():
    """Port of the "bad original"/"bad patch" rows of TestStrategicMergePatch."""
    with pytest.raises(PatchError, match="invalid JSON document"):
        apply_strategic_merge_patch([], {}, "Pod")
    with pytest.raises(PatchError, match="invalid JSON document"):
        apply_strategic_merge_patch({}, "<THIS IS NOT JSON>", "Pod")


# --- the API kinds: the patches kubectl and the Python client send ------------------------


def deployment(containers=None, **spec):
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "x", "namespace": "default", "labels": {"app": "x"}},
        "spec": {
            "replicas": 2,
            "selector": {"matchLabels": {"app": "x"}},
            "template": {
                "metadata": {"labels": {"app": "x"}},
                "spec": {"containers": containers if containers is not None else [{"name": "c", "image": "img:1"}]},
            },
            **spec,
        },
    }


def test_kubectl_set_image():
    # kubectl set image deployment/x c=img:2 (tooling.md, request log).
    original = deployment([{"name": "c", "image": "img:1"}, {"name": "side", "image": "s:1"}])
    patch = {"spec": {"template": {"spec": {
        "$setElementOrder/containers": [{"name": "c"}, {"name": "side"}],
        "containers": [{"image": "img:2", "name": "c"}],
    }}}}
    got = apply_strategic_merge_patch(original, patch, "Deployment")
    assert got["spec"]["template"]["spec"]["containers"] == [{"name": "c", "image": "img:2"}, {"name": "side", "image": "s:1"}]
    assert original["spec"]["template"]["spec"]["containers"][0]["image"] == "img:1"


def test_kubectl_apply_drops_ports_with_null():
    # Client-side apply: image img:1->img:3, replicas 2->4, ports removed (tooling.md).
    original = deployment([{"name": "c", "image": "img:1", "ports": [{"containerPort": 80, "protocol": "TCP"}]}])
    patch = {
        "metadata": {"annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}\n"}},
        "spec": {"replicas": 4, "template": {"spec": {
            "$setElementOrder/containers": [{"name": "c"}],
            "containers": [{"image": "img:3", "name": "c", "ports": None}],
        }}},
    }
    got = apply_strategic_merge_patch(original, patch, "Deployment")
    assert got["spec"]["replicas"] == 4
    assert got["spec"]["template"]["spec"]["containers"] == [{"name": "c", "image": "img:3"}]
    assert got["metadata"]["annotations"] == {"kubectl.kubernetes.io/last-applied-configuration": "{}\n"}
    assert got["metadata"]["labels"] == {"app": "x"}


def test_statefulset_rollout_undo_replaces_template():
    # kubectl rollout undo statefulset sends ControllerRevision.data verbatim.
    original = deployment([{"name": "c", "image": "pg:2", "env": [{"name": "A", "value": "1"}]}])
    original["kind"] = "StatefulSet"
    original["spec"]["template"]["metadata"]["annotations"] = {"restarted": "now"}
    patch = {"spec": {"template": {
        "metadata": {"labels": {"app": "x"}},
        "spec": {"containers": [{"image": "pg:1", "name": "c"}]},
        "$patch": "replace",
    }}}
    got = apply_strategic_merge_patch(original, patch, "StatefulSet")
    assert got["spec"]["template"] == {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": [{"image": "pg:1", "name": "c"}]}}
    assert got["spec"]["replicas"] == 2


def test_rollout_pause_and_resume():
    paused = apply_strategic_merge_patch(deployment(), {"spec": {"paused": True}}, "Deployment")
    assert paused["spec"]["paused"] is True
    resumed = apply_strategic_merge_patch(paused, {"spec": {"paused": None}}, "Deployment")
    assert "paused" not in resumed["spec"]


def test_retain_keys_on_deployment_strategy():
    # kubectl apply switching to Recreate sends $retainKeys so rollingUpdate is cleared.
    original = deployment(strategy={"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}})
    patch = {"spec": {"strategy": {"$retainKeys": ["type"], "type": "Recreate"}}}
    got = apply_strategic_merge_patch(original, patch, "Deployment")
    assert got["spec"]["strategy"] == {"type": "Recreate"}


KIND_MERGE_CASES = [
    pytest.param(
        "Pod",
        {"spec": {"containers": [{"name": "a", "image": "1"}, {"name": "b", "image": "1"}]}},
        {"spec": {"containers": [{"name": "b", "$patch": "delete"}]}},
        {"spec": {"containers": [{"name": "a", "image": "1"}]}},
        id="pod-delete-container-by-name",
    ),
    pytest.param(
        "Pod",
        {"spec": {"initContainers": [{"name": "i", "image": "1"}]}},
        {"spec": {"initContainers": [{"name": "j", "image": "2"}]}},
        {"spec": {"initContainers": [{"name": "j", "image": "2"}, {"name": "i", "image": "1"}]}},
        id="pod-init-containers-merge-by-name",
    ),
    pytest.param(
        "Deployment",
        {"spec": {"template": {"spec": {"containers": [{"name": "c", "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]}]}}}},
        {"spec": {"template": {"spec": {"containers": [{"name": "c", "env": [{"name": "B", "value": "3"}]}]}}}},
        {"spec": {"template": {"spec": {"containers": [{"name": "c", "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "3"}]}]}}}},
        id="deployment-env-merge-by-name",
    ),
    pytest.param(
        "ReplicaSet",
        {"spec": {"template": {"spec": {"containers": [{"name": "c", "ports": [{"containerPort": 80, "name": "http"}]}]}}}},
        {"spec": {"template": {"spec": {"containers": [{"name": "c", "ports": [{"containerPort": 443}]}]}}}},
        {"spec": {"template": {"spec": {"containers": [{"name": "c", "ports": [{"containerPort": 443}, {"containerPort": 80, "name": "http"}]}]}}}},
        id="replicaset-container-ports-merge-by-container-port",
    ),
    pytest.param(
        "StatefulSet",
        {"spec": {"template": {"spec": {"volumes": [{"name": "a", "emptyDir": {}}], "containers": [{"name": "c", "volumeMounts": [{"name": "a", "mountPath": "/a"}]}]}}}},
        {"spec": {"template": {"spec": {"volumes": [{"name": "b", "emptyDir": {}}], "containers": [{"name": "c", "volumeMounts": [{"name": "b", "mountPath": "/b"}]}]}}}},
        {"spec": {"template": {"spec": {"volumes": [{"name": "b", "emptyDir": {}}, {"name": "a", "emptyDir": {}}], "containers": [{"name": "c", "volumeMounts": [{"name": "b", "mountPath": "/b"}, {"name": "a", "mountPath": "/a"}]}]}}}},
        id="statefulset-volumes-and-volume-mounts-merge",
    ),
    pytest.param(
        "StatefulSet",
        {"spec": {"volumeClaimTemplates": [{"metadata": {"name": "data"}}, {"metadata": {"name": "logs"}}]}},
        {"spec": {"volumeClaimTemplates": [{"metadata": {"name": "data2"}}]}},
        {"spec": {"volumeClaimTemplates": [{"metadata": {"name": "data2"}}]}},
        id="statefulset-volume-claim-templates-replaced",
    ),
    pytest.param(
        "Pod",
        {"spec": {"tolerations": [{"key": "a", "operator": "Exists"}]}},
        {"spec": {"tolerations": [{"key": "b", "operator": "Exists"}]}},
        {"spec": {"tolerations": [{"key": "b", "operator": "Exists"}]}},
        id="pod-tolerations-replaced",
    ),
    pytest.param(
        "Pod",
        {"spec": {"imagePullSecrets": [{"name": "a"}]}},
        {"spec": {"imagePullSecrets": [{"name": "b"}]}},
        {"spec": {"imagePullSecrets": [{"name": "b"}, {"name": "a"}]}},
        id="pod-image-pull-secrets-merge-by-name",
    ),
    pytest.param(
        "Pod",
        {"metadata": {"ownerReferences": [{"uid": "1", "name": "rs-a", "controller": True}]}},
        {"metadata": {"ownerReferences": [{"uid": "2", "name": "rs-b"}]}},
        {"metadata": {"ownerReferences": [{"uid": "2", "name": "rs-b"}, {"uid": "1", "name": "rs-a", "controller": True}]}},
        id="owner-references-merge-by-uid",
    ),
    pytest.param(
        "Pod",
        {"metadata": {"ownerReferences": [{"uid": "1", "name": "rs-a"}, {"uid": "2", "name": "rs-b"}]}},
        {"metadata": {"ownerReferences": [{"$patch": "delete", "uid": "1"}]}},
        {"metadata": {"ownerReferences": [{"uid": "2", "name": "rs-b"}]}},
        id="owner-references-delete-by-uid",
    ),
    pytest.param(
        "Deployment",
        {"metadata": {"finalizers": ["a", "b"]}},
        {"metadata": {"finalizers": ["b", "c"]}},
        {"metadata": {"finalizers": ["a", "b", "c"]}},
        id="finalizers-set-merge",
    ),
    pytest.param(
        "Deployment",
        {"metadata": {"finalizers": ["a", "b"]}},
        {"metadata": {"$deleteFromPrimitiveList/finalizers": ["a"]}},
        {"metadata": {"finalizers": ["b"]}},
        id="finalizers-delete-from-primitive-list",
    ),
    pytest.param(
        "Deployment",
        {"status": {"conditions": [{"type": "Available", "status": "False"}, {"type": "Progressing", "status": "True"}]}},
        {"status": {"conditions": [{"type": "Available", "status": "True"}]}},
        {"status": {"conditions": [{"type": "Available", "status": "True"}, {"type": "Progressing", "status": "True"}]}},
        id="conditions-merge-by-type",
    ),
    pytest.param(
        "Service",
        {"spec": {"ports": [{"port": 80, "targetPort": 8080}]}},
        {"spec": {"ports": [{"port": 80, "targetPort": 9090}, {"port": 443}]}},
        {"spec": {"ports": [{"port": 80, "targetPort": 9090}, {"port": 443}]}},
        id="service-ports-merge-by-port",
    ),
    pytest.param(
        "Deployment",
        {"metadata": {"labels": {"a": "1", "b": "2"}}},
        {"metadata": {"labels": {"a": None, "c": "3"}}},
        {"metadata": {"labels": {"b": "2", "c": "3"}}},
        id="null-deletes-map-key",
    ),
    pytest.param(
        "deployments",
        {"spec": {"replicas": 1}},
        {"spec": {"replicas": 3}},
        {"spec": {"replicas": 3}},
        id="resource-name-accepted-as-kind",
    ),
    pytest.param(
        "Scale",
        {"spec": {"replicas": 1}, "status": {"replicas": 1}},
        {"spec": {"replicas": 5}},
        {"spec": {"replicas": 5}, "status": {"replicas": 1}},
        id="scale-subresource",
    ),
]


@pytest.mark.parametrize("kind, original, patch, expected", KIND_MERGE_CASES)
def test_strategic_merge_patch_by_kind(kind, original, patch, expected):
    before = copy.deepcopy(original)
    assert apply_strategic_merge_patch(original, patch, kind) == expected
    assert original == before


# --- JSON merge patch (RFC 7386) -------------------------------------------------------

JSON_MERGE_PATCH_CASES = [
    # The examples of RFC 7386 appendix A whose target is an object.
    pytest.param({"a": "b"}, {"a": "c"}, {"a": "c"}, id="rfc7386-replace-value"),
    pytest.param({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}, id="rfc7386-add-key"),
    pytest.param({"a": "b"}, {"a": None}, {}, id="rfc7386-remove-key"),
    pytest.param({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}, id="rfc7386-remove-one-of-two"),
    pytest.param({"a": ["b"]}, {"a": "c"}, {"a": "c"}, id="rfc7386-list-replaced-by-string"),
    pytest.param({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}, id="rfc7386-string-replaced-by-list"),
    pytest.param({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}, id="rfc7386-nested"),
    pytest.param({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}, id="rfc7386-lists-replaced-whole"),
    pytest.param({"e": None}, {"a": 1}, {"e": None, "a": 1}, id="rfc7386-null-in-target-kept"),
    pytest.param({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}, id="rfc7386-null-inside-new-object"),
    pytest.param({"spec": {"replicas": 2, "paused": True}}, {"spec": {"replicas": 5}}, {"spec": {"replicas": 5, "paused": True}}, id="kubectl-scale"),
]


@pytest.mark.parametrize("original, patch, expected", JSON_MERGE_PATCH_CASES)
def test_apply_json_merge_patch(original, patch, expected):
    before = copy.deepcopy(original)
    assert apply_json_merge_patch(original, patch) == expected
    assert original == before


def test_json_merge_patch_must_be_object():
    with pytest.raises(PatchError):
        apply_json_merge_patch({"a": 1}, ["not", "an", "object"])


# --- JSON patch (RFC 6902) ---------------------------------------------------------------


def test_apply_json_patch_rollout_undo():
    # kubectl rollout undo deployment (tooling.md): two replace operations.
    original = deployment()
    original["metadata"]["annotations"] = {"deployment.kubernetes.io/revision": "3"}
    template = {"metadata": {"labels": {"app": "x"}}, "spec": {"containers": [{"name": "c", "image": "img:1"}]}}
    ops = [
        {"op": "replace", "path": "/spec/template", "value": template},
        {"op": "replace", "path": "/metadata/annotations", "value": {"deployment.kubernetes.io/revision": "2"}},
    ]
    got = apply_json_patch(original, ops)
    assert got["spec"]["template"] == template
    assert got["metadata"]["annotations"] == {"deployment.kubernetes.io/revision": "2"}
    assert original["metadata"]["annotations"] == {"deployment.kubernetes.io/revision": "3"}


JSON_PATCH_ERROR_CASES = [
    pytest.param({"op": "replace", "path": "/spec/nope/deeper", "value": 1}, id="missing-path"),
    pytest.param({"op": "test", "path": "/spec/replicas", "value": 99}, id="failed-test-op"),
    pytest.param({"op": "frobnicate", "path": "/spec"}, id="unknown-op"),
    pytest.param({"op": "add", "value": 1}, id="no-path"),
    pytest.param({"path": "/spec"}, id="no-op"),
    pytest.param({"op": "replace", "path": "", "value": [1]}, id="root-becomes-list"),
]


@pytest.mark.parametrize("op", JSON_PATCH_ERROR_CASES)
def test_apply_json_patch_errors(op):
    with pytest.raises(PatchError):
        apply_json_patch(deployment(), [op])


def test_json_patch_must_be_a_list():
    with pytest.raises(PatchError, match="list of operations"):
        apply_json_patch({}, {"op": "add", "path": "/a", "value": 1})
