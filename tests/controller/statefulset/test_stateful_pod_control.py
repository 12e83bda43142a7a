"""Tests for minikcm.controller.statefulset.stateful_pod_control.

Ports of pkg/controller/statefulset/stateful_pod_control_test.go. Upstream's
`&fake.Clientset{}` answers every call with nothing; `go_fake` builds the same
from our fake clientset (the given reactors first, then a catch-all), so no
call reaches the embedded API server. Claim and pod listers read plain
indexers the tests fill.
"""

from __future__ import annotations

from typing import Any

import pytest
from kubernetes.client import (
    V1ObjectMeta,
    V1OwnerReference,
    V1PersistentVolumeClaim,
    V1Pod,
    V1StatefulSetPersistentVolumeClaimRetentionPolicy,
)

from minikcm.apimachinery import errors
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.meta import new_controller_ref
from minikcm.apimachinery.schema import GroupResource
from minikcm.client.fake import new_simple_clientset
from minikcm.clock import EPOCH
from minikcm.controller.statefulset.stateful_pod_control import new_stateful_pod_control
from minikcm.controller.statefulset.stateful_set_utils import (
    CONTROLLER_KIND,
    DELETE,
    RETAIN,
    STATEFUL_SET_POD_NAME_LABEL,
    get_persistent_volume_claims,
    has_owner_ref,
    identity_matches,
    new_stateful_set_pod,
    storage_matches,
)
from minikcm.informers.listers import new_persistent_volume_claim_lister, new_pod_lister
from minikcm.tools.cache.index import NAMESPACE_INDEX, meta_namespace_index_func
from minikcm.tools.cache.store import meta_namespace_key_func, new_indexer
from minikcm.tools.record import new_fake_recorder
from tests.controller.statefulset.ss_testing import NoopRecorder, new_stateful_set

INTERNAL = errors.new_internal_error(RuntimeError("API server down"))


def go_fake(*reactors: tuple[str, str, Any]) -> Any:
    """Upstream's `&fake.Clientset{}` with AddReactor calls: the reactors, then "answer nothing"."""
    client = new_simple_clientset()
    for verb, resource, fn in reactors:
        client.fake.add_reactor(verb, resource, fn)
    client.fake.add_reactor("*", "*", lambda action: (True, None, None))
    return client


def indexer():
    return new_indexer(meta_namespace_key_func, {NAMESPACE_INDEX: meta_namespace_index_func})


def echo(action):
    return True, action.get_object(), None


def fail(err):
    return lambda action: (True, None, err)


def add_claims(idx, set_, pod, change=None):
    claims = get_persistent_volume_claims(set_, pod)
    for claim in claims.values():
        if change:
            change(claim)
        idx.add(claim)
    return claims


def control_for(client, claims_idx=None, pods_idx=None, recorder=None):
    return new_stateful_pod_control(client, new_pod_lister(pods_idx or indexer()),
                                    new_persistent_volume_claim_lister(claims_idx or indexer()),
                                    recorder or NoopRecorder())


def kinds(events: list[str]) -> list[str]:
    return [e.split(" ", 1)[0] for e in events]


# --- CreateStatefulPod ---------------------------------------------------------------------------------


def test_stateful_pod_control_creates_pods():
    """Port of TestStatefulPodControlCreatesPods: claim and pod created, two Normal events."""
    recorder, claims_idx = new_fake_recorder(10), indexer()
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 0)

    def create_claim(action):
        claims_idx.add(action.get_object())
        return True, action.get_object(), None

    client = go_fake(("create", "persistentvolumeclaims", create_claim), ("create", "pods", echo))
    control_for(client, claims_idx, recorder=recorder).create_stateful_pod(set_, pod)
    assert kinds(recorder.drain()) == ["Normal", "Normal"]


def test_stateful_pod_control_create_pod_exists():
    """Port of TestStatefulPodControlCreatePodExists: AlreadyExists is raised, without events."""
    recorder, claims_idx = new_fake_recorder(10), indexer()
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 0)
    add_claims(claims_idx, set_, pod)
    exists = errors.new_already_exists(GroupResource("", "pods"), pod.metadata.name)
    client = go_fake(("create", "persistentvolumeclaims", echo), ("create", "pods", fail(exists)))
    with pytest.raises(errors.StatusError) as info:
        control_for(client, claims_idx, recorder=recorder).create_stateful_pod(set_, pod)
    assert errors.is_already_exists(info.value)
    assert recorder.drain() == []


