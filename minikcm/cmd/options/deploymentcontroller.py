"""Port of cmd/kube-controller-manager/app/options/deploymentcontroller.go.

The deployment controller's flag of kube-controller-manager, bound to
the DeploymentControllerConfiguration.

Start reading at: DeploymentControllerOptions.add_flags.

Differs from Go: validate refuses fewer than one worker, as the statefulset
options do (upstream checks nothing here).
"""

from __future__ import annotations

import argparse

from minikcm.cmd.controller_manager.config import DeploymentControllerConfiguration
from minikcm.cmd.options.flags import int32_flag
from minikcm.cmd.options.statefulsetcontroller import validate_workers


class DeploymentControllerOptions:
    """Port of DeploymentControllerOptions (options/deploymentcontroller.go)."""

    def __init__(self, cfg: DeploymentControllerConfiguration) -> None:
        self.config = cfg

    def add_flags(self, parser: argparse.ArgumentParser) -> None:
        """Port of DeploymentControllerOptions.AddFlags."""
        group = parser.add_argument_group("deployment controller")
        int32_flag(group, "--concurrent-deployment-syncs", self.config, "concurrent_deployment_syncs",
                   "How many Deployments are synced at the same time; more is more responsive and costs "
                   "more CPU and API traffic.")

    def apply_to(self, cfg: DeploymentControllerConfiguration) -> None:
        """Port of DeploymentControllerOptions.ApplyTo."""
        cfg.concurrent_deployment_syncs = self.config.concurrent_deployment_syncs

    def validate(self) -> list[ValueError]:
        """Port of DeploymentControllerOptions.Validate; the worker check is minikcm's (see the module docstring)."""
        return validate_workers("concurrent-deployment-syncs", self.config.concurrent_deployment_syncs)
