"""Tests for minikcm.controller.controller_ref_manager: ports of pkg/controller/controller_ref_manager_test.go."""

from __future__ import annotations

import json

import pytest
from kubernetes.client import (
    V1Container,
    V1ControllerRevision,
    V1LabelSelector,
    V1ObjectMeta,
    V1Pod,
    V1PodSpec,
    V1ReplicaSet,
    V1ReplicaSetSpec,
    V1ReplicationController,
)

from minikcm.apimachinery import errors, labels
from minikcm.apimachinery.field import Aggregate
from minikcm.apimachinery.meta import new_controller_ref
from minikcm.apimachinery.schema import GroupResource, GroupVersionKind
from minikcm.client.fake import new_simple_clientset
from minikcm.clock import EPOCH
from minikcm.controller import controller_ref_manager as crm
from minikcm.controller.controller_utils import FakePodControl, RealPodControl, RealRSControl

PRODUCTION_LABEL = {"type": "production"}
TEST_LABEL = {"type": "testing"}
PRODUCTION_SELECTOR = labels.Set(PRODUCTION_LABEL).as_selector()
CONTROLLER_UID = "123"
FAKE_GVK = GroupVersionKind("apps", "v1", "Fake")
NOW = EPOCH


def new_pod(name: str, label: dict[str, str], owner=None, namespace: str = "default") -> V1Pod:
    """Upstream's newPod: a pod, owned by `owner` when given (kind Fake)."""
    refs = [new_controller_ref(owner, FAKE_GVK)] if owner is not None else None
    return V1Pod(metadata=V1ObjectMeta(name=name, labels=dict(label), namespace=namespace, owner_references=refs),
                 spec=V1PodSpec(containers=[V1Container(name="c", image="foo/bar")]))


def controller(uid: str = CONTROLLER_UID, namespace: str = "default", deleting: bool = False):
    return V1ReplicationController(metadata=V1ObjectMeta(
        uid=uid, namespace=namespace, deletion_timestamp=NOW if deleting else None))


def deleting(pod: V1Pod) -> V1Pod:
    pod.metadata.deletion_timestamp = NOW
    return pod


RC = controller()
RC_NO_UID = controller(uid="")
RC_DELETING = controller(deleting=True)
RC_OTHER = controller(uid="AAAAA")
RC_CLUSTER_SCOPED = controller(namespace="")
DELETING_OWNED = deleting(new_pod("pod1", PRODUCTION_LABEL, RC))

CLAIM_PODS_CASES = [
    pytest.param(RC_NO_UID, (), [new_pod("pod1", PRODUCTION_LABEL), new_pod("pod2", TEST_LABEL)],
                 ["pod1"], 1, id="Claim pods with correct label"),
    pytest.param(RC_DELETING, (), [new_pod("pod1", PRODUCTION_LABEL), new_pod("pod2", PRODUCTION_LABEL)],
                 [], 0, id="Controller marked for deletion can not claim pods"),
    pytest.param(RC_DELETING, (), [new_pod("pod1", PRODUCTION_LABEL, RC_DELETING), new_pod("pod2", PRODUCTION_LABEL)],
                 ["pod1"], 0, id="Controller marked for deletion can not claim new pods"),
    pytest.param(RC, (), [new_pod("pod1", PRODUCTION_LABEL, RC), new_pod("pod2", PRODUCTION_LABEL, RC_OTHER)],
                 ["pod1"], 0, id="Controller can not claim pods owned by another controller"),
    pytest.param(RC, (), [new_pod("pod1", PRODUCTION_LABEL, RC), new_pod("pod2", TEST_LABEL, RC)],
                 ["pod1"], 1, id="Controller releases claimed pods when selector doesn't match"),
    pytest.param(RC, (), [DELETING_OWNED, deleting(new_pod("pod2", PRODUCTION_LABEL))],
                 ["pod1"], 0, id="Controller does not claim orphaned pods marked for deletion"),
    pytest.param(RC, ("foo-finalizer", "bar-finalizer"),
                 [new_pod("pod1", PRODUCTION_LABEL, RC), new_pod("pod2", TEST_LABEL, RC),
                  new_pod("pod3", PRODUCTION_LABEL)],
                 ["pod1", "pod3"], 2, id="Controller claims or release pods according to selector with finalizers"),
    pytest.param(RC, (), [new_pod("pod1", PRODUCTION_LABEL), new_pod("pod2", PRODUCTION_LABEL, namespace="fakens")],
                 ["pod1"], 1, id="Controller does not claim pods of different namespace"),
    pytest.param(RC_CLUSTER_SCOPED, (),
                 [new_pod("pod1", PRODUCTION_LABEL), new_pod("pod2", PRODUCTION_LABEL, namespace="fakens")],
                 ["pod1", "pod2"], 2, id="Cluster scoped controller claims pods of specified namespace"),
]


