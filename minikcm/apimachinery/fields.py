"""Port of k8s.io/apimachinery/pkg/fields (fields.go, requirements.go, selector.go).

Field selectors pick objects by a few fixed fields (`metadata.name`,
`metadata.namespace`, `spec.nodeName`, `status.phase`, ...). The grammar is small:
comma-separated terms `field=value`, `field==value` or `field!=value`, all of which
must hold. Values escape `\\`, `,` and `=` with a backslash. The API server parses
the `fieldSelector` query parameter with `parse_selector`, and informers pass
`one_term_equal_selector("metadata.name", name)` style selectors down to it.

Start reading at: parse_selector, then HasTerm.matches.

Not ported: nothing of substance (every symbol of the three files has a twin).
Differs from Go:
- `Set` is a dict subclass whose `get(field)` returns "" for a missing field, as
  Go's map lookup does. Selectors also accept any plain `dict`; a missing field
  reads as "".
- selector_from_set walks the set in sorted key order (Go map order is random),
  so its string form is deterministic.
- Methods returning `(value, found)` return that tuple. A TransformFunc raises
  instead of returning an error; parse_selector_or_die raises instead of panicking.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field as dataclass_field
from typing import Protocol

# Operator spellings (port of k8s.io/apimachinery/pkg/selection, the two used here).
EQUALS = "="
NOT_EQUALS = "!="


# ---------------------------------------------------------------------------
# fields.go


class Fields(Protocol):
    """Port of Fields (pkg/fields/fields.go): read access to an object's selectable fields."""

    def has(self, field: str) -> bool:
        """Port of Fields.Has (pkg/fields/fields.go)."""

    def get(self, field: str) -> str:
        """Port of Fields.Get (pkg/fields/fields.go)."""


class Set(dict[str, str]):
    """Port of Set (pkg/fields/fields.go): a map of field name to value.

    A real `dict`, so it can be built and compared like one. `get(field)` returns
    "" for an absent field (Go's zero value), which is what the selectors need.
    """

    def __str__(self) -> str:
        """Port of Set.String: `a=1,b=2`, sorted, in the form parse_selector reads."""
        return ",".join(sorted(f"{k}={v}" for k, v in self.items()))

    def has(self, field: str) -> bool:
        """Port of Set.Has: whether `field` is present (even with an empty value)."""
        return field in self

    def get(self, field: str, default: str = "") -> str:  # type: ignore[override]
        """Port of Set.Get: the value of `field`, or "" when it is absent."""
        return super().get(field, default)

    def as_selector(self) -> Selector:
        """Port of Set.AsSelector: a selector requiring every pair of this set."""
        return selector_from_set(self)


def _get(ls: Fields | Mapping[str, str], field: str) -> str:
    # Works for our Set and for a plain dict (whose get() gives None when absent).
    value = ls.get(field)
    return "" if value is None else value


# ---------------------------------------------------------------------------
# requirements.go


@dataclass(frozen=True)
class Requirement:
    """Port of Requirement (pkg/fields/requirements.go): one term of a field selector, read-only."""

    operator: str
    field: str
    value: str


Requirements = list[Requirement]
"""Port of Requirements (pkg/fields/requirements.go): all of them must hold."""

TransformFunc = Callable[[str, str], tuple[str, str]]
"""Port of TransformFunc: maps (field, value) to a new pair; raises to reject a term."""


# ---------------------------------------------------------------------------
# selector.go


class Selector(Protocol):
    """Port of Selector (pkg/fields/selector.go).

    Implementations are immutable values: transform returns a new selector.
    """

    def matches(self, fields: Fields | Mapping[str, str]) -> bool:
        """Port of Selector.Matches (pkg/fields/selector.go)."""

    def empty(self) -> bool:
        """Port of Selector.Empty (pkg/fields/selector.go)."""

    def requires_exact_match(self, field: str) -> tuple[str, bool]:
        """Port of Selector.RequiresExactMatch (pkg/fields/selector.go)."""

    def transform(self, fn: TransformFunc) -> Selector:
        """Port of Selector.Transform (pkg/fields/selector.go)."""

    def requirements(self) -> Requirements:
        """Port of Selector.Requirements (pkg/fields/selector.go)."""

    def deep_copy_selector(self) -> Selector:
        """Port of Selector.DeepCopySelector (pkg/fields/selector.go)."""

    def __str__(self) -> str: ...


