"""Tests for minikcm.client.typed: the typed clients, over the in-process transport and a real embedded APIServer."""

from __future__ import annotations

import json

import pytest
from kubernetes.client import (
    CoreV1Event,
    V1Binding,
    V1ControllerRevision,
    V1Deployment,
    V1DeploymentList,
    V1Lease,
    V1LeaseSpec,
    V1Namespace,
    V1ObjectMeta,
    V1ObjectReference,
    V1Pod,
    V1PodList,
    V1ReplicaSet,
    V1Scale,
    V1ScaleSpec,
    V1StatefulSet,
)

from minikcm.apimachinery import errors, watch
from minikcm.apimachinery.meta import (
    DELETE_PROPAGATION_BACKGROUND,
    DRY_RUN_ALL,
    CreateOptions,
    DeleteOptions,
    GetOptions,
    ListOptions,
    PatchOptions,
    Preconditions,
    UpdateOptions,
)
from minikcm.apimachinery.types import (
    APPLY_PATCH_TYPE,
    JSON_PATCH_TYPE,
    MERGE_PATCH_TYPE,
    STRATEGIC_MERGE_PATCH_TYPE,
)
from minikcm.apimachinery.schema import resource_info
from minikcm.client.inprocess import InProcessClientset
from minikcm.client.testing import Fake
from minikcm.client.typed import Clientset, ModelResultChan, ModelWatcher

from .objects import new_deployment, new_pod, new_replica_set, new_stateful_set

# --- create / get / list / update / delete --------------------------------------------------


def test_create_returns_model_with_server_filled_fields(cs):
    created = cs.apps_v1().deployments("default").create(new_deployment("web", 2))
    assert isinstance(created, V1Deployment)
    assert (created.api_version, created.kind) == ("apps/v1", "Deployment")
    meta = created.metadata
    assert meta.uid and meta.resource_version and meta.creation_timestamp is not None
    assert meta.generation == 1
    assert created.spec.strategy.type == "RollingUpdate"  # defaulted by the server
    assert created.spec.revision_history_limit == 10


def test_create_leaves_callers_object_alone(cs):
    d = new_deployment("web")
    cs.apps_v1().deployments("default").create(d)
    assert d.api_version is None and d.kind is None and d.metadata.uid is None


def test_create_accepts_wire_dict_and_fills_type_meta(cs):
    body = {"metadata": {"name": "p"},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}}
    created = cs.core_v1().pods("default").create(body)
    assert isinstance(created, V1Pod)
    assert created.metadata.namespace == "default"
    assert "apiVersion" not in body  # the caller's dict is not changed


def test_get_update_delete_round_trip(cs):
    client = cs.apps_v1().deployments("default")
    created = client.create(new_deployment("web", 1))
    got = client.get("web")
    assert got == created
    got.spec.replicas = 4
    updated = client.update(got)
    assert updated.spec.replicas == 4
    assert updated.metadata.generation == 2
    assert int(updated.metadata.resource_version) > int(created.metadata.resource_version)
    client.delete("web")
    with pytest.raises(errors.StatusError) as info:
        client.get("web")
    assert errors.is_not_found(info.value)


def test_stale_update_is_conflict(cs):
    client = cs.apps_v1().replica_sets("default")
    first = client.create(new_replica_set("rs"))
    second = client.get("rs")
    second.spec.replicas = 2
    client.update(second)
    first.spec.replicas = 3
    with pytest.raises(errors.StatusError) as info:
        client.update(first)
    assert errors.is_conflict(info.value)
    assert client.get("rs").spec.replicas == 2


def test_create_twice_is_already_exists(cs):
    cs.core_v1().pods("default").create(new_pod("p"))
    with pytest.raises(errors.StatusError) as info:
        cs.core_v1().pods("default").create(new_pod("p"))
    assert errors.is_already_exists(info.value)


