"""One table, two backends: the clientset verbs against the in-process server and over HTTPS.

Every test here takes the `backend` fixture, which is parametrized: `inprocess`
calls the embedded APIServer directly (minikcm.client.inprocess), `rest` goes
through the official kubernetes client to the HTTPS front serving the same kind
of APIServer (minikcm.client.rest). Both must answer every row the same way.
Each test works in a namespace of its own, so the REST server can be shared by
the whole module.
"""

from __future__ import annotations

import itertools
import json
import queue
import random
import threading
import time
from dataclasses import dataclass
from typing import Any

import pytest
from kubernetes.client import (
    CoreV1Event,
    V1Binding,
    V1ControllerRevision,
    V1Deployment,
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
    DRY_RUN_ALL,
    CreateOptions,
    DeleteOptions,
    ListOptions,
    PatchOptions,
    Preconditions,
)
from minikcm.apimachinery.schema import resource_info
from minikcm.apimachinery.types import (
    APPLY_PATCH_TYPE,
    JSON_PATCH_TYPE,
    MERGE_PATCH_TYPE,
    STRATEGIC_MERGE_PATCH_TYPE,
)
from minikcm.apiserver.server import APIServer
from minikcm.clock import EPOCH, FakeClock
from minikcm.client.inprocess import InProcessClientset

from .objects import new_deployment, new_pod, new_replica_set, new_stateful_set

WAIT = 10.0
"""Seconds a REST watch event may take to arrive (in-process ones are there at once)."""

_namespaces = itertools.count()


@dataclass
class Backend:
    """A clientset, the APIServer behind it, and a fresh namespace for this test."""

    name: str
    cs: Any
    server: APIServer
    ns: str


@pytest.fixture(scope="module")
def rest_server():
    """One HTTPS server (and a RESTClientset on it) for the whole module.

    The server's step loop runs in a thread, as `minikcm apiserver` runs it:
    watch timeouts and bookmarks come from there.
    """
    from minikcm.apiserver.http.server import serve
    from minikcm.client.rest import RESTClientset

    server = APIServer(rng=random.Random(3))
    stop = threading.Event()
    steps = threading.Thread(target=server.run, args=(stop,), name="test/apiserver-steps", daemon=True)
    steps.start()
    handle = serve(server, port=0)
    cs = RESTClientset(str(handle.kubeconfig_path))
    try:
        yield server, cs
    finally:
        cs.close()
        handle.shutdown()
        stop.set()
        steps.join(timeout=WAIT)


@pytest.fixture(params=["inprocess", "rest"])
def backend(request) -> Backend:
    ns = f"t{next(_namespaces)}"
    if request.param == "inprocess":
        server = APIServer(clock=FakeClock(EPOCH), rng=random.Random(3))
        cs: Any = InProcessClientset(server)
    else:
        server, cs = request.getfixturevalue("rest_server")
    server.create("namespaces", None, {"metadata": {"name": ns}})
    return Backend(request.param, cs, server, ns)


def next_events(w: watch.Interface, n: int) -> list[watch.Event]:
    """The next `n` events of a watch, waiting up to WAIT seconds for each."""
    return [w.result_chan().recv(timeout=WAIT) for _ in range(n)]


def no_more_events(w: watch.Interface, settle: float = 0.2) -> bool:
    """True when nothing else arrives within `settle` seconds (the channel may be closed)."""
    try:
        return w.result_chan().recv(timeout=settle) is None
    except queue.Empty:
        return True


# --- create / get / list / update / delete ----------------------------------------------------


def test_create_returns_model_with_server_filled_fields(backend):
    created = backend.cs.apps_v1().deployments(backend.ns).create(new_deployment("web", 2, backend.ns))
    assert isinstance(created, V1Deployment)
    meta = created.metadata
    assert meta.uid and meta.resource_version and meta.creation_timestamp is not None
    assert meta.generation == 1 and meta.namespace == backend.ns
    assert created.spec.strategy.type == "RollingUpdate"
    assert created.spec.revision_history_limit == 10


