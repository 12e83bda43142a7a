"""Builders and the controller fixture shared by the Deployment controller tests.

Ports of the helpers of pkg/controller/deployment/deployment_controller_test.go
(rs, newRSWithStatus, newDeployment, newReplicaSet, getKey, the `fixture` type,
filterInformerActions, bumpResourceVersion, generatePodFromRS) and of
sync_test.go / progress_test.go (newRSWithAvailable, currentDeployment).

Differs from the Go helpers:
- Go's newDeployment shares one map between the selector and the template
  labels; here each gets its own dict. Containers get a name (our API server
  validates what is seeded into it; Go's fake tracker does not).
- UIDs come from a counter, not uuid.NewUUID, so runs repeat.
- `zero_clientset()` plays Go's `fake.Clientset{}` (no tracker): every call
  succeeds and is recorded; create and update answer with the object sent
  (Go answers with an empty object), other verbs with an empty object.
"""

from __future__ import annotations

import itertools
import queue
from datetime import datetime
from typing import Any

from kubernetes.client import (
    V1Container,
    V1Deployment,
    V1DeploymentSpec,
    V1DeploymentStrategy,
    V1LabelSelector,
    V1ObjectMeta,
    V1OwnerReference,
    V1Pod,
    V1PodSpec,
    V1PodTemplateSpec,
    V1ReplicaSet,
    V1ReplicaSetSpec,
    V1ReplicaSetStatus,
    V1RollingUpdateDeployment,
)

from minikcm.apimachinery.convert import deep_copy
from minikcm.apimachinery.meta import new_controller_ref
from minikcm.client import InProcessClientset
from minikcm.client.fake import new_simple_clientset
from minikcm.client.testing import Action, CreateAction, UpdateAction
from minikcm.clock import EPOCH, FakeClock
from minikcm.controller import controller_utils
from minikcm.controller.deployment.deployment_controller import (
    DeploymentController,
    controller_kind,
    new_deployment_controller,
)
from minikcm.informers import SharedInformerFactory, new_shared_informer_factory_with_options
from minikcm.tools.record import FakeRecorder

NAMESPACE = "default"
_uids = itertools.count(1)


def next_uid(prefix: str) -> str:
    return f"{prefix}-uid-{next(_uids)}"


# --- object builders ------------------------------------------------------------------------------


def rs(name: str, replicas: int, selector: dict[str, str] | None, timestamp: datetime | None) -> V1ReplicaSet:
    """Port of rs: a ReplicaSet with a size, a selector and a creation time (empty template)."""
    return V1ReplicaSet(
        metadata=V1ObjectMeta(name=name, creation_timestamp=timestamp, namespace=NAMESPACE),
        spec=V1ReplicaSetSpec(replicas=replicas, selector=V1LabelSelector(match_labels=selector),
                              template=V1PodTemplateSpec()),
    )


def new_rs_with_status(name: str, spec_replicas: int, status_replicas: int,
                       selector: dict[str, str] | None) -> V1ReplicaSet:
    """Port of newRSWithStatus."""
    r = rs(name, spec_replicas, selector, None)
    r.status = V1ReplicaSetStatus(replicas=status_replicas)
    return r


def new_rs_with_available(name: str, spec_replicas: int, status_replicas: int,
                          available_replicas: int) -> V1ReplicaSet:
    """Port of newRSWithAvailable (progress_test.go)."""
    r = rs(name, spec_replicas, None, None)
    r.status = V1ReplicaSetStatus(replicas=status_replicas, available_replicas=available_replicas)
    return r


def new_deployment(name: str, replicas: int, revision_history_limit: int | None = None,
                   max_surge: int | str | None = None, max_unavailable: int | str | None = None,
                   selector: dict[str, str] | None = None) -> V1Deployment:
    """Port of newDeployment: a RollingUpdate Deployment (maxSurge and maxUnavailable 0 unless given)."""
    return V1Deployment(
        api_version="apps/v1",
        metadata=V1ObjectMeta(uid=next_uid(name), name=name, namespace=NAMESPACE, annotations={}),
        spec=V1DeploymentSpec(
            strategy=V1DeploymentStrategy(type="RollingUpdate", rolling_update=V1RollingUpdateDeployment(
                max_unavailable=0 if max_unavailable is None else max_unavailable,
                max_surge=0 if max_surge is None else max_surge)),
            replicas=replicas,
            selector=V1LabelSelector(match_labels=dict(selector) if selector is not None else None),
            template=V1PodTemplateSpec(
                metadata=V1ObjectMeta(labels=dict(selector) if selector is not None else None),
                spec=V1PodSpec(containers=[V1Container(name="foo", image="foo/bar")]),
            ),
            revision_history_limit=revision_history_limit,
        ),
    )


