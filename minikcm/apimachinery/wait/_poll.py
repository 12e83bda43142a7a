"""Port of k8s.io/apimachinery/pkg/util/wait/poll.go.

Call a condition every interval until it holds. `poll_until` is the modern
form (waiting for caches to sync, leader-election renewals); the legacy
`poll...` family keeps the older contract (a WaitTimeoutError when time runs
out) and runs on `legacy_poll`.

Start reading at: poll_until, then legacy_poll.

Not ported: the `...WithContext` twins (PollWithContext,
PollUntilWithContext, PollInfiniteWithContext, PollImmediateWithContext,
PollImmediateUntilWithContext, PollImmediateInfiniteWithContext); Go's legacy
`PollUntil(interval, condition, stopCh)` has no twin under that name, since
`poll_until` here is the modern core (see below).
Differs from Go:
- `poll_until(interval, timeout, immediate, condition, stop, clock)` is the one
  modern core (Go's PollUntilContextTimeout, or PollUntilContextCancel when
  `timeout` is None); both Go names exist as thin aliases.
- The legacy goroutine-and-channel plumbing (poller, waitForWithContext) is one
  loop, legacy_poll, that waits on the injected clock itself.
"""

from __future__ import annotations

import threading
from datetime import timedelta

from minikcm.apimachinery.wait._backoff import Backoff
from minikcm.apimachinery.wait._error import ContextCanceledError, DeadlineExceededError, WaitTimeoutError
from minikcm.apimachinery.wait._loop import _Done, loop_condition_until
from minikcm.apimachinery.wait._timer import FixedTimer
from minikcm.apimachinery.wait._wait import NEVER_STOP, ConditionFunc
from minikcm.clock import Clock, Seconds, or_real


def poll_until(
    interval: Seconds,
    timeout: Seconds | None,
    immediate: bool,
    condition: ConditionFunc,
    stop: threading.Event | None = None,
    clock: Clock | None = None,
) -> None:
    """Port of PollUntilContextTimeout / PollUntilContextCancel (poll.go): the modern poll.

    Calls `condition` every `interval` (first right away when `immediate`) until
    it returns True or raises, `stop` is set, or `timeout` seconds of `clock` time
    pass (None: no timeout; 0: already expired, as Go's zero timeout context).
    A slow condition makes the next call come at once, not later.
    Example: interval 1, timeout 2.5, never true: calls at t=1 and t=2, then
    DeadlineExceededError at t=2.5.

    Blocks: on `clock` between calls.
    Raises:
        ContextCanceledError: `stop` was set.
        DeadlineExceededError: the timeout passed.
    """
    clk = or_real(clock)
    deadline = None if timeout is None else clk.now() + timedelta(seconds=timeout)
    timer = Backoff(duration=interval).timer(clk)
    loop_condition_until(timer, immediate, False, condition, stop, clk, deadline)


def poll_until_context_cancel(
    interval: Seconds,
    immediate: bool,
    condition: ConditionFunc,
    stop: threading.Event | None = None,
    clock: Clock | None = None,
) -> None:
    """Port of PollUntilContextCancel (poll.go): poll_until with no timeout."""
    poll_until(interval, None, immediate, condition, stop, clock)


def poll_until_context_timeout(
    interval: Seconds,
    timeout: Seconds,
    immediate: bool,
    condition: ConditionFunc,
    stop: threading.Event | None = None,
    clock: Clock | None = None,
) -> None:
    """Port of PollUntilContextTimeout (poll.go): poll_until under its upstream name."""
    poll_until(interval, timeout, immediate, condition, stop, clock)


def poll(interval: Seconds, timeout: Seconds, condition: ConditionFunc, clock: Clock | None = None) -> None:
    """Port of Poll (poll.go), legacy: wait `interval`, call, repeat; one last call at `timeout`.

    Raises:
        WaitTimeoutError: the timeout passed and the last call was not True.
    """
    legacy_poll(None, False, interval, timeout, condition, clock)


def poll_infinite(interval: Seconds, condition: ConditionFunc, clock: Clock | None = None) -> None:
    """Port of PollInfinite (poll.go), legacy: poll without a timeout, waiting before each call."""
    legacy_poll(None, False, interval, 0, condition, clock)


def poll_immediate(interval: Seconds, timeout: Seconds, condition: ConditionFunc, clock: Clock | None = None) -> None:
    """Port of PollImmediate (poll.go), legacy: `poll` with a first call before any wait."""
    legacy_poll(None, True, interval, timeout, condition, clock)


def poll_immediate_until(
    interval: Seconds, condition: ConditionFunc, stop: threading.Event, clock: Clock | None = None
) -> None:
    """Port of PollImmediateUntil (poll.go), legacy: call now, then every `interval` until `stop`.

    Raises:
        WaitTimeoutError: `stop` was set before the condition held (legacy
            callers expect this, not ContextCanceledError).
    """
    legacy_poll(stop, True, interval, 0, condition, clock)


def poll_immediate_infinite(interval: Seconds, condition: ConditionFunc, clock: Clock | None = None) -> None:
    """Port of PollImmediateInfinite (poll.go), legacy: call now, then every `interval`, for ever."""
    legacy_poll(None, True, interval, 0, condition, clock)


def legacy_poll(
    stop: threading.Event | None,
    immediate: bool,
    interval: Seconds,
    timeout: Seconds,
    condition: ConditionFunc,
    clock: Clock | None = None,
) -> None:
    """Port of poll, poller and waitForWithContext (poll.go, wait.go): the legacy poll loop.

    Waits for a tick every `interval` and calls `condition` on each. When
    `timeout` (0: none) passes, the condition is called one last time, as Go's
    closing tick channel does. A set `stop` ends the wait without that last call.
    Differs from Go: renamed (the exported Poll takes `poll`); no goroutine or
    channel, the loop waits on the clock itself.
    Raises:
        WaitTimeoutError: stopped, or timed out without the condition holding.
    """
    clk = or_real(clock)
    stop = stop if stop is not None else NEVER_STOP
    if immediate and condition():
        return
    if stop.is_set():
        raise WaitTimeoutError()
    # Go: poller starts its ticker and its timeout when waiting begins.
    deadline = clk.now() + timedelta(seconds=timeout) if timeout != 0 else None
    done = _Done(stop, clk, deadline)
    ticker = FixedTimer(interval, clk)
    try:
        while True:
            closed = False
            try:
                done.wait_for_tick(ticker)
            except ContextCanceledError:
                raise WaitTimeoutError() from None
            except DeadlineExceededError:
                closed = True  # Go: the poller closes its channel; one more call follows
            if condition():
                return
            if closed:
                raise WaitTimeoutError()
    finally:
        ticker.stop()
        done.release()
