"""Port of pkg/controller/statefulset/stateful_set.go.

The StatefulSet controller's loop. Pod events wake the set that controls the
pod (or, for an orphan, every set whose selector matches it); set events
wake the set. A worker takes a set's key and calls `sync`: adopt orphaned
ControllerRevisions, claim the set's pods (adopt matching orphans, release
pods that no longer match or are not named like members), then hand set and
pods to the control (stateful_set_control.update_stateful_set), which does
the actual work.

Reconstructed from a copy of the 1.31 layout (ctx-first, typed work queue,
the minReadySeconds requeue in updatePod). The 1.36 consistency store
(StaleControllerConsistencyStatefulSet, PR #137254) is wired as the ReplicaSet
controller's is; that wiring is reconstructed from the PR.

Start reading at: StatefulSetController.sync, then sync_stateful_set, then
stateful_set_control.DefaultStatefulSetControl.update_stateful_set.

Not ported: contextual logging, the metrics registration.
Differs from Go:
- The clock is injected (Go: the real clock) and chooses the run mode once:
  on a driven clock (`clock.driven`) the driver calls `steps()`, the twin of
  `run()`, whose worker threads loop over the same `process_next_work_item`.
- `sync` raises instead of returning an error; process_next_work_item is the
  one catch-all.
- The consistency store: `sync` refuses (ConsistencyError, retried) while the
  pod, claim or set informer lags behind this controller's own writes for
  the set, and forgets a set that is gone. Writes are recorded by the pod
  control and the status updater.
- CONTROLLER_KIND and POD_KIND are defined in stateful_set_utils (imported here).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from kubernetes.client import V1ControllerRevision, V1EventSource, V1OwnerReference, V1Pod, V1StatefulSet

from minikcm import features
from minikcm.api.pod.util import is_pod_ready
from minikcm.apimachinery import errors, labels, runtime
from minikcm.apimachinery.meta import GetOptions, get_controller_of, label_selector_as_selector
from minikcm.apimachinery.schema import GroupResource
from minikcm.apimachinery.types import NamespacedName
from minikcm.client.interface import Interface
from minikcm.clock import Clock, Seconds
from minikcm.controller.controller_ref_manager import new_pod_controller_ref_manager, recheck_deletion_timestamp
from minikcm.controller.controller_run import ControllerRun
from minikcm.controller.controller_utils import PodControlInterface, RealPodControl, key_func
from minikcm.controller.history import controller_history as history
from minikcm.controller.statefulset.stateful_pod_control import (
    POD_GROUP_RESOURCE,
    PVC_GROUP_RESOURCE,
    new_stateful_pod_control,
)
from minikcm.controller.statefulset.stateful_set_control import (
    StatefulSetControlInterface,
    new_default_stateful_set_control,
)
from minikcm.controller.statefulset.stateful_set_status_updater import (
    STATEFUL_SET_GROUP_RESOURCE,
    new_real_stateful_set_status_updater,
)
from minikcm.controller.statefulset.stateful_set_utils import CONTROLLER_KIND, POD_KIND, is_member_of
from minikcm.controller.util.consistency import (
    ConsistencyStore,
    LastSyncRVGetter,
    new_consistency_store,
    new_noop_consistency_store,
)
from minikcm.informers.factory import ResourceInformer
from minikcm.informers.listers import (
    ControllerRevisionLister,
    PersistentVolumeClaimLister,
    PodLister,
    StatefulSetLister,
)
from minikcm.driver import Step
from minikcm.tools.cache.controller import ResourceEventHandlerFuncs
from minikcm.tools.cache.delta_fifo import DeletedFinalStateUnknown
from minikcm.tools.cache.store import split_meta_namespace_key
from minikcm.tools.record import EventBroadcasterImpl, new_broadcaster
from minikcm.util.workqueue import (
    RateLimitingQueueConfig,
    default_controller_rate_limiter,
    new_rate_limiting_queue_with_config,
)
from minikcm.util.workqueue.rate_limiting_queue import RateLimitingType

log = logging.getLogger(__name__)

__all__ = ["CONTROLLER_KIND", "POD_KIND", "StatefulSetController", "new_stateful_set_controller"]

QUEUE_NAME = "statefulset"
"""The work queue's name; also names the driver steps and worker threads."""


