"""Tests for minikcm.upstream: the pin and the permalinks docs are built from."""

from __future__ import annotations

import doctest

import pytest

import minikcm.upstream as upstream


def test_pin_is_v1_36_3():
    assert upstream.KUBERNETES_VERSION == "v1.36.3"


def test_doctests():
    assert doctest.testmod(upstream).failed == 0


@pytest.mark.parametrize("bad", [
    pytest.param("", id="empty"),
    pytest.param("k8s.io/kubectl/pkg/x.go", id="not-staging"),
])
def test_permalink_rejects(bad):
    with pytest.raises(ValueError):
        upstream.permalink(bad)


def test_permalink_rejects_reversed_lines():
    with pytest.raises(ValueError):
        upstream.permalink("pkg/a.go", 10, 2)


def test_cli_version(capsys):
    from minikcm.cli import main

    assert main(["version"]) == 0
    assert "v1.36.3" in capsys.readouterr().out
