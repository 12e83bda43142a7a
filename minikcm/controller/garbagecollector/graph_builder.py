"""Port of pkg/controller/garbagecollector/graph_builder.go: events in, graph and work queues out.

Each watched resource has a *monitor*: an event handler on its shared
informer that turns every add, update and delete into an `Event` on the
`graph_changes` queue. One thread (one driver step), `process_graph_changes`,
keeps the uid-to-node graph in step with what the informers saw, and queues
every node a change may make collectable on `attempt_to_delete`, and every
owner whose orphaning delete starts on `attempt_to_orphan`, for the
collector's workers (garbagecollector.py).

Start reading at: GraphBuilder.process_graph_changes, then add_dependent_to_owners and
process_transitions.

Not ported: discovery-driven monitors (the watched set comes once from
minikcm.apimachinery.schema.RESOURCES, see get_deletable_resources),
metadata-only informers (typed shared informers are used), monitor.Run (shared
informers need no per-monitor controller), IsResourceSynced (used only by
Sync), the informersStarted gate, GetMonitor, contextual logging, most debug logs.
Differs from Go:
- A monitor is our event handler on the factory's shared informer of the
  resource (resource_mapping.py); resources without a minikcm informer
  (services) get none, and removing a monitor removes its handler.
- metaonly.MetadataOnlyObject is the small dataclass below.
- Iteration over Go maps (dependents, monitors) is in sorted order.
- `steps()` exposes process_graph_changes to the driver of a driven clock;
  `run` is its threaded wrapper. The clock's `driven` mark chooses the mode
  once, here in the constructor (queues and broadcaster built on it).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from kubernetes.client import V1EventSource, V1ObjectMeta, V1ObjectReference, V1OwnerReference

from minikcm.apimachinery import runtime, wait
from minikcm.apimachinery.meta import FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS
from minikcm.apimachinery.schema import GroupResource, GroupVersionKind, GroupVersionResource, parse_group_version
from minikcm.client.interface import Interface
from minikcm.clock import Clock
from minikcm.controller.garbagecollector.graph import (
    ConcurrentUIDToNode,
    Node,
    ObjectReference,
    object_reference_for,
    owner_reference_matches_coordinates,
)
from minikcm.controller.garbagecollector.resource_mapping import kind_for, shared_informer_for_resource
from minikcm.controller.garbagecollector.uid_cache import ReferenceCache, new_reference_cache
from minikcm.informers.factory import SharedInformerFactory
from minikcm.driver import Step
from minikcm.tools.cache.controller import ResourceEventHandlerFuncs
from minikcm.tools.cache.delta_fifo import DeletedFinalStateUnknown
from minikcm.tools.cache.shared_informer import HandlerOptions, SharedIndexInformerImpl
from minikcm.tools.cache.store import Store
from minikcm.tools.record import EventBroadcasterImpl, new_broadcaster
from minikcm.util.workqueue import (
    RateLimitingQueueConfig,
    default_controller_rate_limiter,
    new_rate_limiting_queue_with_config,
)
from minikcm.util.workqueue.rate_limiting_queue import RateLimitingType

log = logging.getLogger(__name__)

ADD_EVENT = "add"
"""Port of addEvent (eventType): an informer add."""
UPDATE_EVENT = "update"
"""Port of updateEvent."""
DELETE_EVENT = "delete"
"""Port of deleteEvent: an informer delete, or a virtual one made by the collector."""


@dataclass(eq=False)  # identity, as Go queues *event pointers
class Event:
    """Port of event (graph_builder.go): one change for process_graph_changes.

    `virtual` marks a delete event the collector made up after the API server
    said an object is gone (Go: enqueueVirtualDeleteEvent); every other event
    comes from an informer, with the kind of the monitor that saw it.
    """

    event_type: str
    obj: Any
    gvk: GroupVersionKind
    old_obj: Any = None
    """An update's old object; only used to see whether a deletion just started."""
    virtual: bool = False

    def __repr__(self) -> str:
        m = self.obj.metadata
        return (f"Event({self.event_type}{' virtual' if self.virtual else ''} {self.gvk.group_version()}/"
                f"{self.gvk.kind} {m.namespace or ''}/{m.name} uid={m.uid})")


@dataclass
class MetadataOnlyObject:
    """Port of metaonly.MetadataOnlyObject: type and object metadata only (a virtual delete event's object)."""

    api_version: str
    kind: str
    metadata: V1ObjectMeta