@dataclass(frozen=True)
class NothingSelector:
    """Port of nothingSelector (pkg/fields/selector.go): matches no object at all."""

    def matches(self, fields: Fields | Mapping[str, str]) -> bool:
        """Port of nothingSelector.Matches (pkg/fields/selector.go)."""
        return False

    def empty(self) -> bool:
        """Port of nothingSelector.Empty (pkg/fields/selector.go)."""
        return False

    def __str__(self) -> str:
        return ""

    def requirements(self) -> Requirements:
        """Port of nothingSelector.Requirements (pkg/fields/selector.go)."""
        return []

    def deep_copy_selector(self) -> Selector:
        """Port of nothingSelector.DeepCopySelector (pkg/fields/selector.go)."""
        return self

    def requires_exact_match(self, field: str) -> tuple[str, bool]:
        """Port of nothingSelector.RequiresExactMatch (pkg/fields/selector.go)."""
        return "", False

    def transform(self, fn: TransformFunc) -> Selector:
        """Port of nothingSelector.Transform (pkg/fields/selector.go)."""
        return self


def nothing() -> Selector:
    """Port of Nothing (pkg/fields/selector.go)."""
    return NothingSelector()


def everything() -> Selector:
    """Port of Everything (pkg/fields/selector.go): an empty AND, which matches everything."""
    return AndTerm([])


@dataclass(frozen=True)
class HasTerm:
    """Port of hasTerm (pkg/fields/selector.go): `field=value`.

    An absent field reads as "", so `spec.nodeName=` matches unscheduled pods.
    """

    field: str = ""
    value: str = ""

    def matches(self, ls: Fields | Mapping[str, str]) -> bool:
        """Port of hasTerm.Matches (pkg/fields/selector.go)."""
        return _get(ls, self.field) == self.value

    def empty(self) -> bool:
        """Port of hasTerm.Empty (pkg/fields/selector.go)."""
        return False

    def requires_exact_match(self, field: str) -> tuple[str, bool]:
        """Port of hasTerm.RequiresExactMatch (pkg/fields/selector.go)."""
        if self.field == field:
            return self.value, True
        return "", False

    def transform(self, fn: TransformFunc) -> Selector:
        """Port of hasTerm.Transform (pkg/fields/selector.go)."""
        field, value = fn(self.field, self.value)
        if not field and not value:
            return everything()
        return HasTerm(field, value)

    def requirements(self) -> Requirements:
        """Port of hasTerm.Requirements (pkg/fields/selector.go)."""
        return [Requirement(field=self.field, operator=EQUALS, value=self.value)]

    def __str__(self) -> str:
        return f"{self.field}={escape_value(self.value)}"

    def deep_copy_selector(self) -> Selector:
        """Port of hasTerm.DeepCopySelector (pkg/fields/selector.go)."""
        return HasTerm(self.field, self.value)


@dataclass(frozen=True)
class NotHasTerm:
    """Port of notHasTerm (pkg/fields/selector.go): `field!=value`."""

    field: str = ""
    value: str = ""

    def matches(self, ls: Fields | Mapping[str, str]) -> bool:
        """Port of notHasTerm.Matches (pkg/fields/selector.go)."""
        return _get(ls, self.field) != self.value

    def empty(self) -> bool:
        """Port of notHasTerm.Empty (pkg/fields/selector.go)."""
        return False

    def requires_exact_match(self, field: str) -> tuple[str, bool]:
        """Port of notHasTerm.RequiresExactMatch (pkg/fields/selector.go)."""
        return "", False

    def transform(self, fn: TransformFunc) -> Selector:
        """Port of notHasTerm.Transform (pkg/fields/selector.go)."""
        field, value = fn(self.field, self.value)
        if not field and not value:
            return everything()
        return NotHasTerm(field, value)

    def requirements(self) -> Requirements:
        """Port of notHasTerm.Requirements (pkg/fields/selector.go)."""
        return [Requirement(field=self.field, operator=NOT_EQUALS, value=self.value)]

    def __str__(self) -> str:
        return f"{self.field}!={escape_value(self.value)}"

    def deep_copy_selector(self) -> Selector:
        """Port of notHasTerm.DeepCopySelector (pkg/fields/selector.go)."""
        return NotHasTerm(self.field, self.value)


