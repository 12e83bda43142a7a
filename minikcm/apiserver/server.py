"""No upstream twin. `APIServer`: the in-process API of the embedded server.

The clientset's in-process backend and the HTTP front call these methods; they
take plural resource names and wire dicts and raise `StatusError`s, exactly as
dev/CONTRACTS.md ("API server, in process") lists them. Each method checks its
arguments, then hands over to the registry (reads and writes), resource_rest
(scale, pods/binding, namespace deletion), the cacher (watches) or the patcher
(PATCH); the facade keeps no state of its own.

Timed work (BOOKMARK events, watch timeouts, finishing namespace deletion) runs
in `steps()`, which the deterministic driver calls; `run()` is the threaded
wrapper that calls the same step bodies every second.

Persistence: with `data_dir`, writes are committed to SQLite before they are
answered and a restart on the same directory restores them
(minikcm.apiserver.persistence); `add_object` seeds objects as given, for tests.

Start reading at: APIServer.update, APIServer.watch, APIServer.steps.

Differs from kube-apiserver: no authentication, authorization, admission
webhooks, aggregation, or API discovery here (the HTTP front adds discovery).
"""

from __future__ import annotations

import builtins
import os
import random
import threading
from datetime import datetime, timedelta
from typing import Any

from minikcm.apimachinery import errors, internalversion, meta, types, wait
from minikcm.apimachinery.watch import Interface as WatchInterface
from minikcm.apimachinery.schema import RESOURCES, GroupResource, ResourceInfo, resource_for_kind
from minikcm.apiserver import patcher, resource_rest
from minikcm.apiserver.cacher import DEFAULT_WATCHER_BUFFER, start_watch
from minikcm.apiserver.deletion import DeleteRequest
from minikcm.apiserver.namespace import NamespaceLifecycle
from minikcm.apiserver.persistence import SQLitePersistence
from minikcm.apiserver.registry import Registry, check_subresource
from minikcm.apiserver.selection import new_selection_predicate
from minikcm.apiserver.storage import DEFAULT_HISTORY_WINDOW, Storage
from minikcm.clock import Clock, RealClock
from minikcm.driver import Step

INITIAL_NAMESPACES = ("default", "kube-node-lease", "kube-public", "kube-system")
"""Namespaces that exist from the start, as on a fresh cluster."""

STEP_PERIOD = 1.0
"""Seconds between step rounds in threaded mode (`run`)."""


def _info(resource: str) -> ResourceInfo:
    info = RESOURCES.get(resource)
    if info is None:
        raise errors.new_generic_server_response(404, "GET", GroupResource("", resource), "", "", 0, False)
    return info


def _delete_request(preconditions: Any, propagation_policy: str | None,
                    grace_period_seconds: int | None, dry_run: bool) -> DeleteRequest:
    """Read preconditions given as `meta.Preconditions`, a wire dict, or None."""
    uid = resource_version = None
    if isinstance(preconditions, dict):
        uid, resource_version = preconditions.get("uid"), preconditions.get("resourceVersion")
    elif preconditions is not None:
        uid, resource_version = preconditions.uid, preconditions.resource_version
    return DeleteRequest(grace_period_seconds, uid, resource_version, propagation_policy, bool(dry_run))


