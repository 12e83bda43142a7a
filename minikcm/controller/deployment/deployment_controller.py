"""Port of pkg/controller/deployment/deployment_controller.go.

The front half of the Deployment controller: the struct, its event handlers and
its one sync entry point. Three informers feed it. Deployment events enqueue
the Deployment; ReplicaSet events enqueue the Deployment named by the
ReplicaSet's controller reference (or, for an orphan, every Deployment whose
selector matches it, so one of them can adopt it); pod deletions wake a
Recreate Deployment once its last old pod is gone. A worker takes a key and
runs `sync_deployment`, which walks the decision ladder: gone? deleting?
paused? rollback requested? pure scale? otherwise roll out by strategy. The
methods it reaches live in the mixins of sync.py, rolling.py, recreate.py,
rollback.py and progress.py (one per upstream file), combined here.

Start reading at: DeploymentController.sync_deployment, then
DeploymentController.process_next_work_item and handle_err.
Good breakpoints: sync_deployment, get_replica_sets_for_deployment, add_replica_set.

Not ported: contextual logging (module logger; klog V(2)/V(4) lines are DEBUG),
the `logger` parameters of the handlers.
Differs from Go:
- new_deployment_controller takes the clock from the Deployment informer's
  factory (a keyword overrides it); the work queue, its rate limiter, the event
  broadcaster and every "now" use that clock, and its `driven` mark chooses
  the run mode once.
- `steps()` (no upstream twin) gives the driver of a driven clock one worker
  step plus the queue's and the event broadcaster's steps; the worker step is
  ready only once the three caches have synced, which is what Run's wait for
  the caches does in threaded mode. Run's worker threads loop over the same
  `process_next_work_item`.
- The three delete handlers share unwrap_tombstone, and the three enqueue
  methods key_or_report (Go repeats that code in each).
- The event broadcaster is made without Go's WithContext; run() shuts it down.
- Go's map iteration (the pod map in delete_pod) goes in sorted key order.
- A Deployment whose status is absent gets an empty V1DeploymentStatus after the
  deep copy in sync_deployment (Go's zero-value struct), so the mixins can read
  and write it without checking for None.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, TypeVar

from kubernetes.client import (V1Deployment, V1DeploymentStatus, V1EventSource, V1OwnerReference, V1Pod,
                               V1ReplicaSet)

from minikcm.apimachinery import errors, labels, runtime
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.meta import GetOptions, UpdateOptions, get_controller_of, label_selector_as_selector
from minikcm.apimachinery.schema import GroupVersionKind
from minikcm.client.interface import Interface
from minikcm.clock import Clock
from minikcm.controller import controller_ref_manager, controller_run, controller_utils
from minikcm.controller.deployment.progress import ProgressMixin
from minikcm.controller.deployment.recreate import RecreateMixin
from minikcm.controller.deployment.rollback import RollbackMixin, get_rollback_to
from minikcm.controller.deployment.rolling import RollingMixin
from minikcm.controller.deployment.sync import NAMESPACE_TERMINATING_CAUSE, SyncMixin
from minikcm.controller.deployment.util import deployment_util as util
from minikcm.informers import listers
from minikcm.informers.factory import ResourceInformer
from minikcm.driver import Step
from minikcm.tools import record
from minikcm.tools.cache.controller import ResourceEventHandlerFuncs
from minikcm.tools.cache.delta_fifo import DeletedFinalStateUnknown
from minikcm.tools.cache.index import Indexer
from minikcm.tools.cache.store import split_meta_namespace_key
from minikcm.util import workqueue

logger = logging.getLogger(__name__)

MAX_RETRIES = 15
"""Port of maxRetries: failed syncs of one key before it is dropped from the queue.

With the default controller rate limiter (5 ms doubling per failure) the
retries come after 5 ms, 10 ms, 20 ms, ... and the fifteenth after about 82 s.
"""

controller_kind = GroupVersionKind("apps", "v1", "Deployment")
"""Port of controllerKind: the GroupVersionKind written into ReplicaSets' owner references."""

