"""Integration: Deployment rollouts end to end, deterministic, under the driver.

The embedded API server, one informer factory, the Deployment controller, the
ReplicaSet controller and the simulated kubelet share one FakeClock; the
driver runs their steps. Each scenario checks upstream's e2e invariants after
EVERY step (test/e2e/framework/deployment: a rolling update never has more
than replicas + maxSurge pods asked for, never fewer than replicas -
maxUnavailable available; Recreate never runs new pods beside old ones), not
only at the end, then checks where the rollout ended.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.deployment.deployment_controller import new_deployment_controller
from minikcm.controller.deployment.util import deployment_util as util
from minikcm.controller.replicaset.replica_set import BURST_REPLICAS, new_replica_set_controller
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.driver import Driver
from minikcm.sim.kubelet import KubeletConfig, new_kubelet

NS = "default"
IMAGE_V1 = "nginx:1.25"
IMAGE_V2 = "nginx:1.26"
IMAGE_V3 = "nginx:1.27"
BROKEN = "nginx:broken"


def deployment(name: str = "web", replicas: int = 10, *, strategy: str = "RollingUpdate", max_surge: Any = 3,
               max_unavailable: Any = 2, image: str = IMAGE_V1, revision_history_limit: int | None = None,
               progress_deadline_seconds: int | None = None) -> dict[str, Any]:
    """A Deployment wire object; pods terminate after 5 s so that scenarios stay short."""
    spec: dict[str, Any] = {
        "replicas": replicas,
        "selector": {"matchLabels": {"app": name}},
        "template": {
            "metadata": {"labels": {"app": name}},
            "spec": {"containers": [{"name": "app", "image": image}], "terminationGracePeriodSeconds": 5},
        },
        "strategy": {"type": strategy},
    }
    if strategy == "RollingUpdate":
        spec["strategy"]["rollingUpdate"] = {"maxSurge": max_surge, "maxUnavailable": max_unavailable}
    if revision_history_limit is not None:
        spec["revisionHistoryLimit"] = revision_history_limit
    if progress_deadline_seconds is not None:
        spec["progressDeadlineSeconds"] = progress_deadline_seconds
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name, "namespace": NS}, "spec": spec}


class Cluster:
    """The pieces of a rollout on one FakeClock, and views of the API server's state (the truth)."""

    def __init__(self, seed: int = 1, kubelet: KubeletConfig | None = None) -> None:
        self.clock = FakeClock(EPOCH, driven=True)
        self.server = APIServer(clock=self.clock, rng=random.Random(seed))
        self.client = InProcessClientset(self.server)
        self.factory = new_shared_informer_factory_with_options(self.client, 0, clock=self.clock,
                                                                rng=random.Random(seed + 1))
        f = self.factory
        self.dc = new_deployment_controller(f.apps().v1().deployments(), f.apps().v1().replica_sets(),
                                            f.core().v1().pods(), self.client)
        self.rsc = new_replica_set_controller(f.apps().v1().replica_sets(), f.core().v1().pods(), self.client,
                                              BURST_REPLICAS)
        self.kubelet = new_kubelet(self.client, f.core().v1().pods(), config=kubelet or KubeletConfig(),
                                   rng=random.Random(seed + 2))
        f.start(threading.Event())
        self.driver = Driver(self.clock, self.server.steps() + f.steps() + self.kubelet.steps()
                             + self.rsc.steps() + self.dc.steps())
        self.checks: list[Callable[[], None]] = []
        self.driver.observers.append(self.observe)

    # -- invariants --------------------------------------------------------------------------
    def observe(self, driver: Driver) -> None:
        for check in self.checks:
            check()

    # -- reading the truth -------------------------------------------------------------------
    def get(self, name: str = "web") -> dict[str, Any]:
        return self.server.get("deployments", NS, name)

    def replica_sets(self, name: str = "web") -> list[dict[str, Any]]:
        items = self.server.list("replicasets", NS, label_selector=f"app={name}")["items"]
        return sorted(items, key=lambda r: int(r["metadata"].get("annotations", {}).get(util.REVISION_ANNOTATION, 0)))

    def rs_by_image(self, name: str = "web") -> dict[str, int]:
        return {r["spec"]["template"]["spec"]["containers"][0]["image"]: r["spec"]["replicas"]
                for r in self.replica_sets(name)}

    def pods(self, name: str = "web") -> list[dict[str, Any]]:
        return self.server.list("pods", NS, label_selector=f"app={name}")["items"]

    def complete(self, name: str = "web") -> bool:
        d = self.get(name)
        s = d.get("status", {})
        want = d["spec"]["replicas"]
        return (s.get("observedGeneration", 0) >= d["metadata"]["generation"] and s.get("updatedReplicas", 0) == want
                and s.get("replicas", 0) == want and s.get("availableReplicas", 0) == want)

    def condition(self, cond_type: str, name: str = "web") -> dict[str, Any] | None:
        for c in self.get(name).get("status", {}).get("conditions", []):
            if c["type"] == cond_type:
                return c
        return None

    # -- writing -----------------------------------------------------------------------------
    def create(self, obj: dict[str, Any]) -> None:
        self.server.create("deployments", NS, obj)

    def edit(self, change: Callable[[dict[str, Any]], None], name: str = "web") -> None:
        d = self.get(name)
        change(d)
        self.server.update("deployments", NS, d)

    def set_image(self, image: str, name: str = "web") -> None:
        def change(d: dict[str, Any]) -> None:
            d["spec"]["template"]["spec"]["containers"][0]["image"] = image
        self.edit(change, name)

    def settle(self, predicate: Callable[[], bool], timeout: float = 600.0) -> None:
        assert self.driver.run_until(predicate, timeout=timeout), self.driver.trace_text()[-3000:]


