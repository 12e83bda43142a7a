"""Tests for minikcm.apiserver.cacher: watches from a resourceVersion, 410, selectors, slow watchers."""

from __future__ import annotations

import random

import pytest

from minikcm.apimachinery import errors, watch
from minikcm.apiserver.cacher import ErrWatcher, parse_resource_version
from minikcm.apiserver.server import APIServer

from .builders import deployment, drain, names, pod


def test_watch_from_empty_starts_with_added_for_what_exists(server):
    server.create("pods", "default", pod("a"))
    server.create("pods", "default", pod("b"))
    server.create("pods", "kube-system", pod("c", "kube-system"))
    w = server.watch("pods", "default", resource_version="")
    assert names(drain(w)) == [("ADDED", "a"), ("ADDED", "b")]
    server.create("pods", "default", pod("d"))
    assert names(drain(w)) == [("ADDED", "d")]


def test_watch_from_zero_is_like_empty(server):
    server.create("pods", "default", pod("a"))
    w = server.watch("pods", None, resource_version="0")
    assert names(drain(w)) == [("ADDED", "a")]


def test_watch_from_resource_version_sends_only_later_events(server):
    a = server.create("pods", "default", pod("a"))
    server.create("pods", "default", pod("b"))
    w = server.watch("pods", "default", resource_version=a["metadata"]["resourceVersion"])
    assert names(drain(w)) == [("ADDED", "b")]
    server.delete("pods", "default", "a")
    events = drain(w)
    # Pods are deleted gracefully: a MODIFIED with deletionTimestamp, then DELETED.
    assert names(events) == [("MODIFIED", "a"), ("DELETED", "a")]
    deleted = events[-1][1]
    assert deleted["metadata"]["resourceVersion"] == str(server.storage.resource_version)


def test_events_arrive_during_the_write_in_order(server):
    w = server.watch("deployments", "default", resource_version="0")
    d = server.create("deployments", "default", deployment())
    d["spec"]["replicas"] = 3
    server.update("deployments", "default", d)
    events = drain(w)
    assert [t for t, _ in events] == ["ADDED", "MODIFIED"]
    rvs = [int(o["metadata"]["resourceVersion"]) for _, o in events]
    assert rvs == sorted(rvs)


def test_each_watcher_gets_its_own_copy(server):
    w1 = server.watch("pods", "default")
    w2 = server.watch("pods", "default")
    server.create("pods", "default", pod("a"))
    (_, o1), = drain(w1)
    (_, o2), = drain(w2)
    o1["metadata"]["name"] = "changed"
    assert o2["metadata"]["name"] == "a"
    assert server.get("pods", "default", "a")["metadata"]["name"] == "a"


def test_too_old_resource_version_is_410(fake_clock):
    server = APIServer(clock=fake_clock, rng=random.Random(1), history_window=3)
    first = server.create("pods", "default", pod("p0"))
    for i in range(1, 5):
        server.create("pods", "default", pod(f"p{i}"))
    w = server.watch("pods", "default", resource_version=first["metadata"]["resourceVersion"])
    assert isinstance(w, ErrWatcher)
    (kind, status), = drain(w)
    assert kind == watch.ERROR
    err = errors.from_object(status)
    assert errors.is_resource_expired(err) and err.code == 410
    # Five creates at rv 5..9 with a window of 3 keep 7, 8, 9: the oldest start is 6.
    assert str(err) == "too old resource version: 5 (6)"
    assert w.result_chan().closed


def test_oldest_kept_version_still_watchable(fake_clock):
    server = APIServer(clock=fake_clock, rng=random.Random(1), history_window=3)
    for i in range(5):
        server.create("pods", "default", pod(f"p{i}"))
    w = server.watch("pods", "default", resource_version="6")
    assert names(drain(w)) == [("ADDED", "p2"), ("ADDED", "p3"), ("ADDED", "p4")]


def test_history_is_per_resource(fake_clock):
    server = APIServer(clock=fake_clock, rng=random.Random(1), history_window=2)
    d = server.create("deployments", "default", deployment())
    for i in range(5):
        server.create("pods", "default", pod(f"p{i}"))
    w = server.watch("deployments", "default", resource_version=d["metadata"]["resourceVersion"])
    assert drain(w) == [] and not w.result_chan().closed


