"""No upstream twin. Benchmark: watch events per second through the whole informer pipeline.

Pushes N watch events (ADDED for each of K pods, then MODIFIED round-robin)
into a fake watch and measures how many per second reach a handler through
reflector -> RealFIFO -> indexer -> shared processor -> listener. Beside it,
in the same run, a bare floor: the same events put into a dict and handed
through a deque, which is the least any cache-plus-queue can do. The ratio
says what the port's machinery costs. Two pipeline runs: under the
deterministic driver, and on real threads.

A real watch brings wire dicts, which the client decodes into pydantic models
before the reflector sees them. So a second floor decodes each event's wire
dict (`from_wire`, as the in-process client does) before the dict and deque,
and a third pipeline run starts from the same wire dicts; the ratio between
these two shows the machinery's cost apart from pydantic's. Each figure is the
best of `--repeat` runs (3 by default). Nothing here can fail.

Run: `.venv/bin/python benchmarks/informer.py [--events N] [--keys K]`.
"""

from __future__ import annotations

import argparse
import collections
import threading
import time
from typing import Any

from kubernetes.client import V1ListMeta, V1ObjectMeta, V1Pod, V1PodList

from minikcm.apimachinery import watch
from minikcm.apimachinery.convert import from_wire, to_wire
from minikcm.apimachinery.meta import INITIAL_EVENTS_ANNOTATION_KEY
from minikcm.clock import FakeClock, RealClock
from minikcm.driver import Driver
from minikcm.tools.cache.listwatch import ListWatch
from minikcm.tools.cache.shared_informer import (
    SharedIndexInformerImpl,
    SharedIndexInformerOptions,
    new_shared_index_informer_with_options,
)


def make_events(n: int, keys: int) -> list[watch.Event]:
    """ADDED for each key first, then MODIFIED round-robin; resourceVersions increase."""
    events = []
    for i in range(n):
        name = f"pod-{i % keys}"
        pod = V1Pod(metadata=V1ObjectMeta(name=name, namespace="default", resource_version=str(i + 2)))
        events.append(watch.Event(watch.ADDED if i < keys else watch.MODIFIED, pod))
    return events


class Counter:
    """A handler that counts notifications and sets `done` at the target."""

    def __init__(self, target: int) -> None:
        self.count = 0
        self.target = target
        self.done = threading.Event()

    def on_add(self, obj: Any, is_in_initial_list: bool) -> None:
        self.tick()

    def on_update(self, old: Any, new_obj: Any) -> None:
        self.tick()

    def on_delete(self, obj: Any) -> None:
        self.tick()

    def tick(self) -> None:
        self.count += 1
        if self.count >= self.target:
            self.done.set()


def new_pipeline(clock: Any, n: int) -> tuple[SharedIndexInformerImpl, watch.FakeWatcher, Counter]:
    fw = watch.FakeWatcher()

    def watch_func(options: Any) -> watch.FakeWatcher:
        if options.send_initial_events:  # a watch-list (the v1.36 default): nothing yet, then the end marker
            fw.action(watch.BOOKMARK, V1Pod(metadata=V1ObjectMeta(
                resource_version="1", annotations={INITIAL_EVENTS_ANNOTATION_KEY: "true"})))
        return fw

    lw = ListWatch(list_func=lambda options: V1PodList(metadata=V1ListMeta(resource_version="1"), items=[]),
                   watch_func=watch_func)
    informer = new_shared_index_informer_with_options(lw, V1Pod(), SharedIndexInformerOptions(clock=clock))
    counter = Counter(n)
    informer.add_event_handler(counter)
    return informer, fw, counter


