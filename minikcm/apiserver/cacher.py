"""No upstream twin. Serving watches from the store's history, after upstream's cacher.

kube-apiserver answers watches from a watch cache (apiserver/pkg/storage/cacher:
cacher.go's Watch, watch_cache.go's getAllEventsSinceLocked, cache_watcher.go's
cacheWatcher). `start_watch` is their Watch in small: it checks the requested
resourceVersion against the resource's history window, puts the events the
client has not seen yet into a new `CacheWatcher`, and registers it for live
events, all under the store lock so nothing slips in between. A watch-list
(sendInitialEvents=true) gets the current objects as ADDED events and, when it
allows bookmarks, a BOOKMARK annotated `k8s.io/initial-events-end: "true"` at
the store's version once they are all out: what a v1.36 reflector waits for
before it replaces its store.

Start reading at: start_watch, then CacheWatcher.convert_to_watch_event.

Design notes: each watcher filters by namespace and by its selection predicate.
A change that makes an object start matching is sent as ADDED, one that makes it
stop matching as DELETED (with the old content at the new resourceVersion), as
upstream's cacheWatcher does, so a client's cache never keeps an object the
server would no longer list for it. A watcher whose ResultChan fills up
(`max_buffered` undelivered events) is closed with a 429 TooManyRequests ERROR
event: client-go's reflector backs off and resumes from the last version it saw,
and writers never wait for a slow reader.

Differs from upstream: a watch asking for a resourceVersion newer than the store's
gets the "Too large resource version" error at once (upstream waits up to 3 s for
its cache to catch up, which cannot happen in-process); BOOKMARK and timeout timing
run on the injected clock through the server's steps.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from minikcm.apimachinery import errors, field, watch
from minikcm.apimachinery.meta import INITIAL_EVENTS_ANNOTATION_KEY
from minikcm.apimachinery.schema import GroupKind, resource_info
from minikcm.apiserver.selection import SelectionPredicate
from minikcm.apiserver.storage import Storage, WatchCacheEvent, deep_copy_json

DEFAULT_WATCHER_BUFFER = 10_000
"""Undelivered events a watcher may hold before it is closed as too slow."""

BOOKMARK_FREQUENCY = 60.0
"""Port of the cacher's bookmarkFrequency: seconds between BOOKMARK events of one watcher."""

BOOKMARK_BEFORE_DEADLINE = 2.0
"""Seconds before a watch's timeout at which its last bookmark is due (upstream's value)."""


def parse_resource_version(resource: str, resource_version: str) -> int:
    """Port of APIObjectVersioner.ParseResourceVersion (apiserver/pkg/storage/api_object_versioner.go).

    "" and "0" are 0, else a decimal.

    Raises:
        StatusError: Invalid, naming `resourceVersion`, for anything that is not
            an unsigned integer.
    """
    if resource_version in ("", "0"):
        return 0
    if resource_version.isdigit() and resource_version.isascii():
        return int(resource_version)
    info = resource_info(resource)
    detail = f'strconv.ParseUint: parsing "{resource_version}": invalid syntax'
    raise errors.new_invalid(GroupKind(info.group, resource), "",
                             [field.invalid(field.new_path("resourceVersion"), resource_version,
                                            detail)])


def new_too_large_resource_version_error(minimum: int, current: int,
                                         retry_seconds: int) -> errors.StatusError:
    """Port of storage.NewTooLargeResourceVersionError (apiserver/pkg/storage/errors.go).

    504 with a ResourceVersionTooLarge cause.
    """
    err = errors.new_timeout_error(
        f"Too large resource version: {minimum}, current: {current}", retry_seconds)
    err.err_status["details"]["causes"] = [
        {"reason": errors.CAUSE_TYPE_RESOURCE_VERSION_TOO_LARGE,
         "message": "Too large resource version"}]
    return err


def watch_filter(namespace: str, predicate: SelectionPredicate, obj: dict[str, Any]) -> bool:
    """Whether a watcher of `namespace` ("" for all) with `predicate` is interested in `obj`."""
    if namespace and (obj.get("metadata") or {}).get("namespace") != namespace:
        return False
    return predicate.matches(obj)


def convert_to_watch_event(namespace: str, predicate: SelectionPredicate,
                           event: WatchCacheEvent) -> watch.Event | None:
    """Port of cacheWatcher.convertToWatchEvent (apiserver/pkg/storage/cacher/cache_watcher.go).

    The event a watcher should see, if any.

    Matching before and after gives MODIFIED; only after gives ADDED; only
    before gives DELETED carrying the old content at the event's version. The
    object is a fresh copy for this watcher.
    """
    cur_passes = event.type != watch.DELETED and watch_filter(namespace, predicate, event.object)
    old_passes = (event.prev_object is not None
                  and watch_filter(namespace, predicate, event.prev_object))
    if cur_passes and not old_passes:
        return watch.Event(watch.ADDED, deep_copy_json(event.object))
    if cur_passes and old_passes:
        return watch.Event(watch.MODIFIED, deep_copy_json(event.object))
    if old_passes:
        assert event.prev_object is not None
        old = deep_copy_json(event.prev_object)
        old["metadata"]["resourceVersion"] = str(event.resource_version)
        return watch.Event(watch.DELETED, old)
    return None