def test_create_leaves_callers_object_alone(backend):
    d = new_deployment("web", namespace=backend.ns)
    backend.cs.apps_v1().deployments(backend.ns).create(d)
    assert d.api_version is None and d.kind is None and d.metadata.uid is None


def test_get_update_delete_round_trip(backend):
    client = backend.cs.apps_v1().deployments(backend.ns)
    created = client.create(new_deployment("web", 1, backend.ns))
    got = client.get("web")
    assert got == created
    got.spec.replicas = 4
    updated = client.update(got)
    assert updated.spec.replicas == 4 and updated.metadata.generation == 2
    assert int(updated.metadata.resource_version) > int(created.metadata.resource_version)
    client.delete("web")
    with pytest.raises(errors.StatusError) as info:
        client.get("web")
    assert errors.is_not_found(info.value)
    assert str(info.value) == 'deployments.apps "web" not found'


def test_stale_update_is_conflict(backend):
    client = backend.cs.apps_v1().replica_sets(backend.ns)
    first = client.create(new_replica_set("rs", namespace=backend.ns))
    second = client.get("rs")
    second.spec.replicas = 2
    client.update(second)
    first.spec.replicas = 3
    with pytest.raises(errors.StatusError) as info:
        client.update(first)
    assert errors.is_conflict(info.value)
    assert client.get("rs").spec.replicas == 2


def test_create_twice_is_already_exists(backend):
    pods = backend.cs.core_v1().pods(backend.ns)
    pods.create(new_pod("p", backend.ns))
    with pytest.raises(errors.StatusError) as info:
        pods.create(new_pod("p", backend.ns))
    assert errors.is_already_exists(info.value)


def test_invalid_object_is_invalid_with_causes(backend):
    d = new_deployment("web", namespace=backend.ns)
    d.spec.replicas = -1
    with pytest.raises(errors.StatusError) as info:
        backend.cs.apps_v1().deployments(backend.ns).create(d)
    assert errors.is_invalid(info.value)
    assert [c["field"] for c in info.value.status()["details"]["causes"]] == ["spec.replicas"]


def test_list_returns_list_model_and_selects(backend):
    pods = backend.cs.core_v1().pods(backend.ns)
    for name, app in (("a", "web"), ("b", "db"), ("c", "web")):
        pods.create(new_pod(name, backend.ns, labels={"app": app}))
    listed = pods.list()
    assert isinstance(listed, V1PodList)
    assert [p.metadata.name for p in listed.items] == ["a", "b", "c"]
    assert listed.metadata.resource_version
    assert [p.metadata.name for p in pods.list(ListOptions(label_selector="app=web")).items] == ["a", "c"]
    assert [p.metadata.name for p in pods.list(ListOptions(field_selector="metadata.name=b")).items] == ["b"]
    everywhere = backend.cs.core_v1().pods("").list(ListOptions(label_selector="app=db"))
    assert [(p.metadata.namespace, p.metadata.name) for p in everywhere.items] == [(backend.ns, "b")]


def test_list_pages_with_limit_and_continue(backend):
    leases = backend.cs.coordination_v1().leases(backend.ns)
    for name in ("a", "b", "c"):
        leases.create(make_lease(name))
    first = leases.list(ListOptions(limit=2))
    assert [x.metadata.name for x in first.items] == ["a", "b"] and first.metadata.var_continue
    rest = leases.list(ListOptions(limit=2, continue_=first.metadata.var_continue))
    assert [x.metadata.name for x in rest.items] == ["c"] and not rest.metadata.var_continue


def test_delete_with_stale_uid_precondition_is_conflict(backend):
    pods = backend.cs.core_v1().pods(backend.ns)
    pods.create(new_pod("p", backend.ns))
    with pytest.raises(errors.StatusError) as info:
        pods.delete("p", DeleteOptions(preconditions=Preconditions(uid="not-the-uid")))
    assert errors.is_conflict(info.value)
    pods.delete("p", DeleteOptions(grace_period_seconds=0))
    with pytest.raises(errors.StatusError):
        pods.get("p")


