"""Tests for minikcm.sim.scenarios: the table, determinism, each scenario's claim, and the machinery under them."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from rich.console import Console

from minikcm.clock import EPOCH, FakeClock
from minikcm.driver import Driver, Step
from minikcm.sim.scenarios import (
    SCENARIOS,
    Run,
    Sampler,
    ScenarioResult,
    UnknownScenarioError,
    get_scenario,
    run_scenario,
)
from minikcm.sim.scenarios.leader import CRASH_AT, LEASE_DURATION, TAKEOVER_BOUND
from minikcm.sim.scenarios.live import play_live

CONTRACT_NAMES = ["leader-failover", "informer-relist", "workqueue-retry", "wait-backoff"]
CHAPTERS = {"overview", "p1", "p2", "p3", "p4", "p5", "wait"}


def play(name, seed=1):
    """Build and play a scenario; return (run, result) so tests can look at the objects too."""
    run = get_scenario(name).build(seed)
    return run, run.run()


def values(points):
    return [v for _, v in points]


# -- the table ------------------------------------------------------------------------------------

def test_table_holds_the_contract_names_with_chapters_and_titles():
    assert list(SCENARIOS)[:4] == CONTRACT_NAMES
    for name, scenario in SCENARIOS.items():
        assert scenario.name == name
        assert scenario.chapter in CHAPTERS
        assert scenario.title_en and scenario.title_zh and scenario.title_en != scenario.title_zh
        assert callable(scenario.build)


UNKNOWN_CASES = [
    pytest.param("leader", ["leader-failover"], id="prefix"),
    pytest.param("informer-relsit", ["informer-relist"], id="typo"),
    pytest.param("zzz", CONTRACT_NAMES, id="nothing-close-lists-all"),
]


@pytest.mark.parametrize("name, suggested", UNKNOWN_CASES)
def test_unknown_scenario_lists_close_matches(name, suggested):
    with pytest.raises(KeyError) as info:
        get_scenario(name)
    assert isinstance(info.value, UnknownScenarioError)
    message = str(info.value)
    assert message.startswith(f"unknown scenario {name!r}")
    assert all(s in message for s in suggested)


# -- determinism --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(SCENARIOS))
def test_same_seed_same_result(name):
    first, second = run_scenario(name, seed=1), run_scenario(name, seed=1)
    assert first.to_json_lines() == second.to_json_lines()
    assert first.trace and first.series
    assert first.trace[0].time == EPOCH


@pytest.mark.parametrize("name", ["leader-failover", "informer-relist", "wait-backoff"])
def test_the_seed_matters_where_something_is_random(name):
    assert run_scenario(name, seed=1).trace_text() != run_scenario(name, seed=2).trace_text()


def test_a_run_plays_once():
    run = get_scenario("workqueue-retry").build(1)
    run.run()
    with pytest.raises(RuntimeError, match="already run"):
        run.run()


# -- leader-failover -----------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_leader_failover_one_leader_and_a_timely_takeover(seed):
    run, result = play("leader-failover", seed)
    scenario = run.objects["scenario"]
    assert scenario.max_leaders == 1
    assert max(values(result.series["leaders"])) == 1  # sampled after every step: never two
    before_crash = [v for t, v in result.series["leaders"] if 0 < t < CRASH_AT]
    assert before_crash in ([], [1])  # one leader from the first step until the crash
    assert values(result.series["leaders"])[-1] == 1

    crashed, takeover = scenario.crashed, scenario.takeover
    assert takeover is not None and takeover.who != crashed
    assert LEASE_DURATION <= takeover.after <= TAKEOVER_BOUND
    assert takeover.at - scenario.last_renewal >= timedelta(seconds=LEASE_DURATION)
    assert values(result.series["lease holder"])[-2:] == [crashed, takeover.who]
    assert values(result.series["leader transitions"])[-1] == 1
    assert values(result.series[f"{crashed} is leader"])[-1] == 0
    assert f"Normal LeaderElection {takeover.who} became leader" in result.events


# -- informer-relist --------------------------------------------------------------------------------------

def test_informer_relists_after_410_and_the_cache_matches_the_server():
    run, result = play("informer-relist")
    scenario = run.objects["scenario"]
    details = [e.detail for e in result.trace]
    assert any("relist after 410" in d for d in details)
    assert any("429" in d for d in details)  # the lagging watch was closed first
    assert any("too old resource version" in d for d in details)
    assert scenario.relists == ["410 Gone"]
    assert values(result.series["lists"])[-1] == 2

    cached = {p.metadata.name: p.metadata.resource_version for p in scenario.informer.get_store().list()}
    listed = {p["metadata"]["name"]: p["metadata"]["resourceVersion"]
              for p in scenario.server.list("pods", "default")["items"]}
    assert cached == listed and len(cached) == 8
    assert values(result.series["cache size"])[-1] == 8
    assert "delete web-1" in scenario.handler_events
    assert {"add batch-5", "update web-2"} <= set(scenario.handler_events)  # learned from the relist


# -- workqueue-retry --------------------------------------------------------------------------------------

def test_workqueue_retry_delays_double_from_5_ms_and_forget_resets():
    _, result = play("workqueue-retry")
    assert values(result.series["default/web retry delay (ms)"]) == [5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 5.0]
    assert values(result.series["default/web requeues"]) == [0, 1, 2, 3, 4, 5, 6, 0, 1, 0]
    assert result.events == ["default/web synced after 6 failed attempts",
                             "default/web synced after 1 failed attempt"]


# -- wait-backoff ---------------------------------------------------------------------------------------------

def test_wait_backoff_grows_by_factor_then_caps():
    _, result = play("wait-backoff")
    bases = values(result.series["Backoff duration (s)"])
    delays = values(result.series["Backoff.step delay (s)"])
    assert bases == [1.0, 2.0, 4.0, 8.0, 16.0, 20.0, 20.0, 20.0, 20.0, 20.0]
    assert all(base <= delay <= base * 1.1 for base, delay in zip(bases, delays))
    assert len(set(delays)) == len(delays)  # jitter: no two alike
    assert values(result.series["exponential_backoff gap (s)"]) == [0.5, 1.5, 4.5]
    periods = values(result.series["jitter_until period (s)"])
    assert len(periods) == 7 and all(2.0 <= p <= 2.0 * 2.2 for p in periods)
    assert "exponential_backoff succeeded on try 4" in result.events


# -- the machinery ------------------------------------------------------------------------------------------

def test_sampler_records_changes_only_and_measurements_always():
    clock = FakeClock(EPOCH)
    sampler = Sampler(clock, clock.now())
    state = {"n": 0, "up": False}
    sampler.watch("n", lambda: state["n"])
    sampler.watch("up", lambda: state["up"])
    sampler.sample()
    clock.step(1.5)
    sampler.sample()  # nothing changed
    state.update(n=2, up=True)
    sampler.sample()
    sampler.add("delay", 5.0)
    sampler.add("delay", 5.0)
    assert sampler.series == {"n": [(0.0, 0), (1.5, 2)], "up": [(0.0, 0), (1.5, 1)],
                              "delay": [(1.5, 5.0), (1.5, 5.0)]}


def test_pause_and_resume_keep_the_schedule_order():
    clock = FakeClock(EPOCH, driven=True)
    steps = [Step(name, lambda: False, lambda: None) for name in ("a/1", "b/1", "a/2", "c/1")]
    driver = Driver(clock, list(steps))
    run = Run("toy", 1, clock, driver, lambda: None)
    run.pause("a/")
    assert [s.name for s in driver.steps] == ["b/1", "c/1"]
    run.pause("c/")
    assert [s.name for s in driver.steps] == ["b/1"]
    run.resume()
    assert [s.name for s in driver.steps] == ["a/1", "b/1", "a/2", "c/1"]


def test_json_lines_round_trip():
    result = run_scenario("leader-failover")
    text = result.to_json_lines()
    lines = text.splitlines()
    assert lines[0] == '{"scenario": "leader-failover", "seed": 1, "start": "2026-01-01T00:00:00+00:00"}'
    assert lines[1] == result.trace[0].to_json()
    assert ScenarioResult.from_json_lines(text) == result


def test_from_json_lines_rejects_other_text():
    with pytest.raises(ValueError, match="scenario line"):
        ScenarioResult.from_json_lines('{"step": "x", "time": "2026-01-01T00:00:00+00:00", "detail": ""}\n')


def test_live_view_plays_the_same_result():
    out = io.StringIO()
    run = get_scenario("workqueue-retry").build(1)
    result = play_live(run, "title", pace=0, console=Console(file=out, width=140, force_terminal=False))
    assert result.to_json_lines() == run_scenario("workqueue-retry").to_json_lines()
    shown = out.getvalue()
    assert "fake time +1.005 s" in shown and "queue length" in shown and "160.0" in shown


def test_scenarios_run_with_really_crash_off_and_say_so(caplog):
    # The project's choice for scenarios (Go's default is on): off while the script plays, restored after.
    import logging

    from minikcm.apimachinery import runtime
    run = get_scenario("workqueue-retry").build(1)
    script, seen = run.script, []
    run.script = lambda: (seen.append(runtime.REALLY_CRASH), script())
    with caplog.at_level(logging.INFO, logger="minikcm.sim.scenarios.base"):
        run.run()
    assert seen == [False] and runtime.REALLY_CRASH is True
    assert caplog.text.count("runtime.REALLY_CRASH is off") == 1
