"""Tests for minikcm.tools.pager.pager (port of TestListPager_List, tools/pager/pager_test.go)."""

from __future__ import annotations

import pytest
from kubernetes.client import V1ListMeta, V1ObjectMeta, V1Pod, V1PodList

from minikcm.apimachinery import errors
from minikcm.apimachinery.meta import ListOptions
from minikcm.tools.pager.pager import ListPager, PagedList, extract_list, list_accessor, new


def pod(i: int) -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(name=f"pod-{i}"))


class FakePager:
    """Port of testPager (pager_test.go): serves `remaining` pods, `expect_page` at a time."""

    def __init__(self, expect_page: int, remaining: int, rv: str) -> None:
        self.expect_page = expect_page
        self.remaining = remaining
        self.rv = rv
        self.index = 0
        self.expired_once = False
        self.calls: list[ListOptions] = []

    def paged_list(self, options: ListOptions):
        self.calls.append(options)
        if options.limit != self.expect_page:
            raise AssertionError(f"unexpected limit {options.limit}")
        if options.continue_ and options.continue_ != str(self.index):
            raise AssertionError(f"unexpected continue token {options.continue_!r}")
        if options.continue_ and options.resource_version:
            raise AssertionError("later pages must not carry a resourceVersion")
        count = min(self.expect_page, self.remaining)
        items = [pod(self.index + i) for i in range(count)]
        self.index += count
        self.remaining -= count
        token = str(self.index) if self.remaining > 0 else None
        return V1PodList(metadata=V1ListMeta(resource_version=self.rv, **{"continue": token}), items=items)

    def expires_on_second_page(self, options: ListOptions):
        if options.continue_ == "10":
            raise errors.new_resource_expired("too old")
        return self.paged_list(options)

    def expires_on_second_page_then_full_list(self, options: ListOptions):
        if options.continue_ == "10" and not self.expired_once:
            self.expired_once = True
            raise errors.new_resource_expired("too old")
        if options.limit == 0:  # the full list after the expiry
            assert options.resource_version == self.requested_rv
            return V1PodList(metadata=V1ListMeta(resource_version=self.rv), items=[pod(i) for i in range(21)])
        return self.paged_list(options)


LIST_PAGER_CASES = [
    #            remaining  page fn                                   full list  options                 want items  want paged  want expired
    pytest.param(0, "paged_list", False, ListOptions(), 0, False, False, id="empty page"),
    pytest.param(9, "paged_list", False, ListOptions(), 9, False, False, id="one page"),
    pytest.param(10, "paged_list", False, ListOptions(), 10, False, False, id="one full page"),
    pytest.param(11, "paged_list", False, ListOptions(), 11, True, False, id="two pages"),
    pytest.param(21, "paged_list", False, ListOptions(), 21, True, False, id="three pages"),
    pytest.param(21, "expires_on_second_page", False, ListOptions(), None, True, True, id="expires on second page"),
    pytest.param(21, "expires_on_second_page_then_full_list", True, ListOptions(), 21, True, False,
                 id="expires on second page and then lists"),
    pytest.param(11, "paged_list", False, ListOptions(resource_version="rv:10"), 11, True, False,
                 id="two pages with resourceVersion"),
    pytest.param(11, "paged_list", False, ListOptions(resource_version="rv:10", resource_version_match="NotOlderThan"),
                 11, True, False, id="two pages with resourceVersion and resourceVersionMatch"),
]


@pytest.mark.parametrize("remaining, page_fn, full_list, options, want_items, want_paged, want_expired",
                         LIST_PAGER_CASES)
def test_list_pager_list(remaining, page_fn, full_list, options, want_items, want_paged, want_expired):
    """Port of TestListPager_List (pager_test.go)."""
    fake = FakePager(10, remaining, "rv:20")
    fake.requested_rv = options.resource_version
    pager = ListPager(getattr(fake, page_fn), page_size=10, full_list_if_expired=full_list)
    if want_expired:
        with pytest.raises(errors.StatusError) as info:
            pager.list(options)
        assert errors.is_resource_expired(info.value)
        return
    got, paged = pager.list(options)
    assert paged == want_paged
    assert list_accessor(got) == ("rv:20", "")
    assert [p.metadata.name for p in extract_list(got)] == [f"pod-{i}" for i in range(want_items)]
    assert isinstance(got, PagedList) == (want_paged and page_fn == "paged_list")
    assert options.limit == 0 and options.continue_ == "", "the caller's options must not change"


def test_new_pages_by_500_and_lists_fully_after_expiry():
    pager = new(lambda options: V1PodList(metadata=V1ListMeta(resource_version="1"), items=[]))
    assert (pager.page_size, pager.full_list_if_expired) == (500, True)


def test_list_accessor_reads_wire_dicts():
    assert list_accessor({"metadata": {"resourceVersion": "7", "continue": "c"}, "items": []}) == ("7", "c")
    assert extract_list({"items": [{"a": 1}]}) == [{"a": 1}]
    with pytest.raises(TypeError):
        list_accessor(object())
