"""Tests for minikcm.tools.cache.listwatch.

Upstream's listwatch_test.go only tests ToListWatcherWithWatchListSemantics,
which is not ported (watch-list streaming is not); these tests are ours: the
ListWatch contract and the ListWatch built over a typed client.
"""

from __future__ import annotations

import queue

import pytest
from kubernetes.client import V1ObjectMeta, V1Pod

from minikcm.apimachinery import fields, watch
from minikcm.apimachinery.meta import ListOptions
from minikcm.client.fake import new_simple_clientset
from minikcm.tools.cache.listwatch import (
    Lister,
    ListerWatcher,
    ListWatch,
    Watcher,
    new_filtered_list_watch_from_client,
    new_list_watch_from_client,
)


def pod(name: str, node: str = "") -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"},
            "spec": {"nodeName": node or None, "containers": [{"name": "c", "image": "nginx"}]}}


def test_list_watch_calls_its_functions():
    seen = []
    w = watch.FakeWatcher()

    def list_func(options):
        seen.append(("list", options.resource_version))
        return "a list"

    def watch_func(options):
        seen.append(("watch", options.resource_version))
        return w

    lw = ListWatch(list_func=list_func, watch_func=watch_func)
    assert isinstance(lw, ListerWatcher) and isinstance(lw, Lister) and isinstance(lw, Watcher)
    assert lw.list(ListOptions(resource_version="0")) == "a list"
    assert lw.watch(ListOptions(resource_version="7")) is w
    assert seen == [("list", "0"), ("watch", "7")]


@pytest.mark.parametrize("method", ["list", "watch"], ids=["list-unset", "watch-unset"])
def test_list_watch_without_function_raises(method):
    with pytest.raises(RuntimeError):
        getattr(ListWatch(), method)(ListOptions())


def test_new_list_watch_from_client_sets_field_selector_and_watch_flag(fake_clock):
    cs = new_simple_clientset(pod("on-node", node="node-1"), pod("elsewhere", node="node-2"), clock=fake_clock)
    lw = new_list_watch_from_client(cs.core_v1().pods("default"),
                                    fields.one_term_equal_selector("spec.nodeName", "node-1"))
    caller_options = ListOptions(resource_version="0")
    result = lw.list(caller_options)
    assert [p.metadata.name for p in result.items] == ["on-node"]
    lw.watch(ListOptions(resource_version=result.metadata.resource_version)).stop()

    list_action, watch_action = [a for a in cs.fake.actions() if a.verb in ("list", "watch")]
    assert list_action.list_options.field_selector == "spec.nodeName=node-1"
    assert watch_action.list_options.field_selector == "spec.nodeName=node-1"
    assert watch_action.list_options.watch is True
    assert caller_options == ListOptions(resource_version="0"), "the caller's options must not change"


def test_new_filtered_list_watch_from_client_watches_with_modifier(fake_clock):
    cs = new_simple_clientset(clock=fake_clock)

    def only_labelled(options: ListOptions) -> None:
        options.label_selector = "app=web"

    lw = new_filtered_list_watch_from_client(cs.core_v1().pods("default"), only_labelled)
    start = lw.list(ListOptions()).metadata.resource_version
    w = lw.watch(ListOptions(resource_version=start))
    cs.core_v1().pods("default").create(V1Pod(metadata=V1ObjectMeta(name="other"), spec=pod("x")["spec"]))
    web = pod("web")
    web["metadata"]["labels"] = {"app": "web"}
    cs.core_v1().pods("default").create(web)
    event = w.result_chan().recv(timeout=0)
    assert (event.type, event.object.metadata.name) == (watch.ADDED, "web")
    with pytest.raises(queue.Empty):
        w.result_chan().recv(timeout=0)
    w.stop()
