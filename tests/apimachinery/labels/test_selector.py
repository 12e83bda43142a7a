"""Tests for minikcm.apimachinery.labels.selector (ports of pkg/labels/selector_test.go)."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import field
from minikcm.apimachinery.labels import selector as L
from minikcm.apimachinery.labels.labels import Set
from minikcm.apimachinery.labels.selector import InternalSelector, Requirement, Token
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


def req(key, op, vals=None):
    """A validated requirement, values sorted as a Go sets.String.List() would give them."""
    return L.new_requirement(key, op, sorted(set(vals or [])))


SELECTOR_PARSE_GOOD_CASES = [
    pytest.param("x=a,y=b,z=c", id="equals"),
    pytest.param("", id="empty"),
    pytest.param("x!=a,y=b", id="not-equals"),
    pytest.param("x=", id="empty-value"),
    pytest.param("x= ", id="empty-value-space"),
    pytest.param("x=,z= ", id="two-empty-values"),
    pytest.param("x= ,z= ", id="two-empty-values-spaces"),
    pytest.param("!x", id="does-not-exist"),
    pytest.param("x>1", id="greater-than"),
    pytest.param("x>1,z<5", id="greater-and-less"),
]

SELECTOR_PARSE_BAD_CASES = [
    pytest.param("x=a||y=b", id="or"),
    pytest.param("x==a==b", id="chained-equals"),
    pytest.param("!x=a", id="not-exists-with-value"),
    pytest.param("x<a", id="less-than-non-integer"),
]


@pytest.mark.parametrize("selector", SELECTOR_PARSE_GOOD_CASES)
def test_selector_parse(selector):
    """Port of TestSelectorParse (pkg/labels/selector_test.go): good strings print back without spaces."""
    assert str(L.parse(selector)) == selector.replace(" ", "")


@pytest.mark.parametrize("selector", SELECTOR_PARSE_BAD_CASES)
def test_selector_parse_errors(selector):
    """Port of TestSelectorParse (pkg/labels/selector_test.go), bad strings."""
    with pytest.raises(L.SelectorParseError):
        L.parse(selector)


PARSE_ERROR_MESSAGE_CASES = [
    pytest.param("x in (a", r"found '', expected: ',' or '\)'", id="unbalanced-paren"),
    pytest.param("(", r"found '\(', expected: !, identifier, or 'end of string'", id="open-paren-first"),
    pytest.param("x ~ y", r"found '~', expected: in, notin, =, ==, !=, gt, lt", id="bad-operator"),
    pytest.param("a/b/c", r"<nil>: Invalid value: \"a/b/c\": a valid label key", id="bad-key"),
    pytest.param("x=a b", r"found 'b', expected: ',' or 'end of string'", id="two-values"),
    pytest.param("x,", r"found '', expected: identifier after ','", id="trailing-comma"),
    pytest.param("x=" + "a" * 64, r"values\[0\]\[x\]: Invalid value: .*must be no more than 63 bytes", id="long-value"),
]


@pytest.mark.parametrize("selector, message", PARSE_ERROR_MESSAGE_CASES)
def test_parse_error_messages(selector, message):
    # The messages follow upstream's wording, so kubectl users see familiar text.
    with pytest.raises(ValueError, match=message):
        L.parse(selector)


def test_deterministic_parse():
    """Port of TestDeterministicParse (pkg/labels/selector_test.go)."""
    assert str(L.parse("x=a,a=x")) == str(L.parse("a=x,x=a"))


def test_everything():
    """Port of TestEverything (pkg/labels/selector_test.go)."""
    assert L.everything().matches(Set({"x": "y"}))
    assert L.everything().empty()
    assert L.everything().matches(None)


LABELSET = {"foo": "bar", "baz": "blah"}

SELECTOR_MATCHES_CASES = [
    pytest.param("", {"x": "y"}, True, id="empty"),
    pytest.param("x=y", {"x": "y"}, True, id="equals"),
    pytest.param("x=y,z=w", {"x": "y", "z": "w"}, True, id="two-equals"),
    pytest.param("x!=y,z!=w", {"x": "z", "z": "a"}, True, id="two-not-equals"),
    pytest.param("notin=in", {"notin": "in"}, True, id="keywords-in-exact-match"),
    pytest.param("x", {"x": "z"}, True, id="exists"),
    pytest.param("!x", {"y": "z"}, True, id="does-not-exist"),
    pytest.param("x>1", {"x": "2"}, True, id="greater"),
    pytest.param("x<1", {"x": "0"}, True, id="less"),
    pytest.param("x=z", {}, False, id="equals-absent"),
    pytest.param("x=y", {"x": "z"}, False, id="equals-other"),
    pytest.param("x=y,z=w", {"x": "w", "z": "w"}, False, id="one-of-two-equals"),
    pytest.param("x!=y,z!=w", {"x": "z", "z": "w"}, False, id="not-equals-violated"),
    pytest.param("x", {"y": "z"}, False, id="exists-absent"),
    pytest.param("!x", {"x": "z"}, False, id="does-not-exist-present"),
    pytest.param("x>1", {"x": "0"}, False, id="not-greater"),
    pytest.param("x<1", {"x": "2"}, False, id="not-less"),
    pytest.param("foo=bar", LABELSET, True, id="set-foo"),
    pytest.param("baz=blah", LABELSET, True, id="set-baz"),
    pytest.param("foo=bar,baz=blah", LABELSET, True, id="set-both"),
    pytest.param("foo=blah", LABELSET, False, id="set-wrong-foo"),
    pytest.param("baz=bar", LABELSET, False, id="set-wrong-baz"),
    pytest.param("foo=bar,foobar=bar,baz=blah", LABELSET, False, id="set-extra-key"),
    pytest.param("x notin (a)", {}, True, id="notin-absent-key-matches"),
    pytest.param("x in (a,b)", {"x": "b"}, True, id="in-second-value"),
]


@pytest.mark.parametrize("selector, ls, want", SELECTOR_MATCHES_CASES)
def test_selector_matches(selector, ls, want):
    """Port of TestSelectorMatches (pkg/labels/selector_test.go)."""
    sel = L.parse(selector)
    assert sel.matches(Set(ls)) is want
    assert sel.matches(dict(ls)) is want  # plain dicts (model labels) work too


SET_MATCHES_CASES = [
    pytest.param({}, id="empty"),
    pytest.param({"foo": "bar"}, id="foo"),
    pytest.param({"baz": "blah"}, id="baz"),
    pytest.param({"foo": "bar", "baz": "blah"}, id="both"),
]


@pytest.mark.parametrize("selector_set", SET_MATCHES_CASES)
def test_set_matches(selector_set):
    """Port of TestSetMatches (pkg/labels/selector_test.go)."""
    assert L.selector_from_set(Set(selector_set)).matches(Set(LABELSET))


def test_nil_map_is_valid():
    """Port of TestNilMapIsValid (pkg/labels/selector_test.go)."""
    selector = L.selector_from_set(None)
    assert selector is not None
    assert selector.empty()


def test_set_is_empty():
    """Port of TestSetIsEmpty (pkg/labels/selector_test.go)."""
    assert Set().as_selector().empty()
    assert L.new_selector().empty()


LEXER_CASES = [
    pytest.param("", Token.END_OF_STRING_TOKEN, id="end-of-string"),
    pytest.param(",", Token.COMMA_TOKEN, id="comma"),
    pytest.param("notin", Token.NOT_IN_TOKEN, id="notin"),
    pytest.param("in", Token.IN_TOKEN, id="in"),
    pytest.param("=", Token.EQUALS_TOKEN, id="equals"),
    pytest.param("==", Token.DOUBLE_EQUALS_TOKEN, id="double-equals"),
    pytest.param(">", Token.GREATER_THAN_TOKEN, id="greater-than"),
    pytest.param("<", Token.LESS_THAN_TOKEN, id="less-than"),
    pytest.param("!", Token.DOES_NOT_EXIST_TOKEN, id="bang"),
    pytest.param("!=", Token.NOT_EQUALS_TOKEN, id="longest-token-wins"),
    pytest.param("(", Token.OPEN_PAR_TOKEN, id="open-par"),
    pytest.param(")", Token.CLOSED_PAR_TOKEN, id="closed-par"),
    pytest.param("~", Token.IDENTIFIER_TOKEN, id="tilde-is-identifier"),
    pytest.param("||", Token.IDENTIFIER_TOKEN, id="pipes-are-identifier"),
]


@pytest.mark.parametrize("s, want", LEXER_CASES)
def test_lexer(s, want):
    """Port of TestLexer (pkg/labels/selector_test.go)."""
    token, lit = L.Lexer(s).lex()
    assert token == want
    assert lit == s


def test_lexer_error_token():
    # "=!" is no operator: the lexer stops after "=" and then finds "!" alone.
    lexer = L.Lexer("=!")
    assert lexer.lex() == (Token.EQUALS_TOKEN, "=")
    assert lexer.lex() == (Token.DOES_NOT_EXIST_TOKEN, "!")


I, N, O, C, CM, EQ, DEQ, NEQ, NI, DNE, GT, LT = (
    Token.IDENTIFIER_TOKEN, Token.IN_TOKEN, Token.OPEN_PAR_TOKEN, Token.CLOSED_PAR_TOKEN,
    Token.COMMA_TOKEN, Token.EQUALS_TOKEN, Token.DOUBLE_EQUALS_TOKEN, Token.NOT_EQUALS_TOKEN,
    Token.NOT_IN_TOKEN, Token.DOES_NOT_EXIST_TOKEN, Token.GREATER_THAN_TOKEN, Token.LESS_THAN_TOKEN,
)

LEXER_SEQUENCE_CASES = [
    pytest.param("key in ( value )", [I, N, O, I, C], id="in"),
    pytest.param("key notin ( value )", [I, NI, O, I, C], id="notin"),
    pytest.param("key in ( value1, value2 )", [I, N, O, I, CM, I, C], id="in-two-values"),
    pytest.param("key", [I], id="key"),
    pytest.param("!key", [DNE, I], id="not-key"),
    pytest.param("()", [O, C], id="parens"),
    pytest.param("x in (),y", [I, N, O, C, CM, I], id="empty-in-then-key"),
    pytest.param("== != (), = notin", [DEQ, NEQ, O, C, CM, EQ, NI], id="operators"),
    pytest.param("key>2", [I, GT, I], id="greater"),
    pytest.param("key<1", [I, LT, I], id="less"),
]


@pytest.mark.parametrize("s, want", LEXER_SEQUENCE_CASES)
def test_lexer_sequence(s, want):
    """Port of TestLexerSequence (pkg/labels/selector_test.go)."""
    lexer = L.Lexer(s)
    tokens = []
    while (token := lexer.lex()[0]) != Token.END_OF_STRING_TOKEN:
        tokens.append(token)
    assert tokens == want


@pytest.mark.parametrize("s, want", [
    pytest.param(case.values[0], case.values[1] + [Token.END_OF_STRING_TOKEN], id=case.id)
    for case in LEXER_SEQUENCE_CASES
] + [pytest.param("", [Token.END_OF_STRING_TOKEN], id="empty")])
def test_parser_lookahead(s, want):
    """Port of TestParserLookahead (pkg/labels/selector_test.go): lookahead then consume agree."""
    p = L.Parser(L.Lexer(s))
    p.scan()
    assert [item.tok for item in p.scanned_items] == want
    while True:
        token, lit = p.lookahead(L.KEY_AND_OPERATOR)
        token2, lit2 = p.consume(L.KEY_AND_OPERATOR)
        if token == Token.END_OF_STRING_TOKEN:
            break
        assert (token, lit) == (token2, lit2)


PARSE_OPERATOR_CASES = [
    pytest.param("in", IN, id="in"),
    pytest.param("=", EQUALS, id="equals"),
    pytest.param("==", DOUBLE_EQUALS, id="double-equals"),
    pytest.param(">", GREATER_THAN, id="greater"),
    pytest.param("<", LESS_THAN, id="less"),
    pytest.param("notin", NOT_IN, id="notin"),
    pytest.param("!=", NOT_EQUALS, id="not-equals"),
]

PARSE_OPERATOR_ERROR_CASES = [
    pytest.param("!", "found '!', expected: in, notin, =, ==, !=, gt, lt", id="bang"),
    pytest.param("exists", "found 'exists', expected: in, notin, =, ==, !=, gt, lt", id="exists"),
    pytest.param("(", "found '(', expected: in, notin, =, ==, !=, gt, lt", id="paren"),
]


@pytest.mark.parametrize("token, want", PARSE_OPERATOR_CASES)
def test_parse_operator(token, want):
    """Port of TestParseOperator (pkg/labels/selector_test.go)."""
    p = L.Parser(L.Lexer(token))
    p.scan()
    assert p.parse_operator() == want


@pytest.mark.parametrize("token, message", PARSE_OPERATOR_ERROR_CASES)
def test_parse_operator_errors(token, message):
    """Port of TestParseOperator (pkg/labels/selector_test.go), error rows (exact message)."""
    p = L.Parser(L.Lexer(token))
    p.scan()
    with pytest.raises(L.SelectorParseError) as info:
        p.parse_operator()
    assert str(info.value) == message


REQUIREMENT_CONSTRUCTOR_GOOD_CASES = [
    pytest.param("x3", IN, ["foo"], id="x3"),
    pytest.param("x4", NOT_IN, ["foo"], id="x4"),
    pytest.param("x6", EXISTS, [], id="x6"),
    pytest.param("x7", DOES_NOT_EXIST, [], id="x7"),
    pytest.param("x9", IN, ["bar"], id="x9"),
    pytest.param("x10", IN, ["bar"], id="x10"),
    pytest.param("x11", GREATER_THAN, ["1"], id="x11"),
    pytest.param("x12", LESS_THAN, ["6"], id="x12"),
    pytest.param("x", EQUALS, [""], id="empty-value-is-valid"),
]

INVALID = field.ERROR_TYPE_INVALID
REQUIREMENT_CONSTRUCTOR_ERROR_CASES = [
    #             key       op              vals          want=[(type, field, bad_value)]
    pytest.param("x1",      IN,             [],           [(INVALID, "values", [])], id="x1"),
    pytest.param("x2",      NOT_IN,         [],           [(INVALID, "values", [])], id="x2"),
    pytest.param("x5",      EQUALS,         ["bar", "foo"], [(INVALID, "values", ["bar", "foo"])], id="x5"),
    pytest.param("x8",      EXISTS,         ["foo"],      [(INVALID, "values", ["foo"])], id="x8"),
    pytest.param("x13",     GREATER_THAN,   [],           [(INVALID, "values", [])], id="x13"),
    pytest.param("x14",     GREATER_THAN,   ["bar"],      [(INVALID, "values[0]", "bar")], id="x14"),
    pytest.param("x15",     LESS_THAN,      ["bar"],      [(INVALID, "values[0]", "bar")], id="x15"),
    pytest.param("a" * 254, EXISTS,         [],           [(INVALID, "key", "a" * 254)], id="key-too-long"),
    pytest.param("x16",     EQUALS,         ["a" * 254],  [(INVALID, "values[0][x16]", "a" * 254)], id="x16"),
    pytest.param("x17",     EQUALS,         ["a b"],      [(INVALID, "values[0][x17]", "a b")], id="x17"),
    pytest.param("x18",     "unsupportedOp", [],          [(field.ERROR_TYPE_NOT_SUPPORTED, "operator", "unsupportedOp")], id="x18"),
]


@pytest.mark.parametrize("key, op, vals", REQUIREMENT_CONSTRUCTOR_GOOD_CASES)
def test_requirement_constructor(key, op, vals):
    """Port of TestRequirementConstructor (pkg/labels/selector_test.go), valid rows."""
    r = L.new_requirement(key, op, vals)
    assert (r.key, r.operator, r.values_unsorted()) == (key, op, vals)


@pytest.mark.parametrize("key, op, vals, want", REQUIREMENT_CONSTRUCTOR_ERROR_CASES)
def test_requirement_constructor_errors(key, op, vals, want):
    """Port of TestRequirementConstructor (pkg/labels/selector_test.go), error rows (detail ignored)."""
    with pytest.raises(L.RequirementError) as info:
        L.new_requirement(key, op, vals)
    assert [(e.type, e.field, e.bad_value) for e in info.value.errors] == want


def test_requirement_constructor_collects_every_error():
    with pytest.raises(L.RequirementError) as info:
        L.new_requirement("a/b/c", EQUALS, ["x", "y!"])
    fields = [e.field for e in info.value.errors]
    assert fields == ["key", "values", "values[1][a/b/c]"]
    assert str(info.value).startswith("[key: Invalid value: \"a/b/c\"")


TO_STRING_CASES = [
    pytest.param(lambda: [req("x", IN, ["abc", "def"]), req("y", NOT_IN, ["jkl"]), req("z", EXISTS)],
                 "x in (abc,def),y notin (jkl),z", id="in-notin-exists"),
    pytest.param(lambda: [req("x", NOT_IN, ["abc", "def"]), req("y", NOT_EQUALS, ["jkl"]), req("z", DOES_NOT_EXIST)],
                 "x notin (abc,def),y!=jkl,!z", id="notin-notequals-doesnotexist"),
    pytest.param(lambda: [req("x", IN, ["abc", "def"]), Requirement()],
                 "x in (abc,def),", id="zero-requirement-prints-empty"),
    pytest.param(lambda: [req("x", NOT_IN, ["abc"]), req("y", IN, ["jkl", "mno"]), req("z", NOT_IN, [""])],
                 "x notin (abc),y in (jkl,mno),z notin ()", id="empty-value-in-set"),
    pytest.param(lambda: [req("x", EQUALS, ["abc"]), req("y", DOUBLE_EQUALS, ["jkl"]), req("z", NOT_EQUALS, ["a"]),
                          req("z", EXISTS)],
                 "x=abc,y==jkl,z!=a,z", id="exact-operators"),
    pytest.param(lambda: [req("x", GREATER_THAN, ["2"]), req("y", LESS_THAN, ["8"]), req("z", EXISTS)],
                 "x>2,y<8,z", id="comparisons"),
    pytest.param(lambda: [Requirement("x", IN, ["b", "a"])], "x in (a,b)", id="values-printed-sorted"),
]


@pytest.mark.parametrize("make_reqs, want", TO_STRING_CASES)
def test_to_string(make_reqs, want):
    """Port of TestToString (pkg/labels/selector_test.go)."""
    assert str(InternalSelector(make_reqs())) == want


def test_to_string_does_not_reorder_values():
    r = Requirement("x", IN, ["b", "a"])
    str(r)
    assert r.values_unsorted() == ["b", "a"]


REQUIREMENT_SELECTOR_MATCHING_CASES = [
    pytest.param({"x": "foo", "y": "baz"}, lambda: [Requirement()], False, id="zero-requirement"),
    pytest.param({"x": "foo", "y": "baz"}, lambda: [req("x", IN, ["foo"]), req("y", NOT_IN, ["alpha"])], True,
                 id="in-and-notin"),
    pytest.param({"x": "foo", "y": "baz"}, lambda: [req("x", IN, ["foo"]), req("y", IN, ["alpha"])], False,
                 id="second-in-fails"),
    pytest.param({"y": ""}, lambda: [req("x", NOT_IN, [""]), req("y", EXISTS)], True, id="notin-absent-exists-empty"),
    pytest.param({"y": ""}, lambda: [req("x", DOES_NOT_EXIST), req("y", EXISTS)], True, id="doesnotexist-exists"),
    pytest.param({"y": ""}, lambda: [req("x", NOT_IN, [""]), req("y", DOES_NOT_EXIST)], False,
                 id="doesnotexist-present"),
    pytest.param({"y": "baz"}, lambda: [req("x", IN, [""])], False, id="in-empty-absent"),
    pytest.param({"z": "2"}, lambda: [req("z", GREATER_THAN, ["1"])], True, id="gt-integer"),
    pytest.param({"z": "v2"}, lambda: [req("z", GREATER_THAN, ["1"])], False, id="gt-non-integer-label"),
]


@pytest.mark.parametrize("ls, make_reqs, want", REQUIREMENT_SELECTOR_MATCHING_CASES)
def test_requirement_selector_matching(ls, make_reqs, want):
    """Port of TestRequirementSelectorMatching (pkg/labels/selector_test.go)."""
    assert InternalSelector(make_reqs()).matches(Set(ls)) is want


SET_SELECTOR_PARSER_CASES = [
    #            input, a function building the expected requirements (sorted by key)
    pytest.param("", lambda: [], id="empty"),
    pytest.param("\rx", lambda: [req("x", EXISTS)], id="carriage-return"),
    pytest.param("this-is-a-dns.domain.com/key-with-dash",
                 lambda: [req("this-is-a-dns.domain.com/key-with-dash", EXISTS)], id="prefixed-key"),
    pytest.param("this-is-another-dns.domain.com/key-with-dash in (so,what)",
                 lambda: [req("this-is-another-dns.domain.com/key-with-dash", IN, ["so", "what"])], id="prefixed-in"),
    pytest.param("0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
                 lambda: [req("0.1.2.domain/99", NOT_IN, ["10.10.100.1", "tick.tack.clock"])], id="numeric-prefix"),
    pytest.param("foo  in\t (abc)", lambda: [req("foo", IN, ["abc"])], id="tab"),
    pytest.param("x notin\n (abc)", lambda: [req("x", NOT_IN, ["abc"])], id="newline"),
    pytest.param("x  notin\t\t\t(abc,def)", lambda: [req("x", NOT_IN, ["abc", "def"])], id="tabs"),
    pytest.param("x in (abc,def)", lambda: [req("x", IN, ["abc", "def"])], id="in-two"),
    pytest.param("x in (abc,)", lambda: [req("x", IN, ["abc", ""])], id="trailing-comma-adds-empty"),
    pytest.param("x in (abc,abc)", lambda: [req("x", IN, ["abc"])], id="duplicates-collapse"),
    pytest.param("x in ()", lambda: [req("x", IN, [""])], id="empty-parens"),
    pytest.param("x in (a,,)", lambda: [req("x", IN, ["a", ""])], id="double-comma"),
    pytest.param("x in (a,,,)", lambda: [req("x", IN, ["a", ""])], id="triple-comma"),
    pytest.param("x in (a,,,,,,)", lambda: [req("x", IN, ["a", ""])], id="many-commas"),
    pytest.param("x in (a,,a,,a,,a,,)", lambda: [req("x", IN, ["a", ""])], id="repeated-with-gaps"),
    pytest.param("x notin (abc,,def),bar,z in (),w",
                 lambda: [req("bar", EXISTS), req("w", EXISTS), req("x", NOT_IN, ["abc", "", "def"]),
                          req("z", IN, [""])], id="sorted-by-key"),
    pytest.param("x=a", lambda: [req("x", EQUALS, ["a"])], id="equals"),
    pytest.param("x>1", lambda: [req("x", GREATER_THAN, ["1"])], id="greater"),
    pytest.param("x<7", lambda: [req("x", LESS_THAN, ["7"])], id="less"),
    pytest.param("x=a,y!=b", lambda: [req("x", EQUALS, ["a"]), req("y", NOT_EQUALS, ["b"])], id="equals-notequals"),
    pytest.param("x=a,y!=b,z in (h,i,j)",
                 lambda: [req("x", EQUALS, ["a"]), req("y", NOT_EQUALS, ["b"]), req("z", IN, ["h", "i", "j"])],
                 id="three-kinds"),
    pytest.param("x notin ( )", lambda: [req("x", NOT_IN, [""])], id="spaced-empty-parens"),
    pytest.param("x notin (, a)", lambda: [req("x", NOT_IN, ["", "a"])], id="leading-comma"),
    pytest.param("a ", lambda: [req("a", EXISTS)], id="trailing-space"),
    pytest.param("a in (x,y,notin, z,in)", lambda: [req("a", IN, ["in", "notin", "x", "y", "z"])],
                 id="keywords-as-values"),
]

SET_SELECTOR_PARSER_ERROR_CASES = [
    pytest.param("x=a||y=b", id="or"),
    pytest.param("x,,y", id="double-comma"),
    pytest.param(",x,y", id="leading-comma"),
    pytest.param("x nott in (y)", id="misspelled-operator"),
    pytest.param("a in (xyz),", id="trailing-comma"),
    pytest.param("a in (xyz)b notin ()", id="missing-comma"),
    pytest.param("a in (xyz abc)", id="no-comma-in-values"),
    pytest.param("a notin(", id="unclosed-paren"),
    pytest.param("a (", id="paren-after-key"),
    pytest.param("(", id="paren-only"),
]


@pytest.mark.parametrize("selector, make_want", SET_SELECTOR_PARSER_CASES)
def test_set_selector_parser(selector, make_want):
    """Port of TestSetSelectorParser (pkg/labels/selector_test.go), valid rows."""
    assert L.parse(selector) == InternalSelector(make_want())


def test_set_selector_parser_sorts_by_key():
    """Port of TestSetSelectorParser's "x,y in (a)" row: the parse is not in input order."""
    parsed = L.parse("x,y in (a)")
    assert parsed != InternalSelector([req("y", IN, ["a"]), req("x", EXISTS)])
    assert parsed == InternalSelector([req("x", EXISTS), req("y", IN, ["a"])])


