"""Tests for watch-list in minikcm.tools.cache.reflector (ports from tools/cache/reflector_watchlist_test.go).

Upstream feeds a fake watcher from a goroutine and cancels a context after a
given number of events. Here `run_list_and_watch` advances the ListAndWatch
generator itself: each time it waits on an empty channel, the next scripted
event is sent (one at a time, as over Go's unbuffered channel); "cancel"
closes the generator, which is what a cancelled context does to ListAndWatch.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest
from kubernetes.client import V1ListMeta, V1ObjectMeta, V1Pod, V1PodList, V1PodSpec

from minikcm import features
from minikcm.apimachinery import errors, watch
from minikcm.apimachinery.meta import INITIAL_EVENTS_ANNOTATION_KEY, ListOptions
from minikcm.apimachinery.schema import GroupKind
from minikcm.clock import FakeClock
from minikcm.tools.cache.listwatch import ListWatch, to_list_watcher_with_watch_list_semantics
from minikcm.tools.cache.reflector import handle_list_watch, new_reflector, new_reflector_with_options, \
    ReflectorOptions
from minikcm.tools.cache.store import meta_namespace_key_func, new_store


def make_pod(name: str, rv: str, deadline: int | None = None) -> V1Pod:
    spec = V1PodSpec(containers=[], active_deadline_seconds=deadline) if deadline else None
    return V1Pod(metadata=V1ObjectMeta(name=name, resource_version=rv, uid=name), spec=spec)


def end_bookmark(rv: str, value: str = "true") -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(resource_version=rv, annotations={INITIAL_EVENTS_ANNOTATION_KEY: value}))


class FakeListWatcher:
    """Port of fakeListWatcher (reflector_watchlist_test.go): counts requests, records their options."""

    def __init__(self, pod_list: V1PodList | None = None, watch_options_predicate=None,
                 close_after_watch_requests: int = 0) -> None:
        self.fake_watcher = watch.FakeWatcher()
        self.list_counter = 0
        self.watch_counter = 0
        self.request_options: list[ListOptions] = []
        self.custom_list_response = pod_list
        self.watch_options_predicate = watch_options_predicate
        self.close_after_watch_requests = close_after_watch_requests
        self.cancelled = False

    def list(self, options: ListOptions):
        self.list_counter += 1
        self.request_options.append(options)
        if self.custom_list_response is None:
            raise RuntimeError("not implemented")
        return self.custom_list_response

    def watch(self, options: ListOptions):
        self.watch_counter += 1
        self.request_options.append(options)
        if self.watch_counter == self.close_after_watch_requests:
            self.cancelled = True
        if self.watch_options_predicate is not None:
            err = self.watch_options_predicate(options)
            if err is not None:
                raise err
        return self.fake_watcher

    def stop_and_recreate_watch(self) -> None:
        self.fake_watcher.stop()
        self.fake_watcher = watch.FakeWatcher()


def run_list_and_watch(r, lw: FakeListWatcher, clock: FakeClock, events, stop_after: int = 0,
                       close_after: int = 0) -> BaseException | None:
    """Advance r.list_and_watch() as the Go test's goroutine and context would; the error it ends with."""
    gen = r.list_and_watch()
    sent = 0
    try:
        while True:
            wait = next(gen)
            if isinstance(wait, datetime):  # a backoff: let the fake time pass
                clock.set_time(max(wait, clock.now()))
                continue
            if len(wait) or wait.closed:
                continue
            if lw.cancelled or sent == len(events) or (close_after and sent >= close_after):
                gen.close()  # Go: the context is cancelled
                return None
            event_type, obj = events[sent]
            lw.fake_watcher.action(event_type, obj)
            sent += 1
            if sent == stop_after:
                lw.stop_and_recreate_watch()
    except StopIteration:
        return None
    except Exception as err:
        return err


WATCH_LIST_OPTIONS = ListOptions(send_initial_events=True, allow_watch_bookmarks=True,
                                 resource_version_match="NotOlderThan", timeout_seconds=1)
LIST_OPTIONS = ListOptions(resource_version="0", limit=500)


def watch_at(rv: str) -> ListOptions:
    return ListOptions(allow_watch_bookmarks=True, resource_version=rv, timeout_seconds=1)


def pod_list(rv: str, *pods: V1Pod) -> V1PodList:
    return V1PodList(metadata=V1ListMeta(resource_version=rv), items=list(pods))


def fail_streaming(err):
    return lambda o: err if o.send_initial_events else None


def fail_first(n: int, err):
    counter = [0]

    def predicate(o):
        counter[0] += 1
        return err if counter[0] <= n else None
    return predicate


