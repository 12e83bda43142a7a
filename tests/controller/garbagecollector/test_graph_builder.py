"""Tests for minikcm.controller.garbagecollector.graph_builder.

Ports of TestProcessEvent (garbagecollector_test.go), TestGetAlternateOwnerIdentity and
TestGraphBuilder_SyncMonitorsLeak (graph_builder_test.go), plus tables of ours for
referencesDiffs, the deletion transitions and partitionDependents.
"""

from __future__ import annotations

import pytest
from kubernetes.client import V1ObjectMeta, V1Pod

from minikcm.apimachinery import meta
from minikcm.apimachinery.schema import GroupResource, GroupVersionKind, GroupVersionResource
from minikcm.client.fake import new_simple_clientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.garbagecollector.graph_builder import (
    ADD_EVENT,
    DELETE_EVENT,
    UPDATE_EVENT,
    Event,
    GraphBuilder,
    get_alternate_owner_identity,
    new_dependency_graph_builder,
    partition_dependents,
    references_diffs,
    starts_waiting_for_dependents_deleted,
    starts_waiting_for_dependents_orphaned,
)
from minikcm.informers import new_shared_informer_factory_with_options

from .gc_testing import make_id, make_node, owner_reference, verify_graph_invariants, with_owners


def new_graph_builder(ignored: set[GroupResource] | None = None) -> GraphBuilder:
    clock = FakeClock(EPOCH, driven=True)
    client = new_simple_clientset(clock=clock)
    factory = new_shared_informer_factory_with_options(client, 0, clock=clock)
    return new_dependency_graph_builder(client, ignored or set(), factory)


def create_event(event_type: str, self_uid: str, owners: list[str]) -> Event:
    """Port of createEvent (garbagecollector_test.go): a pod known only by uid, with owners known only by uid."""
    refs = [owner_reference(o) for o in owners] or None
    return Event(event_type=event_type, gvk=GroupVersionKind("", "", ""),
                 obj=V1Pod(metadata=V1ObjectMeta(uid=self_uid, owner_references=refs)))


PROCESS_EVENT_CASES = [
    pytest.param([create_event(ADD_EVENT, "1", []),
                  create_event(ADD_EVENT, "2", ["1"]),
                  create_event(ADD_EVENT, "3", ["1", "2"])], id="test1"),
    pytest.param([create_event(ADD_EVENT, "1", []),
                  create_event(ADD_EVENT, "2", ["1"]),
                  create_event(ADD_EVENT, "3", ["1", "2"]),
                  create_event(ADD_EVENT, "4", ["2"]),
                  create_event(DELETE_EVENT, "2", ["doesn't matter"])], id="test2"),
    pytest.param([create_event(ADD_EVENT, "1", []),
                  create_event(ADD_EVENT, "2", ["1"]),
                  create_event(ADD_EVENT, "3", ["1", "2"]),
                  create_event(ADD_EVENT, "4", ["3"]),
                  create_event(UPDATE_EVENT, "2", ["4"])], id="test3"),
    pytest.param([create_event(ADD_EVENT, "4", ["2"]),
                  create_event(ADD_EVENT, "3", ["1", "2"]),
                  create_event(ADD_EVENT, "2", ["1"]),
                  create_event(ADD_EVENT, "1", []),
                  create_event(DELETE_EVENT, "2", ["doesn't matter"])], id="reverse test2"),
]


@pytest.mark.parametrize("events", PROCESS_EVENT_CASES)
def test_process_event(events, request):
    """Port of TestProcessEvent (garbagecollector_test.go): the graph invariants hold after every event."""
    gb = new_graph_builder()
    for event in events:
        gb.graph_changes.add(event)
        gb.process_graph_changes()
        verify_graph_invariants(request.node.callspec.id, gb.uid_to_node.uid_to_node)


def test_process_event_test3_moves_node_2_under_node_4():
    # test3 ends with 2 owned by 4 only: 1 must have lost 2, and 4 gained it
    gb = new_graph_builder()
    for event in PROCESS_EVENT_CASES[2].values[0]:
        gb.graph_changes.add(event)
        gb.process_graph_changes()
    two = gb.uid_to_node.read("2")
    assert two not in gb.uid_to_node.read("1").dependents
    assert two in gb.uid_to_node.read("4").dependents


