"""Tests for minikcm.controller.history.controller_history.

Ports of pkg/controller/history/controller_history_test.go. The fake clientset
here is a real embedded API server, so the revision handed to adopt and
release is the one the server returned (it carries the server's uid, which
the strategic merge patch uses as a precondition); upstream's tests patch
through a reactor instead. Plus golden hashes from upstream's
stateful_set_compatibility_test.go and testdata.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from kubernetes.client import (
    V1Container,
    V1ControllerRevision,
    V1HostPathVolumeSource,
    V1LabelSelector,
    V1LabelSelectorRequirement,
    V1ObjectMeta,
    V1PersistentVolumeClaim,
    V1PersistentVolumeClaimSpec,
    V1PodSpec,
    V1PodTemplateSpec,
    V1StatefulSet,
    V1StatefulSetSpec,
    V1StatefulSetStatus,
    V1Volume,
    V1VolumeMount,
    V1VolumeResourceRequirements,
)

from minikcm.apimachinery import errors, labels
from minikcm.apimachinery.convert import deep_copy, to_wire
from minikcm.apimachinery.meta import GetOptions, is_controlled_by, label_selector_as_selector
from minikcm.apimachinery.schema import GroupVersionKind
from minikcm.client.fake import new_simple_clientset
from minikcm.client.testing import UpdateAction
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.history.controller_history import (
    CONTROLLER_REVISION_HASH_LABEL,
    add_controller_revision_controller_indexer,
    controller_revision_name,
    equal_revision,
    find_equal_revisions,
    hash_controller_revision,
    new_controller_revision,
    new_fake_history,
    new_history,
    raw_data,
    sort_controller_revisions,
)
from minikcm.informers import new_shared_informer_factory_with_options

PARENT_KIND = GroupVersionKind("apps", "v1", "StatefulSet")


def new_stateful_set(replicas: int, name: str, uid: str, label_map: dict[str, str]) -> V1StatefulSet:
    """Upstream's newStatefulSet (history test): set-based selector only, a claim template, a hostPath volume."""
    exprs = [V1LabelSelectorRequirement(key=k, operator="In", values=[v]) for k, v in label_map.items()]
    return V1StatefulSet(
        api_version="apps/v1", kind="StatefulSet",
        metadata=V1ObjectMeta(name=name, namespace="default", uid=uid),
        spec=V1StatefulSetSpec(
            selector=V1LabelSelector(match_expressions=exprs),
            replicas=replicas,
            service_name="governingsvc",
            template=V1PodTemplateSpec(
                metadata=V1ObjectMeta(labels=dict(label_map)),
                spec=V1PodSpec(
                    containers=[V1Container(name="nginx", image="nginx", volume_mounts=[
                        V1VolumeMount(name="datadir", mount_path="/tmp/"),
                        V1VolumeMount(name="home", mount_path="/home")])],
                    volumes=[V1Volume(name="home", host_path=V1HostPathVolumeSource(path="/tmp/home"))],
                ),
            ),
            volume_claim_templates=[V1PersistentVolumeClaim(
                metadata=V1ObjectMeta(name="datadir"),
                spec=V1PersistentVolumeClaimSpec(resources=V1VolumeResourceRequirements(requests={"storage": "1"})),
            )],
        ),
        status=V1StatefulSetStatus(replicas=0),
    )


def raw_template(template: V1PodTemplateSpec) -> dict[str, Any]:
    """Upstream's rawTemplate: the template's JSON as the revision's data."""
    return to_wire(template)


def revision(ss: V1StatefulSet, number: int, collision_count: int | None = 0,
             template: V1PodTemplateSpec | None = None) -> V1ControllerRevision:
    """NewControllerRevision for `ss` with its template, placed in ss's namespace."""
    rev = new_controller_revision(ss, PARENT_KIND, ss.spec.template.metadata.labels,
                                  raw_template(template or ss.spec.template), number, collision_count)
    rev.metadata.namespace = ss.metadata.namespace
    return rev