def fail_at(n: int, err):
    counter = [0]

    def predicate(o):
        counter[0] += 1
        return err if counter[0] == n else None
    return predicate


A, B, M, D = watch.ADDED, watch.BOOKMARK, watch.MODIFIED, watch.DELETED

WATCH_LIST_CASES = [
    # name, gate, lw kwargs, events, stop_after, close_after, want options, want store, want error
    pytest.param(True, {}, [(A, make_pod("p1", "1"))], 0, 1, [WATCH_LIST_OPTIONS], [], None,
                 id="the reflector won't be synced if the bookmark event has not been received"),
    pytest.param(False, {"pod_list": pod_list("1", make_pod("p1", "1")), "close_after_watch_requests": 1},
                 [], 0, 0, [LIST_OPTIONS, watch_at("1")], [("p1", "1")], None,
                 id="the reflector uses the old LIST/WATCH semantics if the UseWatchList is turned off"),
    pytest.param(True, {"pod_list": pod_list("1", make_pod("p1", "1")),
                        "watch_options_predicate": fail_streaming(RuntimeError("dummy error"))},
                 [(A, make_pod("p2", "2"))], 0, 1, [WATCH_LIST_OPTIONS, LIST_OPTIONS, watch_at("1")],
                 [("p1", "1"), ("p2", "2")], None,
                 id="returning any other error than apierrors.NewInvalid forces fallback"),
    pytest.param(True, {"pod_list": pod_list("1", make_pod("p1", "1")),
                        "watch_options_predicate": fail_streaming(errors.new_invalid(GroupKind("", ""), "streaming is not allowed", []))},
                 [(A, make_pod("p2", "2"))], 0, 1, [WATCH_LIST_OPTIONS, LIST_OPTIONS, watch_at("1")],
                 [("p1", "1"), ("p2", "2")], None,
                 id="the reflector can fall back to old LIST/WATCH semantics when a server doesn't support streaming"),
    pytest.param(True, {}, [(A, make_pod("p1", "1")), (A, make_pod("p2", "2")), (B, end_bookmark("2"))], 0, 3,
                 [WATCH_LIST_OPTIONS], [("p1", "1"), ("p2", "2")], None,
                 id="prove that the reflector is synced after receiving a bookmark event"),
    pytest.param(True, {}, [(A, make_pod("p1", "1")), (A, make_pod("p2", "2")), (M, make_pod("p1", "3", 12)),
                            (A, make_pod("p3", "4")), (D, make_pod("p3", "5")), (B, end_bookmark("5"))], 0, 6,
                 [WATCH_LIST_OPTIONS], [("p1", "3"), ("p2", "2")], None,
                 id="check if Updates and Deletes events are propagated during streaming"),
    pytest.param(True, {"watch_options_predicate": fail_first(2, errors.new_too_many_requests("busy", 1))},
                 [(A, make_pod("p1", "1")), (B, end_bookmark("2"))], 0, 2,
                 [WATCH_LIST_OPTIONS] * 3, [("p1", "1")], None, id="checks if the reflector retries 429"),
    pytest.param(True, {}, [(A, make_pod("p1", "1")), (A, make_pod("p1", "1")), (B, end_bookmark("1"))], 1, 3,
                 [WATCH_LIST_OPTIONS] * 2, [("p1", "1")], None,
                 id="check if stopping a watcher before sync results in creating a new watch-list request"),
    pytest.param(True, {}, [(A, make_pod("p1", "1")), (A, make_pod("p2", "2")), (B, end_bookmark("2")),
                            (A, make_pod("p3", "3")), (A, make_pod("p4", "4"))], 4, 5,
                 [WATCH_LIST_OPTIONS, watch_at("3")], [("p1", "1"), ("p2", "2"), ("p3", "3"), ("p4", "4")], None,
                 id="stopping a watcher after synchronization results in creating a new watch request"),
    pytest.param(True, {"watch_options_predicate": fail_at(2, errors.new_resource_expired("rv already expired"))},
                 [(A, make_pod("p1", "1")), (B, end_bookmark("2")), (A, make_pod("p3", "3"))], 3, 0,
                 [WATCH_LIST_OPTIONS, watch_at("3")], [("p1", "1"), ("p3", "3")], "rv already expired",
                 id="expiring an established watcher results in returning an error from the reflector"),
    pytest.param(True, {}, [(A, make_pod("p1", "1")), (A, make_pod("p2", "2")), (B, end_bookmark("2", "false"))],
                 0, 3, [WATCH_LIST_OPTIONS], [], None,
                 id="prove that the reflector is checking the value of the initialEventsEnd annotation"),
]


