"""Tests for minikcm.sim.kubelet (no upstream twin): the simulated kubelet and scheduler.

Every test but the last runs under the deterministic driver: the embedded API
server, a deterministic pod informer and the kubelet, on one FakeClock.
"""

from __future__ import annotations

import random
import threading
import time
from datetime import timedelta

import pytest

from minikcm.apimachinery import errors
from minikcm.apimachinery.meta import DeleteOptions
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.client.testing import Fake
from minikcm.clock import EPOCH, FakeClock, RealClock
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.driver import Driver
from minikcm.sim.kubelet import (
    CRASH_AFTER_ANNOTATION,
    IMAGE_PULL_ERROR_ANNOTATION,
    NEVER_READY_ANNOTATION,
    READY_DELAY_ANNOTATION,
    START_DELAY_ANNOTATION,
    Kubelet,
    KubeletConfig,
    host_ip_of,
    image_id,
    new_kubelet,
    parse_duration,
)


class Cluster:
    """An API server, a deterministic pod informer and a kubelet, driven together."""

    def __init__(self, config: KubeletConfig | None = None, seed: int = 1) -> None:
        self.clock = FakeClock(EPOCH, driven=True)
        self.server = APIServer(clock=self.clock, rng=random.Random(seed))
        self.client = InProcessClientset(self.server)
        self.factory = new_shared_informer_factory_with_options(
            self.client, 0, clock=self.clock, rng=random.Random(seed))
        self.kubelet: Kubelet = new_kubelet(self.client, self.factory.core().v1().pods(), config=config,
                                            rng=random.Random(seed))
        self.factory.start(threading.Event())
        self.driver = Driver(self.clock, self.factory.steps() + self.kubelet.steps())

    def create_pod(self, name: str, image: str = "nginx:1.27", annotations: dict | None = None,
                   containers: int = 1) -> None:
        pod = {"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": name, "namespace": "default", "annotations": annotations or {}},
               "spec": {"containers": [{"name": f"c{i}", "image": image} for i in range(containers)]}}
        self.client.core_v1().pods("default").create(pod)

    def pod(self, name: str):
        return self.client.core_v1().pods("default").get(name)

    def at(self, seconds: float) -> None:
        """Run the driver until `seconds` after EPOCH."""
        self.driver.run_for((EPOCH + timedelta(seconds=seconds) - self.clock.now()).total_seconds())

    def condition(self, name: str, cond_type: str):
        return next(c for c in self.pod(name).status.conditions if c.type == cond_type)


def test_pod_is_bound_started_and_made_ready_on_the_fake_clock():
    """Pending -> bound to sim-node-0 -> Running at 1 s -> Ready at 2 s, with a full status."""
    c = Cluster()
    c.create_pod("web")
    c.at(0.5)
    pod = c.pod("web")
    assert pod.spec.node_name == "sim-node-0"
    assert pod.status.phase == "Pending"
    assert c.condition("web", "PodScheduled").status == "True"

    c.at(1.5)
    pod = c.pod("web")
    assert pod.status.phase == "Running"
    assert c.condition("web", "Ready").status == "False"
    assert c.condition("web", "Initialized").status == "True"
    (cs,) = pod.status.container_statuses
    assert (cs.started, cs.ready, cs.restart_count) == (True, False, 0)
    assert cs.state.running.started_at == EPOCH + timedelta(seconds=1)
    assert cs.image == "nginx:1.27"
    assert cs.image_id.startswith("docker.io/library/nginx@sha256:")
    assert cs.container_id.startswith("containerd://")
    assert pod.status.host_ip == "10.0.0.10"
    assert pod.status.pod_ip.startswith("10.244.0.")
    assert pod.status.start_time == EPOCH

    c.driver.run_until_idle()
    assert c.clock.now() == EPOCH + timedelta(seconds=2)  # nothing more is planned
    pod = c.pod("web")
    assert [(x.type, x.status) for x in pod.status.conditions if x.type in ("Ready", "ContainersReady")] == [
        ("Ready", "True"), ("ContainersReady", "True")]
    assert c.condition("web", "Ready").last_transition_time == EPOCH + timedelta(seconds=2)
    assert c.condition("web", "Initialized").last_transition_time == EPOCH + timedelta(seconds=1)
    assert pod.status.container_statuses[0].ready


