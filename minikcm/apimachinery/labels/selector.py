"""Port of k8s.io/apimachinery/pkg/labels/selector.go.

Label selectors are how controllers find what they own: a ReplicaSet's
`spec.selector` becomes a `Selector` (via meta.label_selector_as_selector), and
listers and the API server keep the objects whose labels it `matches`. This
module has the `Requirement` (one key, one operator, values), the selectors
built from requirements, and the parser of the string form that kubectl's `-l`
and the `labelSelector` query parameter use:

    x=a, y==b, z!=c        exact match / mismatch
    env in (prod,qa)       set membership; `notin` is the opposite
    tier, !canary          the key exists / does not exist
    replicas>1, age<7      integer comparisons (not allowed in API selectors)

Start reading at: parse, then Parser.parse and Requirement.matches.

Not ported: ValidatedSetSelector (a no-copy speed-up; selector_from_validated_set
does the same job), Requirements.String (join `str(r)` with ", "), DeepCopy
helpers beyond deep_copy_selector (zz_generated.deepcopy.go), klog verbosity-10
logging in Requirement.matches.
Differs from Go:
- Requirement is a frozen dataclass: Go's Key() and Operator() getters are the
  attributes `key` and `operator`; the values are the tuple `str_values`.
- Errors are raised: `RequirementError` (a ValueError carrying the field errors
  Go aggregates) from new_requirement, `SelectorParseError` from parse.
- Wherever Go walks a map (selector_from_set, ...) we walk sorted keys; sorting
  requirements by key is stable (Go's sort.Sort only happens to be for short lists).
- Go's `opts ...field.PathOption` is one optional `path: field.Path | None`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from minikcm.apimachinery import field, validation
from minikcm.apimachinery.intstr import parse_int
from minikcm.apimachinery.selection import (
    DOES_NOT_EXIST,
    DOUBLE_EQUALS,
    EQUALS,
    EXISTS,
    GREATER_THAN,
    IN,
    LESS_THAN,
    NOT_EQUALS,
    NOT_IN,
)

if TYPE_CHECKING:
    from minikcm.apimachinery.labels.labels import Labels

UNARY_OPERATORS = [EXISTS, DOES_NOT_EXIST]
BINARY_OPERATORS = [IN, NOT_IN, EQUALS, DOUBLE_EQUALS, NOT_EQUALS, GREATER_THAN, LESS_THAN]
VALID_REQUIREMENT_OPERATORS = BINARY_OPERATORS + UNARY_OPERATORS

# --- errors ----------------------------------------------------------------------------


class RequirementError(ValueError):
    """An invalid requirement: Go's aggregated field.ErrorList, raised as one ValueError.

    `errors` holds every field.Error found; the message is the aggregate's
    (the one message, or "[a, b]" for several).
    """

    def __init__(self, errors: list[field.Error]) -> None:
        self.errors = field.ErrorList(errors)
        super().__init__(str(self.errors.to_aggregate()))


class SelectorParseError(ValueError):
    """A selector string that does not follow the grammar (see parse)."""


def _raise_if(err: field.Error | None) -> None:
    if err is not None:
        raise RequirementError([err])


def _child(path: field.Path | None, name: str) -> field.Path:
    # Go: Child on a nil *Path starts a new root path.
    return field.new_path(name) if path is None else path.child(name)


# --- selectors -------------------------------------------------------------------


class Selector(Protocol):
    """Port of Selector (selector.go). Implementations are immutable values."""

    def matches(self, labels: Labels | None) -> bool:
        """Port of Selector.Matches (selector.go)."""
    def empty(self) -> bool:
        """Port of Selector.Empty (selector.go)."""

    def __str__(self) -> str: ...

    def add(self, *reqs: Requirement) -> Selector:
        """Port of Selector.Add (selector.go)."""
    def requirements(self) -> tuple[list[Requirement], bool]:
        """Port of Selector.Requirements (selector.go)."""
    def deep_copy_selector(self) -> Selector:
        """Port of Selector.DeepCopySelector (selector.go)."""
    def requires_exact_match(self, label: str) -> tuple[str, bool]:
        """Port of Selector.RequiresExactMatch (selector.go)."""


@dataclass(frozen=True)
class NothingSelector:
    """Port of nothingSelector (selector.go): matches no labels, not even empty ones."""

    def matches(self, labels: Labels | None) -> bool:
        """Port of nothingSelector.Matches (selector.go)."""
        return False

    def empty(self) -> bool:
        """Port of nothingSelector.Empty (selector.go)."""
        return False

    def __str__(self) -> str: return ""

    def add(self, *reqs: Requirement) -> Selector:
        """Port of nothingSelector.Add (selector.go)."""
        return self

    def requirements(self) -> tuple[list[Requirement], bool]:
        """Port of nothingSelector.Requirements (selector.go)."""
        return [], False

    def deep_copy_selector(self) -> Selector:
        """Port of nothingSelector.DeepCopySelector (selector.go)."""
        return self

    def requires_exact_match(self, label: str) -> tuple[str, bool]:
        """Port of nothingSelector.RequiresExactMatch (selector.go)."""
        return "", False


_SHARED_NOTHING_SELECTOR = NothingSelector()


def nothing() -> Selector:
    """Port of Nothing (selector.go): the selector that matches nothing."""
    return _SHARED_NOTHING_SELECTOR


def matches_nothing(selector: Selector) -> bool:
    """Port of MatchesNothing (selector.go).

    True only for nothing(); selectors that cannot match anything for other
    reasons (`a,!a`) are not detected, as upstream says.
    """
    return isinstance(selector, NothingSelector)


def new_selector() -> Selector:
    """Port of NewSelector (selector.go): an empty selector (matches everything)."""
    return InternalSelector()


@dataclass(frozen=True)
class Requirement:
    """Port of Requirement (selector.go): `key <operator> values`.

    Build valid ones with new_requirement; the constructor checks nothing (as a
    Go struct literal does), which tests use to build odd values on purpose.
    Equality compares key, operator and the values in order (Go: Equal).
    """

    key: str = ""
    operator: str = ""
    str_values: tuple[str, ...] = ()
    """Usually one value; kept in the given order (values_unsorted)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "str_values", tuple(self.str_values))  # accept any iterable

    def has_value(self, value: str) -> bool:
        """Port of Requirement.hasValue."""
        return value in self.str_values

    def matches(self, ls: Labels | None) -> bool:
        """Port of Requirement.Matches (selector.go).

        in/=/== need the key present with one of the values; notin/!= hold when
        the key is absent or has none of them; exists/! test presence; gt/lt
        need the key present with an integer value beyond the bound.
        """
        ls = ls or {}
        op, key = self.operator, self.key
        if op in (IN, EQUALS, DOUBLE_EQUALS):
            return key in ls and ls[key] in self.str_values  # has_value, inlined: the hot case
        if op in (NOT_IN, NOT_EQUALS):
            return key not in ls or not self.has_value(ls[key])
        if op == EXISTS:
            return key in ls
        if op == DOES_NOT_EXIST:
            return key not in ls
        if op in (GREATER_THAN, LESS_THAN):
            if key not in ls or len(self.str_values) != 1:
                return False
            try:
                ls_value, r_value = parse_int(ls[key]), parse_int(self.str_values[0])
            except ValueError:
                return False  # a non-integer label or bound never matches
            return ls_value > r_value if op == GREATER_THAN else ls_value < r_value
        return False

    def values(self) -> set[str]:
        """Port of Requirement.Values: the values as a set (sort it for a stable list)."""
        return set(self.str_values)

    def values_unsorted(self) -> list[str]:
        """Port of Requirement.ValuesUnsorted: a copy, in the order given."""
        return list(self.str_values)

    def equal(self, x: Requirement) -> bool:
        """Port of Requirement.Equal."""
        return self == x

    def __str__(self) -> str:
        """Port of Requirement.String (selector.go).

        `x in (a,b)`, `x notin (a)`, `x=a`, `x==a`, `x!=a`, `x>1`, `x<1`, `x`, `!x`.
        Several values print sorted; the stored order is left alone.
        """
        op = self.operator
        out = ("!" if op == DOES_NOT_EXIST else "") + self.key
        if op in (EXISTS, DOES_NOT_EXIST):
            return out
        out += _OPERATOR_TEXT.get(op, "")
        values = ",".join(safe_sort(list(self.str_values)))
        return f"{out}({values})" if op in (IN, NOT_IN) else out + values


