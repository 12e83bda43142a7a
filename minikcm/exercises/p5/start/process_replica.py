"""Exercise p5/process_replica: write DefaultStatefulSetControl.process_replica (minikcm.controller.statefulset.stateful_set_control).

Go twin: defaultStatefulSetControl.processReplica in pkg/controller/statefulset/stateful_set_control.go (v1.36.3).
Reading map: docs page "P5 The StatefulSet controller" (p5-statefulset.md#reading-map).
Check it: minikcm exercises check p5

The monotonic update step. The checker sets your function as
`DefaultStatefulSetControl.process_replica` for the duration of the check.
Each sync, update_stateful_set_internal calls it for web-0, web-1, ... in
ordinal order through run_for_all; with podManagementPolicy OrderedReady
(`monotonic`) the sync ends at the first call that returns True, which is how
web-N+1 is created only once web-N is Running and Ready. `self.pod_control`
does the writes: create_stateful_pod(set_, pod), delete_stateful_pod(set_, pod),
update_stateful_pod(update_set, pod), create_missing_persistent_volume_claims(set_, pod),
pod_claim_is_stale(set_, pod), claims_match_retention_policy(update_set, pod).
The table rows give one member in each state to a pod control that only
records, then the statefulset-ordered and statefulset-partition scenarios
run, and their invariants (one unhealthy pod at a time, ready in ordinal
order) are checked after every step.
"""

from __future__ import annotations

import logging
from datetime import datetime

from kubernetes.client import V1Pod, V1StatefulSet

from minikcm.apimachinery.convert import deep_copy
from minikcm.controller.statefulset.stateful_set_control import DefaultStatefulSetControl
from minikcm.controller.statefulset.stateful_set_utils import (
    identity_matches,
    is_created,
    is_failed,
    is_pending,
    is_running_and_available,
    is_running_and_ready,
    is_succeeded,
    is_terminating,
    storage_matches,
)

log = logging.getLogger("minikcm.controller.statefulset.stateful_set_control")


def process_replica(self: DefaultStatefulSetControl, set_: V1StatefulSet, update_set: V1StatefulSet, monotonic: bool,
                    replicas: list[V1Pod], i: int, now: datetime) -> bool:
    """Port of processReplica: move member `replicas[i]` one step; True means stop this sync.

    - Failed or Succeeded: delete it (it is recreated once it is gone); stop.
    - Not created: create it (unless a claim still belongs to its
      predecessor); in OrderedReady, stop (wait for it to become ready).
    - Pending: create any claims it still misses.
    - OrderedReady only: stop while it is terminating, not Running and
      Ready, or not yet available for minReadySeconds.
    - Repair identity, storage and claim owners if they drifted (on a copy).
    """
    # Hints, in this order:
    # 1. is_failed or is_succeeded: delete it unless metadata.deletion_timestamp is set
    #    already; return True either way (the pod is recreated once it is gone).
    # 2. not is_created (a planned pod): if the pod control says its claim is stale,
    #    return True; else create it, and return True if monotonic (wait for it).
    #    In Parallel mode carry on.
    # 3. is_pending: create the claims it still misses.
    # 4. monotonic only: return True while it is terminating, not running-and-ready, or
    #    not running-and-available for set_.spec.min_ready_seconds (None: 0) at `now`.
    # 5. Ask claims_match_retention_policy(update_set, pod); if that raises, count it as a
    #    match. If identity_matches(set_, pod), storage_matches(set_, pod) and the claims
    #    match, return False; else update_stateful_pod(update_set, deep_copy(pod)) (never
    #    the cache's object) and return False.
    raise NotImplementedError("exercise: write DefaultStatefulSetControl.process_replica")
