"""Port of pkg/controller/deployment/sync.go.

Reconstructed from a recent copy of sync.go and checked against v1.32.8 and
v1.36.2 for what changed since: GetReplicaSetProportion, a scaleReplicaSet
without an operation argument whose events read "Scaled up replica set X
from A to B", terminatingReplicas in calculateStatus, and
generateReplicaSetName.

The Deployment controller's bookkeeping, shared by every path of
sync_deployment: find (or create) the new ReplicaSet and keep revisions in
step; scale all active ReplicaSets proportionally when the Deployment is
resized mid-rollout; delete ReplicaSets beyond the revision history limit;
compute and write the Deployment's status.

Start reading at: SyncMixin.sync, then SyncMixin.scale and
SyncMixin.get_new_replica_set; calculate_status for the status.

Not ported: contextual logging.
Differs from Go:
- The methods live on SyncMixin, combined into DeploymentController. Go's
  package-level controllerKind is read as `self.controller_kind` (the
  controller's class attribute): a mixin imports deployment_controller.py
  only for type checking, never at run time.
- "now" (new conditions) is the controller clock's time; calculate_status
  takes it as the keyword `now`.
- Go's reflect.DeepEqual on two DeploymentStatus values is status_equal, which
  reads absent counters as 0 (the API server omits zero counters, the way
  encoding/json's omitempty does) and an absent condition list as empty.
- A call that fails raises; Go returns the error. Where upstream ignores an
  error (the status writes after a failed create), we catch it and say so.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

from kubernetes.client import (V1Deployment, V1DeploymentStatus, V1ObjectMeta, V1PodTemplateSpec, V1ReplicaSet,
                               V1ReplicaSetSpec)

from minikcm import features
from minikcm.apimachinery import errors
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.field import go_quote
from minikcm.apimachinery.meta import CreateOptions, DeleteOptions, UpdateOptions, get_controller_of, new_controller_ref
from minikcm.apimachinery.validation import DNS1123_SUBDOMAIN_MAX_LENGTH
from minikcm.controller import controller_utils
from minikcm.controller.deployment.rollback import get_rollback_to
from minikcm.controller.deployment.util import deployment_util as util
from minikcm.tools import record
from minikcm.util import labels as labelsutil

if TYPE_CHECKING:
    from minikcm.controller.deployment.deployment_controller import DeploymentController

logger = logging.getLogger(__name__)

NAMESPACE_TERMINATING_CAUSE = "NamespaceTerminating"
"""Go: v1.NamespaceTerminatingCause, the status cause of writes into a namespace being deleted."""

CONDITION_TRUE = "True"  # Go: v1.ConditionTrue
CONDITION_FALSE = "False"
CONDITION_UNKNOWN = "Unknown"

MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000
"""Port of maxRevHistoryLengthInChars: the revision-history annotation is kept under this (about 100 entries)."""

REPLICA_SET_NAME_SEPARATOR = "-"
"""Between the Deployment's name and the template hash in a ReplicaSet's name."""


def spec_replicas(obj: V1Deployment | V1ReplicaSet) -> int:
    """Go's `*(obj.Spec.Replicas)`: the API server always defaults it, so absent means a broken object."""
    if obj.spec is None or obj.spec.replicas is None:
        raise RuntimeError(f"{type(obj).__name__} {obj.metadata.name if obj.metadata else ''} has no spec.replicas;"
                           " the API server always sets it")
    return obj.spec.replicas


