"""Port of pkg/controller/controller_utils.go (k8s.io/kubernetes/pkg/controller).

The toolbox every workload controller shares. Expectations let a controller
wait for the informer to show the pods it just created or deleted before it
syncs again; pod and ReplicaSet "control" objects are the only way the
controllers write pods and patch ReplicaSets (tests swap in FakePodControl);
ActivePods / ActivePodsWithRanks decide which pods go first on scale-down;
compute_hash names ReplicaSets after their pod template.

Start reading at: ControllerExpectations.satisfied_expectations, then
RealPodControl.create_pods, then ActivePodsWithRanks.less.

Not ported: UpdateTaintBackoff/UpdateLabelBackoff, AddOrUpdateTaintOnNode,
RemoveTaintOffNode, PatchNodeTaints, AddOrUpdateLabelsOnNode (no nodes here),
ControlleeExpectations.MarshalLog, contextual logging, the PodDeletionCost
feature gate (beta, on: the annotation is always honoured).
Differs from Go:
- Expectations expire on an injected clock (Go: the real clock), so tests and
  deterministic runs step time instead of waiting five minutes.
- ControlleeExpectations' counters are `add_` / `del_` (Go `add`/`del` clash with
  the method `add` and the keyword `del`); `createPods` is `create_pods_internal`
  (it would clash with CreatePods).
- Sort types (ActivePods, ReplicaSetsBySizeNewer, ...) wrap a list and have
  `less(i, j)`; `go_sort` sorts them in place. Python's sort is stable, Go's
  sort.Sort is not: elements neither less than the other may end up in another order.
- The event recorder is typed as the small `EventRecorder` protocol these
  helpers need (`eventf`); messages use %s where Go uses %v.
- FakePodControl records a copy of the template with the generate name set;
  Go writes the generate name into the caller's template.
- compute_hash cannot reproduce Go's spew printout of the template; it hashes
  a canonical JSON form instead (see util/hash.deep_hash_object). The algorithm around it
  (FNV-32a, 8 little-endian collision-count bytes, SafeEncodeString) is upstream's.
"""

from __future__ import annotations

import functools
import logging
import math
import re
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from kubernetes.client import V1ObjectMeta, V1OwnerReference, V1Pod, V1PodTemplateSpec, V1ReplicaSet

from minikcm.api.pod import util as podutil
from minikcm.apimachinery import errors, labels, runtime
from minikcm.apimachinery.convert import deep_copy, object_meta
from minikcm.apimachinery.meta import (
    CreateOptions,
    DeleteOptions,
    PatchOptions,
    get_controller_of,
    get_controller_of_no_copy,
    is_controlled_by,
)
from minikcm.apimachinery.types import STRATEGIC_MERGE_PATCH_TYPE
from minikcm.apimachinery.validation import name_is_dns_subdomain
from minikcm.client.interface import Interface
from minikcm.clock import Clock, or_real
from minikcm.tools.cache.controller import deletion_handling_meta_namespace_key_func
from minikcm.tools.cache.index import Indexer
from minikcm.tools.cache.shared_informer import SharedIndexInformer
from minikcm.tools.cache.store import Store, new_store
from minikcm.util.hash import Fnv32a, deep_hash_object

log = logging.getLogger(__name__)

EXPECTATIONS_TIMEOUT = 5 * 60.0
"""Port of ExpectationsTimeout: expectations older than this (seconds) count as met.

A safety net for a dropped watch event: without it a controller waiting for a
create it will never see would sleep forever."""

SLOW_START_INITIAL_BATCH_SIZE = 1
"""Port of SlowStartInitialBatchSize: the first batch of pod creates; each next batch doubles."""

POD_NODE_NAME_KEY_INDEX = "spec.nodeName"
"""Port of PodNodeNameKeyIndex: name of the pod index by node name."""

POD_CONTROLLER_INDEX = "podController"
"""Port of PodControllerIndex: name of the pod index by controller (see pod_controller_index_key)."""

POD_DELETION_COST = "controller.kubernetes.io/pod-deletion-cost"
"""Port of PodDeletionCost (k8s.io/api/core/v1): pods with a lower cost are deleted first."""

key_func = deletion_handling_meta_namespace_key_func
"""Port of KeyFunc: the queue key of a controller object (also accepts tombstones)."""

pod_phase_to_ordinal = {podutil.POD_PENDING: 0, podutil.POD_UNKNOWN: 1, podutil.POD_RUNNING: 2}
"""Port of podPhaseToOrdinal: earlier phases sort first; other phases count as 0."""

ResyncPeriodFunc = Callable[[], float]
"""Port of ResyncPeriodFunc: returns an informer resync period in seconds."""


def no_resync_period_func() -> float:
    """Port of NoResyncPeriodFunc: 0, meaning no periodic resync."""
    return 0.0


def static_resync_period_func(resync_period: float) -> ResyncPeriodFunc:
    """Port of StaticResyncPeriodFunc: always `resync_period`."""

    def resync_period_func() -> float:
        return resync_period

    return resync_period_func


# --- expectations ----------------------------------------------------------------------
#
# A controller that creates 3 pods records "expect 3 adds" and skips syncing
# until its informer has shown 3 new pods (each observation lowers the count)
# or EXPECTATIONS_TIMEOUT has passed. Controllers that set no expectations are
# always synced.


def exp_key_func(obj: Any) -> str:
    """Port of ExpKeyFunc: the store key of a ControlleeExpectations (TypeError for anything else)."""
    if isinstance(obj, ControlleeExpectations):
        return obj.key
    raise TypeError(f"could not find key for obj {obj!r}")


