"""Tests for minikcm.cmd.controller_manager.controllermanager.

Ports of TestIsControllerEnabled (controller-manager app/helper_test.go) and of
TestRunControllers, TestNoCloudProviderControllerStarted and
TestTaintEvictionControllerGating (app/controllermanager_test.go at k/k 2e09),
plus our own. The deterministic ControllerManager is tested in test_deterministic.py.
"""

from __future__ import annotations

import logging
import random
import re
import threading
import time

import pytest

from minikcm import features
from minikcm.apiserver.server import APIServer
from minikcm.client import InProcessClientset
from minikcm.client.fake import new_simple_clientset
from minikcm.clock import RealClock
from minikcm.cmd.controller_manager import names
from minikcm.cmd.controller_manager.config import KubeControllerManagerConfiguration
from minikcm.cmd.controller_manager.controller_descriptor import (
    ControllerDescriptor,
    NotPortedError,
    new_controller_loop,
)
from minikcm.cmd.controller_manager.controllermanager import (
    ControllerContext,
    SimpleControllerClientBuilder,
    build_controllers,
    create_controller_context,
    is_controller_enabled,
    new_controller_descriptors,
    new_identity,
    resync_period,
    run,
    run_controllers,
    trim_managed_fields,
)
from minikcm.informers import SharedInformerFactory

from .cm_testing import (  # no_ported_controllers is a fixture
    FAKE_CONTROLLER,
    Cluster,
    TickingController,
    new_config,
    no_ported_controllers,  # noqa: F401
    ticking_descriptors,
)


# --- IsControllerEnabled (helper.go) ---------------------------------------------------------

IS_CONTROLLER_ENABLED_CASES = [
    pytest.param("bravo", ["alpha", "bravo", "-charlie"], ["delta", "echo"], True, id="on by name"),
    pytest.param("charlie", ["alpha", "bravo", "-charlie"], ["delta", "echo"], False, id="off by name"),
    pytest.param("alpha", ["*"], ["delta", "echo"], True, id="on by default"),
    pytest.param("delta", ["*"], ["delta", "echo"], False, id="off by default"),
    pytest.param("alpha", ["*", "-charlie"], ["delta", "echo"], True, id="on by star, not off by name"),
    pytest.param("charlie", ["*", "-charlie"], ["delta", "echo"], False, id="off by name with star"),
    pytest.param("foxtrot", ["alpha", "bravo", "-charlie"], ["delta", "echo"], False,
                 id="off by default implicit, no star"),
    pytest.param("delta", ["*", "delta"], ["delta", "echo"], True, id="disabled by default but named"),
    pytest.param("alpha", ["-alpha", "alpha", "*"], [], False, id="first mention wins"),
]


@pytest.mark.parametrize("name, controllers, disabled_by_default, expected", IS_CONTROLLER_ENABLED_CASES)
def test_is_controller_enabled(name, controllers, disabled_by_default, expected):
    """Port of TestIsControllerEnabled (controller-manager app/helper_test.go)."""
    assert is_controller_enabled(name, set(disabled_by_default), controllers) is expected


# --- ResyncPeriod, CreateControllerContext --------------------------------------------------


def completed(**generic):
    cc = KubeControllerManagerConfiguration()
    cc.generic.min_resync_period = 12 * 3600
    cc.garbage_collector_controller.enable_garbage_collector = True
    for k, v in generic.items():
        setattr(cc.generic, k, v)
    from minikcm.cmd.controller_manager.config import Config

    return Config(component_config=cc, client=new_simple_clientset()).complete()


def test_resync_period_is_between_min_and_twice_min():
    """Port of ResyncPeriod: a fresh factor in [1, 2) per call."""
    period = resync_period(completed(), random.Random(3))
    values = [period() for _ in range(200)]
    assert all(12 * 3600 <= v < 24 * 3600 for v in values)
    assert len(set(values)) == 200


def test_create_controller_context(driven_clock):
    c = completed()
    builder = SimpleControllerClientBuilder(c.client)
    ctx = create_controller_context(c, builder, builder, threading.Event(), clock=driven_clock, rng=random.Random(1))
    assert isinstance(ctx.informer_factory, SharedInformerFactory)
    assert ctx.informer_factory.clock is driven_clock  # driven: the factory hands out steps, starts no thread
    ctx.informer_factory.core().v1().pods().informer()
    ctx.informer_factory.start(threading.Event())
    assert ctx.informer_factory.threads == [] and ctx.informer_factory.steps()
    assert ctx.informer_factory.transform is trim_managed_fields
    assert 12 * 3600 <= ctx.informer_factory.default_resync < 24 * 3600
    assert not ctx.informers_started.is_set()
    assert ctx.new_client("deployment-controller") is c.client


