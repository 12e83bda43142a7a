"""No upstream twin. A simulated kubelet (and a tiny scheduler) that makes pods come alive.

Controllers only create and delete pod objects; in a real cluster the
scheduler picks a node and the node's kubelet starts containers and reports
their progress in the pod's status. minikcm has neither, so this module plays
both, in the spirit of kwok's stages: it watches pods through a pod informer
and moves each one through a fixed life on a clock:

    created --schedule_delay--> bound to sim-node-<n> (pods/binding)
            --start_delay-->    Running, containers started, not ready
            --ready_delay-->    Ready (ContainersReady, Ready = True)

and, when its pod is deleted gracefully, removes it for good (delete with
gracePeriodSeconds=0) once deletionTimestamp has come. Every wait is on the
injected clock, so in deterministic runs the driver jumps over them.

Failures are declared on the pod (the template's annotations reach every pod
a controller creates), so rollouts can be shown stuck:

- `sim.minikcm.io/never-ready: "true"`: the containers run but never become ready;
- `sim.minikcm.io/crash-after: "30s"`: the containers exit 30 s after each
  start; restartCount grows and the state is waiting/CrashLoopBackOff for
  10 s, 20 s, 40 s ... (at most 300 s) before the next start;
- an image containing `:broken`, or `sim.minikcm.io/image-pull-error: "true"`:
  the pod stays Pending with waiting/ErrImagePull, then waiting/ImagePullBackOff;
- `sim.minikcm.io/start-delay`, `sim.minikcm.io/ready-delay`: this pod's
  values of the two delays.

Durations are Go-style (`30s`, `1m30s`, `500ms`) or plain seconds.

Start reading at: Kubelet.sync_pod, then Kubelet.next_record and Kubelet.build_status.

Design notes. The kubelet is a small controller: the informer's handlers put
pod keys on a rate-limited delaying work queue, and one step
(`kubelet/sync`, or the `kubelet/sync` thread in threaded mode) takes a key
and calls `sync_pod`. The life of each pod lives in memory (`PodRecord`,
keyed by pod key and checked against the UID): its stage and when the next
stage is due. `sync_pod` writes the pod's status only when that time has
come, then parks the key until the next one (`add_after`), so the queue's
waiting step gives the driver its wakeups. A write that fails (a stale
cache, a conflict) is retried with backoff; the record only moves on after
a successful write. Scheduling goes through the `pods/binding` subresource
with the clientset's `bind` (client-go's PodExpansion.Bind), as a scheduler
does, so any clientset works: in-process or REST.
Node and IP choices come from a seeded `random.Random` (round-robin
placement uses none), container IDs from a hash, so runs repeat exactly.

Scheduling keeps to each node's pod capacity (`max_pods`, the kubelet's
default of 110): a pod that fits on no node stays Pending with PodScheduled=False
(reason Unschedulable) and one FailedScheduling event, and waits, without
backoff, until a pod leaves a node (`retry_unschedulable`). Each node's pod
range is its own /24, which always has room for max_pods addresses.

Nodes as API objects (registration, leases, status) are minikcm.sim.node_status,
which `minikcm up` attaches: placement then skips cordoned nodes and
NoSchedule/NoExecute taints the pod does not tolerate (`node_filter`).

Not simulated: resource fits beyond the pod count, probes,
init containers, the kubelet's own events, terminated phases (Succeeded/Failed), the kubelet's own pod status
cache and graceful container shutdown.
"""

from __future__ import annotations

import hashlib
import logging
import random
import re
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from kubernetes.client import (
    CoreV1Event,
    V1Binding,
    V1ContainerState,
    V1ContainerStateRunning,
    V1ContainerStateTerminated,
    V1ContainerStateWaiting,
    V1ContainerStatus,
    V1EventSource,
    V1HostIP,
    V1ObjectMeta,
    V1ObjectReference,
    V1Pod,
    V1PodCondition,
    V1PodIP,
    V1PodStatus,
)

