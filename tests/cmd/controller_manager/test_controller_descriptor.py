"""Tests for minikcm.cmd.controller_manager.controller_descriptor: the registry and the Controller helpers.

Ports of the registry tests of app/controllermanager_test.go. The registry
functions themselves (new_controller_descriptors, known_controllers, ...) live
in controllermanager.py; they are tested here beside the descriptors.
"""

from __future__ import annotations

import re
import threading

import pytest

from minikcm.features import ALPHA, DEFAULT_FEATURE_GATE, FeatureSpec
from minikcm.cmd.controller_manager import apps, names
from minikcm.cmd.controller_manager.config import KubeControllerManagerConfiguration
from minikcm.cmd.controller_manager.controller_descriptor import (
    PORTED_CONTROLLERS,
    ControllerDescriptor,
    NotPortedError,
    concurrent_run,
    new_controller_loop,
)
from minikcm.cmd.controller_manager.controllermanager import (
    ControllerContext,
    controller_aliases,
    controllers_disabled_by_default,
    known_controllers,
    new_controller_descriptors,
)
from minikcm.driver import Step

DECLARED = {v for k, v in vars(names).items() if k.isupper() and isinstance(v, str)}


def context(controllers=("*",)) -> ControllerContext:
    cc = KubeControllerManagerConfiguration()
    cc.generic.controllers = list(controllers)
    return ControllerContext(client_builder=None, informer_factory=None, component_config=cc)  # type: ignore[arg-type]


def test_controller_names_consistency():
    """Port of TestControllerNamesConsistency (controllermanager_test.go)."""
    for name in known_controllers():
        assert re.fullmatch(r"[a-z]([-a-z]*[a-z])?", name), name
        assert name.endswith("-controller"), name


def test_controller_names_declaration():
    """Port of TestControllerNamesDeclaration: every registered name is a names.py constant, and all 50 are."""
    assert set(known_controllers()) == DECLARED
    assert known_controllers() == sorted(known_controllers())


def test_new_controller_descriptors_should_not_panic():
    """Port of TestNewControllerDescriptorsShouldNotPanic."""
    assert len(new_controller_descriptors()) == 50


def descriptor_gates() -> list[str]:
    """Every gate some descriptor requires."""
    return sorted({g for d in new_controller_descriptors().values() for g in d.get_required_feature_gates()})


def force_gates(monkeypatch, value: bool) -> None:
    """Set every descriptor gate for one test, locked ones too.

    Go does this with an emulation version from before the locks; our gate has
    no versions, so the test writes the explicit values directly.
    """
    for gate in descriptor_gates():
        monkeypatch.setitem(DEFAULT_FEATURE_GATE.enabled_overrides, gate, value)


def test_every_descriptor_gate_is_known_to_minikcm_features():
    for gate in descriptor_gates():
        DEFAULT_FEATURE_GATE.enabled(gate)  # raises KeyError for a gate minikcm.features lacks


def test_new_controller_descriptors_always_returns_descriptors_for_all_controllers(monkeypatch):
    """Port of TestNewControllerDescriptorsAlwaysReturnsDescriptorsForAllControllers: gates never hide names."""
    force_gates(monkeypatch, False)
    without = known_controllers()
    force_gates(monkeypatch, True)
    assert known_controllers() == without


ALIAS_CASES = [
    pytest.param("deployment", "deployment-controller", id="deployment"),
    pytest.param("replicaset", "replicaset-controller", id="replicaset"),
    pytest.param("statefulset", "statefulset-controller", id="statefulset"),
    pytest.param("garbagecollector", "garbage-collector-controller", id="garbagecollector"),
    pytest.param("daemonset", "daemonset-controller", id="daemonset"),
    pytest.param("job", "job-controller", id="job"),
    pytest.param("podgc", "pod-garbage-collector-controller", id="podgc"),
    pytest.param("tokencleaner", "token-cleaner-controller", id="tokencleaner"),
    pytest.param("serviceaccount-token", "serviceaccount-token-controller", id="serviceaccount-token"),
    pytest.param("service", "service-lb-controller", id="cloud-service"),
    pytest.param("resource-claim-controller", "resourceclaim-controller", id="old-resourceclaim-name"),
]


@pytest.mark.parametrize("alias, canonical", ALIAS_CASES)
def test_aliases_resolve(alias, canonical):
    assert controller_aliases()[alias] == canonical


def test_every_alias_names_a_known_controller_and_no_alias_is_a_name():
    aliases = controller_aliases()
    assert set(aliases.values()) <= set(known_controllers())
    assert not set(aliases) & set(known_controllers())
    assert len(aliases) == 42


def test_controllers_disabled_by_default():
    assert controllers_disabled_by_default() == [
        "bootstrap-signer-controller", "selinux-warning-controller", "token-cleaner-controller"]


def test_ported_controllers_are_registered():
    assert set(PORTED_CONTROLLERS) <= set(known_controllers())
    assert list(PORTED_CONTROLLERS) == sorted(PORTED_CONTROLLERS)


def _descriptor(name, aliases=()):
    return ControllerDescriptor(name, lambda ctx, n: None, aliases=list(aliases))


