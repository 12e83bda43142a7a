"""No upstream twin. The one place that names the upstream release minikcm ports.

Every ported module follows Kubernetes v1.36.3 (shared PORTING.md, section 1).
client-go, apimachinery and controller-manager are read at their mirrors' tag
v0.36.3, which holds the same bytes as `staging/src/k8s.io/<repo>` at v1.36.3, so
docs link into the main repository for all of them.
"""

from __future__ import annotations

KUBERNETES_VERSION = "v1.36.3"
"""The Kubernetes release every ported module follows."""

STAGING_VERSION = "v0.36.3"
"""Tag of the client-go, apimachinery and controller-manager mirrors at the same release."""

REPOSITORY_URL = "https://github.com/kubernetes/kubernetes"

STAGING_REPOS = ("client-go", "apimachinery", "controller-manager", "api", "component-base")


def permalink(path: str, start: int | None = None, end: int | None = None) -> str:
    """Return the GitHub link to `path` in kubernetes/kubernetes at the pinned tag.

    `path` is either a path in the main repository (`pkg/controller/...`) or a Go
    import path of a staging repository (`k8s.io/client-go/tools/cache/reflector.go`),
    which is mapped to `staging/src/k8s.io/...`. Line anchors are added only when
    `start` is given; pass them only for lines checked at the tag (UPSTREAM.md).

    Examples:
        >>> permalink("pkg/controller/deployment/rolling.go")
        'https://github.com/kubernetes/kubernetes/blob/v1.36.3/pkg/controller/deployment/rolling.go'
        >>> permalink("k8s.io/client-go/tools/cache/fifo.go", 10, 12)
        'https://github.com/kubernetes/kubernetes/blob/v1.36.3/staging/src/k8s.io/client-go/tools/cache/fifo.go#L10-L12'
    """
    clean = path.strip().lstrip("/")
    if not clean:
        raise ValueError("permalink needs a non-empty upstream path")
    if clean.startswith("k8s.io/"):
        repo = clean.split("/", 2)[1]
        if repo not in STAGING_REPOS:
            raise ValueError(f"{path!r} is not a staging repository of kubernetes/kubernetes")
        clean = "staging/src/" + clean
    url = f"{REPOSITORY_URL}/blob/{KUBERNETES_VERSION}/{clean}"
    if start is not None:
        if start < 1 or (end is not None and end < start):
            raise ValueError(f"bad line range {start}-{end} for {path!r}")
        url += f"#L{start}" + (f"-L{end}" if end is not None and end != start else "")
    return url
