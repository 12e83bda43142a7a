"""No upstream twin. The REST clientset: client-go's typed clients, on the official `kubernetes` client.

client-go's typed clients build a rest.Request per call (gentype/type.go) and send
it over HTTP. This backend makes the same calls through the official Python
client's generated APIs (`CoreV1Api`, `AppsV1Api`, `CoordinationV1Api`) built
from a kubeconfig, so the controllers that run on the in-process backend run
unchanged against `minikcm up`'s HTTPS server or a real cluster. The interface
is `minikcm.client.interface`, the same as `minikcm.client.inprocess`'s, and the
objects that come out are the same client models.

Start reading at: TypedClient.call, then TypedClient.watch and StreamWatcher.receive_one.

Design notes:
- Each resource has one row in `METHODS`: the generated functions of its verbs
  (`CoreV1Api.create_namespaced_pod`, ...), written out so that "go to
  definition" lands on the generated code. Namespaced calls take the namespace
  after the name, as the generated signatures do (`in_namespace`).
- Requests go out with `_preload_content=False`, and answers are read as raw
  JSON and turned into models with `convert.from_wire`, exactly as the
  in-process backend does. The generated deserializer would drop fields it
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
  once); a `StreamWatcher` thread named `rest/watch/<resource>` then reads the
  newline-delimited JSON events with the client's own line splitter
  (`kubernetes.watch.watch.iter_resp_lines`) and puts wire events into a
  ResultChan; `inprocess.ModelWatcher` turns them into models on receipt, so
  both backends hand out identical events. ERROR events keep their Status dict
  (a 410 Expired reaches the reflector), BOOKMARK events carry an empty model
  holding only metadata.resourceVersion. `stop()` shuts the socket down, which
  wakes the reader at once.

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
import logging
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import yaml
from kubernetes import config as kube_config
from kubernetes.client import (
    ApiClient,
    AppsV1Api,
    CoordinationV1Api,
    CoreV1Api,
    V1DeleteOptions,
    V1Preconditions,
    V1Scale,
)
from kubernetes.client.exceptions import ApiException
from kubernetes.watch.watch import iter_resp_lines

from minikcm.apimachinery import errors, watch
from minikcm.apimachinery.convert import from_wire, object_meta
from minikcm.apimachinery.meta import (
    DRY_RUN_ALL,
    CreateOptions,
    DeleteOptions,
    GetOptions,
    ListOptions,
    PatchOptions,
    UpdateOptions,
)
from minikcm.apimachinery.schema import GroupResource, resource_info
from minikcm.apimachinery.types import APPLY_PATCH_TYPE, JSON_PATCH_TYPE, STRATEGIC_MERGE_PATCH_TYPE, PatchType
from minikcm.client import interface
from minikcm.client.inprocess import (
    BINDING_API_VERSION,
    BINDING_KIND,
    SCALE_API_VERSION,
    SCALE_KIND,
    ModelWatcher,
    empty_object,
    object_to_wire,
    patch_bytes,
)

T = TypeVar("T")
L = TypeVar("L")
WireDict = dict[str, Any]
Fn = Callable[..., Any]

log = logging.getLogger(__name__)

MAX_UNSTRUCTURED_RESPONSE_TEXT_BYTES = 2048
"""Port of maxUnstructuredResponseTextBytes (rest/request.go): how much of a non-Status error body is kept."""

WATCH_EVENT_TYPES = (watch.ADDED, watch.MODIFIED, watch.DELETED, watch.ERROR, watch.BOOKMARK)


# --- the generated functions of each resource ---------------------------------------------


@dataclass(frozen=True)
class Methods:
    """The generated client functions of one resource (unbound: the API object goes first).

    `list_all` lists across namespaces (None for cluster-scoped resources, whose
    `list` already does). Subresource functions are None where the resource has
    no such subresource.
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


C, A, K = CoreV1Api, AppsV1Api, CoordinationV1Api

