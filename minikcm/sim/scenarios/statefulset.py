"""No upstream twin. Chapter P5 scenarios: `statefulset-ordered` and `statefulset-partition`.

A StatefulSet `web` (podManagementPolicy OrderedReady, one claim template
`data`) with the StatefulSet controller, the simulated kubelet (3 nodes; a
pod runs 1 s after it is bound and is ready 1 s later; 5 s to terminate) and
the simulated volume binder (a claim is Bound 1 s after it is created).

`statefulset-ordered`:

1. t=0: create it with 3 replicas. The controller creates data-web-0 and
   web-0, waits until web-0 is Running and Ready, then does web-1, then web-2.
2. scale to 5 (`kubectl scale`): web-3, then web-4, each after its
   predecessor is ready.
3. scale to 2: web-4 terminates first; web-3 only once web-4 is gone, then
   web-2. The claims stay (whenScaled: Retain).

`statefulset-partition`:

1. t=0: create it with 5 replicas and `rollingUpdate.partition: 3`.
2. `kubectl set image` to web:v2: a new ControllerRevision (rev2) becomes the
   update revision; web-4, then web-3 are deleted and come back at rev2;
   web-0..web-2 stay at rev1, the current revision.
3. delete web-1 (`kubectl delete pod`): it comes back at rev1, the revision
   its ordinal implies (below the partition).
4. set the partition to 0: web-2, web-1, web-0 are updated in that order;
   the current revision becomes rev2.

Series: for each ordinal `web-<i>`, the pod's state (`-` when there is
none, `Pending`, `Running`, `Ready`, `Terminating`); `ready pods`; `current
revision` and `update revision` (the set's status, as `rev<N>` from the
ControllerRevision's revision number); in `statefulset-partition` also
`web-<i> revision`.
Events: the controller's Kubernetes Events (SuccessfulCreate, SuccessfulDelete).
Invariants, checked after every step: OrderedReady's (at most one pod below
the highest one unhealthy, at most one terminating; while the set only
scales, a pod is ready only when its predecessor is); in
`statefulset-partition`, no pod below the partition at the update revision.

Start reading at: StatefulSetScenario.play_ordered, then
DefaultStatefulSetControl.update_stateful_set_internal.
Good breakpoints: StatefulSetController.sync, DefaultStatefulSetControl.process_replica,
DefaultStatefulSetControl.process_condemned, StatefulPodControl.create_stateful_pod.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from minikcm.controller.statefulset.stateful_set import StatefulSetController, new_stateful_set_controller
from minikcm.controller.statefulset.stateful_set_utils import STATEFUL_SET_REVISION_LABEL
from minikcm.sim.scenarios.base import Run
from minikcm.sim.scenarios.cluster import TERMINATION_GRACE_SECONDS, Cluster, WireDict, is_ready, is_terminating
from minikcm.sim.volume_binder import VolumeBinder, new_volume_binder

NAME = "web"
IMAGE_V1 = "web:v1"
IMAGE_V2 = "web:v2"
ORDINALS = 5
"""Series are kept for web-0 .. web-4."""
TIMEOUT = 300.0
"""Fake seconds a phase may take before the script gives up."""
UNHANDLED_ERRORS = "minikcm.apimachinery.runtime.UnhandledError"


def stateful_set(replicas: int, image: str, partition: int = 0) -> WireDict:
    """The StatefulSet manifest of both scenarios."""
    return {
        "apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": NAME},
        "spec": {
            "replicas": replicas,
            "serviceName": NAME,
            "podManagementPolicy": "OrderedReady",
            "selector": {"matchLabels": {"app": NAME}},
            "template": {
                "metadata": {"labels": {"app": NAME}},
                "spec": {"containers": [{"name": "app", "image": image,
                                         "volumeMounts": [{"name": "data", "mountPath": "/data"}]}],
                         "terminationGracePeriodSeconds": TERMINATION_GRACE_SECONDS},
            },
            "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {
                "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}],
            "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": partition}},
        },
    }


def ordinal_of(pod: WireDict) -> int:
    """The ordinal at the end of the pod's name (-1 when there is none)."""
    _, _, tail = pod["metadata"]["name"].rpartition("-")
    return int(tail) if tail.isdigit() else -1


