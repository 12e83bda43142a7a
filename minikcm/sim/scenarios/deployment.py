"""No upstream twin. Chapter P3 scenarios: Deployment rollouts (`rolling-update`, `recreate`,
`proportional-scaling`, `paused-rollout`, `rollback`).

Each builds a `Cluster` (minikcm.sim.scenarios.cluster) with the ReplicaSet
controller, the Deployment controller and the simulated kubelet (3 nodes;
a pod runs 1 s after it is bound and is ready 1 s later; pods get 5 s to
terminate), then plays what a user would type:

- `rolling-update`: 10 replicas of web:v1 with maxSurge 25% and maxUnavailable
  25% (3 and 2 pods), then `kubectl set image` to web:v2. The new ReplicaSet
  grows while the old one shrinks, never more than 13 pods asked for and
  never fewer than 8 available.
- `recreate`: 4 replicas, strategy Recreate, image v1 -> v2: the old
  ReplicaSet goes to 0 and its pods finish terminating before the new one
  is created with 4 replicas.
- `proportional-scaling`: 10 replicas, maxSurge 3, maxUnavailable 2, an
  update to an image that cannot be pulled (`web:broken`, the kubelet's
  convention): the rollout sticks at 8 old and 5 new. `kubectl scale` to 30
  then spreads the 20 extra replicas (33 allowed, 13 there) in proportion:
  20 old and 13 new.
- `paused-rollout`: pause, change the image (no new ReplicaSet while paused),
  scale 4 -> 6 while paused (the old ReplicaSet grows), resume: the rollout
  to v2 runs with 6 replicas.
- `rollback`: v1 -> v2, then `kubectl rollout undo --to-revision=1`, which
  patches the template back; the revision-1 ReplicaSet is reused and
  becomes revision 3 (revision-history "1").

Series: `rs rev<N> replicas` (spec.replicas of the ReplicaSet first seen at
revision N, see cluster.py), `available pods` (the Deployment's
availableReplicas), `total pods` (pod objects, terminating ones included),
and per scenario `rev<N> pods`, `paused`, `desired replicas`, `deployment
revision`, `rs rev1 revision`. The trace narrates every scale decision
(`scale up rs web-5d4f7 (rev2) from 3 to 5`); the events are the Deployment
controller's Kubernetes Events. Upstream's e2e invariants are checked after
every step; a broken one raises InvariantViolation out of `Run.run`.

Start reading at: RollingUpdate.play, then DeploymentController.sync_deployment.
Good breakpoints: RollingMixin.rollout_rolling, RollingMixin.reconcile_new_replica_set,
RollingMixin.reconcile_old_replica_sets, SyncMixin.scale, RecreateMixin.rollout_recreate,
SyncMixin.get_new_replica_set.
"""

from __future__ import annotations

from collections.abc import Callable

from minikcm.controller.deployment.util import deployment_util as util
from minikcm.driver import Driver
from minikcm.sim.scenarios.base import Run
from minikcm.sim.scenarios.cluster import (
    Cluster,
    InvariantViolation,
    deployment,
    fenceposts,
    recreate_never_overlaps,
    revision_of,
    rolling_update_bounds,
)

NAME = "web"
IMAGE_V1, IMAGE_V2 = "web:v1", "web:v2"
BROKEN_IMAGE = "web:broken"
"""An image the simulated kubelet cannot pull (its `:broken` convention): the pods never become ready."""
UNHANDLED_ERRORS = "minikcm.apimachinery.runtime.UnhandledError"
"""The logger of runtime.handle_error: conflicts and other retried errors go into the trace."""
ROLLOUT_TIMEOUT = 300.0
"""Fake seconds a phase may take before the script gives up (a broken controller)."""


