"""Tests for minikcm.apiserver.registry: the generic verbs, through the APIServer facade."""

from __future__ import annotations

import random

import pytest

from minikcm.apimachinery import errors
from minikcm.apiserver.registry import NAME_SUFFIX_ALPHABET, ensure_object_namespace_matches_request_namespace
from minikcm.apiserver.server import APIServer

from .builders import deployment, drain, event, lease, names, namespace, pod, replica_set

# --- create -----------------------------------------------------------------------------


def test_create_fills_system_metadata(server):
    d = server.create("deployments", "default", deployment())
    m = d["metadata"]
    assert m["creationTimestamp"] == "2026-01-01T00:00:00Z"
    assert len(m["uid"]) == 36 and m["generation"] == 1
    assert int(m["resourceVersion"]) == server.storage.resource_version
    assert d["status"] == {}
    assert d["spec"]["strategy"]["type"] == "RollingUpdate"  # defaulting ran


def test_create_returns_a_copy(server):
    d = server.create("deployments", "default", deployment())
    d["spec"]["replicas"] = 99
    assert server.get("deployments", "default", "web")["spec"]["replicas"] == 2


def test_create_drops_status_sent_by_the_client(server):
    rs = replica_set()
    rs["status"] = {"replicas": 7, "readyReplicas": 7}
    assert server.create("replicasets", "default", rs)["status"] == {"replicas": 0}


def test_create_existing_is_already_exists(server):
    server.create("deployments", "default", deployment())
    with pytest.raises(errors.StatusError) as info:
        server.create("deployments", "default", deployment())
    assert errors.is_already_exists(info.value)
    assert str(info.value) == 'deployments.apps "web" already exists'


def test_create_with_resource_version_is_refused(server):
    d = deployment()
    d["metadata"]["resourceVersion"] = "3"
    with pytest.raises(errors.StatusError, match="resourceVersion should not be set"):
        server.create("deployments", "default", d)


def test_create_in_missing_namespace_is_not_found(server):
    with pytest.raises(errors.StatusError) as info:
        server.create("pods", "nope", pod(namespace="nope"))
    assert errors.is_not_found(info.value)
    assert str(info.value) == 'namespaces "nope" not found'


def test_create_namespace_mismatch_is_bad_request(server):
    with pytest.raises(errors.StatusError) as info:
        server.create("pods", "default", pod(namespace="kube-system"))
    assert errors.is_bad_request(info.value)


def test_create_without_name_is_invalid(server):
    p = pod()
    del p["metadata"]["name"]
    with pytest.raises(errors.StatusError) as info:
        server.create("pods", "default", p)
    assert errors.is_invalid(info.value)


def test_create_refuses_another_kind(server):
    with pytest.raises(errors.StatusError, match="does not match the expected"):
        server.create("deployments", "default", pod())


def test_validation_errors_are_422(server):
    with pytest.raises(errors.StatusError) as info:
        server.create("deployments", "default", deployment(replicas=-1))
    assert errors.is_invalid(info.value)
    assert str(info.value).startswith('Deployment.apps "web" is invalid: ')
    assert "spec.replicas" in str(info.value)


ENSURE_NAMESPACE_CASES = [
    pytest.param("ns", {}, True, "ns", id="unset-takes-request"),
    pytest.param("ns", {"namespace": "ns"}, True, "ns", id="same"),
    pytest.param("", {"namespace": "ns"}, False, None, id="cluster-scoped-drops-it"),
]


@pytest.mark.parametrize("request_ns, meta, namespaced, want", ENSURE_NAMESPACE_CASES)
def test_ensure_object_namespace_matches_request_namespace(request_ns, meta, namespaced, want):
    obj = {"metadata": dict(meta)}
    ensure_object_namespace_matches_request_namespace(request_ns, obj, namespaced)
    assert obj["metadata"].get("namespace") == want


# --- generateName -----------------------------------------------------------------------


def test_generate_name_is_deterministic_with_a_seed(fake_clock):
    def run() -> list[str]:
        s = APIServer(clock=fake_clock, rng=random.Random(42))
        out = [s.create("pods", "default", {"metadata": {"generateName": "web-"},
                                             "spec": pod()["spec"]})["metadata"]["name"]
               for _ in range(3)]
        return out + [s.get("namespaces", None, "default")["metadata"]["uid"]]

    first, second = run(), run()
    assert first == second
    for name in first[:3]:
        assert name.startswith("web-") and len(name) == 9
        assert set(name[4:]) <= set(NAME_SUFFIX_ALPHABET)


