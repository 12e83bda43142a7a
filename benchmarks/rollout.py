"""No upstream twin. Benchmark: rolling updates of large Deployments in deterministic mode.

Runs the real pipeline on one fake clock: the embedded API server, shared
informers, the Deployment and ReplicaSet controllers and the simulated kubelet,
driven by the deterministic driver. For each size N (250, 500 and 1,000
replicas by default) a Deployment of N replicas is created and left to become
available; then its image changes and the timed part begins: the rolling
update to completion.

Completion is read from the informers' caches (the Deployment's status, its
ReplicaSets, and the pods still terminating), the same objects the controllers
see, so the check costs next to nothing: no list through the API server, no
copies. The caches may lag the server by a step or two (a pod's deletion can
reach the pod informer after the status it caused reached the Deployment
informer), so only once the caches say complete does the check ask the API
server as well (`Cluster.deployment_complete`): that costs a few server lists
at the very end instead of one after every step.

Beside each run, the floor: the same number of API writes the rollout made
(read off the store's resourceVersion counter), done directly on the store
with no informers, queues or controllers. The ratio says what the machinery
costs on top of the writes it has to make; the time per replica says whether
the rollout is linear (it stays flat as N grows). Nothing is asserted: the
numbers are printed, never judged, so a slow machine cannot fail CI.

    python benchmarks/rollout.py                       # N = 250, 500, 1000
    python benchmarks/rollout.py --replicas 1000 2000  # any sizes
    ROLLOUT_REPLICAS=200 python benchmarks/rollout.py  # one size (as before)
    python benchmarks/rollout.py --replicas 250 500 1000 2000 --json docs/data/rollout_benchmark.json

`--json` also writes the table as JSON; the appendix's figure of time per
replica is drawn from that file, so the page shows a recorded run.

The two summary lines (`rolling update v1 -> v2` and `ratio rollout / floor`)
describe the largest size.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass
from datetime import date

from minikcm.apimachinery import labels
from minikcm.apiserver.server import APIServer
from minikcm.sim.kubelet import KubeletConfig
from minikcm.sim.scenarios.cluster import Cluster, deployment
from minikcm.tools.cache.controller import DeletedFinalStateUnknown, ResourceEventHandlerFuncs

DEFAULT_SIZES = (250, 500, 1000)


@dataclass
class Result:
    """One size's figures."""

    replicas: int
    setup: float       # s wall: create and become available
    elapsed: float     # s wall: the rolling update
    writes: int        # API writes the rolling update made
    steps: int         # driver steps it took
    floor: float       # s wall: the same writes, store only


def storage_revision(server: APIServer) -> int:
    """The store's current resourceVersion: one more for every write it accepted."""
    listed = server.list("namespaces", None)
    return int(listed["metadata"]["resourceVersion"])


def cached_complete(c: Cluster, name: str):
    """A completion check over the informers' caches (what `Cluster.deployment_complete` asks of the server).

    The Deployment's status observed its generation and counts every replica
    updated and available, every older ReplicaSet is scaled to 0, and no pod
    of the Deployment is terminating. The terminating pods are counted by an
    event handler on the pod informer as their events arrive, so the check
    never walks the pods.
    """
    f = c.factory
    deployments = f.apps().v1().deployments().lister().deployments(c.namespace)
    replica_sets = f.apps().v1().replica_sets().lister().replica_sets(c.namespace)
    selector = labels.selector_from_set({"app": name})
    terminating: set[str] = set()  # keys of the Deployment's pods that carry a deletionTimestamp

    def seen(pod) -> None:
        key = f"{pod.metadata.namespace}/{pod.metadata.name}"
        if pod.metadata.deletion_timestamp is not None and (pod.metadata.labels or {}).get("app") == name:
            terminating.add(key)
        else:
            terminating.discard(key)

    def gone(pod) -> None:
        if isinstance(pod, DeletedFinalStateUnknown):
            terminating.discard(pod.key)
        else:
            terminating.discard(f"{pod.metadata.namespace}/{pod.metadata.name}")

    f.core().v1().pods().informer().add_event_handler(ResourceEventHandlerFuncs(
        add_func=seen, update_func=lambda old, new: seen(new), delete_func=gone))

    def complete() -> bool:
        try:
            d = deployments.get(name)
        except Exception:  # not in the cache yet
            return False
        s, want = d.status, d.spec.replicas
        if s is None or not ((s.observed_generation or 0) >= (d.metadata.generation or 0)
                             and s.updated_replicas == want and s.replicas == want
                             and s.available_replicas == want):
            return False
        image = d.spec.template.spec.containers[0].image
        for rs in replica_sets.list(selector):
            if rs.spec.template.spec.containers[0].image != image and (rs.spec.replicas or 0) != 0:
                return False
        return not terminating

    return complete


