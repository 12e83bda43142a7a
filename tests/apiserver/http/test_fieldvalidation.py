"""Tests for minikcm.apiserver.http.fieldvalidation: unknown fields, wrong types, Strict/Warn/Ignore."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import errors, types
from minikcm.apiserver.http.fieldvalidation import (
    format_quantity,
    parse_directive,
    resolve_pointer,
    validate_object,
    validate_patch,
    walk_object,
)

from ..builders import deployment

WALK_CASES = [
    pytest.param({"spec": {"replicas": 1, "foo": 2}}, {"spec": {"replicas": 1}},
                 ['unknown field "spec.foo"'], [], id="unknown-in-spec"),
    pytest.param({"bar": 1}, {}, ['unknown field "bar"'], [], id="unknown-at-top"),
    pytest.param({"spec": {"template": {"spec": {"containers": [{"name": "c", "img": "x"}]}}}},
                 {"spec": {"template": {"spec": {"containers": [{"name": "c"}]}}}},
                 ['unknown field "spec.template.spec.containers[0].img"'], [], id="unknown-in-list-item"),
    pytest.param({"metadata": {"labels": {"any-key": "v"}, "annotations": {"a/b": "c"}}},
                 {"metadata": {"labels": {"any-key": "v"}, "annotations": {"a/b": "c"}}}, [], [],
                 id="map-keys-are-free"),
    pytest.param({"spec": {"replicas": "3"}}, {"spec": {"replicas": None}}, [],
                 ["json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type integer"],
                 id="string-for-integer"),
    pytest.param({"spec": {"replicas": True}}, {"spec": {"replicas": None}}, [],
                 ["json: cannot unmarshal bool into Go struct field DeploymentSpec.spec.replicas of type integer"],
                 id="bool-for-integer"),
    pytest.param({"metadata": {"labels": {"a": 1}}}, {"metadata": {"labels": {"a": None}}}, [],
                 ["json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels.a of type string"],
                 id="number-label"),
    pytest.param({"spec": None, "status": None}, {"spec": None, "status": None}, [], [], id="nulls-are-fine"),
    pytest.param({"spec": {"strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 1}}}},
                 {"spec": {"strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 1}}}}, [], [],
                 id="int-or-string"),
]


@pytest.mark.parametrize("value, want, strict, type_errors", WALK_CASES)
def test_walk_object(value, want, strict, type_errors):
    cleaned, found = walk_object(value, "V1Deployment")
    assert (cleaned, found.strict, found.type_errors) == (want, strict, type_errors)


QUANTITY_CASES = [
    pytest.param(1, "1", id="int"),
    pytest.param(2.0, "2", id="integral-float"),
    pytest.param(0.5, "500m", id="half"),
    pytest.param(1.25, "1250m", id="milli"),
    pytest.param(0.0001, "0.0001", id="finer-than-milli"),
]


@pytest.mark.parametrize("number, want", QUANTITY_CASES)
def test_format_quantity(number, want):
    assert format_quantity(number) == want


DIRECTIVE_CASES = [
    pytest.param(None, "Warn", id="absent-means-warn"),
    pytest.param("", "Warn", id="empty-means-warn"),
    pytest.param("Strict", "Strict", id="strict"),
    pytest.param("Ignore", "Ignore", id="ignore"),
]


@pytest.mark.parametrize("value, want", DIRECTIVE_CASES)
def test_parse_directive(value, want):
    assert parse_directive(value, "CreateOptions") == want


def test_parse_directive_refuses_other_values():
    with pytest.raises(errors.StatusError) as caught:
        parse_directive("strict", "PatchOptions")
    assert caught.value.code == 422 and 'Unsupported value: "strict"' in str(caught.value)


def test_validate_object_reports_duplicates_under_strict():
    with pytest.raises(errors.StatusError) as caught:
        validate_object(deployment("web"), "V1Deployment", "Deployment", "v1", "Strict", ["metadata.name"])
    assert str(caught.value).endswith('strict decoding error: duplicate field "metadata.name"')


def test_validate_object_names_the_kind_from_the_body():
    obj = deployment("web")
    obj["kind"] = "Deploymnt"
    obj["spec"]["x"] = 1
    with pytest.raises(errors.StatusError) as caught:
        validate_object(obj, "V1Deployment", "Deployment", "v1", "Strict")
    assert str(caught.value).startswith('Deploymnt in version "v1" cannot be handled as a Deployment:')


PATCH_CASES = [
    pytest.param(types.STRATEGIC_MERGE_PATCH_TYPE,
                 {"spec": {"template": {"spec": {"$setElementOrder/containers": [{"name": "c"}],
                                                 "containers": [{"name": "c", "$patch": "delete"}]}}}},
                 [], id="strategic-directives-allowed"),
    pytest.param(types.MERGE_PATCH_TYPE, {"spec": {"$patch": "replace"}}, ['unknown field "spec.$patch"'],
                 id="merge-patch-has-no-directives"),
    pytest.param(types.APPLY_PATCH_TYPE, {"spec": {"replicaz": 1}}, ['unknown field "spec.replicaz"'],
                 id="apply"),
    pytest.param(types.JSON_PATCH_TYPE, [{"op": "add", "path": "/spec/foo", "value": 1}],
                 ['unknown field "spec.foo"'], id="json-patch-unknown-path"),
    pytest.param(types.JSON_PATCH_TYPE, [{"op": "add", "path": "/metadata/labels/a~1b", "value": "x"}],
                 [], id="json-patch-into-a-map"),
    pytest.param(types.JSON_PATCH_TYPE,
                 [{"op": "add", "path": "/spec/template/spec/containers/0/env/-", "value": {"name": "A", "valu": 1}}],
                 ['unknown field "spec.template.spec.containers[0].env[-].valu"'], id="json-patch-value"),
]


@pytest.mark.parametrize("patch_type, patch, strict", PATCH_CASES)
def test_validate_patch_warns(patch_type, patch, strict):
    assert validate_patch(patch, patch_type, "V1Deployment", "Warn").warnings == strict


def test_validate_patch_ignore_drops_unknown_json_patch_operations():
    ops = [{"op": "add", "path": "/spec/foo", "value": 1}, {"op": "replace", "path": "/spec/replicas", "value": 2}]
    checked = validate_patch(ops, types.JSON_PATCH_TYPE, "V1Deployment", "Ignore")
    assert checked.value == [ops[1]] and checked.warnings == []


def test_validate_patch_strict_and_type_errors_are_422():
    for patch, directive in (({"spec": {"foo": 1}}, "Strict"), ({"spec": {"replicas": "x"}}, "Ignore")):
        with pytest.raises(errors.StatusError) as caught:
            validate_patch(patch, types.MERGE_PATCH_TYPE, "V1Deployment", directive)
        assert caught.value.code == 422 and caught.value.status()["details"]["causes"][0]["field"] == "patch"


def test_validate_patch_passes_other_shapes_to_the_patcher():
    assert validate_patch({"op": "add"}, types.JSON_PATCH_TYPE, "V1Deployment", "Strict").value == {"op": "add"}
    assert validate_patch([1], types.MERGE_PATCH_TYPE, "V1Deployment", "Strict").value == [1]


def test_resolve_pointer():
    ftype, dotted, owner, unknown = resolve_pointer("/spec/template/spec/containers/0/image", "V1Deployment")
    assert (str(ftype), dotted, owner, unknown) == ("string", "spec.template.spec.containers[0].image",
                                                    "Container", "")
    assert resolve_pointer("/spec/nope/x", "V1Deployment")[3] == "spec.nope"
