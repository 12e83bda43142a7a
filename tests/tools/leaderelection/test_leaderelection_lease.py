"""Integration tests: LeaderElector over a real LeaseLock, the in-process clientset and the embedded API server.

The same scenarios as test_leaderelection.py's, but every read and write is a
Lease call that the embedded server checks (resourceVersion conflicts included),
and everything runs on one fake clock under the deterministic driver.
"""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest

from minikcm.apimachinery import errors
from minikcm.apimachinery.meta import GetOptions
from minikcm.apimachinery.schema import GroupResource
from minikcm.clock import EPOCH, FakeClock
from minikcm.driver import Driver
from minikcm.tools.leaderelection.leaderelection import (
    JITTER_FACTOR,
    STOPPED,
    LeaderCallbacks,
    LeaderElectionConfig,
    new_leader_elector,
)
from minikcm.tools.leaderelection.resourcelock import ResourceLockConfig, new

NAMESPACE, NAME = "kube-system", "kube-controller-manager"
LEASE, RENEW, RETRY = 15.0, 10.0, 2.0


class EventLog:
    """An event recorder that keeps (reason, message) pairs."""

    def __init__(self):
        self.events = []

    def eventf(self, obj, event_type, reason, message_fmt, *args):
        assert obj.kind == "Lease" and obj.metadata.name == NAME
        self.events.append(f"{event_type} {reason} {message_fmt % args}")


@pytest.fixture
def clock():
    return FakeClock(EPOCH, driven=True)


@pytest.fixture
def client(clock):
    from minikcm.client.fake import new_simple_clientset
    from minikcm.client.testing import ensure_namespace

    cs = new_simple_clientset(clock=clock)
    ensure_namespace(cs.server, NAMESPACE)
    return cs


def lease_ops(client):
    return [a.get_verb() for a in client.fake.actions() if a.get_resource().resource == "leases"]


class Candidates:
    """Three kube-controller-manager candidates sharing one Lease on one API server."""

    def __init__(self, clock, client, release_on_cancel=False):
        self.clock, self.client = clock, client
        self.driver = Driver(clock)
        self.electors, self.stops, self.events = {}, {}, EventLog()
        self.leading: set[str] = set()
        self.max_leaders = 0
        for i, who in enumerate(("kcm-a", "kcm-b", "kcm-c")):
            lock = new("leases", NAMESPACE, NAME, client.coordination_v1(), ResourceLockConfig(who, self.events))
            config = LeaderElectionConfig(
                lock=lock, lease_duration=LEASE, renew_deadline=RENEW, retry_period=RETRY,
                release_on_cancel=release_on_cancel, name=NAME,
                callbacks=LeaderCallbacks(self.started(who), self.stopped(who)))
            self.electors[who] = new_leader_elector(config, clock=clock, rng=random.Random(100 + i))
            self.stops[who] = threading.Event()
            self.driver.add_all(self.electors[who].steps(self.stops[who], record=self.driver.record))
        self.driver.observers.append(self.observe)

    def started(self, who):
        return lambda stop: self.leading.add(who)

    def stopped(self, who):
        return lambda: self.leading.discard(who)

    def observe(self, driver):
        self.max_leaders = max(self.max_leaders, len(self.leading))

    def lease(self):
        return self.client.coordination_v1().leases(NAMESPACE).get(NAME, GetOptions())

    def successor(self, old):
        return next((w for w in sorted(self.leading) if w != old), None)


def test_one_leader_then_failover_after_kill(clock, client):
    """Kill the leader (no release): the Lease names a successor once the lease ran out, transitions 1."""
    c = Candidates(clock, client)
    c.driver.run_for(30)
    assert c.leading == {"kcm-a"} and c.max_leaders == 1
    lease = c.lease()
    assert lease.spec.holder_identity == "kcm-a" and lease.spec.lease_duration_seconds == 15
    assert lease.spec.lease_transitions == 0
    last_renewal = lease.spec.renew_time

    c.driver.remove("leaderelection/kcm-a/")
    c.leading.discard("kcm-a")
    assert c.driver.run_until(lambda: c.successor("kcm-a") is not None, timeout=120)
    takeover = clock.now()
    assert last_renewal + timedelta(seconds=LEASE) <= takeover
    assert takeover < last_renewal + timedelta(seconds=LEASE + 2 * RETRY * (1 + JITTER_FACTOR))
    lease = c.lease()
    assert lease.spec.holder_identity == c.successor("kcm-a")
    assert lease.spec.lease_transitions == 1
    c.driver.run_for(30)
    assert c.max_leaders == 1 and len(c.leading) == 1
    assert f"Normal LeaderElection {c.successor('kcm-a')} became leader" in c.events.events


