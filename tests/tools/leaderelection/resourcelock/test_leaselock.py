"""Tests for minikcm.tools.leaderelection.resourcelock.leaselock.

Ports of upstream's resourcelock/leaselock_test.go, run against the in-process
clientset over the embedded API server (upstream: fake.NewClientset), plus
TestLeaseSpecToLeaderElectionRecordRoundTrip from leaderelection_test.go.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from kubernetes.client import V1LeaseSpec, V1ObjectMeta

from minikcm.apimachinery import errors
from minikcm.apimachinery.meta import GetOptions, UpdateOptions
from minikcm.clock import EPOCH, FakeClock
from minikcm.tools.leaderelection.resourcelock.interface import (
    LEASES_RESOURCE_LOCK,
    LeaderElectionRecord,
    ResourceLockConfig,
)
from minikcm.tools.leaderelection.resourcelock.leaselock import (
    LeaseLock,
    leader_election_record_to_lease_spec,
    lease_spec_to_leader_election_record,
    new,
    new_with_labels,
)

TEST_NAMESPACE = "test-namespace"
TEST_NAME = "test-name"
TEST_IDENTITY = "test-identity"
TEST_TIME = datetime(2026, 1, 1, 0, 0, 5, 123456, tzinfo=timezone.utc)


class MockRecorder:
    """Keeps the formatted message of every event (upstream's mockRecorder)."""

    def __init__(self):
        self.events = []
        self.subjects = []

    def eventf(self, obj, event_type, reason, message_fmt, *args):
        self.subjects.append((obj, event_type, reason))
        self.events.append(message_fmt % args)


def sample_record() -> LeaderElectionRecord:
    return LeaderElectionRecord(
        holder_identity=TEST_IDENTITY, lease_duration_seconds=15, acquire_time=TEST_TIME, renew_time=TEST_TIME,
        leader_transitions=1, preferred_holder="preferred-holder", strategy="OldestEmulationVersion",
    )


@pytest.fixture
def client():
    from minikcm.client.fake import new_simple_clientset
    from minikcm.client.testing import ensure_namespace

    cs = new_simple_clientset(clock=FakeClock(EPOCH))
    ensure_namespace(cs.server, TEST_NAMESPACE)
    return cs


@pytest.fixture
def lease_lock(client) -> LeaseLock:
    return LeaseLock(
        lease_meta=V1ObjectMeta(namespace=TEST_NAMESPACE, name=TEST_NAME),
        client=client.coordination_v1(),
        lock_config=ResourceLockConfig(identity=TEST_IDENTITY),
    )


def test_get_error(lease_lock):
    """Port of TestGetError (leaselock_test.go)."""
    with pytest.raises(errors.StatusError) as err:
        lease_lock.get()
    assert errors.is_not_found(err.value)


def test_get(lease_lock):
    """Port of TestGet (leaselock_test.go)."""
    lease_lock.create(sample_record())
    record, raw = lease_lock.get()
    assert record == sample_record()
    assert json.loads(raw)["holderIdentity"] == TEST_IDENTITY
    assert lease_lock.lease is not None and lease_lock.lease.metadata.resource_version


def test_record_event_success(lease_lock):
    """Port of TestRecordEventSuccess (leaselock_test.go)."""
    recorder = MockRecorder()
    lease_lock.lock_config.event_recorder = recorder
    lease_lock.create(sample_record())
    lease_lock.record_event("test event")
    assert recorder.events == [f"{TEST_IDENTITY} test event"]
    subject, event_type, reason = recorder.subjects[0]
    assert (subject.kind, subject.api_version, subject.metadata.name) == ("Lease", "coordination.k8s.io/v1", TEST_NAME)
    assert (event_type, reason) == ("Normal", "LeaderElection")


def test_record_event_nil_recorder(lease_lock):
    """Port of TestRecordEventNilRecorder (leaselock_test.go)."""
    lease_lock.create(sample_record())
    lease_lock.lock_config.event_recorder = None
    lease_lock.record_event("should not panic")


def test_create_error(lease_lock):
    """Port of TestCreateError (leaselock_test.go)."""
    lease_lock.create(sample_record())
    with pytest.raises(errors.StatusError) as err:
        lease_lock.create(sample_record())
    assert errors.is_already_exists(err.value)


def test_update_error(lease_lock):
    """Port of TestUpdateError (leaselock_test.go): no update before a get or create."""
    with pytest.raises(RuntimeError, match="lease not initialized, call get or create first"):
        lease_lock.update(sample_record())


def test_describe(lease_lock):
    """Port of TestDescribe (leaselock_test.go)."""
    assert lease_lock.describe() == f"{TEST_NAMESPACE}/{TEST_NAME}"


def test_lease_conversion():
    """Port of TestLeaseConversion (leaselock_test.go)."""
    record = sample_record()
    spec = leader_election_record_to_lease_spec(record)
    assert spec.holder_identity == record.holder_identity
    assert spec.lease_duration_seconds == record.lease_duration_seconds
    assert spec.acquire_time == record.acquire_time and spec.renew_time == record.renew_time
    assert spec.lease_transitions == record.leader_transitions
    assert spec.preferred_holder == record.preferred_holder and spec.strategy == record.strategy
    assert lease_spec_to_leader_election_record(spec) == record


def test_update_with_nil_labels_on_lease(lease_lock):
    """Port of TestUpdateWithNilLabelsOnLease (leaselock_test.go)."""
    lease_lock.create(sample_record())
    lease_lock.get()
    lease_lock.lease.metadata.labels = None
    lease_lock.labels = {"custom-key": "custom-val"}
    lease_lock.update(sample_record())
    assert lease_lock.lease.metadata.labels == {"custom-key": "custom-val"}


def test_update_with_nil_labels_on_lease_lock(lease_lock):
    """Port of TestUpdateWithNilLabelsOnLeaseLock (leaselock_test.go)."""
    lease_lock.create(sample_record())
    lease_lock.get()
    lease_lock.labels = None
    lease_lock.lease.metadata.labels = {"custom-key": "custom-val"}
    lease_lock.update(sample_record())
    assert lease_lock.lease.metadata.labels == {"custom-key": "custom-val"}


def test_label_update(lease_lock):
    """Port of TestLabelUpdate (leaselock_test.go): our label keys are rewritten, others kept."""
    lease_lock.labels = {"custom-key": "custom-val"}
    lease_lock.create(sample_record())
    lease_lock.lease.metadata.labels["custom-key"] = "new-custom-val"
    lease_lock.lease.metadata.labels["custom-key-2"] = "custom-val-2"
    leases = lease_lock.client.leases(TEST_NAMESPACE)
    lease = leases.update(lease_lock.lease, UpdateOptions())
    assert lease.metadata.labels == {"custom-key": "new-custom-val", "custom-key-2": "custom-val-2"}

    lease_lock.get()  # our server checks resourceVersion (upstream's fake tracker does not): read first
    lease_lock.update(sample_record())
    lease = leases.get(TEST_NAME, GetOptions())
    assert lease.metadata.labels == {"custom-key": "custom-val", "custom-key-2": "custom-val-2"}


def test_update_on_a_stale_read_conflicts(client, lease_lock):
    """Optimistic concurrency: a write since our read makes our update a Conflict."""
    lease_lock.create(sample_record())
    other = LeaseLock(V1ObjectMeta(namespace=TEST_NAMESPACE, name=TEST_NAME), client.coordination_v1(),
                      ResourceLockConfig("other"))
    other.get()
    other.update(LeaderElectionRecord(holder_identity="other", lease_duration_seconds=15))
    with pytest.raises(errors.StatusError) as err:
        lease_lock.update(sample_record())
    assert errors.is_conflict(err.value)
    lease_lock.get()
    lease_lock.update(sample_record())  # fine again after a fresh read


def test_lease_times_keep_microseconds(client, lease_lock):
    """The Lease stores MicroTime: a record's microseconds survive the round trip through the server."""
    lease_lock.create(sample_record())
    lease = client.coordination_v1().leases(TEST_NAMESPACE).get(TEST_NAME, GetOptions())
    assert lease.spec.renew_time == TEST_TIME
    assert lease_lock.get()[0].renew_time.microsecond == 123456


def test_lease_spec_to_leader_election_record_round_trip():
    """Port of TestLeaseSpecToLeaderElectionRecordRoundTrip (leaderelection_test.go)."""
    old_spec = V1LeaseSpec(holder_identity="foo", lease_duration_seconds=10, acquire_time=TEST_TIME,
                           renew_time=TEST_TIME, lease_transitions=1)
    old_record = lease_spec_to_leader_election_record(old_spec)
    new_spec = leader_election_record_to_lease_spec(old_record)
    assert new_spec == old_spec
    assert lease_spec_to_leader_election_record(new_spec) == old_record


ZERO_SPEC_CASES = [
    pytest.param(V1LeaseSpec(), LeaderElectionRecord(), id="empty-spec-is-zero-record"),
    pytest.param(V1LeaseSpec(holder_identity="a", strategy="OldestEmulationVersion", preferred_holder="b"),
                 LeaderElectionRecord(holder_identity="a", strategy="OldestEmulationVersion", preferred_holder="b"),
                 id="coordinated-fields"),
]


@pytest.mark.parametrize("spec, want", ZERO_SPEC_CASES)
def test_lease_spec_to_leader_election_record(spec, want):
    assert lease_spec_to_leader_election_record(spec) == want


def test_record_to_spec_always_sets_holder_and_counts():
    spec = leader_election_record_to_lease_spec(LeaderElectionRecord())
    assert (spec.holder_identity, spec.lease_duration_seconds, spec.lease_transitions) == ("", 0, 0)
    assert spec.strategy is None and spec.preferred_holder is None


# --- new and new_with_labels (interface.go's New, kept in leaselock.py) ----------------------

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
