"""Port of pkg/controller/replicaset/replica_set.go.

The ReplicaSet controller keeps the number of pods equal to `spec.replicas`.
Informer handlers turn ReplicaSet and pod changes into ReplicaSet keys on a
rate-limited work queue; a worker takes a key and calls `sync_replica_set`,
which claims the matching pods, creates missing ones in slow-start batches or
deletes surplus ones (the least valuable first), and writes the counts it
observed to the ReplicaSet's status.

Start reading at: ReplicaSetController.sync_replica_set, then manage_replicas
and slow_start_batch; add_pod, update_pod and delete_pod keep the expectations.

Design notes: expectations. A sync that creates 5 pods records "5 adds
expected"; later syncs of that ReplicaSet leave the pod count alone (they still
write status) until the informer has shown those 5 pods or 5 minutes have
passed, so a sync that runs before the cache caught up cannot create 5 more.
Deletions are expected by pod key, because a graceful delete is seen twice
(deletionTimestamp set, then the delete) and must count once. The 1.36
consistency store adds a second guard: a sync is refused, and retried, while
the informers have not yet seen the controller's own last writes.

Layout: the constructors come before the class (Go: the struct first); the
methods follow Go's order; the package functions end the file.

Not ported: metrics (ReplicaSetRequeueSkips, SortingDeletionAgeRatio),
contextual logging, the ReplicationController adapters.
Differs from Go:
- No struct embedding: the GroupVersionKind is the field `gvk`; `kind` reads it.
- The clock is injected (default: the informer factory's) and chooses the run
  mode once: on a driven clock (`clock.driven`) the driver runs `steps()`
  instead of `run()`, and the goroutines of slow_start_batch and of the
  parallel deletes run inline, in order (`wait.Group(inline=clock.driven)`).
  `run()`'s worker threads loop over the same `process_next_work_item`.
- Errors are raised (PORTING §4); sync_replica_set catches manage_replicas'
  error, puts it in the status and raises it afterwards, as Go returns it.
- slow_start_batch returns (successes, error) (STYLE §7, "Exception to the rule").
- get_pods_to_delete and get_pods_ranked_by_related_pods_on_same_node take
  `now` (Go: metav1.Now()), so the age buckets follow the injected clock.
- get_pod_replica_sets returns [] for Go's nil; the controllerUID index is
  only added when missing (Go ignores AddIndexers' conflict error).
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kubernetes.client import V1EventSource, V1OwnerReference, V1Pod, V1ReplicaSet

from minikcm import features
from minikcm.api.pod.util import is_pod_ready
from minikcm.apimachinery import errors, labels, runtime, wait
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.meta import GetOptions, get_controller_of, label_selector_as_selector, new_controller_ref
from minikcm.apimachinery.schema import GroupResource, GroupVersionKind
from minikcm.apimachinery.types import NamespacedName
from minikcm.client.interface import Interface
from minikcm.clock import Clock, Seconds
from minikcm.controller import controller_run, controller_utils
from minikcm.controller.controller_ref_manager import new_pod_controller_ref_manager, recheck_deletion_timestamp
from minikcm.controller.controller_utils import ActivePodsWithRanks, PodControlInterface, key_func, pod_key
from minikcm.controller.replicaset.replica_set_utils import calculate_status, update_replica_set_status
from minikcm.controller.util import consistency as consistencyutil
from minikcm.informers.factory import ResourceInformer
from minikcm.informers.listers import PodLister, ReplicaSetLister
from minikcm.driver import Step
from minikcm.tools.cache.controller import ResourceEventHandlerFuncs
from minikcm.tools.cache.delta_fifo import DeletedFinalStateUnknown
from minikcm.tools.cache.index import Indexer
from minikcm.tools.cache.store import split_meta_namespace_key
from minikcm.tools.record import EventBroadcasterImpl, new_broadcaster
from minikcm.util import workqueue
from minikcm.util.workqueue.rate_limiting_queue import RateLimitingType

log = logging.getLogger(__name__)

BURST_REPLICAS = 500
"""Port of BurstReplicas: a sync creates or deletes at most this many pods, then waits to see them."""
# Go's statusUpdateRetries is STATUS_UPDATE_RETRIES in replica_set_utils.py, beside its only user.
CONTROLLER_UID_INDEX = "controllerUID"
"""Port of controllerUIDIndex: ReplicaSets indexed by the UID of their controller (a Deployment)."""
REPLICA_SET_GROUP_RESOURCE = GroupResource("apps", "replicasets")
"""Port of replicaSetGroupResource (the consistency store's key for status writes)."""
POD_GROUP_RESOURCE = GroupResource("", "pods")
"""Port of podGroupResource (the consistency store's key for pod writes)."""
NAMESPACE_TERMINATING_CAUSE = "NamespaceTerminating"
"""Port of v1.NamespaceTerminatingCause: why a create fails in a namespace being deleted."""

SyncHandler = Callable[[str], None]
"""The function the worker calls with a key; it raises to have the key retried."""


@dataclass(frozen=True)
class ReplicaSetControllerFeatures:
    """Port of ReplicaSetControllerFeatures: switches per controller type, apart from feature gates."""

    enable_status_terminating_replicas: bool = True
    """Report status.terminatingReplicas (the DeploymentReplicaSetTerminatingReplicas gate must be on too)."""


def default_replica_set_controller_features() -> ReplicaSetControllerFeatures:
    """Port of DefaultReplicaSetControllerFeatures: everything on."""
    return ReplicaSetControllerFeatures(enable_status_terminating_replicas=True)


def new_replica_set_controller(rs_informer: ResourceInformer[ReplicaSetLister],
                               pod_informer: ResourceInformer[PodLister], kube_client: Interface,
                               burst_replicas: int, *, clock: Clock | None = None) -> ReplicaSetController:
    """Port of NewReplicaSetController: the controller, its event recorder and consistency store.

    With StaleControllerConsistencyReplicaSet on (the 1.36 default) the store
    compares against both informers' stores, and every pod the controller
    writes is recorded under its ReplicaSet.
    Differs from Go: `clock` defaults to the informer factory's.
    """
    clock = clock if clock is not None else rs_informer.factory.clock
    event_broadcaster = new_broadcaster(clock=clock)

    consistency_store: consistencyutil.ConsistencyStore = consistencyutil.new_noop_consistency_store()
    pod_write_callback: Callable[[V1Pod, V1OwnerReference | None], None] | None = None
    if features.DEFAULT_FEATURE_GATE.enabled(features.STALE_CONTROLLER_CONSISTENCY_REPLICA_SET):
        stores: dict[GroupResource, consistencyutil.LastSyncRVGetter] = {
            POD_GROUP_RESOURCE: pod_informer.informer().get_store(),
            REPLICA_SET_GROUP_RESOURCE: rs_informer.informer().get_store(),
        }
        consistency_store = real_store = consistencyutil.new_consistency_store(stores)

        def record_pod_write(pod: V1Pod, rs: V1OwnerReference | None) -> None:
            if rs is not None:
                real_store.wrote_at(NamespacedName(pod.metadata.namespace or "", rs.name), rs.uid,
                                    POD_GROUP_RESOURCE, pod.metadata.resource_version or "")

        pod_write_callback = record_pod_write

    recorder = event_broadcaster.new_recorder(None, V1EventSource(component="replicaset-controller"))
    return new_base_controller(
        rs_informer, pod_informer, kube_client, burst_replicas, GroupVersionKind("apps", "v1", "ReplicaSet"),
        "replicaset_controller", "replicaset",
        controller_utils.RealPodControl(kube_client=kube_client, recorder=recorder, on_write=pod_write_callback),
        event_broadcaster, default_replica_set_controller_features(), consistency_store,
        clock=clock)


def new_base_controller(rs_informer: ResourceInformer[ReplicaSetLister], pod_informer: ResourceInformer[PodLister],
                        kube_client: Interface, burst_replicas: int, gvk: GroupVersionKind, metric_owner_name: str,
                        queue_name: str, pod_control: PodControlInterface, event_broadcaster: EventBroadcasterImpl,
                        controller_features: ReplicaSetControllerFeatures,
                        consistency_store: consistencyutil.ConsistencyStore, *,
                        clock: Clock | None = None) -> ReplicaSetController:
    """Port of NewBaseController: build the controller and hook it to its informers.

    Registers the handlers, adds the controllerUID index (ReplicaSets) and the
    podController index (pods), and reads from the informers' caches.
    `metric_owner_name` is kept for the signature (metrics are not ported).
    """
    del metric_owner_name
    clock = clock if clock is not None else rs_informer.factory.clock
    queue = workqueue.new_rate_limiting_queue_with_config(
        workqueue.default_controller_rate_limiter(clock),
        workqueue.RateLimitingQueueConfig(name=queue_name, clock=clock))
    expectations = controller_utils.new_uid_tracking_controller_expectations(
        controller_utils.new_controller_expectations(clock))
    rsc = ReplicaSetController(gvk, kube_client, pod_control, event_broadcaster, burst_replicas, expectations,
                               queue, queue_name, clock, consistency_store, controller_features)

    rs_shared = rs_informer.informer()
    rs_shared.add_event_handler(ResourceEventHandlerFuncs(rsc.add_rs, rsc.update_rs, rsc.delete_rs))
    if CONTROLLER_UID_INDEX not in rs_shared.get_indexer().get_indexers():
        rs_shared.add_indexers({CONTROLLER_UID_INDEX: controller_uid_index})
    rsc.rs_indexer = rs_shared.get_indexer()
    rsc.rs_lister = rs_informer.lister()
    rsc.rs_lister_synced = rs_shared.has_synced

    pod_shared = pod_informer.informer()
    # Every pod change wakes the owner, status changes included: the sync reads only the cache.
    pod_shared.add_event_handler(ResourceEventHandlerFuncs(rsc.add_pod, rsc.update_pod, rsc.delete_pod))
    rsc.pod_lister = pod_informer.lister()
    rsc.pod_lister_synced = pod_shared.has_synced
    controller_utils.add_pod_controller_indexer(pod_shared)
    rsc.pod_indexer = pod_shared.get_indexer()
    return rsc


def controller_uid_index(obj: Any) -> list[str]:
    """The controllerUID index function (inline in NewBaseController): the UID of the RS's controller."""
    controller_ref = get_controller_of(obj) if isinstance(obj, V1ReplicaSet) else None
    return [controller_ref.uid] if controller_ref is not None else []


def object_key(obj: Any) -> str | None:
    """No upstream twin: `controller.KeyFunc(obj)` with its error reported, as Go does at each call site."""
    try:
        return key_func(obj)
    except Exception as err:  # an object without a name: reported, nothing to queue
        runtime.handle_error(RuntimeError(f"couldn't get key for object {obj!r}: {err}"))
        return None


class ReplicaSetController:
    """Port of ReplicaSetController: syncs ReplicaSets with the pods they own.

    Built by new_base_controller. The queue never hands one key to two
    workers, so a ReplicaSet is never synced concurrently with itself.
    """

    def __init__(self, gvk: GroupVersionKind, kube_client: Interface, pod_control: PodControlInterface,
                 event_broadcaster: EventBroadcasterImpl, burst_replicas: int,
                 expectations: controller_utils.UIDTrackingControllerExpectations, queue: RateLimitingType,
                 queue_name: str,
                 clock: Clock, consistency_store: consistencyutil.ConsistencyStore,
                 controller_features: ReplicaSetControllerFeatures) -> None:
        self.gvk = gvk  # Go: the embedded schema.GroupVersionKind
        self.kube_client = kube_client
        self.pod_control = pod_control
        """Creates, deletes and patches pods (tests swap in FakePodControl)."""
        self.event_broadcaster = event_broadcaster
        self.burst_replicas = burst_replicas
        self.sync_handler: SyncHandler = self.sync_replica_set
        """What the worker calls for a key (tests replace it)."""
        self.expectations = expectations
        """Pod creates and deletes each ReplicaSet (by key) still waits to see."""
        # Set by new_base_controller from the informers:
        self.rs_lister: ReplicaSetLister | None = None
        self.rs_lister_synced: Callable[[], bool] | None = None
        self.rs_indexer: Indexer | None = None
        self.pod_lister: PodLister | None = None
        self.pod_lister_synced: Callable[[], bool] | None = None
        self.pod_indexer: Indexer | None = None  # with the podController index
        self.queue = queue
        """ReplicaSet keys (`namespace/name`) waiting for a sync."""
        self.queue_name = queue_name  # names the queue, the steps and the worker threads
        self.clock = clock
        self.consistency_store = consistency_store
        self.controller_features = controller_features
        self.inline = clock.driven
        """No upstream twin, read once from the clock: batches and deletes run inline (a driver's world)."""
        self.loop = controller_run.ControllerRun(
            f"{queue_name}/worker", gvk.kind.lower(), queue, self.worker, self.process_next_work_item,
            clock=clock, synced=self.caches_synced, event_broadcaster=event_broadcaster, event_client=kube_client)
        """Run's threads, or the driver's steps (controller_run.ControllerRun)."""

    @property
    def kind(self) -> str:
        """Go: rsc.Kind, promoted from the embedded GroupVersionKind."""
        return self.gvk.kind

    def __repr__(self) -> str:
        return f"<ReplicaSetController {self.queue_name!r} queued={self.queue.len()} burst={self.burst_replicas}>"

    # --- running: threads (run) or driver steps (steps) ------------------------------------------

    def run(self, workers: int, stop: threading.Event) -> None:
        """Port of ReplicaSetController.Run: the event pipeline and `workers` worker threads.

        Waits for both caches' first list, starts threads `replicaset/worker-<n>`
        (each runs `worker` again every second until `stop`), and returns once
        `stop` is set and they ended. On a driven clock the driver runs `steps()`.
        """
        self.loop.run(workers, stop)

    def steps(self) -> list[Step]:
        """No upstream twin: run()'s driven-clock twin (ControllerRun.steps; starts nothing).

        `<queue>/worker` runs one process_next_work_item once both caches have
        synced and a key is queued; then come the queue's waiting step and the
        event broadcaster's step.
        """
        return self.loop.steps()

    def start_event_recording(self) -> None:
        """The first lines of Go's Run: log events and write them to the API server (once)."""
        self.loop.start_event_recording()

    def caches_synced(self) -> bool:
        """No upstream twin: Run's wait: the pod and ReplicaSet caches have their first lists."""
        assert self.pod_lister_synced is not None and self.rs_lister_synced is not None
        return self.pod_lister_synced() and self.rs_lister_synced()

    # --- lookups ---------------------------------------------------------------------------------

    def get_replica_sets_with_same_controller(self, rs: V1ReplicaSet) -> list[V1ReplicaSet]:
        """Port of getReplicaSetsWithSameController: the cached ReplicaSets of rs's controller, rs included."""
        controller_ref = get_controller_of(rs)
        if controller_ref is None:
            runtime.handle_error(RuntimeError(f"ReplicaSet has no controller: {rs.metadata.namespace}/"
                                              f"{rs.metadata.name}"))
            return []
        assert self.rs_indexer is not None
        related_rss: list[V1ReplicaSet] = self.rs_indexer.by_index(CONTROLLER_UID_INDEX, controller_ref.uid)
        log.debug("Found related ReplicaSets replicaSet=%s/%s relatedReplicaSets=%s", rs.metadata.namespace,
                  rs.metadata.name, [r.metadata.name for r in related_rss])
        return related_rss

    def get_pod_replica_sets(self, pod: V1Pod) -> list[V1ReplicaSet]:
        """Port of getPodReplicaSets: the cached ReplicaSets whose selector matches `pod`.

        More than one is a user error (overlapping selectors), reported but
        harmless: the pod's controllerRef alone decides who owns it.
        """
        assert self.rs_lister is not None
        try:
            rss = self.rs_lister.get_pod_replica_sets(pod)
        except LookupError:  # no labels, or no match: nobody to wake
            return []
        if len(rss) > 1:
            runtime.handle_error(RuntimeError(
                f"user error! more than one {self.kind} is selecting pods with labels: {pod.metadata.labels}"))
        return rss

    def resolve_controller_ref(self, namespace: str, controller_ref: V1OwnerReference) -> V1ReplicaSet | None:
        """Port of resolveControllerRef: the cached ReplicaSet a controllerRef names, if the UID matches.

        None for another kind, an unknown name, or a namesake with another UID
        (the referenced one was deleted and recreated).
        """
        if controller_ref.kind != self.kind:
            return None
        assert self.rs_lister is not None
        try:
            rs = self.rs_lister.replica_sets(namespace).get(controller_ref.name)
        except errors.StatusError:  # not in the cache: nothing to resolve to
            return None
        return rs if rs.metadata.uid == controller_ref.uid else None

    def enqueue_rs(self, rs: V1ReplicaSet) -> None:
        """Port of enqueueRS: queue the ReplicaSet's key."""
        key = object_key(rs)
        if key is not None:
            self.queue.add(key)

    def enqueue_rs_after(self, rs: V1ReplicaSet, duration: Seconds) -> None:
        """Port of enqueueRSAfter: queue the ReplicaSet's key once `duration` seconds have passed."""
        key = object_key(rs)
        if key is not None:
            self.queue.add_after(key, duration)

    # --- informer handlers -------------------------------------------------------------------------

    def add_rs(self, obj: Any) -> None:
        """Port of addRS: sync a new ReplicaSet."""
        log.debug("Adding replicaSet=%s/%s", obj.metadata.namespace, obj.metadata.name)
        self.enqueue_rs(obj)

    def update_rs(self, old: Any, cur: Any) -> None:
        """Port of updateRS: sync on every update, not only on spec changes.

        Then a periodic resync retries a ReplicaSet whose creates failed. A
        changed UID means the old one was deleted and recreated unseen: that
        is handled as a delete of the old one first.
        """
        old_rs: V1ReplicaSet = old
        cur_rs: V1ReplicaSet = cur
        if cur_rs.metadata.uid != old_rs.metadata.uid:
            key = object_key(old_rs)
            if key is None:
                return
            self.delete_rs(DeletedFinalStateUnknown(key=key, obj=old_rs))
        if old_rs.spec.replicas != cur_rs.spec.replicas:
            log.debug("replicaSet updated. Desired pod count change. replicaSet=%s/%s oldReplicas=%s newReplicas=%s",
                      old_rs.metadata.namespace, old_rs.metadata.name, old_rs.spec.replicas, cur_rs.spec.replicas)
        self.enqueue_rs(cur_rs)

    def delete_rs(self, obj: Any) -> None:
        """Port of deleteRS: drop the ReplicaSet's expectations and consistency record, sync its key.

        A namesake created later then starts clean. `obj` may be a tombstone.
        """
        rs = obj.obj if isinstance(obj, DeletedFinalStateUnknown) else obj
        if not isinstance(rs, V1ReplicaSet):
            runtime.handle_error(RuntimeError(f"couldn't get ReplicaSet from object or tombstone {obj!r}"))
            return
        key = object_key(rs)
        if key is None:
            return
        log.debug("Deleting replicaSet=%s", key)
        self.consistency_store.clear(NamespacedName(rs.metadata.namespace or "", rs.metadata.name or ""),
                                     rs.metadata.uid or "")
        self.expectations.delete_expectations(key)
        self.queue.add(key)

    def add_pod(self, obj: Any) -> None:
        """Port of addPod: wake the pod's ReplicaSet and count the expected create.

        A pod already being deleted (seen after a restart) counts as a
        deletion. An orphan wakes every matching ReplicaSet (one may adopt
        it) and lowers no expectation: nobody waits for orphans.
        """
        pod: V1Pod = obj
        if pod.metadata.deletion_timestamp is not None:
            self.delete_pod(pod)
            return
        controller_ref = get_controller_of(pod)
        if controller_ref is not None:
            rs = self.resolve_controller_ref(pod.metadata.namespace or "", controller_ref)
            rs_key = object_key(rs) if rs is not None else None
            if rs_key is None:
                return
            log.debug("Pod created pod=%s/%s", pod.metadata.namespace, pod.metadata.name)
            self.expectations.creation_observed(rs_key)
            self.queue.add(rs_key)
            return
        rss = self.get_pod_replica_sets(pod)
        if rss:
            log.debug("Orphan Pod created pod=%s/%s", pod.metadata.namespace, pod.metadata.name)
        for rs in rss:
            self.enqueue_rs(rs)

    def update_pod(self, old: Any, cur: Any) -> None:
        """Port of updatePod: wake the ReplicaSets a pod change concerns.

        A resync (same resourceVersion) is ignored. A deletionTimestamp counts
        as the delete now (replace the pod at once, not when the kubelet
        removes it), for the old labels too if they changed. A changed
        controllerRef wakes the old owner. An owned pod wakes its owner, and
        again minReadySeconds later when it just became ready (to count it as
        available). An orphan whose labels or owner changed wakes every match.
        """
        cur_pod: V1Pod = cur
        old_pod: V1Pod = old
        if cur_pod.metadata.resource_version == old_pod.metadata.resource_version:
            return
        label_changed = cur_pod.metadata.labels != old_pod.metadata.labels  # Go: reflect.DeepEqual
        if cur_pod.metadata.deletion_timestamp is not None:
            self.delete_pod(cur_pod)
            if label_changed:
                self.delete_pod(old_pod)  # a deletionTimestamp cannot be unset: no need to check old_pod's
            return

        cur_controller_ref = get_controller_of(cur_pod)
        old_controller_ref = get_controller_of(old_pod)
        controller_ref_changed = cur_controller_ref != old_controller_ref
        if controller_ref_changed and old_controller_ref is not None:
            old_rs = self.resolve_controller_ref(old_pod.metadata.namespace or "", old_controller_ref)
            if old_rs is not None:
                self.enqueue_rs(old_rs)

        if cur_controller_ref is not None:
            rs = self.resolve_controller_ref(cur_pod.metadata.namespace or "", cur_controller_ref)
            if rs is None:
                return
            log.debug("Pod objectMeta updated pod=%s/%s", old_pod.metadata.namespace, old_pod.metadata.name)
            self.enqueue_rs(rs)
            # Nothing else wakes the RS when the pod turns available; sync_replica_set
            # also plans such checks, for pods that became ready at different times.
            min_ready_seconds = rs.spec.min_ready_seconds or 0
            if not is_pod_ready(old_pod) and is_pod_ready(cur_pod) and min_ready_seconds > 0:
                log.info("pod will be enqueued after a while for availability check duration=%s kind=%s pod=%s/%s",
                         min_ready_seconds, self.kind, old_pod.metadata.namespace, old_pod.metadata.name)
                self.enqueue_rs_after(rs, float(min_ready_seconds))
            return

        if label_changed or controller_ref_changed:
            for rs in self.get_pod_replica_sets(cur_pod):
                log.debug("Orphan Pod objectMeta updated pod=%s/%s", old_pod.metadata.namespace,
                          old_pod.metadata.name)
                self.enqueue_rs(rs)

    def delete_pod(self, obj: Any) -> None:
        """Port of deletePod: wake the pod's ReplicaSet and count the deletion, by pod key.

        `obj` may be a tombstone, possibly stale: if the pod's labels had
        changed, its new owner hears of it only at the next resync. Orphans
        are ignored: no controller waits for them.
        """
        pod = obj.obj if isinstance(obj, DeletedFinalStateUnknown) else obj
        if not isinstance(pod, V1Pod):
            runtime.handle_error(RuntimeError(f"couldn't get pod from object or tombstone {obj!r}"))
            return
        controller_ref = get_controller_of(pod)
        if controller_ref is None:
            return
        rs = self.resolve_controller_ref(pod.metadata.namespace or "", controller_ref)
        rs_key = object_key(rs) if rs is not None else None
        if rs_key is None:
            return
        log.debug("Pod deleted pod=%s/%s deletion_timestamp=%s", pod.metadata.namespace, pod.metadata.name,
                  pod.metadata.deletion_timestamp)
        self.expectations.deletion_observed(rs_key, pod_key(pod))
        self.queue.add(rs_key)

    # --- the worker -----------------------------------------------------------------------------------

    def worker(self) -> None:
        """Port of ReplicaSetController.worker: process keys until the queue shuts down."""
        while self.process_next_work_item():
            pass

    def process_next_work_item(self) -> bool:
        """Port of processNextWorkItem: take one key, sync it, tell the queue how it went.

        Success: forget (the key's backoff starts over). Failure: report and
        requeue after the rate limiter's delay. Always: done. False only when
        the queue shuts down.
        Blocks: until a key is queued (the driver calls this only when one is).
        """
        key, quit_ = self.queue.get()
        if quit_:
            return False
        try:
            self.sync_handler(key)
        except Exception as err:  # the one catch-all of this loop
            runtime.handle_error(RuntimeError(f"sync {key!r} failed with {err}"))
            self.queue.add_rate_limited(key)
        else:
            self.queue.forget(key)
        finally:
            self.queue.done(key)  # Go: deferred Done
        return True

    # --- the sync ---------------------------------------------------------------------------------------

    def manage_replicas(self, active_pods: list[V1Pod], rs: V1ReplicaSet) -> None:
        """Port of manageReplicas: create or delete pods until `active_pods` matches rs.spec.replicas.

        Too few: expect `diff` creates (at most burst_replicas) and create them
        in slow-start batches; creates never attempted are un-expected again.
        Too many: pick `diff` pods with get_pods_to_delete, expect exactly
        their keys, delete them in parallel; a failed delete is un-expected.
        `active_pods` may be reordered (the ranking sorts it in place).

        Raises: a create error, or one delete error (NotFound is not an error).
        """
        diff = len(active_pods) - (rs.spec.replicas or 0)
        rs_key = object_key(rs)
        if rs_key is None:
            return  # Go returns nil: nothing can be done for this object
        if diff < 0:
            diff = min(-diff, self.burst_replicas)
            # Creates are counted, not tracked by UID: a UID is known only after
            # its create returned, and tracking it would need a lock across the call.
            self.expectations.expect_creations(rs_key, diff)
            log.info("Too few replicas replicaSet=%s need=%s creating=%d", rs_key, rs.spec.replicas, diff)

            def create_one() -> None:
                try:
                    self.pod_control.create_pods(rs.metadata.namespace or "", rs.spec.template, rs,
                                                 new_controller_ref(rs, self.gvk))
                except Exception as err:
                    if errors.has_status_cause(err, NAMESPACE_TERMINATING_CAUSE):
                        return  # the namespace is going away: every create fails, nothing to retry
                    raise

            successful_creations, err = slow_start_batch(
                diff, controller_utils.SLOW_START_INITIAL_BATCH_SIZE, create_one, inline=self.inline)
            # The informer will never show the creates that were skipped.
            if (skipped_pods := diff - successful_creations) > 0:
                log.info("Slow-start failure. Skipping creation of pods, decrementing expectations "
                         "podsSkipped=%d kind=%s replicaSet=%s", skipped_pods, self.kind, rs_key)
                for _ in range(skipped_pods):
                    self.expectations.creation_observed(rs_key)
            if err is not None:
                raise err
        elif diff > 0:
            diff = min(diff, self.burst_replicas)
            log.info("Too many replicas replicaSet=%s need=%s deleting=%d", rs_key, rs.spec.replicas, diff)
            try:
                related_pods = self.get_indirectly_related_pods(rs)
            except Exception as err:  # Go reports it and ranks without related pods
                runtime.handle_error(err)
                related_pods = []
            pods_to_delete = get_pods_to_delete(active_pods, related_pods, diff, self.clock.now())
            # These keys exactly: each counts once, as a deletionTimestamp update or as the delete.
            self.expectations.expect_deletions(rs_key, get_pod_keys(pods_to_delete))

            errs: list[Exception] = []  # Go: buffered error channel
            errs_lock = threading.Lock()

            def delete_one(target_pod: V1Pod) -> None:
                try:
                    self.pod_control.delete_pod(rs.metadata.namespace or "", target_pod.metadata.name or "", rs)
                except Exception as err:
                    self.expectations.deletion_observed(rs_key, pod_key(target_pod))  # it will not be seen
                    if not errors.is_not_found(err):
                        log.info("Failed to delete pod, decremented expectations pod=%s kind=%s replicaSet=%s",
                                 pod_key(target_pod), self.kind, rs_key)
                        with errs_lock:
                            errs.append(err)

            group = wait.Group(inline=self.inline, name=f"{self.queue_name}/delete")  # Go: WaitGroup
            for pod in pods_to_delete:
                group.start(functools.partial(delete_one, pod))
            group.wait()
            if errs:
                raise errs[0]  # each was reported as an event; one is enough to requeue

    def sync_replica_set(self, key: str) -> None:
        """Port of syncReplicaSet: bring one ReplicaSet's pods and status up to date.

        1. Refuse (ConsistencyError) while the informers lag behind this
           controller's writes for the ReplicaSet. Gone from the cache: forget it.
        2. Read the expectations *before* listing pods, so a pod arriving in
           between cannot make the sync believe one is missing.
        3. Claim pods (adopt matching orphans, release mismatches).
        4. Expectations met and not being deleted: manage_replicas.
        5. Always write the status (pods change without us), record the write,
           then raise manage_replicas' error if any.
        6. With minReadySeconds, requeue when the next ready pod becomes available.

        Raises: on any failure, so the worker retries the key with backoff.
        """
        start_time = self.clock.now()
        try:
            namespace, name = split_meta_namespace_key(key)
            rs_namespaced_name = NamespacedName(namespace, name)
            self.consistency_store.ensure_ready(rs_namespaced_name)  # Go: also counts ReplicaSetRequeueSkips
            assert self.rs_lister is not None and self.pod_indexer is not None
            try:
                rs = self.rs_lister.replica_sets(namespace).get(name)
            except errors.StatusError as err:
                if not errors.is_not_found(err):
                    raise
                log.debug("deleted kind=%s key=%s", self.kind, key)
                self.consistency_store.clear(rs_namespaced_name, "")
                self.expectations.delete_expectations(key)
                return

            rs_needs_sync = self.expectations.satisfied_expectations(key)
            try:
                selector = label_selector_as_selector(rs.spec.selector)
            except ValueError as err:  # retrying cannot fix an invalid selector
                runtime.handle_error(RuntimeError(
                    f"error converting pod selector to selector for rs {namespace}/{name}: {err}"))
                return

            # Pods indexed under this ReplicaSet's UID, plus the namespace's orphans
            # (cache objects: copy before changing them).
            all_rs_pods = controller_utils.filter_pods_by_owner(self.pod_indexer, rs.metadata, self.kind, True)
            active_pods = self.claim_pods(rs, selector, controller_utils.filter_active_pods(all_rs_pods))
            terminating_pods: list[V1Pod] | None = None
            if (features.DEFAULT_FEATURE_GATE.enabled(features.DEPLOYMENT_REPLICA_SET_TERMINATING_REPLICAS)
                    and self.controller_features.enable_status_terminating_replicas):
                terminating_pods = controller_utils.filter_claimed_pods(
                    rs, selector, controller_utils.filter_terminating_pods(all_rs_pods))

            manage_replicas_err: Exception | None = None
            if rs_needs_sync and rs.metadata.deletion_timestamp is None:
                try:
                    self.manage_replicas(active_pods, rs)
                except Exception as err:  # reported in the status first, raised below
                    manage_replicas_err = err
            rs = deep_copy(rs)
            now = self.clock.now()  # one time for the status and the next availability check
            new_status = calculate_status(rs, active_pods, terminating_pods, manage_replicas_err,
                                          self.controller_features, now)
            updated_rs = update_replica_set_status(
                self.kube_client.apps_v1().replica_sets(rs.metadata.namespace or ""), rs, new_status,
                self.controller_features)
            self.consistency_store.wrote_at(rs_namespaced_name, rs.metadata.uid or "", REPLICA_SET_GROUP_RESOURCE,
                                            updated_rs.metadata.resource_version or "")
            if manage_replicas_err is not None:
                raise manage_replicas_err

            # A last line of defence against a lost or early wake-up (one key covers every pod).
            min_ready_seconds = updated_rs.spec.min_ready_seconds or 0
            st = updated_rs.status
            if min_ready_seconds > 0 and st is not None and (st.ready_replicas or 0) != (st.available_replicas or 0):
                next_check = controller_utils.find_min_next_pod_availability_check(
                    active_pods, min_ready_seconds, now, self.clock)
                self.queue.add_after(key, next_check if next_check is not None else float(min_ready_seconds))
        finally:
            log.debug("Finished syncing kind=%s key=%s duration=%.3fs", self.kind, key, self.clock.since(start_time))

    def claim_pods(self, rs: V1ReplicaSet, selector: labels.Selector, filtered_pods: list[V1Pod]) -> list[V1Pod]:
        """Port of claimPods: rs's pods after adopting matching orphans and releasing mismatches.

        Before the first adoption rs is re-read from the API server (not the
        cache): one being deleted, or replaced by a namesake, must not adopt.
        Raises: the aggregate of failed adoptions and releases.
        """

        def get_fresh_rs() -> V1ReplicaSet:
            fresh = self.kube_client.apps_v1().replica_sets(rs.metadata.namespace or "").get(
                rs.metadata.name or "", GetOptions())
            if fresh.metadata.uid != rs.metadata.uid:
                raise RuntimeError(f"original {self.kind} {rs.metadata.namespace}/{rs.metadata.name} is gone: "
                                   f"got uid {fresh.metadata.uid}, wanted {rs.metadata.uid}")
            return fresh

        cm = new_pod_controller_ref_manager(self.pod_control, rs, selector, self.gvk,
                                            recheck_deletion_timestamp(get_fresh_rs))
        return cm.claim_pods(filtered_pods)

    def get_indirectly_related_pods(self, rs: V1ReplicaSet) -> list[V1Pod]:
        """Port of getIndirectlyRelatedPods: the pods of every ReplicaSet of rs's controller, each once.

        For a Deployment's ReplicaSet these are the pods of all its revisions;
        scale-down prefers pods on nodes crowded with them.
        """
        assert self.pod_lister is not None
        related_pods: list[V1Pod] = []
        seen: dict[str, V1ReplicaSet] = {}  # pod UID -> the ReplicaSet that listed it first
        for related_rs in self.get_replica_sets_with_same_controller(rs):
            try:
                selector = label_selector_as_selector(related_rs.spec.selector)
            except ValueError:
                continue  # an invalid selector matches no pods
            for pod in self.pod_lister.pods(related_rs.metadata.namespace or "").list(selector):
                if (other_rs := seen.get(pod.metadata.uid or "")) is not None:
                    log.debug("Pod is owned by both pod=%s/%s kind=%s replicaSets=%s,%s", pod.metadata.namespace,
                              pod.metadata.name, self.kind, other_rs.metadata.name, related_rs.metadata.name)
                    continue
                seen[pod.metadata.uid or ""] = related_rs
                related_pods.append(pod)
        log.debug("Found related pods kind=%s replicaSet=%s/%s pods=%s", self.kind, rs.metadata.namespace,
                  rs.metadata.name, [p.metadata.name for p in related_pods])
        return related_pods


def slow_start_batch(count: int, initial_batch_size: int, fn: Callable[[], None], *,
                     inline: bool = False) -> tuple[int, Exception | None]:
    """Port of slowStartBatch: call `fn` `count` times, in batches that double while all goes well.

    The calls of a batch run concurrently (inline and in order with `inline`).
    After a batch with a failure no batch starts, so a template that can never
    work costs a few failed creates, not hundreds. Example, count 10
    from 1: batches of 1, 2, 4, 3; if the 6th call fails (batch of 4), that
    batch still finishes: 6 successes, and the last 3 calls never happen.

    Returns: (calls that succeeded, an error of the failed batch or None).
    Differs from Go: the error comes back next to the count (the caller uses
    both); `inline` (no Go twin; callers pass `inline=clock.driven`) runs the
    calls on the caller's thread.
    """
    remaining = count
    successes = 0
    batch_size = min(remaining, initial_batch_size)
    while batch_size > 0:
        errs: list[Exception] = []  # Go: buffered error channel
        errs_lock = threading.Lock()

        def call_once() -> None:
            try:
                fn()
            except Exception as err:  # every failure counts against this batch
                with errs_lock:
                    errs.append(err)

        group = wait.Group(inline=inline, name="slow-start-batch")  # Go: WaitGroup
        for _ in range(batch_size):
            group.start(call_once)
        group.wait()
        successes += batch_size - len(errs)
        if errs:
            return successes, errs[0]
        remaining -= batch_size
        batch_size = min(2 * batch_size, remaining)
    return successes, None


def get_pods_to_delete(filtered_pods: list[V1Pod], related_pods: list[V1Pod], diff: int,
                       now: datetime) -> list[V1Pod]:
    """Port of getPodsToDelete: the `diff` pods scale-down removes first (diff <= len(filtered_pods)).

    Unless all go, `filtered_pods` is sorted in place by ActivePodsWithRanks
    (unscheduled, pending, not ready, low deletion cost, crowded node, recently
    ready, restarting, young first) and the first `diff` are taken.
    Differs from Go: `now` (Go: metav1.Now()) anchors the age buckets.
    """
    if diff < len(filtered_pods):
        get_pods_ranked_by_related_pods_on_same_node(filtered_pods, related_pods, now).sort()
        # Go: reportSortingDeletionAgeRatioMetric (metrics are not ported)
    return filtered_pods[:diff]


def get_pods_ranked_by_related_pods_on_same_node(pods_to_rank: list[V1Pod], related_pods: list[V1Pod],
                                                 now: datetime) -> ActivePodsWithRanks:
    """Port of getPodsRankedByRelatedPodsOnSameNode: rank each pod by its node's crowd.

    A pod's rank is the number of active `related_pods` on its node
    (unscheduled pods share node ""). Example: related pods on nodes a, a, b
    -> a pod on a ranks 2, on b 1, on c 0. Sorting the result reorders
    `pods_to_rank` itself.
    Differs from Go: `now` (Go: metav1.Now()) is a parameter.
    """
    pods_on_node: dict[str, int] = {}
    for pod in related_pods:
        if controller_utils.is_pod_active(pod):
            node = (pod.spec.node_name if pod.spec else None) or ""
            pods_on_node[node] = pods_on_node.get(node, 0) + 1
    ranks = [pods_on_node.get((pod.spec.node_name if pod.spec else None) or "", 0) for pod in pods_to_rank]
    return ActivePodsWithRanks(pods_to_rank, ranks, now)


def get_pod_keys(pods: list[V1Pod]) -> list[str]:
    """Port of getPodKeys: each pod's `namespace/name`, in order (the keys deletions are expected by)."""
    return [pod_key(pod) for pod in pods]
