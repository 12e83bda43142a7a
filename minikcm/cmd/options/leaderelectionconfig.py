"""Port of k8s.io/component-base/config/options/leaderelectionconfig.go.

The `--leader-elect*` flags every Kubernetes control-plane component shares,
bound to a LeaderElectionConfiguration. generic.py adds them to the
controller manager's "generic" flag set.

Start reading at: bind_leader_election_flags.
"""

from __future__ import annotations

from typing import Any

from minikcm.cmd.controller_manager.config import LeaderElectionConfiguration
from minikcm.cmd.options.flags import bool_flag, duration_flag, string_flag


def bind_leader_election_flags(le: LeaderElectionConfiguration, group: Any) -> None:
    """Port of BindLeaderElectionFlags (component-base config/options/leaderelectionconfig.go)."""
    bool_flag(group, "--leader-elect", le, "leader_elect",
              "Campaign for the leader lease and run the controllers only while holding it; "
              "turn this on whenever more than one copy runs.")
    duration_flag(group, "--leader-elect-lease-duration", le, "lease_duration",
                  "How long a follower waits, after it last saw the lease renewed, before it takes over; "
                  "the longest a stuck leader can hold the lease.")
    duration_flag(group, "--leader-elect-renew-deadline", le, "renew_deadline",
                  "How long the leader keeps retrying a failed renewal before it stops leading; "
                  "must be shorter than the lease duration.")
    duration_flag(group, "--leader-elect-retry-period", le, "retry_period",
                  "Time between attempts to acquire or renew the lease.")
    string_flag(group, "--leader-elect-resource-lock", le, "resource_lock",
                "Kind of object that holds the lock; only 'leases' is supported.")
    string_flag(group, "--leader-elect-resource-name", le, "resource_name", "Name of the lock object.")
    string_flag(group, "--leader-elect-resource-namespace", le, "resource_namespace",
                "Namespace of the lock object.")