def test_delete_collection_by_label(backend):
    pods = backend.cs.core_v1().pods(backend.ns)
    for name, app in (("a", "web"), ("b", "db")):
        pods.create(new_pod(name, backend.ns, labels={"app": app}))
    pods.delete_collection(DeleteOptions(), ListOptions(label_selector="app=web"))
    assert [p.metadata.name for p in pods.list().items] == ["b"]


def test_dry_run_create_stores_nothing(backend):
    pods = backend.cs.core_v1().pods(backend.ns)
    created = pods.create(new_pod("p", backend.ns), CreateOptions(dry_run=[DRY_RUN_ALL]))
    assert created.metadata.name == "p"
    assert pods.list().items == []


def test_cluster_scoped_namespaces(backend):
    name = f"{backend.ns}-extra"
    created = backend.cs.core_v1().namespaces().create(V1Namespace(metadata=V1ObjectMeta(name=name)))
    assert created.metadata.namespace is None and created.status.phase == "Active"
    names = [ns.metadata.name for ns in backend.cs.core_v1().namespaces().list().items]
    assert {"default", "kube-system", name} <= set(names)


def test_write_to_missing_namespace_is_not_found(backend):
    with pytest.raises(errors.StatusError) as info:
        backend.cs.core_v1().pods("nowhere").create(new_pod("p", "nowhere"))
    assert errors.is_not_found(info.value)


# --- every typed client ---------------------------------------------------------------------


def make_lease(name: str) -> V1Lease:
    return V1Lease(metadata=V1ObjectMeta(name=name), spec=V1LeaseSpec(holder_identity="me"))


def make_revision(name: str) -> V1ControllerRevision:
    return V1ControllerRevision(metadata=V1ObjectMeta(name=name), revision=1, data={"x": 1})


def make_event(name: str, ns: str) -> CoreV1Event:
    return CoreV1Event(metadata=V1ObjectMeta(name=name, namespace=ns), reason="Tested",
                       involved_object=V1ObjectReference(kind="Pod", name="p", namespace=ns))


TYPED_CLIENT_CASES = [
    pytest.param(lambda cs, ns: cs.core_v1().pods(ns), lambda ns: new_pod("x", ns), V1Pod, id="pods"),
    pytest.param(lambda cs, ns: cs.core_v1().events(ns), lambda ns: make_event("x", ns), CoreV1Event,
                 id="events"),
    pytest.param(lambda cs, ns: cs.apps_v1().deployments(ns), lambda ns: new_deployment("x", 1, ns),
                 V1Deployment, id="deployments"),
    pytest.param(lambda cs, ns: cs.apps_v1().replica_sets(ns), lambda ns: new_replica_set("x", 1, ns),
                 V1ReplicaSet, id="replicasets"),
    pytest.param(lambda cs, ns: cs.apps_v1().stateful_sets(ns), lambda ns: new_stateful_set("x", 1, ns),
                 V1StatefulSet, id="statefulsets"),
    pytest.param(lambda cs, ns: cs.apps_v1().controller_revisions(ns), lambda ns: make_revision("x"),
                 V1ControllerRevision, id="controllerrevisions"),
    pytest.param(lambda cs, ns: cs.coordination_v1().leases(ns), lambda ns: make_lease("x"), V1Lease,
                 id="leases"),
]


@pytest.mark.parametrize("client_of, make, model", TYPED_CLIENT_CASES)
def test_typed_client_round_trip(backend, client_of, make, model):
    client = client_of(backend.cs, backend.ns)
    created = client.create(make(backend.ns))
    assert type(created) is model and created.metadata.namespace == backend.ns
    assert client.get("x") == created
    listed = client.list()
    assert type(listed) is resource_info(client.resource).list_model
    assert [item.metadata.name for item in listed.items] == ["x"]
    client.delete("x", DeleteOptions(grace_period_seconds=0))


