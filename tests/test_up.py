"""Tests of minikcm.up: the wiring of `minikcm up` (kubectl against it is in tests/e2e/test_up.py)."""

from __future__ import annotations

import io
import logging
import socket
import threading
import time

import pytest
from kubernetes.client import V1Deployment

from minikcm.apimachinery import runtime
from minikcm.apimachinery.convert import from_wire
from minikcm.cli import build_parser, cmd_up
from minikcm.client import InProcessClientset
from minikcm.cmd.controller_manager import PORTED_CONTROLLERS, names
from minikcm.sim.kubelet import KubeletConfig
from minikcm.up import (
    CONTROLLER_CLIENTS,
    IDENTITY_FILE,
    IN_PROCESS,
    REST,
    Up,
    check_ported_controllers,
    parse_controllers,
    run_up,
    stable_identity,
)

FAST_KUBELET = KubeletConfig(start_delay=0.05, ready_delay=0.05, finish_deletion_immediately=True)
ALL_PORTED = sorted(PORTED_CONTROLLERS)

PARSE_CONTROLLERS_CASES = [
    pytest.param("*", ["*"], id="star"),
    pytest.param("*,-statefulset-controller", ["*", "-statefulset-controller"], id="star-minus-one"),
    pytest.param("", [], id="empty-means-none"),
]


@pytest.mark.parametrize("text, want", PARSE_CONTROLLERS_CASES)
def test_parse_controllers(text, want):
    assert parse_controllers(text) == want


CHECK_PORTED_CASES = [
    pytest.param(["*"], ALL_PORTED, [], id="star-runs-every-ported-controller"),
    pytest.param(["*", "-statefulset-controller"],
                 [n for n in ALL_PORTED if n != names.STATEFUL_SET_CONTROLLER], [names.STATEFUL_SET_CONTROLLER],
                 id="minus-one"),
    pytest.param([names.DEPLOYMENT_CONTROLLER], [names.DEPLOYMENT_CONTROLLER],
                 [n for n in ALL_PORTED if n != names.DEPLOYMENT_CONTROLLER], id="only-one-named"),
    pytest.param([], [], ALL_PORTED, id="none"),
]


@pytest.mark.parametrize("controllers, running, disabled", CHECK_PORTED_CASES)
def test_check_ported_controllers(controllers, running, disabled):
    report = check_ported_controllers(controllers)
    assert (report.running, report.disabled) == (running, disabled)


def test_stable_identity_is_kept_in_the_data_dir(tmp_path):
    assert stable_identity(None) is None
    first = stable_identity(tmp_path)
    assert first is not None and first == stable_identity(tmp_path)
    assert first.endswith("_" + (tmp_path / IDENTITY_FILE).read_text().strip())
    assert stable_identity(tmp_path / "other") != first


REFUSED_OPTIONS_CASES = [
    pytest.param({"controllers": "bogus"}, '"bogus" is not in the list of known controllers', id="unknown-controller"),
    pytest.param({"bind_address": "10.1.2.3"}, "pass --allow-non-loopback", id="non-loopback-bind"),
    pytest.param({"controller_client": "grpc"}, "--controller-client must be one of", id="unknown-client"),
]


@pytest.mark.parametrize("kwargs, message", REFUSED_OPTIONS_CASES)
def test_run_up_refuses_bad_options_with_exit_code_2(tmp_path, kwargs, message):
    out, err = io.StringIO(), io.StringIO()
    assert run_up(kubeconfig=str(tmp_path / "kc"), out=out, err=err, **kwargs) == 2
    assert message in err.getvalue()
    assert not (tmp_path / "kc").exists()


