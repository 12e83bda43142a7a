"""Exercise p3/reconcile_new_replica_set: write RollingMixin.reconcile_new_replica_set (minikcm.controller.deployment.rolling).

Go twin: DeploymentController.reconcileNewReplicaSet in pkg/controller/deployment/rolling.go (v1.36.3).
Reading map: docs page "P3 The Deployment controller" (p3-deployment.md#reconcile-new).
Check it: minikcm exercises check p3

The checker sets your function as `RollingMixin.reconcile_new_replica_set` for
the duration of the check, so every Deployment controller of the running port
calls it on each pass of a rolling update; then it runs upstream's table on a
controller whose client records the ReplicaSet updates, then the rolling-update
scenario. `self` is the DeploymentController: the moves go through
`self.scale_replica_set_and_record_event(rs, new_scale, deployment)`, which
returns (scaled, the ReplicaSet as written).
"""

from __future__ import annotations

from kubernetes.client import V1Deployment, V1ReplicaSet

from minikcm.controller.deployment.deployment_controller import DeploymentController
from minikcm.controller.deployment.util import deployment_util as util


def reconcile_new_replica_set(self: DeploymentController, all_rss: list[V1ReplicaSet | None],
                              new_rs: V1ReplicaSet, deployment: V1Deployment) -> bool:
    """Port of DeploymentController.reconcileNewReplicaSet: move the new ReplicaSet toward spec.replicas.

    Above it (the Deployment shrank): scale down to it at once. Below it:
    grow by what the surge budget allows (new_rs_new_replicas). Example:
    10 replicas, maxSurge 2, old has 5, new has 0: total may reach 12, so
    new goes to 7. Returns whether it scaled.
    """
    # Hints:
    # - Compare new_rs.spec.replicas with deployment.spec.replicas (either may be None: 0).
    # - Equal: nothing to do, and no API call at all.
    # - Above: one call scales it straight down to spec.replicas; no surge arithmetic.
    # - Below: util.new_rs_new_replicas(deployment, all_rss, new_rs) says how far it may grow.
    # - Return the `scaled` flag that scale_replica_set_and_record_event returned.
    raise NotImplementedError("exercise: write RollingMixin.reconcile_new_replica_set")
