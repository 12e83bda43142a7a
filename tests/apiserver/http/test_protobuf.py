"""Tests for minikcm.apiserver.http.protobuf: the wire format, every table, the envelope, the REST path.

The bodies in GOLDEN_CASES are what kubectl 1.32.4 sent for `kubectl create
namespace|deployment|service` (captured with -v=9 against `minikcm apiserver`).
Everything else is built here with a tiny encoder that writes what Go's
generated marshallers write.
"""

from __future__ import annotations

import base64
import json
from datetime import datetime, timezone
from typing import Any

import pytest
from kubernetes import client as k8s

from minikcm.apimachinery import errors
from minikcm.apiserver.http import protobuf
from minikcm.apiserver.http.protobuf import (
    BOOL,
    BYTES,
    FIELDS_V1,
    IGNORED,
    INLINE,
    INT32,
    INT64,
    INT_OR_STRING,
    MAP,
    MESSAGE,
    MESSAGES,
    MICRO_TIME,
    QUANTITY,
    STRING,
    TIME,
    UNSUPPORTED,
    Field,
    ProtobufError,
    UnsupportedField,
    decode_envelope,
    decode_message,
    decode_object,
    decode_time,
    iter_fields,
    read_varint,
    to_int32,
)

from .wire import body_of, call

PROTOBUF = "application/vnd.kubernetes.protobuf"
DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments"

# --- a tiny encoder: what Go's generated Marshal methods write ---------------------------------


def varint(value: int) -> bytes:
    value &= 0xFFFFFFFFFFFFFFFF  # negative numbers go out as ten-byte two's complement
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def tag(number: int, wire: int) -> bytes:
    return varint(number << 3 | wire)


def length_delimited(number: int, payload: bytes) -> bytes:
    return tag(number, 2) + varint(len(payload)) + payload


