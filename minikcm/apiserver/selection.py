"""No upstream twin. Which objects a list or watch selects: label and field selectors.

Upstream splits this over storage.SelectionPredicate (apiserver/pkg/storage/selection_predicate.go),
generic.ObjectMetaFieldsSet (apiserver/pkg/registry/generic/matcher.go) and each
resource's ToSelectableFields in pkg/registry/<group>/<resource>/strategy.go. Here
it is one table: `SELECTABLE_FIELDS` names, per resource, the fields a
fieldSelector may use, and `selectable_fields` reads them from a wire object.

Start reading at: new_selection_predicate, then SelectionPredicate.matches.

Differs from upstream: the field label conversion functions of the scheme (which
reject unknown field labels) are folded into `new_selection_predicate`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from minikcm.apimachinery import errors, fields, labels
from minikcm.apimachinery.schema import resource_info

# What each resource adds to metadata.name (and metadata.namespace when namespaced).
# Values are read from the wire object; a missing one reads as "".


def _pod_fields(obj: dict[str, Any]) -> dict[str, str]:
    spec = obj.get("spec") or {}
    status = obj.get("status") or {}
    pod_ips = status.get("podIPs") or []
    return {
        "spec.nodeName": spec.get("nodeName") or "",
        "spec.restartPolicy": spec.get("restartPolicy") or "",
        "spec.schedulerName": spec.get("schedulerName") or "",
        "spec.serviceAccountName": spec.get("serviceAccountName") or "",
        "spec.hostNetwork": "true" if spec.get("hostNetwork") else "false",
        "status.phase": status.get("phase") or "",
        "status.podIP": (pod_ips[0].get("ip") or "") if pod_ips else "",
        "status.nominatedNodeName": status.get("nominatedNodeName") or "",
    }


def _event_fields(obj: dict[str, Any]) -> dict[str, str]:
    involved = obj.get("involvedObject") or {}
    source = (obj.get("source") or {}).get("component") or obj.get("reportingComponent") or ""
    return {
        "involvedObject.kind": involved.get("kind") or "",
        "involvedObject.namespace": involved.get("namespace") or "",
        "involvedObject.name": involved.get("name") or "",
        "involvedObject.uid": involved.get("uid") or "",
        "involvedObject.apiVersion": involved.get("apiVersion") or "",
        "involvedObject.resourceVersion": involved.get("resourceVersion") or "",
        "involvedObject.fieldPath": involved.get("fieldPath") or "",
        "reason": obj.get("reason") or "",
        "reportingComponent": obj.get("reportingComponent") or "",
        "source": source,
        "type": obj.get("type") or "",
    }


def _namespace_fields(obj: dict[str, Any]) -> dict[str, str]:
    return {"status.phase": (obj.get("status") or {}).get("phase") or ""}


def _node_fields(obj: dict[str, Any]) -> dict[str, str]:
    return {"spec.unschedulable": "true" if (obj.get("spec") or {}).get("unschedulable") else "false"}


def _replica_set_fields(obj: dict[str, Any]) -> dict[str, str]:
    return {"status.replicas": str((obj.get("status") or {}).get("replicas") or 0)}


def _service_fields(obj: dict[str, Any]) -> dict[str, str]:
    spec = obj.get("spec") or {}
    return {"spec.clusterIP": spec.get("clusterIP") or "", "spec.type": spec.get("type") or ""}


SELECTABLE_FIELDS: dict[str, Callable[[dict[str, Any]], dict[str, str]]] = {
    "pods": _pod_fields,
    "events": _event_fields,
    "namespaces": _namespace_fields,
    "nodes": _node_fields,
    "replicasets": _replica_set_fields,
    "services": _service_fields,
}
"""Per resource, the function giving its own selectable fields (after upstream's ToSelectableFields)."""


def selectable_fields(resource: str, obj: dict[str, Any]) -> fields.Set:
    """The field set a fieldSelector is matched against: metadata fields plus the resource's own.

    After upstream's generic.AddObjectMetaFieldsSet: `metadata.name` always,
    `metadata.namespace` for namespaced resources.
    """
    meta = obj.get("metadata") or {}
    out = fields.Set({"metadata.name": meta.get("name") or ""})
    if resource_info(resource).namespaced:
        out["metadata.namespace"] = meta.get("namespace") or ""
    own = SELECTABLE_FIELDS.get(resource)
    if own is not None:
        out.update(own(obj))
    return out


def supported_field_labels(resource: str) -> frozenset[str]:
    """Field labels a fieldSelector on `resource` may name."""
    probe = {"metadata": {"name": "", "namespace": ""}}
    return frozenset(selectable_fields(resource, probe))


@dataclass(frozen=True)
class SelectionPredicate:
    """Port of storage.SelectionPredicate (apiserver/pkg/storage/selection_predicate.go).

    A label selector and a field selector, both required.

    An empty predicate selects everything without reading the object.
    """

    resource: str
    label: labels.Selector
    field: fields.Selector

    def empty(self) -> bool:
        """Port of SelectionPredicate.Empty (apiserver/pkg/storage/selection_predicate.go)."""
        return self.label.empty() and self.field.empty()

    def matches(self, obj: dict[str, Any]) -> bool:
        """Port of SelectionPredicate.Matches (apiserver/pkg/storage/selection_predicate.go).

        Whether `obj` passes both selectors.
        """
        if self.empty():
            return True
        if not self.label.matches((obj.get("metadata") or {}).get("labels") or {}):
            return False
        if self.field.empty():
            return True
        return self.field.matches(selectable_fields(self.resource, obj))

    def __str__(self) -> str:
        return f"labels={self.label}, fields={self.field}"


def new_selection_predicate(resource: str, label_selector: str = "",
                            field_selector: str = "") -> SelectionPredicate:
    """Parse the two selector strings of a list or watch request for `resource`.

    Raises:
        StatusError: BadRequest for a malformed selector, or for a field label
            the resource does not support (`field label not supported: spec.foo`).
    """
    try:
        label = labels.parse(label_selector) if label_selector else labels.everything()
    except ValueError as err:
        raise errors.new_bad_request(str(err)) from err
    supported = supported_field_labels(resource)

    def check_label(name: str, value: str) -> tuple[str, str]:
        if name not in supported:
            raise ValueError(f"field label not supported: {name}")
        return name, value

    try:
        field = (fields.parse_and_transform_selector(field_selector, check_label)
                 if field_selector else fields.everything())
    except ValueError as err:
        raise errors.new_bad_request(str(err)) from err
    return SelectionPredicate(resource, label, field)
