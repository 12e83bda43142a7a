"""Tests for the helpers in minikcm.apimachinery.meta (ports of metav1 helpers_test.go,
controller_ref_test.go, labels_test.go and pkg/api/meta/conditions_test.go)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from kubernetes.client import (
    V1Condition,
    V1LabelSelector,
    V1LabelSelectorRequirement,
    V1ObjectMeta,
    V1OwnerReference,
    V1Pod,
)

from minikcm.apimachinery import labels, meta
from minikcm.apimachinery.schema import GroupVersionKind
from minikcm.clock import FakeClock

GVK = GroupVersionKind("group", "v1", "Kind")

MATCH_LABELS = {"foo": "bar"}


def expr(op, values, key="baz"):
    return V1LabelSelectorRequirement(key=key, operator=op, values=values)


IN_EXPR = [expr("In", ["qux", "norf"])]

# --- helpers_test.go ------------------------------------------------------------------

LABEL_SELECTOR_AS_SELECTOR_CASES = [
    pytest.param(None, "", True, id="nil-matches-nothing"),
    pytest.param(V1LabelSelector(), "", False, id="empty-matches-everything"),
    pytest.param(V1LabelSelector(match_labels=MATCH_LABELS), "foo=bar", False, id="match-labels"),
    pytest.param(V1LabelSelector(match_expressions=IN_EXPR), "baz in (norf,qux)", False, id="match-expressions"),
    pytest.param(V1LabelSelector(match_labels=MATCH_LABELS, match_expressions=IN_EXPR),
                 "baz in (norf,qux),foo=bar", False, id="both"),
    pytest.param(V1LabelSelector(match_labels={}, match_expressions=[]), "", False, id="empty-containers"),
    pytest.param(V1LabelSelector(match_expressions=[expr("NotIn", ["a"]), expr("Exists", None, key="a"),
                                                    expr("DoesNotExist", [], key="z")]),
                 "a,baz notin (a),!z", False, id="all-operators"),
]


@pytest.mark.parametrize("ps, want, nothing", LABEL_SELECTOR_AS_SELECTOR_CASES)
def test_label_selector_as_selector(ps, want, nothing):
    """Port of TestLabelSelectorAsSelector (pkg/apis/meta/v1/helpers_test.go)."""
    before = None if ps is None else ps.model_dump()
    out = meta.label_selector_as_selector(ps)
    assert str(out) == want
    assert labels.matches_nothing(out) is nothing
    assert (None if ps is None else ps.model_dump()) == before  # the input is left alone


def test_label_selector_as_selector_nil_vs_empty_semantics():
    assert not meta.label_selector_as_selector(None).matches({"a": "b"})
    assert meta.label_selector_as_selector(V1LabelSelector()).matches({"a": "b"})


LABEL_SELECTOR_AS_SELECTOR_ERROR_CASES = [
    pytest.param(V1LabelSelector(match_expressions=[expr("Exists", ["qux", "norf"])]),
                 "values set must be empty", id="exists-with-values"),
    pytest.param(V1LabelSelector(match_expressions=[expr("In", [])]), "can't be empty", id="in-without-values"),
    pytest.param(V1LabelSelector(match_expressions=[expr("Gt", ["1"])]),
                 '"Gt" is not a valid label selector operator', id="gt-not-allowed"),
    pytest.param(V1LabelSelector(match_expressions=[expr("in", ["a"])]),
                 '"in" is not a valid label selector operator', id="lowercase-operator"),
    pytest.param(V1LabelSelector(match_labels={"bad key": "v"}), "name part must consist", id="bad-key"),
]


@pytest.mark.parametrize("ps, message", LABEL_SELECTOR_AS_SELECTOR_ERROR_CASES)
def test_label_selector_as_selector_errors(ps, message):
    """Port of TestLabelSelectorAsSelector (pkg/apis/meta/v1/helpers_test.go), error row and more."""
    with pytest.raises(ValueError, match=message):
        meta.label_selector_as_selector(ps)


LABEL_SELECTOR_AS_MAP_CASES = [
    pytest.param(None, None, id="nil"),
    pytest.param(V1LabelSelector(match_labels=MATCH_LABELS), {"foo": "bar"}, id="match-labels"),
    pytest.param(V1LabelSelector(match_labels=MATCH_LABELS, match_expressions=[expr("In", ["norf"])]),
                 {"foo": "bar", "baz": "norf"}, id="labels-and-single-in"),
    pytest.param(V1LabelSelector(match_expressions=[expr("In", ["norf"])]), {"baz": "norf"}, id="single-in"),
]

LABEL_SELECTOR_AS_MAP_ERROR_CASES = [
    pytest.param(V1LabelSelector(match_labels=MATCH_LABELS, match_expressions=[expr("In", ["norf", "qux"])]),
                 "without a single value cannot be converted", id="in-two-values"),
    pytest.param(V1LabelSelector(match_expressions=[expr("NotIn", ["norf", "qux"])]), "cannot be converted", id="notin"),
    pytest.param(V1LabelSelector(match_labels=MATCH_LABELS, match_expressions=[expr("Exists", [])]),
                 "cannot be converted", id="exists"),
    pytest.param(V1LabelSelector(match_expressions=[expr("DoesNotExist", [])]), "cannot be converted", id="doesnotexist"),
    pytest.param(V1LabelSelector(match_expressions=[expr("Bogus", [])]), "is not a valid selector operator", id="bogus"),
]


@pytest.mark.parametrize("ps, want", LABEL_SELECTOR_AS_MAP_CASES)
def test_label_selector_as_map(ps, want):
    """Port of TestLabelSelectorAsMap (pkg/apis/meta/v1/helpers_test.go)."""
    assert meta.label_selector_as_map(ps) == want


@pytest.mark.parametrize("ps, message", LABEL_SELECTOR_AS_MAP_ERROR_CASES)
def test_label_selector_as_map_errors(ps, message):
    """Port of TestLabelSelectorAsMap (pkg/apis/meta/v1/helpers_test.go), error rows."""
    with pytest.raises(ValueError, match=message):
        meta.label_selector_as_map(ps)


PARSE_TO_LABEL_SELECTOR_CASES = [
    pytest.param("", V1LabelSelector(match_labels={}, match_expressions=[]), id="empty"),
    pytest.param("a=b,c in (e,d),!f,g,h notin (i)",
                 V1LabelSelector(match_labels={"a": "b"}, match_expressions=[
                     expr("In", ["d", "e"], key="c"), expr("DoesNotExist", [], key="f"),
                     expr("Exists", [], key="g"), expr("NotIn", ["i"], key="h")]), id="every-operator"),
]


@pytest.mark.parametrize("selector, want", PARSE_TO_LABEL_SELECTOR_CASES)
def test_parse_to_label_selector(selector, want):
    got = meta.parse_to_label_selector(selector)
    assert got == want
    assert str(meta.label_selector_as_selector(got)) == str(labels.parse(selector))


@pytest.mark.parametrize("selector", [pytest.param("a>1", id="gt"), pytest.param("a in (", id="malformed")])
def test_parse_to_label_selector_errors(selector):
    with pytest.raises(ValueError):
        meta.parse_to_label_selector(selector)


FORMAT_LABEL_SELECTOR_CASES = [
    pytest.param(None, "<none>", id="nil"),
    pytest.param(V1LabelSelector(), "<none>", id="empty"),
    pytest.param(V1LabelSelector(match_labels={"b": "2", "a": "1"}), "a=1,b=2", id="sorted"),
    pytest.param(V1LabelSelector(match_expressions=[expr("Bogus", [])]), "<error>", id="invalid"),
]


@pytest.mark.parametrize("ps, want", FORMAT_LABEL_SELECTOR_CASES)
def test_format_label_selector(ps, want):
    assert meta.format_label_selector(ps) == want


SET_META_DATA_LABEL_CASES = [
    pytest.param(None, "foo", "bar", {"foo": "bar"}, id="no-labels"),
    pytest.param({"foo": "bar"}, "foo", "baz", {"foo": "baz"}, id="overwrite"),
    pytest.param({"foo": "bar"}, "version", "1.0.0", {"foo": "bar", "version": "1.0.0"}, id="add"),
]


@pytest.mark.parametrize("initial, label, value, want", SET_META_DATA_LABEL_CASES)
def test_set_meta_data_label(initial, label, value, want):
    """Port of TestSetMetaDataLabel (pkg/apis/meta/v1/helpers_test.go)."""
    obj = V1ObjectMeta(labels=initial)
    meta.set_meta_data_label(obj, label, value)
    assert obj.labels == want
    assert meta.has_label(obj, label)


def test_annotation_helpers_and_options():
    obj = V1ObjectMeta(name="a", resource_version="5")
    assert not meta.has_annotation(obj, "k")
    meta.set_meta_data_annotation(obj, "k", "v")
    assert meta.has_annotation(obj, "k") and obj.annotations == {"k": "v"}
    assert meta.single_object(obj) == meta.ListOptions(field_selector="metadata.name=a", resource_version="5")
    assert meta.new_delete_options(0).grace_period_seconds == 0
    assert meta.new_precondition_delete_options("u1").preconditions == meta.Preconditions(uid="u1")
    assert meta.new_uid_preconditions("u1") == meta.Preconditions(uid="u1")
    assert meta.new_rv_deletion_precondition("7").preconditions == meta.Preconditions(resource_version="7")
    assert meta.set_as_label_selector(None) is None
    assert meta.set_as_label_selector({"a": "b"}) == V1LabelSelector(match_labels={"a": "b"})


# --- controller_ref_test.go ---------------------------------------------------------------


def obj(uid, name="", refs=None):
    return V1Pod(metadata=V1ObjectMeta(uid=uid, name=name, owner_references=refs))


def test_new_controller_ref():
    """Port of TestNewControllerRef (pkg/apis/meta/v1/controller_ref_test.go)."""
    ref = meta.new_controller_ref(obj("uid1", "name"), GVK)
    assert ref == V1OwnerReference(api_version="group/v1", kind="Kind", name="name", uid="uid1",
                                   controller=True, block_owner_deletion=True)


def test_new_controller_ref_core_group_and_wire_owner():
    owner = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "uid": "u"}}
    ref = meta.new_controller_ref(owner, GroupVersionKind("", "v1", "Pod"))
    assert (ref.api_version, ref.name, ref.uid) == ("v1", "p", "u")


def test_get_controller_of():
    """Port of TestGetControllerOf (pkg/apis/meta/v1/controller_ref_test.go)."""
    controller_ref = meta.new_controller_ref(obj("uid1", "name1"), GVK)
    controller_ref.block_owner_deletion = None
    not_controller = dict(api_version="v1", kind="K", uid="x", controller=False)
    obj2 = obj("uid2", "name1", [V1OwnerReference(name="owner1", **not_controller), controller_ref,
                                 V1OwnerReference(name="owner2", **not_controller)])
    assert meta.get_controller_of(obj("uid1", "name1")) is None
    c = meta.get_controller_of(obj2)
    assert (c.name, c.uid) == (controller_ref.name, controller_ref.uid)
    assert c is not controller_ref  # a copy: changing it leaves the object alone
    c.controller = False
    assert meta.get_controller_of_no_copy(obj2) is controller_ref


def test_get_controller_of_ignores_unset_controller_field():
    ref = V1OwnerReference(api_version="v1", kind="K", name="n", uid="u")
    assert meta.get_controller_of(obj("a", refs=[ref])) is None


def test_get_controller_of_wire_dict():
    d = {"metadata": {"ownerReferences": [
        {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs", "uid": "u0", "controller": True}]}}
    assert meta.get_controller_of(d).name == "rs"
    assert meta.get_controller_of({"metadata": {}}) is None


def test_is_controlled_by():
    """Port of TestIsControlledBy (pkg/apis/meta/v1/controller_ref_test.go)."""
    obj1 = obj("uid1")
    obj2 = obj("uid2", refs=[meta.new_controller_ref(obj1, GVK)])
    obj3 = obj("uid3", refs=[meta.new_controller_ref(obj2, GVK)])
    assert meta.is_controlled_by(obj2, obj1)
    assert meta.is_controlled_by(obj3, obj2)
    assert not meta.is_controlled_by(obj3, obj1)
    assert not meta.is_controlled_by(obj1, obj1)


# --- labels_test.go (meta/v1) ------------------------------------------------------------

SELECTOR_LABELS = {"foo1": "bar1", "foo2": "bar2", "foo3": "bar3"}

ADD_LABEL_CASES = [
    pytest.param(SELECTOR_LABELS, "", "", SELECTOR_LABELS, id="empty-key-unchanged"),
    pytest.param(SELECTOR_LABELS, "foo4", "89", {**SELECTOR_LABELS, "foo4": "89"}, id="added"),
    pytest.param(None, "foo4", "12", {"foo4": "12"}, id="nil-labels"),
]


@pytest.mark.parametrize("initial, key, value, want", ADD_LABEL_CASES)
def test_clone_selector_and_add_label(initial, key, value, want):
    """Port of TestCloneSelectorAndAddLabel (pkg/apis/meta/v1/labels_test.go)."""
    exprs = [expr("In", ["foo"], key="foo")]
    ls_in = V1LabelSelector(match_labels=None if initial is None else dict(initial), match_expressions=exprs)
    got = meta.clone_selector_and_add_label(ls_in, key, value)
    assert got == V1LabelSelector(match_labels=want, match_expressions=exprs)
    if key:
        assert got is not ls_in
        assert ls_in.match_labels == initial  # the original is untouched


@pytest.mark.parametrize("initial, key, value, want", ADD_LABEL_CASES)
def test_add_label_to_selector(initial, key, value, want):
    """Port of TestAddLabelToSelector (pkg/apis/meta/v1/labels_test.go)."""
    ls_in = V1LabelSelector(match_labels=None if initial is None else dict(initial))
    got = meta.add_label_to_selector(ls_in, key, value)
    assert got is ls_in
    assert got == V1LabelSelector(match_labels=want)


def test_selector_has_label():
    sel = V1LabelSelector(match_labels={"a": "1", "e": ""})
    assert meta.selector_has_label(sel, "a")
    assert not meta.selector_has_label(sel, "e")  # an empty value counts as absent
    assert not meta.selector_has_label(V1LabelSelector(), "a")


# --- pkg/api/meta/conditions_test.go ------------------------------------------------------

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
BEFORE = T0 - timedelta(hours=1)
AFTER = T0 + timedelta(hours=1)


def cond(type_, status="", t=None, reason="", message="", gen=None):
    return V1Condition.model_construct(type=type_, status=status, last_transition_time=t, reason=reason,
                                       message=message, observed_generation=gen)


SET_STATUS_CONDITION_CASES = [
    pytest.param([cond("first"), cond("third")],
                 cond("second", "True", BEFORE, "reason", "message"), True,
                 [cond("first"), cond("third"), cond("second", "True", BEFORE, "reason", "message")],
                 id="should-add"),
    pytest.param([cond("first"), cond("second", "False"), cond("third")],
                 cond("second", "True", BEFORE, "reason", "message"), True,
                 [cond("first"), cond("second", "True", BEFORE, "reason", "message"), cond("third")],
                 id="use-supplied-time"),
    pytest.param([cond("first"), cond("second", "True", BEFORE), cond("third")],
                 cond("second", "True", AFTER, "reason", "message", 3), True,
                 [cond("first"), cond("second", "True", BEFORE, "reason", "message", 3), cond("third")],
                 id="update-fields"),
    pytest.param([cond("type", "True", BEFORE)], cond("type", "True", BEFORE), False,
                 [cond("type", "True", BEFORE)], id="nothing changes"),
    pytest.param([cond("type", "False", BEFORE)], cond("type", "True"), True,
                 [cond("type", "True", T0)], id="status-change-without-time-uses-clock"),
    pytest.param([], cond("new", "True"), True, [cond("new", "True", T0)], id="add-without-time-uses-clock"),
]


@pytest.mark.parametrize("conditions, to_add, want_changed, want", SET_STATUS_CONDITION_CASES)
def test_set_status_condition(conditions, to_add, want_changed, want):
    """Port of TestSetStatusCondition (pkg/api/meta/conditions_test.go)."""
    assert meta.set_status_condition(conditions, to_add, clock=FakeClock(T0)) is want_changed
    assert [c.model_dump() for c in conditions] == [c.model_dump() for c in want]


def test_set_status_condition_nil_list():
    assert meta.set_status_condition(None, cond("a", "True")) is False


REMOVE_STATUS_CONDITION_CASES = [
    pytest.param(["first", "second", "third"], "second", True, ["first", "third"], id="present"),
    pytest.param(["first", "second", "third"], "fourth", False, ["first", "second", "third"], id="not-present"),
    pytest.param([], "Foo", False, [], id="empty_conditions"),
]


@pytest.mark.parametrize("types, remove, want_removed, want", REMOVE_STATUS_CONDITION_CASES)
def test_remove_status_condition(types, remove, want_removed, want):
    """Port of TestRemoveStatusCondition (pkg/api/meta/conditions_test.go)."""
    conditions = [cond(t) for t in types]
    assert meta.remove_status_condition(conditions, remove) is want_removed
    assert [c.type for c in conditions] == want


FIND_STATUS_CONDITION_CASES = [
    pytest.param(["first"], "second", None, id="not-present"),
    pytest.param(["first", "second"], "second", "second", id="present"),
]


@pytest.mark.parametrize("types, find, want", FIND_STATUS_CONDITION_CASES)
def test_find_status_condition(types, find, want):
    """Port of TestFindStatusCondition (pkg/api/meta/conditions_test.go)."""
    found = meta.find_status_condition([cond(t) for t in types], find)
    assert (found.type if found is not None else None) == want


PRESENT_AND_EQUAL_CASES = [
    pytest.param("Unknown", "True", False, id="doesnt-match-true"),
    pytest.param("True", "True", True, id="does-match-true"),
    pytest.param("False", "False", True, id="does-match-false"),
]


@pytest.mark.parametrize("have, want_status, want", PRESENT_AND_EQUAL_CASES)
def test_is_status_condition_present_and_equal(have, want_status, want):
    """Port of TestIsStatusConditionPresentAndEqual (pkg/api/meta/conditions_test.go)."""
    conditions = [cond("first", have)]
    assert meta.is_status_condition_present_and_equal(conditions, "first", want_status) is want
    assert meta.is_status_condition_true(conditions, "first") is (have == "True")
    assert meta.is_status_condition_false(conditions, "first") is (have == "False")
    assert not meta.is_status_condition_true(conditions, "missing")
