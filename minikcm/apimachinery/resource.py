"""Port of k8s.io/apimachinery/pkg/api/resource/quantity.go (parsing checks only).

A resource.Quantity (`cpu: 500m`, `memory: 1Gi`, `storage: 10G`) is written as a
signed decimal number followed by a suffix: a decimal SI one (n u m k M G T P E),
a binary SI one (Ki Mi Gi Ti Pi Ei), or an exponent (e3, E-2). kube-apiserver
parses every quantity while it decodes a request body, so a malformed one fails
the whole request before validation. This module answers whether a string
parses, and with which of Go's three errors it would not.

Start reading at: quantity_error.

Not ported: the Quantity type itself, its arithmetic and its canonical string
form (the embedded server stores a quantity as written; kube-apiserver would
store `1000m` as `1`).
"""

from __future__ import annotations

SPLIT_RE_STRING = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"

ERR_FORMAT_WRONG = f"quantities must match the regular expression '{SPLIT_RE_STRING}'"
"""Go: ErrFormatWrong."""
ERR_NUMERIC = "unable to parse numeric part of quantity"
"""Go: ErrNumeric."""
ERR_SUFFIX = "unable to parse quantity's suffix"
"""Go: ErrSuffix."""

DECIMAL_SUFFIXES = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
BINARY_SUFFIXES = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
MAX_INT64_FACTORS = 18
_DIGITS = "0123456789"
_SUFFIX_CHARS = "eEinumkKMGTP"


class QuantityError(ValueError):
    """A string that is not a quantity; the message is Go's error text."""


def parse_quantity_string(text: str) -> tuple[bool, str, str, str, str]:
    """Port of parseQuantityString (quantity.go): split into (positive, value, num, denom, suffix).

    Raises:
        QuantityError: ERR_FORMAT_WRONG when an exponent suffix ends in a non-digit.
    """
    positive, pos, end = True, 0, len(text)
    if pos < end and text[0] in "+-":
        positive = text[0] != "-"
        pos += 1
    while True:  # leading zeros
        if pos >= end:
            return positive, "0", "0", "", ""
        if text[pos] != "0":
            break
        pos += 1
    start = pos
    while True:  # numerator
        if pos >= end:
            return positive, text, text[start:], "", ""
        if text[pos] not in _DIGITS:
            break
        pos += 1
    num = text[start:pos] or "0"
    denom = ""
    if text[pos] == ".":
        pos += 1
        start = pos
        while True:
            if pos >= end:
                return positive, text, num, text[start:], ""
            if text[pos] not in _DIGITS:
                break
            pos += 1
        denom = text[start:pos]
    value = text[:pos]
    suffix_start = pos
    while True:  # suffix letters
        if pos >= end:
            return positive, value, num, denom, text[suffix_start:]
        if text[pos] not in _SUFFIX_CHARS:
            break
        pos += 1
    if text[pos] in "+-":
        pos += 1
    while True:  # exponent digits
        if pos >= end:
            return positive, value, num, denom, text[suffix_start:]
        if text[pos] not in _DIGITS:
            raise QuantityError(ERR_FORMAT_WRONG)
        pos += 1


def _parse_int64(text: str) -> int | None:
    """Go strconv.ParseInt(text, 10, 64): an optional sign and ASCII digits, within int64."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not digits or any(c not in _DIGITS for c in digits):
        return None
    number = int(text)
    return number if -(2**63) <= number < 2**63 else None


def interpret_suffix(suffix: str) -> tuple[int, int, str] | None:
    """Port of suffixHandler.interpret (suffix.go): (base, exponent, format), None when unknown."""
    if suffix in DECIMAL_SUFFIXES:
        return 10, DECIMAL_SUFFIXES[suffix], "DecimalSI"
    if suffix in BINARY_SUFFIXES:
        return 2, BINARY_SUFFIXES[suffix], "BinarySI"
    if len(suffix) > 1 and suffix[0] in "eE":
        exponent = _parse_int64(suffix[1:])
        if exponent is None:
            return None
        return 10, exponent, "DecimalExponent"
    return None


def quantity_error(text: str) -> str:
    """Port of ParseQuantity (apimachinery/pkg/api/resource/quantity.go), its checks: the error, or "" when it parses.

    Only the checks are ported: the format, the suffix, and the numeric part
    (which must hold a digit unless the value fits Go's int64 fast path).
    """
    if not text:
        return ERR_FORMAT_WRONG
    if text == "0":
        return ""
    try:
        _, value, num, denom, suffix = parse_quantity_string(text)
    except QuantityError as err:
        return str(err)
    interpreted = interpret_suffix(suffix)
    if interpreted is None:
        return ERR_SUFFIX
    _, exponent, fmt = interpreted
    if fmt == "BinarySI":
        precision = 15 - len(num) - int(exponent * 3 / 10) - 1 if not denom else -1
        scale = 0
    else:
        precision = MAX_INT64_FACTORS - (len(num) + len(denom))
        scale = exponent
    if precision >= 0 and scale - len(denom) >= -9:
        return ""  # Go's int64 fast path: num+denom always parses here
    if not any(c in _DIGITS for c in value):
        return ERR_NUMERIC  # inf.Dec.SetString needs a digit
    return ""
