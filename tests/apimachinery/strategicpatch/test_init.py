"""Tests for minikcm/apimachinery/strategicpatch/__init__.py: `__all__` names exactly what the package re-exports."""

from __future__ import annotations

import minikcm.apimachinery.strategicpatch as strategicpatch


def test_all_matches_public_names():
    public = {name for name in vars(strategicpatch) if not name.startswith("_")}
    assert set(strategicpatch.__all__) == public - {"meta", "patch"}
    assert len(strategicpatch.__all__) == len(set(strategicpatch.__all__)), "duplicate names in __all__"
