"""Exercise wait/delay: write the body of minikcm.apimachinery.wait.delay (the arithmetic of Backoff.step).

Go twin: delay in k8s.io/apimachinery/pkg/util/wait/backoff.go (v0.36.3),
which Backoff.Step calls.
Reading map: docs page "The wait library" (wait.md#backoff-step).
Check it: minikcm exercises check wait

The checker puts your function in place of wait.delay in the running port (so
every Backoff.step uses it), runs a table of cases, then the wait-backoff scenario.
"""

from __future__ import annotations

import random

from minikcm.apimachinery.wait import Seconds, jitter


def delay(
    steps: int,
    duration: Seconds,
    cap: Seconds,
    factor: float,
    jitter_factor: float,
    rng: random.Random | None = None,
) -> tuple[Seconds, Seconds, int]:
    """Port of delay (backoff.go): the core arithmetic behind Backoff.step.

    Returns (this delay, next duration, steps left). With no steps left the
    duration never changes (only jitter varies the delay). Otherwise one step is
    spent and the duration is multiplied by `factor`; a product above a positive
    `cap` becomes `cap` and zeroes the steps.
    Differs from Go: durations are float seconds, so nothing is truncated to nanoseconds.
    """
    # Hints:
    # - Steps below 1: the duration stays; return it (jittered when jitter_factor > 0) and 0 steps.
    # - Otherwise spend a step. A factor of 0 means "no growth".
    # - The cap applies to the *next* duration, and hitting it ends the growth (steps = 0).
    # - Jitter lengthens only the delay returned now (use jitter(duration, jitter_factor, rng));
    #   it must never feed into the next duration.
    raise NotImplementedError("exercise: write delay")