@pytest.mark.parametrize("selector", SET_SELECTOR_PARSER_ERROR_CASES)
def test_set_selector_parser_errors(selector):
    """Port of TestSetSelectorParser (pkg/labels/selector_test.go), invalid rows."""
    with pytest.raises(ValueError):
        L.parse(selector)


ADD_CASES = [
    pytest.param([], ("key", IN, ["value"]), [Requirement("key", IN, ["value"])], id="keyInOperator"),
    pytest.param([Requirement("key", IN, ["value"])], ("key2", EQUALS, ["value2"]),
                 [Requirement("key", IN, ["value"]), Requirement("key2", EQUALS, ["value2"])], id="keyEqualsOperator"),
    pytest.param([Requirement("z", EXISTS)], ("a", EXISTS, []),
                 [Requirement("a", EXISTS), Requirement("z", EXISTS)], id="add-sorts-by-key"),
]


@pytest.mark.parametrize("start, new, want", ADD_CASES)
def test_add(start, new, want):
    """Port of TestAdd (pkg/labels/selector_test.go)."""
    sel = InternalSelector(start)
    added = sel.add(L.new_requirement(*new))
    assert added == InternalSelector(want)
    assert sel == InternalSelector(start)  # add copies; the original is unchanged


SAFE_SORT_CASES = [
    pytest.param([], [], id="nil strings"),
    pytest.param(["bar", "foo"], ["bar", "foo"], id="ordered strings"),
    pytest.param(["foo", "bar"], ["bar", "foo"], id="unordered strings"),
    pytest.param(["foo", "bar", "foo", "bar"], ["bar", "bar", "foo", "foo"], id="duplicated strings"),
]


