"""Tests for minikcm.tools.cache.reflector (ports from tools/cache/reflector_test.go).

Upstream runs ListAndWatch in a goroutine and cancels a context to end it.
Here the reflector is a set of steps: the tests drive them with the
deterministic driver on a FakeClock until a pass ends (`r.passes` grows) or
until the watch they care about is open, and read what upstream's
ListAndWatch would have returned from a recording watch error handler.
Only the two Run tests use real threads. Upstream wraps most list-watchers of
these tests in toListWatcherWithUnSupportedWatchListSemantics; here the
WatchListClient gate is off for the whole module instead (watch-list has its
own tests in test_reflector_watchlist.py).
"""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from kubernetes.client import V1ListMeta, V1ObjectMeta, V1Pod, V1PodList, V1Service

from minikcm import features
from minikcm.apimachinery import errors, wait, watch
from minikcm.apimachinery.meta import ListOptions
from minikcm.apimachinery.schema import GroupVersionKind
from minikcm.clock import FakeClock
from minikcm.driver import Driver
from minikcm.tools.cache.listwatch import ListWatch
from minikcm.tools.cache.reflector import (
    DEFAULT_EXPECTED_TYPE_NAME,
    Reflector,
    ReflectorOptions,
    VeryShortWatchError,
    get_expected_gvk_from_object,
    get_type_description_from_object,
    handle_watch,
    is_too_large_resource_version_error,
    is_unsupported_table_object,
    new_reflector,
    new_reflector_with_options,
)
from minikcm.tools.cache.store import meta_namespace_key_func, new_store
from minikcm.tools.cache.the_real_fifo import BOOKMARK, RealFIFOOptions, new_real_fifo_with_options

from .fifo_testing import TestingFIFO, pop


@pytest.fixture(autouse=True)
def list_then_watch():
    """Upstream: toListWatcherWithUnSupportedWatchListSemantics around these tests' list-watchers."""
    with features.set_feature_gate_during_test(features.DEFAULT_FEATURE_GATE, features.WATCH_LIST_CLIENT, False):
        yield


def mk_pod(name: str, rv: str = "") -> V1Pod:
    return V1Pod(metadata=V1ObjectMeta(name=name, resource_version=rv or None))


def mk_list(rv: str, *pods: V1Pod, continue_: str = "") -> V1PodList:
    meta = V1ListMeta(resource_version=rv, **{"continue": continue_ or None})  # the field only takes its alias
    return V1PodList(metadata=meta, items=list(pods))


def pods(n: int) -> list[V1Pod]:
    return [mk_pod(f"pod-{i}", str(i)) for i in range(n)]


class Recorder:
    """Records what the reflector asked of its ListWatch, and the errors that ended passes."""

    def __init__(self, r: Reflector) -> None:
        self.errors: list[BaseException] = []
        r.watch_error_handler = self.on_error

    def on_error(self, r: Reflector, err: BaseException) -> None:
        self.errors.append(err)


def drive(r: Reflector, clock: FakeClock, until, timeout: float = 3600.0) -> Driver:
    """Run the reflector's steps on the fake clock until `until()` holds."""
    driver = Driver(clock, r.steps())
    assert driver.run_until(until, timeout=timeout), driver.trace_text()
    return driver


def watching(r: Reflector) -> bool:
    """The reflector's loop waits on an open watch."""
    return isinstance(r.blocked_on, watch.ResultChan)


def watcher_of(r: Reflector) -> watch.ResultChan | None:
    """The channel of the watch the loop waits on, if any."""
    return r.blocked_on if watching(r) else None


def handle(r: Reflector, w, start=None, propagate: bool = True, errc=None):
    """Run handle_watch over what `w` holds now, as Reflector.watch calls it; the generator (paused at an
    empty channel) or the error it raised, and whether it finished."""
    def set_rv(rv: str, besides_added: bool) -> None:
        if propagate or besides_added:
            r.set_last_sync_resource_version(rv)
    gen = handle_watch(start or r.clock.now(), w, r.store, r.expected_type, r.expected_gvk, r.name,
                       r.type_description, set_rv, r.clock, errc if errc is not None else [])
    try:
        next(gen)
    except StopIteration:
        return gen, None, True
    except Exception as err:
        return gen, err, True
    return gen, None, False


def test_close_watch_channel_on_error(driven_clock):
    """Port of TestCloseWatchChannelOnError (reflector_test.go): an ERROR event stops the watch."""
    fw = watch.FakeWatcher()
    lw = ListWatch(list_func=lambda options: mk_list("1"), watch_func=lambda options: fw)
    r = new_reflector_with_options(lw, V1Pod(), new_store(meta_namespace_key_func), ReflectorOptions(clock=driven_clock))
    drive(r, driven_clock, lambda: watching(r))
    fw.error(mk_pod("bar"))  # not even a Status: the watch ends all the same
    drive(r, driven_clock, lambda: r.passes == 1)
    assert fw.is_stopped() and fw.result_chan().closed