@dataclass(frozen=True)
class AndTerm:
    """Port of andTerm (pkg/fields/selector.go): every inner selector must match.

    `terms` keeps the order given; parse_selector sorts the terms before building one.
    """

    terms: list[Selector] = dataclass_field(default_factory=list)

    def matches(self, ls: Fields | Mapping[str, str]) -> bool:
        """Port of andTerm.Matches (pkg/fields/selector.go)."""
        return all(q.matches(ls) for q in self.terms)

    def empty(self) -> bool:
        """True when no inner selector restricts anything (nested empty ANDs included)."""
        return all(t.empty() for t in self.terms)

    def requires_exact_match(self, field: str) -> tuple[str, bool]:
        # The first inner selector that pins `field` wins.
        """Port of andTerm.RequiresExactMatch (pkg/fields/selector.go)."""
        for t in self.terms:
            value, found = t.requires_exact_match(field)
            if found:
                return value, found
        return "", False

    def transform(self, fn: TransformFunc) -> Selector:
        # Terms that the function blanks out (both sides "") are dropped.
        """Port of andTerm.Transform (pkg/fields/selector.go)."""
        nxt: list[Selector] = []
        for s in self.terms:
            n = s.transform(fn)
            if not n.empty():
                nxt.append(n)
        return AndTerm(nxt)

    def requirements(self) -> Requirements:
        """Port of andTerm.Requirements (pkg/fields/selector.go)."""
        reqs: Requirements = []
        for s in self.terms:
            reqs.extend(s.requirements())
        return reqs

    def __str__(self) -> str:
        return ",".join(str(q) for q in self.terms)

    def deep_copy_selector(self) -> Selector:
        """Port of andTerm.DeepCopySelector (pkg/fields/selector.go)."""
        return AndTerm([t.deep_copy_selector() for t in self.terms])


def selector_from_set(ls: Mapping[str, str] | None) -> Selector:
    """Port of SelectorFromSet (pkg/fields/selector.go).

    A selector requiring every `field=value` of `ls`. None matches everything;
    one pair gives a bare HasTerm.

    Differs from Go: terms come in sorted field order, not map order.
    """
    if ls is None:
        return everything()
    items: list[Selector] = [HasTerm(field=f, value=ls[f]) for f in sorted(ls)]
    if len(items) == 1:
        return items[0]
    return AndTerm(items)


def escape_value(s: str) -> str:
    """Port of EscapeValue (pkg/fields/selector.go).

    Backslash-escapes `\\`, `,` and `=` so any literal string can be a value:
    `a=b` becomes `a\\=b`.
    """
    return s.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=")


class InvalidEscapeSequence(ValueError):
    """Port of InvalidEscapeSequence (pkg/fields/selector.go): a backslash before
    something other than `\\`, `,` or `=`, or at the very end."""

    def __init__(self, sequence: str) -> None:
        self.sequence = sequence
        super().__init__(f"invalid field selector: invalid escape sequence: {sequence}")


class UnescapedRune(ValueError):
    """Port of UnescapedRune (pkg/fields/selector.go): a bare `,` or `=` inside a value.

    Tricky: upstream formats the character with %v, which prints its code point
    (44 for ","); we print the same number so messages match the Go server's.
    """

    def __init__(self, r: str) -> None:
        self.r = r
        super().__init__(f"invalid field selector: unescaped character in value: {ord(r)}")


def unescape_value(s: str) -> str:
    """Port of UnescapeValue (pkg/fields/selector.go): the inverse of escape_value.

    Raises:
        InvalidEscapeSequence: for `\\a` or a trailing lone backslash.
        UnescapedRune: for a `,` or `=` that is not escaped.
    """
    if not any(c in s for c in "\\,="):
        return s  # nothing to undo
    out: list[str] = []
    in_slash = False
    for c in s:
        if in_slash:
            if c not in "\\,=":
                raise InvalidEscapeSequence("\\" + c)
            out.append(c)  # a known escape: keep the character, drop the backslash
            in_slash = False
            continue
        if c == "\\":
            in_slash = True
        elif c in ",=":
            raise UnescapedRune(c)
        else:
            out.append(c)
    if in_slash:
        raise InvalidEscapeSequence("\\")
    return "".join(out)


