"""Tests for minikcm.cmd.options.options: defaults, every flag, validation, ApplyTo and Config.

Ports of options_test.go (kube-controller-manager), restricted to the flags
minikcm keeps. The generic options' tests are in test_generic.py.
"""

from __future__ import annotations

import pytest

from minikcm.apimachinery.field import Aggregate
from minikcm.apimachinery.schema import GroupResource
from minikcm.client.fake import new_simple_clientset
from minikcm.clock import EPOCH, FakeClock
from minikcm.cmd.controller_manager import (
    controller_aliases,
    controllers_disabled_by_default,
    known_controllers,
)
from minikcm.cmd.controller_manager.config import (
    Config,
    LeaderElectionConfiguration,
)
from minikcm.cmd.options import new_kube_controller_manager_options
from minikcm.cmd.options.deploymentcontroller import DeploymentControllerOptions
from minikcm.cmd.options.garbagecollectorcontroller import GarbageCollectorControllerOptions
from minikcm.cmd.options.options import build_client
from minikcm.cmd.options.replicasetcontroller import ReplicaSetControllerOptions
from minikcm.cmd.options.statefulsetcontroller import StatefulSetControllerOptions


def parsed(*args: str):
    """Options after parsing `args` with the flags of the real registry."""
    s = new_kube_controller_manager_options()
    s.flags(known_controllers(), controllers_disabled_by_default(), controller_aliases()).parse_args(list(args))
    return s


def validate(s) -> list[str]:
    return [str(e) for e in s.validate(known_controllers(), controllers_disabled_by_default(), controller_aliases())]


# --- defaults -------------------------------------------------------------------------


def test_defaults():
    """The defaults of NewKubeControllerManagerOptions for every flag we keep."""
    s = new_kube_controller_manager_options()
    g = s.generic.config
    assert g.client_connection.kubeconfig == ""
    assert s.master == ""
    assert g.min_resync_period == 12 * 3600
    assert g.controller_start_interval == 0
    assert g.controllers == ["*"]
    le = g.leader_election
    assert (le.leader_elect, le.lease_duration, le.renew_deadline, le.retry_period) == (True, 15, 10, 2)
    assert (le.resource_lock, le.resource_name, le.resource_namespace) == ("leases", "kube-controller-manager",
                                                                         "kube-system")
    assert s.deployment_controller.config.concurrent_deployment_syncs == 5
    assert s.replica_set_controller.config.concurrent_rs_syncs == 5
    assert s.stateful_set_controller.config.concurrent_stateful_set_syncs == 5
    gc = s.garbage_collector_controller.config
    assert (gc.concurrent_gc_syncs, gc.enable_garbage_collector) == (20, True)
    assert gc.gc_ignored_resources == [GroupResource("", "events"), GroupResource("events.k8s.io", "events")]
    assert validate(s) == []


# --- every flag -----------------------------------------------------------------------

ARGS = [
    "--kubeconfig=/kubeconfig",
    "--master=192.168.4.20",
    "--leader-elect=false",
    "--leader-elect-lease-duration=30s",
    "--leader-elect-renew-deadline=15s",
    "--leader-elect-retry-period=5s",
    "--leader-elect-resource-lock=configmap",
    "--leader-elect-resource-name=my-kcm",
    "--leader-elect-resource-namespace=my-ns",
    "--controllers=foo,bar",
    "--concurrent-deployment-syncs=10",
    "--concurrent-replicaset-syncs=10",
    "--concurrent-statefulset-syncs=15",
    "--concurrent-gc-syncs=30",
    "--min-resync-period=8h",
    "--controller-start-interval=2m",
    "--enable-garbage-collector=false",
]


def test_add_flags():
    """Port of TestAddFlags (options_test.go): every flag lands in its field."""
    s = parsed(*ARGS)
    g = s.generic.config
    assert g.client_connection.kubeconfig == "/kubeconfig"
    assert s.master == "192.168.4.20"
    assert g.leader_election == LeaderElectionConfiguration(
        leader_elect=False, lease_duration=30, renew_deadline=15, retry_period=5, resource_lock="configmap",
        resource_name="my-kcm", resource_namespace="my-ns")
    assert g.controllers == ["foo", "bar"]
    assert g.min_resync_period == 8 * 3600
    assert g.controller_start_interval == 120
    assert s.deployment_controller.config.concurrent_deployment_syncs == 10
    assert s.replica_set_controller.config.concurrent_rs_syncs == 10
    assert s.stateful_set_controller.config.concurrent_stateful_set_syncs == 15
    assert s.garbage_collector_controller.config.concurrent_gc_syncs == 30
    assert s.garbage_collector_controller.config.enable_garbage_collector is False