class ControllerExpectationsInterface(Protocol):
    """Port of ControllerExpectationsInterface (one implementation, an interface for tests).

    Keys are controller keys (key_func); one instance must serve one kind of
    controller, or keys of different kinds could collide.
    """

    def get_expectations(self, controller_key: str) -> tuple[ControlleeExpectations | None, bool]:
        """Port of ControllerExpectationsInterface.GetExpectations (pkg/controller/controller_utils.go)."""
    def satisfied_expectations(self, controller_key: str) -> bool:
        """Port of ControllerExpectationsInterface.SatisfiedExpectations (pkg/controller/controller_utils.go)."""
    def delete_expectations(self, controller_key: str) -> None:
        """Port of ControllerExpectationsInterface.DeleteExpectations (pkg/controller/controller_utils.go)."""
    def set_expectations(self, controller_key: str, add: int, del_: int) -> None:
        """Port of ControllerExpectationsInterface.SetExpectations (pkg/controller/controller_utils.go)."""
    def expect_creations(self, controller_key: str, adds: int) -> None:
        """Port of ControllerExpectationsInterface.ExpectCreations (pkg/controller/controller_utils.go)."""
    def expect_deletions(self, controller_key: str, dels: int) -> None:
        """Port of ControllerExpectationsInterface.ExpectDeletions (pkg/controller/controller_utils.go)."""
    def creation_observed(self, controller_key: str) -> None:
        """Port of ControllerExpectationsInterface.CreationObserved (pkg/controller/controller_utils.go)."""
    def deletion_observed(self, controller_key: str) -> None:
        """Port of ControllerExpectationsInterface.DeletionObserved (pkg/controller/controller_utils.go)."""
    def raise_expectations(self, controller_key: str, add: int, del_: int) -> None:
        """Port of ControllerExpectationsInterface.RaiseExpectations (pkg/controller/controller_utils.go)."""
    def lower_expectations(self, controller_key: str, add: int, del_: int) -> None:
        """Port of ControllerExpectationsInterface.LowerExpectations (pkg/controller/controller_utils.go)."""


class ControllerExpectations:
    """Port of ControllerExpectations: controller key -> ControlleeExpectations. Thread: any (a locked store)."""

    def __init__(self, store: Store | None = None, clock: Clock | None = None) -> None:
        self.store: Store = store if store is not None else new_store(exp_key_func)
        """Go embeds cache.Store; here it is a field."""
        self.clock = or_real(clock)
        """Stamps new expectations and judges their age."""

    def get_expectations(self, controller_key: str) -> tuple[ControlleeExpectations | None, bool]:
        """Port of ControllerExpectations.GetExpectations: (expectations, exists)."""
        exp, exists = self.store.get_by_key(controller_key)
        if exists:
            return exp, True
        return None, False

    def delete_expectations(self, controller_key: str) -> None:
        """Port of ControllerExpectations.DeleteExpectations: forget the controller's expectations."""
        exp, exists = self.store.get_by_key(controller_key)
        if exists:
            try:
                self.store.delete(exp)
            except Exception as err:  # logged, as upstream: nothing the caller can do
                log.info("Error deleting expectations for %s: %s", controller_key, err)

    def satisfied_expectations(self, controller_key: str) -> bool:
        """Port of ControllerExpectations.SatisfiedExpectations: may this controller sync now?

        True when its adds and deletes were all observed, when they are older
        than EXPECTATIONS_TIMEOUT, or when it has none (a new controller, or one
        whose expectations were deleted). False only while it still waits.
        """
        try:
            exp, exists = self.get_expectations(controller_key)
        except Exception as err:  # a local store read; should not happen, so force a sync
            log.info("Error encountered while checking expectations, forcing sync: %s", err)
            return True
        if exp is not None and exists:
            if exp.fulfilled():
                log.debug("Controller expectations fulfilled %r", exp)
                return True
            if exp.is_expired():
                log.debug("Controller expectations expired %r", exp)
                return True
            log.debug("Controller still waiting on expectations %r", exp)
            return False
        log.debug("Controller %s either never recorded expectations, or the ttl expired", controller_key)
        return True

    def set_expectations(self, controller_key: str, add: int, del_: int) -> None:
        """Port of ControllerExpectations.SetExpectations: replace any earlier expectations, stamped now."""
        exp = ControlleeExpectations(add_=add, del_=del_, key=controller_key,
                                     timestamp=self.clock.now(), clock=self.clock)
        log.debug("Setting expectations %r", exp)
        self.store.add(exp)

    def expect_creations(self, controller_key: str, adds: int) -> None:
        """Port of ControllerExpectations.ExpectCreations."""
        self.set_expectations(controller_key, adds, 0)

    def expect_deletions(self, controller_key: str, dels: int) -> None:
        """Port of ControllerExpectations.ExpectDeletions."""
        self.set_expectations(controller_key, 0, dels)

    def lower_expectations(self, controller_key: str, add: int, del_: int) -> None:
        """Port of ControllerExpectations.LowerExpectations: subtract from the counts, if any are set."""
        exp, exists = self.get_expectations(controller_key)
        if exp is not None and exists:
            exp.add(-add, -del_)
            log.debug("Lowered expectations %r", exp)

    def raise_expectations(self, controller_key: str, add: int, del_: int) -> None:
        """Port of ControllerExpectations.RaiseExpectations: add to the counts, if any are set."""
        exp, exists = self.get_expectations(controller_key)
        if exp is not None and exists:
            exp.add(add, del_)
            log.debug("Raised expectations %r", exp)

    def creation_observed(self, controller_key: str) -> None:
        """Port of ControllerExpectations.CreationObserved: one expected add was seen (or will never come)."""
        self.lower_expectations(controller_key, 1, 0)

    def deletion_observed(self, controller_key: str) -> None:
        """Port of ControllerExpectations.DeletionObserved: one expected delete was seen."""
        self.lower_expectations(controller_key, 0, 1)


class ControlleeExpectations:
    """Port of ControlleeExpectations: outstanding adds and deletes; both at or below zero is fulfilled."""

    def __init__(self, add_: int, del_: int, key: str, timestamp: datetime, clock: Clock | None = None) -> None:
        self._lock = threading.Lock()  # Go: atomic counters; guards add_ and del_
        self.add_ = add_
        self.del_ = del_
        self.key = key
        self.timestamp = timestamp
        """When the expectations were set (they expire EXPECTATIONS_TIMEOUT later)."""
        self.clock = or_real(clock)

    def add(self, add: int, del_: int) -> None:
        """Port of ControlleeExpectations.Add: change both counters."""
        with self._lock:
            self.add_ += add
            self.del_ += del_

    def fulfilled(self) -> bool:
        """Port of ControlleeExpectations.Fulfilled: nothing more to wait for."""
        with self._lock:
            return self.add_ <= 0 and self.del_ <= 0

    def get_expectations(self) -> tuple[int, int]:
        """Port of ControlleeExpectations.GetExpectations: (adds, deletes) still expected."""
        with self._lock:
            return self.add_, self.del_

    def is_expired(self) -> bool:
        """Port of ControlleeExpectations.isExpired: set more than EXPECTATIONS_TIMEOUT ago."""
        return self.clock.since(self.timestamp) > EXPECTATIONS_TIMEOUT

    def __repr__(self) -> str:  # Go: MarshalLog
        return f"ControlleeExpectations(key={self.key!r}, add={self.add_}, del={self.del_})"


def new_controller_expectations(clock: Clock | None = None) -> ControllerExpectations:
    """Port of NewControllerExpectations."""
    return ControllerExpectations(clock=clock)