def test_future_resource_version_is_refused(server):
    w = server.watch("pods", "default", resource_version="100")
    (kind, status), = drain(w)
    assert kind == watch.ERROR and errors.is_timeout(errors.from_object(status))


def test_malformed_resource_version_is_invalid():
    with pytest.raises(errors.StatusError) as info:
        parse_resource_version("pods", "abc")
    assert errors.is_invalid(info.value)
    assert str(info.value) == ('pods "" is invalid: resourceVersion: Invalid value: "abc": '
                               'strconv.ParseUint: parsing "abc": invalid syntax')


def test_bookmarks_only_when_asked(server):
    plain = server.watch("pods", "default")
    with_bookmarks = server.watch("pods", "default", allow_bookmarks=True)
    start = str(server.storage.resource_version)
    server.create("pods", "default", pod("a"))
    assert server.send_bookmarks(force=True) == 1
    assert [t for t, _ in drain(plain)] == ["ADDED"]
    events = drain(with_bookmarks)
    # From "" with bookmarks, a watch is a watch-list (SetListOptionsDefaults): the
    # empty initial state ends with the annotated bookmark; later ones carry no annotation.
    assert [t for t, _ in events] == ["BOOKMARK", "ADDED", "BOOKMARK"]
    assert events[0][1]["metadata"] == {"resourceVersion": start,
                                        "annotations": {"k8s.io/initial-events-end": "true"}}
    assert events[2][1] == {"kind": "Pod", "apiVersion": "v1",
                            "metadata": {"resourceVersion": str(server.storage.resource_version)}}


def test_bookmarks_come_every_minute_on_the_clock(server, fake_clock):
    w = server.watch("pods", "default", allow_bookmarks=True,
                     resource_version=str(server.storage.resource_version))
    assert server.send_bookmarks() == 0
    fake_clock.step(60)
    assert server.send_bookmarks() == 1
    assert server.send_bookmarks() == 0
    fake_clock.step(59)
    assert server.send_bookmarks() == 0
    fake_clock.step(1)
    assert server.send_bookmarks() == 1
    assert [t for t, _ in drain(w)] == ["BOOKMARK", "BOOKMARK"]


def test_last_bookmark_comes_before_the_timeout(server, fake_clock):
    w = server.watch("pods", "default", allow_bookmarks=True, timeout_seconds=30,
                     resource_version=str(server.storage.resource_version))
    fake_clock.step(27)
    assert server.send_bookmarks() == 0
    fake_clock.step(1)
    assert server.send_bookmarks() == 1
    fake_clock.step(2)
    assert server.expire_watches() == 1
    assert [t for t, _ in drain(w)] == ["BOOKMARK"]
    assert w.result_chan().closed


def test_stop_ends_delivery(server):
    w = server.watch("pods", "default")
    w.stop()
    server.create("pods", "default", pod("a"))
    assert drain(w) == [] and w.result_chan().closed
    assert server.storage.watchers_locked() == []


SELECTOR_TRANSITION_CASES = [
    pytest.param({"app": "web"}, {"app": "web", "tier": "x"}, "MODIFIED", id="still-matches"),
    pytest.param({"app": "other"}, {"app": "web"}, "ADDED", id="starts-matching"),
    pytest.param({"app": "web"}, {"app": "other"}, "DELETED", id="stops-matching"),
]


@pytest.mark.parametrize("before, after, want", SELECTOR_TRANSITION_CASES)
def test_label_selector_transitions(server, before, after, want):
    created = server.create("pods", "default", pod("a", labels=before))
    w = server.watch("pods", "default", resource_version=created["metadata"]["resourceVersion"],
                     label_selector="app=web")
    created["metadata"]["labels"] = after
    updated = server.update("pods", "default", created)
    (kind, obj), = drain(w)
    assert kind == want
    assert obj["metadata"]["resourceVersion"] == updated["metadata"]["resourceVersion"]
    if want == "DELETED":
        assert obj["metadata"]["labels"] == before  # the old content, at the new version


