"""Port of k8s.io/apimachinery/pkg/util/wait/error.go.

How a wait loop says it was cut short. Loops that end for any reason other than
their condition holding raise one of the three exceptions here; callers ask
`interrupted(err)` rather than comparing identities.

Start reading at: interrupted, then WaitTimeoutError.

Not ported: the private errInterrupted.Is hook (isinstance does its job).
Differs from Go:
- Errors are exceptions: ErrWaitTimeout and errInterrupted are one class,
  WaitTimeoutError, and every raise is a fresh instance, so test with
  `interrupted(err)` or `isinstance`, never identity.
- context.Canceled and context.DeadlineExceeded have stand-ins here
  (ContextCanceledError, DeadlineExceededError), since a `stop` event and a
  deadline on the injected clock play the context's part.
"""

from __future__ import annotations


class WaitTimeoutError(Exception):
    """Port of errInterrupted and ErrWaitTimeout (error.go).

    Raised when a loop ends for any reason other than its condition returning
    True or raising: a timeout, a stop, or a backoff out of steps. `cause`, when
    set, is the reason, and is also the exception's `__cause__` (Go's Unwrap).
    """

    def __init__(self, cause: BaseException | None = None) -> None:
        message = str(cause) if cause is not None else "timed out waiting for the condition"
        super().__init__(message)
        self.cause = cause
        self.__cause__ = cause  # Go: Unwrap


class ContextCanceledError(Exception):
    """Stand-in for context.Canceled: the loop's `stop` event was set."""

    def __init__(self, message: str = "context canceled") -> None:
        super().__init__(message)


class DeadlineExceededError(Exception):
    """Stand-in for context.DeadlineExceeded: the loop's timeout passed on its clock."""

    def __init__(self, message: str = "context deadline exceeded") -> None:
        super().__init__(message)


def interrupted(err: BaseException | None) -> bool:
    """Port of Interrupted (error.go).

    True when `err`, or an exception it wraps through `__cause__` (Go's
    errors.Is walking Unwrap), says a loop was cut short: a wait timeout, a stop,
    or a deadline. An exception that merely mentions one in its message is not.
    """
    seen: set[int] = set()
    while err is not None and id(err) not in seen:
        if isinstance(err, (WaitTimeoutError, ContextCanceledError, DeadlineExceededError)):
            return True
        seen.add(id(err))
        err = err.__cause__
    return False


def error_interrupted(cause: BaseException | None) -> WaitTimeoutError:
    """Port of ErrorInterrupted (error.go): wrap `cause` so interrupted() is True, once only."""
    if isinstance(cause, WaitTimeoutError):
        return cause
    return WaitTimeoutError(cause)
