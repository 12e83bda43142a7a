"""Tests for minikcm.client.testing.actions: matching, constructors and restrictions."""

from __future__ import annotations

import pytest
from kubernetes.client import V1ObjectMeta, V1Pod

from minikcm.apimachinery.meta import ListOptions
from minikcm.apimachinery.schema import GroupVersionKind, GroupVersionResource
from minikcm.apimachinery.types import MERGE_PATCH_TYPE
from minikcm.client.testing.actions import (
    Action,
    CreateAction,
    GetAction,
    ListAction,
    UpdateAction,
    WatchAction,
    extract_from_list_options,
    new_create_action,
    new_get_action,
    new_list_action,
    new_patch_subresource_action,
    new_update_subresource_action,
    new_watch_action,
)

PODS = GroupVersionResource("", "v1", "pods")
REPLICASETS = GroupVersionResource("apps", "v1", "replicasets")


def arbitrary_pod(name: str = "test_name", namespace: str = "test_namespace") -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(name=name, namespace=namespace, uid="test_uid"))


MATCHES_CASES = [
    pytest.param("update", "replicasets", "update", "", True, id="verb-and-resource"),
    pytest.param("UPDATE", "ReplicaSets", "update", "", True, id="case-insensitive"),
    pytest.param("update", "replicasets", "update", "status", True, id="plain-resource-any-subresource"),
    pytest.param("update", "replicasets/status", "update", "status", True, id="subresource-matches"),
    pytest.param("update", "replicasets/status", "update", "", False, id="subresource-required"),
    pytest.param("update", "replicasets/scale", "update", "status", False, id="other-subresource"),
    pytest.param("get", "replicasets", "update", "", False, id="other-verb"),
    pytest.param("update", "pods", "update", "", False, id="other-resource"),
]


@pytest.mark.parametrize("verb, resource, action_verb, action_sub, want", MATCHES_CASES)
def test_action_matches(verb, resource, action_verb, action_sub, want):
    action = Action(verb=action_verb, resource=REPLICASETS, subresource=action_sub)
    assert action.matches(verb, resource) is want


def test_constructors_build_comparable_actions():
    pod = arbitrary_pod("p", "ns")
    assert new_create_action(PODS, "ns", pod) == CreateAction(
        verb="create", resource=PODS, namespace="ns", object=pod)
    assert new_get_action(PODS, "ns", "p") == GetAction(
        verb="get", resource=PODS, namespace="ns", name="p")
    assert new_update_subresource_action(PODS, "status", "ns", pod).get_subresource() == "status"
    assert isinstance(new_update_subresource_action(PODS, "status", "ns", pod), UpdateAction)
    patch = new_patch_subresource_action(REPLICASETS, "ns", "rs", MERGE_PATCH_TYPE, b"{}",
                                         "status", "x")
    assert (patch.get_subresource(), patch.get_name(), patch.get_patch()) == ("status/x", "rs", b"{}")
    assert str(patch) == "patch replicasets/status/x ns/rs"
    assert str(new_create_action(PODS, "ns", pod)) == "create pods ns/p"


def test_list_and_watch_restrictions():
    opts = ListOptions(label_selector="app=web,tier!=db", field_selector="metadata.name=x",
                       resource_version="7")
    listing = new_list_action(PODS, GroupVersionKind("", "v1", "Pod"), "ns", opts)
    assert isinstance(listing, ListAction)
    restrictions = listing.get_list_restrictions()
    assert restrictions.labels.matches({"app": "web"})
    assert not restrictions.labels.matches({"app": "web", "tier": "db"})
    assert restrictions.fields.matches({"metadata.name": "x"})
    w = new_watch_action(PODS, "ns", opts)
    assert isinstance(w, WatchAction)
    assert w.get_watch_restrictions().resource_version == "7"


def test_extract_from_list_options_rejects_bad_selector():
    with pytest.raises(ValueError):
        extract_from_list_options(ListOptions(label_selector="a in (b"))