from minikcm.apimachinery import errors
from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.meta import CreateOptions, DeleteOptions, Preconditions, UpdateOptions
from minikcm.clock import Clock, Seconds
from minikcm.client.interface import Interface
from minikcm.informers.factory import ResourceInformer
from minikcm.informers.listers import PodLister
from minikcm.logs import duration_string
from minikcm.driver import Step
from minikcm.sim.keyworker import KeyWorker
from minikcm.sim.node_status import TOO_MANY_PODS, fit_error_message
from minikcm.tools.cache.store import split_meta_namespace_key
from minikcm.util.workqueue.rate_limiting_queue import RateLimitingType

log = logging.getLogger(__name__)

NEVER_READY_ANNOTATION = "sim.minikcm.io/never-ready"
"""`"true"`: the pod's containers run but never become ready."""
CRASH_AFTER_ANNOTATION = "sim.minikcm.io/crash-after"
"""A duration: the containers exit that long after each start and are restarted with backoff."""
IMAGE_PULL_ERROR_ANNOTATION = "sim.minikcm.io/image-pull-error"
"""`"true"`: the image cannot be pulled (ErrImagePull, then ImagePullBackOff)."""
START_DELAY_ANNOTATION = "sim.minikcm.io/start-delay"
"""A duration: this pod's start_delay (bound -> Running)."""
READY_DELAY_ANNOTATION = "sim.minikcm.io/ready-delay"
"""A duration: this pod's ready_delay (Running -> Ready)."""
BROKEN_IMAGE_MARKER = ":broken"
"""An image whose name contains this cannot be pulled (`nginx:broken`)."""

DEFAULT_MAX_PODS = 110
"""The kubelet's default `--max-pods`: how many pods fit on one node."""
MAX_PODS_LIMIT = 253
"""A node's pod range is one /24 (addresses .2 to .254), so no node can hold more pods than this."""
SCHEDULER_NAME = "default-scheduler"
"""The component that reports FailedScheduling events, as kube-scheduler does."""

# The stages of a pod's simulated life (PodRecord.stage).
BOUND = "Bound"                        # on a node, containers not started yet
PULL_ERROR = "ErrImagePull"            # the first failed pull
PULL_BACKOFF = "ImagePullBackOff"      # waiting between pulls; final
STARTED = "Started"                    # running, not ready
READY = "Ready"                        # running and ready
CRASH_BACKOFF = "CrashLoopBackOff"     # exited; waiting to restart


@dataclass
class KubeletConfig:
    """The simulated cluster: how many nodes, and how long each stage of a pod's life takes."""

    nodes: int = 3
    """Nodes are named `sim-node-0` ... `sim-node-<nodes-1>`."""
    max_pods: int = DEFAULT_MAX_PODS
    """Pods one node holds at most (the kubelet's `--max-pods`); its pod range has room for them."""
    node_name_prefix: str = "sim-node-"
    placement: str = "round-robin"
    """`round-robin` (node 0, 1, 2, 0, ...) or `random` (drawn from the seeded rng)."""
    schedule_delay: Seconds = 0.0
    """From the pod's creation (as the kubelet first sees it) to its binding."""
    start_delay: Seconds = 1.0
    """From binding to Running with started containers."""
    ready_delay: Seconds = 1.0
    """From container start to Ready."""
    image_pull_backoff_delay: Seconds = 1.0
    """From ErrImagePull to ImagePullBackOff."""
    crash_backoff_base: Seconds = 10.0
    """The first CrashLoopBackOff wait; each restart doubles it."""
    crash_backoff_max: Seconds = 300.0
    """The longest CrashLoopBackOff wait (the kubelet's 5 minutes)."""
    finish_deletion_immediately: bool = False
    """True: a pod being deleted is removed at once instead of at its deletionTimestamp."""