@dataclass
class Monitor:
    """Port of monitor (graph_builder.go): the collector's watch on one resource.

    Differs from Go: the informer is shared (the factory runs it), so a monitor
    is the informer, its store, and our handler registration on it.
    """

    informer: SharedIndexInformerImpl
    store: Store
    registration: Any = field(default=None, repr=False)
    """The handle add_event_handler gave; removing the monitor removes the handler."""


class GraphBuilder:
    """Port of GraphBuilder (graph_builder.go): the graph and the producer side of the collector's queues.

    Thread: process_graph_changes runs on one thread (the only writer of the
    graph); the informers add events from theirs; collector workers read
    nodes and add virtual delete events. `monitor_lock` guards `monitors`,
    `running` and `stop`.
    """

    def __init__(self, client: Interface, ignored_resources: set[GroupResource],
                 shared_informers: SharedInformerFactory, clock: Clock) -> None:
        self.monitors: dict[GroupVersionResource, Monitor] = {}
        self.monitor_lock = threading.RLock()  # Go: monitorLock
        self.stop: threading.Event | None = None  # Go: stopCh, set by run
        self.running = False
        self.event_broadcaster: EventBroadcasterImpl = new_broadcaster(clock=clock)
        self.event_recorder: Any = self.event_broadcaster.new_recorder(
            None, V1EventSource(component="garbage-collector-controller"))
        self.client = client
        """Plays Go's metadataClient: the collector reads objects whole."""
        self.graph_changes: RateLimitingType = new_queue("garbage_collector_graph_changes", clock)
        """Informer events (and virtual deletes) waiting for process_graph_changes."""
        self.uid_to_node = ConcurrentUIDToNode()
        self.attempt_to_delete: RateLimitingType = new_queue("garbage_collector_attempt_to_delete", clock)
        """Nodes that may be garbage, for the collector's attempt-to-delete workers."""
        self.attempt_to_orphan: RateLimitingType = new_queue("garbage_collector_attempt_to_orphan", clock)
        """Owners deleted with the orphan finalizer, for the attempt-to-orphan workers."""
        self.absent_owner_cache: ReferenceCache = new_reference_cache(500)
        """Owners known not to exist; shared with the collector."""
        self.shared_informers = shared_informers
        self.ignored_resources = set(ignored_resources)
        self.clock = clock

    def __repr__(self) -> str:
        return (f"GraphBuilder(nodes={len(self.uid_to_node.uid_to_node)}, monitors={len(self.monitors)}, "
                f"graph_changes={self.graph_changes.len()}, attempt_to_delete={self.attempt_to_delete.len()}, "
                f"attempt_to_orphan={self.attempt_to_orphan.len()})")

    # --- monitors ------------------------------------------------------------------------------

    def controller_for(self, resource: GroupVersionResource, kind: GroupVersionKind) -> Monitor:
        """Port of GraphBuilder.controllerFor: hook graph_changes onto the shared informer of `resource`.

        Adds, updates and deletes become Events of kind `kind`; a delete's
        tombstone is unwrapped. The handler never resyncs.

        Raises:
            LookupError: no shared informer for `resource`.
        """

        def add_func(obj: Any) -> None:
            self.graph_changes.add(Event(event_type=ADD_EVENT, obj=obj, gvk=kind))

        def update_func(old_obj: Any, new_obj: Any) -> None:
            self.graph_changes.add(Event(event_type=UPDATE_EVENT, obj=new_obj, old_obj=old_obj, gvk=kind))

        def delete_func(obj: Any) -> None:
            if isinstance(obj, DeletedFinalStateUnknown):
                obj = obj.obj
            self.graph_changes.add(Event(event_type=DELETE_EVENT, obj=obj, gvk=kind))

        shared = shared_informer_for_resource(self.shared_informers, resource)
        informer = shared.informer()
        handlers = ResourceEventHandlerFuncs(add_func=add_func, update_func=update_func, delete_func=delete_func)
        registration = informer.add_event_handler_with_options(handlers, HandlerOptions(resync_period=0.0))
        return Monitor(informer=informer, store=informer.get_store(), registration=registration)

    def sync_monitors(self, resources: set[GroupVersionResource]) -> None:
        """Port of GraphBuilder.syncMonitors: watch exactly `resources`, minus the ignored ones.

        Keeps monitors that stay, adds the new ones and removes the others,
        trying every resource before reporting what failed. Monitors are not
        started here.

        Raises:
            RuntimeError: naming every resource that could not get a monitor
                (the monitors that could are in place all the same).
        """
        with self.monitor_lock:
            to_remove = dict(self.monitors)
            current: dict[GroupVersionResource, Monitor] = {}
            errs: list[str] = []
            kept = added = 0
            for resource in sorted(resources, key=str):
                if resource.group_resource() in self.ignored_resources:
                    continue
                if resource in to_remove:
                    current[resource] = to_remove.pop(resource)
                    kept += 1
                    continue
                kind = kind_for(resource)
                if kind is None:
                    errs.append(f"couldn't look up resource {str(resource)!r}: no kind is served for it")
                    continue
                try:
                    current[resource] = self.controller_for(resource, kind)
                except LookupError as err:
                    errs.append(f"couldn't start monitor for resource {str(resource)!r}: {err}")
                    continue
                added += 1
            self.monitors = current
            for monitor in to_remove.values():
                monitor.informer.remove_event_handler(monitor.registration)  # Go: close(monitor.stopCh)
        log.debug("synced monitors added=%d kept=%d removed=%d", added, kept, len(to_remove))
        if errs:
            raise RuntimeError(errs[0] if len(errs) == 1 else "[" + ", ".join(errs) + "]")  # Go: NewAggregate

    def start_monitors(self) -> None:
        """Port of GraphBuilder.startMonitors: make sure the shared informers behind the monitors run.

        Does nothing before `run` (there is no stop event yet). Starting the
        factory again only starts informers nobody started yet.
        """
        with self.monitor_lock:
            if not self.running or self.stop is None:
                return
            self.shared_informers.start(self.stop)

    def stop_monitors(self) -> None:
        """Port of GraphBuilder.stopMonitors: drop every monitor (its handler), so a later run starts clean.

        Raises: RuntimeError when called while `run` is still running (Go panics).
        """
        with self.monitor_lock:
            if self.running:
                raise RuntimeError("must not call stop_monitors while still marked as running")
            monitors, self.monitors = self.monitors, {}
            for monitor in monitors.values():
                monitor.informer.remove_event_handler(monitor.registration)  # Go: close(monitor.stopCh)
        log.info("stopped monitors stopped=%d total=%d", len(monitors), len(monitors))

    def is_synced(self) -> bool:
        """Port of GraphBuilder.IsSynced: there are monitors and every one's informer has synced."""
        with self.monitor_lock:
            if not self.monitors:
                log.debug("garbage controller monitor not synced: no monitors")
                return False
            for resource in sorted(self.monitors, key=str):
                if not self.monitors[resource].informer.has_synced():
                    log.debug("garbage controller monitor not yet synced resource=%s", resource)
                    return False
            return True

    def run(self, stop: threading.Event) -> None:
        """Port of GraphBuilder.Run: start the monitors, then process graph changes until `stop`.

        Threaded mode only (the driver runs `steps()` instead).
        Blocks: until `stop` is set and graph_changes is shut down.
        """
        log.info("Running component=GraphBuilder")
        with self.monitor_lock:
            self.stop = stop
            self.running = True
        try:
            self.start_monitors()
            wait.until(self.run_process_graph_changes, 1.0, stop, self.clock)
        finally:
            with self.monitor_lock:
                self.running = False  # no monitor may start after this
            self.stop_monitors()
            log.info("Stopping component=GraphBuilder")

    def steps(self) -> list[Step]:
        """No upstream twin: the driven-clock twin of `run` (without starting informers).

        `garbagecollector/graph-builder` runs one process_graph_changes when an
        event is queued; the queue's waiting step follows. Whoever owns the
        informer factory runs its steps.
        """
        return [Step("garbagecollector/graph-builder", self.graph_changes_ready, self.process_graph_changes),
                *self.graph_changes.steps()]

    def graph_changes_ready(self) -> bool:
        """No upstream twin: an event is queued (so process_graph_changes will not block)."""
        return self.graph_changes.len() > 0

    # --- graph maintenance ------------------------------------------------------------------------

    def enqueue_virtual_delete_event(self, ref: ObjectReference) -> None:
        """Port of GraphBuilder.enqueueVirtualDeleteEvent: report that the object behind `ref` is gone.

        Used once the API server confirmed it (404 or another uid), so that the
        graph builder removes the node and wakes its dependents.
        """
        try:
            group, version = parse_group_version(ref.api_version)
        except ValueError:  # Go ignores the error and uses the zero group version
            group, version = "", ""
        self.graph_changes.add(Event(
            event_type=DELETE_EVENT, virtual=True, gvk=GroupVersionKind(group, version, ref.kind),
            obj=MetadataOnlyObject(api_version=ref.api_version, kind=ref.kind, metadata=V1ObjectMeta(
                namespace=ref.namespace, uid=ref.uid, name=ref.name)),
        ))

    def add_dependent_to_owners(self, n: Node, owners: list[V1OwnerReference]) -> None:
        """Port of GraphBuilder.addDependentToOwners: add `n` to its owners' dependents.

        An owner not in the graph gets a virtual node (in n's namespace), queued
        so that the API server says whether it exists. An owner node that
        disagrees with n's reference (namespace, coordinates, or a cluster-scoped
        virtual owner seen from a namespace) gets n itself queued for a check,
        and an observed one in another namespace a warning event on n.
        """
        has_potentially_invalid_owner_reference = False
        for owner in owners:
            owner_node = self.uid_to_node.read(owner.uid)
            found = owner_node is not None
            if owner_node is None:
                owner_node = Node(object_reference_for(owner, n.identity.namespace), virtual=True)
                self.uid_to_node.write(owner_node)
            owner_node.add_dependent(n)
            if not found:
                self.attempt_to_delete.add(owner_node)  # the collector asks the server whether it exists
            elif not has_potentially_invalid_owner_reference:
                owner_is_namespaced = bool(owner_node.identity.namespace)
                if owner_is_namespaced and owner_node.identity.namespace != n.identity.namespace:
                    if owner_node.is_observed():
                        # an observed namespaced owner in another namespace: certainly wrong
                        log.info("item references an owner but does not match namespaces item=%s owner=%s",
                                 n.identity, owner_node.identity)
                        self.report_invalid_namespace_owner_ref(n, owner.uid)
                    has_potentially_invalid_owner_reference = True
                elif not owner_reference_matches_coordinates(owner, owner_node.identity):
                    if owner_node.is_observed():
                        log.info("item references an owner with coordinates that do not match the observed "
                                 "identity item=%s owner=%s", n.identity, owner_node.identity)
                    has_potentially_invalid_owner_reference = True
                elif (not owner_is_namespaced and owner_node.identity.namespace != n.identity.namespace
                      and not owner_node.is_observed()):
                    # a virtual owner without namespace, referred to from a namespace: maybe a missing
                    # namespaced owner named by a cluster-scoped child (kubernetes issue 98040)
                    has_potentially_invalid_owner_reference = True
        if has_potentially_invalid_owner_reference:
            self.attempt_to_delete.add(n)

    def report_invalid_namespace_owner_ref(self, n: Node, invalid_owner_uid: str) -> None:
        """Port of GraphBuilder.reportInvalidNamespaceOwnerRef: a Warning event on `n` naming the bad reference."""
        invalid = next((ref for ref in n.owners if ref.uid == invalid_owner_uid), None)
        if invalid is None:
            return
        ref = V1ObjectReference(kind=n.identity.kind, api_version=n.identity.api_version,
                                namespace=n.identity.namespace, name=n.identity.name, uid=n.identity.uid)
        invalid_identity = object_reference_for(invalid, n.identity.namespace)
        self.event_recorder.eventf(ref, "Warning", "OwnerRefInvalidNamespace",
                                   "ownerRef %s does not exist in namespace %q", str(invalid_identity),
                                   n.identity.namespace)

    def insert_node(self, n: Node) -> None:
        """Port of GraphBuilder.insertNode: index `n`, then add it to its owners' dependents."""
        self.uid_to_node.write(n)
        self.add_dependent_to_owners(n, n.owners)

    def remove_dependent_from_owners(self, n: Node, owners: list[V1OwnerReference]) -> None:
        """Port of GraphBuilder.removeDependentFromOwners: take `n` out of these owners' dependents."""
        for owner in owners:
            owner_node = self.uid_to_node.read(owner.uid)
            if owner_node is not None:
                owner_node.delete_dependent(n)

    def remove_node(self, n: Node) -> None:
        """Port of GraphBuilder.removeNode: unindex `n` and take it out of its owners' dependents."""
        self.uid_to_node.delete(n.identity.uid)
        self.remove_dependent_from_owners(n, n.owners)

    def add_unblocked_owners_to_delete_queue(self, removed: list[V1OwnerReference],
                                             changed: list[OwnerRefPair]) -> None:
        """Port of GraphBuilder.addUnblockedOwnersToDeleteQueue: wake owners a dependent stopped blocking.

        An owner waiting in foreground deletion is woken when a blocking
        reference to it disappears or stops blocking (blockOwnerDeletion
        turned false or unset), so it can check whether it may go now.
        """
        for ref in removed:
            if ref.block_owner_deletion:
                node = self.uid_to_node.read(ref.uid)
                if node is not None:  # Go logs a miss at V(5)
                    self.attempt_to_delete.add(node)
        for c in changed:
            was_blocked = bool(c.old_ref.block_owner_deletion)
            is_unblocked = not c.new_ref.block_owner_deletion
            if was_blocked and is_unblocked:
                node = self.uid_to_node.read(c.new_ref.uid)
                if node is not None:
                    self.attempt_to_delete.add(node)

    def process_transitions(self, old_obj: Any, new_meta: V1ObjectMeta, n: Node) -> None:
        """Port of GraphBuilder.processTransitions: act when an owner's cascading deletion starts.

        - The orphan finalizer just appeared on a deleted object: queue it for
          attempt_to_orphan (its dependents lose their references to it).
        - The foregroundDeletion finalizer just appeared: mark the node as
          deleting its dependents and queue them and the node itself.
        """
        if starts_waiting_for_dependents_orphaned(old_obj, new_meta):
            self.attempt_to_orphan.add(n)
            return
        if starts_waiting_for_dependents_deleted(old_obj, new_meta):
            log.info("add item to attemptToDelete, because it's waiting for its dependents to be deleted item=%s",
                     n.identity)
            n.mark_deleting_dependents()  # a node inserted as virtual had no chance to set it
            for dep in n.get_dependents():
                self.attempt_to_delete.add(dep)
            self.attempt_to_delete.add(n)

    def run_process_graph_changes(self) -> None:
        """Port of GraphBuilder.runProcessGraphChanges: process events until the queue shuts down."""
        while self.process_graph_changes():
            pass

    def process_graph_changes(self) -> bool:
        """Port of GraphBuilder.processGraphChanges: apply one event to the graph. The step of this loop.

        1. An informer event for a virtual node marks it observed (a clone with
           the real coordinates, if they differ; disagreeing dependents are queued).
        2. add/update of an unknown uid: insert a node, process transitions.
        3. add/update of a known uid: fix apiVersion/kind, apply owner changes,
           mark deletion, process transitions.
        4. delete: remove the node (unless a virtual delete disagrees with the
           graph), remember it as absent if it had dependents, queue its
           dependents and any owner waiting for them.

        Returns False only once the queue is shutting down.
        Blocks: until an event is queued (the driver calls it only then).
        """
        event, quit_ = self.graph_changes.get()
        if quit_:
            return False
        try:
            self.process_event(event)
        finally:
            self.graph_changes.done(event)  # Go: deferred Done
        return True

    def process_event(self, event: Event) -> None:
        """The body of processGraphChanges for one event (split off so the step stays short)."""
        m: V1ObjectMeta | None = getattr(event.obj, "metadata", None)
        if m is None:
            runtime.handle_error(RuntimeError(f"cannot access obj: {event.obj!r}"))
            return
        existing_node = self.uid_to_node.read(m.uid or "")
        if existing_node is not None and not event.virtual and not existing_node.is_observed():
            existing_node = self.observe_virtual_node(event, m, existing_node)
        if event.event_type in (ADD_EVENT, UPDATE_EVENT) and existing_node is None:
            new_node = Node(identity_from_event(event, m), m.owner_references,
                            deleting_dependents=being_deleted(m) and has_delete_dependents_finalizer(m),
                            being_deleted=being_deleted(m))
            self.insert_node(new_node)
            # the informer may fold a create and a delete into one event
            self.process_transitions(event.old_obj, m, new_node)
        elif event.event_type in (ADD_EVENT, UPDATE_EVENT):
            assert existing_node is not None
            self.process_update(event, m, existing_node)
        elif event.event_type == DELETE_EVENT:
            if existing_node is None:
                log.debug("item doesn't exist in the graph, this shouldn't happen item=%s", m.uid)
                return
            self.process_delete(event, m, existing_node)

    def observe_virtual_node(self, event: Event, m: V1ObjectMeta, existing_node: Node) -> Node:
        """Phase 1 of processGraphChanges: an informer event shows the object behind a virtual node.

        Returns the node now in the graph (a clone when the identity changed).
        """
        observed_identity = identity_from_event(event, m)
        if observed_identity != existing_node.identity:
            # dependents that named the owner by other coordinates are checked again (bad child, good parent)
            _, potentially_invalid = partition_dependents(existing_node.get_dependents(), observed_identity)
            for dep in potentially_invalid:
                if observed_identity.namespace and dep.identity.namespace != observed_identity.namespace:
                    log.info("item references an owner but does not match namespaces item=%s owner=%s",
                             dep.identity, observed_identity)
                    self.report_invalid_namespace_owner_ref(dep, observed_identity.uid)
                self.attempt_to_delete.add(dep)
            log.info("replacing virtual item with observed item virtual=%s observed=%s",
                     existing_node.identity, observed_identity)
            existing_node = existing_node.clone()  # never change a node other threads may hold
            existing_node.identity = observed_identity
            self.uid_to_node.write(existing_node)
        existing_node.mark_observed()
        return existing_node

    def process_update(self, event: Event, m: V1ObjectMeta, existing_node: Node) -> None:
        """Phase 3 of processGraphChanges: an add or update of an object the graph knows."""
        gv = event.gvk.group_version()
        if not event.virtual and (existing_node.identity.api_version != gv
                                  or existing_node.identity.kind != event.gvk.kind):
            old_existing_node = existing_node
            existing_node = existing_node.clone()
            existing_node.identity = ObjectReference(api_version=gv, kind=event.gvk.kind,
                                                     name=existing_node.identity.name,
                                                     uid=existing_node.identity.uid,
                                                     namespace=existing_node.identity.namespace)
            self.uid_to_node.write(existing_node)
            for owner in existing_node.owners:
                owner_node = self.uid_to_node.read(owner.uid)
                if owner_node is not None:
                    owner_node.replace_dependent_if_it_exists(old_existing_node, existing_node)

        added, removed, changed = references_diffs(existing_node.owners, m.owner_references or [])
        if added or removed or changed:
            self.add_unblocked_owners_to_delete_queue(removed, changed)
            existing_node.set_owners(m.owner_references)
            self.add_dependent_to_owners(existing_node, added)
            self.remove_dependent_from_owners(existing_node, removed)

        if being_deleted(m):
            existing_node.mark_being_deleted()
        self.process_transitions(event.old_obj, m, existing_node)

    def process_delete(self, event: Event, m: V1ObjectMeta, existing_node: Node) -> None:
        """Phase 4 of processGraphChanges: a delete, observed or virtual."""
        remove_existing_node = True
        if event.virtual:
            deleted_identity = identity_from_event(event, m)
            if existing_node.virtual:
                # we are not sure of a virtual node's coordinates: do dependents name it otherwise?
                matching, nonmatching = partition_dependents(existing_node.get_dependents(), deleted_identity)
                if nonmatching:
                    remove_existing_node = False  # some dependents disagree: keep the node
                    if matching:
                        self.absent_owner_cache.add(deleted_identity)
                        for dep in matching:
                            self.attempt_to_delete.add(dep)
                    if existing_node.identity == deleted_identity:
                        # the checked identity is gone: try another one the dependents use
                        replacement_identity = get_alternate_owner_identity(nonmatching, deleted_identity)
                        if replacement_identity is not None:
                            replacement_node = existing_node.clone()
                            replacement_node.identity = replacement_identity
                            self.uid_to_node.write(replacement_node)
                            self.attempt_to_delete.add_rate_limited(replacement_node)
            elif existing_node.identity != deleted_identity:
                # an observed node is never removed by a virtual delete of other coordinates
                remove_existing_node = False
                matching, _ = partition_dependents(existing_node.get_dependents(), deleted_identity)
                if matching:
                    self.absent_owner_cache.add(deleted_identity)
                    for dep in matching:
                        self.attempt_to_delete.add(dep)

        if remove_existing_node:
            self.remove_node(existing_node)
            dependents = existing_node.get_dependents()
            if dependents:
                self.absent_owner_cache.add(identity_from_event(event, m))
            for dep in dependents:
                self.attempt_to_delete.add(dep)
            for owner in existing_node.owners:
                owner_node = self.uid_to_node.read(owner.uid)
                if owner_node is None or not owner_node.is_deleting_dependents():
                    continue
                # the owner may be waiting for exactly this dependent to go
                self.attempt_to_delete.add(owner_node)

    def get_graph_resources(self) -> tuple[RateLimitingType, RateLimitingType, ReferenceCache]:
        """Port of GraphBuilder.GetGraphResources: the queues and cache the collector shares."""
        return self.attempt_to_delete, self.attempt_to_orphan, self.absent_owner_cache

    def name(self) -> str:
        """Port of GraphBuilder.Name."""
        return "dependencygraphbuilder"


