"""Tests for minikcm.controller.garbagecollector.graph (nodes and the uid index); cases are ours.

Upstream has no test of its own for graph.go; these pin the contracts the
collector relies on: blocking dependents, clone independence, identity order.
"""

from __future__ import annotations

import pytest
from kubernetes.client import V1OwnerReference

from minikcm.controller.garbagecollector.graph import (
    ConcurrentUIDToNode,
    Node,
    owner_reference_coordinates,
    owner_reference_matches_coordinates,
)

from .gc_testing import make_id, make_node, owner_reference, with_owners

OWNER = make_id("apps/v1", "ReplicaSet", "ns1", "rs", "rs-uid")


def dependent(name: str, block: bool | None) -> Node:
    n = Node(make_id("v1", "Pod", "ns1", name, f"{name}-uid"),
             [V1OwnerReference(api_version="apps/v1", kind="ReplicaSet", name="rs", uid="rs-uid",
                               block_owner_deletion=block)])
    return n


BLOCKING_CASES = [
    pytest.param(True, True, id="block-owner-deletion-true-blocks"),
    pytest.param(False, False, id="block-owner-deletion-false-does-not-block"),
    pytest.param(None, False, id="unset-does-not-block"),
]


@pytest.mark.parametrize("block, want_blocking", BLOCKING_CASES)
def test_blocking_dependents(block, want_blocking):
    owner = Node(OWNER)
    dep = dependent("p", block)
    owner.add_dependent(dep)
    assert (owner.blocking_dependents() == [dep]) is want_blocking


def test_blocking_dependents_ignores_references_to_other_owners():
    owner = Node(OWNER)
    dep = Node(make_id("v1", "Pod", "ns1", "p", "p-uid"), [owner_reference("other-uid", True)])
    owner.add_dependent(dep)
    assert owner.blocking_dependents() == []


def test_get_dependents_is_sorted_by_identity():
    owner = Node(OWNER)
    for name in ("c", "a", "b"):
        owner.add_dependent(dependent(name, True))
    assert [d.identity.name for d in owner.get_dependents()] == ["a", "b", "c"]


def test_clone_has_its_own_dependents_and_owners():
    owner = make_node(OWNER, with_owners(make_id("apps/v1", "Deployment", "ns1", "d", "d-uid")))
    owner.add_dependent(dependent("a", True))
    c = owner.clone()
    c.add_dependent(dependent("b", True))
    c.owners.append(owner_reference("x"))
    assert owner.dependents_length() == 1 and c.dependents_length() == 2
    assert len(owner.owners) == 1


def test_replace_dependent_if_it_exists():
    owner = Node(OWNER)
    old, new, stranger = dependent("a", True), dependent("a", True), dependent("z", True)
    owner.add_dependent(old)
    owner.replace_dependent_if_it_exists(old, new)
    owner.replace_dependent_if_it_exists(stranger, dependent("y", True))  # not there: nothing happens
    assert list(owner.dependents) == [new]


def test_object_reference_string():
    assert str(OWNER) == "[apps/v1/ReplicaSet, namespace: ns1, name: rs, uid: rs-uid]"


def test_owner_reference_coordinates_drop_the_flags():
    ref = V1OwnerReference(api_version="v1", kind="Pod", name="p", uid="u", controller=True, block_owner_deletion=True)
    coords = owner_reference_coordinates(ref)
    assert coords.controller is None and coords.block_owner_deletion is None
    assert owner_reference_matches_coordinates(ref, coords)
    assert not owner_reference_matches_coordinates(ref, make_id("v1", "Pod", "", "other", "u"))


def test_concurrent_uid_to_node():
    index = ConcurrentUIDToNode()
    n = Node(OWNER)
    index.write(n)
    assert index.read("rs-uid") is n
    index.delete("rs-uid")
    assert index.read("rs-uid") is None
