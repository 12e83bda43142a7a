"""Helpers shared by the garbage collector tests (ports of the helpers of garbagecollector_test.go).

makeID, makeNode/withOwners/virtual, the event makers, verifyGraphInvariants,
trackingWorkqueue, and builders of valid wire objects for the embedded API
server (upstream's fake metadata client accepts bare metadata; ours validates).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from kubernetes.client import V1ObjectMeta, V1OwnerReference

from minikcm.apimachinery.schema import GroupVersionKind, parse_group_version
from minikcm.client.fake import new_simple_clientset
from minikcm.client.inprocess import InProcessClientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.garbagecollector.garbagecollector import GarbageCollector, new_garbage_collector
from minikcm.controller.garbagecollector.graph import Node, ObjectReference
from minikcm.controller.garbagecollector.graph_builder import (
    ADD_EVENT,
    DELETE_EVENT,
    Event,
    MetadataOnlyObject,
)
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.util.workqueue import new


def make_id(group_version: str, kind: str, namespace: str, name: str, uid: str) -> ObjectReference:
    """Port of makeID (garbagecollector_test.go)."""
    return ObjectReference(api_version=group_version, kind=kind, name=name, uid=uid, namespace=namespace)


NodeTweak = Callable[[Node], Node]


def virtual(n: Node) -> Node:
    """Port of virtual (garbagecollector_test.go): a node tweak."""
    n.virtual = True
    return n


def with_owners(*owner_references: ObjectReference) -> NodeTweak:
    """Port of withOwners (garbagecollector_test.go): a node tweak setting the owners' coordinates."""

    def tweak(n: Node) -> Node:
        n.owners = [o.owner_reference() for o in owner_references]
        return n

    return tweak


def make_node(identity: ObjectReference, *tweaks: NodeTweak) -> Node:
    """Port of makeNode (garbagecollector_test.go)."""
    n = Node(identity)
    for tweak in tweaks:
        n = tweak(n)
    return n


def make_obj(identity: ObjectReference, *owners: ObjectReference) -> MetadataOnlyObject:
    """Port of makeObj (garbagecollector_test.go)."""
    return MetadataOnlyObject(api_version=identity.api_version, kind=identity.kind, metadata=V1ObjectMeta(
        namespace=identity.namespace, uid=identity.uid, name=identity.name,
        owner_references=[o.owner_reference() for o in owners] or None))


def gvk_of(identity: ObjectReference) -> GroupVersionKind:
    group, version = parse_group_version(identity.api_version)
    return GroupVersionKind(group, version, identity.kind)


def make_add_event(identity: ObjectReference, *owners: ObjectReference) -> Event:
    """Port of makeAddEvent (garbagecollector_test.go)."""
    return Event(event_type=ADD_EVENT, gvk=gvk_of(identity), obj=make_obj(identity, *owners))


def make_delete_event(identity: ObjectReference, *owners: ObjectReference) -> Event:
    """Port of makeDeleteEvent (garbagecollector_test.go)."""
    return Event(event_type=DELETE_EVENT, gvk=gvk_of(identity), obj=make_obj(identity, *owners))


def make_virtual_delete_event(identity: ObjectReference, *owners: ObjectReference) -> Event:
    """Port of makeVirtualDeleteEvent (garbagecollector_test.go)."""
    e = make_delete_event(identity, *owners)
    e.virtual = True
    return e


def event_summary(e: Event) -> tuple[Any, ...]:
    """What reflect.DeepEqual compares of two events, as a comparable tuple."""
    m = e.obj.metadata
    owners = tuple((o.api_version, o.kind, o.name, o.uid) for o in (m.owner_references or []))
    return (e.event_type, e.virtual, e.gvk, m.namespace or "", m.name, m.uid, owners)


def verify_graph_invariants(scenario: str, uid_to_node: dict[str, Node]) -> None:
    """Port of verifyGraphInvariants: owners list the node as a dependent and the reverse."""
    for my_uid, node in uid_to_node.items():
        for dependent in node.dependents:
            assert any(o.uid == my_uid for o in dependent.owners), (
                f"{scenario}: node {node.identity} has node {dependent.identity} as a dependent, but it's not "
                "present in the latter node's owners list")
        for owner in node.owners:
            owner_node = uid_to_node.get(owner.uid)
            if owner_node is None:
                continue  # the owner need not be in the graph
            assert node in owner_node.dependents, (
                f"{scenario}: node {node.identity} has node {owner_node.identity} as an owner, but it's not "
                "present in the latter node's dependents list")