def new_queue(name: str, clock: Clock) -> RateLimitingType:
    """No upstream twin. A work queue as NewTypedRateLimitingQueueWithConfig makes them for the graph builder."""
    return new_rate_limiting_queue_with_config(
        default_controller_rate_limiter(),
        RateLimitingQueueConfig(name=name, clock=clock))


def new_dependency_graph_builder(client: Interface, ignored_resources: set[GroupResource],
                                 shared_informers: SharedInformerFactory, *,
                                 clock: Clock | None = None) -> GraphBuilder:
    """Port of NewDependencyGraphBuilder (graph_builder.go).

    Differs from Go: no metadata client or REST mapper (the client and
    minikcm.apimachinery.schema stand in), no informersStarted channel; `clock`
    defaults to the informer factory's.
    """
    clock = clock if clock is not None else shared_informers.clock
    return GraphBuilder(client, ignored_resources, shared_informers, clock)


DEFAULT_IGNORED_RESOURCES: frozenset[GroupResource] = frozenset({
    GroupResource("", "events"),
    GroupResource("events.k8s.io", "events"),
})
"""Port of ignoredResources (graph_builder.go): never watched (events are many and own nothing)."""


def default_ignored_resources() -> set[GroupResource]:
    """Port of DefaultIgnoredResources (graph_builder.go): a copy of the default ignore set."""
    return set(DEFAULT_IGNORED_RESOURCES)