def encode_time(value: str | None, micro: bool = False) -> bytes:
    if value is None:
        return b""
    moment = datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(timezone.utc)
    seconds = int((moment - protobuf.UNIX_EPOCH).total_seconds() // 1)
    nanos = moment.microsecond * 1000 if micro else 0
    return tag(1, 0) + varint(seconds) + (tag(2, 0) + varint(nanos) if nanos else b"")


def encode_scalar(number: int, spec: Field, value: Any) -> bytes:
    """One field's value (not repeated, not a map)."""
    if spec.kind in (INT32, INT64):
        return tag(number, 0) + varint(value)
    if spec.kind == BOOL:
        return tag(number, 0) + varint(1 if value else 0)
    if spec.kind == STRING:
        return length_delimited(number, value.encode())
    if spec.kind == BYTES:
        return length_delimited(number, base64.b64decode(value))
    if spec.kind == MESSAGE:
        return length_delimited(number, encode(value, spec.message))
    if spec.kind == INT_OR_STRING:
        payload = (tag(1, 0) + varint(1) + tag(2, 0) + varint(0) + length_delimited(3, value.encode())
                   if isinstance(value, str) else tag(1, 0) + varint(0) + tag(2, 0) + varint(value)
                   + length_delimited(3, b""))
        return length_delimited(number, payload)
    if spec.kind in (TIME, MICRO_TIME):
        return length_delimited(number, encode_time(value, spec.kind == MICRO_TIME))
    if spec.kind == QUANTITY:
        return length_delimited(number, length_delimited(1, value.encode()))
    if spec.kind == FIELDS_V1:
        return length_delimited(number, length_delimited(1, json.dumps(value).encode()))
    raise AssertionError(f"no encoding for {spec}")


def zero_of(spec: Field) -> Any:
    """The Go zero value Go's marshaller writes for an unset non-pointer field."""
    return {INT32: 0, INT64: 0, BOOL: False, STRING: "", MESSAGE: {}, INT_OR_STRING: 0,
            TIME: None, QUANTITY: "0"}.get(spec.kind)


def encode(value: dict[str, Any], name: str, *, go_zeros: bool = True,
           tables: dict[str, dict[int, Field]] = MESSAGES) -> bytes:
    """A JSON object as the message `name`; with go_zeros, unset non-pointer fields are written as zeros."""
    out = b""
    for number, spec in sorted(tables[name].items()):
        if spec.kind in (IGNORED, UNSUPPORTED):
            continue
        if spec.kind == INLINE:
            out += length_delimited(number, encode(value, spec.message, go_zeros=go_zeros))
            continue
        if spec.name not in value:
            if go_zeros and not spec.pointer and not spec.repeated and spec.kind != MAP:
                out += encode_scalar(number, spec, zero_of(spec))
            continue
        item = value[spec.name]
        if spec.kind == MAP:
            for key in sorted(item):
                raw = (length_delimited(1, item[key].encode()) if spec.message == "Quantity"
                       else item[key].encode())
                out += length_delimited(number, length_delimited(1, key.encode()) + length_delimited(2, raw))
        elif spec.repeated:
            for element in item:
                out += encode_scalar(number, spec, element)
        else:
            out += encode_scalar(number, spec, item)
    return out


def envelope(api_version: str, kind: str, raw: bytes) -> bytes:
    type_meta = length_delimited(1, api_version.encode()) + length_delimited(2, kind.encode())
    return (protobuf.MAGIC + length_delimited(1, type_meta) + length_delimited(2, raw)
            + length_delimited(3, b"") + length_delimited(4, b""))


# --- the wire format --------------------------------------------------------------------------

VARINT_CASES = [
    pytest.param(b"\x00", 0, 1, id="zero"),
    pytest.param(b"\x01", 1, 1, id="one-byte"),
    pytest.param(b"\x96\x01", 150, 2, id="two-bytes"),
    pytest.param(b"\xff" * 9 + b"\x01", 2**64 - 1, 10, id="ten-bytes-max"),
    pytest.param(b"\x05\xff", 5, 1, id="stops-at-its-end"),
]


@pytest.mark.parametrize("data, value, end", VARINT_CASES)
def test_read_varint(data, value, end):
    assert read_varint(data, 0) == (value, end)


BAD_WIRE_CASES = [
    pytest.param(b"\x80", "end of data", id="truncated-varint"),
    pytest.param(b"\xff" * 10 + b"\x01", "longer than 10", id="varint-too-long"),
    pytest.param(b"\x00\x00", "field number 0", id="field-zero"),
    pytest.param(b"\x0a\x05abc", "runs past the end", id="length-past-end"),
    pytest.param(b"\x0b", "wire type 3", id="group"),
    pytest.param(b"\x0d\x01\x02", "unexpected end", id="truncated-fixed32"),
]


@pytest.mark.parametrize("data, message", BAD_WIRE_CASES)
def test_malformed_wire_data_raises(data, message):
    with pytest.raises(ProtobufError, match=message):
        list(iter_fields(data))


def test_iter_fields_reads_every_wire_type():
    data = (tag(1, 0) + varint(300) + tag(2, 1) + (7).to_bytes(8, "little")
            + length_delimited(3, b"xy") + tag(4, 5) + (9).to_bytes(4, "little"))
    assert list(iter_fields(data)) == [(1, 0, 300), (2, 1, 7), (3, 2, b"xy"), (4, 5, 9)]


INT32_CASES = [
    pytest.param(5, 5, id="positive"),
    pytest.param(2**64 - 1, -1, id="minus-one-as-ten-bytes"),
    pytest.param(2**31, -(2**31), id="wraps-like-go"),
]


@pytest.mark.parametrize("raw, want", INT32_CASES)
def test_to_int32(raw, want):
    assert to_int32(raw) == want


def test_negative_numbers_decode():
    assert decode_message(tag(7, 0) + varint(-5), "ObjectMeta") == {"generation": -5}
    assert decode_message(tag(6, 0) + varint(-1), "DeploymentSpec") == {"revisionHistoryLimit": -1}


def test_unknown_fields_are_skipped():
    known = length_delimited(1, b"x1")
    unknown = (tag(99, 0) + varint(1) + tag(98, 1) + bytes(8) + tag(97, 5) + bytes(4)
               + length_delimited(96, b"\x01\x02"))
    assert decode_message(unknown + known + unknown, "ObjectMeta") == {"name": "x1"}


def test_wrong_wire_type_for_a_known_field_raises():
    with pytest.raises(ProtobufError, match="wrong wire type 0"):
        decode_message(tag(1, 0) + varint(1), "ObjectMeta")


def test_invalid_utf8_in_a_string_raises():
    with pytest.raises(ProtobufError, match="UTF-8"):
        decode_message(length_delimited(1, b"\xff"), "ObjectMeta")


# --- zero values, pointers and the value messages ------------------------------------------------

ZERO_CASES = [
    pytest.param("DeploymentSpec", tag(1, 0) + varint(0), {"replicas": 0}, id="pointer-zero-replicas-kept"),
    pytest.param("DeploymentSpec", tag(5, 0) + varint(0), {}, id="plain-zero-dropped"),
    pytest.param("DeploymentSpec", tag(7, 0) + varint(0), {}, id="false-dropped"),
    pytest.param("RollingUpdateDeployment", length_delimited(2, tag(1, 0) + varint(0)), {"maxSurge": 0},
                 id="pointer-int-or-string-zero-kept"),
    pytest.param("ServicePort", length_delimited(4, tag(1, 0) + varint(0)), {}, id="plain-int-or-string-zero-dropped"),
    pytest.param("ObjectMeta", length_delimited(8, b""), {}, id="zero-time-dropped"),
    pytest.param("DeploymentSpec", length_delimited(2, b""), {"selector": {}}, id="pointer-empty-message-kept"),
    pytest.param("DeploymentSpec", length_delimited(4, b""), {}, id="plain-empty-message-dropped"),
    pytest.param("ObjectMeta", length_delimited(1, b"a") + length_delimited(1, b""), {}, id="later-zero-wins"),
    pytest.param("Container", length_delimited(3, b"") + length_delimited(3, b"x"), {"command": ["", "x"]},
                 id="repeated-keeps-empty-items"),
]


@pytest.mark.parametrize("message, data, want", ZERO_CASES)
def test_zero_values_follow_go_pointers(message, data, want):
    assert decode_message(data, message) == want


INT_OR_STRING_CASES = [
    pytest.param(tag(1, 0) + varint(0) + tag(2, 0) + varint(8080), 8080, id="int"),
    pytest.param(tag(1, 0) + varint(1) + length_delimited(3, b"25%"), "25%", id="string"),
    pytest.param(tag(2, 0) + varint(-3), -3, id="negative-int-type-left-out"),
    pytest.param(tag(1, 0) + varint(1), "", id="empty-string"),
]


@pytest.mark.parametrize("data, want", INT_OR_STRING_CASES)
def test_int_or_string(data, want):
    assert decode_message(length_delimited(1, data), "RollingUpdateDeployment") == {"maxUnavailable": want}


def test_int_or_string_with_an_impossible_type_raises():
    with pytest.raises(ProtobufError, match="impossible IntOrString type 2"):
        decode_message(length_delimited(1, tag(1, 0) + varint(2)), "RollingUpdateDeployment")


TIME_CASES = [
    pytest.param(b"", False, None, id="empty-is-zero-time"),
    pytest.param(tag(1, 0) + varint(1700000000) + tag(2, 0) + varint(123456789), False,
                 "2023-11-14T22:13:20Z", id="time-drops-nanos"),
    pytest.param(tag(1, 0) + varint(1700000000) + tag(2, 0) + varint(123456789), True,
                 "2023-11-14T22:13:20.123456Z", id="micro-time-keeps-microseconds"),
    pytest.param(tag(1, 0) + varint(0), False, "1970-01-01T00:00:00Z", id="explicit-epoch"),
    pytest.param(tag(1, 0) + varint(-62135596800), False, "0001-01-01T00:00:00Z", id="year-one-padded"),
]


@pytest.mark.parametrize("data, micro, want", TIME_CASES)
def test_decode_time(data, micro, want):
    assert decode_time(data, micro) == want


def test_time_out_of_range_raises():
    with pytest.raises(ProtobufError, match="outside years"):
        decode_time(tag(1, 0) + varint(10**13), False)


def test_bytes_become_base64():
    table = {"Blob": {1: Field("data", BYTES), 2: Field("items", BYTES, repeated=True)}}
    data = length_delimited(1, b"\x00\xffhi") + length_delimited(2, b"a") + length_delimited(2, b"")
    assert decode_message(data, "Blob", messages=table) == {"data": "AP9oaQ==", "items": ["YQ==", ""]}


def test_maps_of_strings_and_quantities():
    entry = length_delimited(1, b"cpu") + length_delimited(2, length_delimited(1, b"500m"))
    empty = length_delimited(1, b"memory")  # no value: Go's zero Quantity
    got = decode_message(length_delimited(1, entry) + length_delimited(1, empty), "ResourceRequirements")
    assert got == {"limits": {"cpu": "500m", "memory": "0"}}
    labels = length_delimited(11, length_delimited(1, b"app") + length_delimited(2, b"web"))
    assert decode_message(labels, "ObjectMeta") == {"labels": {"app": "web"}}


def test_embedded_struct_is_inlined():
    ref = length_delimited(1, length_delimited(1, b"settings")) + length_delimited(2, b"key")
    assert decode_message(ref, "ConfigMapKeySelector") == {"name": "settings", "key": "key"}


def test_managed_fields_keep_their_json():
    entry = (length_delimited(1, b"kubectl") + length_delimited(6, b"FieldsV1")
             + length_delimited(7, length_delimited(1, b'{"f:spec":{}}')))
    assert decode_message(length_delimited(17, entry), "ObjectMeta") == {
        "managedFields": [{"manager": "kubectl", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}}}]}


