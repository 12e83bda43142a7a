"""Integration: a shared informer over the embedded API server, through the in-process clientset.

The informer must see creates, updates and deletes in the order they
happened, survive a forced 410 Gone (its watch falls out of the server's
history window) by relisting, end with exactly the server's state, and
its listers must answer from the cache without calling the server.
The deterministic scenario runs under the driver on a FakeClock; its
threaded twin runs the same story on real threads.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from typing import Any

import pytest

from minikcm.apimachinery import labels
from minikcm.apimachinery.meta import DeleteOptions
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.client.testing import Fake
from minikcm.clock import FakeClock
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.driver import Driver
from minikcm.tools.cache.controller import deletion_handling_meta_namespace_key_func
from minikcm.tools.cache.delta_fifo import DeletedFinalStateUnknown

HISTORY_WINDOW = 4
"""Events the server keeps per resource: small, so a watch that pauses falls out of it."""


class StateTracker:
    """A handler that rebuilds the server's state from its notifications, refusing impossible sequences.

    An add for a key it already holds, or an update or delete for one it does
    not, means the informer lost or duplicated something.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.state: dict[str, str] = {}  # key -> resourceVersion
        self.events: list[tuple[str, str]] = []
        self.problems: list[str] = []

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        key = deletion_handling_meta_namespace_key_func(obj)
        with self.lock:
            if key in self.state:
                self.problems.append(f"add of known {key}")
            self.state[key] = obj.metadata.resource_version
            self.events.append(("add", key))

    def on_update(self, old: Any, new_obj: Any) -> None:
        key = deletion_handling_meta_namespace_key_func(new_obj)
        with self.lock:
            if key not in self.state:
                self.problems.append(f"update of unknown {key}")
            self.state[key] = new_obj.metadata.resource_version
            if old.metadata.resource_version != new_obj.metadata.resource_version:
                self.events.append(("update", key))

    def on_delete(self, obj: Any) -> None:
        key = deletion_handling_meta_namespace_key_func(obj)
        with self.lock:
            if self.state.pop(key, None) is None:
                self.problems.append(f"delete of unknown {key}")
            kind = "delete-tombstone" if isinstance(obj, DeletedFinalStateUnknown) else "delete"
            self.events.append((kind, key))


def wire_pod(name: str, image: str = "nginx:1") -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"},
            "spec": {"containers": [{"name": "c", "image": image}]}}


def server_state(cs: InProcessClientset) -> dict[str, str]:
    return {f"default/{p.metadata.name}": p.metadata.resource_version
            for p in cs.core_v1().pods("default").list().items}


def cache_state(lister) -> dict[str, str]:
    return {f"default/{p.metadata.name}": p.metadata.resource_version
            for p in lister.pods("default").list(labels.everything())}


def update_image(cs: InProcessClientset, name: str, image: str) -> None:
    pod = cs.core_v1().pods("default").get(name)
    pod.spec.containers[0].image = image
    cs.core_v1().pods("default").update(pod)


def delete_now(cs: InProcessClientset, name: str) -> None:
    cs.core_v1().pods("default").delete(name, DeleteOptions(grace_period_seconds=0))


def first_story(cs: InProcessClientset) -> None:
    """Creates, an update and a delete: the handler must see them in this order."""
    cs.core_v1().pods("default").create(wire_pod("a"))
    cs.core_v1().pods("default").create(wire_pod("b"))
    update_image(cs, "a", "nginx:2")
    delete_now(cs, "b")


WATCH_TO_HANDLER = {"ADDED": "add", "MODIFIED": "update", "DELETED": "delete"}


def watch_from_now(cs: InProcessClientset):
    """A raw watch of the pods, to record what the server itself sends."""
    from minikcm.apimachinery.meta import ListOptions

    rv = cs.core_v1().pods("default").list().metadata.resource_version
    return cs.core_v1().pods("default").watch(ListOptions(resource_version=rv))


def drain(w) -> list[tuple[str, str]]:
    """The (handler event, key) sequence a watch carried so far."""
    out = []
    while len(w.result_chan()):
        e = w.result_chan().recv(timeout=0)
        out.append((WATCH_TO_HANDLER[e.type], f"default/{e.object.metadata.name}"))
    return out


def churn_past_history(cs: InProcessClientset) -> None:
    """More changes than the history window holds, while the informer is not watching."""
    for i in range(3):
        cs.core_v1().pods("default").create(wire_pod(f"c{i}"))
    update_image(cs, "a", "nginx:3")
    update_image(cs, "c1", "nginx:3")
    delete_now(cs, "c0")
    delete_now(cs, "a")


def list_calls(fake: Fake) -> int:
    return sum(1 for a in fake.actions() if a.verb == "list")