@pytest.mark.parametrize("owner, finalizers, pods, want_claimed, want_patches", CLAIM_PODS_CASES)
def test_claim_pods(owner, finalizers, pods, want_claimed, want_patches):
    """Port of TestClaimPods (controller_ref_manager_test.go)."""
    fake = FakePodControl()
    manager = crm.new_pod_controller_ref_manager(fake, owner, PRODUCTION_SELECTOR, GroupVersionKind("", "", ""),
                                                 lambda: None, *finalizers)
    claimed = manager.claim_pods(pods)
    assert [p.metadata.name for p in claimed] == want_claimed
    assert all(c is next(p for p in pods if p.metadata.name == c.metadata.name) for c in claimed)
    assert len(fake.patches) == want_patches
    for patch in fake.patches:
        assert (owner.metadata.uid or "").encode() in patch
        for f in finalizers:
            assert f.encode() in patch


def test_claim_pods_filters_run_after_the_selector():
    seen = []

    def only_pod3(pod):
        seen.append(pod.metadata.name)
        return pod.metadata.name == "pod3"

    fake = FakePodControl()
    manager = crm.new_pod_controller_ref_manager(fake, RC, PRODUCTION_SELECTOR, FAKE_GVK, None)
    pods = [new_pod("pod1", PRODUCTION_LABEL), new_pod("pod2", TEST_LABEL), new_pod("pod3", PRODUCTION_LABEL)]
    assert [p.metadata.name for p in manager.claim_pods(pods, only_pod3)] == ["pod3"]
    assert seen == ["pod1", "pod3"], "the filter never sees pods the selector rejects"


GENERATE_PATCH_BYTES_FOR_DELETE_CASES = [
    pytest.param(["ss1"], "ss2", [], b'{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1"}]}}',
                 id="check the structure of patch bytes"),
    pytest.param(['ss1"hello'], "ss2", [],
                 b'{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1\\"hello"}]}}',
                 id="check if parent uid is escaped"),
    pytest.param(["ss1"], 'ss2"hello', [],
                 b'{"metadata":{"uid":"ss2\\"hello","ownerReferences":[{"$patch":"delete","uid":"ss1"}]}}',
                 id="check if revision uid uid is escaped"),
    pytest.param(["ss1", "ss2"], "ss2", [],
                 b'{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1"},'
                 b'{"$patch":"delete","uid":"ss2"}]}}',
                 id="check the structure of patch bytes with multiple owners"),
    pytest.param(["ss1", "ss2"], "ss2", ["f1"],
                 b'{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"ss1"},'
                 b'{"$patch":"delete","uid":"ss2"}],"$deleteFromPrimitiveList/finalizers":["f1"]}}',
                 id="check the structure of patch bytes with a finalizer and multiple owners"),
    pytest.param([], "ss2", [], b'{"metadata":{"uid":"ss2","ownerReferences":null}}', id="no-owners-is-null"),
    pytest.param(["a<b&c>"], "ss2", [],
                 b'{"metadata":{"uid":"ss2","ownerReferences":[{"$patch":"delete","uid":"a\\u003cb\\u0026c\\u003e"}]}}',
                 id="html-characters-escaped-as-go-does"),
]


@pytest.mark.parametrize("owner_uids, dependent_uid, finalizers, want", GENERATE_PATCH_BYTES_FOR_DELETE_CASES)
def test_generate_patch_bytes_for_delete(owner_uids, dependent_uid, finalizers, want):
    """Port of TestGeneratePatchBytesForDelete (controller_ref_manager_test.go); the last two rows are ours."""
    assert crm.generate_delete_owner_ref_strategic_merge_bytes(dependent_uid, owner_uids, *finalizers) == want


