"""Integration: StatefulSets end to end, deterministic, under the driver.

The embedded API server, one informer factory, the StatefulSet controller,
the garbage collector, the simulated kubelet and the simulated volume binder
share one FakeClock; the driver runs their steps. After EVERY step an
observer checks upstream's invariants on the API server's state (the truth,
not a cache):

- assertBurstInvariants, for every set: identity and storage as the set
  says, and each pod's claims exist;
- assertMonotonicInvariants, for OrderedReady sets while they only scale:
  ordinals contiguous from the start ordinal, a pod Running and Ready only
  when its predecessor is;
- for OrderedReady sets always, the form that also holds through rolling
  updates (which replace the highest pods first): at most one unhealthy
  ordinal below the highest pod, at most one pod terminating.

Pods the test itself disrupts (deletes, or makes never ready) are exempt from
the ordering checks until the controller has replaced them with healthy ones.

Pods take 1 s to start and 1 s more to get ready (the kubelet's defaults);
deleted pods go after terminationGracePeriodSeconds (5 s here); claims are
bound 1 s after they are created.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable
from typing import Any

import pytest

from minikcm.apimachinery import errors
from minikcm.apimachinery.meta import DeleteOptions
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.garbagecollector.garbagecollector import new_garbage_collector
from minikcm.controller.statefulset.stateful_set import new_stateful_set_controller
from minikcm.controller.statefulset.stateful_set_utils import (
    get_ordinal,
    get_persistent_volume_claims,
    get_pod_revision,
    get_start_ordinal,
    identity_matches,
    is_running_and_ready,
    is_terminating,
    storage_matches,
)
from minikcm.informers import new_shared_informer_factory_with_options
from minikcm.driver import Driver
from minikcm.sim.kubelet import NEVER_READY_ANNOTATION, new_kubelet
from minikcm.sim.volume_binder import new_volume_binder

NS = "default"
NAME = "web"
IMAGE_V1 = "nginx:1.25"
IMAGE_V2 = "nginx:1.26"


def stateful_set(replicas: int, *, policy: str = "OrderedReady", image: str = IMAGE_V1, partition: int | None = None,
                 when_scaled: str = "Retain", when_deleted: str = "Retain", start: int | None = None,
                 annotations: dict[str, str] | None = None) -> dict[str, Any]:
    """A StatefulSet wire object with one claim template (`data`)."""
    spec: dict[str, Any] = {
        "replicas": replicas,
        "serviceName": NAME,
        "podManagementPolicy": policy,
        "selector": {"matchLabels": {"app": NAME}},
        "template": {
            "metadata": {"labels": {"app": NAME}, "annotations": annotations or {}},
            "spec": {"containers": [{"name": "app", "image": image,
                                     "volumeMounts": [{"name": "data", "mountPath": "/data"}]}],
                     "terminationGracePeriodSeconds": 5},
        },
        "volumeClaimTemplates": [{
            "metadata": {"name": "data"},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}},
        }],
        "persistentVolumeClaimRetentionPolicy": {"whenScaled": when_scaled, "whenDeleted": when_deleted},
        "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": partition or 0}},
    }
    if start is not None:
        spec["ordinals"] = {"start": start}
    return {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": NAME, "namespace": NS},
            "spec": spec}


class Cluster:
    """The pieces on one FakeClock, views of the API server's state, and the invariant observer."""

    def __init__(self, seed: int = 1) -> None:
        self.clock = FakeClock(EPOCH, driven=True)
        self.server = APIServer(clock=self.clock, rng=random.Random(seed))
        self.client = InProcessClientset(self.server)
        self.factory = new_shared_informer_factory_with_options(
            self.client, 0, clock=self.clock, rng=random.Random(seed))
        f = self.factory
        self.ssc = new_stateful_set_controller(
            f.core().v1().pods(), f.apps().v1().stateful_sets(), f.core().v1().persistent_volume_claims(),
            f.apps().v1().controller_revisions(), self.client)
        self.gc = new_garbage_collector(self.client, f, None)
        self.kubelet = new_kubelet(self.client, f.core().v1().pods(), rng=random.Random(seed))
        self.binder = new_volume_binder(self.client, f.core().v1().persistent_volume_claims())
        f.start(threading.Event())
        self.driver = Driver(self.clock, f.steps() + self.ssc.steps() + self.gc.steps() + self.kubelet.steps()
                             + self.binder.steps())
        self.exempt: set[int] = set()
        """Ordinals the test disrupted: no ordering checks for them until healthy again."""
        self.deletion_order: list[int] = []
        """Ordinals in the order their pods started terminating (test deletions excluded)."""
        self.seen_terminating: set[str] = set()
        self.checks = 0
        self.updating = False
        """Set by tests that change the template: upstream's scaling-only invariant is then off."""
        self.driver.observers.append(self.observe)

    # -- the API server's state ---------------------------------------------------------------

    def set(self) -> Any | None:
        try:
            return self.client.apps_v1().stateful_sets(NS).get(NAME)
        except errors.StatusError as err:
            if errors.is_not_found(err):
                return None
            raise

    def pods(self) -> list[Any]:
        return sorted(self.client.core_v1().pods(NS).list().items, key=get_ordinal)

    def pod(self, ordinal: int) -> Any:
        return self.client.core_v1().pods(NS).get(f"{NAME}-{ordinal}")

    def claims(self) -> dict[str, Any]:
        return {c.metadata.name: c for c in self.client.core_v1().persistent_volume_claims(NS).list().items}

    def revisions(self) -> list[Any]:
        return sorted(self.client.apps_v1().controller_revisions(NS).list().items, key=lambda r: r.revision)

    def ordinals(self, *, ready: bool = False, revision: str | None = None) -> list[int]:
        return [get_ordinal(p) for p in self.pods()
                if (not ready or is_running_and_ready(p)) and (revision is None or get_pod_revision(p) == revision)]

    # -- changing things ----------------------------------------------------------------------

    def create(self, manifest: dict[str, Any]) -> None:
        self.client.apps_v1().stateful_sets(NS).create(manifest)

    def edit(self, **changes: Any) -> None:
        """Change the set's spec: replicas, image, partition, policy (as `kubectl edit` would)."""
        s = self.set()
        for key, value in changes.items():
            if key == "image":
                self.updating = True
                s.spec.template.spec.containers[0].image = value
            elif key == "partition":
                s.spec.update_strategy.rolling_update.partition = value
            else:
                setattr(s.spec, key, value)
        self.client.apps_v1().stateful_sets(NS).update(s)

    def delete_pod(self, ordinal: int) -> None:
        self.exempt.add(ordinal)
        self.client.core_v1().pods(NS).delete(f"{NAME}-{ordinal}", DeleteOptions())

    def never_ready(self, ordinal: int) -> None:
        """Make the next pod of `ordinal` never ready: annotate it between creation and start."""
        self.exempt.add(ordinal)
        old = {p.metadata.uid for p in self.pods() if get_ordinal(p) == ordinal}
        assert self.driver.run_until(lambda: any(get_ordinal(p) == ordinal and p.metadata.uid not in old
                                                 for p in self.pods()))
        pod = self.pod(ordinal)
        assert pod.status.phase == "Pending", "the kubelet started it already"
        pod.metadata.annotations = {**(pod.metadata.annotations or {}), NEVER_READY_ANNOTATION: "true"}
        self.client.core_v1().pods(NS).update(pod)

    # -- the observer -------------------------------------------------------------------------

    def observe(self, driver: Driver) -> None:
        """After every step: upstream's monotonic (OrderedReady) or burst (Parallel) invariants."""
        set_ = self.set()
        if set_ is None or set_.metadata.deletion_timestamp is not None:
            return  # the garbage collector takes pods and claims in any order
        pods = self.pods()
        claims = self.claims()
        self.checks += 1
        for pod in pods:
            if is_terminating(pod) and pod.metadata.uid not in self.seen_terminating:
                self.seen_terminating.add(pod.metadata.uid)
                if get_ordinal(pod) not in self.exempt:
                    self.deletion_order.append(get_ordinal(pod))
            if get_ordinal(pod) in self.exempt and is_running_and_ready(pod) and not is_terminating(pod):
                self.exempt.discard(get_ordinal(pod))  # replaced and healthy: checked again
        check_burst_invariants(set_, pods, claims)
        if set_.spec.pod_management_policy == "OrderedReady":
            check_one_at_a_time(set_, pods, self.exempt)
            if not self.updating:
                check_monotonic_invariants(set_, pods, self.exempt)