def parse_selector_or_die(s: str) -> Selector:
    """Port of ParseSelectorOrDie (pkg/fields/selector.go). Go panics; we let the ValueError through."""
    return parse_selector(s)


def parse_selector(selector: str) -> Selector:
    """Port of ParseSelector (pkg/fields/selector.go).

    Parses `a=b,c!=d` into a selector. Terms are sorted as strings first, so
    "x=a,a=x" and "a=x,x=a" give equal selectors; empty terms are skipped.

    Raises:
        ValueError: for a term with no operator (`x`, `x in (a)`), or a value with
            a bad escape (InvalidEscapeSequence, UnescapedRune).
    """
    return _parse_selector(selector, _identity_transform)


def parse_and_transform_selector(selector: str, fn: TransformFunc) -> Selector:
    """Port of ParseAndTransformSelector (pkg/fields/selector.go): parse, then transform."""
    return _parse_selector(selector, fn)


def _identity_transform(field: str, value: str) -> tuple[str, str]:
    return field, value


def split_terms(field_selector: str) -> list[str] | None:
    """Port of splitTerms (pkg/fields/selector.go).

    Splits on commas that are not backslash-escaped; escaped commas stay in the
    terms, backslash included. Returns None for "" (Go: a nil slice).
    """
    if not field_selector:
        return None
    terms: list[str] = []
    start = 0
    in_slash = False
    for i, c in enumerate(field_selector):
        if in_slash:
            in_slash = False
        elif c == "\\":
            in_slash = True
        elif c == ",":
            terms.append(field_selector[start:i])
            start = i + 1
    terms.append(field_selector[start:])
    return terms


NOT_EQUAL_OPERATOR = "!="
DOUBLE_EQUAL_OPERATOR = "=="
EQUAL_OPERATOR = "="

# "==" is tried before "=", so the right-hand side never keeps a leading "=".
TERM_OPERATORS = [NOT_EQUAL_OPERATOR, DOUBLE_EQUAL_OPERATOR, EQUAL_OPERATOR]


def split_term(term: str) -> tuple[str, str, str, bool]:
    """Port of splitTerm (pkg/fields/selector.go).

    Returns (lhs, op, rhs, ok), split at the first operator found scanning from
    the left. The field name has no escaping; rhs is returned still escaped.
    """
    for i in range(len(term)):
        for op in TERM_OPERATORS:
            if term.startswith(op, i):
                return term[:i], op, term[i + len(op) :], True
    return "", "", "", False


def _parse_selector(selector: str, fn: TransformFunc) -> Selector:
    """Port of parseSelector (pkg/fields/selector.go)."""
    parts = sorted(split_terms(selector) or [])
    items: list[Selector] = []
    for part in parts:
        if part == "":
            continue
        lhs, op, rhs, ok = split_term(part)
        if not ok:
            raise ValueError(f"invalid selector: '{selector}'; can't understand '{part}'")
        unescaped_rhs = unescape_value(rhs)
        if op == NOT_EQUAL_OPERATOR:
            items.append(NotHasTerm(field=lhs, value=unescaped_rhs))
        elif op in (DOUBLE_EQUAL_OPERATOR, EQUAL_OPERATOR):
            items.append(HasTerm(field=lhs, value=unescaped_rhs))
        else:  # unreachable: split_term only returns known operators
            raise ValueError(f"invalid selector: '{selector}'; can't understand '{part}'")
    if len(items) == 1:
        return items[0].transform(fn)
    return AndTerm(items).transform(fn)


def one_term_equal_selector(k: str, v: str) -> Selector:
    """Port of OneTermEqualSelector (pkg/fields/selector.go): matches objects whose field `k` is `v`."""
    return HasTerm(field=k, value=v)


def one_term_not_equal_selector(k: str, v: str) -> Selector:
    """Port of OneTermNotEqualSelector (pkg/fields/selector.go): field `k` is not `v`."""
    return NotHasTerm(field=k, value=v)


def and_selectors(*selectors: Selector) -> Selector:
    """Port of AndSelectors (pkg/fields/selector.go): the logical AND of `selectors`."""
    return AndTerm(list(selectors))
