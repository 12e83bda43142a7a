"""Integration: one code path per loop. A deterministic run and a threaded run call the same functions.

minikcm runs every loop two ways: on a driven FakeClock the Driver calls each
component's step methods; on the real clock each component's `run()` starts
threads that wait for work and then call those very same step methods. This
test proves it for the pieces the scenario touches. It runs one short story
twice, under a call probe:

- deterministic: FakeClock(driven=True) and the Driver, one thread;
- threaded: RealClock, real threads (`run()` of every component), the same
  in-process API server and clientset.

The story: a Deployment of 3 replicas, reconciled by the Deployment and
ReplicaSet controllers over one shared informer factory, its pods made
running and ready by the simulated kubelet; then an image change rolled out
to the end. The probe records every function of `minikcm.` that is called
(`sys.settrace` and `threading.settrace`, "call" events). The functions of
the controller, informer, work-queue and event-recording modules must be the
same set in both runs, and so must leader election's in a story of its own
(acquire, renew, stop, release) and the controller-manager's in a third (a
kube-controller-manager process wins its lease, starts the Deployment and
ReplicaSet controllers, they create a Deployment's pods, the process is
cancelled and its term ends), apart from the allow-list below: the thin wrappers and predicates that
exist only in one mode by nature, and three controller branches that only the
interleaving of threads decides. Recording stops before the threaded world is
torn down (stopping is not part of the story), and both runs wait for the
informers to sync before the first write, so both tell the story in the same
order.
"""

from __future__ import annotations

import random
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.clock import EPOCH, Clock, FakeClock, RealClock
from minikcm.controller.deployment.deployment_controller import new_deployment_controller
from minikcm.controller.replicaset.replica_set import BURST_REPLICAS, new_replica_set_controller
from minikcm.driver import Driver
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.sim.kubelet import KubeletConfig, new_kubelet

NS = "default"
IMAGE_V1 = "nginx:1.25"
IMAGE_V2 = "nginx:1.26"
THREADED_TIMEOUT = 30.0  # real seconds for each phase of the threaded run (it needs about one)
SETTLE = 1.0  # seconds (fake, or real) every run goes on after a phase settled, for the last syncs

COMPARED = ("minikcm.controller.", "minikcm.tools.cache.", "minikcm.informers.", "minikcm.util.workqueue.",
            "minikcm.tools.record.", "minikcm.tools.leaderelection.", "minikcm.cmd.controller_manager.")
"""The modules whose functions must match: controllers, informers, queues, events, election, the process."""
IGNORED = ("minikcm.driver", "minikcm.sim", "minikcm.clock", "minikcm.cmd.controller_manager.deterministic")
"""Never recorded: the driver, the simulation and the controller-manager's driven twin (its jittered start steps,
kill) exist for one mode; the clock differs by design."""

