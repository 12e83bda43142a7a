"""No upstream twin. Decoding the protobuf bodies of kubectl's `create <kind>` generators into wire dicts.

kubectl's generators (`kubectl create namespace`, `create deployment`, `create
service clusterip|nodeport|loadbalancer|externalname`) build typed Go objects
and send them through client-go's typed clients, which speak protobuf:
`Content-Type: application/vnd.kubernetes.protobuf`, and an Accept header that
also lists `application/json`, so answers stay JSON. kube-apiserver decodes
such a body with apimachinery's protobuf serializer
(apimachinery/pkg/runtime/serializer/protobuf) into the Go struct that the
generated `Unmarshal` methods of k8s.io/api fill. This module does the same
job for the messages those generators send, and hands back the dict the same
object would be as JSON, which then takes the JSON path (field validation,
defaulting, validation).

A body is the 4-byte magic `k8s\\x00` followed by a `runtime.Unknown` message:
typeMeta (apiVersion, kind), raw (the object's own message), contentEncoding,
contentType. The object message is read field by field with the tables in
MESSAGES: message name -> {field number: Field}. The field numbers come from
the generated.proto files of k8s.io/api and k8s.io/apimachinery at v0.36.3
(apps/v1, core/v1, meta/v1, util/intstr, api/resource); the tables are ours.

Start reading at: decode_object, then decode_message.

Design notes:
- Go's marshaller writes every non-pointer field, zero or not (`name: ""`,
  `generation: 0`, an empty `creationTimestamp`), and a pointer field only
  when it is set. Go's JSON then omits those zeros (`omitempty`), and the
  server cannot tell a zero from an absent field anyway. So a zero value of a
  non-pointer field is dropped, while a pointer field (`Field.pointer`: the Go
  field is `*int32`, `*IntOrString`, `*bool`, ...) is kept whatever its value:
  `--replicas=0` arrives as a set `replicas: 0`, and must not become 1.
- Field numbers a table does not list are skipped, as every protobuf decoder
  skips fields it does not know (a newer client's fields). Fields a table
  lists as UNSUPPORTED (volumes, probes, affinity, ...: nothing the generators
  send) refuse the body with 415 when present, rather than losing them
  silently. IGNORED fields (`status`) are dropped: the main resource ignores
  status on create and update anyway, and the `status` subresource does not
  take protobuf bodies (see handlers.RESTHandler.decoded_body).
- Kinds with no table (ConfigMap, Secret, Lease, ...) get a 415 that names the
  kind and says to send JSON or YAML (`kubectl create -f <file>`).

Differs from upstream: contentEncoding and contentType of the envelope are
read but not used (apimachinery does not use them either for request bodies);
groups (wire types 3 and 4) are refused as malformed, and packed repeated
numbers are not read (no listed field needs them). A message that appears twice
replaces the first instead of being merged into it (Go's marshaller never
writes one twice).
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from collections.abc import Iterator
from typing import Any, NamedTuple

from minikcm.apimachinery import errors
from minikcm.apimachinery.schema import GroupResource

CONTENT_TYPE = "application/vnd.kubernetes.protobuf"
MAGIC = b"k8s\x00"
"""The prefix of every Kubernetes protobuf body, before the runtime.Unknown envelope."""

# Wire types (the low 3 bits of a field's tag).
VARINT, FIXED64, LENGTH_DELIMITED, START_GROUP, END_GROUP, FIXED32 = 0, 1, 2, 3, 4, 5

# Field kinds: how a field's wire value becomes a JSON value.
STRING = "string"
BYTES = "bytes"          # base64 text, as Go's JSON writes []byte
INT32 = "int32"
INT64 = "int64"
BOOL = "bool"
MESSAGE = "message"      # a nested message: Field.message names its table
INLINE = "inline"        # an embedded Go struct: its fields join the parent's JSON object
MAP = "map"              # map<string, V>: V is a string, or the message Field.message names
INT_OR_STRING = "int-or-string"
TIME = "time"            # metav1.Time: RFC 3339, whole seconds
MICRO_TIME = "micro-time"  # metav1.MicroTime: RFC 3339 with microseconds
QUANTITY = "quantity"    # resource.Quantity: its string
FIELDS_V1 = "fields-v1"  # metav1.FieldsV1: raw JSON bytes, which JSON shows as the object itself
IGNORED = "ignored"
UNSUPPORTED = "unsupported"

VARINT_KINDS = (INT32, INT64, BOOL)


class Field(NamedTuple):
    """One field of a message table."""

    name: str
    """The JSON name."""
    kind: str
    repeated: bool = False
    message: str = ""
    """The nested message (MESSAGE, INLINE) or a map's value message ("" for strings)."""
    pointer: bool = False
    """The Go field is a pointer: a zero value on the wire is a set value, and is kept."""


