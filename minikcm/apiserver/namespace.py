"""No upstream twin. Emptying and removing Terminating namespaces: the namespace controller in small.

Deleting a namespace only marks it Terminating (`Registry._delete_namespace_locked`).
Upstream, kube-controller-manager's namespace controller (pkg/controller/namespace)
then deletes everything inside, removes the `kubernetes` spec finalizer through
the finalize subresource, and deletes the namespace for good. minikcm does not
port that controller, so the embedded server does the same work as one of its
steps: `NamespaceLifecycle.sync` is that step's body.

Start reading at: NamespaceLifecycle.sync.

Not ported: discovery of every resource, per-resource estimates of the time
left, the namespace conditions (NamespaceDeletionContentFailure, ...).
"""

from __future__ import annotations

from typing import Any

from minikcm.apimachinery.schema import RESOURCES
from minikcm.apiserver import resource_rest
from minikcm.apiserver.deletion import DeleteRequest
from minikcm.apiserver.registry import Registry
from minikcm.apiserver.strategy import FINALIZER_KUBERNETES

NAMESPACED_RESOURCES = tuple(sorted(r for r, info in RESOURCES.items() if info.namespaced))


class NamespaceLifecycle:
    """Finishes the deletion of Terminating namespaces, one step at a time.

    A namespace can make progress when something in it is not yet being
    deleted, when it is empty and still holds the `kubernetes` finalizer, or
    when it is free of finalizers. Content that is already being deleted (a pod
    waiting for its kubelet, an object with finalizers) is waited for: the step
    is not ready then, so a deterministic run can settle.
    Thread: any (every registry call is atomic); `__repr__` takes no lock.
    """

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.finished: list[str] = []  # namespaces removed, in order (for traces and tests)

    def _terminating_locked(self) -> list[dict[str, Any]]:
        return [ns for ns in self.registry.storage.list_locked("namespaces")
                if (ns["metadata"].get("deletionTimestamp"))]

    def _content_locked(self, namespace: str) -> list[tuple[str, dict[str, Any]]]:
        storage = self.registry.storage
        return [(r, obj) for r in NAMESPACED_RESOURCES for obj in storage.list_locked(r, namespace)]

    def _can_progress_locked(self, ns: dict[str, Any]) -> bool:
        content = self._content_locked(ns["metadata"]["name"])
        if any(not obj["metadata"].get("deletionTimestamp") for _, obj in content):
            return True
        if content:
            return False
        if FINALIZER_KUBERNETES in ((ns.get("spec") or {}).get("finalizers") or []):
            return True
        return not ns["metadata"].get("finalizers") and not (ns.get("spec") or {}).get("finalizers")

    def ready(self) -> bool:
        """Whether `sync` would change something now."""
        with self.registry.storage.lock:
            return any(self._can_progress_locked(ns) for ns in self._terminating_locked())

    def sync(self) -> int:
        """Step: one pass over the Terminating namespaces, in name order. Returns objects deleted.

        Deletes every object not yet being deleted (default propagation, as the
        namespace controller's collection deletes do); an empty namespace loses
        its `kubernetes` finalizer and is deleted for good.
        """
        deleted = 0
        with self.registry.storage.lock:
            for ns in self._terminating_locked():
                name = ns["metadata"]["name"]
                content = self._content_locked(name)
                for resource, obj in content:
                    if not obj["metadata"].get("deletionTimestamp"):
                        self.registry.delete(resource, name, obj["metadata"]["name"], DeleteRequest())
                        deleted += 1
                if self._content_locked(name):
                    continue
                if FINALIZER_KUBERNETES in ((ns.get("spec") or {}).get("finalizers") or []):
                    ns = resource_rest.finalize_namespace_locked(self.registry, name)
                if not ns["metadata"].get("finalizers") and not (ns.get("spec") or {}).get("finalizers"):
                    resource_rest.delete_namespace(self.registry, name, DeleteRequest())
                    self.finished.append(name)
        return deleted

    def __repr__(self) -> str:
        return f"NamespaceLifecycle(finished={self.finished[-3:]})"
