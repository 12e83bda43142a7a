"""Port of k8s.io/client-go/gentype/type.go, with kubernetes/typed/{core,apps,coordination}/v1 and kubernetes/clientset.go.

The typed clientset, written once. `Clientset.core_v1().pods("default")` is a
`TypedClient` bound to one resource and namespace; each of its verbs turns the
call into one `Transport.request` (or `Transport.watch`) and turns the wire dict
that comes back into a client model. Which server answers is the transport's
business: `inprocess.InProcessClientset` and `rest.RESTClientset` are this
clientset over their own transport, and controllers cannot tell them apart.

Start reading at: TypedClient.update, then Clientset.transport_for_calls.

Design notes: a `Fake` (client-go testing's, `minikcm.client.testing.fake`) may be
attached to any clientset (`Clientset.fake`). Each call then goes through
`fake.wrap(transport)`: the Fake records the call as an Action and offers it to
its reactors before the real transport sees it. This module never imports the
Fake; it only calls `wrap`. Watch events become models when the consumer
receives them (`ModelResultChan.recv`), on the consumer's thread, so a driven
run stays single-threaded.

Not ported: rest.Request and everything HTTP (see rest.py), Apply/ApplyStatus,
the ...WithContext twins, the generated fake typed clients (the Fake's transport
plays them for every resource at once), the per-resource interfaces as separate
declarations (interface.py names the classes here).
Differs from Go:
- One generic class per verb set (TypedClient, TypedClientWithStatus,
  TypedClientWithScale) instead of one generated client per resource; the
  expansions (PodClient.bind, the EventClient namespace helpers) subclass them.
- Objects passed in may be models or wire dicts; objects returned are models,
  and an empty answer (a reactor handled the call with no object) is the
  model's zero value, as Go's empty result.
- GetOptions are recorded for a Fake but not sent: both transports read the latest state.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from kubernetes.client import (
    CoreV1Event,
    CoreV1EventList,
    V1ControllerRevision,
    V1ControllerRevisionList,
    V1Deployment,
    V1DeploymentList,
    V1Lease,
    V1LeaseList,
    V1Namespace,
    V1NamespaceList,
    V1Node,
    V1NodeList,
    V1ObjectMeta,
    V1PersistentVolumeClaim,
    V1PersistentVolumeClaimList,
    V1Pod,
    V1PodList,
    V1ReplicaSet,
    V1ReplicaSetList,
    V1Scale,
    V1Service,
    V1ServiceList,
    V1StatefulSet,
    V1StatefulSetList,
)

from minikcm.apimachinery import watch
from minikcm.apimachinery.convert import from_wire, object_meta
from minikcm.apimachinery.meta import (
    CreateOptions,
    DeleteOptions,
    GetOptions,
    ListOptions,
    PatchOptions,
    UpdateOptions,
)
from minikcm.apimachinery.schema import ResourceInfo, resource_info
from minikcm.apimachinery.types import STRATEGIC_MERGE_PATCH_TYPE, PatchType
from minikcm.client.transport import Transport, WireDict, patch_bytes

if TYPE_CHECKING:
    from minikcm.client.testing.fake import Fake

T = TypeVar("T")
L = TypeVar("L")


# --- models out ------------------------------------------------------------------------------


def empty_object(cls: type, **values: Any) -> Any:
    """Go's zero struct of `cls`: every field None (a list's items []), built without validation.

    What a client hands back when a reactor handled a call but returned no object,
    and the body of a BOOKMARK event (only metadata.resourceVersion and annotations are set).
    """
    fields: dict[str, Any] = {name: None for name in cls.model_fields}  # type: ignore[attr-defined]
    if "items" in fields:
        fields["items"] = []
    fields.update(values)
    return cls.model_construct(**fields)  # type: ignore[attr-defined]


def model_out(ret: Any, cls: type) -> Any:
    """What a transport (a wire dict) or a reactor (a model, dict or None) answered, as a `cls` model."""
    if ret is None:
        return empty_object(cls)
    if isinstance(ret, dict):
        return from_wire(ret, cls)
    return ret


class ModelResultChan(watch.ResultChan):
    """A view of a transport watch's ResultChan whose `recv` returns events carrying models.

    Conversion happens in `recv`, on the receiving thread. ERROR events keep their
    Status dict; BOOKMARK events carry an empty model holding only
    metadata.resourceVersion and the annotations (a watch-list's end marker,
    `k8s.io/initial-events-end`); objects that already are models pass through.
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
            meta = obj.get("metadata") or {}
            return watch.Event(event.type, empty_object(
                self.info.model, api_version=self.info.api_version, kind=self.info.kind,
                metadata=V1ObjectMeta(resource_version=meta.get("resourceVersion", ""),
                                      annotations=meta.get("annotations") or None)))
        return watch.Event(event.type, from_wire(obj, self.info.model))

    def recv(self, timeout: float | None = None) -> watch.Event | None:
        event = self.inner.recv(timeout)
        return None if event is None else self.convert(event)

    def put(self, event: watch.Event) -> bool:
        return self.inner.put(event)

    def wait(self, timeout: float | None = None) -> bool:
        """No upstream twin: ResultChan.wait of the wire-dict channel underneath (threaded consumers block here)."""
        return self.inner.wait(timeout)

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