ONE_MODE_ONLY = {
    # -- threaded only: `run()` wrappers that start threads, and the waits inside those threads --------
    "minikcm.controller.deployment.deployment_controller.DeploymentController.run",
    "minikcm.controller.deployment.deployment_controller.DeploymentController.worker",  # loops process_next_work_item
    "minikcm.controller.replicaset.replica_set.ReplicaSetController.run",
    "minikcm.controller.replicaset.replica_set.ReplicaSetController.worker",  # loops process_next_work_item
    "minikcm.tools.cache.shared_informer.SharedIndexInformerImpl.run",
    "minikcm.tools.cache.shared_informer.SharedIndexInformerImpl.has_started",  # run() refuses a second start
    "minikcm.tools.cache.shared_informer.SharedIndexInformerImpl.close_synced_when_done",  # waits, then mark_synced
    # ... on the FIFO's done event, which these three hand out (the driver asks synced_ready instead)
    "minikcm.tools.cache.controller.ControllerImpl.has_synced_checker",
    "minikcm.tools.cache.the_real_fifo.RealFIFO.has_synced_checker",
    "minikcm.tools.cache.the_real_fifo.RealFIFO.done",
    "minikcm.tools.cache.shared_informer.SharedProcessor.run",  # starts the listener threads
    "minikcm.tools.cache.shared_informer.ProcessorListener.run",  # waits, then deliver_one
    "minikcm.tools.cache.shared_informer.ProcessorListener.wait_for_notification",
    "minikcm.tools.cache.shared_informer.ProcessorListener.watch_synced",  # waits, then pass_on_sync
    "minikcm.tools.cache.controller.ControllerImpl.run",
    "minikcm.tools.cache.controller.ControllerImpl.process_loop",  # loops process_next
    "minikcm.tools.cache.reflector.Reflector.run",  # advances the same loop as the list/watch/resync steps
    "minikcm.tools.cache.reflector.Reflector.wait_for_work",  # blocks on the watch or the clock, then step
    "minikcm.util.workqueue.delaying_queue.DelayingType.waiting_loop",  # loops process_waiting
    "minikcm.util.workqueue.delaying_queue.DelayingType.wait_duration",  # how long that thread sleeps
    # run() waits for the caches before it starts workers; the driver's worker_ready asks instead
    "minikcm.tools.cache.shared_informer.wait_for_named_cache_sync",
    "minikcm.controller.controller_run.ControllerRun.run",
    "minikcm.controller.controller_run.ControllerRun.start_workers",
    # the elector's threaded loops: acquire and renew call acquire_step / renew_step and sleep between them
    "minikcm.tools.leaderelection.leaderelection.LeaderElector.run",
    "minikcm.tools.leaderelection.leaderelection.LeaderElector.acquire",
    "minikcm.tools.leaderelection.leaderelection.LeaderElector.renew",
    "minikcm.tools.leaderelection.leaderelection.LeaderElector.sleep_until_next_attempt",
    # the event pipeline's threads: one per watcher (its loop waits, then calls EventWatcher.process, as the
    # driver's record/broadcaster step does)
    "minikcm.tools.record.event.EventWatcher.start",
    "minikcm.tools.record.event.EventWatcher.loop",
    "minikcm.tools.cache.shared_informer.wait_for_cache_sync",
    # the controller-manager process on threads: Run's thread that cancels on `stop`, the term run by the
    # elector's leading thread until the controllers return (steps: deterministic.run_leading schedules it),
    # RunOrDie, RunControllers' sleeping start threads, and each controller's own run() (steps: its steps())
    "minikcm.cmd.controller_manager.controllermanager.ControllerManager.run",
    "minikcm.cmd.controller_manager.controllermanager.ControllerManager.run_leading",
    "minikcm.cmd.controller_manager.controllermanager.leader_elect_and_run",
    "minikcm.cmd.controller_manager.controllermanager.run_controllers",
    "minikcm.cmd.controller_manager.apps.new_deployment_controller.<locals>.run",
    "minikcm.cmd.controller_manager.apps.new_replica_set_controller.<locals>.run",
    "minikcm.cmd.controller_manager.controller_descriptor.ControllerLoop.run",
    # -- deterministic only: the schedule handed to the Driver, and its ready()/wakeup() predicates ------
    # the controller-manager process as steps: Run's start (events, election steps), step names, and the
    # end of term and process in one step (threads: run_leading's and run's `finally`)
    "minikcm.cmd.controller_manager.controllermanager.ControllerManager.steps",
    "minikcm.cmd.controller_manager.controllermanager.ControllerManager.adopt",
    "minikcm.cmd.controller_manager.controllermanager.ControllerManager.shutdown",
    "minikcm.cmd.controller_manager.apps.new_deployment_controller.<locals>.steps",
    "minikcm.cmd.controller_manager.apps.new_replica_set_controller.<locals>.steps",
    "minikcm.cmd.controller_manager.controller_descriptor.ControllerLoop.steps",
    "minikcm.controller.deployment.deployment_controller.DeploymentController.steps",
    "minikcm.controller.replicaset.replica_set.ReplicaSetController.steps",
    "minikcm.controller.controller_run.ControllerRun.steps",
    "minikcm.controller.controller_run.ControllerRun.worker_ready",
    # the elector as driver steps: both call acquire_step / renew_step, due() and wakeup() are their predicates
    "minikcm.tools.leaderelection.leaderelection.LeaderElector.steps",
    "minikcm.tools.leaderelection.leaderelection.LeaderElector.due",
    "minikcm.tools.leaderelection.leaderelection.LeaderElector.wakeup",
    # a driven world starts the event pipeline itself (run() starts it through ControllerRun.run)
    "minikcm.controller.deployment.deployment_controller.DeploymentController.start_event_recording",
    "minikcm.controller.replicaset.replica_set.ReplicaSetController.start_event_recording",
    # the event pipeline's step: it runs the body each watcher's thread runs (EventWatcher.process)
    "minikcm.tools.record.event.EventBroadcasterImpl.steps",
    "minikcm.tools.record.event.EventBroadcasterImpl.deliver",
    "minikcm.tools.record.event.EventBroadcasterImpl.deliver_ready",
    "minikcm.tools.record.event.EventBroadcasterImpl.next_retry_time",
    "minikcm.tools.record.event.EventWatcher.ready",
    "minikcm.informers.factory.SharedInformerFactory.steps",
    "minikcm.tools.cache.shared_informer.SharedIndexInformerImpl.steps",
    "minikcm.tools.cache.shared_informer.SharedIndexInformerImpl.synced_ready",
    "minikcm.tools.cache.shared_informer.SharedProcessor.start_without_threads",  # run() starts threads instead
    "minikcm.tools.cache.shared_informer.SharedProcessor.deliver_ready",
    "minikcm.tools.cache.shared_informer.SharedProcessor.deliver_wakeup",  # the end of a crash pause, for the driver
    "minikcm.tools.cache.shared_informer.SharedProcessor.deliver_wakeup.<locals>.<listcomp>",
    "minikcm.tools.cache.shared_informer.SharedProcessor.deliver_step",  # stands in for the listener threads
    "minikcm.tools.cache.controller.ControllerImpl.steps",
    "minikcm.tools.cache.controller.ControllerImpl.process_ready",
    "minikcm.tools.cache.controller.queue_has_items",  # process_ready's question to the FIFO
    "minikcm.tools.cache.reflector.Reflector.steps",
    "minikcm.tools.cache.reflector.Reflector.wakeup",  # threads ask it only with no watch open (not here)
    # worker_ready asks the queue's length; a worker thread blocks in get() instead
    "minikcm.util.workqueue.queue.Type.len",
    "minikcm.util.workqueue.delaying_queue.DelayingType.len",
    "minikcm.util.workqueue.rate_limiting_queue.RateLimitingType.len",
    "minikcm.util.workqueue.delaying_queue.DelayingType.steps",
    "minikcm.util.workqueue.delaying_queue.DelayingType.waiting_ready",
    "minikcm.util.workqueue.delaying_queue.DelayingType.waiting_wakeup",
    "minikcm.util.workqueue.rate_limiting_queue.RateLimitingType.steps",
    # -- the interleaving, not the code, decides these three (same functions on both paths, other data) --
    # Only threads can run a ReplicaSet sync before the informer delivered the controller's own last
    # write (the consistency store then refuses it and the key is retried); the driver runs every
    # informer step before the controllers' steps in each round, so its single order never does.
    "minikcm.controller.util.consistency.ConsistencyError.__init__",
    # A sync while the controller's own pod creates are still unobserved asks whether the expectations
    # expired. The driver's listeners step hands each handler one notification per round, so its order
    # always has such a sync; threads usually deliver all three adds first, but not always.
    "minikcm.controller.controller_utils.ControlleeExpectations.is_expired",
    # Only threads can sync a Deployment again before the informer showed it the ReplicaSet that its
    # previous sync created; the create then clashes by name (rarely: about one threaded run in six).
    "minikcm.controller.deployment.sync.SyncMixin.replica_set_after_name_clash",
}
"""Functions that run in one mode only by nature, or whose call the threads' interleaving decides.

Subtracted from both sets (so an interleaving entry may appear in either run or
not at all). Every entry says why; `<locals>` functions nested in an entry are
covered by it.
"""