# --- TestGetAlternateOwnerIdentity (graph_builder_test.go) -----------------------------------

NS1_CHILD1 = make_id("v1", "Child", "ns1", "child1", "childuid11")
NS1_CHILD2 = make_id("v1", "Child", "ns1", "child2", "childuid12")
NS2_CHILD1 = make_id("v1", "Child", "ns2", "child1", "childuid21")
CLUSTER_CHILD1 = make_id("v1", "Child", "", "child1", "childuidc1")

NS_ABSENT_PARENT_NS1 = make_id("v1", "NSParent", "ns1", "parentname", "parentuid")
NS_ABSENT_PARENT_NS2 = make_id("v1", "NSParent", "ns2", "parentname", "parentuid")
NS_ABSENT_PARENT_VERSION = make_id("xx", "NSParent", "ns1", "parentname", "parentuid")
NS_ABSENT_PARENT_KIND = make_id("v1", "xxxxxxxx", "ns1", "parentname", "parentuid")
NS_ABSENT_PARENT_NAME = make_id("v1", "NSParent", "ns1", "xxxxxxxxxx", "parentuid")
CLUSTER_ABSENT_PARENT = make_id("v1", "ClusterParent", "", "parentname", "parentuid")
CLUSTER_ABSENT_PARENT_VERSION = make_id("xx", "ClusterParent", "", "parentname", "parentuid")
CLUSTER_ABSENT_PARENT_KIND = make_id("v1", "xxxxxxxxxxxxx", "", "parentname", "parentuid")
CLUSTER_ABSENT_PARENT_NAME = make_id("v1", "ClusterParent", "", "xxxxxxxxxx", "parentuid")
CLUSTER_ABSENT_PARENT_NS1_VERSION = make_id("xx", "ClusterParent", "ns1", "parentname", "parentuid")
CLUSTER_ABSENT_PARENT_NS1_KIND = make_id("v1", "xxxxxxxxxxxxx", "ns1", "parentname", "parentuid")
ORDERED_NAMESPACED = [make_id(f"v{i}", "kind", "ns1", "name", "uid") for i in range(1, 6)]
ORDERED_CLUSTER = [make_id(f"v{i}", "kind", "", "name", "uid") for i in range(1, 6)]

