"""Test doubles, builders and drivers shared by the StatefulSet tests.

Ports of the helpers of upstream's stateful_set_control_test.go and
stateful_set_utils_test.go: the fake object manager (pods and claims live in
informer indexers only), the fake status updater, the set builders, the
invariant checks (assert_monotonic_invariants and friends) and the loops that
drive a set up, down and through an update by moving pods along
Pending -> Running -> Ready themselves. Every call of the control uses the
fixed time NOW (Go: time.Now()); the random pod chosen to move is drawn from a
seeded random.Random.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from kubernetes.client import (
    V1Container,
    V1HostPathVolumeSource,
    V1LabelSelector,
    V1LabelSelectorRequirement,
    V1ObjectMeta,
    V1PersistentVolumeClaim,
    V1PersistentVolumeClaimSpec,
    V1Pod,
    V1PodCondition,
    V1PodSpec,
    V1PodStatus,
    V1PodTemplateSpec,
    V1StatefulSet,
    V1StatefulSetPersistentVolumeClaimRetentionPolicy,
    V1StatefulSetSpec,
    V1StatefulSetStatus,
    V1StatefulSetUpdateStrategy,
    V1Volume,
    V1VolumeMount,
    V1VolumeResourceRequirements,
)

from minikcm.api.pod import util as podutil
from minikcm.apimachinery import errors
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.field import Aggregate
from minikcm.apimachinery.meta import label_selector_as_selector
from minikcm.client.fake import new_simple_clientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.history.controller_history import new_fake_history
from minikcm.controller.statefulset.stateful_pod_control import new_stateful_pod_control_from_manager
from minikcm.controller.statefulset.stateful_set_control import (
    DefaultStatefulSetControl,
    new_default_stateful_set_control,
)
from minikcm.controller.statefulset.stateful_set_utils import (
    DELETE,
    ON_DELETE_STRATEGY,
    PARALLEL_POD_MANAGEMENT,
    RETAIN,
    ROLLING_UPDATE_STRATEGY,
    AscendingOrdinal,
    get_ordinal,
    get_persistent_volume_claims,
    get_pod_revision,
    get_start_ordinal,
    has_owner_ref,
    identity_matches,
    is_running_and_ready,
    new_stateful_set_pod,
    pod_in_ordinal_range,
    sort_pods_by,
    storage_matches,
)
from minikcm.informers import new_shared_informer_factory_with_options

NOW = EPOCH + timedelta(hours=10)
"""The `now` every update_stateful_set call of these tests uses."""


class NoopRecorder:
    """Upstream's noopRecorder: an EventRecorder that drops everything."""

    def event(self, obj: Any, event_type: str, reason: str, message: str) -> None:
        pass

    def eventf(self, obj: Any, event_type: str, reason: str, message_fmt: str, *args: Any) -> None:
        pass

    def annotated_eventf(self, obj: Any, annotations: Any, event_type: str, reason: str, message_fmt: str,
                         *args: Any) -> None:
        pass


# --- builders (stateful_set_utils_test.go) --------------------------------------------------------


def new_pod() -> V1Pod:
    """Upstream's newPod: pod foo-0 in default."""
    return V1Pod(metadata=V1ObjectMeta(name="foo-0", namespace="default"),
                 spec=V1PodSpec(containers=[V1Container(name="nginx", image="nginx")]))


def new_pvc(name: str) -> V1PersistentVolumeClaim:
    """Upstream's newPVC: a claim asking for 1 byte of storage."""
    return V1PersistentVolumeClaim(
        metadata=V1ObjectMeta(namespace="default", name=name),
        spec=V1PersistentVolumeClaimSpec(resources=V1VolumeResourceRequirements(requests={"storage": "1"})))


