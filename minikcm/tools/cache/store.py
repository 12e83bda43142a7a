"""Port of k8s.io/client-go/tools/cache/store.go.

The `Store` contract every cache piece speaks (add, update, delete, list, get,
replace), the key functions that turn an object into its `namespace/name` cache
key, and `Cache`, the plain store: a `ThreadSafeMap` plus a key function and an
optional transformer. An informer's indexer is a `Cache` built by `new_indexer`;
the reflector and the FIFOs feed it, listers read it.

Start reading at: meta_namespace_key_func, then Cache.add and Cache.replace.

Not ported: `WithStoreMetrics` and the store metrics; contextual logging.
Differs from Go:
- Go's `KeyError` is `KeyErr` here, so that Python's builtin `KeyError` (a missing
  mapping key) keeps its meaning next to ours (a key that could not be computed).
  It is an `Exception`, not a builtin `KeyError`; `err` and `__cause__` both hold
  the wrapped error (Go's `Unwrap`).
- Go `(value, error)` returns become values and raised exceptions (PORTING §4):
  key functions raise, `Cache.get` returns `(item, exists)`.
- `Cache.transaction` returns its `TransactionError` (or None) rather than raising
  it, because callers read `successful_indices` from it, as upstream does.
- `meta_accessor` stands in for apimachinery's `meta.Accessor`: it reads the four
  metadata fields the cache needs from a client model, a bare `V1ObjectMeta`, or a
  wire dict.
- The unexported struct `cache` is the class `Cache`.
- The contract names (`Store`, `Key`, `KeyFunc`, `Transaction`,
  `split_meta_namespace_key`, `meta_accessor`, `preview_keys`) are defined in
  store_base.py and re-exported here, so that the modules store.py builds on
  (thread_safe_store.py, index.py, object_names.py) need not import it back.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from minikcm.tools.cache.object_names import ObjectName
from minikcm.tools.cache.store_base import (  # re-exported: store.go's names, kept below store.py
    TRANSACTION_TYPE_ADD,
    TRANSACTION_TYPE_DELETE,
    TRANSACTION_TYPE_UPDATE,
    Key,
    KeyFunc,
    ObjectMetaView,
    Store,
    Transaction,
    TransactionType,
    meta_accessor,
    preview_keys,
    split_meta_namespace_key,
)
from minikcm.tools.cache.thread_safe_store import (
    ThreadSafeStore,
    ThreadSafeStoreTransaction,
    ThreadSafeStoreWithTransaction,
    new_thread_safe_store,
)

if TYPE_CHECKING:
    from minikcm.tools.cache.delta_fifo import TransformFunc
    from minikcm.tools.cache.index import Indexers

@runtime_checkable
class TransactionStore(Protocol):
    """Port of TransactionStore (store.go): a store that applies many writes under one lock."""

    def transaction(self, *txns: Transaction) -> TransactionError | None:
        """Port of TransactionStore.Transaction (store.go)."""


class TransactionError(Exception):
    """Port of TransactionError (store.go).

    Says which writes of a batch went through (`successful_indices`, positions
    in the batch) and why the others did not (`errors`).
    """

    def __init__(self, successful_indices: list[int], total_transactions: int, errors: list[Exception]) -> None:
        self.successful_indices = successful_indices
        self.total_transactions = total_transactions
        self.errors = errors
        super().__init__(str(self))

    def __str__(self) -> str:
        failed = self.total_transactions - len(self.successful_indices)
        return f"failed to execute ({failed}/{self.total_transactions}) transactions failed due to: {self.errors}"


class KeyErr(Exception):
    """Port of KeyError (store.go): a key function failed for `obj`.

    Named `KeyErr` so it is never mistaken for Python's builtin `KeyError`.
    """

    def __init__(self, obj: Any, err: BaseException) -> None:
        self.obj = obj
        self.err = err
        self.__cause__ = err  # Go: Unwrap
        super().__init__(f"couldn't create key for object {obj!r}: {err}")

    def unwrap(self) -> BaseException:
        """Port of KeyError.Unwrap: the error the key function raised."""
        return self.err


class ExplicitKey(str):
    """Port of ExplicitKey (store.go): a key handed over in place of an object.

    `meta_namespace_key_func` returns it unchanged; useful when only the key of
    an object is known.
    """


def meta_namespace_key_func(obj: Any) -> Key:
    """Port of MetaNamespaceKeyFunc (store.go).

    The default key function: `namespace/name`, or just `name` when the object
    has no namespace. An `ExplicitKey` is its own key.

    Raises:
        TypeError: the object carries no metadata.
    """
    if isinstance(obj, ExplicitKey):
        return str(obj)
    meta = getattr(obj, "metadata", None)
    if meta is not None and not isinstance(obj, dict):  # a model: the same key as below, without the view
        try:
            namespace, name = meta.namespace, meta.name
        except AttributeError:
            pass
        else:
            return namespace + "/" + (name or "") if namespace else name or ""
    return str(object_to_name(obj))


def object_to_name(obj: Any) -> ObjectName:
    """Port of ObjectToName (store.go): the structured name of an object with metadata.

    Raises:
        TypeError: the object carries no metadata.
    """
    try:
        meta = meta_accessor(obj)
    except TypeError as err:
        raise TypeError(f"object has no meta: {err}") from err
    return meta_object_to_name(meta)


def meta_object_to_name(obj: ObjectMetaView) -> ObjectName:
    """Port of MetaObjectToName (store.go): namespace and name, read from metadata."""
    if obj.namespace:
        return ObjectName(namespace=obj.namespace, name=obj.name)
    return ObjectName(namespace="", name=obj.name)


class Cache:
    """Port of cache (store.go), the store behind `new_store` and `new_indexer`.

    Computes keys with `key_func`, runs `transformer` (when set) on every object
    that comes in through add, update and replace, and leaves locking and
    indexing to its `ThreadSafeStore`. Objects handed out are shared: callers
    must not change them.
    """

    def __init__(self, key_func: KeyFunc, cache_storage: ThreadSafeStore) -> None:
        self.cache_storage = cache_storage  # carries all locking and indexing
        self.key_func = key_func
        self.transformer: TransformFunc | None = None  # called on each object put in

    def __repr__(self) -> str:
        return f"<Cache {self.cache_storage!r}>"

    def transaction(self, *txns: Transaction) -> TransactionError | None:
        """Port of cache.Transaction (store.go).

        Computes every key first, then applies the writes whose key could be
        computed in one call to the thread-safe store. Returns None when all
        went through, otherwise a `TransactionError` naming the ones that did.
        """
        txn_store = self.cache_storage
        if not isinstance(txn_store, ThreadSafeStoreWithTransaction):
            return TransactionError([], len(txns), [RuntimeError("transaction not supported")])
        keyed: list[ThreadSafeStoreTransaction] = []
        successful: list[int] = []
        errs: list[Exception] = []
        for i, txn in enumerate(txns):
            try:
                key = self.key_func(txn.object)
            except Exception as err:  # collected and reported in the TransactionError
                errs.append(KeyErr(txn.object, err))
                continue
            successful.append(i)
            keyed.append(ThreadSafeStoreTransaction(txn, key))
        txn_store.transaction(*keyed)
        if errs:
            return TransactionError(successful, len(txns), errs)
        return None

    def add(self, obj: Any) -> None:
        """Port of cache.Add (store.go). Raises KeyErr when the key cannot be computed."""
        key = self.key_of(obj)
        self.cache_storage.add(key, self.transform(obj))

    def update(self, obj: Any) -> None:
        """Port of cache.Update (store.go). Raises KeyErr when the key cannot be computed."""
        key = self.key_of(obj)
        self.cache_storage.update(key, self.transform(obj))

    def delete(self, obj: Any) -> None:
        """Port of cache.Delete (store.go). The object's resource version becomes the store's."""
        key = self.key_of(obj)
        self.cache_storage.delete_with_object(key, obj)

    def list(self) -> list[Any]:
        """Port of cache.List (store.go): every stored object, in key order."""
        return self.cache_storage.list()

    def list_keys(self) -> builtins.list[Key]:
        """Port of cache.ListKeys (store.go): every key, sorted."""
        return self.cache_storage.list_keys()

    def last_store_sync_resource_version(self) -> str:
        """Port of cache.LastStoreSyncResourceVersion (store.go)."""
        return self.cache_storage.last_store_sync_resource_version()

    def bookmark(self, rv: str) -> None:
        """Port of cache.Bookmark (store.go): remember `rv` as the latest version seen."""
        self.cache_storage.bookmark(rv)

    def get_indexers(self) -> Indexers:
        """Port of cache.GetIndexers (store.go)."""
        return self.cache_storage.get_indexers()

    def index(self, index_name: str, obj: Any) -> builtins.list[Any]:
        """Port of cache.Index (store.go): objects sharing an indexed value with `obj`."""
        return self.cache_storage.index(index_name, obj)

    def index_keys(self, index_name: str, indexed_value: str) -> builtins.list[Key]:
        """Port of cache.IndexKeys (store.go): keys whose objects have `indexed_value`."""
        return self.cache_storage.index_keys(index_name, indexed_value)

    def list_index_func_values(self, index_name: str) -> builtins.list[str]:
        """Port of cache.ListIndexFuncValues (store.go): every value the index holds."""
        return self.cache_storage.list_index_func_values(index_name)

    def by_index(self, index_name: str, indexed_value: str) -> builtins.list[Any]:
        """Port of cache.ByIndex (store.go): objects whose index values include `indexed_value`."""
        return self.cache_storage.by_index(index_name, indexed_value)

    def add_indexers(self, new_indexers: Indexers) -> None:
        """Port of cache.AddIndexers (store.go)."""
        self.cache_storage.add_indexers(new_indexers)

    def get(self, obj: Any) -> tuple[Any, bool]:
        """Port of cache.Get (store.go): the stored object with `obj`'s key, and whether it exists."""
        return self.get_by_key(self.key_of(obj))

    def get_by_key(self, key: Key) -> tuple[Any, bool]:
        """Port of cache.GetByKey (store.go)."""
        return self.cache_storage.get(key)

    def replace(self, list_: builtins.list[Any], resource_version: str) -> None:
        """Port of cache.Replace (store.go).

        Swaps the whole content for `list_` (keys computed, transformer applied)
        and records `resource_version`. Nothing changes when a key fails.
        """
        items: dict[Key, Any] = {}
        for item in list_:
            key = self.key_of(item)
            items[key] = self.transform(item)
        self.cache_storage.replace(items, resource_version)

    def resync(self) -> None:
        """Port of cache.Resync (store.go): nothing to do for a plain store."""

    # Helpers with no twin: Go repeats these four lines in every method.
    def key_of(self, obj: Any) -> Key:
        """No upstream twin. Runs key_func, wrapping a failure in KeyErr as each Go method does."""
        try:
            return self.key_func(obj)
        except Exception as err:
            raise KeyErr(obj, err) from err

    def transform(self, obj: Any) -> Any:
        """No upstream twin. Runs the transformer, if any, as each Go write method does."""
        if self.transformer is None:
            return obj
        try:
            return self.transformer(obj)
        except Exception as err:
            raise RuntimeError(f"transforming: {err}") from err


StoreOption = Callable[[Cache], None]
"""Port of StoreOption: a setting applied to a `Cache` while it is built."""


def with_transformer(transformer: TransformFunc) -> StoreOption:
    """Port of WithTransformer (store.go): run `transformer` on every object stored."""

    def set_transformer(c: Cache) -> None:
        c.transformer = transformer

    return set_transformer


def new_store(key_func: KeyFunc, *opts: StoreOption) -> Cache:
    """Port of NewStore (store.go): a plain store with no indexes."""
    c = Cache(key_func, new_thread_safe_store({}, {}))
    for opt in opts:
        opt(c)
    return c


def new_indexer(key_func: KeyFunc, indexers: Indexers, *opts: StoreOption) -> Cache:
    """Port of NewIndexer (store.go): a store that keeps the given indexes up to date."""
    c = Cache(key_func, new_thread_safe_store(indexers, {}))
    for opt in opts:
        opt(c)
    return c
