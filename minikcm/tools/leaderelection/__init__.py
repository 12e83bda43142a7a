"""Port of k8s.io/client-go/tools/leaderelection: pick one active instance among many.

Every kube-controller-manager replica runs a `LeaderElector` against one shared
lock (a Lease, see `resourcelock`). The one that holds the lock runs the
controllers through `on_started_leading`; the others wait and take over only
when the lock has gone unrenewed for a whole lease duration. `HealthzAdaptor`
turns a leader that can no longer renew into a failing health check.
"""

from minikcm.tools.leaderelection.healthzadaptor import HealthzAdaptor, new_leader_healthz_adaptor
from minikcm.tools.leaderelection.leaderelection import (
    JITTER_FACTOR,
    LeaderCallbacks,
    LeaderElectionConfig,
    LeaderElector,
    new_leader_elector,
    run_or_die,
)

__all__ = [
    "JITTER_FACTOR",
    "HealthzAdaptor",
    "LeaderCallbacks",
    "LeaderElectionConfig",
    "LeaderElector",
    "new_leader_elector",
    "new_leader_healthz_adaptor",
    "run_or_die",
]
