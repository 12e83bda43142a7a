"""Port of k8s.io/client-go/tools/cache/thread_safe_store.go.

The locked dictionary under every informer cache. `ThreadSafeMap` maps keys to
objects, keeps the secondary indexes (`StoreIndex`) in step with every write,
and remembers the newest resource version it has seen, which the informer
reports as how far the cache has caught up. `Cache` (store.py) puts a key
function in front of it.

Start reading at: ThreadSafeMap.update, then StoreIndex.update_single_index.

Not ported: store metrics (`WithThreadSafeStoreMetrics`, `parseRVForMetricsWithTruncation`),
the slow-transaction trace.
Differs from Go:
- Go's RWMutex is one `threading.Lock`: readers do not run in parallel.
- Go map iteration becomes sorted-key iteration: `list`, `list_keys`, `index`,
  `by_index`, `list_index_func_values` return results in key (or value) order,
  and `replace` / `add_indexers` rebuild indexes in key order.
- `last_store_sync_resource_version` always answers: upstream returns "" when the
  AtomicFIFO feature gate is off, and that gate is on in 1.36.
- A failing index function raises RuntimeError where Go panics.
"""

from __future__ import annotations

import builtins
import threading
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from minikcm.tools.cache.index import Indexers, Indices
from minikcm.tools.cache.store_base import (
    TRANSACTION_TYPE_ADD,
    TRANSACTION_TYPE_DELETE,
    TRANSACTION_TYPE_UPDATE,
    Key,
    Transaction,
    meta_accessor,
    preview_keys,
)


class ThreadSafeStore(Protocol):
    """Port of ThreadSafeStore (thread_safe_store.go).

    Like an Indexer, but the caller supplies the keys. Objects returned by
    get and list are the stored objects themselves: changing one corrupts the
    indexes and races with other readers, so treat them as read-only.
    """

    def add(self, key: Key, obj: Any) -> None:
        """Port of ThreadSafeStore.Add (thread_safe_store.go)."""
    def update(self, key: Key, obj: Any) -> None:
        """Port of ThreadSafeStore.Update (thread_safe_store.go)."""
    def delete(self, key: Key) -> None:
        """Port of ThreadSafeStore.Delete (thread_safe_store.go)."""
    def delete_with_object(self, key: Key, obj: Any) -> None:
        """Port of ThreadSafeStore.DeleteWithObject (thread_safe_store.go)."""
    def get(self, key: Key) -> tuple[Any, bool]:
        """Port of ThreadSafeStore.Get (thread_safe_store.go)."""
    def list(self) -> list[Any]:
        """Port of ThreadSafeStore.List (thread_safe_store.go)."""
    def list_keys(self) -> builtins.list[Key]:
        """Port of ThreadSafeStore.ListKeys (thread_safe_store.go)."""
    def replace(self, items: dict[Key, Any], resource_version: str) -> None:
        """Port of ThreadSafeStore.Replace (thread_safe_store.go)."""
    def index(self, index_name: str, obj: Any) -> builtins.list[Any]:
        """Port of ThreadSafeStore.Index (thread_safe_store.go)."""
    def index_keys(self, index_name: str, indexed_value: str) -> builtins.list[Key]:
        """Port of ThreadSafeStore.IndexKeys (thread_safe_store.go)."""
    def bookmark(self, rv: str) -> None:
        """Port of ThreadSafeStore.Bookmark (thread_safe_store.go)."""
    def last_store_sync_resource_version(self) -> str:
        """Port of ThreadSafeStore.LastStoreSyncResourceVersion (thread_safe_store.go)."""
    def list_index_func_values(self, name: str) -> builtins.list[str]:
        """Port of ThreadSafeStore.ListIndexFuncValues (thread_safe_store.go)."""
    def by_index(self, index_name: str, indexed_value: str) -> builtins.list[Any]:
        """Port of ThreadSafeStore.ByIndex (thread_safe_store.go)."""
    def get_indexers(self) -> Indexers:
        """Port of ThreadSafeStore.GetIndexers (thread_safe_store.go)."""
    def add_indexers(self, new_indexers: Indexers) -> None:
        """Port of ThreadSafeStore.AddIndexers (thread_safe_store.go)."""
    def resync(self) -> None:
        """Port of ThreadSafeStore.Resync (thread_safe_store.go)."""