# --- pods/binding (PodExpansion.Bind) ----------------------------------------------------------


def binding_to(pod: str, node: str, ns: str) -> V1Binding:
    return V1Binding(metadata=V1ObjectMeta(name=pod, namespace=ns),
                     target=V1ObjectReference(kind="Node", name=node))


def test_bind_assigns_the_pod_to_its_node_once(backend):
    client = backend.cs.core_v1().pods(backend.ns)
    client.create(new_pod("p", backend.ns))
    assert client.bind(binding_to("p", "node-1", backend.ns)) is None
    pod = client.get("p")
    assert pod.spec.node_name == "node-1"
    assert [(c.type, c.status) for c in pod.status.conditions] == [("PodScheduled", "True")]
    with pytest.raises(errors.StatusError) as err:
        client.bind(binding_to("p", "node-2", backend.ns))
    assert errors.is_conflict(err.value)
    assert client.get("p").spec.node_name == "node-1"


BIND_REFUSED_CASES = [
    pytest.param("missing", "node-1", errors.is_not_found, id="missing-pod-is-not-found"),
    pytest.param("p", "", errors.is_invalid, id="no-node-is-invalid"),
]


@pytest.mark.parametrize("pod, node, is_reason", BIND_REFUSED_CASES)
def test_bind_refused(backend, pod, node, is_reason):
    client = backend.cs.core_v1().pods(backend.ns)
    client.create(new_pod("p", backend.ns))
    with pytest.raises(errors.StatusError) as err:
        client.bind(binding_to(pod, node, backend.ns))
    assert is_reason(err.value)
    assert client.get("p").spec.node_name is None


def test_dry_run_bind_changes_nothing(backend):
    client = backend.cs.core_v1().pods(backend.ns)
    client.create(new_pod("p", backend.ns))
    client.bind(binding_to("p", "node-1", backend.ns), CreateOptions(dry_run=[DRY_RUN_ALL]))
    assert client.get("p").spec.node_name is None


# --- status and scale -------------------------------------------------------------------------


def test_update_status_changes_only_status(backend):
    client = backend.cs.apps_v1().replica_sets(backend.ns)
    rs = client.create(new_replica_set("rs", 3, backend.ns))
    rs.status.replicas, rs.status.ready_replicas = 3, 2
    rs.spec.replicas = 9  # ignored through the status subresource
    updated = client.update_status(rs)
    assert (updated.status.replicas, updated.status.ready_replicas) == (3, 2)
    assert updated.spec.replicas == 3 and updated.metadata.generation == 1


def test_update_ignores_status(backend):
    client = backend.cs.core_v1().pods(backend.ns)
    pod = client.create(new_pod("p", backend.ns))
    pod.status.phase = "Running"
    assert client.update(pod).status.phase != "Running"


SCALE_CASES = [
    pytest.param(lambda cs, ns: cs.apps_v1().deployments(ns), new_deployment, id="deployments"),
    pytest.param(lambda cs, ns: cs.apps_v1().replica_sets(ns), new_replica_set, id="replicasets"),
    pytest.param(lambda cs, ns: cs.apps_v1().stateful_sets(ns), new_stateful_set, id="statefulsets"),
]


@pytest.mark.parametrize("client_of, make", SCALE_CASES)
def test_get_and_update_scale(backend, client_of, make):
    client = client_of(backend.cs, backend.ns)
    client.create(make("s", 2, backend.ns))
    scale = client.get_scale("s")
    assert isinstance(scale, V1Scale)
    assert (scale.kind, scale.spec.replicas, scale.metadata.name) == ("Scale", 2, "s")
    scale.spec.replicas = 5
    updated = client.update_scale("s", scale)
    assert isinstance(updated, V1Scale) and updated.spec.replicas == 5
    assert client.get("s").spec.replicas == 5


