"""Tests for minikcm.client.testing.fake: the reactor chains, and the Fake in front of a transport."""

from __future__ import annotations

import json

import pytest
from kubernetes.client import (
    V1Container,
    V1Deployment,
    V1LabelSelector,
    V1ObjectMeta,
    V1Pod,
    V1PodList,
    V1PodSpec,
    V1PodTemplateSpec,
    V1ReplicaSet,
    V1ReplicaSetSpec,
)

from minikcm.apimachinery import errors, watch
from minikcm.apimachinery.meta import DeleteOptions, ListOptions
from minikcm.apimachinery.schema import GroupResource, GroupVersionResource
from minikcm.apimachinery.types import MERGE_PATCH_TYPE
from minikcm.client.fake import new_simple_clientset
from minikcm.client.testing import (
    CreateAction,
    Fake,
    PatchAction,
    ReactorTransport,
    default_watch_reactor,
    new_delete_action,
    new_get_action,
    new_update_subresource_action,
    new_watch_action,
)
from minikcm.client.testing.fake import filter_by_labels, new_action

PODS = GroupVersionResource("", "v1", "pods")
REPLICASETS = GroupVersionResource("apps", "v1", "replicasets")


def arbitrary_pod(name: str = "test_name", namespace: str = "test_namespace") -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(name=name, namespace=namespace, uid="test_uid"))


# --- reactor chain (fake.go) ------------------------------------------------------------


def new_rs(name: str, replicas: int = 1, namespace: str = "default") -> V1ReplicaSet:
    template = V1PodTemplateSpec(metadata=V1ObjectMeta(labels={"app": name}),
                                 spec=V1PodSpec(containers=[V1Container(name="c", image="nginx")]))
    return V1ReplicaSet(metadata=V1ObjectMeta(name=name, namespace=namespace),
                        spec=V1ReplicaSetSpec(replicas=replicas, template=template,
                                              selector=V1LabelSelector(match_labels={"app": name})))


def test_original_object_captured():
    """Port of TestOriginalObjectCaptured (testing/fake_test.go)."""
    def set_self_link(action):
        action.get_object().metadata.self_link = "some-value"
        return True, action.get_object(), None

    f = Fake()
    f.add_reactor("", "", set_self_link)  # "" matches the empty verb and resource of the action
    action = CreateAction(resource=GroupVersionResource("", "", ""), object=arbitrary_pod())

    ret = f.invokes(action, None)

    assert ret.metadata.self_link == "some-value"
    assert len(f.actions()) == 1
    assert f.actions()[0].get_object().metadata.self_link is None  # the record is untouched
    assert action.object.metadata.self_link is None  # so is the caller's object


def test_reactor_changes_persisted():
    """Port of TestReactorChangesPersisted (testing/fake_test.go)."""
    seen = []

    def first(action):
        action.get_object().metadata.self_link = "some-value"
        return False, action.get_object(), None

    def second(action):
        seen.append(action.get_object().metadata.self_link)
        return True, action.get_object(), None

    f = Fake()
    f.add_reactor("", "", first)
    f.add_reactor("", "", second)
    ret = f.invokes(CreateAction(object=arbitrary_pod()), None)

    assert seen == ["some-value"]  # a declining reactor's change reaches the next one
    assert ret.metadata.self_link == "some-value"
    assert f.actions()[0].get_object().metadata.self_link is None


def test_prepend_runs_before_add_and_first_handler_wins():
    calls = []

    def reactor(tag, handled):
        def react(action):
            calls.append(tag)
            return handled, tag, None
        return react

    f = Fake()
    f.add_reactor("get", "pods", reactor("added", True))
    f.prepend_reactor("get", "pods", reactor("declines", False))
    f.prepend_reactor("get", "pods", reactor("first", False))
    assert f.invokes(new_get_action(PODS, "ns", "p")) == "added"
    assert calls == ["first", "declines", "added"]


def test_unhandled_action_goes_to_default():
    f = Fake()
    f.add_reactor("get", "replicasets", lambda a: (True, "rs", None))
    got = f.invokes(new_get_action(PODS, "ns", "p"), lambda a: ("server", a.get_name()))
    assert got == ("server", "p")
    assert f.invokes(new_get_action(PODS, "ns", "p")) is None  # no default: None


def test_reactor_error_is_raised():
    conflict = errors.new_conflict(GroupResource("apps", "replicasets"), "rs", "stale")
    f = Fake()
    f.prepend_reactor("update", "replicasets", lambda a: (True, None, conflict))
    with pytest.raises(errors.StatusError) as info:
        f.invokes(new_update_subresource_action(REPLICASETS, "status", "ns", new_rs("rs")),
                  lambda a: pytest.fail("server called"))
    assert errors.is_conflict(info.value)


def test_declined_error_is_ignored():
    f = Fake()
    f.prepend_reactor("*", "*", lambda a: (False, None, RuntimeError("ignored")))
    assert f.invokes(new_get_action(PODS, "ns", "p"), lambda a: "ok") == "ok"


