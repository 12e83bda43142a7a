"""Port of cmd/kube-controller-manager/app/options/garbagecollectorcontroller.go.

The garbage collector's flags of kube-controller-manager, bound to
the GarbageCollectorControllerConfiguration.

Start reading at: GarbageCollectorControllerOptions.add_flags.

Differs from Go: validate refuses fewer than one worker, as the statefulset
options do (upstream checks nothing here).
"""

from __future__ import annotations

import argparse

from minikcm.cmd.controller_manager.config import GarbageCollectorControllerConfiguration
from minikcm.cmd.options.flags import bool_flag, int32_flag
from minikcm.cmd.options.statefulsetcontroller import validate_workers


class GarbageCollectorControllerOptions:
    """Port of GarbageCollectorControllerOptions (options/garbagecollectorcontroller.go)."""

    def __init__(self, cfg: GarbageCollectorControllerConfiguration) -> None:
        self.config = cfg

    def add_flags(self, parser: argparse.ArgumentParser) -> None:
        """Port of GarbageCollectorControllerOptions.AddFlags."""
        group = parser.add_argument_group("garbagecollector controller")
        int32_flag(group, "--concurrent-gc-syncs", self.config, "concurrent_gc_syncs",
                   "How many garbage collector workers run at the same time.")
        bool_flag(group, "--enable-garbage-collector", self.config, "enable_garbage_collector",
                  "Run the garbage collector; keep it in step with the API server's own setting.")

    def apply_to(self, cfg: GarbageCollectorControllerConfiguration) -> None:
        """Port of GarbageCollectorControllerOptions.ApplyTo."""
        cfg.concurrent_gc_syncs = self.config.concurrent_gc_syncs
        cfg.gc_ignored_resources = list(self.config.gc_ignored_resources)
        cfg.enable_garbage_collector = self.config.enable_garbage_collector

    def validate(self) -> list[ValueError]:
        """Port of GarbageCollectorControllerOptions.Validate; the worker check is minikcm's."""
        return validate_workers("concurrent-gc-syncs", self.config.concurrent_gc_syncs)
