"""No upstream twin. The REST clientset: the typed clients over the official `kubernetes` client.

client-go's typed clients build a rest.Request per call (gentype/type.go) and send
it over HTTP. `RESTTransport` makes the same requests through the official
Python client's generated APIs (`CoreV1Api`, `AppsV1Api`, `CoordinationV1Api`)
built from a kubeconfig, so the controllers that run on the in-process backend
run unchanged against `minikcm up`'s HTTPS server or a real cluster. The typed
clients are `minikcm.client.typed`'s, the same as the in-process backend's, so
the objects that come out are the same client models.

Start reading at: RESTTransport.request, then RESTTransport.call and RESTTransport.watch.

Design notes:
- Each resource has one row in `METHODS`: the generated functions of its verbs
  (`CoreV1Api.create_namespaced_pod`, ...), written out so that "go to
  definition" lands on the generated code. Namespaced calls take the namespace
  after the name, as the generated signatures do (`Target.in_namespace`).
- Requests go out with `_preload_content=False`, and answers are handed back
  as parsed JSON, for the typed clients to turn into models exactly as for
  the in-process backend. The generated deserializer would drop fields it
  does not know, and it cannot hand back a Status body or a BOOKMARK's
  resourceVersion.
- Bodies go out as wire dicts. The generated methods validate them into models
  and serialise those again, so datetimes leave as `+00:00` rather than `Z`:
  the same instant, written differently.
- Errors: an `ApiException` becomes the `StatusError` of the Status in its body,
  so `errors.is_conflict(err)` and friends work as with the other backend; a
  body without a Status gets a generic one from the HTTP code, as client-go's
  transformResponse does. Failures without an HTTP answer (connection refused,
  TLS) propagate as the client raised them.
- Watch: the request is made on the caller's thread (so a 403 or 404 raises at
  once); a `streamwatcher.StreamWatcher` thread then reads the events and puts
  wire events into a ResultChan; the typed client's `ModelWatcher` turns them
  into models on receipt, so both backends hand out identical events. ERROR
  events keep their Status dict (a 410 Expired reaches the reflector), BOOKMARK
  events carry an empty model holding only metadata.resourceVersion.

Not ported: rest.Config, rate limiting (QPS/Burst), protobuf, client-side
retries, warning handlers, Apply, GetOptions.resource_version (the generated
read methods do not take it), field validation on delete.
Differs from Go:
- `kubernetes.watch.Watch().stream` is not used for watches: it raises ERROR
  events as exceptions (dropping the Status) and silently re-opens watches that
  the server ended, while client-go's StreamWatcher hands both to the reflector.
- `delete_collection` on namespaces raises 405 MethodNotAllowed without asking
  the server: the API has no such endpoint, and the generated client no method.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml
from kubernetes import config as kube_config
from kubernetes.client import (
    ApiClient,
    AppsV1Api,
    CoordinationV1Api,
    CoreV1Api,
    V1DeleteOptions,
    V1Preconditions,
)
from kubernetes.client.exceptions import ApiException

from minikcm.apimachinery import errors, watch
from minikcm.apimachinery.convert import object_meta
from minikcm.apimachinery.meta import (
    DRY_RUN_ALL,
    CreateOptions,
    DeleteOptions,
    ListOptions,
    PatchOptions,
    UpdateOptions,
)
from minikcm.apimachinery.schema import GroupResource, ResourceInfo, resource_info
from minikcm.apimachinery.types import APPLY_PATCH_TYPE, JSON_PATCH_TYPE, PatchType
from minikcm.client.streamwatcher import StreamWatcher
from minikcm.client.transport import body_to_wire, patch_bytes
from minikcm.client.typed import Clientset

Fn = Callable[..., Any]

MAX_UNSTRUCTURED_RESPONSE_TEXT_BYTES = 2048
"""Port of maxUnstructuredResponseTextBytes (rest/request.go): how much of a non-Status error body is kept."""


# --- the generated functions of each resource ---------------------------------------------


@dataclass(frozen=True)
class Methods:
    """The generated client functions of one resource (unbound: the API object goes first).

    `list_all` lists across namespaces (None for cluster-scoped resources, whose
    `list` already does). Subresource functions are None where the resource has
    no such subresource; `bind` creates pods/binding.
    """

    api: type
    create: Fn
    read: Fn
    list: Fn
    list_all: Fn | None
    replace: Fn
    patch: Fn
    delete: Fn
    delete_collection: Fn | None
    replace_status: Fn | None = None
    patch_status: Fn | None = None
    read_scale: Fn | None = None
    replace_scale: Fn | None = None
    patch_scale: Fn | None = None
    bind: Fn | None = None


C, A, K = CoreV1Api, AppsV1Api, CoordinationV1Api

METHODS: dict[str, Methods] = {
    "namespaces": Methods(
        C, C.create_namespace, C.read_namespace, C.list_namespace, None, C.replace_namespace,
        C.patch_namespace, C.delete_namespace, None,
        C.replace_namespace_status, C.patch_namespace_status),
    "nodes": Methods(
        C, C.create_node, C.read_node, C.list_node, None, C.replace_node, C.patch_node, C.delete_node,
        C.delete_collection_node, C.replace_node_status, C.patch_node_status),
    "pods": Methods(
        C, C.create_namespaced_pod, C.read_namespaced_pod, C.list_namespaced_pod,
        C.list_pod_for_all_namespaces, C.replace_namespaced_pod, C.patch_namespaced_pod,
        C.delete_namespaced_pod, C.delete_collection_namespaced_pod,
        C.replace_namespaced_pod_status, C.patch_namespaced_pod_status,
        bind=C.create_namespaced_pod_binding),
    "events": Methods(
        C, C.create_namespaced_event, C.read_namespaced_event, C.list_namespaced_event,
        C.list_event_for_all_namespaces, C.replace_namespaced_event, C.patch_namespaced_event,
        C.delete_namespaced_event, C.delete_collection_namespaced_event),
    "persistentvolumeclaims": Methods(
        C, C.create_namespaced_persistent_volume_claim, C.read_namespaced_persistent_volume_claim,
        C.list_namespaced_persistent_volume_claim,
        C.list_persistent_volume_claim_for_all_namespaces,
        C.replace_namespaced_persistent_volume_claim, C.patch_namespaced_persistent_volume_claim,
        C.delete_namespaced_persistent_volume_claim,
        C.delete_collection_namespaced_persistent_volume_claim,
        C.replace_namespaced_persistent_volume_claim_status,
        C.patch_namespaced_persistent_volume_claim_status),
    "services": Methods(
        C, C.create_namespaced_service, C.read_namespaced_service, C.list_namespaced_service,
        C.list_service_for_all_namespaces, C.replace_namespaced_service, C.patch_namespaced_service,
        C.delete_namespaced_service, C.delete_collection_namespaced_service,
        C.replace_namespaced_service_status, C.patch_namespaced_service_status),
    "deployments": Methods(
        A, A.create_namespaced_deployment, A.read_namespaced_deployment,
        A.list_namespaced_deployment, A.list_deployment_for_all_namespaces,
        A.replace_namespaced_deployment, A.patch_namespaced_deployment,
        A.delete_namespaced_deployment, A.delete_collection_namespaced_deployment,
        A.replace_namespaced_deployment_status, A.patch_namespaced_deployment_status,
        A.read_namespaced_deployment_scale, A.replace_namespaced_deployment_scale,
        A.patch_namespaced_deployment_scale),
    "replicasets": Methods(
        A, A.create_namespaced_replica_set, A.read_namespaced_replica_set,
        A.list_namespaced_replica_set, A.list_replica_set_for_all_namespaces,
        A.replace_namespaced_replica_set, A.patch_namespaced_replica_set,
        A.delete_namespaced_replica_set, A.delete_collection_namespaced_replica_set,
        A.replace_namespaced_replica_set_status, A.patch_namespaced_replica_set_status,
        A.read_namespaced_replica_set_scale, A.replace_namespaced_replica_set_scale,
        A.patch_namespaced_replica_set_scale),
    "statefulsets": Methods(
        A, A.create_namespaced_stateful_set, A.read_namespaced_stateful_set,
        A.list_namespaced_stateful_set, A.list_stateful_set_for_all_namespaces,
        A.replace_namespaced_stateful_set, A.patch_namespaced_stateful_set,
        A.delete_namespaced_stateful_set, A.delete_collection_namespaced_stateful_set,
        A.replace_namespaced_stateful_set_status, A.patch_namespaced_stateful_set_status,
        A.read_namespaced_stateful_set_scale, A.replace_namespaced_stateful_set_scale,
        A.patch_namespaced_stateful_set_scale),
    "controllerrevisions": Methods(
        A, A.create_namespaced_controller_revision, A.read_namespaced_controller_revision,
        A.list_namespaced_controller_revision, A.list_controller_revision_for_all_namespaces,
        A.replace_namespaced_controller_revision, A.patch_namespaced_controller_revision,
        A.delete_namespaced_controller_revision,
        A.delete_collection_namespaced_controller_revision),
    "leases": Methods(
        K, K.create_namespaced_lease, K.read_namespaced_lease, K.list_namespaced_lease,
        K.list_lease_for_all_namespaces, K.replace_namespaced_lease, K.patch_namespaced_lease,
        K.delete_namespaced_lease, K.delete_collection_namespaced_lease),
}
"""One row per resource the clientset serves (the same set as the in-process backend)."""


# --- options and errors at the edge ---------------------------------------------------------


def dry_run_param(dry_run: list[str]) -> str | None:
    """The generated clients' `dry_run` query value: "All" or nothing."""
    return DRY_RUN_ALL if DRY_RUN_ALL in dry_run else None