def test_trim_managed_fields():
    from kubernetes.client import V1ManagedFieldsEntry, V1ObjectMeta, V1Pod

    pod = V1Pod(metadata=V1ObjectMeta(name="p", managed_fields=[V1ManagedFieldsEntry(manager="kubectl")]))
    assert trim_managed_fields(pod) is pod and pod.metadata.managed_fields is None
    tombstone = object()
    assert trim_managed_fields(tombstone) is tombstone


def test_new_identity_is_host_and_uuid():
    who = new_identity(random.Random(1))
    host, _, uid = who.rpartition("_")
    assert host and len(uid) == 36 and uid[14] == "4"
    assert new_identity(random.Random(1)) == who


# --- BuildControllers ------------------------------------------------------------------------


def context(*controllers: str) -> ControllerContext:
    cc = KubeControllerManagerConfiguration()
    cc.generic.controllers = list(controllers)
    return ControllerContext(client_builder=None, informer_factory=None, component_config=cc)  # type: ignore[arg-type]


def loop_descriptor(name, built, **kwargs) -> ControllerDescriptor:
    def construct(ctx, controller_name):
        built.append(controller_name)
        return new_controller_loop(lambda stop: None, controller_name)

    return ControllerDescriptor(name, construct, **kwargs)


def test_build_controllers_builds_enabled_ones_in_name_order():
    built: list[str] = []
    descriptors = {n: loop_descriptor(n, built) for n in ("c-controller", "a-controller", "b-controller")}
    descriptors["d-controller"] = loop_descriptor("d-controller", built, disabled_by_default=True)
    descriptors["e-controller"] = loop_descriptor("e-controller", built, special_handling=True)
    descriptors["f-controller"] = ControllerDescriptor("f-controller", lambda ctx, n: None)
    controllers = build_controllers(context("*", "-b-controller"), descriptors)
    assert [c.name() for c in controllers] == ["a-controller", "c-controller"] == built


def test_build_controllers_builds_the_service_account_token_controller_first():
    built: list[str] = []
    name = names.SERVICE_ACCOUNT_TOKEN_CONTROLLER
    descriptors = {"a-controller": loop_descriptor("a-controller", built),
                   name: loop_descriptor(name, built, special_handling=True)}
    assert [c.name() for c in build_controllers(context("*"), descriptors)] == [name, "a-controller"]


def test_build_controllers_stops_at_the_first_error():
    def fail(ctx, name):
        raise ValueError("boom")

    built: list[str] = []
    descriptors = {"a-controller": ControllerDescriptor("a-controller", fail),
                   "b-controller": loop_descriptor("b-controller", built)}
    with pytest.raises(ValueError, match="boom"):
        build_controllers(context("*"), descriptors)
    assert built == []


def test_star_skips_controllers_that_are_not_ported(no_ported_controllers, caplog):
    """`*` with the real registry: nothing minikcm does not port is started, and one line says what was skipped."""
    caplog.set_level(logging.INFO)
    ctx = context("*")
    ctx.component_config.garbage_collector_controller.enable_garbage_collector = True
    assert build_controllers(ctx, new_controller_descriptors()) == []
    # Only this thread's records: a controller manager left running by an earlier test (threads end
    # late under load) logs the same line, and caplog hears every thread.
    (line,) = [r.getMessage() for r in caplog.records
               if "minikcm does not port" in r.getMessage() and r.thread == threading.get_ident()]
    skipped = re.split(r"[:,]\s*", line)
    for name in ("job-controller", "namespace-controller"):
        assert name in skipped
    for name in ("deployment-controller", "garbage-collector-controller"):  # ported: not in the list
        assert name not in skipped
    assert "bootstrap-signer-controller" not in skipped  # off by default: never asked for


def test_a_controller_named_explicitly_must_be_buildable():
    with pytest.raises(NotPortedError, match="controller 'job-controller' is not ported by minikcm"):
        build_controllers(context("job-controller"), new_controller_descriptors())


def test_no_cloud_provider_controller_started():
    """Port of TestNoCloudProviderControllerStarted (controllermanager_test.go)."""
    descriptors = {}
    for name, d in new_controller_descriptors().items():
        if d.is_cloud_provider_controller():
            d.constructor = lambda ctx, n: pytest.fail(f"controller should not be started: {n}")
            descriptors[name] = d
    assert len(descriptors) == 3
    assert build_controllers(context("*"), descriptors) == []