def by_key(r: Requirement) -> str:
    """Port of ByKey (selector.go): the sort key that orders requirements by label key."""
    return r.key


_OPERATOR_TEXT = {
    EQUALS: "=", DOUBLE_EQUALS: "==", NOT_EQUALS: "!=", IN: " in ", NOT_IN: " notin ",
    GREATER_THAN: ">", LESS_THAN: "<",
}

Requirements = list[Requirement]
"""Port of Requirements (selector.go): all must hold."""


def new_requirement(
    key: str, op: str, vals: Iterable[str], path: field.Path | None = None
) -> Requirement:
    """Port of NewRequirement (selector.go).

    Checks, collecting every failure: the key is a valid label key; in/notin
    have at least one value; =, ==, != have exactly one; exists and ! have none;
    gt/lt have exactly one integer; the operator is known; each value is a valid
    label value. The empty string is an allowed value.

    Raises:
        RequirementError: listing every failed check.
    """
    vals = list(vals)
    errs: list[field.Error] = []
    if (err := validate_label_key(key, _child(path, "key"))) is not None:
        errs.append(err)
    value_path = _child(path, "values")
    if op in (IN, NOT_IN):
        if not vals:
            errs.append(field.invalid(value_path, vals, "for 'in', 'notin' operators, values set can't be empty"))
    elif op in (EQUALS, DOUBLE_EQUALS, NOT_EQUALS):
        if len(vals) != 1:
            errs.append(field.invalid(value_path, vals, "exact-match compatibility requires one single value"))
    elif op in (EXISTS, DOES_NOT_EXIST):
        if vals:
            errs.append(field.invalid(value_path, vals, "values set must be empty for exists and does not exist"))
    elif op in (GREATER_THAN, LESS_THAN):
        if len(vals) != 1:
            errs.append(field.invalid(value_path, vals, "for 'Gt', 'Lt' operators, exactly one value is required"))
        for i, v in enumerate(vals):
            try:
                parse_int(v)
            except ValueError:
                errs.append(field.invalid(value_path.index(i), v,
                                          "for 'Gt', 'Lt' operators, the value must be an integer"))
    else:
        errs.append(field.not_supported(_child(path, "operator"), op, VALID_REQUIREMENT_OPERATORS))
    for i, v in enumerate(vals):
        if (err := validate_label_value(key, v, value_path.index(i))) is not None:
            errs.append(err)
    if errs:
        raise RequirementError(errs)
    return Requirement(key, op, tuple(vals))