def test_stateful_pod_control_create_pod_pvc_create_failure():
    """Port of TestStatefulPodControlCreatePodPvcCreateFailure: two Warning events (claim, pod)."""
    recorder = new_fake_recorder(10)
    set_ = new_stateful_set(3)
    client = go_fake(("create", "persistentvolumeclaims", fail(INTERNAL)), ("create", "pods", echo))
    with pytest.raises(Exception):  # noqa: B017 - the claims' Aggregate
        control_for(client, recorder=recorder).create_stateful_pod(set_, new_stateful_set_pod(set_, 0))
    assert kinds(recorder.drain()) == ["Warning", "Warning"]


def test_stateful_pod_control_create_pod_pvc_deleting():
    """Port of TestStatefulPodControlCreatePodPVCDeleting: a claim being deleted blocks the pod."""
    recorder, claims_idx = new_fake_recorder(10), indexer()
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 0)

    def deleting(claim):
        claim.metadata.deletion_timestamp = EPOCH

    add_claims(claims_idx, set_, pod, deleting)
    client = go_fake(("create", "persistentvolumeclaims", echo), ("create", "pods", echo))
    with pytest.raises(Exception, match="is being deleted"):
        control_for(client, claims_idx, recorder=recorder).create_stateful_pod(set_, pod)
    assert kinds(recorder.drain()) == ["Warning"]


class FailingIndexer:
    """Upstream's fakeIndexer: every read by key fails."""

    def __init__(self, err: Exception) -> None:
        self.err = err

    def get_by_key(self, key: str):
        raise self.err


def test_stateful_pod_control_create_pod_pvc_get_failure():
    """Port of TestStatefulPodControlCreatePodPvcGetFailure: the read error is a Warning, then the pod's."""
    recorder = new_fake_recorder(10)
    set_ = new_stateful_set(3)
    client = go_fake(("create", "persistentvolumeclaims", fail(INTERNAL)), ("create", "pods", echo))
    control = new_stateful_pod_control(client, new_pod_lister(indexer()),
                                       new_persistent_volume_claim_lister(FailingIndexer(RuntimeError("down"))),
                                       recorder)
    with pytest.raises(Exception):  # noqa: B017 - the claims' Aggregate
        control.create_stateful_pod(set_, new_stateful_set_pod(set_, 0))
    assert kinds(recorder.drain()) == ["Warning", "Warning"]


def test_stateful_pod_control_create_pod_failed():
    """Port of TestStatefulPodControlCreatePodFailed: claim created (Normal), pod failed (Warning)."""
    recorder = new_fake_recorder(10)
    set_ = new_stateful_set(3)
    client = go_fake(("create", "persistentvolumeclaims", echo), ("create", "pods", fail(INTERNAL)))
    with pytest.raises(errors.StatusError):
        control_for(client, recorder=recorder).create_stateful_pod(set_, new_stateful_set_pod(set_, 0))
    assert kinds(recorder.drain()) == ["Normal", "Warning"]


# --- UpdateStatefulPod ---------------------------------------------------------------------------------


def test_stateful_pod_control_no_op_update():
    """Port of TestStatefulPodControlNoOpUpdate: a consistent pod makes no call and no event."""
    recorder, claims_idx = new_fake_recorder(10), indexer()
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 0)
    add_claims(claims_idx, set_, pod)
    calls: list[str] = []

    def no_calls(action):
        calls.append(action.get_verb())
        return True, None, INTERNAL

    control_for(go_fake(("*", "*", no_calls)), claims_idx, recorder=recorder).update_stateful_pod(set_, pod)
    assert calls == [] and recorder.drain() == []


def test_stateful_pod_control_updates_identity():
    """Port of TestStatefulPodControlUpdatesIdentity: a renamed pod is renamed back."""
    recorder = new_fake_recorder(10)
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 0)
    updated: list[V1Pod] = []

    def record_update(action):
        updated.append(action.get_object())
        return True, action.get_object(), None

    pod.metadata.name = "goo-0"
    control_for(go_fake(("update", "pods", record_update)), recorder=recorder).update_stateful_pod(set_, pod)
    assert kinds(recorder.drain()) == ["Normal"]
    assert identity_matches(set_, updated[0])


