"""Port of cmd/kube-controller-manager/app/options/options.go, with the per-controller option files and the generic options folded in.

The flags of `minikcm controller-manager`, with kube-controller-manager's
names and defaults. `new_kube_controller_manager_options` starts from the
default component configuration; `flags` adds the flags to an argparse
parser, bound to these objects the way pflag binds flags to struct fields;
`validate` lists what is wrong; `config` turns valid options into the
`Config` that `minikcm.cmd.controller_manager.run` takes.

Folded in here, each under its own heading: options/deploymentcontroller.go,
replicasetcontroller.go, statefulsetcontroller.go, garbagecollectorcontroller.go;
k8s.io/controller-manager v0.36.3 options/generic.go; from
k8s.io/component-base v0.36.3, config/options/leaderelectionconfig.go
(BindLeaderElectionFlags), config/validation/validation.go
(ValidateLeaderElectionConfiguration) and the recommended defaults of
config/v1alpha1/defaults.go.

Read at: options.go and options_test.go as stored at k/k commits
015da00285da38f312065b6445735c92081f610d and 0105c86e2f666f2b5f4eb37cb749c35264f60849
(older copies; the 1.36 shape of Config, Validate and Flags with controller
aliases follows their callers in controllermanager.go at
2e0908106e4420a601e50d6edfd41475de87a3e1); statefulsetcontroller.go at
d05e9e1896c57bdcea49a173656485ea684fe2c2; deploymentcontroller.go at
3e78459ff200c531859e47678a0ac5a635654838. Upstream:
https://github.com/kubernetes/kubernetes/blob/v1.36.3/cmd/kube-controller-manager/app/options/options.go

Start reading at: new_kube_controller_manager_options, then
KubeControllerManagerOptions.validate and KubeControllerManagerOptions.config.

Not ported: every flag outside the ones below (serving, authentication,
authorization, metrics, logs, cloud provider, feature gates, the options of
controllers minikcm does not port, --deployment-controller-sync-period, the
client QPS/burst/content type, profiling, leader migration).
Differs from Go:
- Flags live on an argparse parser. A bool flag given without a value is
  true (`--leader-elect`); `--leader-elect=false` and `--leader-elect false`
  both turn it off (pflag would not take the separate word).
- validate() adds checks upstream leaves to later failures: the leader
  election timings are checked as component-base's validation and
  leaderelection.new_leader_elector do (upstream kube-controller-manager only
  fails when the election starts), --min-resync-period must be positive,
  --controller-start-interval must not be negative, and all four
  --concurrent-*-syncs must be at least 1 (upstream checks this for
  statefulsets only; its message is used for all four).
- config() builds the clientset from the kubeconfig with minikcm.client.rest,
  or takes the `client` given (in-process runs and tests).
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import random
from typing import TYPE_CHECKING, Any

from minikcm.apimachinery.field import Aggregate
from minikcm.apimachinery.schema import GroupResource
from minikcm.clock import Clock
from minikcm.cmd.controller_manager.config import (
    Config,
    DeploymentControllerConfiguration,
    GarbageCollectorControllerConfiguration,
    GenericControllerManagerConfiguration,
    KubeControllerManagerConfiguration,
    LeaderElectionConfiguration,
    ReplicaSetControllerConfiguration,
    StatefulSetControllerConfiguration,
)
from minikcm.cmd.options.duration import format_duration, parse_duration
from minikcm.tools.leaderelection.leaderelection import JITTER_FACTOR

if TYPE_CHECKING:
    from minikcm.client.interface import Interface
    from minikcm.tools.record import EventBroadcaster, EventRecorder

KUBE_CONTROLLER_MANAGER_USER_AGENT = "kube-controller-manager"
"""Port of KubeControllerManagerUserAgent: the component name on events and requests."""


# --- flag binding (no Go twin: pflag's XxxVar over argparse) ------------------------------


class FlagVar(argparse.Action):
    """No upstream twin: pflag's XxxVar. Parsing the flag writes its value into `target.<attr>`."""

    def __init__(self, option_strings: list[str], dest: str, target: Any = None, attr: str = "",
                 **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.target = target
        self.attr = attr

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        setattr(self.target, self.attr, values)


class StringSliceVar(FlagVar):
    """No upstream twin: pflag's StringSliceVar: comma-separated values; the first use replaces
    the default, later uses append."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.changed = False  # Go: stringSliceValue.changed

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        text = str(values)
        items = next(csv.reader([text])) if text else []  # Go: readAsCSV
        if not self.changed:
            setattr(self.target, self.attr, items)
            self.changed = True
        else:
            setattr(self.target, self.attr, [*getattr(self.target, self.attr), *items])


def parse_bool(s: str) -> bool:
    """Port of strconv.ParseBool: 1 t T TRUE true True, 0 f F FALSE false False."""
    if s in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if s in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    raise argparse.ArgumentTypeError(f'invalid argument "{s}": strconv.ParseBool: parsing "{s}": invalid syntax')


def parse_int32(s: str) -> int:
    """Port of pflag's int32 parsing (strconv.ParseInt(s, 0, 32)): decimal, 0x.., 0o.., 0b.., 0.. (octal)."""
    body = s[1:] if s[:1] in ("+", "-") else s
    bases = {"0x": 16, "0X": 16, "0o": 8, "0O": 8, "0b": 2, "0B": 2}
    try:
        if "_" in body or not body.isascii():
            raise ValueError(s)  # Python's int() would take these; Go's ParseInt does not
        if body[:2] in bases:
            value = int(body[2:], bases[body[:2]])
        elif len(body) > 1 and body[0] == "0":
            value = int(body[1:], 8)
        else:
            value = int(body, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f'invalid argument "{s}": strconv.ParseInt: parsing "{s}": invalid syntax') from None
    value = -value if s.startswith("-") else value
    if not -(1 << 31) <= value < (1 << 31):
        raise argparse.ArgumentTypeError(
            f'invalid argument "{s}": strconv.ParseInt: parsing "{s}": value out of range')
    return value


def parse_duration_flag(s: str) -> float:
    """pflag's DurationVar: Go's time.ParseDuration, in float seconds."""
    try:
        return parse_duration(s)
    except ValueError as err:
        raise argparse.ArgumentTypeError(f'invalid argument "{s}": {err}') from None


def _bool_flag(group: Any, name: str, target: Any, attr: str, help_text: str) -> None:
    default = getattr(target, attr)
    suffix = " (default true)" if default else ""
    group.add_argument(name, action=FlagVar, target=target, attr=attr, nargs="?", const=True, type=parse_bool,
                       metavar="true|false", default=argparse.SUPPRESS, help=help_text + suffix)


def _duration_flag(group: Any, name: str, target: Any, attr: str, help_text: str) -> None:
    default = format_duration(getattr(target, attr))
    group.add_argument(name, action=FlagVar, target=target, attr=attr, type=parse_duration_flag,
                       metavar="duration", default=argparse.SUPPRESS, help=f"{help_text} (default {default})")


def _int32_flag(group: Any, name: str, target: Any, attr: str, help_text: str) -> None:
    default = getattr(target, attr)
    group.add_argument(name, action=FlagVar, target=target, attr=attr, type=parse_int32, metavar="int32",
                       default=argparse.SUPPRESS, help=f"{help_text} (default {default})")


def _string_flag(group: Any, name: str, target: Any, attr: str, help_text: str) -> None:
    default = getattr(target, attr)
    suffix = f' (default "{default}")' if default else ""
    group.add_argument(name, action=FlagVar, target=target, attr=attr, metavar="string",
                       default=argparse.SUPPRESS, help=help_text + suffix)


# --- k8s.io/component-base: leader election flags, validation and defaults -------------------


def bind_leader_election_flags(le: LeaderElectionConfiguration, group: Any) -> None:
    """Port of BindLeaderElectionFlags (component-base config/options/leaderelectionconfig.go)."""
    _bool_flag(group, "--leader-elect", le, "leader_elect",
               "Campaign for the leader lease and run the controllers only while holding it; "
               "turn this on whenever more than one copy runs.")
    _duration_flag(group, "--leader-elect-lease-duration", le, "lease_duration",
                   "How long a follower waits, after it last saw the lease renewed, before it takes over; "
                   "the longest a stuck leader can hold the lease.")
    _duration_flag(group, "--leader-elect-renew-deadline", le, "renew_deadline",
                   "How long the leader keeps retrying a failed renewal before it stops leading; "
                   "must be shorter than the lease duration.")
    _duration_flag(group, "--leader-elect-retry-period", le, "retry_period",
                   "Time between attempts to acquire or renew the lease.")
    _string_flag(group, "--leader-elect-resource-lock", le, "resource_lock",
                 "Kind of object that holds the lock; only 'leases' is supported.")
    _string_flag(group, "--leader-elect-resource-name", le, "resource_name", "Name of the lock object.")
    _string_flag(group, "--leader-elect-resource-namespace", le, "resource_namespace",
                 "Namespace of the lock object.")


def validate_leader_election_configuration(cc: LeaderElectionConfiguration, fld_path: str) -> list[ValueError]:
    """Port of ValidateLeaderElectionConfiguration (component-base config/validation/validation.go).

    Nothing is checked when leader election is off. Messages are field
    errors as Go prints them (`leaderElection.leaseDuration: Invalid value:
    0s: must be greater than zero`). minikcm adds the rule
    leaderelection.new_leader_elector enforces at start-up:
    renew_deadline > 1.2 x retry_period (the largest jittered retry).
    """
    errs: list[ValueError] = []
    if not cc.leader_elect:
        return errs

    def invalid(child: str, value: float, detail: str) -> ValueError:
        return ValueError(f"{fld_path}.{child}: Invalid value: {format_duration(value)}: {detail}")

    def required(child: str) -> ValueError:
        return ValueError(f"{fld_path}.{child}: Required value")

    if cc.lease_duration <= 0:
        errs.append(invalid("leaseDuration", cc.lease_duration, "must be greater than zero"))
    if cc.renew_deadline <= 0:
        errs.append(invalid("renewDeadline", cc.renew_deadline, "must be greater than zero"))
    if cc.retry_period <= 0:
        errs.append(invalid("retryPeriod", cc.retry_period, "must be greater than zero"))
    if cc.lease_duration <= cc.renew_deadline:
        # Go prints the renew deadline here, as the value that is too large.
        errs.append(invalid("leaseDuration", cc.renew_deadline, "must be greater than `RenewDeadline`"))
    if cc.retry_period > 0 and cc.renew_deadline <= JITTER_FACTOR * cc.retry_period:
        errs.append(invalid("renewDeadline", cc.renew_deadline,
                            f"must be greater than retryPeriod*JitterFactor ({JITTER_FACTOR} x "
                            f"{format_duration(cc.retry_period)})"))
    if not cc.resource_lock:
        errs.append(required("resourceLock"))
    if not cc.resource_namespace:
        errs.append(required("resourceNamespace"))
    if not cc.resource_name:
        errs.append(required("resourceName"))
    return errs


def recommended_default_leader_election_configuration(obj: LeaderElectionConfiguration) -> None:
    """Port of RecommendedDefaultLeaderElectionConfiguration (component-base config/v1alpha1/defaults.go).

    Fills what is unset: 15 s lease, 10 s renew deadline, 2 s retry, leader
    election on. (The controller manager sets the lock kind to leases first.)
    """
    if obj.lease_duration == 0:
        obj.lease_duration = 15.0
    if obj.renew_deadline == 0:
        obj.renew_deadline = 10.0
    if obj.retry_period == 0:
        obj.retry_period = 2.0
    if not obj.resource_lock:
        obj.resource_lock = "endpoints"  # Go: the generic default; kube-controller-manager has set "leases" by now
    obj.leader_elect = True  # Go: only when unset (a nil pointer); we only default fresh configurations


# --- k8s.io/controller-manager options/generic.go -----------------------------------------------


class GenericControllerManagerConfigurationOptions:
    """Port of GenericControllerManagerConfigurationOptions (controller-manager options/generic.go).

    `config` is the GenericControllerManagerConfiguration the flags write
    into (Go embeds a pointer to it).
    """

    def __init__(self, cfg: GenericControllerManagerConfiguration) -> None:
        self.config = cfg

    def add_flags(self, parser: argparse.ArgumentParser, all_controllers: list[str],
                  disabled_by_default_controllers: list[str], controller_aliases: dict[str, str]) -> None:
        """Port of GenericControllerManagerConfigurationOptions.AddFlags: the "generic" flag set."""
        group = parser.add_argument_group("generic")
        _duration_flag(group, "--min-resync-period", self.config, "min_resync_period",
                       "Informers resync at a random period between this and twice this.")
        _duration_flag(group, "--controller-start-interval", self.config, "controller_start_interval",
                       "Each controller starts after a random wait between this and twice this.")
        group.add_argument(
            "--controllers", action=StringSliceVar, target=self.config, attr="controllers", metavar="strings",
            default=argparse.SUPPRESS,
            help=("Controllers to run, comma separated: '*' runs every controller that is on by default, "
                  "'foo' runs the controller foo, '-foo' does not run it; the first entry naming a controller "
                  f"wins. All controllers: {', '.join(all_controllers)}. Off by default: "
                  f"{', '.join(disabled_by_default_controllers)}. (default [{','.join(self.config.controllers)}])"))
        bind_leader_election_flags(self.config.leader_election, group)

    def apply_to(self, cfg: GenericControllerManagerConfiguration, all_controllers: list[str],
                 disabled_by_default_controllers: list[str], controller_aliases: dict[str, str]) -> None:
        """Port of GenericControllerManagerConfigurationOptions.ApplyTo.

        Copies the settings into `cfg` and writes every --controllers entry
        with its canonical name: `-deployment` becomes `-deployment-controller`.
        """
        cfg.min_resync_period = self.config.min_resync_period
        cfg.client_connection = dataclasses.replace(self.config.client_connection)
        cfg.controller_start_interval = self.config.controller_start_interval
        cfg.leader_election = dataclasses.replace(self.config.leader_election)  # Go: a struct copy
        controllers: list[str] = []
        for initial_name in self.config.controllers:
            controller_name = initial_name.removeprefix("-")
            controller_name = (controller_aliases or {}).get(controller_name, controller_name)
            if initial_name.startswith("-"):
                controller_name = "-" + controller_name
            controllers.append(controller_name)
        cfg.controllers = controllers

    def validate(self, all_controllers: list[str], disabled_by_default_controllers: list[str],
                 controller_aliases: dict[str, str]) -> list[ValueError]:
        """Port of GenericControllerManagerConfigurationOptions.Validate.

        Refuses a lock kind other than leases (when electing) and any
        --controllers entry that is neither `*`, a controller name nor an
        alias (`"foo" is not in the list of known controllers`).
        """
        errs: list[ValueError] = []
        le = self.config.leader_election
        if le.leader_elect and le.resource_lock != "leases":
            errs.append(ValueError('resourceLock value must be "leases"'))
        known = set(all_controllers or [])
        for initial_name in self.config.controllers:
            if initial_name == "*":
                continue
            name_without_prefix = initial_name.removeprefix("-")
            controller_name = (controller_aliases or {}).get(name_without_prefix, name_without_prefix)
            if controller_name not in known:
                errs.append(ValueError(f'"{name_without_prefix}" is not in the list of known controllers'))
        return errs


# --- options/deploymentcontroller.go ---------------------------------------------------


class DeploymentControllerOptions:
    """Port of DeploymentControllerOptions (options/deploymentcontroller.go)."""

    def __init__(self, cfg: DeploymentControllerConfiguration) -> None:
        self.config = cfg

    def add_flags(self, parser: argparse.ArgumentParser) -> None:
        """Port of DeploymentControllerOptions.AddFlags."""
        group = parser.add_argument_group("deployment controller")
        _int32_flag(group, "--concurrent-deployment-syncs", self.config, "concurrent_deployment_syncs",
                    "How many Deployments are synced at the same time; more is more responsive and costs "
                    "more CPU and API traffic.")

    def apply_to(self, cfg: DeploymentControllerConfiguration) -> None:
        """Port of DeploymentControllerOptions.ApplyTo."""
        cfg.concurrent_deployment_syncs = self.config.concurrent_deployment_syncs

    def validate(self) -> list[ValueError]:
        """Port of DeploymentControllerOptions.Validate; the worker check is minikcm's (see the module docstring)."""
        return _validate_workers("concurrent-deployment-syncs", self.config.concurrent_deployment_syncs)


def _validate_workers(flag: str, value: int) -> list[ValueError]:
    """The statefulset options' worker check (statefulsetcontroller.go), shared by the four controllers."""
    if value < 1:
        return [ValueError(f"{flag} must be greater than 0, but got {value}")]
    return []


# --- options/replicasetcontroller.go -----------------------------------------------------


class ReplicaSetControllerOptions:
    """Port of ReplicaSetControllerOptions (options/replicasetcontroller.go)."""

    def __init__(self, cfg: ReplicaSetControllerConfiguration) -> None:
        self.config = cfg

    def add_flags(self, parser: argparse.ArgumentParser) -> None:
        """Port of ReplicaSetControllerOptions.AddFlags."""
        group = parser.add_argument_group("replicaset controller")
        _int32_flag(group, "--concurrent-replicaset-syncs", self.config, "concurrent_rs_syncs",
                    "How many ReplicaSets are synced at the same time; more is more responsive and costs "
                    "more CPU and API traffic.")

    def apply_to(self, cfg: ReplicaSetControllerConfiguration) -> None:
        """Port of ReplicaSetControllerOptions.ApplyTo."""
        cfg.concurrent_rs_syncs = self.config.concurrent_rs_syncs

    def validate(self) -> list[ValueError]:
        """Port of ReplicaSetControllerOptions.Validate; the worker check is minikcm's."""
        return _validate_workers("concurrent-replicaset-syncs", self.config.concurrent_rs_syncs)


# --- options/statefulsetcontroller.go ----------------------------------------------------


class StatefulSetControllerOptions:
    """Port of StatefulSetControllerOptions (options/statefulsetcontroller.go)."""

    def __init__(self, cfg: StatefulSetControllerConfiguration) -> None:
        self.config = cfg

    def add_flags(self, parser: argparse.ArgumentParser) -> None:
        """Port of StatefulSetControllerOptions.AddFlags."""
        group = parser.add_argument_group("statefulset controller")
        _int32_flag(group, "--concurrent-statefulset-syncs", self.config, "concurrent_stateful_set_syncs",
                    "How many StatefulSets are synced at the same time; more is more responsive and costs "
                    "more CPU and API traffic.")

    def apply_to(self, cfg: StatefulSetControllerConfiguration) -> None:
        """Port of StatefulSetControllerOptions.ApplyTo."""
        cfg.concurrent_stateful_set_syncs = self.config.concurrent_stateful_set_syncs

    def validate(self) -> list[ValueError]:
        """Port of StatefulSetControllerOptions.Validate: at least one worker."""
        return _validate_workers("concurrent-statefulset-syncs", self.config.concurrent_stateful_set_syncs)


# --- options/garbagecollectorcontroller.go ---------------------------------------------


class GarbageCollectorControllerOptions:
    """Port of GarbageCollectorControllerOptions (options/garbagecollectorcontroller.go)."""

    def __init__(self, cfg: GarbageCollectorControllerConfiguration) -> None:
        self.config = cfg

    def add_flags(self, parser: argparse.ArgumentParser) -> None:
        """Port of GarbageCollectorControllerOptions.AddFlags."""
        group = parser.add_argument_group("garbagecollector controller")
        _int32_flag(group, "--concurrent-gc-syncs", self.config, "concurrent_gc_syncs",
                    "How many garbage collector workers run at the same time.")
        _bool_flag(group, "--enable-garbage-collector", self.config, "enable_garbage_collector",
                   "Run the garbage collector; keep it in step with the API server's own setting.")

    def apply_to(self, cfg: GarbageCollectorControllerConfiguration) -> None:
        """Port of GarbageCollectorControllerOptions.ApplyTo."""
        cfg.concurrent_gc_syncs = self.config.concurrent_gc_syncs
        cfg.gc_ignored_resources = list(self.config.gc_ignored_resources)
        cfg.enable_garbage_collector = self.config.enable_garbage_collector

    def validate(self) -> list[ValueError]:
        """Port of GarbageCollectorControllerOptions.Validate; the worker check is minikcm's."""
        return _validate_workers("concurrent-gc-syncs", self.config.concurrent_gc_syncs)


# --- options/options.go ------------------------------------------------------------------


class KubeControllerManagerOptions:
    """Port of KubeControllerManagerOptions (options.go): every flag's value, before checking.

    Each part's `config` is a section of one default component configuration
    (new_default_component_config); parsing flags changes those sections.
    """

    def __init__(self, generic: GenericControllerManagerConfigurationOptions,
                 deployment_controller: DeploymentControllerOptions,
                 replica_set_controller: ReplicaSetControllerOptions,
                 stateful_set_controller: StatefulSetControllerOptions,
                 garbage_collector_controller: GarbageCollectorControllerOptions,
                 master: str = "") -> None:
        self.generic = generic
        self.deployment_controller = deployment_controller
        self.replica_set_controller = replica_set_controller
        self.stateful_set_controller = stateful_set_controller
        self.garbage_collector_controller = garbage_collector_controller
        self.master = master
        """--master: the API server address, overriding the kubeconfig's."""

    def flags(self, all_controllers: list[str], disabled_by_default_controllers: list[str],
              controller_aliases: dict[str, str], parser: argparse.ArgumentParser | None = None,
              ) -> argparse.ArgumentParser:
        """Port of KubeControllerManagerOptions.Flags: add the flags, grouped as upstream's flag sets.

        Adds to `parser` (a new one when None) and returns it. Parsing with it
        writes into this object.
        """
        if parser is None:
            parser = argparse.ArgumentParser(prog="kube-controller-manager")
        self.generic.add_flags(parser, all_controllers, disabled_by_default_controllers, controller_aliases)
        self.deployment_controller.add_flags(parser)
        self.stateful_set_controller.add_flags(parser)
        self.garbage_collector_controller.add_flags(parser)
        self.replica_set_controller.add_flags(parser)
        misc = parser.add_argument_group("misc")
        _string_flag(misc, "--master", self, "master",
                     "Address of the API server; overrides the one in the kubeconfig.")
        _string_flag(misc, "--kubeconfig", self.generic.config.client_connection, "kubeconfig",
                     "Path of the kubeconfig file with the API server's address and the credentials.")
        return parser

    def apply_to(self, c: Config, all_controllers: list[str], disabled_by_default_controllers: list[str],
                 controller_aliases: dict[str, str]) -> None:
        """Port of KubeControllerManagerOptions.ApplyTo: copy every section into `c.component_config`."""
        cc = c.component_config
        self.generic.apply_to(cc.generic, all_controllers, disabled_by_default_controllers, controller_aliases)
        self.deployment_controller.apply_to(cc.deployment_controller)
        self.stateful_set_controller.apply_to(cc.stateful_set_controller)
        self.garbage_collector_controller.apply_to(cc.garbage_collector_controller)
        self.replica_set_controller.apply_to(cc.replica_set_controller)

    def validate(self, all_controllers: list[str], disabled_by_default_controllers: list[str],
                 controller_aliases: dict[str, str]) -> list[ValueError]:
        """Port of KubeControllerManagerOptions.Validate: every problem, as a list (empty: valid).

        Go aggregates the list into one error; `config` does that here.
        """
        errs: list[ValueError] = []
        errs += self.generic.validate(all_controllers, disabled_by_default_controllers, controller_aliases)
        errs += validate_leader_election_configuration(self.generic.config.leader_election, "leaderElection")
        if self.generic.config.min_resync_period <= 0:
            errs.append(ValueError(f"min-resync-period must be greater than 0, but got "
                                   f"{format_duration(self.generic.config.min_resync_period)}"))
        if self.generic.config.controller_start_interval < 0:
            errs.append(ValueError(f"controller-start-interval must not be negative, but got "
                                   f"{format_duration(self.generic.config.controller_start_interval)}"))
        errs += self.deployment_controller.validate()
        errs += self.stateful_set_controller.validate()
        errs += self.garbage_collector_controller.validate()
        errs += self.replica_set_controller.validate()
        return errs

    def config(self, all_controllers: list[str], disabled_by_default_controllers: list[str],
               controller_aliases: dict[str, str], client: Interface | None = None, clock: Clock | None = None,
               rng: random.Random | None = None, deterministic: bool | None = None) -> Config:
        """Port of KubeControllerManagerOptions.Config: validate, connect, and build the Config.

        `client` replaces the clientset built from --kubeconfig (in-process
        runs, tests). `clock`, `rng` and `deterministic` go to the event
        broadcaster (deterministic runs: no broadcaster thread).

        Raises:
            Aggregate: the validation errors (all of them).
            MissingComponentError: no client given and minikcm.client.rest is missing.
            ValueError: neither --kubeconfig nor a client.
        """
        errs = self.validate(all_controllers, disabled_by_default_controllers, controller_aliases)
        if errs:
            raise Aggregate(errs)
        kubeconfig = self.generic.config.client_connection.kubeconfig
        if client is None:
            client = build_client(kubeconfig, self.master)
        event_broadcaster, event_recorder = new_event_broadcaster_and_recorder(client, clock, rng, deterministic)
        c = Config(client=client, kubeconfig=kubeconfig, event_broadcaster=event_broadcaster,
                   event_recorder=event_recorder)
        self.apply_to(c, all_controllers, disabled_by_default_controllers, controller_aliases)
        return c

    def __repr__(self) -> str:
        g = self.generic.config
        return (f"KubeControllerManagerOptions(kubeconfig={g.client_connection.kubeconfig!r}, "
                f"leader_elect={g.leader_election.leader_elect}, controllers={g.controllers})")


def new_default_component_config() -> KubeControllerManagerConfiguration:
    """Port of NewDefaultComponentConfig (options.go): the v1alpha1 defaults of what we keep.

    Generic: 12 h minimum resync, no start interval, controllers `*`, Lease
    lock, 15 s / 10 s / 2 s election timings. Workers: 5 deployments, 5
    replica sets, 5 stateful sets, 20 garbage collector; garbage collector on,
    ignoring events (core and events.k8s.io).
    """
    generic = GenericControllerManagerConfiguration(min_resync_period=12 * 3600.0, controller_start_interval=0.0,
                                                    controllers=["*"])
    generic.leader_election.resource_lock = "leases"
    recommended_default_leader_election_configuration(generic.leader_election)
    return KubeControllerManagerConfiguration(
        generic=generic,
        deployment_controller=DeploymentControllerConfiguration(concurrent_deployment_syncs=5),
        replica_set_controller=ReplicaSetControllerConfiguration(concurrent_rs_syncs=5),
        stateful_set_controller=StatefulSetControllerConfiguration(concurrent_stateful_set_syncs=5),
        garbage_collector_controller=GarbageCollectorControllerConfiguration(
            enable_garbage_collector=True,
            concurrent_gc_syncs=20,
            gc_ignored_resources=[GroupResource("", "events"), GroupResource("events.k8s.io", "events")],
        ),
    )


def new_kube_controller_manager_options() -> KubeControllerManagerOptions:
    """Port of NewKubeControllerManagerOptions (options.go): options holding the defaults.

    On top of the component defaults, the lock is `kube-system/kube-controller-manager`.
    """
    component_config = new_default_component_config()
    s = KubeControllerManagerOptions(
        generic=GenericControllerManagerConfigurationOptions(component_config.generic),
        deployment_controller=DeploymentControllerOptions(component_config.deployment_controller),
        replica_set_controller=ReplicaSetControllerOptions(component_config.replica_set_controller),
        stateful_set_controller=StatefulSetControllerOptions(component_config.stateful_set_controller),
        garbage_collector_controller=GarbageCollectorControllerOptions(component_config.garbage_collector_controller),
    )
    s.generic.config.leader_election.resource_name = "kube-controller-manager"
    s.generic.config.leader_election.resource_namespace = "kube-system"
    return s


# --- the parts of Config() that reach other packages -------------------------------------------


class MissingComponentError(RuntimeError):
    """No upstream twin: a piece of minikcm the command needs is not written yet."""


def build_client(kubeconfig: str, master: str = "") -> Interface:
    """Port of the client part of Config: clientcmd.BuildConfigFromFlags, then the clientset.

    Uses minikcm.client.rest.RESTClientset (the official client over HTTP).

    Raises:
        ValueError: no kubeconfig given, or --master given (not supported yet).
        MissingComponentError: minikcm.client.rest does not exist yet.
    """
    if master:
        raise ValueError("--master is not supported by minikcm yet; put the server address in the kubeconfig")
    if not kubeconfig:
        raise ValueError("--kubeconfig is required: it names the API server and the credentials to use")
    try:
        from minikcm.client.rest import RESTClientset
    except ImportError as err:
        raise MissingComponentError(
            f"cannot connect with {kubeconfig}: the REST clientset (minikcm.client.rest.RESTClientset) "
            "is not part of this minikcm yet") from err
    try:
        client: Interface = RESTClientset(kubeconfig)
    except Exception as err:  # the official client's loader: missing file, bad YAML, unknown context
        raise ValueError(f"cannot load kubeconfig {kubeconfig}: {err}") from err
    return client


def new_event_broadcaster_and_recorder(client: Interface, clock: Clock | None = None,
                                       rng: random.Random | None = None,
                                       deterministic: bool | None = None) -> tuple[EventBroadcaster, EventRecorder]:
    """Port of the event part of Config: a broadcaster and a recorder for "kube-controller-manager".

    Nothing is recorded until `run` starts the pipeline (start_events_pipeline).
    """
    from kubernetes.client import V1EventSource

    from minikcm.tools.record import new_broadcaster

    event_broadcaster = new_broadcaster(clock=clock, rng=rng, deterministic=deterministic)
    event_recorder = event_broadcaster.new_recorder(None, V1EventSource(component=KUBE_CONTROLLER_MANAGER_USER_AGENT))
    return event_broadcaster, event_recorder