def uid_set_key_func(obj: Any) -> str:
    """Port of UIDSetKeyFunc: the store key of a UIDSet."""
    if isinstance(obj, UIDSet):
        return obj.key
    raise TypeError(f"could not find key for obj {obj!r}")


@dataclass
class UIDSet:
    """Port of UIDSet: the pod keys a controller still expects to see deleted."""

    uids: set[str]
    key: str


class UIDTrackingControllerExpectations:
    """Port of UIDTrackingControllerExpectations: delete expectations that remember which pods.

    A graceful delete is seen twice (the update that sets deletionTimestamp, then the delete); remembering
    the expected pod keys keeps the second sighting from counting again.
    """

    def __init__(self, ce: ControllerExpectationsInterface) -> None:
        self.controller_expectations = ce
        """Go embeds the interface; the methods not overridden here delegate to it."""
        self.uid_store_lock = threading.Lock()  # guards uid_store and the sets in it
        self.uid_store: Store = new_store(uid_set_key_func)

    def get_uids(self, controller_key: str) -> set[str] | None:
        """Port of GetUIDs: the expected pod keys, or None. Change the set only under uid_store_lock."""
        uid, exists = self.uid_store.get_by_key(controller_key)
        return uid.uids if exists else None

    def expect_deletions(self, rc_key: str, deleted_keys: list[str]) -> None:
        """Port of UIDTrackingControllerExpectations.ExpectDeletions: expect exactly these pods to go."""
        expected = set(deleted_keys)
        log.debug("Controller %s waiting on deletions for: %s", rc_key, deleted_keys)
        with self.uid_store_lock:
            existing = self.get_uids(rc_key)
            if existing:
                log.error("Clobbering existing delete keys: %s", sorted(existing))
            self.uid_store.add(UIDSet(uids=expected, key=rc_key))
            self.controller_expectations.expect_deletions(rc_key, len(expected))

    def deletion_observed(self, rc_key: str, delete_key: str) -> None:
        """Port of UIDTrackingControllerExpectations.DeletionObserved: count `delete_key` once, if expected."""
        with self.uid_store_lock:
            uids = self.get_uids(rc_key)
            if uids is not None and delete_key in uids:
                log.debug("Controller %s received delete for pod %s", rc_key, delete_key)
                self.controller_expectations.deletion_observed(rc_key)
                uids.discard(delete_key)

    def delete_expectations(self, rc_key: str) -> None:
        """Port of UIDTrackingControllerExpectations.DeleteExpectations: drop counts and the UID set."""
        with self.uid_store_lock:
            self.controller_expectations.delete_expectations(rc_key)
            uid_exp, exists = self.uid_store.get_by_key(rc_key)
            if exists:
                self.uid_store.delete(uid_exp)

    # Delegated to the embedded ControllerExpectationsInterface (Go: promoted methods).
    def get_expectations(self, controller_key: str) -> tuple[ControlleeExpectations | None, bool]:
        return self.controller_expectations.get_expectations(controller_key)

    def satisfied_expectations(self, controller_key: str) -> bool:
        return self.controller_expectations.satisfied_expectations(controller_key)

    def set_expectations(self, controller_key: str, add: int, del_: int) -> None:
        self.controller_expectations.set_expectations(controller_key, add, del_)

    def expect_creations(self, controller_key: str, adds: int) -> None:
        self.controller_expectations.expect_creations(controller_key, adds)

    def creation_observed(self, controller_key: str) -> None:
        self.controller_expectations.creation_observed(controller_key)

    def raise_expectations(self, controller_key: str, add: int, del_: int) -> None:
        self.controller_expectations.raise_expectations(controller_key, add, del_)

    def lower_expectations(self, controller_key: str, add: int, del_: int) -> None:
        self.controller_expectations.lower_expectations(controller_key, add, del_)


def new_uid_tracking_controller_expectations(ce: ControllerExpectationsInterface) -> UIDTrackingControllerExpectations:
    """Port of NewUIDTrackingControllerExpectations."""
    return UIDTrackingControllerExpectations(ce)


# --- event reasons and the control objects -----------------------------------------------

FAILED_CREATE_POD_REASON = "FailedCreate"
"""Port of FailedCreatePodReason: event (and ReplicaFailure condition) reason for a failed create."""
SUCCESSFUL_CREATE_POD_REASON = "SuccessfulCreate"
"""Port of SuccessfulCreatePodReason."""
FAILED_DELETE_POD_REASON = "FailedDelete"
"""Port of FailedDeletePodReason."""
SUCCESSFUL_DELETE_POD_REASON = "SuccessfulDelete"
"""Port of SuccessfulDeletePodReason."""


class EventRecorder(Protocol):
    """The part of record.EventRecorder (client-go tools/record) these helpers use (printf-style `eventf`)."""

    def eventf(self, obj: Any, event_type: str, reason: str, message_fmt: str, *args: Any) -> None: ...


class RSControlInterface(Protocol):
    """Port of RSControlInterface: how the Deployment controller patches ReplicaSets."""

    def patch_replica_set(self, namespace: str, name: str, data: bytes) -> None:
        """Port of RSControlInterface.PatchReplicaSet (pkg/controller/controller_utils.go)."""


@dataclass
class RealRSControl:
    """Port of RealRSControl: RSControlInterface over a clientset."""

    kube_client: Interface
    recorder: EventRecorder | None = None

    def patch_replica_set(self, namespace: str, name: str, data: bytes) -> None:
        """Port of RealRSControl.PatchReplicaSet: a strategic merge patch."""
        self.kube_client.apps_v1().replica_sets(namespace).patch(
            name, STRATEGIC_MERGE_PATCH_TYPE, data, PatchOptions())


class ControllerRevisionControlInterface(Protocol):
    """Port of ControllerRevisionControlInterface: how ControllerRevisions are patched."""

    def patch_controller_revision(self, namespace: str, name: str, data: bytes) -> None:
        """Port of ControllerRevisionControlInterface.PatchControllerRevision (pkg/controller/controller_utils.go)."""


@dataclass
class RealControllerRevisionControl:
    """Port of RealControllerRevisionControl: ControllerRevisionControlInterface over a clientset."""

    kube_client: Interface

    def patch_controller_revision(self, namespace: str, name: str, data: bytes) -> None:
        """Port of RealControllerRevisionControl.PatchControllerRevision: a strategic merge patch."""
        self.kube_client.apps_v1().controller_revisions(namespace).patch(
            name, STRATEGIC_MERGE_PATCH_TYPE, data, PatchOptions())


