"""Port of k8s.io/client-go/tools/cache/index.go.

An `Indexer` is a `Store` that also keeps secondary indexes: for each named
`IndexFunc`, a map from every value the function produces to the set of keys of
the objects that produced it. Listers use the namespace index to list one
namespace without scanning the whole cache; controllers add their own (for
example pods by owner).

Three kinds of strings meet here: a store key (`ns/name`), the name of an index
(`"namespace"`), and an indexed value (what an `IndexFunc` returns, `"default"`).

Start reading at: Indexer, then meta_namespace_index_func.

Not ported: nothing.
Differs from Go: index functions raise instead of returning an error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from minikcm.tools.cache.store_base import Key, KeyFunc, Store, meta_accessor


class Indexer(Store, Protocol):
    """Port of Indexer (index.go): a Store with named secondary indexes.

    Each key holds just the current object (nothing after a delete).
    """

    def index(self, index_name: str, obj: Any) -> list[Any]:
        """Port of Indexer.Index (index.go)."""
    def index_keys(self, index_name: str, indexed_value: str) -> list[Key]:
        """Port of Indexer.IndexKeys (index.go)."""
    def list_index_func_values(self, index_name: str) -> list[str]:
        """Port of Indexer.ListIndexFuncValues (index.go)."""
    def by_index(self, index_name: str, indexed_value: str) -> list[Any]:
        """Port of Indexer.ByIndex (index.go)."""
    def get_indexers(self) -> Indexers:
        """Port of Indexer.GetIndexers (index.go)."""
    def add_indexers(self, new_indexers: Indexers) -> None:
        """Port of Indexer.AddIndexers (index.go)."""


IndexFunc = Callable[[Any], list[str]]
"""Port of IndexFunc: the indexed values of an object (zero, one or many). Raises on failure."""


def index_func_to_key_func_adapter(index_func: IndexFunc) -> KeyFunc:
    """Port of IndexFuncToKeyFuncAdapter (index.go).

    Turns an index function that yields exactly one value per object into a key
    function. Only sound when those values are unique across objects.
    """

    def key_func(obj: Any) -> Key:
        index_keys = index_func(obj)
        if len(index_keys) > 1:
            raise ValueError(f"too many keys: {index_keys}")
        if not index_keys:
            raise ValueError("unexpected empty indexKeys")
        return index_keys[0]

    return key_func


NAMESPACE_INDEX = "namespace"
"""Port of NamespaceIndex: the name under which the namespace index is registered."""


def meta_namespace_index_func(obj: Any) -> list[str]:
    """Port of MetaNamespaceIndexFunc (index.go): index an object by its namespace.

    Raises:
        TypeError: the object carries no metadata.
    """
    try:
        meta = meta_accessor(obj)
    except TypeError as err:
        raise TypeError(f"object has no meta: {err}") from err
    return [meta.namespace]


Index = dict[str, set[Key]]
"""Port of index: indexed value -> keys of the objects that have it."""

Indexers = dict[str, IndexFunc]
"""Port of Indexers: index name -> the function that computes it."""

Indices = dict[str, Index]
"""Port of Indices: index name -> its index."""
