"""Port of k8s.io/client-go/tools/cache/listwatch.go.

The reflector's only window on the API server: something that can list a
resource (returning a list object whose resourceVersion says where the list was
taken) and open a watch from a resourceVersion. `ListWatch` builds one from two
plain functions; `new_list_watch_from_client` builds those two functions over a
typed client of minikcm's clientset, such as `cs.apps_v1().deployments("ns")`.

Start reading at: new_filtered_list_watch_from_client, then ListWatch.list.

Not ported: the `...WithContext` interfaces, functions and adapters
(ListerWithContext, ToListerWatcherWithContext, ListWithContextFunc, ...): a
stop event does the context's job and Python needs no second signature;
`Getter` (a RESTClient accessor).
Differs from Go:
- `new_list_watch_from_client` and `new_filtered_list_watch_from_client` take one
  typed resource client, already bound to its resource and namespace, where Go
  takes a REST client plus the resource and namespace names.
- Errors are raised (PORTING §4): `list` and `watch` return a value or raise.
- The option modifier gets a copy of the caller's ListOptions (Go passes the
  struct by value), so the reflector's own options are never changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol, runtime_checkable

from minikcm.apimachinery import fields, watch
from minikcm.apimachinery.meta import ListOptions
from minikcm.util.watchlist import does_client_not_support_watch_list_semantics


@runtime_checkable
class Lister(Protocol):
    """Port of Lister (listwatch.go): performs the initial list.

    The result is a list object (a `V1PodList`, a wire dict, ...) whose items
    the reflector puts in its store and whose resourceVersion it watches from.
    """

    def list(self, options: ListOptions) -> Any:
        """Port of Lister.List (listwatch.go)."""


@runtime_checkable
class Watcher(Protocol):
    """Port of Watcher (listwatch.go): opens a watch at `options.resource_version`.

    When it raises, it must have cleaned up after itself (stopped any watch it
    opened), so the caller can simply drop the attempt.
    """

    def watch(self, options: ListOptions) -> watch.Interface:
        """Port of Watcher.Watch (listwatch.go)."""


@runtime_checkable
class ListerWatcher(Lister, Watcher, Protocol):
    """Port of ListerWatcher (listwatch.go): both halves; what a Reflector is given."""


ListFunc = Callable[[ListOptions], Any]
"""Port of ListFunc: lists the resource with the given options."""

WatchFunc = Callable[[ListOptions], watch.Interface]
"""Port of WatchFunc: opens a watch with the given options."""


@dataclass
class ListWatch:
    """Port of ListWatch (listwatch.go): a ListerWatcher made of two functions.

    Both functions must be set before the reflector uses it. The reflector
    pages through large lists itself, so `list` never pages.
    """

    list_func: ListFunc | None = None
    """Called by `list`."""
    watch_func: WatchFunc | None = None
    """Called by `watch`."""
    disable_chunking: bool = False
    """Port of DisableChunking: ask for no paging (kept for parity; the reflector reads
    its page size from `Reflector.watch_list_page_size`)."""

    def list(self, options: ListOptions) -> Any:
        """Port of ListWatch.List: call list_func.

        Raises:
            RuntimeError: list_func is not set.
            Exception: whatever list_func raised.
        """
        if self.list_func is None:
            raise RuntimeError("ListWatch.list_func is not set")
        return self.list_func(options)

    def watch(self, options: ListOptions) -> watch.Interface:
        """Port of ListWatch.Watch: call watch_func.

        Raises:
            RuntimeError: watch_func is not set.
            Exception: whatever watch_func raised.
        """
        if self.watch_func is None:
            raise RuntimeError("ListWatch.watch_func is not set")
        return self.watch_func(options)


class ListWatcherWithWatchListSemanticsWrapper(ListWatch):
    """Port of listWatcherWithWatchListSemanticsWrapper (listwatch.go): a ListWatch that says whether the
    client behind it can serve a watch-list (the reflector asks, see util/watchlist)."""

    def __init__(self, lw: ListWatch, unsupported_watch_list_semantics: bool) -> None:
        super().__init__(lw.list_func, lw.watch_func, lw.disable_chunking)
        self.unsupported_watch_list_semantics = unsupported_watch_list_semantics

    def is_watch_list_semantics_un_supported(self) -> bool:
        """Port of listWatcherWithWatchListSemanticsWrapper.IsWatchListSemanticsUnSupported (listwatch.go)."""
        return self.unsupported_watch_list_semantics


def to_list_watcher_with_watch_list_semantics(lw: ListWatch, client: Any) -> ListerWatcher:
    """Port of ToListWatcherWithWatchListSemantics (listwatch.go): `lw`, marked as `client` marks itself.

    The generated informers wrap their ListWatch with it, so that a fake
    clientset (which cannot stream a watch-list) turns WatchListClient off.
    """
    return ListWatcherWithWatchListSemanticsWrapper(lw, does_client_not_support_watch_list_semantics(client))


class ResourceClient(Protocol):
    """No upstream twin. The two verbs of a typed client that a ListWatch needs.

    Every resource client of `minikcm.client` has them
    (`minikcm.client.interface.ResourceInterface`).
    """

    def list(self, opts: ListOptions | None = None) -> Any: ...
    def watch(self, opts: ListOptions | None = None) -> watch.Interface: ...


def new_list_watch_from_client(c: ResourceClient, field_selector: fields.Selector | str) -> ListWatch:
    """Port of NewListWatchFromClient (listwatch.go): list and watch `c`, narrowed by a field selector.

    Example: `new_list_watch_from_client(cs.core_v1().pods(""), "spec.nodeName=node-1")`
    lists and watches the pods of one node, across namespaces.
    Differs from Go: takes the typed client (resource and namespace bound) instead
    of a REST client, a resource name and a namespace.
    """
    selector_text = str(field_selector)

    def set_field_selector(options: ListOptions) -> None:
        options.field_selector = selector_text

    return new_filtered_list_watch_from_client(c, set_field_selector)


def new_filtered_list_watch_from_client(
    c: ResourceClient, options_modifier: Callable[[ListOptions], None]
) -> ListWatch:
    """Port of NewFilteredListWatchFromClient (listwatch.go): a ListWatch over `c`.

    Before each request, `options_modifier` may change a copy of the options
    (add a label or field selector, say). Watches are asked for with
    `options.watch` set, as client-go does.
    Differs from Go: takes the typed client instead of a REST client, resource and namespace.
    """

    def list_func(options: ListOptions) -> Any:
        options = replace(options)  # Go: options passed by value
        options_modifier(options)
        return c.list(options)

    def watch_func(options: ListOptions) -> watch.Interface:
        options = replace(options, watch=True)
        options_modifier(options)
        return c.watch(options)

    return ListWatch(list_func=list_func, watch_func=watch_func)
