"""No upstream twin. The in-process clientset: client-go's typed clients, calling the embedded API server directly.

client-go turns each typed call into an HTTP request (gentype/type.go building a
rest.Request). This backend turns it into one method call on
`minikcm.apiserver.server.APIServer`: models go in as wire dicts, wire dicts come
back as models. There is no socket and no thread, so tests, the debugger and
deterministic runs see the whole round trip on one stack.

Start reading at: TypedClient.update, then TypedClient.invoke.

Design notes: every call is first described as an `Action` (minikcm.client.fake),
then made by a small `on_server` function inside the verb's method. With a `Fake`
attached (`InProcessClientset(server, fake=Fake())`), the action passes through the
Fake's reactor chain first and `on_server` only runs when no reactor answers; the
Fake also records the action. Without one, `on_server` runs straight away. So the
same reactor chain steers any in-process clientset, and a test clientset differs
from a production one only by that attribute. Watch events are turned into models
when the consumer receives them (`ModelResultChan.recv`), on the consumer's thread,
so a deterministic run stays single-threaded.

Not ported: everything HTTP (rest.Request, codecs, protobuf), Apply.
Differs from Go: GetOptions.resource_version is not sent (the embedded server
always reads the latest state); field_validation is not sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from kubernetes.client import V1ObjectMeta, V1Scale

from minikcm.apimachinery import labels, watch
from minikcm.apimachinery.convert import from_wire, object_meta, to_wire
from minikcm.apimachinery.meta import (
    DRY_RUN_ALL,
    CreateOptions,
    DeleteOptions,
    GetOptions,
    ListOptions,
    PatchOptions,
    UpdateOptions,
)
from minikcm.apimachinery.schema import (
    GroupVersionResource,
    ResourceInfo,
    resource_for_kind,
    resource_for_model,
    resource_info,
)
from minikcm.apimachinery.types import STRATEGIC_MERGE_PATCH_TYPE, PatchType
from minikcm.client import interface
from minikcm.client.fake import (
    Action,
    CreateAction,
    DeleteAction,
    DeleteCollectionAction,
    Fake,
    GetAction,
    ListAction,
    PatchAction,
    UpdateAction,
    WatchAction,
)

if TYPE_CHECKING:
    from minikcm.apiserver.server import APIServer

T = TypeVar("T")
L = TypeVar("L")
WireDict = dict[str, Any]

SCALE_API_VERSION = "autoscaling/v1"
SCALE_KIND = "Scale"
BINDING_API_VERSION = "v1"
BINDING_KIND = "Binding"


# --- conversion at the edge --------------------------------------------------------


def empty_object(cls: type, **values: Any) -> Any:
    """Go's zero struct of `cls`: every field None (a list's items []), built without validation.

    What a client hands back when a reactor handled a call but returned no object,
    and the body of a BOOKMARK event (only metadata.resourceVersion is set).
    """
    fields: dict[str, Any] = {name: None for name in cls.model_fields}  # type: ignore[attr-defined]
    if "items" in fields:
        fields["items"] = []
    fields.update(values)
    return cls.model_construct(**fields)  # type: ignore[attr-defined]


def object_to_wire(obj: Any, api_version: str, kind: str) -> WireDict:
    """A model or wire dict as a fresh wire dict, with apiVersion and kind filled in when missing.

    The caller's object is never changed: models are dumped, dicts deep-copied.
    """
    wire = to_wire(obj)
    wire.setdefault("apiVersion", api_version)
    wire.setdefault("kind", kind)
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
    return DRY_RUN_ALL in dry_run


# --- watch: events become models on receipt --------------------------------------------


class ModelResultChan(watch.ResultChan):
    """A view of a server watch's ResultChan whose `recv` returns events carrying models.

    Conversion happens in `recv`, on the receiving thread. ERROR events keep their
    Status dict; BOOKMARK events carry an empty model holding only
    metadata.resourceVersion; objects that already are models pass through.
    Tricky: this subclasses ResultChan only to have its type; it keeps no queue
    of its own (the base __init__ is not called) and forwards every method.
    """

    def __init__(self, inner: watch.ResultChan, info: ResourceInfo) -> None:
        self.inner = inner
        self.info = info

    def convert(self, event: watch.Event) -> watch.Event:
        obj = event.object
        if event.type == watch.ERROR or not isinstance(obj, dict):
            return event
        if event.type == watch.BOOKMARK:
            rv = (obj.get("metadata") or {}).get("resourceVersion", "")
            return watch.Event(event.type, empty_object(
                self.info.model, api_version=self.info.api_version, kind=self.info.kind,
                metadata=V1ObjectMeta(resource_version=rv)))
        return watch.Event(event.type, from_wire(obj, self.info.model))

    def recv(self, timeout: float | None = None) -> watch.Event | None:
        event = self.inner.recv(timeout)
        return None if event is None else self.convert(event)

    def put(self, event: watch.Event) -> bool:
        return self.inner.put(event)

    def put_final(self, event: watch.Event) -> None:
        self.inner.put_final(event)

    def close(self) -> None:
        self.inner.close()

    @property
    def closed(self) -> bool:
        return self.inner.closed

    def __len__(self) -> int:
        return len(self.inner)

    def __iter__(self) -> Iterator[watch.Event]:
        while (event := self.recv()) is not None:
            yield event

    def __repr__(self) -> str:
        return f"ModelResultChan({self.info.resource}, {self.inner!r})"


class ModelWatcher:
    """A watch.Interface over another one, whose events carry models (see ModelResultChan)."""

    def __init__(self, inner: watch.Interface, info: ResourceInfo) -> None:
        self.inner = inner
        self._chan = ModelResultChan(inner.result_chan(), info)

    def stop(self) -> None:
        self.inner.stop()

    def result_chan(self) -> watch.ResultChan:
        return self._chan

    def __repr__(self) -> str:
        return f"ModelWatcher({self._chan!r})"


# --- typed clients (the shape of gentype.Client / ClientWithList) -------------------------


class TypedClient(Generic[T, L]):
    """The verbs of one resource in one namespace, over the embedded API server.

    Plays gentype.ClientWithList (gentype/type.go) for this backend; satisfies
    interface.ResourceInterface. Cheap to make: group clients make one per call.
    """

    def __init__(self, clientset: InProcessClientset, resource: str, namespace: str) -> None:
        self.clientset = clientset
        self.info = resource_info(resource)
        self.resource = resource
        self.namespace = namespace if self.info.namespaced else ""
        self.gvr: GroupVersionResource = self.info.gvr()

    # The two steps every verb shares.

    def invoke(self, action: Action, on_server: Callable[[Any], Any]) -> Any:
        """Make one call: through the Fake's reactors when one is attached, else straight to the server."""
        fake = self.clientset.fake
        if fake is None:
            return on_server(action)
        return fake.invokes(action, on_server)

    def model_out(self, ret: Any, cls: type | None = None) -> Any:
        """What the server (a wire dict) or a reactor (a model, dict or None) answered, as a model."""
        cls = cls or self.info.model
        if ret is None:
            return empty_object(cls)
        if isinstance(ret, dict):
            return from_wire(ret, cls)
        return ret

    def wire_in(self, obj: Any) -> WireDict:
        return object_to_wire(obj, self.info.api_version, self.info.kind)

    # The verbs.

    def create(self, obj: T | WireDict, opts: CreateOptions | None = None) -> T:
        """Port of Client.Create (gentype/type.go)."""
        action = CreateAction(verb="create", resource=self.gvr, namespace=self.namespace,
                              object=obj, create_options=opts or CreateOptions())

        def on_server(a: CreateAction) -> WireDict:
            return self.clientset.server.create(
                self.resource, a.namespace, self.wire_in(a.object),
                dry_run=is_dry_run(a.create_options.dry_run))

        return self.model_out(self.invoke(action, on_server))

    def update(self, obj: T | WireDict, opts: UpdateOptions | None = None) -> T:
        """Port of Client.Update (gentype/type.go)."""
        return self.update_subresource(obj, opts, "")

    def update_subresource(self, obj: Any, opts: UpdateOptions | None, subresource: str) -> Any:
        """Update through `subresource` ("" for the main resource, "status")."""
        action = UpdateAction(verb="update", resource=self.gvr, namespace=self.namespace,
                              subresource=subresource, object=obj,
                              update_options=opts or UpdateOptions())

        def on_server(a: UpdateAction) -> WireDict:
            return self.clientset.server.update(
                self.resource, a.namespace, self.wire_in(a.object),
                subresource=a.subresource or None, dry_run=is_dry_run(a.update_options.dry_run))

        return self.model_out(self.invoke(action, on_server))

    def delete(self, name: str, opts: DeleteOptions | None = None) -> None:
        """Port of Client.Delete (gentype/type.go)."""
        action = DeleteAction(verb="delete", resource=self.gvr, namespace=self.namespace,
                              name=name, delete_options=opts or DeleteOptions())

        def on_server(a: DeleteAction) -> WireDict:
            o = a.delete_options
            return self.clientset.server.delete(
                self.resource, a.namespace, a.name, preconditions=o.preconditions,
                propagation_policy=o.propagation_policy,
                grace_period_seconds=o.grace_period_seconds, dry_run=is_dry_run(o.dry_run))

        self.invoke(action, on_server)

    def delete_collection(self, opts: DeleteOptions | None = None,
                          list_opts: ListOptions | None = None) -> None:
        """Port of alsoLister.DeleteCollection (gentype/type.go)."""
        action = DeleteCollectionAction(
            verb="delete-collection", resource=self.gvr, namespace=self.namespace,
            delete_options=opts or DeleteOptions(), list_options=list_opts or ListOptions())

        def on_server(a: DeleteCollectionAction) -> WireDict:
            o, lo = a.delete_options, a.list_options
            return self.clientset.server.delete_collection(
                self.resource, a.namespace, label_selector=lo.label_selector,
                field_selector=lo.field_selector, preconditions=o.preconditions,
                propagation_policy=o.propagation_policy,
                grace_period_seconds=o.grace_period_seconds, dry_run=is_dry_run(o.dry_run))

        self.invoke(action, on_server)

    def get(self, name: str, opts: GetOptions | None = None) -> T:
        """Port of Client.Get (gentype/type.go)."""
        return self.get_subresource(name, opts, "", None)

    def get_subresource(self, name: str, opts: GetOptions | None, subresource: str,
                        cls: type | None) -> Any:
        action = GetAction(verb="get", resource=self.gvr, namespace=self.namespace,
                           subresource=subresource, name=name, get_options=opts or GetOptions())

        def on_server(a: GetAction) -> WireDict:
            return self.clientset.server.get(self.resource, a.namespace, a.name,
                                             subresource=a.subresource or None)

        return self.model_out(self.invoke(action, on_server), cls)

    def list(self, opts: ListOptions | None = None) -> L:
        """Port of alsoLister.List (gentype/type.go).

        With a Fake attached, the answer is filtered by the label selector
        afterwards, as client-go's fake lister does, so a reactor may return
        more than was asked for.
        """
        opts = opts or ListOptions()
        action = ListAction(verb="list", resource=self.gvr, kind=self.info.gvk(),
                            namespace=self.namespace, list_options=opts)

        def on_server(a: ListAction) -> WireDict:
            o = a.list_options
            return self.clientset.server.list(
                self.resource, a.namespace, label_selector=o.label_selector,
                field_selector=o.field_selector, resource_version=o.resource_version,
                limit=o.limit, continue_=o.continue_)

        result = self.model_out(self.invoke(action, on_server), self.info.list_model)
        if self.clientset.fake is not None and opts.label_selector:
            selector = labels.parse(opts.label_selector)
            result.items = [item for item in result.items or []
                            if selector.matches(labels.Set((item.metadata and item.metadata.labels) or {}))]
        return result

    def watch(self, opts: ListOptions | None = None) -> watch.Interface:
        """Port of Client.Watch (gentype/type.go): sets opts.watch, as client-go does."""
        action = WatchAction(verb="watch", resource=self.gvr, namespace=self.namespace,
                             list_options=replace(opts or ListOptions(), watch=True))

        def on_server(a: WatchAction) -> watch.Interface:
            o = a.list_options
            return self.clientset.server.watch(
                self.resource, a.namespace, resource_version=o.resource_version,
                label_selector=o.label_selector, field_selector=o.field_selector,
                allow_bookmarks=o.allow_watch_bookmarks, timeout_seconds=o.timeout_seconds)

        fake = self.clientset.fake
        inner = on_server(action) if fake is None else fake.invokes_watch(action, on_server)
        return ModelWatcher(inner, self.info)

    def patch(self, name: str, pt: PatchType, data: bytes | str | Any,
              opts: PatchOptions | None = None, *subresources: str) -> T:
        """Port of Client.Patch (gentype/type.go). A patch of `scale` returns a V1Scale."""
        action = PatchAction(verb="patch", resource=self.gvr, namespace=self.namespace,
                             subresource="/".join(subresources), name=name, patch_type=pt,
                             patch=patch_bytes(data), patch_options=opts or PatchOptions())

        def on_server(a: PatchAction) -> WireDict:
            o = a.patch_options
            return self.clientset.server.patch(
                self.resource, a.namespace, a.name, a.patch_type, a.patch,
                subresource=a.subresource or None, dry_run=is_dry_run(o.dry_run),
                field_manager=o.field_manager, force=bool(o.force))

        cls = V1Scale if action.subresource == "scale" else None
        return self.model_out(self.invoke(action, on_server), cls)

    def __repr__(self) -> str:
        where = f" in {self.namespace!r}" if self.namespace else ""
        return f"{type(self).__name__}({self.resource}{where})"