def test_round_robin_placement_and_per_node_ips():
    c = Cluster()
    for i in range(4):
        c.create_pod(f"p{i}")
    c.driver.run_until_idle()
    pods = {f"p{i}": c.pod(f"p{i}") for i in range(4)}
    assert [pods[f"p{i}"].spec.node_name for i in range(4)] == ["sim-node-0", "sim-node-1", "sim-node-2",
                                                               "sim-node-0"]
    assert [pods[f"p{i}"].status.host_ip for i in range(4)] == ["10.0.0.10", "10.0.0.11", "10.0.0.12", "10.0.0.10"]
    assert pods["p0"].status.pod_ip != pods["p3"].status.pod_ip  # one pool per node, no reuse
    assert all(p.status.pod_ip.startswith(f"10.244.{p.spec.node_name[-1]}.") for p in pods.values())


def test_random_placement_is_seeded():
    def nodes(seed: int) -> list[str]:
        c = Cluster(KubeletConfig(placement="random", nodes=5), seed=seed)
        for i in range(6):
            c.create_pod(f"p{i}")
        c.driver.run_until_idle()
        return [c.pod(f"p{i}").spec.node_name for i in range(6)]

    assert nodes(3) == nodes(3)
    assert set(nodes(3)) <= {f"sim-node-{i}" for i in range(5)}


def test_schedule_and_per_pod_delays():
    c = Cluster(KubeletConfig(schedule_delay=5.0))
    c.create_pod("slow", annotations={START_DELAY_ANNOTATION: "10s", READY_DELAY_ANNOTATION: "1m"})
    c.at(4.9)
    assert not c.pod("slow").spec.node_name
    c.at(5.0)
    assert c.pod("slow").spec.node_name == "sim-node-0"
    c.at(14.9)
    assert (c.pod("slow").status.phase or "Pending") == "Pending"
    c.at(15.0)
    assert c.pod("slow").status.phase == "Running"
    c.driver.run_until_idle()
    assert c.clock.now() == EPOCH + timedelta(seconds=75)
    assert c.condition("slow", "Ready").status == "True"


def test_never_ready_pod_runs_and_settles():
    c = Cluster()
    c.create_pod("stuck", annotations={NEVER_READY_ANNOTATION: "true"})
    c.driver.run_until_idle()
    pod = c.pod("stuck")
    assert pod.status.phase == "Running"
    assert c.condition("stuck", "Ready").status == "False"
    assert c.condition("stuck", "Ready").reason == "ContainersNotReady"
    assert pod.status.container_statuses[0].started and not pod.status.container_statuses[0].ready


@pytest.mark.parametrize("image, annotations", [
    pytest.param("nginx:broken", {}, id="broken-image-name"),
    pytest.param("nginx:1.27", {IMAGE_PULL_ERROR_ANNOTATION: "true"}, id="image-pull-error-annotation"),
])
def test_unpullable_image_stays_pending(image, annotations):
    c = Cluster()
    c.create_pod("bad", image=image, annotations=annotations, containers=2)
    c.at(1.5)
    statuses = c.pod("bad").status.container_statuses
    assert [s.state.waiting.reason for s in statuses] == ["ErrImagePull", "ErrImagePull"]
    c.driver.run_until_idle()
    pod = c.pod("bad")
    assert pod.status.phase == "Pending"
    assert [s.state.waiting.reason for s in pod.status.container_statuses] == ["ImagePullBackOff"] * 2
    assert not any(s.ready or s.started for s in pod.status.container_statuses)
    assert pod.status.container_statuses[0].image_id == ""
    assert c.condition("bad", "Ready").status == "False"


def test_crash_after_restarts_with_crash_loop_backoff():
    """crash-after 30s: exits at 31 s (started at 1 s), back-off 10 s, restart at 41 s, exits at 71 s, 20 s..."""
    c = Cluster()
    c.create_pod("crashy", annotations={CRASH_AFTER_ANNOTATION: "30s"})
    c.at(30.0)
    assert c.condition("crashy", "Ready").status == "True"
    c.at(31.0)
    cs = c.pod("crashy").status.container_statuses[0]
    assert cs.state.waiting.reason == "CrashLoopBackOff"
    assert cs.restart_count == 1
    assert cs.last_state.terminated.exit_code == 1
    assert cs.last_state.terminated.finished_at == EPOCH + timedelta(seconds=31)
    assert c.condition("crashy", "Ready").status == "False"
    c.at(41.0)
    cs = c.pod("crashy").status.container_statuses[0]
    assert cs.state.running.started_at == EPOCH + timedelta(seconds=41)
    assert cs.restart_count == 1
    c.at(71.0)
    assert c.pod("crashy").status.container_statuses[0].restart_count == 2
    c.at(90.9)  # second back-off is 20 s
    assert c.pod("crashy").status.container_statuses[0].state.waiting is not None
    c.at(91.0)
    assert c.pod("crashy").status.container_statuses[0].state.running is not None


