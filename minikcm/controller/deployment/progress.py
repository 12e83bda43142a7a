"""Port of pkg/controller/deployment/progress.go.

The Progressing condition, which `kubectl rollout status` watches. During a
rollout each status write compares the new status with the stored one: more
updated, ready or available pods, or fewer old ones, is progress
(ReplicaSetUpdated, lastUpdateTime moves on); everything new and available
is completion (NewReplicaSetAvailable); no progress for
spec.progressDeadlineSeconds is a timeout (ProgressDeadlineExceeded, status
False). Nothing else would wake a stuck Deployment, so when a status write
finds nothing new, requeue_stuck_deployment schedules the sync that will
notice the deadline passing.

Start reading at: ProgressMixin.sync_rollout_status, then requeue_stuck_deployment.

Not ported: contextual logging; the package variable nowFn (the controller clock instead).
Differs from Go:
- requeue_stuck_deployment measures time on the controller's clock and returns
  float seconds (-1.0: no requeue; 0.0: requeued now).
- New conditions and the timeout check use the controller clock's "now".
- reflect.DeepEqual of two statuses is sync.status_equal.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from kubernetes.client import V1Deployment, V1DeploymentCondition, V1DeploymentStatus, V1ReplicaSet

from minikcm.apimachinery.field import go_quote
from minikcm.apimachinery.meta import UpdateOptions
from minikcm.controller.deployment.sync import (CONDITION_FALSE, CONDITION_TRUE, calculate_status,
                                                status_equal)
from minikcm.controller.deployment.util import deployment_util as util

if TYPE_CHECKING:
    from minikcm.controller.deployment.deployment_controller import DeploymentController

logger = logging.getLogger(__name__)

REPLICA_SET_REPLICA_FAILURE = "ReplicaFailure"
"""Go: apps.ReplicaSetReplicaFailure, the ReplicaSet condition lifted to the Deployment."""

_ZERO_TIME = datetime(1, 1, 1, tzinfo=timezone.utc)  # Go: time.Time{}


def _named(kind: str, name: str | None) -> str:
    # "ReplicaSet \"web-6d8f\"" or "Deployment \"web\"", as Go's %q puts it.
    return f"{kind} {go_quote(name or '')}"


class ProgressMixin:
    """Port of the DeploymentController methods of progress.go."""

    def sync_rollout_status(self: DeploymentController, all_rss: list[V1ReplicaSet | None],
                            new_rs: V1ReplicaSet | None, d: V1Deployment) -> None:
        """Port of DeploymentController.syncRolloutStatus: write the status of a rollout in progress.

        Like sync_deployment_status, plus the Progressing condition (only
        with a progress deadline; without one it is removed), in this order:
        complete -> NewReplicaSetAvailable; progressing -> ReplicaSetUpdated
        (lastUpdateTime moves, lastTransitionTime stays while it was True);
        past the deadline -> ProgressDeadlineExceeded. A rollout already
        marked complete is not re-estimated. ReplicaFailure conditions of the
        ReplicaSets (the new one's first) are lifted to the Deployment. When
        nothing changed, nothing is written, but a rollout without progress
        is requeued for its deadline.
        """
        now = self.clock.now()
        new_status = calculate_status(all_rss, new_rs, d, now=now)

        # No deadline: no Progressing condition at all.
        if not util.has_progress_deadline(d):
            util.remove_deployment_condition(new_status, util.DEPLOYMENT_PROGRESSING)

        # A finished rollout seen again (a resync, a scale): no progress to estimate.
        current_cond = util.get_deployment_condition(d.status, util.DEPLOYMENT_PROGRESSING)
        is_complete_deployment = ((new_status.replicas or 0) == (new_status.updated_replicas or 0)
                                  and current_cond is not None and current_cond.reason == util.NEW_RS_AVAILABLE_REASON)
        if util.has_progress_deadline(d) and not is_complete_deployment:
            subject = _named("ReplicaSet", new_rs.metadata.name) if new_rs is not None else _named(
                "Deployment", d.metadata.name)
            if util.deployment_complete(d, new_status):
                # Done. Does nothing if the condition is already there.
                condition = util.new_deployment_condition(util.DEPLOYMENT_PROGRESSING, CONDITION_TRUE,
                                                          util.NEW_RS_AVAILABLE_REASON,
                                                          f"{subject} has successfully progressed.", now=now)
                util.set_deployment_condition(new_status, condition)
            elif util.deployment_progressing(d, new_status):
                # Progress: move lastUpdateTime even when the reason stays the same (set_deployment_condition
                # would keep the old condition), but keep lastTransitionTime while it was True.
                condition = util.new_deployment_condition(util.DEPLOYMENT_PROGRESSING, CONDITION_TRUE,
                                                          util.REPLICA_SET_UPDATED_REASON,
                                                          f"{subject} is progressing.", now=now)
                if current_cond is not None:
                    if current_cond.status == CONDITION_TRUE:
                        condition.last_transition_time = current_cond.last_transition_time
                    util.remove_deployment_condition(new_status, util.DEPLOYMENT_PROGRESSING)
                util.set_deployment_condition(new_status, condition)
            elif util.deployment_timed_out(d, new_status, now=now):
                # Stuck past the deadline. Does nothing if the condition is already there.
                condition = util.new_deployment_condition(util.DEPLOYMENT_PROGRESSING, CONDITION_FALSE,
                                                          util.TIMED_OUT_REASON,
                                                          f"{subject} has timed out progressing.", now=now)
                util.set_deployment_condition(new_status, condition)

        # Failures of the ReplicaSets (one at most, the new ReplicaSet's first).
        replica_failure_cond = self.get_replica_failures(all_rss, new_rs)
        if replica_failure_cond:
            util.set_deployment_condition(new_status, replica_failure_cond[0])
        else:
            util.remove_deployment_condition(new_status, util.DEPLOYMENT_REPLICA_FAILURE)

        # Nothing new: no write, but come back at the deadline if the rollout is stuck.
        if status_equal(d.status, new_status):
            self.requeue_stuck_deployment(d, new_status)
            return

        d.status = new_status
        self.client.apps_v1().deployments(d.metadata.namespace or "").update_status(d, UpdateOptions())

    def get_replica_failures(self: DeploymentController, all_rss: list[V1ReplicaSet | None],
                             new_rs: V1ReplicaSet | None) -> list[V1DeploymentCondition]:
        """Port of DeploymentController.getReplicaFailures.

        The ReplicaFailure conditions of the new ReplicaSet as Deployment
        conditions; when it has none, those of all ReplicaSets.
        """
        conditions: list[V1DeploymentCondition] = []
        if new_rs is not None:
            for c in (new_rs.status.conditions or []) if new_rs.status else []:
                if c.type != REPLICA_SET_REPLICA_FAILURE:
                    continue
                conditions.append(util.replica_set_to_deployment_condition(c))
        if conditions:
            return conditions  # the new ReplicaSet's failures win over old ones
        for rs in all_rss:
            if rs is None:
                continue
            for c in (rs.status.conditions or []) if rs.status else []:
                if c.type != REPLICA_SET_REPLICA_FAILURE:
                    continue
                conditions.append(util.replica_set_to_deployment_condition(c))
        return conditions

    def requeue_stuck_deployment(self: DeploymentController, d: V1Deployment,
                                 new_status: V1DeploymentStatus) -> float:
        """Port of DeploymentController.requeueStuckDeployment.

        When a rollout shows no progress, nothing in the cluster changes and
        nothing would wake the Deployment when its deadline passes. So it is
        requeued for then: lastUpdateTime of Progressing + deadline - now,
        plus one second against clock skew in the delaying queue; with less
        than a second left, at once (rate limited). Not for Deployments
        without a deadline or a Progressing condition, complete ones, or
        ones already timed out. Example: last update 00:00:00, deadline
        600 s, now 00:03:00 -> requeued after 420 + 1 s.

        Returns:
            Seconds until the check, 0.0 when requeued now, -1.0 when not requeued.
        """
        current_cond = util.get_deployment_condition(d.status, util.DEPLOYMENT_PROGRESSING)
        # No estimate without a deadline or a Progressing condition.
        if not util.has_progress_deadline(d) or current_cond is None:
            return -1.0
        # Nothing to estimate for a finished or timed-out rollout.
        if util.deployment_complete(d, new_status) or current_cond.reason == util.TIMED_OUT_REASON:
            return -1.0
        last_update = current_cond.last_update_time or _ZERO_TIME
        deadline = last_update + timedelta(seconds=d.spec.progress_deadline_seconds or 0)
        after = (deadline - self.clock.now()).total_seconds()
        if after < 1.0:
            logger.debug("Queueing up deployment %s/%s for a progress check now", d.metadata.namespace,
                         d.metadata.name)
            self.enqueue_rate_limited(d)
            return 0.0
        logger.debug("Queueing up deployment %s/%s for a progress check after %ds", d.metadata.namespace,
                     d.metadata.name, int(after))
        self.enqueue_after(d, after + 1.0)  # one more second against millisecond skew in add_after
        return after