SS1 = new_stateful_set(3, "ss1", "ss1", {"foo": "bar"})
SS2 = new_stateful_set(3, "ss2", "ss2", {"goo": "car"})


class World:
    """A fake clientset plus a deterministic informer factory whose revision indexer tests fill directly."""

    def __init__(self) -> None:
        self.clock = FakeClock(EPOCH, driven=True)
        self.client = new_simple_clientset(clock=self.clock, rng=random.Random(3))
        self.factory = new_shared_informer_factory_with_options(self.client, 0, clock=self.clock,
                                                                rng=random.Random(1))
        self.informer = self.factory.apps().v1().controller_revisions()
        self.indexer = self.informer.informer().get_indexer()

    def real(self, indexed: bool = False):
        if indexed:
            add_controller_revision_controller_indexer(self.informer.informer())
            return new_history(self.client, self.informer.lister(), self.indexer)
        return new_history(self.client, self.informer.lister())

    def fake(self):
        return new_fake_history(self.informer)


# --- ListControllerRevisions ---------------------------------------------------------------


def _orphan(rev: V1ControllerRevision) -> V1ControllerRevision:
    rev.metadata.owner_references = None
    return rev


LIST_CASES = [
    pytest.param([], set(), id="selects none"),
    pytest.param(["r1", "r2"], {"r1", "r2"}, id="selects all"),
    pytest.param(["r1", "r2", "other"], {"r1", "r2"}, id="doesn't select another Objects history"),
    pytest.param(["r1", "r2", "orphan"], {"r1", "r2", "orphan"}, id="selects orphans"),
]


def _list_revisions() -> dict[str, V1ControllerRevision]:
    return {"r1": revision(SS1, 1, None), "r2": revision(SS1, 2, None), "other": revision(SS2, 1, None),
            "orphan": _orphan(revision(SS1, 3, None))}


@pytest.mark.parametrize("kind", ["real", "real-indexed", "fake"])
@pytest.mark.parametrize("existing, want", LIST_CASES)
def test_history_list_controller_revisions(kind, existing, want):
    """Port of TestRealHistory_ListControllerRevisions and TestFakeHistory_ListControllerRevisions.

    "real-indexed" runs the same table through the 1.36 controller-revision index.
    """
    world = World()
    history = world.fake() if kind == "fake" else world.real(indexed=kind == "real-indexed")
    revisions = _list_revisions()
    for name in existing:
        world.indexer.add(revisions[name])
    selector = label_selector_as_selector(SS1.spec.selector)
    got = history.list_controller_revisions(SS1, PARENT_KIND, selector)
    assert {r.metadata.name for r in got} == {revisions[n].metadata.name for n in want}


# --- CreateControllerRevision ----------------------------------------------------------------


def test_real_history_create_controller_revision_creates_new():
    """Port of TestRealHistory_CreateControllerRevision, case "creates new"."""
    world = World()
    rev = revision(SS1, 1)
    created, count = world.real().create_controller_revision(SS1, rev, 0)
    assert created.metadata.name == rev.metadata.name and count == 0


def test_real_history_create_does_not_conflict_when_parents_differ():
    """Port of TestRealHistory_CreateControllerRevision, case "create doesn't conflict when parents differ"."""
    world = World()
    world.client.apps_v1().controller_revisions("default").create(revision(SS1, 1))
    rev = revision(SS2, 1)
    created, _ = world.real().create_controller_revision(SS2, rev, 0)
    assert created.metadata.name == rev.metadata.name