def new_stateful_set_controller(pod_informer: ResourceInformer[PodLister],
                                set_informer: ResourceInformer[StatefulSetLister],
                                pvc_informer: ResourceInformer[PersistentVolumeClaimLister],
                                rev_informer: ResourceInformer[ControllerRevisionLister],
                                kube_client: Interface, *,
                                clock: Clock | None = None) -> StatefulSetController:
    """Port of NewStatefulSetController: the controller, its control stack and its handlers.

    Builds the event recorder, the consistency store over the pod, claim and
    set informers (gate StaleControllerConsistencyStatefulSet, on in 1.36),
    the pod control, status updater and history (with the 1.36 revision
    index), registers the pod and set handlers and points the listers at
    the informers' caches.

    Differs from Go: `clock` defaults to the informer factory's.
    """
    factory = set_informer.factory
    clock = clock if clock is not None else factory.clock
    event_broadcaster = new_broadcaster(clock=clock)
    recorder = event_broadcaster.new_recorder(None, V1EventSource(component="statefulset-controller"))

    consistency_store: ConsistencyStore
    if features.DEFAULT_FEATURE_GATE.enabled(features.STALE_CONTROLLER_CONSISTENCY_STATEFUL_SET):
        stores: dict[GroupResource, LastSyncRVGetter] = {
            POD_GROUP_RESOURCE: pod_informer.informer().get_store(),
            PVC_GROUP_RESOURCE: pvc_informer.informer().get_store(),
            STATEFUL_SET_GROUP_RESOURCE: set_informer.informer().get_store(),
        }
        consistency_store = new_consistency_store(stores)
    else:
        consistency_store = new_noop_consistency_store()

    history.add_controller_revision_controller_indexer(rev_informer.informer())
    control = new_default_stateful_set_control(
        new_stateful_pod_control(kube_client, pod_informer.lister(), pvc_informer.lister(), recorder,
                                 consistency_store, clock),
        new_real_stateful_set_status_updater(kube_client, set_informer.lister(), consistency_store, clock),
        history.new_history(kube_client, rev_informer.lister(), rev_informer.informer().get_indexer(), clock),
        inline=clock.driven,
    )
    queue = new_rate_limiting_queue_with_config(
        default_controller_rate_limiter(clock),
        RateLimitingQueueConfig(name=QUEUE_NAME, clock=clock))
    ssc = StatefulSetController(kube_client, control, RealPodControl(kube_client=kube_client, recorder=recorder),
                                queue, event_broadcaster, consistency_store, clock)
    ssc.pvc_lister_synced = pvc_informer.informer().has_synced
    ssc.rev_lister_synced = rev_informer.informer().has_synced

    pod_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
        add_func=ssc.add_pod, update_func=ssc.update_pod, delete_func=ssc.delete_pod))
    ssc.pod_lister = pod_informer.lister()
    ssc.pod_lister_synced = pod_informer.informer().has_synced

    set_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
        add_func=ssc.enqueue_stateful_set, update_func=ssc.update_stateful_set_handler,
        delete_func=ssc.enqueue_stateful_set))
    ssc.set_lister = set_informer.lister()
    ssc.set_lister_synced = set_informer.informer().has_synced
    return ssc


