"""Tests for minikcm.apiserver.server: the contract surface, steps, atomicity under threads."""

from __future__ import annotations

import inspect
import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minikcm.apimachinery import errors
from minikcm.apiserver.server import APIServer
from minikcm.clock import EPOCH, FakeClock
from minikcm.driver import Driver

from .builders import deployment, drain, pod


@pytest.fixture
def fake_clock() -> FakeClock:
    """This module's server (conftest's `server`) runs under a Driver, which needs a driven clock."""
    return FakeClock(EPOCH, driven=True)

CONTRACT = {
    "create": ["resource", "namespace", "obj", "subresource", "dry_run"],
    "get": ["resource", "namespace", "name", "subresource"],
    "list": ["resource", "namespace", "label_selector", "field_selector", "resource_version",
             "limit", "continue_", "resource_version_match", "send_initial_events"],
    "update": ["resource", "namespace", "obj", "subresource", "dry_run"],
    "patch": ["resource", "namespace", "name", "patch_type", "body", "subresource", "dry_run",
              "field_manager", "force"],
    "delete": ["resource", "namespace", "name", "preconditions", "propagation_policy",
               "grace_period_seconds", "dry_run"],
    "watch": ["resource", "namespace", "resource_version", "label_selector", "field_selector",
              "allow_bookmarks", "timeout_seconds", "resource_version_match", "send_initial_events"],
}


@pytest.mark.parametrize("method, params", [pytest.param(m, p, id=m) for m, p in CONTRACT.items()])
def test_methods_match_the_contract(method, params):
    """dev/CONTRACTS.md, "API server, in process": names and order of every parameter."""
    got = list(inspect.signature(getattr(APIServer, method)).parameters)[1:]
    assert got == params


def test_unknown_resource_is_404(server):
    with pytest.raises(errors.StatusError) as info:
        server.list("widgets", None)
    assert errors.is_not_found(info.value)


def test_namespace_from_the_object_when_none_is_given(server):
    assert server.create("pods", None, pod())["metadata"]["namespace"] == "default"


def test_preconditions_accept_the_options_dataclass(server):
    from minikcm.apimachinery.meta import Preconditions

    server.create("deployments", "default", deployment())
    with pytest.raises(errors.StatusError):
        server.delete("deployments", "default", "web", preconditions=Preconditions(uid="nope"))


def test_steps_expire_watches_under_the_driver(server, fake_clock):
    w = server.watch("pods", "default", timeout_seconds=90, allow_bookmarks=True,
                     send_initial_events=False, resource_version_match="NotOlderThan")
    driver = Driver(fake_clock, server.steps())
    driver.run_until_idle()
    assert w.result_chan().closed
    assert fake_clock.now().isoformat() == "2026-01-01T00:01:30+00:00"
    # The bookmark due after a minute went out on the way to the timeout.
    assert [t for t, _ in drain(w)] == ["BOOKMARK"]
    assert [e.step for e in driver.trace] == ["apiserver/bookmarks", "apiserver/watch-timeouts"]


def test_bookmarks_alone_do_not_keep_a_run_going(server, fake_clock):
    server.watch("pods", "default", allow_bookmarks=True)
    Driver(fake_clock, server.steps()).run_until_idle()  # settles without moving the clock
    assert fake_clock.now().isoformat() == "2026-01-01T00:00:00+00:00"


def test_run_calls_the_steps_until_stopped(server):
    stop = threading.Event()
    stop.set()
    server.run(stop)  # returns at once when already stopped


def test_same_seed_same_store(fake_clock):
    def build() -> dict:
        s = APIServer(clock=FakeClock(fake_clock.now()), rng=random.Random(5))
        s.create("deployments", "default", deployment())
        s.create("pods", "default", {"metadata": {"generateName": "web-"}, "spec": pod()["spec"]})
        return s.storage.dump()

    assert build() == build()