def test_real_history_create_renames_on_conflict():
    """Port of TestRealHistory_CreateControllerRevision, case "create renames on conflict".

    Another revision (other data) holds the name: the count goes up and the
    revision gets the next name; creating it again finds the same data under
    that name and keeps the count.
    """
    world = World()
    rev1 = revision(SS1, 1)
    mod = deep_copy(SS1.spec.template)
    mod.metadata.labels["foo"] = "not_bar"
    clash = revision(SS1, 2, template=mod)
    clash.metadata.name = rev1.metadata.name
    clash.metadata.labels[CONTROLLER_REVISION_HASH_LABEL] = rev1.metadata.labels[CONTROLLER_REVISION_HASH_LABEL]
    world.client.apps_v1().controller_revisions("default").create(clash)

    history = world.real()
    created, count = history.create_controller_revision(SS1, rev1, 0)
    assert created.metadata.name != rev1.metadata.name
    assert created.metadata.name == controller_revision_name("ss1", hash_controller_revision(rev1, count))
    _, count = history.create_controller_revision(SS1, rev1, count)
    assert count == 1


def test_real_history_create_needs_a_collision_count():
    with pytest.raises(ValueError):
        World().real().create_controller_revision(SS1, revision(SS1, 1), None)


FAKE_CREATE_CASES = [
    pytest.param(SS1, "ss1-r1", [], False, id="creates new"),
    pytest.param(SS2, "ss2-r1", [(SS1, "ss1-r1")], False, id="create doesn't conflict when parents differ"),
    pytest.param(SS1, "ss1-r1", [(SS1, "ss1-r1")], True, id="create renames on conflict"),
]


@pytest.mark.parametrize("parent, rev_name, existing, rename", FAKE_CREATE_CASES)
def test_fake_history_create_controller_revision(parent, rev_name, existing, rename):
    """Port of TestFakeHistory_CreateControllerRevision: any taken name is a collision."""
    revs = {"ss1-r1": revision(SS1, 1), "ss2-r1": revision(SS2, 1)}
    history = World().fake()
    for owner, name in existing:
        history.create_controller_revision(owner, revs[name], 0)
    rev = revs[rev_name]
    created, count = history.create_controller_revision(parent, rev, 0)
    if not rename:
        assert created.metadata.name == rev.metadata.name
        return
    assert created.metadata.name != rev.metadata.name
    assert created.metadata.name == controller_revision_name(parent.metadata.name, hash_controller_revision(rev, count))
    _, count = history.create_controller_revision(parent, rev, count)
    assert count == 2


# --- UpdateControllerRevision ------------------------------------------------------------------


def _conflict_twice() -> Any:
    attempts = [0]

    def reactor(action):
        if not isinstance(action, UpdateAction):
            return False, None, None
        attempts[0] += 1
        if attempts[0] <= 2:
            return True, None, errors.new_conflict(errors.GroupResource("apps", "controllerrevisions"), "",
                                                  RuntimeError("conflict"))
        return True, action.get_object(), None

    return reactor


def _internal_error(action):
    if not isinstance(action, UpdateAction):
        return False, None, None
    return True, None, errors.new_internal_error(RuntimeError("internal error"))


REAL_UPDATE_CASES = [
    pytest.param(1, None, False, id="update succeeds"),
    pytest.param(0, None, False, id="update succeeds no noop"),
    pytest.param(10, _internal_error, True, id="update fails on error"),
    pytest.param(1, _conflict_twice(), False, id="update on succeeds on conflict"),
]


@pytest.mark.parametrize("delta, reactor, want_err", REAL_UPDATE_CASES)
def test_real_history_update_controller_revision(delta, reactor, want_err):
    """Port of TestRealHistory_UpdateControllerRevision."""
    world = World()
    history = world.real()
    rev, _ = history.create_controller_revision(SS1, revision(SS1, 1), 0)
    if reactor is not None:
        world.client.fake.prepend_reactor("*", "*", reactor)
    if want_err:
        with pytest.raises(errors.StatusError):
            history.update_controller_revision(rev, rev.revision + delta)
        return
    updated = history.update_controller_revision(rev, rev.revision + delta)
    assert updated.revision == rev.revision + delta