OWNER_REF_PATCH_CASES = [
    pytest.param((), b'{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web",'
                 b'"uid":"u-rs","controller":true,"blockOwnerDeletion":true}],"uid":"u-pod"}}', id="no-finalizers"),
    pytest.param(("f1",), b'{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web",'
                 b'"uid":"u-rs","controller":true,"blockOwnerDeletion":true}],"uid":"u-pod","finalizers":["f1"]}}',
                 id="with-finalizers"),
]


@pytest.mark.parametrize("finalizers, want", OWNER_REF_PATCH_CASES)
def test_owner_ref_controller_patch(finalizers, want):
    rs = V1ReplicaSet(metadata=V1ObjectMeta(name="web", uid="u-rs"), spec=V1ReplicaSetSpec(selector=V1LabelSelector()))
    got = crm.owner_ref_controller_patch(rs, GroupVersionKind("apps", "v1", "ReplicaSet"), "u-pod", *finalizers)
    assert got == want


def test_can_adopt_runs_once_and_remembers_the_error():
    calls = []

    def can_adopt():
        calls.append(1)
        raise RuntimeError("owner is going away")

    fake = FakePodControl()
    manager = crm.new_pod_controller_ref_manager(fake, RC, PRODUCTION_SELECTOR, FAKE_GVK, can_adopt)
    with pytest.raises(Aggregate) as exc:
        manager.claim_pods([new_pod("pod1", PRODUCTION_LABEL), new_pod("pod2", PRODUCTION_LABEL),
                            new_pod("pod3", PRODUCTION_LABEL, RC)])
    assert len(exc.value.errors()) == 2
    assert "can't adopt Pod default/pod1" in str(exc.value.errors()[0])
    assert "owner is going away" in str(exc.value.errors()[0])
    assert calls == [1], "the check runs once per manager"
    assert fake.patches == []


RECHECK_CASES = [
    pytest.param(lambda: controller(), None, id="live-owner-may-adopt"),
    pytest.param(lambda: controller(deleting=True), "has just been deleted", id="deleted-owner-may-not"),
    pytest.param(lambda: (_ for _ in ()).throw(errors.new_not_found(GroupResource("", "pods"), "x")),
                 "can't recheck DeletionTimestamp", id="read-failure-blocks-adoption"),
]


@pytest.mark.parametrize("get_object, want_error", RECHECK_CASES)
def test_recheck_deletion_timestamp(get_object, want_error):
    check = crm.recheck_deletion_timestamp(get_object)
    if want_error is None:
        check()
        return
    with pytest.raises(RuntimeError, match=want_error) as exc:
        check()
    assert not errors.is_not_found(exc.value), "Go wraps with %v: the cause is not visible"


def test_claim_object_ignores_not_found_and_raises_other_errors():
    manager = crm.BaseControllerRefManager(RC, PRODUCTION_SELECTOR)
    orphan = new_pod("pod1", PRODUCTION_LABEL)
    owned_mismatch = new_pod("pod2", TEST_LABEL, RC)

    def gone(obj):
        raise errors.new_not_found(GroupResource("", "pods"), obj.metadata.name)

    def broken(obj):
        raise errors.new_bad_request("broken")

    match = lambda obj: PRODUCTION_SELECTOR.matches(labels.Set(obj.metadata.labels))  # noqa: E731
    assert manager.claim_object(orphan, match, gone, gone) is False
    assert manager.claim_object(owned_mismatch, match, gone, gone) is False
    with pytest.raises(errors.StatusError):
        manager.claim_object(orphan, match, broken, broken)
    with pytest.raises(errors.StatusError):
        manager.claim_object(owned_mismatch, match, broken, broken)


class FakeRecorder:
    def eventf(self, *args) -> None:
        pass


