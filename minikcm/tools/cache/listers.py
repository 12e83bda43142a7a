"""Port of k8s.io/client-go/tools/cache/listers.go.

The read side of an informer cache. `list_all` and `list_all_by_namespace` walk
an indexer and hand each object matching a label selector to a callback; the
typed listers (`minikcm.informers.listers`) are thin wrappers around them.
`GenericLister` does the same for any resource, returning objects untyped.

Start reading at: list_all_by_namespace.

Not ported: nothing.
Differs from Go:
- The interfaces `GenericLister` / `GenericNamespaceLister` and their only
  implementations (`genericLister`, `genericNamespaceLister`) are one class each,
  so "go to definition" lands on the code that runs.
- The warning logged when the namespace index is missing goes to this module's logger.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from kubernetes.client import V1ObjectMeta

from minikcm.apimachinery import errors, labels
from minikcm.apimachinery.schema import GroupResource
from minikcm.tools.cache.index import NAMESPACE_INDEX, Indexer
from minikcm.tools.cache.store import Store, meta_accessor

logger = logging.getLogger(__name__)

NAMESPACE_ALL = ""
"""Port of metav1.NamespaceAll: the empty namespace means every namespace."""

AppendFunc = Callable[[Any], None]
"""Port of AppendFunc: receives each matching object."""


def list_all(store: Store, selector: labels.Selector, append_fn: AppendFunc) -> None:
    """Port of ListAll (listers.go): call `append_fn` for every object whose labels match.

    An empty selector skips reading labels altogether; a selector that matches
    nothing skips the walk.

    Raises:
        TypeError: a stored object carries no metadata.
    """
    if labels.matches_nothing(selector):
        return
    select_all = selector.empty()
    for m in store.list():
        if select_all:
            append_fn(m)  # listing everything: no need to read labels
            continue
        if selector.matches(labels_of(m)):  # Go: labels.Set(...)
            append_fn(m)


def list_all_by_namespace(indexer: Indexer, namespace: str, selector: labels.Selector, append_fn: AppendFunc) -> None:
    """Port of ListAllByNamespace (listers.go): list_all restricted to one namespace.

    Uses the namespace index when the indexer has one; otherwise logs and
    scans every object. `NAMESPACE_ALL` ("") lists every namespace.

    Raises:
        TypeError: a stored object carries no metadata.
    """
    if labels.matches_nothing(selector):
        return
    if namespace == NAMESPACE_ALL:
        list_all(indexer, selector, append_fn)
        return

    try:
        items = indexer.index(NAMESPACE_INDEX, V1ObjectMeta(namespace=namespace))
    except Exception as err:  # no namespace index: fall back to a full scan, as upstream does
        logger.info("Warning: can not retrieve list of objects using index: %s", err)
        for m in indexer.list():
            meta = meta_accessor(m)
            if meta.namespace == namespace and selector.matches(meta.labels):
                append_fn(m)
        return

    select_all = selector.empty()
    for m in items:
        if select_all:
            append_fn(m)  # listing everything: no need to read labels
            continue
        if selector.matches(labels_of(m)):
            append_fn(m)


def labels_of(obj: Any) -> Any:
    """No upstream twin. `meta_accessor(obj).labels`, with a fast path for client models.

    Listing walks every cached object of a namespace; reading the labels straight
    off the model's V1ObjectMeta skips building a metadata view per object.
    Anything else (wire dicts, models without metadata) goes through meta_accessor.
    """
    meta = getattr(obj, "metadata", None)
    if type(meta) is V1ObjectMeta:
        return meta.labels or {}
    return meta_accessor(obj).labels


class GenericLister:
    """Port of GenericLister and genericLister (listers.go): a lister over any indexer.

    Keys are `namespace/name`; `get` looks up a cluster-scoped name (or a full
    key), `by_namespace` narrows to one namespace.
    """

    def __init__(self, indexer: Indexer, resource: GroupResource) -> None:
        self.indexer = indexer
        self.resource = resource  # named in NotFound errors

    def __repr__(self) -> str:
        return f"<GenericLister {self.resource} over {self.indexer!r}>"

    def list(self, selector: labels.Selector) -> list[Any]:
        """Port of genericLister.List: every matching object, across namespaces."""
        ret: list[Any] = []
        list_all(self.indexer, selector, ret.append)
        return ret

    def by_namespace(self, namespace: str) -> GenericNamespaceLister:
        """Port of genericLister.ByNamespace."""
        return GenericNamespaceLister(self.indexer, namespace, self.resource)

    def get(self, name: str) -> Any:
        """Port of genericLister.Get: the object stored under key `name`.

        Raises:
            StatusError: NotFound when there is no such key.
        """
        obj, exists = self.indexer.get_by_key(name)
        if not exists:
            raise errors.new_not_found(self.resource, name)
        return obj


class GenericNamespaceLister:
    """Port of GenericNamespaceLister and genericNamespaceLister (listers.go): one namespace of a GenericLister."""

    def __init__(self, indexer: Indexer, namespace: str, resource: GroupResource) -> None:
        self.indexer = indexer
        self.namespace = namespace
        self.resource = resource

    def __repr__(self) -> str:
        return f"<GenericNamespaceLister {self.resource} in {self.namespace!r}>"

    def list(self, selector: labels.Selector) -> list[Any]:
        """Port of genericNamespaceLister.List: matching objects in this namespace."""
        ret: list[Any] = []
        list_all_by_namespace(self.indexer, self.namespace, selector, ret.append)
        return ret

    def get(self, name: str) -> Any:
        """Port of genericNamespaceLister.Get: the object `name` in this namespace.

        Raises:
            StatusError: NotFound when there is no such object.
        """
        obj, exists = self.indexer.get_by_key(self.namespace + "/" + name)
        if not exists:
            raise errors.new_not_found(self.resource, name)
        return obj


def new_generic_lister(indexer: Indexer, resource: GroupResource) -> GenericLister:
    """Port of NewGenericLister (listers.go)."""
    return GenericLister(indexer, resource)
