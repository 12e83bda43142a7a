"""Tests for minikcm.tools.cache.object_names (port of tools/cache/object-names_test.go)."""

from __future__ import annotations

import pytest

from minikcm.apimachinery.types import NamespacedName
from minikcm.tools.cache.object_names import (
    ObjectName,
    namespaced_name_as_object_name,
    new_object_name,
    parse_object_name,
)


def test_object_names(rng):
    """Port of TestObjectNames (object-names_test.go), with a seeded RNG instead of math/rand."""
    chars = "abcdefghi/"
    for _ in range(100):
        encoded = "".join(rng.choice(chars) for _ in range(10))
        parts = encoded.split("/")
        if len(parts) > 2:
            with pytest.raises(ValueError):
                parse_object_name(encoded)
            continue
        on = parse_object_name(encoded)
        if len(parts) == 2:
            assert on == ObjectName(namespace=parts[0], name=parts[1])
        else:
            assert on == ObjectName(namespace="", name=encoded)
        recoded = str(on)
        if encoded[0] == "/":
            recoded = "/" + recoded  # an empty namespace loses its slash
        assert recoded == encoded


OBJECT_NAME_STRING_CASES = [
    #            namespace  name   want
    pytest.param("ns",      "a",   "ns/a", id="namespaced"),
    pytest.param("",        "a",   "a",    id="cluster-scoped"),
]


@pytest.mark.parametrize("namespace, name, want", OBJECT_NAME_STRING_CASES)
def test_object_name_string_and_parts(namespace, name, want):
    on = new_object_name(namespace, name)
    assert str(on) == want
    assert on.parts() == (namespace, name)


def test_namespaced_name_round_trip():
    nn = NamespacedName(namespace="ns", name="a")
    on = namespaced_name_as_object_name(nn)
    assert on == ObjectName("ns", "a")
    assert on.as_namespaced_name() == nn