def test_real_history_update_returns_the_renumbered_copy_not_the_servers_answer():
    # Ours: Go returns its clone after a successful Update; the server's answer (a new resourceVersion) is dropped.
    world = World()
    history = world.real()
    rev, _ = history.create_controller_revision(SS1, revision(SS1, 1), 0)
    updated = history.update_controller_revision(rev, 2)
    stored = world.client.apps_v1().controller_revisions(rev.metadata.namespace).get(rev.metadata.name, GetOptions())
    assert (updated.revision, stored.revision) == (2, 2)
    assert updated.metadata.resource_version == rev.metadata.resource_version != stored.metadata.resource_version
    assert updated is not rev and rev.revision == 1  # the caller's revision is not touched


def test_real_history_conflict_retries_pause_on_its_clock():
    # Ours: two conflicts, then success: DefaultBackoff's first two pauses (10 ms and 50 ms, up to 10 % more) pass
    # on the history's driven clock, as Go's FakeClock.Sleep would move it.
    world = World()
    history = new_history(world.client, world.informer.lister(), clock=world.clock)
    rev, _ = history.create_controller_revision(SS1, revision(SS1, 1), 0)
    world.indexer.add(rev)  # each conflict re-reads the revision from the cache, as Go's lister Get does
    world.client.fake.prepend_reactor("*", "*", _conflict_twice())
    start = world.clock.now()
    assert history.update_controller_revision(rev, 2).revision == 2
    assert 0.060 <= world.clock.since(start) <= 0.066


@pytest.mark.parametrize("delta", [pytest.param(1, id="update succeeds"), pytest.param(0, id="update succeeds no noop")])
def test_fake_history_update_controller_revision(delta):
    """Port of TestFakeHistory_UpdateControllerRevision."""
    history = World().fake()
    rev, _ = history.create_controller_revision(SS1, revision(SS1, 1), 0)
    assert history.update_controller_revision(rev, 1 + delta).revision == 1 + delta


# --- DeleteControllerRevision --------------------------------------------------------------------

DELETE_CASES = [
    pytest.param([], True, id="delete empty fails"),
    pytest.param([(SS1, 1)], False, id="delete existing succeeds"),
    pytest.param([(SS2, 1), (SS2, 2)], True, id="delete non-existing fails"),
]


@pytest.mark.parametrize("kind", ["real", "fake"])
@pytest.mark.parametrize("existing, want_err", DELETE_CASES)
def test_history_delete_controller_revision(kind, existing, want_err):
    """Port of TestRealHistory_DeleteControllerRevision and TestFakeHistory_DeleteControllerRevision."""
    world = World()
    history = world.fake() if kind == "fake" else world.real()
    for parent, number in existing:
        history.create_controller_revision(parent, revision(parent, number), 0)
    if want_err:
        with pytest.raises(errors.StatusError) as info:
            history.delete_controller_revision(revision(SS1, 1))
        assert errors.is_not_found(info.value)
    else:
        history.delete_controller_revision(revision(SS1, 1))


# --- Adopt / Release ------------------------------------------------------------------------------

ADOPT_CASES = [
    pytest.param(SS1, "orphan", True, id="adopting an orphan succeeds"),
    pytest.param(SS2, "ss2", True, id="adopting an owned revision fails"),
    pytest.param(None, "orphan", False, id="adopting a non-existent revision fails"),
]


def _adopt_revisions() -> dict[str, V1ControllerRevision]:
    orphan = revision(SS1, 2)
    orphan.metadata.owner_references = []
    return {"orphan": orphan, "ss2": revision(SS2, 1)}