def recreate(d: V1Deployment) -> V1Deployment:
    """Switch `d` to the Recreate strategy (Go: d.Spec.Strategy.Type = Recreate; rollingUpdate must go too)."""
    d.spec.strategy = V1DeploymentStrategy(type="Recreate")
    return d


def new_replica_set(d: V1Deployment, name: str, replicas: int) -> V1ReplicaSet:
    """Port of newReplicaSet: a ReplicaSet owned by `d`, with its selector and template."""
    return V1ReplicaSet(
        metadata=V1ObjectMeta(
            name=name, uid=next_uid(name), namespace=NAMESPACE,
            labels=dict(d.spec.selector.match_labels or {}),
            owner_references=[new_controller_ref(d, controller_kind)],
        ),
        spec=V1ReplicaSetSpec(selector=deep_copy(d.spec.selector), replicas=replicas,
                              template=deep_copy(d.spec.template)),
    )


def generate_pod_from_rs(r: V1ReplicaSet) -> V1Pod:
    """Port of generatePodFromRS: a pod `<rs>-pod` controlled by `r`, with its selector's labels."""
    return V1Pod(
        metadata=V1ObjectMeta(
            name=f"{r.metadata.name}-pod", namespace=r.metadata.namespace,
            labels=dict(r.spec.selector.match_labels or {}),
            owner_references=[V1OwnerReference(uid=r.metadata.uid, api_version="v1beta1", kind="ReplicaSet",
                                               name=r.metadata.name, controller=True)],
        ),
        spec=deep_copy(r.spec.template.spec),
    )


def get_key(d: V1Deployment) -> str:
    """Port of getKey."""
    return controller_utils.key_func(d)


def bump_resource_version(obj: Any) -> None:
    """Port of bumpResourceVersion."""
    obj.metadata.resource_version = str(int(obj.metadata.resource_version or "0") + 1)


# --- clientsets and controllers -------------------------------------------------------------------


def echo_reaction(action: Action) -> tuple[bool, Any, BaseException | None]:
    if isinstance(action, (CreateAction, UpdateAction)):
        return True, action.get_object(), None
    return True, None, None


def zero_clientset(clock: FakeClock | None = None) -> InProcessClientset:
    """Go's `fake.Clientset{}`: records every call, answers every call (see the module docstring)."""
    cs = new_simple_clientset(clock=clock)
    assert cs.fake is not None
    cs.fake.prepend_reactor("*", "*", echo_reaction)
    return cs


def new_controller(client: InProcessClientset, clock: FakeClock | None = None
                   ) -> tuple[DeploymentController, SharedInformerFactory]:
    """A controller over a deterministic, never started informer factory, with a FakeRecorder.

    Go: NewDeploymentController over informers.NewSharedInformerFactory, with
    eventRecorder = &record.FakeRecorder{} and the listers marked synced.
    """
    clock = clock or FakeClock(EPOCH, driven=True)
    factory = new_shared_informer_factory_with_options(client, 0, clock=clock)
    dc = new_deployment_controller(factory.apps().v1().deployments(), factory.apps().v1().replica_sets(),
                                   factory.core().v1().pods(), client)
    dc.event_recorder = FakeRecorder()
    dc.d_lister_synced = dc.rs_lister_synced = dc.pod_lister_synced = always_ready
    return dc, factory


def zero_controller(clock: FakeClock | None = None) -> tuple[DeploymentController, InProcessClientset]:
    """Go's `&DeploymentController{client: &fake, eventRecorder: &record.FakeRecorder{}}` (a full one here)."""
    client = zero_clientset(clock)
    dc, _ = new_controller(client, clock)
    return dc, client


def recording_controller(client: InProcessClientset) -> tuple[DeploymentController, FakeRecorder]:
    """A controller whose events are kept (FakeRecorder with a buffer)."""
    dc, _ = new_controller(client)
    recorder = FakeRecorder(queue.Queue())
    dc.event_recorder = recorder
    return dc, recorder