def new_stateful_set_with_volumes(replicas: int, name: str, pet_mounts: list[V1VolumeMount],
                                  pod_mounts: list[V1VolumeMount]) -> V1StatefulSet:
    """Upstream's newStatefulSetWithVolumes: a claim template per pet mount, a hostPath volume per pod mount."""
    return V1StatefulSet(
        api_version="apps/v1", kind="StatefulSet",
        metadata=V1ObjectMeta(name=name, namespace="default", uid="test"),
        spec=V1StatefulSetSpec(
            selector=V1LabelSelector(match_labels={"foo": "bar"}),
            replicas=replicas,
            template=V1PodTemplateSpec(
                metadata=V1ObjectMeta(labels={"foo": "bar"}),
                spec=V1PodSpec(
                    containers=[V1Container(name="nginx", image="nginx",
                                            volume_mounts=[*pet_mounts, *pod_mounts])],
                    volumes=[V1Volume(name=m.name, host_path=V1HostPathVolumeSource(path=f"/tmp/{m.name}"))
                             for m in pod_mounts] or None,
                ),
            ),
            volume_claim_templates=[new_pvc(m.name) for m in pet_mounts],
            service_name="governingsvc",
            update_strategy=V1StatefulSetUpdateStrategy(type=ROLLING_UPDATE_STRATEGY),
            persistent_volume_claim_retention_policy=V1StatefulSetPersistentVolumeClaimRetentionPolicy(
                when_scaled=RETAIN, when_deleted=RETAIN),
            revision_history_limit=2,
        ),
        status=V1StatefulSetStatus(replicas=0),
    )


def new_stateful_set(replicas: int) -> V1StatefulSet:
    """Upstream's newStatefulSet: set foo with claim template datadir and a home hostPath volume."""
    return new_stateful_set_with_volumes(replicas, "foo", [V1VolumeMount(name="datadir", mount_path="/tmp/zookeeper")],
                                         [V1VolumeMount(name="home", mount_path="/home")])


def new_stateful_set_with_labels(replicas: int, name: str, uid: str, label_map: dict[str, str]) -> V1StatefulSet:
    """Upstream's newStatefulSetWithLabels: only a set-based selector (matchExpressions)."""
    set_ = new_stateful_set(replicas)
    set_.metadata = V1ObjectMeta(name=name, namespace="default", uid=uid)
    set_.spec.selector = V1LabelSelector(match_expressions=[
        V1LabelSelectorRequirement(key=k, operator="In", values=[v]) for k, v in label_map.items()])
    set_.spec.template.metadata.labels = dict(label_map)
    set_.spec.template.spec.containers[0].volume_mounts = [V1VolumeMount(name="datadir", mount_path="/tmp/"),
                                                           V1VolumeMount(name="home", mount_path="/home")]
    set_.spec.update_strategy = None
    set_.spec.revision_history_limit = None
    return set_


def burst(set_: V1StatefulSet) -> V1StatefulSet:
    """Upstream's burst: podManagementPolicy Parallel."""
    set_.spec.pod_management_policy = PARALLEL_POD_MANAGEMENT
    return set_


def set_min_ready_seconds(set_: V1StatefulSet, seconds: int) -> V1StatefulSet:
    set_.spec.min_ready_seconds = seconds
    return set_


POLICIES = {
    "Retain": (RETAIN, RETAIN),
    "SetDeleteOnly": (RETAIN, DELETE),
    "ScaleDownOnly": (DELETE, RETAIN),
    "Delete": (DELETE, DELETE),
    "nullPolicy": None,
}
"""Upstream's runTestOverPVCRetentionPolicies, by pvcDeletePolicyString (whenScaled, whenDeleted)."""


def with_policy(set_: V1StatefulSet, name: str) -> V1StatefulSet:
    policy = POLICIES[name]
    set_.spec.persistent_volume_claim_retention_policy = None if policy is None else \
        V1StatefulSetPersistentVolumeClaimRetentionPolicy(when_scaled=policy[0], when_deleted=policy[1])
    return set_


# --- the fakes (stateful_set_control_test.go) --------------------------------------------------------