def check_burst_invariants(set_: Any, pods: Iterable[Any], claims: dict[str, Any]) -> None:
    """Upstream's assertBurstInvariants: each pod's identity and storage match the set; its claims exist."""
    for pod in pods:
        assert identity_matches(set_, pod), f"pod {pod.metadata.name} has the wrong identity"
        assert storage_matches(set_, pod), f"pod {pod.metadata.name} has the wrong storage"
        for claim in get_persistent_volume_claims(set_, pod).values():
            name = claim.metadata.name
            assert name in claims, f"claim {name} of pod {pod.metadata.name} does not exist"


def check_monotonic_invariants(set_: Any, pods: list[Any], exempt: set[int]) -> None:
    """Upstream's assertMonotonicInvariants, with test-disrupted ordinals exempt.

    Ordinals are contiguous from the start ordinal, and a pod is Running and
    Ready only when its predecessor is. Holds while a set scales; a rolling
    update breaks it on purpose (it replaces the highest pods first).
    """
    start = get_start_ordinal(set_)
    present = {get_ordinal(p) for p in pods}
    for idx, pod in enumerate(pods):
        ordinal = get_ordinal(pod)
        missing = [o for o in range(start, ordinal) if o not in present and o not in exempt]
        assert not missing, f"pod {pod.metadata.name} was created while ordinals {missing} were missing"
        if idx > 0 and get_ordinal(pods[idx - 1]) not in exempt:
            assert not (is_running_and_ready(pod) and not is_running_and_ready(pods[idx - 1])), \
                f"successor {pod.metadata.name} is Running and Ready while {pods[idx - 1].metadata.name} is not"


