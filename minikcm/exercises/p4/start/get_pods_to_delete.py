"""Exercise p4/get_pods_to_delete: write get_pods_to_delete (minikcm.controller.replicaset.replica_set).

Go twin: getPodsToDelete (with getPodsRankedByRelatedPodsOnSameNode) in
pkg/controller/replicaset/replica_set.go (v1.36.3).
Reading map: docs page "P4 The ReplicaSet controller" (p4-replicaset.md#ranking).
Check it: minikcm exercises check p4

The checker sets your function in place of the port's `get_pods_to_delete` for
the duration of the check (manage_replicas asks it which pods a scale-down
removes), runs upstream's table, then the replicaset-scale scenario, whose
scale-down from 10 to 2 must remove the 7 pods that are not ready yet before
any ready one.
"""

from __future__ import annotations

from datetime import datetime

from kubernetes.client import V1Pod

from minikcm.controller import controller_utils
from minikcm.controller.controller_utils import ActivePodsWithRanks
from minikcm.controller.replicaset.replica_set import get_pods_ranked_by_related_pods_on_same_node


def get_pods_to_delete(filtered_pods: list[V1Pod], related_pods: list[V1Pod], diff: int,
                       now: datetime) -> list[V1Pod]:
    """Port of getPodsToDelete: the `diff` pods scale-down removes first (diff <= len(filtered_pods)).

    Unless all go, `filtered_pods` is sorted in place by ActivePodsWithRanks
    (unscheduled, pending, not ready, low deletion cost, crowded node, recently
    ready, restarting, young first) and the first `diff` are taken.
    Differs from Go: `now` (Go: metav1.Now()) anchors the age buckets.
    """
    # Hints:
    # - All of them go (diff >= len(filtered_pods)): no need to rank anything.
    # - A pod's rank is the number of active related pods (controller_utils.is_pod_active)
    #   on its node; unscheduled pods all share the node "" (pod.spec.node_name or "").
    # - ActivePodsWithRanks(filtered_pods, ranks, now).sort() sorts filtered_pods (and
    #   ranks) in place, deletion candidates first.
    # - The port's helper get_pods_ranked_by_related_pods_on_same_node builds that
    #   ActivePodsWithRanks; try the counting yourself first.
    raise NotImplementedError("exercise: write get_pods_to_delete")
