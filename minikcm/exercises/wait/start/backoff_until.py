"""Exercise wait/backoff_until: write the body of minikcm.apimachinery.wait.backoff_until.

Go twin: BackoffUntil in k8s.io/apimachinery/pkg/util/wait/backoff.go (v0.36.3),
the loop behind Until, NonSlidingUntil and JitterUntil.
Reading map: docs page "The wait library" (wait.md#until, wait.md#sliding).
Check it: minikcm exercises check wait

The checker puts your function in place of wait.backoff_until in the running
port (until, non_sliding_until and jitter_until call it), runs a table of cases
on a clock whose waits jump straight to their deadline, then the wait-backoff scenario.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from minikcm.apimachinery.wait import BackoffManager


def backoff_until(f: Callable[[], object], backoff: BackoffManager, sliding: bool, stop: threading.Event) -> None:
    """Port of BackoffUntil (backoff.go): call `f`, wait as long as `backoff` says, repeat.

    With `sliding` the wait is computed after `f` returns; without it, the timer
    starts before `f` runs, so a slow `f` eats into the wait.
    Blocks: until `stop` is set. An exception from `f` ends the loop and propagates.
    """
    # Hints:
    # - Look at `stop` at the top of every round: a stopped loop must never call f again.
    # - backoff.backoff() returns the timer to wait on (a minikcm.clock.Timer).
    #   Non-sliding: take it before calling f. Sliding: after f returns.
    # - timer.wait(stop) returns True when the timer fired and False when stop
    #   was set first; in the second case stop the timer and return.
    raise NotImplementedError("exercise: write backoff_until")