@dataclass
class PodRecord:
    """The kubelet's memory of one pod: where it runs and where it is in its life.

    Invariant: `next_at` is None exactly when nothing more will happen on its
    own (Ready and healthy, never-ready, ImagePullBackOff).
    """

    uid: str
    node: str
    host_ip: str
    pod_ip: str
    stage: str = BOUND
    next_at: datetime | None = None
    """When the next stage is due."""
    bound_at: datetime | None = None
    """When the kubelet first saw the pod on its node (the pod's startTime)."""
    started_at: datetime | None = None
    """When the containers last started."""
    finished_at: datetime | None = None
    """When the containers last exited (crash loop)."""
    restart_count: int = 0


def pod_cidr_prefix(node_index: int) -> str:
    """The first three octets of node n's pod range: a /24 each, 10.244.0.0/24 onwards (10.245.x past 256 nodes)."""
    return f"10.{244 + node_index // 256}.{node_index % 256}"


@dataclass
class IPPool:
    """Seeded pod IPs per node: node n hands out the addresses .2 to .254 of its own /24 (`pod_cidr_prefix`)."""

    rng: random.Random
    in_use: dict[str, set[str]] = field(default_factory=dict)  # node -> pod IPs handed out

    def allocate(self, node_index: int, node: str) -> str:
        """A free address of the node's range. Raises RuntimeError when none is left (the scheduler
        keeps a node's pods under max_pods, which the range always holds, so this means a bug)."""
        used = self.in_use.setdefault(node, set())
        prefix = pod_cidr_prefix(node_index)
        free = [f"{prefix}.{i}" for i in range(2, 255) if f"{prefix}.{i}" not in used]
        if not free:
            raise RuntimeError(f"no free pod IP on {node}")
        ip = self.rng.choice(free)
        used.add(ip)
        return ip

    def release(self, node: str, ip: str) -> None:
        self.in_use.get(node, set()).discard(ip)


def host_ip_of(node_index: int) -> str:
    """The node's host IP: sim-node-<n> is 10.0.0.<10+n> for the first 240 nodes, then 10.0.<k>.<10+m>."""
    return f"10.0.{node_index // 240}.{10 + node_index % 240}"


_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)")
_DURATION_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def parse_duration(text: str) -> Seconds:
    """A Go duration (`30s`, `1m30s`, `250ms`) or a plain number of seconds, in seconds.

    Raises:
        ValueError: anything else.
    """
    text = text.strip()
    try:
        return float(text)
    except ValueError:
        pass
    pos, total = 0, 0.0
    while pos < len(text):
        m = _DURATION_PART.match(text, pos)
        if m is None:
            raise ValueError(f"invalid duration {text!r}")
        total += float(m.group(1)) * _DURATION_UNITS[m.group(2)]
        pos = m.end()
    if pos == 0:
        raise ValueError(f"invalid duration {text!r}")
    return total


def digest(text: str) -> str:
    """64 hex digits derived from `text` (stable image and container IDs)."""
    return hashlib.sha256(text.encode()).hexdigest()


def image_id(image: str) -> str:
    """A plausible imageID for `image`: `docker.io/library/nginx@sha256:<digest>`."""
    name = image.split("@", 1)[0]
    last = name.rsplit("/", 1)[-1]
    if ":" in last:
        name = name[: len(name) - len(last)] + last.split(":", 1)[0]
    if "/" not in name:
        name = f"docker.io/library/{name}"
    return f"{name}@sha256:{digest(image)}"


