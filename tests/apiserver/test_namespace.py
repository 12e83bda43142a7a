"""Tests for minikcm.apiserver.namespace: finishing the deletion of Terminating namespaces."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import errors

from .builders import deployment, namespace, pod


def terminate(server, name="team"):
    server.create("namespaces", None, namespace(name))
    return name


def test_empty_namespace_is_removed(server):
    terminate(server)
    server.delete("namespaces", None, "team")
    assert server.namespaces.ready()
    server.namespaces.sync()
    with pytest.raises(errors.StatusError):
        server.get("namespaces", None, "team")
    assert server.namespaces.finished == ["team"]
    assert not server.namespaces.ready()


def test_content_is_deleted_first(server):
    terminate(server)
    server.create("deployments", "team", deployment(namespace="team"))
    server.create("pods", "team", pod(namespace="team"))
    server.delete("namespaces", None, "team")
    assert server.namespaces.sync() == 2
    assert server.list("deployments", "team")["items"] == []
    assert server.namespaces.finished == ["team"]


def test_waits_for_graceful_pods(server):
    terminate(server)
    server.create("pods", "team", pod(namespace="team", node="node-1"))
    server.delete("namespaces", None, "team")
    server.namespaces.sync()
    assert server.get("pods", "team", "p")["metadata"]["deletionTimestamp"]
    assert not server.namespaces.ready()  # nothing to do until the kubelet finishes
    server.delete("pods", "team", "p", grace_period_seconds=0)
    assert server.namespaces.ready()
    server.namespaces.sync()
    assert server.namespaces.finished == ["team"]


def test_active_namespaces_are_left_alone(server):
    terminate(server)
    server.create("pods", "team", pod(namespace="team"))
    assert not server.namespaces.ready()
    assert server.namespaces.sync() == 0
    assert server.get("pods", "team", "p")