@pytest.mark.threaded
def test_exactly_one_of_two_conflicting_updates_wins(server):
    base = server.create("deployments", "default", deployment())
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def writer(replicas: int) -> None:
        obj = dict(base, spec={**base["spec"], "replicas": replicas})
        barrier.wait()
        try:
            server.update("deployments", "default", obj)
            outcomes.append("ok")
        except errors.StatusError as err:
            outcomes.append("conflict" if errors.is_conflict(err) else str(err))

    threads = [threading.Thread(target=writer, args=(r,)) for r in (3, 4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert sorted(outcomes) == ["conflict", "ok"]
    assert server.get("deployments", "default", "web")["metadata"]["generation"] == 2


@pytest.mark.threaded
def test_retrying_writers_lose_no_increment(server):
    server.create("deployments", "default", deployment(replicas=0))
    watcher = server.watch("deployments", "default", resource_version="0")

    def bump(times: int) -> None:
        for _ in range(times):
            while True:
                d = server.get("deployments", "default", "web")
                d["spec"]["replicas"] += 1
                try:
                    server.update("deployments", "default", d)
                    break
                except errors.StatusError as err:
                    assert errors.is_conflict(err)

    threads = [threading.Thread(target=bump, args=(25,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert server.get("deployments", "default", "web")["spec"]["replicas"] == 100
    events = drain(watcher)
    assert [o["spec"]["replicas"] for _, o in events] == list(range(101))


# --- every refused write leaves the store exactly as it was -----------------------------

OPS = st.sampled_from([
    ("create", "deployments", "ok"), ("create", "deployments", "bad-replicas"),
    ("create", "pods", "missing-namespace"), ("update", "deployments", "stale"),
    ("update", "deployments", "ok"), ("update", "deployments", "bad-replicas"),
    ("delete", "deployments", "bad-uid"), ("delete", "deployments", "ok"),
    ("patch", "deployments", "bad-json-patch"), ("patch", "deployments", "ok"),
    ("create", "deployments", "dry-run"), ("delete", "pods", "missing"),
])


def _apply(server: APIServer, op: tuple[str, str, str], name: str) -> None:
    verb, resource, how = op
    if verb == "create":
        if resource == "pods":
            server.create("pods", "nope", pod(namespace="nope"))
        else:
            server.create("deployments", "default", deployment(name, replicas=-1 if how == "bad-replicas" else 1),
                          dry_run=how == "dry-run")
    elif verb == "update":
        d = server.get("deployments", "default", name)
        if how == "stale":
            d["metadata"]["resourceVersion"] = "1"
        d["spec"]["replicas"] = -1 if how == "bad-replicas" else d["spec"]["replicas"] + 1
        server.update("deployments", "default", d)
    elif verb == "delete":
        pre = {"uid": "nope"} if how == "bad-uid" else None
        server.delete(resource, "default", name, preconditions=pre)
    else:
        body = ('[{"op":"remove","path":"/nope"}]' if how == "bad-json-patch"
                else '[{"op":"replace","path":"/spec/replicas","value":2}]')
        server.patch("deployments", "default", name, "application/json-patch+json", body)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(OPS, st.sampled_from(["a", "b"])), min_size=1, max_size=12))
def test_refused_writes_change_nothing(ops):
    server = APIServer(clock=FakeClock(), rng=random.Random(0))
    watcher = server.watch("deployments", None)
    for op, name in ops:
        before = server.storage.dump()
        events_before = len(watcher.result_chan())
        try:
            _apply(server, op, name)
        except errors.StatusError:
            assert server.storage.dump() == before, op
            assert len(watcher.result_chan()) == events_before, op
        else:
            if op[2] == "dry-run":
                assert server.storage.dump() == before


def test_cluster_scoped_resources_ignore_the_namespace(server):
    assert len(server.list("namespaces", "default")["items"]) == 4
    assert server.get("namespaces", "default", "kube-system")["metadata"]["name"] == "kube-system"
