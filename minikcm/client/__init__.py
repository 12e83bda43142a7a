"""Port of k8s.io/client-go/kubernetes (the typed clientset), over two transports.

Controllers talk to the API only through this interface. The typed clients are
written once (typed.py) over a small transport protocol (transport.py): the
in-process transport calls the embedded API server directly (tests, debugger,
driven runs); the REST transport uses the official kubernetes client over HTTP,
so the same controllers run against a real cluster. client-go's test doubles
live beside it: `minikcm.client.testing` (actions, Fake, reactors) and
`minikcm.client.fake` (new_simple_clientset).
"""

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
from minikcm.client.typed import Clientset

__all__ = [
    "AppsV1Interface",
    "Clientset",
    "ControllerRevisionInterface",
    "CoordinationV1Interface",
    "CoreV1Interface",
    "DeploymentInterface",
    "EventInterface",
    "InProcessClientset",
    "Interface",
    "LeaseInterface",
    "NamespaceInterface",
    "PersistentVolumeClaimInterface",
    "PodInterface",
    "RESTClientset",
    "ReplicaSetInterface",
    "ResourceInterface",
    "ServiceInterface",
    "StatefulSetInterface",
    "new_for_config",
]