def safe_sort(in_: list[str]) -> list[str]:
    """Port of safeSort (selector.go): a sorted view that never reorders `in_` itself."""
    if all(a <= b for a, b in zip(in_, in_[1:])):
        return in_
    return sorted(in_)


class InternalSelector:
    """Port of internalSelector (selector.go): an AND of requirements.

    Immutable; add() returns a new selector with the requirements sorted by key.
    No requirements means it matches everything (and empty() is True).
    """

    __slots__ = ("_reqs",)

    def __init__(self, reqs: Iterable[Requirement] = ()) -> None:
        self._reqs = tuple(reqs)

    def deep_copy_selector(self) -> Selector:
        """Port of internalSelector.DeepCopySelector."""
        return InternalSelector(self._reqs)  # requirements are immutable: sharing them is a copy

    def empty(self) -> bool:
        """Port of internalSelector.Empty."""
        return len(self._reqs) == 0

    def add(self, *reqs: Requirement) -> Selector:
        """Port of internalSelector.Add: a new selector, requirements sorted by key."""
        return InternalSelector(sorted(self._reqs + reqs, key=by_key))

    def matches(self, labels: Labels | None) -> bool:
        """Port of internalSelector.Matches: every requirement matches."""
        for r in self._reqs:  # a plain loop: this runs once per pod per sync
            if not r.matches(labels):
                return False
        return True

    def requirements(self) -> tuple[list[Requirement], bool]:
        """Port of internalSelector.Requirements: (requirements, selectable=True)."""
        return list(self._reqs), True

    def __str__(self) -> str:
        """Port of internalSelector.String: the requirements joined with ","."""
        return ",".join(str(r) for r in self._reqs)

    def __repr__(self) -> str:
        return f"InternalSelector({list(self._reqs)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, InternalSelector) and self._reqs == other._reqs

    def __hash__(self) -> int:
        return hash(self._reqs)

    def requires_exact_match(self, label: str) -> tuple[str, bool]:
        """Port of internalSelector.RequiresExactMatch.

        The first requirement on `label` decides: =, == or in with one value pins it.
        """
        for r in self._reqs:
            if r.key == label:
                if r.operator in (EQUALS, DOUBLE_EQUALS, IN) and len(r.str_values) == 1:
                    return r.str_values[0], True
                return "", False
        return "", False


