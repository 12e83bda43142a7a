"""Tests for minikcm/apimachinery/wait/__init__.py: the package re-exports every public name, with no mode switch."""

from __future__ import annotations

import threading
import types

import pytest

from minikcm.apimachinery import wait
from minikcm.apimachinery.wait import _backoff, _poll, _wait


def test_all_matches_public_names():
    public = {name for name, value in vars(wait).items()
              if not name.startswith("_") and not isinstance(value, types.ModuleType)}
    assert set(wait.__all__) == public
    assert len(wait.__all__) == len(set(wait.__all__)), "duplicate names in __all__"


FUNCTION_NOT_MODULE_CASES = [
    pytest.param("delay", _backoff.delay, id="delay-is-backoff-go-delay"),
    pytest.param("poll", _poll.poll, id="poll-is-legacy-poll"),
]


@pytest.mark.parametrize("name, want", FUNCTION_NOT_MODULE_CASES)
def test_names_shared_with_a_go_file_are_the_functions(name, want):
    assert getattr(wait, name) is want
    assert not isinstance(getattr(wait, name), types.ModuleType)


def test_there_is_no_package_mode_switch():
    """The run mode comes from a component's clock: no process-wide switch, no Group parameter named after it."""
    assert not hasattr(wait, "DETERMINISTIC")
    assert not hasattr(_wait, "DETERMINISTIC")
    calls = []
    _wait.Group(inline=True).start(lambda: calls.append(threading.current_thread().name))
    assert calls == [threading.current_thread().name]


def test_jitter_rand_is_one_binding_in_wait_go_module(monkeypatch):
    assert wait.jitter_rand is _wait.jitter_rand, "the package re-exports wait.go's jitterRand"
    monkeypatch.setattr(_wait, "jitter_rand", lambda: 0.25)
    assert _wait.jitter(4.0, 1.0) == 5.0
    assert wait.jitter(4.0, 1.0) == 5.0
    assert wait.Backoff(duration=4.0, jitter=1.0).step() == 5.0


SUBMODULES = ["_error", "_wait", "_backoff", "_delay", "_timer", "_loop", "_poll"]


@pytest.mark.parametrize("name", SUBMODULES)
def test_no_submodule_imports_the_package(name):
    """The package imports its submodules; none imports it back (no import cycle)."""
    import ast
    import pathlib

    source = pathlib.Path(wait.__file__).with_name(f"{name}.py").read_text()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "minikcm.apimachinery":
            assert "wait" not in {a.name for a in node.names}, f"{name} imports the wait package"
        if isinstance(node, ast.Import):
            assert "minikcm.apimachinery.wait" not in {a.name for a in node.names}