def test_list_returns_list_model(cs):
    pods = cs.core_v1().pods("default")
    for name, app in (("a", "web"), ("b", "db"), ("c", "web")):
        pods.create(new_pod(name, labels={"app": app}))
    cs.core_v1().pods("kube-system").create(new_pod("d", "kube-system", {"app": "web"}))

    listed = pods.list()
    assert isinstance(listed, V1PodList)
    assert [p.metadata.name for p in listed.items] == ["a", "b", "c"]
    assert listed.metadata.resource_version
    selected = pods.list(ListOptions(label_selector="app=web"))
    assert [p.metadata.name for p in selected.items] == ["a", "c"]
    everywhere = cs.core_v1().pods("").list(ListOptions(label_selector="app=web"))
    assert sorted(p.metadata.name for p in everywhere.items) == ["a", "c", "d"]
    by_name = pods.list(ListOptions(field_selector="metadata.name=b"))
    assert [p.metadata.name for p in by_name.items] == ["b"]


def test_delete_with_stale_uid_precondition_is_conflict(cs):
    cs.core_v1().pods("default").create(new_pod("p"))
    opts = DeleteOptions(preconditions=Preconditions(uid="not-the-uid"))
    with pytest.raises(errors.StatusError) as info:
        cs.core_v1().pods("default").delete("p", opts)
    assert errors.is_conflict(info.value)
    cs.core_v1().pods("default").delete("p", DeleteOptions(
        propagation_policy=DELETE_PROPAGATION_BACKGROUND))


def test_delete_collection_by_label(cs):
    pods = cs.core_v1().pods("default")
    for name, app in (("a", "web"), ("b", "db")):
        pods.create(new_pod(name, labels={"app": app}))
    pods.delete_collection(DeleteOptions(), ListOptions(label_selector="app=web"))
    assert [p.metadata.name for p in pods.list().items] == ["b"]


def test_dry_run_create_stores_nothing(cs):
    created = cs.core_v1().pods("default").create(new_pod("p"), CreateOptions(dry_run=[DRY_RUN_ALL]))
    assert created.metadata.name == "p"
    assert cs.core_v1().pods("default").list().items == []


def test_cluster_scoped_namespaces(cs):
    created = cs.core_v1().namespaces().create(V1Namespace(metadata=V1ObjectMeta(name="team-a")))
    assert created.metadata.namespace is None
    names = [ns.metadata.name for ns in cs.core_v1().namespaces().list().items]
    assert {"default", "kube-system", "team-a"} <= set(names)


def test_write_to_missing_namespace_is_refused(cs):
    with pytest.raises(errors.StatusError):
        cs.core_v1().pods("nowhere").create(new_pod("p", "nowhere"))


# --- every typed client reaches its resource and returns its model ----------------------------


def make_lease(name):
    return V1Lease(metadata=V1ObjectMeta(name=name), spec=V1LeaseSpec(holder_identity="me"))


def make_revision(name):
    return V1ControllerRevision(metadata=V1ObjectMeta(name=name), revision=1, data={"x": 1})


def make_event(name):
    return CoreV1Event(metadata=V1ObjectMeta(name=name), reason="Tested",
                       involved_object=V1ObjectReference(kind="Pod", name="p", namespace="default"))


TYPED_CLIENT_CASES = [
    pytest.param(lambda cs: cs.core_v1().pods("default"), lambda: new_pod("x"), V1Pod, id="pods"),
    pytest.param(lambda cs: cs.core_v1().events("default"), lambda: make_event("x"), CoreV1Event,
                 id="events"),
    pytest.param(lambda cs: cs.apps_v1().deployments("default"), lambda: new_deployment("x"),
                 V1Deployment, id="deployments"),
    pytest.param(lambda cs: cs.apps_v1().replica_sets("default"), lambda: new_replica_set("x"),
                 V1ReplicaSet, id="replicasets"),
    pytest.param(lambda cs: cs.apps_v1().stateful_sets("default"), lambda: new_stateful_set("x"),
                 V1StatefulSet, id="statefulsets"),
    pytest.param(lambda cs: cs.apps_v1().controller_revisions("default"), lambda: make_revision("x"),
                 V1ControllerRevision, id="controllerrevisions"),
    pytest.param(lambda cs: cs.coordination_v1().leases("default"), lambda: make_lease("x"), V1Lease,
                 id="leases"),
]


