"""Tests for the helpers of minikcm.apiserver.core_validation (the rules themselves: test_validation.py)."""

from __future__ import annotations

import pytest

from minikcm.apiserver import core_validation as core
from minikcm.apimachinery.field import new_path

FINALIZER_CASES = [
    pytest.param("kubernetes", True, id="standard-kubernetes"),
    pytest.param("orphan", True, id="standard-orphan"),
    pytest.param("foregroundDeletion", True, id="standard-foreground"),
    pytest.param("example.com/cleanup", True, id="qualified"),
    pytest.param("cleanup", False, id="bare-name"),
]


@pytest.mark.parametrize("name, ok", FINALIZER_CASES)
def test_validate_kube_finalizer_name(name, ok):
    """validateKubeFinalizerName (pkg/apis/core/validation/validation.go)."""
    errs = core.validate_kube_finalizer_name(name, new_path("f"))
    assert (errs == []) is ok


POLICY_CASES = [
    pytest.param(core.validate_restart_policy, "", ["p: Required value"], id="restart-empty"),
    pytest.param(core.validate_restart_policy, "OnFailure", [], id="restart-on-failure"),
    pytest.param(core.validate_dns_policy, "", ["p: Required value"], id="dns-empty"),
    pytest.param(core.validate_dns_policy, "None", [], id="dns-none"),
    pytest.param(core.validate_pull_policy, "", ["p: Required value"], id="pull-empty"),
    pytest.param(core.validate_pull_policy, "Never", [], id="pull-never"),
]


@pytest.mark.parametrize("fn, value, expected", POLICY_CASES)
def test_policy_validators(fn, value, expected):
    """validateRestartPolicy, validateDNSPolicy and validatePullPolicy."""
    assert [str(e) for e in fn(value, new_path("p"))] == expected


def test_validate_volumes_returns_names():
    names, errs = core.validate_volumes([{"name": "a", "emptyDir": {}}, {"name": "b", "emptyDir": {}, "secret": {"secretName": "s"}}], new_path("v"))
    assert names == {"a", "b"}
    assert [str(e) for e in errs] == ["v[1].secret: Forbidden: may not specify more than 1 volume type"]


def test_spec_helpers():
    assert core.go_int(None) == 0 and core.go_int(True) == 0 and core.go_int(5) == 5
    dst = {"a": 1}
    core.copy_key(dst, {}, "a")
    assert dst == {}
    core.copy_key(dst, {"a": [1]}, "a")
    assert dst == {"a": [1]}
    assert core.spec_of({}) == {} and core.status_of({"status": None}) == {}