def pod_state(pod: WireDict | None) -> str:
    """`-`, Pending, Running (not ready), Ready or Terminating."""
    if pod is None:
        return "-"
    if is_terminating(pod):
        return "Terminating"
    if is_ready(pod):
        return "Ready"
    return (pod.get("status") or {}).get("phase", "Pending")


class StatefulSetScenario:
    """The world of both scenarios and their scripts (see the module docstring)."""

    def __init__(self, name: str, seed: int, partition_series: bool) -> None:
        c = self.cluster = Cluster(seed)
        f = c.factory
        self.controller: StatefulSetController = c.add_component("statefulset", new_stateful_set_controller(
            f.core().v1().pods(), f.apps().v1().stateful_sets(), f.core().v1().persistent_volume_claims(),
            f.apps().v1().controller_revisions(), c.client))
        self.controller.start_event_recording()  # the first lines of Run; the driver runs its loops from start()
        self.kubelet = c.with_kubelet()
        self.binder: VolumeBinder = c.add_component(
            "volume-binder", new_volume_binder(c.client, f.core().v1().persistent_volume_claims()))
        c.start()
        script = self.play_partition if partition_series else self.play_ordered
        self.run = Run(name, seed, c.clock, c.driver, script)
        c.forward_events("statefulset", self.run.event)
        self.run.log_to_trace(UNHANDLED_ERRORS)
        self.creation_order: list[str] = []
        """Pod names in the order they were first seen (recreations too)."""
        self.deletion_order: list[str] = []
        """Pod names in the order they started terminating, the script's own deletion excluded."""
        self._seen: set[str] = set()  # pod uids seen
        self._seen_terminating: set[str] = set()  # pod uids seen terminating
        self._deleted_by_script: set[str] = set()  # pod uids the script deleted
        self.exempt: set[int] = set()
        """Ordinals the script disrupted, left out of the ordering checks until healthy again."""
        self.recreated: tuple[str, str] | None = None
        """(pod name, revision label) of the pod the script deleted, as it came back."""
        self.scaling_only = True
        """False once the template changes: the scaling-only invariant is then off."""
        c.check("statefulset ordered", self.ordered_invariant)
        sampler = self.run.sampler
        for i in range(ORDINALS):
            sampler.watch(f"{NAME}-{i}", self.state_probe(i))
        sampler.watch("ready pods", self.ready_pods)
        sampler.watch("current revision", self.revision_probe("currentRevision"))
        sampler.watch("update revision", self.revision_probe("updateRevision"))
        if partition_series:
            c.check("statefulset partition", self.partition_invariant)
            for i in range(ORDINALS):
                sampler.watch(f"{NAME}-{i} revision", self.pod_revision_probe(i))
        self.run.objects.update(cluster=c, server=c.server, client=c.client, statefulset_controller=self.controller,
                                kubelet=self.kubelet, volume_binder=self.binder, scenario=self)
        c.driver.observers.append(self.note_order)

    def __repr__(self) -> str:
        return f"StatefulSetScenario({self.cluster!r})"

    # -- the scripts ------------------------------------------------------------------------------------------

    def play_ordered(self) -> None:
        """statefulset-ordered: create with 3, scale to 5, scale to 2."""
        c = self.cluster
        self.run.say(f"create statefulset {NAME} with 3 replicas of {IMAGE_V1} (OrderedReady)")
        c.apply(stateful_set(3, IMAGE_V1))
        self.until("3 ready pods", lambda: self.ready_pods() == 3 and self.settled())
        self.run.event(f"created in order: {', '.join(self.creation_order)}")

        self.run.say(f"kubectl scale statefulset/{NAME} --replicas=5")
        c.scale("statefulsets", NAME, 5)
        self.until("5 ready pods", lambda: self.ready_pods() == 5 and self.settled())

        self.run.say(f"kubectl scale statefulset/{NAME} --replicas=2")
        c.scale("statefulsets", NAME, 2)
        self.until("2 pods left", lambda: len(c.pods(f"app={NAME}")) == 2 and self.settled())
        self.run.event(f"deleted in order: {', '.join(self.deletion_order)}; "
                       f"claims kept: {', '.join(o['metadata']['name'] for o in c.list('persistentvolumeclaims'))}")

    def play_partition(self) -> None:
        """statefulset-partition: partition 3, new image, a pod deleted below it, partition 0."""
        c = self.cluster
        self.run.say(f"create statefulset {NAME} with 5 replicas of {IMAGE_V1}, rollingUpdate.partition=3")
        c.apply(stateful_set(5, IMAGE_V1, partition=3))
        self.until("5 ready pods", lambda: self.ready_pods() == 5 and self.settled())

        self.run.say(f"kubectl set image statefulset/{NAME} app={IMAGE_V2}")
        self.scaling_only = False
        c.set_image("statefulsets", NAME, "app", IMAGE_V2)
        self.until("web-3 and web-4 updated", lambda: self.at_update_revision() == [3, 4] and self.settled())
        self.run.event(f"only ordinals >= 3 moved to {self.revision_label('updateRevision')}; "
                       f"web-0..web-2 stay at {self.revision_label('currentRevision')}")

        self.run.say(f"kubectl delete pod {NAME}-1")
        victim = c.get("pods", f"{NAME}-1")
        assert victim is not None
        self._deleted_by_script.add(victim["metadata"]["uid"])
        self.exempt.add(1)
        c.delete("pods", f"{NAME}-1")
        old_uid = victim["metadata"]["uid"]
        self.until("web-1 back and ready", lambda: self.replaced(f"{NAME}-1", old_uid) and self.settled())
        back = c.get("pods", f"{NAME}-1")
        assert back is not None
        self.recreated = (f"{NAME}-1", self.label_of_revision(self.pod_revision(back)))
        self.run.event(f"{NAME}-1 came back at {self.recreated[1]}, the revision below the partition")

        self.run.say(f"kubectl patch statefulset/{NAME} -p '{{\"spec\":{{\"updateStrategy\":{{\"rollingUpdate\":"
                     f"{{\"partition\":0}}}}}}}}'")
        c.patch("statefulsets", NAME, {"spec": {"updateStrategy": {"rollingUpdate": {"partition": 0}}}})
        self.until("every pod updated", lambda: self.at_update_revision() == list(range(5)) and self.settled()
                   and self.revision_label("currentRevision") == self.revision_label("updateRevision"))
        self.run.event(f"update order: {', '.join(n for n in self.deletion_order)}; "
                       f"current revision now {self.revision_label('currentRevision')}")

    def until(self, what: str, predicate: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        if not self.cluster.driver.run_until(predicate, timeout=timeout):
            raise RuntimeError(f"{self.run.name}: {what} did not happen within {timeout:g} s")

    # -- reading the API server -----------------------------------------------------------------------------

    def set(self) -> WireDict | None:
        return self.cluster.get("statefulsets", NAME)

    def pods(self) -> dict[int, WireDict]:
        return {ordinal_of(p): p for p in self.cluster.pods(f"app={NAME}")}

    def ready_pods(self) -> int:
        return sum(1 for p in self.pods().values() if is_ready(p) and not is_terminating(p))

    def settled(self) -> bool:
        """The set's status has caught up with its spec and no pod is terminating."""
        s = self.set()
        if s is None:
            return False
        status = s.get("status") or {}
        return (status.get("observedGeneration", 0) >= s["metadata"].get("generation", 0)
                and status.get("readyReplicas", 0) == s["spec"].get("replicas", 0)
                and not any(is_terminating(p) for p in self.pods().values()))

    def pod_revision(self, pod: WireDict) -> str:
        return (pod["metadata"].get("labels") or {}).get(STATEFUL_SET_REVISION_LABEL, "")

    def label_of_revision(self, name: str) -> str:
        """`rev<N>` for the ControllerRevision called `name` (its revision number), else the name."""
        revision = self.cluster.get("controllerrevisions", name)
        return f"rev{revision['revision']}" if revision is not None else name

    def revision_label(self, field: str) -> str:
        s = self.set()
        name = ((s or {}).get("status") or {}).get(field, "")
        return self.label_of_revision(name) if name else "-"

    def at_update_revision(self) -> list[int]:
        s = self.set()
        update = ((s or {}).get("status") or {}).get("updateRevision", "")
        return sorted(o for o, p in self.pods().items() if update and self.pod_revision(p) == update)

    def replaced(self, name: str, old_uid: str) -> bool:
        pod = self.cluster.get("pods", name)
        return pod is not None and pod["metadata"]["uid"] != old_uid and is_ready(pod)

    # -- probes -------------------------------------------------------------------------------------------------

    def state_probe(self, ordinal: int) -> Callable[[], str]:
        def pod_state_of_ordinal() -> str:
            return pod_state(self.pods().get(ordinal))
        return pod_state_of_ordinal

    def revision_probe(self, field: str) -> Callable[[], str]:
        def set_revision() -> str:
            return self.revision_label(field)
        return set_revision

    def pod_revision_probe(self, ordinal: int) -> Callable[[], str]:
        def pod_revision_of_ordinal() -> str:
            pod = self.pods().get(ordinal)
            return self.label_of_revision(self.pod_revision(pod)) if pod is not None else "-"
        return pod_revision_of_ordinal

    # -- after every step ------------------------------------------------------------------------------------

    def note_order(self, driver: Any) -> None:
        """Driver observer: remember the order of creations and of terminations."""
        for pod in self.cluster.pods(f"app={NAME}"):
            uid = pod["metadata"]["uid"]
            if uid not in self._seen:
                self._seen.add(uid)
                self.creation_order.append(pod["metadata"]["name"])
            if uid not in self._deleted_by_script and is_ready(pod) and not is_terminating(pod):
                self.exempt.discard(ordinal_of(pod))  # replaced and healthy: checked again
            if is_terminating(pod) and uid not in self._seen_terminating:
                self._seen_terminating.add(uid)
                if uid not in self._deleted_by_script:
                    self.deletion_order.append(pod["metadata"]["name"])

    def ordered_invariant(self) -> None:
        """OrderedReady: one unhealthy pod below the highest at a time, one terminating; ready in order while scaling."""
        pods = self.pods()
        if not pods:
            return
        exempt = self.exempt
        unhealthy = [o for o in range(max(pods) + 1) if o not in exempt and (
            o not in pods or is_terminating(pods[o]) or not is_ready(pods[o]))]
        if len(unhealthy) > 1:
            raise self.cluster.violation(f"statefulset {NAME}: ordinals {unhealthy} unhealthy at once")
        terminating = [o for o, p in pods.items() if is_terminating(p) and o not in exempt]
        if len(terminating) > 1:
            raise self.cluster.violation(f"statefulset {NAME}: ordinals {terminating} terminating at once")
        if self.scaling_only:
            ordinals = sorted(pods)
            for prev, cur in zip(ordinals, ordinals[1:], strict=False):
                if is_ready(pods[cur]) and not is_ready(pods[prev]):
                    raise self.cluster.violation(f"statefulset {NAME}: {NAME}-{cur} is ready while "
                                                 f"{NAME}-{prev} is not")

    def partition_invariant(self) -> None:
        """No pod below the partition is at the update revision (unless it is also the current one)."""
        s = self.set()
        if s is None:
            return
        partition = ((s["spec"].get("updateStrategy") or {}).get("rollingUpdate") or {}).get("partition", 0)
        status = s.get("status") or {}
        update, current = status.get("updateRevision", ""), status.get("currentRevision", "")
        if not update or update == current:
            return
        below = sorted(o for o, p in self.pods().items() if o < partition and self.pod_revision(p) == update)
        if below:
            raise self.cluster.violation(f"statefulset {NAME}: ordinals {below} below partition {partition} "
                                         f"are at the update revision")


def build_statefulset_ordered(seed: int) -> Run:
    """Scenario `statefulset-ordered` (chapter P5): the world, ready to play."""
    return StatefulSetScenario("statefulset-ordered", seed, partition_series=False).run


def build_statefulset_partition(seed: int) -> Run:
    """Scenario `statefulset-partition` (chapter P5): the world, ready to play."""
    return StatefulSetScenario("statefulset-partition", seed, partition_series=True).run
