"""Tests for minikcm.cmd.controller_manager.names."""

from __future__ import annotations

import re

from minikcm.cmd.controller_manager import names

ALL_NAMES = {k: v for k, v in vars(names).items() if k.isupper() and isinstance(v, str)}


def test_names_are_unique():
    assert len(set(ALL_NAMES.values())) == len(ALL_NAMES) == 50


def test_name_consistency():
    """Port of TestControllerNamesConsistency's rules, applied to every constant."""
    for name in ALL_NAMES.values():
        assert re.fullmatch(r"[a-z]([-a-z]*[a-z])?", name), name
        assert name.endswith("-controller"), name


def test_the_controllers_minikcm_ports():
    assert names.DEPLOYMENT_CONTROLLER == "deployment-controller"
    assert names.REPLICA_SET_CONTROLLER == "replicaset-controller"
    assert names.STATEFUL_SET_CONTROLLER == "statefulset-controller"
    assert names.GARBAGE_COLLECTOR_CONTROLLER == "garbage-collector-controller"