@dataclass
class RequestTracker:
    """Upstream's requestTracker: counts calls, fails them once `after` calls have happened."""

    requests: int = 0
    err: Exception | None = None
    after: int = 0
    parallel: int = 0
    max_parallel: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def error_ready(self) -> bool:
        with self.lock:
            return self.err is not None and self.requests >= self.after

    def inc(self) -> None:
        with self.lock:
            self.parallel += 1
            self.max_parallel = max(self.max_parallel, self.parallel)
            self.requests += 1

    def reset(self) -> None:
        with self.lock:
            self.parallel = 0
            self.err = None
            self.after = 0


def fake_resource_version(obj: Any) -> None:
    """Upstream's fakeResourceVersion: "1", or one more than the current resourceVersion."""
    rv = obj.metadata.resource_version
    obj.metadata.resource_version = "1" if not rv else str(int(rv) + 1)


class FakeObjectManager:
    """Upstream's fakeObjectManager: pods and claims written straight into the informers' indexers."""

    def __init__(self, factory: Any) -> None:
        pods, claims = factory.core().v1().pods(), factory.core().v1().persistent_volume_claims()
        sets, revisions = factory.apps().v1().stateful_sets(), factory.apps().v1().controller_revisions()
        self.pods_lister, self.claims_lister, self.sets_lister = pods.lister(), claims.lister(), sets.lister()
        self.pods_indexer = pods.informer().get_indexer()
        self.claims_indexer = claims.informer().get_indexer()
        self.sets_indexer = sets.informer().get_indexer()
        self.revisions_indexer = revisions.informer().get_indexer()
        self.create_pod_tracker = RequestTracker()
        self.update_pod_tracker = RequestTracker()
        self.delete_pod_tracker = RequestTracker()

    def create_pod(self, pod: V1Pod) -> V1Pod:
        try:
            if self.create_pod_tracker.error_ready():
                err = self.create_pod_tracker.err
                self.create_pod_tracker.reset()
                raise err  # type: ignore[misc]
            pod.metadata.uid = f"{pod.metadata.name}-uid"
            self.pods_indexer.update(pod)
            return pod
        finally:
            self.create_pod_tracker.inc()

    def get_pod(self, namespace: str, pod_name: str) -> V1Pod:
        return self.pods_lister.pods(namespace).get(pod_name)

    def update_pod(self, pod: V1Pod) -> V1Pod:
        self.pods_indexer.update(pod)
        return pod

    def delete_pod(self, pod: V1Pod) -> None:
        try:
            if self.delete_pod_tracker.error_ready():
                err = self.delete_pod_tracker.err
                self.delete_pod_tracker.reset()
                raise err  # type: ignore[misc]
            obj, found = self.pods_indexer.get_by_key(f"{pod.metadata.namespace}/{pod.metadata.name}")
            if found:
                self.pods_indexer.delete(obj)
        finally:
            self.delete_pod_tracker.inc()

    def create_claim(self, claim: V1PersistentVolumeClaim) -> V1PersistentVolumeClaim:
        self.claims_indexer.update(claim)
        return claim

    def get_claim(self, namespace: str, claim_name: str) -> V1PersistentVolumeClaim:
        return self.claims_lister.persistent_volume_claims(namespace).get(claim_name)

    def update_claim(self, claim: V1PersistentVolumeClaim) -> V1PersistentVolumeClaim:
        for ref in claim.metadata.owner_references or []:
            if not ref.api_version or not ref.kind or not ref.name:
                raise RuntimeError(f"invalid ownerRefs: {claim.metadata.name} {claim.metadata.owner_references}")
        self.claims_indexer.update(claim)
        return claim

    def set_create_stateful_pod_error(self, err: Exception | None, after: int) -> None:
        self.create_pod_tracker.err, self.create_pod_tracker.after = err, after

    def set_update_stateful_pod_error(self, err: Exception | None, after: int) -> None:
        self.update_pod_tracker.err, self.update_pod_tracker.after = err, after

    def set_delete_stateful_pod_error(self, err: Exception | None, after: int) -> None:
        self.delete_pod_tracker.err, self.delete_pod_tracker.after = err, after

    # -- moving pods along their life ---------------------------------------------------------------

    def pods_of(self, set_: V1StatefulSet) -> list[V1Pod]:
        return self.pods_lister.pods(set_.metadata.namespace).list(label_selector_as_selector(set_.spec.selector))

    def _change(self, set_: V1StatefulSet, ordinal: int, change: Callable[[V1Pod], None]) -> list[V1Pod]:
        pod = next((deep_copy(p) for p in self.pods_of(set_) if get_ordinal(p) == ordinal), None)
        if pod is None:
            raise LookupError(f"pod ordinal {ordinal} not found")
        change(pod)
        fake_resource_version(pod)
        self.pods_indexer.update(pod)
        return self.pods_of(set_)

    def set_pod_pending(self, set_: V1StatefulSet, ordinal: int) -> list[V1Pod]:
        return self._change(set_, ordinal, lambda p: _set_phase(p, "Pending"))

    def set_pod_running(self, set_: V1StatefulSet, ordinal: int) -> list[V1Pod]:
        return self._change(set_, ordinal, lambda p: _set_phase(p, "Running"))

    def set_pod_ready(self, set_: V1StatefulSet, ordinal: int) -> list[V1Pod]:
        return self._change(set_, ordinal, lambda p: _set_ready(p, None))

    def set_pod_available(self, set_: V1StatefulSet, ordinal: int, last_transition_time: datetime) -> list[V1Pod]:
        return self._change(set_, ordinal, lambda p: _set_ready(p, last_transition_time))

    def add_terminating_pod(self, set_: V1StatefulSet, ordinal: int) -> list[V1Pod]:
        pod = new_stateful_set_pod(set_, ordinal)
        pod.metadata.uid = f"{pod.metadata.name}-uid"  # as create_pod gives it
        pod.status = V1PodStatus(phase="Running")
        pod.metadata.deletion_timestamp = NOW
        fake_resource_version(pod)
        _set_ready(pod, None)
        self.pods_indexer.update(pod)
        return self.pods_of(set_)

    def set_pod_terminated(self, set_: V1StatefulSet, ordinal: int) -> list[V1Pod]:
        pod = new_stateful_set_pod(set_, ordinal)
        pod.metadata.deletion_timestamp = NOW
        fake_resource_version(pod)
        self.pods_indexer.update(pod)
        return self.pods_of(set_)


