"""No upstream twin. Chapter P4 scenario: `replicaset-scale`.

A bare ReplicaSet `web` (no Deployment above it) with the ReplicaSet
controller and the simulated kubelet (3 nodes; a pod runs 1 s after it is
bound and is ready 1 s later; 5 s to terminate). The script:

1. t=0: create it with 3 replicas. manage_replicas creates 3 pods in
   slow-start batches of 1 and 2.
2. scale to 10 (`kubectl scale`): 7 creates in one sync, in batches of 1, 2
   and 4.
3. one second later the 7 new pods run but are not ready yet; scale to 2.
   get_pods_to_delete ranks the 10 pods (ActivePodsWithRanks: unscheduled,
   then pending, then not ready, ... before the rest) and deletes the first
   8: the 7 not-ready pods, then one of the ready ones.
4. delete one of the 2 remaining pods (`kubectl delete pod`): it terminates
   for 5 s while the controller creates a replacement at once.

The controller's pod control is narrated: each create says which slow-start
batch it belongs to, each delete the state of the pod that ranked first.
Series: `rs replicas` (spec.replicas), and pods by state, each pod counted
once: `pods Pending`, `pods Running not ready`, `pods ready`, `pods terminating`.
Events: the controller's Kubernetes Events (SuccessfulCreate, SuccessfulDelete).
Invariant, checked at every create and delete: the controller never creates
a pod when spec.replicas are already there, never deletes one when there
are not more than spec.replicas.

Start reading at: ReplicaSetScale.play, then ReplicaSetController.manage_replicas.
Good breakpoints: ReplicaSetController.sync_replica_set, ReplicaSetController.manage_replicas,
slow_start_batch, get_pods_to_delete, ActivePodsWithRanks.less.

Design notes: the batch of a create is worked out from what the controller
holds, nothing is patched. manage_replicas records "expect `diff` creates"
before its first create, and one driver step of the worker is one sync, so
RecordingPodControl counts the creates of the step and places the n-th in
slow-start's batches of 1, 2, 4, ... of `diff` (`slow_start_batch_of`).
The labels are the batches a correct slow_start_batch makes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kubernetes.client import V1OwnerReference, V1PodTemplateSpec

from minikcm.clock import EPOCH
from minikcm.controller.controller_utils import (
    SLOW_START_INITIAL_BATCH_SIZE,
    ControllerExpectationsInterface,
    PodControlInterface,
)
from minikcm.driver import Driver
from minikcm.sim.scenarios.base import Run
from minikcm.sim.scenarios.cluster import Cluster, WireDict, is_ready, is_terminating, replica_set

NAME = "web"
IMAGE = "web:v1"
UNHANDLED_ERRORS = "minikcm.apimachinery.runtime.UnhandledError"
TIMEOUT = 120.0
"""Fake seconds a phase may take before the script gives up."""


def slow_start_batch_of(diff: int, index: int) -> int | None:
    """The size of the slow-start batch that holds the `index`-th (from 0) of `diff` creates, or None past them.

    slow_start_batch's batches, from SLOW_START_INITIAL_BATCH_SIZE (1): 7
    creates go 1, 2, 4, so creates 0, 1-2 and 3-6 are in batches of 1, 2 and 4.
    """
    remaining, size = diff, min(diff, SLOW_START_INITIAL_BATCH_SIZE)
    while size > 0:
        if index < size:
            return size
        index -= size
        remaining -= size
        size = min(2 * size, remaining)
    return None


@dataclass(frozen=True)
class Deletion:
    """One pod the controller deleted, as the API server held it just before."""

    name: str
    phase: str
    ready: bool
    node: str


class RecordingPodControl:
    """The controller's PodControl, narrated: every create and delete goes into the trace, then to `inner`.

    `creates` keeps (seconds since the start, pod name, slow-start batch
    size) and `deletions` the deleted pods in the order the controller chose
    them. `violations` collects broken invariants: an exception raised here
    would be counted by slow_start_batch as a failed create, so the
    scenario's check raises them after the step instead.
    """

    def __init__(self, inner: PodControlInterface, cluster: Cluster,
                 expectations: ControllerExpectationsInterface) -> None:
        self.inner = inner
        self.cluster = cluster
        self.expectations = expectations
        self.sync_creates: dict[str, int] = {}
        """ReplicaSet key -> creates in the driver step running now (one step of the worker is one sync)."""
        cluster.driver.observers.append(self.step_done)
        self.creates: list[tuple[float, str, int | None]] = []
        self.deletions: list[Deletion] = []
        self.violations: list[str] = []

    def __repr__(self) -> str:
        return f"RecordingPodControl(creates={len(self.creates)}, deletions={len(self.deletions)})"

    def step_done(self, driver: Driver) -> None:
        self.sync_creates.clear()

    def batch_of_next_create(self, rs_key: str) -> int | None:
        """The slow-start batch of the create about to happen: manage_replicas expected `diff` creates first."""
        exp, exists = self.expectations.get_expectations(rs_key)
        if not exists or exp is None:
            return None
        index = self.sync_creates.get(rs_key, 0)
        self.sync_creates[rs_key] = index + 1
        return slow_start_batch_of(exp.get_expectations()[0], index)

    def since_start(self) -> float:
        return (self.cluster.clock.now() - EPOCH).total_seconds()

    def active_and_wanted(self, rs_name: str) -> tuple[int, int]:
        """(pods of the ReplicaSet not being deleted, its spec.replicas), as the API server holds them now."""
        rs = self.cluster.get("replicasets", rs_name)
        wanted = rs["spec"].get("replicas", 0) if rs is not None else 0
        uid = rs["metadata"]["uid"] if rs is not None else ""
        active = sum(1 for p in self.cluster.pods() if not is_terminating(p) and any(
            r.get("uid") == uid for r in p["metadata"].get("ownerReferences") or []))
        return active, wanted

    def create_pods(self, namespace: str, template: V1PodTemplateSpec, controller_object: Any,
                    controller_ref: V1OwnerReference | None) -> None:
        rs_name = controller_object.metadata.name
        active, wanted = self.active_and_wanted(rs_name)
        if active >= wanted:
            self.violations.append(f"created a pod for rs {rs_name} with {active} of {wanted} pods already there")
        batch = self.batch_of_next_create(f"{controller_object.metadata.namespace}/{rs_name}")
        before = {p["metadata"]["name"] for p in self.cluster.pods()}
        self.inner.create_pods(namespace, template, controller_object, controller_ref)
        new = sorted({p["metadata"]["name"] for p in self.cluster.pods()} - before)
        name = new[0] if new else "?"
        self.creates.append((self.since_start(), name, batch))
        label = f" (slow-start batch of {batch})" if batch is not None else ""
        self.cluster.driver.record("replicaset/pod-control", f"create pod {name}{label}")

    def create_pods_with_generate_name(self, namespace: str, template: V1PodTemplateSpec, controller_object: Any,
                                       controller_ref: V1OwnerReference | None, generate_name: str) -> None:
        self.inner.create_pods_with_generate_name(namespace, template, controller_object, controller_ref,
                                                  generate_name)

    def delete_pod(self, namespace: str, pod_id: str, object: Any) -> None:
        rs_name = object.metadata.name
        active, wanted = self.active_and_wanted(rs_name)
        if active <= wanted:
            self.violations.append(f"deleted pod {pod_id} of rs {rs_name} with only {active} of {wanted} pods there")
        pod = self.cluster.get("pods", pod_id)
        if pod is not None:
            d = describe(pod)
            self.deletions.append(d)
            state = f"{d.phase}, {'ready' if d.ready else 'not ready'}, on {d.node or 'no node'}"
            self.cluster.driver.record("replicaset/pod-control", f"delete pod {pod_id} ({state})")
        self.inner.delete_pod(namespace, pod_id, object)

    def patch_pod(self, namespace: str, name: str, data: bytes) -> None:
        self.inner.patch_pod(namespace, name, data)


def describe(pod: WireDict) -> Deletion:
    return Deletion(pod["metadata"]["name"], (pod.get("status") or {}).get("phase", "Pending"), is_ready(pod),
                    pod["spec"].get("nodeName", ""))


class WebReads:
    """What the sampler and the overshoot check read in a world of one ReplicaSet `web` (this scenario and
    replicaset-stale-cache): needs `cluster` and a RecordingPodControl as `pod_control`."""

    cluster: Cluster
    pod_control: RecordingPodControl

    def no_violations(self) -> None:
        if self.pod_control.violations:
            raise self.cluster.violation(self.pod_control.violations[0])

    def rs_replicas(self) -> int:
        rs = self.cluster.get("replicasets", NAME)
        return rs["spec"].get("replicas", 0) if rs is not None else 0

    def count(self, state: str) -> int:
        """Pods in one of the disjoint states: Pending, Running not ready, ready, terminating."""
        return sum(1 for p in self.cluster.pods(f"app={NAME}") if pod_state(p) == state)


class ReplicaSetScale(WebReads):
    """The `replicaset-scale` world and its script (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        c = self.cluster = Cluster(seed)
        self.controller = c.with_replica_set_controller()
        self.pod_control = RecordingPodControl(self.controller.pod_control, c, self.controller.expectations)
        self.controller.pod_control = self.pod_control  # the seam upstream's tests use too (a fake pod control)
        self.kubelet = c.with_kubelet()
        c.start()
        self.run = Run("replicaset-scale", seed, c.clock, c.driver, self.play)
        c.forward_events("replicaset", self.run.event)
        self.run.log_to_trace(UNHANDLED_ERRORS)
        c.check("replicaset never overshoots", self.no_violations)
        sampler = self.run.sampler
        sampler.watch("rs replicas", self.rs_replicas)
        sampler.watch("pods Pending", self.count_probe("Pending"))
        sampler.watch("pods Running not ready", self.count_probe("Running not ready"))
        sampler.watch("pods ready", self.count_probe("ready"))
        sampler.watch("pods terminating", self.count_probe("terminating"))
        self.scale_down: list[Deletion] = []
        """The pods the scale-down to 2 deleted, in the controller's order."""
        self.replaced: tuple[str, str] | None = None
        """(the pod the user deleted, the pod created in its place)."""
        self.run.objects.update(cluster=c, server=c.server, client=c.client, replicaset_controller=self.controller,
                                kubelet=self.kubelet, pod_control=self.pod_control, scenario=self)

    def __repr__(self) -> str:
        return f"ReplicaSetScale({self.cluster!r})"

    # -- the script ------------------------------------------------------------------------------------------

    def play(self) -> None:
        """The four phases of the module docstring."""
        c = self.cluster
        self.run.say(f"create replicaset {NAME} with 3 replicas of {IMAGE}")
        c.apply(replica_set(NAME, 3, IMAGE))
        self.until("3 ready pods", lambda: self.count("ready") == 3)

        self.run.say(f"kubectl scale replicaset/{NAME} --replicas=10")
        c.scale("replicasets", NAME, 10)
        self.until("7 new pods running, not ready yet", lambda: self.count("Running not ready") == 7)

        self.run.say(f"kubectl scale replicaset/{NAME} --replicas=2 (7 pods are not ready yet)")
        before = len(self.pod_control.deletions)
        c.scale("replicasets", NAME, 2)
        self.until("2 pods left", lambda: self.count("ready") == 2 and self.count("terminating") == 0)
        self.scale_down = self.pod_control.deletions[before:]
        ready_first = [d.name for d in self.scale_down if d.ready]
        self.run.event(f"scale-down deleted {len(self.scale_down)} pods: the "
                       f"{sum(1 for d in self.scale_down if not d.ready)} not ready ones first, then {ready_first}")

        victim = sorted(p["metadata"]["name"] for p in c.pods())[0]
        self.run.say(f"kubectl delete pod {victim}")
        names_before = {p["metadata"]["name"] for p in c.pods()}
        c.delete("pods", victim)
        self.until("a replacement is ready", lambda: self.count("ready") == 2 and self.count("terminating") == 1)
        replacement = sorted({p["metadata"]["name"] for p in c.pods()} - names_before)
        self.replaced = (victim, replacement[0] if replacement else "")
        self.run.event(f"{victim} was replaced by {self.replaced[1]} while it was still terminating")
        self.until("the deleted pod is gone", lambda: self.count("terminating") == 0)
        c.driver.run_for(5)

    def until(self, what: str, predicate: Any, timeout: float = TIMEOUT) -> None:
        if not self.cluster.driver.run_until(predicate, timeout=timeout):
            raise RuntimeError(f"replicaset-scale: {what} did not happen within {timeout:g} s")

    # -- what the sampler and the check read (see WebReads) ---------------------------------------------------

    def count_probe(self, state: str) -> Any:
        def pods_in_state() -> int:
            return self.count(state)
        return pods_in_state


def pod_state(pod: WireDict) -> str:
    """terminating, ready, Running not ready, or the pod's phase."""
    if is_terminating(pod):
        return "terminating"
    if is_ready(pod):
        return "ready"
    phase = (pod.get("status") or {}).get("phase", "Pending")
    return "Running not ready" if phase == "Running" else phase


def build_replicaset_scale(seed: int) -> Run:
    """Scenario `replicaset-scale` (chapter P4): the world, ready to play."""
    return ReplicaSetScale(seed).run