@dataclass(frozen=True)
class OwnerRefPair:
    """Port of ownerRefPair (graph_builder.go): one owner reference, before and after an update."""

    old_ref: V1OwnerReference
    new_ref: V1OwnerReference


def references_diffs(old: list[V1OwnerReference], new: list[V1OwnerReference]
                     ) -> tuple[list[V1OwnerReference], list[V1OwnerReference], list[OwnerRefPair]]:
    """Port of referencesDiffs (graph_builder.go): owner references added, removed and changed, by uid.

    Example: old [u1, u2], new [u2 (now blocking), u3] gives added [u3],
    removed [u1], changed [(u2, u2 blocking)]. Removed ones come in old's order
    (Go: set order).
    """
    old_uid_to_ref = {ref.uid: ref for ref in old}
    remaining = dict(old_uid_to_ref)
    added: list[V1OwnerReference] = []
    changed: list[OwnerRefPair] = []
    for value in new:
        if value.uid in remaining:
            if old_uid_to_ref[value.uid] != value:  # Go: reflect.DeepEqual
                changed.append(OwnerRefPair(old_ref=old_uid_to_ref[value.uid], new_ref=value))
            del remaining[value.uid]
        else:
            added.append(value)
    removed = list(remaining.values())
    return added, removed, changed


