"""No upstream twin. The shape of every served type, read from the official client's models.

kube-apiserver knows its types from Go structs (for decoding) and publishes them
as OpenAPI schemas. minikcm has no Go structs; the `kubernetes` client's
generated models carry the same facts (`attribute_map`: wire names,
`openapi_types`: field types, pydantic field descriptions). This module turns
them into a small, cached type tree that two readers share: field validation
(`minikcm.apiserver.http.fieldvalidation`: unknown fields, wrong types) and the
OpenAPI documents (`minikcm.apiserver.http.openapi`).

Start reading at: model_schema, then parse_type.

Design notes: resource.Quantity is a plain `str` in the client models, but Go
decodes a JSON number into a Quantity too (`cpu: 1` in a manifest). The few
quantity fields of the served types are listed in QUANTITY_FIELDS, so that
decoding can turn such numbers into their canonical strings as the real server
does. IntOrString fields are typed `object` in `openapi_types`; their pydantic
annotation (int or str) tells them apart from free-form objects.
"""

from __future__ import annotations

import functools
import re
import typing
from dataclasses import dataclass, field

from kubernetes import client as k8s

STRING = "string"
INTEGER = "integer"
BOOLEAN = "boolean"
DATETIME = "datetime"
ANY = "any"
INT_OR_STRING = "int-or-string"
QUANTITY = "quantity"
LIST = "list"
MAP = "map"
MODEL = "model"

QUANTITY_FIELDS = frozenset({
    ("V1ResourceRequirements", "limits"), ("V1ResourceRequirements", "requests"),
    ("V1VolumeResourceRequirements", "limits"), ("V1VolumeResourceRequirements", "requests"),
    ("V1PodSpec", "overhead"), ("V1PodStatus", "allocatedResources"),
    ("V1ContainerStatus", "allocatedResources"),
    ("V1PersistentVolumeClaimStatus", "allocatedResources"),
    ("V1PersistentVolumeClaimStatus", "capacity"), ("V1EmptyDirVolumeSource", "sizeLimit"),
})
"""(model, wire field) pairs holding a resource.Quantity, or a map of them."""


@dataclass(frozen=True)
class FieldType:
    """The type of one field: a scalar kind, or a list / map of `item`, or a model by name."""

    kind: str
    item: FieldType | None = None
    model: str = ""

    def __str__(self) -> str:
        if self.kind == LIST:
            return f"[]{self.item}"
        if self.kind == MAP:
            return f"map[string]{self.item}"
        return self.model or self.kind


@dataclass(frozen=True)
class ModelSchema:
    """One model: its wire field names, in the model's order, with their types."""

    name: str
    """The client's class name, e.g. `V1Deployment`."""
    fields: dict[str, FieldType] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    descriptions: dict[str, str] = field(default_factory=dict)

    @property
    def go_name(self) -> str:
        """The Go struct name an error message shows: `V1DeploymentSpec` -> `DeploymentSpec`."""
        return re.sub(r"^(?:Core)?V\d+(?:(?:alpha|beta)\d+)?", "", self.name) or self.name


_GENERIC = re.compile(r"^(List|Dict)\[(.*)\]$")


def parse_type(type_string: str, annotation: object = None) -> FieldType:
    """Read one `openapi_types` string (`List[V1Container]`, `Dict[str, str]`, `int`, ...).

    `annotation` is the pydantic annotation of the field, used only to tell an
    IntOrString (`object` that is int or str) from a free-form object.

    >>> str(parse_type("List[V1Container]"))
    '[]V1Container'
    """
    m = _GENERIC.match(type_string)
    if m and m.group(1) == "List":
        return FieldType(LIST, item=parse_type(m.group(2).strip()))
    if m:
        value = m.group(2).split(",", 1)[1].strip()
        return FieldType(MAP, item=parse_type(value))
    scalar = {"str": STRING, "int": INTEGER, "bool": BOOLEAN, "datetime": DATETIME,
              "float": ANY, "date": STRING, "bytearray": STRING}.get(type_string)
    if scalar is not None:
        return FieldType(scalar)
    if type_string == "object":
        return FieldType(INT_OR_STRING if _is_int_or_string(annotation) else ANY)
    if hasattr(k8s, type_string):
        return FieldType(MODEL, model=type_string)
    return FieldType(ANY)


def _is_int_or_string(annotation: object) -> bool:
    args = set()
    for arg in typing.get_args(annotation):
        args.add(typing.get_origin(arg) is typing.Annotated and typing.get_args(arg)[0] or arg)
    return int in args and str in args


@functools.lru_cache(maxsize=None)
def model_schema(name: str) -> ModelSchema:
    """The schema of the client model class `name` (cached; models never change at run time).

    Raises:
        KeyError: `name` is not a model of the kubernetes client.
    """
    cls = getattr(k8s, name, None)
    if cls is None or not hasattr(cls, "openapi_types"):
        raise KeyError(f"no kubernetes client model named {name!r}")
    fields: dict[str, FieldType] = {}
    required: list[str] = []
    descriptions: dict[str, str] = {}
    model_fields = getattr(cls, "model_fields", {})
    by_alias = {(f.serialization_alias or f.alias or n): f for n, f in model_fields.items()}
    for attr, type_string in cls.openapi_types.items():
        wire = cls.attribute_map.get(attr, attr)
        info = by_alias.get(wire) or model_fields.get(attr)
        ftype = parse_type(type_string, info.annotation if info is not None else None)
        if (name, wire) in QUANTITY_FIELDS:
            ftype = FieldType(MAP, item=FieldType(QUANTITY)) if ftype.kind == MAP else FieldType(QUANTITY)
        fields[wire] = ftype
        if info is not None:
            if info.is_required():
                required.append(wire)
            if info.description:
                descriptions[wire] = info.description
    return ModelSchema(name, fields, tuple(required), descriptions)


def reachable_models(roots: typing.Iterable[str]) -> list[str]:
    """Every model name reachable from `roots` through fields, sorted (for the OpenAPI components)."""
    seen: set[str] = set()
    stack = list(roots)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        for ftype in model_schema(name).fields.values():
            while ftype.item is not None:
                ftype = ftype.item
            if ftype.kind == MODEL and ftype.model not in seen:
                stack.append(ftype.model)
    return sorted(seen)