def allowed(name: str) -> bool:
    """True when `name` is in ONE_MODE_ONLY, or a function nested in one that is (`f.<locals>.g`)."""
    return name in ONE_MODE_ONLY or any(name.startswith(f"{entry}.<locals>.") for entry in ONE_MODE_ONLY)


class CallProbe:
    """Records `module.qualname` of every minikcm function called while installed (all threads)."""

    def __init__(self) -> None:
        self.calls: set[str] = set()
        self.recording = True  # off before teardown: stopping a threaded world is not part of the story

    def trace(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or not self.recording:
            return None
        module = frame.f_globals.get("__name__", "")
        if module.startswith("minikcm.") and not module.startswith(IGNORED):
            self.calls.add(f"{module}.{frame.f_code.co_qualname}")
        return None  # no per-line tracing

    def __enter__(self) -> CallProbe:
        threading.settrace(self.trace)  # threads started from now on
        sys.settrace(self.trace)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.settrace(None)
        threading.settrace(None)  # type: ignore[arg-type]

    def compared(self) -> set[str]:
        """The calls in compared modules, without the allow-listed ones (an entry covers its nested functions)."""
        return {c for c in self.calls if c.startswith(COMPARED) and not allowed(c)}


def deployment(image: str) -> dict[str, Any]:
    return {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": NS},
        "spec": {
            "replicas": 3,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                         "spec": {"containers": [{"name": "app", "image": image}],
                                  "terminationGracePeriodSeconds": 0}},
            "strategy": {"type": "Recreate"},  # old pods all go, then new ones come: no partial scale-down
        },
    }


