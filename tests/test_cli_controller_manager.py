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