def or_none(value: str) -> str | None:
    """Go leaves empty options out of the query; the generated clients leave out None."""
    return value or None


def delete_options_body(opts: DeleteOptions) -> V1DeleteOptions:
    """The DeleteOptions body client-go sends with every delete."""
    preconditions = None
    if opts.preconditions is not None:
        preconditions = V1Preconditions(uid=opts.preconditions.uid,
                                        resource_version=opts.preconditions.resource_version)
    return V1DeleteOptions(grace_period_seconds=opts.grace_period_seconds, preconditions=preconditions,
                           propagation_policy=opts.propagation_policy,
                           dry_run=list(opts.dry_run) or None)


def list_params(opts: ListOptions) -> dict[str, Any]:
    """ListOptions as the generated list functions' keyword arguments (watch is added by `watch`)."""
    params: dict[str, Any] = {
        "label_selector": or_none(opts.label_selector),
        "field_selector": or_none(opts.field_selector),
        "resource_version": or_none(opts.resource_version),
        "resource_version_match": or_none(opts.resource_version_match),
        "timeout_seconds": opts.timeout_seconds,
        "limit": opts.limit or None,
        "_continue": or_none(opts.continue_),
        "send_initial_events": opts.send_initial_events,
    }
    return {k: v for k, v in params.items() if v is not None}