@pytest.mark.threaded
def test_run_until():
    """Port of TestRunUntil (reflector_test.go): stopping run stops the watch and returns."""
    fw = watch.FakeWatcher()
    watch_opened = threading.Event()

    def watch_func(options):
        watch_opened.set()
        return fw

    r = new_reflector(ListWatch(list_func=lambda o: mk_list("1"), watch_func=watch_func), V1Pod(),
                      new_store(meta_namespace_key_func), 0)
    stop = threading.Event()
    thread = threading.Thread(target=r.run, args=(stop,), name="reflector/test")
    thread.start()
    assert watch_opened.wait(5)
    fw.add(mk_pod("bar"))
    stop.set()
    thread.join(5)
    assert not thread.is_alive()
    assert fw.result_chan().closed, "watch channel left open after stopping the reflector"


def test_reflector_resync_chan(driven_clock):
    """Port of TestReflectorResyncChan (reflector_test.go): the resync timer is due one period from now."""
    r = new_reflector_with_options(ListWatch(), V1Pod(), new_store(meta_namespace_key_func),
                                   ReflectorOptions(resync_period=0.001, clock=driven_clock))
    assert r.resync_chan() == driven_clock.now() + timedelta(milliseconds=1)
    r.resync_period = 0
    assert r.resync_chan() is None


def test_reflector_watch_stopped_before():
    """Port of TestReflectorWatchStoppedBefore (reflector_test.go): a stopped run calls neither list nor watch."""

    def fail(options):
        raise AssertionError("list or watch called unexpectedly")

    r = new_reflector(ListWatch(list_func=fail, watch_func=fail), V1Pod(), None, 0)
    stop = threading.Event()
    stop.set()
    r.run(stop)


@pytest.mark.threaded
def test_reflector_watch_stopped_after():
    """Port of TestReflectorWatchStoppedAfter (reflector_test.go): stopping run always stops the open watch."""
    watchers: list[watch.FakeWatcher] = []
    stop = threading.Event()

    def watch_func(options):
        threading.Timer(0.01, stop.set).start()
        watchers.append(watch.FakeWatcher())
        return watchers[-1]

    r = new_reflector(ListWatch(list_func=lambda o: mk_list("1"), watch_func=watch_func), V1Pod(),
                      new_store(meta_namespace_key_func), 0)
    r.run(stop)
    assert len(watchers) == 1 and watchers[0].is_stopped()


class MockWatcher:
    """Port of watch.MockWatcher, as the handleWatch tests use it: records calls to stop."""

    def __init__(self) -> None:
        self.chan = watch.ResultChan()
        self.stops = 0

    def stop(self) -> None:
        self.stops += 1

    def result_chan(self) -> watch.ResultChan:
        return self.chan


HANDLE_WATCH_CLOSED_CASES = [
    #            seconds open before the close   want error
    pytest.param(0.0, VeryShortWatchError("v1/pods"), id="ResultChanClosedBefore-very-short"),
    pytest.param(2.0, None, id="ResultChanClosedAfter-normal-close"),
]


@pytest.mark.parametrize("open_for, want", HANDLE_WATCH_CLOSED_CASES)
def test_reflector_handle_watch_result_chan_closed(driven_clock, open_for, want):
    """Port of TestReflectorHandleWatchResultChanClosedBefore/After (reflector_test.go).

    A stream that ends with no events within a second is a VeryShortWatchError
    (the pass ends, a relist follows); a later end is normal (a new watch
    follows). Either way the watcher is stopped once.
    """
    r = new_reflector_with_options(ListWatch(), V1Pod(), new_store(meta_namespace_key_func),
                                   ReflectorOptions(clock=driven_clock))
    w = MockWatcher()
    start = driven_clock.now()
    driven_clock.step(open_for)
    w.chan.close()
    _, err, finished = handle(r, w, start=start)
    assert finished and err == want
    assert w.stops == 1


def test_reflector_watch_handler(driven_clock):
    """Port of TestReflectorWatchHandler (reflector_test.go): events reach the store; the RV follows them."""
    s = new_store(meta_namespace_key_func)
    r = new_reflector_with_options(ListWatch(), V1Pod(), s, ReflectorOptions(clock=driven_clock))
    s.add(mk_pod("foo"))
    s.add(mk_pod("bar"))
    fw = watch.FakeWatcher()
    fw.add(V1Service(metadata=V1ObjectMeta(name="rejected")))  # wrong type: skipped
    fw.delete(mk_pod("foo"))
    fw.modify(mk_pod("bar", "55"))
    fw.add(mk_pod("baz", "32"))
    _, err, finished = handle(r, fw)
    assert err is None and not finished, "the watch stays open while events flow"

    for pod, exists in [(mk_pod("foo"), False), (mk_pod("rejected"), False),
                        (mk_pod("bar", "55"), True), (mk_pod("baz", "32"), True)]:
        obj, found = s.get(pod)
        assert found == exists, pod.metadata.name
        if found:
            assert obj.metadata.resource_version == pod.metadata.resource_version
    assert r.last_sync_resource_version() == "32"
    assert not fw.stopped