class TrackingWorkqueue:
    """Port of trackingWorkqueue (garbagecollector_test.go): a queue whose pending items can be inspected.

    add_after and add_rate_limited add at once, so every step is synchronous.
    """

    def __init__(self) -> None:
        self.limiter = new()
        self.pending_list: list[Any] = []

    def add(self, item: Any) -> None:
        if item not in self.pending_list:
            self.pending_list.append(item)
        self.limiter.add(item)

    def add_after(self, item: Any, duration: float) -> None:
        self.add(item)

    def add_rate_limited(self, item: Any) -> None:
        self.add(item)

    def get(self) -> tuple[Any, bool]:
        item, shutdown = self.limiter.get()
        if item in self.pending_list:
            self.pending_list.remove(item)
        return item, shutdown

    def done(self, item: Any) -> None:
        self.limiter.done(item)

    def forget(self, item: Any) -> None:
        pass

    def num_requeues(self, item: Any) -> int:
        return 0

    def len(self) -> int:
        assert len(self.pending_list) == self.limiter.len(), "pendingList != limiter.Len()"
        return len(self.pending_list)

    def shut_down(self) -> None:
        self.limiter.shut_down()

    def shut_down_with_drain(self) -> None:
        self.limiter.shut_down_with_drain()

    def shutting_down(self) -> bool:
        return self.limiter.shutting_down()

    def steps(self) -> list[Any]:
        return []


# --- valid wire objects for the embedded API server -------------------------------------------


def owner_ref_wire(owner: ObjectReference, *, controller: bool | None = None,
                   block_owner_deletion: bool | None = None) -> dict[str, Any]:
    ref: dict[str, Any] = {"apiVersion": owner.api_version, "kind": owner.kind, "name": owner.name,
                           "uid": owner.uid}
    if controller is not None:
        ref["controller"] = controller
    if block_owner_deletion is not None:
        ref["blockOwnerDeletion"] = block_owner_deletion
    return ref


POD_SPEC = {"containers": [{"name": "c", "image": "nginx"}]}


def make_metadata_obj(identity: ObjectReference, *owners: ObjectReference) -> dict[str, Any]:
    """Port of makeMetadataObj: a valid object of the identity's kind, with these owners."""
    meta: dict[str, Any] = {"name": identity.name, "uid": identity.uid}
    if identity.namespace:
        meta["namespace"] = identity.namespace
    if owners:
        meta["ownerReferences"] = [owner_ref_wire(o) for o in owners]
    obj: dict[str, Any] = {"apiVersion": identity.api_version, "kind": identity.kind, "metadata": meta}
    if identity.kind == "Pod":
        obj["spec"] = POD_SPEC
    elif identity.kind in ("Deployment", "ReplicaSet"):
        obj["spec"] = {"replicas": 0, "selector": {"matchLabels": {"app": identity.name}},
                       "template": {"metadata": {"labels": {"app": identity.name}}, "spec": POD_SPEC}}
    elif identity.kind == "Service":
        obj["spec"] = {"ports": [{"port": 80}]}
    return obj


def new_test_gc(*objects: Any, ignored: Any = None) -> tuple[GarbageCollector, InProcessClientset]:
    """Port of setupGC: a deterministic collector over a fake clientset holding `objects`.

    The informer factory is started (without threads); its steps are not run,
    so nothing reaches the graph unless a test feeds it.
    """
    clock = FakeClock(EPOCH, driven=True)
    client = new_simple_clientset(*objects, clock=clock)
    factory = new_shared_informer_factory_with_options(client, 0, clock=clock)
    gc = new_garbage_collector(client, factory, ignored)
    factory.start(threading.Event())
    return gc, client


def install_tracking_queues(gc: GarbageCollector) -> tuple[TrackingWorkqueue, TrackingWorkqueue, TrackingWorkqueue]:
    """Swap the collector's three queues for tracking ones (as TestConflictingData builds its collector)."""
    attempt_to_delete, attempt_to_orphan, graph_changes = TrackingWorkqueue(), TrackingWorkqueue(), TrackingWorkqueue()
    gb = gc.dependency_graph_builder
    gc.attempt_to_delete = gb.attempt_to_delete = attempt_to_delete  # type: ignore[assignment]
    gc.attempt_to_orphan = gb.attempt_to_orphan = attempt_to_orphan  # type: ignore[assignment]
    gb.graph_changes = graph_changes  # type: ignore[assignment]
    return attempt_to_delete, attempt_to_orphan, graph_changes


def owner_reference(uid: str, block_owner_deletion: bool | None = None) -> V1OwnerReference:
    """An owner reference with only a uid (Go: metav1.OwnerReference{UID: uid}): the coordinates are empty."""
    return V1OwnerReference(api_version="", kind="", name="", uid=uid, block_owner_deletion=block_owner_deletion)