# Short constructors, so that each table row reads like the field it describes.


def f(name: str, kind: str = STRING, message: str = "", *, pointer: bool = False) -> Field:
    """A single field (a string unless `kind` says otherwise)."""
    return Field(name, kind, False, message, pointer)


def rep(name: str, kind: str = STRING, message: str = "") -> Field:
    """A repeated field (a Go slice: never a pointer)."""
    return Field(name, kind, True, message)


def msg(name: str, message: str, *, pointer: bool = False) -> Field:
    """A nested message."""
    return Field(name, MESSAGE, False, message, pointer)


def unsupported(name: str) -> Field:
    """A field the generators never send and we do not decode: its presence is a 415."""
    return Field(name, UNSUPPORTED)


STATUS = Field("status", IGNORED)

MESSAGES: dict[str, dict[int, Field]] = {
    # --- k8s.io/apimachinery/pkg/apis/meta/v1 -------------------------------------------------
    "ObjectMeta": {
        1: f("name"), 2: f("generateName"), 3: f("namespace"), 4: f("selfLink"), 5: f("uid"),
        6: f("resourceVersion"), 7: f("generation", INT64), 8: f("creationTimestamp", TIME),
        9: f("deletionTimestamp", TIME, pointer=True),
        10: f("deletionGracePeriodSeconds", INT64, pointer=True),
        11: f("labels", MAP), 12: f("annotations", MAP),
        13: rep("ownerReferences", MESSAGE, "OwnerReference"), 14: rep("finalizers"),
        17: rep("managedFields", MESSAGE, "ManagedFieldsEntry"),
    },
    "OwnerReference": {
        5: f("apiVersion"), 1: f("kind"), 3: f("name"), 4: f("uid"),
        6: f("controller", BOOL, pointer=True), 7: f("blockOwnerDeletion", BOOL, pointer=True),
    },
    "ManagedFieldsEntry": {
        1: f("manager"), 2: f("operation"), 3: f("apiVersion"), 4: f("time", TIME, pointer=True),
        6: f("fieldsType"), 7: f("fieldsV1", FIELDS_V1, pointer=True), 8: f("subresource"),
    },
    "LabelSelector": {
        1: f("matchLabels", MAP), 2: rep("matchExpressions", MESSAGE, "LabelSelectorRequirement"),
    },
    "LabelSelectorRequirement": {1: f("key"), 2: f("operator"), 3: rep("values")},
    # --- k8s.io/api/apps/v1 --------------------------------------------------------------------
    "Deployment": {1: msg("metadata", "ObjectMeta"), 2: msg("spec", "DeploymentSpec"), 3: STATUS},
    "DeploymentSpec": {
        1: f("replicas", INT32, pointer=True), 2: msg("selector", "LabelSelector", pointer=True),
        3: msg("template", "PodTemplateSpec"), 4: msg("strategy", "DeploymentStrategy"),
        5: f("minReadySeconds", INT32), 6: f("revisionHistoryLimit", INT32, pointer=True),
        7: f("paused", BOOL), 9: f("progressDeadlineSeconds", INT32, pointer=True),
    },
    "DeploymentStrategy": {
        1: f("type"), 2: msg("rollingUpdate", "RollingUpdateDeployment", pointer=True),
    },
    "RollingUpdateDeployment": {
        1: f("maxUnavailable", INT_OR_STRING, pointer=True), 2: f("maxSurge", INT_OR_STRING, pointer=True),
    },
    # --- k8s.io/api/core/v1 --------------------------------------------------------------------
    "Namespace": {1: msg("metadata", "ObjectMeta"), 2: msg("spec", "NamespaceSpec"), 3: STATUS},
    "NamespaceSpec": {1: rep("finalizers")},
    "Pod": {1: msg("metadata", "ObjectMeta"), 2: msg("spec", "PodSpec"), 3: STATUS},
    "PodTemplateSpec": {1: msg("metadata", "ObjectMeta"), 2: msg("spec", "PodSpec")},
    "PodSpec": {
        1: unsupported("volumes"), 20: rep("initContainers", MESSAGE, "Container"),
        2: rep("containers", MESSAGE, "Container"), 34: unsupported("ephemeralContainers"),
        3: f("restartPolicy"), 4: f("terminationGracePeriodSeconds", INT64, pointer=True),
        5: f("activeDeadlineSeconds", INT64, pointer=True), 6: f("dnsPolicy"), 7: f("nodeSelector", MAP),
        8: f("serviceAccountName"), 9: f("serviceAccount"),
        21: f("automountServiceAccountToken", BOOL, pointer=True), 10: f("nodeName"),
        11: f("hostNetwork", BOOL), 12: f("hostPID", BOOL), 13: f("hostIPC", BOOL),
        27: f("shareProcessNamespace", BOOL, pointer=True), 14: unsupported("securityContext"),
        15: rep("imagePullSecrets", MESSAGE, "LocalObjectReference"), 16: f("hostname"),
        17: f("subdomain"), 18: unsupported("affinity"), 19: f("schedulerName"),
        22: rep("tolerations", MESSAGE, "Toleration"), 23: unsupported("hostAliases"),
        24: f("priorityClassName"), 25: f("priority", INT32, pointer=True), 26: unsupported("dnsConfig"),
        28: unsupported("readinessGates"), 29: f("runtimeClassName", pointer=True),
        30: f("enableServiceLinks", BOOL, pointer=True), 31: f("preemptionPolicy", pointer=True),
        32: f("overhead", MAP, "Quantity"), 33: unsupported("topologySpreadConstraints"),
        35: f("setHostnameAsFQDN", BOOL, pointer=True), 36: unsupported("os"),
        37: f("hostUsers", BOOL, pointer=True), 38: unsupported("schedulingGates"),
        39: unsupported("resourceClaims"), 40: msg("resources", "ResourceRequirements", pointer=True),
        41: f("hostnameOverride", pointer=True), 43: unsupported("schedulingGroup"),
    },
    "Container": {
        1: f("name"), 2: f("image"), 3: rep("command"), 4: rep("args"), 5: f("workingDir"),
        6: rep("ports", MESSAGE, "ContainerPort"), 19: unsupported("envFrom"),
        7: rep("env", MESSAGE, "EnvVar"), 8: msg("resources", "ResourceRequirements"),
        23: unsupported("resizePolicy"), 24: f("restartPolicy", pointer=True),
        25: unsupported("restartPolicyRules"), 9: rep("volumeMounts", MESSAGE, "VolumeMount"),
        21: unsupported("volumeDevices"), 10: unsupported("livenessProbe"),
        11: unsupported("readinessProbe"), 22: unsupported("startupProbe"), 12: unsupported("lifecycle"),
        13: f("terminationMessagePath"), 20: f("terminationMessagePolicy"), 14: f("imagePullPolicy"),
        15: unsupported("securityContext"), 16: f("stdin", BOOL), 17: f("stdinOnce", BOOL),
        18: f("tty", BOOL),
    },
    "ContainerPort": {
        1: f("name"), 2: f("hostPort", INT32), 3: f("containerPort", INT32), 4: f("protocol"),
        5: f("hostIP"),
    },
    "EnvVar": {1: f("name"), 2: f("value"), 3: msg("valueFrom", "EnvVarSource", pointer=True)},
    "EnvVarSource": {
        1: msg("fieldRef", "ObjectFieldSelector", pointer=True),
        2: msg("resourceFieldRef", "ResourceFieldSelector", pointer=True),
        3: msg("configMapKeyRef", "ConfigMapKeySelector", pointer=True),
        4: msg("secretKeyRef", "SecretKeySelector", pointer=True), 5: unsupported("fileKeyRef"),
    },
    "ObjectFieldSelector": {1: f("apiVersion"), 2: f("fieldPath")},
    "ResourceFieldSelector": {1: f("containerName"), 2: f("resource"), 3: f("divisor", QUANTITY)},
    "ConfigMapKeySelector": {
        1: f("localObjectReference", INLINE, "LocalObjectReference"), 2: f("key"),
        3: f("optional", BOOL, pointer=True),
    },
    "SecretKeySelector": {
        1: f("localObjectReference", INLINE, "LocalObjectReference"), 2: f("key"),
        3: f("optional", BOOL, pointer=True),
    },
    "LocalObjectReference": {1: f("name")},
    "ResourceRequirements": {
        1: f("limits", MAP, "Quantity"), 2: f("requests", MAP, "Quantity"),
        3: rep("claims", MESSAGE, "ResourceClaim"),
    },
    "ResourceClaim": {1: f("name"), 2: f("request")},
    "VolumeMount": {
        1: f("name"), 2: f("readOnly", BOOL), 7: f("recursiveReadOnly", pointer=True), 3: f("mountPath"),
        4: f("subPath"), 5: f("mountPropagation", pointer=True), 6: f("subPathExpr"),
    },
    "Toleration": {
        1: f("key"), 2: f("operator"), 3: f("value"), 4: f("effect"),
        5: f("tolerationSeconds", INT64, pointer=True),
    },
    "Service": {1: msg("metadata", "ObjectMeta"), 2: msg("spec", "ServiceSpec"), 3: STATUS},
    "ServiceSpec": {
        1: rep("ports", MESSAGE, "ServicePort"), 2: f("selector", MAP), 3: f("clusterIP"),
        18: rep("clusterIPs"), 4: f("type"), 5: rep("externalIPs"), 7: f("sessionAffinity"),
        8: f("loadBalancerIP"), 9: rep("loadBalancerSourceRanges"), 10: f("externalName"),
        11: f("externalTrafficPolicy"), 12: f("healthCheckNodePort", INT32),
        13: f("publishNotReadyAddresses", BOOL), 14: unsupported("sessionAffinityConfig"),
        19: rep("ipFamilies"), 17: f("ipFamilyPolicy", pointer=True),
        20: f("allocateLoadBalancerNodePorts", BOOL, pointer=True),
        21: f("loadBalancerClass", pointer=True), 22: f("internalTrafficPolicy", pointer=True),
        23: f("trafficDistribution", pointer=True),
    },
    "ServicePort": {
        1: f("name"), 2: f("protocol"), 6: f("appProtocol", pointer=True), 3: f("port", INT32),
        4: f("targetPort", INT_OR_STRING), 5: f("nodePort", INT32),
    },
}
"""Message name -> {field number: Field}, for every message the served generators send."""

