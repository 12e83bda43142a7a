"""No upstream twin. A small cluster for scenarios: API server, informers, controllers and kubelet on one fake clock.

The chapter scenarios about workload controllers (Deployments, ReplicaSets,
StatefulSets, the garbage collector) all need the same world: the embedded
API server, one shared informer factory on a driven FakeClock, some
controllers, the simulated kubelet, and the driver that runs their steps. A
`Cluster` builds it, so a scenario only says which controllers it wants and
what the user does:

    c = Cluster(seed)
    c.with_replica_set_controller()
    c.with_deployment_controller()
    c.with_kubelet()
    c.start()                        # informers started, every step on c.driver
    c.apply(deployment("web", 10, "web:v1"))
    c.driver.run_until(lambda: c.deployment_complete("web"))
    c.set_image("deployments", "web", "app", "web:v2")

Writes go through the API server as kubectl would send them (`apply`,
`patch`, `scale` on the scale subresource, `set_image` as a strategic merge
patch, `rollout_undo` as the JSON patch of `kubectl rollout undo`). Reads
(`list`, `get`, `replica_sets_of`, ...) look at the API server, the truth,
never at a controller's cache.

Start reading at: Cluster.start, then Cluster.observe and Cluster.notice_changes.

Design notes. Reads are cached per resource: a list stays the answer until
the API server's storage records a write to that resource after it (it
keeps the resourceVersion of each resource's last write). The probes of a
scenario's series and its invariant checks run after every step; the cache
makes them cheap. The lists are the server's copies: read them, never
change them.

After every step `observe` compares the ReplicaSets, pods and Deployments
with what it saw after the previous step and writes what changed into the
trace, in words: `scale up rs web-6f7b9 (rev2) from 3 to 5`, `pod web-6f7b9-x2k4q
ready`. The line just before names the step that made the change. Writes the
script makes itself are noticed at once, under steps `kubectl: <topic>`. Each
ReplicaSet gets a label the first time it is seen: `rev<N>` from its
revision annotation at that moment (a Deployment's ReplicaSet is created
with it), else its name. The label never changes, so a series named after
it (`rs rev1 replicas`) follows one ReplicaSet even when a rollback gives it
a new revision.

Invariants are named checks (`check(name, fn)`) run after every step and
after every script write; a broken one raises `InvariantViolation`, which
ends the run: `minikcm demo run` then fails loudly instead of drawing a
wrong picture.
"""

from __future__ import annotations

import copy
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from minikcm.apimachinery import errors, labels, types
from minikcm.apimachinery.schema import resource_for_kind
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.deployment.deployment_controller import DeploymentController, new_deployment_controller
from minikcm.controller.deployment.util import deployment_util as util
from minikcm.controller.replicaset.replica_set import (
    BURST_REPLICAS,
    ReplicaSetController,
    new_replica_set_controller,
)
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.driver import Driver
from minikcm.sim.kubelet import Kubelet, KubeletConfig, new_kubelet

if TYPE_CHECKING:
    from minikcm.controller.garbagecollector.garbagecollector import GarbageCollector

NAMESPACE = "default"
"""Where scenario objects live unless they say otherwise."""
TERMINATION_GRACE_SECONDS = 5
"""The grace period of the pods scenario manifests declare (Kubernetes' default is 30 s; 5 keeps stories short)."""
WireDict = dict[str, Any]

# Annotations kubectl rollout undo keeps from the Deployment instead of copying them from the ReplicaSet.
_UNDO_KEEPS = (util.LAST_APPLIED_CONFIG_ANNOTATION, util.REVISION_ANNOTATION, util.REVISION_HISTORY_ANNOTATION,
               util.DESIRED_REPLICAS_ANNOTATION, util.MAX_REPLICAS_ANNOTATION, util.DEPRECATED_ROLLBACK_TO)


class InvariantViolation(RuntimeError):
    """A scenario's invariant broke during the run (the message says which, when, and the numbers)."""


@dataclass(frozen=True)
class ObjectState:
    """What `observe` remembers of a ReplicaSet or Deployment between steps."""

    name: str
    value: int
    """spec.replicas of a ReplicaSet, the revision of a Deployment."""
    terminating: bool
    finalizers: tuple[str, ...]
    owned: bool
    """It has a controller owner reference."""


