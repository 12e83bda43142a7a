"""Tests for minikcm.controller.garbagecollector.garbagecollector.

Ports of TestGarbageCollectorConstruction, TestAttemptToDeleteItem,
TestAttemptToDeleteItemDeleteObjectNotFound(WaitingForDependents), TestDependentsRace,
TestAbsentOwnerCache, TestOrphanDependentsFailure and TestGetDeletableResources
(garbagecollector_test.go), adapted to the fake clientset over the embedded API
server; TestConflictingData is in test_conflicting_data.py. Further attemptToDeleteItem
cases (solid and dangling owners, waiting owners, finalizers) are ours.
"""

from __future__ import annotations

import threading

import pytest
from kubernetes.client import V1APIResource, V1APIResourceList

from minikcm.apimachinery import errors, meta
from minikcm.apimachinery.schema import GroupResource, GroupVersionResource
from minikcm.controller.garbagecollector.errors import EnqueuedVirtualDeleteEventError
from minikcm.controller.garbagecollector.garbagecollector import (
    FORGET_ITEM,
    REQUEUE_ITEM,
    get_deletable_resources,
    new_garbage_collector,
)
from minikcm.controller.garbagecollector.graph import Node
from minikcm.controller.garbagecollector.uid_cache import new_reference_cache
from minikcm.client.fake import new_simple_clientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.informers import new_shared_informer_factory_with_options

from .gc_testing import install_tracking_queues, make_id, make_metadata_obj, make_node, new_test_gc, with_owners

PODS = GroupVersionResource("", "v1", "pods")
DEPLOYMENTS = GroupVersionResource("apps", "v1", "deployments")


def actions(client) -> list[str]:
    out = []
    for a in client.fake.actions():
        name = a.target_name()
        out.append(f"{a.get_verb().upper()}={a.get_resource().resource}/{a.get_namespace()}/{name}")
    return out


def pod_node(identity) -> Node:
    """Port of podToGCNode: the node of a pod, owners left for attempt_to_delete_item to read."""
    return Node(identity)


# --- construction -------------------------------------------------------------------------------


def test_garbage_collector_construction():
    """Port of TestGarbageCollectorConstruction (garbagecollector_test.go), adapted.

    Go starts without monitors and resyncs with pods plus an unknown kind; here
    construction already watches every resource that has an informer, and
    resync_monitors adds and drops monitors the same way.
    """
    gc, _ = new_test_gc(ignored=[])
    watched = {str(r.resource) for r in gc.dependency_graph_builder.monitors}
    assert watched == {"namespaces", "pods", "events", "persistentvolumeclaims", "deployments", "replicasets",
                       "statefulsets", "controllerrevisions", "leases"}  # services: no informer
    gc.resync_monitors({PODS, DEPLOYMENTS})
    assert len(gc.dependency_graph_builder.monitors) == 2
    gc.resync_monitors({PODS})
    assert len(gc.dependency_graph_builder.monitors) == 1


def test_default_ignored_resources_are_not_watched():
    gc, _ = new_test_gc()
    assert GroupVersionResource("", "v1", "events") not in gc.dependency_graph_builder.monitors


GET_DELETABLE_RESOURCES_CASES = [
    pytest.param([V1APIResourceList(group_version="apps/v1", resources=[
        V1APIResource(name="pods", namespaced=True, kind="Pod", singular_name="", verbs=["delete", "list", "watch"]),
        V1APIResource(name="services", namespaced=True, kind="Service", singular_name="", verbs=[])]),
        V1APIResourceList(group_version="foo//whatever", resources=[
            V1APIResource(name="bars", namespaced=True, kind="Bar", singular_name="",
                          verbs=["delete", "list", "watch"])]),
        V1APIResourceList(group_version="acme/v1", resources=[
            V1APIResource(name="widgets", namespaced=True, kind="Widget", singular_name="", verbs=["delete"])])],
        {GroupVersionResource("apps", "v1", "pods")}, id="no error"),
    pytest.param([], set(), id="discovery failure, no results"),
]


