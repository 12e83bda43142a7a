"""Tests for the list semantics of the embedded API server (minikcm.apiserver.cacher.get_list):
which state a list shows at which resourceVersion, paging, continue tokens, and the 400/410/504
answers, as kube-apiserver v1.36 serves lists from its watch cache.

Ported tables: TestComputeListLimit (storage/cacher/cacher_whitebox_test.go),
RunTestListContinuationWithFilter and the cacher's answer to RunTestListInconsistentContinuation
(storage/testing/store_tests.go); the rest is the request -> answer table of docs/appendix-apiserver.md.
"""

from __future__ import annotations

import pytest

from minikcm.apimachinery import errors
from minikcm.apiserver.cacher import (
    EXPIRED_LIST_MESSAGE,
    INCONSISTENT_CONTINUE_MESSAGE,
    compute_list_limit,
)
from minikcm.apiserver.continue_ import decode_continue, encode_continue

from .builders import namespace, pod

COMPUTE_LIST_LIMIT_CASES = [
    pytest.param(0, "", 0, id="limit is zero"),
    pytest.param(1, "", 1, id="limit is positive, RV is unset"),
    pytest.param(1, "100", 1, id="limit is positive, RV = 100"),
    pytest.param(1, "0", 0, id="legacy case: limit is positive, RV = 0"),
]


@pytest.mark.parametrize("limit, rv, want", COMPUTE_LIST_LIMIT_CASES)
def test_compute_list_limit(limit, rv, want):
    assert compute_list_limit(limit, rv) == want


def names_of(result):
    return [i["metadata"]["name"] for i in result["items"]]


@pytest.fixture
def history(server):
    """Pods a, b, c; then a relabelled, d created, b deleted. Returns the versions seen on the way."""
    for n in "abc":
        server.create("pods", "default", pod(n, labels={"v": "1"}))
    before = server.storage.resource_version  # a, b, c as created
    a = server.get("pods", "default", "a")
    a["metadata"]["labels"] = {"v": "2"}
    server.update("pods", "default", a)
    server.create("pods", "default", pod("d", labels={"v": "1"}))
    b = server.get("pods", "default", "b")
    b["metadata"]["finalizers"] = []
    server.delete("pods", "default", "b", grace_period_seconds=0)
    return {"before": before, "now": server.storage.resource_version}


# (name, list keyword arguments with {before}/{now}, names wanted, list rv wanted, continue wanted)
LIST_CASES = [
    pytest.param({}, ["a", "c", "d"], "now", False, id="consistent-read"),
    pytest.param({"limit": 2}, ["a", "c"], "now", True, id="consistent-read-paged"),
    pytest.param({"resource_version": "0", "limit": 2}, ["a", "c", "d"], "now", False,
                 id="rv-0-ignores-the-limit"),
    pytest.param({"resource_version": "{before}"}, ["a", "c", "d"], "now", False,
                 id="rv-n-without-limit-is-not-older-than"),
    pytest.param({"resource_version": "{before}", "limit": 5}, ["a", "b", "c"], "before", False,
                 id="legacy-exact-with-limit"),
    pytest.param({"resource_version": "{before}", "limit": 2}, ["a", "b"], "before", True,
                 id="legacy-exact-paged"),
    pytest.param({"resource_version": "{before}", "resource_version_match": "Exact"}, ["a", "b", "c"],
                 "before", False, id="exact"),
    pytest.param({"resource_version": "{before}", "resource_version_match": "NotOlderThan", "limit": 2},
                 ["a", "c"], "now", True, id="not-older-than-paged-at-now"),
    pytest.param({"resource_version": "0", "resource_version_match": "NotOlderThan", "limit": 1},
                 ["a", "c", "d"], "now", False, id="not-older-than-0-ignores-the-limit"),
]


@pytest.mark.parametrize("kwargs, want, rv, paged", LIST_CASES)
def test_list(server, history, kwargs, want, rv, paged):
    kwargs = {k: v.format(**history) if isinstance(v, str) else v for k, v in kwargs.items()}
    result = server.list("pods", "default", **kwargs)
    assert names_of(result) == want
    assert result["metadata"]["resourceVersion"] == str(history[rv])
    assert ("continue" in result["metadata"]) is paged


