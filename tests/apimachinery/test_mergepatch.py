"""Tests for minikcm.apimachinery.mergepatch (the error messages of pkg/util/mergepatch/errors.go)."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import mergepatch as mp

MESSAGE_CASES = [
    pytest.param(mp.err_no_merge_key({"value": "b", "n": 1.0}, "name"), "map: map[n:1 value:b] does not contain declared merge key: name", id="no-merge-key"),
    pytest.param(mp.err_bad_arg_type(mp.MAP_TYPE, [1]), "expected a map[string]interface {}, but received a []interface {}", id="bad-arg-type"),
    pytest.param(mp.err_bad_arg_type(mp.SLICE_TYPE, None), "expected a []interface {}, but received a <nil>", id="bad-arg-type-nil"),
    pytest.param(mp.err_bad_patch_type("bogus", {"$patch": "bogus"}), "unknown patch type: bogus in map: map[$patch:bogus]", id="bad-patch-type"),
]


@pytest.mark.parametrize("err, message", MESSAGE_CASES)
def test_error_messages(err, message):
    assert isinstance(err, mp.PatchError) and isinstance(err, ValueError)
    assert str(err) == message


@pytest.mark.parametrize(
    "value, kind",
    [(None, "nil"), ({}, "map"), ([], "slice"), (True, "bool"), (1, "float64"), (1.5, "float64"), ("s", "string")],
    ids=["nil", "map", "slice", "bool", "int", "float", "string"],
)
def test_value_kind(value, kind):
    # Go decodes every JSON number to float64, and a bool is never a number.
    assert mp.value_kind(value) == kind


def test_go_value():
    assert mp.go_value({"b": [1, True], "a": None}) == "map[a:<nil> b:[1 true]]"