@pytest.mark.parametrize("in_, want", SAFE_SORT_CASES)
def test_safe_sort(in_, want):
    """Port of TestSafeSort (pkg/labels/selector_test.go): sorted result, input untouched."""
    before = list(in_)
    assert L.safe_sort(in_) == want
    assert in_ == before


SET_SELECTOR_STRING_CASES = [
    pytest.param({}, "", id="empty"),
    pytest.param({"app": "foo"}, "app=foo", id="one"),
    pytest.param({"app": "foo", "a": "b"}, "a=b,app=foo", id="sorted"),
]


@pytest.mark.parametrize("ls, want", SET_SELECTOR_STRING_CASES)
def test_set_selector_string(ls, want):
    """Port of TestSetSelectorString (pkg/labels/selector_test.go).

    Upstream checks ValidatedSetSelector, which we do not port; the selector
    from selector_from_validated_set stands in for it and must print the same.
    """
    assert str(L.selector_from_validated_set(Set(ls))) == want


def test_selector_from_validated_set_behaves_like_a_set_selector():
    sel = L.selector_from_validated_set({"foo": "foo", "bar": "bar"})
    assert sel.matches({"foo": "foo", "bar": "bar", "extra": "label"})
    assert not sel.matches({"foo": "foo"})
    assert not sel.empty()
    assert sel.requires_exact_match("foo") == ("foo", True)
    assert str(sel.add(req("a", EXISTS))) == "a,bar=bar,foo=foo"