def test_watch_reactor_chain():
    w = watch.new_fake()
    f = Fake()
    f.prepend_watch_reactor("pods", default_watch_reactor(w, None))
    assert f.invokes_watch(new_watch_action(PODS, "ns")) is w
    other = new_watch_action(REPLICASETS, "ns")
    with pytest.raises(RuntimeError, match="unhandled watch"):
        f.invokes_watch(other)
    assert f.invokes_watch(other, lambda a: "server-watch") == "server-watch"
    assert [a.get_verb() for a in f.actions()] == ["watch", "watch", "watch"]


def test_watch_reactor_error_is_raised():
    f = Fake()
    f.add_watch_reactor("*", default_watch_reactor(None, errors.new_gone("too old")))
    with pytest.raises(errors.StatusError):
        f.invokes_watch(new_watch_action(PODS, ""))


def test_actions_and_clear_actions():
    f = Fake()
    f.invokes(new_get_action(PODS, "ns", "a"))
    f.invokes(new_delete_action(PODS, "ns", "b"))
    got = f.actions()
    got.clear()  # a copy: the record is unaffected
    assert [str(a) for a in f.actions()] == ["get pods ns/a", "delete pods ns/b"]
    f.clear_actions()
    assert f.actions() == []


# --- the Fake in front of a transport (ReactorTransport) ------------------------------------


def test_reactor_injects_conflict_on_replica_set_updates():
    cs = new_simple_clientset(new_rs("web"))
    conflict = errors.new_conflict(GroupResource("apps", "replicasets"), "web", "injected")
    cs.fake.prepend_reactor("update", "replicasets", lambda a: (True, None, conflict))
    client = cs.apps_v1().replica_sets("default")
    rs = client.get("web")
    rs.spec.replicas = 5
    with pytest.raises(errors.StatusError) as info:
        client.update(rs)
    assert errors.is_conflict(info.value)
    with pytest.raises(errors.StatusError):
        client.update_status(rs)  # "replicasets" covers the status subresource too
    assert client.get("web").spec.replicas == 1  # the server never saw the update
    assert [(a.get_verb(), a.get_subresource()) for a in cs.fake.actions()] == [
        ("get", ""), ("update", ""), ("update", "status"), ("get", "")]


def test_reactor_on_status_subresource_only():
    cs = new_simple_clientset(new_rs("web"))
    cs.fake.prepend_reactor("update", "replicasets/status",
                            lambda a: (True, None, RuntimeError("status write failed")))
    client = cs.apps_v1().replica_sets("default")
    rs = client.get("web")
    rs.spec.replicas = 3
    assert client.update(rs).spec.replicas == 3
    with pytest.raises(RuntimeError, match="status write failed"):
        client.update_status(client.get("web"))


def test_reactor_returning_object_short_circuits_server():
    cs = new_simple_clientset()
    cs.fake.prepend_reactor("create", "pods", lambda a: (True, a.get_object(), None))
    pod = V1Pod(metadata=V1ObjectMeta(name="p", namespace="default"),
                spec=V1PodSpec(containers=[V1Container(name="c", image="nginx")]))
    got = cs.core_v1().pods("default").create(pod)
    assert got.metadata.name == "p" and got.metadata.uid is None  # the server filled nothing
    assert cs.core_v1().pods("default").list().items == []


def test_list_reactor_result_is_filtered_by_labels():
    """The fake lister filters a reactor's answer by the label selector, as client-go's does."""
    pods = [V1Pod(metadata=V1ObjectMeta(name=n, namespace="default", labels={"app": n}))
            for n in ("a", "b")]
    cs = new_simple_clientset()
    cs.fake.add_reactor("list", "pods", lambda a: (True, V1PodList(items=pods), None))
    got = cs.core_v1().pods("default").list(ListOptions(label_selector="app=b"))
    assert [p.metadata.name for p in got.items] == ["b"]


def test_handled_without_object_gives_zero_value():
    cs = new_simple_clientset()
    cs.fake.prepend_reactor("get", "deployments", lambda a: (True, None, None))
    got = cs.apps_v1().deployments("default").get("missing")
    assert isinstance(got, V1Deployment) and got.metadata is None and got.spec is None


def test_watch_reactor_events_become_models():
    cs = new_simple_clientset()
    w = watch.new_fake()
    cs.fake.prepend_watch_reactor("deployments", default_watch_reactor(w, None))
    model_watch = cs.apps_v1().deployments("default").watch()
    w.add({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
           "spec": {"selector": {}, "template": {}}})
    event = model_watch.result_chan().recv(timeout=0)
    assert event.type == watch.ADDED and isinstance(event.object, V1Deployment)
    assert cs.fake.actions()[0].get_list_options().watch is True


