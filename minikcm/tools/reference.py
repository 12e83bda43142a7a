"""Port of k8s.io/client-go/tools/reference/ref.go.

Turns an API object into the ObjectReference an Event points at (its
`involvedObject`): kind, apiVersion, namespace, name, uid and resourceVersion.
The event recorder (minikcm.tools.record.event) is its caller.

Start reading at: get_reference.

Differs from Go:
- get_reference takes kind and apiVersion from the object, else from
  minikcm.apimachinery.schema's table of served resources (Go: the scheme).
  The `scheme` parameter is kept for the call shape and ignored.
- Errors are raised: ValueError for None (Go: ErrNilObject) or an object of no
  known kind, TypeError for an object without metadata.
"""

from __future__ import annotations

from typing import Any

from kubernetes.client import V1ListMeta, V1ObjectReference

from minikcm.apimachinery.convert import gvk_of, object_meta

ERR_NIL_OBJECT = "can't reference a nil object"
"""Port of ErrNilObject (tools/reference/ref.go)."""


def get_reference(scheme: Any, obj: Any) -> V1ObjectReference:
    """Port of GetReference (tools/reference/ref.go): an ObjectReference to `obj`.

    A V1ObjectReference is returned as it is. Kind and apiVersion come from
    the object's own fields, else from the served resource its class (or
    kind) belongs to; a list object gives only its resourceVersion.
    Raises: ValueError for None or an object of no known kind; TypeError for
    an object without metadata.
    """
    if obj is None:
        raise ValueError(ERR_NIL_OBJECT)
    if isinstance(obj, V1ObjectReference):
        return obj  # never a reference to a reference
    meta = object_meta(obj)
    gvk = gvk_of(obj)
    if not gvk.kind and not gvk.version:
        raise ValueError(f"unexpected gvks registered for object {type(obj).__name__}: []")
    kind, version = gvk.kind, gvk.group_version()
    if isinstance(meta, V1ListMeta):  # only list metadata
        return V1ObjectReference(kind=kind, api_version=version, resource_version=meta.resource_version)
    return V1ObjectReference(kind=kind, api_version=version, name=meta.name, namespace=meta.namespace,
                             uid=meta.uid, resource_version=meta.resource_version)


def get_partial_reference(scheme: Any, obj: Any, field_path: str) -> V1ObjectReference:
    """Port of GetPartialReference (tools/reference/ref.go): get_reference plus a field path.

    Differs from Go: returns a copy, so a reference passed in is not changed.
    """
    ref = get_reference(scheme, obj).model_copy()
    ref.field_path = field_path
    return ref