KINDS: dict[tuple[str, str], str] = {
    ("v1", "Namespace"): "Namespace",
    ("v1", "Pod"): "Pod",
    ("v1", "Service"): "Service",
    ("apps/v1", "Deployment"): "Deployment",
}
"""(apiVersion, kind) of an envelope -> its top-level message."""

# The small messages that stand for one JSON value (IntOrString, Time, Quantity, FieldsV1).
INT_OR_STRING_TYPE, INT_OR_STRING_INT, INT_OR_STRING_STR = 1, 2, 3
TIME_SECONDS, TIME_NANOS = 1, 2
QUANTITY_STRING = 1
FIELDS_V1_RAW = 1
MAP_KEY, MAP_VALUE = 1, 2
UNKNOWN_TYPE_META, UNKNOWN_RAW, UNKNOWN_CONTENT_ENCODING, UNKNOWN_CONTENT_TYPE = 1, 2, 3, 4
TYPE_META_API_VERSION, TYPE_META_KIND = 1, 2

UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


class ProtobufError(ValueError):
    """The bytes are not a well-formed protobuf message (or not the type the table says)."""


class UnsupportedField(Exception):
    """A field the tables know but do not decode is present; `path` names it."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


# --- the wire format ------------------------------------------------------------------------


def read_varint(data: bytes, pos: int) -> tuple[int, int]:
    """A base-128 varint at `pos`: (value as an unsigned 64-bit number, position after it).

    Raises:
        ProtobufError: truncated, or longer than 10 bytes.
    """
    value = 0
    for shift in range(0, 70, 7):
        if pos >= len(data):
            raise ProtobufError("unexpected end of data inside a varint")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value & 0xFFFFFFFFFFFFFFFF, pos
    raise ProtobufError("varint longer than 10 bytes")


def iter_fields(data: bytes) -> Iterator[tuple[int, int, int | bytes]]:
    """Each field of a message in wire order: (number, wire type, int or bytes).

    Varints and fixed32/fixed64 values come as unsigned ints, length-delimited
    ones as bytes. Nothing is interpreted: that is the tables' job.

    Raises:
        ProtobufError: malformed data (truncated, field number 0, groups).
    """
    pos = 0
    while pos < len(data):
        tag, pos = read_varint(data, pos)
        number, wire = tag >> 3, tag & 7
        if number == 0:
            raise ProtobufError("illegal field number 0")
        if wire == VARINT:
            value, pos = read_varint(data, pos)
            yield number, wire, value
        elif wire == LENGTH_DELIMITED:
            length, pos = read_varint(data, pos)
            if length > len(data) - pos:
                raise ProtobufError(f"field {number}: length {length} runs past the end of the data")
            yield number, wire, data[pos:pos + length]
            pos += length
        elif wire in (FIXED32, FIXED64):
            size = 4 if wire == FIXED32 else 8
            if size > len(data) - pos:
                raise ProtobufError(f"field {number}: unexpected end of data")
            yield number, wire, int.from_bytes(data[pos:pos + size], "little")
            pos += size
        else:
            raise ProtobufError(f"field {number}: unsupported wire type {wire}")


def to_int32(value: int) -> int:
    """A varint's value as Go's int32 (the low 32 bits, two's complement): 2**64 - 1 -> -1."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def to_int64(value: int) -> int:
    value &= 0xFFFFFFFFFFFFFFFF
    return value - (1 << 64) if value >= 1 << 63 else value


def text(data: bytes, path: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtobufError(f"{path}: invalid UTF-8 in a string") from None


# --- messages -------------------------------------------------------------------------------


def decode_message(data: bytes, name: str, path: str = "",
                   messages: dict[str, dict[int, Field]] | None = None) -> dict[str, Any]:
    """The JSON object of one message, read with the table `messages[name]` (MESSAGES by default).

    Zero values of non-pointer fields are left out (see the module's design
    notes); repeated fields append; map entries collect into an object.

    Raises:
        ProtobufError: malformed bytes, or a wire type the table does not expect.
        UnsupportedField: an UNSUPPORTED field is present.
    """
    tables = MESSAGES if messages is None else messages
    table = tables[name]
    out: dict[str, Any] = {}
    for number, wire, raw in iter_fields(data):
        spec = table.get(number)
        if spec is None or spec.kind == IGNORED:
            continue  # a field we do not know, or do not want: skipped, as protobuf decoders do
        where = f"{path}.{spec.name}" if path else spec.name
        want = VARINT if spec.kind in VARINT_KINDS else LENGTH_DELIMITED
        if wire != want:
            raise ProtobufError(f"{where}: wrong wire type {wire} for field {number} of {name}")
        if spec.kind == UNSUPPORTED:
            raise UnsupportedField(where)
        if spec.kind == MAP:
            assert isinstance(raw, bytes)
            key, value = decode_map_entry(raw, spec.message, where, tables)
            out.setdefault(spec.name, {})[key] = value
            continue
        value = decode_value(spec, raw, where, tables)
        if spec.repeated:
            out.setdefault(spec.name, []).append(value)
        elif spec.kind == INLINE:
            out.update(value)  # Go: an embedded struct, inlined in JSON
        elif spec.pointer and value is not None:
            out[spec.name] = value
        elif is_zero(value):
            out.pop(spec.name, None)  # a later zero replaces an earlier value, as Go's decoder does
        else:
            out[spec.name] = value
    return out


def is_zero(value: Any) -> bool:
    """Go's zero value of a non-pointer field, which its JSON leaves out (Time: null)."""
    return value is None or value == "" or value == {} or value is False or (
        isinstance(value, int) and not isinstance(value, bool) and value == 0)


def decode_value(spec: Field, raw: int | bytes, where: str, tables: dict[str, dict[int, Field]]) -> Any:
    """One field's wire value as JSON (the kinds are listed at the top of the module)."""
    if isinstance(raw, int):
        if spec.kind == INT32:
            return to_int32(raw)
        if spec.kind == INT64:
            return to_int64(raw)
        return raw != 0  # BOOL
    if spec.kind == STRING:
        return text(raw, where)
    if spec.kind == BYTES:
        return base64.b64encode(raw).decode("ascii")
    if spec.kind in (MESSAGE, INLINE):
        return decode_message(raw, spec.message, where, tables)
    if spec.kind == INT_OR_STRING:
        return decode_int_or_string(raw, where)
    if spec.kind in (TIME, MICRO_TIME):
        return decode_time(raw, spec.kind == MICRO_TIME)
    if spec.kind == QUANTITY:
        return decode_quantity(raw, where)
    if spec.kind == FIELDS_V1:
        return decode_fields_v1(raw, where)
    raise ProtobufError(f"{where}: the table names an unknown kind {spec.kind!r}")


def decode_map_entry(data: bytes, value_message: str, where: str,
                     tables: dict[str, dict[int, Field]]) -> tuple[str, Any]:
    """A map entry (key = 1, value = 2): a string key, and a string or message value."""
    key, value = "", b""
    for number, wire, raw in iter_fields(data):
        if wire != LENGTH_DELIMITED or not isinstance(raw, bytes):
            raise ProtobufError(f"{where}: wrong wire type {wire} in a map entry")
        if number == MAP_KEY:
            key = text(raw, where)
        elif number == MAP_VALUE:
            value = raw
    if not value_message:
        return key, text(value, f"{where}[{key}]")
    if value_message == "Quantity":
        return key, decode_quantity(value, f"{where}[{key}]") or "0"
    return key, decode_message(value, value_message, f"{where}[{key}]", tables)


def decode_int_or_string(data: bytes, where: str) -> int | str:
    """intstr.IntOrString {type, intVal, strVal} as JSON shows it: the int, or the string."""
    kind, number, string = 0, 0, ""
    for field_number, wire, raw in iter_fields(data):
        if field_number in (INT_OR_STRING_TYPE, INT_OR_STRING_INT) and isinstance(raw, int):
            if field_number == INT_OR_STRING_TYPE:
                kind = to_int64(raw)
            else:
                number = to_int32(raw)
        elif field_number == INT_OR_STRING_STR and isinstance(raw, bytes):
            string = text(raw, where)
        elif field_number in (INT_OR_STRING_TYPE, INT_OR_STRING_INT, INT_OR_STRING_STR):
            raise ProtobufError(f"{where}: wrong wire type {wire} in an IntOrString")
    if kind == 0:
        return number
    if kind == 1:
        return string
    raise ProtobufError(f"{where}: impossible IntOrString type {kind}")


def decode_time(data: bytes, micro: bool) -> str | None:
    """metav1.Time / MicroTime {seconds, nanos} as RFC 3339 text; empty means Go's zero time (None).

    Time keeps whole seconds only (its protobuf reader drops the nanos, so that
    protobuf and JSON writers store the same value); MicroTime keeps microseconds.
    Worked example: seconds=1700000000, nanos=123456789 -> Time
    `2023-11-14T22:13:20Z`, MicroTime `2023-11-14T22:13:20.123456Z`.
    """
    if not data:
        return None
    seconds, nanos = 0, 0
    for number, _, raw in iter_fields(data):
        if number == TIME_SECONDS and isinstance(raw, int):
            seconds = to_int64(raw)
        elif number == TIME_NANOS and isinstance(raw, int):
            nanos = to_int32(raw)
    try:
        moment = UNIX_EPOCH + timedelta(seconds=seconds, microseconds=nanos // 1000 if micro else 0)
    except OverflowError:
        raise ProtobufError(f"time {seconds}s is outside years 1 to 9999") from None
    seconds_text = (f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
                    f"T{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}")
    return f"{seconds_text}.{moment.microsecond:06d}Z" if micro else f"{seconds_text}Z"


def decode_quantity(data: bytes, where: str) -> str:
    """resource.Quantity {string = 1}: the quantity's text (`500m`, `1Gi`)."""
    value = ""
    for number, _, raw in iter_fields(data):
        if number == QUANTITY_STRING and isinstance(raw, bytes):
            value = text(raw, where)
    return value


def decode_fields_v1(data: bytes, where: str) -> Any:
    """metav1.FieldsV1 {Raw = 1}: its raw bytes are JSON, which JSON shows as the value itself."""
    raw_json = b""
    for number, _, raw in iter_fields(data):
        if number == FIELDS_V1_RAW and isinstance(raw, bytes):
            raw_json = raw
    try:
        return json.loads(raw_json or b"{}")
    except ValueError:
        raise ProtobufError(f"{where}: FieldsV1 does not hold JSON") from None


# --- the envelope ---------------------------------------------------------------------------


@dataclass
class Envelope:
    """A decoded runtime.Unknown: the type, and the object's still-encoded message."""

    api_version: str
    kind: str
    raw: bytes
    content_encoding: str = ""
    content_type: str = ""


def decode_envelope(body: bytes) -> Envelope:
    """The magic prefix and the runtime.Unknown message around an object.

    Raises:
        ProtobufError: empty body, no `k8s\\x00` prefix, or a malformed envelope
            (messages as apimachinery's protobuf serializer words them).
    """
    if not body:
        raise ProtobufError("empty data")
    if not body.startswith(MAGIC):
        raise ProtobufError("provided data does not appear to be a protobuf message, "
                            "expected prefix [" + " ".join(str(b) for b in MAGIC) + "]")
    if len(body) == len(MAGIC):
        raise ProtobufError("empty body")
    envelope = Envelope("", "", b"")
    for number, _, raw in iter_fields(body[len(MAGIC):]):
        if not isinstance(raw, bytes):
            continue
        if number == UNKNOWN_TYPE_META:
            for meta_number, _, value in iter_fields(raw):
                if meta_number == TYPE_META_API_VERSION and isinstance(value, bytes):
                    envelope.api_version = text(value, "apiVersion")
                elif meta_number == TYPE_META_KIND and isinstance(value, bytes):
                    envelope.kind = text(value, "kind")
        elif number == UNKNOWN_RAW:
            envelope.raw = raw
        elif number == UNKNOWN_CONTENT_ENCODING:
            envelope.content_encoding = text(raw, "contentEncoding")
        elif number == UNKNOWN_CONTENT_TYPE:
            envelope.content_type = text(raw, "contentType")
    return envelope


def unsupported_kind(api_version: str, kind: str) -> errors.StatusError:
    """415 for a protobuf body of a kind without a table, telling the client what to send instead."""
    return errors.new_generic_server_response(
        415, "", GroupResource("", ""), "",
        f"the server cannot decode protobuf bodies of kind {kind or '<none>'} "
        f"({api_version or 'no apiVersion'}); send the object as JSON or YAML instead "
        f"(for example `kubectl create -f <file>.yaml`)", 0, False)


def decode_object(body: bytes, api_version: str, kind: str) -> dict[str, Any]:
    """A protobuf request body as the wire dict its JSON form would be.

    `api_version` and `kind` are those the endpoint expects: an envelope that
    leaves its type out gets them, as apimachinery fills in a missing kind from
    the target type. They also word the 400 error as the create handler does.

    Raises:
        StatusError: 400 for malformed bodies, 415 for kinds without a table
            and for fields this module does not decode.
    """
    envelope = Envelope("", "", b"")
    try:
        envelope = decode_envelope(body)
        envelope.api_version = envelope.api_version or api_version
        envelope.kind = envelope.kind or kind
        message = KINDS.get((envelope.api_version, envelope.kind))
        if message is None:
            raise unsupported_kind(envelope.api_version, envelope.kind)
        obj: dict[str, Any] = {"apiVersion": envelope.api_version, "kind": envelope.kind}
        obj.update(decode_message(envelope.raw, message))
        return obj
    except ProtobufError as err:
        version = api_version.rsplit("/", 1)[-1]
        raise errors.new_bad_request(
            f'{envelope.kind or kind} in version "{version}" cannot be handled as a {kind}: '
            f"protobuf: {err}") from None
    except UnsupportedField as err:
        raise errors.new_generic_server_response(
            415, "", GroupResource("", ""), "",
            f"the server cannot decode the field {err.path} of a protobuf {envelope.kind}; send the "
            f"object as JSON or YAML instead (for example `kubectl create -f <file>.yaml`)",
            0, False) from None