def fenceposts(d: dict[str, Any]) -> tuple[int, int, int]:
    replicas = d["spec"]["replicas"]
    ru = d["spec"]["strategy"]["rollingUpdate"]
    max_surge, max_unavailable = util.resolve_fenceposts(ru["maxSurge"], ru["maxUnavailable"], replicas)
    return replicas, max_surge, max_unavailable


def surge_invariant(c: Cluster, name: str = "web") -> Callable[[], None]:
    """Pods asked for (the sum of the ReplicaSets' spec.replicas) never exceed replicas + maxSurge."""
    def check() -> None:
        replicas, max_surge, _ = fenceposts(c.get(name))
        asked = sum(r["spec"]["replicas"] for r in c.replica_sets(name))
        assert asked <= replicas + max_surge, f"{asked} pods asked for, more than {replicas} + {max_surge}"
    return check


def rolling_invariants(c: Cluster, name: str = "web") -> Callable[[], None]:
    """Upstream's check while a rolling update runs (waitForDeploymentCompleteMaybeCheckRolling).

    surge_invariant, and: available pods (the Deployment's status, and the
    ready pods the API server holds) never drop below replicas - maxUnavailable.
    """
    surge = surge_invariant(c, name)

    def check() -> None:
        surge()
        d = c.get(name)
        replicas, _, max_unavailable = fenceposts(d)
        available = d.get("status", {}).get("availableReplicas", 0)
        assert available >= replicas - max_unavailable, f"{available} available < {replicas} - {max_unavailable}"
        ready = sum(1 for p in c.pods(name) if "deletionTimestamp" not in p["metadata"] and any(
            cond["type"] == "Ready" and cond["status"] == "True" for cond in p.get("status", {}).get("conditions", [])))
        assert ready >= replicas - max_unavailable, f"{ready} ready pods < {replicas} - {max_unavailable}"
    return check


# --- scenarios --------------------------------------------------------------------------------------


def test_rolling_update_keeps_surge_and_availability_at_every_step():
    c = Cluster()
    c.create(deployment())
    c.settle(c.complete)
    c.checks.append(rolling_invariants(c))
    c.set_image(IMAGE_V2)
    c.settle(lambda: c.complete() and c.rs_by_image() == {IMAGE_V1: 0, IMAGE_V2: 10})
    d = c.get()
    assert d["metadata"]["annotations"][util.REVISION_ANNOTATION] == "2"
    assert c.condition("Progressing")["reason"] == util.NEW_RS_AVAILABLE_REASON
    assert c.condition("Available")["status"] == "True"
    assert sorted(p["spec"]["containers"][0]["image"] for p in c.pods()
                  if "deletionTimestamp" not in p["metadata"]) == [IMAGE_V2] * 10