REQUIRES_EXACT_MATCH_CASES = [
    pytest.param([Requirement("key", IN, ["value"])], "key", ("value", True), id="keyInOperatorExactMatch"),
    pytest.param([Requirement("key", IN, ["value", "value2"])], "key", ("", False), id="keyInOperatorNotExactMatch"),
    pytest.param([Requirement("key", IN, ["value", "value1"]), Requirement("key2", IN, ["value2"])], "key2",
                 ("value2", True), id="keyInOperatorNotExactMatch-second-key"),
    pytest.param([Requirement("key", EQUALS, ["value"])], "key", ("value", True), id="keyEqualOperatorExactMatch"),
    pytest.param([Requirement("key", DOUBLE_EQUALS, ["value"])], "key", ("value", True),
                 id="keyDoubleEqualOperatorExactMatch"),
    pytest.param([Requirement("key", NOT_EQUALS, ["value"])], "key", ("", False), id="keyNotEqualOperatorExactMatch"),
    pytest.param([Requirement("key", IN, ["value"]), Requirement("key2", IN, ["value2"])], "key", ("value", True),
                 id="keyEqualOperatorExactMatchFirst"),
]


@pytest.mark.parametrize("reqs, label, want", REQUIRES_EXACT_MATCH_CASES)
def test_requires_exact_match(reqs, label, want):
    """Port of TestRequiresExactMatch (pkg/labels/selector_test.go)."""
    assert InternalSelector(reqs).requires_exact_match(label) == want