def test_exact_lists_show_the_objects_as_they_were(server, history):
    result = server.list("pods", "default", resource_version=str(history["before"]),
                         resource_version_match="Exact")
    assert [i["metadata"]["labels"] for i in result["items"]] == [{"v": "1"}] * 3


def test_pages_of_an_exact_list_stay_at_its_version(server, history):
    first = server.list("pods", "default", resource_version=str(history["before"]), limit=1)
    assert first["metadata"]["remainingItemCount"] == 2
    second = server.list("pods", "default", limit=5, continue_=first["metadata"]["continue"])
    assert names_of(second) == ["b", "c"] and second["metadata"]["resourceVersion"] == str(history["before"])


ERROR_CASES = [
    pytest.param({"resource_version": "999"}, 504, "Timeout: Too large resource version: 999", id="future-rv"),
    pytest.param({"resource_version": "999", "resource_version_match": "Exact"}, 504,
                 "Timeout: Too large resource version: 999", id="future-exact"),
    pytest.param({"resource_version": "abc"}, 400,
                 'invalid resource version: resourceVersion: Invalid value: "abc": '
                 'strconv.ParseUint: parsing "abc": invalid syntax', id="malformed-rv"),
    pytest.param({"resource_version": "99999999999999999999"}, 400,
                 'invalid resource version: resourceVersion: Invalid value: "99999999999999999999": '
                 'strconv.ParseUint: parsing "99999999999999999999": value out of range', id="rv-too-big"),
    pytest.param({"continue_": "{token}", "resource_version": "3"}, 400,
                 "specifying resource version is not allowed when using continue", id="continue-with-rv"),
    pytest.param({"continue_": "garbage!"}, 400,
                 "invalid continue token: continue key is not valid: illegal base64 data at input byte 7",
                 id="bad-token"),
    pytest.param({"continue_": "{rv0}"}, 400,
                 "invalid continue token: continue key is not valid: incorrect encoded start "
                 "resourceVersion (version meta.k8s.io/v1)", id="token-rv-0"),
]


@pytest.mark.parametrize("kwargs, code, message", ERROR_CASES)
def test_list_errors(server, history, kwargs, code, message):
    tokens = {"token": encode_continue("a\x00", "", history["now"]), "rv0": encode_continue("a\x00", "", 0)}
    kwargs = {k: v.format(**tokens) for k, v in kwargs.items()}
    before = server.storage.dump()
    with pytest.raises(errors.StatusError) as info:
        server.list("pods", "default", **kwargs)
    status = info.value.status()
    assert status["code"] == code and status["message"].startswith(message)
    assert server.storage.dump() == before


def test_continue_with_rv_0_is_allowed_and_unpaged(server, history):
    first = server.list("pods", "default", limit=1)
    rest = server.list("pods", "default", resource_version="0", limit=1, continue_=first["metadata"]["continue"])
    assert names_of(rest) == ["c", "d"] and "continue" not in rest["metadata"]


def push_out_of_the_window(server):
    for i in range(server.storage.history_window + 1):
        server.create("pods", "kube-system", pod(f"z{i}", "kube-system"))


@pytest.mark.parametrize("kwargs", [
    pytest.param({"resource_version_match": "Exact"}, id="exact"),
    pytest.param({"limit": 1}, id="legacy-exact"),
])
def test_exact_list_past_the_history_is_410(server, history, kwargs):
    push_out_of_the_window(server)
    with pytest.raises(errors.StatusError) as info:
        server.list("pods", None, resource_version=str(history["before"]), **kwargs)
    status = info.value.status()
    assert (status["code"], status["reason"], status["message"]) == (410, "Expired", EXPIRED_LIST_MESSAGE)
    assert "continue" not in status["metadata"]