@runtime_checkable
class ThreadSafeStoreWithTransaction(ThreadSafeStore, Protocol):
    """Port of ThreadSafeStoreWithTransaction: a ThreadSafeStore that applies many writes at once."""

    def transaction(self, *txns: ThreadSafeStoreTransaction) -> None: ...


@dataclass(frozen=True, slots=True)  # slots: one is built per watch event
class ThreadSafeStoreTransaction:
    """Port of ThreadSafeStoreTransaction: a `Transaction` plus the key it affects.

    Differs from Go: Go embeds the Transaction; here it is the field `transaction`.
    """

    transaction: Transaction
    key: Key


class StoreIndex:
    """Port of storeIndex (thread_safe_store.go): the index half of ThreadSafeMap.

    Invariant: `indices[name][value]` is a non-empty set of keys; a set that
    becomes empty is removed, so short-lived values do not pile up (upstream
    issue 84959). Every method runs under the owning map's lock.
    """

    def __init__(self, indexers: Indexers, indices: Indices) -> None:
        self.indexers = indexers  # index name -> IndexFunc
        self.indices = indices  # index name -> value -> keys

    def reset(self) -> None:
        """Port of storeIndex.reset: forget every index (the functions stay)."""
        self.indices = {}

    def get_keys_from_index(self, index_name: str, obj: Any) -> set[Key]:
        """Port of storeIndex.getKeysFromIndex: keys sharing any indexed value with `obj`."""
        index_func = self.indexers.get(index_name)
        if index_func is None:
            raise ValueError(f"Index with name {index_name} does not exist")
        indexed_values = index_func(obj)
        index = self.indices.get(index_name, {})
        if len(indexed_values) == 1:
            # The common case: one value, no de-duplication needed.
            return index.get(indexed_values[0], set())
        store_key_set: set[Key] = set()
        for indexed_value in indexed_values:
            store_key_set.update(index.get(indexed_value, ()))
        return store_key_set

    def get_keys_by_index(self, index_name: str, indexed_value: str) -> set[Key]:
        """Port of storeIndex.getKeysByIndex: the keys stored under one indexed value."""
        if index_name not in self.indexers:
            raise ValueError(f"Index with name {index_name} does not exist")
        return self.indices.get(index_name, {}).get(indexed_value, set())

    def get_index_values(self, index_name: str) -> list[str]:
        """Port of storeIndex.getIndexValues: every indexed value present, sorted."""
        return sorted(self.indices.get(index_name, {}))

    def add_indexers(self, new_indexers: Indexers) -> None:
        """Port of storeIndex.addIndexers. Raises ValueError when a name is already taken."""
        conflict = set(self.indexers) & set(new_indexers)
        if conflict:
            raise ValueError(f"indexer conflict: {sorted(conflict)}")
        self.indexers.update(new_indexers)

    def update_single_index(self, name: str, old_obj: Any, new_obj: Any, key: Key) -> None:
        """Port of storeIndex.updateSingleIndex: move `key` within one index.

        Pass only `new_obj` for a create, both for an update, only `old_obj`
        for a delete (the other is None).

        Locking: the owning map's lock is held.
        Raises:
            RuntimeError: no such index, or the index function failed (Go panics).
        """
        index_func = self.indexers.get(name)
        if index_func is None:
            raise RuntimeError(f"indexer {name!r} does not exist")
        old_index_values: list[str] = []
        index_values: list[str] = []
        try:
            if old_obj is not None:
                old_index_values = index_func(old_obj)
            if new_obj is not None:
                index_values = index_func(new_obj)
        except Exception as err:
            raise RuntimeError(f"unable to calculate an index entry for key {key!r} on index {name!r}: {err}") from err

        idx = self.indices.setdefault(name, {})
        if len(index_values) == 1 and len(old_index_values) == 1 and index_values[0] == old_index_values[0]:
            return  # the common case: one value, unchanged
        for value in old_index_values:
            self.delete_key_from_index(key, value, idx)
        for value in index_values:
            self.add_key_to_index(key, value, idx)

    def update_indices(self, old_obj: Any, new_obj: Any, key: Key) -> None:
        """Port of storeIndex.updateIndices: update_single_index for every index, by name.

        Locking: the owning map's lock is held.
        """
        for name in sorted(self.indexers):
            self.update_single_index(name, old_obj, new_obj, key)

    def add_key_to_index(self, key: Key, index_value: str, index: dict[str, set[Key]]) -> None:
        """Port of storeIndex.addKeyToIndex."""
        index.setdefault(index_value, set()).add(key)

    def delete_key_from_index(self, key: Key, index_value: str, index: dict[str, set[Key]]) -> None:
        """Port of storeIndex.deleteKeyFromIndex: drops the value's set once it is empty."""
        keys = index.get(index_value)
        if keys is None:
            return
        keys.discard(key)
        if not keys:
            del index[index_value]