class DeploymentScenario:
    """What the five scenarios share: the cluster, the Run, the usual series and the extremes seen.

    Subclasses set `name` and write `play`.
    """

    name = ""

    def __init__(self, seed: int) -> None:
        c = self.cluster = Cluster(seed)
        self.replicaset_controller = c.with_replica_set_controller()
        self.deployment_controller = c.with_deployment_controller()
        self.kubelet = c.with_kubelet()
        c.start()
        self.run = Run(self.name, seed, c.clock, c.driver, self.play)
        c.forward_events("deployment", self.run.event)
        self.run.log_to_trace(UNHANDLED_ERRORS)
        self.max_asked = 0
        """The most pods the Deployment's ReplicaSets asked for at once while `tracking`."""
        self.min_available: int | None = None
        """The fewest available replicas (Deployment status) seen while `tracking`."""
        self.tracking = False
        c.driver.observers.append(self.observe)
        self.run.objects.update(cluster=c, server=c.server, client=c.client, kubelet=self.kubelet,
                                deployment_controller=self.deployment_controller,
                                replicaset_controller=self.replicaset_controller, scenario=self)

    def play(self) -> None:
        raise NotImplementedError

    # -- series ----------------------------------------------------------------------------------------

    def watch_replica_sets(self, *labels: str) -> None:
        for label in labels:
            self.run.sampler.watch(f"rs {label} replicas", self.rs_replicas_probe(label))

    def rs_replicas_probe(self, label: str) -> Callable[[], int]:
        def rs_replicas() -> int:
            return self.cluster.rs_replicas(label)
        return rs_replicas

    def rs_pods_probe(self, label: str) -> Callable[[], int]:
        def rs_pods() -> int:
            return len(self.cluster.pods_of_label(label))
        return rs_pods

    def watch_pods(self) -> None:
        self.run.sampler.watch("available pods", self.available_pods)
        self.run.sampler.watch("total pods", self.total_pods)

    def available_pods(self) -> int:
        d = self.cluster.get("deployments", NAME)
        return (d or {}).get("status", {}).get("availableReplicas", 0)

    def total_pods(self) -> int:
        return len(self.cluster.pods(f"app={NAME}"))

    def asked_pods(self) -> int:
        """The sum of the Deployment's ReplicaSets' spec.replicas."""
        return sum(rs["spec"].get("replicas", 0) for rs in self.cluster.replica_sets_of(NAME))

    # -- the script's helpers -----------------------------------------------------------------------------

    def observe(self, driver: Driver) -> None:
        """After each step: keep the extremes the events report."""
        if self.tracking:
            self.max_asked = max(self.max_asked, self.asked_pods())
            available = self.available_pods()
            self.min_available = available if self.min_available is None else min(self.min_available, available)

    def track(self) -> None:
        """Start keeping max_asked and min_available, from the current values."""
        self.tracking = True
        self.max_asked, self.min_available = self.asked_pods(), self.available_pods()

    def until(self, what: str, predicate: Callable[[], bool], timeout: float = ROLLOUT_TIMEOUT) -> None:
        """Run until `predicate` holds. Raises RuntimeError when `timeout` fake seconds pass first."""
        if not self.cluster.driver.run_until(predicate, timeout=timeout):
            raise RuntimeError(f"{self.name}: {what} did not happen within {timeout:g} s "
                               f"(ReplicaSets: {self.replica_set_summary()})")

    def complete(self) -> bool:
        return self.cluster.deployment_complete(NAME)

    def replica_set_summary(self) -> str:
        c = self.cluster
        return ", ".join(f"{c.label_of(rs)}={rs['spec'].get('replicas', 0)}" for rs in c.replica_sets_of(NAME))

    def create(self, replicas: int, **kwargs: object) -> None:
        """Create the Deployment and run until its first rollout is complete."""
        self.cluster.apply(deployment(NAME, replicas, IMAGE_V1, **kwargs))  # type: ignore[arg-type]
        self.until("the first rollout", self.complete)

    def set_image(self, image: str) -> None:
        self.run.say(f"kubectl set image deployment/{NAME} app={image}")
        self.cluster.set_image("deployments", NAME, "app", image)

    def report_bounds(self) -> None:
        """An event with the extremes of the rollout, beside the bounds they had to keep."""
        d = self.cluster.get("deployments", NAME)
        assert d is not None
        replicas, max_surge, max_unavailable = fenceposts(d)
        self.run.event(f"during the rollout: at most {self.max_asked} pods asked for ({replicas} + maxSurge "
                       f"{max_surge}), at least {self.min_available} available ({replicas} - maxUnavailable "
                       f"{max_unavailable})")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.cluster!r})"


class RollingUpdate(DeploymentScenario):
    """`rolling-update`: 10 replicas, 25%/25%, web:v1 -> web:v2."""

    name = "rolling-update"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.watch_replica_sets("rev1", "rev2")
        self.watch_pods()

    def play(self) -> None:
        c = self.cluster
        self.run.say(f"create deployment {NAME}: 10 replicas of {IMAGE_V1}, maxSurge 25%, maxUnavailable 25%")
        self.create(10)
        c.check("rolling update bounds", rolling_update_bounds(c, NAME))
        self.track()
        self.set_image(IMAGE_V2)
        self.until(f"the rollout to {IMAGE_V2}", self.complete)
        self.report_bounds()
        c.driver.run_for(5)