def _set_phase(pod: V1Pod, phase: str) -> None:
    if pod.status is None:
        pod.status = V1PodStatus()
    pod.status.phase = phase


def _set_ready(pod: V1Pod, last_transition_time: datetime | None) -> None:
    if pod.status is None:
        pod.status = V1PodStatus()
    podutil.update_pod_condition(pod.status, V1PodCondition(type="Ready", status="True"), FakeClock(NOW))
    if last_transition_time is not None:  # Go also overwrites an existing condition's time
        for c in pod.status.conditions or []:
            if c.type == "Ready":
                c.last_transition_time = last_transition_time


class FakeStatefulSetStatusUpdater:
    """Upstream's fakeStatefulSetStatusUpdater: the status goes straight into the set indexer."""

    def __init__(self, sets_indexer: Any) -> None:
        self.sets_indexer = sets_indexer
        self.update_status_tracker = RequestTracker()

    def update_stateful_set_status(self, set_: V1StatefulSet, status: V1StatefulSetStatus) -> None:
        try:
            if self.update_status_tracker.error_ready():
                err = self.update_status_tracker.err
                self.update_status_tracker.reset()
                raise err  # type: ignore[misc]
            set_.status = status
            self.sets_indexer.update(set_)
        finally:
            self.update_status_tracker.inc()

    def set_update_stateful_set_status_error(self, err: Exception | None, after: int) -> None:
        self.update_status_tracker.err, self.update_status_tracker.after = err, after


