"""Port of k8s.io/apimachinery/pkg/util/intstr/intstr.go.

An IntOrString field holds either a whole number or a string. Deployments use it
for `maxSurge` and `maxUnavailable` ("25%" or 2), StatefulSets for
`maxUnavailable`, and so on. The controllers turn such a value into a count of
pods with `get_scaled_value_from_int_or_percent`.

Start reading at: get_scaled_value_from_int_or_percent.

Not ported: JSON and CBOR (un)marshalling, the OpenAPI schema hooks and the fuzzer
(the official client models already carry these fields as plain JSON values).
Differs from Go: there is no IntOrString struct. As in the `kubernetes` client
models (PORTING.md section 4), a value is a plain `int` or `str`, so `from_int`,
`from_string` and `parse` return plain values and `IntOrString.Type` is simply the
Python type. Go's `*IntOrString` nil is `None`. Go's `strconv` parsing is
reproduced by `atoi` (ASCII digits with an optional sign only; Python's `int()`
would also accept spaces, underscores and non-ASCII digits).
"""

from __future__ import annotations

import logging
import math
import re

from minikcm.apimachinery.field import go_quote

logger = logging.getLogger(__name__)

IntOrString = int | str
"""An IntOrString value: a plain int (Go `Type == Int`) or str (Go `Type == String`)."""

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

_DECIMAL = re.compile(r"[+-]?[0-9]+")


def parse_int(s: str, bit_size: int = 64, func: str = "ParseInt") -> int:
    """Port of strconv.ParseInt(s, 10, bit_size) as the intstr helpers use it.

    Accepts an optional sign followed by ASCII decimal digits, and nothing else.

    Raises:
        ValueError: worded like Go's *strconv.NumError, for bad syntax or a value
            outside the signed `bit_size`-bit range.
    """
    if _DECIMAL.fullmatch(s) is None:
        raise ValueError(f"strconv.{func}: parsing {go_quote(s)}: invalid syntax")
    value = int(s)
    if not -(2 ** (bit_size - 1)) <= value <= 2 ** (bit_size - 1) - 1:
        raise ValueError(f"strconv.{func}: parsing {go_quote(s)}: value out of range")
    return value


def atoi(s: str) -> int:
    """Port of strconv.Atoi (a 64-bit `int` on the platforms Kubernetes runs on)."""
    return parse_int(s, 64, "Atoi")


def from_int(val: int) -> int:
    """Port of FromInt (pkg/util/intstr/intstr.go).

    Returns `val` itself. Like upstream, a value outside the int32 range is only
    logged, not rejected.
    """
    if val > INT32_MAX or val < INT32_MIN:
        logger.error("value %d overflows int32", val)
    return val


def from_int32(val: int) -> int:
    """Port of FromInt32 (pkg/util/intstr/intstr.go). Returns `val` itself."""
    return val


def from_string(val: str) -> str:
    """Port of FromString (pkg/util/intstr/intstr.go). Returns `val` itself."""
    return val


def parse(val: str) -> IntOrString:
    """Port of Parse (pkg/util/intstr/intstr.go).

    Returns an int when `val` is a decimal number that fits in int32, and the
    string unchanged otherwise ("2147483648" stays a string).
    """
    try:
        return parse_int(val, 32)
    except ValueError:
        return val


def string_value(int_or_str: IntOrString | None) -> str:
    """Port of IntOrString.String (pkg/util/intstr/intstr.go).

    The string itself, or the decimal form of the number; "<nil>" for None.
    """
    if int_or_str is None:
        return "<nil>"
    if isinstance(int_or_str, str):
        return int_or_str
    return str(int_value(int_or_str))


def int_value(int_or_str: IntOrString) -> int:
    """Port of IntOrString.IntValue (pkg/util/intstr/intstr.go).

    The number itself, or the string read as a decimal number; a string that is
    not one gives 0 (upstream ignores the parse error the same way).
    """
    if isinstance(int_or_str, str):
        try:
            return atoi(int_or_str)
        except ValueError:
            return 0
    return int(int_or_str)