@pytest.mark.parametrize("client_of, make, model", TYPED_CLIENT_CASES)
def test_typed_client_round_trip(cs, client_of, make, model):
    client = client_of(cs)
    created = client.create(make())
    assert type(created) is model
    assert created.metadata.namespace == "default"
    assert client.get("x") == created
    listed = client.list()
    assert type(listed) is resource_info(client.resource).list_model
    assert [item.metadata.name for item in listed.items] == ["x"]


# --- status and scale subresources ----------------------------------------------------------


def test_update_status_changes_only_status(cs):
    client = cs.apps_v1().replica_sets("default")
    rs = client.create(new_replica_set("rs", 3))
    rs.status.replicas = 3
    rs.status.ready_replicas = 2
    rs.spec.replicas = 9  # ignored through the status subresource
    updated = client.update_status(rs)
    assert (updated.status.replicas, updated.status.ready_replicas) == (3, 2)
    assert updated.spec.replicas == 3
    assert updated.metadata.generation == 1


def test_update_ignores_status(cs):
    client = cs.core_v1().pods("default")
    pod = client.create(new_pod("p"))
    pod.status.phase = "Running"
    assert client.update(pod).status.phase != "Running"


SCALE_CASES = [
    pytest.param(lambda cs: cs.apps_v1().deployments("default"), new_deployment, id="deployments"),
    pytest.param(lambda cs: cs.apps_v1().replica_sets("default"), new_replica_set, id="replicasets"),
    pytest.param(lambda cs: cs.apps_v1().stateful_sets("default"), new_stateful_set,
                 id="statefulsets"),
]


@pytest.mark.parametrize("client_of, make", SCALE_CASES)
def test_get_and_update_scale(cs, client_of, make):
    client = client_of(cs)
    client.create(make("s", 2))
    scale = client.get_scale("s")
    assert isinstance(scale, V1Scale)
    assert (scale.kind, scale.spec.replicas, scale.metadata.name) == ("Scale", 2, "s")
    scale.spec.replicas = 5
    updated = client.update_scale("s", scale)
    assert isinstance(updated, V1Scale) and updated.spec.replicas == 5
    assert client.get("s").spec.replicas == 5


def test_update_scale_fills_in_name(cs):
    client = cs.apps_v1().deployments("default")
    client.create(new_deployment("d", 1))
    rv = client.get_scale("d").metadata.resource_version
    scale = V1Scale(metadata=V1ObjectMeta(resource_version=rv), spec=V1ScaleSpec(replicas=3))
    assert client.update_scale("d", scale).spec.replicas == 3


# --- patch ------------------------------------------------------------------------------------

PATCH_CASES = [
    pytest.param(MERGE_PATCH_TYPE, {"metadata": {"labels": {"tier": "front"}}},
                 lambda d: d.metadata.labels["tier"] == "front", id="merge-patch"),
    pytest.param(MERGE_PATCH_TYPE, b'{"spec": {"replicas": 7}}',
                 lambda d: d.spec.replicas == 7, id="merge-patch-bytes"),
    pytest.param(JSON_PATCH_TYPE, '[{"op": "replace", "path": "/spec/replicas", "value": 4}]',
                 lambda d: d.spec.replicas == 4, id="json-patch-str"),
    pytest.param(STRATEGIC_MERGE_PATCH_TYPE,
                 {"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:2"}]}}}},
                 lambda d: [(c.name, c.image) for c in d.spec.template.spec.containers]
                 == [("web", "nginx:2")], id="strategic-merge-by-container-name"),
    pytest.param(STRATEGIC_MERGE_PATCH_TYPE,
                 {"spec": {"template": {"spec": {"containers": [{"name": "side", "image": "busybox"}]}}}},
                 lambda d: [c.name for c in d.spec.template.spec.containers] == ["side", "web"]
                 or [c.name for c in d.spec.template.spec.containers] == ["web", "side"],
                 id="strategic-merge-adds-container"),
]