def pipeline_deterministic(events: list[watch.Event], wire: list[dict[str, Any]] | None = None) -> float:
    """Seconds from the first event pushed to the last handler call, under the driver.

    With `wire` (the events' objects as wire dicts), each is decoded into a V1Pod as it is pushed,
    as the client's watch does, and the decoding counts in the time.
    """
    clock = FakeClock(driven=True)
    informer, fw, counter = new_pipeline(clock, len(events))
    driver = Driver(clock, informer.steps(), trace_steps=False)
    driver.run_until(informer.has_synced)
    start = time.perf_counter()
    if wire is None:
        for e in events:
            fw.action(e.type, e.object)
    else:
        for e, d in zip(events, wire):
            fw.action(e.type, from_wire(d, V1Pod))
    driver.run_until(counter.done.is_set, max_rounds=10 * len(events) + 100)
    return time.perf_counter() - start


def pipeline_threaded(events: list[watch.Event]) -> float:
    """The same on real threads (reflector, process loop, listener)."""
    informer, fw, counter = new_pipeline(RealClock(), len(events))
    stop = threading.Event()
    runner = threading.Thread(target=informer.run, args=(stop,), name="informer/benchmark", daemon=True)
    runner.start()
    while not informer.has_synced():
        time.sleep(0.001)
    start = time.perf_counter()
    for e in events:
        fw.action(e.type, e.object)
    counter.done.wait(120)
    elapsed = time.perf_counter() - start
    stop.set()
    runner.join(5)
    return elapsed


def floor(events: list[watch.Event]) -> float:
    """The same events into a dict (the cache) and through a deque (the queue)."""
    start = time.perf_counter()
    cache: dict[str, Any] = {}
    queue: collections.deque[watch.Event] = collections.deque()
    delivered = 0
    for e in events:
        meta = e.object.metadata
        cache[f"{meta.namespace}/{meta.name}"] = e.object
        queue.append(e)
    while queue:
        queue.popleft()
        delivered += 1
    return time.perf_counter() - start


def floor_decoded(events: list[watch.Event], wire: list[dict[str, Any]]) -> float:
    """The floor, starting from wire dicts: decode each into a V1Pod, then the dict and the deque."""
    start = time.perf_counter()
    cache: dict[str, Any] = {}
    queue: collections.deque[tuple[str, Any]] = collections.deque()
    delivered = 0
    for e, d in zip(events, wire):
        pod = from_wire(d, V1Pod)
        meta = pod.metadata
        cache[f"{meta.namespace}/{meta.name}"] = pod
        queue.append((e.type, pod))
    while queue:
        queue.popleft()
        delivered += 1
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--keys", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement; the best is shown")
    args = parser.parse_args()
    events = make_events(args.events, args.keys)

    wire = [to_wire(e.object) for e in events]

    def best(measure: Any, *a: Any) -> float:
        """The fastest of `--repeat` runs (as timeit does): the garbage collector and the neighbours only add."""
        return min(measure(*a) for _ in range(max(args.repeat, 1)))

    base = best(floor, events)
    rows = [("floor: dict + deque", base),
            ("pipeline, deterministic driver", best(pipeline_deterministic, events)),
            ("pipeline, threaded", best(pipeline_threaded, events))]
    print(f"{args.events} watch events over {args.keys} keys, best of {max(args.repeat, 1)} runs each")
    for name, seconds in rows:
        rate = args.events / seconds if seconds > 0 else float("inf")
        ratio = seconds / base if base > 0 else float("inf")
        print(f"  {name:32s} {rate:12,.0f} events/s   {ratio:8.1f}x the floor's time")
    decoded = best(floor_decoded, events, wire)
    print("from wire dicts (decoding into V1Pod included)")
    for name, seconds in [("floor: decode + dict + deque", decoded),
                          ("pipeline, deterministic driver", best(pipeline_deterministic, events, wire))]:
        rate = args.events / seconds if seconds > 0 else float("inf")
        ratio = seconds / decoded if decoded > 0 else float("inf")
        print(f"  {name:32s} {rate:12,.0f} events/s   {ratio:8.1f}x the decode-included floor's time")


if __name__ == "__main__":
    main()