class SyncMixin:
    """Port of the DeploymentController methods of sync.go (see the module docstring)."""

    def sync_status_only(self: DeploymentController, d: V1Deployment, rs_list: list[V1ReplicaSet]) -> None:
        """Port of DeploymentController.syncStatusOnly: update the status, change nothing else.

        Used while the Deployment is being deleted.
        """
        new_rs, old_rss = self.get_all_replica_sets_and_sync_revision(d, rs_list, False)
        all_rss: list[V1ReplicaSet | None] = [*old_rss, new_rs]
        self.sync_deployment_status(all_rss, new_rs, d)

    def sync(self: DeploymentController, d: V1Deployment, rs_list: list[V1ReplicaSet]) -> None:
        """Port of DeploymentController.sync: reconcile a scaling event or a paused Deployment.

        Scales the ReplicaSets (proportionally when several are active); a
        paused Deployment with no rollback pending also gets its old
        ReplicaSets cleaned up; then the status is written.
        """
        new_rs, old_rss = self.get_all_replica_sets_and_sync_revision(d, rs_list, False)
        self.scale(d, new_rs, old_rss)  # a failure requeues the Deployment: this pass ends here
        if d.spec.paused and get_rollback_to(d) is None:
            self.cleanup_deployment(old_rss, d)
        all_rss: list[V1ReplicaSet | None] = [*old_rss, new_rs]
        self.sync_deployment_status(all_rss, new_rs, d)

    def check_paused_conditions(self: DeploymentController, d: V1Deployment) -> None:
        """Port of DeploymentController.checkPausedConditions.

        Records pausing and resuming in the Progressing condition (status
        Unknown, reasons DeploymentPaused / DeploymentResumed), so that time
        spent paused never counts against the progress deadline. Leaves a
        ProgressDeadlineExceeded condition alone. Only for Deployments with a
        progress deadline.
        """
        if not util.has_progress_deadline(d):
            return
        cond = util.get_deployment_condition(d.status, util.DEPLOYMENT_PROGRESSING)
        if cond is not None and cond.reason == util.TIMED_OUT_REASON:
            return  # reported lack of progress: a paused condition must not hide it
        paused_cond_exists = cond is not None and cond.reason == util.PAUSED_DEPLOY_REASON

        needs_update = False
        if d.spec.paused and not paused_cond_exists:
            condition = util.new_deployment_condition(util.DEPLOYMENT_PROGRESSING, CONDITION_UNKNOWN,
                                                      util.PAUSED_DEPLOY_REASON, "Deployment is paused",
                                                      now=self.clock.now())
            util.set_deployment_condition(d.status, condition)
            needs_update = True
        elif not d.spec.paused and paused_cond_exists:
            condition = util.new_deployment_condition(util.DEPLOYMENT_PROGRESSING, CONDITION_UNKNOWN,
                                                      util.RESUMED_DEPLOY_REASON, "Deployment is resumed",
                                                      now=self.clock.now())
            util.set_deployment_condition(d.status, condition)
            needs_update = True
        if not needs_update:
            return
        self.client.apps_v1().deployments(d.metadata.namespace or "").update_status(d, UpdateOptions())

    def get_all_replica_sets_and_sync_revision(
        self: DeploymentController, d: V1Deployment, rs_list: list[V1ReplicaSet], create_if_not_existed: bool,
    ) -> tuple[V1ReplicaSet | None, list[V1ReplicaSet]]:
        """Port of DeploymentController.getAllReplicaSetsAndSyncRevision.

        Splits `rs_list` (from get_replica_sets_for_deployment) into the new
        ReplicaSet and all old ones. The new one's revision becomes one more
        than the highest old revision, and the Deployment's revision
        annotation follows it (get_new_replica_set). Reads come from caches,
        so the result may be slightly stale.

        Returns:
            (new ReplicaSet or None, old ReplicaSets).
        """
        _, all_old_rss = util.find_old_replica_sets(d, rs_list)
        old_rss = all_old_rss or []
        new_rs = self.get_new_replica_set(d, rs_list, old_rss, create_if_not_existed)
        return new_rs, old_rss

    def get_new_replica_set(self: DeploymentController, d: V1Deployment, rs_list: list[V1ReplicaSet],
                            old_rss: list[V1ReplicaSet], create_if_not_existed: bool) -> V1ReplicaSet | None:
        """Port of DeploymentController.getNewReplicaSet.

        The ReplicaSet running the Deployment's current template, or None when
        there is none and `create_if_not_existed` is False.

        An existing one gets its annotations synced (revision = highest old
        revision + 1, copied Deployment annotations, replica annotations) and
        its minReadySeconds, and the Deployment takes its revision. A missing
        one is created as `<deployment>-<hash>`, where the hash is
        compute_hash(template, status.collisionCount), sized by
        new_rs_new_replicas. If that name is taken by a ReplicaSet that is
        not ours or runs another template (a hash collision), the
        Deployment's status.collisionCount goes up by one, and the error
        requeues the Deployment: the next try hashes to a new name.

        Raises:
            StatusError: a write failed (AlreadyExists on a collision).
        """
        existing_new_rs = util.find_new_replica_set(d, rs_list)
        max_old_revision = util.max_revision(old_rss)
        new_revision = str(max_old_revision + 1)

        # Case 1: the new ReplicaSet exists; bring it and the Deployment's revision up to date.
        if existing_new_rs is not None:
            rs_copy: V1ReplicaSet = deep_copy(existing_new_rs)
            annotations_updated = util.set_new_replica_set_annotations(d, rs_copy, new_revision, True,
                                                                       MAX_REV_HISTORY_LENGTH_IN_CHARS)
            min_ready_seconds_needs_update = (rs_copy.spec.min_ready_seconds or 0) != (d.spec.min_ready_seconds or 0)
            if annotations_updated or min_ready_seconds_needs_update:
                rs_copy.spec.min_ready_seconds = d.spec.min_ready_seconds
                return self.client.apps_v1().replica_sets(rs_copy.metadata.namespace or "").update(
                    rs_copy, UpdateOptions())
            # The ReplicaSet's own revision is the one to trust: it was set before.
            needs_update = util.set_deployment_revision(
                d, (rs_copy.metadata.annotations or {}).get(util.REVISION_ANNOTATION, ""))
            # No Progressing condition yet: progress is estimated from the first time we saw this ReplicaSet.
            cond = util.get_deployment_condition(d.status, util.DEPLOYMENT_PROGRESSING)
            if util.has_progress_deadline(d) and cond is None:
                msg = f"Found new replica set {go_quote(rs_copy.metadata.name or '')}"
                condition = util.new_deployment_condition(util.DEPLOYMENT_PROGRESSING, CONDITION_TRUE,
                                                          util.FOUND_NEW_RS_REASON, msg, now=self.clock.now())
                util.set_deployment_condition(d.status, condition)
                needs_update = True
            if needs_update:
                self.client.apps_v1().deployments(d.metadata.namespace or "").update_status(d, UpdateOptions())
            return rs_copy

        if not create_if_not_existed:
            return None

        # Case 2: build the new ReplicaSet, named after the template's hash.
        new_rs = self.new_replica_set_for(d, old_rss, new_revision)
        new_replicas_count = spec_replicas(new_rs)

        # Case 3: create it; a name clash is either our own slow cache or a hash collision.
        already_exists = False
        try:
            created_rs = self.client.apps_v1().replica_sets(d.metadata.namespace or "").create(new_rs, CreateOptions())
        except Exception as err:  # Go: the switch on Create's error
            if errors.is_already_exists(err):
                already_exists = True
                created_rs = self.replica_set_after_name_clash(d, new_rs, err)
            elif errors.has_status_cause(err, NAMESPACE_TERMINATING_CAUSE):
                raise  # every create in a terminating namespace fails; nothing to report
            else:
                self.report_failed_create(d, new_rs, err)
                raise
        if not already_exists and new_replicas_count > 0:
            self.event_recorder.eventf(d, record.EVENT_TYPE_NORMAL, "ScalingReplicaSet",
                                       "Scaled up replica set %s from 0 to %d", created_rs.metadata.name,
                                       new_replicas_count)

        # Case 4: the Deployment takes the new revision (and a NewReplicaSetCreated condition).
        needs_update = util.set_deployment_revision(d, new_revision)
        if not already_exists and util.has_progress_deadline(d):
            msg = f"Created new replica set {go_quote(created_rs.metadata.name or '')}"
            condition = util.new_deployment_condition(util.DEPLOYMENT_PROGRESSING, CONDITION_TRUE,
                                                      util.NEW_REPLICA_SET_REASON, msg, now=self.clock.now())
            util.set_deployment_condition(d.status, condition)
            needs_update = True
        if needs_update:
            self.client.apps_v1().deployments(d.metadata.namespace or "").update_status(d, UpdateOptions())
        return created_rs

    def new_replica_set_for(self: DeploymentController, d: V1Deployment, old_rss: list[V1ReplicaSet],
                            new_revision: str) -> V1ReplicaSet:
        """The part of getNewReplicaSet (sync.go) that builds the ReplicaSet to create.

        The template gets the pod-template-hash label, and so do the
        ReplicaSet's labels and selector: ReplicaSets of one Deployment then
        never select each other's pods. Sized by new_rs_new_replicas, annotated
        with the new revision and the replica annotations.
        """
        new_rs_template: V1PodTemplateSpec = deep_copy(d.spec.template)
        pod_template_spec_hash = controller_utils.compute_hash(new_rs_template, d.status.collision_count)
        template_labels = (d.spec.template.metadata.labels if d.spec.template.metadata is not None else None)
        if new_rs_template.metadata is None:
            new_rs_template.metadata = V1ObjectMeta()
        new_rs_template.metadata.labels = labelsutil.clone_and_add_label(
            template_labels, util.DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, pod_template_spec_hash)
        new_rs_selector = labelsutil.clone_selector_and_add_label(
            d.spec.selector, util.DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, pod_template_spec_hash)
        new_rs = V1ReplicaSet(
            metadata=V1ObjectMeta(
                # A name that depends only on the template: a retried create finds its own ReplicaSet.
                name=generate_replica_set_name(d.metadata.name or "", pod_template_spec_hash),
                namespace=d.metadata.namespace,
                owner_references=[new_controller_ref(d, self.controller_kind)],
                labels=dict(new_rs_template.metadata.labels or {}),
            ),
            spec=V1ReplicaSetSpec(replicas=0, min_ready_seconds=d.spec.min_ready_seconds,
                                  selector=new_rs_selector, template=new_rs_template),
        )
        all_rss: list[V1ReplicaSet | None] = [*old_rss, new_rs]
        new_rs.spec.replicas = util.new_rs_new_replicas(d, all_rss, new_rs)
        util.set_new_replica_set_annotations(d, new_rs, new_revision, False, MAX_REV_HISTORY_LENGTH_IN_CHARS)
        return new_rs

    def replica_set_after_name_clash(self: DeploymentController, d: V1Deployment, new_rs: V1ReplicaSet,
                                     err: Exception) -> V1ReplicaSet:
        """The AlreadyExists branch of getNewReplicaSet (sync.go).

        Ours with the same template (the cache was slow, or the Deployment was
        synced twice quickly): use it. Anything else is a hash collision: bump
        status.collisionCount, write it, and raise `err` so the Deployment is
        retried with a new hash.

        Raises:
            StatusError: `err` on a collision; NotFound when the cache does not have it yet.
        """
        rs = self.rs_lister.replica_sets(new_rs.metadata.namespace or "").get(new_rs.metadata.name or "")
        controller_ref = get_controller_of(rs)
        if (controller_ref is not None and controller_ref.uid == d.metadata.uid
                and util.equal_ignore_hash(d.spec.template, rs.spec.template)):
            return rs
        pre_collision_count = d.status.collision_count or 0
        d.status.collision_count = pre_collision_count + 1
        try:
            self.client.apps_v1().deployments(d.metadata.namespace or "").update_status(d, UpdateOptions())
        except Exception as d_err:  # Go ignores it: the requeue below tries again anyway
            logger.debug("Could not write collisionCount of %s/%s: %s", d.metadata.namespace, d.metadata.name, d_err)
        else:
            logger.info("Found a hash collision for deployment %s/%s - bumping collisionCount %d->%d to resolve it",
                        d.metadata.namespace, d.metadata.name, pre_collision_count, d.status.collision_count)
        raise err

    def report_failed_create(self: DeploymentController, d: V1Deployment, new_rs: V1ReplicaSet,
                             err: Exception) -> None:
        """The failed-create branch of getNewReplicaSet (sync.go): a condition and a warning event.

        With a progress deadline the Progressing condition turns False
        (ReplicaSetCreateError); the status write's own error is ignored, as
        upstream does, since the create failure is the news.
        """
        msg = f"Failed to create new replica set {go_quote(new_rs.metadata.name or '')}: {err}"
        if util.has_progress_deadline(d):
            cond = util.new_deployment_condition(util.DEPLOYMENT_PROGRESSING, CONDITION_FALSE,
                                                 util.FAILED_RS_CREATE_REASON, msg, now=self.clock.now())
            util.set_deployment_condition(d.status, cond)
            try:
                self.client.apps_v1().deployments(d.metadata.namespace or "").update_status(d, UpdateOptions())
            except Exception as status_err:  # Go: `_, _ =`; the create error is reported instead
                logger.debug("Could not write the ReplicaSetCreateError condition: %s", status_err)
        self.event_recorder.eventf(d, record.EVENT_TYPE_WARNING, util.FAILED_RS_CREATE_REASON, msg)

    def scale(self: DeploymentController, deployment: V1Deployment, new_rs: V1ReplicaSet | None,
              old_rss: list[V1ReplicaSet]) -> None:
        """Port of DeploymentController.scale: resize for a scaling event, proportionally.

        Three cases:
        1. At most one ReplicaSet is active: it gets all of spec.replicas.
        2. The new ReplicaSet is saturated: every old one goes to 0.
        3. Otherwise (rolling update in progress) the change is shared among
           the active ReplicaSets in proportion to their size, so a resize
           neither speeds up nor slows down the rollout. The total is capped
           at replicas + maxSurge. Scaling up visits the largest first (newer
           first among equals), scaling down the largest first (older first);
           rounding leftovers go to the first one visited.

        Worked example (upstream's table): 5 -> 10 replicas, maxSurge 0, new
        has 2 and old has 3 (both annotated with max-replicas 5). To add: 10 -
        5 = 5. Visit old (3): 3 * 10 / 5 - 3 = 3; then new (2): 2 * 10 / 5 - 2
        = 2. Result: old 6, new 4.

        Raises:
            StatusError: an update failed; the Deployment is retried.
        """
        # Case 1: one active (or only the latest) ReplicaSet takes everything.
        active_or_latest = util.find_active_or_latest(new_rs, old_rss)
        if active_or_latest is not None:
            if spec_replicas(active_or_latest) == spec_replicas(deployment):
                return
            self.scale_replica_set_and_record_event(active_or_latest, spec_replicas(deployment), deployment)
            return

        # Case 2: the new ReplicaSet runs everything; old ones go (covers adoption of a saturated one).
        if util.is_saturated(deployment, new_rs):
            for old in controller_utils.filter_active_replica_sets(list(old_rss)):
                self.scale_replica_set_and_record_event(old, 0, deployment)
            return

        # Case 3: several active ReplicaSets during a rolling update: proportional scaling.
        if util.is_rolling_update(deployment):
            all_rss = controller_utils.filter_active_replica_sets([*old_rss, new_rs])
            all_rss_replicas = util.get_replica_count_for_replica_sets(list(all_rss))
            allowed_size = 0
            if spec_replicas(deployment) > 0:
                allowed_size = spec_replicas(deployment) + util.max_surge(deployment)
            # Replicas to add (or, negative, remove), shared among the active ReplicaSets.
            deployment_replicas_to_add = allowed_size - all_rss_replicas
            if deployment_replicas_to_add > 0:
                controller_utils.go_sort(controller_utils.ReplicaSetsBySizeNewer(all_rss))
            elif deployment_replicas_to_add < 0:
                controller_utils.go_sort(controller_utils.ReplicaSetsBySizeOlder(all_rss))

            # Each one's share; |added| never exceeds |to add|.
            deployment_replicas_added = 0
            name_to_size: dict[str, int] = {}
            for rs in all_rss:
                if deployment_replicas_to_add != 0:
                    proportion = util.get_replica_set_proportion(rs, deployment, deployment_replicas_to_add,
                                                                 deployment_replicas_added)
                    name_to_size[rs.metadata.name] = spec_replicas(rs) + proportion
                    deployment_replicas_added += proportion
                else:
                    name_to_size[rs.metadata.name] = spec_replicas(rs)

            # Write them; the first one also absorbs the rounding leftover.
            for i, rs in enumerate(all_rss):
                if i == 0 and deployment_replicas_to_add != 0:
                    leftover = deployment_replicas_to_add - deployment_replicas_added
                    name_to_size[rs.metadata.name] = max(name_to_size[rs.metadata.name] + leftover, 0)
                self.scale_replica_set(rs, name_to_size[rs.metadata.name], deployment)  # first failure requeues

    def scale_replica_set_and_record_event(self: DeploymentController, rs: V1ReplicaSet, new_scale: int,
                                           deployment: V1Deployment) -> tuple[bool, V1ReplicaSet]:
        """Port of DeploymentController.scaleReplicaSetAndRecordEvent: scale_replica_set unless already that size.

        Returns:
            (scaled, the ReplicaSet as written or as given).
        """
        if spec_replicas(rs) == new_scale:
            return False, rs
        return self.scale_replica_set(rs, new_scale, deployment)

    def scale_replica_set(self: DeploymentController, rs: V1ReplicaSet, new_scale: int,
                          deployment: V1Deployment) -> tuple[bool, V1ReplicaSet]:
        """Port of DeploymentController.scaleReplicaSet.

        Writes the ReplicaSet when its size or its replica annotations
        (desired = spec.replicas, max = spec.replicas + maxSurge) are out of
        date. A size change is announced with a ScalingReplicaSet event on the
        Deployment: "Scaled up replica set web-6d8f from 2 to 4".

        Returns:
            (whether the size changed, the ReplicaSet the server returned or `rs`).
        Raises:
            StatusError: the update failed.
        """
        size_needs_update = spec_replicas(rs) != new_scale
        desired = spec_replicas(deployment)
        max_replicas = desired + util.max_surge(deployment)
        annotations_need_update = util.replicas_annotations_need_update(rs, desired, max_replicas)
        scaled = False
        if size_needs_update or annotations_need_update:
            old_scale = spec_replicas(rs)
            rs_copy: V1ReplicaSet = deep_copy(rs)
            rs_copy.spec.replicas = new_scale
            util.set_replicas_annotations(rs_copy, desired, max_replicas)
            rs = self.client.apps_v1().replica_sets(rs_copy.metadata.namespace or "").update(rs_copy, UpdateOptions())
            if size_needs_update:
                scaled = True
                scaling_operation = "up" if old_scale < new_scale else "down"
                self.event_recorder.eventf(deployment, record.EVENT_TYPE_NORMAL, "ScalingReplicaSet",
                                           "Scaled %s replica set %s from %d to %d", scaling_operation,
                                           rs.metadata.name if rs.metadata is not None else "", old_scale, new_scale)
        return scaled, rs

    def cleanup_deployment(self: DeploymentController, old_rss: list[V1ReplicaSet],
                           deployment: V1Deployment) -> None:
        """Port of DeploymentController.cleanupDeployment: keep at most revisionHistoryLimit old ReplicaSets.

        Deletes the oldest revisions first, and only ReplicaSets that are
        fully scaled down: spec and status replicas 0, status up to date with
        their generation, not already being deleted. Example: limit 2, old
        revisions 1, 2, 3, 4 all at 0 replicas: revisions 1 and 2 go.

        Raises:
            StatusError: a delete failed (NotFound is fine); the rest waits for the next sync.
        """
        if not util.has_revision_history_limit(deployment):
            return

        def alive_filter(rs: V1ReplicaSet | None) -> bool:
            return rs is not None and rs.metadata.deletion_timestamp is None  # skip ones being deleted

        cleanable_rses: list[V1ReplicaSet] = controller_utils.filter_replica_sets(list(old_rss), alive_filter)
        diff = len(cleanable_rses) - (deployment.spec.revision_history_limit or 0)
        if diff <= 0:
            return
        util.ReplicaSetsByRevision(cleanable_rses).sort()
        logger.debug("Looking to cleanup old replica sets for deployment %s/%s", deployment.metadata.namespace,
                     deployment.metadata.name)
        for rs in cleanable_rses[:diff]:
            status_replicas = (rs.status.replicas or 0) if rs.status else 0
            observed = (rs.status.observed_generation or 0) if rs.status else 0
            if (status_replicas != 0 or spec_replicas(rs) != 0 or (rs.metadata.generation or 0) > observed
                    or rs.metadata.deletion_timestamp is not None):
                continue  # never delete a ReplicaSet that may still own pods
            logger.debug("Trying to cleanup replica set %s/%s", rs.metadata.namespace, rs.metadata.name)
            try:
                self.client.apps_v1().replica_sets(rs.metadata.namespace or "").delete(rs.metadata.name or "",
                                                                                      DeleteOptions())
            except Exception as err:
                if not errors.is_not_found(err):
                    raise  # stop at the first failure: the API server may be overloaded

    def sync_deployment_status(self: DeploymentController, all_rss: list[V1ReplicaSet | None],
                               new_rs: V1ReplicaSet | None, d: V1Deployment) -> None:
        """Port of DeploymentController.syncDeploymentStatus: write the status if it changed."""
        new_status = calculate_status(all_rss, new_rs, d, now=self.clock.now())
        if status_equal(d.status, new_status):
            return
        d.status = new_status
        self.client.apps_v1().deployments(d.metadata.namespace or "").update_status(d, UpdateOptions())

    def is_scaling_event(self: DeploymentController, d: V1Deployment, rs_list: list[V1ReplicaSet]) -> bool:
        """Port of DeploymentController.isScalingEvent.

        True when an active ReplicaSet's desired-replicas annotation differs
        from spec.replicas: someone resized the Deployment since the
        ReplicaSets were last sized. ReplicaSets without the annotation are
        skipped.
        """
        new_rs, old_rss = self.get_all_replica_sets_and_sync_revision(d, rs_list, False)
        for rs in controller_utils.filter_active_replica_sets([*old_rss, new_rs]):
            desired, ok = util.get_desired_replicas_annotation(rs)
            if not ok:
                continue
            if desired != spec_replicas(d):
                return True
        return False


