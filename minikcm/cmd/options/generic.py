"""Port of k8s.io/controller-manager/options/generic.go.

The flags every controller manager has (kube-controller-manager and the cloud
controller manager share them): the resync period, the start interval,
`--controllers`, and the leader election flags.

Start reading at: GenericControllerManagerConfigurationOptions.validate.

Not ported: the --port/--address debugging and --leader-migrator flags.
"""

from __future__ import annotations

import argparse
import dataclasses

from minikcm.cmd.controller_manager.config import GenericControllerManagerConfiguration
from minikcm.cmd.options.flags import StringSliceVar, duration_flag
from minikcm.cmd.options.leaderelectionconfig import bind_leader_election_flags


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
        duration_flag(group, "--min-resync-period", self.config, "min_resync_period",
                      "Informers resync at a random period between this and twice this.")
        duration_flag(group, "--controller-start-interval", self.config, "controller_start_interval",
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