def deletion_starts_with_finalizer(old_obj: Any, new_meta: V1ObjectMeta, matching_finalizer: str) -> bool:
    """Port of deletionStartsWithFinalizer: `new` is deleted with the finalizer, and `old` was not (or is None)."""
    if not being_deleted(new_meta) or not has_finalizer(new_meta, matching_finalizer):
        return False
    if old_obj is None:
        return True
    old_meta: V1ObjectMeta | None = getattr(old_obj, "metadata", None)
    if old_meta is None:
        runtime.handle_error(RuntimeError(f"cannot access oldObj: {old_obj!r}"))
        return False
    return not being_deleted(old_meta) or not has_finalizer(old_meta, matching_finalizer)


def being_deleted(m: V1ObjectMeta) -> bool:
    """Port of beingDeleted: the object has a deletionTimestamp."""
    return m.deletion_timestamp is not None


def has_delete_dependents_finalizer(m: V1ObjectMeta) -> bool:
    """Port of hasDeleteDependentsFinalizer: the foregroundDeletion finalizer is present."""
    return has_finalizer(m, FINALIZER_DELETE_DEPENDENTS)


def has_orphan_finalizer(m: V1ObjectMeta) -> bool:
    """Port of hasOrphanFinalizer: the orphan finalizer is present."""
    return has_finalizer(m, FINALIZER_ORPHAN_DEPENDENTS)


