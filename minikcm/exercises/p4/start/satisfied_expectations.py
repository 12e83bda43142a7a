"""Exercise p4/satisfied_expectations: write ControllerExpectations.satisfied_expectations (minikcm.controller.controller_utils).

Go twin: ControllerExpectations.SatisfiedExpectations in pkg/controller/controller_utils.go (v1.36.3).
Reading map: docs page "P4 The ReplicaSet controller" (p4-replicaset.md#why-expectations).
Check it: minikcm exercises check p4

The checker sets your function as `ControllerExpectations.satisfied_expectations`
for the duration of the check (the ReplicaSet controller's UID-tracking
expectations delegate to it at the start of every sync), runs upstream's
TestControllerExpectations and TestUIDExpectations ideas on a fake clock, then
the replicaset-scale scenario, which never creates or deletes more pods than
spec.replicas calls for. `self` holds `store` (controller key -> a
ControlleeExpectations with `fulfilled()` and `is_expired()`) and `clock`.
"""

from __future__ import annotations

import logging

from minikcm.controller.controller_utils import ControllerExpectations

log = logging.getLogger("minikcm.controller.controller_utils")


def satisfied_expectations(self: ControllerExpectations, controller_key: str) -> bool:
    """Port of ControllerExpectations.SatisfiedExpectations: may this controller sync now?

    True when its adds and deletes were all observed, when they are older
    than EXPECTATIONS_TIMEOUT, or when it has none (a new controller, or one
    whose expectations were deleted). False only while it still waits.
    """
    # Hints:
    # - self.get_expectations(controller_key) -> (expectations, exists). It reads a
    #   store: should that raise, sync anyway (True).
    # - Expectations that exist: fulfilled() or is_expired() means True, else False.
    # - None recorded: True.
    raise NotImplementedError("exercise: write ControllerExpectations.satisfied_expectations")
