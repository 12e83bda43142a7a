"""No upstream twin. One HTTP request in, one APIServer call, one response out; after endpoints/handlers.

kube-apiserver's REST handlers (apiserver/pkg/endpoints/handlers: get.go,
create.go, update.go, patch.go, delete.go, watch.go) decode the query into
options, the body into an object, call the registry, and encode the answer in
the media type the client asked for. `RESTHandler.handle` does the same over
`minikcm.apiserver.server.APIServer`, for every route of
`minikcm.apiserver.http.routes`:

    GET    collection  list, or watch (?watch=1)     object  get (also /status, /scale)
    POST   collection  create                        pods/{name}/binding
    PUT    object      update (also /status, /scale)
    PATCH  object      the four patch types (also /status, /scale)
    DELETE collection  deletecollection              object  delete (DeleteOptions body or query)

It never raises: every `StatusError` becomes its `Status` with its HTTP code,
and anything unexpected becomes a 500 InternalError Status (the traceback goes
to the log, never to the client). A watch is answered with a `WatchStream`,
which the server writes as chunked newline-delimited JSON.

Start reading at: RESTHandler.handle, then RESTHandler.resource.

List and watch options (resourceVersion, resourceVersionMatch, continue, limit,
sendInitialEvents) are checked and served as kube-apiserver v1.36 does: see the
APIServer's list and watch and docs/appendix-apiserver.md. A watch without
timeoutSeconds ends after a random time between `min_request_timeout` (1800 s,
kube-apiserver's --min-request-timeout) and twice that, as handleWatch does.

Not ported: protobuf responses and CBOR, managedFields (`fieldManager` is
accepted and passed on).
Tricky: kubectl's `create <kind>` generators (checked with kubectl 1.32:
`kubectl create namespace|deployment|service`) send protobuf *bodies* through
client-go's typed clients (`Accept: application/vnd.kubernetes.protobuf,application/json`).
Create and update decode them with `minikcm.apiserver.http.protobuf` for the
kinds it has tables for, and answer in JSON, which that Accept header allows;
an Accept of protobuf alone gets 406. `kubectl create -f`, `kubectl apply -f`
and `kubectl run` send JSON.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Mapping
from email.message import Message
from dataclasses import dataclass, field as dataclass_field
from datetime import datetime
from typing import Any

import yaml

from minikcm.apimachinery import errors, field, meta, types
from minikcm.apimachinery.schema import GroupKind, GroupResource
from minikcm.apimachinery.watch import BOOKMARK, ERROR, Event, Interface as WatchInterface
from minikcm.apiserver import patcher
from minikcm.apiserver.http import decode, discovery, fieldvalidation, openapi, protobuf, routes, tables
from minikcm.apiserver.http.routes import Endpoint, ResourceRequest
from minikcm.apiserver.server import APIServer

log = logging.getLogger(__name__)

MIN_REQUEST_TIMEOUT = 1800.0
"""kube-apiserver's --min-request-timeout default, in seconds."""

JSON = "application/json"
YAML = "application/yaml"


@dataclass
class Request:
    """What the HTTP layer hands over: method, path, parsed query, headers, the whole body."""

    method: str
    path: str
    query: Mapping[str, list[str]] = dataclass_field(default_factory=dict)
    headers: Mapping[str, str] | Message = dataclass_field(default_factory=dict)
    body: bytes = b""

    def param(self, name: str) -> str | None:
        """The first value of a query parameter, or None (Go's url.Values.Get)."""
        values = self.query.get(name)
        return values[0] if values else None

    def header(self, name: str) -> str | None:
        """A header by name, case-insensitively (http.server's headers already are; dicts are not)."""
        value = self.headers.get(name)
        if value is None and isinstance(self.headers, dict):
            value = {k.lower(): v for k, v in self.headers.items()}.get(name.lower())
        return value


@dataclass
class Response:
    """A complete answer."""

    code: int
    body: bytes
    content_type: str = JSON
    warnings: list[str] = dataclass_field(default_factory=list)
    headers: list[tuple[str, str]] = dataclass_field(default_factory=list)


@dataclass
class WatchStream:
    """A watch to stream: the server writes `encode(event)` for each event until the end.

    `timeout_seconds` is the client's timeoutSeconds (None: until the client
    or the server goes away). `watcher.stop()` must be called when done.
    """

    watcher: WatchInterface
    encode: Callable[[Event], bytes]
    timeout_seconds: float | None = None
    content_type: str = JSON


Result = Response | WatchStream


