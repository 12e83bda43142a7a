"""Tests for minikcm.controller.statefulset.stateful_set_utils.

Ports of pkg/controller/statefulset/stateful_set_utils_test.go. The claim
ownership tests follow the 1.32 helpers (isClaimOwnerUpToDate,
updateClaimOwnerRefForSetAndPod writing controller references), so their
tables use controller references where the 1.29 tests used plain ones.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from kubernetes.client import (
    V1ControllerRevision,
    V1EnvVar,
    V1ObjectMeta,
    V1OwnerReference,
    V1PersistentVolumeClaim,
    V1Pod,
    V1StatefulSetOrdinals,
    V1StatefulSetPersistentVolumeClaimRetentionPolicy,
    V1StatefulSetStatus,
)

from minikcm.apimachinery.convert import deep_copy, to_wire
from minikcm.apimachinery.meta import get_controller_of, new_controller_ref
from minikcm.clock import EPOCH
from minikcm.controller.history import controller_history as history
from minikcm.controller.statefulset.stateful_set_utils import (
    CONTROLLER_KIND,
    DELETE,
    POD_INDEX_LABEL,
    POD_KIND,
    RETAIN,
    STATEFUL_SET_POD_NAME_LABEL,
    AscendingOrdinal,
    OverlappingStatefulSets,
    add_controller_ref,
    apply_revision,
    complete_rolling_update,
    get_end_ordinal,
    get_parent_name_and_ordinal,
    get_patch,
    get_persistent_volume_claim_retention_policy,
    get_persistent_volume_claims,
    get_start_ordinal,
    get_stateful_set_max_unavailable,
    has_non_controller_owner,
    has_owner_ref,
    has_stale_owner_ref,
    has_unexpected_controller,
    identity_matches,
    inconsistent_status,
    is_claim_owner_up_to_date,
    is_member_of,
    is_running_and_ready,
    is_unavailable,
    matches_ref,
    new_revision,
    new_stateful_set_pod,
    new_versioned_stateful_set_pod,
    next_revision,
    pod_in_ordinal_range,
    sort_pods_by,
    storage_matches,
    update_claim_owner_ref_for_set_and_pod,
    update_identity,
    update_storage,
)
from tests.controller.statefulset.ss_testing import (
    NOW,
    claim_pod_name,
    new_pod,
    new_pvc,
    new_stateful_set,
)


def test_get_parent_name_and_ordinal():
    """Port of TestGetParentNameAndOrdinal."""
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 1)
    assert get_parent_name_and_ordinal(pod) == ("foo", 1)
    pod.metadata.name = "1-bar"
    assert get_parent_name_and_ordinal(pod) == ("", -1)


CLAIM_POD_NAME_CASES = [
    pytest.param("volume-my-set-2", "my-set-2", id="short"),
    pytest.param("long-volume-my-set-20", "my-set-20", id="long"),
    pytest.param("volume-2-my-set", "", id="ordinal-in-the-middle"),
    pytest.param("volume-pod-2", "", id="other-set"),
]


@pytest.mark.parametrize("claim_name, want", CLAIM_POD_NAME_CASES)
def test_get_claim_pod_name(claim_name, want):
    """Port of TestGetClaimPodName (the test helper getClaimPodName)."""
    set_ = new_stateful_set(1)
    set_.metadata.name = "my-set"
    assert claim_pod_name(set_, V1PersistentVolumeClaim(metadata=V1ObjectMeta(name=claim_name))) == want


def test_is_member_of():
    """Port of TestIsMemberOf."""
    set_, set2 = new_stateful_set(3), new_stateful_set(3)
    set2.metadata.name = "foo2"
    pod = new_stateful_set_pod(set_, 1)
    assert is_member_of(set_, pod)
    assert not is_member_of(set2, pod)


def _wrong_name(pod):
    pod.metadata.name = "foo"


def _wrong_namespace(pod):
    pod.metadata.namespace = ""


def _no_pod_name_label(pod):
    del pod.metadata.labels[STATEFUL_SET_POD_NAME_LABEL]


IDENTITY_CASES = [
    pytest.param(None, True, id="new pod"),
    pytest.param(_wrong_name, False, id="wrong name"),
    pytest.param(_wrong_namespace, False, id="wrong namespace"),
    pytest.param(_no_pod_name_label, False, id="wrong statefulSetPodNameLabel"),
]


@pytest.mark.parametrize("mutate, want", IDENTITY_CASES)
def test_identity_matches(mutate, want):
    """Port of TestIdentityMatches."""
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 1)
    if mutate:
        mutate(pod)
    assert identity_matches(set_, pod) is want


def _no_volumes(pod):
    pod.spec.volumes = None


def _no_claims(pod):
    for v in pod.spec.volumes:
        v.persistent_volume_claim = None


def _wrong_claim_name(pod):
    for v in pod.spec.volumes:
        if v.persistent_volume_claim is not None:
            v.persistent_volume_claim.claim_name = "foo"


def _bad_ordinal(pod):
    pod.metadata.name = "bar"


STORAGE_CASES = [
    pytest.param(None, True, id="new pod"),
    pytest.param(_no_volumes, False, id="invalid volumes"),
    pytest.param(_no_claims, False, id="volumes without claims"),
    pytest.param(_wrong_claim_name, False, id="wrong claim names"),
    pytest.param(_bad_ordinal, False, id="invalid ordinal"),
]


@pytest.mark.parametrize("mutate, want", STORAGE_CASES)
def test_storage_matches(mutate, want):
    """Port of TestStorageMatches."""
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 1)
    if mutate:
        mutate(pod)
    assert storage_matches(set_, pod) is want


@pytest.mark.parametrize("mutate", [pytest.param(_wrong_namespace, id="namespace"),
                                    pytest.param(_no_pod_name_label, id="statefulSetPodName label")])
def test_update_identity(mutate):
    """Port of TestUpdateIdentity."""
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 1)
    mutate(pod)
    assert not identity_matches(set_, pod)
    update_identity(set_, pod)
    assert identity_matches(set_, pod)
    assert pod.metadata.labels[POD_INDEX_LABEL] == "1"


@pytest.mark.parametrize("mutate", [pytest.param(_no_volumes, id="volumes"), pytest.param(_no_claims, id="claims"),
                                    pytest.param(_wrong_claim_name, id="claim names")])
def test_update_storage(mutate):
    """Port of TestUpdateStorage."""
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 1)
    mutate(pod)
    assert not storage_matches(set_, pod)
    update_storage(set_, pod)
    assert storage_matches(set_, pod)
    assert any(v.name == "home" for v in pod.spec.volumes) or mutate is _no_volumes


def test_get_persistent_volume_claim_retention_policy():
    """Port of TestGetPersistentVolumeClaimRetentionPolicy (plus: no policy means Retain/Retain)."""
    set_ = new_stateful_set(1)
    got = get_persistent_volume_claim_retention_policy(set_)
    assert (got.when_scaled, got.when_deleted) == (RETAIN, RETAIN)
    set_.spec.persistent_volume_claim_retention_policy = V1StatefulSetPersistentVolumeClaimRetentionPolicy(
        when_scaled=DELETE, when_deleted=RETAIN)
    got = get_persistent_volume_claim_retention_policy(set_)
    assert (got.when_scaled, got.when_deleted) == (DELETE, RETAIN)
    set_.spec.persistent_volume_claim_retention_policy = None
    got = get_persistent_volume_claim_retention_policy(set_)
    assert (got.when_scaled, got.when_deleted) == (RETAIN, RETAIN)


# --- claim ownership ---------------------------------------------------------------------------------


def _ownership_world(scaled: str, deleted: str, replicas: int, pod_name: str):
    set_ = new_stateful_set(replicas)
    set_.metadata.name, set_.metadata.uid = "stateful-set", "ss-456"
    set_.spec.persistent_volume_claim_retention_policy = V1StatefulSetPersistentVolumeClaimRetentionPolicy(
        when_scaled=scaled, when_deleted=deleted)
    pod = V1Pod(metadata=V1ObjectMeta(name=pod_name, uid="pod-123"))
    claim = V1PersistentVolumeClaim(metadata=V1ObjectMeta(name="target-claim"))
    return set_, pod, claim


OWNER_MATCH_CASES = [
    #            whenScaled whenDeleted needsPodRef needsSetRef replicas ordinal
    pytest.param(RETAIN, RETAIN, False, False, 0, 0, id="retain"),
    pytest.param(RETAIN, DELETE, False, True, 0, 0, id="on SS delete"),
    pytest.param(DELETE, RETAIN, True, False, 2, 2, id="on scaledown only, condemned"),
    pytest.param(DELETE, RETAIN, False, False, 2, 1, id="on scaledown only, remains"),
    pytest.param(DELETE, DELETE, True, False, 2, 2, id="on both, condemned"),
    pytest.param(DELETE, DELETE, False, True, 2, 1, id="on both, remains"),
]


@pytest.mark.parametrize("use_other_refs", [False, True], ids=["no-others", "with-others"])
@pytest.mark.parametrize("scaled, deleted, needs_pod_ref, needs_set_ref, replicas, ordinal", OWNER_MATCH_CASES)
def test_is_claim_owner_up_to_date(scaled, deleted, needs_pod_ref, needs_set_ref, replicas, ordinal, use_other_refs):
    """Port of TestClaimOwnerMatchesSetAndPod (1.32: TestIsClaimOwnerUpToDate), over every combination of refs."""
    for set_pod_ref in (False, True):
        for set_set_ref in (False, True):
            set_, pod, claim = _ownership_world(scaled, deleted, replicas, f"pod-{ordinal}")
            refs = []
            if set_pod_ref:
                refs.append(new_controller_ref(pod, POD_KIND))
            if set_set_ref:
                refs.append(new_controller_ref(set_, CONTROLLER_KIND))
            if use_other_refs:
                refs += [V1OwnerReference(api_version="v1", kind="Pod", name=f"rand{i}", uid=f"rand{i}-abc")
                         for i in (1, 2)]
            claim.metadata.owner_references = refs or None
            should_match = set_pod_ref == needs_pod_ref and set_set_ref == needs_set_ref
            # Two controllers at once (pod and set) is never a wanted state.
            assert is_claim_owner_up_to_date(claim, set_, pod) is should_match, (set_pod_ref, set_set_ref)


UPDATE_OWNER_CASES = [
    #            whenScaled whenDeleted condemned needsPodRef needsSetRef
    pytest.param(RETAIN, RETAIN, False, False, False, id="retain"),
    pytest.param(RETAIN, DELETE, False, False, True, id="delete with set"),
    pytest.param(DELETE, RETAIN, False, False, False, id="delete with scaledown, not condemned"),
    pytest.param(DELETE, RETAIN, True, True, False, id="delete on scaledown, condemned"),
    pytest.param(DELETE, DELETE, False, False, True, id="delete on both, not condemned"),
    pytest.param(DELETE, DELETE, True, True, False, id="delete on both, condemned"),
]


@pytest.mark.parametrize("scaled, deleted, condemned, needs_pod_ref, needs_set_ref", UPDATE_OWNER_CASES)
def test_update_claim_owner_ref_for_set_and_pod(scaled, deleted, condemned, needs_pod_ref, needs_set_ref):
    """Port of TestUpdateClaimOwnerRefForSetAndPod: the wanted refs result, as controller references."""
    for has_pod_ref in (True, False):
        for has_set_ref in (True, False):
            set_, pod, claim = _ownership_world(scaled, deleted, 5, "pod-8" if condemned else "pod-1")
            set_.metadata.uid = "ss-123"
            refs = []
            if has_pod_ref:
                refs.append(new_controller_ref(pod, POD_KIND))
            if has_set_ref:
                refs.append(new_controller_ref(set_, CONTROLLER_KIND))
            claim.metadata.owner_references = refs or None
            update_claim_owner_ref_for_set_and_pod(claim, set_, pod)
            assert has_owner_ref(claim, pod) is needs_pod_ref
            assert has_owner_ref(claim, set_) is needs_set_ref
            assert all(r.controller for r in claim.metadata.owner_references or [])
            assert is_claim_owner_up_to_date(claim, set_, pod)


def test_update_claim_owner_ref_leaves_unexpected_controller():
    """A foreign controller keeps the claim: our references are scrubbed, none added."""
    set_, pod, claim = _ownership_world(DELETE, DELETE, 2, "pod-1")
    foreign = V1OwnerReference(api_version="apps/v1", kind="ReplicaSet", name="x", uid="x-1", controller=True)
    claim.metadata.owner_references = [foreign, new_controller_ref(set_, CONTROLLER_KIND)]
    assert has_unexpected_controller(claim, set_, pod)
    assert not is_claim_owner_up_to_date(claim, set_, pod)  # our ref must go
    update_claim_owner_ref_for_set_and_pod(claim, set_, pod)
    assert [r.uid for r in claim.metadata.owner_references] == ["x-1"]
    assert is_claim_owner_up_to_date(claim, set_, pod)


def test_has_owner_ref():
    """Port of TestHasOwnerRef."""
    target = V1Pod(metadata=V1ObjectMeta(owner_references=[
        V1OwnerReference(api_version="v1", kind="Pod", name="a", uid="123"),
        V1OwnerReference(api_version="v1", kind="Pod", name="b", uid="456")]))
    assert has_owner_ref(target, V1Pod(metadata=V1ObjectMeta(uid="123")))
    assert not has_owner_ref(target, V1Pod(metadata=V1ObjectMeta(uid="789")))


STALE_CASES = [
    pytest.param("bob", "123", False, id="same name and uid"),
    pytest.param("shirley", "789", True, id="same name, other uid"),
    pytest.param("yvonne", "345", False, id="not referenced"),
]


@pytest.mark.parametrize("name, uid, stale", STALE_CASES)
def test_has_stale_owner_ref(name, uid, stale):
    """Port of TestHasStaleOwnerRef (1.32: refs match by apiVersion, kind and name)."""
    target = V1PersistentVolumeClaim(metadata=V1ObjectMeta(owner_references=[
        V1OwnerReference(api_version="v1", kind="Pod", name="bob", uid="123"),
        V1OwnerReference(api_version="v1", kind="Pod", name="shirley", uid="456")]))
    assert has_stale_owner_ref(target, V1Pod(metadata=V1ObjectMeta(name=name, uid=uid)), POD_KIND) is stale


MATCHES_REF_CASES = [
    pytest.param("apps/v1", "StatefulSet", "foo", CONTROLLER_KIND, True, id="set matches"),
    pytest.param("apps/v1", "StatefulSet", "bar", CONTROLLER_KIND, False, id="other name"),
    pytest.param("v1", "StatefulSet", "foo", CONTROLLER_KIND, False, id="other group version"),
    pytest.param("v1", "Pod", "foo", POD_KIND, True, id="pod matches"),
    pytest.param("v1", "Pod", "foo", CONTROLLER_KIND, False, id="other kind"),
]


@pytest.mark.parametrize("api_version, kind, name, gvk, want", MATCHES_REF_CASES)
def test_matches_ref(api_version, kind, name, gvk, want):
    """Port of TestMatchesRef (1.32)."""
    ref = V1OwnerReference(api_version=api_version, kind=kind, name=name, uid="any")
    assert matches_ref(ref, V1Pod(metadata=V1ObjectMeta(name="foo", uid="other")), gvk) is want


UNEXPECTED_CONTROLLER_CASES = [
    pytest.param((RETAIN, RETAIN), [("ReplicaSet", "rs", "rs-1", True)], False, id="retain ignores controllers"),
    pytest.param((DELETE, DELETE), [("ReplicaSet", "rs", "rs-1", True)], True, id="foreign controller"),
    pytest.param((DELETE, DELETE), [("ReplicaSet", "rs", "rs-1", False)], False, id="foreign non-controller"),
    pytest.param((DELETE, DELETE), [("StatefulSet", "foo", "test", True)], False, id="the set itself"),
    pytest.param((DELETE, DELETE), [("StatefulSet", "foo", "old-uid", True)], True, id="stale set uid"),
    pytest.param((DELETE, RETAIN), [("Pod", "foo-1", "pod-uid", True)], False, id="the pod itself"),
    pytest.param((DELETE, RETAIN), [("Pod", "foo-1", "old", False)], True, id="stale pod uid"),
]


@pytest.mark.parametrize("policy, refs, want", UNEXPECTED_CONTROLLER_CASES)
def test_has_unexpected_controller(policy, refs, want):
    """Port of TestHasUnexpectedController (1.32)."""
    set_ = new_stateful_set(3)
    set_.spec.persistent_volume_claim_retention_policy = V1StatefulSetPersistentVolumeClaimRetentionPolicy(
        when_scaled=policy[0], when_deleted=policy[1])
    pod = new_stateful_set_pod(set_, 1)
    pod.metadata.uid = "pod-uid"
    versions = {"ReplicaSet": "apps/v1", "StatefulSet": "apps/v1", "Pod": "v1"}
    claim = V1PersistentVolumeClaim(metadata=V1ObjectMeta(owner_references=[
        V1OwnerReference(api_version=versions[k], kind=k, name=n, uid=u, controller=c) for k, n, u, c in refs]))
    assert has_unexpected_controller(claim, set_, pod) is want


def test_has_non_controller_owner():
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 1)
    pod.metadata.uid = "pod-uid"
    claim = V1PersistentVolumeClaim(metadata=V1ObjectMeta(owner_references=[
        V1OwnerReference(api_version="apps/v1", kind="StatefulSet", name="foo", uid="test")]))
    assert has_non_controller_owner(claim, set_, pod)
    claim.metadata.owner_references[0].controller = True
    assert not has_non_controller_owner(claim, set_, pod)


def test_add_controller_ref_is_idempotent():
    set_ = new_stateful_set(1)
    refs = add_controller_ref([], set_, CONTROLLER_KIND)
    assert add_controller_ref(refs, set_, CONTROLLER_KIND) is refs and refs[0].controller


# --- pods ------------------------------------------------------------------------------------------


def test_is_running_and_ready():
    """Port of TestIsRunningAndReady."""
    from kubernetes.client import V1PodCondition, V1PodStatus

    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 1)
    assert not is_running_and_ready(pod)
    pod.status = V1PodStatus(phase="Running")
    assert not is_running_and_ready(pod)
    pod.status.conditions = [V1PodCondition(type="Ready", status="True")]
    assert is_running_and_ready(pod)
    assert not is_unavailable(pod, 0, NOW)
    pod.metadata.deletion_timestamp = NOW
    assert is_unavailable(pod, 0, NOW)


def test_ascending_ordinal():
    """Port of TestAscendingOrdinal."""
    set_ = new_stateful_set(10)
    perm = list(range(10))
    random.Random(5).shuffle(perm)
    pods = [new_stateful_set_pod(set_, v) for v in perm]
    sort_pods_by(AscendingOrdinal(pods))
    assert [p.metadata.name for p in pods] == [f"foo-{i}" for i in range(10)]


def test_overlapping_stateful_sets():
    """Port of TestOverlappingStatefulSets: by creation time, then by name."""
    perm = list(range(10))
    random.Random(6).shuffle(perm)
    sets = []
    for v in perm:
        s = new_stateful_set(10)
        s.metadata.creation_timestamp = EPOCH + timedelta(seconds=v)
        s.metadata.name = f"s{v}"
        sets.append(s)
    sort_pods_by(OverlappingStatefulSets(sets))
    assert [s.metadata.name for s in sets] == [f"s{i}" for i in range(10)]
    for s, v in zip(sets, perm, strict=True):
        s.metadata.creation_timestamp = EPOCH
        s.metadata.name = str(v)
    sort_pods_by(OverlappingStatefulSets(sets))
    assert [s.metadata.name for s in sets] == [str(i) for i in range(10)]


def test_new_pod_controller_ref():
    """Port of TestNewPodControllerRef."""
    set_ = new_stateful_set(1)
    ref = get_controller_of(new_stateful_set_pod(set_, 0))
    assert ref is not None
    assert (ref.api_version, ref.kind, ref.name, ref.uid, ref.controller) == ("apps/v1", "StatefulSet", "foo",
                                                                              "test", True)


def test_create_apply_revision():
    """Port of TestCreateApplyRevision: applying a revision restores its template; annotations come from the set."""
    set_ = new_stateful_set(1)
    set_.status.collision_count = 0
    revision = new_revision(set_, 1, 0)
    set_.spec.template.spec.containers[0].name = "foo"
    set_.metadata.annotations = {"foo": "bar"}
    restored_set = apply_revision(set_, revision)
    restored_revision = new_revision(restored_set, 2, restored_set.status.collision_count)
    assert history.equal_revision(revision, restored_revision)
    assert restored_revision.metadata.annotations["foo"] == "bar"


def test_rolling_update_apply_revision():
    """Port of TestRollingUpdateApplyRevision: each revision restores its own template exactly."""
    set_ = new_stateful_set(1)
    set_.status.collision_count = 0
    current_set = deep_copy(set_)
    current_revision = new_revision(set_, 1, 0)
    set_.spec.template.spec.containers[0].env = [V1EnvVar(name="foo", value="bar")]
    update_set = deep_copy(set_)
    update_revision = new_revision(set_, 2, 0)
    assert apply_revision(set_, current_revision).spec.template == current_set.spec.template
    assert apply_revision(set_, update_revision).spec.template == update_set.spec.template


def test_get_persistent_volume_claims():
    """Port of TestGetPersistentVolumeClaims: claim labels are the template's plus the set selector's (set wins)."""
    pod = new_pod()
    set_ = new_stateful_set(1)

    def claim(label_map):
        pvc = new_pvc("datadir-foo-0")
        pvc.metadata.labels = label_map
        return {"datadir": pvc}

    set_.spec.selector.match_labels = None
    assert get_persistent_volume_claims(set_, pod) == claim({})
    set_.spec.selector.match_labels = {"test": "test"}
    assert get_persistent_volume_claims(set_, pod) == claim({"test": "test"})
    set_.spec.selector.match_labels = {"name": "foo"}
    set_.spec.volume_claim_templates[0].metadata.labels = {"test": "test"}
    assert get_persistent_volume_claims(set_, pod) == claim({"test": "test", "name": "foo"})
    set_.spec.selector.match_labels = {"test": "foo"}
    assert get_persistent_volume_claims(set_, pod) == claim({"test": "foo"})


MAX_UNAVAILABLE_CASES = [
    pytest.param(None, 10, 1, id="unset"),
    pytest.param(3, 10, 3, id="3 of 10"),
    pytest.param(3, 0, 3, id="3 of 0"),
    pytest.param(0, 0, 1, id="0 of 0"),
    pytest.param("10%", 25, 2, id="10% of 25"),
    pytest.param("100%", 5, 5, id="100% of 5"),
    pytest.param("50%", 5, 2, id="50% of 5"),
    pytest.param("10%", 5, 1, id="10% of 5"),
    pytest.param("1%", 0, 1, id="1% of 0"),
    pytest.param("0%", 0, 1, id="0% of 0"),
]


@pytest.mark.parametrize("max_unavailable, replicas, want", MAX_UNAVAILABLE_CASES)
def test_get_stateful_set_max_unavailable(max_unavailable, replicas, want):
    """Port of TestGetStatefulSetMaxUnavailable."""
    assert get_stateful_set_max_unavailable(max_unavailable, replicas) == want


START_ORDINAL_CASES = [
    pytest.param(None, 3, 0, 2, id="no ordinals"),
    pytest.param(2, 3, 2, 4, id="start 2"),
    pytest.param(5, 0, 5, 4, id="no replicas"),
]


@pytest.mark.parametrize("start, replicas, want_start, want_end", START_ORDINAL_CASES)
def test_get_start_and_end_ordinal(start, replicas, want_start, want_end):
    """Ports of TestGetStartOrdinal and TestGetEndOrdinal."""
    set_ = new_stateful_set(replicas)
    if start is not None:
        set_.spec.ordinals = V1StatefulSetOrdinals(start=start)
    assert (get_start_ordinal(set_), get_end_ordinal(set_)) == (want_start, want_end)
    inside = new_stateful_set_pod(set_, want_start)
    assert pod_in_ordinal_range(inside, set_) is (replicas > 0)
    assert not pod_in_ordinal_range(new_stateful_set_pod(set_, want_end + 1), set_)


VERSIONED_POD_CASES = [
    pytest.param(None, 2, 0, 1, "current", id="no partition: below currentReplicas"),
    pytest.param(None, 2, 0, 2, "update", id="no partition: at currentReplicas"),
    pytest.param(2, 0, 0, 1, "current", id="below the partition"),
    pytest.param(2, 0, 0, 2, "update", id="at the partition"),
    pytest.param(2, 0, 3, 4, "current", id="partition counts from the start ordinal"),
]


@pytest.mark.parametrize("partition, current_replicas, start, ordinal, want", VERSIONED_POD_CASES)
def test_new_versioned_stateful_set_pod(partition, current_replicas, start, ordinal, want):
    from kubernetes.client import V1RollingUpdateStatefulSetStrategy

    set_ = new_stateful_set(5)
    set_.status.current_replicas = current_replicas
    if partition is not None:
        set_.spec.update_strategy.rolling_update = V1RollingUpdateStatefulSetStrategy(partition=partition)
    if start:
        set_.spec.ordinals = V1StatefulSetOrdinals(start=start)
    pod = new_versioned_stateful_set_pod(set_, set_, "current", "update", ordinal)
    assert pod.metadata.labels["controller-revision-hash"] == want


def test_next_revision():
    assert next_revision([]) == 1
    assert next_revision([V1ControllerRevision(revision=1, data={}), V1ControllerRevision(revision=7, data={})]) == 8


def test_inconsistent_status_and_complete_rolling_update():
    set_ = new_stateful_set(3)
    set_.status = V1StatefulSetStatus(replicas=3, ready_replicas=3, updated_replicas=3, current_replicas=1,
                                      current_revision="a", update_revision="b", observed_generation=1)
    status = deep_copy(set_.status)
    assert not inconsistent_status(set_, status)
    complete_rolling_update(set_, status)
    assert (status.current_revision, status.current_replicas) == ("b", 3)
    assert inconsistent_status(set_, status)


def test_get_patch_matches_go_encoding():
    """The revision data of a defaulted template carries the fields Go always writes (resources: {})."""
    set_ = new_stateful_set(1)
    patch = get_patch(set_)
    template = patch["spec"]["template"]
    assert template["$patch"] == "replace"
    assert template["spec"]["containers"][0]["resources"] == {}
    assert template["metadata"]["labels"] == {"foo": "bar"}
    assert to_wire(set_.spec.template)["spec"]["containers"][0].get("resources") is None  # the set is untouched
