"""Tests for minikcm.cmd.controller_manager.deterministic (no upstream twin).

The behaviour issue 5 asks for, under the deterministic driver: several
controller-manager processes over one in-process API server and one
FakeClock, of which exactly one runs its (fake) controllers; failover after a
kill, after a network partition, with release on cancel; and clocks that run
at different rates.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from minikcm.client import InProcessClientset
from minikcm.cmd.controller_manager import ControllerManager, NotPortedError
from minikcm.cmd.controller_manager.controllermanager import RUNNING, STOPPED
from minikcm.cmd.controller_manager.deterministic import KILLED
from minikcm.tools.leaderelection.leaderelection import JITTER_FACTOR

from .cm_testing import Cluster, new_config, no_ported_controllers  # noqa: F401 (a fixture)

LEASE, RENEW, RETRY = 15.0, 10.0, 2.0
JITTERED_RETRY = RETRY * (1 + JITTER_FACTOR)  # the longest wait between two tries of a follower

def test_exactly_one_process_runs_controllers_and_another_takes_over_after_a_kill():
    """Three processes: one runs controllers; SIGKILL it and a follower takes over within the bound.

    The bound: the followers saw the dead leader's last renewal at their next
    try (at most one jittered retry period, 2 s x 2.2, later), wait a full
    lease duration from then, and notice the expiry at their following try.
    """
    cluster = Cluster()
    for who in ("kcm-a", "kcm-b", "kcm-c"):
        cluster.add(who)
    cluster.driver.run_for(30)
    assert cluster.running() == ["kcm-a"] and cluster.max_running == 1
    assert cluster.log.who() == ["kcm-a"]
    lease = cluster.lease()
    assert (lease.spec.holder_identity, lease.spec.lease_transitions, lease.spec.lease_duration_seconds) == (
        "kcm-a", 0, 15)

    last_renewal = max(t for t, who in cluster.lease_renewals() if who == "kcm-a")
    cluster.managers["kcm-a"].kill()
    assert not [s for s in cluster.driver.steps if s.name.startswith("controller-manager/kcm-a/")]
    assert cluster.driver.run_until(lambda: len(cluster.running()) == 1, timeout=60)
    takeover = cluster.clock.now()
    assert last_renewal + timedelta(seconds=LEASE) <= takeover
    assert takeover <= last_renewal + timedelta(seconds=LEASE + 2 * JITTERED_RETRY)
    (successor,) = cluster.running()
    lease = cluster.lease()
    assert (lease.spec.holder_identity, lease.spec.lease_transitions) == (successor, 1)

    cluster.driver.run_for(60)
    assert cluster.running() == [successor] and cluster.max_running == 1
    assert cluster.log.who() == ["kcm-a", successor]
    assert cluster.managers["kcm-a"].state == KILLED


def test_leader_election_events_are_recorded():
    cluster = Cluster()
    cluster.add("kcm-a")
    cluster.driver.run_for(5)
    events = cluster.server.list("events", "kube-system")["items"]
    assert [(e["reason"], e["message"], e["source"]["component"]) for e in events] == [
        ("LeaderElection", "kcm-a became leader", "kube-controller-manager")]


def test_a_leader_that_cannot_reach_the_api_server_stops_after_the_renew_deadline():
    """Partition the leader: it stops its controllers at the renew deadline, before anyone else starts."""
    cluster = Cluster()
    for who in ("kcm-a", "kcm-b", "kcm-c"):
        cluster.add(who)
    cluster.driver.run_for(31)
    last_renewal = max(t for t, who in cluster.lease_renewals() if who == "kcm-a")
    cluster.partition("kcm-a")
    a = cluster.managers["kcm-a"]
    assert cluster.driver.run_until(lambda: a.state == STOPPED, timeout=60)
    stopped = cluster.clock.now()
    # The first failed renewal comes one retry after the last good one; the deadline counts from there.
    assert stopped == last_renewal + timedelta(seconds=RETRY + RENEW)
    assert cluster.running() == [] and a.running_controllers() == []
    assert any(e.step == "controller-manager/kcm-a/leaderelection" and e.detail == "leaderelection lost/stopped"
               for e in cluster.driver.trace)
    assert cluster.driver.run_until(lambda: len(cluster.running()) == 1, timeout=60)
    assert cluster.clock.now() <= last_renewal + timedelta(seconds=LEASE + 2 * JITTERED_RETRY)
    cluster.driver.run_for(5)
    assert cluster.max_running == 1
    a_last_tick = cluster.log.span("kcm-a")[1]
    successor = cluster.running()[0]
    assert a_last_tick < cluster.log.span(successor)[0]
    assert cluster.lease().spec.holder_identity == successor


@pytest.mark.parametrize("release_on_cancel", [
    pytest.param(False, id="upstream-kcm-keeps-the-lease"),
    pytest.param(True, id="release-on-cancel-hands-over-at-once"),
])
def test_cancel(release_on_cancel):
    """SIGTERM the leader. kube-controller-manager does not release its Lease, so the successor waits out
    the lease; with client-go's ReleaseOnCancel the holder is cleared and a follower takes over at its next try."""
    cluster = Cluster()
    a = cluster.add("kcm-a", release_on_cancel=release_on_cancel)
    cluster.add("kcm-b")
    cluster.driver.run_for(30)
    last_renewal = max(t for t, who in cluster.lease_renewals() if who == "kcm-a")
    a.cancel()
    assert cluster.driver.run_until(lambda: a.state == STOPPED, timeout=10)
    stopped = cluster.clock.now()
    assert a.running_controllers() == []
    assert cluster.lease().spec.holder_identity == ("" if release_on_cancel else "kcm-a")
    assert cluster.driver.run_until(lambda: cluster.running() == ["kcm-b"], timeout=60)
    if release_on_cancel:
        assert cluster.clock.now() <= stopped + timedelta(seconds=JITTERED_RETRY)
    else:
        assert cluster.clock.now() >= last_renewal + timedelta(seconds=LEASE)
    assert cluster.max_running == 1
    assert cluster.lease().spec.lease_transitions == 1


