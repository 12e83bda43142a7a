"""Tests for minikcm.client.testing.fixture: resourceCovers, the simple reactors, seeding the server."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import errors, watch
from minikcm.apimachinery.schema import GroupVersionResource
from minikcm.apiserver.server import APIServer
from minikcm.client.testing.actions import Action
from minikcm.client.testing.fixture import (
    SimpleReactor,
    SimpleWatchReactor,
    add_objects,
    default_watch_reactor,
    ensure_namespace,
    namespace_exists,
    resource_covers,
)

REPLICASETS = GroupVersionResource("apps", "v1", "replicasets")


RESOURCE_COVERS_CASES = [
    pytest.param("*", Action(), True, id="star-covers-anything"),
    pytest.param("serviceaccounts", Action(), False, id="resource-vs-empty-action"),
    pytest.param("serviceaccounts",
                 Action(resource=GroupVersionResource("", "", "serviceaccounts")), True,
                 id="same-resource"),
    pytest.param("serviceaccounts/token", Action(), False, id="subresource-vs-empty-action"),
    pytest.param("serviceaccounts/token",
                 Action(resource=GroupVersionResource("", "", "serviceaccounts")), False,
                 id="subresource-vs-main-resource"),
    pytest.param("serviceaccounts/token", Action(subresource="token"), False,
                 id="subresource-without-resource"),
    pytest.param("serviceaccounts/token",
                 Action(resource=GroupVersionResource("", "", "serviceaccounts"),
                        subresource="token"), True, id="resource-and-subresource"),
    pytest.param("serviceaccounts",
                 Action(resource=GroupVersionResource("", "", "serviceaccounts"),
                        subresource="token"), True, id="resource-covers-its-subresources"),
]


@pytest.mark.parametrize("resource, action, want", RESOURCE_COVERS_CASES)
def test_resource_covers(resource, action, want):
    """Port of Test_resourceCovers (testing/fixture_test.go); the last row is ours."""
    assert resource_covers(resource, action) is want


def test_simple_reactor_verb_is_exact():
    reactor = SimpleReactor("update", "replicasets", lambda a: (True, None, None))
    assert reactor.handles(Action(verb="update", resource=REPLICASETS, subresource="status"))
    assert not reactor.handles(Action(verb="get", resource=REPLICASETS))
    assert SimpleReactor("*", "*", lambda a: (True, None, None)).handles(Action())


def test_default_watch_reactor_and_simple_watch_reactor():
    w = watch.new_fake()
    reactor = SimpleWatchReactor("replicasets", default_watch_reactor(w, None))
    action = Action(verb="watch", resource=REPLICASETS)
    assert reactor.handles(action) and reactor.react(action) == (True, w, None)
    assert not reactor.handles(Action(verb="watch", resource=GroupVersionResource("", "v1", "pods")))


def test_add_objects_seeds_namespaces_first_and_keeps_existing_ones(fake_clock):
    server = APIServer(clock=fake_clock)
    add_objects(server, [
        {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
         "metadata": {"name": "lock", "namespace": "team-a"}},
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a", "labels": {"t": "a"}}},
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default"}},
    ])
    assert server.get("namespaces", None, "team-a")["metadata"]["labels"]["t"] == "a"
    assert server.get("leases", "team-a", "lock")["metadata"]["name"] == "lock"
    with pytest.raises(KeyError):
        add_objects(server, [object()])


def test_ensure_namespace(fake_clock):
    server = APIServer(clock=fake_clock)
    assert not namespace_exists(server, "team-b")
    ensure_namespace(server, "team-b")
    ensure_namespace(server, "team-b")  # twice is fine
    assert namespace_exists(server, "team-b")
    with pytest.raises(errors.StatusError):
        server.create("namespaces", None, {"metadata": {"name": "team-b"}})
