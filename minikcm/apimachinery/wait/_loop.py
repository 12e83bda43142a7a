"""Port of k8s.io/apimachinery/pkg/util/wait/loop.go.

The one loop behind every modern poll: call a condition each time a timer
ticks, until it holds, raises, is stopped or runs past its deadline.
poll_until (minikcm.apimachinery.wait._poll) and DelayFunc.Until feed it.

Start reading at: loop_condition_until, then _Done.wait_for_tick.

Not ported: the crash protection around the condition (see _wait).
Differs from Go:
- Go's context is a `stop` event plus an optional deadline on the injected
  clock (`_Done`); being stopped raises ContextCanceledError and passing the
  deadline DeadlineExceededError.
- Go's `select` picks at random among ready channels. Here a set `stop` always
  wins, and when a tick and the deadline fall due at the same instant the
  deadline wins.
"""

from __future__ import annotations

import threading
from datetime import datetime

from minikcm.apimachinery.wait._error import ContextCanceledError, DeadlineExceededError
from minikcm.apimachinery.wait._timer import Timer
from minikcm.apimachinery.wait._wait import NEVER_STOP, ConditionFunc
from minikcm.clock import Clock, or_real
from minikcm.clock import Timer as ClockTimer


class _Done:
    """What a Go context gives the loops: a stop signal plus an optional deadline on a clock."""

    def __init__(self, stop: threading.Event, clock: Clock, deadline: datetime | None) -> None:
        self.stop = stop
        self.clock = clock
        self.deadline = deadline
        self._deadline_timer: ClockTimer | None = None  # made when we first wait for the deadline

    def check(self) -> None:
        """Go's ctx.Err(): raise if stopped or past the deadline (a stop takes precedence)."""
        if self.stop.is_set():
            raise ContextCanceledError()
        if self.deadline is not None and self.clock.now() >= self.deadline:
            raise DeadlineExceededError()

    def wait_for_tick(self, timer: Timer) -> None:
        """Block until `timer` ticks; raise instead if stopped or the deadline comes first.

        Go: the select between ctx.Done() and the timer channel.
        """
        self.check()
        tick_at = timer.ready_at()
        if tick_at is None:
            return
        if self.deadline is not None and tick_at >= self.deadline:  # a tie goes to the deadline
            if self._deadline_timer is None:
                self._deadline_timer = self.clock.new_timer(self.clock.until(self.deadline))
            self._deadline_timer.wait(self.stop)
            if self.stop.is_set():
                raise ContextCanceledError()
            raise DeadlineExceededError()
        if not timer.wait(self.stop):
            self.check()

    def release(self) -> None:
        if self._deadline_timer is not None:
            self._deadline_timer.stop()


def loop_condition_until(
    timer: Timer,
    immediate: bool,
    sliding: bool,
    condition: ConditionFunc,
    stop: threading.Event | None = None,
    clock: Clock | None = None,
    deadline: datetime | None = None,
) -> None:
    """Port of loopConditionUntilContext (loop.go): the one loop behind all modern polling.

    Calls `condition` each time `timer` ticks until it returns True (we return)
    or raises (it propagates). With `immediate` it is called once before the
    first wait, even if `stop` is already set. Without `sliding` the timer runs
    while the condition does; with it, each interval starts after the condition
    returns. `stop` and `deadline` play the caller's context: after every wait
    they are checked again before the condition runs.

    Blocks: on `clock` between ticks.
    Raises:
        ContextCanceledError: `stop` was set.
        DeadlineExceededError: `clock` reached `deadline`.
    """
    done = _Done(stop if stop is not None else NEVER_STOP, or_real(clock), deadline)
    try:
        if not sliding:
            timer.start()  # Go: t.C() before the first call, so the interval includes it
        if immediate and condition():
            return
        if sliding:
            timer.start()
        while True:
            done.wait_for_tick(timer)
            done.check()  # never call the condition again once stopped
            if not sliding:
                timer.next()
            if condition():
                return
            if sliding:
                timer.next()
    finally:
        timer.stop()  # Go: deferred t.Stop()
        done.release()
