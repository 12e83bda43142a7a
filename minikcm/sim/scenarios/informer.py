"""No upstream twin. Chapter P2 scenario: `informer-relist`.

A shared informer on the pods of namespace `default` (minikcm.tools.cache:
reflector -> RealFIFO -> indexer -> handler) over an embedded API server that
keeps a short watch history (4 events per resource) and closes a watcher that
falls more than 5 events behind. The script:

1. t=0: two pods exist; the informer lists them and starts watching.
2. t=1: a pod is created, one relabelled, one deleted (an unscheduled pod goes
   at once: MODIFIED with a deletionTimestamp, then DELETED); the watch
   delivers each event and the handler sees each change.
3. t=2: the informer's steps pause (think of a process stopped in a debugger,
   or a long stop-the-world pause) while 12 more writes happen. The server
   closes the lagging watch with 429 Too Many Requests when a 6th event finds
   its buffer of 5 still full.
4. t=3: the informer resumes. It handles the 5 events, sees the 429, backs off
   and watches again from the last resourceVersion it saw; by then that version
   has left the history, so the server answers 410 Gone ("too old resource
   version"). The reflector ends its list-and-watch pass and, after a backoff,
   lists again: a relist. The store's replace turns the differences into
   handler events, and the cache equals the server's list again.

Series: `cache size`, `server pods`, `resourceVersion` (the informer's last
synced version), `handler events` (calls to the handler so far), `lists`.
The reflector's own log lines appear in the trace as `log/reflector`.

The lister-watcher says it cannot stream a watch-list, so the reflector takes
the list-then-watch path (WatchListClient's fallback).

Start reading at: InformerRelist.play, then Reflector.watch (the 410 branch).
Good breakpoints: Reflector.watch, Reflector.list, SharedIndexInformerImpl.handle_deltas.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kubernetes.client import V1Pod

from minikcm.apimachinery import watch
from minikcm.apimachinery.meta import ListOptions
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.driver import Driver
from minikcm.sim.scenarios.base import Run
from minikcm.tools.cache.controller import ResourceEventHandlerFuncs
from minikcm.tools.cache.listwatch import ListWatch, ListWatcherWithWatchListSemanticsWrapper
from minikcm.tools.cache.reflector import Reflector, is_expired_error
from minikcm.tools.cache.shared_informer import (
    SharedIndexInformerImpl,
    SharedIndexInformerOptions,
    new_shared_index_informer_with_options,
)

NAMESPACE = "default"
HISTORY_WINDOW = 4
"""Events per resource the server keeps for watches that resume from a resourceVersion."""
WATCHER_BUFFER = 5
"""Undelivered events after which the server closes a watch as too slow (429)."""
PAUSED_WRITES = 12
"""Writes made while the informer is paused: more than the buffer and the history window."""


def pod(name: str, labels: dict[str, str] | None = None) -> dict[str, Any]:
    """A minimal pod as the API takes it (wire format)."""
    return {"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": NAMESPACE, "labels": labels or {"app": "web"}},
            "spec": {"containers": [{"name": "app", "image": "nginx:1.27"}]}}


class InformerRelist:
    """The `informer-relist` world and its script (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        self.clock = FakeClock(EPOCH, driven=True)
        self.server = APIServer(clock=self.clock, rng=random.Random(rng.getrandbits(64)),
                                history_window=HISTORY_WINDOW, watcher_buffer=WATCHER_BUFFER)
        self.client = InProcessClientset(self.server)
        self.driver = Driver(self.clock)
        self.run = Run("informer-relist", seed, self.clock, self.driver, self.play)
        self.pods = self.client.core_v1().pods(NAMESPACE)
        # Go: cache.ListWatch with our own two functions, which also tell the trace what they ask. It says it
        # cannot serve a watch-list, so this story shows the list-then-watch path (P2's fallback section).
        self.lister_watcher = ListWatcherWithWatchListSemanticsWrapper(
            ListWatch(list_func=self.list_pods, watch_func=self.watch_pods), True)
        self.informer: SharedIndexInformerImpl = new_shared_index_informer_with_options(
            self.lister_watcher, V1Pod(),
            SharedIndexInformerOptions(clock=self.clock, rng=random.Random(rng.getrandbits(64))))
        self.handler_events: list[str] = []
        self.lists = 0
        self.relists: list[str] = []
        """Why each relist happened ("410 Gone", or the error's text), in order."""
        self.reflector: Reflector | None = None  # made when the informer starts
        self._passes = 0
        self.informer.add_event_handler(ResourceEventHandlerFuncs(self.on_add, self.on_update, self.on_delete))
        self.run.log_to_trace("minikcm.tools.cache.reflector")

        sampler = self.run.sampler
        sampler.watch("cache size", self.cache_size)
        sampler.watch("server pods", self.server_pods)
        sampler.watch("resourceVersion", self.resource_version)
        sampler.watch("handler events", self.handler_event_count)
        sampler.watch("lists", self.list_count)
        self.driver.observers.append(self.observe)
        self.run.objects.update(server=self.server, client=self.client, informer=self.informer, scenario=self)

    # -- the script --------------------------------------------------------------------

    def play(self) -> None:
        """The four phases of the module docstring."""
        self.create_pod("web-0")
        self.create_pod("web-1")
        self.start_informer()
        self.driver.run_for(1.0)

        self.run.say("create web-2, relabel web-0, delete web-1")
        self.write(self.create_pod, "web-2")
        self.write(self.relabel_pod, "web-0")
        self.write(self.delete_pod, "web-1")
        self.driver.run_for(1.0)

        self.run.say(f"pause the informer; {PAUSED_WRITES} writes happen meanwhile")
        self.run.pause("reflector/")
        self.run.pause("controller/")
        self.run.pause("informer/")
        for i in range(PAUSED_WRITES // 2):
            self.write(self.create_pod, f"batch-{i}")
            self.write(self.relabel_pod, f"batch-{i}")
        self.driver.run_for(1.0)

        self.run.say("resume the informer")
        self.run.resume()
        if not self.driver.run_until(self.relisted_and_caught_up, timeout=60.0):
            raise RuntimeError("the informer did not relist and catch up within 60 s")
        self.run.event(f"after {self.lists} lists the cache equals the server's list: {self.cache_size()} pods")
        self.driver.run_for(2.0)

    def start_informer(self) -> None:
        """Start the informer without threads: its steps join the driver, after the server's."""
        self.driver.add_all(self.server.steps())
        self.driver.add_all(self.informer.steps())
        assert self.informer.controller is not None
        self.reflector = self.informer.controller.reflector

    def write(self, action: Callable[[str], None], name: str) -> None:
        """One write by "someone else" (kubectl, a controller) between driver runs."""
        action(name)
        self.run.sampler.sample()

    def create_pod(self, name: str) -> None:
        self.pods.create(V1Pod.model_validate(pod(name)))

    def relabel_pod(self, name: str) -> None:
        current = self.pods.get(name)
        assert current.metadata is not None
        current.metadata.labels = {"app": "web", "tier": "frontend"}
        self.pods.update(current)

    def delete_pod(self, name: str) -> None:
        self.pods.delete(name)

    # -- the lister-watcher: the clientset's list and watch, told to the trace -----------

    def list_pods(self, options: ListOptions) -> Any:
        result = self.pods.list(options)
        self.lists += 1
        rv = result.metadata.resource_version if result.metadata is not None else ""
        self.driver.record("lister-watcher", f"list pods at resourceVersion {options.resource_version!r}: "
                                             f"{len(result.items)} pods at resourceVersion {rv}")
        return result

    def watch_pods(self, options: ListOptions) -> watch.Interface:
        self.driver.record("lister-watcher", f"watch pods from resourceVersion {options.resource_version!r}")
        return self.pods.watch(options)

    # -- the handler ---------------------------------------------------------------------

    def on_add(self, obj: V1Pod) -> None:
        self.handler_events.append(f"add {obj.metadata.name}")

    def on_update(self, old: V1Pod, new: V1Pod) -> None:
        self.handler_events.append(f"update {new.metadata.name}")

    def on_delete(self, obj: Any) -> None:
        name = obj.metadata.name if isinstance(obj, V1Pod) else getattr(obj, "key", repr(obj))
        self.handler_events.append(f"delete {name}")

    # -- what the sampler and the observer read ------------------------------------------

    def observe(self, driver: Driver) -> None:
        """After each step: when a list-and-watch pass ended, say why the next list is a relist."""
        if self.reflector is None or self.reflector.passes == self._passes:
            return
        self._passes = self.reflector.passes
        err = self.last_logged_error()
        if is_expired_error(err):
            self.relists.append("410 Gone")
            driver.record(f"reflector/{self.reflector.name}", "watch expired (410 Gone): relist after 410")
        else:
            self.relists.append(str(err))
            driver.record(f"reflector/{self.reflector.name}", f"list-and-watch pass ended ({err}): relist")
        self.run.event(f"the reflector's watch ended ({self.relists[-1]}); it will list again")

    def last_logged_error(self) -> BaseException | None:
        """The error argument of the reflector's latest log record that had one."""
        for record in reversed(self.run.trace_log.records):
            for arg in record.args if isinstance(record.args, tuple) else ():
                if isinstance(arg, BaseException):
                    return arg
        return None

    def relisted_and_caught_up(self) -> bool:
        return bool(self.relists) and self.lists >= 2 and self.cache_names() == self.server_names()

    def cache_names(self) -> list[str]:
        return sorted(self.informer.get_store().list_keys())

    def server_names(self) -> list[str]:
        listed = self.server.list("pods", NAMESPACE)
        return sorted(f"{NAMESPACE}/{p['metadata']['name']}" for p in listed["items"])

    def cache_size(self) -> int:
        return len(self.informer.get_store().list_keys())

    def server_pods(self) -> int:
        return len(self.server.list("pods", NAMESPACE)["items"])

    def resource_version(self) -> int:
        return int(self.informer.last_sync_resource_version() or 0)

    def handler_event_count(self) -> int:
        return len(self.handler_events)

    def list_count(self) -> int:
        return self.lists

    def __repr__(self) -> str:
        return (f"InformerRelist(lists={self.lists}, relists={self.relists}, "
                f"handler_events={len(self.handler_events)})")


def build_informer_relist(seed: int) -> Run:
    """Scenario `informer-relist` (chapter P2): the world, ready to play."""
    return InformerRelist(seed).run