class Recreate(DeploymentScenario):
    """`recreate`: 4 replicas, strategy Recreate, web:v1 -> web:v2."""

    name = "recreate"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.watch_replica_sets("rev1", "rev2")
        self.run.sampler.watch("rev1 pods", self.rs_pods_probe("rev1"))
        self.run.sampler.watch("rev2 pods", self.rs_pods_probe("rev2"))
        self.watch_pods()
        self.old_pods_gone_at: float | None = None
        """Seconds after the start when the last rev1 pod was gone."""
        self.new_rs_at: float | None = None
        """Seconds after the start when the rev2 ReplicaSet first asked for pods."""
        self.cluster.driver.observers.append(self.note_times)

    def play(self) -> None:
        c = self.cluster
        self.run.say(f"create deployment {NAME}: 4 replicas of {IMAGE_V1}, strategy Recreate")
        self.create(4, strategy=util.RECREATE_DEPLOYMENT_STRATEGY_TYPE)
        c.check("recreate never overlaps", recreate_never_overlaps(c, NAME))
        self.set_image(IMAGE_V2)
        self.until(f"the rollout to {IMAGE_V2}", self.complete)
        self.run.event(f"the last rev1 pod was gone at +{self.old_pods_gone_at:.3f} s; the rev2 ReplicaSet "
                       f"asked for pods at +{self.new_rs_at:.3f} s")
        c.driver.run_for(5)

    def note_times(self, driver: Driver) -> None:
        c = self.cluster
        t = self.run.sampler.elapsed()
        if self.old_pods_gone_at is None and c.rs_by_label("rev2") is None and c.rs_by_label("rev1") is not None:
            if c.rs_replicas("rev1") == 0 and not c.pods_of_label("rev1"):
                self.old_pods_gone_at = t
        if self.new_rs_at is None and c.rs_replicas("rev2") > 0:
            self.new_rs_at = t


class ProportionalScaling(DeploymentScenario):
    """`proportional-scaling`: a stuck rollout (broken image) scaled from 10 to 30."""

    name = "proportional-scaling"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.watch_replica_sets("rev1", "rev2")
        self.run.sampler.watch("desired replicas", self.desired_replicas)
        self.watch_pods()

    def desired_replicas(self) -> int:
        d = self.cluster.get("deployments", NAME)
        return (d or {}).get("spec", {}).get("replicas", 0)

    def play(self) -> None:
        c = self.cluster
        self.run.say(f"create deployment {NAME}: 10 replicas of {IMAGE_V1}, maxSurge 3, maxUnavailable 2")
        self.create(10, max_surge=3, max_unavailable=2)
        c.check("rolling update bounds", rolling_update_bounds(c, NAME))
        self.set_image(BROKEN_IMAGE)
        self.settle_at(8, 5, "the stuck rollout")
        self.run.event("stuck: the old ReplicaSet keeps 8 (10 - maxUnavailable 2), the new one 5 "
                       "(13 allowed minus 8); its pods never become ready")
        # Right after a scale-up fewer than replicas - maxUnavailable are available: keep the surge bound only.
        c.check("rolling update bounds", rolling_update_bounds(c, NAME, availability=False))
        self.run.say(f"kubectl scale deployment/{NAME} --replicas=30")
        c.scale("deployments", NAME, 30)
        self.settle_at(20, 13, "the proportional scale-up")
        annotations = [(rs["metadata"].get("annotations") or {}) for rs in c.replica_sets_of(NAME)]
        marks = sorted({(a.get(util.DESIRED_REPLICAS_ANNOTATION), a.get(util.MAX_REPLICAS_ANNOTATION))
                        for a in annotations}, key=str)
        self.run.event(f"scaled to 30: 33 pods allowed (30 + maxSurge 3), 20 more than the 13 there, shared "
                       f"in proportion to 8:5 -> old 20, new 13; desired-replicas/max-replicas annotations {marks}")

    def settle_at(self, old: int, new: int, what: str) -> None:
        """Run until rev1 and rev2 ask for `old` and `new` pods, then 60 s more: they must stay there."""
        c = self.cluster

        def there() -> bool:
            return c.rs_replicas("rev1") == old and c.rs_replicas("rev2") == new

        self.until(f"{what} ({old} old and {new} new)", there, timeout=120)
        c.driver.run_for(60)
        if not there():
            raise InvariantViolation(f"{what} did not stay at {old} old and {new} new pods: "
                                     f"{self.replica_set_summary()}")