def test_reflector_list_and_watch(driven_clock):
    """Port of TestReflectorListAndWatch (reflector_test.go), case "UseWatchList disabled"."""
    watchers: list[watch.FakeWatcher] = []
    list_opts: list[ListOptions] = []
    watch_opts: list[ListOptions] = []

    def list_func(options):
        list_opts.append(options)
        return mk_list("1", mk_pod("foo", "1"))

    def watch_func(options):
        watch_opts.append(options)
        watchers.append(watch.FakeWatcher())
        return watchers[-1]

    s = TestingFIFO(meta_namespace_key_func)
    r = new_reflector_with_options(ListWatch(list_func=list_func, watch_func=watch_func), V1Pod(), s,
                                   ReflectorOptions(clock=driven_clock))
    drive(r, driven_clock, lambda: watching(r))
    fw = watchers[0]
    fw.modify(mk_pod("foo", "2"))
    for i, name in enumerate(["bar", "baz", "qux", "zoo"], start=3):
        fw.add(mk_pod(name, str(i)))
    drive(r, driven_clock, lambda: len(fw.result_chan()) == 0)

    got = [(p.metadata.name, p.metadata.resource_version) for p in (pop(s) for _ in range(5))]
    assert got == [("foo", "2"), ("bar", "3"), ("baz", "4"), ("qux", "5"), ("zoo", "6")]
    assert [(o.resource_version, o.limit, o.allow_watch_bookmarks) for o in list_opts] == [("0", 500, False)]
    assert [(o.resource_version, o.allow_watch_bookmarks) for o in watch_opts] == [("1", True)]
    assert len(watchers) == 1


LIST_AND_WATCH_WITH_ERRORS_CASES = [
    # Each row is one ListAndWatch pass over the same store (list, list error, events, watch error);
    # the next row's list states what the store must hold before it runs.
    (mk_list("1"), None, [(watch.ADDED, mk_pod("foo", "2")), (watch.ADDED, mk_pod("bar", "3"))], None),
    (mk_list("3", mk_pod("foo", "2"), mk_pod("bar", "3")), None,
     [(watch.DELETED, mk_pod("foo", "4")), (watch.ADDED, mk_pod("qux", "5"))], None),
    (None, RuntimeError("a list error"), [], None),
    (mk_list("5", mk_pod("bar", "3"), mk_pod("qux", "5")), None, [], RuntimeError("a watch error")),
    (mk_list("5", mk_pod("bar", "3"), mk_pod("qux", "5")), None, [(watch.ADDED, mk_pod("baz", "6"))], None),
    (mk_list("6", mk_pod("bar", "3"), mk_pod("qux", "5"), mk_pod("baz", "6")), None, [], None),
]


def test_reflector_list_and_watch_with_errors(driven_clock):
    """Port of TestReflectorListAndWatchWithErrors (reflector_test.go)."""
    s = TestingFIFO(meta_namespace_key_func)
    for line, (list_obj, list_err, events, watch_err) in enumerate(LIST_AND_WATCH_WITH_ERRORS_CASES):
        if list_obj is not None:
            current = {p.metadata.name: p.metadata.resource_version for p in s.list()}
            assert current == {p.metadata.name: p.metadata.resource_version for p in list_obj.items}, line
        fw = watch.FakeWatcher()

        def list_func(options, list_obj=list_obj, list_err=list_err):
            if list_err is not None:
                raise list_err
            return list_obj

        def watch_func(options, watch_err=watch_err, fw=fw, events=events):
            if watch_err is not None:
                raise watch_err
            for event_type, obj in events:
                fw.action(event_type, obj)
            return fw

        r = new_reflector_with_options(ListWatch(list_func=list_func, watch_func=watch_func), V1Pod(), s,
                                       ReflectorOptions(clock=driven_clock))
        rec = Recorder(r)
        drive(r, driven_clock, lambda: r.passes == 1 or (watcher_of(r) is fw.result_chan() and len(fw.result_chan()) == 0))
        if list_err is not None:
            assert rec.errors and rec.errors[0].__cause__ is list_err, line
        elif watch_err is not None:
            assert rec.errors == [watch_err], line
        else:
            assert rec.errors == [], line


def test_reflector_list_and_watch_init_conn_backoff(driven_clock):
    """Port of TestReflectorListAndWatchInitConnBackoff (reflector_test.go), the 5-failure case.

    Refused connections back off on the fake clock without a relist. Bounds
    are ours: the driver jumps exactly to each delay (1, 2, 4, 8, 16 ms, each
    jittered up to twice), where the upstream test steps its clock by fixed amounts.
    """
    conn_fails = [5]

    def watch_func(options):
        if conn_fails[0] > 0:
            conn_fails[0] -= 1
            raise ConnectionRefusedError()
        return watch.FakeWatcher()

    r = new_reflector_with_options(ListWatch(list_func=lambda o: mk_list("1"), watch_func=watch_func), V1Pod(),
                                   TestingFIFO(meta_namespace_key_func),
                                   ReflectorOptions(clock=driven_clock, rng=random.Random(3)))
    backoff = wait.Backoff(duration=0.001, cap=0.05, steps=1000, factor=2.0, jitter=1.0, rng=random.Random(3))
    r.delay_handler = backoff.delay_with_reset(driven_clock, 0.1)
    start = driven_clock.now()
    drive(r, driven_clock, lambda: watching(r))
    elapsed = driven_clock.since(start)
    assert 0.031 <= elapsed < 0.062
    assert r.passes == 0, "a refused watch must not end the pass"