def patch_body(pt: PatchType, data: bytes | str | Any) -> Any:
    """A patch as the parsed JSON the generated patch functions take (they serialise it again).

    Apply patches may be YAML; JSON patches must be lists (the client would
    otherwise quietly send the body as a strategic merge patch).
    """
    text = patch_bytes(data).decode()
    try:
        body = json.loads(text)
    except json.JSONDecodeError:
        if pt != APPLY_PATCH_TYPE:
            raise
        body = yaml.safe_load(text)  # only apply patches may be YAML
    if pt == JSON_PATCH_TYPE and not isinstance(body, list):
        raise ValueError("a JSON patch is a list of operations")
    return body


def error_from_api_exception(err: ApiException, verb: str, resource: GroupResource,
                             name: str) -> Exception:
    """Port of Request.transformResponse's error path and Result.Error (rest/request.go).

    The error a failed call raises. A Failure Status in the body becomes its
    StatusError (errors.from_object). Otherwise the HTTP code picks a generic
    Status (NewGenericServerResponse), whose message is the body when it is
    text and "unknown" otherwise. An exception with no HTTP status (status 0:
    TLS failure, request the client could not build) is returned unchanged.
    """
    if not err.status:
        return err
    body = err.body or ""
    headers = err.headers or {}
    content_type = str(headers.get("Content-Type") or "")
    is_text = not content_type or content_type.split(";")[0].strip().lower().startswith("text/")
    message = body[:MAX_UNSTRUCTURED_RESPONSE_TEXT_BYTES].strip() if is_text else "unknown"
    retry_after = str(headers.get("Retry-After") or "")
    generic = errors.new_generic_server_response(
        int(err.status), verb, resource, name, message,
        int(retry_after) if retry_after.isdigit() else 0, True)
    try:
        decoded = json.loads(body)
    except ValueError:
        return generic
    if (isinstance(decoded, dict) and decoded.get("kind", "Status") == "Status"
            and decoded.get("status") == errors.STATUS_FAILURE):
        decoded.setdefault("kind", "Status")
        decoded.setdefault("apiVersion", "v1")  # old servers leave it out; client-go defaults it
        return errors.StatusError(decoded)
    return generic


