"""No upstream twin. JSON `null` inside lists and maps, read the way decoding into Go types reads it.

kube-apiserver decodes every request body into its Go struct (sigs.k8s.io/json,
a strict variant of encoding/json) before defaulting and validation see it. A
`null` that stands for a whole element of a slice, or for one value of a map,
cannot stay null there: the decoder makes room for the element and leaves it
at its Go zero value. So `"containers": [null]` reaches validation as one
empty container and is refused with 422 Invalid naming the element
(`spec.containers[0].name: Required value`), `"args": [null]` is stored as
`[""]`, `"ownerReferences": [null]` fails on the empty reference's apiVersion,
kind, name and uid, and `"labels": {"a": null}` becomes the label `a=""`.

The embedded server keeps wire dicts instead of Go structs, so without this
step a null element travelled on into defaulting and validation, which read
every element as a dict or a string, and the write failed with an unexpected
exception (a 500 over HTTP). `zero_null_items` turns such nulls into the zero
value of the element type, found in the same type tree the HTTP front uses for
field validation (`minikcm.apiserver.http.schemas`, built from the official
client's models). The registry calls it on its private copy of every create,
update, patch result and seeded object, before defaulting, so a refused write
fails before anything is stored.

`decode_typed` is the whole decoding step the registry runs: besides the
nulls above, it refuses values of the wrong JSON type (400 `cannot be handled
as a <Kind>: json: cannot unmarshal ...`, naming the Go struct field), integers
beyond int64, malformed quantities and times (their Go parse errors), and
drops unknown fields and null fields, as decoding into the Go struct does. The
patcher runs the same check on a patched object (422 Invalid on `patch`).

Start reading at: decode_typed, then zero_null_items.

Differs from Go: the type tree has no int32/int64 distinction; the int32
fields of INT32_FIELDS are checked, other int32 fields take any int64. A null field is dropped, except
the struct-valued STRUCT_VALUE_FIELDS (`{}`) and the probe ports of
SCALAR_VALUE_FIELDS (0); Go also zeroes other non-pointer scalars, which
readers here treat as missing anyway. Quantities and times are checked, not
rewritten into their canonical forms. Elements whose Go zero value encodes as
null (a nested list or map, a timestamp, a free-form object) stay null, as the
Go object would encode them.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from minikcm.apimachinery import errors, resource
from minikcm.apiserver.http import schemas
from minikcm.apiserver.http.fieldvalidation import format_quantity
from minikcm.apiserver.http.schemas import FieldType

_ZERO: dict[str, Any] = {
    schemas.STRING: "",
    schemas.INTEGER: 0,
    schemas.BOOLEAN: False,
    schemas.QUANTITY: "0",
    schemas.INT_OR_STRING: 0,
}
"""Zero values of scalar kinds, as a Go zero value encodes. Kinds not listed encode as null."""


def zero_of(ftype: FieldType) -> Any:
    """The wire form of the Go zero value of `ftype`: `{}` for a struct, "" for a string, ...

    A nested list or map, a timestamp and a free-form value have none other than
    null (a nil slice, nil map, zero metav1.Time and empty RawExtension all encode
    as null), so they get None.
    """
    if ftype.kind == schemas.MODEL:
        return {}
    return _ZERO.get(ftype.kind)


def zero_null_items(obj: Any, model: str) -> None:
    """Replace, in place, every null list element and map value of `obj` by its Go zero value.

    `obj` is a wire dict of the client model class named `model` (for example
    "V1Pod"). Every depth is visited: list elements inside lists of structs,
    struct fields inside list elements, and so on. Fields the model does not
    know, and values of the wrong JSON type, are left alone (the HTTP front
    refuses those earlier; in process they are not looked at).
    """
    _visit(obj, FieldType(schemas.MODEL, model=model))


def _visit(value: Any, ftype: FieldType) -> None:
    if value is None:
        return
    if ftype.kind == schemas.MODEL:
        if not isinstance(value, dict):
            return
        fields = schemas.model_schema(ftype.model).fields
        for key, item in value.items():
            if key in fields:
                _visit(item, fields[key])
    elif ftype.kind == schemas.LIST and isinstance(value, list):
        assert ftype.item is not None
        for i, item in enumerate(value):
            if item is None:
                value[i] = item = zero_of(ftype.item)
            _visit(item, ftype.item)
    elif ftype.kind == schemas.MAP and isinstance(value, dict):
        assert ftype.item is not None
        for key, item in value.items():
            if item is None:
                value[key] = item = zero_of(ftype.item)
            _visit(item, ftype.item)


# --- typed decoding: wrong JSON types, as decoding into the Go struct refuses them ---------

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

_JSON_TYPE = {str: "string", bool: "bool", int: "number", float: "number", list: "array", dict: "object"}


INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT32_FIELDS = frozenset({
    ("V1DeploymentSpec", "replicas"), ("V1DeploymentSpec", "minReadySeconds"),
    ("V1DeploymentSpec", "revisionHistoryLimit"), ("V1DeploymentSpec", "progressDeadlineSeconds"),
    ("V1ReplicaSetSpec", "replicas"), ("V1ReplicaSetSpec", "minReadySeconds"),
    ("V1StatefulSetSpec", "replicas"), ("V1StatefulSetSpec", "minReadySeconds"),
    ("V1StatefulSetSpec", "revisionHistoryLimit"), ("V1RollingUpdateStatefulSetStrategy", "partition"),
    ("V1ScaleSpec", "replicas"), ("V1ContainerPort", "containerPort"), ("V1ContainerPort", "hostPort"),
    ("V1LeaseSpec", "leaseDurationSeconds"), ("V1LeaseSpec", "leaseTransitions"),
    ("V1Probe", "initialDelaySeconds"), ("V1Probe", "periodSeconds"), ("V1Probe", "timeoutSeconds"),
    ("V1Probe", "successThreshold"), ("V1Probe", "failureThreshold"),
})
"""(model, field) pairs that are int32 in Go (the client's type tree only says `int`): the ones the
workload controllers read. Other integer fields are checked against int64 only."""
_INT32 = FieldType("int32")

STRUCT_VALUE_FIELDS = frozenset({"metadata", "spec", "status", "template"})
"""Fields that are struct values (not pointers) in every served type: null decodes to `{}`."""


SCALAR_VALUE_FIELDS = frozenset({("V1HTTPGetAction", "port"), ("V1TCPSocketAction", "port")})
"""Non-pointer IntOrString fields without defaulting: null or missing decodes to 0, which Go
always encodes (the client models require these fields)."""
_MODELS_WITH_SCALAR_VALUES = frozenset(owner for owner, _ in SCALAR_VALUE_FIELDS)


class _Mismatch(Exception):
    """A value of the wrong JSON type; the path is filled in while the walk unwinds."""

    def __init__(self, value: Any, ftype: FieldType) -> None:
        super().__init__()
        self.value = value
        self.ftype = ftype
        self.owner = ""
        self.parts: list[str] = []

    def message(self) -> str:
        """encoding/json's UnmarshalTypeError text, with the field's full path."""
        value = self.value
        shown = _JSON_TYPE.get(type(value), "value")
        if shown == "number":
            shown = f"number {value}"
        path = "".join(reversed(self.parts)).lstrip(".")
        where = f"Go struct field {self.owner}.{path}" if self.owner else "Go value"
        return f"json: cannot unmarshal {shown} into {where} of type {self.ftype}"


class _BadQuantity(Exception):
    """A value whose own decoder refuses it (a quantity, a time); the message is Go's error text."""


def decode_typed(obj: dict[str, Any], model: str, kind: str, version: str) -> None:
    """Check `obj` against the Go type the way kube-apiserver's decoder does, in place.

    Every field the model knows must hold its JSON type (an integer within
    int64, a string, a bool, an object, a list); quantities must parse and JSON
    numbers in quantity fields become their canonical strings; null list
    elements and map values become their Go zero values (see zero_null_items);
    null fields are dropped (a nil pointer, an omitted zero value), except the
    struct-valued STRUCT_VALUE_FIELDS, which become `{}`. Unknown fields are
    dropped, as decoding into the Go struct drops them (the HTTP front has
    already warned about them or refused them, per `fieldValidation`).

    Raises:
        StatusError: 400 BadRequest `<Kind> in version "<v>" cannot be handled
            as a <Kind>: json: cannot unmarshal ...` for the first wrong value,
            or the quantity parser's error for a bad quantity (Go names no
            field for that one).
    """
    reason = type_error(obj, model)
    if not reason:
        return
    body_kind = obj.get("kind") if isinstance(obj.get("kind"), str) and obj.get("kind") else kind
    raise errors.new_bad_request(f'{body_kind} in version "{version}" cannot be handled as a {kind}: {reason}')


def type_error(obj: dict[str, Any], model: str) -> str:
    """Decode `obj` in place as decode_typed does; the first error's text, or "" when it decodes."""
    try:
        _check_model(obj, model)
    except _Mismatch as err:
        return err.message()
    except _BadQuantity as err:
        return str(err)
    return ""


def _check_model(value: dict[str, Any], model: str) -> None:
    schema = schemas.model_schema(model)
    fields = schema.fields
    nulls = None
    for key, item in value.items():
        ftype = fields.get(key)
        if ftype is None:
            nulls = (nulls or []) + [key]  # unknown: decoding drops it
            continue
        if item is None:
            nulls = (nulls or []) + [key]
            continue
        try:
            checked = _check(item, ftype)
            if (model, key) in INT32_FIELDS and not INT32_MIN <= item <= INT32_MAX:
                raise _Mismatch(item, _INT32)
        except _Mismatch as err:
            err.parts.append(f".{key}")
            if not err.owner:
                err.owner = schema.go_name
            raise
        if checked is not item:
            value[key] = checked
    for key in nulls or ():
        if key in STRUCT_VALUE_FIELDS and key in fields and fields[key].kind == schemas.MODEL:
            value[key] = {}
        else:
            del value[key]
    if model in _MODELS_WITH_SCALAR_VALUES:
        for owner, key in SCALAR_VALUE_FIELDS:
            if owner == model and key not in value:
                value[key] = zero_of(fields[key])


def _check(value: Any, ftype: FieldType) -> Any:
    """`value` (not None) checked against `ftype`; returns it, or its decoded replacement."""
    kind = ftype.kind
    if kind == schemas.MODEL:
        if not isinstance(value, dict):
            raise _Mismatch(value, ftype)
        _check_model(value, ftype.model)
        return value
    if kind == schemas.LIST or kind == schemas.MAP:
        if not isinstance(value, list if kind == schemas.LIST else dict):
            raise _Mismatch(value, ftype)
        item_type = ftype.item
        assert item_type is not None
        keys = range(len(value)) if kind == schemas.LIST else list(value)
        for key in keys:
            item = value[key]
            if item is None:
                value[key] = zero_of(item_type)
                continue
            try:
                checked = _check(item, item_type)
            except _Mismatch as err:
                err.parts.append(f"[{key}]" if kind == schemas.LIST else f".{key}")
                raise
            if checked is not item:
                value[key] = checked
        return value
    if kind == schemas.STRING:
        if not isinstance(value, str):
            raise _Mismatch(value, ftype)
    elif kind == schemas.DATETIME:
        if not isinstance(value, str):
            raise _Mismatch(value, ftype)
        if not _is_rfc3339(value):
            raise _BadQuantity(f'parsing time "{value}" as "{RFC3339}": cannot parse "{value}" as RFC 3339')
    elif kind == schemas.INTEGER:
        if type(value) is not int or not INT64_MIN <= value <= INT64_MAX:
            raise _Mismatch(value, ftype)
    elif kind == schemas.BOOLEAN:
        if not isinstance(value, bool):
            raise _Mismatch(value, ftype)
    elif kind == schemas.INT_OR_STRING:
        if not isinstance(value, str) and (type(value) is not int or not INT64_MIN <= value <= INT64_MAX):
            raise _Mismatch(value, ftype)
    elif kind == schemas.QUANTITY:
        return _check_quantity(value, ftype)
    return value


def _check_quantity(value: Any, ftype: FieldType) -> Any:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise _Mismatch(value, ftype)
    text = value.strip() if isinstance(value, str) else _number_literal(value)
    problem = resource.quantity_error(text)
    if problem:
        raise _BadQuantity(problem)
    return value if isinstance(value, str) else format_quantity(value)


RFC3339 = "2006-01-02T15:04:05Z07:00"
"""Go's layout name for the format metav1.Time and MicroTime parse."""

_RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})")


def _is_rfc3339(text: str) -> bool:
    """Whether metav1.Time's UnmarshalJSON (time.Parse with RFC 3339) reads `text`."""
    if not _RFC3339.fullmatch(text):
        return False
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _number_literal(number: int | float) -> str:
    """The JSON text of a number, which Go hands to ParseQuantity as it is."""
    return str(number) if isinstance(number, int) else repr(number)