def test_expired_continue_gets_a_token_that_continues_at_the_latest_version(server):
    """The cacher's answer to RunTestListInconsistentContinuation."""
    for ns in ("first", "second"):
        server.create("namespaces", None, namespace(ns))
    server.create("pods", "first", pod("bar", "first"))
    server.create("pods", "second", pod("bar", "second"))
    server.create("pods", "second", pod("foo", "second"))
    first = server.list("pods", None, limit=1)
    assert [(i["metadata"]["namespace"], i["metadata"]["name"]) for i in first["items"]] == [("first", "bar")]
    foo = server.get("pods", "second", "foo")
    foo["metadata"]["labels"] = {"state": "new"}
    last_rv = int(server.update("pods", "second", foo)["metadata"]["resourceVersion"])
    push_out_of_the_window(server)
    with pytest.raises(errors.StatusError) as info:
        server.list("pods", None, limit=1, continue_=first["metadata"]["continue"])
    status = info.value.status()
    assert (status["code"], status["reason"]) == (410, "Expired")
    assert status["message"] == INCONSISTENT_CONTINUE_MESSAGE
    token = status["metadata"]["continue"]
    assert decode_continue(token) == ("first/bar\x00", -1)
    second = server.list("pods", None, limit=1, continue_=token)
    assert [(i["metadata"]["namespace"], i["metadata"]["name"]) for i in second["items"]] == [("kube-system", "z0")]
    assert int(second["metadata"]["resourceVersion"]) >= last_rv
    third = server.list("pods", None, limit=5000, continue_=second["metadata"]["continue"])
    assert ("second", "foo") in [(i["metadata"]["namespace"], i["metadata"]["name"]) for i in third["items"]]
    assert third["metadata"]["resourceVersion"] == second["metadata"]["resourceVersion"]
    assert "continue" not in third["metadata"]


def test_continuation_with_filter(server):
    """RunTestListContinuationWithFilter: the limit counts matching objects only."""
    for ns in ("n1", "n2", "n3", "n4"):
        server.create("namespaces", None, namespace(ns))
    server.create("pods", "n1", pod("foo", "n1"))
    server.create("pods", "n2", pod("bar", "n2"))  # does not match
    server.create("pods", "n3", pod("foo", "n3"))
    server.create("pods", "n4", pod("foo", "n4"))
    current = str(server.storage.resource_version)
    first = server.list("pods", None, field_selector="metadata.name!=bar", limit=2)
    assert [i["metadata"]["namespace"] for i in first["items"]] == ["n1", "n3"]
    assert first["metadata"]["resourceVersion"] == current and "remainingItemCount" not in first["metadata"]
    second = server.list("pods", None, field_selector="metadata.name!=bar", limit=2,
                         continue_=first["metadata"]["continue"])
    assert [i["metadata"]["namespace"] for i in second["items"]] == ["n4"]
    assert "continue" not in second["metadata"] and second["metadata"]["resourceVersion"] == current


def test_selector_paging_gives_a_token_when_any_object_follows(server):
    """Cacher.GetList: after the limit-th match, a token if any stored object comes next, matching or not."""
    server.create("pods", "default", pod("a", labels={"app": "web"}))
    server.create("pods", "default", pod("b", labels={"app": "web"}))
    server.create("pods", "default", pod("c", labels={"app": "db"}))
    first = server.list("pods", "default", label_selector="app=web", limit=2)
    assert names_of(first) == ["a", "b"] and "continue" in first["metadata"]
    rest = server.list("pods", "default", label_selector="app=web", limit=2, continue_=first["metadata"]["continue"])
    assert names_of(rest) == [] and "continue" not in rest["metadata"]


def test_token_start_keys_are_relative_to_the_list(server):
    for n in "ab":
        server.create("pods", "default", pod(n))
    in_namespace = server.list("pods", "default", limit=1)["metadata"]["continue"]
    everywhere = server.list("pods", None, limit=1)["metadata"]["continue"]
    rv = server.storage.resource_version
    assert decode_continue(in_namespace) == ("a\x00", rv)
    assert decode_continue(everywhere) == ("default/a\x00", rv)