# --- the transport ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """What one request is about: the resource, its generated functions, the API object, the namespace."""

    info: ResourceInfo
    methods: Methods
    api: Any
    namespace: str

    def in_namespace(self, *front: Any) -> tuple[Any, ...]:
        """Positional arguments of a generated function: `front`, then the namespace when namespaced."""
        return (*front, self.namespace) if self.info.namespaced else front

    def list_fn(self) -> Fn:
        """The list function: across namespaces when there is no namespace, else in it."""
        if self.info.namespaced and not self.namespace:
            assert self.methods.list_all is not None
            return self.methods.list_all
        return self.methods.list

    def list_args(self) -> tuple[Any, ...]:
        return (self.namespace,) if self.namespace else ()


def write_params(o: CreateOptions | UpdateOptions | PatchOptions) -> dict[str, Any]:
    """The query options every write sends (dryRun, fieldManager, fieldValidation)."""
    return {"dry_run": dry_run_param(o.dry_run), "field_manager": or_none(o.field_manager),
            "field_validation": or_none(o.field_validation)}


class RESTTransport:
    """A transport.Transport over the official client's generated APIs.

    Thread: any (the ApiClient's connection pool is shared; each call is one request).
    """

    def __init__(self, api_client: ApiClient) -> None:
        self.api_client = api_client
        """The official client's ApiClient: host, credentials, connection pool."""
        self._apis: dict[type, Any] = {cls: cls(api_client) for cls in (CoreV1Api, AppsV1Api,
                                                                       CoordinationV1Api)}

    def api(self, cls: type) -> Any:
        """The generated API object of class `cls` (CoreV1Api, AppsV1Api or CoordinationV1Api)."""
        return self._apis[cls]

    def target(self, resource: str, namespace: str) -> Target:
        methods = METHODS[resource]
        return Target(resource_info(resource), methods, self.api(methods.api), namespace)

    def call(self, t: Target, method: str, fn: Fn | None, name: str, *args: Any, **kwargs: Any) -> Any:
        """Make one request through generated function `fn`; returns the parsed JSON answer.

        `method` (the HTTP method) and `name` only label errors.

        Raises:
            StatusError: the server refused (see error_from_api_exception), or 405
                MethodNotSupported when the resource has no such function.
        """
        if fn is None:
            raise errors.new_method_not_supported(t.info.group_resource(), method.lower())
        try:
            response = fn(t.api, *args, _preload_content=False, **kwargs)
        except ApiException as err:
            raise error_from_api_exception(err, method, t.info.group_resource(), name) from None
        try:
            data = response.data
        finally:
            response.release_conn()
        return json.loads(data) if data else None

    def request(self, verb: str, resource: str, namespace: str, name: str = "",
                subresource: str = "", body: Any = None, options: Any = None, *,
                patch_type: PatchType = "") -> Any:
        """Make one call as an HTTP request (see transport.Transport for what each verb carries)."""
        t, m = self.target(resource, namespace), METHODS[resource]
        if verb == "get":
            fn = {"": m.read, "scale": m.read_scale}.get(subresource)
            return self.call(t, "GET", fn, name, *t.in_namespace(name))
        if verb == "list":
            return self.call(t, "GET", t.list_fn(), "", *t.list_args(), **list_params(options))
        if verb == "create":
            wire = body_to_wire(t.info, subresource, name, body)
            fn = {"": m.create, "binding": m.bind}.get(subresource)
            args = t.in_namespace(name) if subresource else t.in_namespace()
            return self.call(t, "POST", fn, name or object_meta(wire).name or "", *args, wire,
                             **write_params(options))
        if verb == "update":
            wire = body_to_wire(t.info, subresource, name, body)
            fn = {"": m.replace, "status": m.replace_status, "scale": m.replace_scale}.get(subresource)
            return self.call(t, "PUT", fn, name, *t.in_namespace(name), wire, **write_params(options))
        if verb == "patch":
            return self.patch(t, name, subresource, body, options, patch_type)
        if verb == "delete":
            return self.call(t, "DELETE", m.delete, name, *t.in_namespace(name),
                             body=delete_options_body(body))
        if verb == "delete-collection":
            return self.call(t, "DELETE", m.delete_collection, "", *t.in_namespace(),
                             body=delete_options_body(body), **list_params(options))
        raise ValueError(f"unknown verb {verb!r}")

    def patch(self, t: Target, name: str, subresource: str, data: bytes, o: PatchOptions,
              pt: PatchType) -> Any:
        """PATCH with content type `pt`; a subresource without a patch function is NotFound."""
        m = t.methods
        fn = {"": m.patch, "status": m.patch_status, "scale": m.patch_scale}.get(subresource)
        if fn is None:
            raise errors.new_not_found(GroupResource(t.info.group, f"{t.info.resource}/{subresource}"), "")
        return self.call(t, "PATCH", fn, name, *t.in_namespace(name), patch_body(pt, data),
                         **write_params(o), force=o.force, _content_type=pt)

    def watch(self, resource: str, namespace: str, options: ListOptions) -> watch.Interface:
        """A list request with watch=true, read by a StreamWatcher thread (events carry wire dicts).

        Raises:
            StatusError: the server refused the watch request itself.
        """
        t = self.target(resource, namespace)
        params = list_params(options)
        if options.allow_watch_bookmarks:
            params["allow_watch_bookmarks"] = True
        try:
            response = t.list_fn()(t.api, *t.list_args(), watch=True, _preload_content=False, **params)
        except ApiException as err:
            raise error_from_api_exception(err, "GET", t.info.group_resource(), "") from None
        return StreamWatcher(response, resource)

    def __repr__(self) -> str:
        return f"RESTTransport(host={self.api_client.configuration.host!r})"