class PodControlInterface(Protocol):
    """Port of PodControlInterface: how controllers create, delete and patch pods."""

    def create_pods(self, namespace: str, template: V1PodTemplateSpec, controller_object: Any,
                    controller_ref: V1OwnerReference | None) -> None:
        """Port of PodControlInterface.CreatePods (pkg/controller/controller_utils.go)."""

    def create_pods_with_generate_name(self, namespace: str, template: V1PodTemplateSpec, controller_object: Any,
                                       controller_ref: V1OwnerReference | None, generate_name: str) -> None:
        """Port of PodControlInterface.CreatePodsWithGenerateName (pkg/controller/controller_utils.go)."""

    def delete_pod(self, namespace: str, pod_id: str, object: Any) -> None:
        """Port of PodControlInterface.DeletePod (pkg/controller/controller_utils.go)."""

    def patch_pod(self, namespace: str, name: str, data: bytes) -> None:
        """Port of PodControlInterface.PatchPod (pkg/controller/controller_utils.go)."""


def get_pods_label_set(template: V1PodTemplateSpec) -> labels.Set:
    """Port of getPodsLabelSet: a copy of the template's labels."""
    return labels.Set((template.metadata.labels if template.metadata else None) or {})


def get_pods_finalizers(template: V1PodTemplateSpec) -> list[str]:
    """Port of getPodsFinalizers: a copy of the template's finalizers."""
    return list((template.metadata.finalizers if template.metadata else None) or [])


def get_pods_annotation_set(template: V1PodTemplateSpec) -> labels.Set:
    """Port of getPodsAnnotationSet: a copy of the template's annotations."""
    return labels.Set((template.metadata.annotations if template.metadata else None) or {})


def get_pods_prefix(controller_name: str) -> str:
    """Port of getPodsPrefix: `<name>-` for generated pod names, or `<name>` if the dash makes it invalid."""
    prefix = f"{controller_name}-"
    if name_is_dns_subdomain(prefix, True):
        prefix = controller_name
    return prefix


def validate_controller_ref(controller_ref: V1OwnerReference | None) -> None:
    """Port of validateControllerRef: a usable controller reference for a new pod.

    Raises:
        ValueError: it is missing, lacks apiVersion or kind, or is not marked
            controller=true and blockOwnerDeletion=true.
    """
    if controller_ref is None:
        raise ValueError("controllerRef is nil")
    if not controller_ref.api_version:
        raise ValueError("controllerRef has empty APIVersion")
    if not controller_ref.kind:
        raise ValueError("controllerRef has empty Kind")
    if not controller_ref.controller:
        raise ValueError("controllerRef.Controller is not set to true")
    if not controller_ref.block_owner_deletion:
        raise ValueError("controllerRef.BlockOwnerDeletion is not set")


@dataclass
class RealPodControl:
    """Port of RealPodControl: PodControlInterface over a clientset, with events.

    `on_write`, when set, hears of every pod written (with its controller reference): the ReplicaSet
    controller's consistency store.
    """

    kube_client: Interface
    recorder: EventRecorder
    on_write: Callable[[V1Pod, V1OwnerReference | None], None] | None = None

    def create_pods(self, namespace: str, template: V1PodTemplateSpec, controller_object: Any,
                    controller_ref: V1OwnerReference | None) -> None:
        """Port of RealPodControl.CreatePods: create one pod from `template`, owned by `controller_ref`."""
        self.create_pods_with_generate_name(namespace, template, controller_object, controller_ref, "")

    def create_pods_with_generate_name(self, namespace: str, template: V1PodTemplateSpec, controller_object: Any,
                                       controller_ref: V1OwnerReference | None, generate_name: str) -> None:
        """Port of RealPodControl.CreatePodsWithGenerateName: as create_pods, with a chosen name prefix.

        Raises:
            ValueError: invalid controller reference, or a template without labels.
            StatusError: the API server refused the create.
        """
        validate_controller_ref(controller_ref)
        pod = get_pod_from_template(template, controller_object, controller_ref)
        if generate_name:
            pod.metadata.generate_name = generate_name
        self.create_pods_internal(namespace, pod, controller_object, controller_ref)

    def patch_pod(self, namespace: str, name: str, data: bytes) -> None:
        """Port of RealPodControl.PatchPod: a strategic merge patch; reports the result to on_write."""
        pod = self.kube_client.core_v1().pods(namespace).patch(name, STRATEGIC_MERGE_PATCH_TYPE, data, PatchOptions())
        if self.on_write is not None:
            self.on_write(pod, get_controller_of_no_copy(pod))

    def create_pods_internal(self, namespace: str, pod: V1Pod, object: Any,
                             controller_ref: V1OwnerReference | None) -> None:
        """Port of RealPodControl.createPods: send the create and record the outcome as an event.

        A failed create gets a Warning event, unless the namespace is being
        deleted (then every create fails and events would only add noise).
        """
        if len(pod.metadata.labels or {}) == 0:
            raise ValueError("unable to create pods, no labels")
        try:
            new_pod = self.kube_client.core_v1().pods(namespace).create(pod, CreateOptions())
        except Exception as err:
            if not errors.has_status_cause(err, "NamespaceTerminating"):  # Go: v1.NamespaceTerminatingCause
                self.recorder.eventf(object, "Warning", FAILED_CREATE_POD_REASON, "Error creating: %s", err)
            raise
        if self.on_write is not None:
            self.on_write(new_pod, controller_ref)
        log.debug("Controller %s created pod %s/%s", object_meta(object).name, namespace, new_pod.metadata.name)
        self.recorder.eventf(object, "Normal", SUCCESSFUL_CREATE_POD_REASON, "Created pod: %s", new_pod.metadata.name)

    def delete_pod(self, namespace: str, pod_id: str, object: Any) -> None:
        """Port of RealPodControl.DeletePod: delete one pod and record an event.

        Raises:
            StatusError: NotFound, unchanged (the pod is already gone; no event).
            RuntimeError: any other failure, as "unable to delete pods: ..."
                (its cause is not chained, as Go's %v does not wrap).
        """
        name = object_meta(object).name
        log.info("Deleting pod %s/%s (controller %s)", namespace, pod_id, name)
        try:
            self.kube_client.core_v1().pods(namespace).delete(pod_id, DeleteOptions())
        except Exception as err:
            if errors.is_not_found(err):
                log.debug("Pod %s/%s has already been deleted.", namespace, pod_id)
                raise
            self.recorder.eventf(object, "Warning", FAILED_DELETE_POD_REASON, "Error deleting: %s", err)
            raise RuntimeError(f"unable to delete pods: {err}")  # noqa: B904 - Go %v, not %w
        self.recorder.eventf(object, "Normal", SUCCESSFUL_DELETE_POD_REASON, "Deleted pod: %s", pod_id)


