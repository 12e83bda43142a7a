"""Port of cmd/kube-controller-manager/app/options/statefulsetcontroller.go.

The stateful set controller's flag of kube-controller-manager, bound to
the StatefulSetControllerConfiguration.

Start reading at: StatefulSetControllerOptions.add_flags.

Differs from Go: the worker check is the function validate_workers, which the
deployment, replica set and garbage collector options use too.
"""

from __future__ import annotations

import argparse

from minikcm.cmd.controller_manager.config import StatefulSetControllerConfiguration
from minikcm.cmd.options.flags import int32_flag


class StatefulSetControllerOptions:
    """Port of StatefulSetControllerOptions (options/statefulsetcontroller.go)."""

    def __init__(self, cfg: StatefulSetControllerConfiguration) -> None:
        self.config = cfg

    def add_flags(self, parser: argparse.ArgumentParser) -> None:
        """Port of StatefulSetControllerOptions.AddFlags."""
        group = parser.add_argument_group("statefulset controller")
        int32_flag(group, "--concurrent-statefulset-syncs", self.config, "concurrent_stateful_set_syncs",
                   "How many StatefulSets are synced at the same time; more is more responsive and costs "
                   "more CPU and API traffic.")

    def apply_to(self, cfg: StatefulSetControllerConfiguration) -> None:
        """Port of StatefulSetControllerOptions.ApplyTo."""
        cfg.concurrent_stateful_set_syncs = self.config.concurrent_stateful_set_syncs

    def validate(self) -> list[ValueError]:
        """Port of StatefulSetControllerOptions.Validate: at least one worker."""
        return validate_workers("concurrent-statefulset-syncs", self.config.concurrent_stateful_set_syncs)


def validate_workers(flag: str, value: int) -> list[ValueError]:
    """Port of the check in StatefulSetControllerOptions.Validate: at least one worker (used by all four options)."""
    if value < 1:
        return [ValueError(f"{flag} must be greater than 0, but got {value}")]
    return []
