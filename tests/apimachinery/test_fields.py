"""Tests for minikcm.apimachinery.fields (port of pkg/fields/*_test.go)."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import fields
from minikcm.apimachinery.fields import AndTerm, HasTerm, NotHasTerm, Set

# --- fields_test.go ---------------------------------------------------------

SET_STRING_CASES = [
    pytest.param(Set({"x": "y"}), "x=y", id="one"),
    pytest.param(Set({"foo": "bar"}), "foo=bar", id="other-one"),
    pytest.param(Set({"foo": "bar", "baz": "qup"}), "baz=qup,foo=bar", id="sorted"),
    pytest.param(Set(), "", id="empty"),
]


@pytest.mark.parametrize("ls, want", SET_STRING_CASES)
def test_set_string(ls, want):
    """Port of TestSetString (pkg/fields/fields_test.go)."""
    assert str(ls) == want


FIELD_HAS_CASES = [
    pytest.param(Set({"x": "y"}), "x", True, id="present"),
    pytest.param(Set({"x": ""}), "x", True, id="present-empty-value"),
    pytest.param(Set({"x": "y"}), "foo", False, id="absent"),
]


@pytest.mark.parametrize("ls, key, want", FIELD_HAS_CASES)
def test_field_has(ls, key, want):
    """Port of TestFieldHas (pkg/fields/fields_test.go)."""
    assert ls.has(key) is want


def test_field_get():
    """Port of TestFieldGet (pkg/fields/fields_test.go)."""
    ls = Set({"x": "y"})
    assert ls.get("x") == "y"
    assert ls.get("missing") == ""


# --- selector_test.go -------------------------------------------------------

SPLIT_TERMS_CASES = [
    pytest.param("a", ["a"], id="simple"),
    pytest.param("a=avalue", ["a=avalue"], id="one-term"),
    pytest.param("a=avalue,b=bvalue", ["a=avalue", "b=bvalue"], id="two-terms"),
    pytest.param("a=avalue,b==bvalue,c!=cvalue", ["a=avalue", "b==bvalue", "c!=cvalue"], id="three-operators"),
    pytest.param("", None, id="empty"),
    pytest.param("a=a,", ["a=a", ""], id="trailing-empty"),
    pytest.param(",a=a", ["", "a=a"], id="leading-empty"),
    pytest.param(r"k=\,,k2=v2", [r"k=\,", "k2=v2"], id="escaped-comma"),
    pytest.param(r"k=\\,k2=v2", [r"k=\\", "k2=v2"], id="escaped-backslash-then-comma"),
    pytest.param(r"k=\\\,,k2=v2", [r"k=\\\,", "k2=v2"], id="escaped-backslash-and-comma"),
    pytest.param("k=\\a\\b\\", ["k=\\a\\b\\"], id="non-escape-sequences"),
    pytest.param("k=\\", ["k=\\"], id="orphan-backslash"),
    pytest.param("함=수,목=록", ["함=수", "목=록"], id="multi-byte"),
]


@pytest.mark.parametrize("selector, want", SPLIT_TERMS_CASES)
def test_split_terms(selector, want):
    """Port of TestSplitTerms (pkg/fields/selector_test.go)."""
    assert fields.split_terms(selector) == want


SPLIT_TERM_CASES = [
    pytest.param("a=value", ("a", "=", "value", True), id="equals"),
    pytest.param("b==value", ("b", "==", "value", True), id="double-equals"),
    pytest.param("c!=value", ("c", "!=", "value", True), id="not-equals"),
    pytest.param("", ("", "", "", False), id="empty"),
    pytest.param("a", ("", "", "", False), id="no-operator"),
    pytest.param(r"k=\,", ("k", "=", r"\,", True), id="escaped-comma"),
    pytest.param(r"k=\=", ("k", "=", r"\=", True), id="escaped-equals"),
    pytest.param("k=\\\\\\a\\b\\=\\,\\", ("k", "=", "\\\\\\a\\b\\=\\,\\", True), id="escapes-kept-raw"),
    pytest.param("함=수", ("함", "=", "수", True), id="multi-byte"),
]


@pytest.mark.parametrize("term, want", SPLIT_TERM_CASES)
def test_split_term(term, want):
    """Port of TestSplitTerm (pkg/fields/selector_test.go)."""
    assert fields.split_term(term) == want


ESCAPE_VALUE_CASES = [
    pytest.param("", "", id="empty"),
    pytest.param("a", "a", id="plain"),
    pytest.param("=", r"\=", id="equals"),
    pytest.param(",", r"\,", id="comma"),
    pytest.param("\\", "\\\\", id="backslash"),
    pytest.param("\\=\\,\\", "\\\\\\=\\\\\\,\\\\", id="mixed"),
]


@pytest.mark.parametrize("unescaped, escaped", ESCAPE_VALUE_CASES)
def test_escape_value(unescaped, escaped):
    """Port of TestEscapeValue (pkg/fields/selector_test.go): escaping round-trips."""
    assert fields.escape_value(unescaped) == escaped
    assert fields.unescape_value(escaped) == unescaped


INVALID_ESCAPE_CASES = [
    pytest.param("\\", id="orphan-backslash"),
    pytest.param("\\\\\\", id="orphan-after-escaped-backslash"),
    pytest.param("\\a", id="unknown-escape"),
]


@pytest.mark.parametrize("value", INVALID_ESCAPE_CASES)
def test_escape_value_invalid_sequences(value):
    """Port of TestEscapeValue (pkg/fields/selector_test.go), invalid rows."""
    with pytest.raises(fields.InvalidEscapeSequence):
        fields.unescape_value(value)


def test_unescape_value_rejects_bare_comma():
    with pytest.raises(fields.UnescapedRune, match="unescaped character in value: 44"):
        fields.unescape_value("a,b")


SELECTOR_PARSE_GOOD_CASES = [
    pytest.param("x=a,y=b,z=c", id="three-equals"),
    pytest.param("", id="empty"),
    pytest.param("x!=a,y=b", id="not-equals"),
    pytest.param(r"x=a||y\=b", id="escaped-equals-in-value"),
    pytest.param(r"x=a\=\=b", id="two-escaped-equals"),
]

SELECTOR_PARSE_BAD_CASES = [
    pytest.param("x=a||y=b", id="unescaped-equals-in-value"),
    pytest.param("x==a==b", id="double-operator"),
    pytest.param("x=a,b", id="term-without-operator"),
    pytest.param("x in (a)", id="set-based-in"),
    pytest.param("x in (a,b,c)", id="set-based-in-list"),
    pytest.param("x", id="bare-key"),
]


@pytest.mark.parametrize("selector", SELECTOR_PARSE_GOOD_CASES)
def test_selector_parse(selector):
    """Port of TestSelectorParse (pkg/fields/selector_test.go): good strings round-trip."""
    assert str(fields.parse_selector(selector)) == selector


@pytest.mark.parametrize("selector", SELECTOR_PARSE_BAD_CASES)
def test_selector_parse_errors(selector):
    """Port of TestSelectorParse (pkg/fields/selector_test.go), bad strings."""
    with pytest.raises(ValueError):
        fields.parse_selector(selector)


def test_selector_parse_error_message():
    with pytest.raises(ValueError, match=r"invalid selector: 'x=a,b'; can't understand 'b'"):
        fields.parse_selector("x=a,b")


def test_deterministic_parse():
    """Port of TestDeterministicParse (pkg/fields/selector_test.go)."""
    assert str(fields.parse_selector("x=a,a=x")) == str(fields.parse_selector("a=x,x=a"))
    assert fields.parse_selector("x=a,a=x") == fields.parse_selector("a=x,x=a")


def test_everything():
    """Port of TestEverything (pkg/fields/selector_test.go)."""
    assert fields.everything().matches(Set({"x": "y"}))
    assert fields.everything().empty()


COMPLEX = {"foo": "bar", "baz": "blah", "complex": "=value\\,\\"}

SELECTOR_MATCHES_CASES = [
    pytest.param("", {"x": "y"}, True, id="empty-matches"),
    pytest.param("x=y", {"x": "y"}, True, id="equal"),
    pytest.param("x=y,z=w", {"x": "y", "z": "w"}, True, id="two-equal"),
    pytest.param("x!=y,z!=w", {"x": "z", "z": "a"}, True, id="two-not-equal"),
    pytest.param("notin=in", {"notin": "in"}, True, id="keywords-are-plain-names"),
    pytest.param("x=y", {"x": "z"}, False, id="different-value"),
    pytest.param("x=y,z=w", {"x": "w", "z": "w"}, False, id="one-of-two-differs"),
    pytest.param("x!=y,z!=w", {"x": "z", "z": "w"}, False, id="not-equal-violated"),
    pytest.param("foo=bar", COMPLEX, True, id="set-foo"),
    pytest.param("baz=blah", COMPLEX, True, id="set-baz"),
    pytest.param("foo=bar,baz=blah", COMPLEX, True, id="set-both"),
    pytest.param("foo=bar,baz=blah,complex=\\=value\\\\\\,\\\\", COMPLEX, True, id="escaped-value"),
    pytest.param("foo=blah", COMPLEX, False, id="set-wrong-foo"),
    pytest.param("baz=bar", COMPLEX, False, id="set-wrong-baz"),
    pytest.param("foo=bar,foobar=bar,baz=blah", COMPLEX, False, id="set-extra-term"),
    pytest.param("x=", {}, True, id="absent-field-reads-empty"),
]


@pytest.mark.parametrize("selector, ls, want", SELECTOR_MATCHES_CASES)
def test_selector_matches(selector, ls, want):
    """Port of TestSelectorMatches (pkg/fields/selector_test.go)."""
    sel = fields.parse_selector(selector)
    assert sel.matches(Set(ls)) is want
    assert sel.matches(dict(ls)) is want  # a plain dict works too


def test_one_term_equal_selector():
    """Port of TestOneTermEqualSelector (pkg/fields/selector_test.go)."""
    assert fields.one_term_equal_selector("x", "y").matches(Set({"x": "y"}))
    assert not fields.one_term_equal_selector("x", "y").matches(Set({"x": "z"}))
    assert str(fields.one_term_equal_selector("metadata.name", "a,b")) == r"metadata.name=a\,b"


LABELSET = {"foo": "bar", "baz": "blah"}

SET_MATCHES_CASES = [
    pytest.param({}, True, id="empty-set"),
    pytest.param({"foo": "bar"}, True, id="foo"),
    pytest.param({"baz": "blah"}, True, id="baz"),
    pytest.param({"foo": "bar", "baz": "blah"}, True, id="both"),
    pytest.param({"foo": "=blah"}, False, id="wrong-foo"),
    pytest.param({"baz": "=bar"}, False, id="wrong-baz"),
    pytest.param({"foo": "=bar", "foobar": "bar", "baz": "blah"}, False, id="mixed"),
]


@pytest.mark.parametrize("selector_set, want", SET_MATCHES_CASES)
def test_set_matches(selector_set, want):
    """Port of TestSetMatches (pkg/fields/selector_test.go)."""
    assert fields.selector_from_set(Set(selector_set)).matches(Set(LABELSET)) is want


def test_nil_map_is_valid():
    """Port of TestNilMapIsValid (pkg/fields/selector_test.go)."""
    selector = fields.selector_from_set(None)
    assert selector is not None
    assert selector.empty()


SET_IS_EMPTY_CASES = [
    pytest.param(Set().as_selector(), True, id="empty-set"),
    pytest.param(AndTerm(), True, id="nil-and-term"),
    pytest.param(HasTerm(), False, id="has-term"),
    pytest.param(NotHasTerm(), False, id="not-has-term"),
    pytest.param(AndTerm([AndTerm()]), True, id="nested-empty-and"),
    pytest.param(AndTerm([HasTerm("a", "b")]), False, id="nested-non-empty-and"),
    pytest.param(fields.nothing(), False, id="nothing-is-not-empty"),
]


@pytest.mark.parametrize("selector, want", SET_IS_EMPTY_CASES)
def test_set_is_empty(selector, want):
    """Port of TestSetIsEmpty (pkg/fields/selector_test.go)."""
    assert selector.empty() is want


REQUIRES_EXACT_MATCH_CASES = [
    pytest.param(Set().as_selector(), "test", "", False, id="empty set"),
    pytest.param(HasTerm(), "test", "", False, id="empty hasTerm"),
    pytest.param(HasTerm("a", "b"), "test", "", False, id="skipped hasTerm"),
    pytest.param(HasTerm("test", "b"), "test", "b", True, id="valid hasTerm"),
    pytest.param(HasTerm("test", ""), "test", "", True, id="valid hasTerm no value"),
    pytest.param(NotHasTerm("test", "b"), "test", "", False, id="valid notHasTerm"),
    pytest.param(NotHasTerm("test", ""), "test", "", False, id="valid notHasTerm no value"),
    pytest.param(AndTerm(), "test", "", False, id="empty andTerm"),
    pytest.param(AndTerm([AndTerm()]), "test", "", False, id="nested andTerm"),
    pytest.param(AndTerm([HasTerm("test", "b")]), "test", "b", True, id="nested andTerm matches"),
    pytest.param(AndTerm([HasTerm(), HasTerm("test", "b")]), "test", "b", True, id="andTerm with non-match"),
]


@pytest.mark.parametrize("selector, label, value, found", REQUIRES_EXACT_MATCH_CASES)
def test_requires_exact_match(selector, label, value, found):
    """Port of TestRequiresExactMatch (pkg/fields/selector_test.go)."""
    assert selector.requires_exact_match(label) == (value, found)


def _identity(field, value):
    return field, value


def _rename_a(field, value):
    return ("e", "f") if field == "a" else (field, value)


def _drop_all(field, value):
    return "", ""


def _drop_c(field, value):
    return ("", "") if field == "c" else (field, value)


TRANSFORM_CASES = [
    pytest.param("", _identity, "", True, id="empty selector"),
    pytest.param("a=b,c=d", _identity, "a=b,c=d", False, id="no-op transform"),
    pytest.param("a=b,c=d", _rename_a, "e=f,c=d", False, id="transform one field"),
    pytest.param("a=b", _drop_all, "", True, id="remove field to make empty"),
    pytest.param("a=b,c=d,e=f", _drop_c, "a=b,e=f", False, id="remove only one field"),
]


@pytest.mark.parametrize("selector, fn, want, is_empty", TRANSFORM_CASES)
def test_transform(selector, fn, want, is_empty):
    """Port of TestTransform (pkg/fields/selector_test.go)."""
    result = fields.parse_and_transform_selector(selector, fn)
    assert result.empty() is is_empty
    assert str(result) == want


def test_transform_error_propagates():
    def reject(field, value):
        raise ValueError(f"field label not supported: {field}")

    with pytest.raises(ValueError, match="not supported: a"):
        fields.parse_and_transform_selector("a=b", reject)


def test_requirements_and_deep_copy():
    sel = fields.parse_selector("b!=2,a=1")
    assert sel.requirements() == [
        fields.Requirement(operator="=", field="a", value="1"),
        fields.Requirement(operator="!=", field="b", value="2"),
    ]
    copied = sel.deep_copy_selector()
    assert copied == sel and copied is not sel
    assert fields.nothing().requirements() == []
    assert not fields.nothing().matches({})


def test_selector_from_set_is_sorted():
    # Go walks the map in random order; we sort, so the string is stable.
    assert str(fields.selector_from_set({"z": "1", "a": "2"})) == "a=2,z=1"
    assert str(fields.and_selectors(HasTerm("b", "1"), NotHasTerm("a", "2"))) == "b=1,a!=2"
