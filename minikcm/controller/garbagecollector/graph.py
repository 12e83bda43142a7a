"""Port of pkg/controller/garbagecollector/graph.go: the owner/dependent graph's nodes.

Every object the collector has heard of is a `Node`, found by uid in
`ConcurrentUIDToNode`. A node knows its owners (the object's ownerReferences,
as last observed) and its dependents (the nodes whose ownerReferences name
it). A node made up for an owner nobody has observed yet is *virtual* until
an informer event shows the real object. The graph builder is the only
writer; the collector's workers read nodes, which is why each node guards its
dependents with a lock.

`set_owners` and `replace_dependent_if_it_exists` are reconstructed from
their use in graph_builder.go (the copy of graph.go we had lacks them).

Start reading at: Node, then Node.blocking_dependents.

Not ported: objectReference.MarshalLog (structured logging).
Differs from Go:
- objectReference embeds a whole metav1.OwnerReference; ObjectReference keeps
  only the coordinates (apiVersion, kind, name, uid) and the namespace. Every
  identity upstream builds has nil controller/blockOwnerDeletion, so equality
  is the same.
- Go's map[*node]struct{} of dependents is a dict keyed by Node (identity
  hash, like a pointer); it is read in a fixed order (sorted by identity, the
  order of referenceLessThan), never in hash order.
- Go guards each flag with its own RWMutex; here only the dependents have a
  lock. A flag is one attribute write or read, which is atomic in Python.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from kubernetes.client import V1OwnerReference

from minikcm.apimachinery.types import UID


@dataclass(frozen=True)
class ObjectReference:
    """Port of objectReference (graph.go): who an object is, as the collector names it.

    The owner-reference coordinates plus a namespace (which owner references
    lack: an owner is looked up in its dependent's namespace). Values compare
    and hash by all five fields, so they serve as cache keys.
    """

    api_version: str = ""
    kind: str = ""
    name: str = ""
    uid: UID = ""
    namespace: str = ""

    def __str__(self) -> str:
        """Port of objectReference.String: `[apps/v1/ReplicaSet, namespace: default, name: web, uid: u1]`."""
        return (f"[{self.api_version}/{self.kind}, namespace: {self.namespace}, name: {self.name}, "
                f"uid: {self.uid}]")

    def owner_reference(self) -> V1OwnerReference:
        """The coordinates as an owner reference (Go: the embedded OwnerReference field)."""
        return V1OwnerReference(api_version=self.api_version, kind=self.kind, name=self.name, uid=self.uid)


def object_reference_for(owner: Any, namespace: str) -> ObjectReference:
    """No upstream twin. Go's `objectReference{OwnerReference: ownerReferenceCoordinates(owner), Namespace: ns}`."""
    return ObjectReference(api_version=owner.api_version or "", kind=owner.kind or "", name=owner.name or "",
                           uid=owner.uid or "", namespace=namespace)


class Node:
    """Port of node (graph.go): one object in the dependency graph.

    Invariant (checked by the tests after every graph change): a node is in
    its owner's dependents exactly when one of its `owners` has the owner's
    uid. `being_deleted` only ever goes from False to True: deletion is a
    one-way trip.

    Thread: the graph builder (one thread) writes; collector workers read.
    `dependents_lock` guards `dependents`; the flags are single attributes.
    """

    def __init__(self, identity: ObjectReference, owners: list[V1OwnerReference] | None = None, *,
                 deleting_dependents: bool = False, being_deleted: bool = False, virtual: bool = False) -> None:
        self.identity = identity
        """Who the node stands for; replaced (on a clone) when a virtual node's real coordinates are observed."""
        self.dependents_lock = threading.Lock()  # Go: dependentsLock (an RWMutex)
        self.dependents: dict[Node, None] = {}  # nodes whose ownerReferences name this node; a set
        self.deleting_dependents = deleting_dependents
        """The object has a deletionTimestamp and the foregroundDeletion finalizer."""
        self.being_deleted = being_deleted
        """The object has a deletionTimestamp."""
        self.virtual = virtual
        """Made up for an owner reference; no informer event has shown the object yet."""
        self.owners: list[V1OwnerReference] = list(owners or [])
        """The object's ownerReferences, as last observed (compared on every update)."""

    def __repr__(self) -> str:
        flags = [name for name, on in (("virtual", self.virtual), ("being_deleted", self.being_deleted),
                                       ("deleting_dependents", self.deleting_dependents)) if on]
        return (f"Node({self.identity}, owners={[o.uid for o in self.owners]}, "
                f"dependents={len(self.dependents)}{', ' + ', '.join(flags) if flags else ''})")

    def clone(self) -> Node:
        """Port of node.clone: a copy with its own dependents set and owners list.

        Thread: graph builder only (the one writer).
        """
        c = Node(self.identity, self.owners, deleting_dependents=self.deleting_dependents,
                 being_deleted=self.being_deleted, virtual=self.virtual)
        c.dependents = dict(self.dependents)
        return c

    def mark_being_deleted(self) -> None:
        """Port of node.markBeingDeleted: only setting is possible (deletion is one way)."""
        self.being_deleted = True

    def is_being_deleted(self) -> bool:
        """Port of node.isBeingDeleted."""
        return self.being_deleted

    def mark_observed(self) -> None:
        """Port of node.markObserved: an informer event showed the object; the node is no longer virtual."""
        self.virtual = False

    def is_observed(self) -> bool:
        """Port of node.isObserved."""
        return not self.virtual

    def mark_deleting_dependents(self) -> None:
        """Port of node.markDeletingDependents."""
        self.deleting_dependents = True

    def is_deleting_dependents(self) -> bool:
        """Port of node.isDeletingDependents."""
        return self.deleting_dependents

    def add_dependent(self, dependent: Node) -> None:
        """Port of node.addDependent."""
        with self.dependents_lock:
            self.dependents[dependent] = None

    def delete_dependent(self, dependent: Node) -> None:
        """Port of node.deleteDependent."""
        with self.dependents_lock:
            self.dependents.pop(dependent, None)

    def dependents_length(self) -> int:
        """Port of node.dependentsLength."""
        with self.dependents_lock:
            return len(self.dependents)

    def get_dependents(self) -> list[Node]:
        """Port of node.getDependents: a snapshot of the dependents, sorted by identity.

        The set may change as soon as this returns; callers act on the snapshot.
        """
        with self.dependents_lock:
            deps = list(self.dependents)
        return sorted(deps, key=identity_sort_key)

    def blocking_dependents(self) -> list[Node]:
        """Port of node.blockingDependents: the dependents that hold up this node's foreground deletion.

        Those whose owner reference to this node has blockOwnerDeletion true. A
        dependent that names this node twice with blocking references is listed
        twice, as upstream does.
        """
        ret: list[Node] = []
        for dep in self.get_dependents():
            for owner in dep.owners:
                if owner.uid == self.identity.uid and owner.block_owner_deletion:
                    ret.append(dep)
        return ret

    def set_owners(self, owners: list[V1OwnerReference] | None) -> None:
        """Port of node.setOwners: the object's current ownerReferences. Thread: graph builder only."""
        self.owners = list(owners or [])

    def replace_dependent_if_it_exists(self, old: Node, new: Node) -> None:
        """Port of node.replaceDependentIfItExists: swap a cloned dependent in, if the old one was there."""
        with self.dependents_lock:
            if old in self.dependents:
                del self.dependents[old]
                self.dependents[new] = None


def identity_sort_key(n: Node) -> tuple[str, str, str, str, str]:
    """No upstream twin. The order we read Go's dependents maps in: referenceLessThan's (kind, apiVersion, ...)."""
    i = n.identity
    return (i.kind, i.api_version, i.namespace, i.name, i.uid)


def owner_reference_coordinates(ref: V1OwnerReference) -> V1OwnerReference:
    """Port of ownerReferenceCoordinates (graph.go): only uid, name, kind and apiVersion of `ref`."""
    return V1OwnerReference(uid=ref.uid, name=ref.name, kind=ref.kind, api_version=ref.api_version)


def owner_reference_matches_coordinates(a: Any, b: Any) -> bool:
    """Port of ownerReferenceMatchesCoordinates (graph.go): same uid, name, kind and apiVersion.

    Either side may be a V1OwnerReference or an ObjectReference.
    """
    return a.uid == b.uid and a.name == b.name and a.kind == b.kind and a.api_version == b.api_version


class ConcurrentUIDToNode:
    """Port of concurrentUIDToNode (graph.go): the graph's index, uid to node.

    Thread: any. `_lock` guards `uid_to_node`.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()  # Go: uidToNodeLock (an RWMutex)
        self.uid_to_node: dict[UID, Node] = {}

    def __repr__(self) -> str:
        return f"ConcurrentUIDToNode(len={len(self.uid_to_node)})"

    def write(self, node: Node) -> None:
        """Port of concurrentUIDToNode.Write: index `node` under its uid (replacing any node there)."""
        with self._lock:
            self.uid_to_node[node.identity.uid] = node

    def read(self, uid: UID) -> Node | None:
        """Port of concurrentUIDToNode.Read: the node with `uid`, or None (Go: a bool result)."""
        with self._lock:
            return self.uid_to_node.get(uid)

    def delete(self, uid: UID) -> None:
        """Port of concurrentUIDToNode.Delete."""
        with self._lock:
            self.uid_to_node.pop(uid, None)