def test_stateful_pod_control_update_identity_failure():
    """Port of TestStatefulPodControlUpdateIdentityFailure: one Warning, and the re-read pod keeps its wrong name."""
    recorder, pods_idx = new_fake_recorder(10), indexer()
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 0)
    goo_pod = new_stateful_set_pod(set_, 0)
    goo_pod.metadata.name = "goo-0"
    pods_idx.add(goo_pod)
    pod.metadata.name = "goo-0"
    client = go_fake(("update", "pods", fail(INTERNAL)))
    with pytest.raises(errors.StatusError):
        control_for(client, pods_idx=pods_idx, recorder=recorder).update_stateful_pod(set_, deep_copy(pod))
    assert kinds(recorder.drain()) == ["Warning"]
    assert not identity_matches(set_, pod)


def _without_claim_volumes(set_, pod):
    claims = get_persistent_volume_claims(set_, pod)
    pod.spec.volumes = [v for v in pod.spec.volumes if v.name not in claims]


def test_stateful_pod_control_updates_pod_storage():
    """Port of TestStatefulPodControlUpdatesPodStorage: claims created and mounted, two Normal events."""
    recorder = new_fake_recorder(10)
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 0)
    _without_claim_volumes(set_, pod)
    updated: list[V1Pod] = []

    def record_update(action):
        updated.append(action.get_object())
        return True, action.get_object(), None

    client = go_fake(("update", "pods", record_update), ("create", "persistentvolumeclaims", echo))
    control_for(client, recorder=recorder).update_stateful_pod(set_, pod)
    assert kinds(recorder.drain()) == ["Normal", "Normal"]
    assert storage_matches(set_, updated[0])


def test_stateful_pod_control_update_pod_storage_failure():
    """Port of TestStatefulPodControlUpdatePodStorageFailure: claim create fails -> two Warnings, no pod update."""
    recorder = new_fake_recorder(10)
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 0)
    _without_claim_volumes(set_, pod)
    client = go_fake(("update", "pods", echo), ("create", "persistentvolumeclaims", fail(INTERNAL)))
    with pytest.raises(Exception):  # noqa: B017 - the claims' Aggregate
        control_for(client, recorder=recorder).update_stateful_pod(set_, pod)
    assert kinds(recorder.drain()) == ["Warning", "Warning"]


def test_stateful_pod_control_update_pod_conflict_success():
    """Port of TestStatefulPodControlUpdatePodConflictSuccess: a conflict is retried on the cache's copy."""
    recorder, pods_idx, claims_idx = new_fake_recorder(10), indexer(), indexer()
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 0)
    goo_pod = new_stateful_set_pod(set_, 0)
    goo_pod.metadata.labels[STATEFUL_SET_POD_NAME_LABEL] = "goo-starts"
    pods_idx.add(goo_pod)
    add_claims(claims_idx, set_, goo_pod)
    conflicted = [False]

    def conflict_once(action):
        if not conflicted[0]:
            conflicted[0] = True
            return True, None, errors.new_conflict(GroupResource("", "pods"), pod.metadata.name,
                                                   RuntimeError("conflict"))
        return True, action.get_object(), None

    pod.metadata.labels[STATEFUL_SET_POD_NAME_LABEL] = "goo-0"
    client = go_fake(("update", "pods", conflict_once))
    control_for(client, claims_idx, pods_idx, recorder).update_stateful_pod(set_, pod)
    assert kinds(recorder.drain()) == ["Normal"]
    assert identity_matches(set_, pod)


# --- DeleteStatefulPod -----------------------------------------------------------------------------------


@pytest.mark.parametrize("err, kind", [pytest.param(None, "Normal", id="TestStatefulPodControlDeletesStatefulPod"),
                                       pytest.param(INTERNAL, "Warning", id="TestStatefulPodControlDeleteFailure")])
def test_stateful_pod_control_delete(err, kind):
    """Ports of TestStatefulPodControlDeletesStatefulPod and TestStatefulPodControlDeleteFailure."""
    recorder = new_fake_recorder(10)
    set_ = new_stateful_set(3)
    control = control_for(go_fake(("delete", "pods", lambda a: (True, None, err))), recorder=recorder)
    if err is None:
        control.delete_stateful_pod(set_, new_stateful_set_pod(set_, 0))
    else:
        with pytest.raises(errors.StatusError):
            control.delete_stateful_pod(set_, new_stateful_set_pod(set_, 0))
    assert kinds(recorder.drain()) == [kind]


