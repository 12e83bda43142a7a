"""Port of cmd/kube-controller-manager/app/options/options.go.

The flags of `minikcm controller-manager`, with kube-controller-manager's
names and defaults. `new_kube_controller_manager_options` starts from the
default component configuration; `flags` adds the flags to an argparse
parser, bound to these objects the way pflag binds flags to struct fields
(flags.py); `validate` lists what is wrong; `config` turns valid options into
the `Config` that `minikcm.cmd.controller_manager.run` takes. Each
controller's options, and the generic ones, have their own module, as upstream.

The shape of Config, Validate and Flags (with controller aliases) is the one
their 1.36 callers in controllermanager.go use.

Start reading at: new_kube_controller_manager_options, then
KubeControllerManagerOptions.validate and KubeControllerManagerOptions.config.

Not ported: every flag outside the ones kept here and in the sibling modules
(serving, authentication, authorization, metrics, logs, cloud provider,
feature gates, the options of controllers minikcm does not port,
--deployment-controller-sync-period, the client QPS/burst/content type,
profiling, leader migration).
Differs from Go:
- validate() adds checks upstream leaves to later failures: the leader
  election timings are checked as component-base's validation and
  leaderelection.new_leader_elector do (upstream kube-controller-manager only
  fails when the election starts), --min-resync-period must be positive,
  --controller-start-interval must not be negative, and every controller's
  worker count must be at least 1 (upstream checks this for statefulsets only).
- config() builds the clientset from the kubeconfig with minikcm.client.rest,
  or takes the `client` given (in-process runs and tests).
"""

from __future__ import annotations

import argparse
import random
from typing import TYPE_CHECKING

from minikcm.apimachinery.field import Aggregate
from minikcm.apimachinery.schema import GroupResource
from minikcm.client.rest import RESTClientset
from minikcm.clock import Clock
from minikcm.cmd.controller_manager.config import (
    Config,
    DeploymentControllerConfiguration,
    GarbageCollectorControllerConfiguration,
    GenericControllerManagerConfiguration,
    KubeControllerManagerConfiguration,
    ReplicaSetControllerConfiguration,
    StatefulSetControllerConfiguration,
)
from minikcm.cmd.options.defaults import recommended_default_leader_election_configuration
from minikcm.cmd.options.deploymentcontroller import DeploymentControllerOptions
from minikcm.cmd.options.duration import format_duration
from minikcm.cmd.options.flags import string_flag
from minikcm.cmd.options.garbagecollectorcontroller import GarbageCollectorControllerOptions
from minikcm.cmd.options.generic import GenericControllerManagerConfigurationOptions
from minikcm.cmd.options.replicasetcontroller import ReplicaSetControllerOptions
from minikcm.cmd.options.statefulsetcontroller import StatefulSetControllerOptions
from minikcm.cmd.options.validation import validate_leader_election_configuration

if TYPE_CHECKING:
    from minikcm.client.interface import Interface
    from minikcm.tools.record import EventBroadcaster, EventRecorder

KUBE_CONTROLLER_MANAGER_USER_AGENT = "kube-controller-manager"
"""Port of KubeControllerManagerUserAgent: the component name on events and requests."""


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
        string_flag(misc, "--master", self, "master",
                    "Address of the API server; overrides the one in the kubeconfig.")
        string_flag(misc, "--kubeconfig", self.generic.config.client_connection, "kubeconfig",
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
               rng: random.Random | None = None) -> Config:
        """Port of KubeControllerManagerOptions.Config: validate, connect, and build the Config.

        `client` replaces the clientset built from --kubeconfig (in-process
        runs, tests). `clock` and `rng` go to the event broadcaster (a driven
        clock: no broadcaster thread, its step is for the driver).

        Raises:
            Aggregate: the validation errors (all of them).
            ValueError: neither --kubeconfig nor a client, or a kubeconfig that does not load.
        """
        errs = self.validate(all_controllers, disabled_by_default_controllers, controller_aliases)
        if errs:
            raise Aggregate(errs)
        kubeconfig = self.generic.config.client_connection.kubeconfig
        if client is None:
            client = build_client(kubeconfig, self.master)
        event_broadcaster, event_recorder = new_event_broadcaster_and_recorder(client, clock, rng)
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


def build_client(kubeconfig: str, master: str = "") -> Interface:
    """Port of the client part of Config: clientcmd.BuildConfigFromFlags, then the clientset.

    Uses minikcm.client.rest.RESTClientset (the official client over HTTP).

    Raises:
        ValueError: no kubeconfig given, --master given (not supported), or a
            kubeconfig the official client cannot load.
    """
    if master:
        raise ValueError("--master is not supported by minikcm; put the server address in the kubeconfig")
    if not kubeconfig:
        raise ValueError("--kubeconfig is required: it names the API server and the credentials to use")
    try:
        client: Interface = RESTClientset(kubeconfig)
    except Exception as err:  # the official client's loader: missing file, bad YAML, unknown context
        raise ValueError(f"cannot load kubeconfig {kubeconfig}: {err}") from err
    return client


def new_event_broadcaster_and_recorder(client: Interface, clock: Clock | None = None,
                                       rng: random.Random | None = None) -> tuple[EventBroadcaster, EventRecorder]:
    """Port of the event part of Config: a broadcaster and a recorder for "kube-controller-manager".

    Nothing is recorded until `run` starts the pipeline (start_events_pipeline).
    """
    from kubernetes.client import V1EventSource

    from minikcm.tools.record import new_broadcaster

    event_broadcaster = new_broadcaster(clock=clock, rng=rng)
    event_recorder = event_broadcaster.new_recorder(None, V1EventSource(component=KUBE_CONTROLLER_MANAGER_USER_AGENT))
    return event_broadcaster, event_recorder
