"""Tests for minikcm.controller.util.consistency: ports of pkg/controller/util/consistency/consistency_test.go."""

from __future__ import annotations

import threading

import pytest

from minikcm.apimachinery.schema import GroupResource
from minikcm.apimachinery.types import NamespacedName
from minikcm.controller.util import consistency
from minikcm.controller.util.consistency import (
    ConsistencyError,
    InvalidResourceVersion,
    compare_resource_version,
    new_consistency_store,
    new_noop_consistency_store,
    new_owner_record,
)
from minikcm.tools.cache.store import meta_namespace_key_func, new_store

GR_POD = GroupResource("", "pods")
GR_DS = GroupResource("apps", "daemonsets")


def test_owner_record_wrote_at():
    """Port of TestOwnerRecord_WroteAt (consistency_test.go)."""
    record = new_owner_record("owner-uid-1")
    assert record.owner_uid == "owner-uid-1"
    assert record.versions == {}
    record.wrote_at(GR_POD, "5")
    assert record.versions[GR_POD] == "5"
    record.wrote_at(GR_POD, "10")  # higher
    assert record.versions[GR_POD] == "10"
    record.wrote_at(GR_POD, "8")  # lower: kept at 10
    assert record.versions[GR_POD] == "10"
    record.wrote_at(GR_DS, "1")
    assert record.versions[GR_DS] == "1"
    assert record.versions[GR_POD] == "10", "pod version should be unchanged"


def test_owner_record_is_ready():
    """Port of TestOwnerRecord_IsReady (consistency_test.go)."""
    record = new_owner_record("owner-uid-1")
    pod_store, ds_store = new_store(meta_namespace_key_func), new_store(meta_namespace_key_func)
    store = new_consistency_store({GR_POD: pod_store, GR_DS: ds_store})

    record.ensure_ready(store)  # case 1: no writes
    record.wrote_at(GR_POD, "10")
    record.ensure_ready(store)  # case 2: a write, but the store reports no read version
    pod_store.bookmark("5")
    with pytest.raises(ConsistencyError):  # case 3: read < write
        record.ensure_ready(store)
    pod_store.bookmark("10")
    record.ensure_ready(store)  # case 4: read == write
    pod_store.bookmark("15")
    record.ensure_ready(store)  # case 5: read > write
    record.wrote_at(GR_DS, "100")
    ds_store.bookmark("50")
    with pytest.raises(ConsistencyError) as exc:  # case 6: one of two resources behind
        record.ensure_ready(store)
    assert (exc.value.read_rv, exc.value.wrote_rv, exc.value.group_resource) == ("50", "100", GR_DS)
    assert str(exc.value) == ("read version: 50 is not as new as written version: 100 "
                              "for group resource daemonsets.apps")
    ds_store.bookmark("100")
    record.ensure_ready(store)  # case 7: all caught up


def test_consistency_store_new():
    """Port of TestConsistencyStore_New (consistency_test.go)."""
    store = new_consistency_store(None)
    assert store.writes == {}


def test_consistency_store_ensure_written_record():
    """Port of TestConsistencyStore_EnsureWrittenRecord (consistency_test.go)."""
    store = new_consistency_store(None)
    owner = NamespacedName("", "owner1")
    r1 = store.ensure_written_record(owner, "uid-1")
    assert r1.owner_uid == "uid-1" and store.writes[owner] is r1
    assert store.ensure_written_record(owner, "uid-1") is r1, "same UID returns the existing record"
    r3 = store.ensure_written_record(owner, "uid-2")
    assert r3 is not r1 and r3.owner_uid == "uid-2"
    assert store.writes[owner] is r3, "the new record replaces the old one"
    assert r3.versions == {}
    r1.wrote_at(GR_POD, "10")  # the old record is detached
    assert r3.versions == {}