def has_finalizer(m: V1ObjectMeta, matching_finalizer: str) -> bool:
    """Port of hasFinalizer."""
    return matching_finalizer in (m.finalizers or [])


def starts_waiting_for_dependents_deleted(old_obj: Any, new_meta: V1ObjectMeta) -> bool:
    """Port of startsWaitingForDependentsDeleted: a foreground deletion just started."""
    return deletion_starts_with_finalizer(old_obj, new_meta, FINALIZER_DELETE_DEPENDENTS)


def starts_waiting_for_dependents_orphaned(old_obj: Any, new_meta: V1ObjectMeta) -> bool:
    """Port of startsWaitingForDependentsOrphaned: an orphaning deletion just started."""
    return deletion_starts_with_finalizer(old_obj, new_meta, FINALIZER_ORPHAN_DEPENDENTS)


def identity_from_event(event: Event, m: V1ObjectMeta) -> ObjectReference:
    """Port of identityFromEvent: the event object's identity, with the kind of the monitor that saw it."""
    return ObjectReference(api_version=event.gvk.group_version(), kind=event.gvk.kind, uid=m.uid or "",
                           name=m.name or "", namespace=m.namespace or "")


def partition_dependents(dependents: list[Node], match_owner_identity: ObjectReference
                         ) -> tuple[list[Node], list[Node]]:
    """Port of partitionDependents: dependents that name the owner by these coordinates, and those that don't.

    Only references with the owner's uid count. A dependent in another
    namespace than a namespaced owner never matches. A dependent holding two
    references to the uid, one matching and one not, is in both lists.
    """
    owner_is_namespaced = bool(match_owner_identity.namespace)
    matching: list[Node] = []
    nonmatching: list[Node] = []
    for dep in dependents:
        found_match = found_mismatch = False
        if owner_is_namespaced and match_owner_identity.namespace != dep.identity.namespace:
            found_mismatch = True  # every reference from another namespace is wrong
        else:
            for owner_ref in dep.owners:
                if owner_ref.uid == match_owner_identity.uid:
                    if owner_reference_matches_coordinates(owner_ref, match_owner_identity):
                        found_match = True
                    else:
                        found_mismatch = True
        if found_match:
            matching.append(dep)
        if found_mismatch:
            nonmatching.append(dep)
    return matching, nonmatching