_SHARED_EVERYTHING_SELECTOR = InternalSelector()


def everything() -> Selector:
    """Port of Everything (selector.go): the selector that matches all labels."""
    return _SHARED_EVERYTHING_SELECTOR


# --- lexer --------------------------------------------------------------------


class Token(enum.IntEnum):
    """Port of Token (selector.go): the lexer's token kinds, in upstream order."""

    ERROR_TOKEN = 0
    END_OF_STRING_TOKEN = 1
    CLOSED_PAR_TOKEN = 2
    COMMA_TOKEN = 3
    DOES_NOT_EXIST_TOKEN = 4
    DOUBLE_EQUALS_TOKEN = 5
    EQUALS_TOKEN = 6
    GREATER_THAN_TOKEN = 7
    IDENTIFIER_TOKEN = 8
    IN_TOKEN = 9
    LESS_THAN_TOKEN = 10
    NOT_EQUALS_TOKEN = 11
    NOT_IN_TOKEN = 12
    OPEN_PAR_TOKEN = 13


# Literal spellings of the fixed tokens (identifiers, end of string and errors have none).
STRING2TOKEN = {
    ")": Token.CLOSED_PAR_TOKEN, ",": Token.COMMA_TOKEN, "!": Token.DOES_NOT_EXIST_TOKEN,
    "==": Token.DOUBLE_EQUALS_TOKEN, "=": Token.EQUALS_TOKEN, ">": Token.GREATER_THAN_TOKEN,
    "in": Token.IN_TOKEN, "<": Token.LESS_THAN_TOKEN, "!=": Token.NOT_EQUALS_TOKEN,
    "notin": Token.NOT_IN_TOKEN, "(": Token.OPEN_PAR_TOKEN,
}


@dataclass(frozen=True)
class ScannedItem:
    """Port of ScannedItem (selector.go): a token and its text."""

    tok: Token
    literal: str


def is_whitespace(ch: str) -> bool:
    """Port of isWhitespace (selector.go): space, tab, CR or LF."""
    return ch in (" ", "\t", "\r", "\n")


def is_special_symbol(ch: str) -> bool:
    """Port of isSpecialSymbol (selector.go): a character that starts an operator or punctuation."""
    return ch in ("=", "!", "(", ")", ",", ">", "<")


_EOS = "\x00"  # Go reads a zero byte past the end; so a NUL in the input also ends it