def test_update_scale_with_stale_version_is_conflict(backend):
    client = backend.cs.apps_v1().deployments(backend.ns)
    client.create(new_deployment("d", 1, backend.ns))
    stale = client.get_scale("d").metadata.resource_version
    client.patch("d", MERGE_PATCH_TYPE, {"metadata": {"labels": {"x": "y"}}})
    scale = V1Scale(metadata=V1ObjectMeta(resource_version=stale), spec=V1ScaleSpec(replicas=3))
    with pytest.raises(errors.StatusError) as info:
        client.update_scale("d", scale)
    assert errors.is_conflict(info.value)


# --- patch ----------------------------------------------------------------------------------

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
    pytest.param(STRATEGIC_MERGE_PATCH_TYPE, {"spec": {"paused": True}},
                 lambda d: d.spec.paused is True, id="strategic-merge-pause"),
]


@pytest.mark.parametrize("pt, data, check", PATCH_CASES)
def test_patch(backend, pt, data, check):
    client = backend.cs.apps_v1().deployments(backend.ns)
    client.create(new_deployment("web", 1, backend.ns))
    patched = client.patch("web", pt, data)
    assert isinstance(patched, V1Deployment)
    assert check(patched) and check(client.get("web"))


def test_apply_patch_creates_when_absent(backend):
    body = new_deployment("applied", 2, backend.ns).model_dump(by_alias=True, exclude_none=True, mode="json")
    body.update(apiVersion="apps/v1", kind="Deployment")
    client = backend.cs.apps_v1().deployments(backend.ns)
    created = client.patch("applied", APPLY_PATCH_TYPE, json.dumps(body),
                           PatchOptions(field_manager="test", force=True))
    assert created.spec.replicas == 2
    assert client.get("applied").metadata.uid == created.metadata.uid


def test_patch_status_and_scale_subresources(backend):
    client = backend.cs.apps_v1().replica_sets(backend.ns)
    client.create(new_replica_set("rs", 1, backend.ns))
    patched = client.patch("rs", MERGE_PATCH_TYPE, {"status": {"replicas": 1}}, None, "status")
    assert patched.status.replicas == 1
    scale = client.patch("rs", MERGE_PATCH_TYPE, {"spec": {"replicas": 6}}, None, "scale")
    assert isinstance(scale, V1Scale) and scale.spec.replicas == 6


def test_patch_missing_object_is_not_found(backend):
    with pytest.raises(errors.StatusError) as info:
        backend.cs.core_v1().pods(backend.ns).patch("node-1", STRATEGIC_MERGE_PATCH_TYPE, b"{}")
    assert errors.is_not_found(info.value)
    assert str(info.value) == 'pods "node-1" not found'


# --- watch ------------------------------------------------------------------------------------


def rv_of(client: Any) -> str:
    return client.list().metadata.resource_version


def test_watch_sees_added_modified_deleted(backend):
    leases = backend.cs.coordination_v1().leases(backend.ns)
    w = leases.watch(ListOptions(resource_version=rv_of(leases)))
    try:
        created = leases.create(make_lease("l"))
        created.metadata.labels = {"x": "y"}
        updated = leases.update(created)
        leases.delete("l")
        events = next_events(w, 3)
        assert [e.type for e in events] == [watch.ADDED, watch.MODIFIED, watch.DELETED]
        assert all(isinstance(e.object, V1Lease) for e in events)
        assert events[0].object.metadata.labels is None and events[1].object == updated
        assert events[2].object.metadata.uid == created.metadata.uid
    finally:
        w.stop()


def test_watch_from_resource_version_and_selector(backend):
    pods = backend.cs.core_v1().pods(backend.ns)
    pods.create(new_pod("before", backend.ns, {"app": "web"}))
    w = pods.watch(ListOptions(resource_version=rv_of(pods), label_selector="app=web"))
    try:
        pods.create(new_pod("other", backend.ns, {"app": "db"}))
        pods.create(new_pod("after", backend.ns, {"app": "web"}))
        [event] = next_events(w, 1)
        assert (event.type, event.object.metadata.name) == (watch.ADDED, "after")
        assert no_more_events(w)
    finally:
        w.stop()