def test_field_selector_transition_on_node_name(server):
    w = server.watch("pods", None, field_selector="spec.nodeName=node-1")
    server.create("pods", "default", pod("a"))
    assert drain(w) == []
    server.create("pods", "default", {"kind": "Binding", "metadata": {"name": "a"},
                                      "target": {"kind": "Node", "name": "node-1"}},
                  subresource="binding")
    assert names(drain(w)) == [("ADDED", "a")]


def test_unmatched_events_are_not_sent(server):
    w = server.watch("pods", "default", label_selector="app=web")
    server.create("pods", "default", pod("a", labels={"app": "db"}))
    server.create("pods", "default", pod("b", labels={"app": "web"}))
    assert names(drain(w)) == [("ADDED", "b")]


def test_slow_watcher_is_closed_with_an_error_instead_of_blocking(fake_clock):
    server = APIServer(clock=fake_clock, rng=random.Random(1), watcher_buffer=3)
    slow = server.watch("pods", "default")
    for i in range(5):
        server.create("pods", "default", pod(f"p{i}"))  # writers never wait
    events = drain(slow)
    assert [t for t, _ in events] == ["ADDED"] * 3 + ["ERROR"]
    err = errors.from_object(events[-1][1])
    assert errors.is_too_many_requests(err)
    assert slow.result_chan().closed
    assert server.storage.watchers_locked() == []


def test_initial_events_do_not_count_against_the_buffer(fake_clock):
    server = APIServer(clock=fake_clock, rng=random.Random(1), watcher_buffer=2)
    for i in range(5):
        server.create("pods", "default", pod(f"p{i}"))
    w = server.watch("pods", "default")
    server.create("pods", "default", pod("later"))
    assert [t for t, _ in drain(w)] == ["ADDED"] * 6


# --- watch-list (sendInitialEvents), as Cacher.Watch serves it ------------------------------------

END = {"k8s.io/initial-events-end": "true"}


def watch_list_setup(server):
    """Two pods, then one changed: returns (rv after the first pod, rv now)."""
    a = server.create("pods", "default", pod("a"))
    b = server.create("pods", "default", pod("b"))
    b["metadata"]["labels"] = {"x": "y"}
    server.update("pods", "default", b)
    return int(a["metadata"]["resourceVersion"]), server.storage.resource_version


# (name, watch keyword arguments with {a}/{now} for the two versions, events expected at once)
WATCH_LIST_CASES = [
    pytest.param(dict(send_initial_events=True, resource_version_match="NotOlderThan",
                      allow_bookmarks=True),
                 [("ADDED", "a"), ("ADDED", "b"), ("BOOKMARK", "now+end")], id="initial-events-then-bookmark"),
    pytest.param(dict(send_initial_events=True, resource_version_match="NotOlderThan",
                      allow_bookmarks=True, resource_version="{a}"),
                 [("ADDED", "a"), ("ADDED", "b"), ("BOOKMARK", "now+end")],
                 id="not-older-than-a-past-version-is-the-current-state"),
    pytest.param(dict(send_initial_events=True, resource_version_match="NotOlderThan",
                      allow_bookmarks=True, resource_version="0"),
                 [("ADDED", "a"), ("ADDED", "b"), ("BOOKMARK", "now+end")], id="from-zero"),
    pytest.param(dict(send_initial_events=True, resource_version_match="NotOlderThan"),
                 [("ADDED", "a"), ("ADDED", "b")], id="no-bookmarks-no-end-marker"),
    pytest.param(dict(send_initial_events=False, resource_version_match="NotOlderThan",
                      allow_bookmarks=True), [], id="off-from-empty-starts-now"),
    pytest.param(dict(send_initial_events=False, resource_version_match="NotOlderThan",
                      allow_bookmarks=True, resource_version="0"), [], id="off-from-zero-starts-now"),
    pytest.param(dict(send_initial_events=False, resource_version_match="NotOlderThan",
                      resource_version="{a}"), [("ADDED", "b"), ("MODIFIED", "b")],
                 id="off-from-a-version-replays-the-history"),
    pytest.param(dict(allow_bookmarks=True), [("ADDED", "a"), ("ADDED", "b"), ("BOOKMARK", "now+end")],
                 id="legacy-from-empty-is-defaulted-to-a-watch-list"),
    pytest.param(dict(allow_bookmarks=True, resource_version="{a}"), [("ADDED", "b"), ("MODIFIED", "b")],
                 id="legacy-from-a-version-is-not"),
]