UNSUPPORTED_CASES = [
    pytest.param("PodSpec", length_delimited(1, b""), "spec.volumes", id="volumes"),
    pytest.param("Container", length_delimited(10, b""), "spec.livenessProbe", id="probe"),
    pytest.param("ServiceSpec", length_delimited(14, b""), "spec.sessionAffinityConfig", id="affinity-config"),
]


@pytest.mark.parametrize("message, data, path", UNSUPPORTED_CASES)
def test_unsupported_fields_are_refused_not_dropped(message, data, path):
    with pytest.raises(UnsupportedField) as caught:
        decode_message(data, message, "spec")
    assert caught.value.path == path


def test_status_is_ignored():
    status = length_delimited(3, tag(2, 0) + varint(4))
    assert decode_message(status, "Deployment") == {}


# --- every table round-trips ------------------------------------------------------------------


def sample(name: str, depth: int = 0) -> dict[str, Any]:
    """A value for every decodable field of a message, none of them zero."""
    out: dict[str, Any] = {}
    for number, spec in sorted(MESSAGES[name].items()):
        if spec.kind in (IGNORED, UNSUPPORTED):
            continue
        if spec.kind == INLINE:
            out.update(sample(spec.message, depth + 1))
            continue
        if spec.kind == MAP:
            out[spec.name] = {"a": "1Gi", "b": "250m"} if spec.message == "Quantity" else {"a": "x", "b": "y"}
            continue
        one = sample_value(spec, number, depth)
        out[spec.name] = [one, sample_value(spec, number + 1, depth)] if spec.repeated else one
    return out