def test_watch_from_zero_lists_existing(backend):
    client = backend.cs.apps_v1().deployments(backend.ns)
    client.create(new_deployment("d", 1, backend.ns))
    w = client.watch(ListOptions(resource_version="0"))
    try:
        [event] = next_events(w, 1)
        assert event.type == watch.ADDED and isinstance(event.object, V1Deployment)
    finally:
        w.stop()


def test_watch_across_namespaces(backend):
    w = backend.cs.coordination_v1().leases("").watch(
        ListOptions(resource_version=rv_of(backend.cs.coordination_v1().leases(""))))
    try:
        backend.cs.coordination_v1().leases(backend.ns).create(make_lease("l"))
        [event] = next_events(w, 1)
        assert (event.object.metadata.namespace, event.object.metadata.name) == (backend.ns, "l")
    finally:
        w.stop()


def test_watch_bookmark_carries_resource_version(backend):
    leases = backend.cs.coordination_v1().leases(backend.ns)
    w = leases.watch(ListOptions(resource_version=rv_of(leases), allow_watch_bookmarks=True))
    try:
        leases.create(make_lease("l"))
        [added] = next_events(w, 1)
        backend.server.send_bookmarks(force=True)
        [bookmark] = next_events(w, 1)
        assert bookmark.type == watch.BOOKMARK and isinstance(bookmark.object, V1Lease)
        assert bookmark.object.metadata.resource_version == str(backend.server.storage.resource_version)
        assert int(bookmark.object.metadata.resource_version) >= int(added.object.metadata.resource_version)
    finally:
        w.stop()


def test_watch_list_streams_the_state_then_the_end_bookmark(backend):
    leases = backend.cs.coordination_v1().leases(backend.ns)
    leases.create(make_lease("a"))
    leases.create(make_lease("b"))
    w = leases.watch(ListOptions(send_initial_events=True, resource_version_match="NotOlderThan",
                                 allow_watch_bookmarks=True))
    try:
        a, b, end = next_events(w, 3)
        assert [(e.type, e.object.metadata.name) for e in (a, b)] == [(watch.ADDED, "a"), (watch.ADDED, "b")]
        assert end.type == watch.BOOKMARK and isinstance(end.object, V1Lease)
        assert end.object.metadata.annotations == {"k8s.io/initial-events-end": "true"}
        leases.create(make_lease("c"))
        [added] = next_events(w, 1)
        assert (added.type, added.object.metadata.name) == (watch.ADDED, "c")
    finally:
        w.stop()


def test_send_initial_events_on_a_list_is_invalid(backend):
    with pytest.raises(errors.StatusError) as info:
        backend.cs.coordination_v1().leases(backend.ns).list(ListOptions(send_initial_events=True))
    status = info.value.status()
    assert (status["code"], status["details"]["kind"]) == (422, "ListOptions")
    assert status["details"]["causes"][0]["field"] == "sendInitialEvents"


def test_watch_from_too_old_version_is_expired_error(backend):
    leases = backend.cs.coordination_v1().leases(backend.ns)
    old = rv_of(leases)
    for i in range(backend.server.storage.history_window + 1):  # push `old` out of the window
        backend.server.create("leases", backend.ns, {"metadata": {"name": f"l{i}"}})
    w = leases.watch(ListOptions(resource_version=old))
    try:
        [event] = next_events(w, 1)
        assert event.type == watch.ERROR
        err = errors.from_object(event.object)
        assert errors.is_resource_expired(err) and err.code == 410
        assert w.result_chan().recv(timeout=WAIT) is None  # the watch ends
    finally:
        w.stop()


@pytest.mark.threaded
def test_watch_timeout_ends_the_watch(backend):
    leases = backend.cs.coordination_v1().leases(backend.ns)
    w = leases.watch(ListOptions(resource_version=rv_of(leases), timeout_seconds=1))
    try:
        if backend.name == "inprocess":  # the fake clock moves only when told
            backend.server.clock.step(2)
            backend.server.expire_watches()
        assert w.result_chan().recv(timeout=WAIT) is None
    finally:
        w.stop()