class PausedRollout(DeploymentScenario):
    """`paused-rollout`: pause, change the image, scale while paused, resume."""

    name = "paused-rollout"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.watch_replica_sets("rev1", "rev2")
        self.run.sampler.watch("paused", self.paused)
        self.watch_pods()

    def paused(self) -> bool:
        d = self.cluster.get("deployments", NAME)
        return bool((d or {}).get("spec", {}).get("paused", False))

    def play(self) -> None:
        c = self.cluster
        self.run.say(f"create deployment {NAME}: 4 replicas of {IMAGE_V1}, maxSurge 1, maxUnavailable 1")
        self.create(4, max_surge=1, max_unavailable=1)
        self.run.say(f"kubectl rollout pause deployment/{NAME}")
        c.patch("deployments", NAME, {"spec": {"paused": True}})
        self.set_image(IMAGE_V2)
        c.driver.run_for(30)
        if len(c.replica_sets_of(NAME)) != 1:
            raise InvariantViolation(f"a paused Deployment got a new ReplicaSet: {self.replica_set_summary()}")
        progressing = c.condition(NAME, util.DEPLOYMENT_PROGRESSING) or {}
        self.run.event(f"paused with a new template: still one ReplicaSet; Progressing reason "
                       f"{progressing.get('reason')}")
        c.check("rolling update bounds", rolling_update_bounds(c, NAME, availability=False))
        self.run.say(f"kubectl scale deployment/{NAME} --replicas=6 (still paused)")
        c.scale("deployments", NAME, 6)
        self.until("the paused scale-up", lambda: c.rs_replicas("rev1") == 6 and self.available_pods() == 6)
        c.driver.run_for(10)
        if len(c.replica_sets_of(NAME)) != 1:
            raise InvariantViolation(f"a paused Deployment got a new ReplicaSet: {self.replica_set_summary()}")
        c.check("rolling update bounds", rolling_update_bounds(c, NAME))
        self.track()
        self.run.say(f"kubectl rollout resume deployment/{NAME}")
        c.patch("deployments", NAME, {"spec": {"paused": False}})
        self.until(f"the rollout to {IMAGE_V2}", self.complete)
        self.report_bounds()
        c.driver.run_for(5)


class Rollback(DeploymentScenario):
    """`rollback`: v1 -> v2, then `kubectl rollout undo --to-revision=1`."""

    name = "rollback"

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.watch_replica_sets("rev1", "rev2")
        self.run.sampler.watch("deployment revision", self.deployment_revision)
        self.run.sampler.watch("rs rev1 revision", self.rev1_revision)
        self.watch_pods()

    def deployment_revision(self) -> int:
        d = self.cluster.get("deployments", NAME)
        return revision_of(d) if d is not None else 0

    def rev1_revision(self) -> int:
        rs = self.cluster.rs_by_label("rev1")
        return revision_of(rs) if rs is not None else 0

    def play(self) -> None:
        c = self.cluster
        self.run.say(f"create deployment {NAME}: 4 replicas of {IMAGE_V1}, maxSurge 1, maxUnavailable 1")
        self.create(4, max_surge=1, max_unavailable=1)
        c.check("rolling update bounds", rolling_update_bounds(c, NAME))
        self.set_image(IMAGE_V2)
        self.until(f"the rollout to {IMAGE_V2}", self.complete)
        c.driver.run_for(5)
        self.run.say(f"kubectl rollout undo deployment/{NAME} --to-revision=1")
        answer = c.rollout_undo(NAME, to_revision=1)
        self.run.say(f"kubectl: deployment.apps/{NAME} {answer}")
        self.until("the rollback", lambda: self.complete() and c.rs_replicas("rev1") == 4)
        rs = c.rs_by_label("rev1")
        assert rs is not None
        annotations = rs["metadata"].get("annotations") or {}
        if len(c.replica_sets_of(NAME)) != 2 or revision_of(rs) != 3:
            raise InvariantViolation(f"the rollback did not reuse the revision-1 ReplicaSet as revision 3: "
                                     f"{self.replica_set_summary()}")
        self.run.event(f"rs {rs['metadata']['name']} (rev1) is revision {revision_of(rs)} now, revision-history "
                       f"{annotations.get(util.REVISION_HISTORY_ANNOTATION)!r}; no new ReplicaSet was made")
        c.driver.run_for(5)


def build_rolling_update(seed: int) -> Run:
    """Scenario `rolling-update` (chapter P3)."""
    return RollingUpdate(seed).run


def build_recreate(seed: int) -> Run:
    """Scenario `recreate` (chapter P3)."""
    return Recreate(seed).run


def build_proportional_scaling(seed: int) -> Run:
    """Scenario `proportional-scaling` (chapter P3)."""
    return ProportionalScaling(seed).run


def build_paused_rollout(seed: int) -> Run:
    """Scenario `paused-rollout` (chapter P3)."""
    return PausedRollout(seed).run


def build_rollback(seed: int) -> Run:
    """Scenario `rollback` (chapter P3)."""
    return Rollback(seed).run
