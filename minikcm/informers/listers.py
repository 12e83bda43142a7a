"""Port of k8s.io/client-go/listers: generic_helpers.go and the typed listers minikcm's controllers read.

A lister answers "which objects do we have?" from an informer's indexer,
never from the API server. `ResourceIndexer` does the work (list by label
selector, optionally within a namespace, through the namespace index; get by
name); each typed lister only adds the namespace accessor and, for
ReplicaSets and StatefulSets, the expansion helpers that find the owners
whose selector matches a pod.

Start reading at: ResourceIndexer.list, then ReplicaSetLister.get_pod_replica_sets.

Not ported: every other group, version and kind; the DaemonSet and
ReplicationController expansions; listers/<group>/<version>/expansion_generated.go
(its interfaces are empty for the kinds here). There is no Deployment or
ControllerRevision expansion at v1.36: `GetDeploymentsForReplicaSet` lives in
pkg/controller/deployment/util (deployment_util.py), not in the listers.
Differs from Go:
- One module for listers/generic_helpers.go, listers/apps/v1/{deployment,
  replicaset, replicaset_expansion, statefulset, statefulset_expansion,
  controllerrevision}.go, listers/core/v1/{pod, persistentvolumeclaim,
  namespace, event}.go and listers/coordination/v1/lease.go, in that order.
- Each `<Kind>Lister` interface and its unexported struct are one class, a
  subclass of ResourceIndexer (Go embeds ResourceIndexer in the struct).
- Listers hand out the cached objects themselves: copy before changing one.
- The expansions raise LookupError where Go returns an error.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from kubernetes.client import (
    CoreV1Event,
    V1ControllerRevision,
    V1Deployment,
    V1Lease,
    V1Namespace,
    V1Node,
    V1PersistentVolumeClaim,
    V1Pod,
    V1ReplicaSet,
    V1StatefulSet,
)

from minikcm.apimachinery import errors, labels
from minikcm.apimachinery.meta import label_selector_as_selector
from minikcm.apimachinery.schema import GroupResource
from minikcm.tools.cache.index import Indexer
from minikcm.tools.cache.listers import list_all_by_namespace

T = TypeVar("T")
"""The object model a lister hands out (V1Deployment, V1Pod, ...)."""


# --- listers/generic_helpers.go ------------------------------------------------------------


class ResourceIndexer(Generic[T]):
    """Port of ResourceIndexer (listers/generic_helpers.go): typed reads of one resource from an indexer.

    `namespace` is "" for a cluster-scoped resource, and for a lister over
    every namespace.
    """

    def __init__(self, indexer: Indexer, resource: GroupResource, namespace: str = "") -> None:
        self.indexer = indexer
        self.resource = resource  # named in NotFound errors
        self.namespace = namespace

    def __repr__(self) -> str:
        where = f" in {self.namespace!r}" if self.namespace else ""
        return f"<{type(self).__name__} {self.resource}{where}>"

    def list(self, selector: labels.Selector) -> list[T]:
        """Port of ResourceIndexer.List: every cached object matching `selector` (in `namespace`, if set)."""
        ret: list[T] = []
        list_all_by_namespace(self.indexer, self.namespace, selector, ret.append)
        return ret

    def get(self, name: str) -> T:
        """Port of ResourceIndexer.Get: the cached object `name`.

        Raises:
            StatusError: NotFound when the cache has no such object.
        """
        key = name if self.namespace == "" else f"{self.namespace}/{name}"
        obj, exists = self.indexer.get_by_key(key)
        if not exists:
            raise errors.new_not_found(self.resource, name)
        return obj  # type: ignore[no-any-return]


def new(indexer: Indexer, resource: GroupResource) -> ResourceIndexer[Any]:
    """Port of New (listers/generic_helpers.go)."""
    return ResourceIndexer(indexer, resource)


def new_namespaced(parent: ResourceIndexer[T], namespace: str) -> ResourceIndexer[T]:
    """Port of NewNamespaced (listers/generic_helpers.go): the same indexer, narrowed to one namespace."""
    return ResourceIndexer(parent.indexer, parent.resource, namespace)


def selector_matches_pod(selector_spec: Any, pod: V1Pod) -> bool:
    """No upstream twin. The check both expansions share: a valid, non-empty selector matching the pod's labels.

    An invalid selector matches nothing; so does an empty one (it must not
    match everything).
    """
    try:
        selector = label_selector_as_selector(selector_spec)
    except ValueError:
        return False
    return not selector.empty() and selector.matches(labels.Set(pod.metadata.labels or {}))


# --- listers/apps/v1 ------------------------------------------------------------------------


class DeploymentLister(ResourceIndexer[V1Deployment]):
    """Port of DeploymentLister and deploymentLister (listers/apps/v1/deployment.go)."""

    def deployments(self, namespace: str) -> DeploymentNamespaceLister:
        """Port of deploymentLister.Deployments: the Deployments of one namespace."""
        return DeploymentNamespaceLister(self.indexer, self.resource, namespace)


class DeploymentNamespaceLister(ResourceIndexer[V1Deployment]):
    """Port of DeploymentNamespaceLister (listers/apps/v1/deployment.go): list and get in one namespace."""


def new_deployment_lister(indexer: Indexer) -> DeploymentLister:
    """Port of NewDeploymentLister (listers/apps/v1/deployment.go)."""
    return DeploymentLister(indexer, GroupResource("apps", "deployment"))


class ReplicaSetLister(ResourceIndexer[V1ReplicaSet]):
    """Port of ReplicaSetLister and replicaSetLister (listers/apps/v1/replicaset.go)."""

    def replica_sets(self, namespace: str) -> ReplicaSetNamespaceLister:
        """Port of replicaSetLister.ReplicaSets: the ReplicaSets of one namespace."""
        return ReplicaSetNamespaceLister(self.indexer, self.resource, namespace)

    def get_pod_replica_sets(self, pod: V1Pod) -> list[V1ReplicaSet]:
        """Port of replicaSetLister.GetPodReplicaSets (listers/apps/v1/replicaset_expansion.go).

        Every ReplicaSet in the pod's namespace whose selector matches the
        pod's labels. Only the one named in the pod's controllerRef really
        owns it; the others are candidates for adoption.

        Raises:
            LookupError: the pod has no labels, or no ReplicaSet matches.
        """
        meta = pod.metadata
        if not meta.labels:
            raise LookupError(f"no ReplicaSets found for pod {meta.name} because it has no labels")
        rss = [rs for rs in self.replica_sets(meta.namespace or "").list(labels.everything())
               if rs.metadata.namespace == meta.namespace and selector_matches_pod(rs.spec.selector, pod)]
        if not rss:
            raise LookupError(f"could not find ReplicaSet for pod {meta.name} in namespace {meta.namespace} "
                              f"with labels: {meta.labels}")
        return rss


class ReplicaSetNamespaceLister(ResourceIndexer[V1ReplicaSet]):
    """Port of ReplicaSetNamespaceLister (listers/apps/v1/replicaset.go)."""


def new_replica_set_lister(indexer: Indexer) -> ReplicaSetLister:
    """Port of NewReplicaSetLister (listers/apps/v1/replicaset.go)."""
    return ReplicaSetLister(indexer, GroupResource("apps", "replicaset"))


class StatefulSetLister(ResourceIndexer[V1StatefulSet]):
    """Port of StatefulSetLister and statefulSetLister (listers/apps/v1/statefulset.go)."""

    def stateful_sets(self, namespace: str) -> StatefulSetNamespaceLister:
        """Port of statefulSetLister.StatefulSets: the StatefulSets of one namespace."""
        return StatefulSetNamespaceLister(self.indexer, self.resource, namespace)

    def get_pod_stateful_sets(self, pod: V1Pod) -> list[V1StatefulSet]:
        """Port of statefulSetLister.GetPodStatefulSets (listers/apps/v1/statefulset_expansion.go).

        Every StatefulSet in the pod's namespace whose selector matches the
        pod's labels (the controllerRef decides which one owns it).

        Raises:
            LookupError: the pod has no labels, or no StatefulSet matches.
        """
        meta = pod.metadata
        if not meta.labels:
            raise LookupError(f"no StatefulSets found for pod {meta.name} because it has no labels")
        sets = [ps for ps in self.stateful_sets(meta.namespace or "").list(labels.everything())
                if ps.metadata.namespace == meta.namespace and selector_matches_pod(ps.spec.selector, pod)]
        if not sets:
            raise LookupError(f"could not find StatefulSet for pod {meta.name} in namespace {meta.namespace} "
                              f"with labels: {meta.labels}")
        return sets


class StatefulSetNamespaceLister(ResourceIndexer[V1StatefulSet]):
    """Port of StatefulSetNamespaceLister (listers/apps/v1/statefulset.go)."""


def new_stateful_set_lister(indexer: Indexer) -> StatefulSetLister:
    """Port of NewStatefulSetLister (listers/apps/v1/statefulset.go)."""
    return StatefulSetLister(indexer, GroupResource("apps", "statefulset"))


class ControllerRevisionLister(ResourceIndexer[V1ControllerRevision]):
    """Port of ControllerRevisionLister and controllerRevisionLister (listers/apps/v1/controllerrevision.go)."""

    def controller_revisions(self, namespace: str) -> ControllerRevisionNamespaceLister:
        """Port of controllerRevisionLister.ControllerRevisions: the revisions of one namespace."""
        return ControllerRevisionNamespaceLister(self.indexer, self.resource, namespace)


class ControllerRevisionNamespaceLister(ResourceIndexer[V1ControllerRevision]):
    """Port of ControllerRevisionNamespaceLister (listers/apps/v1/controllerrevision.go)."""


def new_controller_revision_lister(indexer: Indexer) -> ControllerRevisionLister:
    """Port of NewControllerRevisionLister (listers/apps/v1/controllerrevision.go)."""
    return ControllerRevisionLister(indexer, GroupResource("apps", "controllerrevision"))


# --- listers/core/v1 ------------------------------------------------------------------------


class PodLister(ResourceIndexer[V1Pod]):
    """Port of PodLister and podLister (listers/core/v1/pod.go)."""

    def pods(self, namespace: str) -> PodNamespaceLister:
        """Port of podLister.Pods: the pods of one namespace."""
        return PodNamespaceLister(self.indexer, self.resource, namespace)


class PodNamespaceLister(ResourceIndexer[V1Pod]):
    """Port of PodNamespaceLister (listers/core/v1/pod.go)."""


def new_pod_lister(indexer: Indexer) -> PodLister:
    """Port of NewPodLister (listers/core/v1/pod.go)."""
    return PodLister(indexer, GroupResource("", "pod"))


class PersistentVolumeClaimLister(ResourceIndexer[V1PersistentVolumeClaim]):
    """Port of PersistentVolumeClaimLister (listers/core/v1/persistentvolumeclaim.go)."""

    def persistent_volume_claims(self, namespace: str) -> PersistentVolumeClaimNamespaceLister:
        """Port of persistentVolumeClaimLister.PersistentVolumeClaims: the claims of one namespace."""
        return PersistentVolumeClaimNamespaceLister(self.indexer, self.resource, namespace)


class PersistentVolumeClaimNamespaceLister(ResourceIndexer[V1PersistentVolumeClaim]):
    """Port of PersistentVolumeClaimNamespaceLister (listers/core/v1/persistentvolumeclaim.go)."""


def new_persistent_volume_claim_lister(indexer: Indexer) -> PersistentVolumeClaimLister:
    """Port of NewPersistentVolumeClaimLister (listers/core/v1/persistentvolumeclaim.go)."""
    return PersistentVolumeClaimLister(indexer, GroupResource("", "persistentvolumeclaim"))


class NamespaceLister(ResourceIndexer[V1Namespace]):
    """Port of NamespaceLister and namespaceLister (listers/core/v1/namespace.go): cluster-scoped, list and get."""


def new_namespace_lister(indexer: Indexer) -> NamespaceLister:
    """Port of NewNamespaceLister (listers/core/v1/namespace.go)."""
    return NamespaceLister(indexer, GroupResource("", "namespace"))


class NodeLister(ResourceIndexer[V1Node]):
    """Port of NodeLister and nodeLister (listers/core/v1/node.go): cluster-scoped, list and get."""


def new_node_lister(indexer: Indexer) -> NodeLister:
    """Port of NewNodeLister (listers/core/v1/node.go)."""
    return NodeLister(indexer, GroupResource("", "node"))


class EventLister(ResourceIndexer[CoreV1Event]):
    """Port of EventLister and eventLister (listers/core/v1/event.go)."""

    def events(self, namespace: str) -> EventNamespaceLister:
        """Port of eventLister.Events: the events of one namespace."""
        return EventNamespaceLister(self.indexer, self.resource, namespace)


class EventNamespaceLister(ResourceIndexer[CoreV1Event]):
    """Port of EventNamespaceLister (listers/core/v1/event.go)."""


def new_event_lister(indexer: Indexer) -> EventLister:
    """Port of NewEventLister (listers/core/v1/event.go)."""
    return EventLister(indexer, GroupResource("", "event"))


# --- listers/coordination/v1 ----------------------------------------------------------------


class LeaseLister(ResourceIndexer[V1Lease]):
    """Port of LeaseLister and leaseLister (listers/coordination/v1/lease.go)."""

    def leases(self, namespace: str) -> LeaseNamespaceLister:
        """Port of leaseLister.Leases: the leases of one namespace."""
        return LeaseNamespaceLister(self.indexer, self.resource, namespace)


class LeaseNamespaceLister(ResourceIndexer[V1Lease]):
    """Port of LeaseNamespaceLister (listers/coordination/v1/lease.go)."""


def new_lease_lister(indexer: Indexer) -> LeaseLister:
    """Port of NewLeaseLister (listers/coordination/v1/lease.go)."""
    return LeaseLister(indexer, GroupResource("coordination.k8s.io", "lease"))