FLAG_VALUE_CASES = [
    pytest.param(["--leader-elect"], lambda s: s.generic.config.leader_election.leader_elect, True, id="bool-bare"),
    pytest.param(["--leader-elect=false", "--leader-elect"], lambda s: s.generic.config.leader_election.leader_elect,
                 True, id="bool-last-wins"),
    pytest.param(["--leader-elect", "f"], lambda s: s.generic.config.leader_election.leader_elect, False,
                 id="bool-separate-word"),
    pytest.param(["--leader-elect-lease-duration=1m30s"], lambda s: s.generic.config.leader_election.lease_duration,
                 90.0, id="duration-composite"),
    pytest.param(["--leader-elect-retry-period", "300ms"], lambda s: s.generic.config.leader_election.retry_period,
                 0.3, id="duration-ms"),
    pytest.param(["--min-resync-period=1.5h"], lambda s: s.generic.config.min_resync_period, 5400.0,
                 id="duration-fraction"),
    pytest.param(["--concurrent-gc-syncs=0x10"], lambda s: s.garbage_collector_controller.config.concurrent_gc_syncs,
                 16, id="int32-hex"),
    pytest.param(["--concurrent-gc-syncs=010"], lambda s: s.garbage_collector_controller.config.concurrent_gc_syncs,
                 8, id="int32-leading-zero-is-octal"),
    pytest.param(["--controllers=*,-job", "--controllers", "deployment"], lambda s: s.generic.config.controllers,
                 ["*", "-job", "deployment"], id="string-slice-appends-after-first-use"),
    pytest.param(["--controllers="], lambda s: s.generic.config.controllers, [], id="string-slice-empty"),
    pytest.param(['--controllers="a,b",c'], lambda s: s.generic.config.controllers, ["a,b", "c"],
                 id="string-slice-csv-quotes"),
]


@pytest.mark.parametrize("args, read, want", FLAG_VALUE_CASES)
def test_flag_values(args, read, want):
    assert read(parsed(*args)) == want


BAD_FLAG_CASES = [
    pytest.param("--leader-elect-lease-duration=1x", 'time: unknown unit "x" in duration "1x"', id="unknown-unit"),
    pytest.param("--leader-elect-renew-deadline=10", 'time: missing unit in duration "10"', id="missing-unit"),
    pytest.param("--min-resync-period=", 'time: invalid duration ""', id="empty-duration"),
    pytest.param("--concurrent-deployment-syncs=five", 'strconv.ParseInt: parsing "five": invalid syntax',
                 id="int-syntax"),
    pytest.param("--concurrent-deployment-syncs=3000000000", 'parsing "3000000000": value out of range',
                 id="int32-range"),
    pytest.param("--leader-elect=yes", 'strconv.ParseBool: parsing "yes": invalid syntax', id="bool-syntax"),
]