def sample_value(spec: Field, number: int, depth: int) -> Any:
    kinds: dict[str, Any] = {
        STRING: f"s{number}", INT32: number, INT64: -number * 1000, BOOL: True,
        INT_OR_STRING: "25%" if number % 2 else number, TIME: "2024-02-03T04:05:06Z",
        QUANTITY: "2Gi", FIELDS_V1: {"f:metadata": {"f:name": {}}},
    }
    if spec.kind == MESSAGE:
        return sample(spec.message, depth + 1)
    return kinds[spec.kind]


@pytest.mark.parametrize("name", sorted(MESSAGES), ids=sorted(MESSAGES))
def test_every_table_round_trips(name):
    value = sample(name)
    assert decode_message(encode(value, name), name) == value


GO_ZERO_JSON = {"ResourceFieldSelector": {"divisor": "0"}}
"""Go's JSON of an all-zero message where it is not `{}`: a zero Quantity is still written, as "0"."""


@pytest.mark.parametrize("name", sorted(MESSAGES), ids=sorted(MESSAGES))
def test_go_zero_values_decode_to_nothing(name):
    assert decode_message(encode({}, name, go_zeros=True), name) == GO_ZERO_JSON.get(name, {})


@pytest.mark.parametrize("name", sorted(MESSAGES), ids=sorted(MESSAGES))
def test_table_names_are_the_official_models_wire_names(name):
    """Every JSON name of a table is a field of the official client's model of that message."""
    model = getattr(k8s, f"V1{name}", None) or getattr(k8s, f"CoreV1{name}")
    wire = set(model.attribute_map.values())
    assert [spec.name for spec in MESSAGES[name].values() if spec.kind != INLINE and spec.name not in wire] == []


def test_tables_have_distinct_field_numbers_and_names():
    for name, table in MESSAGES.items():
        names = [spec.name for spec in table.values()]
        assert len(names) == len(set(names)), name
        for spec in table.values():
            if spec.kind in (MESSAGE, INLINE):
                assert spec.message in MESSAGES, (name, spec)


# --- the envelope and whole objects -------------------------------------------------------------

NAMESPACE_BODY = bytes.fromhex("".join("""
6b 38 73 00 0a 0f 0a 02 76 31 12 09 4e 61 6d 65 73 70 61 63 65 12 1a 0a 12 0a 02 78 31 12 00 1a
00 22 00 2a 00 32 00 38 00 42 00 12 00 1a 02 0a 00 1a 00 22 00""".split()))

