"""Exercise p5/new_versioned_stateful_set_pod: write new_versioned_stateful_set_pod (minikcm.controller.statefulset.stateful_set_utils).

Go twin: newVersionedStatefulSetPod in pkg/controller/statefulset/stateful_set_utils.go (v1.36.3).
Reading map: docs page "P5 The StatefulSet controller" (p5-statefulset.md#reading-map).
Check it: minikcm exercises check p5

The partition, seen from a new pod. The checker sets your function in place
of the port's `new_versioned_stateful_set_pod` for the duration of the check;
update_stateful_set_internal calls it for every ordinal that has no pod, so
it decides the revision of every pod the controller creates, including the
ones the rolling update deleted and the ones someone else deleted.
`current_set` and `update_set` are the set with the current and the update
revision's template applied. The table rows vary the partition, the start
ordinal and the strategy; then the statefulset-partition scenario deletes
web-1 below partition 3, and web-1 must come back at rev1.
"""

from __future__ import annotations

from kubernetes.client import V1Pod, V1StatefulSet

from minikcm.controller.statefulset.stateful_set_utils import (
    ROLLING_UPDATE_STRATEGY,
    get_start_ordinal,
    new_stateful_set_pod,
    set_pod_revision,
)


def new_versioned_stateful_set_pod(current_set: V1StatefulSet, update_set: V1StatefulSet, current_revision: str,
                                   update_revision: str, ordinal: int) -> V1Pod:
    """Port of newVersionedStatefulSetPod: a new member at the revision its ordinal calls for.

    Below the partition (start + partition) a member keeps the current
    revision; from the partition up it gets the update revision. Without a
    rollingUpdate block, the first `status.currentReplicas` ordinals stay
    current. Example: start 0, partition 2 -> ordinals 0 and 1 current, 2.. update.
    (The grouping of the condition, (RollingUpdate and no block and below
    currentReplicas) or (a block and below the partition), is upstream's.)
    """
    # Hints:
    # - Read current_set: spec.update_strategy (may be None), its rolling_update (may be
    #   None), get_start_ordinal(current_set), status.current_replicas (None: 0) and the
    #   block's partition (None: 0).
    # - Current revision when: (strategy type ROLLING_UPDATE_STRATEGY, no rolling_update
    #   block, and ordinal < start + current replicas) or (a rolling_update block and
    #   ordinal < start + partition). Below, not at: the partition ordinal is updated.
    # - Build with new_stateful_set_pod(the chosen set, ordinal), then
    #   set_pod_revision(pod, the chosen revision's name).
    raise NotImplementedError("exercise: write new_versioned_stateful_set_pod")