def test_recreate_never_runs_new_pods_beside_old():
    c = Cluster()
    c.create(deployment(replicas=4, strategy="Recreate"))
    c.settle(c.complete)

    def no_mixing() -> None:
        images = {p["spec"]["containers"][0]["image"] for p in c.pods()}
        assert len(images) <= 1, f"old and new pods side by side: {sorted(images)}"

    c.checks.append(no_mixing)
    c.set_image(IMAGE_V2)
    c.settle(lambda: c.complete() and c.rs_by_image() == {IMAGE_V1: 0, IMAGE_V2: 4})
    assert {p["spec"]["containers"][0]["image"] for p in c.pods()} == {IMAGE_V2}


def test_proportional_scaling_of_a_stuck_rollout():
    c = Cluster()
    c.create(deployment(replicas=10, max_surge=3, max_unavailable=2))
    c.settle(c.complete)
    c.checks.append(rolling_invariants(c))
    c.set_image(BROKEN)
    c.settle(lambda: c.rs_by_image() == {IMAGE_V1: 8, BROKEN: 5})
    c.driver.run_for(60)  # stuck: nothing moves any more
    assert c.rs_by_image() == {IMAGE_V1: 8, BROKEN: 5}

    def scale_to_30(d: dict[str, Any]) -> None:
        d["spec"]["replicas"] = 30
    c.checks = [surge_invariant(c)]  # availability cannot hold right after a scale-up; the surge bound does
    c.edit(scale_to_30)
    c.settle(lambda: c.rs_by_image() == {IMAGE_V1: 20, BROKEN: 13})
    c.driver.run_for(60)
    assert c.rs_by_image() == {IMAGE_V1: 20, BROKEN: 13}
    for r in c.replica_sets():
        assert r["metadata"]["annotations"][util.DESIRED_REPLICAS_ANNOTATION] == "30"
        assert r["metadata"]["annotations"][util.MAX_REPLICAS_ANNOTATION] == "33"


def test_pause_and_resume():
    c = Cluster()
    c.create(deployment(replicas=3, max_surge=1, max_unavailable=0))
    c.settle(c.complete)

    def pause(d: dict[str, Any]) -> None:
        d["spec"]["paused"] = True
    c.edit(pause)
    c.set_image(IMAGE_V2)
    c.driver.run_for(120)
    assert c.rs_by_image() == {IMAGE_V1: 3}  # paused: no new ReplicaSet
    assert c.condition("Progressing")["reason"] == util.PAUSED_DEPLOY_REASON

    def resume(d: dict[str, Any]) -> None:
        d["spec"]["paused"] = False
    c.edit(resume)
    c.checks.append(rolling_invariants(c))
    c.settle(lambda: c.complete() and c.rs_by_image() == {IMAGE_V1: 0, IMAGE_V2: 3})
    assert c.condition("Progressing")["reason"] == util.NEW_RS_AVAILABLE_REASON


def test_rollback_to_an_earlier_revision():
    c = Cluster()
    c.create(deployment(replicas=3, max_surge=1, max_unavailable=1))
    c.settle(c.complete)
    c.set_image(IMAGE_V2)
    c.settle(lambda: c.complete() and c.rs_by_image() == {IMAGE_V1: 0, IMAGE_V2: 3})
    first_rs = c.replica_sets()[0]["metadata"]["name"]

    def roll_back_to_1(d: dict[str, Any]) -> None:
        d["metadata"].setdefault("annotations", {})[util.DEPRECATED_ROLLBACK_TO] = "1"
    c.edit(roll_back_to_1)
    c.checks.append(rolling_invariants(c))
    c.settle(lambda: c.complete() and c.rs_by_image() == {IMAGE_V2: 0, IMAGE_V1: 3})
    d = c.get()
    assert util.DEPRECATED_ROLLBACK_TO not in d["metadata"].get("annotations", {})
    assert d["spec"]["template"]["spec"]["containers"][0]["image"] == IMAGE_V1
    assert d["metadata"]["annotations"][util.REVISION_ANNOTATION] == "3"
    newest = c.replica_sets()[-1]
    assert newest["metadata"]["name"] == first_rs  # the revision-1 ReplicaSet is reused, now revision 3
    assert newest["metadata"]["annotations"][util.REVISION_HISTORY_ANNOTATION] == "1"


