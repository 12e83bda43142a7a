"""Tests for minikcm.cmd.controller_manager.core: the garbage collector descriptor and the core metadata."""

from __future__ import annotations

import threading

import pytest

from minikcm.apimachinery.schema import GroupResource
from minikcm.client.fake import new_simple_clientset
from minikcm.cmd.controller_manager import core, names
from minikcm.cmd.controller_manager.controllermanager import ControllerContext, SimpleControllerClientBuilder
from minikcm.cmd.options import new_default_component_config
from minikcm.controller.garbagecollector import garbagecollector


@pytest.fixture
def ctx():
    client = new_simple_clientset()
    return ControllerContext(client_builder=SimpleControllerClientBuilder(client), informer_factory=object(),
                             component_config=new_default_component_config())


def test_garbage_collector_descriptor():
    d = core.new_garbage_collector_controller_descriptor()
    assert (d.name(), d.get_aliases()) == (names.GARBAGE_COLLECTOR_CONTROLLER, ["garbagecollector"])


def test_disabled_garbage_collector_builds_nothing(ctx):
    """Port of newGarbageCollectorController: --enable-garbage-collector=false returns no controller."""
    ctx.component_config.garbage_collector_controller.enable_garbage_collector = False
    assert core.new_garbage_collector_controller_descriptor().build_controller(ctx) is None


def test_garbage_collector_wiring(monkeypatch, ctx):
    """The client "generic-garbage-collector", the shared informers, the ignored resources, the workers."""
    calls = []

    class FakeGC:
        def run(self, workers, stop):
            calls.append(("run", workers, stop))

        def start_event_recording(self):
            calls.append(("events",))

        def steps(self):
            return ["gc-step"]

    def new_garbage_collector(client, informer_factory, ignored):
        calls.append(("new", client, informer_factory, ignored))
        return FakeGC()

    monkeypatch.setattr(garbagecollector, "new_garbage_collector", new_garbage_collector)
    controller = core.new_garbage_collector_controller_descriptor().build_controller(ctx)
    stop = threading.Event()
    controller.run(stop)
    assert controller.name() == "garbage-collector-controller"
    assert controller.steps(stop) == ["gc-step"]
    assert calls == [
        ("new", ctx.client_builder.client("generic-garbage-collector"), ctx.informer_factory,
         [GroupResource("", "events"), GroupResource("events.k8s.io", "events")]),
        ("run", 20, stop),
        ("events",),
    ]


CLOUD_CASES = [
    pytest.param(core.new_service_lb_controller_descriptor, ["service"], id="service-lb"),
    pytest.param(core.new_node_route_controller_descriptor, ["route"], id="node-route"),
    pytest.param(core.new_cloud_node_lifecycle_controller_descriptor, ["cloud-node-lifecycle"], id="cloud-node-lifecycle"),
]


@pytest.mark.parametrize("new_descriptor, aliases", CLOUD_CASES)
def test_cloud_provider_descriptors_build_nothing(ctx, new_descriptor, aliases):
    """Port of the cloud-provider constructors (KEP-2395): they only log; BuildController does not even call them."""
    d = new_descriptor()
    assert d.is_cloud_provider_controller() and d.get_aliases() == aliases
    assert d.get_controller_constructor()(ctx, d.name()) is None
    assert d.build_controller(ctx) is None


GATED_CASES = [
    pytest.param(core.new_taint_eviction_controller_descriptor, ["SeparateTaintEvictionController"], id="taint-eviction"),
    pytest.param(core.new_device_taint_eviction_controller_descriptor, ["DynamicResourceAllocation", "DRADeviceTaints"],
                 id="device-taint-eviction"),
    pytest.param(core.new_storage_version_garbage_collector_controller_descriptor,
                 ["APIServerIdentity", "StorageVersionAPI"], id="storageversion-gc"),
    pytest.param(core.new_selinux_warning_controller_descriptor, ["SELinuxChangePolicy"], id="selinux-warning"),
]


@pytest.mark.parametrize("new_descriptor, gates", GATED_CASES)
def test_feature_gated_descriptors(new_descriptor, gates):
    assert new_descriptor().get_required_feature_gates() == gates


def test_selinux_warning_controller_is_off_by_default():
    assert core.new_selinux_warning_controller_descriptor().is_disabled_by_default()