def test_new_reflector_with_custom_backoff(driven_clock):
    """Port of TestNewReflectorWithCustomBackoff (reflector_test.go), "custom backoff": 10+20+40+80+100 ms."""
    conn_fails = [5]

    def watch_func(options):
        if conn_fails[0] > 0:
            conn_fails[0] -= 1
            raise ConnectionRefusedError()
        return watch.FakeWatcher()

    opts = ReflectorOptions(clock=driven_clock,
                            backoff=wait.Backoff(duration=0.01, factor=2.0, jitter=0, steps=100, cap=0.1))
    r = new_reflector_with_options(ListWatch(list_func=lambda o: mk_list("1"), watch_func=watch_func), V1Pod(),
                                   new_store(meta_namespace_key_func), opts)
    start = driven_clock.now()
    drive(r, driven_clock, lambda: watching(r))
    assert driven_clock.since(start) == pytest.approx(0.25)


class FakeDelayFunc:
    """Port of fakeDelayFunc (reflector_test.go): counts calls, never waits; notes the pass of each call."""

    def __init__(self, r: Reflector) -> None:
        self.r = r
        self.calls: list[int] = []

    def __call__(self) -> float:
        self.calls.append(self.r.passes)
        return 0.0


def test_backoff_on_too_many_requests(driven_clock):
    """Port of TestBackoffOnTooManyRequests (reflector_test.go): a 429, opening or watching, backs off."""
    too_many = errors.new_too_many_requests("too many requests", 1)
    calls = [0]

    def watch_func(options):
        calls[0] += 1
        if calls[0] == 1:
            raise too_many
        w = watch.FakeWatcher()
        if calls[0] == 2:
            w.error(too_many.status())
        else:
            w.stop()
        return w

    r = new_reflector_with_options(ListWatch(list_func=lambda o: mk_list("1"), watch_func=watch_func), V1Pod(),
                                   TestingFIFO(meta_namespace_key_func), ReflectorOptions(clock=driven_clock))
    fd = r.delay_handler = FakeDelayFunc(r)
    drive(r, driven_clock, lambda: r.passes == 1)
    assert fd.calls.count(0) == 2, "two watch backoffs within the pass"


def test_no_relist_on_too_many_requests(driven_clock):
    """Port of TestNoRelistOnTooManyRequests (reflector_test.go)."""
    too_many = errors.new_too_many_requests("too many requests", 1)
    counts = {"list": 0, "watch": 0}

    def list_func(options):
        counts["list"] += 1
        return mk_list("1")

    def watch_func(options):
        counts["watch"] += 1
        if counts["watch"] < 5:
            raise too_many
        w = watch.FakeWatcher()
        w.stop()
        return w

    r = new_reflector_with_options(ListWatch(list_func=list_func, watch_func=watch_func), V1Pod(),
                                   TestingFIFO(meta_namespace_key_func), ReflectorOptions(clock=driven_clock))
    r.delay_handler = FakeDelayFunc(r)
    drive(r, driven_clock, lambda: r.passes == 1)
    assert counts == {"list": 1, "watch": 5}


RETRY_INTERNAL_ERROR_CASES = [
    #            max internal duration  rewind at call  want retries
    pytest.param(0.0, 0, 0, id="retries off"),
    pytest.param(30.0, 0, 31, id="retries on, all calls fail"),
    pytest.param(30.0, 10, 40, id="retries on, one call successful"),
]


@pytest.mark.parametrize("max_internal_duration, rewind_time, want_retries", RETRY_INTERNAL_ERROR_CASES)
def test_retry_internal_error(driven_clock, max_internal_duration, rewind_time, want_retries):
    """Port of TestRetryInternalError (reflector_test.go): 500s re-watch at once, for a while."""
    internal = errors.new_internal_error("etcdserver: no leader")
    counter = [0]

    def watch_func(options):
        counter[0] += 1
        if counter[0] == rewind_time:
            driven_clock.step(60)  # a long pause: the next error starts a new streak
        driven_clock.step(1)
        w = watch.FakeWatcher()
        w.error(internal.status())
        return w

    r = new_reflector_with_options(ListWatch(list_func=lambda o: mk_list("1"), watch_func=watch_func), V1Pod(),
                                   TestingFIFO(meta_namespace_key_func), ReflectorOptions(clock=driven_clock))
    r.delay_handler = FakeDelayFunc(r)
    r.max_internal_error_retry_duration = max_internal_duration
    drive(r, driven_clock, lambda: r.passes == 1)
    assert counter[0] - 1 == want_retries


class FakeCustomStore:
    """Port of FakeCustomStore (tools/cache/fake_custom_store.go), reduced to what the tests call."""

    def __init__(self, resync_func) -> None:
        self.resync_func = resync_func

    def add(self, obj): pass
    def update(self, obj): pass
    def delete(self, obj): pass
    def replace(self, list_, resource_version): pass

    def resync(self):
        self.resync_func()


