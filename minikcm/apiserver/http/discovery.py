"""No upstream twin. `/version`, health checks and API discovery, after apiserver/pkg/endpoints/discovery.

kubectl learns what a server serves from discovery: `/api` and `/apis`, either
in aggregated form (one answer listing every group, version and resource, when
the client asks for it by content type) or in the legacy form (group lists,
then one `APIResourceList` per group version). Short names (`deploy`),
categories (`all`, which `kubectl get all` expands) and subresources (`scale`,
`status`) all come from here. The facts are those of
`minikcm.apimachinery.schema.RESOURCES`.

Start reading at: negotiate_discovery, aggregated_discovery, api_resource_list.

Design notes (which kubectl runs): on this machine `/usr/bin/kubectl` is the
Google Cloud SDK *dispatcher* (it prints `v1.32.4-dispatcher`). On first
contact it asks the server's `/version` and execs the bundled kubectl whose
minor version matches `gitVersion`: checked here, `v1.30.2` runs kubectl
1.30.13 and `v1.33.0` runs 1.33.1, while a minor it does not bundle (`v1.36.3`,
the release minikcm ports) makes it fall back to its built-in 1.32.4. We report
GIT_VERSION `v1.32.4`, so the dispatcher runs its built-in 1.32.4 on purpose:
the client whose requests were studied for this server (tooling.md, Part 2)
and that tests/e2e/test_kubectl.py drives. The answer is cached per kubectl
cache directory.

Not ported: the peer-proxy and aggregator parts of discovery, ETags on the
aggregated document, `storageVersionHash`.
"""

from __future__ import annotations

import platform
from typing import Any

from minikcm.apimachinery.schema import RESOURCES, ResourceInfo
from minikcm.apiserver.http.routes import served_group_versions, subresources_of

GIT_VERSION = "v1.32.4"
"""The Kubernetes version `/version` reports; it selects the kubectl the dispatcher runs (see above)."""

AGGREGATED_V2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
AGGREGATED_V2BETA1 = "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList"

SUBRESOURCE_KINDS: dict[str, tuple[str, str, str]] = {
    "scale": ("autoscaling", "v1", "Scale"),
    "binding": ("", "v1", "Binding"),
    "eviction": ("policy", "v1", "Eviction"),
    "log": ("", "v1", "Pod"),
    "exec": ("", "v1", "PodExecOptions"),
    "attach": ("", "v1", "PodAttachOptions"),
    "portforward": ("", "v1", "PodPortForwardOptions"),
}
"""Subresources whose body is another kind (group, version, kind); `status` is the resource's own."""

SUBRESOURCE_VERBS: dict[str, tuple[str, ...]] = {
    "scale": ("get", "patch", "update"),
    "status": ("get", "patch", "update"),
    "binding": ("create",),
    "eviction": ("create",),
    "log": ("get",),
    "exec": ("create", "get"),
    "attach": ("create", "get"),
    "portforward": ("create", "get"),
    "proxy": ("create", "delete", "get", "patch", "update"),
    "ephemeralcontainers": ("get", "patch", "update"),
}


def version_info() -> dict[str, Any]:
    """The `/version` body (Go: version.Info)."""
    major, minor = GIT_VERSION.lstrip("v").split(".")[:2]
    return {
        "major": major, "minor": minor, "gitVersion": GIT_VERSION,
        "gitCommit": "0000000000000000000000000000000000000000", "gitTreeState": "clean",
        "buildDate": "1970-01-01T00:00:00Z", "goVersion": f"python{platform.python_version()}",
        "compiler": "minikcm", "platform": f"{platform.system().lower()}/{_arch()}",
    }


def _arch() -> str:
    machine = platform.machine().lower()
    return {"x86_64": "amd64", "aarch64": "arm64"}.get(machine, machine)


def health_body(check: str, verbose: bool) -> str:
    """The text of `/healthz`, `/livez`, `/readyz` (every check passes while the server runs)."""
    if not verbose:
        return "ok"
    return f"[+]ping ok\n{check} check passed\n"


# --- content negotiation ------------------------------------------------------------------


def parse_accept(accept: str | None) -> list[tuple[str, dict[str, str]]]:
    """Split an Accept header into (media type, parameters) in the client's order."""
    out = []
    for item in (accept or "").split(","):
        pieces = [p.strip() for p in item.split(";")]
        if not pieces[0]:
            continue
        params = {}
        for p in pieces[1:]:
            if "=" in p:
                k, v = p.split("=", 1)
                params[k.strip().lower()] = v.strip()
        out.append((pieces[0].lower(), params))
    return out