class ErrWatcher:
    """Port of errWatcher (apiserver/pkg/storage/cacher/cacher.go): one ERROR event, then the end."""

    def __init__(self, err: errors.StatusError) -> None:
        self._chan = watch.ResultChan()
        self._chan.put_final(watch.Event(watch.ERROR, err.status()))

    def stop(self) -> None:
        self._chan.close()

    def result_chan(self) -> watch.ResultChan:
        return self._chan

    def __repr__(self) -> str:
        return f"ErrWatcher({self._chan!r})"


class CacheWatcher:
    """Port of cacheWatcher (apiserver/pkg/storage/cacher/cache_watcher.go).

    One client's watch on one resource.

    Implements `watch.Interface`. Events reach `result_chan()` during the write
    that caused them (`deliver_locked`, called by the store under its lock).
    `deadline` (from timeoutSeconds) and `next_bookmark` are fake-clock times the
    server's steps act on. Thread: deliver/bookmark under the store lock; `stop`
    from any thread. `__repr__` takes no lock.
    """

    def __init__(self, storage: Storage, resource: str, namespace: str,
                 predicate: SelectionPredicate, allow_bookmarks: bool,
                 deadline: datetime | None, now: datetime, max_buffered: int,
                 initial: list[watch.Event]) -> None:
        info = resource_info(resource)
        self.resource = resource
        self.namespace = namespace
        self.predicate = predicate
        self.allow_bookmarks = allow_bookmarks
        self.deadline = deadline
        """When the watch ends by itself (timeoutSeconds), or None."""
        self.next_bookmark: datetime | None = None
        """When the next BOOKMARK is due, or None (bookmarks off, or past the last one)."""
        self._storage = storage
        self._api_version, self._kind = info.api_version, info.kind
        self._max_buffered = max_buffered
        self._chan = watch.ResultChan(maxsize=max_buffered + len(initial))
        for event in initial:
            self._chan.put(event)
        self.schedule_bookmark(now)

    # -- watch.Interface ---------------------------------------------------------------

    def stop(self) -> None:
        """Port of cacheWatcher.Stop (apiserver/pkg/storage/cacher/cache_watcher.go).

        Stop delivering and close the channel.
        """
        self._storage.remove_watcher(self)
        self._chan.close()

    def result_chan(self) -> watch.ResultChan:
        return self._chan

    # -- filtering ---------------------------------------------------------------------

    def filter(self, obj: dict[str, Any]) -> bool:
        """Whether this watcher is interested in `obj`."""
        return watch_filter(self.namespace, self.predicate, obj)

    def convert_to_watch_event(self, event: WatchCacheEvent) -> watch.Event | None:
        """Port of cacheWatcher.convertToWatchEvent (apiserver/pkg/storage/cacher/cache_watcher.go).

        See the module function of the same name.
        """
        return convert_to_watch_event(self.namespace, self.predicate, event)

    # -- delivery (store lock held) ------------------------------------------------------

    def deliver_locked(self, event: WatchCacheEvent) -> bool:
        """Hand one stored change to the client. False when the watcher was closed as too slow.

        Locking: the store lock is held (the write that made `event` is in progress).
        """
        converted = self.convert_to_watch_event(event)
        if converted is None or self._chan.put(converted):
            return True
        if self._chan.closed:
            return False  # the client stopped it between writes
        message = (f"the watch of {self.resource} fell {self._max_buffered} events behind and "
                   "was closed; watch again from the last resourceVersion seen")
        status = errors.new_too_many_requests(message, 1).status()
        self._chan.put_final(watch.Event(watch.ERROR, status))
        return False

    def bookmark_locked(self, resource_version: int, now: datetime) -> None:
        """Send a BOOKMARK at `resource_version`, then schedule the next one.

        The bookmark object is an empty object of the watched kind holding only
        metadata.resourceVersion, as upstream sends it.
        """
        obj = {"kind": self._kind, "apiVersion": self._api_version,
               "metadata": {"resourceVersion": str(resource_version)}}
        self._chan.put(watch.Event(watch.BOOKMARK, obj))
        self.schedule_bookmark(now)

    def schedule_bookmark(self, now: datetime) -> None:
        """Port of cacheWatcher.nextBookmarkTime (apiserver/pkg/storage/cacher/cache_watcher.go).

        A minute from now, or 2 s before the deadline.
        """
        if not self.allow_bookmarks:
            self.next_bookmark = None
            return
        due = now + timedelta(seconds=BOOKMARK_FREQUENCY)
        if self.deadline is not None:
            before = self.deadline - timedelta(seconds=BOOKMARK_BEFORE_DEADLINE)
            due = min(due, before)
        self.next_bookmark = due if due > now else None

    def __repr__(self) -> str:
        where = f"{self.namespace}/" if self.namespace else ""
        return (f"CacheWatcher({where}{self.resource}, {self.predicate}, "
                f"pending={len(self._chan)}, closed={self._chan.closed})")