class TypedClientWithStatus(TypedClient[T, L]):
    """A typed client for a resource with a status subresource (adds update_status)."""

    def update_status(self, obj: T | WireDict, opts: UpdateOptions | None = None) -> T:
        """Port of Client.UpdateStatus (gentype/type.go)."""
        return self.update_subresource(obj, opts, "status")


class TypedClientWithScale(TypedClientWithStatus[T, L]):
    """A typed client for a resource with status and scale subresources (deployments, ...)."""

    def get_scale(self, name: str, opts: GetOptions | None = None) -> V1Scale:
        """Port of deployments.GetScale (kubernetes/typed/apps/v1/deployment.go), likewise for the others."""
        return self.get_subresource(name, opts, "scale", V1Scale)

    def update_scale(self, name: str, scale: V1Scale | WireDict,
                     opts: UpdateOptions | None = None) -> V1Scale:
        """Port of deployments.UpdateScale (kubernetes/typed/apps/v1/deployment.go), likewise for the others.

        The request names the object by `name`; the scale body gets that name when it has none.
        """
        action = UpdateAction(verb="update", resource=self.gvr, namespace=self.namespace,
                              subresource="scale", object=scale,
                              update_options=opts or UpdateOptions())

        def on_server(a: UpdateAction) -> WireDict:
            wire = object_to_wire(a.object, SCALE_API_VERSION, SCALE_KIND)
            wire.setdefault("metadata", {}).setdefault("name", name)
            return self.clientset.server.update(
                self.resource, a.namespace, wire, subresource="scale",
                dry_run=is_dry_run(a.update_options.dry_run))

        return self.model_out(self.invoke(action, on_server), V1Scale)