class Lexer:
    """Port of Lexer (selector.go): splits a selector string into tokens, one per lex() call."""

    def __init__(self, s: str, pos: int = 0) -> None:
        self.s = s
        self.pos = pos

    def read(self) -> str:
        """Port of Lexer.read: the next character, or NUL at the end."""
        if self.pos < len(self.s):
            ch = self.s[self.pos]
            self.pos += 1
            return ch
        return _EOS

    def unread(self) -> None:
        """Port of Lexer.unread."""
        self.pos -= 1

    def scan_id_or_keyword(self) -> tuple[Token, str]:
        """Port of Lexer.scanIDOrKeyword: a run of ordinary characters; `in`/`notin` are keywords."""
        start = self.pos
        while True:
            ch = self.read()
            if ch == _EOS:
                break
            if is_special_symbol(ch) or is_whitespace(ch):
                self.unread()
                break
        s = self.s[start:self.pos].split(_EOS, 1)[0]
        return STRING2TOKEN.get(s, Token.IDENTIFIER_TOKEN), s

    def scan_special_symbol(self) -> tuple[Token, str]:
        """Port of Lexer.scanSpecialSymbol: the longest operator spelled by special characters.

        "!=" is one token, "!" alone another; "=!" stops after "=".
        """
        last: ScannedItem | None = None
        buffer = ""
        while True:
            ch = self.read()
            if ch == _EOS:
                break
            if not is_special_symbol(ch):
                self.unread()
                break
            buffer += ch
            if buffer in STRING2TOKEN:
                last = ScannedItem(STRING2TOKEN[buffer], buffer)
            elif last is not None:
                self.unread()
                break
        if last is None:
            return Token.ERROR_TOKEN, f"error expected: keyword found '{buffer}'"
        return last.tok, last.literal

    def skip_white_spaces(self, ch: str) -> str:
        """Port of Lexer.skipWhiteSpaces: the first non-blank character from `ch` on."""
        while is_whitespace(ch):
            ch = self.read()
        return ch

    def lex(self) -> tuple[Token, str]:
        """Port of Lexer.Lex: the next (token, literal)."""
        ch = self.skip_white_spaces(self.read())
        if ch == _EOS:
            return Token.END_OF_STRING_TOKEN, ""
        self.unread()
        if is_special_symbol(ch):
            return self.scan_special_symbol()
        return self.scan_id_or_keyword()


# --- parser ---------------------------------------------------------------------

KEY_AND_OPERATOR = 0
"""Port of the KeyAndOperator ParserContext: `in`/`notin` read as operators."""
VALUES = 1
"""Port of the Values ParserContext: `in`/`notin` read as plain identifiers."""


