"""No upstream twin. Moving API objects between wire dicts and client models.

The embedded API server keeps objects as wire dicts (camelCase JSON, exactly what
Kubernetes sends); everything on the client side (clientset, caches, controllers)
works with the official `kubernetes` client models (pydantic v2, snake_case).
This module is the one boundary between the two (CONTRACTS.md, "Objects"):

    to_wire(model)        -> dict      model_dump(by_alias, exclude_none, mode="json")
    from_wire(dict, cls)  -> model     model_validate; cls found from apiVersion/kind
    deep_copy(obj)        -> same type Go's DeepCopy(): dump then validate
    object_meta(obj)      -> metadata  for a model or a wire dict
    gvk_of(obj)           -> GroupVersionKind

Upstream has runtime.Scheme, codecs and generated DeepCopy functions for this;
we lean on pydantic instead.

Start reading at: from_wire, then deep_copy.

Design notes: a deep copy goes through `model_dump` (python mode) and
`model_validate`. Measured for a small pod (one container, one owner reference,
one condition; best of 3 x 5000 calls): validate about 11 us, to_wire about 6 us,
deep_copy about 16 us, while `copy.deepcopy` of the model costs about 70 us (and
`model_copy(deep=True)` the same). The python-mode dump keeps datetimes as objects (they are immutable,
so sharing them is safe) and copies every dict and list, including free-form
`Dict[str, Any]` fields such as ControllerRevision.data.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any, TypeVar, overload

from kubernetes import client as k8s
from pydantic import BaseModel

from minikcm.apimachinery import schema
from minikcm.apimachinery.schema import GroupVersionKind

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

# Kinds that are not served resources (so not in schema.RESOURCES) but do
# travel over the wire: the Go scheme registers these with AddKnownTypes.
EXTRA_KINDS: dict[tuple[str, str], type[BaseModel]] = {
    ("v1", "Status"): k8s.V1Status,
    ("meta.k8s.io/v1", "Status"): k8s.V1Status,
    ("autoscaling/v1", "Scale"): k8s.V1Scale,
    ("v1", "DeleteOptions"): k8s.V1DeleteOptions,
    ("meta.k8s.io/v1", "DeleteOptions"): k8s.V1DeleteOptions,
    ("policy/v1", "Eviction"): k8s.V1Eviction,
    ("v1", "Binding"): k8s.V1Binding,
    ("v1", "APIVersions"): k8s.V1APIVersions,
    ("v1", "APIGroupList"): k8s.V1APIGroupList,
    ("v1", "APIGroup"): k8s.V1APIGroup,
    ("v1", "APIResourceList"): k8s.V1APIResourceList,
}
"""Extra (apiVersion, kind) -> model class entries, beside the served resources."""


def model_for_kind(api_version: str, kind: str) -> type[BaseModel] | None:
    """The client model class for an apiVersion and kind, or None when unknown.

    Served resources and their `<Kind>List` come from schema.RESOURCES, the
    rest from EXTRA_KINDS.
    """
    info = schema.resource_for_kind(api_version, kind)
    if info is not None:
        return info.model
    if kind.endswith("List"):
        info = schema.resource_for_kind(api_version, kind[: -len("List")])
        if info is not None:
            return info.list_model
    return EXTRA_KINDS.get((api_version, kind))


def to_wire(obj: BaseModel | dict[str, Any]) -> dict[str, Any]:
    """A wire dict for `obj`: camelCase keys, no null fields, JSON-ready values.

    A dict is taken to be wire form already and is returned as a deep copy, so
    the caller may change the result freely either way.
    """
    if isinstance(obj, dict):
        return copy.deepcopy(obj)
    return obj.model_dump(by_alias=True, exclude_none=True, mode="json")


@overload
def from_wire(d: dict[str, Any], cls: type[M]) -> M: ...
@overload
def from_wire(d: dict[str, Any], cls: None = None) -> BaseModel: ...
def from_wire(d: dict[str, Any], cls: type[BaseModel] | None = None) -> BaseModel:
    """The client model for wire dict `d`.

    With `cls` None, the class comes from `d`'s apiVersion and kind (see
    model_for_kind). `d` itself is not changed or kept.

    Raises:
        ValueError: when `cls` is None and the apiVersion/kind is missing or unknown.
        pydantic.ValidationError: when `d` does not fit the class.
    """
    if cls is None:
        api_version, kind = d.get("apiVersion") or "", d.get("kind") or ""
        if not kind:
            raise ValueError("cannot pick a model class: the object has no kind")
        cls = model_for_kind(api_version, kind)
        if cls is None:
            raise ValueError(f"no model class known for apiVersion {api_version!r}, kind {kind!r}")
    return cls.model_validate(d)


@overload
def deep_copy(obj: None) -> None: ...
@overload
def deep_copy(obj: T) -> T: ...
def deep_copy(obj: Any) -> Any:
    """Go's generated DeepCopy(): an independent copy of `obj`.

    Models are dumped and validated again (see Design notes); dicts and lists
    go through copy.deepcopy; None stays None.
    """
    if obj is None:
        return None
    if isinstance(obj, BaseModel):
        return type(obj).model_validate(obj.model_dump(by_alias=True, exclude_none=True))
    return copy.deepcopy(obj)


class WireObjectMeta:
    """A read-only view of a wire dict's `metadata`, with the model's attribute names.

    Scalars read as the V1ObjectMeta model would show them (None when absent;
    timestamps parsed to datetimes; owner references as V1OwnerReference
    models, built on each read). `labels`, `annotations` and `finalizers` are
    the live containers inside the dict (None when absent): changing them
    changes the object, as with a model. To set anything else, edit the dict.
    """

    __slots__ = ("_m",)

    def __init__(self, metadata: dict[str, Any]) -> None:
        self._m = metadata

    @property
    def name(self) -> str | None:
        return self._m.get("name")

    @property
    def generate_name(self) -> str | None:
        return self._m.get("generateName")

    @property
    def namespace(self) -> str | None:
        return self._m.get("namespace")

    @property
    def uid(self) -> str | None:
        return self._m.get("uid")

    @property
    def resource_version(self) -> str | None:
        return self._m.get("resourceVersion")

    @property
    def generation(self) -> int | None:
        return self._m.get("generation")

    @property
    def labels(self) -> dict[str, str] | None:
        return self._m.get("labels")

    @property
    def annotations(self) -> dict[str, str] | None:
        return self._m.get("annotations")

    @property
    def finalizers(self) -> list[str] | None:
        return self._m.get("finalizers")

    @property
    def deletion_grace_period_seconds(self) -> int | None:
        return self._m.get("deletionGracePeriodSeconds")

    @property
    def creation_timestamp(self) -> datetime | None:
        return _parse_time(self._m.get("creationTimestamp"))

    @property
    def deletion_timestamp(self) -> datetime | None:
        return _parse_time(self._m.get("deletionTimestamp"))

    @property
    def owner_references(self) -> list[k8s.V1OwnerReference] | None:
        refs = self._m.get("ownerReferences")
        if refs is None:
            return None
        return [k8s.V1OwnerReference.model_validate(r) for r in refs]

    def __repr__(self) -> str:
        return f"WireObjectMeta(namespace={self.namespace!r}, name={self.name!r})"


def _parse_time(value: Any) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value).replace("Z", "+00:00"))


def object_meta(obj: Any) -> k8s.V1ObjectMeta | WireObjectMeta:
    """The metadata of a model or of a wire dict (Go: meta.Accessor).

    For a model this is its live V1ObjectMeta; for a dict a WireObjectMeta view
    over `obj["metadata"]`. Reading never changes `obj`: when the metadata is
    missing, the result is a new empty one that is not attached to `obj`.

    Raises:
        TypeError: `obj` is neither a dict nor has a `metadata` attribute.
    """
    cls = type(obj)
    has_metadata = _HAS_METADATA.get(cls)
    if has_metadata is None:  # first object of this class: decide once (reading model_fields is slow)
        has_metadata = _HAS_METADATA[cls] = (not issubclass(cls, (dict, k8s.V1ObjectMeta))
                                             and issubclass(cls, BaseModel) and "metadata" in cls.model_fields)
    if has_metadata:
        meta = obj.metadata
        return k8s.V1ObjectMeta() if meta is None else meta
    if isinstance(obj, dict):
        return WireObjectMeta(obj.get("metadata") or {})
    if isinstance(obj, k8s.V1ObjectMeta):
        return obj
    raise TypeError(f"{type(obj).__name__} has no object metadata")


_HAS_METADATA: dict[type, bool] = {}
"""Class -> it is a client model with a `metadata` field (filled on first sight; classes never change)."""


def gvk_of(obj: Any) -> GroupVersionKind:
    """The GroupVersionKind of a model or wire dict.

    Read from apiVersion/kind when both are set; for a model without them (list
    items usually come without) from the served resource its class belongs to.
    An empty GroupVersionKind when neither tells (Go: an unset TypeMeta).
    """
    if isinstance(obj, dict):
        api_version, kind = obj.get("apiVersion") or "", obj.get("kind") or ""
    else:
        api_version = getattr(obj, "api_version", None) or ""
        kind = getattr(obj, "kind", None) or ""
    if kind and api_version:
        group, version = schema.parse_group_version(api_version)
        return GroupVersionKind(group, version, kind)
    if not isinstance(obj, dict):
        info = schema.resource_for_model(type(obj))
        if info is not None:
            return info.gvk()
        for info in schema.RESOURCES.values():
            if info.list_model is type(obj):
                return GroupVersionKind(info.group, info.version, info.list_kind)
    return GroupVersionKind("", "", "")
