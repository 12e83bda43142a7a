"""Port of cmd/kube-controller-manager/app/options: the kube-controller-manager flags minikcm keeps.

`new_kube_controller_manager_options()` holds the defaults; `flags()` puts the
flags on an argparse parser; `validate()` lists what is wrong; `config()`
turns the options into the Config that minikcm.cmd.controller_manager.run
takes. Durations use Go's syntax (`15s`, `1m30s`), parsed by `duration`.
"""

from minikcm.cmd.options.duration import format_duration, parse_duration, parse_duration_ns
from minikcm.cmd.options.options import (
    KUBE_CONTROLLER_MANAGER_USER_AGENT,
    DeploymentControllerOptions,
    GarbageCollectorControllerOptions,
    GenericControllerManagerConfigurationOptions,
    KubeControllerManagerOptions,
    MissingComponentError,
    ReplicaSetControllerOptions,
    StatefulSetControllerOptions,
    new_default_component_config,
    new_kube_controller_manager_options,
)

__all__ = [
    "KUBE_CONTROLLER_MANAGER_USER_AGENT",
    "DeploymentControllerOptions",
    "GarbageCollectorControllerOptions",
    "GenericControllerManagerConfigurationOptions",
    "KubeControllerManagerOptions",
    "MissingComponentError",
    "ReplicaSetControllerOptions",
    "StatefulSetControllerOptions",
    "format_duration",
    "new_default_component_config",
    "new_kube_controller_manager_options",
    "parse_duration",
    "parse_duration_ns",
]
