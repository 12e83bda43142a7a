"""Tests for minikcm.apiserver.http.schemas: the type tree read from the client models."""

from __future__ import annotations

import pytest

from minikcm.apiserver.http import schemas
from minikcm.apiserver.http.schemas import FieldType, model_schema, parse_type

PARSE_TYPE_CASES = [
    pytest.param("str", "string", id="string"),
    pytest.param("int", "integer", id="integer"),
    pytest.param("bool", "boolean", id="boolean"),
    pytest.param("datetime", "datetime", id="time"),
    pytest.param("object", "any", id="free-object"),
    pytest.param("List[str]", "[]string", id="list"),
    pytest.param("Dict[str, str]", "map[string]string", id="map"),
    pytest.param("List[V1Container]", "[]V1Container", id="list-of-models"),
    pytest.param("V1ObjectMeta", "V1ObjectMeta", id="model"),
]


@pytest.mark.parametrize("type_string, want", PARSE_TYPE_CASES)
def test_parse_type(type_string, want):
    assert str(parse_type(type_string)) == want


def test_model_schema_uses_wire_names():
    probe = model_schema("V1Probe")
    assert "exec" in probe.fields and "_exec" not in probe.fields
    assert probe.fields["initialDelaySeconds"] == FieldType(schemas.INTEGER)


def test_int_or_string_fields_are_told_apart_from_free_objects():
    assert model_schema("V1ServicePort").fields["targetPort"].kind == schemas.INT_OR_STRING
    assert model_schema("V1ControllerRevision").fields["data"].kind == schemas.ANY


def test_quantity_fields():
    limits = model_schema("V1ResourceRequirements").fields["limits"]
    assert (limits.kind, limits.item.kind) == (schemas.MAP, schemas.QUANTITY)
    assert model_schema("V1ObjectMeta").fields["labels"].item.kind == schemas.STRING


GO_NAME_CASES = [
    pytest.param("V1DeploymentSpec", "DeploymentSpec", id="v1"),
    pytest.param("CoreV1Event", "Event", id="core-prefixed"),
    pytest.param("V1beta1Foo", "Foo", id="beta"),
]


@pytest.mark.parametrize("name, want", GO_NAME_CASES)
def test_go_name(name, want):
    assert schemas.ModelSchema(name).go_name == want


def test_reachable_models_are_sorted_and_complete():
    names = schemas.reachable_models(["V1Deployment"])
    assert names == sorted(names)
    assert {"V1Deployment", "V1PodSpec", "V1Container", "V1ObjectMeta"} <= set(names)


def test_unknown_model():
    with pytest.raises(KeyError):
        model_schema("V1NoSuchThing")
