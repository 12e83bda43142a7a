"""Port of k8s.io/client-go/util/retry/util.go: try a write again when it conflicts.

A controller that read an object, changed it and wrote it back gets a 409
Conflict when someone else wrote in between; `retry_on_conflict` runs the
whole read-modify-write again a few times, sleeping a short, growing, jittered
delay between tries. Its callers here: the StatefulSet's pod control and status
updater, the controller-history's revision updates, and the garbage
collector's finalizer removal.

Start reading at: on_error.

Differs from Go:
- The pause between tries goes through an injected clock (Go: time.Sleep inside
  wait.ExponentialBackoff). On a driven clock a step cannot block, so the sleep
  moves the driven time instead, as Go's FakeClock.Sleep does (minikcm.clock),
  and the jitter is drawn from `random.Random(0)` when the backoff brings no
  seeded source, so a deterministic run stays deterministic.
- `fn` raises instead of returning an error; the error that ends the retries is
  raised, not returned.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from minikcm.apimachinery import errors, wait
from minikcm.clock import Clock, or_real

DEFAULT_RETRY = wait.Backoff(steps=5, duration=0.010, factor=1.0, jitter=0.1)
"""Port of DefaultRetry: 5 tries 10 ms apart (plus up to 10 %), for writes that conflict often."""

DEFAULT_BACKOFF = wait.Backoff(steps=4, duration=0.010, factor=5.0, jitter=0.1)
"""Port of DefaultBackoff: 4 tries after 10, 50 and 250 ms, for writes that rarely conflict."""


def on_error(backoff: wait.Backoff, retriable: Callable[[Exception], bool], fn: Callable[[], None],
             clock: Clock | None = None) -> None:
    """Port of OnError: call `fn` until it returns, at most `backoff.steps` times.

    An error `retriable` accepts is remembered and the next try comes after
    `backoff.step()` on `clock` (none after the last try); any other error is
    raised at once. When the tries run out, the last retriable error is raised.
    The caller's `backoff` is not changed (Go passes it by value).
    Tricky: with `backoff.steps <= 0` nothing is tried and nothing is raised, as in Go.
    """
    clk = or_real(clock)
    if clk.driven and backoff.rng is None:
        backoff = replace(backoff, rng=random.Random(0))
    last_err: Exception | None = None

    def condition() -> bool:
        nonlocal last_err
        try:
            fn()
        except Exception as err:  # noqa: BLE001 - `retriable` decides, as Go's switch on err does
            if not retriable(err):
                raise
            last_err = err
            return False
        return True

    try:
        wait.exponential_backoff(backoff, condition, clk)
    except wait.WaitTimeoutError:
        if last_err is not None:  # Go: steps <= 0 never calls fn, and OnError then returns nil
            raise last_err from None


def retry_on_conflict(backoff: wait.Backoff, fn: Callable[[], None], clock: Clock | None = None) -> None:
    """Port of RetryOnConflict: on_error with errors.is_conflict as the test (Go's usual write retry)."""
    on_error(backoff, errors.is_conflict, fn, clock)