DEPLOYMENT_BODY = bytes.fromhex("".join("""
6b 38 73 00 0a 15 0a 07 61 70 70 73 2f 76 31 12 0a 44 65 70 6c 6f 79 6d 65 6e 74 12 b0 01 0a 1f
0a 03 77 65 62 12 00 1a 00 22 00 2a 00 32 00 38 00 42 00 5a 0a 0a 03 61 70 70 12 03 77 65 62 12
7f 08 03 12 0c 0a 0a 0a 03 61 70 70 12 03 77 65 62 1a 65 0a 1c 0a 00 12 00 1a 00 22 00 2a 00 32
00 38 00 42 00 5a 0a 0a 03 61 70 70 12 03 77 65 62 12 45 12 27 0a 05 6e 67 69 6e 78 12 0a 6e 67
69 6e 78 3a 31 2e 32 35 2a 00 42 00 6a 00 72 00 80 01 00 88 01 00 90 01 00 a2 01 00 1a 00 32 00
42 00 4a 00 52 00 58 00 60 00 68 00 82 01 00 8a 01 00 9a 01 00 c2 01 00 22 02 0a 00 28 00 38 00
1a 0c 08 00 10 00 18 00 20 00 28 00 38 00 1a 00 22 00""".split()))

SERVICE_BODY = bytes.fromhex("".join("""
6b 38 73 00 0a 0d 0a 02 76 31 12 07 53 65 72 76 69 63 65 12 63 0a 1b 0a 01 73 12 00 1a 00 22 00
2a 00 32 00 38 00 42 00 5a 08 0a 03 61 70 70 12 01 73 12 40 0a 1b 0a 07 38 30 2d 38 30 38 30 12
03 54 43 50 18 50 22 07 08 00 10 90 3f 1a 00 28 00 12 08 0a 03 61 70 70 12 01 73 1a 00 22 09 43
6c 75 73 74 65 72 49 50 3a 00 42 00 52 00 5a 00 60 00 68 00 1a 02 0a 00 1a 00 22 00""".split()))

GOLDEN_CASES = [
    pytest.param(NAMESPACE_BODY, "v1", "Namespace",
                 {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "x1"}},
                 id="kubectl-create-namespace"),
    pytest.param(DEPLOYMENT_BODY, "apps/v1", "Deployment",
                 {"apiVersion": "apps/v1", "kind": "Deployment",
                  "metadata": {"name": "web", "labels": {"app": "web"}},
                  "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                           "template": {"metadata": {"labels": {"app": "web"}},
                                        "spec": {"containers": [{"name": "nginx", "image": "nginx:1.25"}]}}}},
                 id="kubectl-create-deployment"),
    pytest.param(SERVICE_BODY, "v1", "Service",
                 {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s", "labels": {"app": "s"}},
                  "spec": {"ports": [{"name": "80-8080", "protocol": "TCP", "port": 80, "targetPort": 8080}],
                           "selector": {"app": "s"}, "type": "ClusterIP"}},
                 id="kubectl-create-service-clusterip"),
]


@pytest.mark.parametrize("body, api_version, kind, want", GOLDEN_CASES)
def test_kubectl_bodies_decode_to_their_json(body, api_version, kind, want):
    assert decode_object(body, api_version, kind) == want


def test_envelope_fields():
    body = (protobuf.MAGIC + length_delimited(1, length_delimited(1, b"v1") + length_delimited(2, b"Pod"))
            + length_delimited(2, b"\x0a\x00") + length_delimited(3, b"gzip") + length_delimited(4, b"x/y"))
    assert decode_envelope(body) == protobuf.Envelope("v1", "Pod", b"\x0a\x00", "gzip", "x/y")


def test_missing_type_comes_from_the_endpoint():
    body = protobuf.MAGIC + length_delimited(2, length_delimited(1, length_delimited(1, b"p")))
    assert decode_object(body, "v1", "Pod") == {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}


BAD_BODY_CASES = [
    pytest.param(b"", "empty data", id="empty"),
    pytest.param(b"\x0a\x03abc", "expected prefix [107 56 115 0]", id="no-magic"),
    pytest.param(protobuf.MAGIC, "empty body", id="only-magic"),
    pytest.param(protobuf.MAGIC + b"\x0a\x09", "runs past the end", id="truncated-envelope"),
    pytest.param(envelope("apps/v1", "Deployment", b"\x0a"), "end of data", id="truncated-object"),
]