def get_pod_from_template(template: V1PodTemplateSpec, parent_object: Any,
                          controller_ref: V1OwnerReference | None) -> V1Pod:
    """Port of GetPodFromTemplate: a new pod (not yet created) from a controller's template.

    Labels, annotations, finalizers and spec are copied; the name is generated (`web-7d9f-x2k4q`); the
    controller reference, when given, is the only owner reference.
    """
    prefix = get_pods_prefix(object_meta(parent_object).name or "")
    pod = V1Pod(
        metadata=V1ObjectMeta(
            labels=dict(get_pods_label_set(template)),
            annotations=dict(get_pods_annotation_set(template)) or None,  # Go: empty map, omitted on the wire
            generate_name=prefix,
            finalizers=get_pods_finalizers(template) or None,
        ),
        spec=deep_copy(template.spec),
    )
    if controller_ref is not None:
        pod.metadata.owner_references = [controller_ref.model_copy()]
    return pod


@dataclass
class FakePodControl:
    """Port of FakePodControl: a PodControlInterface for tests that only records calls.

    Set `err` to make every call fail after recording; set `create_limit` to
    make creates beyond that many fail without being recorded.
    """

    templates: list[V1PodTemplateSpec] = field(default_factory=list)
    controller_refs: list[V1OwnerReference] = field(default_factory=list)
    delete_pod_name: list[str] = field(default_factory=list)
    patches: list[bytes] = field(default_factory=list)
    err: Exception | None = None
    create_limit: int = 0
    create_call_count: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)  # Go: embedded sync.Mutex

    def patch_pod(self, namespace: str, name: str, data: bytes) -> None:
        """Port of FakePodControl.PatchPod."""
        with self.lock:
            self.patches.append(data)
            if self.err is not None:
                raise self.err

    def create_pods(self, namespace: str, template: V1PodTemplateSpec, controller_object: Any,
                    controller_ref: V1OwnerReference | None) -> None:
        """Port of FakePodControl.CreatePods."""
        self.create_pods_with_generate_name(namespace, template, controller_object, controller_ref, "")

    def create_pods_with_generate_name(self, namespace: str, template: V1PodTemplateSpec, controller_object: Any,
                                       controller_ref: V1OwnerReference | None, generate_name: str) -> None:
        """Port of FakePodControl.CreatePodsWithGenerateName."""
        with self.lock:
            self.create_call_count += 1
            if self.create_limit != 0 and self.create_call_count > self.create_limit:
                raise RuntimeError(f"not creating pod, limit {self.create_limit} already reached "
                                   f"(create call {self.create_call_count})")
            recorded = deep_copy(template)
            if recorded.metadata is None:
                recorded.metadata = V1ObjectMeta()
            recorded.metadata.generate_name = generate_name
            self.templates.append(recorded)
            if controller_ref is None:
                raise RuntimeError("FakePodControl needs a controller reference (Go dereferences it)")
            self.controller_refs.append(controller_ref)
            if self.err is not None:
                raise self.err

    def delete_pod(self, namespace: str, pod_id: str, object: Any) -> None:
        """Port of FakePodControl.DeletePod."""
        with self.lock:
            self.delete_pod_name.append(pod_id)
            if self.err is not None:
                raise self.err

    def clear(self) -> None:
        """Port of FakePodControl.Clear: forget all calls and the create limit."""
        with self.lock:
            self.delete_pod_name = []
            self.templates = []
            self.controller_refs = []
            self.patches = []
            self.create_limit = 0
            self.create_call_count = 0


# --- sorting ---------------------------------------------------------------------------


class GoSortable(Protocol):
    """What go_sort needs: Go's sort.Interface minus Swap, plus `reorder` to apply a permutation."""

    def __len__(self) -> int: ...
    def less(self, i: int, j: int) -> bool: ...
    def reorder(self, order: list[int]) -> None: ...


def go_sort(data: GoSortable, reverse: bool = False) -> None:
    """Port of sort.Sort (and sort.Sort(sort.Reverse(data)) with `reverse`): sort by `less`, in place."""

    def cmp(i: int, j: int) -> int:
        if reverse:
            i, j = j, i
        if data.less(i, j):
            return -1
        return 1 if data.less(j, i) else 0

    data.reorder(sorted(range(len(data)), key=functools.cmp_to_key(cmp)))


class _PodList:
    # Shared plumbing of the pod sort types: a list of pods, sorted in place.
    def __init__(self, pods: list[V1Pod]) -> None:
        self.pods = pods

    def __len__(self) -> int:
        return len(self.pods)

    def reorder(self, order: list[int]) -> None:
        self.pods[:] = [self.pods[i] for i in order]

    def sort(self, reverse: bool = False) -> None:
        go_sort(self, reverse)  # type: ignore[arg-type]


def _node_name(pod: V1Pod) -> str:
    return (pod.spec.node_name if pod.spec else None) or ""


def _phase(pod: V1Pod) -> str:
    return (pod.status.phase if pod.status else None) or ""


class ByLogging(_PodList):
    """Port of ByLogging: the best pod to read logs from first (assigned, running, ready longest)."""

    def less(self, i: int, j: int) -> bool:
        """Port of ByLogging.Less."""
        a, b = self.pods[i], self.pods[j]
        # 1. assigned < unassigned
        if _node_name(a) != _node_name(b) and (not _node_name(a) or not _node_name(b)):
            return _node_name(a) != ""
        # 2. Running < Unknown < Pending
        if _phase(a) != _phase(b):
            return pod_phase_to_ordinal.get(_phase(a), 0) > pod_phase_to_ordinal.get(_phase(b), 0)
        # 3. ready < not ready
        if podutil.is_pod_ready(a) != podutil.is_pod_ready(b):
            return podutil.is_pod_ready(a)
        # 4. ready longer < ready shorter < no ready time
        if podutil.is_pod_ready(a) and podutil.is_pod_ready(b):
            t1, t2 = pod_ready_time(a), pod_ready_time(b)
            if t1 != t2:
                return after_or_zero(t2, t1)
        # 5. more restarts < fewer restarts
        res = compare_max_container_restarts(a, b)
        if res is not None:
            return res
        # 6. older < newer < no creation time
        c1, c2 = a.metadata.creation_timestamp, b.metadata.creation_timestamp
        if c1 != c2:
            return after_or_zero(c2, c1)
        return False