def get_watch_cache_resource_version(current: int, requested: int, resource_version: str,
                                     send_initial_events: bool | None) -> int:
    """Port of Cacher.getWatchCacheResourceVersion (apiserver/pkg/storage/cacher/cacher.go).

    The version the watch starts from: the requested one when one was given;
    0 for the legacy watch from "" (the state as the cache has it); the
    store's current version for a watch from "" that set sendInitialEvents
    either way (a consistent read, what etcd's current revision is upstream).
    """
    if resource_version:
        return requested
    if send_initial_events is None:
        return 0
    return current


def is_list_watch_request(send_initial_events: bool | None, allow_bookmarks: bool) -> bool:
    """Port of isListWatchRequest (apiserver/pkg/storage/cacher/cacher.go).

    A watch-list: initial events requested and bookmarks allowed, so the end
    of the initial events can be marked.
    """
    return bool(send_initial_events) and allow_bookmarks


def initial_events_end_bookmark(resource: str, resource_version: int) -> watch.Event:
    """The BOOKMARK closing a watch-list's initial events (setInitialEventsEndBookmarkIfRequested).

    An empty object of the watched kind at `resource_version`, annotated
    `k8s.io/initial-events-end: "true"` (storage.AnnotateInitialEventsEndBookmark,
    applied by cacheWatcher.convertToWatchEvent to the first bookmark a
    watch-list sends).
    """
    info = resource_info(resource)
    return watch.Event(watch.BOOKMARK, {
        "kind": info.kind, "apiVersion": info.api_version,
        "metadata": {"resourceVersion": str(resource_version),
                     "annotations": {INITIAL_EVENTS_ANNOTATION_KEY: "true"}}})


def start_watch(storage: Storage, resource: str, namespace: str, resource_version: str,
                predicate: SelectionPredicate, allow_bookmarks: bool,
                deadline: datetime | None, now: datetime,
                max_buffered: int = DEFAULT_WATCHER_BUFFER,
                send_initial_events: bool | None = None) -> CacheWatcher | ErrWatcher:
    """Port of Cacher.Watch (apiserver/pkg/storage/cacher/cacher.go).

    Open a watch on `resource` from `resource_version`; the options were
    defaulted and validated by the caller (minikcm.apimachinery.internalversion).

    - sendInitialEvents=true: ADDED events for every matching object as stored
      now (NotOlderThan the given version, which must not be ahead of the
      store), then, when bookmarks are allowed, a BOOKMARK at the store's
      current version annotated `k8s.io/initial-events-end: "true"`, then live
      events (watch_cache.go getAllEventsSinceLocked, cache_watcher.go
      processInterval).
    - no sendInitialEvents, "" or "0" (legacy): the same ADDED events, no
      annotated bookmark.
    - sendInitialEvents=false: no initial state; from "" or "0" the watch
      starts at the current version.
    - a number N: the kept events after N, then live events; if events after N
      have already left the history window, an ERROR event with 410 Expired
      ("too old resource version: N (oldest)") and the watch ends.

    Raises:
        StatusError: Invalid for a resourceVersion that is not a number.
    """
    requested = parse_resource_version(resource, resource_version)
    with storage.lock:
        current = storage.resource_version
        rv = get_watch_cache_resource_version(current, requested, resource_version,
                                              send_initial_events)
        if rv > current:
            return ErrWatcher(new_too_large_resource_version_error(rv, current, 1))
        initial: list[watch.Event] = []
        if send_initial_events or (rv == 0 and send_initial_events is None):
            for obj in storage.list_locked(resource, namespace):
                if watch_filter(namespace, predicate, obj):
                    initial.append(watch.Event(watch.ADDED, deep_copy_json(obj)))
        else:
            if rv == 0:  # sendInitialEvents=false from "0": from now on
                rv = current
            oldest = storage.oldest_watchable_locked(resource)
            if oldest is not None and rv < oldest:
                return ErrWatcher(errors.new_resource_expired(
                    f"too old resource version: {rv} ({oldest})"))
            for event in storage.events_since_locked(resource, rv):
                converted = convert_to_watch_event(namespace, predicate, event)
                if converted is not None:
                    initial.append(converted)
        if is_list_watch_request(send_initial_events, allow_bookmarks):
            initial.append(initial_events_end_bookmark(resource, current))
        watcher = CacheWatcher(storage, resource, namespace, predicate, allow_bookmarks,
                               deadline, now, max_buffered, initial)
        storage.add_watcher_locked(resource, watcher)
        return watcher