def check_one_at_a_time(set_: Any, pods: list[Any], exempt: set[int]) -> None:
    """The form of the monotonic invariant that holds through rolling updates too (OrderedReady).

    At most one ordinal below the highest pod is missing, terminating or not
    Running and Ready, and at most one pod terminates at a time.
    """
    if not pods:
        return
    start = get_start_ordinal(set_)
    by_ordinal = {get_ordinal(p): p for p in pods}
    unhealthy = [o for o in range(start, max(by_ordinal) + 1) if o not in exempt and (
        o not in by_ordinal or is_terminating(by_ordinal[o]) or not is_running_and_ready(by_ordinal[o]))]
    assert len(unhealthy) <= 1, f"OrderedReady has several unhealthy ordinals at once: {unhealthy}"
    terminating = [p.metadata.name for p in pods if is_terminating(p) and get_ordinal(p) not in exempt]
    assert len(terminating) <= 1, f"OrderedReady terminates one pod at a time, not {terminating}"


def ready_counts(set_: Any) -> tuple[int, int]:
    return set_.status.replicas or 0, set_.status.ready_replicas or 0


# --- scaling --------------------------------------------------------------------------------------------


def test_ordered_scale_up_and_down():
    """OrderedReady: web-0..web-4 come up one at a time, each after its predecessor is ready; down in reverse."""
    c = Cluster()
    c.create(stateful_set(0))
    c.driver.run_until_idle()
    c.edit(replicas=5)
    created: list[int] = []

    def note_creations(driver: Driver) -> None:
        for pod in c.pods():
            if get_ordinal(pod) not in created:
                assert all(is_running_and_ready(c.pod(o)) for o in created), "created before the last was ready"
                created.append(get_ordinal(pod))

    c.driver.observers.append(note_creations)
    c.driver.run_until_idle()
    assert created == [0, 1, 2, 3, 4]
    assert c.ordinals(ready=True) == [0, 1, 2, 3, 4]
    assert ready_counts(c.set()) == (5, 5)
    assert sorted(c.claims()) == [f"data-web-{i}" for i in range(5)]
    assert all(claim.status.phase == "Bound" for claim in c.claims().values())
    assert {p.spec.hostname for p in c.pods()} == {f"web-{i}" for i in range(5)}
    assert {p.spec.subdomain for p in c.pods()} == {NAME}
    c.driver.observers.remove(note_creations)

    c.edit(replicas=2)
    c.driver.run_until_idle()
    assert c.deletion_order == [4, 3, 2]
    assert c.ordinals() == [0, 1]
    assert ready_counts(c.set()) == (2, 2)
    assert len(c.claims()) == 5  # whenScaled=Retain keeps them
    assert c.checks > 100


