"""Port of pkg/controller/garbagecollector/garbagecollector.go: the collector's workers.

The graph builder (graph_builder.py) watches every served resource and queues
nodes that may be garbage on `attempt_to_delete`, and owners that are being
deleted with the orphan finalizer on `attempt_to_orphan`. The workers here
take nodes off those queues and talk to the API server:

- attempt_to_delete_item reads the object fresh and sorts its owner
  references into solid (the owner exists), dangling (the owner is gone: a
  404, or its name now holds an object with another uid) and waiting (the
  owner is being deleted in the foreground). No solid owner: the object is
  deleted. Solid and some dangling or waiting: only those references are
  removed. An owner in foreground deletion is finished (its finalizer
  removed) once no dependent blocks it any more.
- orphan_dependents removes the owner's reference from every dependent, then
  the owner's orphan finalizer, so the owner goes and the dependents stay.

Start reading at: GarbageCollector.attempt_to_delete_item, then classify_references,
process_deleting_dependents_item and attempt_to_orphan_worker.

Design notes: the three propagation policies. The API server decides what a
DELETE does before the collector sees anything (minikcm.apiserver.deletion):
- Background (the default for most kinds): the owner is removed at once. Its
  delete event makes the graph builder queue every dependent; each one's
  owner reference is now dangling, so it is deleted in turn.
- Foreground: the owner stays, with a deletionTimestamp and the
  `foregroundDeletion` finalizer. The graph builder marks its node
  deleting-dependents and queues the dependents, which see a waiting owner and
  are deleted (themselves in the foreground if they have dependents). Each
  dependent's delete event wakes the owner; when no dependent with
  blockOwnerDeletion is left, the collector removes the finalizer and the
  server removes the owner.
- Orphan: the owner stays with the `orphan` finalizer until the collector has
  removed the owner's reference from every dependent; then the finalizer goes
  and so does the owner. The dependents live on, ownerless.

Not ported: Sync and its discovery loop (resync_monitors runs once, at
construction, with the resources of minikcm.apimachinery.schema.RESOURCES),
the REST mapper reset, metrics, the Debuggable graph dump (dump.go), the
metadata client (the typed clientset reads whole objects), contextual logging.
Differs from Go:
- new_garbage_collector takes the clientset, the shared informer factory and
  the ignored resources (what core.go has at hand); the clock comes from the
  factory unless given, and its `driven` mark chooses the run mode once.
  run's initialSyncTimeout defaults to core.go's 30 s.
- attempt_to_delete_item and friends raise where Go returns an error; the
  sentinel errors are exception classes (errors.py). The three branches of
  attemptToDeleteItem's final switch are methods of their own
  (remove_dangling_and_waiting_references, delete_in_foreground_for_waiting_owner,
  delete_or_enqueue_virtual_delete), so the function fits a screen.
- get_deletable_resources reads a list of V1APIResourceList (by default built
  from schema.RESOURCES by server_preferred_resources) instead of calling
  discovery, and returns no error.
- orphan_dependents' goroutines are a wait.Group: inline and in order on a
  driven clock (`wait.Group(inline=clock.driven)`).
- `steps()` is the driven-clock twin of `run`: the graph builder, one
  attempt-to-delete worker, one attempt-to-orphan worker, the queues' waiting
  steps and the event broadcaster. `run`'s worker threads loop over the same
  process_attempt_to_delete_worker / process_attempt_to_orphan_worker.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from kubernetes.client import V1APIResource, V1APIResourceList, V1OwnerReference

from minikcm.apimachinery import errors, meta, runtime, wait
from minikcm.apimachinery.schema import RESOURCES, GroupResource, GroupVersionResource, parse_group_version
from minikcm.apimachinery.types import UID
from minikcm.client.interface import Interface
from minikcm.clock import Clock, Seconds
from minikcm.controller.controller_ref_manager import generate_delete_owner_ref_strategic_merge_bytes
from minikcm.controller.controller_run import ControllerRun
from minikcm.controller.garbagecollector.errors import (
    EnqueuedVirtualDeleteEventError,
    NamespacedOwnerOfClusterScopedObjectError,
    RestMappingError,
)
from minikcm.controller.garbagecollector.graph import Node, ObjectReference, object_reference_for
from minikcm.controller.garbagecollector.graph_builder import (
    GraphBuilder,
    default_ignored_resources,
    has_delete_dependents_finalizer,
    has_orphan_finalizer,
    new_dependency_graph_builder,
)
from minikcm.controller.garbagecollector.operations import OperationsMixin, resource_default_namespace
from minikcm.controller.garbagecollector.patch import PatchMixin, unblock_owner_references_strategic_merge_patch
from minikcm.controller.garbagecollector.resource_mapping import resource_client
from minikcm.controller.garbagecollector.uid_cache import ReferenceCache
from minikcm.informers.factory import SharedInformerFactory
from minikcm.driver import Step
from minikcm.tools.cache.shared_informer import SYNCED_POLL_PERIOD
from minikcm.util.workqueue.rate_limiting_queue import RateLimitingType

log = logging.getLogger(__name__)

REQUEUE_ITEM = 0
"""Port of requeueItem (workQueueItemAction): try the item again later, with backoff."""
FORGET_ITEM = 1
"""Port of forgetItem: the item is done (or can never succeed); reset its backoff."""

INITIAL_SYNC_TIMEOUT: Seconds = 30.0
"""How long `run` waits for the monitors' first lists before collecting anyway (core.go's syncPeriod)."""


class GarbageCollector(OperationsMixin, PatchMixin):
    """Port of GarbageCollector (garbagecollector.go): the consumer side of the collector's queues.

    The graph builder owns the graph and the queues; the collector shares the
    queues and the absent-owner cache and works on nodes.
    Thread: any number of attempt-to-delete and attempt-to-orphan workers; the
    work queues never hand one node to two workers at once.
    """

    def __init__(self, kube_client: Interface, graph_builder: GraphBuilder) -> None:
        attempt_to_delete, attempt_to_orphan, absent_owner_cache = graph_builder.get_graph_resources()
        self.client = kube_client
        """Plays Go's metadataClient and kubeClient both: reads, deletes, patches and events."""
        self.attempt_to_delete: RateLimitingType = attempt_to_delete
        """Nodes that may be garbage (owners gone, waiting, or just observed)."""
        self.attempt_to_orphan: RateLimitingType = attempt_to_orphan
        """Owners whose dependents lose their reference to them before the owner goes."""
        self.dependency_graph_builder = graph_builder
        self.absent_owner_cache: ReferenceCache = absent_owner_cache
        """Owners known not to exist (shared with the graph builder)."""
        self.event_broadcaster = graph_builder.event_broadcaster
        self.clock: Clock = graph_builder.clock
        self.workers_started = False  # driven mode: Run's initial sync wait is over (workers_may_run)
        self.workers_deadline: datetime = self.clock.now() + timedelta(seconds=INITIAL_SYNC_TIMEOUT)
        """Driven mode: when Run's initial sync wait gives up (a driven world runs what it builds at once)."""
        self.delete_loop = ControllerRun(
            "garbagecollector/attempt-to-delete", "garbagecollector", self.attempt_to_delete,
            self.run_attempt_to_delete_worker, self.process_attempt_to_delete_worker, clock=self.clock,
            synced=self.workers_may_run, wakeup=self.workers_wakeup)
        self.orphan_loop = ControllerRun(
            "garbagecollector/attempt-to-orphan", "garbagecollector", self.attempt_to_orphan,
            self.run_attempt_to_orphan_worker, self.process_attempt_to_orphan_worker, clock=self.clock,
            synced=self.workers_may_run, wakeup=self.workers_wakeup, event_broadcaster=self.event_broadcaster,
            event_client=kube_client)
        """The two worker kinds of Run (controller_run.ControllerRun); the event pipeline rides with the
        second, so that its step comes last, after both queues' steps."""

    def __repr__(self) -> str:
        return (f"GarbageCollector(attempt_to_delete={self.attempt_to_delete.len()}, "
                f"attempt_to_orphan={self.attempt_to_orphan.len()}, graph={self.dependency_graph_builder!r})")

    def resync_monitors(self, deletable_resources: set[GroupVersionResource]) -> None:
        """Port of GarbageCollector.resyncMonitors: watch exactly these resources, and start what is new.

        Raises:
            RuntimeError: some resources got no monitor (the others are watched).
        """
        self.dependency_graph_builder.sync_monitors(deletable_resources)
        self.dependency_graph_builder.start_monitors()

    # --- running ---------------------------------------------------------------------------

    def run(self, workers: int, stop: threading.Event, initial_sync_timeout: Seconds = INITIAL_SYNC_TIMEOUT) -> None:
        """Port of GarbageCollector.Run: the graph builder thread, then `workers` pairs of worker threads.

        Threads: `garbagecollector/graph-builder`, and per worker
        `garbagecollector/attempt-to-delete-<i>` and `garbagecollector/attempt-to-orphan-<i>`,
        each re-entering its loop every second until `stop`. Waits up to
        `initial_sync_timeout` for the monitors' first lists, then collects anyway.
        Threaded mode only: the driver runs `steps()` instead.
        Blocks: until `stop` is set and every thread has ended.
        """
        self.start_event_recording()
        log.info("Starting controller controller=garbagecollector")
        builder = self.dependency_graph_builder
        threads: list[threading.Thread] = []  # Go: WaitGroup
        try:
            thread = threading.Thread(name="garbagecollector/graph-builder", target=builder.run, args=(stop,),
                                      daemon=True)
            threads.append(thread)
            thread.start()
            if self.wait_for_initial_sync(stop, initial_sync_timeout):
                log.info("Garbage collector: all resource monitors have synced")
            else:
                log.info("Garbage collector: not all resource monitors could be synced, proceeding anyways")
            log.info("Proceeding to collect garbage")
            threads += self.delete_loop.start_workers(workers, stop)
            threads += self.orphan_loop.start_workers(workers, stop)
            stop.wait()
        finally:
            log.info("Shutting down controller controller=garbagecollector")
            builder.graph_changes.shut_down()
            self.attempt_to_orphan.shut_down()
            self.attempt_to_delete.shut_down()
            for thread in threads:
                thread.join()
            self.event_broadcaster.shutdown()  # Go: deferred Shutdown

    def wait_for_initial_sync(self, stop: threading.Event, timeout: Seconds) -> bool:
        """Go: WaitForNamedCacheSyncWithContext on a context that ends after `timeout`. Threaded mode only."""
        try:
            wait.poll_until(SYNCED_POLL_PERIOD, timeout, True, self.is_synced, stop, self.clock)
        except (wait.DeadlineExceededError, wait.ContextCanceledError):
            return False
        return True

    def steps(self) -> list[Step]:
        """No upstream twin: the driven-clock twin of `run` (starts nothing).

        The graph builder's step, `garbagecollector/attempt-to-delete` and
        `garbagecollector/attempt-to-orphan` (each ready when its queue holds a
        node and the workers may run), the queues' waiting steps and the event
        broadcaster's step. The informers' steps are the factory's.
        """
        return self.dependency_graph_builder.steps() + self.delete_loop.steps() + self.orphan_loop.steps()

    def workers_may_run(self) -> bool:
        """No upstream twin: the driven twin of Run's wait before it starts the workers.

        Run starts them once the monitors have synced (or the initial sync
        timeout passed); from then on the graph builder's goroutine keeps ahead
        of them. So a worker step runs only after that moment and while no graph
        change is waiting: a worker never judges an owner by a graph that has
        not yet taken in the dependents already listed (a controller-manager
        restarted during a foreground deletion would otherwise remove the
        owner's finalizer while its dependents still exist).
        """
        if self.dependency_graph_builder.graph_changes.len() > 0:
            return False
        if not self.workers_started:
            self.workers_started = self.is_synced() or self.clock.now() >= self.workers_deadline
        return self.workers_started

    def workers_wakeup(self) -> datetime | None:
        """No upstream twin: before the workers start, the end of the initial sync wait."""
        return None if self.workers_started else self.workers_deadline

    def start_event_recording(self) -> None:
        """The first lines of Go's Run: log events and write them to the API server (once)."""
        self.orphan_loop.start_event_recording()

    def is_synced(self) -> bool:
        """Port of GarbageCollector.IsSynced: every monitor's informer has its first list."""
        return self.dependency_graph_builder.is_synced()

    # --- attempt to delete -------------------------------------------------------------------

    def run_attempt_to_delete_worker(self) -> None:
        """Port of GarbageCollector.runAttemptToDeleteWorker: process nodes until the queue shuts down."""
        while self.process_attempt_to_delete_worker():
            pass

    def process_attempt_to_delete_worker(self) -> bool:
        """Port of GarbageCollector.processAttemptToDeleteWorker: one node from attempt_to_delete. A step.

        Returns False only once the queue is shutting down.
        Blocks: until a node is queued (the driver calls it only then).
        """
        item, quit_ = self.attempt_to_delete.get()
        if quit_:
            return False
        try:
            action = self.attempt_to_delete_worker(item)
            if action == FORGET_ITEM:
                self.attempt_to_delete.forget(item)
            elif action == REQUEUE_ITEM:
                self.attempt_to_delete.add_rate_limited(item)
        finally:
            self.attempt_to_delete.done(item)  # Go: deferred Done
        return True

    def attempt_to_delete_worker(self, item: Any) -> int:
        """Port of GarbageCollector.attemptToDeleteWorker: run attempt_to_delete_item, decide the node's fate.

        A virtual node that left the graph, or whose object has been observed
        meanwhile, is dropped. Retried: errors other than the two sentinels, and
        a virtual node whose object exists but was not observed yet (so a node
        for an object added and removed during a relist cannot stay for ever).
        """
        n = item
        if not isinstance(n, Node):
            runtime.handle_error(RuntimeError(f"expect *node, got {item!r}"))
            return FORGET_ITEM
        if not n.is_observed():
            node_from_graph = self.dependency_graph_builder.uid_to_node.read(n.identity.uid)
            if node_from_graph is None:
                log.debug("item no longer in the graph, skipping attemptToDeleteItem item=%s", n.identity)
                return FORGET_ITEM
            if node_from_graph.is_observed():
                log.debug("item no longer virtual in the graph, skipping attemptToDeleteItem on virtual node "
                          "item=%s", n.identity)
                return FORGET_ITEM
        node_from_graph = self.dependency_graph_builder.uid_to_node.read(n.identity.uid)
        if node_from_graph is not None and (n.identity.api_version != node_from_graph.identity.api_version
                                            or n.identity.kind != node_from_graph.identity.kind):
            n = n.clone()  # the queued node is outdated: use the graph's apiVersion and kind
            n.identity = dataclasses.replace(n.identity, api_version=node_from_graph.identity.api_version,
                                             kind=node_from_graph.identity.kind)
        try:
            self.attempt_to_delete_item(n)
        except (EnqueuedVirtualDeleteEventError, NamespacedOwnerOfClusterScopedObjectError):
            return FORGET_ITEM  # the graph builder takes over / no retry can fix it
        except RestMappingError as err:
            log.error("error syncing item item=%s: %s", n.identity, err.message())
            return REQUEUE_ITEM
        except Exception as err:  # the one catch-all of this loop
            runtime.handle_error(err, f"error syncing item {n!r}")
            return REQUEUE_ITEM
        if not n.is_observed():
            log.debug("item hasn't been observed via informer yet item=%s", n.identity)
            return REQUEUE_ITEM
        return FORGET_ITEM

    def is_dangling(self, reference: V1OwnerReference, item: Node) -> tuple[bool, Any]:
        """Port of GarbageCollector.isDangling: whether `reference` points at nothing; the owner if it exists.

        Dangling: remembered as absent, or the GET (in the item's namespace for
        a namespaced owner kind) says 404, or the name holds an object with
        another uid. Both findings are remembered in the absent-owner cache.
        Returns (dangling, owner object or None).

        Raises:
            RestMappingError: the owner's kind is not served.
            NamespacedOwnerOfClusterScopedObjectError: a cluster-scoped item names a namespaced owner.
            StatusError: the GET failed otherwise.
        """
        absent_owner_cache_key = object_reference_for(reference, "")
        if self.absent_owner_cache.has(absent_owner_cache_key):  # an absent cluster-scoped owner
            log.debug("according to the absentOwnerCache, item's owner does not exist item=%s owner=%s",
                      item.identity, reference.uid)
            return True, None
        absent_owner_cache_key = dataclasses.replace(absent_owner_cache_key, namespace=item.identity.namespace)
        if self.absent_owner_cache.has(absent_owner_cache_key):  # an absent owner in the item's namespace
            log.debug("according to the absentOwnerCache, item's owner does not exist in namespace item=%s "
                      "owner=%s", item.identity, reference.uid)
            return True, None
        resource, namespaced = self.api_resource(reference.api_version, reference.kind)
        if not namespaced:
            absent_owner_cache_key = dataclasses.replace(absent_owner_cache_key, namespace="")
        if not item.identity.namespace and namespaced:
            log.info("item is cluster-scoped, but refers to a namespaced owner item=%s owner=%s", item.identity,
                     reference.uid)
            raise NamespacedOwnerOfClusterScopedObjectError()
        try:
            owner = resource_client(self.client, resource,
                                    resource_default_namespace(namespaced, item.identity.namespace)
                                    ).get(reference.name)
        except errors.StatusError as err:
            if not errors.is_not_found(err):
                raise
            self.absent_owner_cache.add(absent_owner_cache_key)
            log.debug("item's owner is not found item=%s owner=%s", item.identity, reference.uid)
            return True, None
        if owner.metadata.uid != reference.uid:
            log.debug("item's owner is not found, UID mismatch item=%s owner=%s", item.identity, reference.uid)
            self.absent_owner_cache.add(absent_owner_cache_key)
            return True, None
        return False, owner

    def classify_references(self, item: Node, latest_references: list[V1OwnerReference]
                            ) -> tuple[list[V1OwnerReference], list[V1OwnerReference], list[V1OwnerReference]]:
        """Port of GarbageCollector.classifyReferences: (solid, dangling, waitingForDependentsDeletion).

        solid: the owner exists and is not in foreground deletion; dangling:
        the owner does not exist; waiting: the owner exists, has a
        deletionTimestamp and the foregroundDeletion finalizer. Talks to the
        API server (is_dangling).

        Raises:
            StatusError: the first error is_dangling met talking to the API server.
        """
        solid: list[V1OwnerReference] = []
        dangling: list[V1OwnerReference] = []
        waiting_for_dependents_deletion: list[V1OwnerReference] = []
        for reference in latest_references:
            is_dangling, owner = self.is_dangling(reference, item)
            if is_dangling:
                dangling.append(reference)
                continue
            m = owner.metadata
            if m.deletion_timestamp is not None and has_delete_dependents_finalizer(m):
                waiting_for_dependents_deletion.append(reference)
            else:
                solid.append(reference)
        return solid, dangling, waiting_for_dependents_deletion

    def attempt_to_delete_item(self, item: Node) -> None:
        """Port of GarbageCollector.attemptToDeleteItem: delete the object if all its owners are gone.

        1. A node being deleted (not in foreground) is left alone: the final
           delete event will come.
        2. The live object is read; if it is gone or has another uid, a virtual
           delete event is queued (EnqueuedVirtualDeleteEventError).
        3. A node deleting its dependents goes to process_deleting_dependents_item.
        4. No owner references: nothing to do. Otherwise the references are
           classified, and:
           - some solid: only the dangling and waiting references are removed
             (a strategic merge patch; a waiting owner must not wait for us);
           - waiting owners and the object has dependents of its own: it is
             deleted in the foreground (after unblocking its own references if a
             dependent is itself deleting dependents: a possible cycle);
           - otherwise: deleted, with the policy its finalizers ask for
             (orphan, foreground) or Background.

        Raises:
            EnqueuedVirtualDeleteEventError: the object is gone; the graph builder will drop the node.
            NamespacedOwnerOfClusterScopedObjectError: a namespaced owner named by a cluster-scoped object.
            RestMappingError: an owner kind with no served resource.
            StatusError: a failed API call.
        """
        log.info("Processing item item=%s virtual=%s", item.identity, not item.is_observed())
        if item.is_being_deleted() and not item.is_deleting_dependents():
            log.debug("processing item returned at once, because its DeletionTimestamp is non-nil item=%s",
                      item.identity)
            return
        try:
            latest = self.get_object(item.identity)
        except errors.StatusError as err:
            if not errors.is_not_found(err):
                raise
            # a virtual node for an owner that does not exist: remove it from the graph
            log.debug("item not found, generating a virtual delete event item=%s", item.identity)
            self.dependency_graph_builder.enqueue_virtual_delete_event(item.identity)
            raise EnqueuedVirtualDeleteEventError() from err
        m = latest.metadata
        if m.uid != item.identity.uid:
            log.debug("UID doesn't match, item not found, generating a virtual delete event item=%s", item.identity)
            self.dependency_graph_builder.enqueue_virtual_delete_event(item.identity)
            raise EnqueuedVirtualDeleteEventError()
        if item.is_deleting_dependents():
            self.process_deleting_dependents_item(item)
            return
        owner_references = m.owner_references or []
        if not owner_references:
            log.info("item doesn't have an owner, continue on next item item=%s", item.identity)
            return
        solid, dangling, waiting = self.classify_references(item, owner_references)
        log.debug("classify item's references item=%s solid=%s dangling=%s waitingForDependentsDeletion=%s",
                  item.identity, owner_refs_to_uids(solid), owner_refs_to_uids(dangling), owner_refs_to_uids(waiting))
        if solid:
            self.remove_dangling_and_waiting_references(item, solid, dangling, waiting)
        elif waiting and item.dependents_length() != 0:
            self.delete_in_foreground_for_waiting_owner(item, latest)
        else:
            if has_orphan_finalizer(m):  # honour a finalizer already on the object
                policy = meta.DELETE_PROPAGATION_ORPHAN
            elif has_delete_dependents_finalizer(m):
                policy = meta.DELETE_PROPAGATION_FOREGROUND
            else:
                policy = meta.DELETE_PROPAGATION_BACKGROUND
            log.info("Deleting item item=%s propagationPolicy=%s", item.identity, policy)
            self.delete_or_enqueue_virtual_delete(item, latest, policy)

    def remove_dangling_and_waiting_references(self, item: Node, solid: list[V1OwnerReference],
                                               dangling: list[V1OwnerReference],
                                               waiting: list[V1OwnerReference]) -> None:
        """attemptToDeleteItem's first case: a solid owner keeps the item; drop its other references."""
        log.info("item has at least one existing owner, will not garbage collect item=%s owner=%s",
                 item.identity, owner_refs_to_uids(solid))
        if not dangling and not waiting:
            return
        log.info("remove dangling references and waiting references for item item=%s dangling=%s "
                 "waitingForDependentsDeletion=%s", item.identity, owner_refs_to_uids(dangling),
                 owner_refs_to_uids(waiting))
        # a waiting reference must go too, or its owner would wait for this item for ever
        owner_uids = owner_refs_to_uids(dangling) + owner_refs_to_uids(waiting)
        p = generate_delete_owner_ref_strategic_merge_bytes(item.identity.uid, owner_uids)

        def json_merge_patch(n: Node) -> bytes:
            return self.delete_owner_ref_json_merge_patch(n, *owner_uids)

        self.patch(item, p, json_merge_patch)

    def delete_in_foreground_for_waiting_owner(self, item: Node, latest: Any) -> None:
        """attemptToDeleteItem's second case: an owner waits, and the item has dependents of its own."""
        for dep in item.get_dependents():
            if dep.is_deleting_dependents():
                # a dependent of ours deletes its dependents too: maybe a cycle (false positives are
                # possible, and workers may race); unblock our own references, then go on
                log.info("processing item, some of its owners and its dependent have FinalizerDeletingDependents, "
                         "to prevent potential cycle, its ownerReferences are going to be modified to be "
                         "non-blocking, then the item is going to be deleted with Foreground item=%s dependent=%s",
                         item.identity, dep.identity)
                patch = unblock_owner_references_strategic_merge_patch(item)
                self.patch(item, patch, self.unblock_owner_references_json_merge_patch)
                break
        log.info("at least one owner of item has FinalizerDeletingDependents, and the item itself has "
                 "dependents, so it is going to be deleted in Foreground item=%s", item.identity)
        # its update event brings it back here, into process_deleting_dependents_item
        self.delete_or_enqueue_virtual_delete(item, latest, meta.DELETE_PROPAGATION_FOREGROUND)

    def delete_or_enqueue_virtual_delete(self, item: Node, latest: Any, policy: str) -> None:
        """Go: deleteObject, then a virtual delete event when it answered NotFound.

        Raises:
            EnqueuedVirtualDeleteEventError: the object was already gone.
        """
        m = latest.metadata
        try:
            self.delete_object(item.identity, m.resource_version or "", m.owner_references, policy)
        except errors.StatusError as err:
            if not errors.is_not_found(err):
                raise
            self.dependency_graph_builder.enqueue_virtual_delete_event(item.identity)
            raise EnqueuedVirtualDeleteEventError() from err

    def process_deleting_dependents_item(self, item: Node) -> None:
        """Port of GarbageCollector.processDeletingDependentsItem: finish or push a foreground deletion.

        No blocking dependent left: remove the foregroundDeletion finalizer (the
        server then deletes the item). Otherwise queue every blocking dependent
        that is not itself deleting its dependents.
        """
        blocking_dependents = item.blocking_dependents()
        if not blocking_dependents:
            log.info("remove DeleteDependents finalizer for item item=%s", item.identity)
            self.remove_finalizer(item, meta.FINALIZER_DELETE_DEPENDENTS)
            return
        for dep in blocking_dependents:
            if not dep.is_deleting_dependents():
                log.info("adding dependent to attemptToDelete, because its owner is deletingDependents item=%s "
                         "dependent=%s", item.identity, dep.identity)
                self.attempt_to_delete.add(dep)

    # --- attempt to orphan ---------------------------------------------------------------------

    def orphan_dependents(self, owner: ObjectReference, dependents: list[Node]) -> None:
        """Port of GarbageCollector.orphanDependents: remove `owner`'s reference from every dependent.

        One patch per dependent, all at once (inline, in order, on a driven
        clock), each with the dependent's uid as precondition. A dependent that
        is gone, or no longer names the owner, is fine.

        Raises:
            RuntimeError: naming every dependent that could not be patched.
        """
        errs: list[str] = []
        errs_lock = threading.Lock()  # Go: buffered error channel

        def orphan(dependent: Node) -> None:
            try:
                p = generate_delete_owner_ref_strategic_merge_bytes(dependent.identity.uid, [owner.uid])

                def json_merge_patch(n: Node) -> bytes:
                    return self.delete_owner_ref_json_merge_patch(n, owner.uid)

                self.patch(dependent, p, json_merge_patch)
            except Exception as err:  # collected and reported together below
                if errors.is_not_found(err):
                    return
                with errs_lock:
                    errs.append(f"orphaning {dependent.identity} failed, {err}")

        group = wait.Group(inline=self.clock.driven, name="garbagecollector/orphan")  # Go: WaitGroup
        for dependent in dependents:

            def orphan_one(d: Node = dependent) -> None:  # Go: go func(dependent *node)
                orphan(d)

            group.start(orphan_one)
        group.wait()
        if errs:
            joined = errs[0] if len(errs) == 1 else "[" + ", ".join(errs) + "]"  # Go: utilerrors.NewAggregate
            raise RuntimeError(f"failed to orphan dependents of owner {owner}, got errors: {joined}")
        log.debug("successfully updated all dependents owner=%s", owner)

    def run_attempt_to_orphan_worker(self) -> None:
        """Port of GarbageCollector.runAttemptToOrphanWorker: process owners until the queue shuts down."""
        while self.process_attempt_to_orphan_worker():
            pass

    def process_attempt_to_orphan_worker(self) -> bool:
        """Port of GarbageCollector.processAttemptToOrphanWorker: one owner from attempt_to_orphan. A step.

        Returns False only once the queue is shutting down.
        Blocks: until an owner is queued (the driver calls it only then).
        """
        item, quit_ = self.attempt_to_orphan.get()
        if quit_:
            return False
        try:
            action = self.attempt_to_orphan_worker(item)
            if action == FORGET_ITEM:
                self.attempt_to_orphan.forget(item)
            elif action == REQUEUE_ITEM:
                self.attempt_to_orphan.add_rate_limited(item)
        finally:
            self.attempt_to_orphan.done(item)  # Go: deferred Done
        return True

    def attempt_to_orphan_worker(self, item: Any) -> int:
        """Port of GarbageCollector.attemptToOrphanWorker: orphan the owner's dependents, then drop its finalizer.

        The dependents are the graph's, at this moment; the owner goes back on
        the queue (with backoff) if either part fails.
        """
        owner = item
        if not isinstance(owner, Node):
            runtime.handle_error(RuntimeError(f"expect *node, got {item!r}"))
            return FORGET_ITEM
        dependents = owner.get_dependents()
        try:
            self.orphan_dependents(owner.identity, dependents)
        except Exception as err:  # reported; the owner is retried
            runtime.handle_error(err, f"orphanDependents for {owner.identity} failed")
            return REQUEUE_ITEM
        try:
            self.remove_finalizer(owner, meta.FINALIZER_ORPHAN_DEPENDENTS)
        except Exception as err:  # reported; the owner is retried
            runtime.handle_error(err, f"removeOrphanFinalizer for {owner.identity} failed")
            return REQUEUE_ITEM
        return FORGET_ITEM

    def graph_has_uid(self, u: UID) -> bool:
        """Port of GarbageCollector.GraphHasUID (for tests): whether the graph has a node with uid `u`."""
        return self.dependency_graph_builder.uid_to_node.read(u) is not None

    def name(self) -> str:
        """Port of GarbageCollector.Name."""
        return "garbagecollector"

    def get_dependency_graph_builder(self) -> GraphBuilder:
        """Port of GarbageCollector.GetDependencyGraphBuilder."""
        return self.dependency_graph_builder


