"""No upstream twin as a file. The simulated kubelet's nodes as API objects: registration, status, leases.

A v1.36 kubelet registers its Node with the API server at start, then keeps
two heartbeats going (KEP-589, node leases):

- the node's Lease in namespace `kube-node-lease`, holder = the node's name,
  `leaseDurationSeconds` 40 (`nodeLeaseDurationSeconds`), renewed every 10 s
  (25 % of the duration: `kubelet.go`, `renewIntervalFraction`), created with
  an owner reference to the Node (component-helpers/apimachinery/lease/controller.go);
- the node's status, computed every `nodeStatusUpdateFrequency` (10 s) and
  written only when something changed or `nodeStatusReportFrequency` (5 m)
  has passed since the last write (kubelet_node_status.go, tryUpdateNodeStatus).

`NodeStatusManager` does both for every node of the simulated kubelet, on the
injected clock, as one step (`kubelet/node-status`) that does whatever is due;
the threaded `run` sleeps on the clock until the next due time and calls the
same step. The Node it registers has what `kubectl describe node` shows:
capacity and allocatable (pods 110, cpu, memory, ephemeral-storage, hugepages),
addresses, nodeInfo (kubeletVersion v1.36.3), the four standard conditions,
the kubelet's labels and annotations.

The scheduler half is here too: `fit_failure` is the simulated scheduler's
node filter (kube-scheduler's NodeUnschedulable and TaintToleration filter
plugins: a cordoned node, or a NoSchedule/NoExecute taint the pod does not
tolerate), which `attach` hands to the kubelet's placement (`Kubelet.pick_node`),
and `fit_error_message` words FailedScheduling as kube-scheduler's FitError does.

Start reading at: NodeStatusManager.sync, then register_node, sync_node_status and renew_lease.

The kubelet's node events are recorded as it records them (Starting,
NodeHasSufficientMemory, ..., NodeReady at registration; NodeNotSchedulable and
NodeSchedulable when a status sync sees a cordon change), so `kubectl describe
node` lists them.

Not simulated: resource fits (cpu, memory), node conditions that change
(pressure, NotReady), the node lifecycle controller (not ported: nobody marks
a silent node NotReady, no RegisteredNode event), images in the status.
Differs from the kubelet: the pod CIDR is set at registration (upstream the
node IPAM controller assigns it); a Node deleted by a user is registered again
at the next status update (upstream the kubelet keeps failing until restarted);
status is written with a strategic merge patch of the whole status.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from kubernetes.client import V1Lease, V1Node, V1Pod, V1Taint

from minikcm.apimachinery import errors
from minikcm.apimachinery.convert import to_wire
from minikcm.apimachinery.meta import CreateOptions, GetOptions, PatchOptions, UpdateOptions
from minikcm.apimachinery.types import STRATEGIC_MERGE_PATCH_TYPE
from minikcm.client.interface import Interface
from minikcm.clock import Clock, Seconds
from minikcm.driver import Step
from minikcm.informers.factory import ResourceInformer
from minikcm.informers.listers import NodeLister
from minikcm.logs import duration_string
from minikcm.tools.cache.controller import ResourceEventHandlerFuncs

log = logging.getLogger(__name__)

KUBELET_VERSION = "v1.36.3"
NODE_LEASE_NAMESPACE = "kube-node-lease"
DEFAULT_NODE_STATUS_UPDATE_FREQUENCY: Seconds = 10.0
"""The kubelet's `nodeStatusUpdateFrequency` default: how often status is computed."""
DEFAULT_NODE_STATUS_REPORT_FREQUENCY: Seconds = 300.0
"""The kubelet's `nodeStatusReportFrequency` default (5m): the longest time between status writes."""
DEFAULT_NODE_LEASE_DURATION_SECONDS = 40
"""The kubelet's `nodeLeaseDurationSeconds` default."""
NODE_LEASE_RENEW_INTERVAL_FRACTION = 0.25
"""The kubelet renews its lease every 25 % of the lease duration (10 s)."""
LEASE_RETRY_INITIAL: Seconds = 0.2
LEASE_RETRY_MAX: Seconds = 7.0
"""The lease controller's backoff after a failed renewal (200 ms doubling, at most 7 s)."""

TAINT_NODE_UNSCHEDULABLE = "node.kubernetes.io/unschedulable"
"""The taint a pod must tolerate to land on a cordoned node (NodeUnschedulable plugin)."""
EVICTION_HARD_MEMORY = 100 * 2**20
"""The kubelet's default `evictionHard` memory.available (100Mi), taken off allocatable memory."""
EVICTION_HARD_NODEFS_FRACTION = 0.10
"""The kubelet's default `evictionHard` nodefs.available (10%), taken off allocatable storage."""