class Kubelet:
    """The simulated kubelet of every sim node (see the module docstring).

    Thread: the informer's handlers enqueue from the informer's thread; the
    rest runs on the `kubelet/sync` thread or the driver's. `records` and the
    IP pool are touched only by sync_pod (one worker).
    """

    def __init__(self, client: Interface, pod_informer: ResourceInformer[PodLister], clock: Clock,
                 rng: random.Random, config: KubeletConfig) -> None:
        self.client = client
        self.clock = clock
        self.rng = rng
        self.config = config
        self.node_names = [f"{config.node_name_prefix}{i}" for i in range(config.nodes)]
        self.next_node = 0  # round-robin placement: the node the next pod gets
        self.ip_pool = IPPool(rng)
        if not 1 <= config.max_pods <= MAX_PODS_LIMIT:
            raise ValueError(f"max_pods must be between 1 and {MAX_PODS_LIMIT} (one /24 per node), "
                             f"not {config.max_pods}")
        self.node_pods: dict[str, set[str]] = {name: set() for name in self.node_names}
        """Node -> keys of the pods bound to it: what the scheduler counts against max_pods."""
        self.pod_node: dict[str, str] = {}
        """Pod key -> the node it is bound to (the reverse of node_pods)."""
        self.node_filter: Callable[[V1Pod, str], str] | None = None
        """Why a node cannot take a pod ("" when it can): set by node_status.NodeStatusManager.attach
        so that placement honours cordons and taints; None: every node takes every pod."""
        self.unschedulable: dict[str, None] = {}
        """Keys of pods that fit on no node, oldest first (a dict keeps order): retried when room frees."""
        self.records: dict[str, PodRecord] = {}
        """Pod key -> the pod's simulated life."""
        self.key_worker = KeyWorker("kubelet", "pod", self.sync_pod, clock)
        self.queue: RateLimitingType = self.key_worker.queue  # sync parks keys with add_after
        informer = pod_informer.informer()
        informer.add_event_handler(self.key_worker.handlers())
        self.pod_lister: PodLister = pod_informer.lister()
        self.pod_lister_synced = informer.has_synced

    def __repr__(self) -> str:
        return f"<Kubelet nodes={len(self.node_names)} pods={len(self.records)} queued={self.queue.len()}>"

    # -- running ------------------------------------------------------------------------------

    def steps(self) -> list[Step]:
        """The kubelet as driver steps: `kubelet/sync` (one key) and the queue's waiting step."""
        return self.key_worker.steps()

    def run(self, stop: threading.Event) -> None:
        """Threaded mode: the sync loop on a `kubelet/sync` thread until `stop` is set (see KeyWorker.run)."""
        self.key_worker.run(stop)

    # -- the sync -----------------------------------------------------------------------------

    def sync_pod(self, key: str) -> None:
        """Move one pod along its life, if its next stage is due; else park its key until it is.

        Raises: a failed API write (the caller retries with backoff).
        """
        namespace, name = split_meta_namespace_key(key)
        try:
            pod: V1Pod = self.pod_lister.pods(namespace).get(name)
        except errors.StatusError as err:
            if not errors.is_not_found(err):
                raise
            self.forget(key)  # the pod is gone: free its IP
            return
        now = self.clock.now()
        if pod.metadata.deletion_timestamp is not None:
            self.finish_deletion(key, pod, now)
            return
        if (pod.status.phase if pod.status else None) in ("Succeeded", "Failed"):
            return
        node = pod.spec.node_name or ""
        if not node:
            self.schedule(key, pod, now)
            return
        if node not in self.node_names:
            return  # bound to a node that is not ours
        record = self.records.get(key)
        if record is None or record.uid != pod.metadata.uid:
            if record is not None:
                self.forget(key)  # the old pod of this name
            record = self.admit(pod, node, now)
            self.records[key] = record
            self.place(key, node)  # bound by us or by someone else: it counts against the node
        if record.next_at is None:
            return  # nothing more will happen on its own
        if record.next_at > now:
            self.queue.add_after(key, (record.next_at - now).total_seconds())
            return
        new_record = self.next_record(pod, record, now)
        updated = deep_copy(pod)
        updated.status = self.build_status(pod, new_record, now)
        self.client.core_v1().pods(namespace).update_status(updated, UpdateOptions())
        self.records[key] = new_record  # only after the write went through
        log.debug("kubelet: pod %s is %s", key, new_record.stage)
        if new_record.next_at is not None:
            self.queue.add_after(key, max(0.0, (new_record.next_at - now).total_seconds()))

    def schedule(self, key: str, pod: V1Pod, now: datetime) -> None:
        """Bind an unscheduled pod to a sim node (pods/binding), after schedule_delay.

        A pod that is already bound or gone by now is left alone: its next
        event brings the kubelet back.
        """
        created = pod.metadata.creation_timestamp or now
        due = created + timedelta(seconds=self.config.schedule_delay)
        if due > now:
            self.queue.add_after(key, (due - now).total_seconds())
            return
        node = self.pick_node(pod)
        if node is None:
            self.mark_unschedulable(key, pod, now)
            return
        binding = V1Binding(
            api_version="v1", kind="Binding",
            metadata=V1ObjectMeta(name=pod.metadata.name, namespace=pod.metadata.namespace, uid=pod.metadata.uid),
            target=V1ObjectReference(api_version="v1", kind="Node", name=node),
        )
        try:
            self.client.core_v1().pods(pod.metadata.namespace or "").bind(binding, CreateOptions())
        except errors.StatusError as err:
            if errors.is_conflict(err) or errors.is_not_found(err):
                return  # bound meanwhile, or deleted: the next event says which
            raise
        self.place(key, node)
        self.unschedulable.pop(key, None)
        log.debug("kubelet: bound pod %s to %s", key, node)

    def pick_node(self, pod: V1Pod | None = None) -> str | None:
        """The node the next pod goes to, skipping nodes that hold max_pods already or that the
        node filter refuses (cordoned, untolerated taint); None when no node fits.

        Round-robin placement walks on from where the last pod went; random
        placement draws among the nodes that fit. While every node fits both
        choose exactly as they would with no limit, so small runs repeat.
        """
        with_room = [n for n in self.node_names if not self.fit_failure(pod, n)]
        if not with_room:
            return None
        if self.config.placement == "random":
            return self.rng.choice(with_room)
        for offset in range(len(self.node_names)):
            index = (self.next_node + offset) % len(self.node_names)
            node = self.node_names[index]
            if node in with_room:
                self.next_node = index + 1
                return node
        return None  # not reached: with_room was not empty

    def fit_failure(self, pod: V1Pod | None, node: str) -> str:
        """Why `node` cannot take `pod` now ("" when it can): full, or refused by the node filter."""
        if len(self.node_pods[node]) >= self.config.max_pods:
            return TOO_MANY_PODS
        if self.node_filter is not None and pod is not None:
            return self.node_filter(pod, node)
        return ""

    def place(self, key: str, node: str) -> None:
        """Count pod `key` against `node` (idempotent; moves it when it was counted elsewhere)."""
        old = self.pod_node.get(key)
        if old is not None and old != node:
            self.node_pods[old].discard(key)
        self.pod_node[key] = node
        self.node_pods[node].add(key)

    def mark_unschedulable(self, key: str, pod: V1Pod, now: datetime) -> None:
        """Leave a pod that fits nowhere Pending, as kube-scheduler does: say so once, then wait for room.

        The pod gets PodScheduled=False with reason Unschedulable and a
        Warning event FailedScheduling (so `kubectl describe pod` and `kubectl
        get events` show why). Its key is not requeued with backoff: `forget`
        hands it back to the queue when a pod leaves a node.
        """
        self.unschedulable[key] = None
        for c in (pod.status.conditions if pod.status else None) or []:
            if c.type == "PodScheduled" and c.status == "False" and c.reason == "Unschedulable":
                return  # said already
        reasons = Counter(self.fit_failure(pod, n) for n in self.node_names)
        message = fit_error_message(len(self.node_names), dict(reasons))
        updated = deep_copy(pod)
        status = updated.status or V1PodStatus()
        status.phase = "Pending"
        status.conditions = [c for c in status.conditions or [] if c.type != "PodScheduled"] + [
            V1PodCondition(type="PodScheduled", status="False", reason="Unschedulable", message=message,
                           last_transition_time=now)]
        updated.status = status
        self.client.core_v1().pods(pod.metadata.namespace or "").update_status(updated, UpdateOptions())
        log.info("kubelet: pod %s fits on no node (%s); it stays Pending", key, message)
        self.report_failed_scheduling(pod, message, now)

    def report_failed_scheduling(self, pod: V1Pod, message: str, now: datetime) -> None:
        """Write the scheduler's FailedScheduling event for `pod` (a failure to write it is only logged)."""
        meta = pod.metadata
        event = CoreV1Event(
            metadata=V1ObjectMeta(name=f"{meta.name}.{digest(f'{meta.uid}/{now.isoformat()}')[:16]}",
                                  namespace=meta.namespace),
            involved_object=V1ObjectReference(api_version="v1", kind="Pod", name=meta.name,
                                              namespace=meta.namespace, uid=meta.uid,
                                              resource_version=meta.resource_version),
            reason="FailedScheduling", message=message, type="Warning",
            source=V1EventSource(component=SCHEDULER_NAME), reporting_component=SCHEDULER_NAME,
            first_timestamp=now, last_timestamp=now, count=1,
        )
        try:
            self.client.core_v1().events(meta.namespace or "").create(event, CreateOptions())
        except errors.StatusError as err:  # an event is a courtesy: the pod's condition already says it
            log.warning("kubelet: could not record FailedScheduling for %s/%s: %s", meta.namespace, meta.name, err)

    def admit(self, pod: V1Pod, node: str, now: datetime) -> PodRecord:
        """The first sight of a pod on one of our nodes: give it an IP and plan its start."""
        node_index = self.node_names.index(node)
        start_delay = self.pod_duration(pod, START_DELAY_ANNOTATION, self.config.start_delay)
        return PodRecord(uid=pod.metadata.uid or "", node=node, host_ip=host_ip_of(node_index),
                         pod_ip=self.ip_pool.allocate(node_index, node), stage=BOUND,
                         next_at=now + timedelta(seconds=start_delay), bound_at=now)

    def next_record(self, pod: V1Pod, record: PodRecord, now: datetime) -> PodRecord:
        """The pod's record after the stage that is due now (a new record; `record` is unchanged).

        BOUND -> STARTED, or PULL_ERROR for an unpullable image;
        PULL_ERROR -> PULL_BACKOFF (final);
        STARTED -> READY at ready time, or CRASH_BACKOFF at crash time (whichever is first);
        READY -> CRASH_BACKOFF (crash-after only);
        CRASH_BACKOFF -> STARTED (a restart).
        """
        if record.stage == BOUND and self.image_pull_fails(pod):
            return replace(record, stage=PULL_ERROR,
                           next_at=now + timedelta(seconds=self.config.image_pull_backoff_delay))
        if record.stage == PULL_ERROR:
            return replace(record, stage=PULL_BACKOFF, next_at=None)
        if record.stage in (BOUND, CRASH_BACKOFF):
            started = replace(record, stage=STARTED, started_at=now)
            return replace(started, next_at=self.next_after_start(pod, started))
        crash_after = self.crash_after(pod)
        if record.stage == STARTED and not self.crash_due(record, crash_after, now):
            ready = replace(record, stage=READY)
            return replace(ready, next_at=self.crash_time(ready, crash_after))
        # A crash: STARTED or READY with crash-after, and its time has come.
        restarts = record.restart_count + 1
        backoff = min(self.config.crash_backoff_max, self.config.crash_backoff_base * 2 ** (restarts - 1))
        return replace(record, stage=CRASH_BACKOFF, restart_count=restarts, finished_at=now,
                       next_at=now + timedelta(seconds=backoff))

    def next_after_start(self, pod: V1Pod, record: PodRecord) -> datetime | None:
        """After a (re)start: the ready time, or the crash time if that comes first (None: neither)."""
        assert record.started_at is not None
        candidates = []
        if not self.never_ready(pod):
            ready_delay = self.pod_duration(pod, READY_DELAY_ANNOTATION, self.config.ready_delay)
            candidates.append(record.started_at + timedelta(seconds=ready_delay))
        crash = self.crash_time(record, self.crash_after(pod))
        if crash is not None:
            candidates.append(crash)
        return min(candidates) if candidates else None

    def crash_time(self, record: PodRecord, crash_after: Seconds | None) -> datetime | None:
        """When the running containers exit, for a crash-after pod (None: never)."""
        if crash_after is None or record.started_at is None:
            return None
        return record.started_at + timedelta(seconds=crash_after)

    def crash_due(self, record: PodRecord, crash_after: Seconds | None, now: datetime) -> bool:
        crash = self.crash_time(record, crash_after)
        return crash is not None and crash <= now

    def finish_deletion(self, key: str, pod: V1Pod, now: datetime) -> None:
        """Remove a pod being deleted once its grace period is over (at once when so configured).

        The delete carries the pod's UID, so a new pod of the same name is
        never hit; a pod already gone (or replaced) is fine.
        """
        deadline = pod.metadata.deletion_timestamp
        if not self.config.finish_deletion_immediately and deadline is not None and deadline > now:
            self.queue.add_after(key, (deadline - now).total_seconds())
            return
        try:
            self.client.core_v1().pods(pod.metadata.namespace or "").delete(
                pod.metadata.name or "",
                DeleteOptions(grace_period_seconds=0, preconditions=Preconditions(uid=pod.metadata.uid)))
        except errors.StatusError as err:
            if errors.is_not_found(err) or errors.is_conflict(err):
                return  # gone already, or another pod now has the name
            raise
        log.debug("kubelet: deleted pod %s", key)

    def forget(self, key: str) -> None:
        """Drop a pod's record, give its IP and its place on the node back, and retry waiting pods."""
        record = self.records.pop(key, None)
        if record is not None:
            self.ip_pool.release(record.node, record.pod_ip)
        self.unschedulable.pop(key, None)
        node = self.pod_node.pop(key, None)
        if node is not None:
            self.node_pods[node].discard(key)
            self.retry_unschedulable()

    def retry_unschedulable(self) -> None:
        """Hand as many waiting pods back to the queue as there are free places, oldest first.

        No upstream twin as code; kube-scheduler does the same when a pod
        leaves a node (it moves unschedulable pods back to its active queue).
        """
        free = sum(max(0, self.config.max_pods - len(pods)) for pods in self.node_pods.values())
        for key in list(self.unschedulable)[:free]:
            self.queue.add(key)

    # -- what the pod declares ------------------------------------------------------------------

    def annotation(self, pod: V1Pod, name: str) -> str | None:
        return (pod.metadata.annotations or {}).get(name)

    def pod_duration(self, pod: V1Pod, name: str, default: Seconds) -> Seconds:
        """The duration annotation `name`, or `default` when absent or unreadable."""
        value = self.annotation(pod, name)
        if value is None:
            return default
        try:
            return parse_duration(value)
        except ValueError:
            log.warning("kubelet: pod %s/%s: bad %s %r; using %s", pod.metadata.namespace, pod.metadata.name,
                        name, value, duration_string(default))
            return default

    def never_ready(self, pod: V1Pod) -> bool:
        return self.annotation(pod, NEVER_READY_ANNOTATION) == "true"

    def crash_after(self, pod: V1Pod) -> Seconds | None:
        if self.annotation(pod, CRASH_AFTER_ANNOTATION) is None:
            return None
        return self.pod_duration(pod, CRASH_AFTER_ANNOTATION, 0.0)

    def image_pull_fails(self, pod: V1Pod) -> bool:
        if self.annotation(pod, IMAGE_PULL_ERROR_ANNOTATION) == "true":
            return True
        return any(BROKEN_IMAGE_MARKER in (c.image or "") for c in pod.spec.containers or [])

    # -- the status ------------------------------------------------------------------------------

    def build_status(self, pod: V1Pod, record: PodRecord, now: datetime) -> V1PodStatus:
        """The pod status the kubelet reports for `record`'s stage.

        Conditions keep their lastTransitionTime while their status stays the
        same (as the real kubelet does), so Ready's time says when the pod
        last became ready.
        """
        running = record.stage in (STARTED, READY, CRASH_BACKOFF)
        ready = record.stage == READY
        old = pod.status or V1PodStatus()
        conditions = [
            self.condition(old, "PodReadyToStartContainers", True, now),
            self.condition(old, "Initialized", True, now),
            self.condition(old, "Ready", ready, now, "" if ready else "ContainersNotReady"),
            self.condition(old, "ContainersReady", ready, now, "" if ready else "ContainersNotReady"),
            self.condition(old, "PodScheduled", True, now),
        ]
        return V1PodStatus(
            phase="Running" if running else "Pending",
            conditions=conditions,
            host_ip=record.host_ip, host_ips=[V1HostIP(ip=record.host_ip)],
            pod_ip=record.pod_ip, pod_ips=[V1PodIP(ip=record.pod_ip)],
            start_time=record.bound_at,
            container_statuses=[self.container_status(pod, c.name, c.image or "", record)
                                for c in pod.spec.containers or []],
            qos_class=old.qos_class,
        )

    def condition(self, old: V1PodStatus, cond_type: str, status: bool, now: datetime,
                  reason: str = "") -> V1PodCondition:
        """A pod condition, keeping the old transition time when the status did not change."""
        value = "True" if status else "False"
        for c in old.conditions or []:
            if c.type == cond_type and c.status == value:
                return V1PodCondition(type=cond_type, status=value, last_transition_time=c.last_transition_time,
                                      reason=reason or None, message=c.message if reason else None)
        message = "containers with unready status" if reason == "ContainersNotReady" else None
        return V1PodCondition(type=cond_type, status=value, last_transition_time=now, reason=reason or None,
                              message=message)

    def container_status(self, pod: V1Pod, name: str, image: str, record: PodRecord) -> V1ContainerStatus:
        """One container's status for the record's stage."""
        state: V1ContainerState
        started, ready = False, False
        container_id: str | None = None
        last_state = V1ContainerState()
        if record.restart_count > 0:
            last_state = V1ContainerState(terminated=V1ContainerStateTerminated(
                exit_code=1, reason="Error", started_at=record.started_at, finished_at=record.finished_at,
                container_id=self.container_id(pod, name, record.restart_count - 1)))
        if record.stage == PULL_ERROR:
            state = V1ContainerState(waiting=V1ContainerStateWaiting(
                reason="ErrImagePull", message=f'failed to pull and unpack image "{image}": not found'))
        elif record.stage == PULL_BACKOFF:
            state = V1ContainerState(waiting=V1ContainerStateWaiting(
                reason="ImagePullBackOff", message=f'Back-off pulling image "{image}"'))
        elif record.stage == CRASH_BACKOFF:
            state = V1ContainerState(waiting=V1ContainerStateWaiting(
                reason="CrashLoopBackOff",
                message=f"back-off restarting failed container={name} pod={pod.metadata.name}"))
        else:  # STARTED or READY
            state = V1ContainerState(running=V1ContainerStateRunning(started_at=record.started_at))
            started, ready = True, record.stage == READY
            container_id = self.container_id(pod, name, record.restart_count)
        pulled = record.stage not in (PULL_ERROR, PULL_BACKOFF)
        return V1ContainerStatus(
            name=name, image=image, image_id=image_id(image) if pulled else "",
            container_id=container_id, ready=ready, started=started, restart_count=record.restart_count,
            state=state, last_state=last_state,
        )

    def container_id(self, pod: V1Pod, name: str, attempt: int) -> str:
        """A stable containerd ID for one run of one container."""
        return f"containerd://{digest(f'{pod.metadata.uid}/{name}/{attempt}')}"


def new_kubelet(client: Interface, pod_informer: ResourceInformer[PodLister], *,
                config: KubeletConfig | None = None, clock: Clock | None = None,
                rng: random.Random | None = None) -> Kubelet:
    """A simulated kubelet over `pod_informer` (start the informer's factory too).

    `clock` (whose `driven` mark chooses steps or threads) defaults to the informer factory's; `rng`
    (node and IP choices) defaults to `random.Random(0)`, so runs repeat.
    """
    factory = pod_informer.factory
    return Kubelet(client, pod_informer, clock if clock is not None else factory.clock,
                   rng if rng is not None else random.Random(0), config or KubeletConfig())