class Parser:
    """Port of Parser (selector.go): recursive descent over the scanned tokens.

    scan() tokenizes the whole string first, so lookahead is just an index.
    """

    def __init__(self, lexer: Lexer, path: field.Path | None = None) -> None:
        self.l = lexer
        self.scanned_items: list[ScannedItem] = []
        self.position = 0
        self.path = path

    def lookahead(self, context: int) -> tuple[Token, str]:
        """Port of Parser.lookahead: the current token, without moving on."""
        item = self.scanned_items[self.position]
        tok = item.tok
        if context == VALUES and tok in (Token.IN_TOKEN, Token.NOT_IN_TOKEN):
            tok = Token.IDENTIFIER_TOKEN
        return tok, item.literal

    def consume(self, context: int) -> tuple[Token, str]:
        """Port of Parser.consume: the current token, moving past it."""
        tok, lit = self.lookahead(context)
        self.position += 1
        return tok, lit

    def scan(self) -> None:
        """Port of Parser.scan: lex everything, up to and including END_OF_STRING_TOKEN."""
        while True:
            tok, lit = self.l.lex()
            self.scanned_items.append(ScannedItem(tok, lit))
            if tok == Token.END_OF_STRING_TOKEN:
                break

    def parse(self) -> list[Requirement]:
        """Port of Parser.parse: requirement ("," requirement)* end-of-string."""
        self.scan()
        requirements: list[Requirement] = []
        while True:
            tok, lit = self.lookahead(VALUES)
            if tok in (Token.IDENTIFIER_TOKEN, Token.DOES_NOT_EXIST_TOKEN):
                try:
                    r = self.parse_requirement()
                except ValueError as err:
                    raise SelectorParseError(f"unable to parse requirement: {err}") from err
                requirements.append(r)
                t, t_lit = self.consume(VALUES)
                if t == Token.END_OF_STRING_TOKEN:
                    return requirements
                if t != Token.COMMA_TOKEN:
                    raise SelectorParseError(f"found '{t_lit}', expected: ',' or 'end of string'")
                t2, l2 = self.lookahead(VALUES)
                if t2 not in (Token.IDENTIFIER_TOKEN, Token.DOES_NOT_EXIST_TOKEN):
                    raise SelectorParseError(f"found '{l2}', expected: identifier after ','")
            elif tok == Token.END_OF_STRING_TOKEN:
                return requirements
            else:
                raise SelectorParseError(f"found '{lit}', expected: !, identifier, or 'end of string'")

    def parse_requirement(self) -> Requirement:
        """Port of Parser.parseRequirement: one `[!]key [op values]`."""
        key, operator = self.parse_key_and_infer_operator()
        if operator in (EXISTS, DOES_NOT_EXIST):
            return new_requirement(key, operator, [], self.path)
        operator = self.parse_operator()
        if operator in (IN, NOT_IN):
            values = self.parse_values()
        else:
            values = self.parse_exact_value()
        return new_requirement(key, operator, sorted(values), self.path)

    def parse_key_and_infer_operator(self) -> tuple[str, str]:
        """Port of Parser.parseKeyAndInferOperator.

        Reads `!`? and the key. A key followed by "," or the end means exists (or
        does-not-exist after "!"); otherwise the operator is "" and comes next.
        """
        operator = ""
        tok, literal = self.consume(VALUES)
        if tok == Token.DOES_NOT_EXIST_TOKEN:
            operator = DOES_NOT_EXIST
            tok, literal = self.consume(VALUES)
        if tok != Token.IDENTIFIER_TOKEN:
            raise SelectorParseError(f"found '{literal}', expected: identifier")
        _raise_if(validate_label_key(literal, self.path))
        t, _ = self.lookahead(VALUES)
        if t in (Token.END_OF_STRING_TOKEN, Token.COMMA_TOKEN) and operator != DOES_NOT_EXIST:
            operator = EXISTS
        return literal, operator

    def parse_operator(self) -> str:
        """Port of Parser.parseOperator: one of the binary operators, or an error."""
        tok, lit = self.consume(KEY_AND_OPERATOR)
        op = _TOKEN_OPERATOR.get(tok)
        if op is None:
            raise SelectorParseError(f"found '{lit}', expected: {', '.join(BINARY_OPERATORS)}")
        return op

    def parse_values(self) -> set[str]:
        """Port of Parser.parseValues: `( v1, v2, ... )`; `()` means the one value ""."""
        tok, lit = self.consume(VALUES)
        if tok != Token.OPEN_PAR_TOKEN:
            raise SelectorParseError(f"found '{lit}' expected: '('")
        tok, lit = self.lookahead(VALUES)
        if tok in (Token.IDENTIFIER_TOKEN, Token.COMMA_TOKEN):
            s = self.parse_identifiers_list()
            tok, _ = self.consume(VALUES)
            if tok != Token.CLOSED_PAR_TOKEN:
                raise SelectorParseError(f"found '{lit}', expected: ')'")
            return s
        if tok == Token.CLOSED_PAR_TOKEN:
            self.consume(VALUES)
            return {""}
        raise SelectorParseError(f"found '{lit}', expected: ',', ')' or identifier")

    def parse_identifiers_list(self) -> set[str]:
        """Port of Parser.parseIdentifiersList: comma-separated values, empty ones allowed.

        Tricky: empty slots (`(,a)`, `(a,)`, `(a,,b)`) each add "" to the set.
        """
        s: set[str] = set()
        while True:
            tok, lit = self.consume(VALUES)
            if tok == Token.IDENTIFIER_TOKEN:
                s.add(lit)
                tok2, lit2 = self.lookahead(VALUES)
                if tok2 == Token.COMMA_TOKEN:
                    continue
                if tok2 == Token.CLOSED_PAR_TOKEN:
                    return s
                raise SelectorParseError(f"found '{lit2}', expected: ',' or ')'")
            if tok == Token.COMMA_TOKEN:
                if not s:
                    s.add("")  # a leading comma: "(,"
                tok2, _ = self.lookahead(VALUES)
                if tok2 in (Token.CLOSED_PAR_TOKEN, Token.COMMA_TOKEN):
                    s.add("")  # ",)" or ",,"
                if tok2 == Token.CLOSED_PAR_TOKEN:
                    return s
                continue
            raise SelectorParseError(f"found '{lit}', expected: ',', or identifier")

    def parse_exact_value(self) -> set[str]:
        """Port of Parser.parseExactValue: the one value after =, ==, !=, > or <; may be ""."""
        tok, _ = self.lookahead(VALUES)
        if tok in (Token.END_OF_STRING_TOKEN, Token.COMMA_TOKEN):
            return {""}
        tok, lit = self.consume(VALUES)
        if tok == Token.IDENTIFIER_TOKEN:
            return {lit}
        raise SelectorParseError(f"found '{lit}', expected: identifier")


