"""Port of pkg/controller/statefulset/stateful_set_control.go.

The StatefulSet controller's decision logic, one call per sync:
`update_stateful_set(set, pods, now)` settles the set's revisions (which
ControllerRevision is current, which is the update target), then walks the
members by ordinal:

1. members (ordinals start .. start+replicas-1) first: a failed or succeeded
   pod is deleted to be recreated, a missing one created at the revision its
   ordinal calls for, a drifted one repaired (process_replica);
2. then the condemned pods (ordinals outside that range), highest ordinal
   first: their claims get the owners the retention policy wants, then they
   are deleted (process_condemned);
3. then, for RollingUpdate, one pod at or above the partition that is not at
   the update revision is deleted, the highest first (it comes back updated).

With podManagementPolicy OrderedReady ("monotonic") every step stops at the
first pod that is not yet Running and Ready (and available for
minReadySeconds), so pod N+1 is created only after N is ready and pod N is
deleted only after N+1 is gone. With Parallel the same work runs for all pods
at once (slow_start_batch) without waiting. The status is written at the end
of each sync, and old revisions beyond revisionHistoryLimit are deleted.

Reconstructed from a copy of the 1.30 layout (processReplica /
processCondemned / runForAll / updateStatefulSetAfterInvariantEstablished)
and upstream material about the later changes: the `now` argument,
isUnavailable and the revision-equality cache from v1.36.2 excerpts; the
semantic revision comparison from PR #135017
(StatefulSetSemanticRevisionComparison). StatefulSetAutoDeletePVC is GA, so
its branches run always. updateStatefulSet's two isUnavailable checks and
truncateHistory were checked against a copy from after the 1.36 release.

Start reading at: DefaultStatefulSetControl.update_stateful_set_internal, then
process_replica, process_condemned and get_stateful_set_revisions.

Design notes: revisions. The update revision is always the one made from the
set's current template: an existing revision with the same data if the
newest one is that (nothing changed), an older one renumbered to the top if
some earlier revision has that data (a rollback reuses its name, so pods of
that revision need not be replaced), else a new one. The current revision is
the one named in status.currentRevision; when a rolling update completes
(all members updated and ready) it becomes the update revision.

Not ported: the metrics (MaxUnavailable, UnavailableReplicas), contextual logging.
Differs from Go:
- Go's updateStatefulSet is `update_stateful_set_internal` (Python has one
  namespace for it and UpdateStatefulSet).
- perform_update and update_stateful_set_internal return their partial result
  next to the error (STYLE §7), because Go's callers use both: the status is
  written even when a pod operation failed, and history is truncated with the
  revisions found. update_stateful_set raises the aggregate, as Go returns it.
- process_replica, process_condemned and run_for_all return "stop here" and
  raise errors (Go: (bool, error)).
- slow_start_batch, run_for_all and the control take `inline` (no Go twin;
  the controller passes `inline=clock.driven`): the calls run on the caller's
  thread, in order, instead of in a wait.Group's threads.
- The revision-equality cache (a `minikcm.util.lru.Cache`) holds positive answers only.
- The consistency store is held by the pod control and the status updater
  (see stateful_pod_control), not by this struct.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from kubernetes.client import V1ControllerRevision, V1Pod, V1StatefulSet, V1StatefulSetStatus

from minikcm import features
from minikcm.apimachinery import errors, wait
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.field import Aggregate
from minikcm.apimachinery.meta import label_selector_as_selector
from minikcm.controller.history import controller_history as history
from minikcm.controller.statefulset.stateful_pod_control import StatefulPodControl
from minikcm.controller.statefulset.stateful_set_status_updater import StatefulSetStatusUpdaterInterface
from minikcm.controller.statefulset.stateful_set_utils import (
    CONTROLLER_KIND,
    ON_DELETE_STRATEGY,
    DescendingOrdinal,
    allows_burst,
    apply_revision,
    complete_rolling_update,
    get_end_ordinal,
    get_ordinal,
    get_pod_revision,
    get_start_ordinal,
    get_stateful_set_max_unavailable,
    identity_matches,
    inconsistent_status,
    is_created,
    is_failed,
    is_pending,
    is_running_and_available,
    is_running_and_ready,
    is_succeeded,
    is_terminating,
    is_unavailable,
    new_revision,
    new_versioned_stateful_set_pod,
    next_revision,
    pod_in_ordinal_range,
    sort_pods_by,
    storage_matches,
)
from minikcm.util import lru

log = logging.getLogger(__name__)

MAX_BATCH_SIZE = 500
"""Port of MaxBatchSize: at most this many pod operations at once in Parallel mode."""

MAX_REVISION_EQUALITY_CACHE_ENTRIES = 10_000
"""Port of maxRevisionEqualityCacheEntries: how many semantic-equality answers are remembered."""


class StatefulSetControlInterface(Protocol):
    """Port of StatefulSetControlInterface: the sync logic, replaceable in controller tests."""

    def update_stateful_set(self, set_: V1StatefulSet, pods: list[V1Pod],
                            now: datetime) -> V1StatefulSetStatus | None:
        """Bring the set's pods, claims, revisions and status one step closer to the spec."""
        ...

    def list_revisions(self, set_: V1StatefulSet) -> list[V1ControllerRevision]:
        """The set's ControllerRevisions (owned or orphaned, matching its selector)."""
        ...

    def adopt_orphan_revisions(self, set_: V1StatefulSet, revisions: list[V1ControllerRevision]) -> None:
        """Adopt the given orphaned revisions."""
        ...


