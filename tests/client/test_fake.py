"""Tests for minikcm.client.fake: actions, reactor chains, and the simple fake clientset."""

from __future__ import annotations

import json

import pytest
from kubernetes.client import (
    V1Deployment,
    V1DeploymentSpec,
    V1LabelSelector,
    V1ObjectMeta,
    V1Pod,
    V1PodList,
    V1PodSpec,
    V1Container,
    V1PodTemplateSpec,
    V1ReplicaSet,
    V1ReplicaSetSpec,
    V1ReplicaSetStatus,
)

from minikcm.apimachinery import errors, watch
from minikcm.apimachinery.meta import ListOptions
from minikcm.apimachinery.schema import GroupResource, GroupVersionKind, GroupVersionResource
from minikcm.apimachinery.types import MERGE_PATCH_TYPE
from minikcm.client import fake
from minikcm.client.fake import (
    Action,
    CreateAction,
    Fake,
    GetAction,
    ListAction,
    UpdateAction,
    WatchAction,
    new_create_action,
    new_delete_action,
    new_get_action,
    new_list_action,
    new_patch_subresource_action,
    new_update_subresource_action,
    new_watch_action,
    resource_covers,
)

PODS = GroupVersionResource("", "v1", "pods")
REPLICASETS = GroupVersionResource("apps", "v1", "replicasets")
TEST_RESOURCE = GroupVersionResource("", "test_version", "test_kind")


def arbitrary_pod(name: str = "test_name", namespace: str = "test_namespace") -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(name=name, namespace=namespace, uid="test_uid"))


# --- reactor chain (fake.go) ------------------------------------------------------------


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
    f.prepend_watch_reactor("pods", fake.default_watch_reactor(w, None))
    assert f.invokes_watch(new_watch_action(PODS, "ns")) is w
    other = new_watch_action(REPLICASETS, "ns")
    with pytest.raises(RuntimeError, match="unhandled watch"):
        f.invokes_watch(other)
    assert f.invokes_watch(other, lambda a: "server-watch") == "server-watch"
    assert [a.get_verb() for a in f.actions()] == ["watch", "watch", "watch"]


def test_watch_reactor_error_is_raised():
    f = Fake()
    f.add_watch_reactor("*", fake.default_watch_reactor(None, errors.new_gone("too old")))
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


# --- resourceCovers and Matches (fixture.go, actions.go) ------------------------------------

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


def test_simple_reactor_verb_is_exact():
    reactor = fake.SimpleReactor("update", "replicasets", lambda a: (True, None, None))
    assert reactor.handles(Action(verb="update", resource=REPLICASETS, subresource="status"))
    assert not reactor.handles(Action(verb="get", resource=REPLICASETS))
    assert fake.SimpleReactor("*", "*", lambda a: (True, None, None)).handles(Action())


# --- action constructors and restrictions --------------------------------------------------


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
        fake.extract_from_list_options(ListOptions(label_selector="a in (b"))


# --- the simple fake clientset (kubernetes/fake/clientset_generated.go) ---------------------


def new_rs(name: str, replicas: int = 1, namespace: str = "default") -> V1ReplicaSet:
    template = V1PodTemplateSpec(metadata=V1ObjectMeta(labels={"app": name}),
                                 spec=V1PodSpec(containers=[V1Container(name="c", image="nginx")]))
    return V1ReplicaSet(metadata=V1ObjectMeta(name=name, namespace=namespace),
                        spec=V1ReplicaSetSpec(replicas=replicas, template=template,
                                              selector=V1LabelSelector(match_labels={"app": name})))


def test_new_simple_clientset_seeds_objects_without_actions():
    rs = new_rs("web", 2, namespace="team-a")  # a namespace that does not exist yet
    rs.status = V1ReplicaSetStatus(replicas=2, ready_replicas=1)
    cs = fake.new_simple_clientset(rs)
    got = cs.apps_v1().replica_sets("team-a").get("web")
    assert isinstance(got, V1ReplicaSet)
    assert got.spec.replicas == 2
    assert got.status.ready_replicas == 1  # seeded status is kept, as the tracker keeps it
    assert got.metadata.resource_version
    assert [str(a) for a in cs.fake.actions()] == ["get replicasets team-a/web"]


