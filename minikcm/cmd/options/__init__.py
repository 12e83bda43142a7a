"""Port of cmd/kube-controller-manager/app/options: the kube-controller-manager flags minikcm keeps.

`new_kube_controller_manager_options()` holds the defaults; `flags()` puts the
flags on an argparse parser; `validate()` lists what is wrong; `config()`
turns the options into the Config that minikcm.cmd.controller_manager.run
takes. Durations use Go's syntax (`15s`, `1m30s`), parsed by `duration`.

One module per upstream file: `options.py` (options.go) and one per
controller (`deploymentcontroller.py`, `replicasetcontroller.py`,
`statefulsetcontroller.py`, `garbagecollectorcontroller.py`); from
k8s.io/controller-manager `generic.py` (options/generic.go); from
k8s.io/component-base `leaderelectionconfig.py`, `validation.py` and
`defaults.py` (their leader-election parts). `flags.py` (no twin) binds flags
the way pflag does.
"""

from minikcm.cmd.options.duration import format_duration, parse_duration, parse_duration_ns
from minikcm.cmd.options.deploymentcontroller import DeploymentControllerOptions
from minikcm.cmd.options.garbagecollectorcontroller import GarbageCollectorControllerOptions
from minikcm.cmd.options.generic import GenericControllerManagerConfigurationOptions
from minikcm.cmd.options.options import (
    KUBE_CONTROLLER_MANAGER_USER_AGENT,
    KubeControllerManagerOptions,
    new_default_component_config,
    new_kube_controller_manager_options,
)
from minikcm.cmd.options.replicasetcontroller import ReplicaSetControllerOptions
from minikcm.cmd.options.statefulsetcontroller import StatefulSetControllerOptions

__all__ = [
    "KUBE_CONTROLLER_MANAGER_USER_AGENT",
    "DeploymentControllerOptions",
    "GarbageCollectorControllerOptions",
    "GenericControllerManagerConfigurationOptions",
    "KubeControllerManagerOptions",
    "ReplicaSetControllerOptions",
    "StatefulSetControllerOptions",
    "format_duration",
    "new_default_component_config",
    "new_kube_controller_manager_options",
    "parse_duration",
    "parse_duration_ns",
]