class ThreadSafeMap:
    """Port of threadSafeMap (thread_safe_store.go), the one ThreadSafeStore implementation.

    Every public method takes `lock`; `*_locked` helpers expect it held.
    `rv` is the resource version of the newest write that carried one (or the
    one given to replace or bookmark).
    """

    def __init__(self, indexers: Indexers, indices: Indices) -> None:
        self.lock = threading.Lock()  # Go: RWMutex; guards items, index and rv
        self.items: dict[Key, Any] = {}
        self.store_index = StoreIndex(indexers, indices)  # Go: field `index` (that name is the method here)
        self.rv = ""

    def __repr__(self) -> str:
        items = self.items  # lock-free read for debugging
        return f"<ThreadSafeMap {len(items)} items {preview_keys(items)} rv={self.rv!r}>"

    def transaction(self, *txns: ThreadSafeStoreTransaction) -> None:
        """Port of threadSafeMap.Transaction: apply many writes under one lock.

        The resource version of the last transaction's object, when it has one,
        becomes the store's.
        """
        if not txns:
            return
        rv = rv_from_object(txns[-1].transaction.object)
        with self.lock:
            for txn in txns:
                kind = txn.transaction.type
                if kind == TRANSACTION_TYPE_ADD:
                    self.add_locked(txn.key, txn.transaction.object)
                elif kind == TRANSACTION_TYPE_UPDATE:
                    self.update_locked(txn.key, txn.transaction.object)
                elif kind == TRANSACTION_TYPE_DELETE:
                    self.delete_locked(txn.key)
            if rv is not None:
                self.rv = rv

    def add(self, key: Key, obj: Any) -> None:
        """Port of threadSafeMap.Add: same as update."""
        self.update(key, obj)

    def add_locked(self, key: Key, obj: Any) -> None:
        """Port of threadSafeMap.addLocked. Locking: `lock` held."""
        self.update_locked(key, obj)

    def update(self, key: Key, obj: Any) -> None:
        """Port of threadSafeMap.Update: store `obj` under `key`, reindex, record its RV."""
        rv = rv_from_object(obj)
        with self.lock:
            self.update_locked(key, obj)
            if rv is not None:
                self.rv = rv

    def update_locked(self, key: Key, obj: Any) -> None:
        """Port of threadSafeMap.updateLocked. Locking: `lock` held."""
        old_object = self.items.get(key)
        self.items[key] = obj
        self.store_index.update_indices(old_object, obj, key)

    def delete(self, key: Key) -> None:
        """Port of threadSafeMap.Delete: delete_with_object without an object, so the RV stays."""
        self.delete_with_object(key, None)

    def delete_with_object(self, key: Key, obj: Any) -> None:
        """Port of threadSafeMap.DeleteWithObject: remove `key`; `obj`'s RV, if any, becomes the store's."""
        rv = rv_from_object(obj) if obj is not None else None
        with self.lock:
            self.delete_locked(key)
            if rv is not None:
                self.rv = rv

    def delete_locked(self, key: Key) -> None:
        """Port of threadSafeMap.deleteLocked. Locking: `lock` held."""
        if key in self.items:
            self.store_index.update_indices(self.items[key], None, key)
            del self.items[key]

    def get(self, key: Key) -> tuple[Any, bool]:
        """Port of threadSafeMap.Get: `(item, exists)`."""
        with self.lock:
            if key in self.items:
                return self.items[key], True
            return None, False

    def list(self) -> list[Any]:
        """Port of threadSafeMap.List: every object, in key order."""
        with self.lock:
            return [self.items[key] for key in sorted(self.items)]

    def list_keys(self) -> builtins.list[Key]:
        """Port of threadSafeMap.ListKeys: every key, sorted."""
        with self.lock:
            return sorted(self.items)

    def replace(self, items: dict[Key, Any], resource_version: str) -> None:
        """Port of threadSafeMap.Replace: take `items` as the whole content and rebuild every index.

        The map takes ownership of `items`. `resource_version` becomes the
        store's, even when it is "".
        """
        with self.lock:
            self.items = items
            self.rv = resource_version
            self.store_index.reset()
            for key in sorted(self.items):
                self.store_index.update_indices(None, self.items[key], key)

    def index(self, index_name: str, obj: Any) -> builtins.list[Any]:
        """Port of threadSafeMap.Index: objects sharing an indexed value with `obj`, in key order."""
        with self.lock:
            store_key_set = self.store_index.get_keys_from_index(index_name, obj)
            return [self.items[key] for key in sorted(store_key_set)]

    def last_store_sync_resource_version(self) -> str:
        """Port of threadSafeMap.LastStoreSyncResourceVersion: the newest RV written or bookmarked."""
        with self.lock:
            return self.rv

    def bookmark(self, rv: str) -> None:
        """Port of threadSafeMap.Bookmark: record `rv` without touching any object."""
        with self.lock:
            self.rv = rv

    def by_index(self, index_name: str, indexed_value: str) -> builtins.list[Any]:
        """Port of threadSafeMap.ByIndex: objects whose values in the index include `indexed_value`."""
        with self.lock:
            keys = self.store_index.get_keys_by_index(index_name, indexed_value)
            return [self.items[key] for key in sorted(keys)]

    def index_keys(self, index_name: str, indexed_value: str) -> builtins.list[Key]:
        """Port of threadSafeMap.IndexKeys: like by_index, but the keys (sorted)."""
        with self.lock:
            return sorted(self.store_index.get_keys_by_index(index_name, indexed_value))

    def list_index_func_values(self, index_name: str) -> builtins.list[str]:
        """Port of threadSafeMap.ListIndexFuncValues: every value the index holds, sorted."""
        with self.lock:
            return self.store_index.get_index_values(index_name)

    def get_indexers(self) -> Indexers:
        """Port of threadSafeMap.GetIndexers (read without the lock, as upstream does)."""
        return self.store_index.indexers

    def add_indexers(self, new_indexers: Indexers) -> None:
        """Port of threadSafeMap.AddIndexers: register indexes and index what is already stored.

        Raises:
            ValueError: one of the names is already registered.
        """
        with self.lock:
            self.store_index.add_indexers(new_indexers)
            for key in sorted(self.items):
                for name in sorted(new_indexers):
                    self.store_index.update_single_index(name, None, self.items[key], key)

    def resync(self) -> None:
        """Port of threadSafeMap.Resync: nothing to do."""


def rv_from_object(obj: Any) -> str | None:
    """Port of rvFromObject (thread_safe_store.go): the object's resource version.

    Differs from Go: returns None where Go returns an error (no metadata), so
    callers read "no RV to record".
    """
    try:
        return meta_accessor(obj).resource_version
    except TypeError:
        return None


def new_thread_safe_store(indexers: Indexers, indices: Indices) -> ThreadSafeMap:
    """Port of NewThreadSafeStore (thread_safe_store.go)."""
    return ThreadSafeMap(indexers, indices)