def test_validated_selector_from_set():
    """Port of TestValidatedSelectorFromSet (pkg/labels/selector_test.go)."""
    assert L.validated_selector_from_set(Set({"key": "val"})) == InternalSelector([Requirement("key", EQUALS, ["val"])])
    long_value = "axahm2EJ8Phiephe2eixohbee9eGeiyees1thuozi1xoh0GiuH3diewi8iem7Nui"
    with pytest.raises(L.RequirementError) as info:
        L.validated_selector_from_set(Set({"Key": long_value}))
    assert [(e.type, e.field, e.bad_value) for e in info.value.errors] == [(INVALID, "values[0][Key]", long_value)]


REQUIREMENT_EQUAL_CASES = [
    pytest.param(Requirement("key", EQUALS, ["foo", "bar"]), Requirement("key", EQUALS, ["foo", "bar"]), True,
                 id="same requirements should be equal"),
    pytest.param(Requirement("key1", EQUALS, ["foo", "bar"]), Requirement("key2", EQUALS, ["foo", "bar"]), False,
                 id="requirements with different keys should not be equal"),
    pytest.param(Requirement("key", EQUALS, ["foo", "bar"]), Requirement("key", IN, ["foo", "bar"]), False,
                 id="requirements with different operators should not be equal"),
    pytest.param(Requirement("key", EQUALS, ["foo", "bar"]), Requirement("key", EQUALS, ["foobar"]), False,
                 id="requirements with different values should not be equal"),
]