@pytest.mark.parametrize("server_resources, deletable", GET_DELETABLE_RESOURCES_CASES)
def test_get_deletable_resources(server_resources, deletable):
    """Port of TestGetDeletableResources (garbagecollector_test.go); the error rows have no twin here."""
    assert get_deletable_resources(server_resources) == deletable


def test_get_deletable_resources_of_the_embedded_server():
    resources = {str(r.resource) for r in get_deletable_resources()}
    assert {"pods", "replicasets", "deployments", "services", "namespaces"} <= resources


# --- attempt to delete ------------------------------------------------------------------------------

RS1 = make_id("apps/v1", "ReplicaSet", "ns1", "owner1", "123")
POD = make_id("v1", "Pod", "ns1", "tobedeletedpod", "456")


def test_attempt_to_delete_item():
    """Port of TestAttemptToDeleteItem (garbagecollector_test.go); the owner is a ReplicaSet, not an RC."""
    gc, client = new_test_gc(make_metadata_obj(POD, RS1))
    item = make_node(POD)
    item.virtual = True  # owners left empty: attempt_to_delete_item reads the latest object
    gc.attempt_to_delete_item(item)
    assert item.virtual, "attemptToDeleteItem changed virtual to false unexpectedly"
    assert set(actions(client)) == {"GET=replicasets/ns1/owner1", "DELETE=pods/ns1/tobedeletedpod",
                                    "GET=pods/ns1/tobedeletedpod"}


def delete_answers_not_found(client) -> None:
    gone = errors.new_not_found(GroupResource("", "pods"), "gone")
    client.fake.prepend_reactor("delete", "pods", lambda action: (True, None, gone))


def test_attempt_to_delete_item_delete_object_not_found():
    """Port of TestAttemptToDeleteItemDeleteObjectNotFound (garbagecollector_test.go); a ReplicaSet owner."""
    pod = make_id("v1", "Pod", "ns1", "externallydeletedpod", "456")
    gc, client = new_test_gc(make_metadata_obj(pod, RS1))
    delete_answers_not_found(client)  # deleted by someone else between our GET and DELETE
    with pytest.raises(EnqueuedVirtualDeleteEventError):
        gc.attempt_to_delete_item(make_node(pod))
    assert gc.dependency_graph_builder.graph_changes.len() == 1


def test_attempt_to_delete_item_delete_object_not_found_waiting_for_dependents():
    """Port of TestAttemptToDeleteItemDeleteObjectNotFoundWaitingForDependents (garbagecollector_test.go)."""
    pod = make_id("v1", "Pod", "ns1", "externallydeletedpodfg", "456")
    owner = make_metadata_obj(RS1)
    owner["metadata"]["finalizers"] = [meta.FINALIZER_DELETE_DEPENDENTS]
    dependent = make_metadata_obj(pod, RS1)
    dependent["metadata"]["ownerReferences"][0]["blockOwnerDeletion"] = True
    gc, client = new_test_gc(owner, dependent)
    client.apps_v1().replica_sets("ns1").delete("owner1", meta.DeleteOptions())  # waiting for its dependents
    delete_answers_not_found(client)
    with pytest.raises(EnqueuedVirtualDeleteEventError):
        gc.attempt_to_delete_item(make_node(pod))
    assert gc.dependency_graph_builder.graph_changes.len() == 1