def setup_controller(*sets: V1StatefulSet) -> tuple[FakeObjectManager, FakeStatefulSetStatusUpdater,
                                                     DefaultStatefulSetControl]:
    """Upstream's setupController: the control over the fakes; informers never started, `sets` seeded."""
    clock = FakeClock(EPOCH, driven=True)
    factory = new_shared_informer_factory_with_options(new_simple_clientset(clock=clock), 0, clock=clock,
                                                       rng=random.Random(1))
    om = FakeObjectManager(factory)
    spc = new_stateful_pod_control_from_manager(om, NoopRecorder())
    ssu = FakeStatefulSetStatusUpdater(om.sets_indexer)
    ssc = new_default_stateful_set_control(spc, ssu, new_fake_history(factory.apps().v1().controller_revisions()),
                                           inline=clock.driven)
    for set_ in sets:
        om.sets_indexer.update(deep_copy(set_))
    return om, ssu, ssc


def get_set(om: FakeObjectManager, set_: V1StatefulSet) -> V1StatefulSet:
    return om.sets_lister.stateful_sets(set_.metadata.namespace).get(set_.metadata.name)


def sorted_pods(pods: list[V1Pod]) -> list[V1Pod]:
    pods = list(pods)
    sort_pods_by(AscendingOrdinal(pods))
    return pods


def is_or_has_internal_error(err: BaseException) -> bool:
    """True for an InternalError (500), or an Aggregate whose first error is one."""
    if isinstance(err, Aggregate):
        return bool(err.errors()) and errors.is_internal_error(err.errors()[0])
    return errors.is_internal_error(err)


# --- invariants (stateful_set_control_test.go) -----------------------------------------------------------

Invariants = Callable[[V1StatefulSet, FakeObjectManager], None]


def check_claim_invariants(set_: V1StatefulSet, pod: V1Pod, claim: V1PersistentVolumeClaim | None) -> None:
    """Upstream's checkClaimInvarients: the claim exists (if retained) and has the owners the policy wants.

    Owners are only checked once the pod is Running and Ready (before that the
    controller may not have set them yet).
    """
    policy = set_.spec.persistent_volume_claim_retention_policy
    scaled = (policy.when_scaled if policy else None) or RETAIN
    deleted = (policy.when_deleted if policy else None) or RETAIN
    if claim is None:
        assert scaled != RETAIN, f"claim for Pod {pod.metadata.name} was not created"
        return
    if not is_running_and_ready(pod):
        return
    set_ref, pod_ref = has_owner_ref(claim, set_), has_owner_ref(claim, pod)
    if scaled == RETAIN and deleted == RETAIN:
        assert not set_ref and not pod_ref, f"claim {claim.metadata.name} has unexpected owner refs (retain)"
    elif scaled == RETAIN and deleted == DELETE:
        assert set_ref and not pod_ref, f"claim {claim.metadata.name} has bad owner refs for set deletion"
    elif scaled == DELETE and deleted == RETAIN:
        assert not set_ref, f"claim {claim.metadata.name} has unexpected owner ref on the set (scale down only)"
        assert pod_ref == (not pod_in_ordinal_range(pod, set_)), f"claim {claim.metadata.name} pod ref wrong"
    else:
        condemned = not pod_in_ordinal_range(pod, set_)
        assert pod_ref == condemned and set_ref == (not condemned), \
            f"claim {claim.metadata.name} has bad owner refs: {claim.metadata.owner_references}"


def _claim_or_none(om: FakeObjectManager, set_: V1StatefulSet, name: str) -> V1PersistentVolumeClaim | None:
    try:
        return om.claims_lister.persistent_volume_claims(set_.metadata.namespace).get(name)
    except errors.StatusError:
        return None


def _check_members(set_: V1StatefulSet, om: FakeObjectManager, pods: list[V1Pod], claims_must_exist: bool) -> None:
    for pod in pods:
        assert storage_matches(set_, pod), f"pod {pod.metadata.name} does not match the storage specification"
        for claim in get_persistent_volume_claims(set_, pod).values():
            found = _claim_or_none(om, set_, claim.metadata.name)
            if claims_must_exist:
                assert found is not None, f"claim {claim.metadata.name} not found"
            check_claim_invariants(set_, pod, found)
        assert identity_matches(set_, pod), f"pod {pod.metadata.name} does not match the identity specification"