ALTERNATE_OWNER_IDENTITY_CASES = [
    pytest.param([(NS1_CHILD1, [NS_ABSENT_PARENT_NS1]), (NS1_CHILD2, [NS_ABSENT_PARENT_VERSION])],
                 NS_ABSENT_PARENT_NS1, NS_ABSENT_PARENT_VERSION, id="namespaced alternate version"),
    pytest.param([(NS1_CHILD1, [NS_ABSENT_PARENT_NS1]), (NS1_CHILD2, [NS_ABSENT_PARENT_KIND])],
                 NS_ABSENT_PARENT_NS1, NS_ABSENT_PARENT_KIND, id="namespaced alternate kind"),
    pytest.param([(NS1_CHILD1, [NS_ABSENT_PARENT_NS1]), (NS2_CHILD1, [NS_ABSENT_PARENT_NS2])],
                 NS_ABSENT_PARENT_NS1, NS_ABSENT_PARENT_NS2, id="namespaced alternate namespace"),
    pytest.param([(NS1_CHILD1, [NS_ABSENT_PARENT_NS1]), (NS1_CHILD1, [NS_ABSENT_PARENT_NAME])],
                 NS_ABSENT_PARENT_NS1, NS_ABSENT_PARENT_NAME, id="namespaced alternate name"),
    pytest.param([(NS1_CHILD1, [CLUSTER_ABSENT_PARENT]), (NS1_CHILD2, [CLUSTER_ABSENT_PARENT_VERSION])],
                 CLUSTER_ABSENT_PARENT, CLUSTER_ABSENT_PARENT_NS1_VERSION, id="cluster alternate version"),
    pytest.param([(NS1_CHILD1, [CLUSTER_ABSENT_PARENT]), (NS1_CHILD2, [CLUSTER_ABSENT_PARENT_KIND])],
                 CLUSTER_ABSENT_PARENT, CLUSTER_ABSENT_PARENT_NS1_KIND, id="cluster alternate kind"),
    pytest.param([(NS1_CHILD1, [CLUSTER_ABSENT_PARENT]), (NS2_CHILD1, [CLUSTER_ABSENT_PARENT])],
                 CLUSTER_ABSENT_PARENT, None, id="cluster alternate namespace"),
    pytest.param([(NS1_CHILD1, [CLUSTER_ABSENT_PARENT]), (NS1_CHILD1, [CLUSTER_ABSENT_PARENT_NAME])],
                 CLUSTER_ABSENT_PARENT, CLUSTER_ABSENT_PARENT_NAME, id="cluster alternate name"),
    pytest.param([(NS1_CHILD1, ORDERED_NAMESPACED)], ORDERED_NAMESPACED[-1], ORDERED_NAMESPACED[0],
                 id="namespaced ref from namespaced child returns first if absent is sorted last"),
    pytest.param([(NS1_CHILD1, ORDERED_NAMESPACED)], ORDERED_NAMESPACED[-2], ORDERED_NAMESPACED[-1],
                 id="namespaced ref from namespaced child returns next after absent"),
    pytest.param([(CLUSTER_CHILD1, ORDERED_CLUSTER)], ORDERED_CLUSTER[-1], ORDERED_CLUSTER[0],
                 id="cluster ref from cluster child returns first if absent is sorted last"),
    pytest.param([(CLUSTER_CHILD1, ORDERED_CLUSTER)], ORDERED_CLUSTER[-2], ORDERED_CLUSTER[-1],
                 id="cluster ref from cluster child returns next after absent"),
    pytest.param([(NS1_CHILD1, [CLUSTER_ABSENT_PARENT, make_id("v1", "Parent", "ns1", "name", "anotheruid")])],
                 CLUSTER_ABSENT_PARENT, None, id="ignore unrelated"),
    pytest.param([(NS1_CHILD1, [CLUSTER_ABSENT_PARENT, CLUSTER_ABSENT_PARENT])],
                 CLUSTER_ABSENT_PARENT, None, id="ignore matches"),
    pytest.param([(CLUSTER_CHILD1, [CLUSTER_ABSENT_PARENT, CLUSTER_ABSENT_PARENT_KIND, CLUSTER_ABSENT_PARENT_KIND])],
                 CLUSTER_ABSENT_PARENT, CLUSTER_ABSENT_PARENT_KIND, id="collapse duplicates"),
]


@pytest.mark.parametrize("deps, verified_absent, expected_alternate", ALTERNATE_OWNER_IDENTITY_CASES)
def test_get_alternate_owner_identity(deps, verified_absent, expected_alternate):
    """Port of TestGetAlternateOwnerIdentity (graph_builder_test.go)."""
    nodes = [make_node(identity, with_owners(*owners)) for identity, owners in deps]
    assert get_alternate_owner_identity(nodes, verified_absent) == expected_alternate


# --- monitors ----------------------------------------------------------------------------------

PODS = GroupVersionResource("", "v1", "pods")
DEPLOYMENTS = GroupVersionResource("apps", "v1", "deployments")


def listener_count(gb: GraphBuilder, resource: GroupVersionResource) -> int:
    from minikcm.controller.garbagecollector.resource_mapping import shared_informer_for_resource

    return len(shared_informer_for_resource(gb.shared_informers, resource).informer().processor.listeners)


def test_graph_builder_sync_monitors_leak():
    """Port of TestGraphBuilder_SyncMonitorsLeak (graph_builder_test.go), adapted.

    Go checks that no goroutine of a removed monitor survives; here a removed
    monitor must leave no event handler on the shared informer.
    """
    gb = new_graph_builder()
    gb.sync_monitors({PODS})
    assert listener_count(gb, PODS) == 1
    gb.sync_monitors({PODS, DEPLOYMENTS})
    assert listener_count(gb, DEPLOYMENTS) == 1
    gb.sync_monitors({PODS})
    assert sorted(map(str, gb.monitors)) == [str(PODS)]
    assert listener_count(gb, PODS) == 1  # kept, not added twice
    assert listener_count(gb, DEPLOYMENTS) == 0


