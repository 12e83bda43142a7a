"""Tests for minikcm/apimachinery/watch/__init__.py: the package re-exports what callers use."""

from __future__ import annotations

import types

from minikcm.apimachinery import watch


def test_all_matches_public_names():
    public = {name for name, value in vars(watch).items()
              if not name.startswith("_") and not isinstance(value, types.ModuleType)}
    assert set(watch.__all__) == public
    assert len(watch.__all__) == len(set(watch.__all__)), "duplicate names in __all__"
