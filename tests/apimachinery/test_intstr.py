"""Tests for minikcm.apimachinery.intstr (port of pkg/util/intstr/intstr_test.go)."""

from __future__ import annotations

import logging

import pytest

from minikcm.apimachinery import intstr


def test_from_int():
    """Port of TestFromInt (pkg/util/intstr/intstr_test.go)."""
    assert intstr.from_int(93) == 93
    assert type(intstr.from_int(93)) is int


def test_from_int_logs_int32_overflow(caplog):
    # Upstream only logs an out-of-range value; it keeps it.
    with caplog.at_level(logging.ERROR, logger="minikcm.apimachinery.intstr"):
        assert intstr.from_int(2**31) == 2**31
    assert "overflows int32" in caplog.text


def test_from_int32():
    """Port of TestFromInt32 (pkg/util/intstr/intstr_test.go)."""
    assert intstr.from_int32(93) == 93


def test_from_string():
    """Port of TestFromString (pkg/util/intstr/intstr_test.go)."""
    value = intstr.from_string("76")
    assert value == "76"
    assert type(value) is str


GET_INT_FROM_INT_OR_STRING_CASES = [
    #            input     want=(value, is_percent)
    pytest.param(200,      (200, False), id="int"),
    pytest.param("40%",    (40, True),   id="percent"),
    pytest.param("-5%",    (-5, True),   id="negative-percent"),
]

GET_INT_FROM_INT_OR_STRING_ERROR_CASES = [
    pytest.param("200",  id="string-without-percent"),
    pytest.param("30%0", id="percent-not-at-end"),
    pytest.param("%",    id="bare-percent"),
    pytest.param("a%",   id="letters-percent"),
    pytest.param("a",    id="letters"),
    pytest.param("40#",  id="wrong-suffix"),
    pytest.param("40%%", id="double-percent"),
    pytest.param(" 4%",  id="leading-space-is-not-a-go-number"),
    pytest.param("4_0%", id="underscore-is-not-a-go-number"),
    pytest.param(1.5,    id="float-is-neither-int-nor-string"),
]


@pytest.mark.parametrize("value, want", GET_INT_FROM_INT_OR_STRING_CASES)
def test_get_int_from_int_or_string(value, want):
    """Port of TestGetIntFromIntOrString (pkg/util/intstr/intstr_test.go)."""
    assert intstr.get_int_or_percent_value_safely(value) == want


@pytest.mark.parametrize("value", GET_INT_FROM_INT_OR_STRING_ERROR_CASES)
def test_get_int_from_int_or_string_errors(value):
    """Port of TestGetIntFromIntOrString (pkg/util/intstr/intstr_test.go), error rows."""
    with pytest.raises(ValueError):
        intstr.get_int_or_percent_value_safely(value)


GET_INT_FROM_INT_OR_PERCENT_CASES = [
    #            input   total round_up want
    pytest.param(123,    0,    False,   123, id="int-ignores-total"),
    pytest.param("90%",  100,  True,    90,  id="percent-of-100"),
    pytest.param("90%",  95,   True,    86,  id="percent-rounds-up"),
    pytest.param("90%",  95,   False,   85,  id="percent-rounds-down"),
    pytest.param("25%",  10,   True,    3,   id="quarter-of-ten-up"),
    pytest.param("25%",  10,   False,   2,   id="quarter-of-ten-down"),
    pytest.param("0%",   10,   True,    0,   id="zero-percent"),
    pytest.param("200%", 3,    False,   6,   id="over-hundred-percent"),
]


@pytest.mark.parametrize("value, total, round_up, want", GET_INT_FROM_INT_OR_PERCENT_CASES)
def test_get_int_from_int_or_percent(value, total, round_up, want):
    """Port of TestGetIntFromIntOrPercent (pkg/util/intstr/intstr_test.go)."""
    assert intstr.get_scaled_value_from_int_or_percent(value, total, round_up) == want


