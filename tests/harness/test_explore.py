"""Tests for minikcm.harness.explore and `minikcm explore`: interleaved schedules, invariants, mutants."""

from __future__ import annotations

import pytest

from minikcm import cli
from minikcm.harness.explore import Mutant, explore, play_schedule, replica_set_controllers
from minikcm.sim.scenarios import SCENARIOS, get_scenario

MUTANT_BUDGET = 20
"""Schedules within which each mutant must be caught (measured: expectations at schedule 2, consistency at 1)."""


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_every_scenario_keeps_its_invariants_under_a_few_interleaved_schedules(scenario: str) -> None:
    result = explore(scenario, 3, seed=1)
    assert [s.violation for s in result.schedules] == [None, None, None]
    assert result.last_line() == "explore: 3 schedules, 0 violations"


@pytest.mark.parametrize(("without", "scenario", "what"), [
    ("expectations", "replicaset-scale", "of rs web with only"),
    ("consistency", "replicaset-scale", "a ReplicaSet sync acted on a stale cache"),
    ("consistency", "rolling-update", "a ReplicaSet sync acted on a stale cache"),
])
def test_each_mutant_is_caught_within_the_budget(without: str, scenario: str, what: str) -> None:
    result = explore(scenario, MUTANT_BUDGET, seed=1, without=without, stop_at_first=True)
    assert result.violations, f"--without {without} survived {MUTANT_BUDGET} schedules of {scenario}"
    found = result.violations[0]
    assert what in found.violation
    assert found.replay_command() == (f"minikcm explore --scenario {scenario} --schedules 1 --seed {found.seed} "
                                      f"--without {without}")
    # The replay is the same schedule: same violation, same step.
    again = play_schedule(scenario, found.seed, without)
    assert (again.violation, again.steps) == (found.violation, found.steps)


def test_the_mutants_wrap_the_instance_not_the_class() -> None:
    run = get_scenario("rolling-update").build(1)
    (rsc,) = replica_set_controllers(run)
    assert Mutant("expectations").install(run) == 1
    assert rsc.expectations.satisfied_expectations("default/anything")
    fresh = replica_set_controllers(get_scenario("rolling-update").build(1))[0]
    assert type(fresh.expectations).__name__ == "UIDTrackingControllerExpectations"


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="schedules: Invalid value: 0"):
        explore("replicaset-scale", 0)
    with pytest.raises(ValueError, match="without: Unsupported value: 'retries'"):
        explore("replicaset-scale", 1, without="retries")
    with pytest.raises(ValueError, match="no ReplicaSet controller"):
        explore("leader-failover", 1, without="expectations")
    with pytest.raises(KeyError, match="unknown scenario"):
        explore("replicaset-scal", 1)


def test_cli_prints_violations_with_replay_and_the_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["explore", "--scenario", "replicaset-scale", "--schedules", "4", "--seed", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "explore: 4 schedules, 0 violations"
    assert cli.main(["explore", "--scenario", "replicaset-scale", "--schedules", "2", "--seed", "1",
                     "--without", "expectations"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "explore: 2 schedules, 1 violations"
    assert out[0].startswith("FAIL replicaset-scale seed 2 (")
    assert out[1] == "  replay: minikcm explore --scenario replicaset-scale --schedules 1 --seed 2 --without expectations"
    assert cli.main(["explore", "--scenario", "nope"]) == 2
    assert "unknown scenario 'nope'" in capsys.readouterr().err


def test_an_unmutated_violation_names_the_demo_command(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from minikcm.sim.scenarios import replicaset

    monkeypatch.setattr(replicaset.ReplicaSetScale, "no_violations",
                        lambda self: (_ for _ in ()).throw(self.cluster.violation("deliberately broken"))
                        if len(self.cluster.pods()) > 1 else None)
    assert cli.main(["explore", "--scenario", "replicaset-scale", "--schedules", "1", "--seed", "7"]) == 1
    out = capsys.readouterr().out
    assert "deliberately broken" in out
    assert "  replay: minikcm demo run replicaset-scale --seed 7 --schedule interleaved" in out
    assert out.splitlines()[-1] == "explore: 1 schedules, 1 violations"


def test_two_leaders_break_the_leader_invariant(monkeypatch: pytest.MonkeyPatch) -> None:
    from minikcm.sim.scenarios import leader

    monkeypatch.setattr(leader.LeaderFailover, "leader_count", lambda self: 2 if self.clock.now() > leader.EPOCH else 0)
    result = play_schedule("leader-failover", 1)
    assert result.violation is not None and "2 leaders" in result.violation