def test_start_ordinal():
    """spec.ordinals.start: the pods are web-3..web-5, in order."""
    c = Cluster()
    c.create(stateful_set(3, start=3))
    c.driver.run_until_idle()
    assert c.ordinals(ready=True) == [3, 4, 5]
    assert sorted(c.claims()) == ["data-web-3", "data-web-4", "data-web-5"]


def test_never_ready_pod_halts_ordered_scale_up():
    c = Cluster()
    c.create(stateful_set(4))
    c.never_ready(1)
    c.driver.run_for(300)
    assert c.ordinals() == [0, 1]
    assert c.ordinals(ready=True) == [0]
    assert c.pod(1).status.phase == "Running"
    assert ready_counts(c.set()) == (2, 1)


def test_never_ready_pod_halts_ordered_scale_down():
    """An unready member blocks the scale down above it; a healthy one lets it go on."""
    c = Cluster()
    c.create(stateful_set(5))
    c.driver.run_until_idle()
    c.delete_pod(1)
    c.never_ready(1)  # its replacement never gets ready
    c.driver.run_until_idle()
    assert c.ordinals(ready=True) == [0, 2, 3, 4]
    c.edit(replicas=2)
    c.driver.run_for(300)
    assert c.ordinals() == [0, 1, 2, 3, 4], "scale down must wait for web-1"
    assert c.deletion_order == []
    c.delete_pod(1)  # the replacement is healthy again
    c.driver.run_until_idle()
    assert c.ordinals(ready=True) == [0, 1]
    assert c.deletion_order == [4, 3, 2]


def test_parallel_creates_and_deletes_without_waiting():
    c = Cluster()
    c.create(stateful_set(5, policy="Parallel"))
    c.driver.run_for(0.5)  # nothing is ready yet, but every pod exists
    assert c.ordinals() == [0, 1, 2, 3, 4]
    assert c.ordinals(ready=True) == []
    c.driver.run_until_idle()
    assert c.ordinals(ready=True) == [0, 1, 2, 3, 4]
    c.edit(replicas=1)
    c.driver.run_for(0.5)
    assert sorted(p.metadata.name for p in c.pods() if is_terminating(p)) == ["web-1", "web-2", "web-3", "web-4"]
    c.driver.run_until_idle()
    assert c.ordinals() == [0]


# --- updates --------------------------------------------------------------------------------------------


def test_partitioned_rolling_update_moves_only_ordinals_at_or_above_the_partition():
    c = Cluster()
    c.create(stateful_set(5, partition=3))
    c.driver.run_until_idle()
    first = c.set().status.current_revision
    c.edit(image=IMAGE_V2)
    c.driver.run_until_idle()
    status = c.set().status
    assert status.current_revision == first and status.update_revision != first
    assert c.ordinals(revision=first) == [0, 1, 2]
    assert c.ordinals(revision=status.update_revision) == [3, 4]
    assert {get_ordinal(p): p.spec.containers[0].image for p in c.pods()} == {
        0: IMAGE_V1, 1: IMAGE_V1, 2: IMAGE_V1, 3: IMAGE_V2, 4: IMAGE_V2}
    assert (status.current_replicas, status.updated_replicas) == (3, 2)

    c.edit(partition=0)
    c.driver.run_until_idle()
    status = c.set().status
    assert c.ordinals(revision=status.update_revision) == [0, 1, 2, 3, 4]
    assert status.current_revision == status.update_revision  # the rollout completed
    assert c.set().status.updated_replicas == 5


@pytest.mark.parametrize("ordinal, want_update", [pytest.param(1, False, id="below the partition"),
                                                  pytest.param(4, True, id="at or above the partition")])
def test_deleted_pod_returns_at_the_revision_its_ordinal_implies(ordinal, want_update):
    c = Cluster()
    c.create(stateful_set(5, partition=3))
    c.driver.run_until_idle()
    c.edit(image=IMAGE_V2)
    c.driver.run_until_idle()
    status = c.set().status
    old_uid = c.pod(ordinal).metadata.uid
    c.delete_pod(ordinal)
    c.driver.run_until_idle()
    pod = c.pod(ordinal)
    assert pod.metadata.uid != old_uid and is_running_and_ready(pod)
    assert get_pod_revision(pod) == (status.update_revision if want_update else status.current_revision)
    assert pod.spec.containers[0].image == (IMAGE_V2 if want_update else IMAGE_V1)