def object_state(obj: WireDict, value: int) -> ObjectState:
    meta = obj["metadata"]
    return ObjectState(meta["name"], value, "deletionTimestamp" in meta, tuple(meta.get("finalizers") or ()),
                       controller_uid(obj) != "")


@dataclass(frozen=True)
class PodState:
    """What `observe` remembers of a pod between steps."""

    name: str
    phase: str
    ready: bool
    terminating: bool
    owned: bool


# -- manifests ---------------------------------------------------------------------------------------------------

def pod_template(app: str, image: str, grace: int = TERMINATION_GRACE_SECONDS,
                 annotations: dict[str, str] | None = None) -> WireDict:
    """A pod template with one container `app` running `image`, labelled `app=<app>`."""
    meta: WireDict = {"labels": {"app": app}}
    if annotations:
        meta["annotations"] = dict(annotations)
    return {"metadata": meta,
            "spec": {"containers": [{"name": "app", "image": image}], "terminationGracePeriodSeconds": grace}}


def deployment(name: str, replicas: int, image: str, *, strategy: str = util.ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE,
               max_surge: int | str = "25%", max_unavailable: int | str = "25%",
               namespace: str = NAMESPACE) -> WireDict:
    """A Deployment manifest selecting `app=<name>` (maxSurge/maxUnavailable only for RollingUpdate)."""
    spec: WireDict = {"replicas": replicas, "selector": {"matchLabels": {"app": name}},
                      "template": pod_template(name, image), "strategy": {"type": strategy}}
    if strategy == util.ROLLING_UPDATE_DEPLOYMENT_STRATEGY_TYPE:
        spec["strategy"]["rollingUpdate"] = {"maxSurge": max_surge, "maxUnavailable": max_unavailable}
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "namespace": namespace}, "spec": spec}


def replica_set(name: str, replicas: int, image: str, *, namespace: str = NAMESPACE) -> WireDict:
    """A bare ReplicaSet manifest (no owner) selecting `app=<name>`."""
    return {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": name, "namespace": namespace},
            "spec": {"replicas": replicas, "selector": {"matchLabels": {"app": name}},
                     "template": pod_template(name, image)}}


# -- reading wire objects ------------------------------------------------------------------------------------------

def is_ready(pod: WireDict) -> bool:
    """The pod's Ready condition is True."""
    return any(c.get("type") == "Ready" and c.get("status") == "True"
               for c in (pod.get("status") or {}).get("conditions") or [])


def is_terminating(obj: WireDict) -> bool:
    """The object has a deletionTimestamp."""
    return "deletionTimestamp" in obj["metadata"]


def controller_uid(obj: WireDict) -> str:
    """The uid of the object's controller (the owner reference with controller: true), or ""."""
    for ref in obj["metadata"].get("ownerReferences") or []:
        if ref.get("controller"):
            return ref.get("uid", "")
    return ""


def revision_of(obj: WireDict) -> int:
    """The deployment.kubernetes.io/revision annotation as a number (0 when absent)."""
    value = (obj["metadata"].get("annotations") or {}).get(util.REVISION_ANNOTATION, "0")
    return int(value) if value.isdigit() else 0


def fenceposts(d: WireDict) -> tuple[int, int, int]:
    """A RollingUpdate Deployment's (replicas, maxSurge, maxUnavailable) in pods (util.resolve_fenceposts)."""
    replicas = d["spec"].get("replicas", 1)
    ru = d["spec"].get("strategy", {}).get("rollingUpdate", {})
    max_surge, max_unavailable = util.resolve_fenceposts(ru.get("maxSurge"), ru.get("maxUnavailable"), replicas)
    return replicas, max_surge, max_unavailable


