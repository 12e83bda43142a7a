"""Exercise p3/get_replica_set_fraction: write get_replica_set_fraction (minikcm.controller.deployment.util.deployment_util).

Go twin: getReplicaSetFraction in pkg/controller/deployment/util/deployment_util.go (v1.36.3).
Reading map: docs page "P3 The Deployment controller" (p3-deployment.md#scale).
Check it: minikcm exercises check p3

The checker sets your function in place of the port's `get_replica_set_fraction`
for the duration of the check (get_replica_set_proportion, which SyncMixin.scale
calls for each active ReplicaSet, asks it for that ReplicaSet's share), runs
upstream's table, then the proportional-scaling scenario: a rollout stuck at 8
old and 5 new pods is scaled from 10 to 30 replicas and must end at 20 old and
13 new.
"""

from __future__ import annotations

from kubernetes.client import V1Deployment, V1ReplicaSet

from minikcm.controller.deployment.util.deployment_util import (
    _round_to_int32,
    _spec_replicas,
    get_max_replicas_annotation,
    max_surge,
)


def get_replica_set_fraction(rs: V1ReplicaSet, d: V1Deployment) -> int:
    """Port of getReplicaSetFraction (pkg/controller/deployment/util/deployment_util.go).

    The change `rs` would get if every ReplicaSet kept its share of the
    Deployment while the Deployment's maximum (replicas + maxSurge) moves from
    the value recorded in the ReplicaSet's max-replicas annotation to today's.
    Scaling to 0 removes the whole ReplicaSet. Without a usable annotation,
    status.replicas stands in for the old maximum; if that is 0 too, nothing moves.
    Example: annotation 8, rs has 4, Deployment now 10 + surge 2 = 12:
    round(4 * 12 / 8) - 4 = 6 - 4 = 2.
    """
    # Hints:
    # - _spec_replicas(obj) reads spec.replicas (0 when unset). A Deployment scaled to 0
    #   takes everything away: -(the ReplicaSet's replicas).
    # - Today's maximum: _spec_replicas(d) + max_surge(d).
    # - The maximum when the ReplicaSet was last sized: get_max_replicas_annotation(rs)
    #   -> (value, ok). Not ok, or 0: fall back to d.status.replicas (a missing status
    #   counts as 0); still 0: return 0.
    # - Scale in floating point, round half away from zero (_round_to_int32), and
    #   return the difference to the current size.
    raise NotImplementedError("exercise: write get_replica_set_fraction")
