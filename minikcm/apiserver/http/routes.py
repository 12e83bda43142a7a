"""No upstream twin. Which endpoint a URL path names, after apiserver's RequestInfoFactory.

kube-apiserver reads a path into a RequestInfo (apiserver/pkg/endpoints/request/
requestinfo.go): API prefix, group, version, namespace, resource, name,
subresource. `parse_path` does the same for the paths minikcm serves:

    /version  /healthz  /livez  /readyz                     plain endpoints
    /api  /api/v1  /apis  /apis/{g}  /apis/{g}/{v}            discovery
    /openapi/v2  /openapi/v3  /openapi/v3/{api/v1 | apis/g/v} OpenAPI
    /api/v1/{resource}[/{name}[/{sub}]]                       cluster-scoped, or a
                                                              namespaced list across namespaces
    /api/v1/namespaces/{ns}/{resource}[/{name}[/{sub}]]       namespaced
    /apis/{g}/{v}/...                                         the same for named groups
    .../watch/...                                             legacy watch prefix

Start reading at: parse_path.

Design notes: `/api/v1/namespaces/x/status` is the status of namespace `x`, not
a resource called `status` in namespace `x`, exactly as upstream decides
("namespaces" followed by a name and one of its subresources).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote

from minikcm.apimachinery import errors
from minikcm.apimachinery.schema import RESOURCES, GroupResource, ResourceInfo

EXTRA_SUBRESOURCES: dict[str, tuple[str, ...]] = {
    "pods": ("binding", "eviction", "log", "exec", "attach", "portforward", "proxy", "ephemeralcontainers"),
    "nodes": ("proxy",),
    "services": ("proxy",),
}
"""Subresources served beyond ResourceInfo.subresources: pods/binding and pods/eviction are
create-only; log, exec, attach, portforward and proxy exist in discovery as upstream, and answer
with the reason the simulation cannot serve them (minikcm.apiserver.http.unserved)."""

UNSERVED_SUBRESOURCES = ("log", "exec", "attach", "portforward", "proxy", "ephemeralcontainers")
"""Subresources that need a real kubelet or a real network: served only as a clear error."""

NAMESPACE_SUBRESOURCES = ("status",)
"""Subresources of a namespace, which the `namespaces/{name}/...` reading must recognise."""

PLAIN_ENDPOINTS = ("/version", "/healthz", "/livez", "/readyz")


def served_group_versions() -> dict[str, tuple[str, ...]]:
    """Every served group with its versions, in a fixed order ("" is the core group)."""
    out: dict[str, list[str]] = {}
    for info in sorted(RESOURCES.values(), key=lambda i: (i.group, i.version)):
        versions = out.setdefault(info.group, [])
        if info.version not in versions:
            versions.append(info.version)
    return {g: tuple(v) for g, v in out.items()}


def subresources_of(info: ResourceInfo) -> tuple[str, ...]:
    """The subresources a resource serves, sorted."""
    return tuple(sorted(set(info.subresources) | set(EXTRA_SUBRESOURCES.get(info.resource, ()))))


@dataclass(frozen=True)
class ResourceRequest:
    """A request on a resource (Go: RequestInfo with IsResourceRequest)."""

    info: ResourceInfo
    namespace: str | None
    """The namespace of the path, or None when the path has none."""
    name: str | None
    subresource: str | None = None
    legacy_watch: bool = False
    """The path had the deprecated `/watch/` segment."""

    @property
    def resource(self) -> str:
        return self.info.resource


@dataclass(frozen=True)
class Endpoint:
    """A non-resource endpoint: `kind` is one of the names below, `args` its path parts."""

    kind: str
    args: tuple[str, ...] = ()


VERSION, HEALTH = "version", "health"
API_ROOT, APIS_ROOT, API_GROUP, GROUP_VERSION = "api", "apis", "group", "group-version"
OPENAPI_V2, OPENAPI_V3_ROOT, OPENAPI_V3_GV = "openapi-v2", "openapi-v3", "openapi-v3-gv"


def not_found() -> errors.StatusError:
    """The 404 Status kube-apiserver answers for a path it does not serve."""
    return errors.new_generic_server_response(404, "", GroupResource("", ""), "", "", 0, False)


def parse_path(path: str) -> Endpoint | ResourceRequest:
    """Read a URL path (no query) into an Endpoint or a ResourceRequest.

    Raises:
        StatusError: 404 NotFound for anything that is not served.
    """
    path = path.rstrip("/") or "/"
    if path in PLAIN_ENDPOINTS:
        return Endpoint(VERSION if path == "/version" else HEALTH, (path[1:],))
    if path.startswith("/healthz/") or path.startswith("/livez/") or path.startswith("/readyz/"):
        return Endpoint(HEALTH, tuple(path[1:].split("/")))
    parts = [unquote(p) for p in path.split("/")[1:]]
    if parts[0] == "openapi":
        return _parse_openapi(parts[1:])
    if parts[0] == "api":
        if len(parts) == 1:
            return Endpoint(API_ROOT)
        return _parse_group_version("", parts[1], parts[2:])
    if parts[0] == "apis":
        if len(parts) == 1:
            return Endpoint(APIS_ROOT)
        if parts[1] not in served_group_versions() or parts[1] == "":
            raise not_found()
        if len(parts) == 2:
            return Endpoint(API_GROUP, (parts[1],))
        return _parse_group_version(parts[1], parts[2], parts[3:])
    raise not_found()


def _parse_openapi(parts: list[str]) -> Endpoint:
    if parts == ["v2"]:
        return Endpoint(OPENAPI_V2)
    if parts == ["v3"]:
        return Endpoint(OPENAPI_V3_ROOT)
    if len(parts) >= 3 and parts[0] == "v3":
        gv_path = "/".join(parts[1:])
        if gv_path in openapi_group_version_paths():
            return Endpoint(OPENAPI_V3_GV, (gv_path,))
    raise not_found()


def openapi_group_version_paths() -> dict[str, tuple[str, str]]:
    """`api/v1` -> ("", "v1"), `apis/apps/v1` -> ("apps", "v1"), for every served group version."""
    out = {}
    for group, versions in served_group_versions().items():
        for version in versions:
            out[f"apis/{group}/{version}" if group else f"api/{version}"] = (group, version)
    return out


def _parse_group_version(group: str, version: str, rest: list[str]) -> Endpoint | ResourceRequest:
    if version not in served_group_versions().get(group, ()):
        raise not_found()
    if not rest:
        return Endpoint(GROUP_VERSION, (group, version))
    legacy_watch = rest[0] == "watch"
    if legacy_watch:
        rest = rest[1:]
    namespace: str | None = None
    if (len(rest) >= 3 and rest[0] == "namespaces"
            and not (len(rest) == 3 and rest[2] in NAMESPACE_SUBRESOURCES)):
        namespace, rest = rest[1], rest[2:]
    if not 1 <= len(rest) <= 3 or any(p == "" for p in rest):
        raise not_found()
    info = RESOURCES.get(rest[0])
    if info is None or info.group != group or info.version != version:
        raise not_found()
    name = rest[1] if len(rest) > 1 else None
    subresource = rest[2] if len(rest) > 2 else None
    if namespace is not None and not info.namespaced:
        raise not_found()
    if info.namespaced and namespace is None and name is not None:
        raise not_found()  # a namespaced object has no cluster-level path
    if subresource is not None and subresource not in subresources_of(info):
        raise not_found()
    if legacy_watch and subresource is not None:
        raise not_found()
    return ResourceRequest(info, namespace, name, subresource, legacy_watch)