def owner_refs_to_uids(refs: list[V1OwnerReference]) -> list[UID]:
    """Port of ownerRefsToUIDs (garbagecollector.go)."""
    return [ref.uid for ref in refs]


def server_preferred_resources() -> list[V1APIResourceList]:
    """No upstream twin; what discovery's ServerPreferredResources answers for the embedded API server.

    One V1APIResourceList per group version of minikcm.apimachinery.schema.RESOURCES, sorted.
    """
    by_group_version: dict[str, list[V1APIResource]] = {}
    for info in RESOURCES.values():
        by_group_version.setdefault(info.api_version, []).append(V1APIResource(
            name=info.resource, namespaced=info.namespaced, kind=info.kind, singular_name=info.singular,
            verbs=list(info.verbs)))
    return [V1APIResourceList(group_version=gv, resources=sorted(resources, key=lambda r: r.name))
            for gv, resources in sorted(by_group_version.items())]


def get_deletable_resources(preferred_resources: Iterable[V1APIResourceList] | None = None
                            ) -> set[GroupVersionResource]:
    """Port of GetDeletableResources (garbagecollector.go): the resources the collector can work with.

    Those that support delete, list and watch. An invalid group version is
    skipped (and logged).
    Differs from Go: reads `preferred_resources` (default:
    server_preferred_resources()) instead of asking discovery, so there is no
    discovery error to return.
    """
    if preferred_resources is None:
        preferred_resources = server_preferred_resources()
    deletable: set[GroupVersionResource] = set()
    for rl in preferred_resources:
        try:
            group, version = parse_group_version(rl.group_version)
        except ValueError as err:
            log.info("ignoring invalid discovered resource groupversion=%s error=%s", rl.group_version, err)
            continue
        for r in rl.resources:
            if {"delete", "list", "watch"} <= set(r.verbs or []):  # Go: discovery.SupportsAllVerbs
                deletable.add(GroupVersionResource(group, version, r.name))
    return deletable