class World:
    """The API server, one informer factory, both controllers and the kubelet, on `clock`.

    Both runs tell the same story in the same order: informers synced before
    the Deployment is created, each phase ends at the same observable state,
    and then the world settles (every work queue empty).
    """

    def __init__(self, clock: Clock) -> None:
        self.server = APIServer(clock=clock, rng=random.Random(1))
        self.client = InProcessClientset(self.server)
        f = self.factory = new_shared_informer_factory_with_options(self.client, 0, clock=clock,
                                                                    rng=random.Random(2))
        self.dc = new_deployment_controller(f.apps().v1().deployments(), f.apps().v1().replica_sets(),
                                            f.core().v1().pods(), self.client)
        self.rsc = new_replica_set_controller(f.apps().v1().replica_sets(), f.core().v1().pods(), self.client,
                                              BURST_REPLICAS)
        self.kubelet = new_kubelet(self.client, f.core().v1().pods(),
                                   config=KubeletConfig(start_delay=0.05, ready_delay=0.05),
                                   rng=random.Random(3))

    def rolled_out(self, image: str) -> bool:
        """Every replica runs `image`, is available, and no other pod is left."""
        d = self.server.get("deployments", NS, "web")
        s = d.get("status", {})
        pods = self.server.list("pods", NS, label_selector="app=web")["items"]
        return (s.get("observedGeneration", 0) >= d["metadata"]["generation"]
                and s.get("updatedReplicas", 0) == s.get("replicas", 0) == s.get("availableReplicas", 0) == 3
                and len(pods) == 3
                and all(p["spec"]["containers"][0]["image"] == image for p in pods))

    def informers_synced(self) -> bool:
        return all(i.has_synced() for i in self.factory.informers.values())

    def settled(self) -> bool:
        """As the API server shows it: the rollout is reported complete and every ReplicaSet's status is current.

        Read from the server only, so that the test itself calls nothing of the compared modules.
        """
        d = self.server.get("deployments", NS, "web")
        progressing = [c for c in d.get("status", {}).get("conditions", []) if c["type"] == "Progressing"]
        rss = self.server.list("replicasets", NS, label_selector="app=web")["items"]
        return (bool(progressing) and progressing[0].get("reason") == "NewReplicaSetAvailable"
                and all(r.get("status", {}).get("replicas", 0) == r["spec"]["replicas"]
                        and r.get("status", {}).get("observedGeneration", 0) >= r["metadata"]["generation"]
                        for r in rss))

    def change_image(self, image: str) -> None:
        d = self.server.get("deployments", NS, "web")
        d["spec"]["template"]["spec"]["containers"][0]["image"] = image
        self.server.update("deployments", NS, d)