# --- typed clients (gentype.Client / ClientWithList) ------------------------------------------


class TypedClient(Generic[T, L]):
    """Port of ClientWithList (gentype/type.go): the verbs of one resource in one namespace.

    interface.ResourceInterface names it. Cheap to make: group clients make
    one per call. The namespace is dropped for cluster-scoped resources.
    """

    def __init__(self, clientset: Clientset, resource: str, namespace: str) -> None:
        self.clientset = clientset
        self.info = resource_info(resource)
        self.resource = resource
        self.namespace = namespace if self.info.namespaced else ""

    def request(self, verb: str, name: str = "", subresource: str = "", body: Any = None,
                options: Any = None, *, patch_type: PatchType = "") -> Any:
        """One call through the clientset's transport (see transport.Transport for what each verb carries)."""
        return self.clientset.transport_for_calls().request(
            verb, self.resource, self.namespace, name, subresource, body, options,
            patch_type=patch_type)

    def create(self, obj: T | WireDict, opts: CreateOptions | None = None) -> T:
        """Port of Client.Create (gentype/type.go)."""
        return model_out(self.request("create", body=obj, options=opts or CreateOptions()),
                         self.info.model)

    def update(self, obj: T | WireDict, opts: UpdateOptions | None = None) -> T:
        """Port of Client.Update (gentype/type.go)."""
        return self.update_subresource(obj, opts, "")

    def update_subresource(self, obj: Any, opts: UpdateOptions | None, subresource: str) -> Any:
        """Update through `subresource` ("" for the main resource, "status")."""
        ret = self.request("update", object_meta(obj).name or "", subresource, obj,
                           opts or UpdateOptions())
        return model_out(ret, self.info.model)

    def delete(self, name: str, opts: DeleteOptions | None = None) -> None:
        """Port of Client.Delete (gentype/type.go): the options travel as the body."""
        self.request("delete", name, body=opts or DeleteOptions())

    def delete_collection(self, opts: DeleteOptions | None = None,
                          list_opts: ListOptions | None = None) -> None:
        """Port of alsoLister.DeleteCollection (gentype/type.go): delete what `list_opts` selects."""
        self.request("delete-collection", body=opts or DeleteOptions(),
                     options=list_opts or ListOptions())

    def get(self, name: str, opts: GetOptions | None = None) -> T:
        """Port of Client.Get (gentype/type.go)."""
        return model_out(self.request("get", name, options=opts or GetOptions()), self.info.model)

    def list(self, opts: ListOptions | None = None) -> L:
        """Port of alsoLister.List (gentype/type.go)."""
        return model_out(self.request("list", options=opts or ListOptions()), self.info.list_model)

    def watch(self, opts: ListOptions | None = None) -> watch.Interface:
        """Port of Client.Watch (gentype/type.go): sets opts.watch, as client-go does."""
        options = replace(opts or ListOptions(), watch=True)
        inner = self.clientset.transport_for_calls().watch(self.resource, self.namespace, options)
        return ModelWatcher(inner, self.info)

    def patch(self, name: str, pt: PatchType, data: bytes | str | Any,
              opts: PatchOptions | None = None, *subresources: str) -> T:
        """Port of Client.Patch (gentype/type.go). A patch of `scale` returns a V1Scale."""
        subresource = "/".join(subresources)
        ret = self.request("patch", name, subresource, patch_bytes(data), opts or PatchOptions(),
                           patch_type=pt)
        return model_out(ret, V1Scale if subresource == "scale" else self.info.model)

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
        return model_out(self.request("get", name, "scale", options=opts or GetOptions()), V1Scale)

    def update_scale(self, name: str, scale: V1Scale | WireDict,
                     opts: UpdateOptions | None = None) -> V1Scale:
        """Port of deployments.UpdateScale (kubernetes/typed/apps/v1/deployment.go), likewise for the others.

        The request names the object by `name`; the scale body gets that name when it has none.
        """
        return model_out(self.request("update", name, "scale", scale, opts or UpdateOptions()),
                         V1Scale)


