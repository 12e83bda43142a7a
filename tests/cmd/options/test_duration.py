"""Tests for minikcm.cmd.options.duration: Go's time.ParseDuration and Duration.String.

The tables are Go's own (src/time/time_test.go: parseDurationTests,
parseDurationErrorTests, durationTests), plus the kube-controller-manager
defaults and the examples its users type.
"""

from __future__ import annotations

import pytest

from minikcm.cmd.options.duration import (
    HOUR,
    MICROSECOND,
    MILLISECOND,
    MINUTE,
    NANOSECOND,
    SECOND,
    format_duration,
    format_duration_ns,
    parse_duration,
    parse_duration_ns,
    quote,
)

PARSE_DURATION_CASES = [
    # simple
    pytest.param("0", 0, id="0"),
    pytest.param("5s", 5 * SECOND, id="5s"),
    pytest.param("30s", 30 * SECOND, id="30s"),
    pytest.param("1478s", 1478 * SECOND, id="1478s"),
    # sign
    pytest.param("-5s", -5 * SECOND, id="-5s"),
    pytest.param("+5s", 5 * SECOND, id="+5s"),
    pytest.param("-0", 0, id="-0"),
    pytest.param("+0", 0, id="+0"),
    # decimal
    pytest.param("5.0s", 5 * SECOND, id="5.0s"),
    pytest.param("5.6s", 5 * SECOND + 600 * MILLISECOND, id="5.6s"),
    pytest.param("5.s", 5 * SECOND, id="5.s"),
    pytest.param(".5s", 500 * MILLISECOND, id=".5s"),
    pytest.param("1.0s", 1 * SECOND, id="1.0s"),
    pytest.param("1.00s", 1 * SECOND, id="1.00s"),
    pytest.param("1.004s", 1 * SECOND + 4 * MILLISECOND, id="1.004s"),
    pytest.param("1.0040s", 1 * SECOND + 4 * MILLISECOND, id="1.0040s"),
    pytest.param("100.00100s", 100 * SECOND + 1 * MILLISECOND, id="100.00100s"),
    # different units
    pytest.param("10ns", 10 * NANOSECOND, id="10ns"),
    pytest.param("11us", 11 * MICROSECOND, id="11us"),
    pytest.param("12µs", 12 * MICROSECOND, id="12µs-micro-sign"),
    pytest.param("12μs", 12 * MICROSECOND, id="12μs-greek-mu"),
    pytest.param("13ms", 13 * MILLISECOND, id="13ms"),
    pytest.param("14s", 14 * SECOND, id="14s"),
    pytest.param("15m", 15 * MINUTE, id="15m"),
    pytest.param("16h", 16 * HOUR, id="16h"),
    # composite durations
    pytest.param("3h30m", 3 * HOUR + 30 * MINUTE, id="3h30m"),
    pytest.param("10.5s4m", 4 * MINUTE + 10 * SECOND + 500 * MILLISECOND, id="10.5s4m"),
    pytest.param("-2m3.4s", -(2 * MINUTE + 3 * SECOND + 400 * MILLISECOND), id="-2m3.4s"),
    pytest.param("1h2m3s4ms5us6ns", HOUR + 2 * MINUTE + 3 * SECOND + 4 * MILLISECOND + 5 * MICROSECOND + 6,
                 id="1h2m3s4ms5us6ns"),
    pytest.param("39h9m14.425s", 39 * HOUR + 9 * MINUTE + 14 * SECOND + 425 * MILLISECOND, id="39h9m14.425s"),
    # large value
    pytest.param("52763797000ns", 52763797000, id="52763797000ns"),
    # more than 9 digits after the decimal point (golang.org/issue/6617)
    pytest.param("0.3333333333333333333h", 20 * MINUTE, id="0.3333333333333333333h"),
    # 1<<53+1 cannot be held exactly by a float64
    pytest.param("9007199254740993ns", (1 << 53) + 1, id="9007199254740993ns"),
    # the largest duration an int64 of nanoseconds holds
    pytest.param("9223372036854775807ns", (1 << 63) - 1, id="9223372036854775807ns"),
    pytest.param("9223372036854775.807us", (1 << 63) - 1, id="9223372036854775.807us"),
    pytest.param("9223372036s854ms775us807ns", (1 << 63) - 1, id="9223372036s854ms775us807ns"),
    pytest.param("-9223372036854775808ns", -(1 << 63), id="-9223372036854775808ns"),
    pytest.param("-9223372036854775.808us", -(1 << 63), id="-9223372036854775.808us"),
    pytest.param("-9223372036s854ms775us808ns", -(1 << 63), id="-9223372036s854ms775us808ns"),
    # the most negative round-trip value (golang.org/issue/48629)
    pytest.param("-2562047h47m16.854775808s", -(1 << 63), id="-2562047h47m16.854775808s"),
    # huge string (issue 15011)
    pytest.param("0.100000000000000000000h", 6 * MINUTE, id="0.100000000000000000000h"),
    # the first overflow check of leadingFraction
    pytest.param("0.830103483285477580700h", 49 * MINUTE + 48 * SECOND + 372539827, id="0.830103483285477580700h"),
    # kube-controller-manager flags
    pytest.param("1m30s", 90 * SECOND, id="kcm-1m30s"),
    pytest.param("1.5h", 90 * MINUTE, id="kcm-1.5h"),
    pytest.param("300ms", 300 * MILLISECOND, id="kcm-300ms"),
    pytest.param("2h45m", 2 * HOUR + 45 * MINUTE, id="kcm-2h45m"),
    pytest.param("12h0m0s", 12 * HOUR, id="kcm-default-min-resync-period"),
]