@pytest.mark.parametrize("pt, data, check", PATCH_CASES)
def test_patch(cs, pt, data, check):
    client = cs.apps_v1().deployments("default")
    client.create(new_deployment("web", 1))
    patched = client.patch("web", pt, data)
    assert isinstance(patched, V1Deployment)
    assert check(patched)
    assert check(client.get("web"))


def test_apply_patch_creates_when_absent(cs):
    body = new_deployment("applied", 2).model_dump(by_alias=True, exclude_none=True, mode="json")
    body.update(apiVersion="apps/v1", kind="Deployment")
    client = cs.apps_v1().deployments("default")
    created = client.patch("applied", APPLY_PATCH_TYPE, json.dumps(body),
                           PatchOptions(field_manager="test", force=True))
    assert created.spec.replicas == 2
    assert client.get("applied").metadata.uid == created.metadata.uid


def test_patch_status_subresource(cs):
    client = cs.apps_v1().deployments("default")
    client.create(new_deployment("web", 1))
    patched = client.patch("web", MERGE_PATCH_TYPE, {"status": {"replicas": 1}}, None, "status")
    assert patched.status.replicas == 1


def test_patch_scale_subresource_returns_scale(cs):
    client = cs.apps_v1().replica_sets("default")
    client.create(new_replica_set("rs", 1))
    scale = client.patch("rs", MERGE_PATCH_TYPE, {"spec": {"replicas": 6}}, None, "scale")
    assert isinstance(scale, V1Scale) and scale.spec.replicas == 6


def test_patch_with_missing_object():
    """Port of TestPatchWithMissingObject (testing/fixture_test.go), against the server."""
    from minikcm.apiserver.server import APIServer

    cs = InProcessClientset(APIServer())
    with pytest.raises(errors.StatusError) as info:
        cs.core_v1().pods("default").patch("node-1", STRATEGIC_MERGE_PATCH_TYPE, b"{}")
    assert errors.is_not_found(info.value)
    assert str(info.value) == 'pods "node-1" not found'


# --- watch ------------------------------------------------------------------------------------


def drain(w: watch.Interface) -> list[tuple[str, str]]:
    out = []
    while True:
        try:
            event = w.result_chan().recv(timeout=0)
        except Exception:  # queue.Empty: nothing more pending
            return out
        if event is None:
            return out
        out.append((event.type, event.object.metadata.name))


def test_watch_call_non_namespace(cs):
    """Port of TestWatchCallNonNamespace (testing/fixture_test.go)."""
    w = cs.core_v1().pods("default").watch()
    created = cs.core_v1().pods("default").create(new_pod("test-name"))
    event = w.result_chan().recv(timeout=0)
    assert event.type == watch.ADDED
    assert event.object == created


def new_lease(name: str, namespace: str = "default") -> V1Lease:
    return V1Lease(metadata=V1ObjectMeta(name=name, namespace=namespace))


def test_watch_call_all_namespace(cs):
    """Port of TestWatchCallAllNamespace (testing/fixture_test.go).

    Leases, not pods: a pod delete first marks the pod (MODIFIED) and the
    kubelet removes it later, while a lease goes at once, as the tracker's objects do.
    """
    w = cs.coordination_v1().leases("default").watch()
    w_all = cs.coordination_v1().leases("").watch()
    leases = cs.coordination_v1().leases("default")
    created = leases.create(new_lease("l"))
    created.metadata.labels = {"x": "y"}
    updated = leases.update(created)
    leases.delete("l")
    for each in (w, w_all):
        events = [each.result_chan().recv(timeout=0) for _ in range(3)]
        assert [e.type for e in events] == [watch.ADDED, watch.MODIFIED, watch.DELETED]
        assert all(isinstance(e.object, V1Lease) for e in events)
        assert events[1].object == updated