def test_crash_before_ready_never_becomes_ready():
    c = Cluster(KubeletConfig(ready_delay=10.0))
    c.create_pod("early", annotations={CRASH_AFTER_ANNOTATION: "500ms"})
    c.at(1.5)
    cs = c.pod("early").status.container_statuses[0]
    assert cs.state.waiting.reason == "CrashLoopBackOff"
    assert not cs.ready


def test_graceful_deletion_finishes_at_the_deletion_timestamp():
    c = Cluster()
    c.create_pod("web")
    c.driver.run_until_idle()
    start = c.clock.now()
    c.client.core_v1().pods("default").delete("web", DeleteOptions())
    c.driver.run_for(29.0)
    assert c.pod("web").metadata.deletion_timestamp == start + timedelta(seconds=30)
    c.driver.run_until_idle()
    with pytest.raises(errors.StatusError) as exc:
        c.pod("web")
    assert errors.is_not_found(exc.value)
    assert c.clock.now() == start + timedelta(seconds=30)
    assert c.kubelet.records == {}  # forgotten, IP released
    assert c.kubelet.ip_pool.in_use["sim-node-0"] == set()


def test_finish_deletion_immediately():
    c = Cluster(KubeletConfig(finish_deletion_immediately=True))
    c.create_pod("web")
    c.driver.run_until_idle()
    start = c.clock.now()
    c.client.core_v1().pods("default").delete("web", DeleteOptions())
    c.driver.run_until_idle()
    assert c.clock.now() == start
    assert c.client.core_v1().pods("default").list().items == []


def test_same_seed_same_trace():
    def one_run() -> str:
        c = Cluster(KubeletConfig(placement="random"), seed=9)
        for i in range(3):
            c.create_pod(f"p{i}", annotations={CRASH_AFTER_ANNOTATION: "20s"} if i == 1 else None)
        c.driver.run_for(60)
        ips = [c.pod(f"p{i}").status.pod_ip for i in range(3)]
        return c.driver.trace_text() + repr(ips)

    assert one_run() == one_run()


PARSE_DURATION_CASES = [
    pytest.param("30s", 30.0, id="seconds"),
    pytest.param("1m30s", 90.0, id="minutes-and-seconds"),
    pytest.param("250ms", 0.25, id="milliseconds"),
    pytest.param("2h", 7200.0, id="hours"),
    pytest.param("1.5s", 1.5, id="fraction"),
    pytest.param("12", 12.0, id="plain-number"),
]


@pytest.mark.parametrize("text, seconds", PARSE_DURATION_CASES)
def test_parse_duration(text, seconds):
    assert parse_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", ["", "soon", "5x", "1m-3s"])
def test_parse_duration_rejects(text):
    with pytest.raises(ValueError):
        parse_duration(text)


@pytest.mark.parametrize("image, prefix", [
    pytest.param("nginx", "docker.io/library/nginx@sha256:", id="bare"),
    pytest.param("nginx:1.27", "docker.io/library/nginx@sha256:", id="tagged"),
    pytest.param("registry.local:5000/team/app:v2", "registry.local:5000/team/app@sha256:", id="registry-port"),
])
def test_image_id(image, prefix):
    assert image_id(image).startswith(prefix)
    assert image_id(image) == image_id(image)


def test_bad_annotation_falls_back_to_default():
    c = Cluster()
    c.create_pod("odd", annotations={START_DELAY_ANNOTATION: "later"})
    c.at(1.0)
    assert c.pod("odd").status.phase == "Running"


class GroupsOnly:
    """A clientset that offers only the group accessors of client.Interface (no `.server`)."""

    def __init__(self, inner: InProcessClientset) -> None:
        self.inner = inner

    def core_v1(self):
        return self.inner.core_v1()

    def apps_v1(self):
        return self.inner.apps_v1()

    def coordination_v1(self):
        return self.inner.coordination_v1()


def test_scheduling_binds_through_the_clientset():
    """The bind goes through pods(ns).bind, so any clientset works and a Fake records it."""
    clock = FakeClock(EPOCH, driven=True)
    server = APIServer(clock=clock, rng=random.Random(1))
    recorded = InProcessClientset(server, fake=Fake())
    client = GroupsOnly(recorded)
    factory = new_shared_informer_factory_with_options(client, 0, clock=clock, rng=random.Random(1))
    kubelet = new_kubelet(client, factory.core().v1().pods(), rng=random.Random(1))
    factory.start(threading.Event())
    driver = Driver(clock, factory.steps() + kubelet.steps())
    client.core_v1().pods("default").create({
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "nginx"}]}})
    driver.run_for(0.5)
    assert client.core_v1().pods("default").get("web").spec.node_name == "sim-node-0"
    binds = [str(a) for a in recorded.fake.actions() if a.get_subresource() == "binding"]
    assert binds == ["create pods/binding default/web"]