@pytest.mark.parametrize("body, message", BAD_BODY_CASES)
def test_malformed_bodies_are_400(body, message):
    with pytest.raises(errors.StatusError) as caught:
        decode_object(body, "apps/v1", "Deployment")
    assert caught.value.code == 400 and message in str(caught.value)
    assert 'cannot be handled as a Deployment' in str(caught.value)


def test_kinds_without_a_table_are_415_naming_the_kind():
    with pytest.raises(errors.StatusError) as caught:
        decode_object(envelope("v1", "ConfigMap", b""), "v1", "ConfigMap")
    status = caught.value.status()
    assert status["code"] == 415 and status["reason"] == "UnsupportedMediaType"
    assert "ConfigMap" in status["message"] and "kubectl create -f" in status["message"]


def test_unsupported_field_is_415_naming_the_field():
    pod = encode({"metadata": {"name": "p"}}, "Pod") + length_delimited(2, length_delimited(1, b""))
    with pytest.raises(errors.StatusError) as caught:
        decode_object(envelope("v1", "Pod", pod), "v1", "Pod")
    assert caught.value.code == 415 and "spec.volumes" in str(caught.value)


# --- through the REST handler -------------------------------------------------------------------


def deployment_body(name: str, replicas: int | None = 2) -> bytes:
    spec: dict[str, Any] = {"selector": {"matchLabels": {"app": name}},
                            "template": {"metadata": {"labels": {"app": name}},
                                         "spec": {"containers": [{"name": "c", "image": "nginx:1.25"}]}},
                            "strategy": {"type": "RollingUpdate",
                                         "rollingUpdate": {"maxSurge": 0, "maxUnavailable": "50%"}}}
    if replicas is not None:
        spec["replicas"] = replicas
    return envelope("apps/v1", "Deployment", encode({"metadata": {"name": name}, "spec": spec}, "Deployment"))


KUBECTL_ACCEPT = "application/vnd.kubernetes.protobuf,application/json"


def test_create_from_protobuf_answers_json(handler, server):
    response = call(handler, "POST", f"{DEPLOYMENTS}?fieldManager=kubectl-create&fieldValidation=Strict",
                    deployment_body("web", replicas=0), content_type=PROTOBUF, accept=KUBECTL_ACCEPT)
    assert response.code == 201 and response.content_type == "application/json"
    stored = server.get("deployments", "default", "web")
    assert body_of(response)["metadata"]["uid"] == stored["metadata"]["uid"]
    assert stored["spec"]["replicas"] == 0  # a pointer zero stays zero, not the default 1
    assert stored["spec"]["strategy"]["rollingUpdate"] == {"maxSurge": 0, "maxUnavailable": "50%"}
    assert stored["spec"]["revisionHistoryLimit"] == 10  # defaulting ran, as for JSON


def test_protobuf_create_is_validated_like_json(handler, server):
    body = envelope("apps/v1", "Deployment", encode({"metadata": {"name": "bad"}, "spec": {}}, "Deployment"))
    response = call(handler, "POST", DEPLOYMENTS, body, content_type=PROTOBUF)
    assert response.code == 422 and body_of(response)["reason"] == "Invalid"
    assert server.list("deployments", "default")["items"] == []


def test_update_from_protobuf(handler, server):
    call(handler, "POST", DEPLOYMENTS, deployment_body("web"), content_type=PROTOBUF)
    response = call(handler, "PUT", f"{DEPLOYMENTS}/web", deployment_body("web", replicas=5),
                    content_type=PROTOBUF)
    assert response.code == 200 and server.get("deployments", "default", "web")["spec"]["replicas"] == 5


def test_subresources_refuse_protobuf(handler, server):
    call(handler, "POST", DEPLOYMENTS, deployment_body("web"), content_type=PROTOBUF)
    response = call(handler, "PUT", f"{DEPLOYMENTS}/web/status", deployment_body("web"), content_type=PROTOBUF)
    assert response.code == 415


def test_protobuf_of_another_served_kind_without_a_table_is_415(handler):
    body = envelope("apps/v1", "ReplicaSet", b"")
    response = call(handler, "POST", "/apis/apps/v1/namespaces/default/replicasets", body, content_type=PROTOBUF)
    assert response.code == 415 and "ReplicaSet" in body_of(response)["message"]
