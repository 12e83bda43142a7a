"""Port of the names of k8s.io/client-go/kubernetes's interfaces: the clientset's, each group's, each resource's.

client-go declares an interface for the clientset (`kubernetes.Interface`), for each
API group (`CoreV1Interface`, ...) and for each resource (`PodInterface`, ...), so
that its generated fakes can stand in for the real clients. minikcm has one class
for each (typed.py) and substitutes below them instead: a test attaches a client-go
testing `Fake` to any clientset, and its reactors answer before the transport does
(minikcm.client.testing). So each Go interface here is a name for the one class
that implements it: a controller's `kube_client: Interface` reads as in Go, and "go
to definition" lands one hop from the code that runs.

Start reading at: typed.Clientset, then typed.TypedClient.

Not ported: the interfaces as separate declarations (one implementation each);
Apply/ApplyStatus/ApplyScale (send a patch of type APPLY_PATCH_TYPE instead), the
...WithContext twins, Discovery(), every API group and resource beyond the ones the
embedded server serves, the pod expansions other than Bind, Namespace Finalize,
Event Search and GetFieldSelector.
"""

from __future__ import annotations

from kubernetes.client import (
    CoreV1Event,
    CoreV1EventList,
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
    V1Service,
    V1ServiceList,
    V1StatefulSet,
    V1StatefulSetList,
)

from minikcm.client.typed import (
    AppsV1Client,
    Clientset,
    CoordinationV1Client,
    CoreV1Client,
    EventClient,
    PodClient,
    TypedClient,
    TypedClientWithScale,
    TypedClientWithStatus,
)

Interface = Clientset
"""kubernetes.Interface (kubernetes/clientset.go): `core_v1()`, `apps_v1()`, `coordination_v1()`."""
ResourceInterface = TypedClient
"""The verbs every resource has (gentype.ClientWithList): create, update, delete, delete_collection, get, list, watch, patch."""

CoreV1Interface = CoreV1Client
NamespaceInterface = TypedClientWithStatus[V1Namespace, V1NamespaceList]
NodeInterface = TypedClientWithStatus[V1Node, V1NodeList]
PodInterface = PodClient[V1Pod, V1PodList]
EventInterface = EventClient[CoreV1Event, CoreV1EventList]
PersistentVolumeClaimInterface = TypedClientWithStatus[V1PersistentVolumeClaim, V1PersistentVolumeClaimList]
ServiceInterface = TypedClientWithStatus[V1Service, V1ServiceList]

AppsV1Interface = AppsV1Client
DeploymentInterface = TypedClientWithScale[V1Deployment, V1DeploymentList]
ReplicaSetInterface = TypedClientWithScale[V1ReplicaSet, V1ReplicaSetList]
StatefulSetInterface = TypedClientWithScale[V1StatefulSet, V1StatefulSetList]
ControllerRevisionInterface = TypedClient[V1ControllerRevision, V1ControllerRevisionList]

CoordinationV1Interface = CoordinationV1Client
LeaseInterface = TypedClient[V1Lease, V1LeaseList]