class APIServer:
    """The embedded API server (see dev/CONTRACTS.md for every method's contract).

    Thread: any. Every call is atomic; watch events are delivered during the
    write that causes them. `__repr__` takes no lock.
    """

    def __init__(self, clock: Clock | None = None, rng: random.Random | None = None,
                 history_window: int = DEFAULT_HISTORY_WINDOW,
                 watcher_buffer: int = DEFAULT_WATCHER_BUFFER,
                 data_dir: str | os.PathLike[str] | None = None, watch_list: bool = True) -> None:
        self.clock: Clock = clock if clock is not None else RealClock()
        self.watch_list = watch_list
        """The WatchList feature gate of kube-apiserver (on by default since 1.34). Off, a
        watch with sendInitialEvents is refused with 422, as an older server does."""
        self.rng = rng if rng is not None else random.Random()
        """Source of generated names and uids; pass `random.Random(seed)` for repeatable runs."""
        persistence = SQLitePersistence(data_dir) if data_dir is not None else None
        self.storage = Storage(history_window, persistence)
        """With `data_dir`, every write is committed to SQLite there before it is
        answered, and a server started on the same directory restores the objects and
        the resourceVersion (minikcm.apiserver.persistence). Without it, memory only."""
        self.registry = Registry(self.storage, self.clock, self.rng)
        self.namespaces = NamespaceLifecycle(self.registry)
        self.watcher_buffer = watcher_buffer
        with self.storage.lock:
            for name in INITIAL_NAMESPACES:
                if self.storage.get_locked("namespaces", ("", name)) is None:  # restored ones stay
                    self.registry.create("namespaces", "", {"metadata": {"name": name}})

    def close(self) -> None:
        """Release the data directory, if any (later writes fail). In memory: nothing to do."""
        self.storage.close()

    # -- reads -------------------------------------------------------------------------

    def get(self, resource: str, namespace: str | None, name: str, *,
            subresource: str | None = None) -> dict[str, Any]:
        """A copy of one object (for `scale`: its autoscaling/v1 Scale)."""
        _info(resource)
        return self.registry.get(resource, namespace or "", name, subresource)

    def list(self, resource: str, namespace: str | None, *, label_selector: str = "",
             field_selector: str = "", resource_version: str = "", limit: int = 0,
             continue_: str = "", resource_version_match: str = "",
             send_initial_events: bool | None = None) -> dict[str, Any]:
        """A `<Kind>List` of the matching objects, carrying `metadata.resourceVersion`.

        The options are checked as kube-apiserver's handler does
        (internalversion.validate_list_options: 422 on ListOptions.meta.k8s.io).
        """
        info = _info(resource)
        options = internalversion.defaulted_and_validated(meta.ListOptions(
            label_selector=label_selector, field_selector=field_selector,
            resource_version=resource_version or "", resource_version_match=resource_version_match or "",
            limit=limit or 0, continue_=continue_ or "", send_initial_events=send_initial_events),
            self.watch_list)
        predicate = new_selection_predicate(resource, label_selector, field_selector)
        return self.registry.list(resource, (namespace or "") if info.namespaced else "", predicate,
                                  options.resource_version, options.limit, options.continue_,
                                  options.resource_version_match)

    # -- writes ------------------------------------------------------------------------

    def create(self, resource: str, namespace: str | None, obj: dict[str, Any], *,
               subresource: str | None = None, dry_run: bool = False) -> dict[str, Any]:
        """Create `obj`; returns it as stored (uid, resourceVersion, defaults filled).

        The one creatable subresource is `pods/binding` (a Binding body naming the
        pod and its node), which is how a scheduler assigns a pod.
        """
        info = _info(resource)
        if resource == "pods" and subresource == "binding":
            return resource_rest.bind_pod(self.registry, self._namespace(info, namespace, obj), obj,
                                          bool(dry_run))
        if subresource is not None:
            raise errors.new_method_not_supported(
                GroupResource(info.group, f"{resource}/{subresource}"), "create")
        return self.registry.create(resource, self._namespace(info, namespace, obj), obj, bool(dry_run))

    def update(self, resource: str, namespace: str | None, obj: dict[str, Any], *,
               subresource: str | None = None, dry_run: bool = False) -> dict[str, Any]:
        """Replace `obj` (main resource, `status`, or `scale` with a Scale body)."""
        info = _info(resource)
        return self._update(resource, self._namespace(info, namespace, obj), obj, subresource,
                            bool(dry_run))

    def _update(self, resource: str, namespace: str, obj: dict[str, Any], subresource: str | None,
                dry_run: bool) -> dict[str, Any]:
        if subresource == "scale":
            return resource_rest.update_scale(self.registry, resource, namespace, obj, dry_run)
        return self.registry.update(resource, namespace, obj, subresource, dry_run)

    def patch(self, resource: str, namespace: str | None, name: str, patch_type: types.PatchType,
              body: Any, *, subresource: str | None = None, dry_run: bool = False,
              field_manager: str = "", force: bool = False) -> dict[str, Any]:
        """Patch one object: read, apply the patch, then the update path, all atomically.

        An apply patch (`application/apply-patch+yaml`) creates the object when
        it does not exist. managedFields are not recorded (see patcher).
        """
        info = _info(resource)
        patcher.validate_patch_options(patch_type, field_manager, force)
        check_subresource(resource, subresource)
        parsed = patcher.decode_body(patch_type, body)
        ns = (namespace or "") if info.namespaced else ""
        kind = "Scale" if subresource == "scale" else info.kind
        with self.storage.lock:
            try:
                current = self.registry.get(resource, ns, name, subresource)
            except errors.StatusError as err:
                if not (errors.is_not_found(err) and patch_type == types.APPLY_PATCH_TYPE
                        and subresource is None):
                    raise
                return self._apply_create(info, ns, name, parsed, bool(dry_run))
            model = "V1Scale" if subresource == "scale" else info.model.__name__
            patched = patcher.apply_patch(patch_type, current, parsed, kind, model)
            new_name = (patched.get("metadata") or {}).get("name")
            if new_name != name:
                raise errors.new_bad_request(
                    f"the name of the object ({new_name}) does not match the name on the URL ({name})")
            return self._update(resource, ns, patched, subresource, bool(dry_run))

    def _apply_create(self, info: ResourceInfo, namespace: str, name: str, applied: Any,
                      dry_run: bool) -> dict[str, Any]:
        """Port of applyPatcher.createNewObject (apiserver/pkg/endpoints/handlers/patch.go).

        Simplified: the applied configuration becomes the object.
        """
        empty: dict[str, Any] = {"apiVersion": info.api_version, "kind": info.kind, "metadata": {"name": name}}
        if info.namespaced:
            empty["metadata"]["namespace"] = namespace
        obj = patcher.apply_patch(types.APPLY_PATCH_TYPE, empty, applied, info.kind, info.model.__name__)
        if (obj.get("metadata") or {}).get("name") != name:
            raise errors.new_bad_request(
                f"the name of the object ({obj['metadata'].get('name')}) does not match the name "
                f"on the URL ({name})")
        return self.registry.create(info.resource, namespace, obj, dry_run)

    def delete(self, resource: str, namespace: str | None, name: str, *, preconditions: Any = None,
               propagation_policy: str | None = None, grace_period_seconds: int | None = None,
               dry_run: bool = False) -> dict[str, Any]:
        """Delete one object, or only mark it (grace period, finalizers); see Registry.delete."""
        info = _info(resource)
        request = _delete_request(preconditions, propagation_policy, grace_period_seconds, dry_run)
        if resource == "namespaces":
            return resource_rest.delete_namespace(self.registry, name, request)
        return self.registry.delete(resource, (namespace or "") if info.namespaced else "", name, request)

    def delete_collection(self, resource: str, namespace: str | None, *, label_selector: str = "",
                          field_selector: str = "", preconditions: Any = None,
                          propagation_policy: str | None = None,
                          grace_period_seconds: int | None = None,
                          dry_run: bool = False) -> dict[str, Any]:
        """Delete every matching object; returns the list of what was matched."""
        info = _info(resource)
        predicate = new_selection_predicate(resource, label_selector, field_selector)
        request = _delete_request(preconditions, propagation_policy, grace_period_seconds, dry_run)
        return self.registry.delete_collection(
            resource, (namespace or "") if info.namespaced else "", predicate, request)

    def add_object(self, obj: dict[str, Any]) -> dict[str, Any]:
        """Store `obj` as given, the way client-go testing's `tracker.Add` seeds a fake clientset.

        For tests that start from a given state: uid, generation,
        creationTimestamp, status and owner references are kept, and only the
        resourceVersion is new. The resource comes from apiVersion and kind; a
        namespaced object without a namespace goes to "default", and a missing
        namespace is created. Validated, watched and persisted like a create
        (see Registry.seed). Returns the object as stored.
        """
        if not isinstance(obj, dict):
            raise errors.new_bad_request(f"expected a wire object, got {type(obj).__name__}")
        info = resource_for_kind(obj.get("apiVersion") or "", obj.get("kind") or "")
        if info is None:
            raise errors.new_bad_request(
                f"no served resource for apiVersion {obj.get('apiVersion')!r}, kind {obj.get('kind')!r}")
        namespace = ""
        if info.namespaced:
            namespace = (obj.get("metadata") or {}).get("namespace") or "default"
        return self.registry.seed(info.resource, namespace, obj)

    # -- watch -------------------------------------------------------------------------

    def watch(self, resource: str, namespace: str | None, *, resource_version: str = "",
              label_selector: str = "", field_selector: str = "", allow_bookmarks: bool = False,
              timeout_seconds: float | None = None, resource_version_match: str = "",
              send_initial_events: bool | None = None) -> WatchInterface:
        """Open a watch; events (wire dicts) arrive in its ResultChan as writes happen.

        "" and "0" start with ADDED events for what exists; a resourceVersion
        starts after it (or ends at once with 410 Expired when it is too old).
        With the WatchList gate on, a watch from "" or "0" is a watch-list
        (SetListOptionsDefaults): with bookmarks allowed, a BOOKMARK annotated
        `k8s.io/initial-events-end` follows the initial ADDED events.
        `send_initial_events` (with resource_version_match NotOlderThan) asks
        for that explicitly (True) or for no initial state (False); the options
        are checked as ValidateListOptions does (422 on ListOptions.meta.k8s.io).
        """
        info = _info(resource)
        options = internalversion.defaulted_and_validated(meta.ListOptions(
            label_selector=label_selector, field_selector=field_selector, watch=True,
            allow_watch_bookmarks=allow_bookmarks, resource_version=resource_version or "",
            resource_version_match=resource_version_match or "",
            send_initial_events=send_initial_events), self.watch_list)
        predicate = new_selection_predicate(resource, label_selector, field_selector)
        now = self.clock.now()
        deadline = now + timedelta(seconds=timeout_seconds) if timeout_seconds else None
        return start_watch(self.storage, resource, (namespace or "") if info.namespaced else "",
                           options.resource_version, predicate, allow_bookmarks, deadline, now,
                           self.watcher_buffer, options.send_initial_events)

    # -- steps -------------------------------------------------------------------------

    def expire_watches(self) -> int:
        """Step: end every watch whose timeoutSeconds has passed. Returns how many ended."""
        now = self.clock.now()
        with self.storage.lock:
            due = [w for w in self.storage.watchers_locked()
                   if w.deadline is not None and w.deadline <= now]
            for w in due:
                w.stop()
        return len(due)

    def send_bookmarks(self, force: bool = False) -> int:
        """Step: send a BOOKMARK to each watcher that asked for them and is due (all if `force`).

        The bookmark carries the current resourceVersion, so a client that
        resumes from it skips nothing and replays nothing.
        """
        now = self.clock.now()
        sent = 0
        with self.storage.lock:
            rv = self.storage.resource_version
            for w in self.storage.watchers_locked():
                if not w.allow_bookmarks:
                    continue
                if force or (w.next_bookmark is not None and w.next_bookmark <= now):
                    w.bookmark_locked(rv, now)
                    sent += 1
        return sent

    def _next_deadline(self) -> datetime | None:
        with self.storage.lock:
            times = [w.deadline for w in self.storage.watchers_locked() if w.deadline is not None]
        return min(times) if times else None

    def _next_bookmark(self) -> datetime | None:
        with self.storage.lock:
            times = [w.next_bookmark for w in self.storage.watchers_locked()
                     if w.next_bookmark is not None]
        return min(times) if times else None

    def _deadline_due(self) -> bool:
        t = self._next_deadline()
        return t is not None and t <= self.clock.now()

    def _bookmark_due(self) -> bool:
        t = self._next_bookmark()
        return t is not None and t <= self.clock.now()

    def steps(self) -> builtins.list[Step]:  # `list` here would name the method above
        """The server's timed work, for the deterministic driver.

        Watch timeouts wake the driver (a client asked for them). Bookmarks do
        not: they are sent when due, but their minute-long timer never moves the
        fake clock by itself, so a scenario can still settle. Bookmarks come
        first, so a bookmark that fell due goes out before its watch times out.
        """
        return [
            Step("apiserver/bookmarks", self._bookmark_due, self.send_bookmarks),
            Step("apiserver/watch-timeouts", self._deadline_due, self.expire_watches,
                 self._next_deadline),
            Step("apiserver/namespace-lifecycle", self.namespaces.ready, self.namespaces.sync),
        ]

    def tick(self) -> None:
        """One round of every step that is ready (the body `run` repeats)."""
        for step in self.steps():
            if step.ready():
                step.run()

    def run(self, stop: threading.Event) -> None:
        """Threaded mode: call `tick` every second until `stop` is set. Holds no logic."""
        wait.until(self.tick, STEP_PERIOD, stop, self.clock)

    # -- helpers -----------------------------------------------------------------------

    @staticmethod
    def _namespace(info: ResourceInfo, namespace: str | None, obj: dict[str, Any]) -> str:
        """The request namespace; in-process callers may leave it to the object's own."""
        if not info.namespaced:
            return ""
        if namespace:
            return namespace
        return ((obj.get("metadata") or {}).get("namespace") if isinstance(obj, dict) else "") or ""

    def __repr__(self) -> str:
        return f"APIServer({self.storage!r})"