def assert_monotonic_invariants(set_: V1StatefulSet, om: FakeObjectManager) -> None:
    """Upstream's assertMonotonicInvariants.

    Sorted by ordinal: a pod is Running and Ready only if its predecessor is;
    ordinals are contiguous from the start ordinal; storage, claims and
    identity match the set.
    """
    pods = sorted_pods(om.pods_of(set_))
    for idx, pod in enumerate(pods):
        if idx > 0:
            assert not (is_running_and_ready(pod) and not is_running_and_ready(pods[idx - 1])), \
                f"successor {pod.metadata.name} is Running and Ready while {pods[idx - 1].metadata.name} is not"
        ordinal = idx + get_start_ordinal(set_)
        assert get_ordinal(pod) == ordinal, f"pods {pod.metadata.name} deployed in the wrong order {ordinal}"
    _check_members(set_, om, pods, claims_must_exist=False)


def assert_burst_invariants(set_: V1StatefulSet, om: FakeObjectManager) -> None:
    """Upstream's assertBurstInvariants: storage, claims (which must exist) and identity only."""
    _check_members(set_, om, sorted_pods(om.pods_of(set_)), claims_must_exist=True)


def assert_update_invariants(set_: V1StatefulSet, om: FakeObjectManager) -> None:
    """Upstream's assertUpdateInvariants: burst's, plus revisions in order for RollingUpdate.

    The first status.currentReplicas pods are at the current revision, the
    last status.updatedReplicas at the update revision.
    """
    pods = sorted_pods(om.pods_of(set_))
    _check_members(set_, om, pods, claims_must_exist=True)
    strategy = set_.spec.update_strategy
    if strategy is None or strategy.type != ROLLING_UPDATE_STRATEGY:
        return
    status = set_.status
    for i in range(min(status.current_replicas or 0, len(pods))):
        assert get_pod_revision(pods[i]) == status.current_revision, \
            f"pod {pods[i].metadata.name} want current revision {status.current_revision}"
    for j in range(status.updated_replicas or 0):
        pod = pods[len(pods) - 1 - j]
        assert get_pod_revision(pod) == status.update_revision, \
            f"pod {pod.metadata.name} want update revision {status.update_revision}"


def empty_invariants(set_: V1StatefulSet, om: FakeObjectManager) -> None:
    pass


# --- drivers ---------------------------------------------------------------------------------------------


def scale_up_stateful_set_control(set_: V1StatefulSet, ssc: DefaultStatefulSetControl, om: FakeObjectManager,
                                  invariants: Invariants, rng: random.Random | None = None,
                                  max_rounds: int = 2000) -> V1StatefulSet:
    """Upstream's scaleUpStatefulSetControl: sync, moving one random pod a stage on each round, until all are ready.

    Returns the stored set. Raises what the control raises, or AssertionError.
    """
    rng = rng or random.Random(0)
    for _ in range(max_rounds):
        if (set_.status.ready_replicas or 0) >= set_.spec.replicas:
            break
        pods = sorted_pods(om.pods_of(set_))
        for pod in pods:
            if not (pod.status and pod.status.phase):
                pods = om.set_pod_pending(set_, get_ordinal(pod))
                break
        if pods:
            pod = pods[rng.randrange(len(pods))]
            phase = pod.status.phase if pod.status else None
            if phase == "Pending":
                pods = om.set_pod_running(set_, get_ordinal(pod))
            elif phase == "Running":
                pods = om.set_pod_ready(set_, get_ordinal(pod))
            else:
                continue
        ssc.update_stateful_set(set_, pods, NOW)
        set_ = get_set(om, set_)
        invariants(set_, om)
    else:
        raise AssertionError("scale up did not finish")
    invariants(set_, om)
    return set_


