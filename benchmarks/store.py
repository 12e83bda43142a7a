"""Benchmark: the embedded API server's store, beside the cost of model conversion.

Measures creates, updates, lists and watch deliveries per second on an
in-process `APIServer`, and, in the same run, how fast the official client
models convert the same objects (`V1Pod.model_validate` of the wire dict and
`model_dump` back). Absolute numbers depend on the machine; the ratios in the
last column compare the store with conversion measured seconds apart, which is
what DESIGN.md's "conversion is not the bottleneck" claim is about.

The store's create and update include defaulting and validation; a watch
delivery is the selector check plus a private copy of the object for that
watcher; "watch drain" is the consumer's side (taking events off the channel).

Run: `.venv/bin/python benchmarks/store.py [--objects 2000] [--watchers 3]`.
It never fails on a slow machine: nothing is asserted, it only prints.
"""

from __future__ import annotations

import argparse
import copy
import random
import time
from collections.abc import Callable
from typing import Any, cast

from kubernetes.client import V1Pod

from minikcm.apiserver.cacher import CacheWatcher
from minikcm.apiserver.server import APIServer
from minikcm.apiserver.storage import deep_copy_json
from minikcm.clock import FakeClock


def pod(i: int) -> dict[str, Any]:
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": f"web-{i:05d}", "namespace": "default",
                     "labels": {"app": "web", "shard": str(i % 4)},
                     "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                          "name": "web-1", "uid": "u-1", "controller": True}]},
        "spec": {"containers": [{"name": "app", "image": "nginx:1.27",
                                 "ports": [{"containerPort": 80}],
                                 "env": [{"name": "MODE", "value": "prod"}]}]},
    }


def rate(count: int, fn: Callable[[], object]) -> float:
    """Operations per second of `fn`, which performs `count` operations."""
    start = time.perf_counter()
    fn()
    elapsed = time.perf_counter() - start
    return count / elapsed if elapsed > 0 else float("inf")


def measure(n: int, k: int, lists: int) -> dict[str, float]:
    """One full round of every measure, on a fresh server."""
    server = APIServer(clock=FakeClock(), rng=random.Random(0), watcher_buffer=10 * n + 10)
    watchers = [server.watch("pods", "default") for _ in range(k)]  # delivered to during writes
    pods = [pod(i) for i in range(n)]

    results: dict[str, float] = {}
    results["create"] = rate(n, lambda: [server.create("pods", "default", p) for p in pods])
    stored = [server.get("pods", "default", p["metadata"]["name"]) for p in pods]

    def updates() -> None:
        for obj in stored:
            obj["metadata"]["labels"]["rev"] = "2"
            server.update("pods", "default", obj)

    results["update"] = rate(n, updates)
    results["list (per object)"] = rate(lists * n,
                                        lambda: [server.list("pods", "default") for _ in range(lists)])
    results["list, selector (per object)"] = rate(
        lists * n, lambda: [server.list("pods", "default", label_selector="shard=1")
                            for _ in range(lists)])

    delivered = sum(len(w.result_chan()) for w in watchers)

    def drain() -> None:
        for w in watchers:
            chan = w.result_chan()
            while len(chan):
                chan.recv(timeout=0)

    results["watch drain (per event)"] = rate(delivered, drain)
    # Deliveries measured directly: every kept pod event handed to one more watcher.
    with server.storage.lock:
        history = server.storage.events_since_locked("pods", 0)
        extra = cast(CacheWatcher, server.watch("pods", "default"))
        results["watch delivery (per event)"] = rate(
            len(history), lambda: [extra.deliver_locked(e) for e in history])
    extra.stop()

    models: list[V1Pod] = []
    results["model validate"] = rate(n, lambda: models.extend(V1Pod.model_validate(w) for w in stored))
    results["model dump"] = rate(n, lambda: [m.model_dump(by_alias=True, exclude_none=True, mode="json")
                                             for m in models])
    results["wire deep copy (ours)"] = rate(n, lambda: [deep_copy_json(w) for w in stored])
    results["wire copy.deepcopy"] = rate(n, lambda: [copy.deepcopy(w) for w in stored])
    results["model validate+dump"] = 1 / (1 / results["model validate"] + 1 / results["model dump"])
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=1000)
    parser.add_argument("--watchers", type=int, default=3)
    parser.add_argument("--lists", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3, help="best of this many rounds is shown")
    args = parser.parse_args()
    args.objects = max(1, args.objects)
    rounds = [measure(args.objects, max(0, args.watchers), max(1, args.lists)) for _ in range(max(1, args.rounds))]
    best = {name: max(r[name] for r in rounds) for name in rounds[0]}
    convert = best["model validate+dump"]
    print(f"objects={args.objects} watchers={args.watchers} lists={args.lists} "
          f"(best of {len(rounds)} rounds)")
    print(f"{'measure':32} {'per second':>14} {'vs validate+dump':>18}")
    for name, value in best.items():
        print(f"{name:32} {value:14,.0f} {value / convert:17.2f}x")


if __name__ == "__main__":
    main()
