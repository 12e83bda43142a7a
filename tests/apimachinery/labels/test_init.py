"""Tests for minikcm/apimachinery/labels/__init__.py: the package re-exports what callers use."""

from __future__ import annotations

import types

from minikcm.apimachinery import labels


def test_all_matches_public_names():
    public = {name for name, value in vars(labels).items()
              if not name.startswith("_") and not isinstance(value, types.ModuleType)}
    assert set(labels.__all__) == public
    assert len(labels.__all__) == len(set(labels.__all__)), "duplicate names in __all__"


def test_set_as_selector_round_trips_through_parse():
    selector = labels.Set({"b": "2", "a": "1"}).as_selector()
    assert str(selector) == "a=1,b=2"
    assert labels.parse(str(selector)) == selector