_TOKEN_OPERATOR = {
    Token.IN_TOKEN: IN, Token.EQUALS_TOKEN: EQUALS, Token.DOUBLE_EQUALS_TOKEN: DOUBLE_EQUALS,
    Token.GREATER_THAN_TOKEN: GREATER_THAN, Token.LESS_THAN_TOKEN: LESS_THAN,
    Token.NOT_IN_TOKEN: NOT_IN, Token.NOT_EQUALS_TOKEN: NOT_EQUALS,
}


def parse(selector: str, path: field.Path | None = None) -> Selector:
    """Port of Parse (selector.go).

    Turns `x in (a,b),!y,z=c` into a selector whose requirements are sorted by
    key, so equal selectors print the same. Keys must be valid label keys
    (`[prefix/]name`), values valid label values (63 characters at most, from
    `[A-Za-z0-9._-]`, starting and ending alphanumeric, or empty).

    Raises:
        SelectorParseError: for malformed input (`x=a||y=b`, `x in (a`, `(`,
            `!x=a`), an unknown operator, or an invalid key or value.
    """
    return InternalSelector(parse_to_requirements(selector, path))


def parse_to_requirements(selector: str, path: field.Path | None = None) -> list[Requirement]:
    """Port of ParseToRequirements and parse (selector.go): the sorted requirements of `selector`."""
    items = Parser(Lexer(selector), path).parse()
    return sorted(items, key=by_key)


def validate_label_key(k: str, path: field.Path | None) -> field.Error | None:
    """Port of validateLabelKey (selector.go): a field.Error for a bad key, else None.

    Tricky: Go prints a nil *field.Path as "<nil>", so a key error from the
    parser (which has no path) reads `<nil>: Invalid value: ...`; we keep that.
    """
    errs = validation.is_qualified_name(k)  # Go: content.IsLabelKey
    if errs:
        return field.invalid(path, k, "; ".join(errs))
    return None


def validate_label_value(k: str, v: str, path: field.Path | None) -> field.Error | None:
    """Port of validateLabelValue (selector.go): a field.Error at `path[k]` for a bad value."""
    errs = validation.is_valid_label_value(v)
    if errs:
        # Go: Key on a nil *Path gives a lone subscript, printed "[k]".
        return field.invalid(field.Path(idx=k) if path is None else path.key(k), v, "; ".join(errs))
    return None


def selector_from_set(ls: Mapping[str, str] | None) -> Selector:
    """Port of SelectorFromSet (selector.go): `k=v` for each pair, unvalidated.

    None or an empty set gives a selector that matches everything.
    """
    return selector_from_validated_set(ls)


def validated_selector_from_set(ls: Mapping[str, str] | None) -> Selector:
    """Port of ValidatedSelectorFromSet (selector.go): like selector_from_set, but checked.

    Raises:
        RequirementError: for the first invalid key or value (in sorted key order).
    """
    if not ls:
        return InternalSelector()
    return InternalSelector(new_requirement(k, EQUALS, [ls[k]]) for k in sorted(ls))


def selector_from_validated_set(ls: Mapping[str, str] | None) -> Selector:
    """Port of SelectorFromValidatedSet (selector.go): trusts `ls`, copies it into requirements.

    Also stands in for ValidatedSetSelector, which upstream adds to skip that copy.
    """
    if not ls:
        return InternalSelector()
    return InternalSelector(Requirement(k, EQUALS, (ls[k],)) for k in sorted(ls))
