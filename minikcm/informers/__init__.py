"""Port of k8s.io/client-go/informers and listers: the shared informer factory.

One shared informer per resource, started together and waited on together, with
typed listers that answer from the cache.
"""

from minikcm.informers.factory import (
    CONTROLLER_REVISIONS,
    DEPLOYMENTS,
    EVENTS,
    LEASES,
    NAMESPACES,
    NODES,
    PERSISTENT_VOLUME_CLAIMS,
    PODS,
    REPLICA_SETS,
    STATEFUL_SETS,
    Group,
    InformerOptions,
    Kind,
    NewInformerFunc,
    ResourceInformer,
    SharedInformerFactory,
    TweakListOptionsFunc,
    new_filtered_shared_informer_factory,
    new_informer_for_kind,
    new_shared_informer_factory,
    new_shared_informer_factory_with_options,
)

__all__ = [
    "SharedInformerFactory",
    "new_shared_informer_factory",
    "new_filtered_shared_informer_factory",
    "new_shared_informer_factory_with_options",
    "TweakListOptionsFunc",
    "NewInformerFunc",
    "InformerOptions",
    "Kind",
    "ResourceInformer",
    "Group",
    "new_informer_for_kind",
    "DEPLOYMENTS",
    "REPLICA_SETS",
    "STATEFUL_SETS",
    "CONTROLLER_REVISIONS",
    "PODS",
    "PERSISTENT_VOLUME_CLAIMS",
    "EVENTS",
    "NAMESPACES",
    "NODES",
    "LEASES",
]