@pytest.mark.parametrize("enabled, expect_call", [
    pytest.param(True, True, id="standalone taint-eviction-controller runs when SeparateTaintEvictionController is on"),
    pytest.param(False, False, id="standalone taint-eviction-controller does not run when the gate is off"),
])
def test_taint_eviction_controller_gating(monkeypatch, enabled, expect_call):
    """Port of TestTaintEvictionControllerGating (controllermanager_test.go).

    The gate is GA and locked in 1.36; Go emulates 1.33, where it was an
    unlocked beta gate, and so do we by putting that spec in place for the test.
    """
    gate = features.SEPARATE_TAINT_EVICTION_CONTROLLER
    monkeypatch.setitem(features.DEFAULT_FEATURE_GATE.known, gate, features.FeatureSpec(True, features.BETA))
    built: list[str] = []
    d = new_controller_descriptors()[names.TAINT_EVICTION_CONTROLLER]
    d.constructor = loop_descriptor(names.TAINT_EVICTION_CONTROLLER, built).constructor
    with features.set_feature_gate_during_test(features.DEFAULT_FEATURE_GATE, gate, enabled):
        controllers = build_controllers(context(names.TAINT_EVICTION_CONTROLLER), {d.name(): d})
    assert (built == [names.TAINT_EVICTION_CONTROLLER]) is expect_call
    assert len(controllers) == (1 if expect_call else 0)


# --- RunControllers (threaded) ---------------------------------------------------------------


@pytest.mark.threaded
@pytest.mark.parametrize("wait_on_test_stop, shutdown_timeout, expected_clean", [
    pytest.param(False, 10.0, True, id="clean shutdown"),
    pytest.param(True, 0.05, False, id="shutdown timeout"),
])
def test_run_controllers(wait_on_test_stop, shutdown_timeout, expected_clean):
    """Port of TestRunControllers (controllermanager_test.go): real threads, a stop set from the start."""
    test_stop = threading.Event()  # lets the stuck controller finish after the test
    stop = threading.Event()
    stop.set()

    def run_fn(s):
        (test_stop if wait_on_test_stop else s).wait()

    ctx = context()
    ctx.clock = RealClock()
    try:
        clean = run_controllers(ctx, [new_controller_loop(run_fn, "controller-A")], 0, shutdown_timeout, stop)
    finally:
        test_stop.set()
    assert clean is expected_clean


@pytest.mark.threaded
def test_run_without_leader_election_runs_controllers_until_stop():
    """Run's no-leader-election path, threaded: the controllers run at once and end with `stop`."""
    c = completed(controllers=["*"])
    log_clock = RealClock()
    controller_box: list[TickingController] = []

    def new_descriptors():
        def construct(ctx, name):
            controller_box.append(TickingController(name, "solo", log_clock, None))
            return controller_box[-1]

        return {FAKE_CONTROLLER: ControllerDescriptor(FAKE_CONTROLLER, construct)}

    stop = threading.Event()
    runner = threading.Thread(target=run, args=(c, stop), kwargs={"new_descriptors": new_descriptors}, daemon=True)
    runner.start()
    deadline = time.monotonic() + 5
    while not (controller_box and controller_box[0].ran_threaded) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert controller_box and controller_box[0].ran_threaded
    stop.set()
    runner.join(5)
    assert not runner.is_alive()


@pytest.mark.threaded
def test_threaded_failover_between_two_processes():
    """Two threaded processes with short real timings: one leads; cancel it and the other takes over.

    kube-controller-manager does not release its Lease, so b waits out the 2 s lease.
    """
    server = APIServer(rng=random.Random(1))
    running: dict[str, threading.Event] = {"a": threading.Event(), "b": threading.Event()}

    def descriptors_for(who):
        def new_descriptors():
            def construct(ctx, name):
                def run_fn(stop):
                    running[who].set()
                    stop.wait()
                    running[who].clear()
                return new_controller_loop(run_fn, name)
            return {FAKE_CONTROLLER: ControllerDescriptor(FAKE_CONTROLLER, construct)}
        return new_descriptors

    # Whole seconds: the Lease stores leaseDurationSeconds as an integer (Go truncates too).
    flags = ("--leader-elect-lease-duration=2s", "--leader-elect-renew-deadline=1500ms",
             "--leader-elect-retry-period=200ms")
    stops = {who: threading.Event() for who in running}
    threads = {}
    for who in ("a", "b"):
        c = new_config(InProcessClientset(server), None, random.Random(len(who)), *flags)
        c.event_broadcaster = None  # no broadcaster thread for this test
        threads[who] = threading.Thread(target=run, args=(c, stops[who]), daemon=True,
                                        kwargs={"identity": who, "new_descriptors": descriptors_for(who)})
        threads[who].start()
        if who == "a":
            assert running["a"].wait(5)
    time.sleep(0.3)
    assert not running["b"].is_set()
    stops["a"].set()
    threads["a"].join(5)
    assert not threads["a"].is_alive()
    deadline = time.monotonic() + 5  # Go too returns from Run before the leading goroutine has finished
    while running["a"].is_set() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not running["a"].is_set()
    assert running["b"].wait(10)
    stops["b"].set()
    threads["b"].join(5)


def test_ticking_descriptors_helper_builds_the_fake_controller():
    log = Cluster().log
    d = ticking_descriptors("x", RealClock(), log)()[FAKE_CONTROLLER]
    assert isinstance(d.build_controller(context("*")), TickingController)