def test_generate_name_cuts_long_bases(server):
    base = "x" * 70
    name = server.create("pods", "default", {"metadata": {"generateName": base},
                                             "spec": pod()["spec"]})["metadata"]["name"]
    assert len(name) == 63 and name.startswith("x" * 58)


def test_generate_name_retries_on_a_clash(fake_clock):
    probe = APIServer(clock=fake_clock, rng=random.Random(3))
    # The name the next generateName create would get, taken in advance.
    state = probe.rng.getstate()
    taken = probe.registry.generate_name("web-")
    probe.rng.setstate(state)
    probe.create("pods", "default", pod(taken))
    probe.rng.setstate(state)
    created = probe.create("pods", "default", {"metadata": {"generateName": "web-"},
                                               "spec": pod()["spec"]})
    assert created["metadata"]["name"] != taken


# --- update: optimistic concurrency -----------------------------------------------------


def test_stale_resource_version_is_a_conflict(server):
    d = server.create("deployments", "default", deployment())
    fresh = dict(d, spec={**d["spec"], "replicas": 3})
    server.update("deployments", "default", fresh)
    stale = dict(d, spec={**d["spec"], "replicas": 4})
    with pytest.raises(errors.StatusError) as info:
        server.update("deployments", "default", stale)
    assert errors.is_conflict(info.value)
    assert str(info.value) == (
        'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; '
        "please apply your changes to the latest version and try again")
    assert server.get("deployments", "default", "web")["spec"]["replicas"] == 3


def test_empty_resource_version_is_an_unconditional_update(server):
    d = server.create("deployments", "default", deployment())
    del d["metadata"]["resourceVersion"]
    d["spec"]["replicas"] = 5
    assert server.update("deployments", "default", d)["spec"]["replicas"] == 5


def test_leases_need_a_resource_version(server):
    server.create("leases", "kube-system", lease())
    with pytest.raises(errors.StatusError) as info:
        server.update("leases", "kube-system", lease(holder="b"))
    assert errors.is_invalid(info.value)
    assert str(info.value) == ('leases.coordination.k8s.io "kcm" is invalid: metadata.resourceVersion: '
                               "Invalid value: 0: must be specified for an update")


def test_update_with_another_uid_is_a_conflict(server):
    d = server.create("deployments", "default", deployment())
    d["metadata"]["uid"] = "someone-else"
    with pytest.raises(errors.StatusError) as info:
        server.update("deployments", "default", d)
    assert errors.is_conflict(info.value)
    assert "Precondition failed: UID in precondition: someone-else" in str(info.value)


def test_update_missing_is_not_found(server):
    with pytest.raises(errors.StatusError) as info:
        server.update("deployments", "default", deployment())
    assert str(info.value) == 'deployments.apps "web" not found'


def test_events_are_created_on_update(server):
    created = server.update("events", "default", event("e1", "Pod", "p"))
    assert created["metadata"]["uid"]
    assert server.get("events", "default", "e1")["reason"] == "Created"


def test_noop_update_writes_nothing(server):
    d = server.create("deployments", "default", deployment())
    w = server.watch("deployments", "default", resource_version=d["metadata"]["resourceVersion"])
    again = server.update("deployments", "default", d)
    assert again["metadata"]["resourceVersion"] == d["metadata"]["resourceVersion"]
    assert drain(w) == []


# --- generation, status -----------------------------------------------------------------

GENERATION_CASES = [
    pytest.param("deployments", lambda o: o["spec"].update(replicas=9), 2, id="deployment-spec"),
    pytest.param("deployments", lambda o: o["metadata"].update(annotations={"a": "b"}), 2,
                 id="deployment-annotations"),
    pytest.param("deployments", lambda o: o["metadata"]["labels"].update(x="y"), 1,
                 id="deployment-labels-no-bump"),
    pytest.param("replicasets", lambda o: o["spec"].update(replicas=9), 2, id="rs-spec"),
    pytest.param("replicasets", lambda o: o["metadata"].update(annotations={"a": "b"}), 1,
                 id="rs-annotations-no-bump"),
    pytest.param("deployments", lambda o: o.update(status={"replicas": 3}), 1,
                 id="status-change-ignored"),
]