@pytest.mark.parametrize("text, want", PARSE_DURATION_CASES)
def test_parse_duration(text, want):
    """Port of TestParseDuration (time/time_test.go)."""
    assert parse_duration_ns(text) == want


PARSE_DURATION_ERROR_CASES = [
    # invalid
    pytest.param("", 'time: invalid duration ""', id="empty"),
    pytest.param("3", 'time: missing unit in duration "3"', id="3"),
    pytest.param("1", 'time: missing unit in duration "1"', id="1"),
    pytest.param("-", 'time: invalid duration "-"', id="-"),
    pytest.param("s", 'time: invalid duration "s"', id="s"),
    pytest.param(".", 'time: invalid duration "."', id="."),
    pytest.param("-.", 'time: invalid duration "-."', id="-."),
    pytest.param(".s", 'time: invalid duration ".s"', id=".s"),
    pytest.param("+.s", 'time: invalid duration "+.s"', id="+.s"),
    pytest.param("1d", 'time: unknown unit "d" in duration "1d"', id="1d"),
    pytest.param("1x", 'time: unknown unit "x" in duration "1x"', id="1x"),
    pytest.param(b"\x85\x85", 'time: invalid duration "\\x85\\x85"', id="invalid-utf8"),
    pytest.param(b"\xffff", 'time: invalid duration "\\xffff"', id="xff-then-ff"),
    pytest.param(b"hello \xffff world", 'time: invalid duration "hello \\xffff world"', id="hello-xff"),
    pytest.param("\ufffd", 'time: invalid duration "\\xef\\xbf\\xbd"', id="rune-error"),
    pytest.param("\ufffd hello \ufffd world", 'time: invalid duration "\\xef\\xbf\\xbd hello \\xef\\xbf\\xbd world"',
                 id="rune-errors-around-words"),
    pytest.param("1µ", 'time: unknown unit "\\xc2\\xb5" in duration "1\\xc2\\xb5"', id="micro-sign-without-s"),
    # overflow
    pytest.param("9223372036854775810ns", 'time: invalid duration "9223372036854775810ns"', id="overflow-1"),
    pytest.param("9223372036854775808ns", 'time: invalid duration "9223372036854775808ns"', id="overflow-2"),
    pytest.param("-9223372036854775809ns", 'time: invalid duration "-9223372036854775809ns"', id="overflow-3"),
    pytest.param("9223372036854776us", 'time: invalid duration "9223372036854776us"', id="overflow-4"),
    pytest.param("3000000h", 'time: invalid duration "3000000h"', id="overflow-5"),
    pytest.param("9223372036854775.808us", 'time: invalid duration "9223372036854775.808us"', id="overflow-6"),
    pytest.param("9223372036854ms775us808ns", 'time: invalid duration "9223372036854ms775us808ns"', id="overflow-7"),
]


@pytest.mark.parametrize("text, message", PARSE_DURATION_ERROR_CASES)
def test_parse_duration_errors(text, message):
    """Port of TestParseDurationErrors (time/time_test.go); we check the whole message."""
    with pytest.raises(ValueError) as err:
        parse_duration_ns(text)
    assert str(err.value) == message


def test_parse_duration_returns_float_seconds():
    assert parse_duration("1m30s") == 90.0
    assert parse_duration("300ms") == 0.3
    assert parse_duration("-1.5h") == -5400.0


FORMAT_DURATION_CASES = [
    pytest.param(0, "0s", id="0s"),
    pytest.param(1 * NANOSECOND, "1ns", id="1ns"),
    pytest.param(1100 * NANOSECOND, "1.1µs", id="1.1µs"),
    pytest.param(2200 * MICROSECOND, "2.2ms", id="2.2ms"),
    pytest.param(3300 * MILLISECOND, "3.3s", id="3.3s"),
    pytest.param(4 * MINUTE + 5 * SECOND, "4m5s", id="4m5s"),
    pytest.param(4 * MINUTE + 5001 * MILLISECOND, "4m5.001s", id="4m5.001s"),
    pytest.param(5 * HOUR + 6 * MINUTE + 7001 * MILLISECOND, "5h6m7.001s", id="5h6m7.001s"),
    pytest.param(8 * MINUTE + 1, "8m0.000000001s", id="8m0.000000001s"),
    pytest.param((1 << 63) - 1, "2562047h47m16.854775807s", id="max"),
    pytest.param(-(1 << 63), "-2562047h47m16.854775808s", id="min"),
    pytest.param(12 * HOUR, "12h0m0s", id="kcm-12h"),
    pytest.param(15 * SECOND, "15s", id="kcm-15s"),
]


@pytest.mark.parametrize("d, want", FORMAT_DURATION_CASES)
def test_duration_string(d, want):
    """Port of TestDurationString (time/time_test.go: durationTests)."""
    assert format_duration_ns(d) == want


@pytest.mark.parametrize("text", ["1m30s", "2.5s", "-2m3.4s", "12h0m0s", "300ms", "1.1µs"])
def test_format_then_parse_round_trips(text):
    assert format_duration(parse_duration(text)) == text


def test_quote_escapes_quotes_and_backslashes():
    assert quote('a"b\\c') == '"a\\"b\\\\c"'
    assert quote("\t") == '"\\x09"'
