"""Exercise p5/process_condemned: write DefaultStatefulSetControl.process_condemned (minikcm.controller.statefulset.stateful_set_control).

Go twin: defaultStatefulSetControl.processCondemned in pkg/controller/statefulset/stateful_set_control.go (v1.36.3).
Reading map: docs page "P5 The StatefulSet controller" (p5-statefulset.md#reading-map).
Check it: minikcm exercises check p5

Ordered scale-down. The checker sets your function as
`DefaultStatefulSetControl.process_condemned` for the duration of the check.
The condemned pods are those outside the set's ordinal range (web-4 and
web-3 when a set of 5 is scaled to 3); update_stateful_set_internal sorts
them highest ordinal first and calls this for each through run_for_all,
after the members passed. `first_unhealthy_pod` is the lowest pod of the set
that is not healthy (a member first, else a condemned one), the very
object of the list, or None. `self.pod_control.delete_stateful_pod(set_, pod)`
deletes. The table rows give one condemned pod in each state to a pod
control that only records, then the statefulset-ordered scenario scales 5
down to 2 and checks that only one pod terminates at a time.
"""

from __future__ import annotations

import logging
from datetime import datetime

from kubernetes.client import V1Pod, V1StatefulSet

from minikcm.controller.statefulset.stateful_set_control import DefaultStatefulSetControl
from minikcm.controller.statefulset.stateful_set_utils import (
    is_running_and_available,
    is_running_and_ready,
    is_terminating,
)

log = logging.getLogger("minikcm.controller.statefulset.stateful_set_control")


def process_condemned(self: DefaultStatefulSetControl, set_: V1StatefulSet, first_unhealthy_pod: V1Pod | None,
                      monotonic: bool, condemned: list[V1Pod], i: int, now: datetime) -> bool:
    """Port of processCondemned: delete condemned pod `condemned[i]`; True means stop this sync.

    OrderedReady waits while the pod is terminating, and refuses to delete
    a pod that is not ready, or not yet available for minReadySeconds,
    unless it is the first unavailable pod of the sync (Go names the
    parameter firstUnhealthyPod; the caller passes its firstUnavailablePod,
    see is_unavailable): deleting that one is the only way forward then.
    One deletion per sync in OrderedReady.
    """
    # Hints:
    # - Terminating already: in OrderedReady (monotonic) wait for it to go (True);
    #   in Parallel carry on to the next one (False).
    # - OrderedReady, and this pod is not first_unhealthy_pod (compare with `is`): return
    #   True if it is not running-and-ready, or not running-and-available for
    #   set_.spec.min_ready_seconds (None: 0) at `now`.
    # - Otherwise delete it and return True (one deletion, then the sync ends). A delete
    #   that fails raises; let it.
    raise NotImplementedError("exercise: write DefaultStatefulSetControl.process_condemned")