class ActivePods(_PodList):
    """Port of ActivePods: pods in the order a controller prefers to delete them."""

    def less(self, i: int, j: int) -> bool:
        """Port of ActivePods.Less: is pod i a better candidate for deletion than pod j?

        Unassigned first; Pending < Unknown < Running; not ready first; ready for less time first; more
        restarts first; newer first (no timestamp first).
        """
        a, b = self.pods[i], self.pods[j]
        if _node_name(a) != _node_name(b) and (not _node_name(a) or not _node_name(b)):
            return _node_name(a) == ""
        pa, pb = pod_phase_to_ordinal.get(_phase(a), 0), pod_phase_to_ordinal.get(_phase(b), 0)
        if pa != pb:
            return pa < pb
        if podutil.is_pod_ready(a) != podutil.is_pod_ready(b):
            return not podutil.is_pod_ready(a)
        if podutil.is_pod_ready(a) and podutil.is_pod_ready(b):
            t1, t2 = pod_ready_time(a), pod_ready_time(b)
            if t1 != t2:
                return after_or_zero(t1, t2)
        res = compare_max_container_restarts(a, b)
        if res is not None:
            return res
        c1, c2 = a.metadata.creation_timestamp, b.metadata.creation_timestamp
        if c1 != c2:
            return after_or_zero(c1, c2)
        return False


class ActivePodsWithRanks:
    """Port of ActivePodsWithRanks: ActivePods plus a rank per pod and the deletion-cost annotation.

    The ReplicaSet controller ranks a pod by how many related active pods share
    its node, so scale-down spreads pods out. Rules, first match wins:
    1 unassigned first; 2 Pending < Unknown < Running; 3 not ready first;
    4 lower pod-deletion-cost first; 5 higher rank first; 6 ready for less
    time first; 7 more restarts first; 8 newer first.
    Rules 6 and 8 compare ages in log2 buckets of nanoseconds (LogarithmicScaleDown, GA): ages 1 h and 1.5 h
    fall in buckets 41 and 42, so the younger goes first; 1 h and 1.2 h share 41 and fall back to UID order.
    """

    def __init__(self, pods: list[V1Pod], rank: list[int], now: datetime | None = None) -> None:
        self.pods = pods
        self.rank = rank
        """Same length as `pods`; moved together with them."""
        self.now = now
        """Reference time for the log buckets; None (Go: zero time) compares raw times."""

    def __len__(self) -> int:
        return len(self.pods)

    def reorder(self, order: list[int]) -> None:
        self.pods[:] = [self.pods[i] for i in order]
        self.rank[:] = [self.rank[i] for i in order]

    def sort(self, reverse: bool = False) -> None:
        go_sort(self, reverse)

    def less(self, i: int, j: int) -> bool:
        """Port of ActivePodsWithRanks.Less: should pod i be deleted before pod j?"""
        a, b = self.pods[i], self.pods[j]
        # 1-3: as ActivePods
        if _node_name(a) != _node_name(b) and (not _node_name(a) or not _node_name(b)):
            return _node_name(a) == ""
        pa, pb = pod_phase_to_ordinal.get(_phase(a), 0), pod_phase_to_ordinal.get(_phase(b), 0)
        if pa != pb:
            return pa < pb
        if podutil.is_pod_ready(a) != podutil.is_pod_ready(b):
            return not podutil.is_pod_ready(a)
        # 4. lower pod-deletion-cost first (gate PodDeletionCost: on)
        ca = get_deletion_cost_from_pod_annotations(a.metadata.annotations)[0]
        cb = get_deletion_cost_from_pod_annotations(b.metadata.annotations)[0]
        if ca != cb:
            return ca < cb
        # 5. doubled up (higher rank) first
        if self.rank[i] != self.rank[j]:
            return self.rank[i] > self.rank[j]
        # 6. ready for less time first, in log buckets
        if podutil.is_pod_ready(a) and podutil.is_pod_ready(b):
            t1, t2 = pod_ready_time(a), pod_ready_time(b)
            if t1 != t2:
                return self._newer_first(a, b, t1, t2)
        # 7. more restarts first
        res = compare_max_container_restarts(a, b)
        if res is not None:
            return res
        # 8. newer first, in log buckets
        c1, c2 = a.metadata.creation_timestamp, b.metadata.creation_timestamp
        if c1 != c2:
            return self._newer_first(a, b, c1, c2)
        return False

    def _newer_first(self, a: V1Pod, b: V1Pod, t1: datetime | None, t2: datetime | None) -> bool:
        # The shared tail of rules 6 and 8 (inline twice in Go).
        if self.now is None or t1 is None or t2 is None:
            return after_or_zero(t1, t2)
        rank_diff = logarithmic_rank_diff(t1, t2, self.now)
        if rank_diff == 0:
            return (a.metadata.uid or "") < (b.metadata.uid or "")
        return rank_diff < 0


def after_or_zero(t1: datetime | None, t2: datetime | None) -> bool:
    """Port of afterOrZero: t1 after t2, where a missing time counts as after any real one."""
    if t1 is None or t2 is None:
        return t1 is None
    return t1 > t2


def logarithmic_rank_diff(t1: datetime, t2: datetime, now: datetime) -> int:
    """Port of logarithmicRankDiff: int(log2) buckets of two ages (`now - t`, ns; -1 when not positive), diffed."""

    def bucket(t: datetime) -> int:
        d = (now - t) // timedelta(microseconds=1) * 1000  # Go: Duration in ns
        return int(math.log2(d)) if d > 0 else -1

    return bucket(t1) - bucket(t2)


def pod_ready_time(pod: V1Pod) -> datetime | None:
    """Port of podReadyTime: when the Ready condition last became True; None (Go: zero time) otherwise."""
    if podutil.is_pod_ready(pod):
        for c in (pod.status.conditions if pod.status else None) or []:
            if c.type == podutil.POD_READY and c.status == podutil.CONDITION_TRUE:
                return c.last_transition_time
    return None


def max_container_restarts(pod: V1Pod) -> tuple[int, int]:
    """Port of maxContainerRestarts: (highest regular, highest sidecar) restart count (sidecar: restartable init)."""
    status, spec = pod.status, pod.spec
    regular = max([c.restart_count or 0 for c in (status.container_statuses if status else None) or []], default=0)
    names = {c.name for c in (spec.init_containers if spec else None) or [] if podutil.is_restartable_init_container(c)}
    sidecar = max([c.restart_count or 0 for c in (status.init_container_statuses if status else None) or []
                   if c.name in names], default=0)
    return regular, sidecar


