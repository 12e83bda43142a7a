"""Tests for minikcm.controller.garbagecollector.uid_cache (the absent-owner LRU); cases are ours."""

from __future__ import annotations

from minikcm.controller.garbagecollector.uid_cache import new_reference_cache

from .gc_testing import make_id

RS1 = make_id("apps/v1", "ReplicaSet", "ns1", "rs1", "1")
RS2 = make_id("apps/v1", "ReplicaSet", "ns1", "rs2", "2")
RS3 = make_id("apps/v1", "ReplicaSet", "ns1", "rs3", "3")


def test_reference_cache_evicts_least_recently_used():
    cache = new_reference_cache(2)
    cache.add(RS1)
    cache.add(RS2)
    assert cache.has(RS1)  # a hit makes rs1 the most recent
    cache.add(RS3)  # so rs2 goes
    assert cache.has(RS1) and cache.has(RS3) and not cache.has(RS2)
    assert len(cache) == 2


def test_reference_cache_keys_by_whole_reference():
    cache = new_reference_cache(10)
    cache.add(RS1)
    assert not cache.has(make_id("apps/v1", "ReplicaSet", "", "rs1", "1"))  # other namespace coordinate
    assert not cache.has(make_id("apps/v1", "Deployment", "ns1", "rs1", "1"))  # other kind, same uid


def test_reference_cache_add_twice_keeps_one_entry():
    cache = new_reference_cache(2)
    cache.add(RS1)
    cache.add(RS1)
    assert len(cache) == 1