def scale_down_stateful_set_control(set_: V1StatefulSet, ssc: DefaultStatefulSetControl, om: FakeObjectManager,
                                    invariants: Invariants, max_rounds: int = 200) -> V1StatefulSet:
    """Upstream's scaleDownStatefulSetControl: sync until status.replicas reaches spec.replicas.

    Each round marks the highest pod terminating, syncs, then removes it (the
    kubelet's part); at the end, claims whose pod is gone and which that pod
    owned are deleted (the garbage collector's part).
    """
    for _ in range(max_rounds):
        if (set_.status.replicas or 0) <= set_.spec.replicas:
            break
        pods = sorted_pods(om.pods_of(set_))
        if pods:
            idx = len(pods) - 1
            ssc.update_stateful_set(set_, pods, NOW)
            set_ = get_set(om, set_)
            pods = om.add_terminating_pod(set_, get_ordinal(pods[idx]))
            ssc.update_stateful_set(set_, pods, NOW)
            set_ = get_set(om, set_)
            pods = sorted_pods(om.pods_of(set_))
            if pods:
                om.pods_indexer.delete(pods[-1])
        ssc.update_stateful_set(set_, pods, NOW)
        set_ = get_set(om, set_)
        invariants(set_, om)
    else:
        raise AssertionError("scale down did not finish")
    current = {p.metadata.name for p in om.pods_of(set_)}
    for claim in om.claims_lister.persistent_volume_claims(set_.metadata.namespace).list(
            label_selector_as_selector(set_.spec.selector)):
        pod_name = claim_pod_name(set_, claim)
        if pod_name and pod_name not in current and any(
                ref.name == pod_name for ref in claim.metadata.owner_references or []):
            om.claims_indexer.delete(claim)
    invariants(set_, om)
    return set_


def claim_pod_name(set_: V1StatefulSet, claim: V1PersistentVolumeClaim) -> str:
    """Upstream's getClaimPodName: `<set>-<n>` at the end of the claim's name, or ""."""
    import re

    m = re.fullmatch(rf".*-({re.escape(set_.metadata.name)}-[0-9]+)", claim.metadata.name or "")
    return m.group(1) if m else ""


def update_complete(set_: V1StatefulSet, pods: list[V1Pod]) -> bool:
    """Upstream's updateComplete: every pod ready and at the revision the strategy calls for."""
    pods = sorted_pods(pods)
    replicas = set_.spec.replicas
    if len(pods) != replicas or (set_.status.ready_replicas or 0) != replicas:
        return False
    strategy = set_.spec.update_strategy
    if strategy.type == ON_DELETE_STRATEGY:
        return True
    partition = strategy.rolling_update.partition if strategy.rolling_update else None
    if not partition or partition <= 0:
        if (set_.status.current_replicas or 0) < replicas:
            return False
        return all(get_pod_revision(p) == set_.status.current_revision for p in pods)
    if len(pods) < partition:
        return False
    return all(get_pod_revision(p) == set_.status.update_revision for p in pods[partition:])


def update_stateful_set_control(set_: V1StatefulSet, ssc: DefaultStatefulSetControl, om: FakeObjectManager,
                                invariants: Invariants, rng: random.Random | None = None,
                                max_rounds: int = 3000) -> V1StatefulSet:
    """Upstream's updateStatefulSetControl: sync and move pods along until the update is complete."""
    rng = rng or random.Random(0)
    ssc.update_stateful_set(set_, om.pods_of(set_), NOW)
    set_ = get_set(om, set_)
    pods = om.pods_of(set_)
    for _ in range(max_rounds):
        if update_complete(set_, pods):
            break
        pods = sorted_pods(om.pods_of(set_))
        for pod in pods:
            if not (pod.status and pod.status.phase):
                pods = om.set_pod_pending(set_, get_ordinal(pod))
                break
        if pods:
            pod = pods[rng.randrange(len(pods))]
            phase = pod.status.phase if pod.status else None
            if phase == "Pending":
                pods = om.set_pod_running(set_, get_ordinal(pod))
            elif phase == "Running":
                pods = om.set_pod_ready(set_, get_ordinal(pod))
            else:
                continue
        ssc.update_stateful_set(set_, pods, NOW)
        set_ = get_set(om, set_)
        invariants(set_, om)
        pods = om.pods_of(set_)
    else:
        raise AssertionError("update did not complete")
    invariants(set_, om)
    return set_