def test_patch_action_records_bytes():
    cs = new_simple_clientset(new_rs("web"))
    client = cs.apps_v1().replica_sets("default")
    client.patch("web", MERGE_PATCH_TYPE, {"metadata": {"labels": {"x": "y"}}})
    action = cs.fake.actions()[-1]
    assert isinstance(action, PatchAction)
    assert json.loads(action.get_patch()) == {"metadata": {"labels": {"x": "y"}}}
    assert action.get_patch_type() == MERGE_PATCH_TYPE


class RecordingTransport:
    """An inner transport that records each request and answers with a canned wire dict."""

    def __init__(self, answer=None):
        self.calls = []
        self.answer = answer

    def request(self, verb, resource, namespace, name="", subresource="", body=None, options=None, *,
                patch_type=""):
        self.calls.append((verb, resource, namespace, name, subresource, body, options, patch_type))
        return self.answer

    def watch(self, resource, namespace, options):
        self.calls.append(("watch", resource, namespace, options))
        return "inner-watch"


NEW_ACTION_CASES = [
    #            verb                 name  subresource body                  action class / what it carries
    pytest.param("get", "p", "", None, "get pods ns/p", id="get"),
    pytest.param("list", "", "", None, "list pods ns", id="list"),
    pytest.param("create", "", "", arbitrary_pod("p", "ns"), "create pods ns/p", id="create"),
    pytest.param("create", "p", "binding", {"metadata": {"name": "p"}}, "create pods/binding ns/p",
                 id="create-binding"),
    pytest.param("update", "p", "status", arbitrary_pod("p", "ns"), "update pods/status ns/p",
                 id="update-status"),
    pytest.param("patch", "p", "", b"{}", "patch pods ns/p", id="patch"),
    pytest.param("delete", "p", "", DeleteOptions(), "delete pods ns/p", id="delete"),
    pytest.param("delete-collection", "", "", DeleteOptions(), "delete-collection pods ns",
                 id="delete-collection"),
]


@pytest.mark.parametrize("verb, name, subresource, body, summary", NEW_ACTION_CASES)
def test_new_action_is_what_the_fake_typed_clients_record(verb, name, subresource, body, summary):
    opts = ListOptions() if verb in ("list", "delete-collection") else object()
    action = new_action(verb, "pods", "ns", name, subresource, body, opts, MERGE_PATCH_TYPE)
    assert str(action) == summary
    assert action.get_resource() == PODS and action.get_verb() == verb


def test_reactor_transport_forwards_the_action_as_reactors_left_it():
    inner = RecordingTransport(answer={"kind": "Pod"})
    f = Fake()

    def move(action):
        action.namespace = "elsewhere"  # a declining reactor's change reaches the real call
        return False, None, None

    f.prepend_reactor("update", "pods", move)
    pod = arbitrary_pod("p", "ns")
    got = f.wrap(inner).request("update", "pods", "ns", "p", "status", pod, "opts")
    assert got == {"kind": "Pod"}
    assert inner.calls == [("update", "pods", "elsewhere", "p", "status", pod, "opts", "")]
    assert [str(a) for a in f.actions()] == ["update pods/status ns/p"]  # the record is as called


def test_reactor_transport_handled_call_never_reaches_inner():
    inner = RecordingTransport()
    f = Fake()
    f.prepend_reactor("patch", "pods", lambda a: (True, {"kind": "Pod"}, None))
    rt = f.wrap(inner)
    assert isinstance(rt, ReactorTransport)
    assert rt.request("patch", "pods", "ns", "p", "", b"{}", None, patch_type=MERGE_PATCH_TYPE) == {"kind": "Pod"}
    assert inner.calls == []
    assert rt.request("delete", "pods", "ns", "p", "", DeleteOptions()) is None
    assert inner.calls[0][:4] == ("delete", "pods", "ns", "p")


def test_reactor_transport_watch_goes_through_the_watch_chain():
    inner = RecordingTransport()
    f = Fake()
    opts = ListOptions(watch=True)
    assert f.wrap(inner).watch("pods", "ns", opts) == "inner-watch"
    assert inner.calls == [("watch", "pods", "ns", opts)]
    assert f.actions() == [new_watch_action(PODS, "ns", opts)]


def test_filter_by_labels_copies_wire_and_model_lists():
    from minikcm.apimachinery import labels

    selector = labels.parse("app=b")
    wire = {"kind": "PodList", "items": [{"metadata": {"name": "a", "labels": {"app": "a"}}},
                                         {"metadata": {"name": "b", "labels": {"app": "b"}}}]}
    assert [i["metadata"]["name"] for i in filter_by_labels(wire, selector)["items"]] == ["b"]
    assert len(wire["items"]) == 2  # the answer itself is not changed
    model = V1PodList(items=[V1Pod(metadata=V1ObjectMeta(name=n, labels={"app": n})) for n in "ab"])
    assert [p.metadata.name for p in filter_by_labels(model, selector).items] == ["b"]
    assert len(model.items) == 2
    assert filter_by_labels(None, selector) is None
