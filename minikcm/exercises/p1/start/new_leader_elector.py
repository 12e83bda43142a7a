"""Exercise p1/new_leader_elector: write new_leader_elector (minikcm.tools.leaderelection.leaderelection).

Go twin: NewLeaderElector in k8s.io/client-go/tools/leaderelection/leaderelection.go (v0.36.3).
Reading map: docs page "P1 Leader election" (p1-leader-election.md#timings).
Check it: minikcm exercises check p1

The checker puts your function in place of new_leader_elector in the running
port (the leader-failover scenario and the controller manager build their
electors with it), runs a table of good and bad configs, then the
leader-failover scenario.
"""

from __future__ import annotations

import random

from minikcm.clock import Clock
from minikcm.tools.leaderelection.leaderelection import JITTER_FACTOR, LeaderElectionConfig, LeaderElector


def new_leader_elector(
    lec: LeaderElectionConfig, clock: Clock | None = None, rng: random.Random | None = None
) -> LeaderElector:
    """Port of NewLeaderElector (leaderelection.go): check the config, then build the elector.

    The timings must nest: lease_duration > renew_deadline > JITTER_FACTOR *
    retry_period, all positive. With the kube-controller-manager defaults
    (15 s, 10 s, 2 s): 15 > 10 > 2.4. A leader that keeps failing gives up
    after renew_deadline, before others may take over at lease_duration.

    Differs from Go: `clock` (real by default) and `rng` (jitter) are injected here.
    Raises:
        ValueError: with upstream's message for the first rule broken.
    """
    # Hints:
    # - Check the rules in upstream's order and raise ValueError with upstream's
    #   message for the first one broken (the table expects the exact messages):
    #   "leaseDuration must be greater than renewDeadline",
    #   "renewDeadline must be greater than retryPeriod*JitterFactor",
    #   "leaseDuration must be greater than zero", "renewDeadline must be greater than zero",
    #   "retryPeriod must be greater than zero",
    #   "OnStartedLeading callback must not be nil", "OnStoppedLeading callback must not be nil",
    #   "Lock must not be nil.", "Lock identity is empty".
    # - Then build LeaderElector(lec, clock=clock, rng=rng).
    raise NotImplementedError("exercise: write new_leader_elector")
