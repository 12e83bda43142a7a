"""Tests for minikcm.driver: scheduling order, clock jumps, determinism, loop detection."""

from __future__ import annotations

from datetime import timedelta

import pytest

from minikcm.clock import EPOCH
from minikcm.driver import Driver, ScenarioDidNotSettle, Step


class Countdown:
    """A toy component: a counter that one step decrements, another refills after a delay."""

    def __init__(self, clock, n):
        self.clock = clock
        self.n = n
        self.refill_at = None
        self.log = []

    def steps(self):
        return [
            Step("countdown/tick", lambda: self.n > 0, self.tick),
            Step("countdown/refill", self.refill_due, self.refill, wakeup=lambda: self.refill_at),
        ]

    def tick(self):
        self.n -= 1
        self.log.append(("tick", self.n))
        if self.n == 0 and not self.log.count(("refill", 2)):
            self.refill_at = self.clock.now() + timedelta(seconds=10)

    def refill_due(self):
        return self.refill_at is not None and self.clock.now() >= self.refill_at

    def refill(self):
        self.refill_at = None
        self.n = 2
        self.log.append(("refill", 2))


def test_run_until_idle_jumps_the_clock_to_the_next_wakeup(driven_clock):
    c = Countdown(driven_clock, 2)
    d = Driver(driven_clock, c.steps())
    d.run_until_idle()
    assert c.log == [("tick", 1), ("tick", 0), ("refill", 2), ("tick", 1), ("tick", 0)]
    assert driven_clock.now() == EPOCH + timedelta(seconds=10)


def test_trace_is_identical_across_runs():
    from minikcm.clock import FakeClock

    def one_run():
        clock = FakeClock(EPOCH, driven=True)
        d = Driver(clock, Countdown(clock, 3).steps())
        d.run_until_idle()
        return d.trace_text()

    assert one_run() == one_run()
    assert "countdown/refill" in one_run()


def test_run_for_stops_at_the_limit(driven_clock):
    c = Countdown(driven_clock, 1)
    d = Driver(driven_clock, c.steps())
    d.run_for(5)
    assert driven_clock.now() == EPOCH + timedelta(seconds=5)
    assert ("refill", 2) not in c.log


def test_clock_waiters_count_as_wakeups(driven_clock):
    timer = driven_clock.new_timer(3)
    seen = []
    d = Driver(driven_clock, [Step("watch-timer", lambda: timer.fired() and not seen,
                                 lambda: seen.append(driven_clock.now()))])
    d.run_until_idle()
    assert driven_clock.now() == EPOCH + timedelta(seconds=3)
    assert [e.step for e in d.trace] == ["watch-timer"]


def test_a_step_that_never_idles_is_reported(driven_clock):
    d = Driver(driven_clock, [Step("spinner", lambda: True, lambda: None)])
    with pytest.raises(ScenarioDidNotSettle, match="spinner"):
        d.run_until_idle(max_rounds=50)


def test_run_until_predicate(driven_clock):
    c = Countdown(driven_clock, 5)
    d = Driver(driven_clock, c.steps())
    assert d.run_until(lambda: c.n == 2)
    assert c.n == 2


def test_record_and_json_lines(driven_clock):
    d = Driver(driven_clock)
    d.record("lease", "holder=a")
    line = d.trace_json_lines().strip()
    assert '"detail": "holder=a"' in line and '"step": "lease"' in line


def test_a_stale_wakeup_does_not_end_run_for_early(driven_clock):
    # A step reports a wakeup in the past but is not ready; run_for must still reach its end.
    later = []
    steps = [
        Step("stale", lambda: False, lambda: None, wakeup=lambda: EPOCH),
        Step("later", lambda: driven_clock.now() >= EPOCH + timedelta(seconds=5) and not later,
             lambda: later.append(driven_clock.now()),
             wakeup=lambda: EPOCH + timedelta(seconds=5)),
    ]
    driven_clock.step(1)
    Driver(driven_clock, steps).run_for(10)
    assert later == [EPOCH + timedelta(seconds=5)]
    assert driven_clock.now() == EPOCH + timedelta(seconds=11)


UNDRIVEN_CLOCK_CASES = [
    pytest.param("fake", id="plain-FakeClock"),
    pytest.param("real", id="RealClock"),
]


@pytest.mark.parametrize("kind", UNDRIVEN_CLOCK_CASES)
def test_driver_refuses_a_clock_that_is_not_driven(kind):
    """Components read `clock.driven` once to decide threads or steps; a Driver must not drive a threaded world."""
    from minikcm.clock import FakeClock, RealClock

    clock = FakeClock(EPOCH) if kind == "fake" else RealClock()
    with pytest.raises(ValueError, match="driven clock"):
        Driver(clock)


def test_driver_accepts_a_driven_clock():
    from minikcm.clock import FakeClock

    assert Driver(FakeClock(EPOCH, driven=True)).steps == []


