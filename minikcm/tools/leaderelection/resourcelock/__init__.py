"""Port of k8s.io/client-go/tools/leaderelection/resourcelock: where the election record lives.

The leader elector reads and writes a `LeaderElectionRecord` through a lock that
implements `Interface`. At v1.36.3 the one lock type left is the Lease
(`LeaseLock`): the record is the spec of a coordination.k8s.io/v1 Lease, and the
API server's optimistic concurrency makes two simultaneous takeovers impossible.
"""

from minikcm.tools.leaderelection.resourcelock.interface import (
    CONFIG_MAPS_LEASES_RESOURCE_LOCK,
    CONFIG_MAPS_RESOURCE_LOCK,
    ENDPOINTS_LEASES_RESOURCE_LOCK,
    ENDPOINTS_RESOURCE_LOCK,
    LEADER_ELECTION_RECORD_ANNOTATION_KEY,
    LEASES_RESOURCE_LOCK,
    EventRecorder,
    Interface,
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

__all__ = [
    "CONFIG_MAPS_LEASES_RESOURCE_LOCK",
    "CONFIG_MAPS_RESOURCE_LOCK",
    "ENDPOINTS_LEASES_RESOURCE_LOCK",
    "ENDPOINTS_RESOURCE_LOCK",
    "LEADER_ELECTION_RECORD_ANNOTATION_KEY",
    "LEASES_RESOURCE_LOCK",
    "EventRecorder",
    "Interface",
    "LeaderElectionRecord",
    "LeaseLock",
    "ResourceLockConfig",
    "leader_election_record_to_lease_spec",
    "lease_spec_to_leader_election_record",
    "new",
    "new_with_labels",
]
