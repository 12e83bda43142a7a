"""No upstream twin. Chapter P3/P4 scenario: `cascade-delete`.

A Deployment `web` of 3 replicas (ReplicaSet controller, Deployment
controller, simulated kubelet with 5 s of pod termination) and the garbage
collector. The Deployment is deleted three times, once per propagation
policy, and created again in between:

1. `kubectl delete deployment web --cascade=foreground` (Foreground): the
   API server keeps the Deployment, with a deletionTimestamp and the
   `foregroundDeletion` finalizer. The collector deletes the ReplicaSet in
   the foreground too, which deletes the pods; when the pods are gone the
   ReplicaSet's finalizer comes off, then the Deployment's. Owners go last.
2. `kubectl delete deployment web` (Background, kubectl's default): the
   Deployment is gone at once; the collector finds the ReplicaSet's owner
   missing and deletes it, then the pods, whose owner is now missing too.
   Owners go first.
3. `kubectl delete deployment web --cascade=orphan` (Orphan): the Deployment
   waits behind the `orphan` finalizer while the collector removes its
   owner reference from the ReplicaSet; then it goes, and the ReplicaSet and
   its pods stay, ownerless.

Series: `deployments`, `replicasets`, `pods` (objects, terminating ones
included), `deployment terminating`, `pods terminating`. The trace narrates
finalizers and deletions (`deployment web terminating (finalizers:
foregroundDeletion)`); the events report when each kind of object was
gone. Invariants, checked after every step: in the Foreground phase the
Deployment exists while any of its ReplicaSets or pods does; in the Orphan
phase no pod or ReplicaSet is deleted.

Start reading at: CascadeDelete.play, then GarbageCollector.attempt_to_delete_item.
Good breakpoints: GarbageCollector.attempt_to_delete_item, GarbageCollector.process_deleting_dependents_item,
GarbageCollector.orphan_dependents, GraphBuilder.process_graph_changes.
"""

from __future__ import annotations

from collections.abc import Callable

from minikcm.apimachinery import meta
from minikcm.sim.scenarios.base import Run
from minikcm.sim.scenarios.cluster import Cluster, deployment, is_terminating

NAME = "web"
IMAGE = "web:v1"
UNHANDLED_ERRORS = "minikcm.apimachinery.runtime.UnhandledError"
TIMEOUT = 120.0
"""Fake seconds a phase may take before the script gives up."""


