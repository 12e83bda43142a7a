"""Tests for minikcm/apimachinery/wait/_timer.py: the fixed timer keeps its cadence (no upstream test file).

Most tests run on `AutoClock` (wait_testing.py), which jumps fake time to the next
deadline whenever code waits; tests marked `threaded` use real threads and the real clock.
"""

from __future__ import annotations

from minikcm.apimachinery import wait
from tests.apimachinery.wait.wait_testing import counting


def test_fixed_timer_drops_missed_ticks(clock):
    # A slow condition (2.5 s per call, interval 1 s) is called again at once, and
    # later ticks keep the 1 s cadence, as with Go's ticker.
    log: list[float] = []

    def slow(n: int) -> bool:
        clock.step(2.5)
        return n >= 3

    wait.poll_until(1.0, None, False, counting(slow, clock, log), clock=clock)
    assert log == [1.0, 3.5, 6.0]
