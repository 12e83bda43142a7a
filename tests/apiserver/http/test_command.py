"""Tests for minikcm.apiserver.http.command and the `minikcm apiserver` sub-command."""

from __future__ import annotations

import io
import threading

import pytest

from minikcm import cli
from minikcm.apiserver.http import command

from .wire import HTTPSClient

pytestmark = pytest.mark.threaded


def run_in_thread(**kwargs):
    out, err, stop = io.StringIO(), io.StringIO(), threading.Event()
    result: dict[str, int] = {}
    thread = threading.Thread(target=lambda: result.setdefault("rc", command.run(out=out, err=err, stop=stop,
                                                                                 **kwargs)), daemon=True)
    thread.start()
    return thread, out, err, stop, result


def wait_for_banner(out: io.StringIO) -> list[str]:
    pause = threading.Event()
    for _ in range(250):
        lines = out.getvalue().splitlines()
        if len(lines) >= 3:
            return lines
        pause.wait(0.02)
    raise AssertionError(f"no banner: {out.getvalue()!r}")


def test_run_prints_the_banner_serves_and_stops(tmp_path):
    kubeconfig = tmp_path / "kc"
    thread, out, err, stop, result = run_in_thread(kubeconfig=str(kubeconfig))
    lines = wait_for_banner(out)
    assert lines[0].startswith("minikcm apiserver listening on https://127.0.0.1:")
    assert lines[1:3] == [f"kubeconfig: {kubeconfig}", f"export KUBECONFIG={kubeconfig}"]
    assert kubeconfig.exists()
    stop.set()
    thread.join(10)
    assert result["rc"] == 0 and out.getvalue().endswith("minikcm apiserver stopped\n")


def test_data_dir_persists_between_runs(tmp_path):
    from kubernetes import client, config

    thread, out, _, stop, _ = run_in_thread(data_dir=str(tmp_path))
    wait_for_banner(out)
    core = client.CoreV1Api(config.new_client_from_config(config_file=str(tmp_path / "kubeconfig")))
    core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name="kept")))
    stop.set()
    thread.join(10)
    thread, out, _, stop, _ = run_in_thread(data_dir=str(tmp_path))
    wait_for_banner(out)
    core = client.CoreV1Api(config.new_client_from_config(config_file=str(tmp_path / "kubeconfig")))
    assert "kept" in [ns.metadata.name for ns in core.list_namespace().items]
    stop.set()
    thread.join(10)


def test_non_loopback_bind_is_refused(tmp_path):
    err = io.StringIO()
    assert command.run(bind_address="0.0.0.0", err=err, kubeconfig=str(tmp_path / "kc")) == 2
    assert "--allow-non-loopback" in err.getvalue()
    assert not (tmp_path / "kc").exists()


def test_data_dir_without_persistence_is_a_clear_error(monkeypatch, tmp_path):
    class NoPersistence:
        def __init__(self, clock=None) -> None:
            pass

    monkeypatch.setattr(command, "APIServer", NoPersistence)
    err = io.StringIO()
    assert command.run(data_dir=str(tmp_path), err=err) == 2
    assert "--data-dir needs the API server's SQLite persistence" in err.getvalue()


def test_cli_registers_the_apiserver_command():
    args = cli.build_parser().parse_args(["apiserver", "--port", "0", "--kubeconfig", "/tmp/x",
                                          "--bind-address", "127.0.0.1"])
    assert (args.func, args.port, args.kubeconfig, args.data_dir, args.allow_non_loopback) == (
        cli.cmd_apiserver, 0, "/tmp/x", None, False)


def test_a_taken_port_is_reported(tmp_path, server):
    from minikcm.apiserver.http.server import serve

    handle = serve(server)
    try:
        err = io.StringIO()
        assert command.run(port=handle.port, err=err, kubeconfig=str(tmp_path / "kc")) == 1
        assert "cannot listen" in err.getvalue()
        assert HTTPSClient(handle).json("GET", "/version")[0] == 200
    finally:
        handle.shutdown()


@pytest.mark.parametrize("signum", [pytest.param(2, id="ctrl-c"), pytest.param(15, id="sigterm")])
def test_the_command_stops_cleanly_on_a_signal(tmp_path, signum):
    import os
    import signal
    import subprocess
    import sys

    kubeconfig = tmp_path / "kc"
    proc = subprocess.Popen([sys.executable, "-m", "minikcm", "apiserver", "--kubeconfig", str(kubeconfig)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        banner = [proc.stdout.readline() for _ in range(3)]
        assert banner[2].strip() == f"export KUBECONFIG={kubeconfig}"
        proc.send_signal(signal.Signals(signum))
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert out.strip().endswith("minikcm apiserver stopped")
    assert "Traceback" not in err
