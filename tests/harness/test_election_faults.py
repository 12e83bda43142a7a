"""Tests for minikcm/harness/election_faults.py: seeded leader-election fault schedules (no upstream twin)."""

from __future__ import annotations

import logging
from datetime import timedelta
from fractions import Fraction

import pytest

from minikcm.clock import EPOCH, FakeClock
from minikcm.harness import election_faults as ef
from minikcm.harness.election_faults import Fault, Schedule, generate, run_schedule

pytestmark = pytest.mark.slow  # the quick loop (`-m "not slow"`) leaves these out

CI_SEEDS = range(1, 31)


@pytest.fixture(autouse=True)
def quiet_electors():
    """The electors log every injected failure; keep the test output readable."""
    log = logging.getLogger("minikcm.tools.leaderelection")
    level = log.level
    log.setLevel(logging.CRITICAL)
    yield
    log.setLevel(level)


@pytest.mark.parametrize("seed", CI_SEEDS, ids=lambda s: f"seed-{s}")
def test_schedule_keeps_the_invariants(seed):
    result = run_schedule(generate(seed))
    replay = f"python -m minikcm.harness.election_faults --schedules 1 --seed {seed} --verbose"
    assert result.violations == [], f"{result.schedule.describe()}\nreplay: {replay}"
    if result.schedule.ratio <= ef.NO_OVERLAP_RATIO:
        assert result.max_overlap == 0.0, "a cut-off leader gives up before anyone may take over"


def test_ci_seeds_cover_every_fault_and_both_sides_of_tolerance():
    schedules = [generate(seed) for seed in CI_SEEDS]
    kinds = {f.kind for s in schedules for f in s.faults}
    modes = {f.mode for s in schedules for f in s.faults if f.kind == "partition"}
    assert kinds == {"crash", "partition", "errors"} and modes == {"both", "writes", "reads"}
    assert {s.within_tolerance for s in schedules} == {True, False}


def test_same_seed_same_run():
    a, b = run_schedule(generate(7)), run_schedule(generate(7))
    assert a.log == b.log and a.max_takeover == b.max_takeover and a.transitions == b.transitions
    assert generate(7).describe() == generate(7).describe() != generate(8).describe()


def test_beyond_tolerance_two_leaders_overlap():
    # Leader a (clock at half speed) is cut off at t=30: by its clock it keeps leading until retry + renew
    # deadline (12 s of its own, 24 real s) after its last renewal at t=28, so until t=52. Standby b (double
    # speed) saw that renewal at ~29.6 and takes over 15 of its seconds (7.5 real s) later.
    result = run_schedule(ef.beyond_tolerance_overlap())
    assert not result.schedule.within_tolerance
    assert result.max_overlap > ef.RENEW_DEADLINE
    assert result.max_overlap == pytest.approx(52.0 - 37.112, abs=0.01)
    assert result.violations == [], "beyond tolerance the overlap is measured, not a violation"
    assert any("overlap begins: ['a', 'b']" in line for line in result.log)


def test_same_partition_within_tolerance_has_no_overlap():
    s = ef.beyond_tolerance_overlap()
    within = Schedule(1, {"a": Fraction(895, 1000), "b": Fraction(1118, 1000), "c": Fraction(1)}, s.offsets,
                      s.faults, s.restart_delay)
    result = run_schedule(within)
    assert within.within_tolerance
    assert result.max_overlap == 0.0 and result.violations == []
    assert any("a stopped leading" in line for line in result.log) and result.transitions >= 1


def test_within_tolerance_overlap_is_shorter_than_the_renew_deadline():
    # Rates 0.817 and 1.224 (ratio 1.498, inside upstream's 15/10 but above 15/12): the standby may take
    # over up to 12/0.817 - 15/1.224 = 2.4 s before the cut-off leader gives up, never a renew deadline.
    s = ef.beyond_tolerance_overlap()
    edge = Schedule(1, {"a": Fraction(817, 1000), "b": Fraction(1224, 1000), "c": Fraction(1)}, s.offsets,
                    s.faults, s.restart_delay)
    result = run_schedule(edge)
    assert edge.within_tolerance and edge.ratio > ef.NO_OVERLAP_RATIO
    assert 0.0 < result.max_overlap < ef.RENEW_DEADLINE
    assert result.violations == []


def test_overlap_check_can_fail(monkeypatch):
    # Widen the tolerance so the overlapping schedule counts as "within": invariant 1 must then report it.
    monkeypatch.setattr(ef, "TOLERANCE", Fraction(100))
    result = run_schedule(ef.beyond_tolerance_overlap())
    assert [v for v in result.violations if "believed they led" in v]


def test_takeover_check_can_fail(monkeypatch):
    # With a bound shorter than a lease duration, the crash of the leader must be reported.
    monkeypatch.setattr(ef, "TAKEOVER_BOUND", 5.0)
    schedule = Schedule(3, {s: Fraction(1) for s in ef.SLOTS}, {s: 0.0 for s in ef.SLOTS},
                        (Fault("crash", 30.0, "leader"),), restart_delay=(1000.0, 1000.0))
    result = run_schedule(schedule)
    assert [v for v in result.violations if "was not written" in v]


def test_crashed_leader_is_replaced_within_the_bound():
    schedule = Schedule(3, {s: Fraction(1) for s in ef.SLOTS}, {s: 0.0 for s in ef.SLOTS},
                        (Fault("crash", 30.0, "leader"),), restart_delay=(1000.0, 1000.0))
    result = run_schedule(schedule)
    assert result.violations == [] and result.transitions == 1
    assert ef.LEASE_DURATION < result.max_takeover <= ef.TAKEOVER_BOUND


def test_partitioned_leader_steps_down_and_is_replaced():
    schedule = Schedule(4, {s: Fraction(1) for s in ef.SLOTS}, {s: 0.0 for s in ef.SLOTS},
                        (Fault("partition", 30.0, "leader", 40.0, "writes"),))
    result = run_schedule(schedule)
    assert result.violations == [] and result.max_overlap == 0.0
    assert any("a stopped leading" in line for line in result.log)
    assert result.transitions >= 1


def test_skewed_clock_round_trips_wakeups():
    shared = FakeClock(EPOCH, driven=True)
    clock = ef.SkewedClock(shared, Fraction(1118, 1000), offset=-1234.5)
    shared.step(3.3)
    target = clock.now() + timedelta(seconds=2.0)
    at = clock.to_shared(target)
    shared.set_time(at)
    assert clock.now() >= target
    shared.set_time(at - timedelta(microseconds=1))
    assert clock.now() < target
    assert clock.since(target - timedelta(seconds=1)) == pytest.approx(1.0, abs=1e-5)


def test_cli_reports_and_exits_zero(capsys):
    assert ef.main(["--schedules", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "3 schedules (seeds 1..3)" in out and "violations: 0" in out
