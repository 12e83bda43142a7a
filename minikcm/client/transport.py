"""No upstream twin. The seam under the typed clients: one request call and one watch call.

client-go's typed clients (gentype/type.go) describe each call as a rest.Request
(verb, resource, namespace, name, subresource, body, query options) and hand it
to an HTTP client. Here that description is the argument list of
`Transport.request`, and a transport carries it out: `inprocess.InProcessTransport`
calls the embedded API server, `rest.RESTTransport` the official kubernetes
client, and client-go testing's Fake (`minikcm.client.testing.fake`) can stand in
front of either with its reactor chain. The typed clients (`minikcm.client.typed`)
are written once, over this protocol.

Start reading at: Transport, then body_to_wire.

Design notes: a request's body is what the caller passed (a model or a wire
dict), so a Fake in front records the caller's own object, as client-go's fake
clients record the typed object; each transport turns it into a wire dict with
`body_to_wire`. A transport answers with a wire dict; a reactor may answer with
a model or nothing, and the typed clients accept all three.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

from minikcm.apimachinery import watch
from minikcm.apimachinery.convert import to_wire
from minikcm.apimachinery.meta import DRY_RUN_ALL, ListOptions
from minikcm.apimachinery.schema import ResourceInfo, resource_for_kind, resource_for_model
from minikcm.apimachinery.types import PatchType

WireDict = dict[str, Any]
"""An object in wire form: the JSON Kubernetes sends, camelCase keys."""

VERBS = ("get", "list", "create", "update", "patch", "delete", "delete-collection")
"""The verbs of `Transport.request`, spelled as client-go testing's actions spell them."""

SUBRESOURCE_KINDS: dict[str, tuple[str, str]] = {
    "scale": ("autoscaling/v1", "Scale"),
    "binding": ("v1", "Binding"),
}
"""apiVersion and kind of the bodies a subresource takes when they are not the resource's own."""


class Transport(Protocol):
    """How typed calls reach an API server: the part of rest.Request a typed client uses.

    What each verb carries, following client-go's request building in gentype/type.go:

    | verb | name | body | options |
    | --- | --- | --- | --- |
    | get | the object | - | GetOptions |
    | list | - | - | ListOptions |
    | create | "" (the binding's name for `binding`) | the object | CreateOptions |
    | update | the object's | the object | UpdateOptions |
    | patch | the object | the patch, bytes | PatchOptions (and `patch_type`) |
    | delete | the object | DeleteOptions | - |
    | delete-collection | - | DeleteOptions | ListOptions (the selection) |

    `namespace` is "" for cluster-scoped resources, and for list and watch
    across all namespaces. Subresources are "", "status", "scale" or "binding".
    Thread: any; a transport keeps no per-call state.
    """

    def request(self, verb: str, resource: str, namespace: str, name: str = "",
                subresource: str = "", body: Any = None, options: Any = None, *,
                patch_type: PatchType = "") -> Any:
        """Make one call; returns the server's answer as a wire dict (None for no body).

        Raises: StatusError when the server refuses (Conflict, NotFound, ...).
        """
        ...

    def watch(self, resource: str, namespace: str, options: ListOptions) -> watch.Interface:
        """Open a watch; its events carry wire dicts (ERROR events a Status dict).

        Raises: StatusError when the server refuses the watch itself.
        """
        ...


# --- models in ----------------------------------------------------------------------------------


def object_to_wire(obj: Any, api_version: str, kind: str) -> WireDict:
    """A model or wire dict as a fresh wire dict, with apiVersion and kind filled in when missing.

    The caller's object is never changed: models are dumped, dicts deep-copied.
    """
    wire = to_wire(obj)
    wire.setdefault("apiVersion", api_version)
    wire.setdefault("kind", kind)
    return wire


def body_to_wire(info: ResourceInfo, subresource: str, name: str, body: Any) -> WireDict:
    """A request body (model or dict) as the wire dict a transport sends.

    apiVersion and kind default to the resource's, or to Scale's and Binding's
    for those subresources; metadata.name defaults to the request's `name`
    (update_scale names the object only in the request).
    """
    api_version, kind = SUBRESOURCE_KINDS.get(subresource, (info.api_version, info.kind))
    wire = object_to_wire(body, api_version, kind)
    if name:
        wire.setdefault("metadata", {}).setdefault("name", name)
    return wire


def resource_of(obj: Any) -> ResourceInfo:
    """The served resource an object (model or wire dict) belongs to; KeyError when none."""
    if isinstance(obj, dict):
        info = resource_for_kind(obj.get("apiVersion", ""), obj.get("kind", ""))
    else:
        info = resource_for_model(type(obj))
    if info is None:
        raise KeyError(f"no served resource for object {type(obj).__name__}")
    return info


def patch_bytes(data: bytes | str | Any) -> bytes:
    """A patch body as bytes (Go's []byte): str is encoded, parsed JSON is dumped."""
    if isinstance(data, bytes):
        return data
    if isinstance(data, str):
        return data.encode()
    return json.dumps(data).encode()


def is_dry_run(dry_run: list[str]) -> bool:
    """Whether a dryRun option asks for a dry run (the only value is "All")."""
    return DRY_RUN_ALL in dry_run