def new_default_stateful_set_control(pod_control: StatefulPodControl,
                                     status_updater: StatefulSetStatusUpdaterInterface,
                                     controller_history: history.Interface, *,
                                     inline: bool = False) -> DefaultStatefulSetControl:
    """Port of NewDefaultStatefulSetControl: the control over the given pod control, status updater and history.

    `inline` (no upstream twin; the controller passes `clock.driven`) makes
    Parallel mode run its pod operations inline instead of in threads.
    """
    return DefaultStatefulSetControl(pod_control, status_updater, controller_history,
                                     lru.new(MAX_REVISION_EQUALITY_CACHE_ENTRIES), inline=inline)


@dataclass(frozen=True)
class RevisionEqualityKey:
    """Port of revisionEqualityKey: one set generation against one stored revision version."""

    set_uid: str
    set_generation: int
    revision_resource_version: str


def set_matches_latest_existing_revision(set_: V1StatefulSet, proposed_revision: V1ControllerRevision,
                                         latest_existing_revision: V1ControllerRevision, collision_count: int,
                                         memory: lru.Cache) -> bool:
    """Port of setMatchesLatestExistingRevision (1.35): the newest revision says the same as the set.

    A revision created by an older release may encode the same template with
    other bytes (1.33 wrote `"creationTimestamp":null`; 1.34 does not). The
    newest revision is applied to the set and re-encoded with today's encoder;
    if that equals the proposed revision, nothing changed and no rollout must
    start. Positive answers are remembered per (set uid, generation, revision
    resourceVersion), since neither side can change without one of those.
    Differs from Go: `collision_count` is passed in, so the rebuilt revision
    is hashed like the proposed one.
    """
    key = RevisionEqualityKey(set_.metadata.uid or "", set_.metadata.generation or 0,
                              latest_existing_revision.metadata.resource_version or "")
    if memory.get(key)[1]:
        return True
    try:
        latest_set = apply_revision(set_, latest_existing_revision)
        reconstructed = new_revision(latest_set, latest_existing_revision.revision or 0, collision_count)
    except Exception as err:  # a revision we cannot apply simply does not match
        log.debug("could not rebuild revision %s: %s", latest_existing_revision.metadata.name, err)
        return False
    if history.equal_revision(proposed_revision, reconstructed):
        memory.add(key, True)
        return True
    return False


@dataclass
class ReplicaStatus:
    """Port of replicaStatus: the counters computed from one list of pods."""

    replicas: int = 0
    ready_replicas: int = 0
    available_replicas: int = 0
    current_replicas: int = 0
    updated_replicas: int = 0


