"""Tests for minikcm.features (component-base featuregate, in small; the 1.36 defaults)."""

from __future__ import annotations

import pytest

from minikcm import features
from minikcm.features import FeatureGate, FeatureSpec, set_feature_gate_during_test

DEFAULTS_CASES = [
    pytest.param(features.IN_ORDER_INFORMERS, True, id="InOrderInformers-GA"),
    pytest.param(features.DEPLOYMENT_REPLICA_SET_TERMINATING_REPLICAS, True, id="terminating-replicas-beta-on"),
    pytest.param(features.STALE_CONTROLLER_CONSISTENCY_REPLICA_SET, True, id="stale-consistency-rs-beta-on"),
    pytest.param(features.STALE_CONTROLLER_CONSISTENCY_STATEFUL_SET, True, id="stale-consistency-sts-beta-on"),
    pytest.param(features.MAX_UNAVAILABLE_STATEFUL_SET, False, id="max-unavailable-sts-beta-off"),
    pytest.param(features.COORDINATED_LEADER_ELECTION, False, id="coordinated-le-off"),
    pytest.param(features.LOGARITHMIC_SCALE_DOWN, True, id="log-scale-down-GA"),
]


@pytest.mark.parametrize("name, enabled", DEFAULTS_CASES)
def test_default_gate_has_the_1_36_defaults(name, enabled):
    assert features.DEFAULT_FEATURE_GATE.enabled(name) is enabled


def test_set_and_reset():
    gate = FeatureGate({"A": FeatureSpec(False, features.ALPHA), "B": FeatureSpec(True)})
    gate.set_from_map({"A": True, "B": False})
    assert (gate.enabled("A"), gate.enabled("B")) == (True, False)
    gate.reset()
    assert (gate.enabled("A"), gate.enabled("B")) == (False, True)


@pytest.mark.parametrize("changes, message", [
    pytest.param({"Nope": True}, "unrecognized feature gate: Nope", id="unknown"),
    pytest.param({"Locked": False}, "cannot set feature gate Locked to False, feature is locked to True",
                 id="locked"),
])
def test_set_from_map_refuses(changes, message):
    gate = FeatureGate({"Locked": FeatureSpec(True, features.GA, lock_to_default=True), "A": FeatureSpec(False)})
    with pytest.raises(ValueError, match=message):
        gate.set_from_map({"A": True, **changes})
    assert gate.enabled("A") is False  # nothing changed


def test_enabled_unknown_raises():
    with pytest.raises(KeyError):
        FeatureGate().enabled("Missing")


def test_add_conflicting_spec_raises():
    gate = FeatureGate({"A": FeatureSpec(False)})
    gate.add({"A": FeatureSpec(False), "B": FeatureSpec(True)})
    with pytest.raises(ValueError):
        gate.add({"A": FeatureSpec(True)})
    assert gate.known_features() == ["A=true|false (BETA - default=false)", "B=true|false (BETA - default=true)"]


def test_set_feature_gate_during_test_restores():
    gate = FeatureGate({"A": FeatureSpec(False), "B": FeatureSpec(False)})
    gate.set("B", True)
    with set_feature_gate_during_test(gate, "A", True), set_feature_gate_during_test(gate, "B", False):
        assert (gate.enabled("A"), gate.enabled("B")) == (True, False)
    assert (gate.enabled("A"), gate.enabled("B")) == (False, True)
    assert gate.enabled_overrides == {"B": True}