def new_garbage_collector(client: Interface, informer_factory: SharedInformerFactory,
                          ignored_resources: Iterable[GroupResource] | None, *,
                          clock: Clock | None = None) -> GarbageCollector:
    """Port of NewGarbageCollector (garbagecollector.go), with the first Sync's monitor setup.

    Builds the graph builder (whose monitors register handlers on
    `informer_factory`'s shared informers, so start the factory after this)
    and the collector. `ignored_resources` None means the defaults (events).
    Resources that get no monitor (minikcm has no shared informer for them:
    services) are logged, as Sync logs its monitor errors.
    Differs from Go: no metadata client, REST mapper or informersStarted;
    `clock` defaults to the factory's.
    """
    ignored = default_ignored_resources() if ignored_resources is None else set(ignored_resources)
    graph_builder = new_dependency_graph_builder(client, ignored, informer_factory, clock=clock)
    gc = new_composed_garbage_collector(client, graph_builder)
    try:
        gc.resync_monitors(get_deletable_resources())
    except RuntimeError as err:  # the other resources are watched; Go's Sync only logs this too
        log.info("garbage collector: some resources are not watched: %s", err)
    return gc


def new_composed_garbage_collector(kube_client: Interface, graph_builder: GraphBuilder) -> GarbageCollector:
    """Port of NewComposedGarbageCollector (garbagecollector.go): a collector around an existing graph builder."""
    return GarbageCollector(kube_client, graph_builder)
