"""Port of k8s.io/client-go/tools/leaderelection/resourcelock/interface.go.

What the leader elector stores and where. The elector never talks to the API
itself: it reads and writes a `LeaderElectionRecord` through a lock object that
implements `Interface`. At v1.36.3 the only lock left is the Lease
(`leaselock.LeaseLock`); `leaselock.new` builds it and refuses the older lock types.

Start reading at: LeaderElectionRecord, then Interface.

Not ported: NewFromKubeconfig (minikcm builds the lock from the shared clientset),
the MultiLock (multilock.go; no lock type creates one any more).
Differs from Go:
- New and NewWithLabels are in leaselock.py (`new`, `new_with_labels`), beside
  the only lock they build: leaselock.py imports this module, not the reverse.
- Errors are raised (`ValueError` for a lock type we cannot build).
- A record's zero times are None; `LeaderElectionRecord.to_json` stands in for
  Go's `json.Marshal` of the struct (see its docstring for the one difference).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Protocol

LEADER_ELECTION_RECORD_ANNOTATION_KEY = "control-plane.alpha.kubernetes.io/leader"
"""Annotation the removed Endpoints/ConfigMap locks kept the record in (kept for reference)."""

ENDPOINTS_RESOURCE_LOCK = "endpoints"
CONFIG_MAPS_RESOURCE_LOCK = "configmaps"
LEASES_RESOURCE_LOCK = "leases"
"""The one lock type `new` still builds."""
ENDPOINTS_LEASES_RESOURCE_LOCK = "endpointsleases"
CONFIG_MAPS_LEASES_RESOURCE_LOCK = "configmapsleases"

RECORD_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
"""How `to_json` writes a record's times (microseconds, UTC), the Lease's own precision."""


@dataclass
class LeaderElectionRecord:
    """Port of LeaderElectionRecord (resourcelock/interface.go).

    Who holds the lock, for how long, and since when. Electors treat the times
    as opaque: they only notice that the record *changed*, and measure
    expiry on their own clock (see LeaderElector.try_acquire_or_renew).
    An empty `holder_identity` means nobody holds the lock (a leader that
    stepped down writes that), so anyone may take it at once.

    Go passes the record by value; here callers copy it (`dataclasses.replace`)
    before keeping it.
    """

    holder_identity: str = ""
    """Identity of the current holder; "" when the lock is free."""
    lease_duration_seconds: int = 0
    """How long others must see no change before taking over (whole seconds)."""
    acquire_time: datetime | None = None
    """When the current holder acquired the lock; None is Go's zero time."""
    renew_time: datetime | None = None
    """When the current holder last renewed; None is Go's zero time."""
    leader_transitions: int = 0
    """How many times the holder changed."""
    strategy: str = ""
    """Coordinated leader election strategy ("" when not coordinated)."""
    preferred_holder: str = ""
    """Coordinated leader election: the holder the coordinator would rather see."""

    def to_json(self) -> bytes:
        """No upstream twin: the bytes Go's `json.Marshal` gives for this record.

        Keys follow the struct's json tags in field order, without spaces; a
        zero time is `null`. LeaseLock.get returns these bytes as the "raw
        record" the elector compares to spot a renewal.

        Differs from Go: times are written with microseconds. Go's metav1.Time
        marshals whole seconds only, so two renewals within one second give
        equal bytes and a follower sees "no change"; with sub-second retry
        periods (our threaded tests) that let a follower take over a live
        lease. The Lease itself stores microseconds, so nothing is invented.
        """
        fields: dict[str, Any] = {
            "holderIdentity": self.holder_identity,
            "leaseDurationSeconds": self.lease_duration_seconds,
            "acquireTime": format_record_time(self.acquire_time),
            "renewTime": format_record_time(self.renew_time),
            "leaderTransitions": self.leader_transitions,
            "strategy": self.strategy,
            "preferredHolder": self.preferred_holder,
        }
        return json.dumps(fields, separators=(",", ":")).encode()


def format_record_time(t: datetime | None) -> str | None:
    """No upstream twin: a record time as `to_json` writes it (None stays None, i.e. null)."""
    if t is None:
        return None
    return t.astimezone(timezone.utc).strftime(RECORD_TIME_FORMAT)


class EventRecorder(Protocol):
    """Port of EventRecorder (resourcelock/interface.go): the one method a lock needs to emit events.

    `message_fmt` is a %-style format; the lease lock always passes "%s".
    """

    def eventf(self, obj: Any, event_type: str, reason: str, message_fmt: str, *args: Any) -> None:
        """Port of EventRecorder.Eventf (resourcelock/interface.go)."""


@dataclass
class ResourceLockConfig:
    """Port of ResourceLockConfig (resourcelock/interface.go): what every lock type shares."""

    identity: str
    """Unique name of this candidate among everyone in the election."""
    event_recorder: EventRecorder | None = None
    """Optional: where "became leader" / "stopped leading" events go."""


class Interface(Protocol):
    """Port of Interface (resourcelock/interface.go): a place to keep a LeaderElectionRecord.

    Only the leader elector calls these. `update` may only follow a `get` or a
    `create` on the same lock object: the lock remembers the object it read
    and writes against that version (optimistic concurrency), so an update
    based on a stale read fails with a Conflict.
    """

    def get(self) -> tuple[LeaderElectionRecord, bytes]:
        """Read the record; returns it with its raw bytes. Raises the API error (NotFound, ...)."""
        ...

    def create(self, ler: LeaderElectionRecord) -> None:
        """Create the lock object holding `ler`. Raises AlreadyExists and other API errors."""
        ...

    def update(self, ler: LeaderElectionRecord) -> None:
        """Overwrite the record of the object last read or written. Raises on failure."""
        ...

    def record_event(self, s: str) -> None:
        """Emit an event about this lock, prefixed with our identity."""
        ...

    def identity(self) -> str:
        """Our identity in this election."""
        ...

    def describe(self) -> str:
        """A short name for logs, e.g. `kube-system/kube-controller-manager`."""
        ...
