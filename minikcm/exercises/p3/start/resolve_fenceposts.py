"""Exercise p3/resolve_fenceposts: write resolve_fenceposts (minikcm.controller.deployment.util.deployment_util).

Go twin: ResolveFenceposts in pkg/controller/deployment/util/deployment_util.go (v1.36.3).
Reading map: docs page "P3 The Deployment controller" (p3-deployment.md#fenceposts).
Check it: minikcm exercises check p3

The checker sets your function in place of the port's `resolve_fenceposts` for
the duration of the check (max_surge and max_unavailable, and through them the
whole rolling update, call it), runs a table of cases, then the rolling-update
scenario: 10 replicas with maxSurge and maxUnavailable 25%, whose rollout must
ask for exactly 13 pods at most and keep at least 8 available.
"""

from __future__ import annotations

from minikcm.apimachinery import intstr


def resolve_fenceposts(max_surge: intstr.IntOrString | None, max_unavailable: intstr.IntOrString | None,
                       desired: int) -> tuple[int, int]:
    """Port of ResolveFenceposts (pkg/controller/deployment/util/deployment_util.go).

    Turns maxSurge and maxUnavailable into pod counts for `desired` replicas,
    together, because of one corner: a percentage of surge rounds up, one of
    unavailability rounds down, and if both end at 0 a rollout could never
    move; then unavailability becomes 1 (surge might be blocked by quota, so
    taking one pod down is the safer way to make room). None counts as 0.
    Example: "25%" and "25%" of 10 -> (3, 2); 0 and 0 of 5 -> (0, 1);
    0 and "10%" of 5 -> 0.5 rounds down to 0 -> (0, 1).

    Returns:
        (surge, unavailable).
    Raises:
        ValueError: a value is a string that is not a whole percentage.
    """
    # Hints:
    # - intstr.value_or_default(value, 0) turns None into 0.
    # - intstr.get_scaled_value_from_int_or_percent(value, desired, round_up) turns 3 into 3
    #   and "25%" into 25% of desired, rounded up when round_up is True, down otherwise
    #   (and raises ValueError for "oops"). Which of the two rounds up?
    # - Both 0 at the end: the rollout could never take a step.
    raise NotImplementedError("exercise: write resolve_fenceposts")
