"""Tests for the `minikcm controller-manager` sub-command of minikcm.cli (its flag handling and errors)."""

from __future__ import annotations

import argparse

import pytest

from minikcm.cli import add_controller_manager_command


def main(argv: list[str]) -> int:
    """`minikcm` with only the controller-manager sub-command (the other sub-commands belong elsewhere)."""
    parser = argparse.ArgumentParser(prog="minikcm")
    add_controller_manager_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return int(args.func(args))


def test_help_lists_the_upstream_flags(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["controller-manager", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for flag in ("--kubeconfig", "--leader-elect-lease-duration", "--controllers", "--concurrent-gc-syncs",
                 "--min-resync-period", "--leader-elect-resource-namespace"):
        assert flag in out


def test_a_bad_duration_is_refused_by_the_parser(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["controller-manager", "--leader-elect-lease-duration=1x"])
    assert exit_info.value.code == 2
    assert 'time: unknown unit "x" in duration "1x"' in capsys.readouterr().err


def test_invalid_flags_are_all_reported(capsys):
    assert main(["controller-manager", "--controllers=foo", "--leader-elect-resource-lock=endpoints"]) == 1
    err = capsys.readouterr().err
    assert 'invalid flags: resourceLock value must be "leases"' in err
    assert 'invalid flags: "foo" is not in the list of known controllers' in err


def test_a_kubeconfig_is_required(capsys):
    assert main(["controller-manager"]) == 1
    assert "--kubeconfig is required" in capsys.readouterr().err


def test_a_missing_kubeconfig_file_is_reported(tmp_path, capsys):
    assert main(["controller-manager", "--kubeconfig", str(tmp_path / "nope")]) == 1
    err = capsys.readouterr().err
    assert "nope" in err and ("cannot load kubeconfig" in err or "REST clientset" in err)


RAISING_HANDLER_PROCESS = """
import threading, time
from kubernetes.client import V1ObjectMeta, V1Pod
from minikcm.apiserver.server import APIServer
from minikcm.cli import exit_on_unhandled_thread_exception
from minikcm.client import InProcessClientset
from minikcm.informers import new_shared_informer_factory
from minikcm.tools.cache.controller import ResourceEventHandlerFuncs

exit_on_unhandled_thread_exception()  # what `minikcm controller-manager` installs
cs = InProcessClientset(APIServer())
cs.core_v1().pods("default").create(V1Pod(metadata=V1ObjectMeta(name="p"), spec={"containers": [
    {"name": "c", "image": "nginx"}]}))
factory = new_shared_informer_factory(cs, 0)

def on_add(obj):
    raise RuntimeError("handler refuses " + obj.metadata.name)

factory.core().v1().pods().informer().add_event_handler(ResourceEventHandlerFuncs(add_func=on_add))
factory.start(threading.Event())
time.sleep(10)
print("still running")
"""


def test_a_raising_handler_ends_the_process_as_in_go():
    # REALLY_CRASH on (the default kube-controller-manager keeps): the panic handlers log the traceback,
    # the exception leaves the listener thread, and the process exits with Go's panic status, 2.
    import os
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", RAISING_HANDLER_PROCESS], capture_output=True, text=True,
                          timeout=60, env=os.environ.copy())
    assert done.returncode == 2, done.stderr[-2000:]
    assert "still running" not in done.stdout
    assert "Observed a panic" in done.stderr and "RuntimeError: handler refuses p" in done.stderr
    assert "Traceback" in done.stderr

