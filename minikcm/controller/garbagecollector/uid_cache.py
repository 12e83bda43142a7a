"""Port of pkg/controller/garbagecollector/uid_cache.go: the absent-owner cache.

Owners the API server has confirmed to be gone (a 404, or the name now holds
an object with another uid) are remembered here, so that the hundred pods of a
deleted ReplicaSet cost one GET of the ReplicaSet, not a hundred. The graph
builder adds owners whose delete it observed; the collector adds owners its
lookups found missing. A bounded LRU: the least recently used entry goes first.

Reconstructed from an older copy, where the type was still UIDCache keyed by
uid; the 1.36 ReferenceCache keys by the owner's whole objectReference, as
garbagecollector.go and graph_builder.go use it.

Start reading at: ReferenceCache.has.

Differs from Go: groupcache's lru.Cache is an OrderedDict (most recent last).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from minikcm.controller.garbagecollector.graph import ObjectReference


class ReferenceCache:
    """Port of ReferenceCache (uid_cache.go): an LRU set of object references.

    Thread: any. `_lock` guards `cache`.
    """

    def __init__(self, max_cache_entries: int) -> None:
        self._lock = threading.Lock()  # Go: sync.Mutex
        self.max_cache_entries = max_cache_entries
        """At most this many references are kept; 0 means no limit (as lru.New(0))."""
        self.cache: OrderedDict[ObjectReference, None] = OrderedDict()  # least recently used first

    def __repr__(self) -> str:
        return f"ReferenceCache(len={len(self.cache)}, max={self.max_cache_entries})"

    def add(self, reference: ObjectReference) -> None:
        """Port of ReferenceCache.Add: remember `reference` (as most recent), evicting the oldest if full."""
        with self._lock:
            self.cache[reference] = None
            self.cache.move_to_end(reference)
            if self.max_cache_entries > 0 and len(self.cache) > self.max_cache_entries:
                self.cache.popitem(last=False)

    def has(self, reference: ObjectReference) -> bool:
        """Port of ReferenceCache.Has: whether `reference` is remembered; a hit makes it most recent."""
        with self._lock:
            if reference not in self.cache:
                return False
            self.cache.move_to_end(reference)
            return True

    def __len__(self) -> int:
        """Go: cache.Len(), which upstream tests read."""
        return len(self.cache)


def new_reference_cache(max_cache_entries: int) -> ReferenceCache:
    """Port of NewReferenceCache (uid_cache.go)."""
    return ReferenceCache(max_cache_entries)