@pytest.mark.parametrize("arg, message", BAD_FLAG_CASES)
def test_bad_flag_values_are_refused(arg, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        parsed(arg)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_help_shows_defaults_and_every_controller():
    help_text = new_kube_controller_manager_options().flags(
        known_controllers(), controllers_disabled_by_default(), controller_aliases()).format_help()
    for piece in ("(default 15s)", "(default 10s)", "(default 2s)", "(default 12h0m0s)", '(default "leases")',
                  "(default [*])", "(default true)", "(default 20)", "job-controller", "bootstrap-signer-controller"):
        assert piece in help_text


def test_controller_manager_aliases():
    """Port of TestControllerManagerAliases (options_test.go), over minikcm's registry."""
    s = new_kube_controller_manager_options()
    s.generic.config.controllers = ["deployment", "-job", "-cronjob-controller", "podgc", "token-cleaner-controller"]
    assert validate(s) == []
    c = Config()
    s.apply_to(c, known_controllers(), controllers_disabled_by_default(), controller_aliases())
    assert c.component_config.generic.controllers == [
        "deployment-controller", "-job-controller", "-cronjob-controller", "pod-garbage-collector-controller",
        "token-cleaner-controller"]


def test_apply_to_copies_every_section():
    """Port of TestApplyTo (options_test.go): the parsed flags end up in the Config's component config."""
    s = parsed(*ARGS[:2], "--controllers=*,-statefulset", *ARGS[3:9], *ARGS[10:])
    c = Config()
    s.apply_to(c, known_controllers(), controllers_disabled_by_default(), controller_aliases())
    cc = c.component_config
    assert cc.generic.controllers == ["*", "-statefulset-controller"]
    assert cc.generic.client_connection.kubeconfig == "/kubeconfig"
    assert cc.generic.leader_election == s.generic.config.leader_election
    assert cc.generic.leader_election is not s.generic.config.leader_election  # Go copies the struct
    assert (cc.generic.min_resync_period, cc.generic.controller_start_interval) == (8 * 3600, 120)
    assert cc.deployment_controller.concurrent_deployment_syncs == 10
    assert cc.replica_set_controller.concurrent_rs_syncs == 10
    assert cc.stateful_set_controller.concurrent_stateful_set_syncs == 15
    assert (cc.garbage_collector_controller.concurrent_gc_syncs,
            cc.garbage_collector_controller.enable_garbage_collector) == (30, False)


# --- validation -------------------------------------------------------------------------

VALIDATE_CONTROLLERS_OPTIONS_CASES = [
    pytest.param(StatefulSetControllerOptions, "concurrent_stateful_set_syncs", 0,
                 "concurrent-statefulset-syncs must be greater than 0, but got 0",
                 id="StatefulSetControllerOptions ConcurrentStatefulSetSyncs equal 0"),
    pytest.param(DeploymentControllerOptions, "concurrent_deployment_syncs", 0,
                 "concurrent-deployment-syncs must be greater than 0, but got 0", id="deployment-workers-zero"),
    pytest.param(ReplicaSetControllerOptions, "concurrent_rs_syncs", -1,
                 "concurrent-replicaset-syncs must be greater than 0, but got -1", id="replicaset-workers-negative"),
    pytest.param(GarbageCollectorControllerOptions, "concurrent_gc_syncs", 0,
                 "concurrent-gc-syncs must be greater than 0, but got 0", id="gc-workers-zero"),
    pytest.param(StatefulSetControllerOptions, "concurrent_stateful_set_syncs", 15, "", id="StatefulSetControllerOptions"),
    pytest.param(DeploymentControllerOptions, "concurrent_deployment_syncs", 10, "", id="DeploymentControllerOptions"),
    pytest.param(ReplicaSetControllerOptions, "concurrent_rs_syncs", 10, "", id="ReplicaSetControllerOptions"),
    pytest.param(GarbageCollectorControllerOptions, "concurrent_gc_syncs", 30, "",
                 id="GarbageCollectorControllerOptions"),
]


@pytest.mark.parametrize("options_class, attr, value, expected_error", VALIDATE_CONTROLLERS_OPTIONS_CASES)
def test_validate_controllers_options(options_class, attr, value, expected_error):
    """Port of TestValidateControllersOptions (options_test.go), rows for the controllers minikcm keeps."""
    s = new_kube_controller_manager_options()
    sections = {DeploymentControllerOptions: s.deployment_controller, ReplicaSetControllerOptions:
                s.replica_set_controller, StatefulSetControllerOptions: s.stateful_set_controller,
                GarbageCollectorControllerOptions: s.garbage_collector_controller}
    options = sections[options_class]
    setattr(options.config, attr, value)
    errs = [str(e) for e in options.validate()]
    assert errs == ([expected_error] if expected_error else [])


def test_validate_controller_manager_options():
    """Port of TestValidateControllerManagerOptions (options_test.go): one bad section fails the whole."""
    s = new_kube_controller_manager_options()
    s.stateful_set_controller.config.concurrent_stateful_set_syncs = 0
    assert validate(s) == ["concurrent-statefulset-syncs must be greater than 0, but got 0"]


VALIDATE_FLAGS_CASES = [
    pytest.param(["--controllers=foo"], ['"foo" is not in the list of known controllers'], id="unknown-controller"),
    pytest.param(["--controllers=*,-foo,deployment"], ['"foo" is not in the list of known controllers'],
                 id="unknown-disabled-controller"),
    pytest.param(["--controllers=*,-job,deployment,statefulset-controller,garbagecollector"], [],
                 id="names-and-aliases"),
    pytest.param(["--leader-elect-resource-lock=endpoints"], ['resourceLock value must be "leases"'],
                 id="lock-not-leases"),
    pytest.param(["--leader-elect=false", "--leader-elect-resource-lock=endpoints"], [],
                 id="lock-ignored-without-election"),
    pytest.param(["--leader-elect-lease-duration=0s"],
                 ["leaderElection.leaseDuration: Invalid value: 0s: must be greater than zero",
                  "leaderElection.leaseDuration: Invalid value: 10s: must be greater than `RenewDeadline`"],
                 id="lease-zero"),
    pytest.param(["--leader-elect-renew-deadline=-1s"],
                 ["leaderElection.renewDeadline: Invalid value: -1s: must be greater than zero",
                  "leaderElection.renewDeadline: Invalid value: -1s: must be greater than retryPeriod*JitterFactor "
                  "(1.2 x 2s)"],
                 id="renew-negative"),
    pytest.param(["--leader-elect-retry-period=0s"],
                 ["leaderElection.retryPeriod: Invalid value: 0s: must be greater than zero"], id="retry-zero"),
    pytest.param(["--leader-elect-renew-deadline=15s"],
                 ["leaderElection.leaseDuration: Invalid value: 15s: must be greater than `RenewDeadline`"],
                 id="renew-equals-lease"),
    pytest.param(["--leader-elect-retry-period=9s"],
                 ["leaderElection.renewDeadline: Invalid value: 10s: must be greater than retryPeriod*JitterFactor "
                  "(1.2 x 9s)"], id="retry-too-close-to-renew"),
    pytest.param(["--leader-elect=false", "--leader-elect-lease-duration=0s"], [], id="timings-ignored-without-election"),
    pytest.param(["--min-resync-period=0s"], ["min-resync-period must be greater than 0, but got 0s"],
                 id="min-resync-zero"),
    pytest.param(["--controller-start-interval=-1m"], ["controller-start-interval must not be negative, but got -1m0s"],
                 id="start-interval-negative"),
    pytest.param(["--concurrent-deployment-syncs=0", "--concurrent-gc-syncs=0"],
                 ["concurrent-deployment-syncs must be greater than 0, but got 0",
                  "concurrent-gc-syncs must be greater than 0, but got 0"], id="workers-zero"),
]


@pytest.mark.parametrize("args, want", VALIDATE_FLAGS_CASES)
def test_validate_flags(args, want):
    assert validate(parsed(*args)) == want


# --- Config --------------------------------------------------------------------------


def test_config_with_an_injected_client():
    """Config validates, applies the flags, and keeps the client and an event recorder."""
    client = new_simple_clientset()
    s = parsed("--controllers=deployment,-job", "--concurrent-statefulset-syncs=3")
    c = s.config(known_controllers(), controllers_disabled_by_default(), controller_aliases(), client=client,
                 clock=FakeClock(EPOCH, driven=True))
    assert c.client is client
    assert c.component_config.generic.controllers == ["deployment-controller", "-job-controller"]
    assert c.component_config.stateful_set_controller.concurrent_stateful_set_syncs == 3
    assert c.event_broadcaster is not None and c.event_recorder is not None
    assert c.event_recorder.source.component == "kube-controller-manager"


def test_config_refuses_invalid_options_with_every_error():
    s = parsed("--controllers=foo", "--concurrent-gc-syncs=0")
    with pytest.raises(Aggregate) as err:
        s.config(known_controllers(), controllers_disabled_by_default(), controller_aliases(),
                 client=new_simple_clientset())
    assert [str(e) for e in err.value.errors()] == ['"foo" is not in the list of known controllers',
                                                  "concurrent-gc-syncs must be greater than 0, but got 0"]


def test_build_client_needs_a_kubeconfig(tmp_path):
    with pytest.raises(ValueError, match="--kubeconfig is required"):
        build_client("")
    with pytest.raises(ValueError, match="--master is not supported"):
        build_client(str(tmp_path / "kubeconfig"), master="https://10.0.0.1")
    with pytest.raises(ValueError, match="cannot load kubeconfig"):
        build_client(str(tmp_path / "missing-kubeconfig"))