def test_reflector_resync(driven_clock):
    """Port of TestReflectorResync (reflector_test.go): a failing resync ends the pass after the 2nd resync."""
    iteration = [0]

    def resync():
        iteration[0] += 1
        if iteration[0] == 2:
            raise RuntimeError("expected resync reached")

    lw = ListWatch(list_func=lambda o: mk_list("0"), watch_func=lambda o: watch.FakeWatcher())
    r = new_reflector_with_options(lw, V1Pod(), FakeCustomStore(resync),
                                   ReflectorOptions(resync_period=0.001, clock=driven_clock))
    rec = Recorder(r)
    drive(r, driven_clock, lambda: r.passes == 1)
    assert iteration[0] == 2
    assert rec.errors == [], "a resync error is not reported as a list-and-watch error"


def paged_list_func(limit_expected: int, watch_started: list):
    """Serve 10 pods in pages of 4 at RV 10, as the paging tests' ListFunc does."""
    items = pods(10)
    pages = {"": (items[0:4], "C1"), "C1": (items[4:8], "C2"), "C2": (items[8:10], "")}

    def list_func(options):
        assert options.limit == limit_expected
        chunk, next_token = pages[options.continue_]
        return mk_list("10", *chunk, continue_=next_token)

    return list_func


def stop_at_first_watch(calls: list):
    def watch_func(options):
        calls.append(options)
        return watch.FakeWatcher()
    return watch_func


def test_reflector_watch_list_page_size(driven_clock):
    """Port of TestReflectorWatchListPageSize (reflector_test.go): lists come in pages of watch_list_page_size."""
    s = new_store(meta_namespace_key_func)
    watches: list = []
    lw = ListWatch(list_func=paged_list_func(4, watches), watch_func=stop_at_first_watch(watches))
    r = new_reflector_with_options(lw, V1Pod(), s, ReflectorOptions(clock=driven_clock))
    r.set_last_sync_resource_version("10")  # paging even for a not-consistent read
    r.watch_list_page_size = 4
    drive(r, driven_clock, lambda: len(watches) == 1)
    assert len(s.list()) == 10


def test_reflector_not_paginating_not_consistent_reads(driven_clock):
    """Port of TestReflectorNotPaginatingNotConsistentReads (reflector_test.go): RV "10" lists unpaged."""
    s = new_store(meta_namespace_key_func)
    watches: list = []

    def list_func(options):
        assert (options.resource_version, options.limit) == ("10", 0)
        return mk_list("10", *pods(10))

    r = new_reflector_with_options(ListWatch(list_func=list_func, watch_func=stop_at_first_watch(watches)),
                                   V1Pod(), s, ReflectorOptions(clock=driven_clock))
    r.set_last_sync_resource_version("10")
    drive(r, driven_clock, lambda: len(watches) == 1)
    assert len(s.list()) == 10


def end_pass(r: Reflector, clock: FakeClock, watches: list, want_watches: int) -> None:
    """Close the open watch at once (a very short watch ends the pass) and drive to the next watch."""
    r.blocked_on.close()
    drive(r, clock, lambda: len(watches) == want_watches)


def test_reflector_paginating_non_consistent_reads_if_watch_cache_disabled(driven_clock):
    """Port of TestReflectorPaginatingNonConsistentReadsIfWatchCacheDisabled (reflector_test.go)."""
    s = new_store(meta_namespace_key_func)
    watches: list = []
    lw = ListWatch(list_func=paged_list_func(500, watches), watch_func=stop_at_first_watch(watches))
    r = new_reflector_with_options(lw, V1Pod(), s, ReflectorOptions(clock=driven_clock))
    drive(r, driven_clock, lambda: len(watches) == 1)
    assert len(s.list()) == 10 and r.paginated_result
    end_pass(r, driven_clock, watches, 2)  # the relist at RV 10 keeps the default page size
    assert len(s.list()) == 10


def rv_recording_lw(responses, watches: list, rvs: list) -> ListWatch:
    """A ListWatch whose list answers by resourceVersion from `responses` (a value, or an error to raise)."""

    def list_func(options):
        rvs.append(options.resource_version)
        answer = responses(options)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    return ListWatch(list_func=list_func, watch_func=stop_at_first_watch(watches))


def test_reflector_resync_with_resource_version(driven_clock):
    """Port of TestReflectorResyncWithResourceVersion (reflector_test.go): relists never go back in time."""
    s, watches, rvs = new_store(meta_namespace_key_func), [], []
    answers = {"0": mk_list("10", *pods(4)), "10": mk_list("11", *pods(8))}
    r = new_reflector_with_options(rv_recording_lw(lambda o: answers[o.resource_version], watches, rvs), V1Pod(), s,
                                   ReflectorOptions(clock=driven_clock))
    drive(r, driven_clock, lambda: len(watches) == 1)
    assert len(s.list()) == 4
    end_pass(r, driven_clock, watches, 2)
    assert len(s.list()) == 8
    assert rvs == ["0", "10"]