WATCH_CALL_MULTIPLE_INVOCATION_CASES = [
    # op         name   namespace
    ("added",    "foo", "default"),
    ("added",    "bar", "default"),
    ("added",    "baz", "kube-system"),
    ("modified", "bar", "default"),
    ("modified", "baz", "kube-system"),
    ("deleted",  "foo", "default"),
    ("deleted",  "bar", "default"),
    ("deleted",  "baz", "kube-system"),
]


def test_watch_call_multiple_invocation(cs):
    """Port of TestWatchCallMultipleInvocation (testing/fixture_test.go): four watchers, two scopes."""
    watchers = [(ns, cs.coordination_v1().leases(ns).watch())
                for ns in ("", "", "default", "default")]
    for op, name, ns in WATCH_CALL_MULTIPLE_INVOCATION_CASES:
        leases = cs.coordination_v1().leases(ns)
        if op == "added":
            leases.create(new_lease(name, ns))
        elif op == "modified":
            lease = leases.get(name)
            lease.metadata.labels = {"changed": "yes"}
            leases.update(lease)
        else:
            leases.delete(name)
    for ns, w in watchers:
        want = [(op.upper(), name) for op, name, case_ns in WATCH_CALL_MULTIPLE_INVOCATION_CASES
                if ns in ("", case_ns)]
        assert drain(w) == want


def test_pod_delete_is_graceful_then_final(cs):
    """A pod delete is MODIFIED (deletionTimestamp set) then DELETED, as the server does it."""
    pods = cs.core_v1().pods("default")
    pods.create(new_pod("p"))
    w = pods.watch(ListOptions(resource_version=pods.list().metadata.resource_version))
    pods.delete("p", DeleteOptions(grace_period_seconds=0))
    assert drain(w) == [("MODIFIED", "p"), ("DELETED", "p")]


def test_watch_add_after_stop(cs):
    """Port of TestWatchAddAfterStop (testing/fixture_test.go): a stopped watch ignores later writes."""
    w = cs.core_v1().pods("default").watch()
    w.stop()
    cs.core_v1().pods("default").create(new_pod("p"))
    assert w.result_chan().recv(timeout=0) is None


def test_watch_from_resource_version_and_selector(cs):
    pods = cs.core_v1().pods("default")
    pods.create(new_pod("before", labels={"app": "web"}))
    rv = pods.list().metadata.resource_version
    w = pods.watch(ListOptions(resource_version=rv, label_selector="app=web"))
    pods.create(new_pod("other", labels={"app": "db"}))
    pods.create(new_pod("after", labels={"app": "web"}))
    assert drain(w) == [("ADDED", "after")]


def test_watch_from_empty_resource_version_lists_existing(cs):
    cs.apps_v1().deployments("default").create(new_deployment("d"))
    w = cs.apps_v1().deployments("default").watch(ListOptions(resource_version="0"))
    event = w.result_chan().recv(timeout=0)
    assert event.type == watch.ADDED and isinstance(event.object, V1Deployment)


def test_model_result_chan_converts_bookmark_and_keeps_error():
    fw = watch.new_fake()
    info = resource_info("deployments")
    chan = ModelResultChan(fw.result_chan(), info)
    fw.action(watch.BOOKMARK, {"kind": "Deployment", "apiVersion": "apps/v1",
                               "metadata": {"resourceVersion": "42"}})
    status = errors.new_gone("too old resource version").status()
    fw.error(status)
    bookmark = chan.recv(timeout=0)
    assert isinstance(bookmark.object, V1Deployment)
    assert bookmark.object.metadata.resource_version == "42"
    assert bookmark.object.spec is None
    assert len(chan) == 1 and not chan.closed
    error = chan.recv(timeout=0)
    assert error.type == watch.ERROR and error.object is status
    fw.stop()
    assert chan.closed and chan.recv(timeout=0) is None