class StatefulSetController:
    """Port of StatefulSetController: syncs StatefulSets with their pods, claims and revisions."""

    def __init__(self, kube_client: Interface, control: StatefulSetControlInterface,
                 pod_control: PodControlInterface, queue: RateLimitingType, event_broadcaster: EventBroadcasterImpl,
                 consistency_store: ConsistencyStore, clock: Clock) -> None:
        self.kube_client = kube_client
        self.control = control
        """The sync logic (tests swap in a fake)."""
        self.pod_control = pod_control
        """Patches pods' owner references when claiming (adopt / release)."""
        self.pod_lister: PodLister | None = None
        self.pod_lister_synced: Callable[[], bool] | None = None
        self.set_lister: StatefulSetLister | None = None
        self.set_lister_synced: Callable[[], bool] | None = None
        self.pvc_lister_synced: Callable[[], bool] | None = None
        self.rev_lister_synced: Callable[[], bool] | None = None
        self.queue = queue
        """StatefulSet keys (`namespace/name`) waiting for a sync."""
        self.event_broadcaster = event_broadcaster
        self.consistency_store = consistency_store
        self.clock = clock
        self.loop = ControllerRun(f"{QUEUE_NAME}/worker", "statefulset", queue, self.worker,
                                  self.process_next_work_item, clock=clock, synced=self.caches_synced,
                                  event_broadcaster=event_broadcaster, event_client=kube_client)
        """Run's threads, or the driver's steps (controller_run.ControllerRun)."""

    def __repr__(self) -> str:
        return f"<StatefulSetController queued={self.queue.len()}>"

    # --- running: threads (run) or driver steps (steps) -------------------------------------------------

    def run(self, workers: int, stop: threading.Event) -> None:
        """Port of StatefulSetController.Run: start the event pipeline and `workers` worker threads.

        Waits for the pod, set, claim and revision caches, starts threads
        named `statefulset/worker-<n>` (each runs `worker` again every second
        until `stop`), and blocks until `stop` is set. On a driven clock the
        driver runs `steps()`.
        """
        self.loop.run(workers, stop)

    def steps(self) -> list[Step]:
        """No upstream twin: the driven-clock twin of `run` (ControllerRun.steps; starts nothing).

        `statefulset/worker` (one process_next_work_item, ready once the four
        caches have synced and a key is queued), the queue's waiting step, and
        the event broadcaster's step.
        """
        return self.loop.steps()

    def start_event_recording(self) -> None:
        """The first lines of Go's Run: log events and write them to the API server (once)."""
        self.loop.start_event_recording()

    def caches_synced(self) -> bool:
        """No upstream twin: Run's wait: the pod, set, claim and revision caches have their first lists."""
        syncs = (self.pod_lister_synced, self.set_lister_synced, self.pvc_lister_synced, self.rev_lister_synced)
        return all(synced is not None and synced() for synced in syncs)

    # --- informer handlers ---------------------------------------------------------------------------

    def update_stateful_set_handler(self, old: Any, cur: Any) -> None:
        """The set informer's update handler (inline in Go's constructor): log a replica change, sync."""
        old_set: V1StatefulSet = old
        cur_set: V1StatefulSet = cur
        old_replicas = old_set.status.replicas if old_set.status else 0
        cur_replicas = cur_set.status.replicas if cur_set.status else 0
        if old_replicas != cur_replicas:
            log.debug("Observed updated replica count for StatefulSet statefulSet=%s/%s oldReplicas=%s "
                      "newReplicas=%s", cur_set.metadata.namespace, cur_set.metadata.name, old_replicas,
                      cur_replicas)
        self.enqueue_stateful_set(cur_set)

    def add_pod(self, obj: Any) -> None:
        """Port of addPod: wake the pod's controller, or every set that might adopt an orphan.

        A pod that arrives already being deleted (seen after a restart) is
        handled as a delete.
        """
        pod: V1Pod = obj
        if pod.metadata.deletion_timestamp is not None:
            self.delete_pod(pod)
            return
        controller_ref = get_controller_of(pod)
        if controller_ref is not None:
            set_ = self.resolve_controller_ref(pod.metadata.namespace or "", controller_ref)
            if set_ is None:
                return
            log.debug("Pod created with labels pod=%s/%s labels=%s", pod.metadata.namespace, pod.metadata.name,
                      pod.metadata.labels)
            self.enqueue_stateful_set(set_)
            return
        sets = self.get_stateful_sets_for_pod(pod)
        if not sets:
            return
        log.debug("Orphan Pod created with labels pod=%s/%s labels=%s", pod.metadata.namespace, pod.metadata.name,
                  pod.metadata.labels)
        for set_ in sets:
            self.enqueue_stateful_set(set_)

    def update_pod(self, old: Any, cur: Any) -> None:
        """Port of updatePod: wake the sets a pod change concerns.

        - Same resourceVersion: a resync, ignored.
        - controllerRef changed: the old controller is woken too.
        - With a controllerRef: that set is woken; a pod that just became ready
          wakes it again minReadySeconds + 1 s later, to count it as available.
        - An orphan whose labels or controllerRef changed wakes every set that
          might adopt it.
        """
        cur_pod: V1Pod = cur
        old_pod: V1Pod = old
        if cur_pod.metadata.resource_version == old_pod.metadata.resource_version:
            return
        label_changed = cur_pod.metadata.labels != old_pod.metadata.labels
        cur_controller_ref = get_controller_of(cur_pod)
        old_controller_ref = get_controller_of(old_pod)
        controller_ref_changed = cur_controller_ref != old_controller_ref
        if controller_ref_changed and old_controller_ref is not None:
            old_set = self.resolve_controller_ref(old_pod.metadata.namespace or "", old_controller_ref)
            if old_set is not None:
                self.enqueue_stateful_set(old_set)
        if cur_controller_ref is not None:
            set_ = self.resolve_controller_ref(cur_pod.metadata.namespace or "", cur_controller_ref)
            if set_ is None:
                return
            log.debug("Pod objectMeta updated pod=%s/%s", cur_pod.metadata.namespace, cur_pod.metadata.name)
            self.enqueue_stateful_set(set_)
            min_ready_seconds = set_.spec.min_ready_seconds or 0
            if not is_pod_ready(old_pod) and is_pod_ready(cur_pod) and min_ready_seconds > 0:
                log.debug("StatefulSet will be enqueued after minReadySeconds for availability check "
                          "statefulSet=%s minReadySeconds=%d", set_.metadata.name, min_ready_seconds)
                # One more second, so the requeue cannot land a hair too early.
                self.enqueue_ss_after(set_, float(min_ready_seconds) + 1.0)
            return
        if label_changed or controller_ref_changed:
            sets = self.get_stateful_sets_for_pod(cur_pod)
            if not sets:
                return
            log.debug("Orphan Pod objectMeta updated pod=%s/%s", cur_pod.metadata.namespace, cur_pod.metadata.name)
            for set_ in sets:
                self.enqueue_stateful_set(set_)

    def delete_pod(self, obj: Any) -> None:
        """Port of deletePod: wake the deleted pod's controller (orphans concern nobody). `obj` may be a tombstone."""
        pod = obj
        if not isinstance(pod, V1Pod):
            if not isinstance(obj, DeletedFinalStateUnknown):
                runtime.handle_error(RuntimeError(f"couldn't get object from tombstone {obj!r}"))
                return
            pod = obj.obj
            if not isinstance(pod, V1Pod):
                runtime.handle_error(RuntimeError(f"tombstone contained object that is not a pod {obj!r}"))
                return
        controller_ref = get_controller_of(pod)
        if controller_ref is None:
            return
        set_ = self.resolve_controller_ref(pod.metadata.namespace or "", controller_ref)
        if set_ is None:
            return
        log.debug("Pod deleted pod=%s/%s", pod.metadata.namespace, pod.metadata.name)
        self.enqueue_stateful_set(set_)

    # --- lookups -------------------------------------------------------------------------------------

    def get_pods_for_stateful_set(self, set_: V1StatefulSet, selector: labels.Selector) -> list[V1Pod]:
        """Port of getPodsForStatefulSet: the pods `set_` should manage, claiming as needed.

        Every pod of the namespace is considered (a pod owned by the set but no
        longer matching its selector must be released). Only pods named like
        members are adopted or kept. The returned pods are the cache's: copy
        before changing one.

        Raises: the aggregate of failed adoptions and releases.
        """
        assert self.pod_lister is not None
        pods = self.pod_lister.pods(set_.metadata.namespace or "").list(labels.everything())

        def member_filter(pod: V1Pod) -> bool:
            return is_member_of(set_, pod)

        cm = new_pod_controller_ref_manager(self.pod_control, set_, selector, CONTROLLER_KIND,
                                            self.can_adopt_func(set_))
        return cm.claim_pods(pods, member_filter)

    def can_adopt_func(self, set_: V1StatefulSet) -> Callable[[], None]:
        """Port of canAdoptFunc: before adopting, re-read the set live; refuse if it is being deleted or was replaced."""

        def get_fresh() -> V1StatefulSet:
            fresh = self.kube_client.apps_v1().stateful_sets(set_.metadata.namespace or "").get(
                set_.metadata.name or "", GetOptions())
            if fresh.metadata.uid != set_.metadata.uid:
                raise RuntimeError(f"original StatefulSet {set_.metadata.namespace}/{set_.metadata.name} is gone: "
                                   f"got uid {fresh.metadata.uid}, wanted {set_.metadata.uid}")
            return fresh

        return recheck_deletion_timestamp(get_fresh)

    def adopt_orphan_revisions(self, set_: V1StatefulSet) -> None:
        """Port of adoptOrphanRevisions: adopt the set's orphaned ControllerRevisions (after a live re-read).

        Raises: RuntimeError when the set may not adopt, or the adoption's error.
        """
        revisions = self.control.list_revisions(set_)
        orphans: list[V1ControllerRevision] = [r for r in revisions if get_controller_of(r) is None]
        if orphans:
            try:
                self.can_adopt_func(set_)()
            except Exception as err:
                raise RuntimeError(f"can't adopt ControllerRevisions: {err}") from None
            self.control.adopt_orphan_revisions(set_, orphans)

    def get_stateful_sets_for_pod(self, pod: V1Pod) -> list[V1StatefulSet]:
        """Port of getStatefulSetsForPod: every set whose selector matches `pod` (more than one is a user error)."""
        assert self.set_lister is not None
        try:
            sets = self.set_lister.get_pod_stateful_sets(pod)
        except LookupError:  # no labels or no match: nobody to wake
            return []
        if len(sets) > 1:
            runtime.handle_error(RuntimeError(
                f"user error: more than one StatefulSet is selecting pods with labels: {pod.metadata.labels}. "
                f"Sets: {[s.metadata.name for s in sets]}"))
        return sets

    def resolve_controller_ref(self, namespace: str, controller_ref: V1OwnerReference) -> V1StatefulSet | None:
        """Port of resolveControllerRef: the cached set a controllerRef names, if it is really that one (same uid)."""
        if controller_ref.kind != CONTROLLER_KIND.kind:
            return None
        assert self.set_lister is not None
        try:
            set_ = self.set_lister.stateful_sets(namespace).get(controller_ref.name)
        except errors.StatusError:  # not in the cache: nothing to resolve to
            return None
        if set_.metadata.uid != controller_ref.uid:
            return None  # same name, another incarnation
        return set_

    def enqueue_stateful_set(self, obj: Any) -> None:
        """Port of enqueueStatefulSet: queue the set's key (`obj` may be a tombstone)."""
        try:
            key = key_func(obj)
        except Exception as err:  # an object without a name; reported, nothing to queue
            runtime.handle_error(RuntimeError(f"couldn't get key for object {obj!r}: {err}"))
            return
        self.queue.add(key)

    def enqueue_ss_after(self, set_: V1StatefulSet, duration: Seconds) -> None:
        """Port of enqueueSSAfter: queue the set's key once `duration` seconds have passed."""
        try:
            key = key_func(set_)
        except Exception as err:  # as in enqueue_stateful_set
            runtime.handle_error(RuntimeError(f"couldn't get key for object {set_!r}: {err}"))
            return
        self.queue.add_after(key, duration)

    # --- the worker ------------------------------------------------------------------------------------

    def process_next_work_item(self) -> bool:
        """Port of processNextWorkItem: sync one key; success forgets its backoff, failure requeues it slower.

        Returns False only once the queue is shutting down.
        Blocks: until a key is available (the driver calls this only when one is).
        """
        key, quit_ = self.queue.get()
        if quit_:
            return False
        try:
            self.sync(key)
        except Exception as err:  # the one catch-all of this loop
            runtime.handle_error(RuntimeError(f"error syncing StatefulSet {key}, requeuing: {err}"))
            self.queue.add_rate_limited(key)
        else:
            self.queue.forget(key)
        finally:
            self.queue.done(key)
        return True

    def worker(self) -> None:
        """Port of worker: process keys until the queue shuts down."""
        while self.process_next_work_item():
            pass

    def sync(self, key: str) -> None:
        """Port of sync: one StatefulSet, from its key.

        1. Refuse (ConsistencyError) while the caches lag behind our own writes for it.
        2. Gone from the cache: forget it; done. An invalid selector is
           reported and not retried (retrying cannot fix it).
        3. Adopt orphaned revisions, claim pods, then sync_stateful_set.

        Raises: on any failure, so the worker requeues the key with backoff.
        """
        start_time = self.clock.now()
        try:
            namespace, name = split_meta_namespace_key(key)
            self.consistency_store.ensure_ready(NamespacedName(namespace, name))
            assert self.set_lister is not None
            try:
                set_ = self.set_lister.stateful_sets(namespace).get(name)
            except errors.StatusError as err:
                if not errors.is_not_found(err):
                    runtime.handle_error(RuntimeError(f"unable to retrieve StatefulSet {key} from store: {err}"))
                    raise
                log.info("StatefulSet has been deleted key=%s", key)
                self.consistency_store.clear(NamespacedName(namespace, name), "")
                return
            try:
                selector = label_selector_as_selector(set_.spec.selector)
            except ValueError as err:  # not transient: do not retry
                runtime.handle_error(RuntimeError(f"error converting StatefulSet {key} selector: {err}"))
                return
            self.adopt_orphan_revisions(set_)
            pods = self.get_pods_for_stateful_set(set_, selector)
            self.sync_stateful_set(set_, pods)
        finally:
            log.debug("Finished syncing statefulset key=%s time=%.3fs", key, self.clock.since(start_time))

    def sync_stateful_set(self, set_: V1StatefulSet, pods: list[V1Pod]) -> None:
        """Port of syncStatefulSet: run the control on (set, pods); requeue while pods are not yet available.

        With minReadySeconds, a set whose available count is short of
        spec.replicas is synced again minReadySeconds later.
        """
        log.debug("Syncing StatefulSet with pods statefulSet=%s/%s pods=%d", set_.metadata.namespace,
                  set_.metadata.name, len(pods))
        status = self.control.update_stateful_set(set_, pods, self.clock.now())
        log.debug("Successfully synced StatefulSet statefulSet=%s/%s", set_.metadata.namespace, set_.metadata.name)
        min_ready_seconds = set_.spec.min_ready_seconds or 0
        if min_ready_seconds > 0 and status is not None and \
                (status.available_replicas or 0) != (set_.spec.replicas or 0):
            self.enqueue_ss_after(set_, float(min_ready_seconds))
