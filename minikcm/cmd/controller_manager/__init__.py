"""Port of cmd/kube-controller-manager/app (with config and names) and of k8s.io/controller-manager.

The controller manager itself: the registry of controller descriptors, the
controller context with the shared informer factory, building and running
the enabled controllers, and `run`, which puts leader election in front of
all of it (controllermanager.ControllerManager keeps Run's locals). The
`ControllerManager` exported here (deterministic.py, no upstream twin) hands
that same process to the deterministic driver as steps.
"""

from minikcm.cmd.controller_manager.config import CompletedConfig, Config, KubeControllerManagerConfiguration
from minikcm.cmd.controller_manager.controller_descriptor import (
    PORTED_CONTROLLERS,
    Controller,
    ControllerDescriptor,
    NotPortedError,
    new_controller_loop,
)
from minikcm.cmd.controller_manager.controllermanager import (
    CONTROLLER_START_JITTER,
    ControllerContext,
    build_controllers,
    controller_aliases,
    controllers_disabled_by_default,
    known_controllers,
    new_controller_descriptors,
    create_controller_context,
    is_controller_enabled,
    resync_period,
    run,
    run_controllers,
)
from minikcm.cmd.controller_manager.deterministic import ControllerManager

__all__ = [
    "CONTROLLER_START_JITTER",
    "PORTED_CONTROLLERS",
    "CompletedConfig",
    "Config",
    "Controller",
    "ControllerContext",
    "ControllerDescriptor",
    "ControllerManager",
    "KubeControllerManagerConfiguration",
    "NotPortedError",
    "build_controllers",
    "controller_aliases",
    "controllers_disabled_by_default",
    "create_controller_context",
    "is_controller_enabled",
    "known_controllers",
    "new_controller_descriptors",
    "new_controller_loop",
    "resync_period",
    "run",
    "run_controllers",
]