@pytest.mark.parametrize("x, y, want", REQUIREMENT_EQUAL_CASES)
def test_requirement_equal(x, y, want):
    """Port of TestRequirementEqual (pkg/labels/selector_test.go)."""
    assert x.equal(y) is want
    assert (x == y) is want


MATCHES_NOTHING_CASES = [
    pytest.param(lambda: L.nothing(), True, id="MatchNothing should match Nothing()"),
    pytest.param(lambda: L.NothingSelector(), True, id="MatchNothing should match any nothingSelector"),
    pytest.param(lambda: L.everything(), False, id="MatchNothing should not match Everything()"),
    pytest.param(lambda: L.selector_from_set({}), False, id="MatchNothing should not match empty set"),
    pytest.param(lambda: L.selector_from_set({"key": "value"}), False, id="MatchNothing should not match non-empty set"),
    pytest.param(lambda: L.parse(""), False, id="MatchNothing should not match empty selector"),
    pytest.param(lambda: L.parse("a"), False, id="exists"),
    pytest.param(lambda: L.parse("!a"), False, id="not exists"),
    pytest.param(lambda: L.parse("a=b"), False, id="equals"),
    pytest.param(lambda: L.parse("a!=b"), False, id="not equals"),
    pytest.param(lambda: L.parse("a in (b)"), False, id="in"),
    pytest.param(lambda: L.parse("a notin (b)"), False, id="notin"),
    pytest.param(lambda: L.parse("a,!a"), False, id="conflict exists and not exists"),
    pytest.param(lambda: L.parse("a=b,a!=b"), False, id="conflict equals and not equals"),
    pytest.param(lambda: L.parse("a in (b),a notin (b)"), False, id="conflict in and notin"),
]


@pytest.mark.parametrize("make_selector, want", MATCHES_NOTHING_CASES)
def test_matches_nothing(make_selector, want):
    """Port of TestMatchesNothing (pkg/labels/selector_test.go)."""
    assert L.matches_nothing(make_selector()) is want


def test_nothing_selector():
    sel = L.nothing()
    assert not sel.matches({})
    assert not sel.empty()
    assert str(sel) == ""
    assert sel.requirements() == ([], False)
    assert sel.add(req("a", EXISTS)) is sel


def test_selector_requirements_and_deep_copy():
    sel = L.parse("b=1,a in (x,y)")
    reqs, selectable = sel.requirements()
    assert selectable
    assert [r.key for r in reqs] == ["a", "b"]
    assert reqs[0].values() == {"x", "y"}
    copied = sel.deep_copy_selector()
    assert copied == sel and copied is not sel


def test_selector_from_set_sorted_and_unvalidated():
    # Go walks the map randomly and sorts by key; we sort too. No validation here.
    assert str(L.selector_from_set({"z": "1", "a": "bad value!"})) == "a=bad value!,z=1"
    with pytest.raises(L.RequirementError):
        Set({"a": "bad value!"}).as_validated_selector()