def compute_replica_status(pods: list[V1Pod], min_ready_seconds: int, current_revision: V1ControllerRevision,
                           update_revision: V1ControllerRevision, now: datetime) -> ReplicaStatus:
    """Port of computeReplicaStatus: count created, ready, available, current and updated pods.

    Planned pods (not created) count for nothing; terminating pods count as
    replicas (and ready, if they still are) but never as current or updated.
    """
    status = ReplicaStatus()
    for pod in pods:
        if is_created(pod):
            status.replicas += 1
        if is_running_and_ready(pod):
            status.ready_replicas += 1
            if is_running_and_available(pod, min_ready_seconds, now):
                status.available_replicas += 1
        if is_created(pod) and not is_terminating(pod):
            revision = get_pod_revision(pod)
            if revision == current_revision.metadata.name:
                status.current_replicas += 1
            if revision == update_revision.metadata.name:
                status.updated_replicas += 1
    return status


def update_status(status: V1StatefulSetStatus, min_ready_seconds: int, current_revision: V1ControllerRevision,
                  update_revision: V1ControllerRevision, now: datetime, *pod_lists: list[V1Pod]) -> None:
    """Port of updateStatus: reset the counters of `status` and sum them over `pod_lists`."""
    total = ReplicaStatus()
    for pods in pod_lists:
        part = compute_replica_status(pods, min_ready_seconds, current_revision, update_revision, now)
        total.replicas += part.replicas
        total.ready_replicas += part.ready_replicas
        total.available_replicas += part.available_replicas
        total.current_replicas += part.current_replicas
        total.updated_replicas += part.updated_replicas
    status.replicas = total.replicas
    status.ready_replicas = total.ready_replicas
    status.available_replicas = total.available_replicas
    status.current_replicas = total.current_replicas
    status.updated_replicas = total.updated_replicas


def slow_start_batch(initial_batch_size: int, remaining: int, fn: Callable[[int], bool], *,
                     inline: bool = False) -> tuple[int, Exception | None]:
    """Port of slowStartBatch (stateful_set_control.go): call fn(0), fn(1), ... in growing batches.

    Batches of 1, 2, 4, ... (at most MAX_BATCH_SIZE) run concurrently; after a
    batch with a failure no further batch starts. fn's "stop here" answer is
    ignored: it only matters in OrderedReady mode. Example: 10 calls, the 5th
    fails -> batches [0], [1, 2], [3..6] run (7 successes), 7..9 never do.

    Returns: (successes, Aggregate of the batch's errors or None).
    Differs from Go: `inline` runs a batch's calls on the caller's thread, in order.
    """
    successes = 0
    j = 0
    batch_size = min(remaining, initial_batch_size)
    while batch_size > 0:
        errs: list[Exception] = []  # Go: buffered error channel
        errs_lock = threading.Lock()

        def call(k: int) -> None:
            try:
                fn(k)
            except Exception as err:  # every failure counts against this batch
                with errs_lock:
                    errs.append(err)

        group = wait.Group(inline=inline, name="statefulset/slow-start-batch")  # Go: WaitGroup
        for _ in range(batch_size):
            group.start(functools.partial(call, j))
            j += 1
        group.wait()
        successes += batch_size - len(errs)
        if errs:
            return successes, Aggregate(errs)
        remaining -= batch_size
        batch_size = min(2 * batch_size, remaining, MAX_BATCH_SIZE)
    return successes, None


def run_for_all(pods: list[V1Pod], fn: Callable[[int], bool], monotonic: bool, *,
                inline: bool = False) -> bool:
    """Port of runForAll: apply fn to every index; True means "stop this sync here".

    Monotonic: one after another, stopping at the first that says stop (or
    raises). Otherwise: all of them through slow_start_batch, stopping only
    on errors.

    Raises: fn's error (monotonic) or the batch's Aggregate (parallel).
    Differs from Go: `inline` is passed on to slow_start_batch.
    """
    if monotonic:
        for i in range(len(pods)):
            if fn(i):
                return True
        return False
    _, err = slow_start_batch(1, len(pods), fn, inline=inline)
    if err is not None:
        raise err
    return False