def compare_max_container_restarts(pi: V1Pod, pj: V1Pod) -> bool | None:
    """Port of compareMaxContainerRestarts: True if pi restarted more, False if pj did, None if equal (regular
    containers first, sidecars break a tie)."""
    regular_i, sidecar_i = max_container_restarts(pi)
    regular_j, sidecar_j = max_container_restarts(pj)
    if regular_i != regular_j:
        return regular_i > regular_j
    if sidecar_i != sidecar_j:
        return sidecar_i > sidecar_j
    return None


_DELETION_COST = re.compile(r"-?[0-9]+")


def get_deletion_cost_from_pod_annotations(annotations: dict[str, str] | None) -> tuple[int, Exception | None]:
    """Port of GetDeletionCostFromPodAnnotations (pkg/apis/core/helper/helpers.go): the pod-deletion-cost.

    0 when absent or invalid (a decimal int32 without "+" or leading zeros). Differs from Go: returns
    (cost, error) instead of raising, as the only caller ignores the error.
    """
    value = (annotations or {}).get(POD_DELETION_COST)
    if value is None:
        return 0, None
    valid_first = value != "" and (value[0] == "-" or value == "0" or "1" <= value[0] <= "9")
    if not valid_first:
        return 0, ValueError(f"invalid value {value!r}")
    if not _DELETION_COST.fullmatch(value) or not -(2**31) <= int(value) < 2**31:
        return 0, ValueError(f"strconv.ParseInt: parsing {value!r}: invalid syntax or value out of range")
    return int(value), None


# --- filters, indexers, keys --------------------------------------------------------------


def filter_claimed_pods(controller: Any, selector: labels.Selector, pods: list[V1Pod]) -> list[V1Pod]:
    """Port of FilterClaimedPods: pods that `controller` controls and whose labels still match."""
    return [p for p in pods
            if is_controlled_by(p, controller) and selector.matches(p.metadata.labels or {})]


def filter_active_pods(pods: list[V1Pod]) -> list[V1Pod]:
    """Port of FilterActivePods: pods that are neither finished nor being deleted."""
    return [p for p in pods if is_pod_active(p)]


def filter_terminating_pods(pods: list[V1Pod]) -> list[V1Pod]:
    """Port of FilterTerminatingPods: pods being deleted that have not finished yet."""
    return [p for p in pods if is_pod_terminating(p)]


def count_terminating_pods(pods: list[V1Pod]) -> int:
    """Port of CountTerminatingPods."""
    return sum(1 for p in pods if is_pod_terminating(p))


def next_pod_availability_check(pod: V1Pod, min_ready_seconds: int, now: datetime) -> float | None:
    """Port of nextPodAvailabilityCheck: seconds until a ready pod becomes available, if that is ahead.

    Example: ready since 12:00:00, min_ready_seconds=30, now 12:00:20 -> 10.0;
    at or after 12:00:30 -> None (already available), as for a pod not ready.
    """
    if not podutil.is_pod_ready(pod) or min_ready_seconds <= 0:
        return None
    c = podutil.get_pod_ready_condition(pod.status)
    if c is None or c.last_transition_time is None:
        return None
    next_check = (c.last_transition_time + timedelta(seconds=min_ready_seconds) - now).total_seconds()
    return next_check if next_check > 0 else None


def find_min_next_pod_availability_simple_check(pods: list[V1Pod], min_ready_seconds: int,
                                                now: datetime) -> tuple[float | None, V1Pod | None]:
    """Port of findMinNextPodAvailabilitySimpleCheck: the soonest availability check, and its pod."""
    min_check: float | None = None
    check_pod: V1Pod | None = None
    for p in pods:
        next_check = next_pod_availability_check(p, min_ready_seconds, now)
        if next_check is not None and (min_check is None or next_check < min_check):
            min_check, check_pod = next_check, p
    return min_check, check_pod


def find_min_next_pod_availability_check(pods: list[V1Pod], min_ready_seconds: int,
                                         last_owner_status_evaluation: datetime, clock: Clock) -> float | None:
    """Port of FindMinNextPodAvailabilityCheck: when to requeue so availableReplicas gets updated.

    The pod is chosen at `last_owner_status_evaluation` (when the status was computed, so none that turned
    available since is skipped), the delay recomputed at `clock.now()`: 0 when it has turned available.
    """
    next_check, check_pod = find_min_next_pod_availability_simple_check(
        pods, min_ready_seconds, last_owner_status_evaluation)
    if next_check is None or check_pod is None:
        return None
    updated = next_pod_availability_check(check_pod, min_ready_seconds, clock.now())
    return updated if updated is not None else 0.0


def is_pod_active(p: V1Pod) -> bool:
    """Port of IsPodActive: not Succeeded, not Failed, and not being deleted."""
    return _phase(p) not in (podutil.POD_SUCCEEDED, podutil.POD_FAILED) and p.metadata.deletion_timestamp is None


def is_pod_terminating(p: V1Pod) -> bool:
    """Port of IsPodTerminating: being deleted but not finished."""
    return not podutil.is_pod_terminal(p) and p.metadata.deletion_timestamp is not None


def filter_active_replica_sets(replica_sets: list[V1ReplicaSet | None]) -> list[V1ReplicaSet]:
    """Port of FilterActiveReplicaSets: ReplicaSets that want at least one pod (None entries dropped)."""

    def active_filter(rs: V1ReplicaSet | None) -> bool:
        return rs is not None and (rs.spec.replicas or 0) > 0

    return filter_replica_sets(replica_sets, active_filter)


def filter_replica_sets(rses: list[Any], filter_fn: Callable[[Any], bool]) -> list[Any]:
    """Port of FilterReplicaSets: the ReplicaSets `filter_fn` accepts, in order."""
    return [rs for rs in rses if filter_fn(rs)]


def add_pod_node_name_indexer(pod_informer: SharedIndexInformer) -> None:
    """Port of AddPodNodeNameIndexer: index pods by spec.nodeName (unscheduled pods are not indexed)."""
    if POD_NODE_NAME_KEY_INDEX in pod_informer.get_indexer().get_indexers():
        return

    def pod_node_name_index(obj: Any) -> list[str]:
        if not isinstance(obj, V1Pod) or not _node_name(obj):
            return []
        return [_node_name(obj)]

    pod_informer.add_indexers({POD_NODE_NAME_KEY_INDEX: pod_node_name_index})


