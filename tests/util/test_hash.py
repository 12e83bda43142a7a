"""Port of pkg/util/hash/hash_test.go (TestDeepHashObject), plus FNV-1a reference values.

Upstream builds two equal values through different pointers and expects one hash, then
changes a field and expects another. The FNV-1a values are those of Go's hash/fnv tests.
"""

from __future__ import annotations

import pytest
from kubernetes.client import V1Container, V1PodSpec, V1PodTemplateSpec

from minikcm.util.hash import Fnv32a, deep_hash_object


@pytest.mark.parametrize("data,want", [
    (b"", 0x811C9DC5),
    (b"a", 0xE40C292C),
    (b"ab", 0x4D2505CA),
    (b"abc", 0x1A47E90B),
])
def test_fnv32a_reference_values(data, want):
    h = Fnv32a()
    h.write(data)
    assert h.sum32() == want


def _template(image: str) -> V1PodTemplateSpec:
    return V1PodTemplateSpec(spec=V1PodSpec(containers=[V1Container(name="c", image=image)]))


def _sum(obj) -> int:
    h = Fnv32a()
    h.write(b"left over from an earlier use")
    deep_hash_object(h, obj)
    return h.sum32()


def test_deep_hash_object_equal_values_hash_equal_and_reset_the_hasher():
    assert _sum(_template("nginx:1")) == _sum(_template("nginx:1"))
    fresh = Fnv32a()
    deep_hash_object(fresh, _template("nginx:1"))
    assert fresh.sum32() == _sum(_template("nginx:1")), "earlier writes must not leak into the sum"


def test_deep_hash_object_changed_value_hashes_differently():
    assert _sum(_template("nginx:1")) != _sum(_template("nginx:2"))
    assert _sum({"a": 1, "b": 2}) == _sum({"b": 2, "a": 1}), "map order does not matter"
    assert _sum(b"raw") != _sum(b"raw!")