GET_INT_FROM_INT_OR_PERCENT_ERROR_CASES = [
    pytest.param("%",    id="bare-percent"),
    pytest.param("90#",  id="wrong-suffix"),
    pytest.param("#%",   id="not-a-number"),
    pytest.param("90",   id="string-without-percent"),
    pytest.param("ten%", id="word-percent"),
]


@pytest.mark.parametrize("value", GET_INT_FROM_INT_OR_PERCENT_ERROR_CASES)
def test_get_int_from_int_or_percent_errors(value):
    """Port of TestGetIntFromIntOrPercent (pkg/util/intstr/intstr_test.go), error rows."""
    with pytest.raises(ValueError, match="invalid value for IntOrString"):
        intstr.get_scaled_value_from_int_or_percent(value, 10, True)


def test_get_value_from_int_or_percent_nil():
    """Port of TestGetValueFromIntOrPercentNil (pkg/util/intstr/intstr_test.go)."""
    with pytest.raises(ValueError, match="nil value for IntOrString"):
        intstr.get_scaled_value_from_int_or_percent(None, 0, False)


LEGACY_VALUE_CASES = [
    #            input   total round_up want
    pytest.param(7,      10,   False,   7,  id="int"),
    pytest.param("50%",  10,   False,   5,  id="percent"),
    pytest.param("50",   10,   False,   5,  id="string-without-percent-is-a-percentage"),
    pytest.param("5%0%", 100,  True,    50, id="every-percent-sign-dropped"),
]


@pytest.mark.parametrize("value, total, round_up, want", LEGACY_VALUE_CASES)
def test_get_value_from_int_or_percent_legacy(value, total, round_up, want):
    # The deprecated reading treats every string as a percentage.
    assert intstr.get_value_from_int_or_percent(value, total, round_up) == want


def test_get_value_from_int_or_percent_legacy_errors():
    with pytest.raises(ValueError):
        intstr.get_value_from_int_or_percent("ten%", 10, True)
    with pytest.raises(ValueError):
        intstr.get_value_from_int_or_percent(None, 10, True)


PARSE_CASES = [
    #            input                   want
    pytest.param("0",                    0,                      id="zero"),
    pytest.param("2147483647",           2147483647,             id="max-int32"),
    pytest.param("-2147483648",          -2147483648,            id="min-int32"),
    pytest.param("2147483648",           "2147483648",           id="max-int32-plus-one"),
    pytest.param("-2147483649",          "-2147483649",          id="min-int32-minus-one"),
    pytest.param("9223372036854775807",  "9223372036854775807",  id="max-int64"),
    pytest.param("-9223372036854775808", "-9223372036854775808", id="min-int64"),
    pytest.param("9223372036854775808",  "9223372036854775808",  id="max-int64-plus-one"),
    pytest.param("-9223372036854775809", "-9223372036854775809", id="min-int64-minus-one"),
    pytest.param("25%",                  "25%",                  id="percent-stays-string"),
]


@pytest.mark.parametrize("value, want", PARSE_CASES)
def test_parse(value, want):
    """Port of TestParse (pkg/util/intstr/intstr_test.go)."""
    got = intstr.parse(value)
    assert got == want
    assert type(got) is type(want)


INT_VALUE_CASES = [
    pytest.param(5,     5,  id="int"),
    pytest.param("12",  12, id="numeric-string"),
    pytest.param("12%", 0,  id="non-numeric-string-is-zero"),
]


@pytest.mark.parametrize("value, want", INT_VALUE_CASES)
def test_int_value(value, want):
    assert intstr.int_value(value) == want


def test_string_value_and_value_or_default():
    assert intstr.string_value(3) == "3"
    assert intstr.string_value("25%") == "25%"
    assert intstr.string_value(None) == "<nil>"
    assert intstr.value_or_default(None, "25%") == "25%"
    assert intstr.value_or_default(0, "25%") == 0


def test_atoi_error_wording_follows_go():
    with pytest.raises(ValueError, match=r'strconv.Atoi: parsing "x": invalid syntax'):
        intstr.atoi("x")
    with pytest.raises(ValueError, match="value out of range"):
        intstr.atoi("99999999999999999999")
