"""Port of cmd/kube-controller-manager/app/apps.go: the apps/v1 controllers' descriptors and constructors.

Each constructor takes what its controller needs from the ControllerContext
(informers from the shared factory, a client named after the controller,
the worker count from the component config), builds the controller, and
wraps its `run(workers, stop)` as a Controller with `new_controller_loop`.
The controller packages are imported inside the constructors, so this module
loads before they exist; until a package is written its constructor raises
NotPortedError ("not yet ported").

Read at: the descriptor data of apps.go at k/k commit
00115d34eb4e8cdc58f902189cfafc95e369e9ba (names, aliases, informers, client
names); the constructor shape (NewClient, newControllerLoop around Run) follows
core.go at 2e0908106e4420a601e50d6edfd41475de87a3e1, which has it for every
controller. Upstream:
https://github.com/kubernetes/kubernetes/blob/v1.36.3/cmd/kube-controller-manager/app/apps.go

Start reading at: new_deployment_controller.

Not ported: the DaemonSet controller (its descriptor stays, with a
not-ported constructor).
Differs from Go:
- Constructors import their controller package lazily (see the module docstring).
- The controller loops also carry `steps` for deterministic runs; they call
  the controller's `steps()` (CONTRACTS: components that loop expose steps()).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from minikcm.cmd.controller_manager import names
from minikcm.cmd.controller_manager.controller_descriptor import (
    Controller,
    ControllerDescriptor,
    new_controller_loop,
    not_ported_descriptor,
    raise_not_yet_ported,
)

if TYPE_CHECKING:
    from minikcm.cmd.controller_manager.controllermanager import ControllerContext
    from minikcm.driver import Step

DEPLOYMENT_MODULE = "minikcm.controller.deployment.deployment_controller"
REPLICA_SET_MODULE = "minikcm.controller.replicaset.replica_set"
STATEFUL_SET_MODULE = "minikcm.controller.statefulset.stateful_set"


def new_daemon_set_controller_descriptor() -> ControllerDescriptor:
    """Port of newDaemonSetControllerDescriptor (apps.go); the DaemonSet controller is not ported."""
    return not_ported_descriptor(names.DAEMON_SET_CONTROLLER, ["daemonset"])


def new_stateful_set_controller_descriptor() -> ControllerDescriptor:
    """Port of newStatefulSetControllerDescriptor (apps.go)."""
    return ControllerDescriptor(
        controller_name=names.STATEFUL_SET_CONTROLLER,
        aliases=["statefulset"],
        constructor=new_stateful_set_controller,
    )


def new_stateful_set_controller(controller_ctx: ControllerContext, controller_name: str) -> Controller | None:
    """Port of newStatefulSetController (apps.go).

    Informers: pods, statefulsets, persistentvolumeclaims, controllerrevisions;
    client "statefulset-controller"; workers: --concurrent-statefulset-syncs.

    Raises:
        NotPortedError: minikcm.controller.statefulset.stateful_set does not exist yet.
    """
    try:
        from minikcm.controller.statefulset.stateful_set import new_stateful_set_controller as new_controller
    except ImportError as err:
        raise_not_yet_ported(err, controller_name, STATEFUL_SET_MODULE)
        raise
    client = controller_ctx.new_client("statefulset-controller")
    factory = controller_ctx.informer_factory
    ssc = new_controller(
        factory.core().v1().pods(),
        factory.apps().v1().stateful_sets(),
        factory.core().v1().persistent_volume_claims(),
        factory.apps().v1().controller_revisions(),
        client,
    )
    workers = controller_ctx.component_config.stateful_set_controller.concurrent_stateful_set_syncs

    def run(stop: threading.Event) -> None:
        ssc.run(workers, stop)

    def steps(stop: threading.Event) -> list[Step]:
        return ssc.steps()

    return new_controller_loop(run, controller_name, steps)


def new_replica_set_controller_descriptor() -> ControllerDescriptor:
    """Port of newReplicaSetControllerDescriptor (apps.go)."""
    return ControllerDescriptor(
        controller_name=names.REPLICA_SET_CONTROLLER,
        aliases=["replicaset"],
        constructor=new_replica_set_controller,
    )


def new_replica_set_controller(controller_ctx: ControllerContext, controller_name: str) -> Controller | None:
    """Port of newReplicaSetController (apps.go).

    Informers: replicasets, pods; client "replicaset-controller"; burst
    replicas: replicaset.BURST_REPLICAS; workers: --concurrent-replicaset-syncs.

    Raises:
        NotPortedError: minikcm.controller.replicaset.replica_set does not exist yet.
    """
    try:
        from minikcm.controller.replicaset.replica_set import BURST_REPLICAS
        from minikcm.controller.replicaset.replica_set import new_replica_set_controller as new_controller
    except ImportError as err:
        raise_not_yet_ported(err, controller_name, REPLICA_SET_MODULE)
        raise
    client = controller_ctx.new_client("replicaset-controller")
    factory = controller_ctx.informer_factory
    rsc = new_controller(
        factory.apps().v1().replica_sets(),
        factory.core().v1().pods(),
        client,
        BURST_REPLICAS,
    )
    workers = controller_ctx.component_config.replica_set_controller.concurrent_rs_syncs

    def run(stop: threading.Event) -> None:
        rsc.run(workers, stop)

    def steps(stop: threading.Event) -> list[Step]:
        return rsc.steps()

    return new_controller_loop(run, controller_name, steps)


def new_deployment_controller_descriptor() -> ControllerDescriptor:
    """Port of newDeploymentControllerDescriptor (apps.go)."""
    return ControllerDescriptor(
        controller_name=names.DEPLOYMENT_CONTROLLER,
        aliases=["deployment"],
        constructor=new_deployment_controller,
    )


def new_deployment_controller(controller_ctx: ControllerContext, controller_name: str) -> Controller | None:
    """Port of newDeploymentController (apps.go).

    Informers: deployments, replicasets, pods; client "deployment-controller";
    workers: --concurrent-deployment-syncs.

    Raises:
        NotPortedError: minikcm.controller.deployment.deployment_controller does not exist yet.
        RuntimeError: "error creating Deployment controller: ..." when the
            controller refuses to be built (Go wraps the error the same way).
    """
    try:
        from minikcm.controller.deployment.deployment_controller import new_deployment_controller as new_controller
    except ImportError as err:
        raise_not_yet_ported(err, controller_name, DEPLOYMENT_MODULE)
        raise
    client = controller_ctx.new_client("deployment-controller")
    factory = controller_ctx.informer_factory
    try:
        dc = new_controller(
            factory.apps().v1().deployments(),
            factory.apps().v1().replica_sets(),
            factory.core().v1().pods(),
            client,
        )
    except Exception as err:  # Go: the constructor's error, wrapped
        raise RuntimeError(f"error creating Deployment controller: {err}") from err
    workers = controller_ctx.component_config.deployment_controller.concurrent_deployment_syncs

    def run(stop: threading.Event) -> None:
        dc.run(workers, stop)

    def steps(stop: threading.Event) -> list[Step]:
        return dc.steps()

    return new_controller_loop(run, controller_name, steps)