class PodClient(TypedClientWithStatus[T, L]):
    """The pods client, with the expansion a scheduler uses (pod_expansion.go)."""

    def bind(self, binding: Any, opts: CreateOptions | None = None) -> None:
        """Port of pods.Bind (kubernetes/typed/core/v1/pod_expansion.go): create pods/binding.

        The call goes to this client's namespace. With a Fake attached it is
        recorded as a `create` of `pods` with subresource `binding`, whose object
        is the binding (client-go's fake Bind records the same).
        Differs from Go: the recorded action carries this client's namespace
        (client-go's fake takes the binding's).
        """
        action = CreateAction(verb="create", resource=self.gvr, namespace=self.namespace,
                              subresource="binding", name=object_meta(binding).name or "",
                              object=binding, create_options=opts or CreateOptions())

        def on_server(a: CreateAction) -> WireDict:
            return self.clientset.server.create(
                self.resource, a.namespace, object_to_wire(a.object, BINDING_API_VERSION, BINDING_KIND),
                subresource="binding", dry_run=is_dry_run(a.create_options.dry_run))

        self.invoke(action, on_server)


class EventClient(TypedClient[T, L]):
    """The events client, with the expansions the event recorder uses (event_expansion.go)."""

    def in_event_namespace(self, event: Any, verb: str) -> EventClient[T, L]:
        """This client, or one bound to the event's namespace when this one has none."""
        ns = object_meta(event).namespace or ""
        if self.namespace and ns != self.namespace:
            raise ValueError(f"can't {verb} an event with namespace '{ns}' in namespace '{self.namespace}'")
        return EventClient(self.clientset, self.resource, self.namespace or ns)

    def create_with_event_namespace(self, event: T | WireDict) -> T:
        """Port of events.CreateWithEventNamespace (kubernetes/typed/core/v1/event_expansion.go).

        Raises: ValueError when the event's namespace is not this client's (unless this client's is "").
        """
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

    def __init__(self, clientset: InProcessClientset) -> None:
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

    def __init__(self, clientset: InProcessClientset) -> None:
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

    def __init__(self, clientset: InProcessClientset) -> None:
        self.clientset = clientset

    def leases(self, namespace: str) -> interface.LeaseInterface:
        return TypedClient(self.clientset, "leases", namespace)


class InProcessClientset:
    """The clientset (interface.Interface) over an in-process `APIServer`.

    `fake`, when set, is a `minikcm.client.fake.Fake` whose reactors see every call
    first and which records them all; set it at construction or later.
    Thread: any; each call is one atomic server operation.
    """

    def __init__(self, server: APIServer, fake: Fake | None = None) -> None:
        self.server = server
        """The `minikcm.apiserver.server.APIServer` every call goes to."""
        self.fake = fake
        """Reactor chain and action record, or None for plain calls."""

    def core_v1(self) -> CoreV1Client:
        return CoreV1Client(self)

    def apps_v1(self) -> AppsV1Client:
        return AppsV1Client(self)

    def coordination_v1(self) -> CoordinationV1Client:
        return CoordinationV1Client(self)

    def __repr__(self) -> str:
        return f"InProcessClientset(fake={self.fake!r})"
