"""Port of k8s.io/apimachinery/pkg/util/runtime/runtime.go.

Two safety valves every long-running piece of minikcm uses:

- `handle_error(err, msg)` for an error that cannot be returned to anyone (a
  controller worker's failed sync, a watch that broke). It runs every handler in
  ERROR_HANDLERS: by default one logs the error, one slows a hot error loop
  down to at most one error per millisecond (rudimentaryErrorBackoff).
- `handle_crash()` for a thread that is dying of an exception. Called from an
  `except` block (where Go defers it and calls recover), it runs PANIC_HANDLERS
  (by default: log the traceback) and the caller's extra handlers, then
  re-raises unless REALLY_CRASH is False.

Start reading at: handle_error, then handle_crash.

Not ported: the WithContext/WithLogger variants (merged into handle_error's
optional `msg`), the http.ErrAbortHandler special case, RecoverFromPanic (a
Python exception already carries its traceback), klog call-depth bookkeeping.
Differs from Go:
- A Go panic is a Python exception; handlers receive the exception object.
- handle_error(err) with no message behaves like HandleError (None is ignored);
  with a message it behaves like HandleErrorWithContext (reported even for None).
- log_error attaches the traceback when its logger is enabled for DEBUG; Go
  never logs a stack for an unhandled error, but a Python reader debugging a
  swallowed exception needs to find where it came from.
- The error backoff takes its time from an injected clock (minikcm.clock,
  default the real one); Go reads time.Now and calls time.Sleep directly.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable

from minikcm.apimachinery.field import go_quote
from minikcm.clock import Clock, Seconds, or_real

logger = logging.getLogger(__name__)
unhandled_error_logger = logging.getLogger(__name__ + ".UnhandledError")
"""The logger log_error writes to (Go names its logger "UnhandledError")."""

REALLY_CRASH = True
"""Port of ReallyCrash: when False, handle_crash runs the handlers and lets the caller go on.
Read at call time, so tests may set it."""

PanicHandler = Callable[[BaseException], None]
ErrorHandler = Callable[..., None]
"""Port of ErrorHandler: called as fn(err, msg, *keys_and_values); err may be None."""


def log_panic(r: BaseException) -> None:
    """Port of logPanic (runtime.go): log the exception with its traceback."""
    logger.error('"Observed a panic" panic=%s', go_quote(str(r)), exc_info=(type(r), r, r.__traceback__))


PANIC_HANDLERS: list[PanicHandler] = [log_panic]
"""Port of PanicHandlers: run, in order, for every exception handle_crash sees."""


def handle_crash(*additional_handlers: PanicHandler) -> None:
    """Port of HandleCrash (runtime.go).

    Call it from an `except` block of a thread's outermost function:

        try:
            self.worker()
        except Exception:
            runtime.handle_crash()

    It runs PANIC_HANDLERS, then `additional_handlers`, with the exception being
    handled, and re-raises it when REALLY_CRASH is set. Outside an `except`
    block it does nothing (Go: recover() returns nil when there is no panic).
    """
    r = sys.exc_info()[1]
    if r is None:
        return
    for fn in PANIC_HANDLERS:
        fn(r)
    for fn in additional_handlers:
        fn(r)
    if REALLY_CRASH:
        raise  # Go: panic(r) again; the traceback stays the original one


def error_to_string(err: BaseException | None, msg: str, *keys_and_values: object) -> str:
    """Port of ErrorToString (runtime.go): the parameters as one klog-style text line.

    `"msg" err="boom" key=1 other="text"`. A multi-line string value becomes an
    indented block between `<` and ` >`; a key without a value gets "(MISSING)".
    """
    parts = [go_quote(msg)]
    if err is not None:
        parts.append(f"err={_format_value(str(err))}")
    kvs = list(keys_and_values)
    if len(kvs) % 2 == 1:
        kvs.append("(MISSING)")
    for key, value in zip(kvs[0::2], kvs[1::2]):
        parts.append(f"{key}={_format_value(value)}")
    return " ".join(parts)


def _format_value(value: object) -> str:
    # The klog text format: bare numbers and booleans, quoted strings, blocks for multi-line text.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    text = str(value)
    if "\n" in text:
        return "<\n" + "".join(f"\t{line}\n" for line in text.split("\n")) + " >"
    return go_quote(text)


def log_error(err: BaseException | None, msg: str, *keys_and_values: object) -> None:
    """Port of logError (runtime.go): log the error through unhandled_error_logger."""
    exc_info = None
    if err is not None and err.__traceback__ is not None and unhandled_error_logger.isEnabledFor(logging.DEBUG):
        exc_info = (type(err), err, err.__traceback__)
    unhandled_error_logger.error("%s", error_to_string(err, msg, *keys_and_values), exc_info=exc_info)


class RudimentaryErrorBackoff:
    """Port of rudimentaryErrorBackoff (runtime.go): at most one error per `min_period`.

    A caller reporting errors faster than that is made to wait the rest of the
    period, which keeps a hot failure loop from flooding the logs. Only the
    caller waits: the lock is released before sleeping.

    Thread: any; `last_error_time` is guarded by the lock.
    Tricky: with a FakeClock a positive wait blocks until another thread moves
    the clock, so deterministic runs keep the real clock here (the default).
    """

    def __init__(self, min_period: Seconds, clock: Clock | None = None) -> None:
        self.min_period = min_period  # immutable
        self.clock = or_real(clock)
        self._lock = threading.Lock()
        self.last_error_time = self.clock.now()  # guarded by _lock

    def reserve(self) -> Seconds:
        """Record an error now and return how long its reporter should wait (<= 0: not at all)."""
        now = self.clock.now()  # read before taking the lock, as upstream does
        with self._lock:
            since_last = (now - self.last_error_time).total_seconds()
            self.last_error_time = self.clock.now()
        return self.min_period - since_last

    def on_error(self) -> None:
        """Port of rudimentaryErrorBackoff.OnError: wait out the rest of the period.

        Blocks: for min_period minus the time since the previous error, if positive.
        """
        wait = self.reserve()
        if wait > 0:
            self.clock.sleep(wait)


def backoff_error(min_period: Seconds, clock: Clock | None = None) -> ErrorHandler:
    """Port of backoffError (runtime.go): an error handler that waits as RudimentaryErrorBackoff says."""
    backoff = RudimentaryErrorBackoff(min_period, clock)

    def on_error(err: BaseException | None, msg: str, *keys_and_values: object) -> None:
        backoff.on_error()

    return on_error


ERROR_HANDLERS: list[ErrorHandler] = [log_error, backoff_error(0.001)]
"""Port of ErrorHandlers: run, in order, for every handle_error call. Read at call time."""


def handle_error(err: BaseException | None, msg: str | None = None, *keys_and_values: object) -> None:
    """Port of HandleError and HandleErrorWithContext (runtime.go).

    Reports an error nobody can return to: every handler in ERROR_HANDLERS is
    called with (err, msg, *keys_and_values). Without `msg`, a None `err` is
    ignored and the message is "Unhandled Error"; with `msg`, the report is made
    even for a None `err` (the message then says what went wrong).

    Blocks: briefly, when errors come faster than one per millisecond.
    """
    if msg is None:
        if err is None:
            return  # HandleError tolerates nil
        msg = "Unhandled Error"
    for fn in ERROR_HANDLERS:
        fn(err, msg, *keys_and_values)


def get_caller() -> str:
    """Port of GetCaller (runtime.go): the qualified name of the function that called our caller."""
    frame = sys._getframe(2)
    return f"{frame.f_globals.get('__name__', '?')}.{frame.f_code.co_qualname}"


def must(err: BaseException | None) -> None:
    """Port of Must (runtime.go): raise `err` when it is not None (Go panics)."""
    if err is not None:
        raise err