def reference_sort_key(a: ObjectReference) -> tuple[str, str, str, str, str]:
    """Port of referenceLessThan as a sort key: kind, apiVersion, namespace, name, uid."""
    return (a.kind, a.api_version, a.namespace, a.name, a.uid)


def reference_less_than(a: ObjectReference, b: ObjectReference) -> bool:
    """Port of referenceLessThan: kind and apiVersion first, so kinds order the same in every namespace."""
    return reference_sort_key(a) < reference_sort_key(b)


def get_alternate_owner_identity(deps: list[Node], verified_absent_identity: ObjectReference
                                 ) -> ObjectReference | None:
    """Port of getAlternateOwnerIdentity: another identity the dependents give to the owner's uid.

    Among the references to the uid that differ from the verified-absent
    identity (other apiVersion, kind, name or namespace), the first one after
    it in referenceLessThan order, else the first overall; None if there is no
    other. A cluster-scoped absent identity makes alternates of the same
    apiVersion and kind cluster-scoped too.
    """
    absent_identity_is_cluster_scoped = not verified_absent_identity.namespace
    seen_alternates: set[ObjectReference] = {verified_absent_identity}
    first: ObjectReference | None = None
    first_following: ObjectReference | None = None
    for dep in deps:
        for owner_ref in dep.owners:
            if owner_ref.uid != verified_absent_identity.uid:
                continue
            if owner_reference_matches_coordinates(owner_ref, verified_absent_identity):
                if absent_identity_is_cluster_scoped or verified_absent_identity.namespace == dep.identity.namespace:
                    continue  # exactly the identity already found absent
            ref = object_reference_for(owner_ref, dep.identity.namespace)
            if (absent_identity_is_cluster_scoped and ref.api_version == verified_absent_identity.api_version
                    and ref.kind == verified_absent_identity.kind):
                ref = ObjectReference(ref.api_version, ref.kind, ref.name, ref.uid, "")  # known cluster-scoped
            if ref in seen_alternates:
                continue
            seen_alternates.add(ref)
            if first is None or reference_less_than(ref, first):
                first = ref
            if reference_less_than(verified_absent_identity, ref) and (
                    first_following is None or reference_less_than(ref, first_following)):
                first_following = ref
    return first_following if first_following is not None else first
