"""Exercise wait/exponential_backoff: write the body of minikcm.apimachinery.wait.exponential_backoff.

Go twin: ExponentialBackoff in k8s.io/apimachinery/pkg/util/wait/backoff.go (v0.36.3).
Reading map: docs page "The wait library" (wait.md#exponential-backoff).
Check it: minikcm exercises check wait

The checker puts your function in place of wait.exponential_backoff in the
running port, runs a table of cases on a clock whose sleeps jump straight to
their end, then the wait-backoff scenario.
"""

from __future__ import annotations

from dataclasses import replace

from minikcm.apimachinery.wait import Backoff, ConditionFunc, WaitTimeoutError
from minikcm.clock import Clock, or_real


def exponential_backoff(backoff: Backoff, condition: ConditionFunc, clock: Clock | None = None) -> None:
    """Port of ExponentialBackoff (backoff.go): try `condition`, sleeping `backoff.step()` between tries.

    Stops when the condition returns True (returns) or raises (propagates), or
    after `backoff.steps` tries, or once a capped step has been slept. The
    caller's `backoff` is not changed (Go passes it by value).
    Example: Backoff(duration=1, factor=2, steps=3) tries at t=0, 1 and 3.
    Blocks: for the sleeps, on `clock`.
    Raises:
        WaitTimeoutError: the tries ran out without the condition holding.
    """
    # Hints:
    # - Work on a copy of the backoff (dataclasses.replace), never on the caller's.
    # - Loop while steps remain: try the condition; after the last try do not sleep.
    # - backoff.step() gives the sleep and spends a step; a step that hit the cap
    #   leaves no steps, so the loop ends after sleeping it.
    # - Sleep on or_real(clock); raise WaitTimeoutError() when the tries run out.
    raise NotImplementedError("exercise: write exponential_backoff")