def deterministic_run() -> set[str]:
    clock = FakeClock(EPOCH, driven=True)
    with CallProbe() as probe:
        w = World(clock)
        w.factory.start(threading.Event())
        w.rsc.start_event_recording()  # Run's first lines, as run() does them; the driver runs the loops
        w.dc.start_event_recording()
        driver = Driver(clock, w.server.steps() + w.factory.steps() + w.kubelet.steps()
                        + w.rsc.steps() + w.dc.steps())
        assert driver.run_until(w.informers_synced, timeout=60), "the informers did not sync"
        w.server.create("deployments", NS, deployment(IMAGE_V1))
        assert driver.run_until(lambda: w.rolled_out(IMAGE_V1), timeout=600), "first rollout did not finish"
        assert driver.run_until(w.settled, timeout=600), "the first rollout did not settle"
        driver.run_for(SETTLE)
        w.change_image(IMAGE_V2)
        assert driver.run_until(lambda: w.rolled_out(IMAGE_V2), timeout=600), "image change did not roll out"
        assert driver.run_until(w.settled, timeout=600), "the image change did not settle"
        driver.run_for(SETTLE)
        probe.recording = False
    return probe.compared()


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + THREADED_TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, f"threaded run: {what} within {THREADED_TIMEOUT} s"
        time.sleep(0.02)


def threaded_run() -> set[str]:
    stop = threading.Event()
    threads: list[threading.Thread] = []
    with CallProbe() as probe:
        w = World(RealClock())
        try:
            w.factory.start(stop)
            for name, target in [("apiserver", lambda: w.server.run(stop)), ("kubelet", lambda: w.kubelet.run(stop)),
                                 ("replicaset", lambda: w.rsc.run(1, stop)),
                                 ("deployment", lambda: w.dc.run(1, stop))]:
                threads.append(threading.Thread(name=f"probe/{name}", target=target, daemon=True))
                threads[-1].start()
            wait_until(w.informers_synced, "the informers did not sync")
            w.server.create("deployments", NS, deployment(IMAGE_V1))
            wait_until(lambda: w.rolled_out(IMAGE_V1), "the first rollout did not finish")
            wait_until(w.settled, "the first rollout did not settle")
            time.sleep(SETTLE)
            w.change_image(IMAGE_V2)
            wait_until(lambda: w.rolled_out(IMAGE_V2), "the image change did not roll out")
            wait_until(w.settled, "the image change did not settle")
            time.sleep(SETTLE)
        finally:
            probe.recording = False
            stop.set()
            for thread in threads:
                thread.join(10)
            w.factory.shutdown()
    assert not any(t.is_alive() for t in threads), "a component did not stop"
    return probe.compared()


