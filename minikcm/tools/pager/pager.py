"""Port of k8s.io/client-go/tools/pager/pager.go, reduced to the list the reflector uses.

`ListPager.list` asks for a list `page_size` items at a time, following the
server's continue tokens, and returns one list object holding every item.
When a later page fails with 410 Expired (the continue token outlived the
server's history), it falls back to one unpaged list at the resourceVersion
first asked for.

Start reading at: ListPager.list.

Not ported: EachListItem and the buffered chunk reader (eachListChunkBuffered,
PageBufferSize), ListWithAlloc (in Python the same as list), the context.
Differs from Go:
- Several pages come back as a `PagedList` (Go: metainternalversion.List).
- `list_accessor` and `extract_list` stand in for apimachinery's
  meta.ListAccessor and meta.ExtractList, for list models, wire dicts and PagedLists.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from minikcm.apimachinery import errors
from minikcm.apimachinery.meta import ListOptions

DEFAULT_PAGE_SIZE = 500
"""Port of defaultPageSize."""

ListPageFunc = Callable[[ListOptions], Any]
"""Port of ListPageFunc: returns one page (a list object) for the given options."""


@dataclass
class PagedList:
    """Port of metainternalversion.List as the pager builds it: every page's items, one resourceVersion."""

    resource_version: str
    items: list[Any] = field(default_factory=list)


class ListPager:
    """Port of ListPager (pager.go): a list function plus how to page through it."""

    def __init__(self, page_fn: ListPageFunc, page_size: int = DEFAULT_PAGE_SIZE,
                 full_list_if_expired: bool = True) -> None:
        self.page_size = page_size
        """Items per page; 0 asks for everything at once."""
        self.page_fn = page_fn
        self.full_list_if_expired = full_list_if_expired
        """After an expired continue token, list again unpaged (else raise the 410)."""

    def __repr__(self) -> str:
        return f"ListPager(page_size={self.page_size}, full_list_if_expired={self.full_list_if_expired})"

    def list(self, options: ListOptions) -> tuple[Any, bool]:
        """Port of ListPager.List (pager.go): the whole list, and whether it came in several pages.

        A one-page answer is returned as is; several pages come back as a
        PagedList with the first page's resourceVersion. Later pages are asked
        for by continue token alone (no resourceVersion).
        Example: page_size 10 and 21 items: three requests, limit 10 each; the
        result holds 21 items and paginated is True.

        Raises:
            Exception: whatever a page request raised, except a recovered 410.
        """
        options = replace(options)  # Go: options passed by value
        if options.limit == 0:
            options.limit = self.page_size
        requested_rv, requested_match = options.resource_version, options.resource_version_match
        result: PagedList | None = None
        paginated = False
        while True:
            try:
                obj = self.page_fn(options)
            except Exception as err:
                if not errors.is_resource_expired(err) or not self.full_list_if_expired or options.continue_ == "":
                    raise
                # The continue token expired: one unpaged list at the version first asked for.
                full = replace(options, limit=0, continue_="", resource_version=requested_rv,
                               resource_version_match=requested_match)
                return self.page_fn(full), paginated
            resource_version, continue_ = list_accessor(obj)
            if continue_ == "" and result is None:
                return obj, paginated  # a single page
            if result is None:
                result = PagedList(resource_version)
            result.items.extend(extract_list(obj))
            if continue_ == "":
                return result, paginated
            options = replace(options, continue_=continue_, resource_version="", resource_version_match="")
            paginated = True


def new(fn: ListPageFunc) -> ListPager:
    """Port of New (pager.go): pages of 500, full list after an expired continue token."""
    return ListPager(fn)


def list_accessor(list_obj: Any) -> tuple[str, str]:
    """No upstream twin here (meta.ListAccessor, reduced): (resourceVersion, continue) of a list.

    Accepts a list model (`V1PodList`), a wire dict or a PagedList.
    Raises:
        TypeError: not a list.
    """
    if isinstance(list_obj, PagedList):
        return list_obj.resource_version, ""
    if isinstance(list_obj, dict):
        wire = list_obj.get("metadata") or {}
        return wire.get("resourceVersion") or "", wire.get("continue") or ""
    if not hasattr(list_obj, "items"):
        raise TypeError(f"unable to understand list result {list_obj!r}")
    meta = getattr(list_obj, "metadata", None)
    if meta is None:
        return "", ""
    return meta.resource_version or "", meta.var_continue or ""


def extract_list(list_obj: Any) -> list[Any]:
    """No upstream twin here (meta.ExtractList, reduced): the items of a list model, wire dict or PagedList."""
    if isinstance(list_obj, dict):
        return list(list_obj.get("items") or [])
    return list(list_obj.items or [])