@dataclass
class NodeStatusConfig:
    """What each simulated node reports, and the kubelet's heartbeat settings."""

    cpu: str = "4"
    memory_bytes: int = 16 * 2**30
    ephemeral_storage_bytes: int = 100 * 2**30
    max_pods: int = 110
    status_update_frequency: Seconds = DEFAULT_NODE_STATUS_UPDATE_FREQUENCY
    status_report_frequency: Seconds = DEFAULT_NODE_STATUS_REPORT_FREQUENCY
    lease_duration_seconds: int = DEFAULT_NODE_LEASE_DURATION_SECONDS


@dataclass
class NodeState:
    """What the manager remembers of one node: when each heartbeat is due."""

    name: str
    index: int
    registered: bool = False
    next_status: datetime | None = None
    """When the status is computed next (None: at once)."""
    last_report: datetime | None = None
    """When the status was last written."""
    next_lease: datetime | None = None
    lease_backoff: Seconds = 0.0
    last_unschedulable: bool = False
    """spec.unschedulable as last seen (the kubelet's lastNodeUnschedulable): a change is an event."""


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _uuid(text: str) -> str:
    d = _digest(text)
    return f"{d[:8]}-{d[8:12]}-{d[12:16]}-{d[16:20]}-{d[20:32]}"


