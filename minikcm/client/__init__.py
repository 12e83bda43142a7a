"""Port of k8s.io/client-go/kubernetes (the typed clientset), with two backends.

Controllers talk to the API only through this interface. The in-process backend
calls the embedded API server directly (tests, debugger, deterministic runs); the
REST backend uses the official kubernetes client over HTTP, so the same
controllers run against a real cluster.
"""

from minikcm.client.fake import (
    Action,
    CreateAction,
    DeleteAction,
    DeleteCollectionAction,
    Fake,
    GetAction,
    ListAction,
    PatchAction,
    ReactionFunc,
    UpdateAction,
    WatchAction,
    WatchReactionFunc,
    new_simple_clientset,
)
from minikcm.client.inprocess import InProcessClientset
from minikcm.client.interface import (
    AppsV1Interface,
    ControllerRevisionInterface,
    CoordinationV1Interface,
    CoreV1Interface,
    DeploymentInterface,
    EventInterface,
    Interface,
    LeaseInterface,
    NamespaceInterface,
    PersistentVolumeClaimInterface,
    PodInterface,
    ReplicaSetInterface,
    ResourceInterface,
    ServiceInterface,
    StatefulSetInterface,
)
from minikcm.client.rest import RESTClientset, new_for_config

__all__ = [
    "Action",
    "AppsV1Interface",
    "ControllerRevisionInterface",
    "CoordinationV1Interface",
    "CoreV1Interface",
    "CreateAction",
    "DeleteAction",
    "DeleteCollectionAction",
    "DeploymentInterface",
    "EventInterface",
    "Fake",
    "GetAction",
    "InProcessClientset",
    "Interface",
    "LeaseInterface",
    "ListAction",
    "NamespaceInterface",
    "PatchAction",
    "PersistentVolumeClaimInterface",
    "PodInterface",
    "RESTClientset",
    "ReactionFunc",
    "ReplicaSetInterface",
    "ResourceInterface",
    "ServiceInterface",
    "StatefulSetInterface",
    "UpdateAction",
    "WatchAction",
    "WatchReactionFunc",
    "new_for_config",
    "new_simple_clientset",
]