# --- events expansion and fakes on any clientset ----------------------------------------------


def test_create_with_event_namespace(cs):
    event = make_event("e1")
    event.metadata.namespace = event.involved_object.namespace = "kube-system"
    created = cs.core_v1().events("").create_with_event_namespace(event)
    assert created.metadata.namespace == "kube-system"
    with pytest.raises(ValueError, match="can't create an event"):
        cs.core_v1().events("default").create_with_event_namespace(event)
    created.message = "again"
    assert cs.core_v1().events("").update_with_event_namespace(created).message == "again"
    patched = cs.core_v1().events("").patch_with_event_namespace(created, {"count": 2})
    assert patched.count == 2


def test_fake_attached_to_any_clientset(server):
    cs = InProcessClientset(server)
    cs.core_v1().pods("default").create(new_pod("p"))
    cs.fake = Fake()
    cs.fake.prepend_reactor("delete", "pods", lambda a: (True, None, errors.new_internal_error("boom")))
    with pytest.raises(errors.StatusError):
        cs.core_v1().pods("default").delete("p")
    assert [p.metadata.name for p in cs.core_v1().pods("default").list().items] == ["p"]
    assert [str(a) for a in cs.fake.actions()] == ["delete pods default/p", "list pods default"]
    assert isinstance(cs.apps_v1().deployments("default").list(), V1DeploymentList)


def test_bind_is_recorded_as_a_create_of_pods_binding(server):
    """client-go's fake Bind: a `create` action on pods with subresource `binding`, holding the binding."""
    cs = InProcessClientset(server, fake=Fake())
    cs.core_v1().pods("default").create(new_pod("p"))
    binding = V1Binding(metadata=V1ObjectMeta(name="p", namespace="default"),
                        target=V1ObjectReference(kind="Node", name="node-1"))
    cs.core_v1().pods("default").bind(binding)
    action = cs.fake.actions()[-1]
    assert (action.get_verb(), action.get_resource().resource, action.get_subresource()) == (
        "create", "pods", "binding")
    assert action.get_namespace() == "default" and action.get_object() == binding
    assert str(action) == "create pods/binding default/p"
    assert cs.core_v1().pods("default").get("p").spec.node_name == "node-1"


def test_bind_reactor_can_refuse(server):
    cs = InProcessClientset(server, fake=Fake())
    cs.core_v1().pods("default").create(new_pod("p"))
    cs.fake.prepend_reactor("create", "pods", lambda a: (a.get_subresource() == "binding", None,
                                                         errors.new_internal_error("no scheduler")))
    binding = V1Binding(metadata=V1ObjectMeta(name="p"), target=V1ObjectReference(kind="Node", name="n"))
    with pytest.raises(errors.StatusError, match="no scheduler"):
        cs.core_v1().pods("default").bind(binding)
    assert cs.core_v1().pods("default").get("p").spec.node_name is None


# --- the request each verb makes (the Transport contract) ---------------------------------------


class RecordingTransport:
    """A transport that records each request and answers None (so models come back empty)."""

    def __init__(self):
        self.calls = []

    def request(self, verb, resource, namespace, name="", subresource="", body=None, options=None, *,
                patch_type=""):
        self.calls.append((verb, resource, namespace, name, subresource, body, options, patch_type))
        return None

    def watch(self, resource, namespace, options):
        self.calls.append(("watch", resource, namespace, options))
        return watch.new_fake()


POD = new_pod("p")
DEPLOY = new_deployment("d")
SCALE = V1Scale(spec=V1ScaleSpec(replicas=3))
BINDING = V1Binding(metadata=V1ObjectMeta(name="p"), target=V1ObjectReference(kind="Node", name="n"))
CREATE, DELETE, LIST = CreateOptions(dry_run=[DRY_RUN_ALL]), DeleteOptions(), ListOptions(label_selector="a=b")