def test_rollback_reuses_the_earlier_controller_revision():
    c = Cluster()
    c.create(stateful_set(3))
    c.driver.run_until_idle()
    first = c.set().status.current_revision
    c.edit(image=IMAGE_V2)
    c.driver.run_until_idle()
    second = c.set().status.current_revision
    assert second != first
    c.edit(image=IMAGE_V1)
    c.driver.run_until_idle()
    status = c.set().status
    assert status.current_revision == status.update_revision == first
    revisions = c.revisions()
    assert [r.metadata.name for r in revisions] == [second, first]  # the first one came back as revision 3
    assert [r.revision for r in revisions] == [2, 3]
    assert all(p.spec.containers[0].image == IMAGE_V1 for p in c.pods())


# --- claim retention ---------------------------------------------------------------------------------------


def owners(claim: Any) -> list[str]:
    return sorted(f"{r.kind}/{r.name}" for r in claim.metadata.owner_references or [])


@pytest.mark.parametrize("when_scaled", ["Retain", "Delete"])
def test_retention_on_scale_down(when_scaled):
    c = Cluster()
    c.create(stateful_set(3, when_scaled=when_scaled))
    c.driver.run_until_idle()
    assert all(owners(claim) == [] for claim in c.claims().values())
    c.edit(replicas=1)
    c.driver.run_until_idle()
    assert c.ordinals() == [0]
    if when_scaled == "Retain":
        assert sorted(c.claims()) == ["data-web-0", "data-web-1", "data-web-2"]
        assert all(owners(claim) == [] for claim in c.claims().values())
    else:  # the condemned pods owned their claims; the garbage collector took them with the pods
        assert sorted(c.claims()) == ["data-web-0"]
        assert owners(c.claims()["data-web-0"]) == []
    c.edit(replicas=3)  # scaling up again gets fresh claims, or the old ones back
    c.driver.run_until_idle()
    assert c.ordinals(ready=True) == [0, 1, 2]
    assert sorted(c.claims()) == ["data-web-0", "data-web-1", "data-web-2"]


def test_condemned_pod_owns_its_claim_while_terminating():
    c = Cluster()
    c.create(stateful_set(2, when_scaled="Delete"))
    c.driver.run_until_idle()
    c.edit(replicas=1)
    assert c.driver.run_until(lambda: is_terminating(c.pod(1)))
    assert owners(c.claims()["data-web-1"]) == ["Pod/web-1"]
    assert owners(c.claims()["data-web-0"]) == []


@pytest.mark.parametrize("when_deleted", ["Retain", "Delete"])
def test_retention_on_set_deletion(when_deleted):
    c = Cluster()
    c.create(stateful_set(2, when_deleted=when_deleted))
    c.driver.run_until_idle()
    want = ["StatefulSet/web"] if when_deleted == "Delete" else []
    assert all(owners(claim) == want for claim in c.claims().values())
    c.client.apps_v1().stateful_sets(NS).delete(NAME, DeleteOptions())
    c.driver.run_until_idle()
    assert c.pods() == []  # the garbage collector deletes the set's pods
    if when_deleted == "Retain":
        assert sorted(c.claims()) == ["data-web-0", "data-web-1"]
    else:
        assert c.claims() == {}
    assert c.revisions() == []


# --- determinism ----------------------------------------------------------------------------------------


def test_same_seed_same_trace():
    def one_run(seed: int) -> str:
        c = Cluster(seed=seed)
        c.create(stateful_set(3, partition=1))
        c.driver.run_until_idle()
        c.edit(image=IMAGE_V2, replicas=4)
        c.driver.run_until_idle()
        c.edit(replicas=2)
        c.driver.run_until_idle()
        pods = ";".join(f"{p.metadata.name}@{get_pod_revision(p)}@{p.spec.node_name}" for p in c.pods())
        return c.driver.trace_text() + "\n" + pods

    first = one_run(7)
    assert first == one_run(7)
    assert "statefulset/worker" in first