def test_run_up_exits_1_when_the_port_is_taken(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        err = io.StringIO()
        assert run_up(port=taken.getsockname()[1], kubeconfig=str(tmp_path / "kc"), out=io.StringIO(), err=err) == 1
    assert "cannot listen on 127.0.0.1:" in err.getvalue()
    assert not (tmp_path / "kc").exists()


def test_cli_up_offers_the_controller_clients_of_minikcm_up():
    up_parser = build_parser()._subparsers._group_actions[0].choices["up"]
    [action] = [a for a in up_parser._actions if a.dest == "controller_client"]
    assert tuple(action.choices) == CONTROLLER_CLIENTS and action.default == IN_PROCESS


def test_cli_up_parses_durations_and_flags():
    args = build_parser().parse_args(["up", "--kubelet-ready-delay", "250ms", "--kubelet-start-delay", "2",
                                      "--kubelet-immediate-deletion", "--controller-client", "rest",
                                      "--controllers", "*,-statefulset-controller"])
    assert args.func is cmd_up
    assert (args.kubelet_ready_delay, args.kubelet_start_delay, args.kubelet_immediate_deletion) == (0.25, 2.0, True)
    assert (args.controller_client, args.controllers, args.port) == (REST, "*,-statefulset-controller", 0)


# --- threaded: the whole cluster in this process -------------------------------------------------


def wait_until(predicate, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def deployment(name: str, replicas: int) -> dict:
    labels = {"app": name}
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name, "namespace": "default"},
            "spec": {"replicas": replicas, "selector": {"matchLabels": labels},
                     "template": {"metadata": {"labels": labels},
                                  "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}}


@pytest.mark.threaded
@pytest.mark.parametrize("client", [IN_PROCESS, REST])
def test_up_runs_a_deployment_to_completion_then_stops(tmp_path, client, caplog):
    up = Up(kubeconfig=str(tmp_path / "kc"), data_dir=str(tmp_path / "data"), controller_client=client,
            kubelet=FAST_KUBELET, volume_bind_delay=0.05)
    assert runtime.REALLY_CRASH is True
    with caplog.at_level(logging.INFO, logger="minikcm.up"):
        up.start()
    try:
        assert runtime.REALLY_CRASH is False, "up chooses otherwise than Go, and says so once"
        assert caplog.text.count("runtime.REALLY_CRASH is off") == 1
        assert (tmp_path / "kc").exists()
        assert up.report.running == ALL_PORTED
        cs = InProcessClientset(up.api)
        cs.apps_v1().deployments("default").create(from_wire(deployment("web", 2), V1Deployment))

        def available() -> bool:
            d = cs.apps_v1().deployments("default").get("web")
            return (d.status.available_replicas or 0) == 2

        wait_until(available)
        lease = cs.coordination_v1().leases("kube-system").get("kube-controller-manager")
        assert lease.spec.holder_identity == up.identity == stable_identity(tmp_path / "data")
    finally:
        started = time.monotonic()
        stuck = up.shutdown()
    assert stuck == []
    assert time.monotonic() - started < 5.0
    assert not [t for t in up.threads.values() if t.is_alive()]
    assert runtime.REALLY_CRASH is True, "restored at shutdown"


@pytest.mark.threaded
def test_run_up_prints_the_banner_and_stops_when_asked(tmp_path):
    out, err, stop = io.StringIO(), io.StringIO(), threading.Event()
    codes: list[int] = []
    runner = threading.Thread(target=lambda: codes.append(run_up(
        kubeconfig=str(tmp_path / "kc"), kubelet=FAST_KUBELET, out=out, err=err, stop=stop)))
    runner.start()
    try:
        wait_until(lambda: "Ctrl-C stops everything" in out.getvalue())
    finally:
        stop.set()
        runner.join(10)
    banner = out.getvalue()
    assert f"export KUBECONFIG={tmp_path / 'kc'}" in banner
    assert "controllers: " + ", ".join(ALL_PORTED) + " (in-process client)" in banner
    assert banner.rstrip().endswith("minikcm up: stopped")
    assert "(this process), on the Lease kube-system/kube-controller-manager" in banner
    assert f"; {len(check_ported_controllers(['*']).not_ported)} enabled controllers are not ported" in banner
    assert "nodes: 3 simulated (sim-node-0 .. sim-node-2), pods Running 50ms after binding" in banner
    assert codes == [0], err.getvalue()


@pytest.mark.threaded
def test_run_up_exits_1_when_the_controller_manager_ends_by_itself(tmp_path, monkeypatch):
    def failing_run(c, stop, **kwargs):
        raise RuntimeError("controller boom could not be built")

    monkeypatch.setattr("minikcm.cmd.controller_manager.run", failing_run)
    out, err = io.StringIO(), io.StringIO()
    assert run_up(kubeconfig=str(tmp_path / "kc"), kubelet=FAST_KUBELET, out=out, err=err) == 1
    assert "the controller manager stopped: controller boom could not be built" in err.getvalue()


@pytest.mark.parametrize("command", ["up", "apiserver", "controller-manager"])
def test_every_long_running_command_takes_klog_verbosity_and_a_log_file(command):
    """klog's -v N (and --v=N) and --log-file, the same on the three commands (minikcm.logs)."""
    args = build_parser().parse_args([command, "-v", "4", "--log-file", "/tmp/x.log"])
    assert (args.v, args.log_file) == (4, "/tmp/x.log")
    assert build_parser().parse_args([command, "--v=2"]).v == 2
    assert build_parser().parse_args([command]).v == 0
