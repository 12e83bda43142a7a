"""Tests for minikcm.util.lru (k8s.io/utils/lru/lru.go); cases are ours."""

from __future__ import annotations

import pytest

from minikcm.util import lru

LRU_CASES = [
    #            max  operations (add k v / get k)                                want: key -> (value, ok) at the end
    pytest.param(2, [("add", "a", 1), ("add", "b", 2), ("get", "a"), ("add", "c", 3)],
                 {"a": (1, True), "b": (None, False), "c": (3, True)}, id="a-get-saves-a-from-eviction"),
    pytest.param(2, [("add", "a", 1), ("add", "b", 2), ("add", "c", 3)],
                 {"a": (None, False), "b": (2, True), "c": (3, True)}, id="oldest-goes-first"),
    pytest.param(2, [("add", "a", 1), ("add", "b", 2), ("add", "a", 9), ("add", "c", 3)],
                 {"a": (9, True), "b": (None, False), "c": (3, True)}, id="re-adding-is-a-use"),
    pytest.param(0, [("add", str(i), i) for i in range(50)],
                 {"0": (0, True), "49": (49, True)}, id="zero-means-no-limit"),
]


@pytest.mark.parametrize("max_entries, operations, want", LRU_CASES)
def test_cache(max_entries, operations, want):
    cache = lru.new(max_entries)
    for op, key, *value in operations:
        if op == "add":
            cache.add(key, value[0])
        else:
            assert cache.get(key)[1]
    assert {key: cache.get(key) for key in want} == want
    assert len(cache) == (min(max_entries, len({k for _, k, *_ in operations})) if max_entries
                          else len({k for _, k, *_ in operations}))
