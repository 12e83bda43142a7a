"""Port of pkg/controller/deployment/recreate.go.

Reconstructed from a recent copy of recreate.go (oldPodsRunning over the pod
map, DeploymentComplete gating the cleanup). Its DeploymentPodReplacementPolicy
branches are left out: that alpha field is not in the v1.36 API.

The Recreate strategy: scale every old ReplicaSet to 0, wait until no old
pod is left running (pods in Failed or Succeeded do not count; Unknown does),
and only then create or scale up the new ReplicaSet. New pods never run next
to old ones. The controller learns that the last old pod is gone from
DeploymentController.delete_pod, which enqueues the Deployment then.

Start reading at: RecreateMixin.rollout_recreate, then old_pods_running.

Not ported: the PodReplacementPolicy branches (alpha outside v1.36), contextual logging.
Differs from Go: the methods live on RecreateMixin; the pod map is walked in
sorted ReplicaSet-UID order (Go: map order; the answer does not depend on it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kubernetes.client import V1Deployment, V1Pod, V1ReplicaSet

from minikcm.api.pod import util as podutil
from minikcm.controller import controller_utils
from minikcm.controller.deployment.util import deployment_util as util

if TYPE_CHECKING:
    from minikcm.controller.deployment.deployment_controller import DeploymentController


class RecreateMixin:
    """Port of the DeploymentController methods of recreate.go."""

    def rollout_recreate(self: DeploymentController, d: V1Deployment, rs_list: list[V1ReplicaSet],
                         pod_map: dict[str, list[V1Pod]]) -> None:
        """Port of DeploymentController.rolloutRecreate: one pass of a Recreate rollout.

        Does not create the new ReplicaSet yet (that would scale up before
        scaling down). Scales old ReplicaSets to 0; waits while old pods still
        run; then creates the new ReplicaSet if needed and scales it to
        spec.replicas; prunes history once complete; writes the status.
        """
        new_rs, old_rss = self.get_all_replica_sets_and_sync_revision(d, rs_list, False)
        all_rss: list[V1ReplicaSet | None] = [*old_rss, new_rs]
        active_old_rss = controller_utils.filter_active_replica_sets(list(old_rss))

        # Scale down old replica sets.
        scaled_down = self.scale_down_old_replica_sets_for_recreate(active_old_rss, d)
        if scaled_down:
            self.sync_rollout_status(all_rss, new_rs, d)
            return

        # Wait while any old pod still runs.
        if old_pods_running(new_rs, old_rss, pod_map):
            self.sync_rollout_status(all_rss, new_rs, d)
            return

        # Now create the new ReplicaSet, if there is none yet.
        if new_rs is None:
            new_rs, old_rss = self.get_all_replica_sets_and_sync_revision(d, rs_list, True)
            all_rss = [*old_rss, new_rs]
        if new_rs is None:
            raise RuntimeError("get_new_replica_set returned no ReplicaSet although asked to create one")

        # Scale up the new replica set.
        self.scale_up_new_replica_set_for_recreate(new_rs, d)

        if util.deployment_complete(d, d.status):
            self.cleanup_deployment(old_rss, d)

        self.sync_rollout_status(all_rss, new_rs, d)

    def scale_down_old_replica_sets_for_recreate(self: DeploymentController, old_rss: list[V1ReplicaSet],
                                                 deployment: V1Deployment) -> bool:
        """Port of DeploymentController.scaleDownOldReplicaSetsForRecreate: every old ReplicaSet to 0.

        Puts the written ReplicaSets into `old_rss`. Returns whether any was scaled.
        """
        scaled = False
        for i, rs in enumerate(old_rss):
            if (rs.spec.replicas or 0) == 0:
                continue  # scaling not required
            scaled_rs, updated_rs = self.scale_replica_set_and_record_event(rs, 0, deployment)
            if scaled_rs:
                old_rss[i] = updated_rs
                scaled = True
        return scaled

    def scale_up_new_replica_set_for_recreate(self: DeploymentController, new_rs: V1ReplicaSet,
                                              deployment: V1Deployment) -> bool:
        """Port of DeploymentController.scaleUpNewReplicaSetForRecreate: the new ReplicaSet to spec.replicas.

        Returns whether it scaled.
        """
        scaled, _ = self.scale_replica_set_and_record_event(new_rs, deployment.spec.replicas or 0, deployment)
        return scaled


def old_pods_running(new_rs: V1ReplicaSet | None, old_rss: list[V1ReplicaSet],
                     pod_map: dict[str, list[V1Pod]] | None) -> bool:
    """Port of oldPodsRunning (recreate.go).

    True when an old ReplicaSet still reports pods (status.replicas), or
    the pod map holds a pod of an old ReplicaSet that has not finished:
    every phase except Failed and Succeeded counts, Unknown included (the
    pod may still be running on a node we cannot reach), and so does a pod
    with no phase at all. Pods of the new ReplicaSet are ignored.
    """
    if util.get_actual_replica_count_for_replica_sets(list(old_rss)) > 0:
        return True
    pod_map = pod_map or {}
    for rs_uid in sorted(pod_map):  # Go: map range
        if new_rs is not None and new_rs.metadata.uid == rs_uid:
            continue  # the new ReplicaSet's pods
        for pod in pod_map[rs_uid]:
            phase = pod.status.phase if pod.status is not None else None
            if phase in (podutil.POD_FAILED, podutil.POD_SUCCEEDED):
                continue  # finished pods do not count
            if phase == podutil.POD_UNKNOWN:
                return True  # deprecated phase: the pod may still run, so it counts
            return True  # any other phase: not finished
    return False
