"""Tests for minikcm.cmd.options.flags: the parse functions behind pflag-style flags."""

from __future__ import annotations

import argparse

import pytest

from minikcm.cmd.options.flags import parse_bool, parse_int32


def test_parse_helpers():
    assert [parse_bool(v) for v in ("1", "t", "TRUE", "True", "0", "f", "FALSE")] == [True] * 4 + [False] * 3
    assert parse_int32("-0x10") == -16 and parse_int32("+7") == 7
    with pytest.raises(argparse.ArgumentTypeError):
        parse_int32("1_000")


def test_parse_bool_refuses_other_words():
    with pytest.raises(argparse.ArgumentTypeError, match="strconv.ParseBool"):
        parse_bool("yes")
