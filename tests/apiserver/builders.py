"""Wire-dict builders for the API server tests (the objects a controller or kubectl would send)."""

from __future__ import annotations

from typing import Any


def deployment(name: str = "web", namespace: str = "default", replicas: int = 2,
               labels: dict[str, str] | None = None, image: str = "nginx:1.27") -> dict[str, Any]:
    labels = labels or {"app": name}
    return {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name, "namespace": namespace, "labels": dict(labels)},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": dict(labels)},
            "template": {"metadata": {"labels": dict(labels)},
                         "spec": {"containers": [{"name": "app", "image": image}]}},
        },
    }


def replica_set(name: str = "web-1", namespace: str = "default", replicas: int = 1,
                labels: dict[str, str] | None = None) -> dict[str, Any]:
    obj = deployment(name, namespace, replicas, labels)
    obj["kind"] = "ReplicaSet"
    return obj


def stateful_set(name: str = "db", namespace: str = "default", replicas: int = 1) -> dict[str, Any]:
    obj = deployment(name, namespace, replicas)
    obj["kind"] = "StatefulSet"
    obj["spec"]["serviceName"] = name
    return obj


def pod(name: str = "p", namespace: str = "default", labels: dict[str, str] | None = None,
        node: str | None = None, phase: str | None = None) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace, "labels": dict(labels or {})},
        "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}]},
    }
    if node:
        obj["spec"]["nodeName"] = node
    if phase:
        obj["status"] = {"phase": phase}
    return obj


def event(name: str, involved_kind: str, involved_name: str, reason: str = "Created",
          namespace: str = "default", event_type: str = "Normal") -> dict[str, Any]:
    return {
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": name, "namespace": namespace},
        "involvedObject": {"kind": involved_kind, "name": involved_name, "namespace": namespace,
                           "apiVersion": "apps/v1", "uid": f"uid-{involved_name}"},
        "reason": reason, "message": f"{reason} {involved_name}", "type": event_type,
        "source": {"component": "deployment-controller"},
    }


def namespace(name: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}


def lease(name: str = "kcm", namespace: str = "kube-system", holder: str = "a") -> dict[str, Any]:
    return {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {"holderIdentity": holder, "leaseDurationSeconds": 15}}


def drain(watcher: Any) -> list[tuple[str, Any]]:
    """Every event waiting in a watch's channel, as (type, object), without blocking."""
    import queue

    out = []
    chan = watcher.result_chan()
    while True:
        try:
            event_ = chan.recv(timeout=0)
        except queue.Empty:
            return out
        if event_ is None:
            return out
        out.append((event_.type, event_.object))


def names(events: list[tuple[str, Any]]) -> list[tuple[str, str]]:
    """(type, metadata.name) of each drained event; bookmarks and errors show "" as name."""
    return [(t, (o.get("metadata") or {}).get("name", "")) for t, o in events]