def encode_json(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode("utf-8") + b"\n"


def status_response(err: errors.StatusError) -> Response:
    """Port of ErrorToAPIStatus + WriteObjectNegotiated for errors: the Status with its code."""
    status = err.status()
    code = int(status.get("code") or 500)
    response = Response(code, encode_json(status))
    retry = (status.get("details") or {}).get("retryAfterSeconds")
    if retry:
        response.headers.append(("Retry-After", str(retry)))
    return response


def internal_error() -> errors.StatusError:
    return errors.new_internal_error("an unexpected error occurred while serving the request")


def not_acceptable(message: str) -> errors.StatusError:
    return errors.StatusError({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                               "message": message, "reason": "NotAcceptable", "code": 406})


def method_not_allowed(resource: GroupResource | None = None, verb: str = "") -> errors.StatusError:
    if resource is None:
        return errors.new_generic_server_response(405, "", GroupResource("", ""), "", "", 0, False)
    return errors.new_method_not_supported(resource, verb)


# --- content negotiation ----------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """What the client wants back: `json`, `yaml`, `table` or `partial` (PartialObjectMetadata)."""

    kind: str
    version: str = "v1"


def negotiate(accept: str | None, allow_transform: bool) -> Target:
    """Port of negotiation.NegotiateOutputMediaType, for JSON/YAML and the meta.k8s.io views.

    The first acceptable entry in the client's order wins; Table and
    PartialObjectMetadata only for reads (`allow_transform`).

    Raises:
        StatusError: 406 when nothing offered is acceptable.
    """
    entries = discovery.parse_accept(accept)
    if not entries:
        return Target("json")
    for media, params in entries:
        as_kind = params.get("as")
        if media in ("application/json", "application/*", "*/*") and as_kind:
            if (allow_transform and params.get("g") == "meta.k8s.io"
                    and params.get("v") in ("v1", "v1beta1")):
                if as_kind == "Table":
                    return Target("table", params["v"])
                if as_kind in ("PartialObjectMetadata", "PartialObjectMetadataList"):
                    return Target("partial", params["v"])
            continue
        if media in ("application/json", "application/*", "*/*"):
            return Target("json")
        if media in (YAML, "application/x-yaml", "text/yaml"):
            return Target("yaml")
    raise not_acceptable("only the following media types are accepted: application/json, "
                         "application/yaml, application/json;as=Table;v=v1;g=meta.k8s.io")


def encode_for(target: Target, obj: Any) -> tuple[bytes, str]:
    if target.kind == "yaml":
        return yaml.safe_dump(obj, sort_keys=False).encode("utf-8"), YAML
    return encode_json(obj), JSON


# --- query parsing ------------------------------------------------------------------------


def parse_bool(request: Request, name: str) -> bool | None:
    """Port of Convert_Slice_string_To_bool (apimachinery/pkg/runtime/conversion.go).

    None when absent; "0" and "false" (any case) are False; any other value,
    even an empty one (`?watch`), is True.
    """
    raw = request.param(name)
    if raw is None:
        return None
    return not (raw == "0" or raw.lower() == "false")


def parse_int(request: Request, name: str) -> int | None:
    raw = request.param(name)
    if raw is None or raw == "":
        return None
    try:
        return int(raw, 10)
    except ValueError:
        raise errors.new_bad_request(f'invalid value for query parameter "{name}": strconv.ParseInt: '
                                     f'parsing "{raw}": invalid syntax') from None


def parse_dry_run(values: list[str] | None, options_kind: str) -> bool:
    """Port of ValidateDryRun (apimachinery/pkg/apis/meta/v1/validation): only `All` is known.

    Raises:
        StatusError: 422 on `<options_kind>.meta.k8s.io` for any other value.
    """
    values = [v for v in values or [] if v != ""]
    for value in values:
        if value != "All":
            err = field.not_supported(field.new_path("dryRun"), values, ["All"])
            raise errors.new_invalid(GroupKind("meta.k8s.io", options_kind), "", [err])
    return bool(values)


# --- the handler ----------------------------------------------------------------------------


class RESTHandler:
    """Serves every route over one APIServer. Thread: any (the APIServer is thread-safe).

    `now` gives the time tables measure AGE against (the APIServer's clock by
    default, so that a FakeClock gives deterministic tables).
    """

    def __init__(self, api: APIServer, server_address: str = "127.0.0.1:443",
                 now: Callable[[], datetime] | None = None,
                 min_request_timeout: float = MIN_REQUEST_TIMEOUT,
                 rng: random.Random | None = None) -> None:
        self.api = api
        self.min_request_timeout = min_request_timeout
        """Seconds; a watch without timeoutSeconds lasts between this and twice this (0: forever)."""
        self.rng = rng if rng is not None else random.Random()
        """Draws those watch timeouts; pass `random.Random(seed)` for repeatable ones."""
        self.server_address = server_address
        """host:port the legacy `/api` answer advertises."""
        self.now = now or api.clock.now

    def handle(self, request: Request) -> Result:
        """Answer one request; never raises (see the module docstring)."""
        try:
            route = routes.parse_path(request.path)
            if isinstance(route, Endpoint):
                return self.endpoint(route, request)
            return self.resource(route, request)
        except errors.StatusError as err:
            return status_response(err)
        except Exception:  # the one catch-all: a bug must not kill the connection or leak a trace
            log.exception("unexpected error serving %s %s", request.method, request.path)
            return status_response(internal_error())

    # -- non-resource endpoints ------------------------------------------------------------

    def endpoint(self, route: Endpoint, request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            raise method_not_allowed()
        accept = request.header("Accept")
        if route.kind == routes.VERSION:
            return Response(200, encode_json(discovery.version_info()))
        if route.kind == routes.HEALTH:
            text = discovery.health_body(route.args[0], "verbose" in request.query)
            return Response(200, text.encode(), "text/plain; charset=utf-8")
        if route.kind in (routes.API_ROOT, routes.APIS_ROOT):
            core = route.kind == routes.API_ROOT
            version = discovery.negotiate_discovery(accept)
            if version is not None:
                body = discovery.aggregated_discovery(core, version)
                return Response(200, encode_json(body), discovery.aggregated_content_type(version))
            body = discovery.api_versions(self.server_address) if core else discovery.api_group_list()
            return Response(200, encode_json(body))
        if route.kind == routes.API_GROUP:
            return Response(200, encode_json(discovery.api_group(route.args[0])))
        if route.kind == routes.GROUP_VERSION:
            return Response(200, encode_json(discovery.api_resource_list(*route.args)))
        if route.kind == routes.OPENAPI_V3_ROOT:
            return Response(200, encode_json(openapi.root_document()))
        if route.kind == routes.OPENAPI_V3_GV:
            group, version = routes.openapi_group_version_paths()[route.args[0]]
            return Response(200, openapi.group_version_document(group, version))
        raise routes.not_found()  # /openapi/v2: not served (see openapi's docstring)

    # -- resources -------------------------------------------------------------------------

    def resource(self, req: ResourceRequest, request: Request) -> Result:
        """Dispatch a resource request by method and path shape (see the module table)."""
        method, info = request.method, req.info
        gr = info.group_resource()
        if req.legacy_watch and method != "GET":
            raise method_not_allowed()
        if method in ("GET", "HEAD"):
            if req.subresource is None and (req.legacy_watch or parse_bool(request, "watch")):
                return self.watch(req, request)
            if req.name is None:
                return self.list(req, request)
            if req.subresource == "binding":
                raise method_not_allowed(gr, "get")
            return self.get(req, request)
        if method == "POST":
            if req.name is None and (not info.namespaced or req.namespace is not None):
                return self.create(req, request)
            if req.subresource == "binding":
                return self.create(req, request)
            raise method_not_allowed(gr, "create")
        if req.name is None or req.subresource == "binding":
            if method == "DELETE" and (not info.namespaced or req.namespace is not None):
                return self.delete_collection(req, request)
            raise method_not_allowed(gr, {"PUT": "update", "PATCH": "patch"}.get(method, "delete"))
        if method == "PUT":
            return self.update(req, request)
        if method == "PATCH":
            return self.patch(req, request)
        if method == "DELETE" and req.subresource is None:
            return self.delete(req, request)
        raise method_not_allowed(gr, method.lower())

    def body_model(self, req: ResourceRequest) -> tuple[str, str, str]:
        """(client model, kind, version) a request body of this endpoint must be."""
        if req.subresource == "scale":
            return "V1Scale", "Scale", "v1"
        if req.subresource == "binding":
            return "V1Binding", "Binding", "v1"
        return req.info.model.__name__, req.info.kind, req.info.version

    def reply(self, code: int, obj: Any, target: Target, resource: str, warnings: list[str] | None = None,
              include: str = tables.INCLUDE_METADATA) -> Response:
        """Encode `obj` as the client asked: as is, as a Table, or as PartialObjectMetadata."""
        if target.kind == "table":
            obj = tables.to_table(resource, obj, self.now(), include, api_version=f"meta.k8s.io/{target.version}")
        elif target.kind == "partial":
            obj = as_partial(obj, f"meta.k8s.io/{target.version}")
        body, content_type = encode_for(target, obj)
        return Response(code, body, content_type, list(warnings or []))

    # -- reads -----------------------------------------------------------------------------

    def get(self, req: ResourceRequest, request: Request) -> Response:
        target = negotiate(request.header("Accept"), req.subresource != "scale")
        obj = self.api.get(req.resource, req.namespace, req.name or "", subresource=req.subresource)
        return self.reply(200, obj, target, req.resource, include=table_include(request))

    def list(self, req: ResourceRequest, request: Request) -> Response:
        target = negotiate(request.header("Accept"), True)
        limit = parse_int(request, "limit") or 0
        if limit < 0:
            raise errors.new_bad_request("limit must not be negative")
        result = self.api.list(req.resource, req.namespace or "",
                               label_selector=request.param("labelSelector") or "",
                               field_selector=request.param("fieldSelector") or "",
                               resource_version=request.param("resourceVersion") or "",
                               limit=limit, continue_=request.param("continue") or "",
                               resource_version_match=request.param("resourceVersionMatch") or "",
                               send_initial_events=parse_bool(request, "sendInitialEvents"))
        return self.reply(200, result, target, req.resource, include=table_include(request))

    def watch(self, req: ResourceRequest, request: Request) -> WatchStream:
        """Port of serveWatch (apiserver/pkg/endpoints/handlers/watch.go): open the watch, describe the stream."""
        target = negotiate(request.header("Accept"), True)
        if target.kind == "yaml":
            target = Target("json")  # watch streams are JSON (YAML has no framing here)
        field_selector = request.param("fieldSelector") or ""
        if req.name is not None:  # a watch of one object: by name, as upstream rewrites it
            by_name = f"metadata.name={req.name}"
            field_selector = f"{field_selector},{by_name}" if field_selector else by_name
        timeout = self.watch_timeout(parse_int(request, "timeoutSeconds"))
        watcher = self.api.watch(req.resource, req.namespace or "",
                                 resource_version=request.param("resourceVersion") or "",
                                 label_selector=request.param("labelSelector") or "",
                                 field_selector=field_selector,
                                 allow_bookmarks=bool(parse_bool(request, "allowWatchBookmarks")),
                                 timeout_seconds=timeout,
                                 resource_version_match=request.param("resourceVersionMatch") or "",
                                 send_initial_events=parse_bool(request, "sendInitialEvents"))
        return WatchStream(watcher, self.event_encoder(req.resource, target, table_include(request)),
                           timeout)

    def watch_timeout(self, timeout_seconds: int | None) -> float | None:
        """Port of the timeout choice in handleWatch (apiserver/pkg/endpoints/handlers/get.go).

        The client's timeoutSeconds when positive; otherwise a random time in
        [min_request_timeout, 2 * min_request_timeout), so that the long watches
        of many clients do not all end (and reconnect) at once. None only when
        min_request_timeout is 0.
        """
        if timeout_seconds and timeout_seconds > 0:
            return float(timeout_seconds)
        if self.min_request_timeout > 0:
            return self.min_request_timeout * (self.rng.random() + 1.0)
        return None

    def event_encoder(self, resource: str, target: Target, include: str) -> Callable[[Event], bytes]:
        """One event -> one JSON line; for Table watches only the first event carries the columns."""
        first = [True]

        def encode(event: Event) -> bytes:
            obj = event.object
            if event.type not in (ERROR, BOOKMARK) and isinstance(obj, dict):
                if target.kind == "table":
                    obj = tables.to_table(resource, obj, self.now(), include, headers=first[0],
                                          api_version=f"meta.k8s.io/{target.version}")
                    first[0] = False
                elif target.kind == "partial":
                    obj = tables.partial_object_metadata(obj, f"meta.k8s.io/{target.version}")
            return encode_json({"type": event.type, "object": obj})

        return encode

    # -- writes ----------------------------------------------------------------------------

    def decoded_body(self, request: Request, req: ResourceRequest | None = None) -> decode.Decoded:
        """The request body as JSON values; protobuf only for objects of `req`'s main resource.

        Protobuf bodies (kubectl's `create <kind>` generators) are decoded by
        `minikcm.apiserver.http.protobuf` as the object the endpoint expects.
        Subresources do not take them: their tables skip `status`, which would
        lose a status update silently.
        """
        content_type = request.header("Content-Type")
        if decode.media_type(content_type) == protobuf.CONTENT_TYPE and req is not None:
            if req.subresource is not None:
                raise decode.unsupported_media_type(protobuf.CONTENT_TYPE)
            api_version = f"{req.info.group}/{req.info.version}" if req.info.group else req.info.version
            return decode.Decoded(protobuf.decode_object(request.body, api_version, req.info.kind))
        return decode.decode_body(request.body, content_type)

    def create(self, req: ResourceRequest, request: Request) -> Response:
        """Port of createHandler (apiserver/pkg/endpoints/handlers/create.go)."""
        target = negotiate(request.header("Accept"), False)
        directive = fieldvalidation.parse_directive(request.param("fieldValidation"), "CreateOptions")
        dry_run = parse_dry_run(request.query.get("dryRun"), "CreateOptions")
        decoded = self.decoded_body(request, req)
        model, kind, version = self.body_model(req)
        checked = fieldvalidation.validate_object(decoded.value, model, kind, version, directive,
                                                  decoded.duplicates)
        obj = checked.value
        if req.subresource == "binding":
            check_name(obj, req.name or "")
        result = self.api.create(req.resource, req.namespace, obj, subresource=req.subresource,
                                 dry_run=dry_run)
        return self.reply(201, result, target, req.resource, checked.warnings)

    def update(self, req: ResourceRequest, request: Request) -> Response:
        """Port of UpdateResource (apiserver/pkg/endpoints/handlers/update.go)."""
        target = negotiate(request.header("Accept"), False)
        directive = fieldvalidation.parse_directive(request.param("fieldValidation"), "UpdateOptions")
        dry_run = parse_dry_run(request.query.get("dryRun"), "UpdateOptions")
        decoded = self.decoded_body(request, req)
        model, kind, version = self.body_model(req)
        checked = fieldvalidation.validate_object(decoded.value, model, kind, version, directive,
                                                  decoded.duplicates)
        check_name(checked.value, req.name or "")
        result = self.api.update(req.resource, req.namespace, checked.value, subresource=req.subresource,
                                 dry_run=dry_run)
        return self.reply(200, result, target, req.resource, checked.warnings)

    def patch(self, req: ResourceRequest, request: Request) -> Response:
        """Port of PatchResource (apiserver/pkg/endpoints/handlers/patch.go).

        An apply patch that creates the object answers 201, as upstream does.
        """
        target = negotiate(request.header("Accept"), False)
        patch_type = decode.media_type(request.header("Content-Type"))
        force = bool(parse_bool(request, "force"))
        field_manager = request.param("fieldManager") or ""
        # Go: the options are checked before the body is read
        patcher.validate_patch_options(patch_type, field_manager, force)
        directive = fieldvalidation.parse_directive(request.param("fieldValidation"), "PatchOptions")
        dry_run = parse_dry_run(request.query.get("dryRun"), "PatchOptions")
        if patch_type == types.APPLY_PATCH_TYPE:
            decoded = decode.decode_json_or_yaml(request.body)
        else:
            decoded = decode.decode_json(request.body)
        model, _, _ = self.body_model(req)
        checked = fieldvalidation.validate_patch(decoded.value, patch_type, model, directive,
                                                 decoded.duplicates)
        created = patch_type == types.APPLY_PATCH_TYPE and req.subresource is None and not self.exists(req)
        result = self.api.patch(req.resource, req.namespace, req.name or "", patch_type, checked.value,
                                subresource=req.subresource, dry_run=dry_run,
                                field_manager=field_manager, force=force)
        return self.reply(201 if created else 200, result, target, req.resource, checked.warnings)

    def exists(self, req: ResourceRequest) -> bool:
        try:
            self.api.get(req.resource, req.namespace, req.name or "")
        except errors.StatusError as err:
            if errors.is_not_found(err):
                return False
            raise
        return True

    # -- deletes ---------------------------------------------------------------------------

    def delete_options(self, request: Request) -> meta.DeleteOptions:
        """Port of the option decoding of DeleteResource (apiserver/pkg/endpoints/handlers/delete.go).

        Query parameters first, then a DeleteOptions body on top. The
        deprecated orphanDependents becomes the matching propagation policy.
        """
        options = meta.DeleteOptions(grace_period_seconds=parse_int(request, "gracePeriodSeconds"),
                                     propagation_policy=request.param("propagationPolicy"),
                                     dry_run=list(request.query.get("dryRun") or []))
        orphan = parse_bool(request, "orphanDependents")
        if request.body.strip():
            body = self.decoded_body(request).value
            if body is not None and not isinstance(body, dict):
                raise errors.new_bad_request("the body of a DELETE must be a DeleteOptions object")
            body = body or {}
            options = apply_delete_options_body(options, body)
            if body.get("orphanDependents") is not None:
                orphan = bool(body["orphanDependents"])
        if orphan is not None:
            if options.propagation_policy:
                err = field.invalid(field.new_path("propagationPolicy"), options.propagation_policy,
                                    "orphanDependents and deletionPropagation cannot be both set")
                raise errors.new_invalid(GroupKind("meta.k8s.io", "DeleteOptions"), "", [err])
            options.propagation_policy = (meta.DELETE_PROPAGATION_ORPHAN if orphan
                                          else meta.DELETE_PROPAGATION_BACKGROUND)
        return options

    def delete(self, req: ResourceRequest, request: Request) -> Response:
        """Port of DeleteResource (apiserver/pkg/endpoints/handlers/delete.go)."""
        target = negotiate(request.header("Accept"), False)
        options = self.delete_options(request)
        dry_run = parse_dry_run(options.dry_run, "DeleteOptions")
        result = self.api.delete(req.resource, req.namespace, req.name or "",
                                 preconditions=options.preconditions,
                                 propagation_policy=options.propagation_policy,
                                 grace_period_seconds=options.grace_period_seconds, dry_run=dry_run)
        return self.reply(200, result, target, req.resource)

    def delete_collection(self, req: ResourceRequest, request: Request) -> Response:
        """Port of DeleteCollection (apiserver/pkg/endpoints/handlers/delete.go)."""
        target = negotiate(request.header("Accept"), False)
        options = self.delete_options(request)
        dry_run = parse_dry_run(options.dry_run, "DeleteOptions")
        result = self.api.delete_collection(
            req.resource, req.namespace or "", label_selector=request.param("labelSelector") or "",
            field_selector=request.param("fieldSelector") or "", preconditions=options.preconditions,
            propagation_policy=options.propagation_policy,
            grace_period_seconds=options.grace_period_seconds, dry_run=dry_run)
        return self.reply(200, result, target, req.resource)


def apply_delete_options_body(options: meta.DeleteOptions, body: dict[str, Any]) -> meta.DeleteOptions:
    """Overlay a DeleteOptions wire body on the options read from the query."""
    grace = body.get("gracePeriodSeconds")
    if grace is not None:
        if not isinstance(grace, int) or isinstance(grace, bool):
            raise errors.new_bad_request("gracePeriodSeconds must be an integer")
        options.grace_period_seconds = grace
    policy = body.get("propagationPolicy")
    if policy is not None:
        options.propagation_policy = str(policy)
    dry_run = body.get("dryRun")
    if dry_run is not None:
        if not isinstance(dry_run, list):
            raise errors.new_bad_request("dryRun must be a list of strings")
        options.dry_run = [str(v) for v in dry_run]
    pre = body.get("preconditions")
    if isinstance(pre, dict):
        options.preconditions = meta.Preconditions(uid=pre.get("uid"), resource_version=pre.get("resourceVersion"))
    return options


def check_name(obj: Any, name: str) -> None:
    """Port of checkName (apiserver/pkg/endpoints/handlers/rest.go): body name must be the URL's."""
    obj_name = ((obj.get("metadata") or {}).get("name") or "") if isinstance(obj, dict) else ""
    if obj_name != name:
        raise errors.new_bad_request(
            f"the name of the object ({obj_name}) does not match the name on the URL ({name})")


def table_include(request: Request) -> str:
    """The `includeObject` of TableOptions (default: PartialObjectMetadata rows)."""
    value = request.param("includeObject") or tables.INCLUDE_METADATA
    if value not in (tables.INCLUDE_NONE, tables.INCLUDE_METADATA, tables.INCLUDE_OBJECT):
        raise errors.new_bad_request(f'unrecognized includeObject value: "{value}"')
    return value


def as_partial(obj: dict[str, Any], api_version: str) -> dict[str, Any]:
    """An object as PartialObjectMetadata, a list as PartialObjectMetadataList."""
    if isinstance(obj.get("items"), list):
        return {"kind": "PartialObjectMetadataList", "apiVersion": api_version,
                "metadata": dict(obj.get("metadata") or {}),
                "items": [tables.partial_object_metadata(i, api_version) for i in obj["items"]]}
    return tables.partial_object_metadata(obj, api_version)
