"""Port of k8s.io/client-go/tools/cache/testing/fake_controller_source.go: an API server endpoint in miniature.

A ListerWatcher over a dict of objects, for informer tests. Every change
gets the next resourceVersion (set on the object itself, as upstream does)
and is broadcast to the open watches, unless made with a `*_drop_watch`
method (then it is seen only by a relist). `reset_watch` closes every watch
and forgets the change history, so the next watch from an old version gets
410 Expired and the reflector must relist.

Differs from Go: the broadcaster is a list of FakeWatchers; items are listed
in key order (Go walks a map); a list returns a `V1PodList`.
"""

from __future__ import annotations

import threading
from typing import Any

from kubernetes.client import V1ListMeta, V1PodList

from minikcm.apimachinery import errors, watch
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.meta import ListOptions


class FakeControllerSource:
    """Port of FakeControllerSource (tools/cache/testing/fake_controller_source.go)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.items: dict[tuple[str, str, str], Any] = {}
        self.changes: list[watch.Event] = []  # one change per resourceVersion, oldest first
        self.watchers: list[watch.FakeWatcher] = []  # Go: Broadcaster
        self.last_rv = 0
        self.list_error: Exception | None = None
        self.list_calls: list[ListOptions] = []
        self.watch_calls: list[ListOptions] = []

    def reset_watch(self) -> None:
        """Close every watch and forget the history (a connection loss, or a too-old watch)."""
        with self.lock:
            for w in self.watchers:
                w.stop()
            self.watchers = []
            self.changes = []

    def add(self, obj: Any) -> None:
        self.change(watch.Event(watch.ADDED, obj), True)

    def modify(self, obj: Any) -> None:
        self.change(watch.Event(watch.MODIFIED, obj), True)

    def delete(self, last_value: Any) -> None:
        self.change(watch.Event(watch.DELETED, last_value), True)

    def add_drop_watch(self, obj: Any) -> None:
        self.change(watch.Event(watch.ADDED, obj), False)

    def modify_drop_watch(self, obj: Any) -> None:
        self.change(watch.Event(watch.MODIFIED, obj), False)

    def delete_drop_watch(self, last_value: Any) -> None:
        self.change(watch.Event(watch.DELETED, last_value), False)

    @staticmethod
    def key(obj: Any) -> tuple[str, str, str]:
        meta = obj.metadata
        return meta.namespace or "", meta.name or "", meta.uid or ""

    def change(self, e: watch.Event, broadcast: bool) -> None:
        """Port of Change: record the change at the next resourceVersion, maybe broadcast it."""
        with self.lock:
            self.last_rv += 1
            e.object.metadata.resource_version = str(self.last_rv)
            self.changes.append(e)
            key = self.key(e.object)
            if e.type in (watch.ADDED, watch.MODIFIED):
                self.items[key] = e.object
            elif e.type == watch.DELETED:
                self.items.pop(key, None)
            if broadcast:
                self.watchers = [w for w in self.watchers if not w.is_stopped()]
                for w in self.watchers:
                    w.action(e.type, deep_copy(e.object))

    def list(self, options: ListOptions) -> V1PodList:
        """Port of List: deep copies of every item, at the last resourceVersion."""
        with self.lock:
            self.list_calls.append(options)
            if self.list_error is not None:
                raise self.list_error
            items = [deep_copy(self.items[k]) for k in sorted(self.items)]
            return V1PodList(metadata=V1ListMeta(resource_version=str(self.last_rv)), items=items)

    def watch(self, options: ListOptions) -> watch.FakeWatcher:
        """Port of Watch: from the current version, or replaying kept changes from an older one.

        Raises:
            StatusError: 410 Expired when the version is older than the kept history.
            ValueError: a version from the future, or not a number.
        """
        with self.lock:
            rc = int(options.resource_version)  # a watch-list (from "") fails here, as upstream: the reflector lists
            self.watch_calls.append(options)
            w = watch.FakeWatcher()
            if rc < self.last_rv:
                if not self.changes:
                    raise errors.new_resource_expired(f"too old resource version: {rc} ({self.last_rv})")
                oldest = int(self.changes[0].object.metadata.resource_version)
                if rc < oldest:
                    raise errors.new_resource_expired(f"too old resource version: {rc} ({oldest})")
                for c in self.changes[rc - oldest + 1:]:
                    w.action(c.type, deep_copy(c.object))
            elif rc > self.last_rv:
                raise ValueError("resource version in the future not supported by this fake")
            self.watchers.append(w)
            return w
