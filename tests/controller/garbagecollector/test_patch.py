"""Tests for minikcm.controller.garbagecollector.patch: ports of TestDeleteOwnerRefPatch and
TestUnblockOwnerReference (garbagecollector_test.go), plus the JSON merge patch fallback (ours)."""

from __future__ import annotations

import json

from minikcm.apimachinery import errors
from minikcm.apimachinery.schema import GroupResource
from minikcm.apimachinery.types import MERGE_PATCH_TYPE, STRATEGIC_MERGE_PATCH_TYPE
from minikcm.apiserver.patch import apply_strategic_merge_patch
from minikcm.controller.controller_ref_manager import generate_delete_owner_ref_strategic_merge_bytes
from minikcm.controller.garbagecollector.graph import Node
from minikcm.controller.garbagecollector.patch import unblock_owner_references_strategic_merge_patch

from .gc_testing import make_id, make_metadata_obj, new_test_gc, owner_reference


def ref(uid: str, block: bool | None = None) -> dict:
    """metav1.OwnerReference{UID: uid, BlockOwnerDeletion: block} as Go marshals it."""
    out: dict = {"apiVersion": "", "kind": "", "name": "", "uid": uid}
    if block is not None:
        out["blockOwnerDeletion"] = block
    return out


def test_delete_owner_ref_patch():
    """Port of TestDeleteOwnerRefPatch (garbagecollector_test.go)."""
    original = {"metadata": {"uid": "100", "ownerReferences": [ref("1"), ref("2"), ref("3")]}}
    p = generate_delete_owner_ref_strategic_merge_bytes("100", ["2", "3"])
    patched = apply_strategic_merge_patch(original, json.loads(p), "Pod")
    assert patched == {"metadata": {"uid": "100", "ownerReferences": [ref("1")]}}


def test_unblock_owner_reference():
    """Port of TestUnblockOwnerReference (garbagecollector_test.go)."""
    original = {"metadata": {"uid": "100", "ownerReferences": [ref("1", True), ref("2", False), ref("3")]}}
    n = Node(make_id("", "", "", "", "100"), [owner_reference("1", True), owner_reference("2", False),
                                              owner_reference("3")])
    patch = unblock_owner_references_strategic_merge_patch(n)
    patched = apply_strategic_merge_patch(original, json.loads(patch), "Pod")
    assert patched == {"metadata": {"uid": "100",
                                    "ownerReferences": [ref("1", False), ref("2", False), ref("3")]}}


def test_unblock_patch_without_blocking_references_leaves_references_alone():
    n = Node(make_id("", "", "", "", "100"), [owner_reference("3")])
    assert json.loads(unblock_owner_references_strategic_merge_patch(n)) == {"metadata": {"uid": "100"}}


RS = make_id("apps/v1", "ReplicaSet", "ns1", "rs", "rs-uid")
OTHER = make_id("apps/v1", "Deployment", "ns1", "d", "d-uid")
POD = make_id("v1", "Pod", "ns1", "pod", "pod-uid")


def test_patch_falls_back_to_json_merge_patch_on_unsupported_media_type():
    gc, client = new_test_gc(make_metadata_obj(POD, RS, OTHER))

    def refuse_strategic_merge(action):
        if action.get_patch_type() == STRATEGIC_MERGE_PATCH_TYPE:
            return True, None, errors.new_generic_server_response(415, "patch", GroupResource("", "pods"),
                                                                  "pod", "", 0, True)
        return False, None, None

    client.fake.prepend_reactor("patch", "pods", refuse_strategic_merge)
    node = gc.dependency_graph_builder.uid_to_node.read("pod-uid") or Node(POD)
    gc.patch(node, generate_delete_owner_ref_strategic_merge_bytes("pod-uid", ["rs-uid"]),
             lambda n: gc.delete_owner_ref_json_merge_patch(n, "rs-uid"))
    patch_types = [a.get_patch_type() for a in client.fake.actions() if a.get_verb() == "patch"]
    assert patch_types == [STRATEGIC_MERGE_PATCH_TYPE, MERGE_PATCH_TYPE]
    pod = client.core_v1().pods("ns1").get("pod")
    assert [r.uid for r in pod.metadata.owner_references] == ["d-uid"]


def test_json_merge_patch_removing_the_last_reference_sends_null():
    gc, client = new_test_gc(make_metadata_obj(POD, RS))
    body = json.loads(gc.delete_owner_ref_json_merge_patch(Node(POD), "rs-uid"))
    assert body["metadata"]["ownerReferences"] is None
    assert body["metadata"]["resourceVersion"] == client.core_v1().pods("ns1").get("pod").metadata.resource_version
