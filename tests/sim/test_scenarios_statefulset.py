"""Tests for minikcm/sim/scenarios/statefulset.py: `statefulset-ordered` and `statefulset-partition`.

Each scenario is deterministic, its key claims hold (order of creation and
deletion, what the partition moves, the revision a deleted pod returns at),
and a broken controller makes `Run.run` raise.
"""

from __future__ import annotations

from functools import cache

import pytest

from minikcm.controller.statefulset import stateful_set_control
from minikcm.sim.scenarios import SCENARIOS, Run, ScenarioResult, get_scenario, run_scenario
from minikcm.sim.scenarios.cluster import InvariantViolation
from minikcm.sim.scenarios.statefulset import ORDINALS, ordinal_of, pod_state

NAMES = ["statefulset-ordered", "statefulset-partition"]


@cache
def played(name: str, seed: int = 1) -> tuple[Run, ScenarioResult]:
    """Build and play a scenario once per test session; tests only read the result and the objects."""
    run = get_scenario(name).build(seed)
    return run, run.run()


def values(points):
    return [v for _, v in points]


def first_time(points, value):
    return next(t for t, v in points if v == value)


def test_the_table_has_both_in_chapter_p5():
    assert all(SCENARIOS[n].chapter == "p5" for n in NAMES)
    assert all(SCENARIOS[n].title_zh and SCENARIOS[n].title_en for n in NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_result(name):
    _, first = played(name)
    assert first.to_json_lines() == run_scenario(name, seed=1).to_json_lines()
    assert first.trace and first.events
    assert [f"web-{i}" for i in range(ORDINALS)] == list(first.series)[:ORDINALS]


# -- statefulset-ordered ----------------------------------------------------------------------------------------

def test_ordered_creates_each_pod_after_its_predecessor_is_ready():
    run, result = played("statefulset-ordered")
    scenario = run.objects["scenario"]
    assert scenario.creation_order == ["web-0", "web-1", "web-2", "web-3", "web-4"]
    for i in range(1, ORDINALS):
        ready_before = first_time(result.series[f"web-{i - 1}"], "Ready")
        created = next(t for t, v in result.series[f"web-{i}"] if v != "-")
        assert created >= ready_before, f"web-{i} created at {created}, web-{i - 1} ready at {ready_before}"


def test_ordered_scale_down_goes_from_the_highest_one_at_a_time():
    run, result = played("statefulset-ordered")
    scenario = run.objects["scenario"]
    assert scenario.deletion_order == ["web-4", "web-3", "web-2"]
    gone = [first_time(result.series[f"web-{i}"][1:], "-") for i in (4, 3, 2)]
    assert gone == sorted(gone) and len(set(gone)) == 3
    assert [values(result.series[f"web-{i}"])[-1] for i in range(ORDINALS)] == ["Ready", "Ready", "-", "-", "-"]
    assert values(result.series["ready pods"])[-1] == 2
    assert "claims kept: data-web-0, data-web-1, data-web-2, data-web-3, data-web-4" in result.events[-1]


def test_ordered_events_name_claims_before_pods():
    _, result = played("statefulset-ordered")
    creates = [e for e in result.events if "SuccessfulCreate" in e]
    assert creates[:2] == [
        "Normal SuccessfulCreate statefulset/web: create Claim data-web-0 Pod web-0 in StatefulSet web success",
        "Normal SuccessfulCreate statefulset/web: create Pod web-0 in StatefulSet web successful"]


# -- statefulset-partition --------------------------------------------------------------------------------------

def test_partition_moves_only_ordinals_at_or_above_it():
    run, result = played("statefulset-partition")
    assert "only ordinals >= 3 moved to rev2; web-0..web-2 stay at rev1" in result.events
    change = first_time(result.series["update revision"], "rev2")
    partition_zero = first_time(result.series["web-2 revision"][1:], "rev2")
    for i in range(3):  # below the partition: rev1 until the partition drops to 0
        assert all(v in ("-", "rev1") for t, v in result.series[f"web-{i} revision"] if t < partition_zero)
    for i in (3, 4):
        assert first_time(result.series[f"web-{i} revision"], "rev2") > change
    assert values(result.series["current revision"])[-1] == "rev2"


def test_deleted_pod_returns_at_the_revision_its_ordinal_implies():
    run, result = played("statefulset-partition")
    assert run.objects["scenario"].recreated == ("web-1", "rev1")
    assert values(result.series["web-1 revision"])[:4] == ["-", "rev1", "-", "rev1"]


def test_partition_zero_updates_the_rest_from_the_highest():
    run, result = played("statefulset-partition")
    scenario = run.objects["scenario"]
    assert scenario.deletion_order == ["web-4", "web-3", "web-2", "web-1", "web-0"]
    assert all(values(result.series[f"web-{i} revision"])[-1] == "rev2" for i in range(ORDINALS))
    server = run.objects["server"]
    revisions = sorted(r["revision"] for r in server.list("controllerrevisions", "default")["items"])
    assert revisions == [1, 2]


# -- helpers and failures ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("pod, want", [
    pytest.param(None, "-", id="none"),
    pytest.param({"metadata": {"name": "web-0"}}, "Pending", id="no status"),
    pytest.param({"metadata": {"name": "web-0"}, "status": {"phase": "Running"}}, "Running", id="running"),
    pytest.param({"metadata": {"name": "web-0"}, "status": {"phase": "Running", "conditions": [
        {"type": "Ready", "status": "True"}]}}, "Ready", id="ready"),
    pytest.param({"metadata": {"name": "web-0", "deletionTimestamp": "x"}, "status": {"phase": "Running"}},
                 "Terminating", id="terminating"),
])
def test_pod_state(pod, want):
    assert pod_state(pod) == want


def test_ordinal_of():
    assert [ordinal_of({"metadata": {"name": n}}) for n in ("web-0", "web-12", "web")] == [0, 12, -1]


def test_a_controller_that_ignores_readiness_breaks_the_run(monkeypatch):
    # Treat every pod as Running and Ready: OrderedReady then creates the next pod at once.
    monkeypatch.setattr(stateful_set_control, "is_running_and_ready", lambda pod: True)
    monkeypatch.setattr(stateful_set_control, "is_running_and_available", lambda pod, min_ready, now: True)
    run = get_scenario("statefulset-ordered").build(1)
    with pytest.raises(InvariantViolation, match="unhealthy at once"):
        run.run()
