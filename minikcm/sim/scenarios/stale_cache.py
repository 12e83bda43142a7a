"""No upstream twin. Chapter P4 scenario: `replicaset-stale-cache`, the race the ReplicaSet controller defends against.

The `replicaset-scale` world (a bare ReplicaSet `web`, the ReplicaSet
controller, the simulated kubelet on 3 nodes) under the driver's
`interleaved` schedule (minikcm.driver), seeded with the scenario's seed:
each round runs one ready step drawn at random, so the controller's worker
can take the key while the watch events of its own last writes are still in
a reflector, an informer's queue or a listener's buffer, as on threads. The
script: create `web` with 4 replicas, scale it to 9 once they are ready, then
let it settle.

What the trace shows (both come from the port's own log lines):

- a refused sync: `sync 'default/web' failed with read version: R is not as
  new as written version: W for group resource ...` (upstream's
  ConsistencyError message, reported by the worker's catch-all), after which
  the key is requeued with backoff and comes back for another sync;
- a sync held back: `Controller still waiting on expectations` while the
  creates of the last sync are in flight; that sync writes the status but
  creates nothing.

Series: `rs replicas`, `pods`, `creates in flight` (the expectations' pending
adds), `syncs refused`, `syncs held back`. Invariant, as in replicaset-scale:
the controller never creates a pod when spec.replicas are already there, never
deletes one when there are not more.

Start reading at: StaleCache.play, then ReplicaSetController.sync_replica_set.
Good breakpoints: RealConsistencyStore.ensure_ready (`--hit` as the P4 page
says), ControllerExpectations.satisfied_expectations.
"""

from __future__ import annotations

from typing import Any

from minikcm.driver import Interleaved
from minikcm.sim.scenarios.base import Run
from minikcm.sim.scenarios.cluster import Cluster, replica_set
from minikcm.sim.scenarios.replicaset import IMAGE, NAME, UNHANDLED_ERRORS, RecordingPodControl, WebReads, pod_state

EXPECTATIONS_LOG = "minikcm.controller.controller_utils"
TIMEOUT = 120.0
REFUSED = "is not as new as written version"
HELD = "Controller still waiting on expectations"


class StaleCache(WebReads):
    """The `replicaset-stale-cache` world and its script (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        c = self.cluster = Cluster(seed)
        c.driver.schedule = Interleaved(seed)
        self.controller = c.with_replica_set_controller()
        self.pod_control = RecordingPodControl(self.controller.pod_control, c, self.controller.expectations)
        self.controller.pod_control = self.pod_control
        self.kubelet = c.with_kubelet()
        c.start()
        self.run = Run("replicaset-stale-cache", seed, c.clock, c.driver, self.play)
        c.forward_events("replicaset", self.run.event)
        self.run.log_to_trace(UNHANDLED_ERRORS)
        self.run.log_to_trace(EXPECTATIONS_LOG)
        c.check("replicaset never overshoots", self.no_violations)
        sampler = self.run.sampler
        sampler.watch("rs replicas", self.rs_replicas)
        sampler.watch("pods", lambda: sum(1 for p in c.pods(f"app={NAME}") if pod_state(p) != "terminating"))
        sampler.watch("creates in flight", self.creates_in_flight)
        sampler.watch("syncs refused", lambda: self.count_logged(REFUSED))
        sampler.watch("syncs held back", lambda: self.count_logged(HELD))
        self.run.objects.update(cluster=c, server=c.server, client=c.client, replicaset_controller=self.controller,
                                kubelet=self.kubelet, pod_control=self.pod_control, scenario=self)

    def __repr__(self) -> str:
        return f"StaleCache({self.cluster!r})"

    def play(self) -> None:
        c = self.cluster
        self.run.say(f"create replicaset {NAME} with 4 replicas of {IMAGE} (interleaved schedule)")
        c.apply(replica_set(NAME, 4, IMAGE))
        self.until("4 ready pods", lambda: self.count("ready") == 4)
        self.run.say(f"kubectl scale replicaset/{NAME} --replicas=9")
        c.scale("replicasets", NAME, 9)
        self.until("9 ready pods", lambda: self.count("ready") == 9)
        c.driver.run_for(3)
        self.run.event(f"the consistency store refused {self.count_logged(REFUSED)} syncs and expectations held "
                       f"back {self.count_logged(HELD)}; {len(self.pod_control.creates)} pods created, none too many")

    def until(self, what: str, predicate: Any) -> None:
        if not self.cluster.driver.run_until(predicate, timeout=TIMEOUT):
            raise RuntimeError(f"replicaset-stale-cache: {what} did not happen within {TIMEOUT:g} s")

    # -- what the sampler reads besides WebReads --------------------------------------------------------------

    def creates_in_flight(self) -> int:
        """The creates the controller expects to see and has not seen yet (its expectations' pending adds)."""
        exp, exists = self.controller.expectations.get_expectations(f"default/{NAME}")
        return max(exp.get_expectations()[0], 0) if exists and exp is not None else 0

    def count_logged(self, text: str) -> int:
        return sum(1 for r in self.run.trace_log.records if text in r.getMessage())


def build_replicaset_stale_cache(seed: int) -> Run:
    """Scenario `replicaset-stale-cache` (chapter P4): the world, ready to play, on an interleaved schedule."""
    return StaleCache(seed).run


