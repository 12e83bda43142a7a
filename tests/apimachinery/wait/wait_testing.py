"""Shared helpers for the tests of minikcm.apimachinery.wait: a clock that jumps and counting conditions."""

from __future__ import annotations

import threading

from minikcm.clock import EPOCH, FakeClock, FakeTimer


class AutoTimer:
    """Wraps a FakeTimer; waiting on it moves the fake time on instead of blocking."""

    def __init__(self, clock: AutoClock, inner: FakeTimer) -> None:
        self.clock = clock
        self.inner = inner

    @property
    def deadline(self):
        return self.inner.deadline

    def fired(self) -> bool:
        return self.inner.fired()

    def stop(self) -> bool:
        return self.inner.stop()

    def reset(self, d: float) -> bool:
        return self.inner.reset(d)

    def wait(self, stop: threading.Event | None = None) -> bool:
        while not self.inner.fired():
            if (stop is not None and stop.is_set()) or self.inner.dead:
                return False
            if not self.clock.step_to_next_waiter():
                raise AssertionError("a single-threaded test would block for ever here")
        return True


class AutoClock(FakeClock):
    """A FakeClock for single-threaded tests: a wait jumps the time to the next deadline."""

    def new_timer(self, d: float) -> AutoTimer:  # type: ignore[override]
        return AutoTimer(self, super().new_timer(d))

    def after(self, d: float) -> AutoTimer:  # type: ignore[override]
        return self.new_timer(d)



def elapsed(clock: FakeClock) -> float:
    return (clock.now() - EPOCH).total_seconds()


def counting(results, clock: FakeClock | None = None, log: list | None = None):
    """A condition returning `results(attempt)`; counts calls in .attempts and logs fake times."""

    def condition() -> bool:
        condition.attempts += 1
        if log is not None and clock is not None:
            log.append(elapsed(clock))
        return results(condition.attempts)

    condition.attempts = 0
    return condition


def never(_: int) -> bool:
    return False


def always(_: int) -> bool:
    return True


class ConditionFailed(Exception):
    pass


def fail(_: int) -> bool:
    raise ConditionFailed("condition failed")