METHODS: dict[str, Methods] = {
    "namespaces": Methods(
        C, C.create_namespace, C.read_namespace, C.list_namespace, None, C.replace_namespace,
        C.patch_namespace, C.delete_namespace, None,
        C.replace_namespace_status, C.patch_namespace_status),
    "pods": Methods(
        C, C.create_namespaced_pod, C.read_namespaced_pod, C.list_namespaced_pod,
        C.list_pod_for_all_namespaces, C.replace_namespaced_pod, C.patch_namespaced_pod,
        C.delete_namespaced_pod, C.delete_collection_namespaced_pod,
        C.replace_namespaced_pod_status, C.patch_namespaced_pod_status),
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


def client_error_status(verb: str, reason: str, message: str) -> WireDict:
    """Port of ErrorReporter.AsObject (apimachinery/pkg/api/errors/errors.go), with code 500.

    The Status a watch reports when the client, not the server, hit a problem
    (an event it could not decode): an InternalError naming `reason` as a cause.
    """
    status = errors.new_generic_server_response(500, verb, GroupResource("", ""), "", message, 0,
                                                True).status()
    status.setdefault("details", {}).setdefault("causes", []).append(
        {"reason": reason or "ClientError", "message": message})
    return status


# --- watch ------------------------------------------------------------------------------------


def decode_event(line: str) -> watch.Event:
    """Port of watch Decoder.Decode (rest/watch/decoder.go): one line of the stream, one event.

    The object stays a wire dict (ModelWatcher converts it).

    Raises:
        ValueError: not JSON, not an object, or an unknown event type.
    """
    got = json.loads(line)
    if not isinstance(got, dict):
        raise ValueError("unable to decode to metav1.WatchEvent")
    if got.get("type") not in WATCH_EVENT_TYPES:
        raise ValueError(f"got invalid watch event type: {got.get('type')}")
    obj = got.get("object")
    if not isinstance(obj, dict):
        raise ValueError("unable to decode watch event: the object is not a JSON object")
    return watch.Event(got["type"], obj)


class StreamWatcher:
    """Port of StreamWatcher (apimachinery/pkg/watch/streamwatcher.go), over one watch response.

    A thread named `rest/watch/<resource>` reads the response line by line
    (`receive`, whose body is `receive_one`) and puts wire events into the
    ResultChan. The watch ends when the server ends the stream (timeoutSeconds,
    a 410 ERROR event), when the connection breaks, or on `stop()`.
    Thread: `stop` from any thread; `__repr__` takes no lock.
    """

    def __init__(self, response: Any, resource: str) -> None:
        self.response = response
        """The urllib3 response being read (the client's `_preload_content=False` answer)."""
        self.resource = resource
        self._chan = watch.ResultChan()
        self._lines: Iterator[str] = iter_resp_lines(response)
        self._lock = threading.Lock()
        self._done = False
        self._thread = threading.Thread(target=self.receive, name=f"rest/watch/{resource}",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Port of StreamWatcher.Stop: end the watch and close the channel; safe to call twice.

        Shuts the socket down for reading, so a reader blocked in recv wakes now
        (urllib3's HTTPResponse.shutdown exists for exactly this).
        """
        with self._lock:
            if self._done:
                return
            self._done = True
        self._chan.close()
        try:
            self.response.shutdown()
        except (ValueError, RuntimeError, OSError):
            pass  # the reader already closed or released the connection: nothing to wake

    def result_chan(self) -> watch.ResultChan:
        return self._chan

    @property
    def stopped(self) -> bool:
        return self._done

    def receive(self) -> None:
        """Port of StreamWatcher.receive: the reader thread. Holds no logic of its own."""
        try:
            while self.receive_one():
                pass
        finally:
            self.stop()
            try:
                self.response.close()
                self.response.release_conn()
            except Exception as err:  # closing a broken connection may fail; it is gone either way
                log.debug("closing the %s watch response: %s", self.resource, err)

    def receive_one(self) -> bool:
        """One unit of the reader: read a line, decode it, deliver the event.

        Returns False when the watch is over. The end of the stream and errors
        of a closing or broken connection end it quietly, as client-go treats
        EOF and probable-EOF errors; a line that cannot be decoded ends it with
        an ERROR event carrying an InternalError Status.
        """
        try:
            line = next(self._lines)
        except StopIteration:
            return False  # the server ended the watch normally
        except Exception as err:  # the connection broke or stop() shut it: a probable EOF
            if not self._done:
                log.debug("the %s watch stream ended: %s", self.resource, err)
            return False
        if not line.strip():
            return True
        try:
            event = decode_event(line)
        except ValueError as err:
            if not self._done:
                self._chan.put(watch.Event(watch.ERROR, client_error_status(
                    "GET", "ClientWatchDecoding",
                    f"unable to decode an event from the watch stream: {err}")))
            return False
        if self._done:
            return False
        return self._chan.put(event)

    def __repr__(self) -> str:
        return f"StreamWatcher({self.resource}, done={self._done}, {self._chan!r})"


# --- typed clients ----------------------------------------------------------------------------


class TypedClient(Generic[T, L]):
    """The verbs of one resource in one namespace, over the official client.

    Plays gentype.ClientWithList (gentype/type.go) for this backend; satisfies
    interface.ResourceInterface. Cheap to make: group clients make one per call.
    """

    def __init__(self, clientset: RESTClientset, resource: str, namespace: str) -> None:
        self.clientset = clientset
        self.info = resource_info(resource)
        self.resource = resource
        self.namespace = namespace if self.info.namespaced else ""
        self.methods = METHODS[resource]
        self.api = clientset.api(self.methods.api)
        """The generated API object (CoreV1Api, ...) every call goes through."""

    # The steps every verb shares.

    def in_namespace(self, *front: Any) -> tuple[Any, ...]:
        """Positional arguments of a generated function: `front`, then the namespace when namespaced."""
        return (*front, self.namespace) if self.info.namespaced else front

    def call(self, verb: str, fn: Fn | None, name: str, *args: Any, **kwargs: Any) -> Any:
        """Make one request through generated function `fn`; returns the parsed JSON answer.

        `verb` (the HTTP method) and `name` only label errors.

        Raises:
            StatusError: the server refused (see error_from_api_exception).
        """
        if fn is None:
            raise errors.new_method_not_supported(self.info.group_resource(), verb.lower())
        try:
            response = fn(self.api, *args, _preload_content=False, **kwargs)
        except ApiException as err:
            raise error_from_api_exception(err, verb, self.info.group_resource(), name) from None
        try:
            data = response.data
        finally:
            response.release_conn()
        return json.loads(data) if data else None

    def model_out(self, ret: Any, cls: type | None = None) -> Any:
        """The server's wire answer as a model (the same conversion as the in-process backend)."""
        cls = cls or self.info.model
        if ret is None:
            return empty_object(cls)
        return from_wire(ret, cls)

    def wire_in(self, obj: Any) -> WireDict:
        return object_to_wire(obj, self.info.api_version, self.info.kind)

    # The verbs.

    def create(self, obj: T | WireDict, opts: CreateOptions | None = None) -> T:
        """Port of Client.Create (gentype/type.go): POST the object."""
        o = opts or CreateOptions()
        wire = self.wire_in(obj)
        ret = self.call("POST", self.methods.create, object_meta(wire).name or "",
                        *self.in_namespace(), wire, dry_run=dry_run_param(o.dry_run),
                        field_manager=or_none(o.field_manager),
                        field_validation=or_none(o.field_validation))
        return self.model_out(ret)

    def update(self, obj: T | WireDict, opts: UpdateOptions | None = None) -> T:
        """Port of Client.Update (gentype/type.go): PUT the object."""
        return self.update_subresource(obj, opts, "")

    def update_subresource(self, obj: Any, opts: UpdateOptions | None, subresource: str) -> Any:
        """PUT through `subresource` ("" for the main resource, "status")."""
        o = opts or UpdateOptions()
        fn = self.methods.replace_status if subresource == "status" else self.methods.replace
        if subresource not in ("", "status"):
            fn = None
        wire = self.wire_in(obj)
        name = object_meta(wire).name or ""
        ret = self.call("PUT", fn, name, *self.in_namespace(name), wire,
                        dry_run=dry_run_param(o.dry_run), field_manager=or_none(o.field_manager),
                        field_validation=or_none(o.field_validation))
        return self.model_out(ret)

    def delete(self, name: str, opts: DeleteOptions | None = None) -> None:
        """Port of Client.Delete (gentype/type.go): DELETE with a DeleteOptions body."""
        o = opts or DeleteOptions()
        self.call("DELETE", self.methods.delete, name, *self.in_namespace(name),
                  body=delete_options_body(o))

    def delete_collection(self, opts: DeleteOptions | None = None,
                          list_opts: ListOptions | None = None) -> None:
        """Port of alsoLister.DeleteCollection (gentype/type.go)."""
        o, lo = opts or DeleteOptions(), list_opts or ListOptions()
        self.call("DELETE", self.methods.delete_collection, "", *self.in_namespace(),
                  body=delete_options_body(o), **list_params(lo))

    def get(self, name: str, opts: GetOptions | None = None) -> T:
        """Port of Client.Get (gentype/type.go)."""
        return self.model_out(self.call("GET", self.methods.read, name, *self.in_namespace(name)))

    def list_fn(self) -> Fn:
        """The list function: across namespaces when this client has none, else in its namespace."""
        if self.info.namespaced and not self.namespace:
            assert self.methods.list_all is not None
            return self.methods.list_all
        return self.methods.list

    def list_args(self) -> tuple[Any, ...]:
        return () if not self.namespace else (self.namespace,)

    def list(self, opts: ListOptions | None = None) -> L:
        """Port of alsoLister.List (gentype/type.go)."""
        ret = self.call("GET", self.list_fn(), "", *self.list_args(), **list_params(opts or ListOptions()))
        return self.model_out(ret, self.info.list_model)

    def watch(self, opts: ListOptions | None = None) -> watch.Interface:
        """Port of Client.Watch (gentype/type.go): a list request with watch=true, read by a thread.

        Raises:
            StatusError: the server refused the watch request itself.
        """
        o = opts or ListOptions()
        params = list_params(o)
        if o.allow_watch_bookmarks:
            params["allow_watch_bookmarks"] = True
        try:
            response = self.list_fn()(self.api, *self.list_args(), watch=True,
                                      _preload_content=False, **params)
        except ApiException as err:
            raise error_from_api_exception(err, "GET", self.info.group_resource(), "") from None
        return ModelWatcher(StreamWatcher(response, self.resource), self.info)

    def patch(self, name: str, pt: PatchType, data: bytes | str | Any,
              opts: PatchOptions | None = None, *subresources: str) -> T:
        """Port of Client.Patch (gentype/type.go); the content type is `pt`. A scale patch returns a V1Scale."""
        o = opts or PatchOptions()
        subresource = "/".join(subresources)
        fn = {"": self.methods.patch, "status": self.methods.patch_status,
              "scale": self.methods.patch_scale}.get(subresource)
        if fn is None:
            raise errors.new_not_found(GroupResource(self.info.group, f"{self.resource}/{subresource}"), "")
        ret = self.call("PATCH", fn, name, *self.in_namespace(name), patch_body(pt, data),
                        dry_run=dry_run_param(o.dry_run), field_manager=or_none(o.field_manager),
                        field_validation=or_none(o.field_validation), force=o.force,
                        _content_type=pt)
        return self.model_out(ret, V1Scale if subresource == "scale" else None)

    def __repr__(self) -> str:
        where = f" in {self.namespace!r}" if self.namespace else ""
        return f"rest.{type(self).__name__}({self.resource}{where})"


class TypedClientWithStatus(TypedClient[T, L]):
    """A typed client for a resource with a status subresource (adds update_status)."""

    def update_status(self, obj: T | WireDict, opts: UpdateOptions | None = None) -> T:
        """Port of Client.UpdateStatus (gentype/type.go)."""
        return self.update_subresource(obj, opts, "status")


class TypedClientWithScale(TypedClientWithStatus[T, L]):
    """A typed client for a resource with status and scale subresources (deployments, ...)."""

    def get_scale(self, name: str, opts: GetOptions | None = None) -> V1Scale:
        """Port of deployments.GetScale (kubernetes/typed/apps/v1/deployment.go), likewise for the others."""
        ret = self.call("GET", self.methods.read_scale, name, *self.in_namespace(name))
        return self.model_out(ret, V1Scale)

    def update_scale(self, name: str, scale: V1Scale | WireDict,
                     opts: UpdateOptions | None = None) -> V1Scale:
        """Port of deployments.UpdateScale (kubernetes/typed/apps/v1/deployment.go), likewise for the others.

        The request names the object by `name`; the scale body gets that name when it has none.
        """
        o = opts or UpdateOptions()
        wire = object_to_wire(scale, SCALE_API_VERSION, SCALE_KIND)
        wire.setdefault("metadata", {}).setdefault("name", name)
        ret = self.call("PUT", self.methods.replace_scale, name, *self.in_namespace(name), wire,
                        dry_run=dry_run_param(o.dry_run), field_manager=or_none(o.field_manager),
                        field_validation=or_none(o.field_validation))
        return self.model_out(ret, V1Scale)


class PodClient(TypedClientWithStatus[T, L]):
    """The pods client, with the expansion a scheduler uses (pod_expansion.go)."""

    def bind(self, binding: Any, opts: CreateOptions | None = None) -> None:
        """Port of pods.Bind (kubernetes/typed/core/v1/pod_expansion.go): POST pods/<name>/binding.

        Goes through `CoreV1Api.create_namespaced_pod_binding` into this client's
        namespace. The answer (a Status) is not read into a model: the generated
        deserializer would try to make a V1Binding of it.
        """
        o = opts or CreateOptions()
        wire = object_to_wire(binding, BINDING_API_VERSION, BINDING_KIND)
        name = object_meta(wire).name or ""
        self.call("POST", CoreV1Api.create_namespaced_pod_binding, name, name, self.namespace, wire,
                  dry_run=dry_run_param(o.dry_run), field_manager=or_none(o.field_manager),
                  field_validation=or_none(o.field_validation))


class EventClient(TypedClient[T, L]):
    """The events client, with the expansions the event recorder uses (event_expansion.go)."""

    def in_event_namespace(self, event: Any, verb: str) -> EventClient[T, L]:
        """This client, or one bound to the event's namespace when this one has none."""
        ns = object_meta(event).namespace or ""
        if self.namespace and ns != self.namespace:
            raise ValueError(f"can't {verb} an event with namespace '{ns}' in namespace '{self.namespace}'")
        return EventClient(self.clientset, self.resource, self.namespace or ns)

    def create_with_event_namespace(self, event: T | WireDict) -> T:
        """Port of events.CreateWithEventNamespace (kubernetes/typed/core/v1/event_expansion.go)."""
        return self.in_event_namespace(event, "create").create(event)

    def update_with_event_namespace(self, event: T | WireDict) -> T:
        """Port of events.UpdateWithEventNamespace (kubernetes/typed/core/v1/event_expansion.go)."""
        return self.in_event_namespace(event, "update").update(event)

    def patch_with_event_namespace(self, event: T | WireDict, data: bytes | str | Any) -> T:
        """Port of events.PatchWithEventNamespace (kubernetes/typed/core/v1/event_expansion.go)."""
        name = object_meta(event).name or ""
        return self.in_event_namespace(event, "patch").patch(name, STRATEGIC_MERGE_PATCH_TYPE, data)


# --- group clients and the clientset --------------------------------------------------------


class CoreV1Client:
    """The core/v1 group (kubernetes/typed/core/v1/core_client.go), for this backend."""

    def __init__(self, clientset: RESTClientset) -> None:
        self.clientset = clientset

    def namespaces(self) -> interface.NamespaceInterface:
        return TypedClientWithStatus(self.clientset, "namespaces", "")

    def pods(self, namespace: str) -> interface.PodInterface:
        return PodClient(self.clientset, "pods", namespace)

    def events(self, namespace: str) -> interface.EventInterface:
        return EventClient(self.clientset, "events", namespace)

    def persistent_volume_claims(self, namespace: str) -> interface.PersistentVolumeClaimInterface:
        return TypedClientWithStatus(self.clientset, "persistentvolumeclaims", namespace)

    def services(self, namespace: str) -> interface.ServiceInterface:
        return TypedClientWithStatus(self.clientset, "services", namespace)


class AppsV1Client:
    """The apps/v1 group (kubernetes/typed/apps/v1/apps_client.go), for this backend."""

    def __init__(self, clientset: RESTClientset) -> None:
        self.clientset = clientset

    def deployments(self, namespace: str) -> interface.DeploymentInterface:
        return TypedClientWithScale(self.clientset, "deployments", namespace)

    def replica_sets(self, namespace: str) -> interface.ReplicaSetInterface:
        return TypedClientWithScale(self.clientset, "replicasets", namespace)

    def stateful_sets(self, namespace: str) -> interface.StatefulSetInterface:
        return TypedClientWithScale(self.clientset, "statefulsets", namespace)

    def controller_revisions(self, namespace: str) -> interface.ControllerRevisionInterface:
        return TypedClient(self.clientset, "controllerrevisions", namespace)


class CoordinationV1Client:
    """The coordination.k8s.io/v1 group (kubernetes/typed/coordination/v1), for this backend."""

    def __init__(self, clientset: RESTClientset) -> None:
        self.clientset = clientset

    def leases(self, namespace: str) -> interface.LeaseInterface:
        return TypedClient(self.clientset, "leases", namespace)


class RESTClientset:
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
        self.api_client = api_client
        """The official client's ApiClient: host, credentials, connection pool."""
        self._apis: dict[type, Any] = {cls: cls(api_client) for cls in (CoreV1Api, AppsV1Api,
                                                                       CoordinationV1Api)}

    def api(self, cls: type) -> Any:
        """The generated API object of class `cls` (CoreV1Api, AppsV1Api or CoordinationV1Api)."""
        return self._apis[cls]

    def core_v1(self) -> CoreV1Client:
        return CoreV1Client(self)

    def apps_v1(self) -> AppsV1Client:
        return AppsV1Client(self)

    def coordination_v1(self) -> CoordinationV1Client:
        return CoordinationV1Client(self)

    def close(self) -> None:
        """Close the ApiClient (its connection pool and thread pool)."""
        self.api_client.close()

    def __repr__(self) -> str:
        return f"RESTClientset(host={self.api_client.configuration.host!r})"


def new_for_config(api_client: ApiClient) -> RESTClientset:
    """Port of NewForConfig (kubernetes/clientset.go): a clientset over an already configured ApiClient."""
    return RESTClientset(api_client=api_client)
