"""Tests for seeding the embedded API server as given: APIServer.add_object and Registry.seed.

The seeding path is the port's tracker.Add. Controller tests build objects in a
state a controller would have left them in (an owner reference, generation 5,
a status with observedGeneration 4) and must find that state unchanged.
"""

from __future__ import annotations

import pytest

from minikcm.apimachinery import errors, watch
from minikcm.client.fake import new_simple_clientset

from .builders import deployment, drain, lease, namespace, pod, replica_set

OWNER = {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web", "uid": "uid-web",
         "controller": True, "blockOwnerDeletion": True}


def seeded_replica_set() -> dict:
    rs = replica_set("web-5d4", replicas=3)
    rs["metadata"].update(uid="uid-rs", generation=5, creationTimestamp="2020-01-02T03:04:05Z",
                          ownerReferences=[dict(OWNER)], resourceVersion="999",
                          annotations={"deployment.kubernetes.io/revision": "2"})
    rs["status"] = {"replicas": 3, "readyReplicas": 2, "observedGeneration": 4}
    return rs


def test_add_object_keeps_what_was_given(server):
    stored = server.add_object(seeded_replica_set())
    m = stored["metadata"]
    assert (m["uid"], m["generation"], m["creationTimestamp"]) == (
        "uid-rs", 5, "2020-01-02T03:04:05Z")
    assert m["ownerReferences"] == [OWNER]
    assert m["annotations"] == {"deployment.kubernetes.io/revision": "2"}
    assert stored["status"] == {"replicas": 3, "readyReplicas": 2, "observedGeneration": 4}
    assert server.get("replicasets", "default", "web-5d4") == stored


def test_add_object_assigns_fresh_growing_resource_versions(server):
    before = server.storage.resource_version
    first = server.add_object(seeded_replica_set())
    second = server.add_object(deployment("web"))
    assert int(first["metadata"]["resourceVersion"]) == before + 1  # the given "999" is dropped
    assert int(second["metadata"]["resourceVersion"]) == before + 2
    assert server.storage.resource_version == before + 2


FILLED_CASES = [
    #            object                     resource       generation  status
    pytest.param(deployment("d"),           "deployments", 1,          {},
                 id="deployment-gets-generation-1-and-empty-status"),
    pytest.param(pod("p"),                  "pods",        1,          {"phase": "Pending", "qosClass": "BestEffort"},
                 id="pod-gets-initial-status"),
    pytest.param(pod("r", phase="Running"), "pods",        1,          {"phase": "Running"},
                 id="pod-keeps-given-status"),
    pytest.param(lease("l", "default"),     "leases",      None,       None,
                 id="lease-has-neither"),
]


@pytest.mark.parametrize("obj, resource, generation, status", FILLED_CASES)
def test_add_object_fills_only_what_is_missing(server, fake_clock, obj, resource, generation, status):
    stored = server.add_object(obj)
    m = stored["metadata"]
    assert m["uid"] and m["creationTimestamp"] == fake_clock.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    assert m.get("generation") == generation
    assert stored.get("status") == status


def test_add_object_applies_defaults(server):
    stored = server.add_object(deployment("d"))
    assert stored["spec"]["strategy"]["type"] == "RollingUpdate"
    assert stored["spec"]["revisionHistoryLimit"] == 10


def test_add_object_keeps_deletion_state(server):
    obj = pod("dying", node="node-1")
    obj["metadata"].update(deletionTimestamp="2020-01-01T00:00:00Z", deletionGracePeriodSeconds=30,
                           finalizers=["example.com/hold"])
    m = server.add_object(obj)["metadata"]
    assert (m["deletionTimestamp"], m["deletionGracePeriodSeconds"], m["finalizers"]) == (
        "2020-01-01T00:00:00Z", 30, ["example.com/hold"])


def test_add_object_creates_missing_namespace_and_defaults_namespace(server):
    stored = server.add_object(pod("p", namespace="team-a"))
    assert stored["metadata"]["namespace"] == "team-a"
    assert server.get("namespaces", None, "team-a")["status"]["phase"] == "Active"
    no_ns = pod("q")
    del no_ns["metadata"]["namespace"]
    assert server.add_object(no_ns)["metadata"]["namespace"] == "default"


