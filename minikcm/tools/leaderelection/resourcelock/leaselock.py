"""Port of k8s.io/client-go/tools/leaderelection/resourcelock/leaselock.go.

The Lease lock: the leader election record lives in the spec of a
coordination.k8s.io/v1 Lease (`kubectl get lease -n kube-system`). The lock keeps
the Lease it last read or wrote and sends its updates against that copy, so the
API server's resourceVersion check turns a write based on a stale read into a
409 Conflict: two candidates can never both think they wrote the record last.

Start reading at: LeaseLock.get, then LeaseLock.update; `new` builds a lock.

Not ported: nothing of behaviour.
Differs from Go:
- `get` returns the raw record from `LeaderElectionRecord.to_json`, which keeps
  microseconds where Go's JSON keeps whole seconds (see that method).
- Go keeps a pointer to the Lease and changes it in place; here `lease` is the
  model the clientset returned, changed in place the same way.
- Label keys are applied in sorted order (Go ranges over a map).
- `new` and `new_with_labels` are ports of New and NewWithLabels from
  interface.go, kept here beside the one lock they build so that this module
  imports interface.py and not the reverse. They take no core client: no
  remaining lock type uses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kubernetes.client import V1Lease, V1LeaseSpec, V1ObjectMeta

from minikcm.apimachinery.meta import CreateOptions, GetOptions, UpdateOptions
from minikcm.tools.leaderelection.resourcelock.interface import (
    CONFIG_MAPS_LEASES_RESOURCE_LOCK,
    CONFIG_MAPS_RESOURCE_LOCK,
    ENDPOINTS_LEASES_RESOURCE_LOCK,
    ENDPOINTS_RESOURCE_LOCK,
    LEASES_RESOURCE_LOCK,
    Interface,
    LeaderElectionRecord,
    ResourceLockConfig,
)

if TYPE_CHECKING:
    from minikcm.client.interface import CoordinationV1Interface

EVENT_TYPE_NORMAL = "Normal"  # Go: corev1.EventTypeNormal
LEASE_API_VERSION = "coordination.k8s.io/v1"  # Go: coordinationv1.SchemeGroupVersion


@dataclass(eq=False)
class LeaseLock:
    """Port of LeaseLock (resourcelock/leaselock.go): implements resourcelock.Interface on a Lease.

    `lease_meta` names the Lease (namespace and name only). `lease` is the
    Lease as last returned by the API server: None until the first successful
    `get` or `create`, and `update` refuses to run before that.

    Thread: one elector at a time (the elector's own loop); not locked.
    """

    lease_meta: V1ObjectMeta
    """Namespace and name of the Lease this lock lives in."""
    client: CoordinationV1Interface
    """The clientset's coordination/v1 group (Go: a LeasesGetter)."""
    lock_config: ResourceLockConfig
    """Our identity and the optional event recorder."""
    lease: V1Lease | None = None
    """The Lease last read or written; the base of the next update."""
    labels: dict[str, str] | None = None
    """Labels this holder sets on the Lease when it writes it (None: leave labels alone)."""

    def get(self) -> tuple[LeaderElectionRecord, bytes]:
        """Port of LeaseLock.Get (resourcelock/leaselock.go).

        Reads the Lease, remembers it as the base for the next update, and
        returns its record with the record's raw bytes.

        Raises: the clientset's StatusError (NotFound when there is no Lease yet).
        """
        lease = self.client.leases(self.lease_meta.namespace).get(self.lease_meta.name, GetOptions())
        self.lease = lease
        record = lease_spec_to_leader_election_record(lease.spec or V1LeaseSpec())
        return record, record.to_json()

    def create(self, ler: LeaderElectionRecord) -> None:
        """Port of LeaseLock.Create (resourcelock/leaselock.go): create the Lease holding `ler`.

        Raises: the clientset's StatusError (AlreadyExists when someone was faster).
        """
        lease = V1Lease(
            api_version=LEASE_API_VERSION,
            kind="Lease",
            metadata=V1ObjectMeta(
                name=self.lease_meta.name,
                namespace=self.lease_meta.namespace,
                labels=dict(self.labels) if self.labels is not None else None,
            ),
            spec=leader_election_record_to_lease_spec(ler),
        )
        self.lease = self.client.leases(self.lease_meta.namespace).create(lease, CreateOptions())

    def update(self, ler: LeaderElectionRecord) -> None:
        """Port of LeaseLock.Update (resourcelock/leaselock.go).

        Writes `ler` into the spec of the Lease last read or written, adds our
        labels (only the keys we set; other labels stay), and sends it. The
        update carries that Lease's resourceVersion, so it fails with a
        Conflict if anyone wrote the Lease since.

        Tricky: the cached Lease is changed before the call, as in Go, and is
        replaced by the server's answer only on success.
        Raises:
            RuntimeError: no `get` or `create` succeeded yet.
            StatusError: from the clientset (Conflict on a stale base).
        """
        if self.lease is None:
            raise RuntimeError("lease not initialized, call get or create first")
        self.lease.spec = leader_election_record_to_lease_spec(ler)
        if self.labels is not None:
            if self.lease.metadata is None:
                self.lease.metadata = V1ObjectMeta()
            if self.lease.metadata.labels is None:
                self.lease.metadata.labels = {}
            for key in sorted(self.labels):  # only our own keys are overwritten
                self.lease.metadata.labels[key] = self.labels[key]
        self.lease = self.client.leases(self.lease_meta.namespace).update(self.lease, UpdateOptions())

    def record_event(self, s: str) -> None:
        """Port of LeaseLock.RecordEvent (resourcelock/leaselock.go).

        Emits a Normal "LeaderElection" event about the Lease with the message
        `<identity> <s>` ("ctrl-a became leader"). Does nothing without a recorder.
        """
        recorder = self.lock_config.event_recorder
        if recorder is None:
            return
        events = f"{self.lock_config.identity} {s}"
        if self.lease is None:  # Go dereferences a nil pointer here and panics
            raise RuntimeError("record_event called before the lease was read or created")
        metadata = self.lease.metadata.model_copy() if self.lease.metadata is not None else None
        subject = V1Lease(api_version=LEASE_API_VERSION, kind="Lease", metadata=metadata)
        recorder.eventf(subject, EVENT_TYPE_NORMAL, "LeaderElection", "%s", events)

    def describe(self) -> str:
        """Port of LeaseLock.Describe (resourcelock/leaselock.go): `namespace/name`."""
        return f"{self.lease_meta.namespace}/{self.lease_meta.name}"

    def identity(self) -> str:
        """Port of LeaseLock.Identity (resourcelock/leaselock.go)."""
        return self.lock_config.identity

    def __repr__(self) -> str:
        rv = self.lease.metadata.resource_version if self.lease and self.lease.metadata else None
        return f"LeaseLock({self.describe()}, identity={self.identity()!r}, cached_rv={rv!r})"


def lease_spec_to_leader_election_record(spec: V1LeaseSpec) -> LeaderElectionRecord:
    """Port of LeaseSpecToLeaderElectionRecord (resourcelock/leaselock.go).

    Reads a Lease spec as a record; fields the spec leaves out (None) become
    the record's zero values.
    """
    return LeaderElectionRecord(
        holder_identity=spec.holder_identity or "",
        lease_duration_seconds=spec.lease_duration_seconds or 0,
        acquire_time=spec.acquire_time,
        renew_time=spec.renew_time,
        leader_transitions=spec.lease_transitions or 0,
        strategy=spec.strategy or "",
        preferred_holder=spec.preferred_holder or "",
    )


def leader_election_record_to_lease_spec(ler: LeaderElectionRecord) -> V1LeaseSpec:
    """Port of LeaderElectionRecordToLeaseSpec (resourcelock/leaselock.go).

    Writes a record as a Lease spec. Holder, duration, times and transitions
    are always set (an empty holder is written as ""); strategy and preferred
    holder only when non-empty. Times keep microseconds, the precision of the
    Lease's MicroTime fields (Python datetimes have no finer digits to lose).
    """
    spec = V1LeaseSpec(
        holder_identity=ler.holder_identity,
        lease_duration_seconds=int(ler.lease_duration_seconds),
        acquire_time=ler.acquire_time,
        renew_time=ler.renew_time,
        lease_transitions=int(ler.leader_transitions),
    )
    if ler.preferred_holder != "":
        spec.preferred_holder = ler.preferred_holder
    if ler.strategy != "":
        spec.strategy = ler.strategy
    return spec


# --- interface.go: New and NewWithLabels ----------------------------------------------------


def new_with_labels(
    lock_type: str,
    ns: str,
    name: str,
    coordination_client: CoordinationV1Interface,
    rlc: ResourceLockConfig,
    labels: dict[str, str] | None,
) -> Interface:
    """Port of NewWithLabels and of the unexported new (resourcelock/interface.go).

    Builds a lock of `lock_type` on the object `ns/name`. Only "leases" is
    left; the Endpoints and ConfigMap locks (and their "...leases" migration
    pairs) were removed upstream, and asking for one says so. When the lock
    takes the lead it sets `labels` on the Lease.

    Raises:
        ValueError: a removed or unknown lock type (Go's messages, word for word).
    """
    if lock_type == ENDPOINTS_RESOURCE_LOCK:
        raise ValueError(f"endpoints lock is removed, migrate to {LEASES_RESOURCE_LOCK}")
    if lock_type == CONFIG_MAPS_RESOURCE_LOCK:
        raise ValueError(f"configmaps lock is removed, migrate to {LEASES_RESOURCE_LOCK}")
    if lock_type == LEASES_RESOURCE_LOCK:
        return LeaseLock(V1ObjectMeta(namespace=ns, name=name), coordination_client, rlc, labels=labels)
    if lock_type == ENDPOINTS_LEASES_RESOURCE_LOCK:
        raise ValueError(f"endpointsleases lock is removed, migrate to {LEASES_RESOURCE_LOCK}")
    if lock_type == CONFIG_MAPS_LEASES_RESOURCE_LOCK:
        # Go's message says "migrated" here; kept so logs match upstream's.
        raise ValueError(f"configmapsleases lock is removed, migrated to {LEASES_RESOURCE_LOCK}")
    raise ValueError(f"Invalid lock-type {lock_type}")


def new(
    lock_type: str,
    ns: str,
    name: str,
    coordination_client: CoordinationV1Interface,
    rlc: ResourceLockConfig,
) -> Interface:
    """Port of New (resourcelock/interface.go; here, see the module docstring): `new_with_labels` without labels.

    Differs from Go: no core client parameter (see the module docstring).
    """
    return new_with_labels(lock_type, ns, name, coordination_client, rlc, None)
