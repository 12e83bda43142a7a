"""No upstream twin. Log output of the long-running commands, with repeated lines thinned out.

A loop that fails the same way over and over (a conflict retried for minutes, a
watch that keeps breaking) would otherwise fill the terminal with one line per
retry. The commands (`minikcm up`, `apiserver`, `controller-manager`) install
`RepeatFilter` on their log handler: a WARNING or ERROR line identical to one
already written is let through only on its 1st, 2nd, 4th, 8th, ... occurrence,
with the count appended, so a thousand identical errors leave ten lines and
still say how often they happened. Lines below WARNING pass untouched.

The filter sits on the handler, not on the loggers: the port itself logs every
error as upstream does (runtime.handle_error), and anything else listening to
the loggers (a deterministic scenario's trace, a test's caplog) sees them all.
It counts occurrences rather than seconds, so what it writes does not depend on
how fast the machine is.

Verbosity is klog's `-v N`: at 0 (the default) a command writes only
warnings and errors, plus the lines of USER_ACTION_LOGGERS (what a user did to
the cluster: kubectl's writes as the HTTPS front answers them); `-v 1` to `-v 3`
add every INFO line (what the commands printed before there was a `-v`), `-v 4`
and up the DEBUG lines too. `--log-file` sends the lines to a file instead of
stderr.

Durations in log lines are written as Go's time.Duration.String writes them
(`1.5s`, `17h30m20s`, `250ms`): `duration_string`.

Start reading at: RepeatFilter.filter, then configure.
"""

from __future__ import annotations

import logging
import threading

LOG_FORMAT = "%(asctime)s %(threadName)s %(name)s: %(message)s"
"""The commands' log line: time, thread (named for its role), logger, message."""


class RepeatFilter(logging.Filter):
    """Lets an identical WARNING/ERROR line through only at occurrence 1, 2, 4, 8, ..., with its count.

    At most `capacity` distinct lines are remembered; the least recently seen
    one is forgotten first (and counts from 1 again if it comes back).
    Locking: `_lock` guards `_seen` (every thread logs).
    """

    def __init__(self, capacity: int = 1024, level: int = logging.WARNING) -> None:
        super().__init__()
        self.capacity = capacity
        self.level = level
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, int, str], int] = {}  # (logger, level, text) -> count, oldest first

    def __repr__(self) -> str:
        return f"<RepeatFilter lines={len(self._seen)}>"

    def count(self, key: tuple[str, int, str]) -> int:
        """Record one more occurrence of `key`; return how many there have been, this one included."""
        with self._lock:
            n = self._seen.pop(key, 0) + 1
            self._seen[key] = n  # re-inserted: now the most recently seen
            if len(self._seen) > self.capacity:
                del self._seen[next(iter(self._seen))]
            return n

    @staticmethod
    def should_log(n: int) -> bool:
        """True for the 1st, 2nd, 4th, 8th, ... occurrence (n a power of two)."""
        return n & (n - 1) == 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < self.level:
            return True
        text = record.getMessage()
        n = self.count((record.name, record.levelno, text))
        if not self.should_log(n):
            return False
        if n > 1:
            record.msg, record.args = f"{text} (identical line seen {n} times so far)", None
        return True


USER_ACTION_LOGGERS = ("minikcm.apiserver.http.access",)
"""Loggers whose INFO lines are written at verbosity 0: what a user did, as the cluster answered it."""


def verbosity_level(verbosity: int) -> int:
    """The logging level of klog's `-v N`: 0 WARNING, 1 to 3 INFO, 4 and up DEBUG."""
    if verbosity <= 0:
        return logging.WARNING
    return logging.INFO if verbosity < 4 else logging.DEBUG


def configure(verbosity: int = 0, log_file: str | None = None) -> None:
    """Set up the root logger for a command, unless the caller already did: LOG_FORMAT, repeats thinned.

    `verbosity` is klog's -v (see the module docstring); `log_file` (appended
    to) replaces stderr.
    """
    root = logging.getLogger()
    if root.handlers:
        return
    handler: logging.Handler = logging.FileHandler(log_file) if log_file else logging.StreamHandler()
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    handler.addFilter(RepeatFilter())
    root.addHandler(handler)
    level = verbosity_level(verbosity)
    root.setLevel(level)
    for name in USER_ACTION_LOGGERS:  # a logger's own level decides; the root's handler takes what comes
        logging.getLogger(name).setLevel(min(level, logging.INFO))


_UNITS = ((3600 * 10**9, "h"), (60 * 10**9, "m"))


def duration_string(seconds: float) -> str:
    """Port of Duration.String (Go's time/time.go): `1.5s`, `4m5.001s`, `5h6m7.001s`, `2.2ms`, `1.1µs`, `0s`.

    `seconds` is rounded to whole nanoseconds (a Go Duration's unit). Below a
    second the largest unit that keeps a digit before the point is used
    (ns, µs, ms); from a second on, hours and minutes lead and seconds carry
    the fraction. Trailing zeros of a fraction are dropped, and so is a point
    with nothing after it.
    """
    ns = round(seconds * 1e9)
    sign, u = ("-", -ns) if ns < 0 else ("", ns)
    if u == 0:
        return "0s"
    if u < 10**9:
        for scale, unit in ((1, "ns"), (10**3, "µs"), (10**6, "ms")):
            if u < scale * 1000:
                return f"{sign}{_with_fraction(u, scale)}{unit}"
    out = f"{_with_fraction(u % (60 * 10**9), 10**9)}s"
    u //= 60 * 10**9
    if u:
        out = f"{u % 60}m{out}"
        u //= 60
        if u:
            out = f"{u}h{out}"
    return sign + out


def _with_fraction(value: int, scale: int) -> str:
    """Port of fmtFrac and fmtInt: value/scale with the fraction's trailing zeros (and a bare point) dropped."""
    whole, frac = divmod(value, scale)
    if frac == 0:
        return str(whole)
    digits = str(frac).rjust(len(str(scale)) - 1, "0").rstrip("0")
    return f"{whole}.{digits}"