def test_adopt_and_release_through_the_api_server():
    """The patch bodies do what they claim on the embedded API server (ownerReferences merge by uid)."""
    cs = new_simple_clientset(new_pod("pod1", PRODUCTION_LABEL), new_pod("pod2", TEST_LABEL))
    rs = V1ReplicaSet(metadata=V1ObjectMeta(name="web", namespace="default", uid="u-rs"),
                      spec=V1ReplicaSetSpec(selector=V1LabelSelector()))
    rs_gvk = GroupVersionKind("apps", "v1", "ReplicaSet")
    written = []
    pod_control = RealPodControl(cs, FakeRecorder(), on_write=lambda pod, ref: written.append(pod.metadata.name))
    manager = crm.new_pod_controller_ref_manager(pod_control, rs, PRODUCTION_SELECTOR, rs_gvk, None)
    pods = cs.core_v1().pods("default").list().items
    assert [p.metadata.name for p in manager.claim_pods(pods)] == ["pod1"]
    adopted = cs.core_v1().pods("default").get("pod1")
    assert adopted.metadata.owner_references == [new_controller_ref(rs, rs_gvk)]

    adopted.metadata.labels = dict(TEST_LABEL)  # the labels no longer match: release
    adopted = cs.core_v1().pods("default").update(adopted)
    manager = crm.new_pod_controller_ref_manager(pod_control, rs, PRODUCTION_SELECTOR, rs_gvk, None)
    assert manager.claim_pods([adopted]) == []
    assert not cs.core_v1().pods("default").get("pod1").metadata.owner_references
    assert written == ["pod1", "pod1"]


def test_release_ignores_missing_pod():
    """Ours: releasing a pod that is gone tries its one patch, takes the NotFound as done, and writes nothing else."""
    client = new_simple_clientset()
    pod_control = RealPodControl(client, FakeRecorder())
    manager = crm.new_pod_controller_ref_manager(pod_control, RC, PRODUCTION_SELECTOR, FAKE_GVK, None)
    manager.release_pod(new_pod("gone", PRODUCTION_LABEL, RC))  # NotFound: no error
    assert [(a.get_verb(), a.get_resource().resource, a.name) for a in client.fake.actions()] == [
        ("patch", "pods", "gone")]
    assert client.core_v1().pods("default").list().items == []


def new_rs(name: str, label: dict[str, str], owner=None) -> V1ReplicaSet:
    refs = [new_controller_ref(owner, FAKE_GVK)] if owner is not None else None
    return V1ReplicaSet(metadata=V1ObjectMeta(name=name, namespace="default", labels=dict(label), uid=f"uid-{name}",
                                              owner_references=refs),
                        spec=V1ReplicaSetSpec(selector=V1LabelSelector(match_labels=dict(label))))


class RecordingRSControl:
    def __init__(self) -> None:
        self.patches: list[tuple[str, bytes]] = []

    def patch_replica_set(self, namespace: str, name: str, data: bytes) -> None:
        self.patches.append((name, data))

    def patch_controller_revision(self, namespace: str, name: str, data: bytes) -> None:
        self.patches.append((name, data))


def test_claim_replica_sets():
    control = RecordingRSControl()
    deployment = controller()
    manager = crm.new_replica_set_controller_ref_manager(control, deployment, PRODUCTION_SELECTOR,
                                                         GroupVersionKind("apps", "v1", "Deployment"), None)
    rss = [new_rs("orphan", PRODUCTION_LABEL), new_rs("mine", PRODUCTION_LABEL, deployment),
           new_rs("stale", TEST_LABEL, deployment), new_rs("theirs", PRODUCTION_LABEL, RC_OTHER)]
    assert [rs.metadata.name for rs in manager.claim_replica_sets(rss)] == ["orphan", "mine"]
    (adopt_name, adopt), (release_name, release) = control.patches
    assert (adopt_name, release_name) == ("orphan", "stale")
    assert json.loads(adopt)["metadata"]["ownerReferences"][0]["kind"] == "Deployment"
    assert json.loads(release) == {"metadata": {"uid": "uid-stale",
                                                "ownerReferences": [{"$patch": "delete", "uid": CONTROLLER_UID}]}}


def test_claim_controller_revisions():
    control = RecordingRSControl()
    manager = crm.new_controller_revision_controller_ref_manager(control, RC, PRODUCTION_SELECTOR,
                                                                 GroupVersionKind("apps", "v1", "StatefulSet"), None)
    revisions = [V1ControllerRevision(metadata=V1ObjectMeta(name="r1", namespace="default", uid="u1",
                                                            labels=dict(PRODUCTION_LABEL)), revision=1, data={})]
    assert manager.claim_controller_revisions(revisions) == revisions
    assert [name for name, _ in control.patches] == ["r1"]


def test_real_rs_control_patches_through_the_clientset():
    cs = new_simple_clientset()
    with pytest.raises(errors.StatusError) as exc:
        RealRSControl(cs).patch_replica_set("default", "missing", b"{}")
    assert errors.is_not_found(exc.value)
    assert [(a.verb, a.resource.resource) for a in cs.fake.actions()] == [("patch", "replicasets")]