# --- retention policy ---------------------------------------------------------------------------------------


def _policy(scaled: str, deleted: str) -> V1StatefulSetPersistentVolumeClaimRetentionPolicy:
    return V1StatefulSetPersistentVolumeClaimRetentionPolicy(when_scaled=scaled, when_deleted=deleted)


def test_stateful_pod_control_claims_match_deletion_policy():
    """Port of TestStatefulPodControlClaimsMatchDeletionPolcy: the wiring to is_claim_owner_up_to_date."""
    claims_idx = indexer()
    set_ = new_stateful_set(3)
    pod = new_stateful_set_pod(set_, 0)
    add_claims(claims_idx, set_, pod)
    control = control_for(go_fake(), claims_idx)
    set_.spec.persistent_volume_claim_retention_policy = _policy(RETAIN, RETAIN)
    assert control.claims_match_retention_policy(set_, pod)
    set_.spec.persistent_volume_claim_retention_policy = _policy(RETAIN, DELETE)
    assert not control.claims_match_retention_policy(set_, pod)


def _store_updates(claims_idx):
    def update_claim(action):
        claims_idx.update(action.get_object())
        return True, action.get_object(), None

    return ("update", "persistentvolumeclaims", update_claim)


def test_stateful_pod_control_update_pod_claim_for_retention_policy():
    """Port of TestStatefulPodControlUpdatePodClaimForRetentionPolicy: whenDeleted=Delete adds the set's reference."""
    claims_idx = indexer()
    set_ = new_stateful_set(3)
    set_.metadata.uid = "set-123"
    pod = new_stateful_set_pod(set_, 0)
    claims = add_claims(claims_idx, set_, pod)
    control = control_for(go_fake(_store_updates(claims_idx)), claims_idx)
    set_.spec.persistent_volume_claim_retention_policy = _policy(RETAIN, DELETE)
    control.update_pod_claim_for_retention_policy(set_, pod)
    lister = new_persistent_volume_claim_lister(claims_idx)
    for claim in claims.values():
        assert has_owner_ref(lister.persistent_volume_claims(claim.metadata.namespace).get(claim.metadata.name), set_)


def test_update_pod_claim_for_retention_policy_warns_on_conflicting_controller():
    """1.32: a claim held by another controller gets a ConflictingController warning."""
    recorder, claims_idx = new_fake_recorder(10), indexer()
    set_ = new_stateful_set(3)
    set_.spec.persistent_volume_claim_retention_policy = _policy(RETAIN, DELETE)
    pod = new_stateful_set_pod(set_, 0)

    def foreign(claim):
        claim.metadata.owner_references = [V1OwnerReference(api_version="apps/v1", kind="ReplicaSet", name="x",
                                                            uid="x-1", controller=True)]

    add_claims(claims_idx, set_, pod, foreign)
    control_for(go_fake(_store_updates(claims_idx)), claims_idx, recorder=recorder) \
        .update_pod_claim_for_retention_policy(set_, pod)
    events = recorder.drain()
    assert len(events) == 1 and "ConflictingController" in events[0]


MISSING, EXISTS, STALE, WITH_REF = "missing", "exists", "stale", "with-ref"

STALE_CASES = [
    pytest.param([MISSING, MISSING], False, False, id="all missing"),
    pytest.param([], False, False, id="no claims"),
    pytest.param([MISSING, EXISTS], False, False, id="exists"),
    pytest.param([WITH_REF, WITH_REF], False, False, id="all refs"),
    pytest.param([STALE, EXISTS], False, True, id="stale & exists"),
    pytest.param([STALE, MISSING], False, True, id="stale & missing"),
    pytest.param([WITH_REF, STALE], False, True, id="withRef & stale"),
    pytest.param([WITH_REF], True, True, id="withRef, no UID"),
]


