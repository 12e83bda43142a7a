"""Port of k8s.io/apimachinery/pkg/util/wait: the loops minikcm is built from.

`until` runs a step function again and again with a pause between runs
(controller workers, the informer's processing loop); the poll family calls a
condition until it holds, fails, is stopped or times out (waiting for caches to
sync, leader-election renewals); `Backoff` and the backoff managers space out
retries. Go code imports the package as a unit (`wait.Until`), and so do we:
`from minikcm.apimachinery import wait`.

One private module per upstream file, in upstream's order: `_error.py`
(error.go), `_wait.py` (wait.go), `_backoff.py` (backoff.go), `_delay.py`
(delay.go), `_timer.py` (timer.go), `_loop.py` (loop.go), `_poll.py` (poll.go).
Each module's docstring lists what it does not port and where it differs.

Start reading at: backoff_until (the loop behind until and jitter_until), then
loop_condition_until (the loop behind poll_until), then Backoff.step and delay.

Differs from Go: the module files carry a leading underscore because two of
the package's functions share a name with a file (`delay` in backoff.go, `Poll`
in poll.go). A submodule named `delay` would hide the function `wait.delay`
from mkdocstrings and from `minikcm demo run --break`. There is no process-wide
run-mode switch: a `Group` runs inline when its caller says so
(`Group(inline=clock.driven)`). `jitter_rand` is re-exported from `_wait`; a
test that replaces it patches `_wait.jitter_rand`. No submodule imports this
package, so the package imports them in a straight line.
"""

from minikcm.apimachinery.wait._error import (
    ContextCanceledError,
    DeadlineExceededError,
    WaitTimeoutError,
    error_interrupted,
    interrupted,
)
from minikcm.apimachinery.wait._wait import NEVER_STOP, ConditionFunc, Group, jitter, jitter_rand
from minikcm.apimachinery.wait._backoff import (
    MAX_INT32,
    Backoff,
    BackoffManager,
    ExponentialBackoffManager,
    JitteredBackoffManager,
    ResettingBackoffManager,
    backoff_until,
    delay,
    exponential_backoff,
    forever,
    jitter_until,
    new_exponential_backoff_manager,
    new_jittered_backoff_manager,
    non_sliding_until,
    until,
)
from minikcm.apimachinery.wait._delay import DelayFunc, delay_func_timer, delay_func_until
from minikcm.apimachinery.wait._timer import FixedTimer, NoopTimer, Timer, VariableTimer
from minikcm.apimachinery.wait._loop import loop_condition_until
from minikcm.apimachinery.wait._poll import (
    legacy_poll,
    poll,
    poll_immediate,
    poll_immediate_infinite,
    poll_immediate_until,
    poll_infinite,
    poll_until,
    poll_until_context_cancel,
    poll_until_context_timeout,
)
from minikcm.clock import Seconds

__all__ = [
    # error.go
    "WaitTimeoutError",
    "ContextCanceledError",
    "DeadlineExceededError",
    "interrupted",
    "error_interrupted",
    # wait.go
    "NEVER_STOP",
    "Group",
    "forever",
    "jitter_rand",
    "jitter",
    "ConditionFunc",
    # backoff.go
    "MAX_INT32",
    "Backoff",
    "delay",
    "until",
    "non_sliding_until",
    "jitter_until",
    "backoff_until",
    "ResettingBackoffManager",
    "BackoffManager",
    "ExponentialBackoffManager",
    "new_exponential_backoff_manager",
    "JitteredBackoffManager",
    "new_jittered_backoff_manager",
    "exponential_backoff",
    # delay.go
    "DelayFunc",
    "delay_func_timer",
    "delay_func_until",
    # timer.go
    "Timer",
    "NoopTimer",
    "VariableTimer",
    "FixedTimer",
    # loop.go
    "loop_condition_until",
    # poll.go
    "poll_until",
    "poll_until_context_cancel",
    "poll_until_context_timeout",
    "poll",
    "poll_infinite",
    "poll_immediate",
    "poll_immediate_until",
    "poll_immediate_infinite",
    "legacy_poll",
    # minikcm.clock
    "Seconds",
]