class Cluster:
    """The world of a workload scenario (see the module docstring).

    Build it, add components, `start()`, then drive `driver`. Build the
    scenario's `Run` after the Cluster, so that `observe` runs before the
    sampler after each step (the sampler then reads an up-to-date trace).
    Thread: one (the driver's).
    """

    def __init__(self, seed: int, *, namespace: str = NAMESPACE, trace_pods: bool = True) -> None:
        rng = random.Random(seed)
        self.seed = seed
        self.namespace = namespace
        self.clock = FakeClock(EPOCH, driven=True)
        self.server = APIServer(clock=self.clock, rng=random.Random(rng.getrandbits(64)))
        self.client = InProcessClientset(self.server)
        self.factory = new_shared_informer_factory_with_options(
            self.client, 0, clock=self.clock, rng=random.Random(rng.getrandbits(64)))  # driven: steps, no threads
        self.component_rng = random.Random(rng.getrandbits(64))
        """Seeds the components that draw random numbers (the kubelet's node and IP choices)."""
        self.driver = Driver(self.clock)
        self.components: dict[str, Any] = {}
        """Name -> component (`deployment`, `replicaset`, `kubelet`, ...), in step order."""
        self.checks: dict[str, Callable[[], None]] = {}
        """Invariants run after every step: name -> check (raises InvariantViolation)."""
        self.trace_pods = trace_pods
        """Also narrate pods (created, running, ready, terminating, gone), not only ReplicaSets."""
        self.stop = threading.Event()
        self.started = False
        self.rs_labels: dict[str, str] = {}
        """ReplicaSet uid -> its label (`rev1`, or its name), fixed when first seen."""
        # resource -> (the server resourceVersion when listed, label selector -> objects); see list()
        self._cache: dict[str, tuple[int, dict[str, list[WireDict]]]] = {}
        self._noticed_rv = -1  # the server resourceVersion notice_changes last looked at
        self._rs_seen: dict[str, ObjectState] = {}  # rs uid -> state (value: spec.replicas) after the last look
        self._pods_seen: dict[str, PodState] = {}  # pod uid -> state after the last look
        self._deployments_seen: dict[str, ObjectState] = {}  # deployment uid -> state (value: revision)
        self.driver.observers.append(self.observe)

    def __repr__(self) -> str:
        return (f"Cluster(seed={self.seed}, components={list(self.components)}, checks={list(self.checks)}, "
                f"{self.driver!r})")

    # -- building ----------------------------------------------------------------------------------------

    def add_component(self, name: str, component: Any) -> Any:
        """Add anything with `steps()`; its steps join the driver at `start()`, in the order added."""
        if self.started:
            raise RuntimeError(f"cluster already started; add {name!r} before start()")
        self.components[name] = component
        return component

    def with_replica_set_controller(self) -> ReplicaSetController:
        """The ReplicaSet controller (kube-controller-manager's burst of 500), as component `replicaset`."""
        f = self.factory
        rsc = new_replica_set_controller(f.apps().v1().replica_sets(), f.core().v1().pods(), self.client,
                                         BURST_REPLICAS)
        rsc.start_event_recording()  # the first lines of Run; the driver runs its loops from start()
        return self.add_component("replicaset", rsc)

    def with_deployment_controller(self) -> DeploymentController:
        """The Deployment controller, as component `deployment`."""
        f = self.factory
        dc = new_deployment_controller(f.apps().v1().deployments(), f.apps().v1().replica_sets(),
                                       f.core().v1().pods(), self.client)
        dc.start_event_recording()  # the first lines of Run; the driver runs its loops from start()
        return self.add_component("deployment", dc)

    def with_kubelet(self, config: KubeletConfig | None = None) -> Kubelet:
        """The simulated kubelet (3 nodes, 1 s to start, 1 s to become ready), as component `kubelet`."""
        kubelet = new_kubelet(self.client, self.factory.core().v1().pods(), config=config or KubeletConfig(),
                              rng=random.Random(self.component_rng.getrandbits(64)))
        return self.add_component("kubelet", kubelet)

    def with_garbage_collector(self) -> GarbageCollector:
        """The garbage collector (monitors on every served resource but events), as component `garbagecollector`."""
        # Imported here: only cascade-delete needs it, and the collector pulls in every resource's client.
        from minikcm.controller.garbagecollector.garbagecollector import new_garbage_collector

        gc = new_garbage_collector(self.client, self.factory, None)
        gc.start_event_recording()  # the first lines of Run; the driver runs its loops from start()
        return self.add_component("garbagecollector", gc)

    def start(self) -> None:
        """Start the informers (a driven clock: no threads) and schedule every step.

        Step order, which is the driver's scheduling policy: the API server,
        the informers, then the components in the order they were added.
        """
        if self.started:
            return
        self.started = True
        self.factory.start(self.stop)
        self.driver.add_all(self.server.steps())
        self.driver.add_all(self.factory.steps())
        for component in self.components.values():
            self.driver.add_all(component.steps())

    def forward_events(self, component: str, to: Callable[[str], None]) -> None:
        """Hand every Kubernetes Event `component` emits to `to`, as `Normal Reason kind/name: message`.

        Uses the component's event broadcaster (a watcher beside the one writing to
        the API server), so the events arrive in the broadcaster's step, in order.
        """
        def forward(event: Any) -> None:
            ref = event.involved_object
            what = f"{(ref.kind or '').lower()}/{ref.name}" if ref is not None else "?"
            to(f"{event.type} {event.reason} {what}: {event.message}")

        self.components[component].event_broadcaster.start_event_watcher(forward)

    # -- writing, as kubectl would ---------------------------------------------------------------------------

    def apply(self, obj: WireDict) -> WireDict:
        """Create `obj`, or replace the spec (and labels, annotations) of the object of that name.

        A small client-side apply: no field ownership, the last writer wins.
        Raises: StatusError from the API server; ValueError for a kind it does not serve.
        """
        info = resource_for_kind(obj["apiVersion"], obj["kind"])
        if info is None:
            raise ValueError(f"the API server does not serve {obj['apiVersion']} {obj['kind']}")
        namespace = obj["metadata"].get("namespace", self.namespace) if info.namespaced else ""
        try:
            out = self.server.create(info.resource, namespace, obj)
        except errors.StatusError as err:
            if not errors.is_already_exists(err):
                raise
            current = self.server.get(info.resource, namespace, obj["metadata"]["name"])
            for key in ("labels", "annotations"):
                if key in obj["metadata"]:
                    current["metadata"][key] = copy.deepcopy(obj["metadata"][key])
            if "spec" in obj:
                current["spec"] = copy.deepcopy(obj["spec"])
            out = self.server.update(info.resource, namespace, current)
        self.after_write()
        return out

    def patch(self, resource: str, name: str, body: Any,
              patch_type: types.PatchType = types.STRATEGIC_MERGE_PATCH_TYPE, *,
              subresource: str | None = None) -> WireDict:
        """`kubectl patch`: send `body` (parsed JSON) as a patch of `patch_type` (strategic merge by default)."""
        out = self.server.patch(resource, self.namespace, name, patch_type, body, subresource=subresource)
        self.after_write()
        return out

    def scale(self, resource: str, name: str, replicas: int) -> WireDict:
        """`kubectl scale`: a merge patch of the scale subresource."""
        return self.patch(resource, name, {"spec": {"replicas": replicas}}, types.MERGE_PATCH_TYPE,
                          subresource="scale")

    def set_image(self, resource: str, name: str, container: str, image: str) -> WireDict:
        """`kubectl set image`: a strategic merge patch of one container's image in the pod template."""
        body = {"spec": {"template": {"spec": {"containers": [{"name": container, "image": image}]}}}}
        return self.patch(resource, name, body)

    def delete(self, resource: str, name: str, *, propagation_policy: str | None = None,
               grace_period_seconds: int | None = None) -> WireDict:
        """`kubectl delete`, with `--cascade` given as a propagation policy (Foreground, Background, Orphan)."""
        out = self.server.delete(resource, self.namespace, name, propagation_policy=propagation_policy,
                                 grace_period_seconds=grace_period_seconds)
        self.after_write()
        return out

    def rollout_undo(self, name: str, to_revision: int = 0) -> str:
        """`kubectl rollout undo deployment/<name> [--to-revision=N]` (kubectl's DeploymentRollbacker).

        kubectl does the rollback itself: it finds the ReplicaSet of that
        revision (0: the one before the newest), and patches the Deployment's
        pod template back to that ReplicaSet's template, without the
        pod-template-hash label, in one JSON patch that also replaces the
        annotations (the Deployment keeps its revision and kubectl's own
        ones; the rest come from the ReplicaSet). The Deployment controller
        then sees an ordinary template change whose ReplicaSet exists
        already, and moves it to the next revision.

        Returns: kubectl's answer, "rolled back" or "skipped rollback (...)".
        Raises: ValueError when the revision is not found or the Deployment is paused.
        """
        d = self.server.get("deployments", self.namespace, name)
        target = self.replica_set_for_revision(d, to_revision)
        if d["spec"].get("paused"):
            raise ValueError(f"you cannot rollback a paused deployment; resume it first with "
                             f"'kubectl rollout resume deployment/{name}' and try again")
        template = copy.deepcopy(target["spec"]["template"])
        template.get("metadata", {}).get("labels", {}).pop(util.DEFAULT_DEPLOYMENT_UNIQUE_LABEL_KEY, None)
        if template == d["spec"]["template"]:
            return f"skipped rollback (current template already matches revision {to_revision})"
        d_annotations = d["metadata"].get("annotations") or {}
        annotations = {k: d_annotations[k] for k in _UNDO_KEEPS if k in d_annotations}
        annotations.update({k: v for k, v in (target["metadata"].get("annotations") or {}).items()
                            if k not in _UNDO_KEEPS})
        body = [{"op": "replace", "path": "/spec/template", "value": template},
                {"op": "replace", "path": "/metadata/annotations", "value": annotations}]
        self.patch("deployments", name, body, types.JSON_PATCH_TYPE)
        return "rolled back"

    def replica_set_for_revision(self, d: WireDict, to_revision: int) -> WireDict:
        """The Deployment's ReplicaSet of revision `to_revision`; for 0, the one before the newest.

        Raises: ValueError when there is none.
        """
        rss = sorted(self.replica_sets_of(d["metadata"]["name"]), key=revision_of)
        if to_revision > 0:
            for rs in rss:
                if revision_of(rs) == to_revision:
                    return rs
            raise ValueError(f"unable to find specified revision {to_revision} in history")
        if len(rss) < 2:
            raise ValueError(f"no rollout history found for deployment {d['metadata']['name']!r}")
        return rss[-2]

    def after_write(self) -> None:
        """A script write: narrate what it changed (under step `kubectl`) and check the invariants."""
        self.notice_changes("kubectl")
        self.run_checks()

    # -- reading the truth --------------------------------------------------------------------------------------

    def list(self, resource: str, label_selector: str = "") -> list[WireDict]:
        """The objects of `resource` in the namespace, as the server holds them now, sorted by name.

        Cached until the next write to that resource (one server list per
        resource and write; selectors filter that list). Do not change them.
        """
        storage = self.server.storage
        cached = self._cache.get(resource)
        if cached is not None:
            with storage.lock:
                if storage.modified_since_locked(resource, cached[0]):
                    cached = None
        if cached is None:
            rv = storage.resource_version
            items = sorted(self.server.list(resource, self.namespace)["items"], key=lambda o: o["metadata"]["name"])
            cached = self._cache[resource] = (rv, {"": items})
        by_selector = cached[1]
        if label_selector not in by_selector:
            selector = labels.parse(label_selector)
            by_selector[label_selector] = [o for o in by_selector[""]
                                           if selector.matches(labels.Set(o["metadata"].get("labels") or {}))]
        return by_selector[label_selector]

    def get(self, resource: str, name: str) -> WireDict | None:
        """The object called `name`, or None (from the cached list)."""
        for obj in self.list(resource):
            if obj["metadata"]["name"] == name:
                return obj
        return None

    def replica_sets_of(self, deployment_name: str) -> list[WireDict]:
        """The ReplicaSets the Deployment controls, oldest revision first."""
        d = self.get("deployments", deployment_name)
        if d is None:
            return []
        uid = d["metadata"]["uid"]
        return sorted((rs for rs in self.list("replicasets") if controller_uid(rs) == uid), key=revision_of)

    def rs_by_label(self, label: str) -> WireDict | None:
        """The ReplicaSet labelled `label` when first seen (`rev1`, or a name), if it still exists."""
        for rs in self.list("replicasets"):
            if self.rs_labels.get(rs["metadata"]["uid"]) == label:
                return rs
        return None

    def rs_replicas(self, label: str) -> int:
        """spec.replicas of the ReplicaSet labelled `label` (0 before it exists and after it is gone)."""
        rs = self.rs_by_label(label)
        return rs["spec"].get("replicas", 0) if rs is not None else 0

    def pods(self, label_selector: str = "") -> list[WireDict]:
        return self.list("pods", label_selector)

    def pods_of_label(self, label: str) -> list[WireDict]:
        """The pods (terminating ones too) whose controller is the ReplicaSet labelled `label`."""
        return [p for p in self.pods() if self.rs_labels.get(controller_uid(p)) == label]

    def deployment_complete(self, name: str) -> bool:
        """The rollout is over: status observed the latest spec, every replica updated and available,
        no old ReplicaSet asks for pods, and no pod is still terminating."""
        d = self.get("deployments", name)
        if d is None:
            return False
        s = d.get("status", {})
        want = d["spec"].get("replicas", 1)
        if not (s.get("observedGeneration", 0) >= d["metadata"]["generation"] and s.get("updatedReplicas", 0) == want
                and s.get("replicas", 0) == want and s.get("availableReplicas", 0) == want):
            return False
        rss = self.replica_sets_of(name)
        return (all(rs["spec"].get("replicas", 0) == 0 for rs in rss[:-1])
                and not any(is_terminating(p) for p in self.pods(f"app={name}")))

    def condition(self, name: str, cond_type: str) -> WireDict | None:
        """The Deployment's condition of `cond_type`, or None."""
        d = self.get("deployments", name)
        for c in (d or {}).get("status", {}).get("conditions", []):
            if c["type"] == cond_type:
                return c
        return None

    def label_of(self, rs: WireDict) -> str:
        """The label of a ReplicaSet (given it on first sight)."""
        uid = rs["metadata"]["uid"]
        if uid not in self.rs_labels:
            revision = revision_of(rs)
            self.rs_labels[uid] = f"rev{revision}" if revision else rs["metadata"]["name"]
        return self.rs_labels[uid]

    # -- after every step ----------------------------------------------------------------------------------------

    def observe(self, driver: Driver) -> None:
        """Driver observer: narrate what the step changed, then check every invariant."""
        self.notice_changes("")
        self.run_checks()

    def run_checks(self) -> None:
        for check in list(self.checks.values()):
            check()

    def check(self, name: str, fn: Callable[[], None]) -> None:
        """Run `fn` after every step from now on (it raises InvariantViolation when broken); runs it once now."""
        self.checks[name] = fn
        fn()

    def uncheck(self, name: str) -> None:
        self.checks.pop(name, None)

    def violation(self, what: str) -> InvariantViolation:
        """An InvariantViolation saying `what`, at the current fake time."""
        elapsed = (self.clock.now() - EPOCH).total_seconds()
        return InvariantViolation(f"invariant broken at +{elapsed:.3f} s: {what}")

    def notice_changes(self, actor: str) -> None:
        """Write into the trace how ReplicaSets, pods and Deployment revisions changed since the last look.

        `actor` names who changed them when known (`kubectl` for script
        writes); "" after a step, whose own trace line comes just before.
        """
        rv = self.server.storage.resource_version
        if rv == self._noticed_rv:
            return  # nothing was written since the last look
        self._noticed_rv = rv
        self.notice_replica_sets(actor)
        self.notice_deployments(actor)
        if self.trace_pods:
            self.notice_pods(actor)

    def record(self, actor: str, topic: str, text: str) -> None:
        self.driver.record(f"{actor}: {topic}" if actor else topic, text)

    def notice_replica_sets(self, actor: str) -> None:
        now: dict[str, ObjectState] = {}
        for rs in self.list("replicasets"):
            state = object_state(rs, rs["spec"].get("replicas", 0))
            uid = rs["metadata"]["uid"]
            now[uid] = state
            label = self.label_of(rs)
            what = f"rs {state.name}" + (f" ({label})" if label != state.name else "")
            before = self._rs_seen.get(uid)
            if before is None:
                self.record(actor, "rs", f"new {what} with {state.value} replicas")
                continue
            if before.value != state.value:
                way = "up" if state.value > before.value else "down"
                self.record(actor, "rs", f"scale {way} {what} from {before.value} to {state.value}")
            self.notice_metadata(actor, "rs", what, before, state)
        for uid, state in sorted(self._rs_seen.items()):
            if uid not in now:
                label = self.rs_labels.get(uid, state.name)
                self.record(actor, "rs", f"rs {state.name}" + (f" ({label})" if label != state.name else "")
                            + " is gone")
        self._rs_seen = now

    def notice_deployments(self, actor: str) -> None:
        now: dict[str, ObjectState] = {}
        for d in self.list("deployments"):
            state = object_state(d, revision_of(d))
            uid = d["metadata"]["uid"]
            now[uid] = state
            before = self._deployments_seen.get(uid)
            what = f"deployment {state.name}"
            if before is None:
                self.record(actor, "deployment", f"new {what}")
            if state.value and (before is None or before.value != state.value):
                self.record(actor, "deployment", f"{what} is at revision {state.value}")
            if before is not None:
                self.notice_metadata(actor, "deployment", what, before, state)
        for uid, state in sorted(self._deployments_seen.items()):
            if uid not in now:
                self.record(actor, "deployment", f"deployment {state.name} is gone")
        self._deployments_seen = now

    def notice_metadata(self, actor: str, topic: str, what: str, before: ObjectState, state: ObjectState) -> None:
        """Narrate a deletion starting (with the finalizers holding it) and an owner reference removed."""
        if state.terminating and not before.terminating:
            held = f" (finalizers: {', '.join(state.finalizers)})" if state.finalizers else ""
            self.record(actor, topic, f"{what} terminating{held}")
        elif state.finalizers != before.finalizers and state.terminating:
            self.record(actor, topic, f"{what} finalizers now {list(state.finalizers)}")
        if before.owned and not state.owned:
            self.record(actor, topic, f"{what} has no owner any more (orphaned)")

    def notice_pods(self, actor: str) -> None:
        now: dict[str, PodState] = {}
        for p in self.pods():
            state = PodState(p["metadata"]["name"], (p.get("status") or {}).get("phase", "Pending"), is_ready(p),
                             is_terminating(p), controller_uid(p) != "")
            uid = p["metadata"]["uid"]
            now[uid] = state
            before = self._pods_seen.get(uid)
            if before is None:
                owner = self.rs_labels.get(controller_uid(p), "")
                self.record(actor, "pod", f"pod {state.name} created" + (f" ({owner})" if owner else ""))
            elif state.terminating and not before.terminating:
                self.record(actor, "pod", f"pod {state.name} terminating")
            elif state.ready and not before.ready:
                self.record(actor, "pod", f"pod {state.name} ready")
            elif state.phase != before.phase:
                self.record(actor, "pod", f"pod {state.name} {state.phase}")
            if before is not None and before.owned and not state.owned:
                self.record(actor, "pod", f"pod {state.name} has no owner any more (orphaned)")
        for uid, state in sorted(self._pods_seen.items()):
            if uid not in now:
                self.record(actor, "pod", f"pod {state.name} is gone")
        self._pods_seen = now