def test_absent_owner_cache():
    """Port of TestAbsentOwnerCache (garbagecollector_test.go); owners are ReplicaSets, pods have own uids."""
    rs = [make_id("apps/v1", "ReplicaSet", "ns1", f"rs{i}", str(i)) for i in (1, 2, 3)]
    rc1_pod1 = make_id("v1", "Pod", "ns1", "rc1pod1", "p11")
    rc1_pod2 = make_id("v1", "Pod", "ns1", "rc1pod2", "p12")
    rc2_pod1 = make_id("v1", "Pod", "ns1", "rc2pod1", "p21")
    rc3_pod1 = make_id("v1", "Pod", "ns1", "rc3pod1", "p31")
    gc, client = new_test_gc(make_metadata_obj(rc1_pod1, rs[0]), make_metadata_obj(rc1_pod2, rs[0]),
                             make_metadata_obj(rc2_pod1, rs[1]), make_metadata_obj(rc3_pod1, rs[2]))
    gc.absent_owner_cache = new_reference_cache(2)
    gc.attempt_to_delete_item(pod_node(rc1_pod1))
    gc.attempt_to_delete_item(pod_node(rc2_pod1))
    gc.attempt_to_delete_item(pod_node(rc1_pod2))  # rs1 is cached: no GET, and it becomes most recent
    gc.attempt_to_delete_item(pod_node(rc3_pod1))  # evicts rs2
    assert gc.absent_owner_cache.has(rs[0])
    assert not gc.absent_owner_cache.has(rs[1])
    assert gc.absent_owner_cache.has(rs[2])
    assert actions(client).count("GET=replicasets/ns1/rs1") == 1


def test_attempt_to_delete_item_of_missing_object_enqueues_virtual_delete():
    gc, client = new_test_gc()
    with pytest.raises(EnqueuedVirtualDeleteEventError):
        gc.attempt_to_delete_item(make_node(RS1))
    event, _ = gc.dependency_graph_builder.graph_changes.get()
    assert (event.virtual, event.event_type, event.obj.metadata.uid) == (True, "delete", "123")


def test_attempt_to_delete_item_with_solid_owner_removes_only_dangling_reference():
    gone = make_id("apps/v1", "ReplicaSet", "ns1", "gone", "gone-uid")
    gc, client = new_test_gc(make_metadata_obj(RS1), make_metadata_obj(POD, RS1, gone))
    gc.attempt_to_delete_item(pod_node(POD))
    pod = client.core_v1().pods("ns1").get("tobedeletedpod")
    assert [r.uid for r in pod.metadata.owner_references] == ["123"]
    assert [a.get_verb() for a in client.fake.actions()].count("delete") == 0


def test_attempt_to_delete_item_honours_orphan_finalizer():
    obj = make_metadata_obj(POD, RS1)
    obj["metadata"]["finalizers"] = [meta.FINALIZER_ORPHAN_DEPENDENTS]
    gc, client = new_test_gc(obj)
    gc.attempt_to_delete_item(pod_node(POD))
    (delete,) = [a for a in client.fake.actions() if a.get_verb() == "delete"]
    assert delete.get_delete_options().propagation_policy == meta.DELETE_PROPAGATION_ORPHAN


def test_attempt_to_delete_item_deletes_in_foreground_when_owner_waits_and_item_has_dependents():
    owner = make_metadata_obj(RS1)
    owner["metadata"]["finalizers"] = [meta.FINALIZER_DELETE_DEPENDENTS]
    gc, client = new_test_gc(owner, make_metadata_obj(POD, RS1))
    client.apps_v1().replica_sets("ns1").delete("owner1", meta.DeleteOptions())  # marked, kept by the finalizer
    item = make_node(POD, with_owners(RS1))
    item.add_dependent(make_node(make_id("v1", "Pod", "ns1", "child", "c"), with_owners(POD)))
    gc.attempt_to_delete_item(item)
    (delete,) = [a for a in client.fake.actions() if a.get_verb() == "delete" and a.get_resource().resource == "pods"]
    assert delete.get_delete_options().propagation_policy == meta.DELETE_PROPAGATION_FOREGROUND


