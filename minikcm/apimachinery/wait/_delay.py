"""Port of k8s.io/apimachinery/pkg/util/wait/delay.go.

A DelayFunc is any function that returns the next interval to wait; a
Backoff's `delay_func()` is the usual source. This file turns one into a Timer
or into a polling loop.

Start reading at: delay_func_until.

Not ported: DelayFunc.Concurrent (it only wraps the function in a lock).
Differs from Go: Go's methods on the DelayFunc type are module functions that
take the function as their first argument (DelayFunc.Timer is
delay_func_timer, DelayFunc.Until is delay_func_until).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from minikcm.apimachinery.wait._loop import loop_condition_until
from minikcm.apimachinery.wait._timer import Timer, VariableTimer
from minikcm.apimachinery.wait._wait import ConditionFunc
from minikcm.clock import Clock, Seconds, or_real

DelayFunc = Callable[[], Seconds]
"""Port of DelayFunc (delay.go): returns the next interval to wait."""


def delay_func_timer(fn: DelayFunc, clock: Clock) -> Timer:
    """Port of DelayFunc.Timer (delay.go): a Timer whose every interval comes from `fn`."""
    return VariableTimer(fn, clock)


def delay_func_until(
    fn: DelayFunc,
    immediate: bool,
    sliding: bool,
    condition: ConditionFunc,
    stop: threading.Event | None = None,
    clock: Clock | None = None,
) -> None:
    """Port of DelayFunc.Until (delay.go): loop_condition_until with intervals from `fn`.

    Blocks: until the condition holds, or raises; see loop_condition_until.
    """
    clk = or_real(clock)
    loop_condition_until(VariableTimer(fn, clk), immediate, sliding, condition, stop, clk)
