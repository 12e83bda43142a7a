"""Integration: the ReplicaSet controller and the simulated kubelet over the embedded API server.

Everything runs under the deterministic driver on one FakeClock: the API
server, a shared informer factory, the ReplicaSet controller (its worker,
queue and event steps) and the kubelet. A ReplicaSet of 3 must reach 3 ready
pods; scaling to 5 and to 1 must follow; a deleted pod must be replaced;
minReadySeconds must delay availableReplicas; the same seed must give the
same trace.
"""

from __future__ import annotations

import random
import threading
from datetime import timedelta

from minikcm.apimachinery.meta import DeleteOptions
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.replicaset.replica_set import BURST_REPLICAS, new_replica_set_controller
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.driver import Driver
from minikcm.sim.kubelet import IMAGE_PULL_ERROR_ANNOTATION, KubeletConfig, new_kubelet


class Cluster:
    def __init__(self, seed: int = 1, config: KubeletConfig | None = None) -> None:
        self.clock = FakeClock(EPOCH, driven=True)
        self.server = APIServer(clock=self.clock, rng=random.Random(seed))
        self.client = InProcessClientset(self.server)
        self.factory = new_shared_informer_factory_with_options(
            self.client, 0, clock=self.clock, rng=random.Random(seed))
        self.rsc = new_replica_set_controller(self.factory.apps().v1().replica_sets(),
                                              self.factory.core().v1().pods(), self.client, BURST_REPLICAS)
        self.kubelet = new_kubelet(self.client, self.factory.core().v1().pods(), config=config,
                                   rng=random.Random(seed))
        self.factory.start(threading.Event())
        self.rsc.start_event_recording()  # Run's first lines; the driver runs its loops
        self.driver = Driver(self.clock, self.factory.steps() + self.rsc.steps() + self.kubelet.steps())
        self.max_pods = 0
        self.driver.observers.append(self.observe)

    def observe(self, driver: Driver) -> None:
        self.max_pods = max(self.max_pods, len(self.server.list("pods", "default")["items"]))

    def create_rs(self, replicas: int, min_ready_seconds: int = 0, annotations: dict | None = None) -> None:
        self.client.apps_v1().replica_sets("default").create({
            "apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web", "namespace": "default"},
            "spec": {"replicas": replicas, "minReadySeconds": min_ready_seconds,
                     "selector": {"matchLabels": {"app": "web"}},
                     "template": {"metadata": {"labels": {"app": "web"}, "annotations": annotations or {}},
                                  "spec": {"containers": [{"name": "c", "image": "nginx:1.27"}]}}}})

    def scale(self, replicas: int) -> None:
        rs = self.client.apps_v1().replica_sets("default").get("web")
        rs.spec.replicas = replicas
        self.client.apps_v1().replica_sets("default").update(rs)

    def status(self):
        return self.client.apps_v1().replica_sets("default").get("web").status

    def pods(self):
        return self.client.core_v1().pods("default").list().items

    def ready_pods(self) -> list[str]:
        return sorted(p.metadata.name for p in self.pods() if p.metadata.deletion_timestamp is None and any(
            c.type == "Ready" and c.status == "True" for c in (p.status.conditions or [])))


def counts(status) -> tuple[int, int, int]:
    return status.replicas, status.ready_replicas or 0, status.available_replicas or 0


def test_replica_set_reaches_ready_pods_and_scales():
    c = Cluster()
    c.create_rs(3)
    c.driver.run_until_idle()
    assert counts(c.status()) == (3, 3, 3)
    assert len(c.ready_pods()) == 3
    assert {p.spec.node_name for p in c.pods()} == {"sim-node-0", "sim-node-1", "sim-node-2"}
    assert all(p.metadata.owner_references[0].name == "web" for p in c.pods())
    assert c.status().observed_generation == 1

    c.scale(5)
    c.driver.run_until_idle()
    assert counts(c.status()) == (5, 5, 5)
    assert len(c.ready_pods()) == 5
    assert c.max_pods == 5  # never more than asked for

    c.scale(1)
    c.driver.run_for(1)  # the controller reacts at once; the kubelet waits out the grace period
    assert c.status().replicas == 1
    assert c.status().terminating_replicas == 4
    c.driver.run_until_idle()
    assert counts(c.status()) == (1, 1, 1)
    assert c.status().terminating_replicas == 0
    assert len(c.pods()) == 1

    reasons = sorted({e.reason for e in c.client.core_v1().events("default").list().items})
    assert reasons == ["SuccessfulCreate", "SuccessfulDelete"]


def test_deleted_pod_is_replaced():
    c = Cluster()
    c.create_rs(3)
    c.driver.run_until_idle()
    victim = c.ready_pods()[0]
    c.client.core_v1().pods("default").delete(victim, DeleteOptions())
    c.driver.run_for(5)  # long before the 30 s grace period ends
    ready = c.ready_pods()
    assert victim not in ready and len(ready) == 3  # a replacement is up already
    assert c.status().terminating_replicas == 1
    c.driver.run_until_idle()
    assert len(c.pods()) == 3
    assert counts(c.status()) == (3, 3, 3)


def test_min_ready_seconds_delays_availability():
    c = Cluster()
    c.create_rs(2, min_ready_seconds=10)
    ready_at = None
    assert c.driver.run_until(lambda: (c.status().ready_replicas or 0) == 2)
    ready_at = c.clock.now()
    assert (c.status().available_replicas or 0) == 0
    c.driver.run_until_idle()  # the requeue after minReadySeconds updates the status
    assert counts(c.status()) == (2, 2, 2)
    assert c.clock.now() >= ready_at + timedelta(seconds=9)


def test_unpullable_image_never_gets_ready():
    c = Cluster()
    c.create_rs(2, annotations={IMAGE_PULL_ERROR_ANNOTATION: "true"})
    c.driver.run_until_idle()
    assert counts(c.status()) == (2, 0, 0)
    assert all(p.status.container_statuses[0].state.waiting.reason == "ImagePullBackOff" for p in c.pods())


def test_same_seed_same_trace():
    def one_run(seed: int) -> str:
        c = Cluster(seed=seed, config=KubeletConfig(placement="random"))
        c.create_rs(3)
        c.driver.run_until_idle()
        c.scale(5)
        c.driver.run_until_idle()
        c.client.core_v1().pods("default").delete(c.ready_pods()[0], DeleteOptions())
        c.scale(2)
        c.driver.run_until_idle()
        names = sorted(p.metadata.name + "@" + p.spec.node_name + "/" + p.status.pod_ip for p in c.pods())
        return c.driver.trace_text() + "\n" + "\n".join(names)

    first = one_run(4)
    assert first == one_run(4)
    assert first != one_run(5)
