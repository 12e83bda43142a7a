"""Tests for minikcm.apimachinery.resource: which strings ParseQuantity accepts, and its errors."""

from __future__ import annotations

import pytest

from minikcm.apimachinery.resource import ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX, quantity_error

QUANTITIES = [
    pytest.param("abc", ERR_FORMAT_WRONG, id="letters"),
    pytest.param("", ERR_FORMAT_WRONG, id="empty"),
    pytest.param("1.5.5", ERR_FORMAT_WRONG, id="two-dots"),
    pytest.param("1 Gi", ERR_FORMAT_WRONG, id="space-inside"),
    pytest.param("1Qi", ERR_FORMAT_WRONG, id="unknown-letter"),
    pytest.param("1Gm", ERR_SUFFIX, id="unknown-suffix"),
    pytest.param("1e", ERR_SUFFIX, id="bare-exponent"),
    pytest.param("1e99999999999999999999", ERR_SUFFIX, id="exponent-beyond-int64"),
    pytest.param("0x10", ERR_FORMAT_WRONG, id="hex"),
    pytest.param(".e-20", ERR_NUMERIC, id="no-digit-slow-path"),
    pytest.param("1", "", id="one"),
    pytest.param("0", "", id="zero"),
    pytest.param("500m", "", id="milli"),
    pytest.param("1.5Gi", "", id="fraction-binary"),
    pytest.param("-1", "", id="negative"),
    pytest.param("+.5", "", id="leading-plus-dot"),
    pytest.param("1e3", "", id="exponent"),
    pytest.param("1E-2", "", id="exponent-upper-negative"),
    pytest.param("1E", "", id="exa"),
    pytest.param(".", "", id="dot-is-zero"),
    pytest.param("-", "", id="sign-is-zero"),
    pytest.param("12345678901234567890Ei", "", id="huge"),
]


@pytest.mark.parametrize("text, want", QUANTITIES)
def test_quantity_error(text, want):
    assert quantity_error(text) == want