@pytest.mark.threaded
def test_threaded_run_makes_a_pod_ready():
    clock = RealClock()
    server = APIServer(clock=clock, rng=random.Random(1))
    client = InProcessClientset(server)
    factory = new_shared_informer_factory_with_options(client, 0, clock=clock)
    kubelet = new_kubelet(client, factory.core().v1().pods(),
                          config=KubeletConfig(start_delay=0.05, ready_delay=0.05))
    stop = threading.Event()
    factory.start(stop)
    runner = threading.Thread(target=kubelet.run, args=(stop,), daemon=True)
    runner.start()
    try:
        client.core_v1().pods("default").create({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "default"},
            "spec": {"containers": [{"name": "c", "image": "nginx"}]}})
        deadline = time.monotonic() + 10
        ready = False
        while time.monotonic() < deadline and not ready:
            pod = client.core_v1().pods("default").get("web")
            ready = any(c.type == "Ready" and c.status == "True" for c in (pod.status.conditions or []))
            time.sleep(0.02)
        assert ready
    finally:
        stop.set()
        runner.join(5)
        factory.shutdown()
    assert not runner.is_alive()


# -- node capacity: the scheduler keeps to max_pods; the rest stay Pending ---------------------------


def test_a_pod_that_fits_nowhere_stays_pending_as_unschedulable():
    c = Cluster(KubeletConfig(nodes=2, max_pods=2))
    for i in range(5):
        c.create_pod(f"p{i}")
    c.driver.run_until_idle()
    nodes = [c.pod(f"p{i}").spec.node_name for i in range(5)]
    assert nodes == ["sim-node-0", "sim-node-1", "sim-node-0", "sim-node-1", None]
    late = c.pod("p4")
    assert late.status.phase == "Pending"
    scheduled = c.condition("p4", "PodScheduled")
    assert (scheduled.status, scheduled.reason) == ("False", "Unschedulable")
    assert scheduled.message.startswith("0/2 nodes are available: 2 Too many pods.")
    events = c.client.core_v1().events("default").list().items
    failed = [e for e in events if e.reason == "FailedScheduling"]
    assert [(e.involved_object.name, e.type, e.source.component) for e in failed] == [
        ("p4", "Warning", "default-scheduler")]


def test_an_unschedulable_pod_is_not_retried_with_backoff():
    """Once said, nothing more happens: no requeue, no second status write, no second event."""
    c = Cluster(KubeletConfig(nodes=1, max_pods=1))
    c.create_pod("p0")
    c.create_pod("p1")
    c.driver.run_until_idle()  # settles: an unschedulable pod does not keep the driver busy
    assert c.kubelet.queue.len() == 0
    version = c.pod("p1").metadata.resource_version
    c.at((c.clock.now() - EPOCH).total_seconds() + 3600)
    assert c.pod("p1").metadata.resource_version == version
    assert len(c.client.core_v1().events("default").list().items) == 1


def test_a_pod_leaving_a_node_makes_room_for_the_oldest_waiting_pod():
    c = Cluster(KubeletConfig(nodes=1, max_pods=1, finish_deletion_immediately=True))
    for name in ("p0", "p1", "p2"):
        c.create_pod(name)
    c.driver.run_until_idle()
    assert [c.pod(n).spec.node_name for n in ("p0", "p1", "p2")] == ["sim-node-0", None, None]
    c.client.core_v1().pods("default").delete("p0", DeleteOptions())
    c.driver.run_until_idle()
    assert c.pod("p1").spec.node_name == "sim-node-0"
    assert c.condition("p1", "PodScheduled").status == "True"  # the binding replaced the condition
    assert c.pod("p1").status.phase == "Running"
    assert not c.pod("p2").spec.node_name  # still waiting: one place freed, one pod moved in


def test_thousands_of_pods_get_distinct_addresses_within_their_node_range():
    config = KubeletConfig(nodes=300, max_pods=110)
    c = Cluster(config)
    addresses = {c.kubelet.ip_pool.allocate(i, f"sim-node-{i}") for i in (0, 255, 256, 299)}
    assert addresses and all(a.startswith(("10.244.0.", "10.244.255.", "10.245.0.", "10.245.43.")) for a in addresses)
    assert {host_ip_of(i) for i in range(300)}.__len__() == 300  # every node its own host address


@pytest.mark.parametrize("max_pods", [0, 254, -1])
def test_max_pods_beyond_a_node_range_is_refused(max_pods):
    with pytest.raises(ValueError, match="max_pods must be between 1 and 253"):
        Cluster(KubeletConfig(max_pods=max_pods))