def rollout(replicas: int) -> tuple[float, float, int, int]:
    """Create, wait available, then time the rolling update. Returns (setup s, rollout s, writes, steps)."""
    t0 = time.perf_counter()
    c = Cluster(1, trace_pods=False)
    c.with_replica_set_controller()
    c.with_deployment_controller()
    # Room for every pod and its surge on the simulated nodes, whatever their per-node capacity.
    c.with_kubelet(KubeletConfig(nodes=max(3, 2 * replicas // 100 + 1)))
    c.start()
    c.driver.observers.clear()        # no per-step trace or probes: measure the controllers
    c.driver.trace_steps = False
    cached = cached_complete(c, "web")

    def done() -> bool:
        return cached() and c.deployment_complete("web")

    c.apply(deployment("web", replicas, "web:v1"))
    if not c.driver.run_until(done, timeout=24 * 3600):
        raise SystemExit("the initial Deployment never became available")
    setup = time.perf_counter() - t0

    before = storage_revision(c.server)
    steps_before = len(c.driver.trace)
    c.driver.trace_steps = True       # count steps (cheap: a list append each)
    t1 = time.perf_counter()
    c.set_image("deployments", "web", "app", "web:v2")
    if not c.driver.run_until(done, timeout=24 * 3600):
        raise SystemExit("the rolling update never completed")
    elapsed = time.perf_counter() - t1
    return setup, elapsed, storage_revision(c.server) - before, len(c.driver.trace) - steps_before


def floor(writes: int) -> float:
    """The same number of writes straight into the store: pod creates, then updates, then deletes."""
    server = APIServer()
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "default", "labels": {"app": "web"}},
           "spec": {"containers": [{"name": "app", "image": "web:v2"}]}}
    third = max(1, writes // 3)
    t0 = time.perf_counter()
    names = []
    for i in range(third):
        obj = dict(pod, metadata=dict(pod["metadata"], name=f"web-{i}"))
        names.append(server.create("pods", "default", obj)["metadata"]["name"])
    for name in names:
        current = server.get("pods", "default", name)
        current["metadata"].setdefault("labels", {})["step"] = "2"
        server.update("pods", "default", current)
    for name in names[: writes - 2 * third]:
        server.delete("pods", "default", name, grace_period_seconds=0)
    return time.perf_counter() - t0


def measure(replicas: int) -> Result:
    setup, elapsed, writes, steps = rollout(replicas)
    return Result(replicas, setup, elapsed, writes, steps, floor(writes))


def print_table(results: list[Result]) -> None:
    print(f"  {'replicas':>8} {'setup s':>8} {'rollout s':>9} {'ms/replica':>10} {'writes':>7} {'steps':>7} "
          f"{'floor s':>8} {'floor ms/replica':>16} {'ratio':>7}")
    for r in results:
        ratio = r.elapsed / r.floor if r.floor else float("inf")
        print(f"  {r.replicas:>8} {r.setup:>8.2f} {r.elapsed:>9.2f} {1e3 * r.elapsed / r.replicas:>10.2f} "
              f"{r.writes:>7} {r.steps:>7} {r.floor:>8.3f} {1e3 * r.floor / r.replicas:>16.3f} {ratio:>6.1f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, nargs="+", metavar="N",
                        help=f"Deployment sizes to run (default {' '.join(map(str, DEFAULT_SIZES))}, "
                             "or $ROLLOUT_REPLICAS)")
    parser.add_argument("--json", metavar="PATH", help="also write the table to PATH as JSON")
    args = parser.parse_args(argv)
    sizes = args.replicas or ([int(os.environ["ROLLOUT_REPLICAS"])] if os.environ.get("ROLLOUT_REPLICAS")
                              else list(DEFAULT_SIZES))
    print(f"rolling updates of {', '.join(map(str, sizes))}-replica Deployments, deterministic mode, one process")
    results = []
    for n in sizes:
        results.append(measure(n))
    print_table(results)
    big = max(results, key=lambda r: r.replicas)
    small = min(results, key=lambda r: r.replicas)
    print(f"  setup (create + become available): {big.setup:8.2f} s wall ({big.replicas} replicas)")
    print(f"  rolling update v1 -> v2:           {big.elapsed:8.2f} s wall, {big.writes} API writes, "
          f"{big.steps} driver steps ({big.replicas} replicas)")
    print(f"  floor (same writes, store only):   {big.floor:8.2f} s wall")
    print(f"  ratio rollout / floor:             {big.elapsed / big.floor if big.floor else float('inf'):8.1f} x")
    print(f"  per write: rollout {1e3 * big.elapsed / max(big.writes, 1):.3f} ms, "
          f"floor {1e3 * big.floor / max(big.writes, 1):.3f} ms")
    if big is not small:
        print(f"  scaling {small.replicas} -> {big.replicas} replicas: "
              f"{big.elapsed / small.elapsed:.1f} x the time for {big.replicas / small.replicas:.1f} x the replicas")
    if args.json:
        write_json(args.json, results)
    return 0


def write_json(path: str, results: list[Result]) -> None:
    """The table as JSON: when and where it was measured, and one row per size (seconds, counts)."""
    record = {"benchmark": "benchmarks/rollout.py", "date": date.today().isoformat(),
              "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
              "results": [asdict(r) for r in results]}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
    print(f"  wrote {path}")


if __name__ == "__main__":
    sys.exit(main())