def test_add_object_emits_added_like_a_create(server):
    pods = server.watch("pods", "default", resource_version=str(server.storage.resource_version))
    namespaces = server.watch("namespaces", None, resource_version=str(server.storage.resource_version))
    server.add_object(pod("p"))
    server.add_object(pod("q", namespace="team-b"))
    assert [(t, o["metadata"]["name"]) for t, o in drain(pods)] == [(watch.ADDED, "p")]
    assert [(t, o["metadata"]["name"]) for t, o in drain(namespaces)] == [(watch.ADDED, "team-b")]


def test_add_object_twice_is_already_exists(server):
    server.add_object(seeded_replica_set())
    with pytest.raises(errors.StatusError) as info:
        server.add_object(seeded_replica_set())
    assert errors.is_already_exists(info.value)


def test_add_object_still_validates_and_stores_nothing(server):
    bad = deployment("bad", namespace="nowhere")
    bad["spec"]["replicas"] = -1
    before = server.storage.dump()
    with pytest.raises(errors.StatusError) as info:
        server.add_object(bad)
    assert errors.is_invalid(info.value)
    assert server.storage.dump() == before  # not even the namespace was created


BAD_REQUEST_CASES = [
    pytest.param({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}},
                 id="unserved-kind"),
    pytest.param({"metadata": {"name": "x"}}, id="no-type-meta"),
    pytest.param("not a dict", id="not-a-dict"),
]


@pytest.mark.parametrize("obj", BAD_REQUEST_CASES)
def test_add_object_refuses_unknown_types(server, obj):
    with pytest.raises(errors.StatusError) as info:
        server.add_object(obj)
    assert errors.is_bad_request(info.value)


def test_add_object_of_existing_namespace_is_already_exists(server):
    with pytest.raises(errors.StatusError) as info:
        server.add_object(namespace("default"))
    assert errors.is_already_exists(info.value)


# --- the fake clientset seeds through add_object ----------------------------------------------


def test_new_simple_clientset_keeps_owner_references_and_generations():
    rs = seeded_replica_set()
    owner = deployment("web")
    owner["metadata"].update(uid="uid-web", generation=7)
    owner["status"] = {"observedGeneration": 6, "replicas": 3}
    running = pod("web-5d4-abc", labels={"app": "web"}, node="node-1", phase="Running")
    running["metadata"]["ownerReferences"] = [
        {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-5d4", "uid": "uid-rs",
         "controller": True}]
    cs = new_simple_clientset(owner, rs, running, namespace("default"))
    assert cs.fake.actions() == []  # seeding records no actions

    got_rs = cs.apps_v1().replica_sets("default").get("web-5d4")
    assert got_rs.metadata.generation == 5 and got_rs.status.observed_generation == 4
    assert [(r.kind, r.name, r.uid, r.controller) for r in got_rs.metadata.owner_references] == [
        ("Deployment", "web", "uid-web", True)]
    got_d = cs.apps_v1().deployments("default").get("web")
    assert (got_d.metadata.uid, got_d.metadata.generation, got_d.status.observed_generation) == (
        "uid-web", 7, 6)
    got_pod = cs.core_v1().pods("default").get("web-5d4-abc")
    assert got_pod.status.phase == "Running"
    assert got_pod.metadata.owner_references[0].uid == "uid-rs"


def test_new_simple_clientset_seeds_models_into_new_namespaces():
    from kubernetes.client import V1ObjectMeta, V1Pod, V1PodSpec, V1Container

    model = V1Pod(metadata=V1ObjectMeta(name="p", namespace="team-c", uid="given", generation=3),
                  spec=V1PodSpec(containers=[V1Container(name="c", image="nginx")]))
    cs = new_simple_clientset(model)
    got = cs.core_v1().pods("team-c").get("p")
    assert (got.metadata.uid, got.metadata.generation) == ("given", 3)
    assert model.metadata.resource_version is None  # the caller's model is untouched
