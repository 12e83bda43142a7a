"""minikcm.harness.replay: traces are reproducible, leave the run unchanged, validate, and point at the right step."""

from __future__ import annotations

import copy
import json
import sys
import types

import pytest

from minikcm.driver import Driver
from minikcm.harness import replay
from minikcm.sim.scenarios import get_scenario, run_scenario
from minikcm.sim.scenarios.debug import FirstCallBreak, resolve_symbol

SMALL = ["leader-failover", "workqueue-retry", "wait-backoff", "informer-relist"]


@pytest.fixture(scope="module")
def leader() -> dict:
    return replay.export_replay("leader-failover", 1)


@pytest.mark.parametrize("name", SMALL + ["replicaset-scale"])
def test_same_seed_gives_the_same_bytes(name):
    first = replay.dumps(replay.export_replay(name, 2))
    second = replay.dumps(replay.export_replay(name, 2))
    assert first == second
    replay.validate(json.loads(first), first)


def test_other_seed_gives_another_trace():
    assert replay.dumps(replay.export_replay("leader-failover", 1)) != replay.dumps(
        replay.export_replay("leader-failover", 2))


@pytest.mark.parametrize("name", ["leader-failover", "replicaset-scale"])
def test_recording_does_not_change_the_run(name):
    recorder = replay.Recorder(name, 1)
    recorder.play()
    assert recorder.run.result.to_json_lines() == run_scenario(name, 1).to_json_lines()


def test_restores_the_tracer_it_found():
    def outer(frame, event, arg):
        return None

    sys.settrace(outer)
    try:
        replay.export_replay("workqueue-retry", 1)
        assert sys.gettrace() is outer
    finally:
        sys.settrace(None)


def test_leader_failover_content(leader):
    names = [f["name"] for f in leader["functions"]]
    steps = leader["steps"]
    assert leader["command"] == "minikcm demo run leader-failover --seed 1"
    first_acquire = next(s for s in steps if s["name"] == "leaderelection/kcm-a/acquire")
    assert ["create", "leases", "kube-controller-manager", True] in first_acquire["writes"]
    assert first_acquire["diff"]["leases/kube-controller-manager"]["holder"] == "kcm-a"
    assert first_acquire["diff"]["series/lease holder"] == "kcm-a"
    assert "minikcm.tools.leaderelection.leaderelection.LeaderElector.try_acquire_or_renew" in [
        names[i] for i in first_acquire["fn"]]
    assert any(n.startswith("leaderelection/kcm-a/acquire  became leader") for n in first_acquire["notes"])
    crash = next(s for s in steps if s["name"] == "script" and s["t"] == 30.0)
    assert "minikcm.sim.scenarios.leader.LeaderFailover.crash" in [names[i] for i in crash["fn"]]
    takeover = [f for f in leader["functions"] if f["name"].endswith("LeaderElector.try_acquire_or_renew")][0]
    assert takeover["go"] == "LeaderElector.tryAcquireOrRenew"
    assert takeover["upstream"].endswith("/staging/src/k8s.io/client-go/tools/leaderelection/leaderelection.go")


def test_work_queue_state_has_keys_and_requeues():
    trace = replay.export_replay("workqueue-retry", 1)
    states: dict = {}
    requeues = []
    for step in trace["steps"]:
        states.update(step.get("diff", {}))
        queue = states.get("queue/queue")
        if queue:
            requeues.append(queue["requeues"].get("default/web", 0))
    assert max(requeues) == 6  # five failures, doubling from 5 ms, then the sixth try
    assert requeues[-1] == 0   # forget resets it


class Stop(BaseException):
    """Raised by the stand-in debugger to end the run where it stopped (not an Exception:
    a controller's worker catches those and carries on)."""


class RecordingDebugger:
    """Stands in for pdb: notes which driver step and fake time the break landed in."""

    def __init__(self, built: list) -> None:
        self.built = built
        self.where: tuple[str, float] | None = None

    def set_trace(self, frame: types.FrameType) -> None:
        f = frame
        while f is not None and f.f_code is not Driver.run_step.__code__:
            f = f.f_back
        step = f.f_locals["step"].name if f is not None else "script"
        self.where = (step, round(self.built[0].sampler.elapsed(), 3))
        raise Stop

    trace_dispatch = None


@pytest.mark.parametrize("name, pick", [
    pytest.param("leader-failover", [5, 20, -3], id="leader-failover"),
    pytest.param("replicaset-scale", [40, 120, -10], id="replicaset-scale"),
    pytest.param("workqueue-retry", [4, 10], id="workqueue-retry"),
])
def test_break_with_hit_stops_in_the_step_shown(name, pick):
    trace = replay.export_replay(name, 1)
    with_break = [i for i, s in enumerate(trace["steps"]) if "brk" in s and s["name"] != "script"]
    for index in [with_break[p] for p in pick]:
        step = trace["steps"][index]
        symbol = trace["functions"][step["brk"][0]]["name"]
        built: list = []
        debugger = RecordingDebugger(built)
        breaker = FirstCallBreak(resolve_symbol(symbol).__code__, debugger=debugger, nth=step["brk"][1])

        def build_and_play():
            built.append(get_scenario(name).build(1))
            return built[0].run()

        with pytest.raises(Stop):
            breaker.run(build_and_play)
        assert debugger.where == (step["name"], step["t"]), (index, symbol, step["brk"])