class CascadeDelete:
    """The `cascade-delete` world and its script (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        c = self.cluster = Cluster(seed)
        self.replicaset_controller = c.with_replica_set_controller()
        self.deployment_controller = c.with_deployment_controller()
        self.kubelet = c.with_kubelet()
        self.garbage_collector = c.with_garbage_collector()
        c.start()
        self.run = Run("cascade-delete", seed, c.clock, c.driver, self.play)
        c.forward_events("garbagecollector", self.run.event)
        self.run.log_to_trace(UNHANDLED_ERRORS)
        sampler = self.run.sampler
        sampler.watch("deployments", self.deployment_count)
        sampler.watch("replicasets", self.replica_set_count)
        sampler.watch("pods", self.pod_count)
        sampler.watch("deployment terminating", self.deployment_terminating)
        sampler.watch("pods terminating", self.pods_terminating)
        self.gone_at: dict[str, dict[str, float]] = {}
        """Policy -> kind (`deployment`, `replicasets`, `pods`) -> seconds after the start when none was left."""
        self._phase = ""  # the policy being shown; gone_at[_phase] fills in
        self._counts = (0, 0, 0)  # (deployments, replicasets, pods) after the last step, for the orphan check
        c.driver.observers.append(self.observe)
        self.run.objects.update(cluster=c, server=c.server, client=c.client, kubelet=self.kubelet,
                                garbage_collector=self.garbage_collector,
                                deployment_controller=self.deployment_controller,
                                replicaset_controller=self.replicaset_controller, scenario=self)

    def __repr__(self) -> str:
        return f"CascadeDelete(phase={self._phase!r}, {self.cluster!r})"

    # -- the script -------------------------------------------------------------------------------------

    def play(self) -> None:
        """Create, delete Foreground; create, delete Background; create, delete Orphan."""
        c = self.cluster
        for policy, flag in ((meta.DELETE_PROPAGATION_FOREGROUND, " --cascade=foreground"),
                             (meta.DELETE_PROPAGATION_BACKGROUND, ""),
                             (meta.DELETE_PROPAGATION_ORPHAN, " --cascade=orphan")):
            self.run.say(f"create deployment {NAME}: 3 replicas of {IMAGE}")
            c.apply(deployment(NAME, 3, IMAGE))
            self.until("the rollout", lambda: c.deployment_complete(NAME))
            self.start_phase(policy)
            self.run.say(f"kubectl delete deployment {NAME}{flag}")
            c.delete("deployments", NAME, propagation_policy=policy)
            if policy == meta.DELETE_PROPAGATION_ORPHAN:
                self.until("the orphaning delete", lambda: self.deployment_count() == 0)
                c.driver.run_for(10)
                self.report_orphans()
                self.delete_orphans()
            else:
                self.until(f"the {policy} delete", self.all_gone)
                self.report(policy)
            self.end_phase()
        c.driver.run_for(5)

    def start_phase(self, policy: str) -> None:
        self._phase = policy
        self.gone_at[policy] = {}
        self._counts = self.counts()
        c = self.cluster
        if policy == meta.DELETE_PROPAGATION_FOREGROUND:
            c.check("foreground: owner goes last", self.owner_outlives_dependents)
        elif policy == meta.DELETE_PROPAGATION_ORPHAN:
            c.check("orphan: dependents stay", self.dependents_stay)

    def end_phase(self) -> None:
        self.cluster.uncheck("foreground: owner goes last")
        self.cluster.uncheck("orphan: dependents stay")
        self._phase = ""

    def report(self, policy: str) -> None:
        order = self.gone_at[policy].items()  # in the order observe saw them go
        self.run.event(f"{policy}: " + ", then ".join(f"{kind} gone at +{t:.3f} s" for kind, t in order))

    def report_orphans(self) -> None:
        c = self.cluster
        rss = c.list("replicasets")
        pods_left = [p for p in c.pods() if not is_terminating(p)]
        ownerless = sum(1 for rs in rss if not rs["metadata"].get("ownerReferences"))
        self.run.event(f"Orphan: the Deployment is gone; {len(rss)} ReplicaSet ({ownerless} without an owner "
                       f"reference) and {len(pods_left)} pods stay")

    def delete_orphans(self) -> None:
        """Tidy up: delete the orphaned ReplicaSet (Background), which takes its pods with it."""
        c = self.cluster
        self.end_phase()
        for rs in list(c.list("replicasets")):
            self.run.say(f"kubectl delete replicaset {rs['metadata']['name']}")
            c.delete("replicasets", rs["metadata"]["name"])
        self.until("the orphans' removal", self.all_gone)

    def until(self, what: str, predicate: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        if not self.cluster.driver.run_until(predicate, timeout=timeout):
            raise RuntimeError(f"cascade-delete: {what} did not finish within {timeout:g} s "
                               f"(deployments, replicasets, pods: {self.counts()})")

    def all_gone(self) -> bool:
        return self.counts() == (0, 0, 0)

    # -- after each step ---------------------------------------------------------------------------------------

    def observe(self, driver: object) -> None:
        """Note when the last object of each kind went, in the phase being shown."""
        if not self._phase:
            return
        gone = self.gone_at[self._phase]
        t = self.run.sampler.elapsed()
        for kind, count in zip(("deployment", "replicasets", "pods"), self.counts()):
            if count == 0 and kind not in gone:
                gone[kind] = t

    def owner_outlives_dependents(self) -> None:
        d, rss, pods = self.counts()
        if d == 0 and (rss or pods):
            raise self.cluster.violation(f"foreground deletion removed the Deployment while {rss} ReplicaSets "
                                         f"and {pods} pods were left")

    def dependents_stay(self) -> None:
        counts = self.counts()
        if counts[1] < self._counts[1] or counts[2] < self._counts[2]:
            raise self.cluster.violation(f"orphaning deletion deleted dependents: (deployments, replicasets, pods) "
                                         f"went from {self._counts} to {counts}")
        self._counts = counts

    # -- what the sampler reads -----------------------------------------------------------------------------

    def counts(self) -> tuple[int, int, int]:
        c = self.cluster
        return len(c.list("deployments")), len(c.list("replicasets")), len(c.pods())

    def deployment_count(self) -> int:
        return len(self.cluster.list("deployments"))

    def replica_set_count(self) -> int:
        return len(self.cluster.list("replicasets"))

    def pod_count(self) -> int:
        return len(self.cluster.pods())

    def deployment_terminating(self) -> bool:
        return any(is_terminating(d) for d in self.cluster.list("deployments"))

    def pods_terminating(self) -> int:
        return sum(1 for p in self.cluster.pods() if is_terminating(p))


def build_cascade_delete(seed: int) -> Run:
    """Scenario `cascade-delete` (chapters P3 and P4): the world, ready to play."""
    return CascadeDelete(seed).run