@pytest.mark.parametrize("kind", ["real", "fake"])
@pytest.mark.parametrize("existing_parent, rev_name, stored", ADOPT_CASES)
def test_history_adopt_controller_revision(kind, existing_parent, rev_name, stored):
    """Port of TestRealHistory_AdoptControllerRevision and TestFakeHistory_AdoptControllerRevision."""
    world = World()
    history = world.fake() if kind == "fake" else world.real()
    rev = _adopt_revisions()[rev_name]
    if stored:
        rev, _ = history.create_controller_revision(existing_parent, rev, 0)
    if rev_name == "orphan" and stored:
        adopted = history.adopt_controller_revision(SS1, PARENT_KIND, rev)
        assert is_controlled_by(adopted, SS1)
        return
    with pytest.raises(Exception):  # noqa: B017 - owned (RuntimeError) or missing (NotFound)
        history.adopt_controller_revision(SS1, PARENT_KIND, rev)


RELEASE_CASES = [
    pytest.param(SS1, "owned", id="releasing an owned revision succeeds"),
    pytest.param(SS1, "orphan", id="releasing an orphan succeeds"),
    pytest.param(SS2, "ss2", id="releasing a revision owned by another controller succeeds"),
    pytest.param(None, "owned", id="releasing a non-existent revision succeeds"),
]


@pytest.mark.parametrize("kind", ["real", "fake"])
@pytest.mark.parametrize("existing_parent, rev_name", RELEASE_CASES)
def test_history_release_controller_revision(kind, existing_parent, rev_name):
    """Port of TestRealHistory_ReleaseControllerRevision and TestFakeHistory_ReleaseControllerRevision."""
    world = World()
    history = world.fake() if kind == "fake" else world.real()
    rev = {**_adopt_revisions(), "owned": revision(SS1, 1)}[rev_name]
    if existing_parent is not None:
        rev, _ = history.create_controller_revision(existing_parent, rev, 0)
    released = history.release_controller_revision(SS1, rev)
    if released is not None:
        assert not is_controlled_by(released, SS1)
    if existing_parent is None:
        assert released is None


# --- FindEqualRevisions / SortControllerRevisions --------------------------------------------------


FIND_EQUAL_CASES = [
    pytest.param(["ss1-1", "ss2-1", "ss2-2"], {"ss1-1"}, id="finds equivalent"),
    pytest.param([], set(), id="finds nothing when empty"),
    pytest.param(["ss2-2", "ss2-1"], set(), id="finds nothing with no matches"),
]


@pytest.mark.parametrize("names, want", FIND_EQUAL_CASES)
def test_find_equal_revisions(names, want):
    """Port of TestFindEqualRevisions."""
    revs = {"ss1-1": revision(SS1, 1), "ss2-1": revision(SS2, 1), "ss2-2": revision(SS2, 2)}
    found = find_equal_revisions([revs[n] for n in names], revs["ss1-1"])
    assert {r.metadata.name for r in found} == {revs[n].metadata.name for n in want}


def _sort_revisions() -> dict[str, V1ControllerRevision]:
    revs = {f"rev{i}": revision(SS1, i) for i in (1, 2, 3)}
    for rev in revs.values():
        rev.metadata.creation_timestamp = EPOCH
    later = EPOCH + timedelta(seconds=1)
    revs["rev3time2"] = revision(SS1, 3)
    revs["rev3time2"].metadata.creation_timestamp = later
    revs["rev3time2"].metadata.name = "zz-later"
    return revs


SORT_CASES = [
    pytest.param(["rev2", "rev1", "rev3"], ["rev1", "rev2", "rev3"], id="out of order"),
    pytest.param(["rev1", "rev2", "rev3"], ["rev1", "rev2", "rev3"], id="sorted"),
    pytest.param(["rev3", "rev2", "rev1"], ["rev1", "rev2", "rev3"], id="reversed"),
    pytest.param(["rev3time2", "rev3", "rev2", "rev1"], ["rev1", "rev2", "rev3", "rev3time2"], id="with ties"),
    pytest.param([], [], id="empty"),
]


@pytest.mark.parametrize("order, want", SORT_CASES)
def test_sort_controller_revisions(order, want):
    """Port of TestSortControllerRevisions (ties: older first, then by name)."""
    revs = _sort_revisions()
    items = [revs[n] for n in order]
    sort_controller_revisions(items)
    assert [r.metadata.name for r in items] == [revs[n].metadata.name for n in want]


