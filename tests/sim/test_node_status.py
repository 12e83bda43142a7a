"""Tests for minikcm.sim.node_status: node registration, leases, status reports, and the scheduler's filter.

Everything runs under the deterministic driver: the embedded API server, a
pod and a node informer, the kubelet and the node-status manager on one FakeClock.
"""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from kubernetes.client import V1Node, V1NodeSpec, V1ObjectMeta, V1Pod, V1PodSpec, V1Taint, V1Toleration

from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.driver import Driver
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.sim.kubelet import KubeletConfig, host_ip_of, new_kubelet, pod_cidr_prefix
from minikcm.sim.node_status import (
    KUBELET_VERSION,
    NODE_LEASE_NAMESPACE,
    NodeStatusManager,
    fit_error_message,
    fit_failure,
    tolerates_taint,
)


class Cluster:
    def __init__(self, nodes: int = 3, max_pods: int = 110) -> None:
        self.clock = FakeClock(EPOCH, driven=True)
        self.server = APIServer(clock=self.clock, rng=random.Random(1))
        self.client = InProcessClientset(self.server)
        self.factory = new_shared_informer_factory_with_options(self.client, 0, clock=self.clock,
                                                                rng=random.Random(1))
        self.kubelet = new_kubelet(self.client, self.factory.core().v1().pods(),
                                   config=KubeletConfig(nodes=nodes, max_pods=max_pods), rng=random.Random(1))
        self.nodes = NodeStatusManager(self.client, self.clock, self.kubelet.node_names, host_ip_of=host_ip_of,
                                       pod_cidr_of=lambda i: f"{pod_cidr_prefix(i)}.0/24")
        self.nodes.attach(self.kubelet, self.factory.core().v1().nodes())
        self.factory.start(threading.Event())
        self.driver = Driver(self.clock, self.factory.steps() + self.kubelet.steps() + self.nodes.steps())

    def at(self, seconds: float) -> None:
        self.driver.run_for((EPOCH + timedelta(seconds=seconds) - self.clock.now()).total_seconds())

    def node(self, name: str = "sim-node-0") -> dict:
        return self.server.get("nodes", None, name)

    def lease(self, name: str = "sim-node-0") -> dict:
        return self.server.get("leases", NODE_LEASE_NAMESPACE, name)

    def create_pod(self, name: str, tolerations: list | None = None) -> None:
        spec = {"containers": [{"name": "c", "image": "nginx"}]}
        if tolerations:
            spec["tolerations"] = tolerations
        self.client.core_v1().pods("default").create(
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"}, "spec": spec})

    def pod_node(self, name: str) -> str | None:
        return self.server.get("pods", "default", name)["spec"].get("nodeName")


def test_nodes_register_ready_with_capacity_addresses_and_info():
    c = Cluster()
    c.at(0.1)
    node = c.node("sim-node-1")
    status = node["status"]
    assert status["capacity"]["pods"] == "110" and status["allocatable"]["pods"] == "110"
    assert {"cpu", "memory", "ephemeral-storage"} <= set(status["allocatable"])
    assert [cond["type"] for cond in status["conditions"]] == ["MemoryPressure", "DiskPressure", "PIDPressure",
                                                              "Ready"]
    assert status["conditions"][-1]["status"] == "True"
    assert status["addresses"][0] == {"type": "InternalIP", "address": host_ip_of(1)}
    assert status["nodeInfo"]["kubeletVersion"] == KUBELET_VERSION == "v1.36.3"
    assert node["spec"]["podCIDR"] == "10.244.1.0/24"
    assert node["metadata"]["labels"]["kubernetes.io/hostname"] == "sim-node-1"


def test_lease_is_owned_by_the_node_and_renewed_every_10s():
    c = Cluster()
    c.at(0.1)
    lease = c.lease()
    assert lease["spec"]["holderIdentity"] == "sim-node-0" and lease["spec"]["leaseDurationSeconds"] == 40
    owner = lease["metadata"]["ownerReferences"][0]
    assert (owner["kind"], owner["name"], owner["uid"]) == ("Node", "sim-node-0", c.node()["metadata"]["uid"])
    renewals = []
    for t in (5, 10.05, 15, 20.05, 30.05):
        c.at(t)
        renewals.append(c.lease()["spec"]["renewTime"])
    assert renewals[0] == lease["spec"]["renewTime"]  # nothing at 5 s
    assert renewals[1] == "2026-01-01T00:00:10.000000Z" and renewals[2] == renewals[1]
    assert renewals[3] == "2026-01-01T00:00:20.000000Z" and renewals[4] == "2026-01-01T00:00:30.000000Z"


def test_status_is_written_at_the_report_frequency_when_nothing_changes():
    """Computed every 10 s, written only every 5 m (nodeStatusReportFrequency) while unchanged."""
    c = Cluster(nodes=1)
    c.at(0.1)
    first = c.node()
    c.at(290)
    assert c.node()["metadata"]["resourceVersion"] == first["metadata"]["resourceVersion"]
    c.at(301)
    later = c.node()
    ready = later["status"]["conditions"][-1]
    assert ready["lastHeartbeatTime"] == "2026-01-01T00:05:00Z"
    assert ready["lastTransitionTime"] == first["status"]["conditions"][-1]["lastTransitionTime"]


def test_a_status_changed_by_someone_else_is_written_back_at_the_next_sync():
    c = Cluster(nodes=1)
    c.at(0.1)
    c.server.patch("nodes", None, "sim-node-0", "application/merge-patch+json",
                   {"status": {"nodeInfo": {"kubeletVersion": "v0.0.0"}}}, subresource="status")
    c.at(10.5)
    assert c.node()["status"]["nodeInfo"]["kubeletVersion"] == KUBELET_VERSION


def test_a_deleted_node_registers_again():
    c = Cluster(nodes=1)
    c.at(0.1)
    c.server.delete("nodes", None, "sim-node-0")
    c.at(10.5)
    assert c.node()["status"]["conditions"][-1]["type"] == "Ready"


def test_cordon_keeps_new_pods_off_and_uncordon_brings_them_back():
    c = Cluster(nodes=2)
    c.at(0.1)
    c.server.patch("nodes", None, "sim-node-0", "application/merge-patch+json", {"spec": {"unschedulable": True}})
    c.at(0.2)
    for i in range(4):
        c.create_pod(f"p{i}")
    c.at(1)
    assert {c.pod_node(f"p{i}") for i in range(4)} == {"sim-node-1"}


def test_pods_that_fit_nowhere_stay_pending_and_move_when_a_node_is_uncordoned():
    c = Cluster(nodes=2)
    c.at(0.1)
    for name in ("sim-node-0", "sim-node-1"):
        c.server.patch("nodes", None, name, "application/merge-patch+json", {"spec": {"unschedulable": True}})
    c.at(0.2)
    c.create_pod("waiting")
    c.at(1)
    pod = c.server.get("pods", "default", "waiting")
    scheduled = next(cond for cond in pod["status"]["conditions"] if cond["type"] == "PodScheduled")
    assert scheduled["reason"] == "Unschedulable"
    assert scheduled["message"] == ("0/2 nodes are available: 2 node(s) were unschedulable. preemption: 0/2 nodes "
                                    "are available: 2 Preemption is not helpful for scheduling.")
    c.server.patch("nodes", None, "sim-node-1", "application/merge-patch+json", {"spec": {"unschedulable": False}})
    c.at(2)
    assert c.pod_node("waiting") == "sim-node-1"


def test_taints_keep_pods_off_unless_tolerated():
    c = Cluster(nodes=2)
    c.at(0.1)
    c.server.patch("nodes", None, "sim-node-0", "application/merge-patch+json",
                   {"spec": {"taints": [{"key": "gpu", "value": "yes", "effect": "NoSchedule"}]}})
    c.at(0.2)
    c.create_pod("plain")
    c.create_pod("tolerant", tolerations=[{"key": "gpu", "operator": "Exists", "effect": "NoSchedule"}])
    c.at(1)
    assert c.pod_node("plain") == "sim-node-1"
    assert c.pod_node("tolerant") == "sim-node-0"  # round robin: node 0 is next and it fits


def _node(unschedulable=False, taints=()):
    return V1Node(metadata=V1ObjectMeta(name="n"), spec=V1NodeSpec(unschedulable=unschedulable, taints=list(taints)))


def _pod(*tolerations):
    return V1Pod(spec=V1PodSpec(containers=[], tolerations=list(tolerations)))


FIT_CASES = [
    pytest.param(_node(), _pod(), "", id="plain"),
    pytest.param(_node(unschedulable=True), _pod(), "node(s) were unschedulable", id="cordoned"),
    pytest.param(_node(unschedulable=True),
                 _pod(V1Toleration(key="node.kubernetes.io/unschedulable", operator="Exists", effect="NoSchedule")),
                 "", id="cordon-tolerated"),
    pytest.param(_node(taints=[V1Taint(key="k", value="v", effect="NoExecute")]), _pod(),
                 "node(s) had untolerated taint {k: v}", id="no-execute"),
    pytest.param(_node(taints=[V1Taint(key="k", value="v", effect="PreferNoSchedule")]), _pod(), "",
                 id="prefer-is-not-a-filter"),
    pytest.param(_node(taints=[V1Taint(key="k", value="v", effect="NoSchedule")]),
                 _pod(V1Toleration(key="k", value="other", effect="NoSchedule")),
                 "node(s) had untolerated taint {k: v}", id="wrong-value"),
    pytest.param(_node(taints=[V1Taint(key="k", value="v", effect="NoSchedule")]),
                 _pod(V1Toleration(operator="Exists")), "", id="tolerate-everything"),
]


@pytest.mark.parametrize("node, pod, reason", FIT_CASES)
def test_fit_failure(node, pod, reason):
    assert fit_failure(node, pod) == reason


TOLERATION_CASES = [
    pytest.param(V1Toleration(key="k", value="v", effect="NoSchedule"), True, id="equal-default"),
    pytest.param(V1Toleration(key="k", operator="Equal", value="x", effect="NoSchedule"), False, id="value-differs"),
    pytest.param(V1Toleration(key="k", operator="Exists"), True, id="exists-any-effect"),
    pytest.param(V1Toleration(key="other", operator="Exists"), False, id="other-key"),
    pytest.param(V1Toleration(key="k", operator="Exists", effect="NoExecute"), False, id="other-effect"),
]


@pytest.mark.parametrize("toleration, ok", TOLERATION_CASES)
def test_tolerates_taint(toleration, ok):
    """Toleration.ToleratesTaint (k8s.io/api/core/v1/toleration.go)."""
    assert tolerates_taint(toleration, V1Taint(key="k", value="v", effect="NoSchedule")) is ok


def test_fit_error_message_sorts_reasons_and_splits_preemption():
    message = fit_error_message(3, {"Too many pods": 2, "node(s) were unschedulable": 1})
    assert message == ("0/3 nodes are available: 1 node(s) were unschedulable, 2 Too many pods. preemption: 0/3 "
                       "nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims "
                       "found for incoming pod.")


def node_events(c: Cluster, name: str = "sim-node-0") -> list[str]:
    return [e["reason"] for e in c.server.list("events", "default", field_selector=(
        f"involvedObject.kind=Node,involvedObject.name={name},involvedObject.uid={name}"))["items"]]


def test_registration_and_cordon_are_recorded_as_the_kubelet_records_them():
    c = Cluster(nodes=1)
    c.at(0.1)
    startup = ["NodeAllocatableEnforced", "NodeHasNoDiskPressure", "NodeHasSufficientMemory",
               "NodeHasSufficientPID", "NodeReady", "Starting"]
    assert sorted(node_events(c)) == startup
    c.server.patch("nodes", None, "sim-node-0", "application/merge-patch+json", {"spec": {"unschedulable": True}})
    c.at(5)
    assert sorted(node_events(c)) == startup  # not seen before the next status sync
    c.at(10.5)
    assert sorted(node_events(c)) == sorted(startup + ["NodeNotSchedulable"])
    c.server.patch("nodes", None, "sim-node-0", "application/merge-patch+json", {"spec": {"unschedulable": None}})
    c.at(20.5)
    assert sorted(node_events(c)) == sorted(startup + ["NodeNotSchedulable", "NodeSchedulable"])


@pytest.mark.threaded
def test_threaded_run_registers_the_nodes_and_stops_when_asked():
    """`run` sleeps on the clock until something is due and calls the same step body as the driver."""
    import time

    from minikcm.clock import RealClock

    server = APIServer()
    manager = NodeStatusManager(InProcessClientset(server), RealClock(), ["a", "b"], host_ip_of=host_ip_of,
                                pod_cidr_of=lambda i: f"{pod_cidr_prefix(i)}.0/24")
    stop = threading.Event()
    thread = threading.Thread(target=manager.run, args=(stop,), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while len(server.list("leases", NODE_LEASE_NAMESPACE)["items"]) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [n["metadata"]["name"] for n in server.list("nodes", None)["items"]] == ["a", "b"]
    stop.set()
    thread.join(2)
    assert not thread.is_alive()
