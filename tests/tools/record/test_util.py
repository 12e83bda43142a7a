"""Tests for minikcm/tools/record/util.py (ports of record/util/util_test.go, plus our own)."""

from __future__ import annotations

import random

import pytest

from minikcm.apimachinery import errors
from minikcm.apimachinery.schema import GroupResource
from minikcm.apimachinery.validation import name_is_dns_subdomain
from minikcm.tools.record.util import generate_event_name, is_key_not_found_error, validate_event_type


def test_validate_event_type():
    assert validate_event_type("Normal") and validate_event_type("Warning")
    assert not validate_event_type("normal") and not validate_event_type("")


def test_is_key_not_found_error():
    assert is_key_not_found_error(errors.new_not_found(GroupResource("", "events"), "x"))
    assert not is_key_not_found_error(errors.new_already_exists(GroupResource("", "events"), "x"))
    assert not is_key_not_found_error(Exception("404"))
    assert not is_key_not_found_error(None)


GENERATE_EVENT_NAME_CASES = [
    pytest.param("test-pod", "test-pod.178959f726d80ec", id="valid name"),
    pytest.param("x" * 300, None, id="invalid name - too long"),
    pytest.param("test.POD", None, id="invalid name - upper case"),
    pytest.param("test.pod/invalid!chars?", None, id="invalid name - special chars"),
    pytest.param("--test.pod/invalid!chars?", None,
                 id="invalid name - special chars and non alphanumeric starting character"),
]


@pytest.mark.parametrize("ref_name, expected", GENERATE_EVENT_NAME_CASES)
def test_generate_event_name(ref_name, expected):
    """Port of TestGenerateEventName (record/util/util_test.go)."""
    actual = generate_event_name(ref_name, 105999103295324396)
    assert name_is_dns_subdomain(actual, False) == []
    if expected is not None:
        assert actual == expected


def test_generate_event_name_fallback_draws_from_rng():
    fallback = generate_event_name("x" * 260, 1, random.Random(3))
    assert fallback == generate_event_name("x" * 260, 1, random.Random(3))
    assert len(fallback) == 36 and fallback[14] == "4"  # a uuid4
    assert generate_event_name("", 1, random.Random(3)) == fallback  # ".1" is no valid name either