@pytest.mark.parametrize("kwargs, want", WATCH_LIST_CASES)
def test_watch_list(server, kwargs, want):
    a_rv, now_rv = watch_list_setup(server)
    kwargs = {k: v.format(a=a_rv) if isinstance(v, str) else v for k, v in kwargs.items()}
    w = server.watch("pods", "default", **kwargs)
    got = []
    for kind, obj in drain(w):
        if kind == watch.BOOKMARK:
            meta = obj["metadata"]
            assert meta["resourceVersion"] == str(now_rv)
            got.append((kind, "now+end" if meta.get("annotations") == END else "now"))
        else:
            got.append((kind, obj["metadata"]["name"]))
    assert got == want
    server.create("pods", "default", pod("c"))  # then the watch goes on
    assert names(drain(w)) == [("ADDED", "c")]
    assert server.send_bookmarks(force=True) == int(bool(kwargs.get("allow_bookmarks")))
    assert all("annotations" not in o["metadata"] for _, o in drain(w))  # only the first is marked


def test_watch_list_keeps_to_the_selector(server):
    server.create("pods", "default", pod("a", labels={"app": "web"}))
    server.create("pods", "default", pod("b", labels={"app": "db"}))
    w = server.watch("pods", None, label_selector="app=web", send_initial_events=True,
                     resource_version_match="NotOlderThan", allow_bookmarks=True)
    assert names(drain(w)) == [("ADDED", "a"), ("BOOKMARK", "")]


def test_watch_list_from_a_future_version_is_refused(server):
    w = server.watch("pods", "default", resource_version="100", send_initial_events=True,
                     resource_version_match="NotOlderThan", allow_bookmarks=True)
    (kind, status), = drain(w)
    assert kind == watch.ERROR and errors.is_timeout(errors.from_object(status))


INVALID_REQUEST_CASES = [
    pytest.param("watch", dict(send_initial_events=True), "resourceVersionMatch",
                 "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
                 id="watch-without-match"),
    pytest.param("watch", dict(resource_version_match="NotOlderThan"), "resourceVersionMatch",
                 "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
                 id="watch-match-alone"),
    pytest.param("list", dict(send_initial_events=False), "sendInitialEvents",
                 "sendInitialEvents is forbidden for list", id="list-send-initial-events"),
    pytest.param("list", dict(resource_version_match="NotOlderThan"), "resourceVersionMatch",
                 "resourceVersionMatch is forbidden unless resourceVersion is provided",
                 id="list-match-without-version"),
]


@pytest.mark.parametrize("verb, kwargs, field, message", INVALID_REQUEST_CASES)
def test_invalid_options_change_nothing_and_name_the_field(server, verb, kwargs, field, message):
    before = server.storage.dump()
    with pytest.raises(errors.StatusError) as info:
        getattr(server, verb)("pods", "default", **kwargs)
    status = info.value.status()
    assert (status["code"], status["details"]["kind"]) == (422, "ListOptions")
    assert status["details"]["causes"][0]["field"] == field
    assert message in status["details"]["causes"][0]["message"]
    assert server.storage.dump() == before and server.storage.watchers_locked() == []


def test_a_server_without_the_watch_list_gate_refuses_send_initial_events(fake_clock):
    server = APIServer(clock=fake_clock, rng=random.Random(1), watch_list=False)
    with pytest.raises(errors.StatusError) as info:
        server.watch("pods", "default", send_initial_events=True,
                     resource_version_match="NotOlderThan", allow_bookmarks=True)
    assert errors.is_invalid(info.value)
    assert "unless the WatchList feature gate is enabled" in str(info.value)
    # A plain watch from "" stays the legacy one there: no end-of-initial-events marker.
    w = server.watch("pods", "default", allow_bookmarks=True)
    assert drain(w) == []