@pytest.mark.threaded
def test_consistency_store_ensure_written_record_concurrent():
    """Port of TestConsistencyStore_EnsureWrittenRecord_Concurrent (consistency_test.go)."""
    store = new_consistency_store(None)
    owner = NamespacedName("", "owner1")

    def race(uid: str) -> list:
        got: list = []
        threads = [threading.Thread(target=lambda: got.append(store.ensure_written_record(owner, uid)))
                   for _ in range(50)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return got

    first = race("uid-1")
    assert len({id(r) for r in first}) == 1 and first[0].owner_uid == "uid-1"
    assert len(store.writes) == 1
    replacement = race("uid-2")
    assert len({id(r) for r in replacement}) == 1 and replacement[0].owner_uid == "uid-2"
    assert store.writes[owner] is replacement[0] and replacement[0] is not first[0]


def test_consistency_store_wrote_at():
    """Port of TestConsistencyStore_WroteAt (consistency_test.go)."""
    store = new_consistency_store(None)
    owner = NamespacedName("", "owner1")
    store.wrote_at(owner, "uid-1", GR_POD, "10")
    record = store.get_written_record(owner)
    assert record is not None and record.owner_uid == "uid-1"
    assert record.versions[GR_POD] == "10"
    store.wrote_at(owner, "uid-1", GR_POD, "20")
    assert record.versions[GR_POD] == "20"


def test_consistency_store_clear():
    """Port of TestConsistencyStore_Clear (consistency_test.go)."""
    store = new_consistency_store(None)
    owner1, owner2 = NamespacedName("", "owner1"), NamespacedName("", "owner2")
    r1 = store.ensure_written_record(owner1, "uid-1")
    r2 = store.ensure_written_record(owner2, "uid-2")
    store.clear(NamespacedName("", "non-existent"), "uid-1")
    assert len(store.writes) == 2
    store.clear(owner1, "uid-2")
    assert len(store.writes) == 2 and store.writes[owner1] is r1, "a wrong UID clears nothing"
    store.clear(owner1, "uid-1")
    assert owner1 not in store.writes and store.writes[owner2] is r2
    store.ensure_written_record(owner1, "uid-1")
    store.clear(owner1, "")
    assert owner1 not in store.writes and store.writes[owner2] is r2, "an empty UID clears any record"


def test_consistency_store_is_ready():
    """Port of TestConsistencyStore_IsReady (consistency_test.go)."""
    owner = NamespacedName("", "owner1")
    pod_store = new_store(meta_namespace_key_func)
    store = new_consistency_store({GR_POD: pod_store})
    store.ensure_ready(owner)  # case 1: no record
    pod_store.bookmark("5")
    store.wrote_at(owner, "uid-1", GR_POD, "10")
    with pytest.raises(ConsistencyError):  # case 2: read < write
        store.ensure_ready(owner)
    pod_store.bookmark("10")
    store.ensure_ready(owner)  # case 3: read == write
    pod_store.bookmark("15")
    store.ensure_ready(owner)  # case 4: read > write
    assert store.get_written_record(owner) is None, "a caught-up record is dropped"


def test_noop_consistency_store_is_always_ready():
    store = new_noop_consistency_store()
    owner = NamespacedName("ns", "rs")
    store.wrote_at(owner, "uid-1", GR_POD, "10")
    store.ensure_ready(owner)
    store.clear(owner, "")


def test_ensure_ready_skips_unknown_resources_and_bad_versions():
    owner = NamespacedName("ns", "rs")
    pod_store = new_store(meta_namespace_key_func)
    store = new_consistency_store({GR_POD: pod_store})
    store.wrote_at(owner, "uid-1", GR_DS, "100")  # no store for daemonsets: skipped
    store.wrote_at(owner, "uid-1", GR_POD, "not-a-number")
    pod_store.bookmark("5")
    store.ensure_ready(owner)  # an incomparable version must not block syncing


COMPARE_RESOURCE_VERSION_CASES = [
    pytest.param("1", "1", 0, id="equal"),
    pytest.param("9", "10", -1, id="shorter-is-older"),
    pytest.param("10", "9", 1, id="longer-is-newer"),
    pytest.param("123", "124", -1, id="same-length-compares-as-text"),
    pytest.param("99999999999999999999999", "99999999999999999999998", 1, id="longer-than-int64"),
]


@pytest.mark.parametrize("a, b, want", COMPARE_RESOURCE_VERSION_CASES)
def test_compare_resource_version(a, b, want):
    assert compare_resource_version(a, b) == want


@pytest.mark.parametrize("bad", [pytest.param("", id="empty"), pytest.param("0", id="zero"),
                                 pytest.param("01", id="leading-zero"), pytest.param("1a", id="not-digits"),
                                 pytest.param("-1", id="negative")])
def test_compare_resource_version_rejects_malformed(bad):
    with pytest.raises(InvalidResourceVersion):
        compare_resource_version(bad, "1")
    with pytest.raises(InvalidResourceVersion):
        compare_resource_version("1", bad)


def test_stores_satisfy_the_protocol():
    # Both implementations offer the ConsistencyStore methods the controllers call.
    for impl in (consistency.RealConsistencyStore, consistency.NoopConsistencyStore):
        for name in ("wrote_at", "clear", "ensure_ready"):
            assert callable(getattr(impl, name))
