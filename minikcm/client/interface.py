"""Port of the shape of k8s.io/client-go/kubernetes (clientset.go and the typed clients in kubernetes/typed/{core,apps,coordination}/v1).

What a controller sees of the API server. `Interface` hands out one client per API
group (`core_v1()`, `apps_v1()`, `coordination_v1()`); a group hands out one typed
client per resource and namespace (`apps_v1().deployments("default")`); a typed
client has the verbs of client-go's generated clients in snake_case. These are
protocols only, with no HTTP and no storage in them: `typed.Clientset` implements
them once, over a transport that calls the embedded API server
(`inprocess.InProcessClientset`) or the official kubernetes client
(`rest.RESTClientset`), and controllers cannot tell the two apart.

Start reading at: Interface, then ResourceInterface.

Not ported: Apply/ApplyStatus/ApplyScale (send a patch of type APPLY_PATCH_TYPE
instead), the ...WithContext twins, Discovery(), every API group and resource
beyond the ones the embedded server serves, the pod expansions other than Bind
(Evict, GetLogs, ProxyGet, UpdateEphemeralContainers, UpdateResize), Namespace Finalize,
Event Search and GetFieldSelector.
Differs from Go:
- client-go generates one method list per resource. Here one generic protocol,
  `ResourceInterface[T, L]` (what gentype.ClientWithList implements upstream),
  plus `StatusInterface` and `ScaleInterface` for the resources that have those
  subresources, are combined into each per-resource interface.
- Option parameters default to None, read as the empty options struct.
- Objects passed in may be models or wire dicts; objects returned are always models.
- Errors are raised (`minikcm.apimachinery.errors.StatusError`); `delete` and
  `delete_collection` return None.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from kubernetes.client import (
    CoreV1Event,
    CoreV1EventList,
    V1Binding,
    V1Node,
    V1NodeList,
    V1ControllerRevision,
    V1ControllerRevisionList,
    V1Deployment,
    V1DeploymentList,
    V1Lease,
    V1LeaseList,
    V1Namespace,
    V1NamespaceList,
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
from minikcm.apimachinery.meta import (
    CreateOptions,
    DeleteOptions,
    GetOptions,
    ListOptions,
    PatchOptions,
    UpdateOptions,
)
from minikcm.apimachinery.types import PatchType

T = TypeVar("T")
"""The object model of one resource (V1Deployment, V1Pod, ...)."""
L = TypeVar("L")
"""The list model of the same resource (V1DeploymentList, ...)."""

WireDict = dict[str, Any]
"""An object in wire form: the JSON Kubernetes sends, camelCase keys."""


# --- the verbs every resource has (gentype/type.go) ---------------------------------


class ResourceInterface(Protocol[T, L]):
    """The verbs of one resource in one namespace (gentype.ClientWithList's method set).

    A typed client is bound to a namespace when it is made ("" for cluster-scoped
    resources, and for list/watch across all namespaces). Every call is one
    request to the API server; nothing is cached.
    """

    def create(self, obj: T | WireDict, opts: CreateOptions | None = None) -> T:
        """Port of Create: store a new object; returns it as the server filled it in."""
        ...

    def update(self, obj: T | WireDict, opts: UpdateOptions | None = None) -> T:
        """Port of Update: replace the object (status changes are ignored by the server).

        Raises a Conflict StatusError when `obj.metadata.resource_version` is stale.
        """
        ...

    def delete(self, name: str, opts: DeleteOptions | None = None) -> None:
        """Port of Delete."""
        ...

    def delete_collection(self, opts: DeleteOptions | None = None,
                          list_opts: ListOptions | None = None) -> None:
        """Port of DeleteCollection: delete every object `list_opts` selects."""
        ...

    def get(self, name: str, opts: GetOptions | None = None) -> T:
        """Port of Get."""
        ...

    def list(self, opts: ListOptions | None = None) -> L:
        """Port of List: the list model, with `metadata.resource_version` to watch from."""
        ...

    def watch(self, opts: ListOptions | None = None) -> watch.Interface:
        """Port of Watch: events carry models (ERROR events carry a Status dict)."""
        ...

    def patch(self, name: str, pt: PatchType, data: bytes | str | Any,
              opts: PatchOptions | None = None, *subresources: str) -> T:
        """Port of Patch: `data` is the patch body, bytes as in Go (str or parsed JSON also accepted)."""
        ...


class StatusInterface(Protocol[T]):
    """UpdateStatus, which client-go generates for resources with a status subresource."""

    def update_status(self, obj: T | WireDict, opts: UpdateOptions | None = None) -> T:
        """Port of UpdateStatus: replace only the status (spec changes are ignored by the server)."""
        ...


class ScaleInterface(Protocol):
    """GetScale and UpdateScale, for resources with a scale subresource."""

    def get_scale(self, name: str, opts: GetOptions | None = None) -> V1Scale:
        """Port of GetScale: the autoscaling/v1 Scale view of the named object."""
        ...

    def update_scale(self, name: str, scale: V1Scale | WireDict,
                     opts: UpdateOptions | None = None) -> V1Scale:
        """Port of UpdateScale: change spec.replicas through the scale subresource."""
        ...


# --- core/v1 (kubernetes/typed/core/v1) ----------------------------------------------


class NamespaceInterface(ResourceInterface[V1Namespace, V1NamespaceList],
                         StatusInterface[V1Namespace], Protocol):
    """Port of NamespaceInterface (kubernetes/typed/core/v1/namespace.go)."""


class NodeInterface(ResourceInterface[V1Node, V1NodeList], StatusInterface[V1Node], Protocol):
    """Port of NodeInterface (kubernetes/typed/core/v1/node.go)."""


class PodExpansion(Protocol):
    """Port of PodExpansion (kubernetes/typed/core/v1/pod_expansion.go), the part a scheduler uses."""

    def bind(self, binding: V1Binding | WireDict, opts: CreateOptions | None = None) -> None:
        """Port of pods.Bind (kubernetes/typed/core/v1/pod_expansion.go).

        Assigns the pod `binding.metadata.name` to the node `binding.target.name`
        by creating the pods/binding subresource, as a scheduler does. The
        request goes to this client's namespace; the binding's own namespace is
        not used.
        Raises: StatusError, e.g. 409 Conflict when the pod already has a node.
        """
        ...


class PodInterface(ResourceInterface[V1Pod, V1PodList], StatusInterface[V1Pod], PodExpansion, Protocol):
    """Port of PodInterface (kubernetes/typed/core/v1/pod.go)."""


class EventExpansion(Protocol):
    """Port of EventExpansion (kubernetes/typed/core/v1/event_expansion.go), the part the recorder uses.

    These calls take the namespace from the event itself, so an event sink made
    with `events("")` can write events into any namespace.
    """

    def create_with_event_namespace(self, event: CoreV1Event | WireDict) -> CoreV1Event:
        """Port of CreateWithEventNamespace."""
        ...

    def update_with_event_namespace(self, event: CoreV1Event | WireDict) -> CoreV1Event:
        """Port of UpdateWithEventNamespace."""
        ...

    def patch_with_event_namespace(self, event: CoreV1Event | WireDict,
                                   data: bytes | str | Any) -> CoreV1Event:
        """Port of PatchWithEventNamespace: a strategic merge patch of the event."""
        ...


class EventInterface(ResourceInterface[CoreV1Event, CoreV1EventList], EventExpansion, Protocol):
    """Port of EventInterface (kubernetes/typed/core/v1/event.go)."""


class PersistentVolumeClaimInterface(
    ResourceInterface[V1PersistentVolumeClaim, V1PersistentVolumeClaimList],
    StatusInterface[V1PersistentVolumeClaim], Protocol,
):
    """Port of PersistentVolumeClaimInterface (kubernetes/typed/core/v1/persistentvolumeclaim.go)."""


class ServiceInterface(ResourceInterface[V1Service, V1ServiceList],
                       StatusInterface[V1Service], Protocol):
    """Port of ServiceInterface (kubernetes/typed/core/v1/service.go)."""


class CoreV1Interface(Protocol):
    """Port of CoreV1Interface (kubernetes/typed/core/v1/core_client.go), the resources we serve."""

    def namespaces(self) -> NamespaceInterface:
        """Port of CoreV1Interface.Namespaces (kubernetes/typed/core/v1/core_client.go)."""
    def nodes(self) -> NodeInterface:
        """Port of CoreV1Interface.Nodes (kubernetes/typed/core/v1/core_client.go)."""
    def pods(self, namespace: str) -> PodInterface:
        """Port of CoreV1Interface.Pods (kubernetes/typed/core/v1/core_client.go)."""
    def events(self, namespace: str) -> EventInterface:
        """Port of CoreV1Interface.Events (kubernetes/typed/core/v1/core_client.go)."""
    def persistent_volume_claims(self, namespace: str) -> PersistentVolumeClaimInterface:
        """Port of CoreV1Interface.PersistentVolumeClaims (kubernetes/typed/core/v1/core_client.go)."""
    def services(self, namespace: str) -> ServiceInterface:
        """Port of CoreV1Interface.Services (kubernetes/typed/core/v1/core_client.go)."""


# --- apps/v1 (kubernetes/typed/apps/v1) ----------------------------------------------


class DeploymentInterface(ResourceInterface[V1Deployment, V1DeploymentList],
                          StatusInterface[V1Deployment], ScaleInterface, Protocol):
    """Port of DeploymentInterface (kubernetes/typed/apps/v1/deployment.go)."""


class ReplicaSetInterface(ResourceInterface[V1ReplicaSet, V1ReplicaSetList],
                          StatusInterface[V1ReplicaSet], ScaleInterface, Protocol):
    """Port of ReplicaSetInterface (kubernetes/typed/apps/v1/replicaset.go)."""


class StatefulSetInterface(ResourceInterface[V1StatefulSet, V1StatefulSetList],
                           StatusInterface[V1StatefulSet], ScaleInterface, Protocol):
    """Port of StatefulSetInterface (kubernetes/typed/apps/v1/statefulset.go)."""


class ControllerRevisionInterface(
    ResourceInterface[V1ControllerRevision, V1ControllerRevisionList], Protocol,
):
    """Port of ControllerRevisionInterface (kubernetes/typed/apps/v1/controllerrevision.go)."""


class AppsV1Interface(Protocol):
    """Port of AppsV1Interface (kubernetes/typed/apps/v1/apps_client.go)."""

    def deployments(self, namespace: str) -> DeploymentInterface:
        """Port of AppsV1Interface.Deployments (kubernetes/typed/apps/v1/apps_client.go)."""
    def replica_sets(self, namespace: str) -> ReplicaSetInterface:
        """Port of AppsV1Interface.ReplicaSets (kubernetes/typed/apps/v1/apps_client.go)."""
    def stateful_sets(self, namespace: str) -> StatefulSetInterface:
        """Port of AppsV1Interface.StatefulSets (kubernetes/typed/apps/v1/apps_client.go)."""
    def controller_revisions(self, namespace: str) -> ControllerRevisionInterface:
        """Port of AppsV1Interface.ControllerRevisions (kubernetes/typed/apps/v1/apps_client.go)."""


# --- coordination.k8s.io/v1 (kubernetes/typed/coordination/v1) -----------------------


class LeaseInterface(ResourceInterface[V1Lease, V1LeaseList], Protocol):
    """Port of LeaseInterface (kubernetes/typed/coordination/v1/lease.go)."""


class CoordinationV1Interface(Protocol):
    """Port of CoordinationV1Interface (kubernetes/typed/coordination/v1/coordination_client.go)."""

    def leases(self, namespace: str) -> LeaseInterface:
        """Port of CoordinationV1Interface.Leases (kubernetes/typed/coordination/v1/coordination_client.go)."""


# --- the clientset (kubernetes/clientset.go) -------------------------------------------


class Interface(Protocol):
    """Port of Interface (kubernetes/clientset.go): the clientset, one accessor per API group."""

    def core_v1(self) -> CoreV1Interface:
        """Port of Interface.CoreV1 (kubernetes/clientset.go)."""
    def apps_v1(self) -> AppsV1Interface:
        """Port of Interface.AppsV1 (kubernetes/clientset.go)."""
    def coordination_v1(self) -> CoordinationV1Interface:
        """Port of Interface.CoordinationV1 (kubernetes/clientset.go)."""
