"""Test doubles and builders for the ReplicaSet controller tests (upstream's helpers in replica_set_test.go).

`ControllerFixture` is upstream's testNewReplicaSetControllerFromClient plus
validateSyncReplicaSet and processSync: a controller over a fake clientset
whose informers are never started, so tests seed the informers' indexers
directly, call `sync_replica_set` and the handlers, and check the recorded
FakePodControl calls and client actions.
"""

from __future__ import annotations

import itertools
import random
from datetime import datetime
from typing import Any

from kubernetes.client import (
    V1Container,
    V1LabelSelector,
    V1ObjectMeta,
    V1OwnerReference,
    V1Pod,
    V1PodCondition,
    V1PodSpec,
    V1PodStatus,
    V1PodTemplateSpec,
    V1ReplicaSet,
    V1ReplicaSetSpec,
)

from minikcm.client.fake import new_simple_clientset
from minikcm.client.testing import Action, UpdateAction
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller.controller_utils import FakePodControl, key_func
from minikcm.controller.replicaset.replica_set import (
    BURST_REPLICAS,
    ReplicaSetController,
    new_replica_set_controller,
)
from minikcm.informers import SharedInformerFactory, new_shared_informer_factory_with_options
from minikcm.tools.cache.index import Indexer

_uids = itertools.count(1)


def new_uid() -> str:
    """Go: uuid.NewUUID(); a counter here, so failures repeat."""
    return f"uid-{next(_uids):04d}"


def always_ready() -> bool:
    return True


def new_replica_set(replicas: int, selector_map: dict[str, str]) -> V1ReplicaSet:
    """Upstream's newReplicaSet.

    Differs: the template's labels also carry the selector's (our API server
    validates that the selector matches the template, a fake tracker does
    not); the controller reference names a Deployment (our models need kind,
    name and apiVersion).
    """
    return V1ReplicaSet(
        api_version="apps/v1", kind="ReplicaSet",
        metadata=V1ObjectMeta(
            uid=new_uid(), name="foobar", namespace="default", resource_version="18",
            owner_references=[V1OwnerReference(api_version="apps/v1", kind="Deployment", name="dep", uid="123",
                                               controller=True)],
        ),
        spec=V1ReplicaSetSpec(
            replicas=replicas,
            selector=V1LabelSelector(match_labels=dict(selector_map)),
            template=V1PodTemplateSpec(
                metadata=V1ObjectMeta(labels={"name": "foo", "type": "production", **selector_map}),
                spec=V1PodSpec(
                    containers=[V1Container(name="foo", image="foo/bar", image_pull_policy="IfNotPresent",
                                            termination_message_path="/dev/termination-log")],
                    restart_policy="Always", dns_policy="Default", node_selector={"baz": "blah"},
                ),
            ),
        ),
    )


def controller_ref_to(rs: V1ReplicaSet, api_version: str = "v1beta1") -> V1OwnerReference:
    """The controllerRef upstream's tests put on pods (their odd apiVersion kept)."""
    return V1OwnerReference(uid=rs.metadata.uid, api_version=api_version, kind="ReplicaSet", name=rs.metadata.name,
                            controller=True)


def new_pod(name: str, rs: V1ReplicaSet, phase: str, last_transition_time: datetime | None = None,
            properly_owned: bool = True) -> V1Pod:
    """Upstream's newPod: a pod with rs's selector labels; Running pods get Ready=True."""
    conditions = None
    if phase == "Running":
        conditions = [V1PodCondition(type="Ready", status="True", last_transition_time=last_transition_time)]
    return V1Pod(
        metadata=V1ObjectMeta(uid=new_uid(), name=name, namespace=rs.metadata.namespace,
                              labels=dict(rs.spec.selector.match_labels),
                              owner_references=[controller_ref_to(rs)] if properly_owned else None),
        spec=V1PodSpec(containers=[V1Container(name="c", image="foo/bar")]),
        status=V1PodStatus(phase=phase, conditions=conditions),
    )


