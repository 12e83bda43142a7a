"""Tests for the workload scenarios (minikcm/sim/scenarios/{cluster,deployment,replicaset,cascade}.py).

Each scenario is deterministic and its key claim holds; a broken controller
makes `Run.run` raise; `minikcm demo run` plays them, and `--break` stops in
the Deployment controller's rollout_rolling.
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from minikcm.apimachinery import meta
from minikcm.controller.deployment import recreate
from minikcm.controller.deployment.util import deployment_util
from minikcm.sim.scenarios import SCENARIOS, Run, ScenarioResult, get_scenario, run_scenario
from minikcm.sim.scenarios.cluster import Cluster, InvariantViolation, deployment, replica_set

ROOT = Path(__file__).resolve().parents[2]
APPS = ["rolling-update", "recreate", "proportional-scaling", "paused-rollout", "rollback", "replicaset-scale",
        "cascade-delete"]
BREAK_TARGET = "minikcm.controller.deployment.rolling.RollingMixin.rollout_rolling"


@cache
def played(name: str, seed: int = 1) -> tuple[Run, ScenarioResult]:
    """Build and play a scenario once per test session; tests only read the result and the objects."""
    run = get_scenario(name).build(seed)
    return run, run.run()


def values(points):
    return [v for _, v in points]


def first_time(points, predicate):
    return next(t for t, v in points if predicate(v))


def details(result: ScenarioResult) -> list[str]:
    return [e.detail for e in result.trace]


# -- the table and determinism ------------------------------------------------------------------------------

def test_the_table_has_the_workload_scenarios():
    assert set(APPS) <= set(SCENARIOS)
    assert {SCENARIOS[n].chapter for n in APPS} == {"p3", "p4"}


@pytest.mark.parametrize("name", APPS)
def test_same_seed_same_result(name):
    _, first = played(name)
    second = run_scenario(name, seed=1)
    assert first.to_json_lines() == second.to_json_lines()
    assert first.trace and first.series and first.events


def test_the_seed_matters():
    # The seed picks uids, pod names and IPs: same story, other names.
    assert run_scenario("recreate", seed=2).trace_text() != played("recreate")[1].trace_text()


# -- rolling-update -------------------------------------------------------------------------------------------

def test_rolling_update_keeps_within_surge_and_availability():
    run, result = played("rolling-update")
    scenario = run.objects["scenario"]
    assert (scenario.max_asked, scenario.min_available) == (13, 8)  # 10 + 3 reached, 10 - 2 kept
    assert values(result.series["rs rev1 replicas"])[-1] == 0
    assert values(result.series["rs rev2 replicas"])[-1] == 10
    assert max(values(result.series["total pods"])) > 13  # terminating pods are not asked for
    assert values(result.series["available pods"])[-1] == 10
    text = details(result)
    assert any(d.startswith("new rs web-") and d.endswith("(rev2) with 3 replicas") for d in text)
    assert any(d.startswith("scale down rs web-") and d.endswith("(rev1) from 10 to 8") for d in text)
    assert any("Scaled up replica set" in e for e in result.events)


# -- recreate --------------------------------------------------------------------------------------------------

def test_recreate_scales_the_old_replica_set_to_zero_before_the_new_one_up():
    run, result = played("recreate")
    scenario = run.objects["scenario"]
    rev1_zero = first_time(result.series["rs rev1 replicas"][1:], lambda v: v == 0)
    rev1_pods_gone = result.series["rev1 pods"][-1][0]
    rev2_up = first_time(result.series["rs rev2 replicas"], lambda v: v > 0)
    assert rev1_zero < rev1_pods_gone <= rev2_up
    assert scenario.old_pods_gone_at <= scenario.new_rs_at
    assert values(result.series["rev1 pods"])[-1] == 0 and values(result.series["rev2 pods"])[-1] == 4


# -- proportional-scaling ---------------------------------------------------------------------------------

def test_proportional_scaling_8_and_5_then_20_and_13():
    run, result = played("proportional-scaling")
    rev1, rev2 = values(result.series["rs rev1 replicas"]), values(result.series["rs rev2 replicas"])
    assert rev1[-2:] == [8, 20] and rev2[-2:] == [5, 13]
    assert values(result.series["desired replicas"])[-1] == 30
    cluster = run.objects["cluster"]
    for rs in cluster.replica_sets_of("web"):
        annotations = rs["metadata"]["annotations"]
        assert annotations[deployment_util.DESIRED_REPLICAS_ANNOTATION] == "30"
        assert annotations[deployment_util.MAX_REPLICAS_ANNOTATION] == "33"
    assert any(e.startswith("stuck:") for e in result.events)


# -- paused-rollout -------------------------------------------------------------------------------------------

def test_paused_rollout_makes_no_replica_set_until_resumed():
    _, result = played("paused-rollout")
    paused = result.series["paused"]
    assert values(paused) == [0, 1, 0]
    resumed_at = paused[-1][0]
    assert first_time(result.series["rs rev2 replicas"], lambda v: v > 0) >= resumed_at
    grown_at = first_time(result.series["rs rev1 replicas"], lambda v: v == 6)
    assert paused[1][0] < grown_at < resumed_at  # scaled while paused
    assert values(result.series["rs rev2 replicas"])[-1] == 6
    assert any("Progressing reason DeploymentPaused" in e for e in result.events)


# -- rollback -----------------------------------------------------------------------------------------------------

def test_rollback_reuses_the_revision_1_replica_set_as_revision_3():
    run, result = played("rollback")
    assert values(result.series["deployment revision"]) == [0, 1, 2, 3]
    assert values(result.series["rs rev1 revision"]) == [0, 1, 3]
    assert values(result.series["rs rev1 replicas"])[-1] == 4
    assert values(result.series["rs rev2 replicas"])[-1] == 0
    cluster = run.objects["cluster"]
    rss = cluster.replica_sets_of("web")
    assert len(rss) == 2
    assert rss[-1]["metadata"]["annotations"][deployment_util.REVISION_HISTORY_ANNOTATION] == "1"
    d = cluster.get("deployments", "web")
    assert d["spec"]["template"]["spec"]["containers"][0]["image"] == "web:v1"
    assert "rolled back" in " ".join(details(result))


# -- replicaset-scale ------------------------------------------------------------------------------------------

def test_replicaset_scale_slow_start_batches_and_ranked_deletion():
    run, result = played("replicaset-scale")
    control, scenario = run.objects["pod_control"], run.objects["scenario"]
    batches_by_time: dict[float, list[int | None]] = {}
    for t, _, batch in control.creates:
        batches_by_time.setdefault(t, []).append(batch)
    first, scale_up, replacement = batches_by_time.values()
    assert first == [1, 2, 2]
    assert scale_up == [1, 2, 2, 4, 4, 4, 4]  # 7 creates: batches of 1, 2 and 4
    assert replacement == [1]
    readiness = [d.ready for d in scenario.scale_down]
    assert readiness == [False] * 7 + [True]  # not ready pods go first
    assert values(result.series["rs replicas"]) == [0, 3, 10, 2]
    victim, new = scenario.replaced
    assert new and new != victim
    assert max(values(result.series["pods terminating"])) == 8
    assert any("slow-start batch of 4" in d for d in details(result))


# -- cascade-delete -------------------------------------------------------------------------------------------

def test_cascade_delete_orders_by_propagation_policy():
    run, result = played("cascade-delete")
    gone = run.objects["scenario"].gone_at
    assert list(gone[meta.DELETE_PROPAGATION_FOREGROUND]) == ["pods", "replicasets", "deployment"]
    assert list(gone[meta.DELETE_PROPAGATION_BACKGROUND]) == ["deployment", "replicasets", "pods"]
    assert list(gone[meta.DELETE_PROPAGATION_ORPHAN]) == ["deployment"]  # the rest stayed
    assert any("terminating (finalizers: foregroundDeletion)" in d for d in details(result))
    assert any("terminating (finalizers: orphan)" in d for d in details(result))
    assert any("has no owner any more (orphaned)" in d for d in details(result))
    assert any(e.startswith("Orphan: the Deployment is gone; 1 ReplicaSet (1 without") for e in result.events)
    assert values(result.series["deployments"])[-1] == 0 and values(result.series["pods"])[-1] == 0


# -- a broken controller stops the run ---------------------------------------------------------------------

def test_a_rolling_update_that_takes_too_much_down_raises(monkeypatch):
    run = get_scenario("rolling-update").build(1)
    monkeypatch.setattr(deployment_util, "max_unavailable", lambda d: d.spec.replicas)
    with pytest.raises(InvariantViolation, match="available .* fewer than 10 - 2"):
        run.run()


def test_a_recreate_that_does_not_wait_for_old_pods_raises(monkeypatch):
    run = get_scenario("recreate").build(1)
    monkeypatch.setattr(recreate, "old_pods_running", lambda new_rs, old_rss, pod_map: False)
    with pytest.raises(InvariantViolation, match="side by side"):
        run.run()


# -- the Cluster builder -----------------------------------------------------------------------------------------

def test_cluster_reads_are_cached_until_the_next_write():
    c = Cluster(1)
    c.start()
    first = c.list("deployments")
    assert c.list("deployments") is first
    c.apply(deployment("web", 2, "web:v1"))
    assert [d["metadata"]["name"] for d in c.list("deployments")] == ["web"]
    c.apply(deployment("web", 5, "web:v1"))  # apply again: an update
    assert c.get("deployments", "web")["spec"]["replicas"] == 5
    assert c.scale("deployments", "web", 7)["spec"]["replicas"] == 7
    assert c.get("deployments", "web")["spec"]["replicas"] == 7


def test_cluster_check_raises_and_traces_script_writes():
    c = Cluster(1)
    c.with_replica_set_controller()
    c.start()
    c.apply(replica_set("web", 1, "web:v1"))
    assert [e.detail for e in c.driver.trace if e.step == "kubectl: rs"] == ["new rs web with 1 replicas"]

    def at_most_one() -> None:
        if c.get("replicasets", "web")["spec"]["replicas"] > 1:
            raise c.violation("more than one replica")

    c.check("at most one", at_most_one)
    with pytest.raises(InvariantViolation, match=r"\+0.000 s: more than one replica"):
        c.scale("replicasets", "web", 2)


def test_rollout_undo_refuses_unknown_revisions_and_skips_the_current_template():
    run, _ = played("rollback")
    cluster = run.objects["cluster"]
    with pytest.raises(ValueError, match="unable to find specified revision 9"):
        cluster.rollout_undo("web", to_revision=9)
    assert cluster.rollout_undo("web", to_revision=3).startswith("skipped rollback")


# -- the command line ---------------------------------------------------------------------------------------------

def test_demo_run_plays_rolling_update():
    proc = subprocess.run([sys.executable, "-m", "minikcm", "demo", "run", "rolling-update", "--seed", "1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    expected = played("rolling-update")[1]
    assert expected.trace_text() in proc.stdout
    assert "rs rev2 replicas: 10" in proc.stdout


def test_break_stops_in_rollout_rolling_and_continue_finishes():
    proc = subprocess.run(
        [sys.executable, "-m", "minikcm", "demo", "run", "rolling-update", "--seed", "1", "--break", BREAK_TARGET],
        input="where\ncontinue\n", capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"stopped at the first call of {BREAK_TARGET} (fake time +0.000 s)" in out
    assert "rolling.py(" in out and ")rollout_rolling()" in out
    assert "sync_deployment()" in out and "process_next_work_item()" in out  # `where` shows the way in
    assert played("rolling-update")[1].trace_text() in out  # continuing finished the scenario, unchanged
    assert out.count("(Pdb)") == 2


def test_vscode_has_a_launch_configuration_for_each_workload_scenario():
    launch = json.loads((ROOT / ".vscode" / "launch.json").read_text(encoding="utf-8"))
    demos = {c["args"][2] for c in launch["configurations"] if c.get("module") == "minikcm"}
    assert set(APPS) <= demos