REGISTRATION_ERROR_CASES = [
    pytest.param(_descriptor("deployment-controller"), 'controller name "deployment-controller" was registered twice',
                 id="duplicate-name"),
    pytest.param(_descriptor("x-controller", ["deployment"]), 'controller "deployment-controller" has a duplicate alias',
                 id="duplicate-alias"),
    pytest.param(_descriptor("x-controller", ["job-controller"]), 'alias "job-controller" conflicts with a controller name',
                 id="alias-is-a-name"),
    pytest.param(ControllerDescriptor("x-controller", None), 'controller "x-controller" does not have a constructor',
                 id="no-constructor"),
    pytest.param(ControllerDescriptor("", lambda ctx, n: None), "received controller without a name", id="no-name"),
    pytest.param(None, "received nil controller for a registration", id="nil"),
]


@pytest.mark.parametrize("bad, message", REGISTRATION_ERROR_CASES)
def test_bad_registrations_are_refused(monkeypatch, bad, message):
    """The checks of NewControllerDescriptors' register (Go panics; we raise)."""
    # The daemonset descriptor registers before deployment's, so its slot tests both orders.
    monkeypatch.setattr(apps, "new_daemon_set_controller_descriptor", lambda: bad)
    with pytest.raises(RuntimeError, match=re.escape(message)):
        new_controller_descriptors()


NOT_PORTED_EXEMPT = set(PORTED_CONTROLLERS) | {
    names.SERVICE_LB_CONTROLLER, names.NODE_ROUTE_CONTROLLER, names.CLOUD_NODE_LIFECYCLE_CONTROLLER,
    names.SERVICE_ACCOUNT_TOKEN_CONTROLLER}


@pytest.mark.parametrize("name", sorted(DECLARED - NOT_PORTED_EXEMPT))
def test_not_ported_controllers_refuse_clearly(monkeypatch, name):
    force_gates(monkeypatch, True)
    descriptor = new_controller_descriptors()[name]
    with pytest.raises(NotPortedError) as err:
        descriptor.build_controller(context())
    assert str(err.value) == (f"controller {name!r} is not ported by minikcm; ported: deployment-controller, "
                              "garbage-collector-controller, replicaset-controller, statefulset-controller")
    assert err.value.controller_name == name


def test_build_controller_skips_a_gated_off_controller(monkeypatch):
    """Port of BuildController's gate check: a gate off means None, and the constructor is not called."""
    calls = []
    descriptor = ControllerDescriptor("gated-controller", lambda ctx, n: calls.append(n),
                                      required_feature_gates=["SeparateTaintEvictionController", "SomeAlphaGate"])
    monkeypatch.setitem(DEFAULT_FEATURE_GATE.known, "SomeAlphaGate", FeatureSpec(False, ALPHA))
    assert descriptor.build_controller(context()) is None  # an alpha gate is off by default
    assert calls == []
    monkeypatch.setitem(DEFAULT_FEATURE_GATE.enabled_overrides, "SomeAlphaGate", True)
    descriptor.build_controller(context())
    assert calls == ["gated-controller"]


def test_build_controller_refuses_a_gate_minikcm_does_not_know():
    """Go's DefaultFeatureGate.Enabled panics on an unregistered gate; we raise KeyError."""
    descriptor = ControllerDescriptor("typo-controller", lambda ctx, n: None, required_feature_gates=["NoSuchGate"])
    with pytest.raises(KeyError, match="NoSuchGate"):
        descriptor.build_controller(context())


def test_build_controller_never_builds_cloud_provider_controllers():
    descriptor = new_controller_descriptors()[names.SERVICE_LB_CONTROLLER]
    descriptor.constructor = lambda ctx, n: pytest.fail("cloud provider controllers must not be built")
    assert descriptor.is_cloud_provider_controller()
    assert descriptor.build_controller(context()) is None


def test_service_account_token_controller_needs_special_handling_and_builds_nothing():
    descriptor = new_controller_descriptors()[names.SERVICE_ACCOUNT_TOKEN_CONTROLLER]
    assert descriptor.requires_special_handling()
    assert descriptor.build_controller(context()) is None


def test_accessors_return_copies():
    descriptor = new_controller_descriptors()[names.DEPLOYMENT_CONTROLLER]
    descriptor.get_aliases().append("x")
    descriptor.get_required_feature_gates().append("y")
    assert descriptor.get_aliases() == ["deployment"] and descriptor.get_required_feature_gates() == []
    assert descriptor.name() == "deployment-controller" and not descriptor.is_disabled_by_default()


def test_new_controller_loop():
    """Port of controllerLoop: a named run function; minikcm adds optional steps."""
    seen = []
    stop = threading.Event()
    loop = new_controller_loop(seen.append, "loop-controller")
    assert loop.name() == "loop-controller"
    loop.run(stop)
    assert seen == [stop]
    with pytest.raises(RuntimeError, match="'loop-controller' has no steps"):
        loop.steps(stop)
    step = Step("work", lambda: True, lambda: None)
    assert new_controller_loop(seen.append, "x", lambda s: [step]).steps(stop) == [step]


def test_concurrent_run_runs_every_function_and_waits():
    """Port of concurrentRun: every function gets the stop event; the result returns after all of them."""
    stop = threading.Event()
    seen: list[str] = []
    lock = threading.Lock()

    def part(name):
        def run(s):
            assert s is stop
            with lock:
                seen.append(name)
        return run

    concurrent_run(part("a"), part("b"), part("c"))(stop)
    assert sorted(seen) == ["a", "b", "c"]