def test_informer_over_api_server_deterministic(caplog):
    clock = FakeClock(driven=True)
    server = APIServer(clock=clock, rng=random.Random(1), history_window=HISTORY_WINDOW)
    fake = Fake()  # records the informer's calls; no reactors, so every call reaches the server
    cs = InProcessClientset(server)  # the test's own writes and reads
    factory = new_shared_informer_factory_with_options(InProcessClientset(server, fake=fake), 0, clock=clock,
                                                       rng=random.Random(2))
    pods = factory.core().v1().pods()
    tracker = StateTracker()
    pods.informer().add_event_handler(tracker)
    factory.start(threading.Event())
    driver = Driver(clock, factory.steps() + server.steps())
    assert driver.run_until(pods.informer().has_synced, timeout=60)

    # Creates, updates and deletes arrive in the order the server sent them.
    raw = watch_from_now(cs)
    first_story(cs)
    assert driver.run_until(lambda: cache_state(pods.lister()) == server_state(cs), timeout=60)
    driver.run_for(1)
    sent = drain(raw)
    raw.stop()
    assert tracker.events == sent
    assert [e for e in sent if e[0] != "update" or e[1] == "default/a"] == [
        ("add", "default/a"), ("add", "default/b"), ("update", "default/a"), ("delete", "default/b")]

    # Forced 410: the watch ends, the server moves past its history window, the reflector's
    # next watch from the old resourceVersion gets Expired, and it must relist.
    reflector = pods.informer().controller.reflector
    assert list_calls(fake) == 1
    reflector.blocked_on.close()  # the reflector's open watch ends (its loop waits on that channel)
    churn_past_history(cs)
    with caplog.at_level(logging.DEBUG, logger="minikcm.tools.cache.reflector"):
        assert driver.run_until(lambda: cache_state(pods.lister()) == server_state(cs), timeout=60)
    driver.run_for(1)
    assert "too old resource version" in caplog.text, "the re-watch must have met 410 Expired"
    assert reflector.passes == 1 and list_calls(fake) == 2, driver.trace_text()
    assert tracker.problems == []
    assert tracker.state == server_state(cs) == cache_state(pods.lister())
    assert ("delete-tombstone", "default/a") in tracker.events, "a's deletion was only seen by the relist"

    # The cache keeps following live changes after the relist.
    cs.core_v1().pods("default").create(wire_pod("d"))
    driver.run_for(1)
    assert tracker.events[-1] == ("add", "default/d") and tracker.state == server_state(cs)

    # Listers answer from the cache: no call reaches the server.
    before = len(fake.actions())
    assert pods.lister().pods("default").get("d").metadata.name == "d"
    assert sorted(p.metadata.name for p in pods.lister().list(labels.everything())) == ["c1", "c2", "d"]
    assert len(fake.actions()) == before


def test_informer_trace_repeats_with_the_same_seeds():
    def one_run() -> list[str]:
        clock = FakeClock(driven=True)
        server = APIServer(clock=clock, rng=random.Random(1), history_window=HISTORY_WINDOW)
        cs = InProcessClientset(server)
        factory = new_shared_informer_factory_with_options(cs, 0, clock=clock, rng=random.Random(2))
        pods = factory.core().v1().pods()
        pods.informer().add_event_handler(StateTracker())
        factory.start(threading.Event())
        driver = Driver(clock, factory.steps() + server.steps())
        first_story(cs)
        driver.run_for(5)
        pods.informer().controller.reflector.blocked_on.close()
        churn_past_history(cs)
        driver.run_for(900)  # past a watch timeout too
        return [str(e) for e in driver.trace]

    assert one_run() == one_run()


@pytest.mark.threaded
def test_informer_over_api_server_threaded():
    server = APIServer(rng=random.Random(1), history_window=HISTORY_WINDOW)
    cs = InProcessClientset(server)
    factory = new_shared_informer_factory_with_options(cs, 0)
    pods = factory.core().v1().pods()
    tracker = StateTracker()
    pods.informer().add_event_handler(tracker)
    stop = threading.Event()
    factory.start(stop)
    try:
        assert factory.wait_for_cache_sync(stop) == {type(pods.informer().object_type): True}

        def settles() -> bool:
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                with tracker.lock:
                    if tracker.state == server_state(cs) == cache_state(pods.lister()):
                        return True
                time.sleep(0.01)
            return False

        raw = watch_from_now(cs)
        first_story(cs)
        assert settles()
        assert tracker.events == drain(raw)
        raw.stop()

        reflector = pods.informer().controller.reflector
        w = reflector.blocked_on
        if hasattr(w, "close"):
            w.close()  # from another thread: the reflector may or may not relist; either way it settles
        churn_past_history(cs)
        assert settles()
        assert tracker.problems == []
    finally:
        stop.set()
        factory.shutdown()
