"""Tests for minikcm.cmd.controller_manager.apps: the apps/v1 descriptors and their constructors.

The controllers have tests of their own; these replace each controller's
constructor with a fake, so they check the wiring only: which informers,
client, worker count and steps each constructor hands over.
"""

from __future__ import annotations

import threading

import pytest

from minikcm.client.fake import new_simple_clientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.cmd.controller_manager import apps, names
from minikcm.cmd.controller_manager.controller_descriptor import NotPortedError
from minikcm.cmd.controller_manager.controllermanager import ControllerContext, SimpleControllerClientBuilder
from minikcm.cmd.options import new_default_component_config
from minikcm.controller.deployment import deployment_controller
from minikcm.controller.replicaset import replica_set
from minikcm.controller.statefulset import stateful_set
from minikcm.informers import new_shared_informer_factory_with_options


class FakeController:
    def __init__(self, *args):
        self.args = args
        self.runs = []

        self.events_started = 0

    def run(self, workers, stop):
        self.runs.append((workers, stop))

    def start_event_recording(self):
        self.events_started += 1

    def steps(self):
        return ["a-step"]


def fake_constructor(monkeypatch, module, function_name, **extra):
    """Replace `module.function_name` (and the `extra` attributes) for one test; return what it builds."""
    built = []

    def new(*args):
        controller = FakeController(*args)
        built.append(controller)
        return controller

    monkeypatch.setattr(module, function_name, new)
    for k, v in extra.items():
        monkeypatch.setattr(module, k, v)
    return built


def informers(typed_informers):
    """The shared informers behind typed informers (the factory hands out one per resource)."""
    return [id(t.informer()) for t in typed_informers]


@pytest.fixture
def ctx():
    client = new_simple_clientset()
    cc = new_default_component_config()
    cc.deployment_controller.concurrent_deployment_syncs = 3
    cc.replica_set_controller.concurrent_rs_syncs = 4
    cc.stateful_set_controller.concurrent_stateful_set_syncs = 6
    factory = new_shared_informer_factory_with_options(client, 0, clock=FakeClock(EPOCH, driven=True))
    return ControllerContext(client_builder=SimpleControllerClientBuilder(client), informer_factory=factory,
                             component_config=cc)


DESCRIPTOR_CASES = [
    pytest.param(apps.new_deployment_controller_descriptor, names.DEPLOYMENT_CONTROLLER, ["deployment"], id="deployment"),
    pytest.param(apps.new_replica_set_controller_descriptor, names.REPLICA_SET_CONTROLLER, ["replicaset"],
                 id="replicaset"),
    pytest.param(apps.new_stateful_set_controller_descriptor, names.STATEFUL_SET_CONTROLLER, ["statefulset"],
                 id="statefulset"),
    pytest.param(apps.new_daemon_set_controller_descriptor, names.DAEMON_SET_CONTROLLER, ["daemonset"], id="daemonset"),
]


@pytest.mark.parametrize("new_descriptor, name, aliases", DESCRIPTOR_CASES)
def test_descriptors(new_descriptor, name, aliases):
    d = new_descriptor()
    assert (d.name(), d.get_aliases(), d.get_required_feature_gates(), d.is_disabled_by_default()) == (
        name, aliases, [], False)


def test_daemon_set_is_not_ported(ctx):
    with pytest.raises(NotPortedError, match="'daemonset-controller' is not ported by minikcm"):
        apps.new_daemon_set_controller_descriptor().build_controller(ctx)


def test_new_deployment_controller_wiring(monkeypatch, ctx):
    """Port of newDeploymentController: deployments, replicasets, pods informers; the client; the workers."""
    built = fake_constructor(monkeypatch, deployment_controller, "new_deployment_controller")
    controller = apps.new_deployment_controller_descriptor().build_controller(ctx)
    (dc,) = built
    f = ctx.informer_factory
    assert informers(dc.args[:3]) == informers([f.apps().v1().deployments(), f.apps().v1().replica_sets(),
                                                f.core().v1().pods()])
    assert dc.args[3] is ctx.client_builder.client("deployment-controller")
    stop = threading.Event()
    controller.run(stop)
    assert controller.name() == "deployment-controller" and dc.runs == [(3, stop)]
    assert controller.steps(stop) == ["a-step"]
    assert built[0].events_started == 1  # the driven Run starts the event pipeline before its loops


def test_new_deployment_controller_wraps_constructor_errors(monkeypatch, ctx):
    def refuse(*args):
        raise ValueError("no informers")

    monkeypatch.setattr(deployment_controller, "new_deployment_controller", refuse)
    with pytest.raises(RuntimeError, match="error creating Deployment controller: no informers"):
        apps.new_deployment_controller_descriptor().build_controller(ctx)


def test_new_replica_set_controller_wiring(monkeypatch, ctx):
    """Port of newReplicaSetController: replicasets and pods informers, BurstReplicas, the workers."""
    built = fake_constructor(monkeypatch, replica_set, "new_replica_set_controller", BURST_REPLICAS=500)
    controller = apps.new_replica_set_controller_descriptor().build_controller(ctx)
    (rsc,) = built
    f = ctx.informer_factory
    assert informers(rsc.args[:2]) == informers([f.apps().v1().replica_sets(), f.core().v1().pods()])
    assert rsc.args[2:] == (ctx.client_builder.client("replicaset-controller"), 500)
    stop = threading.Event()
    controller.run(stop)
    assert rsc.runs == [(4, stop)]


def test_new_stateful_set_controller_wiring(monkeypatch, ctx):
    """Port of newStatefulSetController: pods, statefulsets, PVCs, controllerrevisions informers; the workers."""
    built = fake_constructor(monkeypatch, stateful_set, "new_stateful_set_controller")
    controller = apps.new_stateful_set_controller_descriptor().build_controller(ctx)
    (ssc,) = built
    f = ctx.informer_factory
    assert informers(ssc.args[:4]) == informers([f.core().v1().pods(), f.apps().v1().stateful_sets(),
                                                 f.core().v1().persistent_volume_claims(),
                                                 f.apps().v1().controller_revisions()])
    assert ssc.args[4] is ctx.client_builder.client("statefulset-controller")
    stop = threading.Event()
    controller.run(stop)
    assert ssc.runs == [(6, stop)]
