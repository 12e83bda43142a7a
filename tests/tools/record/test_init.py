"""Tests for minikcm/tools/record/__init__.py: `__all__` names exactly what the package re-exports."""

from __future__ import annotations

import minikcm.tools.record as record


def test_all_matches_public_names():
    public = {name for name in vars(record) if not name.startswith("_")}
    submodules = {"event", "events_cache", "fake", "gofmt", "util"}
    assert set(record.__all__) == public - submodules
    assert len(record.__all__) == len(set(record.__all__)), "duplicate names in __all__"


def test_docstring_kept():
    assert record.__doc__.startswith("Port of k8s.io/client-go/tools/record")
