"""Exercise p5/update_stateful_set_after_invariant_established: write it (minikcm.controller.statefulset.stateful_set_control).

Go twin: updateStatefulSetAfterInvariantEstablished in pkg/controller/statefulset/stateful_set_control.go (v1.36.3).
Reading map: docs page "P5 The StatefulSet controller" (p5-statefulset.md#reading-map).
Check it: minikcm exercises check p5

The partitioned rolling update: which outdated pods go now. Once every
member exists and the members and condemned pods have been processed,
update_stateful_set_internal hands the RollingUpdate step to this function
when the MaxUnavailableStatefulSet feature gate is on (beta, off by default
in 1.36; with it off, a loop inside update_stateful_set_internal does the
same with maxUnavailable 1). The checker sets your function in place of the
port's for the duration of the check and turns the gate on for its run of
the statefulset-partition scenario. `ssc.pod_control.delete_stateful_pod(set_, pod)`
deletes; a deleted pod comes back at the update revision (new_versioned_stateful_set_pod).
"""

from __future__ import annotations

import logging
from datetime import datetime

from kubernetes.client import V1ControllerRevision, V1Pod, V1StatefulSet, V1StatefulSetStatus

from minikcm.apimachinery import errors
from minikcm.controller.statefulset.stateful_set_control import DefaultStatefulSetControl
from minikcm.controller.statefulset.stateful_set_utils import (
    get_pod_revision,
    get_stateful_set_max_unavailable,
    is_terminating,
    is_unavailable,
)

log = logging.getLogger("minikcm.controller.statefulset.stateful_set_control")


def update_stateful_set_after_invariant_established(ssc: DefaultStatefulSetControl, set_: V1StatefulSet,
                                                    replicas: list[V1Pod], update_revision: V1ControllerRevision,
                                                    status: V1StatefulSetStatus, now: datetime
                                                    ) -> tuple[V1StatefulSetStatus, Exception | None]:
    """Port of updateStatefulSetAfterInvariantEstablished: the rolling update with maxUnavailable (gate on).

    Counts the members that are unavailable now (not available for
    minReadySeconds, or terminating). If that already uses the whole budget
    (maxUnavailable, default 1), nothing is deleted; otherwise up to
    `maxUnavailable - unavailable` outdated members at or above the
    partition are deleted, highest ordinal first. Worked example: 5 members,
    maxUnavailable 2, one already unavailable -> one more outdated pod goes.
    (A set whose only member is outdated and never becomes available stays
    stuck here with maxUnavailable 1: upstream issue of March 2026, kept.)
    """
    # Hints:
    # - From set_.spec.update_strategy.rolling_update (either may be None): the partition
    #   (None: 0) and get_stateful_set_max_unavailable(block.max_unavailable,
    #   set_.spec.replicas or 0); without a block: partition 0, maxUnavailable 1. A
    #   ValueError from it is returned, not raised: (status, err).
    # - Count the members with is_unavailable(pod, min_ready_seconds or 0, now); if that
    #   reaches maxUnavailable, delete nothing.
    # - Otherwise walk target from len(replicas) - 1 down while target >= partition and
    #   fewer than (maxUnavailable - unavailable) pods were deleted. A pod whose
    #   get_pod_revision differs from update_revision.metadata.name and that is not
    #   terminating is deleted; a NotFound error (errors.is_not_found) counts as deleted,
    #   any other is returned at once. Each delete lowers status.current_replicas by one.
    # - Return (status, None): the very status you were given.
    raise NotImplementedError("exercise: write update_stateful_set_after_invariant_established")