class DefaultStatefulSetControl:
    """Port of defaultStatefulSetControl: the StatefulSet semantics (see the module docstring)."""

    def __init__(self, pod_control: StatefulPodControl, status_updater: StatefulSetStatusUpdaterInterface,
                 controller_history: history.Interface, revision_equality_cache: lru.Cache, *,
                 inline: bool = False) -> None:
        self.pod_control = pod_control
        self.status_updater = status_updater
        self.controller_history = controller_history
        self.revision_equality_cache = revision_equality_cache
        self.inline = inline
        """No upstream twin: Parallel mode's pod operations run inline when true (a driven clock's world)."""

    def __repr__(self) -> str:
        return f"<DefaultStatefulSetControl {self.controller_history!r}>"

    # --- the entry point -------------------------------------------------------------------------

    def update_stateful_set(self, set_: V1StatefulSet, pods: list[V1Pod],
                            now: datetime) -> V1StatefulSetStatus | None:
        """Port of defaultStatefulSetControl.UpdateStatefulSet: one sync of `set_` (see the module docstring).

        Works on a copy of `set_` (a new revision changes it). Revision
        history is truncated even when the update failed.

        Returns: the status computed (and written).
        Raises: Aggregate of the update's and the truncation's errors.
        """
        set_ = deep_copy(set_)
        revisions = self.list_revisions(set_)
        history.sort_controller_revisions(revisions)
        current_revision, update_revision, status, err = self.perform_update(set_, pods, revisions, now)
        truncate_err: Exception | None = None
        try:
            self.truncate_history(set_, pods, revisions, current_revision, update_revision)
        except Exception as e:
            truncate_err = e
        if err is not None:
            errs = err.errors() if isinstance(err, Aggregate) else [err]
            raise Aggregate([*errs, *([truncate_err] if truncate_err is not None else [])])
        if truncate_err is not None:
            raise truncate_err
        return status

    def perform_update(self, set_: V1StatefulSet, pods: list[V1Pod], revisions: list[V1ControllerRevision],
                       now: datetime) -> tuple[V1ControllerRevision | None, V1ControllerRevision | None,
                                               V1StatefulSetStatus | None, Exception | None]:
        """Port of performUpdate: revisions, then pods, then the status (written even after a pod error).

        Returns: (current revision, update revision, status, error or None).
        """
        try:
            current_revision, update_revision, collision_count = self.get_stateful_set_revisions(set_, revisions)
        except Exception as err:
            return None, None, None, err
        current_status, err = self.update_stateful_set_internal(set_, current_revision, update_revision,
                                                                collision_count, pods, now)
        if err is not None and current_status is None:
            return current_revision, update_revision, None, err
        assert current_status is not None
        status_err: Exception | None = None
        try:
            self.update_stateful_set_status(set_, current_status)
            log.debug("Updated status statefulSet=%s/%s replicas=%s readyReplicas=%s currentReplicas=%s "
                      "updatedReplicas=%s", set_.metadata.namespace, set_.metadata.name, current_status.replicas,
                      current_status.ready_replicas, current_status.current_replicas, current_status.updated_replicas)
        except Exception as e:
            status_err = e
        if err is not None:
            if status_err is not None:
                log.error("Could not update status statefulSet=%s/%s: %s", set_.metadata.namespace,
                          set_.metadata.name, status_err)
            return current_revision, update_revision, current_status, err
        if status_err is not None:
            return current_revision, update_revision, current_status, status_err
        log.debug("StatefulSet revisions statefulSet=%s/%s currentRevision=%s updateRevision=%s",
                  set_.metadata.namespace, set_.metadata.name, current_status.current_revision,
                  current_status.update_revision)
        return current_revision, update_revision, current_status, None

    def list_revisions(self, set_: V1StatefulSet) -> list[V1ControllerRevision]:
        """Port of defaultStatefulSetControl.ListRevisions: by the set's selector, owned or orphaned."""
        selector = label_selector_as_selector(set_.spec.selector)
        return self.controller_history.list_controller_revisions(set_, CONTROLLER_KIND, selector)

    def adopt_orphan_revisions(self, set_: V1StatefulSet, revisions: list[V1ControllerRevision]) -> None:
        """Port of defaultStatefulSetControl.AdoptOrphanRevisions: adopt each; the list gets the adopted copies."""
        for i, revision in enumerate(revisions):
            revisions[i] = self.controller_history.adopt_controller_revision(set_, CONTROLLER_KIND, revision)

    def truncate_history(self, set_: V1StatefulSet, pods: list[V1Pod], revisions: list[V1ControllerRevision],
                         current: V1ControllerRevision | None, update: V1ControllerRevision | None) -> None:
        """Port of truncateHistory: delete the oldest dead revisions beyond revisionHistoryLimit.

        Live revisions (current, update, and any pod's) never count and are
        never deleted. Example: limit 2, revisions 1..6 with 5 current and 6
        update -> dead 1..4, the two oldest (1, 2) are deleted.
        A negative limit (upstream validation now refuses one, but older objects
        and seeded ones may carry it) truncates nothing at all, as upstream has
        done since it stopped panicking on such sets (PR 129301): without that
        check the slice bound would reach past the dead list. A missing limit
        counts as the API default, 10. `revisions` must be sorted.
        """
        live = {r.metadata.name for r in (current, update) if r is not None}
        live |= {get_pod_revision(pod) for pod in pods}
        dead = [r for r in revisions if r.metadata.name not in live]
        limit = set_.spec.revision_history_limit if set_.spec.revision_history_limit is not None else 10
        if limit < 0 or len(dead) <= limit:
            return
        for revision in dead[:len(dead) - limit]:
            self.controller_history.delete_controller_revision(revision)

    def get_stateful_set_revisions(self, set_: V1StatefulSet, revisions: list[V1ControllerRevision]
                                   ) -> tuple[V1ControllerRevision, V1ControllerRevision, int]:
        """Port of getStatefulSetRevisions: (current revision, update revision, collision count).

        See the module's design notes. May create a revision (possibly renamed
        after a hash collision, which raises the collision count) or renumber
        one (rollback). `revisions` is sorted in place.
        """
        revision_count = len(revisions)
        history.sort_controller_revisions(revisions)
        collision_count = (set_.status.collision_count if set_.status else None) or 0
        update_revision = new_revision(set_, next_revision(revisions), collision_count)
        equal_revisions = history.find_equal_revisions(revisions, update_revision)
        equal_count = len(equal_revisions)
        if equal_count > 0 and history.equal_revision(revisions[-1], equal_revisions[-1]):
            update_revision = revisions[-1]  # the newest revision is the set's template: nothing changed
        elif (features.DEFAULT_FEATURE_GATE.enabled(features.STATEFUL_SET_SEMANTIC_REVISION_COMPARISON)
              and revision_count > 0
              and set_matches_latest_existing_revision(set_, update_revision, revisions[-1], collision_count,
                                                       self.revision_equality_cache)):
            update_revision = revisions[-1]  # same template, other bytes (an older encoder)
        elif equal_count > 0:
            # An older revision has this template: roll back by making it the newest.
            update_revision = self.controller_history.update_controller_revision(
                equal_revisions[-1], update_revision.revision)
        else:
            update_revision, collision_count = self.controller_history.create_controller_revision(
                set_, update_revision, collision_count)
        current_name = set_.status.current_revision if set_.status else None
        current_revision = next((r for r in revisions if r.metadata.name == current_name), None)
        if current_revision is None:
            current_revision = update_revision  # a new set: its history starts here
        return current_revision, update_revision, collision_count

    # --- one member, one condemned pod ---------------------------------------------------------------

    def process_replica(self, set_: V1StatefulSet, update_set: V1StatefulSet, monotonic: bool,
                        replicas: list[V1Pod], i: int, now: datetime) -> bool:
        """Port of processReplica: move member `replicas[i]` one step; True means stop this sync.

        - Failed or Succeeded: delete it (it is recreated once it is gone); stop.
        - Not created: create it (unless a claim still belongs to its
          predecessor); in OrderedReady, stop (wait for it to become ready).
        - Pending: create any claims it still misses.
        - OrderedReady only: stop while it is terminating, not Running and
          Ready, or not yet available for minReadySeconds.
        - Repair identity, storage and claim owners if they drifted (on a copy).
        """
        replica = replicas[i]
        if is_failed(replica) or is_succeeded(replica):
            if replica.metadata.deletion_timestamp is None:
                self.pod_control.delete_stateful_pod(set_, replica)
            return True  # the new pod is made once this one is gone
        if not is_created(replica):
            if self.pod_control.pod_claim_is_stale(set_, replica):
                return True  # the old pod's claim must be collected first
            self.pod_control.create_stateful_pod(set_, replica)
            if monotonic:
                return True
        if is_pending(replica):
            log.debug("StatefulSet is triggering PVC creation for pending Pod statefulSet=%s pod=%s",
                      set_.metadata.name, replica.metadata.name)
            self.pod_control.create_missing_persistent_volume_claims(set_, replica)
        if monotonic:
            if is_terminating(replica):
                log.debug("StatefulSet is waiting for Pod to Terminate pod=%s", replica.metadata.name)
                return True
            if not is_running_and_ready(replica):
                log.debug("StatefulSet is waiting for Pod to be Running and Ready pod=%s", replica.metadata.name)
                return True
            if not is_running_and_available(replica, set_.spec.min_ready_seconds or 0, now):
                log.debug("StatefulSet is waiting for Pod to be Available pod=%s", replica.metadata.name)
                return True
        try:
            retention_match = self.pod_control.claims_match_retention_policy(update_set, replica)
        except Exception:  # expected while the pod is otherwise being updated; treated as a match
            retention_match = True
        if identity_matches(set_, replica) and storage_matches(set_, replica) and retention_match:
            return False
        self.pod_control.update_stateful_pod(update_set, deep_copy(replica))  # never change the cache's pod
        return False

    def process_condemned(self, set_: V1StatefulSet, first_unhealthy_pod: V1Pod | None, monotonic: bool,
                          condemned: list[V1Pod], i: int, now: datetime) -> bool:
        """Port of processCondemned: delete condemned pod `condemned[i]`; True means stop this sync.

        OrderedReady waits while the pod is terminating, and refuses to delete
        a pod that is not ready, or not yet available for minReadySeconds,
        unless it is the first unavailable pod of the sync (Go names the
        parameter firstUnhealthyPod; the caller passes its firstUnavailablePod,
        see is_unavailable): deleting that one is the only way forward then.
        One deletion per sync in OrderedReady.
        """
        pod = condemned[i]
        if is_terminating(pod):
            if monotonic:
                log.debug("StatefulSet is waiting for Pod to Terminate prior to scale down pod=%s",
                          pod.metadata.name)
                return True
            return False
        if monotonic and pod is not first_unhealthy_pod:
            if not is_running_and_ready(pod):
                log.debug("StatefulSet is waiting for Pod to be Running and Ready prior to scale down pod=%s",
                          first_unhealthy_pod.metadata.name if first_unhealthy_pod else None)
                return True
            if not is_running_and_available(pod, set_.spec.min_ready_seconds or 0, now):
                log.debug("StatefulSet is waiting for Pod to be Available prior to scale down pod=%s",
                          first_unhealthy_pod.metadata.name if first_unhealthy_pod else None)
                return True
        log.info("Pod of StatefulSet is terminating for scale down statefulSet=%s/%s pod=%s",
                 set_.metadata.namespace, set_.metadata.name, pod.metadata.name)
        self.pod_control.delete_stateful_pod(set_, pod)
        return True

    # --- the whole set ---------------------------------------------------------------------------------

    def update_stateful_set_internal(self, set_: V1StatefulSet, current_revision: V1ControllerRevision,
                                     update_revision: V1ControllerRevision, collision_count: int,
                                     pods: list[V1Pod], now: datetime
                                     ) -> tuple[V1StatefulSetStatus | None, Exception | None]:
        """Port of updateStatefulSet (lower-case u): the pod work of one sync (see the module docstring).

        Returns: (status, error or None); the status is None only when a
        revision cannot be applied.
        """
        try:
            current_set = apply_revision(set_, current_revision)
            update_set = apply_revision(set_, update_revision)
        except Exception as err:
            return None, err
        min_ready = set_.spec.min_ready_seconds or 0
        status = V1StatefulSetStatus(
            replicas=0, observed_generation=set_.metadata.generation or 0,
            current_revision=current_revision.metadata.name, update_revision=update_revision.metadata.name,
            collision_count=collision_count)
        update_status(status, min_ready, current_revision, update_revision, now, pods)

        # Sort the pods into members (by ordinal) and condemned ones; ignore pods without an ordinal.
        start = get_start_ordinal(set_)
        replicas: list[V1Pod | None] = [None] * (set_.spec.replicas or 0)
        condemned: list[V1Pod] = []
        for pod in pods:
            if pod_in_ordinal_range(pod, set_):
                replicas[get_ordinal(pod) - start] = pod
            elif get_ordinal(pod) >= 0:
                condemned.append(pod)
        for ordinal in range(start, get_end_ordinal(set_) + 1):
            if replicas[ordinal - start] is None:
                replicas[ordinal - start] = new_versioned_stateful_set_pod(
                    current_set, update_set, current_revision.metadata.name or "",
                    update_revision.metadata.name or "", ordinal)
        members: list[V1Pod] = [p for p in replicas if p is not None]
        sort_pods_by(DescendingOrdinal(condemned))

        # The first unavailable pod (not available for minReadySeconds, or terminating): the lowest
        # member, else the lowest condemned one.
        unavailable = ([p for p in members if is_unavailable(p, min_ready, now)]
                       + [p for p in reversed(condemned) if is_unavailable(p, min_ready, now)])
        first_unavailable_pod = unavailable[0] if unavailable else None
        if unavailable:
            log.debug("StatefulSet has unavailable Pods statefulSet=%s/%s unavailableReplicas=%d pod=%s",
                      set_.metadata.namespace, set_.metadata.name, len(unavailable),
                      first_unavailable_pod.metadata.name if first_unavailable_pod else None)

        if set_.metadata.deletion_timestamp is not None:
            return status, None  # a set being deleted only reports its status

        monotonic = not allows_burst(set_)

        def finish(err: Exception | None) -> tuple[V1StatefulSetStatus, Exception | None]:
            update_status(status, min_ready, current_revision, update_revision, now, members, condemned)
            return status, err

        def process_replica_fn(i: int) -> bool:
            return self.process_replica(set_, update_set, monotonic, members, i, now)

        def fix_pod_claim(i: int) -> bool:
            if not self.pod_control.claims_match_retention_policy(update_set, condemned[i]):
                self.pod_control.update_pod_claim_for_retention_policy(update_set, condemned[i])
            return False

        def process_condemned_fn(i: int) -> bool:
            return self.process_condemned(set_, first_unavailable_pod, monotonic, condemned, i, now)

        # Members first, then the condemned pods' claims, then the condemned pods, in that order;
        # in OrderedReady each phase may stop the sync at its first waiting pod.
        for pod_list, fn in ((members, process_replica_fn), (condemned, fix_pod_claim),
                             (condemned, process_condemned_fn)):
            try:
                if run_for_all(pod_list, fn, monotonic, inline=self.inline):
                    return finish(None)
            except Exception as err:
                return finish(err)
        update_status(status, min_ready, current_revision, update_revision, now, members, condemned)

        strategy = set_.spec.update_strategy
        if strategy is not None and strategy.type == ON_DELETE_STRATEGY:
            return status, None  # pods are replaced only when someone deletes them
        if features.DEFAULT_FEATURE_GATE.enabled(features.MAX_UNAVAILABLE_STATEFUL_SET):
            return update_stateful_set_after_invariant_established(self, set_, members, update_revision, status, now)

        # RollingUpdate: delete the highest member at or above the partition that is not updated.
        update_min = (strategy.rolling_update.partition or 0) if strategy and strategy.rolling_update else 0
        for target in range(len(members) - 1, update_min - 1, -1):
            pod = members[target]
            if get_pod_revision(pod) != update_revision.metadata.name and not is_terminating(pod):
                log.info("Pod of StatefulSet is terminating for update statefulSet=%s/%s pod=%s",
                         set_.metadata.namespace, set_.metadata.name, pod.metadata.name)
                try:
                    self.pod_control.delete_stateful_pod(set_, pod)
                except Exception as err:
                    if not errors.is_not_found(err):
                        return status, err
                status.current_replicas = (status.current_replicas or 0) - 1
                return status, None
            if is_unavailable(pod, min_ready, now):
                log.debug("StatefulSet is waiting for Pod to update statefulSet=%s pod=%s",
                          set_.metadata.name, pod.metadata.name)
                return status, None
        return status, None

    def update_stateful_set_status(self, set_: V1StatefulSet, status: V1StatefulSetStatus) -> None:
        """Port of updateStatefulSetStatus: complete a finished rolling update, then write the status if it changed."""
        complete_rolling_update(set_, status)
        if not inconsistent_status(set_, status):
            return
        self.status_updater.update_stateful_set_status(deep_copy(set_), status)