def test_sort_breaks_time_ties_by_name():
    a, b = revision(SS1, 3), revision(SS1, 3)
    a.metadata.name, b.metadata.name = "b", "a"
    items = [a, b]
    sort_controller_revisions(items)
    assert [r.metadata.name for r in items] == ["a", "b"]


# --- Hashing: golden values from upstream --------------------------------------------------------

DATA_134 = {"spec": {"template": {
    "$patch": "replace",
    "metadata": {"annotations": {"test": "value"}, "labels": {"app": "foo"}},
    "spec": {"containers": [{"image": "test", "imagePullPolicy": "Always", "name": "test", "resources": {},
                             "terminationMessagePath": "/dev/termination-log",
                             "terminationMessagePolicy": "File"}],
             "dnsPolicy": "ClusterFirst", "restartPolicy": "Always", "schedulerName": "default-scheduler",
             "securityContext": {}, "terminationGracePeriodSeconds": 30}}}}

HASH_CASES = [
    pytest.param(False, 0, "776999688b", id="1.34 revision (compatibility_revision_1.34.0.json)"),
    pytest.param(True, 0, "c77f6d978", id="1.33 revision with creationTimestamp null"),
]


@pytest.mark.parametrize("with_null_timestamp, probe, want", HASH_CASES)
def test_hash_controller_revision_matches_go(with_null_timestamp, probe, want):
    """Golden hashes of upstream's stateful_set_compatibility_test.go and its testdata (FNV-1, probe "0")."""
    data = deep_copy(V1ControllerRevision(data=DATA_134, revision=1)).data
    if with_null_timestamp:
        data["spec"]["template"]["metadata"]["creationTimestamp"] = None
    assert hash_controller_revision(V1ControllerRevision(data=data, revision=1), probe) == want


def test_raw_data_is_go_json():
    rev = V1ControllerRevision(data={"b": 1, "a": "<&>", "c": {"z": None, "y": []}}, revision=1)
    assert raw_data(rev) == b'{"a":"\\u003c\\u0026\\u003e","b":1,"c":{"y":[],"z":null}}'


def test_new_controller_revision_names_and_labels():
    rev = new_controller_revision(SS1, PARENT_KIND, {"foo": "bar"}, {"x": 1}, 4, 2)
    hash_ = hash_controller_revision(rev, 2)
    assert rev.metadata.name == f"ss1-{hash_}"
    assert rev.metadata.labels == {"foo": "bar", CONTROLLER_REVISION_HASH_LABEL: hash_}
    assert rev.metadata.owner_references[0].uid == "ss1" and rev.metadata.owner_references[0].controller
    assert hash_controller_revision(rev, 3) != hash_


def test_controller_revision_name_truncates_long_prefix():
    assert controller_revision_name("a" * 300, "h") == "a" * 223 + "-h"


EQUAL_CASES = [
    pytest.param({"x": 1}, {"x": 1}, None, None, True, id="same data"),
    pytest.param({"x": 1}, {"x": 2}, None, None, False, id="different data"),
    pytest.param({"x": 1}, {"x": 1}, "123", "124", False, id="numeric hash labels that differ"),
    pytest.param({"x": 1}, {"x": 1}, "bcd", "fgh", True, id="non-numeric hash labels are ignored"),
]


@pytest.mark.parametrize("a, b, ha, hb, want", EQUAL_CASES)
def test_equal_revision(a, b, ha, hb, want):
    def rev(data, h):
        return V1ControllerRevision(data=data, revision=1, metadata=V1ObjectMeta(
            labels={CONTROLLER_REVISION_HASH_LABEL: h} if h else None))

    assert equal_revision(rev(a, ha), rev(b, hb)) is want
    assert equal_revision(None, None) and not equal_revision(rev(a, ha), None)