T = TypeVar("T")

PodMap = dict[str, list[V1Pod]]
"""ReplicaSet UID -> the pods it controls (Go: map[types.UID][]*v1.Pod)."""


class DeploymentController(SyncMixin, RollingMixin, RecreateMixin, RollbackMixin, ProgressMixin):
    """Port of DeploymentController (deployment_controller.go).

    Keeps Deployments and their ReplicaSets in step. Reads only from the
    informer caches (listers); writes through `client`. One key is never
    synced by two workers at once (the work queue guarantees it).
    Thread: handlers run on the informers' threads, syncs on the workers'.
    """

    controller_kind = controller_kind
    """The module's controller_kind, for the mixins: they read it as `self.controller_kind`."""

    def __init__(self, d_informer: ResourceInformer[listers.DeploymentLister],
                 rs_informer: ResourceInformer[listers.ReplicaSetLister],
                 pod_informer: ResourceInformer[listers.PodLister], client: Interface, *,
                 clock: Clock | None = None) -> None:
        self.clock: Clock = clock if clock is not None else d_informer.factory.clock
        """Source of every "now" and of every delay, and of the run mode (`driven`; no upstream twin)."""
        self.client = client
        self.event_broadcaster = record.new_broadcaster(clock=self.clock)
        self.event_recorder: record.EventRecorder = self.event_broadcaster.new_recorder(
            None, V1EventSource(component="deployment-controller"))
        self.queue = workqueue.new_rate_limiting_queue_with_config(
            workqueue.default_controller_rate_limiter(self.clock),
            workqueue.RateLimitingQueueConfig(name="deployment", clock=self.clock))
        """Keys (`namespace/name`) of Deployments that need a sync."""
        self.rs_control: controller_utils.RSControlInterface = controller_utils.RealRSControl(
            client, self.event_recorder)
        """Adopts and releases ReplicaSets (tests swap it)."""

        d_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
            add_func=self.add_deployment, update_func=self.update_deployment,
            # A deleted Deployment is enqueued too: its sync finds nothing and returns.
            delete_func=self.delete_deployment))
        rs_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
            add_func=self.add_replica_set, update_func=self.update_replica_set,
            delete_func=self.delete_replica_set))
        pod_informer.informer().add_event_handler(ResourceEventHandlerFuncs(delete_func=self.delete_pod))

        self.sync_handler = self.sync_deployment
        """The sync each key goes through; tests replace it."""
        self.enqueue_deployment = self.enqueue
        """How handlers enqueue a Deployment; tests replace it."""
        self.d_lister = d_informer.lister()
        self.rs_lister = rs_informer.lister()
        self.pod_lister = pod_informer.lister()
        self.d_lister_synced = d_informer.informer().has_synced
        self.rs_lister_synced = rs_informer.informer().has_synced
        self.pod_lister_synced = pod_informer.informer().has_synced
        controller_utils.add_pod_controller_indexer(pod_informer.informer())
        self.pod_indexer: Indexer = pod_informer.informer().get_indexer()
        """Pods by controller (the podController index), for get_pod_map_for_deployment."""
        self.loop = controller_run.ControllerRun(
            "deployment/worker", "deployment", self.queue, self.worker, self.process_next_work_item,
            clock=self.clock, synced=self.caches_synced, event_broadcaster=self.event_broadcaster,
            event_client=client)
        """Run's threads, or the driver's steps (controller_run.ControllerRun)."""

    def __repr__(self) -> str:
        return f"DeploymentController(queue={self.queue!r})"

    # -- running --------------------------------------------------------------------------

    def run(self, workers: int, stop: threading.Event) -> None:
        """Port of DeploymentController.Run.

        Starts recording events, waits for the three caches, starts `workers`
        worker threads and blocks until `stop` is set; then shuts the queue
        down and waits for the workers. On a driven clock the driver runs
        `steps()` instead.
        """
        try:
            self.loop.run(workers, stop)
        except Exception:
            runtime.handle_crash()  # Go: defer utilruntime.HandleCrash()

    def start_event_recording(self) -> None:
        """The first lines of Go's Run: log events and write them to the API server (once)."""
        self.loop.start_event_recording()

    def caches_synced(self) -> bool:
        """Run's wait: the three informers have their first full lists."""
        return self.d_lister_synced() and self.rs_lister_synced() and self.pod_lister_synced()

    def steps(self) -> list[Step]:
        """No upstream twin. The controller's loops as driver steps (ControllerRun.steps; starts nothing).

        The worker step (ready once the caches have synced and a key is
        queued), the work queue's waiting step and, when the broadcaster's
        clock is driven too, its delivery step.
        """
        return self.loop.steps()

    # -- Deployment handlers ------------------------------------------------------------------

    def add_deployment(self, obj: Any) -> None:
        """Port of DeploymentController.addDeployment: enqueue the new Deployment."""
        d: V1Deployment = obj
        logger.debug("Adding deployment %s/%s", d.metadata.namespace, d.metadata.name)
        self.enqueue_deployment(d)

    def update_deployment(self, old: Any, cur: Any) -> None:
        """Port of DeploymentController.updateDeployment: enqueue the Deployment (every update, resyncs too)."""
        logger.debug("Updating deployment %s/%s", old.metadata.namespace, old.metadata.name)
        self.enqueue_deployment(cur)

    def delete_deployment(self, obj: Any) -> None:
        """Port of DeploymentController.deleteDeployment: enqueue it; the sync will find it gone.

        Accepts a tombstone (DeletedFinalStateUnknown) holding a Deployment.
        """
        d = unwrap_tombstone(obj, V1Deployment, "a Deployment")
        if d is None:
            return
        logger.debug("Deleting deployment %s/%s", d.metadata.namespace, d.metadata.name)
        self.enqueue_deployment(d)

    # -- ReplicaSet handlers -------------------------------------------------------------------

    def add_replica_set(self, obj: Any) -> None:
        """Port of DeploymentController.addReplicaSet.

        A ReplicaSet with a controller reference wakes that Deployment only.
        An orphan wakes every Deployment whose selector matches it, so the
        right one can adopt it. One already being deleted (seen after a
        restart) is handled as a deletion.
        """
        rs: V1ReplicaSet = obj
        if rs.metadata.deletion_timestamp is not None:
            self.delete_replica_set(rs)
            return
        controller_ref = get_controller_of(rs)
        if controller_ref is not None:
            d = self.resolve_controller_ref(rs.metadata.namespace or "", controller_ref)
            if d is None:
                return
            logger.debug("ReplicaSet %s/%s added", rs.metadata.namespace, rs.metadata.name)
            self.enqueue_deployment(d)
            return
        ds = self.get_deployments_for_replica_set(rs)
        if not ds:
            return
        logger.debug("Orphan ReplicaSet %s/%s added", rs.metadata.namespace, rs.metadata.name)
        for d in ds:
            self.enqueue_deployment(d)

    def get_deployments_for_replica_set(self, rs: V1ReplicaSet) -> list[V1Deployment]:
        """Port of DeploymentController.getDeploymentsForReplicaSet.

        The Deployments whose selector matches `rs`, or [] (lookup errors
        included). More than one is a user error; the controller references
        sort it out, so it is only logged.
        """
        try:
            deployments = util.get_deployments_for_replica_set(self.d_lister, rs)
        except ValueError:
            return []  # no labels or no match: nobody to wake
        if len(deployments) > 1:
            logger.debug("user error! more than one deployment is selecting replica set %s/%s with labels %s",
                         rs.metadata.namespace, rs.metadata.name, rs.metadata.labels)
        return deployments

    def update_replica_set(self, old: Any, cur: Any) -> None:
        """Port of DeploymentController.updateReplicaSet.

        Resyncs (same resourceVersion) are ignored. When the controller
        reference changed, the old owner is woken too. An orphan whose labels
        or controller reference changed wakes every matching Deployment.
        """
        cur_rs: V1ReplicaSet = cur
        old_rs: V1ReplicaSet = old
        if cur_rs.metadata.resource_version == old_rs.metadata.resource_version:
            return  # a periodic resync: two versions of one object never share a resourceVersion
        cur_controller_ref = get_controller_of(cur_rs)
        old_controller_ref = get_controller_of(old_rs)
        controller_ref_changed = cur_controller_ref != old_controller_ref
        if controller_ref_changed and old_controller_ref is not None:
            d = self.resolve_controller_ref(old_rs.metadata.namespace or "", old_controller_ref)
            if d is not None:
                self.enqueue_deployment(d)
        if cur_controller_ref is not None:
            d = self.resolve_controller_ref(cur_rs.metadata.namespace or "", cur_controller_ref)
            if d is None:
                return
            logger.debug("ReplicaSet %s/%s updated", cur_rs.metadata.namespace, cur_rs.metadata.name)
            self.enqueue_deployment(d)
            return
        label_changed = (cur_rs.metadata.labels or None) != (old_rs.metadata.labels or None)
        if label_changed or controller_ref_changed:
            ds = self.get_deployments_for_replica_set(cur_rs)
            if not ds:
                return
            logger.debug("Orphan ReplicaSet %s/%s updated", cur_rs.metadata.namespace, cur_rs.metadata.name)
            for d in ds:
                self.enqueue_deployment(d)

    def delete_replica_set(self, obj: Any) -> None:
        """Port of DeploymentController.deleteReplicaSet: wake the owning Deployment.

        Accepts a tombstone; its object may be stale. Orphans wake nobody.
        """
        rs = unwrap_tombstone(obj, V1ReplicaSet, "a ReplicaSet")
        if rs is None:
            return
        controller_ref = get_controller_of(rs)
        if controller_ref is None:
            return  # nobody cares about an orphan going away
        d = self.resolve_controller_ref(rs.metadata.namespace or "", controller_ref)
        if d is None:
            return
        logger.debug("ReplicaSet %s/%s deleted", rs.metadata.namespace, rs.metadata.name)
        self.enqueue_deployment(d)

    # -- pod handler --------------------------------------------------------------------------

    def delete_pod(self, obj: Any) -> None:
        """Port of DeploymentController.deletePod.

        Only Recreate Deployments care: they must not start new pods while an
        old one exists, so the last pod's deletion enqueues the Deployment.
        The ReplicaSets are listed through the client (fresh), the pods from
        the cache.
        """
        pod = unwrap_tombstone(obj, V1Pod, "a pod")
        if pod is None:
            return
        d = self.get_deployment_for_pod(pod)
        if d is None:
            return
        logger.debug("Pod %s/%s deleted", pod.metadata.namespace, pod.metadata.name)
        if d.spec.strategy is not None and d.spec.strategy.type == util.RECREATE_DEPLOYMENT_STRATEGY_TYPE:
            try:
                rs_list = util.list_replica_sets(d, util.rs_list_from_client(self.client.apps_v1()))
                pod_map = self.get_pod_map_for_deployment(d, rs_list)
            except Exception:  # Go: return on error; the next event or resync retries
                return
            num_pods = sum(len(pod_map[uid]) for uid in sorted(pod_map))  # Go: map range
            if num_pods == 0:
                self.enqueue_deployment(d)

    # -- queueing -----------------------------------------------------------------------------

    def enqueue(self, deployment: V1Deployment) -> None:
        """Port of DeploymentController.enqueue: add the Deployment's key to the queue."""
        key = key_or_report(deployment)
        if key is not None:
            self.queue.add(key)

    def enqueue_rate_limited(self, deployment: V1Deployment) -> None:
        """Port of DeploymentController.enqueueRateLimited: add the key after the rate limiter's delay."""
        key = key_or_report(deployment)
        if key is not None:
            self.queue.add_rate_limited(key)

    def enqueue_after(self, deployment: V1Deployment, after: float) -> None:
        """Port of DeploymentController.enqueueAfter: add the key once `after` seconds have passed."""
        key = key_or_report(deployment)
        if key is not None:
            self.queue.add_after(key, after)

    # -- lookups ------------------------------------------------------------------------------

    def get_deployment_for_pod(self, pod: V1Pod) -> V1Deployment | None:
        """Port of DeploymentController.getDeploymentForPod.

        Follows two controller references, pod -> ReplicaSet -> Deployment,
        through the caches; None when any link is missing or points at
        another object of the same name (UID mismatch).
        """
        controller_ref = get_controller_of(pod)
        if controller_ref is None:
            return None  # no controller owns this pod
        if controller_ref.kind != "ReplicaSet":
            return None  # not owned by a ReplicaSet
        try:
            rs = self.rs_lister.replica_sets(pod.metadata.namespace or "").get(controller_ref.name)
        except errors.StatusError as err:
            logger.debug("Cannot get replicaset %s for pod %s/%s: %s", controller_ref.name,
                         pod.metadata.namespace, pod.metadata.name, err)
            return None
        if rs.metadata.uid != controller_ref.uid:
            logger.debug("Cannot get replicaset %s for pod %s/%s: uid mismatch", controller_ref.name,
                         pod.metadata.namespace, pod.metadata.name)
            return None
        controller_ref = get_controller_of(rs)
        if controller_ref is None:
            return None
        return self.resolve_controller_ref(rs.metadata.namespace or "", controller_ref)

    def resolve_controller_ref(self, namespace: str, controller_ref: V1OwnerReference) -> V1Deployment | None:
        """Port of DeploymentController.resolveControllerRef.

        The cached Deployment a controller reference names, or None when the
        kind is not Deployment, the name is unknown, or the UID differs (a
        new Deployment reusing the name is not the owner).
        """
        if controller_ref.kind != controller_kind.kind:
            return None
        try:
            d = self.d_lister.deployments(namespace).get(controller_ref.name)
        except errors.StatusError:
            return None
        if d.metadata.uid != controller_ref.uid:
            return None
        return d

    # -- the worker loop ----------------------------------------------------------------------

    def worker(self) -> None:
        """Port of DeploymentController.worker: run process_next_work_item until the queue shuts down."""
        while self.process_next_work_item():
            pass

    def process_next_work_item(self) -> bool:
        """Port of DeploymentController.processNextWorkItem: one unit of controller work.

        Takes one key, syncs it, and lets handle_err decide between forget,
        retry and drop. Returns False only once the queue is shutting down.

        Blocks: until a key is available (the driver only calls this when one is).
        """
        key, quit_ = self.queue.get()
        if quit_:
            return False
        try:
            try:
                self.sync_handler(key)
            except Exception as err:  # the one catch-all of this loop: handle_err retries or drops
                self.handle_err(err, key)
            else:
                self.handle_err(None, key)
        finally:
            self.queue.done(key)  # Go: deferred Done
        return True

    def handle_err(self, err: Exception | None, key: str) -> None:
        """Port of DeploymentController.handleErr.

        Success, or a namespace being torn down: forget the key's failures.
        Otherwise retry with the rate limiter's growing delay, up to
        MAX_RETRIES times; after that report the error and drop the key (a
        later event or resync brings it back).
        """
        if err is None or errors.has_status_cause(err, NAMESPACE_TERMINATING_CAUSE):
            self.queue.forget(key)
            return
        try:
            ns, name = split_meta_namespace_key(key)
        except ValueError as key_err:
            logger.error("Failed to split meta namespace cache key %r: %s", key, key_err)
            ns, name = "", key
        if self.queue.num_requeues(key) < MAX_RETRIES:
            logger.debug("Error syncing deployment %s/%s: %s", ns, name, err)
            self.queue.add_rate_limited(key)
            return
        runtime.handle_error(err)
        logger.debug("Dropping deployment %s/%s out of the queue: %s", ns, name, err)
        self.queue.forget(key)

    # -- what a sync works on ---------------------------------------------------------------------

    def get_replica_sets_for_deployment(self, d: V1Deployment) -> list[V1ReplicaSet]:
        """Port of DeploymentController.getReplicaSetsForDeployment.

        The ReplicaSets this Deployment should manage, after claiming: orphans
        that match its selector are adopted, owned ones that no longer match
        are released. Every ReplicaSet of the namespace is listed, so owned
        ones that stopped matching are seen too. Before the first adoption the
        Deployment is read live once, so a Deployment that is being deleted
        (or was replaced under the same name) adopts nothing.

        Raises:
            ValueError: the Deployment's selector is invalid.
            field.Aggregate: some adoptions or releases failed.
        """
        rs_list = self.rs_lister.replica_sets(d.metadata.namespace or "").list(labels.everything())
        try:
            deployment_selector = label_selector_as_selector(d.spec.selector)
        except ValueError as err:
            raise ValueError(f"deployment {d.metadata.namespace}/{d.metadata.name} has invalid label selector: "
                             f"{err}") from None

        def get_fresh() -> V1Deployment:
            fresh = self.client.apps_v1().deployments(d.metadata.namespace or "").get(d.metadata.name or "",
                                                                                      GetOptions())
            if fresh.metadata.uid != d.metadata.uid:
                raise RuntimeError(f"original Deployment {d.metadata.namespace}/{d.metadata.name} is gone: "
                                   f"got uid {fresh.metadata.uid}, wanted {d.metadata.uid}")
            return fresh

        can_adopt_func = controller_ref_manager.recheck_deletion_timestamp(get_fresh)
        cm = controller_ref_manager.new_replica_set_controller_ref_manager(
            self.rs_control, d, deployment_selector, controller_kind, can_adopt_func)
        return cm.claim_replica_sets(rs_list)

    def get_pod_map_for_deployment(self, d: V1Deployment, rs_list: list[V1ReplicaSet]) -> PodMap:
        """Port of DeploymentController.getPodMapForDeployment.

        For each ReplicaSet of `rs_list`, the pods whose controller reference
        names it (found with the podController index; pods in every phase).
        The pods are the cache's own objects: never change them.

        Raises:
            ValueError: a ReplicaSet lacks namespace, name or uid.
        """
        pod_map: PodMap = {}
        for rs in rs_list:
            pods = controller_utils.filter_pods_by_owner(self.pod_indexer, rs.metadata, "ReplicaSet", False)
            pod_map[rs.metadata.uid or ""] = pods
        return pod_map

    # -- the sync ---------------------------------------------------------------------------------

    def sync_deployment(self, key: str) -> None:
        """Port of DeploymentController.syncDeployment: the one sync entry point.

        The decision ladder, in upstream's order:
        1. Deployment gone from the cache: nothing to do.
        2. Deep-copy it (never change the cache's object).
        3. Empty selector ("select everything"): warn with an event, record
           the observed generation, stop.
        4. Claim its ReplicaSets and group their pods.
        5. Being deleted: only update the status.
        6. Record paused/resumed in the Progressing condition.
        7. Paused: scale and clean up only (sync).
        8. Rollback requested (annotation): roll back.
        9. Replica count changed (a scaling event): scale proportionally (sync).
        10. Otherwise roll out by strategy: Recreate or RollingUpdate.

        Raises:
            Exception: anything that should make the key retry.
        """
        namespace, name = split_meta_namespace_key(key)
        start_time = self.clock.now()
        logger.debug("Started syncing deployment %s/%s at %s", namespace, name, start_time)
        try:
            # Phase 1: the Deployment, as a private copy.
            try:
                deployment = self.d_lister.deployments(namespace).get(name)
            except errors.StatusError as err:
                if errors.is_not_found(err):
                    logger.debug("Deployment %s/%s has been deleted", namespace, name)
                    return
                raise
            d: V1Deployment = deep_copy(deployment)
            if d.status is None:
                d.status = V1DeploymentStatus()  # Go: the zero-value status struct

            # Phase 2: refuse a selector that selects everything.
            if selects_everything(d):
                self.event_recorder.eventf(d, record.EVENT_TYPE_WARNING, "SelectingAll",
                                           "This deployment is selecting all pods. A non-empty selector is required.")
                if (d.status.observed_generation or 0) < (d.metadata.generation or 0):
                    d.status.observed_generation = d.metadata.generation
                    try:
                        self.client.apps_v1().deployments(d.metadata.namespace or "").update_status(
                            d, UpdateOptions())
                    except Exception as err:  # Go ignores this error: the warning event is what matters
                        logger.debug("Could not record the observed generation of %s/%s: %s", namespace, name, err)
                return

            # Phase 3: what it owns.
            rs_list = self.get_replica_sets_for_deployment(d)
            pod_map = self.get_pod_map_for_deployment(d, rs_list)

            # Phase 4: the decision ladder.
            if d.metadata.deletion_timestamp is not None:
                self.sync_status_only(d, rs_list)
                return
            self.check_paused_conditions(d)
            if d.spec.paused:
                self.sync(d, rs_list)
                return
            if get_rollback_to(d) is not None:
                self.rollback(d, rs_list)  # not re-entrant: the next sync must see the annotation gone
                return
            if self.is_scaling_event(d, rs_list):
                self.sync(d, rs_list)
                return

            # Phase 5: roll out by strategy.
            strategy_type = d.spec.strategy.type if d.spec.strategy is not None else ""
            if strategy_type == util.RECREATE_DEPLOYMENT_STRATEGY_TYPE:
                self.rollout_recreate(d, rs_list, pod_map)
                return
            if strategy_type == util.ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE:
                self.rollout_rolling(d, rs_list)
                return
            raise ValueError(f"unexpected deployment strategy type: {strategy_type}")
        finally:
            logger.debug("Finished syncing deployment %s/%s (%.3fs)", namespace, name,
                         self.clock.since(start_time))  # Go: deferred log line