def test_attempt_to_delete_item_unblocks_own_references_when_a_dependent_deletes_its_dependents():
    # a possible cycle of foreground deletions: the item stops blocking its owners first
    owner = make_metadata_obj(RS1)
    owner["metadata"]["finalizers"] = [meta.FINALIZER_DELETE_DEPENDENTS]
    item_obj = make_metadata_obj(POD, RS1)
    item_obj["metadata"]["ownerReferences"][0]["blockOwnerDeletion"] = True
    gc, client = new_test_gc(owner, item_obj)
    client.apps_v1().replica_sets("ns1").delete("owner1", meta.DeleteOptions())
    item = Node(POD, client.core_v1().pods("ns1").get("tobedeletedpod").metadata.owner_references)
    child = make_node(make_id("v1", "Pod", "ns1", "child", "c"), with_owners(POD))
    child.deleting_dependents = True
    item.add_dependent(child)
    # as upstream: the patch moved the resourceVersion the delete is guarded by, and the owner
    # references changed with it, so the first attempt ends in a conflict (and a retry)
    with pytest.raises(errors.StatusError) as exc:
        gc.attempt_to_delete_item(item)
    assert errors.is_conflict(exc.value)
    pod = client.core_v1().pods("ns1").get("tobedeletedpod")
    assert pod.metadata.owner_references[0].block_owner_deletion is False
    client.fake.clear_actions()
    gc.attempt_to_delete_item(item)  # the retry: the patch changes nothing now, the delete goes through
    verbs = [(a.get_verb(), a.get_resource().resource) for a in client.fake.actions() if a.get_verb() != "get"]
    assert verbs == [("patch", "pods"), ("delete", "pods")]
    pod = client.core_v1().pods("ns1").get("tobedeletedpod")  # kept by its own foregroundDeletion finalizer
    assert pod.metadata.finalizers == [meta.FINALIZER_DELETE_DEPENDENTS]


def test_process_deleting_dependents_item_removes_finalizer_when_nothing_blocks():
    owner = make_metadata_obj(RS1)
    owner["metadata"]["finalizers"] = [meta.FINALIZER_DELETE_DEPENDENTS]
    gc, client = new_test_gc(owner)
    client.apps_v1().replica_sets("ns1").delete("owner1", meta.DeleteOptions())
    node = make_node(RS1)
    node.being_deleted = node.deleting_dependents = True
    gc.attempt_to_delete_item(node)
    with pytest.raises(errors.StatusError):  # the finalizer went, so the server removed the owner
        client.apps_v1().replica_sets("ns1").get("owner1")


def test_process_deleting_dependents_item_queues_blocking_dependents():
    gc, _ = new_test_gc()
    attempt_to_delete, _, _ = install_tracking_queues(gc)
    owner = make_node(RS1)
    blocking = Node(POD, [make_id("apps/v1", "ReplicaSet", "ns1", "owner1", "123").owner_reference()
                          .model_copy(update={"block_owner_deletion": True})])
    owner.add_dependent(blocking)
    gc.process_deleting_dependents_item(owner)
    assert attempt_to_delete.pending_list == [blocking]


def test_attempt_to_delete_worker_requeues_unobserved_virtual_node():
    gc, _ = new_test_gc(make_metadata_obj(RS1))
    virtual_owner = make_node(RS1)
    virtual_owner.virtual = True
    gc.dependency_graph_builder.uid_to_node.write(virtual_owner)
    assert gc.attempt_to_delete_worker(virtual_owner) == REQUEUE_ITEM  # exists, not observed yet
    virtual_owner.mark_observed()
    assert gc.attempt_to_delete_worker(virtual_owner) == FORGET_ITEM


def test_attempt_to_delete_worker_drops_virtual_node_that_left_the_graph():
    gc, client = new_test_gc()
    n = make_node(RS1)
    n.virtual = True
    assert gc.attempt_to_delete_worker(n) == FORGET_ITEM
    assert client.fake.actions() == []


# --- attempt to orphan -----------------------------------------------------------------------------


def test_orphan_dependents_failure():
    """Port of TestOrphanDependentsFailure (garbagecollector_test.go)."""
    gc, client = new_test_gc(make_metadata_obj(make_id("v1", "Pod", "ns1", "pod", "pod-uid")))
    conflict = errors.new_conflict(GroupResource("", "pods"), "pod", "the server reported a conflict")
    client.fake.prepend_reactor("patch", "pods", lambda action: (True, None, conflict))
    dependents = [make_node(make_id("v1", "Pod", "ns1", "pod", ""))]
    with pytest.raises(RuntimeError, match="the server reported a conflict"):
        gc.orphan_dependents(make_id("", "", "", "", ""), dependents)