@pytest.mark.threaded
def test_deterministic_and_threaded_runs_call_the_same_functions():
    deterministic = deterministic_run()
    threaded = threaded_run()
    only_deterministic = sorted(deterministic - threaded)
    only_threaded = sorted(threaded - deterministic)
    report = ("\nonly in the deterministic run:\n  " + "\n  ".join(only_deterministic)
              + "\nonly in the threaded run:\n  " + "\n  ".join(only_threaded))
    print(f"compared {len(deterministic)} (deterministic) and {len(threaded)} (threaded) functions")
    assert deterministic == threaded, report
    assert len(deterministic) > 100, "the probe saw too little: is the scenario running?"


ELECTION = {"lease_duration": 1.0, "renew_deadline": 0.8, "retry_period": 0.1}
"""Short timings (seconds), so that the threaded elector renews a few times in well under a second."""


def election_run(clock: Clock, threaded: bool) -> set[str]:
    """One candidate acquires a fresh Lease, renews for 0.35 s, is stopped and releases it, under the probe."""
    from minikcm.tools.leaderelection.leaderelection import (
        STOPPED, LeaderCallbacks, LeaderElectionConfig, new_leader_elector)
    from minikcm.tools.leaderelection.resourcelock import LEASES_RESOURCE_LOCK, ResourceLockConfig, new

    server = APIServer(clock=clock, rng=random.Random(1))
    client = InProcessClientset(server)
    started: list[str] = []
    with CallProbe() as probe:
        lock = new(LEASES_RESOURCE_LOCK, "kube-system", "probe", client.coordination_v1(), ResourceLockConfig("a"))
        callbacks = LeaderCallbacks(on_started_leading=lambda stop: started.append("a"),
                                    on_stopped_leading=lambda: None, on_new_leader=lambda who: None)
        le = new_leader_elector(LeaderElectionConfig(lock=lock, callbacks=callbacks, name="probe",
                                                     release_on_cancel=True, **ELECTION),
                                clock=clock, rng=random.Random(1))
        stop = threading.Event()
        if threaded:
            thread = threading.Thread(target=le.run, args=(stop,), daemon=True)
            thread.start()
            deadline = time.monotonic() + THREADED_TIMEOUT
            while not started and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.35)
            stop.set()
            thread.join(THREADED_TIMEOUT)
        else:
            driver = Driver(clock, le.steps(stop))  # type: ignore[arg-type]
            assert driver.run_until(lambda: bool(started), timeout=5)
            driver.run_for(0.35)
            stop.set()
            assert driver.run_until(lambda: le.state == STOPPED, timeout=5)
        probe.recording = False
    assert started == ["a"] and le.state == STOPPED and not le.is_leader()
    return {name for name in probe.compared() if name.startswith("minikcm.tools.leaderelection.")}


@pytest.mark.threaded
def test_leader_election_runs_call_the_same_functions():
    """Leader election joins the compared set: run() on threads and the driver's steps make the same calls."""
    deterministic = election_run(FakeClock(EPOCH, driven=True), threaded=False)
    threaded = election_run(RealClock(), threaded=True)
    assert deterministic == threaded, (sorted(deterministic - threaded), sorted(threaded - deterministic))
    for body in ("acquire_step", "renew_step", "try_acquire_or_renew", "release", "end_renew"):
        assert f"minikcm.tools.leaderelection.leaderelection.LeaderElector.{body}" in deterministic


def test_allow_list_names_only_compared_modules():
    """Every allow-list entry is in a compared module (a typo would silently allow nothing)."""
    assert all(name.startswith(COMPARED) for name in ONE_MODE_ONLY)


CONTROLLER_MANAGER_FLAGS = ("--controllers=deployment,replicaset", "--leader-elect-lease-duration=1s",
                            "--leader-elect-renew-deadline=800ms", "--leader-elect-retry-period=100ms",
                            "--controller-start-interval=100ms")
"""kube-controller-manager's flags for the process story: two controllers, short election timings."""


