"""Exercise wait/jitter: write the body of minikcm.apimachinery.wait.jitter.

Go twin: Jitter in k8s.io/apimachinery/pkg/util/wait/wait.go (v0.36.3).
Reading map: docs page "The wait library" (wait.md#jitter).
Check it: minikcm exercises check wait

The checker puts your function in place of wait.jitter in the running port (so
Backoff, jitter_until and leader election all call it), runs a table of cases,
then the wait-backoff scenario.
"""

from __future__ import annotations

import random

from minikcm.apimachinery import wait
from minikcm.apimachinery.wait import Seconds
from minikcm.apimachinery.wait._wait import jitter_rand  # Go's jitterRand, beside Jitter in wait.go


def jitter(duration: Seconds, max_factor: float, rng: random.Random | None = None) -> Seconds:
    """Port of Jitter (wait.go).

    Returns a duration picked uniformly between `duration` and
    `duration * (1 + max_factor)`, so that many clients do not fall into step. A
    non-positive `max_factor` means 1.0. Example: jitter(2.0, 0.5) is in [2.0, 3.0].
    `rng` is a seeded `random.Random` for deterministic runs; without it the
    module's `jitter_rand` is used.
    """
    # Hints:
    # - Draw exactly one number in [0, 1) per call: rng.random() when an rng is
    #   given, else jitter_rand().
    # - The result is the duration plus a random share of max_factor * duration.
    raise NotImplementedError("exercise: write jitter")