def test_release_on_cancel_hands_over_at_once(clock, client):
    """A stopped leader with release_on_cancel empties the holder; a follower takes over at its next try."""
    c = Candidates(clock, client, release_on_cancel=True)
    c.driver.run_for(30)
    c.stops["kcm-a"].set()
    assert c.driver.run_until(lambda: c.electors["kcm-a"].state == STOPPED, timeout=10)
    released = clock.now()
    assert c.lease().spec.holder_identity == ""
    assert c.events.events[:1] == ["Normal LeaderElection kcm-a became leader"]
    assert "Normal LeaderElection kcm-a stopped leading" in c.events.events
    assert c.driver.run_until(lambda: c.successor("kcm-a") is not None, timeout=60)
    assert clock.now() - released < timedelta(seconds=RETRY * (1 + JITTER_FACTOR))
    assert c.lease().spec.lease_transitions == 1


FAST_PATH_CASES = [
    pytest.param({2: None}, ["get", "create", "update", "update"], id="Exercise fast path after lock acquired"),
    pytest.param({2: "conflict", 4: None}, ["get", "create", "update", "update", "get", "update", "update"],
                 id="Fallback to slow path after fast path fails"),
]


@pytest.mark.parametrize("update_script, expected_ops", FAST_PATH_CASES)
def test_fast_path_leader_election_over_a_lease(clock, client, update_script, expected_ops):
    """Port of TestFastPathLeaderElection (leaderelection_test.go) with the clientset's reactors."""
    stop = threading.Event()
    updates = [0]

    def react(action):
        updates[0] += 1
        if update_script.get(updates[0], "pass") == "conflict":
            return True, None, errors.new_conflict(GroupResource("coordination.k8s.io", "leases"), NAME, "fake conflict")
        if updates[0] in update_script:
            stop.set()  # upstream's cancelFunc; this update still goes through
        return False, None, None

    client.fake.prepend_reactor("update", "leases", react)
    lock = new("leases", NAMESPACE, NAME, client.coordination_v1(), ResourceLockConfig("baz"))
    config = LeaderElectionConfig(lock=lock, lease_duration=15, renew_deadline=2, retry_period=1,
                                  callbacks=LeaderCallbacks(lambda stop: None, lambda: None))
    le = new_leader_elector(config, clock=clock)
    driver = Driver(clock, le.steps(stop))
    assert driver.run_until(lambda: le.state == STOPPED, timeout=60)
    assert lease_ops(client) == expected_ops


def test_a_conflicting_takeover_loses(clock, client):
    """Two followers racing for an expired lease: the later write is a Conflict, so only one wins."""
    def candidate(who):
        lock = new("leases", NAMESPACE, NAME, client.coordination_v1(), ResourceLockConfig(who))
        config = LeaderElectionConfig(lock=lock, lease_duration=LEASE, renew_deadline=RENEW, retry_period=RETRY,
                                      callbacks=LeaderCallbacks(lambda stop: None, lambda: None))
        return new_leader_elector(config, clock=clock)

    a, b, c = candidate("a"), candidate("b"), candidate("c")
    assert a.try_acquire_or_renew()
    assert not b.try_acquire_or_renew() and not c.try_acquire_or_renew()
    clock.step(LEASE)  # a is gone; b and c both see the lease as expired

    armed = [True]

    def b_writes_between_cs_get_and_update(action):
        if armed[0]:
            armed[0] = False
            assert b.try_acquire_or_renew()  # b takes over after c's read
        return False, None, None  # then c's own update reaches the server

    client.fake.prepend_reactor("update", "leases", b_writes_between_cs_get_and_update)
    assert not c.try_acquire_or_renew()  # c's update was based on a stale read: Conflict
    lease = client.coordination_v1().leases(NAMESPACE).get(NAME, GetOptions())
    assert lease.spec.holder_identity == "b" and lease.spec.lease_transitions == 1
    assert not c.try_acquire_or_renew()  # next try: c sees b's fresh record and backs off
    assert c.get_leader() == "b" and b.is_leader()
