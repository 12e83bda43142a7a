"""Tests for minikcm.apimachinery.labels.labels (ports of pkg/labels/labels_test.go)."""

from __future__ import annotations

import pytest

from minikcm.apimachinery.labels import labels as L
from minikcm.apimachinery.labels.labels import Set


SET_STRING_CASES = [
    pytest.param({"x": "y"}, "x=y", id="one"),
    pytest.param({"foo": "bar"}, "foo=bar", id="other-one"),
    pytest.param({"foo": "bar", "baz": "qup"}, "baz=qup,foo=bar", id="sorted"),
]


@pytest.mark.parametrize("ls, want", SET_STRING_CASES)
def test_set_string(ls, want):
    """Port of TestSetString (pkg/labels/labels_test.go)."""
    assert str(Set(ls)) == want


LABEL_HAS_CASES = [
    pytest.param({"x": "y"}, "x", True, id="present"),
    pytest.param({"x": ""}, "x", True, id="present-empty"),
    pytest.param({"x": "y"}, "foo", False, id="absent"),
]


@pytest.mark.parametrize("ls, key, want", LABEL_HAS_CASES)
def test_label_has(ls, key, want):
    """Port of TestLabelHas (pkg/labels/labels_test.go)."""
    assert Set(ls).has(key) is want


def test_label_get():
    """Port of TestLabelGet (pkg/labels/labels_test.go)."""
    ls = Set({"x": "y"})
    assert ls.get("x") == "y"
    assert ls.get("nope") == ""
    assert ls.lookup("x") == ("y", True)
    assert ls.lookup("nope") == ("", False)


LABEL_CONFLICT_CASES = [
    pytest.param({}, {}, False, id="both-empty"),
    pytest.param({"env": "test"}, {"infra": "true"}, False, id="disjoint"),
    pytest.param({"env": "test"}, {"infra": "true", "env": "test"}, False, id="shared-same-value"),
    pytest.param({"env": "test"}, {"env": "dev"}, True, id="shared-other-value"),
    pytest.param({"env": "test", "infra": "false"}, {"infra": "true", "color": "blue"}, True, id="one-of-many"),
]


@pytest.mark.parametrize("labels1, labels2, want", LABEL_CONFLICT_CASES)
def test_label_conflict(labels1, labels2, want):
    """Port of TestLabelConflict (pkg/labels/labels_test.go)."""
    assert L.conflicts(Set(labels1), Set(labels2)) is want


LABEL_MERGE_CASES = [
    pytest.param({}, {}, {}, id="both-empty"),
    pytest.param({"infra": "true"}, {}, {"infra": "true"}, id="second-empty"),
    pytest.param({"infra": "true"}, {"env": "test", "color": "blue"},
                 {"infra": "true", "env": "test", "color": "blue"}, id="union"),
    pytest.param({"env": "a"}, {"env": "b"}, {"env": "b"}, id="second-wins"),
]


@pytest.mark.parametrize("labels1, labels2, want", LABEL_MERGE_CASES)
def test_label_merge(labels1, labels2, want):
    """Port of TestLabelMerge (pkg/labels/labels_test.go)."""
    merged = L.merge(Set(labels1), Set(labels2))
    assert L.equals(merged, want)
    assert isinstance(merged, Set)


def test_equals():
    assert L.equals({"a": "1"}, {"a": "1"})
    assert not L.equals({"a": "1"}, {"a": "2"})
    assert not L.equals({"a": "1"}, {"b": "1"})
    assert L.equals(None, {})


LABEL_SELECTOR_PARSE_CASES = [
    pytest.param("", {}, id="empty"),
    pytest.param("x=a", {"x": "a"}, id="one"),
    pytest.param("x=a,y=b,z=c", {"x": "a", "y": "b", "z": "c"}, id="three"),
    pytest.param(" x = a , y = b , z = c ", {"x": "a", "y": "b", "z": "c"}, id="spaces-trimmed"),
    pytest.param("color=green,env=test,service=front",
                 {"color": "green", "env": "test", "service": "front"}, id="words"),
    pytest.param("color=green, env=test, service=front",
                 {"color": "green", "env": "test", "service": "front"}, id="space-after-comma"),
]

LABEL_SELECTOR_PARSE_ERROR_CASES = [
    pytest.param(",", id="lone-comma"),
    pytest.param("x", id="bare-key"),
    pytest.param("x,y", id="bare-keys"),
    pytest.param("x=$y", id="bad-value"),
    pytest.param("x!=y", id="not-equals"),
    pytest.param("x==y", id="double-equals"),
    pytest.param("x=a||y=b", id="or"),
    pytest.param("x in (y)", id="in"),
    pytest.param("x notin (y)", id="notin"),
    pytest.param("x y", id="space-separated"),
]


@pytest.mark.parametrize("selector, want", LABEL_SELECTOR_PARSE_CASES)
def test_label_selector_parse(selector, want):
    """Port of TestLabelSelectorParse (pkg/labels/labels_test.go)."""
    assert L.convert_selector_to_labels_map(selector) == want


@pytest.mark.parametrize("selector", LABEL_SELECTOR_PARSE_ERROR_CASES)
def test_label_selector_parse_errors(selector):
    """Port of TestLabelSelectorParse (pkg/labels/labels_test.go), invalid rows."""
    with pytest.raises(ValueError):
        L.convert_selector_to_labels_map(selector)


def test_format_labels():
    assert L.format_labels({}) == "<none>"
    assert L.format_labels(None) == "<none>"
    assert L.format_labels({"b": "2", "a": "1"}) == "a=1,b=2"