def test_orphan_dependents_ignores_gone_dependents():
    """Ours: a dependent already gone answers its patch with 404; orphaning takes that as done, raises
    nothing and writes nothing else."""
    gc, client = new_test_gc()
    gc.orphan_dependents(RS1, [make_node(make_id("v1", "Pod", "ns1", "gone", "g"))])
    assert [(a.get_verb(), a.get_resource().resource, a.name) for a in client.fake.actions()] == [
        ("patch", "pods", "gone")]
    assert client.core_v1().pods("ns1").list().items == []


@pytest.mark.threaded
def test_dependents_race():
    """Port of TestDependentsRace (garbagecollector_test.go).

    Go relies on the race detector; here two threads add and remove
    dependents while the orphan worker reads them, and neither may fail.
    """
    clock = FakeClock(EPOCH)
    client = new_simple_clientset(clock=clock)
    factory = new_shared_informer_factory_with_options(client, 0, clock=clock)
    gc = new_garbage_collector(client, factory, None)
    gb = gc.dependency_graph_builder
    owner = Node(make_id("", "", "", "", "owner"))
    gb.uid_to_node.write(owner)
    failures: list[BaseException] = []

    def churn_dependents() -> None:
        try:
            for _ in range(100):
                dependent = Node(make_id("", "", "", "", ""))
                refs = [owner.identity.owner_reference()]
                gb.add_dependent_to_owners(dependent, refs)
                gb.remove_dependent_from_owners(dependent, refs)
        except BaseException as err:  # reported below
            failures.append(err)

    def orphan_loop() -> None:
        try:
            for _ in range(100):
                gc.attempt_to_orphan.add(owner)
                gc.process_attempt_to_orphan_worker()
        except BaseException as err:  # reported below
            failures.append(err)

    threads = [threading.Thread(target=churn_dependents), threading.Thread(target=orphan_loop)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    gc.attempt_to_orphan.shut_down()
    gc.attempt_to_delete.shut_down()
    gb.graph_changes.shut_down()
    gc.event_broadcaster.shutdown()
    assert not failures
    assert not any(t.is_alive() for t in threads)


@pytest.mark.threaded
def test_run_collects_garbage_with_threads():
    """run(): named threads, a background cascade through real informer threads, a clean stop."""
    import time

    from minikcm.apiserver.server import APIServer
    from minikcm.client import InProcessClientset

    client = InProcessClientset(APIServer())
    factory = new_shared_informer_factory_with_options(client, 0)
    gc = new_garbage_collector(client, factory, None)
    stop = threading.Event()
    factory.start(stop)
    runner = threading.Thread(target=gc.run, args=(1, stop, 5.0), name="test/gc-run")
    runner.start()
    wanted = {"garbagecollector/graph-builder", "garbagecollector/attempt-to-delete-0",
              "garbagecollector/attempt-to-orphan-0"}
    deadline = time.monotonic() + 10

    def wait_for(condition) -> None:
        while not condition() and time.monotonic() < deadline:
            time.sleep(0.02)

    try:
        wait_for(lambda: wanted <= {t.name for t in threading.enumerate()})
        assert wanted <= {t.name for t in threading.enumerate()}
        rs = client.apps_v1().replica_sets("default").create(make_metadata_obj(
            make_id("apps/v1", "ReplicaSet", "default", "web", "")))
        pod = client.core_v1().pods("default").create(make_metadata_obj(
            make_id("v1", "Pod", "default", "p", ""), make_id("apps/v1", "ReplicaSet", "default", "web", rs.metadata.uid)))
        wait_for(lambda: gc.graph_has_uid(rs.metadata.uid) and gc.graph_has_uid(pod.metadata.uid))
        client.apps_v1().replica_sets("default").delete("web", meta.DeleteOptions())
        wait_for(lambda: not client.core_v1().pods("default").list().items)
        assert client.core_v1().pods("default").list().items == []
    finally:
        stop.set()
        runner.join(timeout=10)
        factory.shutdown()
    assert not runner.is_alive()
    assert not wanted & {t.name for t in threading.enumerate()}
