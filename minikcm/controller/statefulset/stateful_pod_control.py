"""Port of pkg/controller/statefulset/stateful_pod_control.go.

The StatefulSet controller's hands. Where the ReplicaSet controller creates
interchangeable pods, this creates a pod's claims (from `volumeClaimTemplates`)
before the pod itself, repairs a member whose identity or volumes drifted,
and keeps each claim's owner references in line with the set's
`persistentVolumeClaimRetentionPolicy`, so that the garbage collector deletes
exactly the claims the policy says to delete. Every write goes through a
`StatefulPodControlObjectManager` (client writes, lister reads), which tests
replace; every outcome becomes an event on the set.

Reconstructed from a copy of the 1.32 layout (claim-ownership checks through
isClaimOwnerUpToDate, the ConflictingController event). The
StatefulSetAutoDeletePVC gate is GA and gone in 1.36, so its branches run always.

Start reading at: StatefulPodControl.create_stateful_pod, then update_stateful_pod,
then update_pod_claim_for_retention_policy.

Not ported: contextual logging.
Differs from Go:
- Object-manager writes return the object the API server stored (Go: only an
  error), so the controller can record its writes in the 1.36 consistency
  store (StaleControllerConsistencyStatefulSet): StatefulPodControl records
  pod creates and updates and claim creates and updates under their set.
  Which writes upstream records is reconstructed from PR #137254's
  description ("read its own pod and pvc writes"); deletes are not recorded
  (a delete returns no resourceVersion).
- Go's map iteration over a pod's claims is sorted by template name.
- `clock` (new_stateful_pod_control; Go: none) paces the conflict retries of
  update_stateful_pod (minikcm.util.retry).
"""

from __future__ import annotations

import logging
from typing import Protocol

from kubernetes.client import V1PersistentVolumeClaim, V1Pod, V1StatefulSet

from minikcm.apimachinery import errors, runtime
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.field import Aggregate
from minikcm.apimachinery.meta import CreateOptions, DeleteOptions, UpdateOptions
from minikcm.apimachinery.schema import GroupResource
from minikcm.apimachinery.types import NamespacedName
from minikcm.client.interface import Interface
from minikcm.clock import Clock, or_real
from minikcm.controller.statefulset.stateful_set_utils import (
    POD_KIND,
    RETAIN,
    get_ordinal,
    get_persistent_volume_claim_name,
    get_persistent_volume_claim_retention_policy,
    get_persistent_volume_claims,
    has_stale_owner_ref,
    has_unexpected_controller,
    identity_matches,
    is_claim_owner_up_to_date,
    storage_matches,
    update_claim_owner_ref_for_set_and_pod,
    update_identity,
    update_storage,
)
from minikcm.controller.util.consistency import ConsistencyStore, new_noop_consistency_store
from minikcm.informers.listers import PersistentVolumeClaimLister, PodLister
from minikcm.tools.record import EventRecorder
from minikcm.util import retry

log = logging.getLogger(__name__)

POD_GROUP_RESOURCE = GroupResource("", "pods")
"""The consistency store's key for pod writes."""
PVC_GROUP_RESOURCE = GroupResource("", "persistentvolumeclaims")
"""The consistency store's key for claim writes."""


class StatefulPodControlObjectManager(Protocol):
    """Port of StatefulPodControlObjectManager: the reads and writes of pods and claims.

    Reads come from the informers' caches (NotFound raised as StatusError),
    writes go to the API server. Tests replace it.
    """

    def create_pod(self, pod: V1Pod) -> V1Pod: ...
    def get_pod(self, namespace: str, pod_name: str) -> V1Pod: ...
    def update_pod(self, pod: V1Pod) -> V1Pod: ...
    def delete_pod(self, pod: V1Pod) -> None: ...
    def create_claim(self, claim: V1PersistentVolumeClaim) -> V1PersistentVolumeClaim: ...
    def get_claim(self, namespace: str, claim_name: str) -> V1PersistentVolumeClaim: ...
    def update_claim(self, claim: V1PersistentVolumeClaim) -> V1PersistentVolumeClaim: ...


def new_stateful_pod_control(client: Interface, pod_lister: PodLister, claim_lister: PersistentVolumeClaimLister,
                             recorder: EventRecorder,
                             consistency_store: ConsistencyStore | None = None,
                             clock: Clock | None = None) -> StatefulPodControl:
    """Port of NewStatefulPodControl: pod control over the client and the two listers.

    `consistency_store` (None: a no-op store) receives the resourceVersion of
    every pod and claim this control writes; `clock` (real by default) paces
    the conflict retries.
    """
    return StatefulPodControl(RealStatefulPodControlObjectManager(client, pod_lister, claim_lister), recorder,
                              consistency_store, clock)