def test_reflector_expired_exact_resource_version(driven_clock):
    """Port of TestReflectorExpiredExactResourceVersion (reflector_test.go): an expired RV is retried as ""."""
    s, watches, rvs = new_store(meta_namespace_key_func), [], []
    answers = {"0": mk_list("10", *pods(4)),
               "10": errors.new_resource_expired("The resourceVersion for the provided watch is too old."),
               "": mk_list("11", *pods(8))}
    r = new_reflector_with_options(rv_recording_lw(lambda o: answers[o.resource_version], watches, rvs), V1Pod(), s,
                                   ReflectorOptions(clock=driven_clock))
    drive(r, driven_clock, lambda: len(watches) == 1)
    end_pass(r, driven_clock, watches, 2)
    assert len(s.list()) == 8
    assert rvs == ["0", "10", ""]


def test_reflector_full_list_if_expired(driven_clock):
    """Port of TestReflectorFullListIfExpired (reflector_test.go): an expired continue token means one full list."""
    s, watches, rvs = new_store(meta_namespace_key_func), [], []
    items = pods(8)
    answers = {("0", "", 4): mk_list("10", *items[0:4]),
               ("10", "", 4): mk_list("11", *items[0:4], continue_="C1"),
               ("", "C1", 4): errors.new_resource_expired("The resourceVersion for the provided watch is too old."),
               ("10", "", 0): mk_list("11", *items)}
    lw = rv_recording_lw(lambda o: answers[(o.resource_version, o.continue_, o.limit)], watches, rvs)
    r = new_reflector_with_options(lw, V1Pod(), s, ReflectorOptions(clock=driven_clock))
    r.watch_list_page_size = 4
    drive(r, driven_clock, lambda: len(watches) == 1)
    assert len(s.list()) == 4
    end_pass(r, driven_clock, watches, 2)
    assert len(s.list()) == 8
    assert rvs == ["0", "10", "", "10"]


def too_large(message: str, cause: dict | None) -> errors.StatusError:
    err = errors.new_timeout_error(message, 1)
    if cause is not None:
        err.err_status["details"]["causes"] = [cause]
    return err


def test_reflector_full_list_if_too_large(driven_clock):
    """Port of TestReflectorFullListIfTooLarge (reflector_test.go): three forms of "too large", each relisted at ""."""
    s, watches, rvs = new_store(meta_namespace_key_func), [], []
    version = [30]

    def answer(options):
        rv = options.resource_version
        if rv == "0":
            return mk_list("20")
        if rv == "20":
            return too_large("too large resource version", {"reason": errors.CAUSE_TYPE_RESOURCE_VERSION_TOO_LARGE})
        if rv == "30":
            return too_large("too large resource version", {"message": "Too large resource version"})
        if rv == "40":
            return too_large("Too large resource version", None)
        assert rv == ""
        version[0] += 10
        return mk_list(str(version[0] - 10))

    r = new_reflector_with_options(rv_recording_lw(answer, watches, rvs), V1Pod(), s,
                                   ReflectorOptions(clock=driven_clock))
    drive(r, driven_clock, lambda: len(watches) == 1)
    for i in range(2, 5):
        end_pass(r, driven_clock, watches, i)
    assert rvs == ["0", "20", "", "30", "", "40", ""]


TOO_LARGE_CASES = [
    pytest.param(too_large("x", {"reason": errors.CAUSE_TYPE_RESOURCE_VERSION_TOO_LARGE}), True, id="cause-type"),
    pytest.param(too_large("x", {"message": "Too large resource version"}), True, id="cause-message-1.17"),
    pytest.param(too_large("Too large resource version", None), True, id="status-message-before-1.17"),
    pytest.param(errors.new_timeout_error("slow", 1), False, id="other-timeout"),
    pytest.param(RuntimeError("Too large resource version"), False, id="not-a-status-error"),
]


@pytest.mark.parametrize("err, want", TOO_LARGE_CASES)
def test_is_too_large_resource_version_error(err, want):
    assert is_too_large_resource_version_error(err) == want


UNSTRUCTURED_WITH_GVK = {"apiVersion": "mygroup/v1", "kind": "MyKind"}

TYPE_DESCRIPTION_CASES = [
    pytest.param(None, DEFAULT_EXPECTED_TYPE_NAME, id="Nil type"),
    pytest.param(V1Pod(), "V1Pod", id="Normal type"),
    pytest.param({}, "dict", id="Unstructured type without GVK"),
    pytest.param(UNSTRUCTURED_WITH_GVK, "mygroup/v1, Kind=MyKind", id="Unstructured type with GVK"),
]


@pytest.mark.parametrize("input_type, want", TYPE_DESCRIPTION_CASES)
def test_get_type_description_from_object(input_type, want):
    """Port of TestGetTypeDescriptionFromObject (reflector_test.go); Python class names replace Go types."""
    assert get_type_description_from_object(input_type) == want


EXPECTED_GVK_CASES = [
    pytest.param(None, None, id="Nil type"),
    pytest.param(V1Pod(), None, id="Some non Unstructured type"),
    pytest.param({}, None, id="Unstructured type without GVK"),
    pytest.param(UNSTRUCTURED_WITH_GVK, GroupVersionKind("mygroup", "v1", "MyKind"), id="Unstructured type with GVK"),
]


