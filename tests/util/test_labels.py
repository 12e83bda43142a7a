"""Tests for minikcm.util.labels: ports of pkg/util/labels/labels_test.go tables."""

from __future__ import annotations

import pytest
from kubernetes.client import V1LabelSelector, V1LabelSelectorRequirement

from minikcm.util import labels as labelsutil

LABELS = {"foo1": "bar1", "foo2": "bar2", "foo3": "bar3"}

CLONE_AND_ADD_LABEL_CASES = [
    pytest.param(LABELS, "", "", LABELS, id="empty-key-returns-input"),
    pytest.param(LABELS, "foo4", "42", {**LABELS, "foo4": "42"}, id="adds-key"),
]


@pytest.mark.parametrize("labels, key, value, want", CLONE_AND_ADD_LABEL_CASES)
def test_clone_and_add_label(labels, key, value, want):
    """Port of TestCloneAndAddLabel (pkg/util/labels/labels_test.go), with its inverse check."""
    original = dict(labels)
    got = labelsutil.clone_and_add_label(labels, key, value)
    assert got == want
    assert labels == original  # the input map is never changed
    assert labelsutil.clone_and_remove_label(got, key) == labels


ADD_LABEL_CASES = [
    pytest.param(LABELS, "", "", LABELS, id="empty-key-returns-input"),
    pytest.param(LABELS, "foo4", "food", {**LABELS, "foo4": "food"}, id="adds-key"),
    pytest.param(None, "foo4", "food", {"foo4": "food"}, id="nil-map-is-made"),
]


@pytest.mark.parametrize("labels, key, value, want", ADD_LABEL_CASES)
def test_add_label(labels, key, value, want):
    """Port of TestAddLabel (pkg/util/labels/labels_test.go)."""
    labels = dict(labels) if labels is not None else None
    got = labelsutil.add_label(labels, key, value)
    assert got == want
    if labels is not None:
        assert got is labels  # in place


IN_CACHE = [V1LabelSelectorRequirement(key="tier", operator="In", values=["cache"])]
NO_VALUES = [V1LabelSelectorRequirement(key="tier", operator="In", values=None)]

CLONE_SELECTOR_AND_ADD_LABEL_CASES = [
    pytest.param(LABELS, "", "", None, LABELS, id="empty-key"),
    pytest.param(LABELS, "foo4", "89", None, {**LABELS, "foo4": "89"}, id="adds-key"),
    pytest.param(None, "foo4", "12", None, {"foo4": "12"}, id="nil-match-labels"),
    pytest.param(LABELS, "foo4", "89", IN_CACHE, {**LABELS, "foo4": "89"}, id="keeps-expressions"),
    pytest.param(LABELS, "foo4", "89", NO_VALUES, {**LABELS, "foo4": "89"}, id="keeps-expressions-without-values"),
]


@pytest.mark.parametrize("labels, key, value, expressions, want_match_labels", CLONE_SELECTOR_AND_ADD_LABEL_CASES)
def test_clone_selector_and_add_label(labels, key, value, expressions, want_match_labels):
    """Port of TestCloneSelectorAndAddLabel (pkg/util/labels/labels_test.go)."""
    ls_in = V1LabelSelector(match_labels=labels, match_expressions=expressions)
    got = labelsutil.clone_selector_and_add_label(ls_in, key, value)
    assert got == V1LabelSelector(match_labels=want_match_labels, match_expressions=expressions)
    if key:
        assert got is not ls_in
        assert ls_in.match_labels == labels  # the input selector is untouched
        if expressions:
            assert got.match_expressions[0] is not ls_in.match_expressions[0]


ADD_LABEL_TO_SELECTOR_CASES = [
    pytest.param(LABELS, "", "", LABELS, id="empty-key"),
    pytest.param(LABELS, "foo4", "89", {**LABELS, "foo4": "89"}, id="adds-key"),
    pytest.param(None, "foo4", "12", {"foo4": "12"}, id="nil-match-labels"),
]


@pytest.mark.parametrize("labels, key, value, want", ADD_LABEL_TO_SELECTOR_CASES)
def test_add_label_to_selector(labels, key, value, want):
    """Port of TestAddLabelToSelector (pkg/util/labels/labels_test.go)."""
    ls_in = V1LabelSelector(match_labels=dict(labels) if labels else None)
    got = labelsutil.add_label_to_selector(ls_in, key, value)
    assert got is ls_in
    assert got == V1LabelSelector(match_labels=want)


SELECTOR_HAS_LABEL_CASES = [
    pytest.param(V1LabelSelector(match_labels={"a": "b"}), "a", True, id="return true"),
    pytest.param(V1LabelSelector(match_labels={"a": "b"}), "b", False, id="return false"),
    pytest.param(V1LabelSelector(match_expressions=[V1LabelSelectorRequirement(key="a", operator="Exists")]), "a",
                 False, id="expressions-are-not-consulted"),
]


@pytest.mark.parametrize("selector, key, want", SELECTOR_HAS_LABEL_CASES)
def test_selector_has_label(selector, key, want):
    """Port of TestSelectorHasLabel (pkg/util/labels/labels_test.go); the last row is ours."""
    assert labelsutil.selector_has_label(selector, key) is want