class PodClient(TypedClientWithStatus[T, L]):
    """The pods client, with the expansion a scheduler uses (pod_expansion.go)."""

    def bind(self, binding: Any, opts: CreateOptions | None = None) -> None:
        """Port of pods.Bind (kubernetes/typed/core/v1/pod_expansion.go): create pods/<name>/binding.

        The call goes to this client's namespace; the binding names the pod. A
        Fake records it as a `create` of `pods` with subresource `binding` whose
        object is the binding, as client-go's fake Bind does.
        Differs from Go: the recorded action carries this client's namespace
        (client-go's fake takes the binding's).
        """
        self.request("create", object_meta(binding).name or "", "binding", binding,
                     opts or CreateOptions())


class EventClient(TypedClient[T, L]):
    """The events client, with the expansions the event recorder uses (event_expansion.go).

    The `..._with_event_namespace` calls take the namespace from the event, so a
    sink made with `events("")` writes events into any namespace.
    """

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


# --- kubernetes/typed/core/v1/event_expansion.go: the event sink over the clientset --------------


class EventSinkImpl:
    """Port of EventSinkImpl (kubernetes/typed/core/v1/event_expansion.go).

    Writes through `cs.core_v1().events("")`: each call uses the event's own namespace.
    """

    def __init__(self, interface: EventClient[CoreV1Event, CoreV1EventList]) -> None:
        self.interface = interface

    def create(self, event: CoreV1Event) -> CoreV1Event:
        """Port of EventSinkImpl.Create: CreateWithEventNamespace."""
        return self.interface.create_with_event_namespace(event)

    def update(self, event: CoreV1Event) -> CoreV1Event:
        """Port of EventSinkImpl.Update: UpdateWithEventNamespace."""
        return self.interface.update_with_event_namespace(event)

    def patch(self, old_event: CoreV1Event, data: bytes) -> CoreV1Event:
        """Port of EventSinkImpl.Patch: PatchWithEventNamespace (a strategic merge patch)."""
        return self.interface.patch_with_event_namespace(old_event, data)


# --- group clients (kubernetes/typed/<group>/<version>/<group>_client.go) -----------------------


class CoreV1Client:
    """Port of CoreV1Client (kubernetes/typed/core/v1/core_client.go), the resources we serve."""

    def __init__(self, clientset: Clientset) -> None:
        self.clientset = clientset

    def namespaces(self) -> TypedClientWithStatus[V1Namespace, V1NamespaceList]:
        """Port of CoreV1Client.Namespaces (kubernetes/typed/core/v1/core_client.go)."""
        return TypedClientWithStatus(self.clientset, "namespaces", "")

    def nodes(self) -> TypedClientWithStatus[V1Node, V1NodeList]:
        """Port of CoreV1Client.Nodes (kubernetes/typed/core/v1/core_client.go)."""
        return TypedClientWithStatus(self.clientset, "nodes", "")

    def pods(self, namespace: str) -> PodClient[V1Pod, V1PodList]:
        """Port of CoreV1Client.Pods (kubernetes/typed/core/v1/core_client.go)."""
        return PodClient(self.clientset, "pods", namespace)

    def events(self, namespace: str) -> EventClient[CoreV1Event, CoreV1EventList]:
        """Port of CoreV1Client.Events (kubernetes/typed/core/v1/core_client.go)."""
        return EventClient(self.clientset, "events", namespace)

    def persistent_volume_claims(
            self, namespace: str) -> TypedClientWithStatus[V1PersistentVolumeClaim, V1PersistentVolumeClaimList]:
        """Port of CoreV1Client.PersistentVolumeClaims (kubernetes/typed/core/v1/core_client.go)."""
        return TypedClientWithStatus(self.clientset, "persistentvolumeclaims", namespace)

    def services(self, namespace: str) -> TypedClientWithStatus[V1Service, V1ServiceList]:
        """Port of CoreV1Client.Services (kubernetes/typed/core/v1/core_client.go)."""
        return TypedClientWithStatus(self.clientset, "services", namespace)


