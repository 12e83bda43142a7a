"""Tests for minikcm/apimachinery/wait/__init__.py: the package re-exports every public name, one switch each."""

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


def test_deterministic_switch_is_read_through_the_package(monkeypatch):
    monkeypatch.setattr(wait, "DETERMINISTIC", True)
    calls = []
    _wait.Group().start(lambda: calls.append(threading.current_thread().name))
    assert calls == [threading.current_thread().name]
    assert not hasattr(_wait, "DETERMINISTIC"), "a second binding would go stale when a test sets the package's"


def test_jitter_rand_is_read_through_the_package(monkeypatch):
    monkeypatch.setattr(wait, "jitter_rand", lambda: 0.25)
    assert _wait.jitter(4.0, 1.0) == 5.0
    assert wait.Backoff(duration=4.0, jitter=1.0).step() == 5.0
    assert not hasattr(_wait, "jitter_rand")