def negotiate_discovery(accept: str | None) -> str | None:
    """Port of the aggregated-discovery negotiation (apiserver/pkg/endpoints/discovery/aggregated).

    Returns "v2" or "v2beta1" when the client asks for aggregated discovery
    (first match in its order wins), None for the legacy form.
    """
    for media, params in parse_accept(accept):
        if (media == "application/json" and params.get("g") == "apidiscovery.k8s.io"
                and params.get("as") == "APIGroupDiscoveryList" and params.get("v") in ("v2", "v2beta1")):
            return params["v"]
    return None


# --- legacy discovery ---------------------------------------------------------------------


def api_versions(server_address: str) -> dict[str, Any]:
    """The legacy `/api` body (Go: APIVersions)."""
    return {"kind": "APIVersions", "versions": list(served_group_versions()[""]),
            "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": server_address}]}


def _group_entry(group: str, versions: tuple[str, ...]) -> dict[str, Any]:
    gvs = [{"groupVersion": f"{group}/{v}", "version": v} for v in versions]
    return {"name": group, "versions": gvs, "preferredVersion": gvs[0]}


def api_group_list() -> dict[str, Any]:
    """The legacy `/apis` body (Go: APIGroupList): every named group."""
    groups = [_group_entry(g, vs) for g, vs in served_group_versions().items() if g]
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}


def api_group(group: str) -> dict[str, Any]:
    """The `/apis/{group}` body (Go: APIGroup)."""
    return {"kind": "APIGroup", "apiVersion": "v1", **_group_entry(group, served_group_versions()[group])}


def resources_in(group: str, version: str) -> list[ResourceInfo]:
    """The served resources of one group version, sorted by name."""
    return sorted((i for i in RESOURCES.values() if i.group == group and i.version == version),
                  key=lambda i: i.resource)


def api_resource_list(group: str, version: str) -> dict[str, Any]:
    """The legacy `/api/v1` or `/apis/{g}/{v}` body (Go: APIResourceList), subresources included."""
    entries: list[dict[str, Any]] = []
    for info in resources_in(group, version):
        entry: dict[str, Any] = {"name": info.resource, "singularName": info.singular,
                                 "namespaced": info.namespaced, "kind": info.kind,
                                 "verbs": list(info.verbs)}
        if info.short_names:
            entry["shortNames"] = list(info.short_names)
        if info.categories:
            entry["categories"] = list(info.categories)
        entries.append(entry)
        for sub in subresources_of(info):
            sub_group, sub_version, sub_kind = SUBRESOURCE_KINDS.get(sub, (group, version, info.kind))
            sub_entry: dict[str, Any] = {"name": f"{info.resource}/{sub}", "singularName": "",
                                         "namespaced": info.namespaced, "kind": sub_kind,
                                         "verbs": list(SUBRESOURCE_VERBS[sub])}
            if sub in SUBRESOURCE_KINDS:
                sub_entry.update(group=sub_group, version=sub_version)
            entries.append(sub_entry)
    gv = f"{group}/{version}" if group else version
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": entries}


# --- aggregated discovery -----------------------------------------------------------------


def _aggregated_resource(info: ResourceInfo) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "resource": info.resource,
        "responseKind": {"group": info.group, "version": info.version, "kind": info.kind},
        "scope": "Namespaced" if info.namespaced else "Cluster",
        "singularResource": info.singular,
        "verbs": list(info.verbs),
    }
    if info.short_names:
        entry["shortNames"] = list(info.short_names)
    if info.categories:
        entry["categories"] = list(info.categories)
    subs = []
    for sub in subresources_of(info):
        group, version, kind = SUBRESOURCE_KINDS.get(sub, (info.group, info.version, info.kind))
        subs.append({"subresource": sub, "responseKind": {"group": group, "version": version, "kind": kind},
                     "verbs": list(SUBRESOURCE_VERBS[sub])})
    if subs:
        entry["subresources"] = subs
    return entry


def aggregated_discovery(core: bool, version: str = "v2") -> dict[str, Any]:
    """The aggregated `/api` (core=True) or `/apis` body (Go: APIGroupDiscoveryList).

    `/api` has one item without a name (the core group); `/apis` one per named group.
    """
    items = []
    for group, versions in served_group_versions().items():
        if (group == "") != core:
            continue
        item: dict[str, Any] = {"metadata": {"name": group} if group else {}, "versions": []}
        for v in versions:
            item["versions"].append({"version": v, "freshness": "Current",
                                     "resources": [_aggregated_resource(i) for i in resources_in(group, v)]})
        items.append(item)
    return {"kind": "APIGroupDiscoveryList", "apiVersion": f"apidiscovery.k8s.io/{version}",
            "metadata": {}, "items": items}


def aggregated_content_type(version: str) -> str:
    """The exact Content-Type that makes a client read the body as aggregated discovery."""
    return AGGREGATED_V2 if version == "v2" else AGGREGATED_V2BETA1