@pytest.mark.parametrize("gate, lw_kwargs, events, stop_after, close_after, want_options, want_store, want_err",
                         WATCH_LIST_CASES)
def test_watch_list(gate, lw_kwargs, events, stop_after, close_after, want_options, want_store, want_err):
    """Port of TestWatchList (reflector_watchlist_test.go)."""
    clock = FakeClock()
    with features.set_feature_gate_during_test(features.DEFAULT_FEATURE_GATE, features.WATCH_LIST_CLIENT, gate):
        lw = FakeListWatcher(**lw_kwargs)
        s = new_store(meta_namespace_key_func)
        r = new_reflector_with_options(lw, V1Pod(), s, ReflectorOptions(clock=clock))
        r.delay_handler = lambda: 0.0
        err = run_list_and_watch(r, lw, clock, events, stop_after, close_after)
    assert (str(err) if err is not None else None) == (None if want_err is None else str(
        errors.new_resource_expired(want_err)))
    got = [o for o in lw.request_options]
    assert all(o.timeout_seconds is not None for o in got if o.limit == 0)
    assert [replace(o, timeout_seconds=1 if o.timeout_seconds is not None else None) for o in got] == want_options
    assert sorted((p.metadata.name, p.metadata.resource_version) for p in s.list()) == want_store
    if any(name == "p1" and rv == "3" for name, rv in want_store):
        assert s.get_by_key("p1")[0].spec.active_deadline_seconds == 12


@pytest.mark.parametrize("events, want_rv", [
    pytest.param([], "", id="empty resource version"),
    pytest.param([(A, make_pod("p1", "1"))], "", id="empty resource version without bookmark event"),
    pytest.param([(A, make_pod("p1", "1")), (B, end_bookmark("2"))], "2",
                 id="non empty resource version with bookmark event and initial events annotation"),
])
def test_watch_list_resource_version(events, want_rv):
    """Port of TestWatchListResourceVersion (reflector_watchlist_test.go): only a non-ADDED event sets the RV."""
    clock = FakeClock()
    fw = watch.FakeWatcher()
    for event_type, obj in events:
        fw.action(event_type, obj)
    cur = [""]

    def track(rv: str, besides_added: bool) -> None:
        if besides_added:
            cur[0] = rv

    gen = handle_list_watch(clock.now(), fw, new_store(meta_namespace_key_func), V1Pod, None, "test", "V1Pod",
                            track, clock, [])
    try:
        next(gen)  # waits for more: the test's "cancel"
        gen.close()
    except StopIteration as done:
        assert done.value is True
    assert cur[0] == want_rv


class SupportsWatchList(ListWatch):
    def is_watch_list_semantics_un_supported(self) -> bool:
        return False


class NoWatchList(ListWatch):
    def is_watch_list_semantics_un_supported(self) -> bool:
        return True


@pytest.mark.parametrize("gate, lw, want", [
    pytest.param(False, SupportsWatchList(), False, id="gate off, client supports WatchList semantics"),
    pytest.param(True, SupportsWatchList(), True, id="gate on, client supports WatchList semantics"),
    pytest.param(True, NoWatchList(), False, id="gate on, client doesn't support the WatchList semantics"),
    pytest.param(True, ListWatch(), True, id="gate on, client doesn't expose IsWatchListSemanticsUnSupported"),
])
def test_new_reflector_with_disablement_watch_list(gate, lw, want):
    """Port of TestNewReflectorWithDisablementWatchList (reflector_watchlist_test.go)."""
    with features.set_feature_gate_during_test(features.DEFAULT_FEATURE_GATE, features.WATCH_LIST_CLIENT, gate):
        r = new_reflector(lw, V1Pod(), new_store(meta_namespace_key_func), 0)
    assert r.use_watch_list is want


@pytest.mark.parametrize("client, want", [
    pytest.param(object(), False, id="a client without the method"),
    pytest.param(NoWatchList(), True, id="a client that says it does not support watch-list"),
    pytest.param(SupportsWatchList(), False, id="a client that says it does"),
])
def test_to_list_watcher_with_watch_list_semantics(client, want):
    """Port of TestToListWatcherWithWatchListSemantics (listwatch_test.go): the wrapper answers for the client."""
    lw = to_list_watcher_with_watch_list_semantics(ListWatch(), client)
    assert lw.is_watch_list_semantics_un_supported() is want


def test_watch_list_is_on_by_default():
    """client-go v0.36.3 features/known_features.go: WatchListClient Beta, on by default since 1.35."""
    assert features.DEFAULT_FEATURE_GATE.enabled(features.WATCH_LIST_CLIENT)