# ---------------------------------------------------------------------------
# Validation


def broken(mutate):
    def apply(trace: dict) -> dict:
        out = copy.deepcopy(trace)
        mutate(out)
        return out
    return apply


def _set(path: list, value):
    def mutate(trace):
        target = trace
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


def _delete(path: list):
    def mutate(trace):
        target = trace
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return mutate


MALFORMED = [
    pytest.param(_delete(["steps", 0, "name"]), "missing key 'name'", id="step-without-name"),
    pytest.param(_set(["steps", 1, "t"], "later"), "steps[1].t: expected int/float", id="time-not-a-number"),
    pytest.param(_set(["steps", 2, "t"], -1.0), "before the previous step", id="time-goes-back"),
    pytest.param(_set(["steps", 1, "fn"], [999]), "function index 999", id="function-index-out-of-range"),
    pytest.param(_set(["steps", 1, "brk"], [0, 0]), "hit >= 1", id="break-hit-zero"),
    pytest.param(_set(["steps", 1, "writes"], [["update", "leases"]]), "[verb, resource, name, ok]",
                 id="short-write"),
    pytest.param(_set(["steps", 1, "extra"], 1), "unexpected key(s) ['extra']", id="unknown-step-key"),
    pytest.param(_set(["format"], 2), "is not 1", id="other-format"),
    pytest.param(_set(["functions", 0, "ref"], None), "functions[0].ref: expected str", id="ref-null"),
    pytest.param(_set(["steps"], []), "steps: empty", id="no-steps"),
    pytest.param(_set(["seed"], True), "seed: expected int, got bool", id="seed-bool"),
    pytest.param(_set(["steps", 0, "notes"], ["x" * (replay.MAX_BYTES + 1)]), "more than", id="too-big"),
]


@pytest.mark.parametrize("mutate, message", MALFORMED)
def test_malformed_trace_fails_validation(leader, mutate, message):
    bad = broken(mutate)(leader)
    with pytest.raises(replay.ReplayShapeError) as err:
        replay.validate(bad)
    assert message in str(err.value)


def test_well_formed_trace_validates(leader):
    replay.validate(leader)


# ---------------------------------------------------------------------------
# Links


UPSTREAM_PATHS = [
    #            docstring path                         module docstring                                        expected
    pytest.param("queue.go", "Port of k8s.io/client-go/util/workqueue/queue.go.",
                 "k8s.io/client-go/util/workqueue/queue.go", id="bare-file"),
    pytest.param("pkg/apis/meta/v1/controller_ref.go",
                 "Port of helpers from k8s.io/apimachinery/pkg/apis/meta/v1 (types.go, controller_ref.go).",
                 "k8s.io/apimachinery/pkg/apis/meta/v1/controller_ref.go", id="repo-relative"),
    pytest.param("pkg/controller/replicaset/replica_set.go", "Port of pkg/controller/replicaset/replica_set.go.",
                 "pkg/controller/replicaset/replica_set.go", id="kubernetes-path"),
    pytest.param("strconv/quote.go", "Port of k8s.io/apimachinery/pkg/util/validation/field (path.go).",
                 "", id="go-standard-library"),
    pytest.param("errors.go", "No upstream twin.", "", id="nothing-to-complete-from"),
]


@pytest.mark.parametrize("path, module_doc, expected", UPSTREAM_PATHS)
def test_upstream_path(path, module_doc, expected):
    assert replay.upstream_path(path, module_doc) == expected


def test_documented_needs_a_page_a_docstring_and_a_public_name():
    pages = {"minikcm.tools.leaderelection.leaderelection": "reference/leaderelection/"}
    module = "minikcm.tools.leaderelection.leaderelection"
    assert replay.documented(f"{module}:LeaderElector.try_acquire_or_renew", pages) == (
        f"reference/leaderelection/#{module}.LeaderElector.try_acquire_or_renew")
    assert replay.documented("minikcm.util.workqueue.queue:Type.add", pages) == ""
    assert replay.documented(f"{module}:LeaderElector.steps.<locals>.x", pages) == ""


PUBLIC_HOMES = [
    pytest.param("minikcm.apimachinery.wait._backoff:Backoff.step", "minikcm.apimachinery.wait:Backoff.step",
                 id="re-exported-by-the-package"),
    pytest.param("minikcm.util.workqueue.queue:Type.add", "minikcm.util.workqueue.queue:Type.add", id="public-module"),
]


@pytest.mark.parametrize("name, home", PUBLIC_HOMES)
def test_public_home(name, home):
    import minikcm.apimachinery.wait  # noqa: F401 (the packages must be imported, as after a run)
    import minikcm.util.workqueue.queue  # noqa: F401

    assert replay.public_home(name) == home
    assert resolve_symbol(replay.public_name(name))  # --break accepts the name the widget shows