@pytest.mark.parametrize("input_type, want", EXPECTED_GVK_CASES)
def test_get_expected_gvk_from_object(input_type, want):
    """Port of TestGetExpectedGVKFromObject (reflector_test.go)."""
    assert get_expected_gvk_from_object(input_type) == want


WATCH_TIMEOUT_CASES = [
    #            min watch timeout  expected min timeout seconds
    pytest.param(0.0, 5 * 60, id="no timeout"),
    pytest.param(1.0, 5 * 60, id="small timeout not honored"),
    pytest.param(30 * 60.0, 30 * 60, id="30m timeout"),
]


@pytest.mark.parametrize("min_watch_timeout, expected_min", WATCH_TIMEOUT_CASES)
def test_watch_timeout(driven_clock, min_watch_timeout, expected_min):
    """Port of TestWatchTimeout (reflector_test.go): watch timeouts are random in [min, 2*min]."""
    watches: list = []
    r = new_reflector_with_options(
        ListWatch(list_func=lambda o: mk_list("10"), watch_func=stop_at_first_watch(watches)), V1Pod(),
        new_store(meta_namespace_key_func),
        ReflectorOptions(min_watch_timeout=min_watch_timeout, clock=driven_clock, rng=random.Random(5)))
    drive(r, driven_clock, lambda: len(watches) == 1)
    assert expected_min <= watches[0].timeout_seconds <= 2 * expected_min


def test_watch_timeouts_repeat_with_the_same_seed(driven_clock):
    # Determinism: the same seed draws the same timeouts.
    def timeouts(seed):
        watches: list = []
        r = new_reflector_with_options(
            ListWatch(list_func=lambda o: mk_list("10"), watch_func=stop_at_first_watch(watches)), V1Pod(),
            new_store(meta_namespace_key_func), ReflectorOptions(clock=driven_clock, rng=random.Random(seed)))
        drive(r, driven_clock, lambda: len(watches) == 1)
        for i in range(2, 4):
            end_pass(r, driven_clock, watches, i)
        return [w.timeout_seconds for w in watches]

    assert timeouts(11) == timeouts(11)


class StoreWithRV:
    """Port of storeWithRV (reflector_test.go): a store that records update_resource_version calls."""

    def __init__(self) -> None:
        self.store = new_store(meta_namespace_key_func)
        self.resource_versions: list[str] = []

    def add(self, obj): self.store.add(obj)
    def update(self, obj): self.store.update(obj)
    def delete(self, obj): self.store.delete(obj)
    def replace(self, items, rv): self.store.replace(items, rv)
    def resync(self): pass

    def update_resource_version(self, resource_version: str) -> None:
        self.resource_versions.append(resource_version)


def test_reflector_resource_version_update(driven_clock):
    """Port of TestReflectorResourceVersionUpdate (reflector_test.go): every event, bookmarks too, moves the RV."""
    s = StoreWithRV()
    fw = watch.FakeWatcher()
    r = new_reflector_with_options(ListWatch(list_func=lambda o: mk_list("10"), watch_func=lambda o: fw), V1Pod(), s,
                                   ReflectorOptions(clock=driven_clock))
    drive(r, driven_clock, lambda: watching(r))
    fw.action(watch.ADDED, mk_pod("a", "10"))
    fw.action(watch.MODIFIED, mk_pod("a", "20"))
    fw.action(watch.BOOKMARK, mk_pod("", "30"))
    fw.action(watch.DELETED, mk_pod("a", "40"))
    r.step()
    assert s.resource_versions == ["10", "20", "30", "40"]


def test_bookmark_advances_resource_version_and_reaches_the_fifo(driven_clock):
    # A BOOKMARK changes nothing in the cache but moves the watch position, and the
    # atomic RealFIFO passes it on so the client store learns how far it is.
    fifo = new_real_fifo_with_options(RealFIFOOptions(atomic_events=True, emit_delta_type_bookmark=True))
    fw = watch.FakeWatcher()
    watches: list = []

    def watch_func(options):
        watches.append(options)
        return fw

    r = new_reflector_with_options(ListWatch(list_func=lambda o: mk_list("10"), watch_func=watch_func), V1Pod(),
                                   fifo, ReflectorOptions(clock=driven_clock))
    drive(r, driven_clock, lambda: watching(r))
    fw.action(watch.BOOKMARK, mk_pod("", "42"))
    r.step()
    assert r.last_sync_resource_version() == "42"
    assert [d.type for d in fifo.items] == ["ReplacedAll", BOOKMARK]
    fw.stop()  # a normal close (the clock moved on): the next watch starts at the bookmark
    driven_clock.step(5)
    drive(r, driven_clock, lambda: len(watches) == 2)
    assert watches[1].resource_version == "42"


def test_synthetic_added_events_do_not_move_the_resource_version(driven_clock):
    # A watch from "" or "0" starts with ADDED events in no RV order; only later events move the RV.
    r = new_reflector_with_options(ListWatch(), V1Pod(), new_store(meta_namespace_key_func),
                                   ReflectorOptions(clock=driven_clock))
    fw = watch.FakeWatcher()
    fw.add(mk_pod("b", "9"))
    fw.add(mk_pod("a", "7"))
    gen, _, _ = handle(r, fw, propagate=False)
    assert r.last_sync_resource_version() == ""
    fw.modify(mk_pod("a", "11"))
    next(gen)
    assert r.last_sync_resource_version() == "11"


