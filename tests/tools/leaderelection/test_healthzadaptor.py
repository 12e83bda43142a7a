"""Tests for minikcm.tools.leaderelection.healthzadaptor (port of healthzadaptor_test.go)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from minikcm.clock import EPOCH, FakeClock
from minikcm.tools.leaderelection.healthzadaptor import HealthzAdaptor, new_leader_healthz_adaptor
from minikcm.tools.leaderelection.leaderelection import LeaderElectionConfig, LeaderElector
from minikcm.tools.leaderelection.resourcelock.interface import LeaderElectionRecord

from .lock_testing import LeaseStore, MemoryLock

CURRENT = EPOCH


def health_elector(holder: str, clock_offset: timedelta) -> LeaderElector:
    """An elector that last saw `holder` at CURRENT, with its clock at CURRENT + clock_offset."""
    lock = MemoryLock(LeaseStore(), "healthTest")
    config = LeaderElectionConfig(lock=lock, lease_duration=60, name="foo")
    le = LeaderElector(config, clock=FakeClock(CURRENT + clock_offset))
    le.observed_record = LeaderElectionRecord(holder_identity=holder)
    le.observed_time = CURRENT
    return le


LEADER_ELECTION_HEALTH_CHECKER_CASES = [
    #            holder (None: no elector)  clock offset                        expected error
    pytest.param(None,          timedelta(0),                      None, id="call check before leader elector initialized"),
    pytest.param("healthTest",  timedelta(hours=1),                "failed election to renew leadership on lease foo",
                 id="call check when the lease is far expired"),
    pytest.param("otherServer", timedelta(hours=1),                None, id="call check when the lease is far expired but held by another server"),
    pytest.param("healthTest",  timedelta(0),                      None, id="call check when the lease is not expired"),
    pytest.param("healthTest",  timedelta(minutes=1, seconds=1),   None, id="call check when the lease is expired but inside the timeout"),
]


@pytest.mark.parametrize("holder, clock_offset, expected", LEADER_ELECTION_HEALTH_CHECKER_CASES)
def test_leader_election_health_checker(holder, clock_offset, expected):
    """Port of TestLeaderElectionHealthChecker (healthzadaptor_test.go)."""
    adaptor = new_leader_healthz_adaptor(20)
    assert isinstance(adaptor, HealthzAdaptor) and adaptor.le is None
    if holder is not None:
        elector = health_elector(holder, clock_offset)
        elector.config.watch_dog = adaptor
        adaptor.set_leader_election(elector)
        assert adaptor.le is elector
    if expected is None:
        adaptor.check(None)
    else:
        with pytest.raises(RuntimeError) as err:
            adaptor.check(None)
        assert str(err.value) == expected


def test_name():
    assert new_leader_healthz_adaptor(1).name() == "leaderElection"