def generate_replica_set_name(deployment_name: str, pod_template_spec_hash: str) -> str:
    """Port of generateReplicaSetName (sync.go).

    `<deployment>-<hash>`, with the Deployment's name cut so the whole fits
    in 253 characters (a DNS subdomain). Example: a 250-character name and a
    10-character hash keep 242 characters of the name.
    """
    max_deployment_name_length = (DNS1123_SUBDOMAIN_MAX_LENGTH - len(REPLICA_SET_NAME_SEPARATOR)
                                  - len(pod_template_spec_hash))
    if len(deployment_name) > max_deployment_name_length > 0:
        return deployment_name[:max_deployment_name_length] + REPLICA_SET_NAME_SEPARATOR + pod_template_spec_hash
    return deployment_name + REPLICA_SET_NAME_SEPARATOR + pod_template_spec_hash


def calculate_status(all_rss: list[V1ReplicaSet | None], new_rs: V1ReplicaSet | None, deployment: V1Deployment,
                     *, now: datetime | None = None) -> V1DeploymentStatus:
    """Port of calculateStatus (sync.go): the status the Deployment should have now.

    Counts summed over the ReplicaSets; updatedReplicas are the new
    ReplicaSet's pods; unavailable = desired pods of all ReplicaSets minus
    available ones, never negative; terminatingReplicas behind its feature
    gate. Conditions are copied, then Available is set: True when at least
    spec.replicas - maxUnavailable pods are available. Example: 10
    replicas, maxUnavailable 2, 8 available -> Available=True.
    """
    status = deployment.status or V1DeploymentStatus()
    available_replicas = util.get_available_replica_count_for_replica_sets(all_rss)
    total_replicas = util.get_replica_count_for_replica_sets(all_rss)
    unavailable_replicas = max(total_replicas - available_replicas, 0)  # more available than desired: scaling down

    new_status = V1DeploymentStatus(
        observed_generation=deployment.metadata.generation or 0,
        replicas=util.get_actual_replica_count_for_replica_sets(all_rss),
        updated_replicas=util.get_actual_replica_count_for_replica_sets([new_rs]),
        ready_replicas=util.get_ready_replica_count_for_replica_sets(all_rss),
        available_replicas=available_replicas,
        unavailable_replicas=unavailable_replicas,
        collision_count=status.collision_count,
    )
    if features.DEFAULT_FEATURE_GATE.enabled(features.DEPLOYMENT_REPLICA_SET_TERMINATING_REPLICAS):
        new_status.terminating_replicas = util.get_terminating_replica_count_for_replica_sets(all_rss)
    new_status.conditions = [c.model_copy() for c in status.conditions or []] or None  # never share the cache's

    if available_replicas >= spec_replicas(deployment) - util.max_unavailable(deployment):
        min_availability = util.new_deployment_condition(util.DEPLOYMENT_AVAILABLE, CONDITION_TRUE,
                                                         util.MINIMUM_REPLICAS_AVAILABLE,
                                                         "Deployment has minimum availability.", now=now)
        util.set_deployment_condition(new_status, min_availability)
    else:
        no_min_availability = util.new_deployment_condition(util.DEPLOYMENT_AVAILABLE, CONDITION_FALSE,
                                                            util.MINIMUM_REPLICAS_UNAVAILABLE,
                                                            "Deployment does not have minimum availability.", now=now)
        util.set_deployment_condition(new_status, no_min_availability)
    return new_status


_COUNTERS = ("observed_generation", "replicas", "updated_replicas", "ready_replicas", "available_replicas",
             "unavailable_replicas")


def status_equal(a: V1DeploymentStatus | None, b: V1DeploymentStatus | None) -> bool:
    """Go's reflect.DeepEqual of two DeploymentStatus values, over models that may omit zeros.

    Counters read None as 0; the pointer fields (terminatingReplicas,
    collisionCount) compare as they are, None differing from 0 as nil
    differs from a pointer to 0; a missing condition list equals an empty one.
    """
    return _status_key(a) == _status_key(b)


def _status_key(s: V1DeploymentStatus | None) -> tuple[Any, ...]:
    s = s or V1DeploymentStatus()
    counters = tuple(getattr(s, name) or 0 for name in _COUNTERS)
    return counters + (s.terminating_replicas, s.collision_count, list(s.conditions or []))
