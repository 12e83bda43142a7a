"""No upstream twin. The OpenAPI v3 documents, after kube-openapi's spec3 handler (`/openapi/v3`).

kubectl's default validation (`--validate=strict`) needs OpenAPI: it fetches
`/openapi/v3`, follows the link to the group version of the object it sends,
and looks for a PATCH operation of that kind that lists the `fieldValidation`
query parameter. When it finds one, it leaves validation to the server
(`?fieldValidation=Strict`, see `minikcm.apiserver.http.fieldvalidation`);
without OpenAPI, `kubectl create -f` and `kubectl apply -f` fail outright.

So each group version document has a path per resource, collection and
subresource with the operations the server serves, each tagged with
`x-kubernetes-group-version-kind` and its query parameters, and a
`components.schemas` section built from the official client's models
(`minikcm.apiserver.http.schemas`) so that `kubectl explain` has something to
show. Everything is generated offline, deterministically, once per process.

Start reading at: group_version_document, then root_document.

Design notes: no operation declares a `requestBody`. When a PATCH operation
lists `application/strategic-merge-patch+json`, client-side `kubectl apply`
computes its strategic merge patch from these schemas, which lack the patch
merge keys (`x-kubernetes-patch-merge-key`) the client models do not carry,
and the patch would replace lists it should merge. Without it, kubectl falls
back to `/openapi/v2` (404 here) and then to its compiled-in Go types, which
are exact for every built-in kind.

Not ported: `/openapi/v2` (kubectl copes with its absence, see above), ETag
and `Cache-Control: immutable` handling, the `hash` check.
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from minikcm.apimachinery.schema import ResourceInfo
from minikcm.apiserver.http import schemas
from minikcm.apiserver.http.discovery import GIT_VERSION, SUBRESOURCE_KINDS, resources_in
from minikcm.apiserver.http.routes import UNSERVED_SUBRESOURCES, openapi_group_version_paths, subresources_of
from minikcm.apiserver.http.schemas import FieldType

EXTRA_MODELS = ("V1Scale", "V1Status", "V1DeleteOptions", "V1Binding", "V1Eviction")
"""Models every document includes besides the kinds of its group version."""

_QUERY = {
    "dryRun": "When present, modifications are not persisted. The only valid value is All.",
    "fieldManager": "A name associated with the actor or entity that is making these changes.",
    "fieldValidation": "How to handle unknown or duplicate fields: Ignore, Warn (default) or Strict.",
    "force": "Force apply requests: take ownership of conflicting fields (apply patches only).",
    "gracePeriodSeconds": "The duration in seconds before the object should be deleted.",
    "propagationPolicy": "Whether and how garbage collection is performed: Orphan, Background or Foreground.",
    "labelSelector": "A selector to restrict the list of returned objects by their labels.",
    "fieldSelector": "A selector to restrict the list of returned objects by their fields.",
    "limit": "The maximum number of responses to return for a list call.",
    "continue": "The continue token of the previous page of a list.",
    "resourceVersion": "The version of the resource to read, or to watch from.",
    "timeoutSeconds": "Timeout for the list or watch call.",
    "watch": "Watch for changes and stream them as events.",
    "allowWatchBookmarks": "Ask for BOOKMARK events in a watch.",
}

_QUERY_BY_ACTION = {
    "patch": ("dryRun", "fieldManager", "fieldValidation", "force"),
    "post": ("dryRun", "fieldManager", "fieldValidation"),
    "put": ("dryRun", "fieldManager", "fieldValidation"),
    "delete": ("dryRun", "gracePeriodSeconds", "propagationPolicy"),
    "deletecollection": ("dryRun", "gracePeriodSeconds", "propagationPolicy", "labelSelector",
                         "fieldSelector"),
    "list": ("labelSelector", "fieldSelector", "limit", "continue", "resourceVersion",
             "timeoutSeconds", "watch", "allowWatchBookmarks"),
    "get": (),
}

_INTEGER_PARAMS = ("gracePeriodSeconds", "limit", "timeoutSeconds")
_BOOLEAN_PARAMS = ("force", "watch", "allowWatchBookmarks")


def _ref(model: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{model}"}


def _parameter(name: str, where: str = "query") -> dict[str, Any]:
    kind = "integer" if name in _INTEGER_PARAMS else "boolean" if name in _BOOLEAN_PARAMS else "string"
    param: dict[str, Any] = {"name": name, "in": where, "schema": {"type": kind, "uniqueItems": True}}
    if where == "path":
        param["required"] = True
        param["description"] = f"{name} of the object"
    else:
        param["description"] = _QUERY[name]
    return param


def _operation(action: str, operation_id: str, gvk: tuple[str, str, str], response: str) -> dict[str, Any]:
    group, version, kind = gvk
    return {
        "operationId": operation_id,
        "x-kubernetes-action": action,
        "x-kubernetes-group-version-kind": {"group": group, "version": version, "kind": kind},
        "parameters": [_parameter(p) for p in _QUERY_BY_ACTION[action]],
        "responses": {"200": {"description": "OK",
                              "content": {"application/json": {"schema": _ref(response)}}}},
    }


def _resource_paths(info: ResourceInfo, base: str) -> dict[str, dict[str, Any]]:
    """The paths of one resource: collection, object, subresources, and the all-namespaces list."""
    model, list_model = info.model.__name__, info.list_model.__name__
    gvk = (info.group, info.version, info.kind)
    scope = "Namespaced" if info.namespaced else ""
    prefix = f"{base}/namespaces/{{namespace}}" if info.namespaced else base
    common = [_parameter("namespace", "path")] if info.namespaced else []
    named = [*common, _parameter("name", "path")]
    paths: dict[str, dict[str, Any]] = {
        f"{prefix}/{info.resource}": {
            "get": _operation("list", f"list{scope}{info.kind}", gvk, list_model),
            "post": _operation("post", f"create{scope}{info.kind}", gvk, model),
            "delete": _operation("deletecollection", f"deleteCollection{scope}{info.kind}", gvk, "V1Status"),
            "parameters": common,
        },
        f"{prefix}/{info.resource}/{{name}}": {
            "get": _operation("get", f"read{scope}{info.kind}", gvk, model),
            "put": _operation("put", f"replace{scope}{info.kind}", gvk, model),
            "patch": _operation("patch", f"patch{scope}{info.kind}", gvk, model),
            "delete": _operation("delete", f"delete{scope}{info.kind}", gvk, "V1Status"),
            "parameters": named,
        },
    }
    if info.namespaced:
        paths[f"{base}/{info.resource}"] = {
            "get": _operation("list", f"list{info.kind}ForAllNamespaces", gvk, list_model),
            "parameters": []}
    for sub in subresources_of(info):
        if sub in UNSERVED_SUBRESOURCES:
            continue  # no objects: they answer why the simulation stops there
        sub_gvk = SUBRESOURCE_KINDS.get(sub, gvk)
        sub_model = {"scale": "V1Scale", "binding": "V1Binding", "eviction": "V1Eviction"}.get(sub, model)
        title = f"{scope}{info.kind}{sub.capitalize()}"
        if sub in ("binding", "eviction"):
            ops = {"post": _operation("post", f"create{title}", sub_gvk, sub_model)}
        else:
            ops = {"get": _operation("get", f"read{title}", sub_gvk, sub_model),
                   "put": _operation("put", f"replace{title}", sub_gvk, sub_model),
                   "patch": _operation("patch", f"patch{title}", sub_gvk, sub_model)}
        paths[f"{prefix}/{info.resource}/{{name}}/{sub}"] = {**ops, "parameters": named}
    return paths


def field_schema(ftype: FieldType, description: str = "") -> dict[str, Any]:
    """The OpenAPI schema of one field type."""
    kind = ftype.kind
    if kind == schemas.MODEL:
        out: dict[str, Any] = {"allOf": [_ref(ftype.model)]}
    elif kind == schemas.LIST:
        assert ftype.item is not None
        out = {"type": "array", "items": field_schema(ftype.item)}
    elif kind == schemas.MAP:
        assert ftype.item is not None
        out = {"type": "object", "additionalProperties": field_schema(ftype.item)}
    elif kind == schemas.INT_OR_STRING:
        out = {"x-kubernetes-int-or-string": True}
    elif kind == schemas.QUANTITY:
        out = {"type": "string", "format": "quantity"}
    elif kind == schemas.DATETIME:
        out = {"type": "string", "format": "date-time"}
    elif kind == schemas.ANY:
        out = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
    else:
        out = {"type": kind}
    if description:
        out["description"] = description
    return out


def model_component(name: str, gvk: tuple[str, str, str] | None) -> dict[str, Any]:
    """The `components.schemas` entry of one model (with its GVK when it is a served kind)."""
    schema = schemas.model_schema(name)
    out: dict[str, Any] = {
        "type": "object",
        "properties": {f: field_schema(t, schema.descriptions.get(f, ""))
                       for f, t in schema.fields.items()},
    }
    if gvk is not None:
        group, version, kind = gvk
        out["x-kubernetes-group-version-kind"] = [{"group": group, "kind": kind, "version": version}]
    return out


@functools.lru_cache(maxsize=None)
def _document_bytes(group: str, version: str) -> bytes:
    base = f"/apis/{group}/{version}" if group else f"/api/{version}"
    infos = resources_in(group, version)
    paths: dict[str, Any] = {}
    kinds: dict[str, tuple[str, str, str]] = {}
    for info in infos:
        paths.update(_resource_paths(info, base))
        kinds[info.model.__name__] = (info.group, info.version, info.kind)
        kinds[info.list_model.__name__] = (info.group, info.version, info.list_kind)
    kinds.setdefault("V1Scale", ("autoscaling", "v1", "Scale"))
    roots = sorted(set(kinds) | set(EXTRA_MODELS))
    components = {name: model_component(name, kinds.get(name)) for name in schemas.reachable_models(roots)}
    document = {
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": GIT_VERSION},
        "paths": dict(sorted(paths.items())),
        "components": {"schemas": components},
    }
    return json.dumps(document, separators=(",", ":"), sort_keys=False).encode()


def group_version_document(group: str, version: str) -> bytes:
    """The serialized document of one group version (`/openapi/v3/apis/{g}/{v}`), cached."""
    return _document_bytes(group, version)


def document_hash(group: str, version: str) -> str:
    """The content hash in the document's URL (upper-case hex SHA-512, as upstream forms it)."""
    return hashlib.sha512(group_version_document(group, version)).hexdigest().upper()


def root_document() -> dict[str, Any]:
    """The `/openapi/v3` body: one link per group version, carrying its content hash."""
    paths = {}
    for path, (group, version) in sorted(openapi_group_version_paths().items()):
        paths[path] = {"serverRelativeURL": f"/openapi/v3/{path}?hash={document_hash(group, version)}"}
    return {"paths": paths}