# -- the ordering rule: delivery steps first, work steps only in a round with no delivery ready -------------


def test_work_waits_until_every_delivery_step_is_drained(driven_clock):
    events = [1, 2, 3]
    queued: set[str] = set()
    log: list[str] = []

    def deliver():
        events.pop(0)
        queued.add("web")  # the handler queues the same key for every event
        log.append("deliver")

    def work():
        queued.clear()
        log.append("sync")

    d = Driver(driven_clock, [Step("worker", lambda: bool(queued), work),
                              Step("informer", lambda: bool(events), deliver, delivers=True)])
    d.run_until_idle()
    # The worker comes first in the list, yet it waits for the burst: three events, one sync.
    assert log == ["deliver", "deliver", "deliver", "sync"]


def test_a_round_runs_either_deliveries_or_work(driven_clock):
    ran: list[str] = []
    pending = {"delivery": 1, "work": 1}

    def step(kind):
        def run():
            pending[kind] -= 1
            ran.append(kind)
        return run

    d = Driver(driven_clock, [Step("w", lambda: pending["work"] > 0, step("work")),
                              Step("d", lambda: pending["delivery"] > 0, step("delivery"), delivers=True)])
    assert d.run_once() and ran == ["delivery"]
    assert d.run_once() and ran == ["delivery", "work"]
    assert not d.run_once()


def test_a_delivery_step_that_never_settles_is_reported(driven_clock):
    d = Driver(driven_clock, [Step("reflector/spin", lambda: True, lambda: None, delivers=True),
                              Step("worker", lambda: True, lambda: None)])
    with pytest.raises(ScenarioDidNotSettle, match="reflector/spin"):
        d.run_until_idle(max_rounds=50)


def test_renamed_keeps_the_kind(driven_clock):
    s = Step("informer/pods/listeners", lambda: True, lambda: None, delivers=True)
    assert s.renamed("cm-a/informers/" + s.name).delivers


# -- schedule policies ---------------------------------------------------------------------------------------


def _pipeline(clock, schedule):
    """A toy pipeline: a writer (work) puts 3 events into a buffer, a delivery step moves one per call into a cache."""
    from minikcm.driver import Step

    buffer, cache, seen = [], [], []

    def write():
        buffer.extend(["a", "b", "c"])
        state["written"] = True

    def deliver():
        cache.append(buffer.pop(0))

    def read():
        seen.append(len(cache))
        state["reads"] += 1

    state = {"written": False, "reads": 0}
    steps = [Step("deliver", lambda: bool(buffer), deliver, delivers=True),
             Step("read", lambda: state["written"] and state["reads"] < 3, read),
             Step("write", lambda: not state["written"], write)]
    d = Driver(clock, steps, schedule=schedule)
    return d, seen


def test_deliver_first_is_the_default_and_drains_before_work(driven_clock):
    from minikcm.driver import DeliverFirst

    d, seen = _pipeline(driven_clock, DeliverFirst())
    assert Driver(driven_clock).schedule.name == "deliver-first"
    d.run_until_idle()
    assert seen == [3, 3, 3]  # a reader never sees a cache behind the write


def test_interleaved_lets_a_worker_read_a_cache_that_lags():
    from minikcm.clock import FakeClock
    from minikcm.driver import Interleaved

    lagged = []
    for seed in range(20):
        clock = FakeClock(EPOCH, driven=True)
        d, seen = _pipeline(clock, Interleaved(seed))
        d.run_until_idle()
        assert len(seen) == 3
        lagged.append(min(seen) < 3)
    assert any(lagged) and not all(lagged)


def test_interleaved_runs_one_ready_step_per_round(driven_clock):
    from minikcm.driver import Interleaved

    d, _ = _pipeline(driven_clock, Interleaved(1))
    assert d.run_once()
    assert [e.step for e in d.trace] == ["write"]  # the only ready step
    assert d.run_once()
    assert len(d.trace) == 2


def test_interleaved_same_seed_same_trace_byte_for_byte():
    from minikcm.driver import Interleaved
    from minikcm.sim.scenarios import get_scenario

    def one(seed):
        run = get_scenario("replicaset-scale").build(seed)
        run.driver.schedule = Interleaved(seed)
        return run.run().to_json_lines()

    first = one(3)
    assert first == one(3)
    assert first != one(4)
    deliver_first = get_scenario("replicaset-scale").build(3).run().to_json_lines()
    assert first != deliver_first


def test_new_schedule_names_and_bad_input():
    from minikcm.driver import SCHEDULES, DeliverFirst, Interleaved, new_schedule

    assert SCHEDULES == ("deliver-first", "interleaved")
    assert isinstance(new_schedule("deliver-first", 5), DeliverFirst)
    policy = new_schedule("interleaved", 5)
    assert isinstance(policy, Interleaved) and policy.seed == 5
    with pytest.raises(ValueError, match="schedule: Unsupported value: 'random'"):
        new_schedule("random", 5)