def _time(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def _micro_time(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


STARTUP_EVENTS = ("NodeHasSufficientMemory", "NodeHasNoDiskPressure", "NodeHasSufficientPID")
"""What the condition setters record when they first set each pressure condition."""

CONDITIONS = (
    ("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
    ("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
    ("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
    ("Ready", "True", "KubeletReady", "kubelet is posting ready status"),
)
"""The standard node conditions in the kubelet's order, as a healthy simulated node reports them."""


class NodeStatusManager:
    """Registers the simulated nodes and keeps their leases and status fresh (see the module docstring).

    `host_ip_of(i)` and `pod_cidr_of(i)` give node i's address and pod range
    (the kubelet's, so pods and nodes agree). Thread: `sync` runs on the
    `kubelet/node-status` thread or the driver's; `lister` is read by the
    scheduler's filter from the kubelet's thread.
    """

    def __init__(self, client: Interface, clock: Clock, node_names: list[str], *,
                 host_ip_of: Callable[[int], str], pod_cidr_of: Callable[[int], str],
                 config: NodeStatusConfig | None = None) -> None:
        self.client = client
        self.clock = clock
        self.config = config or NodeStatusConfig()
        self.host_ip_of = host_ip_of
        self.pod_cidr_of = pod_cidr_of
        self.nodes = [NodeState(name, i) for i, name in enumerate(node_names)]
        self.lister: NodeLister | None = None

    def __repr__(self) -> str:
        registered = sum(1 for n in self.nodes if n.registered)
        return f"<NodeStatusManager nodes={len(self.nodes)} registered={registered}>"

    # -- running ------------------------------------------------------------------------------

    def renew_interval(self) -> Seconds:
        """How often a lease is renewed: 25 % of its duration (10 s)."""
        return self.config.lease_duration_seconds * NODE_LEASE_RENEW_INTERVAL_FRACTION

    def next_due(self) -> datetime | None:
        """The earliest time something is due (registration and first heartbeats: now)."""
        times = []
        for node in self.nodes:
            if node.next_status is None or node.next_lease is None:
                return self.clock.now()
            times += [node.next_status, node.next_lease]
        return min(times) if times else None

    def ready(self) -> bool:
        due = self.next_due()
        return due is not None and due <= self.clock.now()

    def steps(self) -> list[Step]:
        """One step, `kubelet/node-status`: register, renew leases and write status where due."""
        return [Step("kubelet/node-status", self.ready, self.sync, wakeup=self.next_due)]

    def run(self, stop: threading.Event) -> None:
        """Threaded mode: sleep on the clock until something is due, then the step body; until `stop`."""
        while not stop.is_set():
            due = self.next_due()
            wait = 1.0 if due is None else max(0.0, self.clock.until(due))
            if wait > 0 and self.clock.sleep(wait, stop):
                return
            try:
                self.sync()
            except Exception:  # noqa: BLE001 - a heartbeat must not die with one bad write
                log.exception("node-status: sync failed; retrying in 1s")
                if self.clock.sleep(1.0, stop):
                    return

    def sync(self) -> int:
        """Do what is due on every node; returns how many writes were made."""
        now = self.clock.now()
        writes = 0
        for node in self.nodes:
            if node.next_status is None or node.next_status <= now:
                writes += self.sync_node_status(node, now)
            if node.next_lease is None or node.next_lease <= now:
                writes += self.renew_lease(node, now)
        return writes

    # -- the Node -----------------------------------------------------------------------------

    def initial_node(self, node: NodeState, now: datetime) -> dict[str, Any]:
        """Port of Kubelet.initialNode plus the status setters (pkg/kubelet/kubelet_node_status.go)."""
        cidr = self.pod_cidr_of(node.index)
        return {
            "apiVersion": "v1", "kind": "Node",
            "metadata": {
                "name": node.name,
                "labels": {"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
                           "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": node.name,
                           "kubernetes.io/os": "linux"},
                "annotations": {"node.alpha.kubernetes.io/ttl": "0",
                                "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            },
            "spec": {"podCIDR": cidr, "podCIDRs": [cidr]},
            "status": self.node_status(node, now, None),
        }

    def node_status(self, node: NodeState, now: datetime, old: dict[str, Any] | None) -> dict[str, Any]:
        """The status setters' result: resources, conditions (transition times kept), addresses, info."""
        c = self.config
        capacity = {"cpu": c.cpu, "ephemeral-storage": f"{c.ephemeral_storage_bytes // 1024}Ki",
                    "hugepages-1Gi": "0", "hugepages-2Mi": "0", "memory": f"{c.memory_bytes // 1024}Ki",
                    "pods": str(c.max_pods)}
        allocatable = dict(capacity)
        allocatable["memory"] = f"{(c.memory_bytes - EVICTION_HARD_MEMORY) // 1024}Ki"
        allocatable["ephemeral-storage"] = str(int(c.ephemeral_storage_bytes * (1 - EVICTION_HARD_NODEFS_FRACTION)))
        old_conditions = {cond.get("type"): cond for cond in (old or {}).get("conditions") or []}
        conditions = []
        for cond_type, status, reason, message in CONDITIONS:
            previous = old_conditions.get(cond_type) or {}
            transition = previous.get("lastTransitionTime") if previous.get("status") == status else None
            conditions.append({"type": cond_type, "status": status, "lastHeartbeatTime": _time(now),
                               "lastTransitionTime": transition or _time(now), "reason": reason,
                               "message": message})
        return {
            "capacity": capacity, "allocatable": allocatable, "conditions": conditions,
            "addresses": [{"type": "InternalIP", "address": self.host_ip_of(node.index)},
                          {"type": "Hostname", "address": node.name}],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {
                "machineID": _digest(f"machine/{node.name}")[:32],
                "systemUUID": _uuid(f"system/{node.name}"),
                "bootID": _uuid(f"boot/{node.name}"),
                "kernelVersion": "6.8.0-minikcm", "osImage": "minikcm simulated node",
                "containerRuntimeVersion": "sim://1.0.0", "kubeletVersion": KUBELET_VERSION,
                "kubeProxyVersion": "", "operatingSystem": "linux", "architecture": "amd64",
            },
        }

    def register_node(self, node: NodeState, now: datetime) -> bool:
        """Port of Kubelet.tryRegisterWithAPIServer (pkg/kubelet/kubelet_node_status.go).

        Create the Node; an existing one is taken over.

        Returns whether the node is registered now (a failure is retried at the next status time).
        """
        try:
            self.client.core_v1().nodes().create(self.initial_node(node, now), CreateOptions())
            log.debug("node-status: registered node %s", node.name)
            node.last_report = now
        except errors.StatusError as err:
            if not errors.is_already_exists(err):
                log.warning("node-status: unable to register node %s with the API server: %s", node.name, err)
                return False
        node.registered = True
        self.record_event(node, now, "Starting", "Starting kubelet.")
        for reason in STARTUP_EVENTS:
            self.record_node_status_event(node, now, reason)
        self.record_event(node, now, "NodeAllocatableEnforced", "Updated Node Allocatable limit across pods")
        self.record_node_status_event(node, now, "NodeReady")
        return True

    def record_node_status_event(self, node: NodeState, now: datetime, reason: str) -> None:
        """Port of Kubelet.recordNodeStatusEvent (pkg/kubelet/kubelet_node_status.go).

        `Node <name> status is now: <reason>`.
        """
        self.record_event(node, now, reason, f"Node {node.name} status is now: {reason}")

    def record_event(self, node: NodeState, now: datetime, reason: str, message: str) -> None:
        """A Normal event on the node, as the kubelet's recorder writes it: in namespace default, the
        node referenced by name with the name as UID (kubectl describe node searches both UIDs).

        A failure is only logged: an event is a courtesy.
        """
        stamp = _time(now)
        event = {
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": f"{node.name}.{_digest(f'{node.name}/{reason}/{now.isoformat()}')[:16]}",
                         "namespace": "default"},
            "involvedObject": {"kind": "Node", "name": node.name, "uid": node.name},
            "reason": reason, "message": message, "type": "Normal",
            "source": {"component": "kubelet", "host": node.name}, "reportingComponent": "kubelet",
            "reportingInstance": node.name, "firstTimestamp": stamp, "lastTimestamp": stamp, "count": 1,
        }
        try:
            self.client.core_v1().events("default").create(event, CreateOptions())
        except errors.StatusError as err:
            log.debug("node-status: could not record %s for node %s: %s", reason, node.name, err)

    def record_node_schedulable_event(self, node: NodeState, now: datetime, unschedulable: bool) -> None:
        """Port of Kubelet.recordNodeSchedulableEvent (pkg/kubelet/kubelet_node_status.go).

        NodeNotSchedulable / NodeSchedulable on a change.
        """
        if unschedulable != node.last_unschedulable:
            self.record_node_status_event(node, now, "NodeNotSchedulable" if unschedulable else "NodeSchedulable")
            node.last_unschedulable = unschedulable

    def sync_node_status(self, node: NodeState, now: datetime) -> int:
        """Port of Kubelet.syncNodeStatus and tryUpdateNodeStatus (pkg/kubelet/kubelet_node_status.go).

        Register, or write the status if due.

        The status is written when it changed (heartbeat times aside) or when
        `status_report_frequency` has passed since the last write.
        """
        node.next_status = now + timedelta(seconds=self.config.status_update_frequency)
        if not node.registered:
            return 1 if self.register_node(node, now) else 0
        try:
            current = self.client.core_v1().nodes().get(node.name, GetOptions())
        except errors.StatusError as err:
            if errors.is_not_found(err):
                node.registered = False  # deleted by someone: register it again (see Differs)
                return 1 if self.register_node(node, now) else 0
            log.warning("node-status: error getting node %s: %s", node.name, err)
            return 0
        self.record_node_schedulable_event(node, now, bool(current.spec and current.spec.unschedulable))
        old = to_wire(current).get("status") or {}
        status = self.node_status(node, now, old)
        changed = _without_heartbeats(status) != _without_heartbeats(old)
        report_due = (node.last_report is None
                      or (now - node.last_report).total_seconds() >= self.config.status_report_frequency)
        if not changed and not report_due:
            return 0
        try:
            self.client.core_v1().nodes().patch(node.name, STRATEGIC_MERGE_PATCH_TYPE, {"status": status},
                                                PatchOptions(), "status")
        except errors.StatusError as err:
            log.warning("node-status: error updating node status of %s, will retry: %s", node.name, err)
            node.next_status = now  # upstream retries nodeStatusUpdateRetry times at once
            return 0
        node.last_report = now
        return 1

    # -- the Lease ----------------------------------------------------------------------------

    def new_lease(self, node: NodeState, now: datetime) -> dict[str, Any]:
        """Port of controller.newLease (component-helpers/apimachinery/lease/controller.go)."""
        lease: dict[str, Any] = {
            "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": node.name, "namespace": NODE_LEASE_NAMESPACE},
            "spec": {"holderIdentity": node.name, "leaseDurationSeconds": self.config.lease_duration_seconds,
                     "renewTime": _micro_time(now)},
        }
        self.set_node_owner(lease, node)
        return lease

    def set_node_owner(self, lease: dict[str, Any], node: NodeState) -> None:
        """Port of setNodeOwnerFunc (pkg/kubelet/util/nodelease.go).

        The lease is owned by its Node (when the Node exists).
        """
        if lease["metadata"].get("ownerReferences"):
            return
        try:
            n: V1Node = self.client.core_v1().nodes().get(node.name, GetOptions())
        except errors.StatusError:
            return  # not registered yet: the next renewal tries again
        lease["metadata"]["ownerReferences"] = [
            {"apiVersion": "v1", "kind": "Node", "name": node.name, "uid": n.metadata.uid}]

    def renew_lease(self, node: NodeState, now: datetime) -> int:
        """Port of controller.sync (component-helpers/apimachinery/lease/controller.go).

        Ensure, then renew: create the lease, or move its renewTime to now.

        A failure backs off from 200 ms, doubling, to at most 7 s; success waits the renew interval.
        """
        leases = self.client.coordination_v1().leases(NODE_LEASE_NAMESPACE)
        try:
            try:
                current: V1Lease = leases.get(node.name, GetOptions())
            except errors.StatusError as err:
                if not errors.is_not_found(err):
                    raise
                leases.create(self.new_lease(node, now), CreateOptions())
            else:
                lease = to_wire(current)
                lease["spec"]["renewTime"] = _micro_time(now)
                lease["spec"]["holderIdentity"] = node.name
                lease["spec"]["leaseDurationSeconds"] = self.config.lease_duration_seconds
                self.set_node_owner(lease, node)
                leases.update(lease, UpdateOptions())
        except errors.StatusError as err:
            node.lease_backoff = min(LEASE_RETRY_MAX, max(LEASE_RETRY_INITIAL, node.lease_backoff * 2))
            node.next_lease = now + timedelta(seconds=node.lease_backoff)
            log.warning("node-status: failed to update lease %s, will retry in %s: %s", node.name,
                        duration_string(node.lease_backoff), err)
            return 0
        node.lease_backoff = 0.0
        node.next_lease = now + timedelta(seconds=self.renew_interval())
        return 1

    # -- the scheduler's filter ---------------------------------------------------------------

    def attach(self, kubelet: Any, node_informer: ResourceInformer[NodeLister]) -> None:
        """Make the kubelet's scheduler honour the Node objects (cordon, taints).

        Gives `Kubelet.pick_node` the filter, and hands waiting pods back to its
        queue whenever a node changes (kube-scheduler moves unschedulable pods
        back to its active queue on node events).
        """
        self.lister = node_informer.lister()

        def node_changed(*_: Any) -> None:
            kubelet.retry_unschedulable()

        node_informer.informer().add_event_handler(ResourceEventHandlerFuncs(
            add_func=node_changed, update_func=node_changed, delete_func=node_changed))
        kubelet.node_filter = self.fit_failure

    def fit_failure(self, pod: V1Pod, node_name: str) -> str:
        """Why `node_name` cannot take `pod` ("" when it can), from the node informer's cache."""
        if self.lister is None:
            return ""
        try:
            node = self.lister.get(node_name)
        except errors.StatusError:
            return ""  # not in the cache yet: our own node, being registered
        return fit_failure(node, pod)


def _without_heartbeats(status: dict[str, Any]) -> dict[str, Any]:
    out = dict(status)
    out["conditions"] = [{k: v for k, v in c.items() if k != "lastHeartbeatTime"}
                         for c in status.get("conditions") or []]
    return out


def tolerates_taint(toleration: Any, taint: Any) -> bool:
    """Port of Toleration.ToleratesTaint (k8s.io/api/core/v1/toleration.go)."""
    if toleration.effect and toleration.effect != taint.effect:
        return False
    if toleration.key and toleration.key != taint.key:
        return False
    operator = toleration.operator or "Equal"
    if operator == "Exists":
        return True
    if operator == "Equal":
        return (toleration.value or "") == (taint.value or "")
    return False


def fit_failure(node: V1Node, pod: V1Pod) -> str:
    """Port of the NodeUnschedulable and TaintToleration Filter plugins (pkg/scheduler/framework/plugins).

    "" when the pod may go to the node; else the reason kube-scheduler reports.
    """
    tolerations = (pod.spec.tolerations if pod.spec else None) or []
    spec = node.spec
    if spec is not None and spec.unschedulable:
        cordon = V1Taint(key=TAINT_NODE_UNSCHEDULABLE, effect="NoSchedule")
        if not any(tolerates_taint(t, cordon) for t in tolerations):
            return "node(s) were unschedulable"
    for taint in (spec.taints if spec else None) or []:
        if taint.effect not in ("NoSchedule", "NoExecute"):
            continue
        if not any(tolerates_taint(t, taint) for t in tolerations):
            return f"node(s) had untolerated taint {{{taint.key}: {taint.value or ''}}}"
    return ""


TOO_MANY_PODS = "Too many pods"


def fit_error_message(total: int, reasons: dict[str, int]) -> str:
    """Port of FitError.Error (pkg/scheduler/framework/types.go), with the preemption part.

    `reasons` counts nodes per failure reason; both parts list `<count> <reason>` sorted.
    """
    found = ", ".join(sorted(f"{n} {r}" for r, n in reasons.items()))
    victims = {"No preemption victims found for incoming pod": reasons.get(TOO_MANY_PODS, 0),
               "Preemption is not helpful for scheduling": sum(
                   n for r, n in reasons.items() if r != TOO_MANY_PODS)}
    preemption = ", ".join(sorted(f"{n} {r}" for r, n in victims.items() if n))
    return (f"0/{total} nodes are available: {found}. "
            f"preemption: 0/{total} nodes are available: {preemption}.")
