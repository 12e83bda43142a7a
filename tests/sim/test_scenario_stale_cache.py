"""Tests for the `replicaset-stale-cache` scenario (minikcm/sim/scenarios/stale_cache.py), the P4 page's seed 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from minikcm.driver import Interleaved
from minikcm.sim.scenarios import get_scenario, run_scenario

ROOT = Path(__file__).resolve().parents[2]
SEED = 1
"""The seed the P4 page names: both defences act."""


def test_the_scenario_runs_interleaved_and_is_reproducible():
    run = get_scenario("replicaset-stale-cache").build(SEED)
    assert isinstance(run.driver.schedule, Interleaved) and run.driver.schedule.seed == SEED
    result = run.run()
    assert result.to_json_lines() == run_scenario("replicaset-stale-cache", SEED).to_json_lines()


def test_at_the_pages_seed_a_sync_is_refused_and_the_key_comes_back():
    trace = run_scenario("replicaset-stale-cache", SEED).trace
    refused = [i for i, e in enumerate(trace) if "is not as new as written version" in e.detail]
    assert refused
    first = trace[refused[0]]
    assert first.detail.endswith("err=\"sync 'default/web' failed with read version: 10 is not as new as written "
                                 "version: 15 for group resource replicasets.apps\"")
    assert any(e.step == "replicaset/worker" for e in trace[refused[-1] + 1:])  # the key came back


def test_at_the_pages_seed_expectations_hold_a_sync_back_while_creates_are_in_flight():
    result = run_scenario("replicaset-stale-cache", SEED)
    held = [i for i, e in enumerate(result.trace) if e.detail.startswith("Controller still waiting on expectations")]
    assert held
    assert "add=4, del=0" in result.trace[held[0]].detail
    assert result.trace[held[0] - 1].step == "replicaset/worker"
    assert max(v for _, v in result.series["creates in flight"]) >= 4
    assert result.events[-1] == ("the consistency store refused 2 syncs and expectations held back 1; "
                                 "9 pods created, none too many")


def test_the_pages_breakpoints_stop_where_it_says():
    """P4's good breakpoints: ensure_ready's 3rd call raises; satisfied_expectations' 2nd returns False."""
    base = [sys.executable, "-m", "minikcm", "demo", "run", "replicaset-stale-cache", "--seed", str(SEED), "--break"]
    ensure = subprocess.run(base + ["minikcm.controller.util.consistency.RealConsistencyStore.ensure_ready",
                                    "--hit", "3"], input="n\nn\nn\nc\n", capture_output=True, text=True,
                            cwd=ROOT, timeout=120)
    assert ensure.returncode == 0, ensure.stderr
    assert ("(Pdb) minikcm.controller.util.consistency.ConsistencyError: read version: 10 is not as new as "
            "written version: 15 for group resource replicasets.apps") in ensure.stdout
    held = subprocess.run(base + ["minikcm.controller.controller_utils.ControllerExpectations.satisfied_expectations",
                                  "--hit", "2"], input="p self.get_expectations(controller_key)[0]\nr\nc\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert held.returncode == 0, held.stderr
    assert "ControlleeExpectations(key='default/web', add=4, del=0)" in held.stdout
    assert "--Return--" in held.stdout and "->False" in held.stdout