def test_stopped_watch_gets_nothing_more(backend):
    leases = backend.cs.coordination_v1().leases(backend.ns)
    w = leases.watch(ListOptions(resource_version=rv_of(leases)))
    w.stop()
    leases.create(make_lease("l"))
    assert no_more_events(w)
    assert w.result_chan().closed


# --- events expansion -------------------------------------------------------------------------


def test_event_namespace_expansions(backend):
    event = make_event("e1", backend.ns)
    events = backend.cs.core_v1().events("")
    created = events.create_with_event_namespace(event)
    assert created.metadata.namespace == backend.ns
    with pytest.raises(ValueError, match="can't create an event"):
        backend.cs.core_v1().events("default").create_with_event_namespace(event)
    created.message = "again"
    assert events.update_with_event_namespace(created).message == "again"
    assert events.patch_with_event_namespace(created, {"count": 2}).count == 2


# --- an informer over either backend ----------------------------------------------------------


@pytest.mark.threaded
def test_informer_over_the_clientset(backend):
    from minikcm.tools.cache.controller import ResourceEventHandlerFuncs
    from minikcm.tools.cache.listwatch import new_list_watch_from_client
    from minikcm.tools.cache.shared_informer import new_shared_informer, wait_for_cache_sync

    pods = backend.cs.core_v1().pods(backend.ns)
    pods.create(new_pod("a", backend.ns))
    seen: queue.Queue = queue.Queue()
    informer = new_shared_informer(new_list_watch_from_client(pods, ""), V1Pod(), 0)
    informer.add_event_handler(ResourceEventHandlerFuncs(
        add_func=lambda obj: seen.put(("add", obj.metadata.name)),
        update_func=lambda old, new: seen.put(("update", new.metadata.name)),
        delete_func=lambda obj: seen.put(("delete", getattr(obj, "metadata", None) and obj.metadata.name))))
    stop = threading.Event()
    runner = threading.Thread(target=informer.run, args=(stop,), name="test/informer", daemon=True)
    runner.start()
    try:
        assert wait_for_cache_sync(stop, informer.has_synced)
        assert seen.get(timeout=WAIT) == ("add", "a")
        pods.create(new_pod("b", backend.ns))
        assert seen.get(timeout=WAIT) == ("add", "b")
        pods.patch("b", MERGE_PATCH_TYPE, {"metadata": {"labels": {"x": "y"}}})
        assert seen.get(timeout=WAIT) == ("update", "b")
        pods.delete("a", DeleteOptions(grace_period_seconds=0))
        assert ("update", "a") == seen.get(timeout=WAIT)  # marked (deletionTimestamp) ...
        assert ("delete", "a") == seen.get(timeout=WAIT)  # ... then gone (unscheduled pod)
        assert sorted(k for k in informer.get_store().list_keys()) == [f"{backend.ns}/b"]
    finally:
        stop.set()
        runner.join(timeout=WAIT)


@pytest.mark.threaded
def test_watch_stop_is_prompt_and_ends_the_reader(backend):
    leases = backend.cs.coordination_v1().leases(backend.ns)
    before = set(threading.enumerate())
    w = leases.watch(ListOptions(resource_version=rv_of(leases)))
    readers = [t for t in set(threading.enumerate()) - before if t.name == "rest/watch/leases"]
    assert bool(readers) == (backend.name == "rest")
    started = time.monotonic()
    w.stop()
    for reader in readers:
        reader.join(timeout=WAIT)
    assert all(not r.is_alive() for r in readers)
    assert time.monotonic() - started < 2.0
    assert w.result_chan().closed
    leases.create(make_lease("after-stop"))  # the connection pool still works afterwards
    assert leases.get("after-stop").metadata.name == "after-stop"
