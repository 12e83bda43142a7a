"""Tests for minikcm.cmd.options.validation (component-base's ValidateLeaderElectionConfiguration)."""

from __future__ import annotations

from minikcm.cmd.controller_manager.config import LeaderElectionConfiguration
from minikcm.cmd.options.validation import validate_leader_election_configuration


def test_validate_leader_election_configuration_resources_required():
    """Port of the Required checks of ValidateLeaderElectionConfiguration (component-base)."""
    cc = LeaderElectionConfiguration(leader_elect=True, lease_duration=15, renew_deadline=10, retry_period=2)
    assert [str(e) for e in validate_leader_election_configuration(cc, "leaderElection")] == [
        "leaderElection.resourceLock: Required value", "leaderElection.resourceNamespace: Required value",
        "leaderElection.resourceName: Required value"]


def test_nothing_is_checked_without_leader_election():
    assert validate_leader_election_configuration(LeaderElectionConfiguration(), "leaderElection") == []
