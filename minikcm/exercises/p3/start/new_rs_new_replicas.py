"""Exercise p3/new_rs_new_replicas: write new_rs_new_replicas (minikcm.controller.deployment.util.deployment_util).

Go twin: NewRSNewReplicas in pkg/controller/deployment/util/deployment_util.go (v1.36.3).
Reading map: docs page "P3 The Deployment controller" (p3-deployment.md#reconcile-new).
Check it: minikcm exercises check p3

The checker sets your function in place of the port's `new_rs_new_replicas`
for the duration of the check (reconcile_new_replica_set asks it how far the
new ReplicaSet may grow), runs a table of cases, then the rolling-update
scenario, whose new ReplicaSet must grow 0, 3, ... 10 with never more than 13
pods asked for.
"""

from __future__ import annotations

from kubernetes.client import V1Deployment, V1ReplicaSet

from minikcm.apimachinery import intstr
from minikcm.controller.deployment.util.deployment_util import (
    RECREATE_DEPLOYMENT_STRATEGY_TYPE,
    ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE,
    _rolling_update_params,
    _spec_replicas,
    get_replica_count_for_replica_sets,
)


def new_rs_new_replicas(deployment: V1Deployment, all_rss: list[V1ReplicaSet | None], new_rs: V1ReplicaSet) -> int:
    """Port of NewRSNewReplicas (pkg/controller/deployment/util/deployment_util.go).

    The size the new ReplicaSet should have now. Recreate: spec.replicas at
    once. RollingUpdate: grow it by whatever room maxSurge leaves over all
    ReplicaSets, never beyond spec.replicas.
    Example: 10 replicas, maxSurge 3, all ReplicaSets hold 12, new has 4:
    room is 13 - 12 = 1, so 5. If they held 13 or more, it stays at 4.

    Raises:
        ValueError: maxSurge is missing or malformed, or the strategy type is unknown.
    """
    # Hints:
    # - deployment.spec.strategy.type is ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE or
    #   RECREATE_DEPLOYMENT_STRATEGY_TYPE; anything else: ValueError
    #   ("deployment type <type> isn't supported").
    # - _spec_replicas(obj) reads spec.replicas (0 when unset); _rolling_update_params(deployment)
    #   gives (maxSurge, maxUnavailable) as written in the spec.
    # - maxSurge in pods: intstr.get_scaled_value_from_int_or_percent(surge, replicas, True).
    # - The pods every ReplicaSet asks for: get_replica_count_for_replica_sets(all_rss).
    #   No room left under replicas + surge: the new one keeps its size. Otherwise it grows
    #   by the room, but never past spec.replicas.
    raise NotImplementedError("exercise: write new_rs_new_replicas")
