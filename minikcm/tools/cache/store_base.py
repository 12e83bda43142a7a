"""No upstream twin. The ground floor of store.go: the names every cache module shares.

The `Store` contract, the cache `Key` and `KeyFunc`, the `Transaction` a batch
write is made of, `split_meta_namespace_key`, and two helpers with no Go twin in
store.go: `meta_accessor` (apimachinery's meta.Accessor, reduced to what the
cache reads) and `preview_keys` (for `__repr__`s). They live here, below
store.py, so that thread_safe_store.py, index.py and object_names.py can use
them without importing store.py, which itself builds on thread_safe_store.py:
Go's tools/cache is one package, and Python modules must not import in a circle.
store.py re-exports every name, so `from minikcm.tools.cache.store import Key`
keeps working.

Start reading at: Store, then meta_accessor.

Differs from Go: the split itself (Go has one package and no import order).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from kubernetes.client import V1ObjectMeta

Key = str
"""A cache key: `namespace/name`, or `name` for cluster-scoped objects."""


class Store(Protocol):
    """Port of Store (store.go).

    A map from keys to accumulators that can compute the key of an object
    itself. In the plain store an accumulator is just the latest object; in the
    FIFOs it is a queue of changes. Implementations: `Cache`, `FIFO`,
    `DeltaFIFO`, `RealFIFO` (the FIFOs implement the writing half).
    """

    def add(self, obj: Any) -> None:
        """Port of Store.Add (store.go)."""
    def update(self, obj: Any) -> None:
        """Port of Store.Update (store.go)."""
    def delete(self, obj: Any) -> None:
        """Port of Store.Delete (store.go)."""
    def list(self) -> list[Any]:
        """Port of Store.List (store.go)."""
    def list_keys(self) -> builtins.list[Key]:
        """Port of Store.ListKeys (store.go)."""
    def last_store_sync_resource_version(self) -> str:
        """Port of Store.LastStoreSyncResourceVersion (store.go)."""
    def bookmark(self, rv: str) -> None:
        """Port of Store.Bookmark (store.go)."""
    def get(self, obj: Any) -> tuple[Any, bool]:
        """Port of Store.Get (store.go)."""
    def get_by_key(self, key: Key) -> tuple[Any, bool]:
        """Port of Store.GetByKey (store.go)."""
    def replace(self, list_: builtins.list[Any], resource_version: str) -> None:
        """Port of Store.Replace (store.go)."""
    def resync(self) -> None:
        """Port of Store.Resync (store.go)."""


TransactionType = str
"""Port of TransactionType: which write a `Transaction` performs."""

TRANSACTION_TYPE_ADD: TransactionType = "Add"
TRANSACTION_TYPE_UPDATE: TransactionType = "Update"
TRANSACTION_TYPE_DELETE: TransactionType = "Delete"


@dataclass(frozen=True, slots=True)  # slots: one is built per watch event
class Transaction:
    """Port of Transaction (store.go): one write of a batch, an object and what to do with it."""

    object: Any
    type: TransactionType


KeyFunc = Callable[[Any], Key]
"""Port of KeyFunc: computes an object's cache key; must be deterministic. Raises on failure."""


def split_meta_namespace_key(key: Key) -> tuple[str, str]:
    """Port of SplitMetaNamespaceKey (store.go): the inverse of meta_namespace_key_func.

    Returns:
        `(namespace, name)`; namespace is "" for a key without a slash.
    Raises:
        ValueError: the key has more than one slash.
    """
    parts = key.split("/")
    if len(parts) == 1:
        return "", parts[0]  # cluster-scoped: name only
    if len(parts) == 2:
        return parts[0], parts[1]
    raise ValueError(f"unexpected key format: {key!r}")


# --- No upstream twin in store.go: apimachinery's meta.Accessor, reduced. ---


class ObjectMetaView(NamedTuple):
    """No upstream twin. The metadata fields the cache reads, with Go's zero values for None."""

    namespace: str
    name: str
    resource_version: str
    labels: dict[str, str]


def meta_accessor(obj: Any) -> ObjectMetaView:
    """Port of Accessor (k8s.io/apimachinery/pkg/api/meta/meta.go), reduced to what the cache reads.

    Accepts a client model with a `metadata` attribute, a bare `V1ObjectMeta`
    (Go's `*ObjectMeta` is itself an accessor), or a wire dict with a
    `metadata` mapping. A model whose `metadata` is None reads as empty
    metadata, as Go's zero-valued ObjectMeta would.

    Raises:
        TypeError: `obj` has no metadata at all.
    """
    if isinstance(obj, V1ObjectMeta):
        meta: Any = obj
    elif isinstance(obj, dict):
        wire = obj.get("metadata")
        if not isinstance(wire, dict):
            raise TypeError(f"{type(obj).__name__} has no metadata mapping")
        return ObjectMetaView(
            wire.get("namespace") or "",
            wire.get("name") or "",
            wire.get("resourceVersion") or "",
            wire.get("labels") or {},
        )
    else:
        meta = getattr(obj, "metadata", _NO_METADATA)
        if meta is _NO_METADATA:
            raise TypeError(f"{type(obj).__name__} has no metadata")
        if meta is None:
            return ObjectMetaView("", "", "", {})
    return ObjectMetaView(meta.namespace or "", meta.name or "", meta.resource_version or "", meta.labels or {})


_NO_METADATA = object()  # sentinel: getattr found no `metadata` attribute


def resource_version_of(obj: Any) -> str:
    """No upstream twin. `meta_accessor(obj).resource_version`, read straight off a model's metadata.

    The informer reads it for every watch event; building the whole view each
    time was a measurable share of the pipeline. Anything that is not a model
    with metadata goes through `meta_accessor`, errors included.

    Raises:
        TypeError: `obj` has no metadata at all.
    """
    meta = getattr(obj, "metadata", None)
    if meta is not None and not isinstance(obj, dict):
        try:
            return meta.resource_version or ""
        except AttributeError:
            pass
    return meta_accessor(obj).resource_version


def preview_keys(keys: Iterable[Key], limit: int = 3) -> str:
    """No upstream twin. The first `limit` keys for a `__repr__`, read without a lock.

    Copying a dict's keys happens inside one C call, so a concurrent writer
    cannot make it fail; a rare stale view is fine for debugging output.
    """
    try:
        copied = list(keys)
    except RuntimeError:  # a writer resized the container mid-copy; show nothing
        return "[...]"
    more = ", ..." if len(copied) > limit else ""
    return "[" + ", ".join(repr(k) for k in copied[:limit]) + more + "]"
