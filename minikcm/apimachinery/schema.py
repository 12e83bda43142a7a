"""Port of k8s.io/apimachinery/pkg/runtime/schema (group_version.go), plus minikcm's resource table.

The four small name types (`GroupVersionResource`, `GroupVersionKind`,
`GroupResource`, `GroupKind`) are ports. `RESOURCES` is not: upstream spreads
the same facts over the API server's registry, discovery and client-go's scheme.
minikcm keeps one table, read by the embedded API server (routing, discovery),
the clientset (which model class to build) and the conversion helpers.

Start reading at: RESOURCES.

Not ported: parsing helpers for "resource.version.group" strings, GroupVersions.
Differs from Go: the table of served resources has no upstream twin.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kubernetes import client as k8s


@dataclass(frozen=True)
class GroupResource:
    """Port of GroupResource: `deployments.apps`, or `pods` for the core group."""

    group: str
    resource: str

    def __str__(self) -> str:
        return f"{self.resource}.{self.group}" if self.group else self.resource


@dataclass(frozen=True)
class GroupKind:
    """Port of GroupKind: `Deployment.apps`, or `Pod` for the core group."""

    group: str
    kind: str

    def __str__(self) -> str:
        return f"{self.kind}.{self.group}" if self.group else self.kind


@dataclass(frozen=True)
class GroupVersionResource:
    """Port of GroupVersionResource."""

    group: str
    version: str
    resource: str

    def group_resource(self) -> GroupResource:
        """Port of GroupVersionResource.GroupResource (runtime/schema/group_version.go)."""
        return GroupResource(self.group, self.resource)

    def group_version(self) -> str:
        """Port of GroupVersionResource.GroupVersion (runtime/schema/group_version.go)."""
        return f"{self.group}/{self.version}" if self.group else self.version

    def __str__(self) -> str:
        return f"{self.group}/{self.version}, Resource={self.resource}"


@dataclass(frozen=True)
class GroupVersionKind:
    """Port of GroupVersionKind."""

    group: str
    version: str
    kind: str

    def group_kind(self) -> GroupKind:
        """Port of GroupVersionKind.GroupKind (runtime/schema/group_version.go)."""
        return GroupKind(self.group, self.kind)

    def group_version(self) -> str:
        """Port of GroupVersionKind.GroupVersion (runtime/schema/group_version.go)."""
        return f"{self.group}/{self.version}" if self.group else self.version

    def __str__(self) -> str:
        return f"{self.group}/{self.version}, Kind={self.kind}"


def parse_group_version(api_version: str) -> tuple[str, str]:
    """Port of ParseGroupVersion: `apps/v1` -> ("apps", "v1"), `v1` -> ("", "v1")."""
    if not api_version:
        return "", ""
    parts = api_version.split("/")
    if len(parts) == 1:
        return "", parts[0]
    if len(parts) == 2:
        return parts[0], parts[1]
    raise ValueError(f"unexpected GroupVersion string: {api_version}")


@dataclass(frozen=True)
class ResourceInfo:
    """One served resource: what discovery says about it and which model class holds it."""

    group: str
    version: str
    resource: str
    kind: str
    namespaced: bool
    model: type
    list_model: type
    short_names: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    subresources: tuple[str, ...] = ()
    verbs: tuple[str, ...] = (
        "create", "delete", "deletecollection", "get", "list", "patch", "update", "watch",
    )
    singular: str = field(default="")

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def list_kind(self) -> str:
        return self.kind + "List"

    def gvr(self) -> GroupVersionResource:
        return GroupVersionResource(self.group, self.version, self.resource)

    def gvk(self) -> GroupVersionKind:
        return GroupVersionKind(self.group, self.version, self.kind)

    def group_resource(self) -> GroupResource:
        return GroupResource(self.group, self.resource)

    def group_kind(self) -> GroupKind:
        return GroupKind(self.group, self.kind)


def _info(group: str, resource: str, kind: str, namespaced: bool, model: type, list_model: type,
          short: tuple[str, ...] = (), categories: tuple[str, ...] = (),
          sub: tuple[str, ...] = ()) -> ResourceInfo:
    return ResourceInfo(group=group, version="v1", resource=resource, kind=kind,
                        namespaced=namespaced, model=model, list_model=list_model,
                        short_names=short, categories=categories, subresources=sub,
                        singular=kind.lower())


RESOURCES: dict[str, ResourceInfo] = {
    info.resource: info
    for info in (
        _info("", "namespaces", "Namespace", False, k8s.V1Namespace, k8s.V1NamespaceList,
              ("ns",), (), ("status",)),
        _info("", "nodes", "Node", False, k8s.V1Node, k8s.V1NodeList, ("no",), (), ("status",)),
        _info("", "pods", "Pod", True, k8s.V1Pod, k8s.V1PodList, ("po",), ("all",), ("status",)),
        _info("", "events", "Event", True, k8s.CoreV1Event, k8s.CoreV1EventList, ("ev",)),
        _info("", "persistentvolumeclaims", "PersistentVolumeClaim", True,
              k8s.V1PersistentVolumeClaim, k8s.V1PersistentVolumeClaimList, ("pvc",), (),
              ("status",)),
        _info("", "services", "Service", True, k8s.V1Service, k8s.V1ServiceList, ("svc",),
              ("all",), ("status",)),
        _info("apps", "deployments", "Deployment", True, k8s.V1Deployment, k8s.V1DeploymentList,
              ("deploy",), ("all",), ("scale", "status")),
        _info("apps", "replicasets", "ReplicaSet", True, k8s.V1ReplicaSet, k8s.V1ReplicaSetList,
              ("rs",), ("all",), ("scale", "status")),
        _info("apps", "statefulsets", "StatefulSet", True, k8s.V1StatefulSet,
              k8s.V1StatefulSetList, ("sts",), ("all",), ("scale", "status")),
        _info("apps", "controllerrevisions", "ControllerRevision", True,
              k8s.V1ControllerRevision, k8s.V1ControllerRevisionList),
        _info("coordination.k8s.io", "leases", "Lease", True, k8s.V1Lease, k8s.V1LeaseList),
    )
}
"""Every resource the embedded API server serves, keyed by its plural name."""

_BY_KIND: dict[tuple[str, str], ResourceInfo] = {
    (info.api_version, info.kind): info for info in RESOURCES.values()
}


def resource_info(resource: str) -> ResourceInfo:
    """Look up a served resource by plural name; KeyError names the unknown resource."""
    try:
        return RESOURCES[resource]
    except KeyError:
        raise KeyError(f"the server doesn't have a resource type {resource!r}") from None


def resource_for_kind(api_version: str, kind: str) -> ResourceInfo | None:
    """The served resource for an apiVersion and kind, or None when it is not served."""
    return _BY_KIND.get((api_version, kind))


def resource_for_model(model: type) -> ResourceInfo | None:
    """The served resource whose model class is `model`, or None."""
    for info in RESOURCES.values():
        if info.model is model:
            return info
    return None