def test_expired_watch_relists_at_the_last_resource_version(driven_clock):
    # A 410 while watching ends the pass without reporting an error; the relist asks
    # for "at least" the last version seen, not for a fresh quorum read.
    answers = {"0": mk_list("5", mk_pod("a", "5")), "5": mk_list("9", mk_pod("b", "9"))}
    watches, rvs = [], []
    s = new_store(meta_namespace_key_func)
    r = new_reflector_with_options(rv_recording_lw(lambda o: answers[o.resource_version], watches, rvs), V1Pod(), s,
                                   ReflectorOptions(clock=driven_clock))
    rec = Recorder(r)
    drive(r, driven_clock, lambda: len(watches) == 1)
    r.blocked_on.put(watch.Event(watch.ERROR, errors.new_resource_expired("too old resource version: 5 (7)").status()))
    drive(r, driven_clock, lambda: len(watches) == 2)
    assert rvs == ["0", "5"]
    assert [p.metadata.name for p in s.list()] == ["b"]
    assert rec.errors == []


def test_failed_list_backs_off_then_relists(driven_clock):
    # A failed list is reported, then retried after a delay on the clock (never at once).
    calls = []

    def list_func(options):
        calls.append(driven_clock.now())
        if len(calls) == 1:
            raise errors.new_service_unavailable("try later")
        return mk_list("3")

    r = new_reflector_with_options(ListWatch(list_func=list_func, watch_func=lambda o: watch.FakeWatcher()), V1Pod(),
                                   new_store(meta_namespace_key_func),
                                   ReflectorOptions(clock=driven_clock, rng=random.Random(1)))
    rec = Recorder(r)
    drive(r, driven_clock, lambda: watching(r))
    assert len(rec.errors) == 1 and errors.is_service_unavailable(rec.errors[0])
    assert 0.8 <= (calls[1] - calls[0]).total_seconds() < 1.6  # 0.8 s, jittered by up to 100 %


TABLE_CASES = [
    pytest.param({"apiVersion": "meta.k8s.io/v1", "kind": "Table"}, True, id="meta.k8s.io/v1 Table"),
    pytest.param({"apiVersion": "meta.k8s.io/v1beta1", "kind": "Table"}, True, id="meta.k8s.io/v1beta1 Table"),
    pytest.param({"apiVersion": "mygroup/v1", "kind": "Table"}, False, id="Table of another group"),
    pytest.param({"apiVersion": "v1", "kind": "Pod"}, False, id="not a Table"),
    pytest.param(V1Pod(), False, id="a typed object"),
]


@pytest.mark.parametrize("obj, want", TABLE_CASES)
def test_is_unsupported_table_object(obj, want):
    """Port of TestIsUnsupportedTableObject (reflector_test.go)."""
    assert is_unsupported_table_object(obj) == want


def refused_by_urllib3() -> BaseException:
    """The error urllib3 (under the REST transport) raises for a connection to a closed port."""
    import socket

    import urllib3
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound, never listening: connections are refused
        try:
            urllib3.PoolManager().request("GET", f"http://127.0.0.1:{port}/", retries=urllib3.Retry(0))
        except urllib3.exceptions.MaxRetryError as err:
            return err
    raise AssertionError("the connection was not refused")


@pytest.mark.parametrize("make_err, want", [
    pytest.param(lambda: ConnectionRefusedError(111, "refused"), True, id="a refused connection"),
    pytest.param(refused_by_urllib3, True, id="urllib3's MaxRetryError caused by a refused connection"),
    pytest.param(lambda: RuntimeError("wrapped").with_traceback(None), False, id="another error"),
    pytest.param(lambda: errors.new_too_many_requests("busy", 1), True, id="429"),
    pytest.param(lambda: errors.new_internal_error(RuntimeError("boom")), False, id="500"),
])
def test_is_watch_error_retriable(make_err, want):
    """isWatchErrorRetriable (reflector.go): a refused connection anywhere in the cause chain, or a 429."""
    from minikcm.tools.cache.reflector import is_watch_error_retriable
    assert is_watch_error_retriable(make_err()) is want


def test_refused_rest_watch_retries_the_watch_without_a_relist(driven_clock):
    # Go retries the watch (after a backoff) when the server refuses connections; it does not relist.
    lists, watches = [], []
    refused = refused_by_urllib3()

    def watch_func(options):
        watches.append(options)
        if len(watches) == 1:
            raise refused
        return watch.FakeWatcher()

    r = new_reflector_with_options(ListWatch(list_func=lambda o: lists.append(o) or mk_list("7"),
                                             watch_func=watch_func), V1Pod(), new_store(meta_namespace_key_func),
                                   ReflectorOptions(clock=driven_clock))
    drive(r, driven_clock, lambda: len(watches) == 2)
    assert len(lists) == 1 and r.passes == 0
    assert [o.resource_version for o in watches] == ["7", "7"]
