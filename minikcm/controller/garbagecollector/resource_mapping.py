"""No upstream twin. What the collector knows about resources: the REST mapper and the informer lookup.

Upstream, the collector maps an apiVersion/kind to a resource with a REST
mapper fed by discovery, reaches any resource through the metadata client,
and gets an informer for any resource from the informer factory's
ForResource. minikcm serves a fixed set of resources
(minikcm.apimachinery.schema.RESOURCES), so three explicit tables stand in:
kinds to resources (schema), resources to typed clients (RESOURCE_CLIENTS)
and resources to informer kinds (INFORMER_KINDS).

Start reading at: api_resource_using, then resource_client.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minikcm.apimachinery.schema import (
    RESOURCES,
    GroupVersionKind,
    GroupVersionResource,
    resource_for_kind,
    resource_for_model,
)
from minikcm.client.interface import Interface, ResourceInterface
from minikcm.controller.garbagecollector.errors import new_rest_mapping_error
from minikcm.informers import factory as informers
from minikcm.informers.factory import ResourceInformer, SharedInformerFactory

ResourceClient = ResourceInterface[Any, Any]


# --- typed clients by resource name (Go: metadataClient.Resource(gvr).Namespace(ns)) -----------


def namespaces_client(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. Namespaces are cluster-scoped: `namespace` is ignored."""
    return client.core_v1().namespaces()


def pods_client(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.core_v1().pods(namespace)`."""
    return client.core_v1().pods(namespace)


def events_client(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.core_v1().events(namespace)`."""
    return client.core_v1().events(namespace)


def persistent_volume_claims_client(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.core_v1().persistent_volume_claims(namespace)`."""
    return client.core_v1().persistent_volume_claims(namespace)


def services_client(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.core_v1().services(namespace)`."""
    return client.core_v1().services(namespace)


def deployments_client(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.apps_v1().deployments(namespace)`."""
    return client.apps_v1().deployments(namespace)


def replica_sets_client(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.apps_v1().replica_sets(namespace)`."""
    return client.apps_v1().replica_sets(namespace)


def stateful_sets_client(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.apps_v1().stateful_sets(namespace)`."""
    return client.apps_v1().stateful_sets(namespace)


def controller_revisions_client(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.apps_v1().controller_revisions(namespace)`."""
    return client.apps_v1().controller_revisions(namespace)


def nodes_client(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.core_v1().nodes()` (cluster-scoped: the namespace is ignored)."""
    return client.core_v1().nodes()


def leases_client(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.coordination_v1().leases(namespace)`."""
    return client.coordination_v1().leases(namespace)


RESOURCE_CLIENTS: dict[str, Callable[[Interface, str], ResourceClient]] = {
    "namespaces": namespaces_client,
    "nodes": nodes_client,
    "pods": pods_client,
    "events": events_client,
    "persistentvolumeclaims": persistent_volume_claims_client,
    "services": services_client,
    "deployments": deployments_client,
    "replicasets": replica_sets_client,
    "statefulsets": stateful_sets_client,
    "controllerrevisions": controller_revisions_client,
    "leases": leases_client,
}
"""No upstream twin. Every resource of minikcm.apimachinery.schema.RESOURCES, to its typed client."""


def resource_client(client: Interface, resource: GroupVersionResource, namespace: str) -> ResourceClient:
    """No upstream twin. The typed client of `resource` in `namespace` ("" for cluster-scoped ones).

    Raises:
        KeyError: the resource has no client (not a served resource).
    """
    return RESOURCE_CLIENTS[resource.resource](client, namespace)


def api_resource_using(api_version: str, kind: str) -> tuple[GroupVersionResource, bool]:
    """Port of apiResourceUsing / the mapping step of apiResource (operations.go): a kind's resource and scope.

    Raises:
        RestMappingError: the apiVersion/kind is not served.
    """
    info = resource_for_kind(api_version, kind)
    if info is None:
        raise new_rest_mapping_error(kind, api_version)
    return info.gvr(), info.namespaced


def kind_for(resource: GroupVersionResource) -> GroupVersionKind | None:
    """No upstream twin; stands in for RESTMapper.KindFor: the kind served under `resource`, or None."""
    info = RESOURCES.get(resource.resource)
    if info is None or info.group != resource.group or info.version != resource.version:
        return None
    return info.gvk()


# --- informers by resource name (Go: InformerFactory.ForResource) ---------------------------------

INFORMER_KINDS: dict[str, informers.Kind[Any]] = {
    info.resource: kind
    for kind in (informers.NAMESPACES, informers.PODS, informers.EVENTS, informers.PERSISTENT_VOLUME_CLAIMS,
                 informers.DEPLOYMENTS, informers.REPLICA_SETS, informers.STATEFUL_SETS,
                 informers.CONTROLLER_REVISIONS, informers.LEASES)
    if (info := resource_for_model(kind.model)) is not None
}
"""No upstream twin. Resource name to the minikcm.informers kind that can watch it.

Nodes are left out (upstream watches them): the chapter scenarios run no nodes, and a
monitor would add steps to their traces; owners that are Nodes are looked up by client."""


def shared_informer_for_resource(shared_informers: SharedInformerFactory,
                                 resource: GroupVersionResource) -> ResourceInformer[Any]:
    """No upstream twin; stands in for InformerFactory.ForResource (controller-manager's informerfactory).

    The factory's typed informer for `resource`, so the collector shares the
    informers (one list and watch each) with the other controllers.

    Raises:
        LookupError: minikcm.informers has no informer for the resource.
    """
    kind = INFORMER_KINDS.get(resource.resource)
    if kind is None:
        raise LookupError(f"no informer found for {resource}")
    return shared_informers.core().for_kind(kind)