def new_stateful_pod_control_from_manager(om: StatefulPodControlObjectManager,
                                          recorder: EventRecorder) -> StatefulPodControl:
    """Port of NewStatefulPodControlFromManager: pod control over any object manager (tests)."""
    return StatefulPodControl(om, recorder)


class RealStatefulPodControlObjectManager:
    """Port of realStatefulPodControlObjectManager: the clientset for writes, listers for reads."""

    def __init__(self, client: Interface, pod_lister: PodLister, claim_lister: PersistentVolumeClaimLister) -> None:
        self.client = client
        self.pod_lister = pod_lister
        self.claim_lister = claim_lister

    def create_pod(self, pod: V1Pod) -> V1Pod:
        return self.client.core_v1().pods(pod.metadata.namespace or "").create(pod, CreateOptions())

    def get_pod(self, namespace: str, pod_name: str) -> V1Pod:
        return self.pod_lister.pods(namespace).get(pod_name)

    def update_pod(self, pod: V1Pod) -> V1Pod:
        return self.client.core_v1().pods(pod.metadata.namespace or "").update(pod, UpdateOptions())

    def delete_pod(self, pod: V1Pod) -> None:
        self.client.core_v1().pods(pod.metadata.namespace or "").delete(pod.metadata.name or "", DeleteOptions())

    def create_claim(self, claim: V1PersistentVolumeClaim) -> V1PersistentVolumeClaim:
        return self.client.core_v1().persistent_volume_claims(claim.metadata.namespace or "").create(
            claim, CreateOptions())

    def get_claim(self, namespace: str, claim_name: str) -> V1PersistentVolumeClaim:
        return self.claim_lister.persistent_volume_claims(namespace).get(claim_name)

    def update_claim(self, claim: V1PersistentVolumeClaim) -> V1PersistentVolumeClaim:
        return self.client.core_v1().persistent_volume_claims(claim.metadata.namespace or "").update(
            claim, UpdateOptions())