def test_progress_deadline_exceeded():
    c = Cluster()
    c.create(deployment(replicas=3, max_surge=1, max_unavailable=0, progress_deadline_seconds=30))
    c.settle(c.complete)
    c.set_image(BROKEN)
    start = c.clock.now()

    def timed_out() -> bool:
        cond = c.condition("Progressing")
        return cond is not None and cond["reason"] == util.TIMED_OUT_REASON

    c.settle(timed_out, timeout=300)
    cond = c.condition("Progressing")
    assert cond["status"] == "False"
    assert cond["message"].endswith("has timed out progressing.")
    waited = (c.clock.now() - start).total_seconds()
    assert 30 <= waited <= 40, waited  # the requeue for the deadline, not a resync, woke it


def test_revision_history_cleanup():
    c = Cluster()
    c.create(deployment(replicas=2, max_surge=1, max_unavailable=0, revision_history_limit=1))
    c.settle(c.complete)
    for image in (IMAGE_V2, IMAGE_V3):
        c.set_image(image)
        c.settle(lambda: c.complete() and all(r["spec"]["replicas"] == 0 for r in c.replica_sets()[:-1]))
    c.settle(lambda: len(c.replica_sets()) == 2)
    revisions = [r["metadata"]["annotations"][util.REVISION_ANNOTATION] for r in c.replica_sets()]
    assert revisions == ["2", "3"]  # revision 1, the oldest, is gone
    assert c.rs_by_image() == {IMAGE_V2: 0, IMAGE_V3: 2}


def test_adoption_of_orphaned_replica_sets():
    c = Cluster()
    orphan = {
        "apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": {"name": "web-orphan", "namespace": NS, "labels": {"app": "web"}},
        "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
                 "template": {"metadata": {"labels": {"app": "web"}},
                              "spec": {"containers": [{"name": "app", "image": IMAGE_V1}],
                                       "terminationGracePeriodSeconds": 5}}},
    }
    c.server.create("replicasets", NS, orphan)
    c.settle(lambda: sum(1 for p in c.pods() if p.get("status", {}).get("phase") == "Running") == 2)
    c.create(deployment(replicas=2, max_surge=1, max_unavailable=0))
    c.settle(c.complete)
    (rs,) = c.replica_sets()
    assert rs["metadata"]["name"] == "web-orphan"  # adopted and used as the new ReplicaSet: no second one
    assert [o["kind"] for o in rs["metadata"]["ownerReferences"]] == ["Deployment"]
    assert rs["metadata"]["ownerReferences"][0]["uid"] == c.get()["metadata"]["uid"]
    assert rs["metadata"]["annotations"][util.REVISION_ANNOTATION] == "1"


def run_rollout_trace(seed: int) -> list[str]:
    c = Cluster(seed=seed, kubelet=KubeletConfig(placement="random"))
    c.create(deployment(replicas=5, max_surge=2, max_unavailable=1))
    c.settle(c.complete)
    c.set_image(IMAGE_V2)
    c.settle(c.complete)
    pods = sorted((p["metadata"]["name"], p["spec"].get("nodeName", ""), p.get("status", {}).get("podIP", ""))
                  for p in c.pods())
    return [str(e) for e in c.driver.trace] + [repr(pods)]


def test_same_seed_same_trace():
    first = run_rollout_trace(seed=7)
    assert first == run_rollout_trace(seed=7)
    assert len(first) > 100


def test_a_burst_of_pod_events_folds_into_few_syncs():
    # The driver delivers every watch event before a worker runs (minikcm.driver), so the ReplicaSet
    # controller's queue folds each burst of pod events into one sync: a rollout of 200 replicas takes
    # a few dozen syncs, not several per pod. Under a driver that ran a worker after each event the
    # ReplicaSet controller synced about seven times per pod.
    c = Cluster()
    c.create(deployment(replicas=200, max_surge="25%", max_unavailable="25%"))
    c.settle(c.complete)
    before = sum(1 for e in c.driver.trace if e.step == "replicaset/worker")
    c.set_image(IMAGE_V2)
    c.settle(lambda: c.complete() and c.rs_by_image() == {IMAGE_V1: 0, IMAGE_V2: 200})
    syncs = sum(1 for e in c.driver.trace if e.step == "replicaset/worker") - before
    assert 0 < syncs <= 60, syncs