@pytest.mark.parametrize("resource, change, want", GENERATION_CASES)
def test_generation_bumps_on_spec_change(server, resource, change, want):
    build = deployment if resource == "deployments" else replica_set
    obj = server.create(resource, "default", build())
    change(obj)
    assert server.update(resource, "default", obj)["metadata"]["generation"] == want


def test_main_resource_ignores_status(server):
    d = server.create("deployments", "default", deployment())
    d["status"] = {"replicas": 2}
    assert server.update("deployments", "default", d)["status"] == {}


def test_status_subresource_ignores_spec_and_keeps_generation(server):
    d = server.create("deployments", "default", deployment())
    d["spec"]["replicas"] = 7
    d["metadata"]["labels"] = {"changed": "yes"}
    d["status"] = {"replicas": 2, "observedGeneration": 1}
    out = server.update("deployments", "default", d, subresource="status")
    assert out["status"] == {"replicas": 2, "observedGeneration": 1}
    assert out["spec"]["replicas"] == 2 and out["metadata"]["generation"] == 1
    assert out["metadata"]["labels"] == {"app": "web"}  # deployment status keeps labels


def test_pod_status_keeps_owner_references(server):
    p = pod()
    p["metadata"]["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                         "name": "rs", "uid": "u1", "controller": True}]
    created = server.create("pods", "default", p)
    created["metadata"]["ownerReferences"] = []
    created["status"] = {"phase": "Running"}
    out = server.update("pods", "default", created, subresource="status")
    assert out["status"]["phase"] == "Running" and out["status"]["qosClass"] == "BestEffort"
    assert out["metadata"]["ownerReferences"][0]["uid"] == "u1"


def test_status_of_a_resource_without_one_is_not_found(server):
    server.create("leases", "kube-system", lease())
    with pytest.raises(errors.StatusError) as info:
        server.update("leases", "kube-system", lease(), subresource="status")
    assert errors.is_not_found(info.value)


# --- list -------------------------------------------------------------------------------


def test_list_carries_resource_version_and_kind(server):
    server.create("pods", "default", pod("a"))
    server.create("pods", "kube-system", pod("b", "kube-system"))
    out = server.list("pods", "")
    assert out["kind"] == "PodList" and out["apiVersion"] == "v1"
    assert out["metadata"]["resourceVersion"] == str(server.storage.resource_version)
    assert [i["metadata"]["name"] for i in out["items"]] == ["a", "b"]
    assert [i["metadata"]["name"] for i in server.list("pods", "kube-system")["items"]] == ["b"]


def test_list_orders_by_etcd_key(server):
    server.create("namespaces", None, namespace("a-b"))
    server.create("namespaces", None, namespace("a"))
    server.create("pods", "a", pod("x", "a"))
    server.create("pods", "a-b", pod("y", "a-b"))
    assert [i["metadata"]["namespace"] for i in server.list("pods", None)["items"]] == ["a-b", "a"]


def test_list_pages_with_continue(server):
    for n in "abcde":
        server.create("pods", "default", pod(n))
    first = server.list("pods", "default", limit=2)
    assert [i["metadata"]["name"] for i in first["items"]] == ["a", "b"]
    assert first["metadata"]["remainingItemCount"] == 3
    second = server.list("pods", "default", limit=2, continue_=first["metadata"]["continue"])
    assert [i["metadata"]["name"] for i in second["items"]] == ["c", "d"]
    third = server.list("pods", "default", limit=2, continue_=second["metadata"]["continue"])
    assert [i["metadata"]["name"] for i in third["items"]] == ["e"]
    assert "continue" not in third["metadata"]
    assert third["metadata"]["resourceVersion"] == first["metadata"]["resourceVersion"]


def test_continue_after_writes_pages_the_first_pages_snapshot(server):
    for n in "abcd":
        server.create("pods", "default", pod(n))
    first = server.list("pods", "default", limit=1)
    server.create("pods", "default", pod("bb"))  # created after the first page: not in the snapshot
    server.delete("pods", "default", "c")  # deleted after: still listed, as it was
    server.update("pods", "default", {**server.get("pods", "default", "d"),
                                      "metadata": {**server.get("pods", "default", "d")["metadata"],
                                                   "labels": {"changed": "yes"}}})
    rest = server.list("pods", "default", continue_=first["metadata"]["continue"])
    assert [i["metadata"]["name"] for i in rest["items"]] == ["b", "c", "d"]
    assert (rest["items"][2]["metadata"].get("labels") or {}).get("changed") is None  # as it was
    assert rest["metadata"]["resourceVersion"] == first["metadata"]["resourceVersion"]


def test_continue_past_the_history_window_is_expired(server):
    for n in "abc":
        server.create("pods", "default", pod(n))
    first = server.list("pods", "default", limit=1)
    for i in range(server.storage.history_window + 1):  # every event after the first page leaves the window
        server.create("pods", "default", pod(f"z{i}"))
    with pytest.raises(errors.StatusError) as info:
        server.list("pods", "default", limit=1, continue_=first["metadata"]["continue"])
    assert errors.is_resource_expired(info.value)
    assert "too old to display a consistent list result" in str(info.value)


def test_list_from_a_future_resource_version_is_refused(server):
    with pytest.raises(errors.StatusError) as info:
        server.list("pods", "default", resource_version="999")
    assert errors.is_timeout(info.value)
    assert errors.has_status_cause(info.value, errors.CAUSE_TYPE_RESOURCE_VERSION_TOO_LARGE)


# --- delete -----------------------------------------------------------------------------


def test_background_delete_removes_and_answers_status(server):
    d = server.create("deployments", "default", deployment())
    out = server.delete("deployments", "default", "web")
    assert out == {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
                   "details": {"name": "web", "group": "apps", "kind": "deployments",
                               "uid": d["metadata"]["uid"]}}
    with pytest.raises(errors.StatusError):
        server.get("deployments", "default", "web")


@pytest.mark.parametrize("policy, finalizer", [
    pytest.param("Foreground", "foregroundDeletion", id="foreground"),
    pytest.param("Orphan", "orphan", id="orphan"),
])
def test_propagation_policy_adds_gc_finalizer(server, policy, finalizer):
    server.create("deployments", "default", deployment())
    out = server.delete("deployments", "default", "web", propagation_policy=policy)
    m = out["metadata"]
    assert m["finalizers"] == [finalizer]
    assert m["deletionTimestamp"] == "2026-01-01T00:00:00Z"
    assert m["deletionGracePeriodSeconds"] == 0 and m["generation"] == 2
    assert server.get("deployments", "default", "web")["metadata"]["finalizers"] == [finalizer]


def test_removing_the_last_finalizer_deletes(server):
    d = deployment()
    d["metadata"]["finalizers"] = ["example.com/hold"]
    server.create("deployments", "default", d)
    marked = server.delete("deployments", "default", "web")
    assert marked["metadata"]["deletionTimestamp"]
    w = server.watch("deployments", "default", resource_version=marked["metadata"]["resourceVersion"])
    marked["metadata"]["finalizers"] = []
    server.update("deployments", "default", marked)
    assert names(drain(w)) == [("DELETED", "web")]
    with pytest.raises(errors.StatusError):
        server.get("deployments", "default", "web")


def test_update_cannot_clear_deletion_timestamp(server):
    d = deployment()
    d["metadata"]["finalizers"] = ["example.com/hold", "example.com/other"]
    server.create("deployments", "default", d)
    marked = server.delete("deployments", "default", "web")
    marked["metadata"].pop("deletionTimestamp")
    marked["metadata"]["finalizers"] = ["example.com/other"]
    out = server.update("deployments", "default", marked)
    assert out["metadata"]["deletionTimestamp"] == "2026-01-01T00:00:00Z"


PRECONDITION_CASES = [
    pytest.param({"uid": "other"}, "the UID in the precondition (other) does not match", id="uid"),
    pytest.param({"resourceVersion": "1"}, "the ResourceVersion in the precondition (1) does not match",
                 id="resource-version"),
]


@pytest.mark.parametrize("preconditions, message", PRECONDITION_CASES)
def test_delete_preconditions(server, preconditions, message):
    server.create("deployments", "default", deployment())
    with pytest.raises(errors.StatusError) as info:
        server.delete("deployments", "default", "web", preconditions=preconditions)
    assert errors.is_conflict(info.value)
    assert str(info.value).startswith('Operation cannot be fulfilled on Deployment.apps "web": ' + message)
    assert server.get("deployments", "default", "web")


def test_delete_preconditions_that_match(server):
    d = server.create("deployments", "default", deployment())
    m = d["metadata"]
    server.delete("deployments", "default", "web",
                  preconditions={"uid": m["uid"], "resourceVersion": m["resourceVersion"]})


def test_unknown_propagation_policy_is_invalid(server):
    server.create("deployments", "default", deployment())
    with pytest.raises(errors.StatusError) as info:
        server.delete("deployments", "default", "web", propagation_policy="Sideways")
    assert errors.is_invalid(info.value)
    assert "propagationPolicy" in str(info.value)


def test_scheduled_pod_is_only_marked(server, fake_clock):
    server.create("pods", "default", pod(node="node-1"))
    out = server.delete("pods", "default", "p")
    m = out["metadata"]
    assert m["deletionTimestamp"] == "2026-01-01T00:00:30Z"
    assert m["deletionGracePeriodSeconds"] == 30 and m["generation"] == 2
    # Asking again with a longer period changes nothing.
    again = server.delete("pods", "default", "p", grace_period_seconds=60)
    assert again["metadata"]["resourceVersion"] == m["resourceVersion"]
    # The kubelet's final delete.
    fake_clock.step(5)
    w = server.watch("pods", "default", resource_version=m["resourceVersion"])
    server.delete("pods", "default", "p", grace_period_seconds=0)
    events = drain(w)
    assert [t for t, _ in events] == ["MODIFIED", "DELETED"]
    assert events[0][1]["metadata"]["deletionTimestamp"] == "2026-01-01T00:00:05Z"


@pytest.mark.parametrize("node, grace, phase", [
    pytest.param(None, None, None, id="unscheduled"),
    pytest.param("node-1", 0, None, id="grace-zero"),
    pytest.param("node-1", None, "Succeeded", id="finished"),
])
def test_pods_deleted_at_once(server, node, grace, phase):
    created = server.create("pods", "default", pod(node=node))
    if phase:
        created["status"]["phase"] = phase
        server.update("pods", "default", created, subresource="status")
    out = server.delete("pods", "default", "p", grace_period_seconds=grace)
    assert out["kind"] == "Pod"  # pods answer with the deleted object
    with pytest.raises(errors.StatusError):
        server.get("pods", "default", "p")


def test_delete_collection(server):
    server.create("pods", "default", pod("a", labels={"app": "x"}))
    server.create("pods", "default", pod("b", labels={"app": "y"}))
    out = server.delete_collection("pods", "default", label_selector="app=x")
    assert [i["metadata"]["name"] for i in out["items"]] == ["a"]
    assert [i["metadata"]["name"] for i in server.list("pods", "default")["items"]] == ["b"]


# --- dry run ------------------------------------------------------------------------------


def test_dry_run_stores_nothing(server):
    before = server.storage.dump()
    created = server.create("deployments", "default", deployment(), dry_run=True)
    assert created["metadata"]["uid"] and created["spec"]["strategy"]
    assert server.storage.dump() == before
    server.create("deployments", "default", deployment())
    before = server.storage.dump()
    d = server.get("deployments", "default", "web")
    d["spec"]["replicas"] = 9
    assert server.update("deployments", "default", d, dry_run=True)["metadata"]["generation"] == 2
    server.patch("deployments", "default", "web", "application/merge-patch+json",
                 {"spec": {"replicas": 4}}, dry_run=True)
    server.delete("deployments", "default", "web", dry_run=True)
    server.delete("deployments", "default", "web", propagation_policy="Foreground", dry_run=True)
    assert server.storage.dump() == before


def test_dry_run_still_validates(server):
    with pytest.raises(errors.StatusError):
        server.create("deployments", "default", deployment(replicas=-1), dry_run=True)


# --- namespaces ---------------------------------------------------------------------------


def test_initial_namespaces(server):
    listed = [i["metadata"]["name"] for i in server.list("namespaces", None)["items"]]
    assert listed == ["default", "kube-node-lease", "kube-public", "kube-system"]
    ns = server.get("namespaces", None, "default")
    assert ns["status"] == {"phase": "Active"} and ns["spec"]["finalizers"] == ["kubernetes"]
