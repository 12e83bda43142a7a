"""Port of pkg/controller/deployment/rolling.go.

The RollingUpdate strategy. Each pass does at most one move: grow the new
ReplicaSet within the surge budget (total pods <= replicas + maxSurge), or
else shrink old ReplicaSets within the availability budget (available pods
>= replicas - maxUnavailable), unhealthy pods first. The ReplicaSet
controller then creates or deletes pods, their status changes wake the
Deployment again, and the next pass makes the next move.

Start reading at: RollingMixin.rollout_rolling, then reconcile_old_replica_sets
(its docstring has the worked example).

Not ported: contextual logging.
Differs from Go: the methods live on RollingMixin, combined into DeploymentController;
sorting uses controller_utils.go_sort (stable, where Go's sort.Sort is not).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from kubernetes.client import V1Deployment, V1ReplicaSet

from minikcm.controller import controller_utils
from minikcm.controller.deployment.util import deployment_util as util

if TYPE_CHECKING:
    from minikcm.controller.deployment.deployment_controller import DeploymentController

logger = logging.getLogger(__name__)


def _available(rs: V1ReplicaSet) -> int:
    # Go: rs.Status.AvailableReplicas (0 when the status is absent).
    return (rs.status.available_replicas or 0) if rs.status is not None else 0


class RollingMixin:
    """Port of the DeploymentController methods of rolling.go."""

    def rollout_rolling(self: DeploymentController, d: V1Deployment, rs_list: list[V1ReplicaSet]) -> None:
        """Port of DeploymentController.rolloutRolling: one pass of a rolling update.

        Creates the new ReplicaSet if needed, then scales it up if it can;
        otherwise scales old ones down if it can; once the rollout is complete
        prunes the history; always ends by writing the rollout status.
        """
        new_rs, old_rss = self.get_all_replica_sets_and_sync_revision(d, rs_list, True)
        if new_rs is None:
            raise RuntimeError("get_new_replica_set returned no ReplicaSet although asked to create one")
        all_rss: list[V1ReplicaSet | None] = [*old_rss, new_rs]

        # Scale up, if we can.
        scaled_up = self.reconcile_new_replica_set(all_rss, new_rs, d)
        if scaled_up:
            self.sync_rollout_status(all_rss, new_rs, d)
            return

        # Scale down, if we can.
        scaled_down = self.reconcile_old_replica_sets(all_rss, controller_utils.filter_active_replica_sets(
            list(old_rss)), new_rs, d)
        if scaled_down:
            self.sync_rollout_status(all_rss, new_rs, d)
            return

        if util.deployment_complete(d, d.status):
            self.cleanup_deployment(old_rss, d)

        self.sync_rollout_status(all_rss, new_rs, d)

    def reconcile_new_replica_set(self: DeploymentController, all_rss: list[V1ReplicaSet | None],
                                  new_rs: V1ReplicaSet, deployment: V1Deployment) -> bool:
        """Port of DeploymentController.reconcileNewReplicaSet: move the new ReplicaSet toward spec.replicas.

        Above it (the Deployment shrank): scale down to it at once. Below it:
        grow by what the surge budget allows (new_rs_new_replicas). Example:
        10 replicas, maxSurge 2, old has 5, new has 0: total may reach 12, so
        new goes to 7. Returns whether it scaled.
        """
        new_replicas = new_rs.spec.replicas or 0
        desired = deployment.spec.replicas or 0
        if new_replicas == desired:
            return False  # scaling not required
        if new_replicas > desired:
            scaled, _ = self.scale_replica_set_and_record_event(new_rs, desired, deployment)
            return scaled
        new_replicas_count = util.new_rs_new_replicas(deployment, all_rss, new_rs)
        scaled, _ = self.scale_replica_set_and_record_event(new_rs, new_replicas_count, deployment)
        return scaled

    def reconcile_old_replica_sets(self: DeploymentController, all_rss: list[V1ReplicaSet | None],
                                   old_rss: list[V1ReplicaSet], new_rs: V1ReplicaSet,
                                   deployment: V1Deployment) -> bool:
        """Port of DeploymentController.reconcileOldReplicaSets: shrink old ReplicaSets as far as is safe.

        How many pods may go: maxScaledDown = all pods - minAvailable - pods
        of the new ReplicaSet that are not available. Counting the new
        ReplicaSet's unavailable pods keeps a broken new template from
        letting the old pods drain away. Unhealthy old pods go first (that
        costs no availability), then old pods down to minAvailable.

        Worked example (10 replicas, maxUnavailable 2, maxSurge 3): the new
        ReplicaSet has 5 crash-looping pods, the old one 8 pods: 13 - 8 - 5 =
        0, nothing more goes, even if a node dies. Roll back: the old
        ReplicaSet becomes the new one, whose unavailable count is about 1,
        so 13 - 8 - 1 = 4 broken pods can go, and it can grow back to 10.
        Roll over to a third template instead: the newest ReplicaSet starts
        at 0 (13 pods already), its unavailable count is 0, so the two old
        ones may lose 13 - 8 - 0 = 5 pods, which frees room for it.

        Errors while scaling are dropped, as upstream does: the pass reports
        "no scale-down" and the next sync retries. Returns whether anything
        was scaled down.
        """
        old_pods_count = util.get_replica_count_for_replica_sets(list(old_rss))
        if old_pods_count == 0:
            return False  # nothing left to scale down
        all_pods_count = util.get_replica_count_for_replica_sets(all_rss)
        logger.debug("New replica set %s/%s has %d available replicas", new_rs.metadata.namespace,
                     new_rs.metadata.name, _available(new_rs))
        max_unavailable = util.max_unavailable(deployment)

        min_available = (deployment.spec.replicas or 0) - max_unavailable
        new_rs_unavailable_pod_count = (new_rs.spec.replicas or 0) - _available(new_rs)
        max_scaled_down = all_pods_count - min_available - new_rs_unavailable_pod_count
        if max_scaled_down <= 0:
            return False

        # Unhealthy replicas first: otherwise they block the rollout until the deadline passes.
        try:
            old_rss, cleanup_count = self.cleanup_unhealthy_replicas(old_rss, deployment, max_scaled_down)
        except Exception as err:  # Go: `return false, nil`; the next sync tries again
            logger.debug("Cleaning up unhealthy replicas of %s/%s failed: %s", deployment.metadata.namespace,
                         deployment.metadata.name, err)
            return False
        logger.debug("Cleaned up unhealthy replicas from old RSes by %d", cleanup_count)

        # Then healthy old replicas, within maxUnavailable.
        all_rss = [*old_rss, new_rs]
        try:
            scaled_down_count = self.scale_down_old_replica_sets_for_rolling_update(all_rss, old_rss, deployment)
        except Exception as err:  # Go: `return false, nil`; the next sync tries again
            logger.debug("Scaling down old RSes of %s/%s failed: %s", deployment.metadata.namespace,
                         deployment.metadata.name, err)
            return False
        logger.debug("Scaled down old RSes of deployment %s/%s by %d", deployment.metadata.namespace,
                     deployment.metadata.name, scaled_down_count)

        total_scaled_down = cleanup_count + scaled_down_count
        return total_scaled_down > 0

    def cleanup_unhealthy_replicas(self: DeploymentController, old_rss: list[V1ReplicaSet],
                                   deployment: V1Deployment, max_cleanup_count: int) -> tuple[list[V1ReplicaSet], int]:
        """Port of DeploymentController.cleanupUnhealthyReplicas.

        Scales old ReplicaSets (oldest first) down by their unavailable pods,
        at most `max_cleanup_count` in all. The ReplicaSet controller deletes
        not-ready, unscheduled and pending pods first, so this removes exactly
        the unhealthy ones. Example: 10 replicas with 8 available, limit 3:
        scaled to 8 (2 cleaned up). Sorts `old_rss` in place and puts the
        written ReplicaSets into it.

        Returns:
            (old_rss, how many replicas were removed).
        Raises:
            ValueError: a computed size would grow a ReplicaSet (cannot happen with sane statuses).
            StatusError: an update failed.
        """
        controller_utils.go_sort(controller_utils.ReplicaSetsByCreationTimestamp(old_rss))
        total_scaled_down = 0
        for i, target_rs in enumerate(old_rss):
            if total_scaled_down >= max_cleanup_count:
                break
            replicas = target_rs.spec.replicas or 0
            if replicas == 0:
                continue  # cannot scale down this one
            logger.debug("Found %d available pods in old RS %s/%s", _available(target_rs),
                         target_rs.metadata.namespace, target_rs.metadata.name)
            if replicas == _available(target_rs):
                continue  # no unhealthy replicas

            scaled_down_count = min(max_cleanup_count - total_scaled_down, replicas - _available(target_rs))
            new_replicas_count = replicas - scaled_down_count
            if new_replicas_count > replicas:
                raise ValueError(f"when cleaning up unhealthy replicas, got invalid request to scale down "
                                 f"{target_rs.metadata.namespace}/{target_rs.metadata.name} {replicas} -> "
                                 f"{new_replicas_count}")
            _, updated_old_rs = self.scale_replica_set_and_record_event(target_rs, new_replicas_count, deployment)
            total_scaled_down += scaled_down_count
            old_rss[i] = updated_old_rs
        return old_rss, total_scaled_down

    def scale_down_old_replica_sets_for_rolling_update(self: DeploymentController,
                                                       all_rss: list[V1ReplicaSet | None],
                                                       old_rss: list[V1ReplicaSet], deployment: V1Deployment) -> int:
        """Port of DeploymentController.scaleDownOldReplicaSetsForRollingUpdate.

        Removes available old pods, oldest ReplicaSets first, while more than
        minAvailable = replicas - maxUnavailable pods are available. Example:
        10 replicas, maxUnavailable 2, 10 available, all old: scale down by 2.

        Returns:
            How many replicas were removed.
        Raises:
            ValueError: a computed size would grow a ReplicaSet.
            StatusError: an update failed.
        """
        max_unavailable = util.max_unavailable(deployment)
        min_available = (deployment.spec.replicas or 0) - max_unavailable
        available_pod_count = util.get_available_replica_count_for_replica_sets(all_rss)
        if available_pod_count <= min_available:
            return 0  # cannot scale down
        logger.debug("Found %d available pods in deployment %s/%s, scaling down old RSes", available_pod_count,
                     deployment.metadata.namespace, deployment.metadata.name)

        controller_utils.go_sort(controller_utils.ReplicaSetsByCreationTimestamp(old_rss))
        total_scaled_down = 0
        total_scale_down_count = available_pod_count - min_available
        for target_rs in old_rss:
            if total_scaled_down >= total_scale_down_count:
                break  # no further scaling required
            replicas = target_rs.spec.replicas or 0
            if replicas == 0:
                continue  # cannot scale down this one
            scale_down_count = min(replicas, total_scale_down_count - total_scaled_down)
            new_replicas_count = replicas - scale_down_count
            if new_replicas_count > replicas:
                raise ValueError(f"when scaling down old RS, got invalid request to scale down "
                                 f"{target_rs.metadata.namespace}/{target_rs.metadata.name} {replicas} -> "
                                 f"{new_replicas_count}")
            self.scale_replica_set_and_record_event(target_rs, new_replicas_count, deployment)
            total_scaled_down += scale_down_count
        return total_scaled_down