def value_or_default(int_or_percent: IntOrString | None, default_value: IntOrString) -> IntOrString:
    """Port of ValueOrDefault (pkg/util/intstr/intstr.go): `default_value` when unset."""
    if int_or_percent is None:
        return default_value
    return int_or_percent


def _scale(value: int, total: int, round_up: bool) -> int:
    # Go computes this in float64 and converts back; so do we.
    if round_up:
        return int(math.ceil(float(value) * float(total) / 100))
    return int(math.floor(float(value) * float(total) / 100))


def get_scaled_value_from_int_or_percent(
    int_or_percent: IntOrString | None, total: int, round_up: bool
) -> int:
    """Port of GetScaledValueFromIntOrPercent (pkg/util/intstr/intstr.go).

    An int is returned as it is. A string must be a whole percentage ("25%"); it
    is taken of `total` and rounded up or down. Example with total = 10:
    "25%" gives 2.5, so 3 with round_up and 2 without; 4 gives 4; "4" is an error
    (a string without "%" is never read as a count).

    Raises:
        ValueError: for None, a string without a trailing "%", or a percentage
            whose number is not a decimal integer ("ten%", "%", "40%%").
    """
    if int_or_percent is None:
        raise ValueError("nil value for IntOrString")
    try:
        value, is_percent = get_int_or_percent_value_safely(int_or_percent)
    except ValueError as err:
        raise ValueError(f"invalid value for IntOrString: {err}") from err
    if is_percent:
        value = _scale(value, total, round_up)
    return value


def get_value_from_int_or_percent(
    int_or_percent: IntOrString | None, total: int, round_up: bool
) -> int:
    """Port of GetValueFromIntOrPercent (pkg/util/intstr/intstr.go), deprecated upstream.

    The legacy reading: every string is a percentage, with or without "%"
    (so "50" of 10 is 5). New code uses get_scaled_value_from_int_or_percent.

    Raises:
        ValueError: for None or a string that is not a number once "%" is removed.
    """
    if int_or_percent is None:
        raise ValueError("nil value for IntOrString")
    try:
        value, is_percent = get_int_or_percent_value(int_or_percent)
    except ValueError as err:
        raise ValueError(f"invalid value for IntOrString: {err}") from err
    if is_percent:
        value = _scale(value, total, round_up)
    return value


def get_int_or_percent_value(int_or_str: IntOrString) -> tuple[int, bool]:
    """Port of getIntOrPercentValue (pkg/util/intstr/intstr.go).

    Returns (value, is_percent). Legacy: drops every "%" from a string and reads
    the rest as a percentage.
    """
    if isinstance(int_or_str, bool) or not isinstance(int_or_str, (int, str)):
        raise ValueError("invalid type: neither int nor percentage")
    if isinstance(int_or_str, int):
        return int_value(int_or_str), False
    try:
        v = atoi(int_or_str.replace("%", ""))
    except ValueError as err:
        raise ValueError(f"invalid value {go_quote(int_or_str)}: {err}") from err
    return v, True


def get_int_or_percent_value_safely(int_or_str: IntOrString) -> tuple[int, bool]:
    """Port of getIntOrPercentValueSafely (pkg/util/intstr/intstr.go).

    Returns (value, is_percent). Only a string ending in exactly one trailing "%"
    after a decimal number is accepted.

    Raises:
        ValueError: for a string without a trailing "%", a non-numeric
            percentage, or a value that is neither int nor str.
    """
    if isinstance(int_or_str, bool) or not isinstance(int_or_str, (int, str)):
        raise ValueError("invalid type: neither int nor percentage")
    if isinstance(int_or_str, int):
        return int_value(int_or_str), False
    if not int_or_str.endswith("%"):
        raise ValueError("invalid type: string is not a percentage")
    try:
        v = atoi(int_or_str[: -len("%")])
    except ValueError as err:
        raise ValueError(f"invalid value {go_quote(int_or_str)}: {err}") from err
    return v, True
