"""Tests for minikcm.cmd.options.generic (ports of k8s.io/controller-manager options/generic_test.go)."""

from __future__ import annotations

import pytest

from minikcm.apimachinery.field import Aggregate
from minikcm.cmd.controller_manager.config import GenericControllerManagerConfiguration, LeaderElectionConfiguration
from minikcm.cmd.options.generic import GenericControllerManagerConfigurationOptions


ALL_CONTROLLERS = ["red-controller", "green-controller", "blue-controller"]
ALIASES = {"crimson-controller": "red-controller", "pink-controller": "red-controller",
           "ultramarine-controller": "blue-controller"}


def generic(controllers=None, leader_election=None):
    cfg = GenericControllerManagerConfiguration(controllers=list(controllers or []))
    if leader_election is not None:
        cfg.leader_election = leader_election
    return GenericControllerManagerConfigurationOptions(cfg)


VALIDATE_GENERIC_CASES = [
    pytest.param(None, None, generic(["*"]), "", id="no controllers defined"),
    pytest.param(ALL_CONTROLLERS, ALIASES, generic(), "", id="recognizes empty controllers"),
    pytest.param(ALL_CONTROLLERS, None, generic(["blue-controller"]), "", id="recognizes controllers without any aliases"),
    pytest.param(ALL_CONTROLLERS, ALIASES, generic(["*", "-red-controller", "blue-controller"]), "",
                 id="recognizes valid controllers"),
    pytest.param(ALL_CONTROLLERS, ALIASES, generic(["green-controller"]), "", id="recognizes disabled controller"),
    pytest.param(ALL_CONTROLLERS, ALIASES, generic(["ultramarine-controller", "-pink-controller"]), "",
                 id="recognized aliased controller"),
    pytest.param(None, None, generic(["red-controller"]), '"red-controller" is not in the list of known controllers',
                 id="does not recognize controller"),
    pytest.param(ALL_CONTROLLERS, ALIASES, generic(["crimson-controller", "grey-controller"]),
                 '"grey-controller" is not in the list of known controllers',
                 id="does not recognize controller with aliases"),
    pytest.param(ALL_CONTROLLERS, ALIASES,
                 generic(leader_election=LeaderElectionConfiguration(leader_elect=True,
                                                                     resource_lock="configmapsleases")),
                 'resourceLock value must be "leases"', id="leader election accepts only leases"),
]


@pytest.mark.parametrize("all_controllers, aliases, options, expected_error", VALIDATE_GENERIC_CASES)
def test_validate_generic_controller_manager_configuration_options(all_controllers, aliases, options, expected_error):
    """Port of TestValidateGenericControllerManagerConfigurationOptions (options/generic_test.go)."""
    errs = options.validate(all_controllers, ["green-controller"], aliases)
    if not expected_error:
        assert errs == []
    else:
        assert errs and expected_error in str(Aggregate(errs))


APPLY_GENERIC_CASES = [
    pytest.param(None, None, ["*"], ["*"], id="no controllers defined"),
    pytest.param(ALL_CONTROLLERS, None, ["-blue-controller"], ["-blue-controller"], id="empty aliases"),
    pytest.param(ALL_CONTROLLERS, ALIASES, ["*", "green-controller", "-red-controller", "blue-controller"],
                 ["*", "green-controller", "-red-controller", "blue-controller"], id="applies valid controllers"),
    pytest.param(ALL_CONTROLLERS, ALIASES,
                 ["green-controller", "-crimson-controller", "ultramarine-controller", "-pink-controller"],
                 ["green-controller", "-red-controller", "blue-controller", "-red-controller"], id="resolves aliases"),
]


@pytest.mark.parametrize("all_controllers, aliases, controllers, expected", APPLY_GENERIC_CASES)
def test_apply_to_generic_controller_manager_configuration_options(all_controllers, aliases, controllers, expected):
    """Port of TestApplyToGenericControllerManagerConfigurationOptions (options/generic_test.go)."""
    cfg = GenericControllerManagerConfiguration()
    generic(controllers).apply_to(cfg, all_controllers, ["green-controller"], aliases)
    assert cfg.controllers == expected