def pod_controller_index_key(namespace: str, owner_reference: V1OwnerReference | None) -> str:
    """Port of PodControllerIndexKey: `ns/Kind/name/uid` for an owner, or just `ns` for orphans."""
    if owner_reference is None:
        return namespace
    return f"{namespace}/{owner_reference.kind}/{owner_reference.name}/{owner_reference.uid}"


def add_pod_controller_indexer(pod_informer: SharedIndexInformer) -> None:
    """Port of AddPodControllerIndexer: index pods by controller (orphans under their namespace); idempotent."""
    if POD_CONTROLLER_INDEX in pod_informer.get_indexer().get_indexers():
        return

    def pod_controller_index(obj: Any) -> list[str]:
        if not isinstance(obj, V1Pod):
            return []
        return [pod_controller_index_key(obj.metadata.namespace or "", get_controller_of(obj))]

    pod_informer.add_indexers({POD_CONTROLLER_INDEX: pod_controller_index})


def filter_pods_by_owner(pod_indexer: Indexer, owner: V1ObjectMeta, owner_kind: str,
                         include_orphaned_pods: bool) -> list[V1Pod]:
    """Port of FilterPodsByOwner: the pods `owner` controls, plus its namespace's orphans if asked.

    Needs the podController index (add_pod_controller_indexer).

    Raises:
        ValueError: the owner lacks namespace, name or uid, or `owner_kind` is empty.
    """
    for value, what in ((owner.namespace, "namespace"), (owner.name, "name"), (owner.uid, "uid"),
                        (owner_kind, "kind")):
        if not value:
            raise ValueError(f"no owner {what} provided")
    owner_ref = V1OwnerReference(api_version="", name=owner.name, kind=owner_kind, uid=owner.uid)
    keys = [pod_controller_index_key(owner.namespace or "", owner_ref)]
    if include_orphaned_pods:
        keys.append(pod_controller_index_key(owner.namespace or "", None))
    result: list[V1Pod] = []
    for key in keys:
        for obj in pod_indexer.by_index(POD_CONTROLLER_INDEX, key):
            if not isinstance(obj, V1Pod):
                runtime.handle_error(TypeError(f"unexpected object type in pod indexer: {obj!r}"))
                continue
            result.append(obj)
    return result


def pod_key(pod: V1Pod) -> str:
    """Port of PodKey: `namespace/name`, the key expectations use for pods."""
    return f"{pod.metadata.namespace or ''}/{pod.metadata.name or ''}"


class _ObjectList:
    # Shared plumbing of the controller and ReplicaSet sort types.
    def __init__(self, items: list[Any]) -> None:
        self.items = items

    def __len__(self) -> int:
        return len(self.items)

    def reorder(self, order: list[int]) -> None:
        self.items[:] = [self.items[i] for i in order]

    def sort(self, reverse: bool = False) -> None:
        go_sort(self, reverse)  # type: ignore[arg-type]

    def by_creation_timestamp_less(self, i: int, j: int) -> bool:
        # Go: the Less of ControllersByCreationTimestamp / ReplicaSetsByCreationTimestamp.
        a, b = self.items[i].metadata, self.items[j].metadata
        if a.creation_timestamp == b.creation_timestamp:
            return (a.name or "") < (b.name or "")
        return _before(a.creation_timestamp, b.creation_timestamp)


def _before(t1: datetime | None, t2: datetime | None) -> bool:
    # Go: metav1.Time.Before, where a nil or zero time is the earliest.
    if t1 is None or t2 is None:
        return t1 is None and t2 is not None
    return t1 < t2


class ControllersByCreationTimestamp(_ObjectList):
    """Port of ControllersByCreationTimestamp: oldest first, name breaks ties."""

    def less(self, i: int, j: int) -> bool:
        """Port of ControllersByCreationTimestamp.Less (pkg/controller/controller_utils.go)."""
        return self.by_creation_timestamp_less(i, j)


class ReplicaSetsByCreationTimestamp(_ObjectList):
    """Port of ReplicaSetsByCreationTimestamp: oldest first, name breaks ties."""

    def less(self, i: int, j: int) -> bool:
        """Port of ReplicaSetsByCreationTimestamp.Less (pkg/controller/controller_utils.go)."""
        return self.by_creation_timestamp_less(i, j)


class ReplicaSetsBySizeOlder(_ObjectList):
    """Port of ReplicaSetsBySizeOlder: largest spec.replicas first; among equals, oldest first."""

    def less(self, i: int, j: int) -> bool:
        """Port of ReplicaSetsBySizeOlder.Less (pkg/controller/controller_utils.go)."""
        ri, rj = self.items[i].spec.replicas or 0, self.items[j].spec.replicas or 0
        if ri == rj:
            return self.by_creation_timestamp_less(i, j)
        return ri > rj


class ReplicaSetsBySizeNewer(_ObjectList):
    """Port of ReplicaSetsBySizeNewer: largest spec.replicas first; among equals, newest first."""

    def less(self, i: int, j: int) -> bool:
        """Port of ReplicaSetsBySizeNewer.Less (pkg/controller/controller_utils.go)."""
        ri, rj = self.items[i].spec.replicas or 0, self.items[j].spec.replicas or 0
        if ri == rj:
            return self.by_creation_timestamp_less(j, i)
        return ri > rj


# --- template hash -------------------------------------------------------------------------

ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789"
"""Port of alphanums (apimachinery util/rand): letters and digits without vowels or lookalikes."""


def safe_encode_string(s: str) -> str:
    """Port of SafeEncodeString (k8s.io/apimachinery/pkg/util/rand/rand.go).

    Each character becomes ALPHANUMS[code point % 27], letters and digits that cannot spell words
    ("1592" -> "59f6"). As in Go, one character per UTF-8 byte of `s` (a non-ASCII tail is NULs).
    """
    runes = [ALPHANUMS[ord(ch) % len(ALPHANUMS)] for ch in s]
    return "".join(runes) + "\x00" * (len(s.encode("utf-8")) - len(runes))


def compute_hash(template: V1PodTemplateSpec, collision_count: int | None) -> str:
    """Port of ComputeHash: the pod-template-hash label value of a Deployment's template.

    FNV-32a over the template (deep_hash_object) and, with a collision count, the count as a little-endian
    uint32 plus four zero bytes; the sum in decimal through safe_encode_string (3582476101 -> "79d68cb545").
    A higher collision count is how the Deployment controller escapes a name clash.
    """
    hasher = Fnv32a()
    deep_hash_object(hasher, template)
    if collision_count is not None:
        hasher.write(struct.pack("<I", collision_count & 0xFFFFFFFF) + bytes(4))
    return safe_encode_string(str(hasher.sum32()))