class AppsV1Client:
    """Port of AppsV1Client (kubernetes/typed/apps/v1/apps_client.go)."""

    def __init__(self, clientset: Clientset) -> None:
        self.clientset = clientset

    def deployments(self, namespace: str) -> TypedClientWithScale[V1Deployment, V1DeploymentList]:
        """Port of AppsV1Client.Deployments (kubernetes/typed/apps/v1/apps_client.go)."""
        return TypedClientWithScale(self.clientset, "deployments", namespace)

    def replica_sets(self, namespace: str) -> TypedClientWithScale[V1ReplicaSet, V1ReplicaSetList]:
        """Port of AppsV1Client.ReplicaSets (kubernetes/typed/apps/v1/apps_client.go)."""
        return TypedClientWithScale(self.clientset, "replicasets", namespace)

    def stateful_sets(self, namespace: str) -> TypedClientWithScale[V1StatefulSet, V1StatefulSetList]:
        """Port of AppsV1Client.StatefulSets (kubernetes/typed/apps/v1/apps_client.go)."""
        return TypedClientWithScale(self.clientset, "statefulsets", namespace)

    def controller_revisions(self, namespace: str) -> TypedClient[V1ControllerRevision, V1ControllerRevisionList]:
        """Port of AppsV1Client.ControllerRevisions (kubernetes/typed/apps/v1/apps_client.go)."""
        return TypedClient(self.clientset, "controllerrevisions", namespace)


class CoordinationV1Client:
    """Port of CoordinationV1Client (kubernetes/typed/coordination/v1/coordination_client.go)."""

    def __init__(self, clientset: Clientset) -> None:
        self.clientset = clientset

    def leases(self, namespace: str) -> TypedClient[V1Lease, V1LeaseList]:
        """Port of CoordinationV1Client.Leases (kubernetes/typed/coordination/v1/coordination_client.go)."""
        return TypedClient(self.clientset, "leases", namespace)


# --- the clientset (kubernetes/clientset.go) ----------------------------------------------------


class Clientset:
    """Port of Clientset (kubernetes/clientset.go): kubernetes.Interface (interface.Interface) over one transport.

    The backends subclass it only to build their transport from what their
    callers have (an APIServer, a kubeconfig). `fake`, when set, is a
    `minikcm.client.testing.fake.Fake` whose reactors see every call first and
    which records them all; set it at construction or later.
    Thread: any, as far as the transport allows (both backends' do).
    """

    def __init__(self, transport: Transport, fake: Fake | None = None) -> None:
        self.transport = transport
        """Where calls go when no Fake stands in front."""
        self.fake = fake
        """Reactor chain and action record, or None for plain calls."""

    def transport_for_calls(self) -> Transport:
        """The transport, behind the Fake's reactor chain when a Fake is attached."""
        return self.transport if self.fake is None else self.fake.wrap(self.transport)

    def core_v1(self) -> CoreV1Client:
        """Port of Clientset.CoreV1 (kubernetes/clientset.go)."""
        return CoreV1Client(self)

    def apps_v1(self) -> AppsV1Client:
        """Port of Clientset.AppsV1 (kubernetes/clientset.go)."""
        return AppsV1Client(self)

    def coordination_v1(self) -> CoordinationV1Client:
        """Port of Clientset.CoordinationV1 (kubernetes/clientset.go)."""
        return CoordinationV1Client(self)

    def is_watch_list_semantics_un_supported(self) -> bool:
        """Port of Clientset.IsWatchListSemanticsUnSupported (kubernetes/fake/clientset_generated.go).

        Reflectors over a clientset that says True list and watch instead of
        streaming (util/watchlist). Upstream only the fake clientset says so;
        here a clientset with a `Fake` attached plays it, so tests that assert
        the recorded actions see list and watch, as client-go's tests do.
        """
        return self.fake is not None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.transport!r}, fake={self.fake!r})"
