"""Exercise p2-informers/update_single_index: write StoreIndex.update_single_index (minikcm.tools.cache.thread_safe_store).

Go twin: storeIndex.updateSingleIndex in k8s.io/client-go/tools/cache/thread_safe_store.go (v0.36.3).
Check it: minikcm exercises check p2-informers

The checker sets your function as `StoreIndex.update_single_index` for the
duration of the check (every add, update and delete of an indexer goes
through it), runs a table of index changes, then the informer-relist scenario
with two indexes on the informer. `self` is the index half of a ThreadSafeMap:
`indexers` (index name -> function giving an object's values) and `indices`
(index name -> value -> set of keys); `add_key_to_index` and
`delete_key_from_index` are there to help.
"""

from __future__ import annotations

from typing import Any

from minikcm.tools.cache.store import Key
from minikcm.tools.cache.thread_safe_store import StoreIndex


def update_single_index(self: StoreIndex, name: str, old_obj: Any, new_obj: Any, key: Key) -> None:
    """Port of storeIndex.updateSingleIndex: move `key` within one index.

    Pass only `new_obj` for a create, both for an update, only `old_obj`
    for a delete (the other is None).

    Locking: the owning map's lock is held.
    Raises:
        RuntimeError: no such index, or the index function failed (Go panics).
    """
    # Hints:
    # - No function under `name` in self.indexers: raise RuntimeError.
    # - Compute the old values (when old_obj is not None) and the new ones (when new_obj
    #   is not None); an exception from the index function becomes a RuntimeError.
    # - The index itself is self.indices.setdefault(name, {}).
    # - Remove the key under every old value, add it under every new one.
    #   A value whose set becomes empty must disappear (delete_key_from_index does that).
    raise NotImplementedError("exercise: write StoreIndex.update_single_index")
