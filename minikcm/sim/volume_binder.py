"""No upstream twin. A simulated volume binder that makes PersistentVolumeClaims Bound.

In a cluster, the PersistentVolume controller (with a provisioner) creates a
volume for each Pending claim and binds the two. minikcm has no volumes, so
this module plays that part for the claims StatefulSets create: it watches
claims through an informer and, `bind_delay` after it first sees a Pending
claim (on the injected clock), binds it to a volume that does not exist:

- `spec.volumeName: pvc-<claim uid>` (the name external provisioners give)
  and the annotations `pv.kubernetes.io/bind-completed: "yes"` and
  `pv.kubernetes.io/bound-by-controller: "yes"`, written with an update;
- `status.phase: Bound`, `status.accessModes` from the spec and
  `status.capacity` from `spec.resources.requests`, written with an
  update of the status subresource.

Start reading at: VolumeBinder.sync_claim.

Design notes. The same shape as minikcm.sim.kubelet: the informer's handlers
queue claim keys on a rate-limited delaying work queue; one step
(`volume-binder/sync`, or the thread of that name in threaded mode) takes a
key and calls `sync_claim`, which parks the key with `add_after` until the
claim's binding time has come, so the queue's waiting step gives the driver
its wakeup. The first-seen time of each claim, and whether the binder has bound
it, live in memory, keyed by claim key and checked against the UID (a
record is dropped when its claim is gone). A failed write is retried with backoff; the
two writes are idempotent (a claim whose spec already names its volume only
gets its status written).

The embedded API server's simplified PVC update validation refuses any spec
change other than the storage request, where upstream lets `volumeName` be
set once. When the server refuses the spec update as Invalid, the binder
writes the annotations without `volumeName` (and keeps doing so), so the
claim still ends Bound.

Not simulated: PersistentVolume objects, storage classes, WaitForFirstConsumer,
selectors, resizing, lost claims and the reclaim of released volumes.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import datetime

from kubernetes.client import V1PersistentVolumeClaim, V1PersistentVolumeClaimStatus

from minikcm.apimachinery import errors
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.meta import UpdateOptions
from minikcm.clock import Clock, Seconds
from minikcm.client.interface import Interface
from minikcm.informers.factory import ResourceInformer
from minikcm.informers.listers import PersistentVolumeClaimLister
from minikcm.driver import Step
from minikcm.sim.keyworker import KeyWorker
from minikcm.tools.cache.store import split_meta_namespace_key
from minikcm.util.workqueue.rate_limiting_queue import RateLimitingType

log = logging.getLogger(__name__)

BIND_COMPLETED_ANNOTATION = "pv.kubernetes.io/bind-completed"
"""Set to "yes" by the PV controller once a claim is bound (pkg/controller/volume/persistentvolume)."""
BOUND_BY_CONTROLLER_ANNOTATION = "pv.kubernetes.io/bound-by-controller"
"""Set to "yes" when the controller, not the user, chose the volume."""
VOLUME_NAME_PREFIX = "pvc-"
"""Provisioned volumes are named pvc-<claim uid>."""


@dataclass
class VolumeBinderConfig:
    """How long a claim waits before it is bound."""

    bind_delay: Seconds = 1.0
    """From the binder first seeing a Pending claim to its binding."""


@dataclass
class ClaimRecord:
    """The binder's memory of one claim: which object, when it was first seen Pending, and whether it is bound."""

    uid: str
    seen_at: datetime
    bound: bool = False
    """Both writes went through; later events of this claim (the first write's, from a cache
    that has not seen the second yet) are ignored."""


def volume_name_for(claim: V1PersistentVolumeClaim) -> str:
    """The fake volume a claim is bound to: pvc-<uid>."""
    return f"{VOLUME_NAME_PREFIX}{claim.metadata.uid}"


def is_pending(claim: V1PersistentVolumeClaim) -> bool:
    """The claim waits for a volume (no phase counts as Pending, as the API server defaults it)."""
    phase = claim.status.phase if claim.status is not None else None
    return phase in (None, "", "Pending")