def new_pod_list(store: Indexer | None, count: int, phase: str, label_map: dict[str, str], rs: V1ReplicaSet,
                 name: str) -> list[V1Pod]:
    """Upstream's newPodList: `count` pods `<name><i>` owned by rs, added to `store` when given."""
    pods = []
    for i in range(count):
        pod = new_pod(f"{name}{i}", rs, phase, None, False)
        pod.metadata.labels = dict(label_map)
        pod.metadata.owner_references = [controller_ref_to(rs)]
        if store is not None:
            store.add(pod)
        pods.append(pod)
    return pods


def accept_status_update(action: Action) -> tuple[bool, Any, BaseException | None]:
    """A reactor that answers every status write with the object sent (upstream's 200 fake handler)."""
    if action.get_subresource() != "status":
        return False, None, None
    assert isinstance(action, UpdateAction)
    return True, action.get_object(), None


class ControllerFixture:
    """A ReplicaSet controller over a fake clientset, with seeded listers and FakePodControl."""

    def __init__(self, *objects: Any, burst_replicas: int = BURST_REPLICAS,
                 accept_status_updates: bool = True) -> None:
        self.clock = FakeClock(EPOCH, driven=True)
        self.client = new_simple_clientset(*objects, clock=self.clock)
        if accept_status_updates:
            self.client.fake.prepend_reactor("update", "replicasets", accept_status_update)
        self.factory: SharedInformerFactory = new_shared_informer_factory_with_options(
            self.client, 0, clock=self.clock, rng=random.Random(1))
        self.rsc: ReplicaSetController = new_replica_set_controller(
            self.factory.apps().v1().replica_sets(), self.factory.core().v1().pods(), self.client, burst_replicas)
        self.rsc.pod_lister_synced = always_ready
        self.rsc.rs_lister_synced = always_ready
        self.pod_control = FakePodControl()
        self.rsc.pod_control = self.pod_control

    @property
    def rs_indexer(self) -> Indexer:
        return self.factory.apps().v1().replica_sets().informer().get_indexer()

    @property
    def pod_indexer(self) -> Indexer:
        return self.factory.core().v1().pods().informer().get_indexer()

    def sync(self, rs: V1ReplicaSet) -> None:
        self.rsc.sync_replica_set(key_func(rs))

    def expect_pod_control(self, creates: int, deletes: int, patches: int) -> None:
        """Upstream's validateSyncReplicaSet."""
        assert len(self.pod_control.templates) == creates, "creates"
        assert len(self.pod_control.delete_pod_name) == deletes, "deletes"
        assert len(self.pod_control.patches) == patches, "patches"

    def status_updates(self) -> list[UpdateAction]:
        return [a for a in self.client.fake.actions()
                if isinstance(a, UpdateAction) and a.get_subresource() == "status"]

    def process_sync(self, key: str) -> BaseException | None:
        """Upstream's processSync: one process_next_work_item for `key`, returning the sync's error."""
        old_sync_handler = self.rsc.sync_handler
        captured: list[BaseException] = []

        def capturing_sync_handler(k: str) -> None:
            try:
                old_sync_handler(k)
            except Exception as err:
                captured.append(err)
                raise

        self.rsc.sync_handler = capturing_sync_handler
        try:
            self.rsc.queue.add(key)
            self.rsc.process_next_work_item()
        finally:
            self.rsc.sync_handler = old_sync_handler
        return captured[0] if captured else None

    def drain_queue(self) -> list[str]:
        """Run the worker until the queue is empty; the synced ReplicaSet names, in order."""
        names: list[str] = []

        def recording_sync_handler(key: str) -> None:
            namespace, name = key.split("/")
            assert self.rsc.rs_lister is not None
            names.append(self.rsc.rs_lister.replica_sets(namespace).get(name).metadata.name)

        self.rsc.sync_handler = recording_sync_handler
        while self.rsc.queue.len() > 0:
            self.rsc.process_next_work_item()
        return names
