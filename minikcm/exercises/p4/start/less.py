"""Exercise p4/less: write ActivePodsWithRanks.less (minikcm.controller.controller_utils).

Go twin: ActivePodsWithRanks.Less in pkg/controller/controller_utils.go (v1.36.3).
Reading map: docs page "P4 The ReplicaSet controller" (p4-replicaset.md#ranking).
Check it: minikcm exercises check p4

The checker sets your function as `ActivePodsWithRanks.less` for the duration
of the check, so every scale-down of the running port sorts its pods with it;
then it runs upstream's TestSortingActivePodsWithRanks rows, then the
replicaset-scale scenario. `self` is the sort: `self.pods`, `self.rank` (one
number per pod: how many related pods share its node) and `self.now` (the
reference time of the age buckets). The class's `sort()` calls `less`.
"""

from __future__ import annotations

from minikcm.api.pod import util as podutil
from minikcm.controller.controller_utils import (
    ActivePodsWithRanks,
    _node_name,
    _phase,
    compare_max_container_restarts,
    get_deletion_cost_from_pod_annotations,
    pod_phase_to_ordinal,
    pod_ready_time,
)


def less(self: ActivePodsWithRanks, i: int, j: int) -> bool:
    """Port of ActivePodsWithRanks.Less: should pod i be deleted before pod j?"""
    # Hints: the first rule that tells the two pods apart decides.
    # 1. Unscheduled (_node_name(pod) == "") before scheduled.
    # 2. Earlier phase first: pod_phase_to_ordinal.get(_phase(pod), 0).
    # 3. Not ready (podutil.is_pod_ready) before ready.
    # 4. Lower pod-deletion-cost first: get_deletion_cost_from_pod_annotations(annotations)[0].
    # 5. Higher rank (a more crowded node) first.
    # 6. Both ready: ready for less time first (pod_ready_time).
    # 7. More restarts first: compare_max_container_restarts(a, b) (None when equal).
    # 8. Newer first (metadata.creation_timestamp).
    # Rules 6 and 8 compare ages in log2 buckets of self.now - t, then by UID; the
    # class's helper self._newer_first(a, b, t1, t2) does exactly that.
    # Equal on every rule: False.
    raise NotImplementedError("exercise: write ActivePodsWithRanks.less")
