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

Start reading at: RepeatFilter.filter.
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


def configure(level: int = logging.INFO) -> None:
    """Set up the root logger for a command, unless the caller already did: LOG_FORMAT, repeats thinned."""
    root = logging.getLogger()
    if root.handlers:
        return
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    handler.addFilter(RepeatFilter())
    root.addHandler(handler)
    root.setLevel(level)
