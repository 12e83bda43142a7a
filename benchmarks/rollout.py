"""No upstream twin. Benchmark: a rolling update of a large Deployment in deterministic mode.

Runs the real pipeline on one fake clock: the embedded API server, shared
informers, the Deployment and ReplicaSet controllers and the simulated kubelet,
driven by the deterministic driver. A Deployment of N replicas (default 1,000)
is created and left to become available; then its image changes and the timed
part begins: the rolling update to completion.

Beside it, in the same run, the floor: the same number of API writes the
rollout made (read off the store's resourceVersion counter), done directly on
the store with no informers, queues or controllers. The ratio says what the
machinery costs on top of the writes it has to make. Nothing is asserted: the
numbers are printed, never judged, so a slow machine cannot fail CI.

    python benchmarks/rollout.py            # N = 1000
    ROLLOUT_REPLICAS=200 python benchmarks/rollout.py
"""

from __future__ import annotations

import os
import sys
import time

from minikcm.apiserver.server import APIServer
from minikcm.sim.kubelet import KubeletConfig
from minikcm.sim.scenarios.cluster import Cluster, deployment


def storage_revision(server: APIServer) -> int:
    """The store's current resourceVersion: one more for every write it accepted."""
    listed = server.list("namespaces", None)
    return int(listed["metadata"]["resourceVersion"])


def rollout(replicas: int) -> tuple[float, float, int, int]:
    """Create, wait available, then time the rolling update. Returns (setup s, rollout s, writes, steps)."""
    t0 = time.perf_counter()
    c = Cluster(1, trace_pods=False)
    c.with_replica_set_controller()
    c.with_deployment_controller()
    # Each simulated node hands out pod IPs from its own /24: give 2,000 pods room enough.
    c.with_kubelet(KubeletConfig(nodes=max(3, 2 * replicas // 200 + 1)))
    c.start()
    c.driver.observers.clear()        # no per-step trace or probes: measure the controllers
    c.driver.trace_steps = False
    c.apply(deployment("web", replicas, "web:v1"))
    if not c.driver.run_until(lambda: c.deployment_complete("web"), timeout=24 * 3600):
        raise SystemExit("the initial Deployment never became available")
    setup = time.perf_counter() - t0

    before = storage_revision(c.server)
    steps_before = len(c.driver.trace)
    c.driver.trace_steps = True       # count steps (cheap: a list append each)
    t1 = time.perf_counter()
    c.set_image("deployments", "web", "app", "web:v2")
    if not c.driver.run_until(lambda: c.deployment_complete("web"), timeout=24 * 3600):
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


def main() -> int:
    replicas = int(os.environ.get("ROLLOUT_REPLICAS", "1000"))
    print(f"rolling update of a {replicas}-replica Deployment, deterministic mode, one process")
    setup, elapsed, writes, steps = rollout(replicas)
    base = floor(writes)
    print(f"  setup (create + become available): {setup:8.2f} s wall")
    print(f"  rolling update v1 -> v2:           {elapsed:8.2f} s wall, {writes} API writes, {steps} driver steps")
    print(f"  floor (same writes, store only):   {base:8.2f} s wall")
    print(f"  ratio rollout / floor:             {elapsed / base if base else float('inf'):8.1f} x")
    print(f"  per write: rollout {1e3 * elapsed / max(writes, 1):.3f} ms, floor {1e3 * base / max(writes, 1):.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