def always_ready() -> bool:
    """Port of alwaysReady."""
    return True


def server_valid(d: V1Deployment) -> V1Deployment:
    """`d`, made acceptable to the API server: maxSurge 0 with maxUnavailable 0 becomes 0 and 1.

    Both zero is what newDeployment builds and Go's fake tracker stores, but
    validation refuses it. resolve_fenceposts turns (0, 0) into (0, 1) anyway,
    so the controller's arithmetic does not change.
    """
    ru = d.spec.strategy.rolling_update if d.spec.strategy is not None else None
    if ru is not None and ru.max_surge in (0, "0%") and ru.max_unavailable in (0, "0%"):
        ru.max_unavailable = 1
    return d


# --- the fixture ----------------------------------------------------------------------------------


class Fixture:
    """Port of fixture (deployment_controller_test.go): seeded listers, a clientset, expected actions.

    `objects` also seed the clientset's API server (Go: NewSimpleClientset),
    `d_lister` / `rs_lister` / `pod_lister` go straight into the informers'
    indexers. `run(key)` syncs once and compares the client's actions, in
    order, by verb, resource and subresource.
    """

    def __init__(self) -> None:
        self.client: InProcessClientset | None = None
        self.d_lister: list[V1Deployment] = []
        self.rs_lister: list[V1ReplicaSet] = []
        self.pod_lister: list[V1Pod] = []
        self.actions: list[tuple[str, str, str]] = []  # expected (verb, resource, subresource)
        self.objects: list[Any] = []

    def expect_get_deployment_action(self, d: V1Deployment) -> None:
        self.actions.append(("get", "deployments", ""))

    def expect_update_deployment_status_action(self, d: V1Deployment) -> None:
        self.actions.append(("update", "deployments", "status"))

    def expect_update_deployment_action(self, d: V1Deployment) -> None:
        self.actions.append(("update", "deployments", ""))

    def expect_create_rs_action(self, r: V1ReplicaSet) -> None:
        self.actions.append(("create", "replicasets", ""))

    def new_controller(self) -> tuple[DeploymentController, SharedInformerFactory]:
        """Port of fixture.newController."""
        self.client = new_simple_clientset(*self.objects)
        dc, factory = new_controller(self.client)
        for d in self.d_lister:
            factory.apps().v1().deployments().informer().get_indexer().add(d)
        for r in self.rs_lister:
            factory.apps().v1().replica_sets().informer().get_indexer().add(r)
        for pod in self.pod_lister:
            factory.core().v1().pods().informer().get_indexer().add(pod)
        return dc, factory

    def run(self, key: str) -> None:
        """Port of fixture.run: sync once, expect success and exactly the expected actions."""
        self.run_(key, expect_error=False)

    def run_expect_error(self, key: str) -> None:
        """Port of fixture.runExpectError."""
        self.run_(key, expect_error=True)

    def run_(self, key: str, expect_error: bool) -> None:
        dc, _ = self.new_controller()  # Go starts the informers; ours stay unstarted (no list/watch to filter)
        err: Exception | None = None
        try:
            dc.sync_deployment(key)
        except Exception as e:  # noqa: BLE001 - the test decides whether an error was expected
            err = e
        if expect_error:
            assert err is not None, "expected error syncing deployment, got nil"
        else:
            assert err is None, f"error syncing deployment: {err!r}"
        assert self.client is not None and self.client.fake is not None
        got = [(a.get_verb(), a.get_resource().resource, a.get_subresource())
               for a in filter_informer_actions(self.client.fake.actions())]
        assert got == self.actions


def filter_informer_actions(actions: list[Action]) -> list[Action]:
    """Port of filterInformerActions: drop the informers' own list and watch calls."""
    ret = []
    for action in actions:
        if action.get_namespace() == "" and any(action.matches(verb, res) for verb in ("list", "watch")
                                                 for res in ("pods", "deployments", "replicasets")):
            continue
        ret.append(action)
    return ret


def update_actions_for(client: InProcessClientset, resource: str) -> list[Any]:
    """The objects of the client's update actions on `resource` (main resource), in order."""
    assert client.fake is not None
    return [a.get_object() for a in client.fake.actions()
            if isinstance(a, UpdateAction) and a.get_resource().resource == resource and not a.get_subresource()]