class VolumeBinder:
    """Binds Pending claims to fake volumes after a delay (see the module docstring).

    Thread: the informer's handlers enqueue from the informer's thread; the
    rest runs on the `volume-binder/sync` thread or the driver's. `records`
    is touched only by sync_claim (one worker).
    """

    def __init__(self, client: Interface, claim_informer: ResourceInformer[PersistentVolumeClaimLister],
                 clock: Clock, config: VolumeBinderConfig) -> None:
        self.client = client
        self.clock = clock
        self.config = config
        self.spec_update_refused = False
        """True once the API server refused `spec.volumeName` (then only annotations are written)."""
        self.records: dict[str, ClaimRecord] = {}
        """Claim key -> its record, while the claim exists."""
        self.key_worker = KeyWorker("volume-binder", "claim", self.sync_claim, clock)
        self.queue: RateLimitingType = self.key_worker.queue  # sync parks keys with add_after
        informer = claim_informer.informer()
        informer.add_event_handler(self.key_worker.handlers())
        self.claim_lister: PersistentVolumeClaimLister = claim_informer.lister()
        self.claim_lister_synced = informer.has_synced

    def __repr__(self) -> str:
        return f"<VolumeBinder claims={len(self.records)} queued={self.queue.len()}>"

    # -- running ------------------------------------------------------------------------------

    def steps(self) -> list[Step]:
        """The volume-binder as driver steps: `volume-binder/sync` (one key) and the queue's waiting step."""
        return self.key_worker.steps()

    def run(self, stop: threading.Event) -> None:
        """Threaded mode: the sync loop on a `volume-binder/sync` thread until `stop` is set (see KeyWorker.run)."""
        self.key_worker.run(stop)

    # -- the sync -----------------------------------------------------------------------------

    def sync_claim(self, key: str) -> None:
        """Bind one Pending claim if its time has come; else park its key until it has.

        Raises: a failed API write (the caller retries with backoff).
        """
        namespace, name = split_meta_namespace_key(key)
        try:
            claim: V1PersistentVolumeClaim = self.claim_lister.persistent_volume_claims(namespace).get(name)
        except errors.StatusError as err:
            if not errors.is_not_found(err):
                raise
            self.records.pop(key, None)
            return
        record = self.records.get(key)
        if record is not None and record.uid == claim.metadata.uid and record.bound:
            return  # done; a Pending view here is the cache lagging behind our own writes
        if claim.metadata.deletion_timestamp is not None or not is_pending(claim):
            return
        now = self.clock.now()
        if record is None or record.uid != claim.metadata.uid:
            record = ClaimRecord(uid=claim.metadata.uid or "", seen_at=now)
            self.records[key] = record
        due = record.seen_at.timestamp() + self.config.bind_delay
        if due > now.timestamp():
            self.queue.add_after(key, due - now.timestamp())
            return
        self.bind(claim)
        record.bound = True

    def bind(self, claim: V1PersistentVolumeClaim) -> None:
        """Write the binding: the spec's volume and annotations first, then the status.

        Raises: a failed API write.
        """
        claims = self.client.core_v1().persistent_volume_claims(claim.metadata.namespace or "")
        annotations = claim.metadata.annotations or {}
        if annotations.get(BIND_COMPLETED_ANNOTATION) != "yes":
            updated = deep_copy(claim)
            updated.metadata.annotations = {**annotations, BIND_COMPLETED_ANNOTATION: "yes",
                                            BOUND_BY_CONTROLLER_ANNOTATION: "yes"}
            if not self.spec_update_refused and not updated.spec.volume_name:
                updated.spec.volume_name = volume_name_for(claim)
            try:
                claim = claims.update(updated, UpdateOptions())
            except errors.StatusError as err:
                if not errors.is_invalid(err) or self.spec_update_refused:
                    raise
                log.info("volume-binder: the API server refuses spec.volumeName; binding with annotations only")
                self.spec_update_refused = True
                updated.spec.volume_name = claim.spec.volume_name
                claim = claims.update(updated, UpdateOptions())
        bound = deep_copy(claim)
        requests = (claim.spec.resources.requests if claim.spec.resources is not None else None) or {}
        bound.status = V1PersistentVolumeClaimStatus(
            phase="Bound", access_modes=list(claim.spec.access_modes or []) or None,
            capacity=dict(requests) or None)
        claims.update_status(bound, UpdateOptions())
        log.debug("volume-binder: claim %s/%s is Bound", claim.metadata.namespace, claim.metadata.name)


def new_volume_binder(client: Interface, claim_informer: ResourceInformer[PersistentVolumeClaimLister], *,
                      config: VolumeBinderConfig | None = None,
                      clock: Clock | None = None) -> VolumeBinder:
    """A simulated volume binder over `claim_informer` (start the informer's factory too).

    `clock` (whose `driven` mark chooses steps or threads) defaults to the informer factory's.
    """
    factory = claim_informer.factory
    return VolumeBinder(client, claim_informer, clock if clock is not None else factory.clock,
                        config or VolumeBinderConfig())