def unwrap_tombstone(obj: Any, cls: type[T], what: str) -> T | None:
    """The object a delete handler got: `obj` itself, or the one inside a tombstone.

    Go repeats this in each delete handler; anything else is reported and
    gives None (the handler then does nothing).
    """
    if isinstance(obj, cls):
        return obj
    if not isinstance(obj, DeletedFinalStateUnknown):
        runtime.handle_error(ValueError(f"couldn't get object from tombstone {obj!r}"))
        return None
    if not isinstance(obj.obj, cls):
        runtime.handle_error(ValueError(f"tombstone contained object that is not {what} {obj!r}"))
        return None
    return obj.obj


def key_or_report(deployment: V1Deployment) -> str | None:
    """controller.KeyFunc for the enqueue methods: the key, or None after reporting why there is none."""
    try:
        return controller_utils.key_func(deployment)
    except Exception as err:  # Go: HandleError and drop the Deployment
        runtime.handle_error(ValueError(f"couldn't get key for object {deployment!r}: {err}"))
        return None


def selects_everything(d: V1Deployment) -> bool:
    """The `metav1.LabelSelector{}` test of syncDeployment: a selector with no labels and no expressions.

    A missing selector (Go: nil pointer) is not "everything"; it selects nothing.
    """
    selector = d.spec.selector if d.spec is not None else None
    return selector is not None and not selector.match_labels and not selector.match_expressions


def new_deployment_controller(d_informer: ResourceInformer[listers.DeploymentLister],
                              rs_informer: ResourceInformer[listers.ReplicaSetLister],
                              pod_informer: ResourceInformer[listers.PodLister], client: Interface, *,
                              clock: Clock | None = None) -> DeploymentController:
    """Port of NewDeploymentController (deployment_controller.go).

    Wires the handlers onto the three shared informers and adds the
    podController index to the pod informer. `clock` (no upstream twin)
    defaults to the Deployment informer's factory's.

    Raises:
        RuntimeError: the pod informer has stopped, so the index cannot be added
            (Go: "adding Pod controller UID indexer: ...").
    """
    try:
        return DeploymentController(d_informer, rs_informer, pod_informer, client, clock=clock)
    except RuntimeError as err:
        raise RuntimeError(f"adding Pod controller UID indexer: {err}") from err
