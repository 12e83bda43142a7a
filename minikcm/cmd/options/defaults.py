"""Port of k8s.io/component-base/config/v1alpha1/defaults.go (the leader-election part).

The recommended defaults of a LeaderElectionConfiguration, which
new_default_component_config (options.py) applies.

Start reading at: recommended_default_leader_election_configuration.

Not ported: the client-connection and logging defaults.
Differs from Go: the configuration has no nil pointers, so `leader_elect`
is always set to True (Go: only when unset); we only default fresh configurations.
"""

from __future__ import annotations

from minikcm.cmd.controller_manager.config import LeaderElectionConfiguration


def recommended_default_leader_election_configuration(obj: LeaderElectionConfiguration) -> None:
    """Port of RecommendedDefaultLeaderElectionConfiguration (component-base config/v1alpha1/defaults.go).

    Fills what is unset: 15 s lease, 10 s renew deadline, 2 s retry, leader
    election on. (The controller manager sets the lock kind to leases first.)
    """
    if obj.lease_duration == 0:
        obj.lease_duration = 15.0
    if obj.renew_deadline == 0:
        obj.renew_deadline = 10.0
    if obj.retry_period == 0:
        obj.retry_period = 2.0
    if not obj.resource_lock:
        obj.resource_lock = "endpoints"  # Go: the generic default; kube-controller-manager has set "leases" by now
    obj.leader_elect = True  # Go: only when unset (a nil pointer); we only default fresh configurations
