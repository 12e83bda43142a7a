"""Port of cmd/kube-controller-manager/app/options/replicasetcontroller.go.

The replica set controller's flag of kube-controller-manager, bound to
the ReplicaSetControllerConfiguration.

Start reading at: ReplicaSetControllerOptions.add_flags.

Differs from Go: validate refuses fewer than one worker, as the statefulset
options do (upstream checks nothing here).
"""

from __future__ import annotations

import argparse

from minikcm.cmd.controller_manager.config import ReplicaSetControllerConfiguration
from minikcm.cmd.options.flags import int32_flag
from minikcm.cmd.options.statefulsetcontroller import validate_workers


class ReplicaSetControllerOptions:
    """Port of ReplicaSetControllerOptions (options/replicasetcontroller.go)."""

    def __init__(self, cfg: ReplicaSetControllerConfiguration) -> None:
        self.config = cfg

    def add_flags(self, parser: argparse.ArgumentParser) -> None:
        """Port of ReplicaSetControllerOptions.AddFlags."""
        group = parser.add_argument_group("replicaset controller")
        int32_flag(group, "--concurrent-replicaset-syncs", self.config, "concurrent_rs_syncs",
                   "How many ReplicaSets are synced at the same time; more is more responsive and costs "
                   "more CPU and API traffic.")

    def apply_to(self, cfg: ReplicaSetControllerConfiguration) -> None:
        """Port of ReplicaSetControllerOptions.ApplyTo."""
        cfg.concurrent_rs_syncs = self.config.concurrent_rs_syncs

    def validate(self) -> list[ValueError]:
        """Port of ReplicaSetControllerOptions.Validate; the worker check is minikcm's."""
        return validate_workers("concurrent-replicaset-syncs", self.config.concurrent_rs_syncs)
