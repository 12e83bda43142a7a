"""Exercise p3/reconcile_old_replica_sets: write RollingMixin.reconcile_old_replica_sets (minikcm.controller.deployment.rolling).

Go twin: DeploymentController.reconcileOldReplicaSets in pkg/controller/deployment/rolling.go (v1.36.3).
Reading map: docs page "P3 The Deployment controller" (p3-deployment.md#reconcile-old).
Check it: minikcm exercises check p3

The checker sets your function as `RollingMixin.reconcile_old_replica_sets` for
the duration of the check, so every Deployment controller of the running port
calls it on each pass of a rolling update; then it runs upstream's table (and
a few rows of ours) on a controller whose client records the ReplicaSet
updates, then the rolling-update and proportional-scaling scenarios. `self` is
the DeploymentController: the two helpers that do the scaling are
`self.cleanup_unhealthy_replicas(old_rss, deployment, max_cleanup_count)` ->
(old_rss, count) and `self.scale_down_old_replica_sets_for_rolling_update(all_rss,
old_rss, deployment)` -> count; both raise when an update fails.
"""

from __future__ import annotations

import logging

from kubernetes.client import V1Deployment, V1ReplicaSet

from minikcm.controller.deployment.deployment_controller import DeploymentController
from minikcm.controller.deployment.rolling import _available
from minikcm.controller.deployment.util import deployment_util as util

logger = logging.getLogger("minikcm.controller.deployment.rolling")


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
    # Hints:
    # - util.get_replica_count_for_replica_sets(rss) sums spec.replicas (skipping None);
    #   old ones asking for 0 pods: nothing to do.
    # - minAvailable = spec.replicas - util.max_unavailable(deployment); the new
    #   ReplicaSet's unavailable pods are its spec.replicas - _available(new_rs).
    # - maxScaledDown <= 0: return False before touching anything.
    # - First self.cleanup_unhealthy_replicas(old_rss, deployment, maxScaledDown), then
    #   self.scale_down_old_replica_sets_for_rolling_update([*old_rss, new_rs], old_rss,
    #   deployment) with the ReplicaSets the cleanup handed back. Either one raising:
    #   return False (the next sync tries again).
    raise NotImplementedError("exercise: write RollingMixin.reconcile_old_replica_sets")