def test_sync_monitors_skips_ignored_and_reports_unwatchable():
    gb = new_graph_builder(ignored={GroupResource("", "events")})
    services = GroupVersionResource("", "v1", "services")
    with pytest.raises(RuntimeError, match="services"):
        gb.sync_monitors({PODS, GroupVersionResource("", "v1", "events"), services})
    assert list(gb.monitors) == [PODS]  # the watchable one is in place all the same


def test_is_synced_needs_monitors():
    gb = new_graph_builder()
    assert not gb.is_synced()


# --- referencesDiffs, transitions, partitionDependents (ours) ---------------------------------

REFERENCES_DIFFS_CASES = [
    pytest.param([owner_reference("1"), owner_reference("2")], [owner_reference("2"), owner_reference("3")],
                 ["3"], ["1"], [], id="benchmark-inputs-one-added-one-removed"),
    pytest.param([owner_reference("1", False)], [owner_reference("1", True)], [], [], ["1"],
                 id="block-owner-deletion-change-is-a-change"),
    pytest.param([owner_reference("1")], [owner_reference("1")], [], [], [], id="same-references-no-diff"),
    pytest.param([], [], [], [], [], id="no-references"),
]


@pytest.mark.parametrize("old, new, want_added, want_removed, want_changed", REFERENCES_DIFFS_CASES)
def test_references_diffs(old, new, want_added, want_removed, want_changed):
    added, removed, changed = references_diffs(old, new)
    assert [r.uid for r in added] == want_added
    assert [r.uid for r in removed] == want_removed
    assert [c.new_ref.uid for c in changed] == want_changed


NOW = "2026-01-01T00:00:00Z"


def pod_meta(deleted: bool, *finalizers: str) -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(uid="u", deletion_timestamp=NOW if deleted else None,
                                       finalizers=list(finalizers) or None))


TRANSITION_CASES = [
    pytest.param(None, pod_meta(True, meta.FINALIZER_DELETE_DEPENDENTS), True, False,
                 id="add-already-in-foreground-deletion"),
    pytest.param(pod_meta(False), pod_meta(True, meta.FINALIZER_DELETE_DEPENDENTS), True, False,
                 id="foreground-deletion-starts"),
    pytest.param(pod_meta(True, meta.FINALIZER_DELETE_DEPENDENTS), pod_meta(True, meta.FINALIZER_DELETE_DEPENDENTS),
                 False, False, id="foreground-deletion-already-seen"),
    pytest.param(pod_meta(False), pod_meta(True, meta.FINALIZER_ORPHAN_DEPENDENTS), False, True,
                 id="orphaning-starts"),
    pytest.param(pod_meta(True), pod_meta(True, meta.FINALIZER_ORPHAN_DEPENDENTS), False, True,
                 id="orphan-finalizer-added-to-deleted-object"),
    pytest.param(pod_meta(False), pod_meta(False, meta.FINALIZER_ORPHAN_DEPENDENTS), False, False,
                 id="finalizer-without-deletion"),
]


@pytest.mark.parametrize("old, new, want_deleted, want_orphaned", TRANSITION_CASES)
def test_deletion_transitions(old, new, want_deleted, want_orphaned):
    assert starts_waiting_for_dependents_deleted(old, new.metadata) is want_deleted
    assert starts_waiting_for_dependents_orphaned(old, new.metadata) is want_orphaned


def test_partition_dependents():
    owner = make_id("apps/v1", "ReplicaSet", "ns1", "rs", "rs-uid")
    good = make_node(make_id("v1", "Pod", "ns1", "good", "g"), with_owners(owner))
    other_name = make_node(make_id("v1", "Pod", "ns1", "bad", "b"),
                           with_owners(make_id("apps/v1", "ReplicaSet", "ns1", "other", "rs-uid")))
    other_namespace = make_node(make_id("v1", "Pod", "ns2", "far", "f"), with_owners(owner))
    both = make_node(make_id("v1", "Pod", "ns1", "both", "x"),
                     with_owners(owner, make_id("apps/v1", "Deployment", "ns1", "rs", "rs-uid")))
    matching, nonmatching = partition_dependents([good, other_name, other_namespace, both], owner)
    assert matching == [good, both]
    assert nonmatching == [other_name, other_namespace, both]