# -- invariants ------------------------------------------------------------------------------------------------

def rolling_update_bounds(c: Cluster, name: str, *, availability: bool = True) -> Callable[[], None]:
    """Upstream's e2e check of a rolling update, as a Cluster check.

    Pods asked for (the sum of the ReplicaSets' spec.replicas) never exceed
    replicas + maxSurge; with `availability`, the Deployment's
    availableReplicas and the ready pods never drop below replicas -
    maxUnavailable (right after a scale-up that cannot hold, so scenarios
    that scale keep only the surge bound).
    """
    def rolling_update_within_bounds() -> None:
        d = c.get("deployments", name)
        if d is None:
            return
        replicas, max_surge, max_unavailable = fenceposts(d)
        asked = sum(rs["spec"].get("replicas", 0) for rs in c.replica_sets_of(name))
        if asked > replicas + max_surge:
            raise c.violation(f"deployment {name}: {asked} pods asked for, more than {replicas} + "
                              f"{max_surge} (maxSurge)")
        if not availability:
            return
        available = d.get("status", {}).get("availableReplicas", 0)
        ready = sum(1 for p in c.pods(f"app={name}") if is_ready(p) and not is_terminating(p))
        floor = replicas - max_unavailable
        if available < floor or ready < floor:
            raise c.violation(f"deployment {name}: {available} available and {ready} ready pods, fewer than "
                              f"{replicas} - {max_unavailable} (maxUnavailable)")
    return rolling_update_within_bounds


def recreate_never_overlaps(c: Cluster, name: str) -> Callable[[], None]:
    """Recreate's promise, as a Cluster check: pods (terminating ones too) of two ReplicaSets never coexist."""
    def one_replica_set_at_a_time() -> None:
        owners = {c.rs_labels.get(controller_uid(p), "?") for p in c.pods(f"app={name}")}
        if len(owners) > 1:
            raise c.violation(f"deployment {name} (Recreate): pods of {sorted(owners)} side by side")
    return one_replica_set_at_a_time
