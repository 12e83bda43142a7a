"""Tests for minikcm.tools.leaderelection.resourcelock.interface: lock types and the raw record."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from minikcm.tools.leaderelection.resourcelock import interface
from minikcm.tools.leaderelection.resourcelock.interface import (
    LEASES_RESOURCE_LOCK,
    LeaderElectionRecord,
    ResourceLockConfig,
    new,
    new_with_labels,
)
from minikcm.tools.leaderelection.resourcelock.leaselock import LeaseLock

REMOVED_LOCK_CASES = [
    pytest.param("endpoints", "endpoints lock is removed, migrate to leases", id="endpoints"),
    pytest.param("configmaps", "configmaps lock is removed, migrate to leases", id="configmaps"),
    pytest.param("endpointsleases", "endpointsleases lock is removed, migrate to leases", id="endpointsleases"),
    pytest.param("configmapsleases", "configmapsleases lock is removed, migrated to leases", id="configmapsleases"),
    pytest.param("etcd", "Invalid lock-type etcd", id="unknown"),
]


@pytest.mark.parametrize("lock_type, message", REMOVED_LOCK_CASES)
def test_new_refuses_removed_and_unknown_lock_types(lock_type, message):
    with pytest.raises(ValueError) as err:
        new(lock_type, "kube-system", "kcm", object(), ResourceLockConfig("me"))
    assert str(err.value) == message


def test_new_builds_a_lease_lock():
    client = object()  # not called while building
    lock = new(LEASES_RESOURCE_LOCK, "kube-system", "kcm", client, ResourceLockConfig("me"))
    assert isinstance(lock, LeaseLock)
    assert lock.describe() == "kube-system/kcm" and lock.identity() == "me"
    assert lock.client is client and lock.labels is None and lock.lease is None


def test_new_with_labels_keeps_the_labels():
    lock = new_with_labels("leases", "ns", "name", object(), ResourceLockConfig("me"), {"app": "kcm"})
    assert lock.labels == {"app": "kcm"}


def test_constants():
    assert interface.LEADER_ELECTION_RECORD_ANNOTATION_KEY == "control-plane.alpha.kubernetes.io/leader"
    assert LEASES_RESOURCE_LOCK == "leases"


RECORD_JSON_CASES = [
    pytest.param(LeaderElectionRecord(),
                 '{"holderIdentity":"","leaseDurationSeconds":0,"acquireTime":null,"renewTime":null,'
                 '"leaderTransitions":0,"strategy":"","preferredHolder":""}',
                 id="zero-record-has-null-times"),
    pytest.param(LeaderElectionRecord("a", 15, datetime(2026, 1, 1, 0, 0, 1, 500, tzinfo=timezone.utc),
                                      datetime(2026, 1, 1, 0, 0, 2, tzinfo=timezone.utc), 3, "s", "b"),
                 '{"holderIdentity":"a","leaseDurationSeconds":15,"acquireTime":"2026-01-01T00:00:01.000500Z",'
                 '"renewTime":"2026-01-01T00:00:02.000000Z","leaderTransitions":3,"strategy":"s","preferredHolder":"b"}',
                 id="full-record-in-go-field-order-with-microseconds"),
]


@pytest.mark.parametrize("record, want", RECORD_JSON_CASES)
def test_record_to_json(record, want):
    assert record.to_json() == want.encode()
    assert list(json.loads(record.to_json())) == [
        "holderIdentity", "leaseDurationSeconds", "acquireTime", "renewTime",
        "leaderTransitions", "strategy", "preferredHolder"]


def test_record_to_json_sees_sub_second_renewals():
    """Two renewals in the same second must give different raw records (see to_json's docstring)."""
    t = datetime(2026, 1, 1, tzinfo=timezone.utc)
    first = LeaderElectionRecord("a", 1, t, t.replace(microsecond=200_000))
    second = LeaderElectionRecord("a", 1, t, t.replace(microsecond=400_000))
    assert first.to_json() != second.to_json()