def update_stateful_set_after_invariant_established(ssc: DefaultStatefulSetControl, set_: V1StatefulSet,
                                                    replicas: list[V1Pod], update_revision: V1ControllerRevision,
                                                    status: V1StatefulSetStatus, now: datetime
                                                    ) -> tuple[V1StatefulSetStatus, Exception | None]:
    """Port of updateStatefulSetAfterInvariantEstablished: the rolling update with maxUnavailable (gate on).

    Counts the members that are unavailable now (not available for
    minReadySeconds, or terminating). If that already uses the whole budget
    (maxUnavailable, default 1), nothing is deleted; otherwise up to
    `maxUnavailable - unavailable` outdated members at or above the
    partition are deleted, highest ordinal first. Worked example: 5 members,
    maxUnavailable 2, one already unavailable -> one more outdated pod goes.
    (A set whose only member is outdated and never becomes available stays
    stuck here with maxUnavailable 1: upstream issue of March 2026, kept.)
    """
    strategy = set_.spec.update_strategy
    update_min, max_unavailable = 0, 1
    if strategy is not None and strategy.rolling_update is not None:
        update_min = strategy.rolling_update.partition or 0
        try:
            max_unavailable = get_stateful_set_max_unavailable(strategy.rolling_update.max_unavailable,
                                                               set_.spec.replicas or 0)
        except ValueError as err:
            return status, err
    min_ready = set_.spec.min_ready_seconds or 0
    unavailable_pods = sum(1 for pod in replicas if is_unavailable(pod, min_ready, now))
    if unavailable_pods >= max_unavailable:
        if unavailable_pods > max_unavailable:
            log.debug("StatefulSet found unavailablePods, more than the allowed maxUnavailable statefulSet=%s "
                      "unavailablePods=%d maxUnavailable=%d", set_.metadata.name, unavailable_pods, max_unavailable)
        return status, None
    pods_to_delete = max_unavailable - unavailable_pods
    deleted_pods = 0
    target = len(replicas) - 1
    while target >= update_min and deleted_pods < pods_to_delete:
        pod = replicas[target]
        if get_pod_revision(pod) != update_revision.metadata.name and not is_terminating(pod):
            log.info("StatefulSet terminating Pod for update statefulSet=%s pod=%s", set_.metadata.name,
                     pod.metadata.name)
            try:
                ssc.pod_control.delete_stateful_pod(set_, pod)
            except Exception as err:
                if not errors.is_not_found(err):
                    return status, err
            deleted_pods += 1
            status.current_replicas = (status.current_replicas or 0) - 1
        target -= 1
    return status, None