def controller_manager_run(threaded: bool) -> set[str]:
    """One kube-controller-manager process: lease won, controllers started, a Deployment's 3 pods created, then
    cancelled (SIGTERM) until its term has ended; under the probe. Threads: ControllerManager.run; steps: the
    driven ControllerManager's."""
    from minikcm.cmd.controller_manager import controllermanager as cm
    from minikcm.cmd.controller_manager.deterministic import ControllerManager as DrivenControllerManager
    from minikcm.cmd.options import new_kube_controller_manager_options

    def new_config(client: InProcessClientset, clock: Clock, rng: random.Random, *flags: str) -> Any:
        options = new_kube_controller_manager_options()
        known, disabled, aliases = cm.known_controllers(), cm.controllers_disabled_by_default(), cm.controller_aliases()
        options.flags(known, disabled, aliases).parse_args(list(flags))
        return options.config(known, disabled, aliases, client=client, clock=clock, rng=rng).complete()

    clock: Clock = RealClock() if threaded else FakeClock(EPOCH, driven=True)
    stop, server_stop = threading.Event(), threading.Event()  # SIGTERM to the process; the API server's end
    with CallProbe() as probe:
        server = APIServer(clock=clock, rng=random.Random(1))
        client = InProcessClientset(server)
        c = new_config(client, clock, random.Random(1), *CONTROLLER_MANAGER_FLAGS)

        def pods() -> int:
            return len(server.list("pods", NS, label_selector="app=web")["items"])

        if threaded:
            before = set(threading.enumerate())
            process = cm.ControllerManager(c, "probe", clock, random.Random(1))
            threads = [threading.Thread(name=f"probe/{name}", target=target, daemon=True)
                       for name, target in (("apiserver", lambda: server.run(server_stop)), ("kcm", lambda: process.run(stop)))]
            for thread in threads:
                thread.start()
            wait_until(lambda: process.state == cm.RUNNING, "the process did not lead")
            wait_until(lambda: process.controller_ctx is not None and process.controller_ctx.informer_factory.informers
                       and all(i.has_synced() for i in process.controller_ctx.informer_factory.informers.values()),
                       "the informers did not sync")
            server.create("deployments", NS, deployment(IMAGE_V1))
            wait_until(lambda: pods() == 3, "the controllers did not create the pods")
            time.sleep(SETTLE)
            stop.set()  # Run's context is cancelled: its watcher calls cancel(), as the driven run does below
            threads[1].join(THREADED_TIMEOUT)
            # Go's Run returns once the election ended; the term's goroutine finishes on its own: wait for it too
            wait_until(lambda: not set(threading.enumerate()) - before - {threads[0]}, "the term's threads did not end")
        else:
            driver = Driver(clock, server.steps())
            process = DrivenControllerManager(c, driver, identity="probe", rng=random.Random(1))
            driver.add_all(process.steps())
            assert driver.run_until(lambda: len(process.running) == 2, timeout=30), "the controllers did not start"
            server.create("deployments", NS, deployment(IMAGE_V1))
            assert driver.run_until(lambda: pods() == 3, timeout=60), "the controllers did not create the pods"
            driver.run_for(SETTLE)
            process.cancel()
            assert driver.run_until(lambda: process.state == cm.STOPPED, timeout=30), "the process did not stop"
        probe.recording = False
    server_stop.set()
    assert process.state == cm.STOPPED and not process.errors
    return {name for name in probe.compared() if name.startswith("minikcm.cmd.controller_manager.")}


@pytest.mark.threaded
def test_controller_manager_runs_call_the_same_functions():
    """The controller-manager joins the compared set: Run on threads and the driven process make the same calls."""
    deterministic = controller_manager_run(threaded=False)
    threaded = controller_manager_run(threaded=True)
    assert deterministic == threaded, (sorted(deterministic - threaded), sorted(threaded - deterministic))
    for body in ("begin_run", "started_leading", "start_leading", "end_leading", "stopped_leading", "end_run"):
        assert f"minikcm.cmd.controller_manager.controllermanager.ControllerManager.{body}" in deterministic
