"""Tests for `minikcm demo` (minikcm/cli.py) and the --break machinery (minikcm/sim/scenarios/debug.py).

The pdb test runs the real command in a subprocess and feeds pdb its commands
on stdin, as a learner would type them.
"""

from __future__ import annotations

import io
import json
import pdb
import subprocess
import sys
from pathlib import Path

import pytest

from minikcm.cli import main
from minikcm.sim.scenarios import SCENARIOS, ScenarioResult, run_scenario
from minikcm.sim.scenarios.debug import FirstCallBreak, UnknownSymbolError, resolve_symbol
from minikcm.tools.leaderelection.leaderelection import LeaderElector

ROOT = Path(__file__).resolve().parents[1]
BREAK_TARGET = "minikcm.tools.leaderelection.leaderelection.LeaderElector.try_acquire_or_renew"


def test_demo_list_shows_every_scenario_with_chapter_and_both_titles(capsys):
    assert main(["demo", "list"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["SCENARIO", "CHAPTER", "TITLE"]
    for scenario in SCENARIOS.values():
        row = next(line for line in lines if line.startswith(scenario.name + " "))
        assert row.split()[1] == scenario.chapter and row.endswith(scenario.title_en)
        assert lines[lines.index(row) + 1].strip() == scenario.title_zh


def test_demo_without_action_prints_help(capsys):
    assert main(["demo"]) == 2
    assert "list" in capsys.readouterr().err


def test_demo_run_prints_the_trace_then_the_summary(capsys):
    assert main(["demo", "run", "workqueue-retry", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    result = run_scenario("workqueue-retry", seed=3)
    assert out.startswith(result.trace_text() + "\n\n")
    assert out.rstrip().endswith(result.summary().rstrip())
    assert "default/web retry delay (ms): 5.0" in out


def test_demo_run_trace_file_is_the_result_as_json_lines(tmp_path, capsys):
    path = tmp_path / "trace.jsonl"
    assert main(["demo", "run", "leader-failover", "--seed", "2", "--trace", str(path)]) == 0
    assert f"trace written to {path}" in capsys.readouterr().out
    text = path.read_text(encoding="utf-8")
    records = [json.loads(line) for line in text.splitlines()]
    assert records[0] == {"scenario": "leader-failover", "seed": 2, "start": "2026-01-01T00:00:00+00:00"}
    kinds = {next(k for k in ("step", "series", "event") if k in r) for r in records[1:]}
    assert kinds == {"step", "series", "event"}
    assert {"series": "lease holder", "t": 0.0, "value": "kcm-a"} in records
    assert ScenarioResult.from_json_lines(text) == run_scenario("leader-failover", seed=2)


def test_demo_run_interleaved_trace_is_reproducible_and_differs_from_deliver_first(tmp_path, capsys):
    paths = [tmp_path / f"{i}.jsonl" for i in range(3)]
    for path in paths[:2]:
        assert main(["demo", "run", "replicaset-scale", "--seed", "5", "--schedule", "interleaved",
                     "--trace", str(path)]) == 0
    assert main(["demo", "run", "replicaset-scale", "--seed", "5", "--schedule", "deliver-first",
                 "--trace", str(paths[2])]) == 0
    capsys.readouterr()
    texts = [p.read_bytes() for p in paths]
    assert texts[0] == texts[1]
    assert texts[0] != texts[2]
    assert texts[2] == run_scenario("replicaset-scale", seed=5).to_json_lines().encode()
    # Interleaved, a worker syncs before its own writes are back in the caches: the store refuses.
    assert b"is not as new as written version" in texts[0]
    assert b"is not as new as written version" not in texts[2]


def test_demo_run_refuses_an_unknown_schedule(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "run", "replicaset-scale", "--schedule", "random"])
    assert "invalid choice: 'random'" in capsys.readouterr().err


def test_demo_run_interleaved_live(capsys):
    assert main(["demo", "run", "workqueue-retry", "--live", "--pace", "0", "--schedule", "interleaved"]) == 0
    assert "series (final values):" in capsys.readouterr().out


def test_demo_run_unknown_scenario_suggests_close_names(capsys):
    assert main(["demo", "run", "leader-fail"]) == 2
    err = capsys.readouterr().err
    assert "unknown scenario 'leader-fail'" in err and "leader-failover" in err


def test_demo_run_unknown_symbol_suggests_close_ones(capsys):
    assert main(["demo", "run", "leader-failover", "--break",
                 "minikcm.tools.leaderelection.LeaderElector.try_acquire_or_renw"]) == 2
    err = capsys.readouterr().err
    assert "unknown symbol" in err and "has no attribute 'try_acquire_or_renw'" in err
    assert BREAK_TARGET in err


def test_demo_run_refuses_live_with_break(capsys):
    assert main(["demo", "run", "wait-backoff", "--live", "--break", BREAK_TARGET]) == 2
    assert "do not go together" in capsys.readouterr().err


def test_demo_run_live_ends_with_the_summary(capsys):
    assert main(["demo", "run", "workqueue-retry", "--live", "--pace", "0"]) == 0
    out = capsys.readouterr().out
    assert "fake time +1.005 s" in out and "series (final values):" in out


# -- resolving --break symbols --------------------------------------------------------------------------

RESOLVE_CASES = [
    pytest.param(BREAK_TARGET, LeaderElector.try_acquire_or_renew, id="module-class-method"),
    pytest.param("minikcm.tools.leaderelection.LeaderElector.try_acquire_or_renew",
                 LeaderElector.try_acquire_or_renew, id="through-package-re-export"),
    pytest.param("minikcm.apimachinery.wait.exponential_backoff", None, id="module-function"),
    pytest.param("minikcm.tools.leaderelection.LeaderElector", LeaderElector.__init__, id="class-means-init"),
]


@pytest.mark.parametrize("symbol, expected", RESOLVE_CASES)
def test_resolve_symbol(symbol, expected):
    from minikcm.apimachinery import wait

    func = resolve_symbol(symbol)
    assert func is (expected if expected is not None else wait.exponential_backoff)


UNKNOWN_SYMBOL_CASES = [
    pytest.param("minikcm.driver.Driver.run_oncee", "minikcm.driver.Driver has no attribute 'run_oncee'",
                 "minikcm.driver.Driver.run_once", id="typo-in-method"),
    pytest.param("minikcm.tools.cache.reflektor.Reflector.list", "minikcm.tools.cache has no attribute 'reflektor'",
                 "minikcm.tools.cache.reflector.Reflector.list", id="typo-in-module"),
    pytest.param("minikcm.util.workqueue.rate_limiting_queue", "is a module, not a Python function",
                 "minikcm.util.workqueue.rate_limiting_queue.new_rate_limiting_queue", id="module-lists-its-functions"),
    pytest.param("nosuchpackage.thing", "names no importable module", None, id="no-module"),
    pytest.param("not a name", "is not a dotted Python name", None, id="not-a-name"),
]


@pytest.mark.parametrize("symbol, why, suggested", UNKNOWN_SYMBOL_CASES)
def test_unknown_symbol_error_explains_and_suggests(symbol, why, suggested):
    with pytest.raises(UnknownSymbolError) as info:
        resolve_symbol(symbol)
    message = str(info.value)
    assert why in message
    if suggested is not None:
        assert "close matches:" in message and f"  {suggested}" in message.splitlines()


def test_first_call_break_stops_once_in_the_target_frame():
    def inner(x):
        return x * 2

    def outer():
        return [inner(1), inner(2)]

    out = io.StringIO()
    debugger = pdb.Pdb(stdin=io.StringIO("p x\ncontinue\n"), stdout=out)
    hits = []
    breaker = FirstCallBreak(inner.__code__, on_hit=lambda frame: hits.append(frame.f_code.co_name),
                             debugger=debugger)
    assert breaker.run(outer) == [2, 4]
    assert breaker.hit and hits == ["inner"]
    assert "inner()" in out.getvalue() and "(Pdb) 1\n" in out.getvalue()  # stopped once, with x == 1
    assert sys.gettrace() is None


def test_break_with_nth_stops_at_that_call():
    def inner(x):
        return x * 2

    def outer():
        return [inner(1), inner(2), inner(3)]

    out = io.StringIO()
    debugger = pdb.Pdb(stdin=io.StringIO("p x\ncontinue\n"), stdout=out)
    breaker = FirstCallBreak(inner.__code__, debugger=debugger, nth=2)
    assert breaker.run(outer) == [2, 4, 6]
    assert breaker.hit and "(Pdb) 2\n" in out.getvalue()  # the second call, x == 2
    too_many = FirstCallBreak(inner.__code__, debugger=debugger, nth=4)
    too_many.run(outer)
    assert not too_many.hit


# -- the real thing, in a subprocess ---------------------------------------------------------------------

def test_break_stops_in_pdb_in_the_right_frame_and_continue_finishes():
    commands = "where\np self.config.lock.identity()\np self.clock.now().isoformat()\ncontinue\n"
    proc = subprocess.run(
        [sys.executable, "-m", "minikcm", "demo", "run", "leader-failover", "--seed", "1",
         "--break", BREAK_TARGET],
        input=commands, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"stopped at the first call of {BREAK_TARGET} (fake time +0.000 s)" in out
    assert "leaderelection.py(" in out and ")try_acquire_or_renew()" in out
    assert "acquire_step()" in out and "run_once()" in out  # `where` shows how the driver got here
    assert "'kcm-a'" in out
    assert "'2026-01-01T00:00:00+00:00'" in out  # the fake clock had not moved
    expected = run_scenario("leader-failover", seed=1)
    assert expected.trace_text() in out  # continuing finished the scenario, unchanged
    assert out.count("(Pdb)") == 4  # one stop only: the break is first-time only


def test_break_hit_stops_at_the_nth_call_the_replay_names():
    proc = subprocess.run(
        [sys.executable, "-m", "minikcm", "demo", "run", "leader-failover", "--seed", "1",
         "--break", BREAK_TARGET, "--hit", "3"],
        input="p self.config.lock.identity()\ncontinue\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert f"stopped at call 3 of {BREAK_TARGET} (fake time +0.000 s)" in proc.stdout
    assert "'kcm-b'" in proc.stdout  # kcm-a acquires, kcm-a renews, then kcm-b tries


def test_break_under_interleaved_stops_and_finishes_the_same_run():
    symbol = "minikcm.controller.util.consistency.OwnerRecord.ensure_ready"
    proc = subprocess.run(
        [sys.executable, "-m", "minikcm", "demo", "run", "replicaset-scale", "--seed", "5",
         "--schedule", "interleaved", "--break", symbol, "--hit", "2"],
        input="p type(c).__name__\ncontinue\n", capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert f"stopped at call 2 of {symbol}" in proc.stdout
    assert "'RealConsistencyStore'" in proc.stdout
    assert "is not as new as written version" in proc.stdout  # the run went on, interleaved


# -- VS Code --------------------------------------------------------------------------------------------------

def test_vscode_launch_has_one_configuration_per_scenario_and_pytest():
    launch = json.loads((ROOT / ".vscode" / "launch.json").read_text(encoding="utf-8"))
    configs = launch["configurations"]
    demos = {c["args"][2]: c for c in configs if c.get("module") == "minikcm"}
    assert set(demos) == set(SCENARIOS)
    for name, config in demos.items():
        assert config["args"] == ["demo", "run", name, "--seed", "1"]
        assert config["justMyCode"] is False and config["request"] == "launch"
    pytest_config = next(c for c in configs if c["name"] == "pytest: current file")
    assert pytest_config["module"] == "pytest" and "${file}" in pytest_config["args"]
    assert pytest_config["justMyCode"] is False