CLOCK_RATE_CASES = [
    # Upstream tolerates any clock offset (decisions use times each process measured itself) but only
    # limited differences in clock *rate*: roughly lease_duration / renew_deadline = 1.5 between the
    # fastest and the slowest clock. Exactly: a cut-off leader gives up retry + renew_deadline (12 s) of
    # its own time after its last renewal; a follower takes over lease_duration (15 s) of its own time
    # after it last saw a change. Safe while 12 / leader_rate < 15 / follower_rate, i.e. a ratio below 1.25.
    pytest.param({"kcm-a": 1.0, "kcm-b": 1.2, "kcm-c": 0.8}, True, 1, id="within-ratio-partitioned-leader"),
    pytest.param({"kcm-a": 0.5, "kcm-b": 1.0}, False, 1, id="within-ratio-slow-healthy-leader"),
    pytest.param({"kcm-a": 1.0, "kcm-b": 2.0}, True, 2, id="beyond-ratio-fast-follower"),
    pytest.param({"kcm-a": 0.1, "kcm-b": 1.0}, False, 2, id="beyond-ratio-slow-healthy-leader"),
]


@pytest.mark.parametrize("rates, partition_leader, expected_max_running", CLOCK_RATE_CASES)
def test_clock_rates(rates, partition_leader, expected_max_running):
    """Each process has its own clock running at `rate` x the shared one; kcm-a leads first."""
    cluster = Cluster()
    for who, rate in rates.items():
        cluster.add(who, rate=rate)
    cluster.driver.run_for(5)
    assert cluster.running() == ["kcm-a"]
    if partition_leader:
        cluster.partition("kcm-a")
    cluster.driver.run_for(200)
    assert cluster.max_running == expected_max_running
    if partition_leader or expected_max_running == 2:
        assert cluster.managers["kcm-a"].state == STOPPED
        assert len(cluster.running()) == 1 and cluster.running() != ["kcm-a"]
    else:
        assert cluster.running() == ["kcm-a"] and cluster.lease().spec.lease_transitions == 0


def test_without_leader_election_every_process_runs_controllers():
    """--leader-elect=false: the controllers start at once, in every process (why the election matters)."""
    cluster = Cluster()
    a = cluster.add("kcm-a", "--leader-elect=false")
    cluster.add("kcm-b", "--leader-elect=false")
    cluster.driver.run_for(5)
    assert cluster.running() == ["kcm-a", "kcm-b"] and cluster.max_running == 2
    a.cancel()
    cluster.driver.run_for(5)
    assert cluster.running() == ["kcm-b"] and a.state == STOPPED


def test_controller_start_interval_delays_each_start_by_a_jittered_interval():
    cluster = Cluster()
    cluster.add("kcm-a", "--controller-start-interval=10s")
    assert cluster.driver.run_until(lambda: cluster.running() == ["kcm-a"], timeout=60)
    assert timedelta(seconds=10) <= cluster.clock.now() - cluster.driver.trace[0].time < timedelta(seconds=20)


def test_a_controller_that_cannot_be_built_ends_the_process():
    """--controllers naming a controller minikcm does not port: the leader fails and stops, as Run returns its error."""
    cluster = Cluster()
    c = new_config(InProcessClientset(cluster.server), cluster.clock, random.Random(1), "--controllers=job")
    cm = ControllerManager(c, cluster.driver, identity="kcm-a")
    cluster.driver.add_all(cm.steps())
    cluster.driver.run_for(5)
    assert cm.state == STOPPED
    (err,) = cm.errors
    assert isinstance(err, NotPortedError) and "'job-controller' is not ported by minikcm" in str(err)


def test_star_with_the_real_registry_runs_the_process_without_unported_controllers(no_ported_controllers):
    cluster = Cluster()
    c = new_config(InProcessClientset(cluster.server), cluster.clock, random.Random(1))
    cm = ControllerManager(c, cluster.driver, identity="kcm-a")
    cluster.driver.add_all(cm.steps())
    cluster.driver.run_for(20)
    assert cm.state == RUNNING and cm.controllers == [] and cm.is_leader()
    assert any(e.detail == "built controllers: none" for e in cluster.driver.trace)


def test_same_seed_same_trace():
    def one_run():
        cluster = Cluster(seed=5)
        for who in ("kcm-a", "kcm-b", "kcm-c"):
            cluster.add(who)
        cluster.driver.run_for(20)
        cluster.managers["kcm-a"].kill()
        cluster.driver.run_for(40)
        return cluster.driver.trace_text()

    assert one_run() == one_run()


def test_step_names_carry_the_process_prefix():
    cluster = Cluster()
    cluster.add("kcm-a")
    cluster.driver.run_for(3)
    step_names = [s.name for s in cluster.driver.steps]
    assert step_names[:2] == ["controller-manager/kcm-a/leaderelection/acquire",
                              "controller-manager/kcm-a/leaderelection/renew"]
    assert "controller-manager/kcm-a/controllers/fake-controller/tick" in step_names
    assert all(n.startswith("controller-manager/kcm-a/") for n in step_names)