def test_reactor_injects_conflict_on_replica_set_updates():
    cs = fake.new_simple_clientset(new_rs("web"))
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
    cs = fake.new_simple_clientset(new_rs("web"))
    cs.fake.prepend_reactor("update", "replicasets/status",
                            lambda a: (True, None, RuntimeError("status write failed")))
    client = cs.apps_v1().replica_sets("default")
    rs = client.get("web")
    rs.spec.replicas = 3
    assert client.update(rs).spec.replicas == 3
    with pytest.raises(RuntimeError, match="status write failed"):
        client.update_status(client.get("web"))


def test_reactor_returning_object_short_circuits_server():
    cs = fake.new_simple_clientset()
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
    cs = fake.new_simple_clientset()
    cs.fake.add_reactor("list", "pods", lambda a: (True, V1PodList(items=pods), None))
    got = cs.core_v1().pods("default").list(ListOptions(label_selector="app=b"))
    assert [p.metadata.name for p in got.items] == ["b"]


def test_handled_without_object_gives_zero_value():
    cs = fake.new_simple_clientset()
    cs.fake.prepend_reactor("get", "deployments", lambda a: (True, None, None))
    got = cs.apps_v1().deployments("default").get("missing")
    assert isinstance(got, V1Deployment) and got.metadata is None and got.spec is None


def test_watch_reactor_events_become_models():
    cs = fake.new_simple_clientset()
    w = watch.new_fake()
    cs.fake.prepend_watch_reactor("deployments", fake.default_watch_reactor(w, None))
    model_watch = cs.apps_v1().deployments("default").watch()
    w.add({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
           "spec": {"selector": {}, "template": {}}})
    event = model_watch.result_chan().recv(timeout=0)
    assert event.type == watch.ADDED and isinstance(event.object, V1Deployment)
    assert cs.fake.actions()[0].get_list_options().watch is True


def test_patch_action_records_bytes():
    cs = fake.new_simple_clientset(new_rs("web"))
    client = cs.apps_v1().replica_sets("default")
    client.patch("web", MERGE_PATCH_TYPE, {"metadata": {"labels": {"x": "y"}}})
    action = cs.fake.actions()[-1]
    assert isinstance(action, fake.PatchAction)
    assert json.loads(action.get_patch()) == {"metadata": {"labels": {"x": "y"}}}
    assert action.get_patch_type() == MERGE_PATCH_TYPE


def test_new_simple_clientset_is_repeatable_and_seeds_namespaces_and_dicts():
    from kubernetes.client import V1Namespace

    def seeded():
        return fake.new_simple_clientset(
            V1Namespace(metadata=V1ObjectMeta(name="default")),  # exists already: left alone
            V1Namespace(metadata=V1ObjectMeta(name="team-b", labels={"t": "b"})),
            {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
             "metadata": {"name": "lock", "namespace": "team-b"}},
            new_rs("web", namespace=None),  # no namespace: goes to "default"
        )

    one, two = seeded(), seeded()
    assert one.core_v1().namespaces().get("team-b").metadata.labels["t"] == "b"
    assert one.coordination_v1().leases("team-b").get("lock").metadata.name == "lock"
    uid = one.apps_v1().replica_sets("default").get("web").metadata.uid
    assert uid == two.apps_v1().replica_sets("default").get("web").metadata.uid


def test_added_reactor_still_runs_before_the_server():
    """Differs from Go on purpose: add_reactor on a simple clientset is not shadowed by the store."""
    cs = fake.new_simple_clientset(new_rs("web"))
    cs.fake.add_reactor("get", "replicasets", lambda a: (True, new_rs("from-reactor"), None))
    assert cs.apps_v1().replica_sets("default").get("web").metadata.name == "from-reactor"