@pytest.mark.parametrize("states, skip_pod_uid, expected", STALE_CASES)
def test_pod_claim_is_stale(states, skip_pod_uid, expected):
    """Port of TestPodClaimIsStale (1.32: references match by kind, so they name a v1 Pod)."""
    set_ = new_stateful_set(1)
    set_.metadata.name = "set"
    set_.spec.persistent_volume_claim_retention_policy = _policy(DELETE, RETAIN)
    set_.spec.selector.match_labels = {"key": "value"}
    set_.spec.volume_claim_templates = []
    claims_idx = indexer()
    for i, state in enumerate(states):
        set_.spec.volume_claim_templates.append(V1PersistentVolumeClaim(metadata=V1ObjectMeta(name=f"claim-{i}")))
        claim = V1PersistentVolumeClaim(metadata=V1ObjectMeta(name=f"claim-{i}-set-3", namespace="default"))
        if state == MISSING:
            continue
        if state in (STALE, WITH_REF):
            claim.metadata.owner_references = [V1OwnerReference(
                api_version="v1", kind="Pod", name="set-3", uid="stale" if state == STALE else "123")]
        claims_idx.add(claim)
    pod = V1Pod(metadata=V1ObjectMeta(name="set-3", uid=None if skip_pod_uid else "123"))
    assert control_for(go_fake(), claims_idx).pod_claim_is_stale(set_, pod) is expected


def test_stateful_pod_control_retain_deletion_policy_update():
    """Port of TestStatefulPodControlRetainDeletionPolicyUpdate: a set reference is removed under Retain/Retain."""
    recorder, pods_idx, claims_idx = new_fake_recorder(10), indexer(), indexer()
    set_ = new_stateful_set(1)
    set_.spec.persistent_volume_claim_retention_policy = _policy(RETAIN, RETAIN)
    pod = new_stateful_set_pod(set_, 0)
    pods_idx.add(pod)

    def set_ref(claim):
        claim.metadata.owner_references = [new_controller_ref(set_, CONTROLLER_KIND)]

    claims = add_claims(claims_idx, set_, pod, set_ref)
    assert claims
    control_for(go_fake(_store_updates(claims_idx)), claims_idx, pods_idx, recorder).update_stateful_pod(set_, pod)
    lister = new_persistent_volume_claim_lister(claims_idx)
    for claim in claims.values():
        assert not has_owner_ref(lister.persistent_volume_claims("default").get(claim.metadata.name), set_)
    assert len(recorder.drain()) == 1


def test_stateful_pod_control_retention_policy_update():
    """Port of TestStatefulPodControlRetentionPolicyUpdate: whenDeleted=Delete adds the set's reference on update."""
    recorder, pods_idx, claims_idx = new_fake_recorder(10), indexer(), indexer()
    set_ = new_stateful_set(1)
    set_.spec.persistent_volume_claim_retention_policy = _policy(RETAIN, DELETE)
    pod = new_stateful_set_pod(set_, 0)
    pods_idx.add(pod)
    claims = add_claims(claims_idx, set_, pod)
    assert len(claims) == 1
    control_for(go_fake(_store_updates(claims_idx)), claims_idx, pods_idx, recorder).update_stateful_pod(set_, pod)
    claim = next(iter(claims.values()))
    assert has_owner_ref(new_persistent_volume_claim_lister(claims_idx).persistent_volume_claims("default").get(
        claim.metadata.name), set_)
    assert len(recorder.drain()) == 1


def test_stateful_pod_control_retention_policy_update_missing_claims():
    """Port of TestStatefulPodControlRetentionPolicyUpdateMissingClaims: missing claims are fine; later fixed."""
    recorder, pods_idx, claims_idx = new_fake_recorder(10), indexer(), indexer()
    set_ = new_stateful_set(1)
    set_.spec.persistent_volume_claim_retention_policy = _policy(RETAIN, DELETE)
    pod = new_stateful_set_pod(set_, 0)
    pods_idx.add(pod)
    control = control_for(go_fake(_store_updates(claims_idx)), claims_idx, pods_idx, recorder)
    control.update_stateful_pod(set_, pod)
    claims = add_claims(claims_idx, set_, pod)
    control.update_stateful_pod(set_, pod)
    claim = next(iter(claims.values()))
    assert has_owner_ref(new_persistent_volume_claim_lister(claims_idx).persistent_volume_claims("default").get(
        claim.metadata.name), set_)
    events = recorder.drain()
    assert len(events) == 1 and "SuccessfulUpdate" in events[0]