# --- the clientset ------------------------------------------------------------------------------


class RESTClientset(Clientset):
    """The clientset (interface.Interface) over HTTP, with the official client.

    `RESTClientset(kubeconfig_path, context)` loads a kubeconfig as kubectl
    does (None: $KUBECONFIG, then ~/.kube/config); `new_for_config(api_client)`
    wraps an ApiClient made some other way. `close()` releases the connection pool.
    Thread: any (the ApiClient's connection pool is shared; each call is one request).
    """

    def __init__(self, kubeconfig_path: str | None = None, context: str | None = None, *,
                 api_client: ApiClient | None = None) -> None:
        if api_client is None:
            api_client = kube_config.new_client_from_config(config_file=kubeconfig_path,
                                                            context=context)
        self.rest = RESTTransport(api_client)
        super().__init__(self.rest)
        self.api_client = api_client
        """The official client's ApiClient: host, credentials, connection pool."""

    def api(self, cls: type) -> Any:
        """The generated API object of class `cls` (CoreV1Api, AppsV1Api or CoordinationV1Api)."""
        return self.rest.api(cls)

    def close(self) -> None:
        """Close the ApiClient (its connection pool and thread pool)."""
        self.api_client.close()

    def __repr__(self) -> str:
        return f"RESTClientset(host={self.api_client.configuration.host!r})"


def new_for_config(api_client: ApiClient) -> RESTClientset:
    """Port of NewForConfig (kubernetes/clientset.go): a clientset over an already configured ApiClient."""
    return RESTClientset(api_client=api_client)