REQUEST_CASES = [
    #            call                                                        verb, resource, ns, name, sub, body, options, pt
    pytest.param(lambda cs: cs.core_v1().pods("default").create(POD, CREATE),
                 ("create", "pods", "default", "", "", POD, CREATE, ""), id="create"),
    pytest.param(lambda cs: cs.core_v1().pods("default").get("p"),
                 ("get", "pods", "default", "p", "", None, GetOptions(), ""), id="get"),
    pytest.param(lambda cs: cs.core_v1().pods("").list(LIST),
                 ("list", "pods", "", "", "", None, LIST, ""), id="list-all-namespaces"),
    pytest.param(lambda cs: cs.core_v1().pods("default").update(POD),
                 ("update", "pods", "default", "p", "", POD, UpdateOptions(), ""), id="update"),
    pytest.param(lambda cs: cs.core_v1().pods("default").update_status(POD),
                 ("update", "pods", "default", "p", "status", POD, UpdateOptions(), ""), id="update-status"),
    pytest.param(lambda cs: cs.core_v1().pods("default").delete("p", DELETE),
                 ("delete", "pods", "default", "p", "", DELETE, None, ""), id="delete"),
    pytest.param(lambda cs: cs.core_v1().pods("default").delete_collection(DELETE, LIST),
                 ("delete-collection", "pods", "default", "", "", DELETE, LIST, ""), id="delete-collection"),
    pytest.param(lambda cs: cs.apps_v1().deployments("ns").patch("d", MERGE_PATCH_TYPE, {"a": 1}, None, "scale"),
                 ("patch", "deployments", "ns", "d", "scale", b'{"a": 1}', PatchOptions(), MERGE_PATCH_TYPE),
                 id="patch-scale"),
    pytest.param(lambda cs: cs.apps_v1().deployments("ns").get_scale("d"),
                 ("get", "deployments", "ns", "d", "scale", None, GetOptions(), ""), id="get-scale"),
    pytest.param(lambda cs: cs.apps_v1().deployments("ns").update_scale("d", SCALE),
                 ("update", "deployments", "ns", "d", "scale", SCALE, UpdateOptions(), ""), id="update-scale"),
    pytest.param(lambda cs: cs.core_v1().pods("default").bind(BINDING),
                 ("create", "pods", "default", "p", "binding", BINDING, CreateOptions(), ""), id="bind"),
    pytest.param(lambda cs: cs.core_v1().namespaces().get("n"),
                 ("get", "namespaces", "", "n", "", None, GetOptions(), ""), id="cluster-scoped"),
]


@pytest.mark.parametrize("call, want", REQUEST_CASES)
def test_each_verb_is_one_request(call, want):
    transport = RecordingTransport()
    call(Clientset(transport))
    assert transport.calls == [want]


def test_empty_answers_become_zero_values():
    cs = Clientset(RecordingTransport())
    assert isinstance(cs.apps_v1().deployments("ns").get("d"), V1Deployment)
    assert cs.apps_v1().deployments("ns").list().items == []
    assert isinstance(cs.apps_v1().replica_sets("ns").get_scale("r"), V1Scale)


def test_watch_sets_the_watch_option_and_wraps_events_in_models():
    transport = RecordingTransport()
    w = Clientset(transport).core_v1().pods("default").watch(ListOptions(resource_version="3"))
    [(verb, resource, ns, opts)] = transport.calls
    assert (verb, resource, ns, opts.watch, opts.resource_version) == ("watch", "pods", "default", True, "3")
    assert isinstance(w, ModelWatcher)


def test_fake_attached_later_wraps_the_transport():
    transport = RecordingTransport()
    cs = Clientset(transport)
    assert cs.transport_for_calls() is transport
    cs.fake = Fake()
    assert cs.transport_for_calls().inner is transport
