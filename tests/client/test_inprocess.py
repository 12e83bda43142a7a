"""Tests for minikcm.client.inprocess: the transport's calls on the embedded APIServer, and the clientset."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import errors, watch
from minikcm.apimachinery.meta import (
    DRY_RUN_ALL,
    CreateOptions,
    DeleteOptions,
    ListOptions,
    PatchOptions,
    UpdateOptions,
)
from minikcm.apimachinery.types import MERGE_PATCH_TYPE
from minikcm.client.inprocess import InProcessClientset, InProcessTransport
from minikcm.client.testing import Fake

from .objects import new_pod


def test_answers_are_wire_dicts_and_bodies_are_left_alone(server):
    t = InProcessTransport(server)
    pod = new_pod("p")
    created = t.request("create", "pods", "default", "", "", pod, CreateOptions())
    assert isinstance(created, dict)
    assert (created["apiVersion"], created["kind"]) == ("v1", "Pod") and created["metadata"]["uid"]
    assert pod.api_version is None and pod.metadata.uid is None
    got = t.request("get", "pods", "default", "p", "", None, None)
    assert got["metadata"]["uid"] == created["metadata"]["uid"]


def test_every_verb_reaches_the_server(server):
    t = InProcessTransport(server)
    t.request("create", "pods", "default", "", "", new_pod("a", labels={"app": "x"}), CreateOptions())
    t.request("create", "pods", "default", "", "", new_pod("b"), CreateOptions())
    listed = t.request("list", "pods", "default", options=ListOptions(label_selector="app=x"))
    assert [i["metadata"]["name"] for i in listed["items"]] == ["a"]
    pod = t.request("get", "pods", "default", "b")
    pod["metadata"]["labels"] = {"v": "1"}
    assert t.request("update", "pods", "default", "b", "", pod, UpdateOptions())["metadata"]["labels"] == {"v": "1"}
    patched = t.request("patch", "pods", "default", "b", "", b'{"metadata":{"labels":{"v":"2"}}}',
                        PatchOptions(), patch_type=MERGE_PATCH_TYPE)
    assert patched["metadata"]["labels"] == {"v": "2"}
    t.request("delete", "pods", "default", "a", body=DeleteOptions(grace_period_seconds=0))
    t.request("delete-collection", "pods", "default", body=DeleteOptions(grace_period_seconds=0),
              options=ListOptions())
    assert t.request("list", "pods", "default", options=ListOptions())["items"] == []


def test_dry_run_writes_nothing(server):
    t = InProcessTransport(server)
    t.request("create", "pods", "default", "", "", new_pod("p"), CreateOptions(dry_run=[DRY_RUN_ALL]))
    with pytest.raises(errors.StatusError) as info:
        t.request("get", "pods", "default", "p")
    assert errors.is_not_found(info.value)


def test_unknown_verb_is_refused(server):
    with pytest.raises(ValueError, match="unknown verb"):
        InProcessTransport(server).request("proxy", "pods", "default")


def test_watch_events_carry_wire_dicts(server):
    t = InProcessTransport(server)
    w = t.watch("pods", "default", ListOptions(watch=True))
    t.request("create", "pods", "default", "", "", new_pod("p"), CreateOptions())
    event = w.result_chan().recv(timeout=0)
    assert event.type == watch.ADDED and isinstance(event.object, dict)
    w.stop()


def test_clientset_keeps_its_server_and_fake(server):
    fake = Fake()
    cs = InProcessClientset(server, fake=fake)
    assert cs.server is server and cs.fake is fake
    assert isinstance(cs.transport, InProcessTransport) and cs.transport.server is server
    assert InProcessClientset(server).fake is None
