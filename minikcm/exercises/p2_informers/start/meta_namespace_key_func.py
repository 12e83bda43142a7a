"""Exercise p2-informers/meta_namespace_key_func: write minikcm.tools.cache.store.meta_namespace_key_func.

Go twin: MetaNamespaceKeyFunc in k8s.io/client-go/tools/cache/store.go (v0.36.3).
Check it: minikcm exercises check p2-informers

The checker puts your function in place of meta_namespace_key_func everywhere
the port uses it (the informer's FIFO and indexer key every object with it),
runs a table of objects, then the informer-relist scenario.
"""

from __future__ import annotations

from typing import Any

from minikcm.tools.cache.store import ExplicitKey, Key, meta_accessor, object_to_name


def meta_namespace_key_func(obj: Any) -> Key:
    """Port of MetaNamespaceKeyFunc (store.go).

    The default key function: `namespace/name`, or just `name` when the object
    has no namespace. An `ExplicitKey` is its own key.

    Raises:
        TypeError: the object carries no metadata.
    """
    # Hints:
    # - An ExplicitKey is already a key: return it as a plain str.
    # - Otherwise read the metadata (meta_accessor(obj) raises TypeError when there is none;
    #   object_to_name(obj) wraps it and gives an ObjectName whose str() is the key).
    # - Cluster-scoped objects (no namespace) are keyed by their name alone, never "/name".
    raise NotImplementedError("exercise: write meta_namespace_key_func")
