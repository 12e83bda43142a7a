"""Port of k8s.io/utils/lru/lru.go: a bounded cache that forgets the entry used least recently.

The event correlator (tools/record/events_cache.py) keeps its spam buckets,
aggregate records and event log in one; the StatefulSet controller remembers
which revisions it found equal to a set's template in another.

Start reading at: Cache.add, then Cache.get.

Not ported: NewWithEvictionFunc/SetEvictionFunc, Remove, RemoveOldest, Keys,
Clear (no caller here).
Differs from Go: the groupcache list and map under the lock are one
OrderedDict (least recently used first).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any


class Cache:
    """Port of Cache (k8s.io/utils/lru/lru.go): at most `max_entries` keys, thread-safe.

    Adding a key beyond `max_entries` evicts the key used least recently; a
    successful `get` counts as a use. `max_entries` 0 means no limit.
    Thread: any; `_lock` guards `_items`.
    """

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self._lock = threading.Lock()  # Go: sync.Mutex
        self._items: OrderedDict[Hashable, Any] = OrderedDict()  # least recently used first

    def add(self, key: Hashable, value: Any) -> None:
        """Port of Cache.Add: store `value` under `key` as the most recently used entry."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            if self.max_entries > 0 and len(self._items) > self.max_entries:
                self._items.popitem(last=False)

    def get(self, key: Hashable) -> tuple[Any, bool]:
        """Port of Cache.Get: (value, True) and mark it used, or (None, False)."""
        with self._lock:
            if key not in self._items:
                return None, False
            self._items.move_to_end(key)
            return self._items[key], True

    def __len__(self) -> int:
        """Port of Cache.Len."""
        return len(self._items)

    def __repr__(self) -> str:
        return f"lru.Cache({len(self._items)}/{self.max_entries})"


def new(size: int) -> Cache:
    """Port of New (k8s.io/utils/lru/lru.go): a Cache of at most `size` entries (0: no limit)."""
    return Cache(size)