class StatefulPodControl:
    """Port of StatefulPodControl: creates, repairs and deletes the members of a set, with their claims."""

    def __init__(self, object_mgr: StatefulPodControlObjectManager, recorder: EventRecorder,
                 consistency_store: ConsistencyStore | None = None, clock: Clock | None = None) -> None:
        self.object_mgr = object_mgr
        self.recorder = recorder
        self.clock = or_real(clock)  # no Go twin: paces the conflict retries (Go sleeps in real time)
        self.consistency_store: ConsistencyStore = consistency_store or new_noop_consistency_store()
        """Where pod and claim writes are recorded (no upstream twin in this file; see the module docstring)."""

    def __repr__(self) -> str:
        return f"<StatefulPodControl {type(self.object_mgr).__name__}>"

    def wrote(self, set_: V1StatefulSet, resource: GroupResource, written: V1Pod | V1PersistentVolumeClaim | None) -> None:
        """No upstream twin: record the resourceVersion of a write for `set_` in the consistency store."""
        rv = written.metadata.resource_version if written is not None and written.metadata is not None else None
        self.consistency_store.wrote_at(NamespacedName(set_.metadata.namespace or "", set_.metadata.name or ""),
                                        set_.metadata.uid or "", resource, rv or "")

    def create_stateful_pod(self, set_: V1StatefulSet, pod: V1Pod) -> None:
        """Port of StatefulPodControl.CreateStatefulPod: the claims, then the pod, then claim ownership.

        A pod that already exists raises AlreadyExists without an event. After
        any other outcome the claims' owner references are set as far as
        possible now (the pod has no uid yet, so a pod reference waits for a
        later sync), then a SuccessfulCreate or FailedCreate event is recorded.

        Raises: the claims' error, the create's error, or the ownership update's error.
        """
        try:
            self.create_persistent_volume_claims(set_, pod)
        except Exception as err:
            self.record_pod_event("create", set_, pod, err)
            raise
        create_err: Exception | None = None
        try:
            created = self.object_mgr.create_pod(pod)
            self.wrote(set_, POD_GROUP_RESOURCE, created)
        except Exception as err:
            if errors.is_already_exists(err):
                raise  # sink: someone (an earlier sync) made it already
            create_err = err
        try:
            self.update_pod_claim_for_retention_policy(set_, pod)
        except Exception as err:
            self.record_pod_event("update", set_, pod, err)
            raise
        self.record_pod_event("create", set_, pod, create_err)
        if create_err is not None:
            raise create_err

    def update_stateful_pod(self, set_: V1StatefulSet, pod: V1Pod) -> None:
        """Port of StatefulPodControl.UpdateStatefulPod: repair identity, storage and claim ownership.

        `pod` must be the caller's copy. Only a pod that needed repair is
        written (an update event is recorded then); on a conflict the pod is
        re-read from the cache and repaired again, a few times.

        Raises: the last error (the caller requeues the set).
        """
        attempted_update = False
        current = pod

        def attempt() -> None:
            nonlocal attempted_update, current
            consistent = True
            if not identity_matches(set_, current):
                update_identity(set_, current)
                consistent = False
            if not storage_matches(set_, current):
                update_storage(set_, current)
                consistent = False
                try:
                    self.create_persistent_volume_claims(set_, current)
                except Exception as err:
                    self.record_pod_event("update", set_, current, err)
                    raise
            try:
                match = self.claims_match_retention_policy(set_, current)
            except Exception as err:
                self.record_pod_event("update", set_, current, err)
                raise
            if not match:
                try:
                    self.update_pod_claim_for_retention_policy(set_, current)
                except Exception as err:
                    self.record_pod_event("update", set_, current, err)
                    raise
                consistent = False
            if consistent:
                return
            attempted_update = True
            try:
                updated = self.object_mgr.update_pod(current)
                self.wrote(set_, POD_GROUP_RESOURCE, updated)
                return
            except Exception as update_err:
                try:
                    current = deep_copy(self.object_mgr.get_pod(set_.metadata.namespace or "",
                                                                 current.metadata.name or ""))
                except Exception as err:  # reported; the next try repairs the copy we have
                    runtime.handle_error(RuntimeError(
                        f"error getting updated Pod {set_.metadata.namespace}/{current.metadata.name}: {err}"))
                raise update_err  # noqa: B904 - the update's error decides whether to retry

        err: Exception | None = None
        try:
            retry.retry_on_conflict(retry.DEFAULT_BACKOFF, attempt, self.clock)
        except Exception as e:
            err = e
        if attempted_update:
            self.record_pod_event("update", set_, current, err)
        if err is not None:
            raise err

    def delete_stateful_pod(self, set_: V1StatefulSet, pod: V1Pod) -> None:
        """Port of StatefulPodControl.DeleteStatefulPod: delete (gracefully) and record the outcome."""
        err: Exception | None = None
        try:
            self.object_mgr.delete_pod(pod)
        except Exception as e:
            err = e
        self.record_pod_event("delete", set_, pod, err)
        if err is not None:
            raise err

    def claims_match_retention_policy(self, set_: V1StatefulSet, pod: V1Pod) -> bool:
        """Port of StatefulPodControl.ClaimsMatchRetentionPolicy: every existing claim's owners fit the policy.

        A missing claim is fine (a later sync creates it).

        Raises: RuntimeError when a claim cannot be read.
        """
        ordinal = get_ordinal(pod)
        for template in set_.spec.volume_claim_templates or []:
            claim_name = get_persistent_volume_claim_name(set_, template, ordinal)
            try:
                claim = self.object_mgr.get_claim(set_.metadata.namespace or "", claim_name)
            except Exception as err:
                if errors.is_not_found(err):
                    log.debug("Expected claim missing, continuing to pick up in next iteration PVC=%s", claim_name)
                    continue
                raise RuntimeError(f"Could not retrieve claim {claim_name} for {pod.metadata.name} "
                                   f"when checking PVC deletion policy") from None
            if not is_claim_owner_up_to_date(claim, set_, pod):
                return False
        return True

    def update_pod_claim_for_retention_policy(self, set_: V1StatefulSet, pod: V1Pod) -> None:
        """Port of StatefulPodControl.UpdatePodClaimForRetentionPolicy: fix the owners of each of the pod's claims.

        A claim held by a foreign controller gets a ConflictingController
        warning (the policy is then ignored for it).

        Raises: RuntimeError for a claim that cannot be read or updated.
        """
        ordinal = get_ordinal(pod)
        for template in set_.spec.volume_claim_templates or []:
            claim_name = get_persistent_volume_claim_name(set_, template, ordinal)
            try:
                claim = self.object_mgr.get_claim(set_.metadata.namespace or "", claim_name)
            except Exception as err:
                if errors.is_not_found(err):
                    log.debug("Expected claim missing, continuing to pick up in next iteration PVC=%s", claim_name)
                    continue
                raise RuntimeError(f"Could not retrieve claim {claim_name} not found for {pod.metadata.name} "
                                   f"when checking PVC deletion policy: {err}") from err
            if has_unexpected_controller(claim, set_, pod):
                self.recorder.event(set_, "Warning", "ConflictingController",
                                    f"PersistentVolumeClaim {claim_name} has a conflicting OwnerReference that acts "
                                    f"as a manging controller, the retention policy is ignored for this claim")
            if not is_claim_owner_up_to_date(claim, set_, pod):
                claim = deep_copy(claim)  # the cache's object must not change
                update_claim_owner_ref_for_set_and_pod(claim, set_, pod)
                try:
                    updated = self.object_mgr.update_claim(claim)
                except Exception as err:
                    raise RuntimeError(f"could not update claim {claim_name} for delete policy ownerRefs: {err}") from err
                self.wrote(set_, PVC_GROUP_RESOURCE, updated)

    def pod_claim_is_stale(self, set_: V1StatefulSet, pod: V1Pod) -> bool:
        """Port of StatefulPodControl.PodClaimIsStale: a claim still owned by an earlier pod blocks creation.

        Only with whenScaled=Delete: such a claim is about to be garbage
        collected with its old pod, and a new pod must not mount it meanwhile.
        A planned pod has no uid, so any pod reference on its claim is stale.
        """
        if get_persistent_volume_claim_retention_policy(set_).when_scaled == RETAIN:
            return False  # claims are meant to be reused
        claims = get_persistent_volume_claims(set_, pod)
        for name in sorted(claims):
            claim = claims[name]
            try:
                pvc = self.object_mgr.get_claim(claim.metadata.namespace or "", claim.metadata.name or "")
            except Exception as err:
                if errors.is_not_found(err):
                    continue  # a claim that does not exist cannot be stale
                raise
            if has_stale_owner_ref(pvc, pod, POD_KIND):
                return True
        return False

    def record_pod_event(self, verb: str, set_: V1StatefulSet, pod: V1Pod, err: BaseException | None) -> None:
        """Port of recordPodEvent: `Successful<Verb>` (Normal) or `Failed<Verb>` (Warning) on the set."""
        if err is None:
            self.recorder.event(set_, "Normal", f"Successful{verb.title()}",
                                f"{verb.lower()} Pod {pod.metadata.name} in StatefulSet {set_.metadata.name} successful")
        else:
            self.recorder.event(set_, "Warning", f"Failed{verb.title()}",
                                f"{verb.lower()} Pod {pod.metadata.name} in StatefulSet {set_.metadata.name} "
                                f"failed error: {err}")

    def record_claim_event(self, verb: str, set_: V1StatefulSet, pod: V1Pod, claim: V1PersistentVolumeClaim,
                           err: BaseException | None) -> None:
        """Port of recordClaimEvent: the same for a pod's claim."""
        if err is None:
            self.recorder.event(set_, "Normal", f"Successful{verb.title()}",
                                f"{verb.lower()} Claim {claim.metadata.name} Pod {pod.metadata.name} in StatefulSet "
                                f"{set_.metadata.name} success")
        else:
            self.recorder.event(set_, "Warning", f"Failed{verb.title()}",
                                f"{verb.lower()} Claim {claim.metadata.name} for Pod {pod.metadata.name} in "
                                f"StatefulSet {set_.metadata.name} failed error: {err}")

    def create_missing_persistent_volume_claims(self, set_: V1StatefulSet, pod: V1Pod) -> None:
        """Port of createMissingPersistentVolumeClaims: create the pod's missing claims, then fix their owners."""
        self.create_persistent_volume_claims(set_, pod)
        try:
            self.update_pod_claim_for_retention_policy(set_, pod)
        except Exception as err:
            self.record_pod_event("update", set_, pod, err)
            raise

    def create_persistent_volume_claims(self, set_: V1StatefulSet, pod: V1Pod) -> None:
        """Port of createPersistentVolumeClaims: create every claim of the pod that is missing.

        A claim being deleted is an error too (the pod must not start on it);
        every claim is tried before the errors are raised together. Safe to
        call again until it succeeds.

        Raises: Aggregate of the per-claim errors.
        """
        errs: list[Exception] = []
        claims = get_persistent_volume_claims(set_, pod)
        for name in sorted(claims):
            claim = claims[name]
            try:
                pvc = self.object_mgr.get_claim(claim.metadata.namespace or "", claim.metadata.name or "")
            except Exception as err:
                if not errors.is_not_found(err):
                    errs.append(RuntimeError(f"failed to retrieve PVC {claim.metadata.name}: {err}"))
                    self.record_claim_event("create", set_, pod, claim, err)
                    continue
                create_err: Exception | None = None
                try:
                    created = self.object_mgr.create_claim(claim)
                    self.wrote(set_, PVC_GROUP_RESOURCE, created)
                except Exception as e:
                    create_err = e
                    errs.append(RuntimeError(f"failed to create PVC {claim.metadata.name}: {e}"))
                if create_err is None or not errors.is_already_exists(create_err):
                    self.record_claim_event("create", set_, pod, claim, create_err)
                continue
            if pvc.metadata.deletion_timestamp is not None:
                errs.append(RuntimeError(f"pvc {claim.metadata.name} is being deleted"))
        if errs:
            raise Aggregate(errs)
