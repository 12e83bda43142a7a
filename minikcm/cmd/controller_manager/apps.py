"""Port of cmd/kube-controller-manager/app/apps.go: the apps/v1 controllers' descriptors and constructors.

Each constructor takes what its controller needs from the ControllerContext
(informers from the shared factory, a client named after the controller,
the worker count from the component config), builds the controller, and
wraps its `run(workers, stop)` as a Controller with `new_controller_loop`.

Start reading at: new_deployment_controller.

Not ported: the DaemonSet controller. minikcm does not port it, by design; its
descriptor stays, so that `--controllers` knows the name, and its constructor
refuses with NotPortedError.
Differs from Go:
- The controller loops also carry `steps` for driven runs; they call the
  controller's `steps()` (CONTRACTS: components that loop expose steps()).
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
)
from minikcm.controller.deployment import deployment_controller
from minikcm.controller.replicaset import replica_set
from minikcm.controller.statefulset import stateful_set

if TYPE_CHECKING:
    from minikcm.cmd.controller_manager.controllermanager import ControllerContext
    from minikcm.driver import Step

def new_daemon_set_controller_descriptor() -> ControllerDescriptor:
    """Port of newDaemonSetControllerDescriptor (apps.go); minikcm does not port the DaemonSet controller."""
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
    """
    client = controller_ctx.new_client("statefulset-controller")
    factory = controller_ctx.informer_factory
    ssc = stateful_set.new_stateful_set_controller(
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
        ssc.start_event_recording()  # Run's first lines; then the driver runs its loops
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
    replicas: replica_set.BURST_REPLICAS; workers: --concurrent-replicaset-syncs.
    """
    client = controller_ctx.new_client("replicaset-controller")
    factory = controller_ctx.informer_factory
    rsc = replica_set.new_replica_set_controller(
        factory.apps().v1().replica_sets(),
        factory.core().v1().pods(),
        client,
        replica_set.BURST_REPLICAS,
    )
    workers = controller_ctx.component_config.replica_set_controller.concurrent_rs_syncs

    def run(stop: threading.Event) -> None:
        rsc.run(workers, stop)

    def steps(stop: threading.Event) -> list[Step]:
        rsc.start_event_recording()  # Run's first lines; then the driver runs its loops
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
        RuntimeError: "error creating Deployment controller: ..." when the
            controller refuses to be built (Go wraps the error the same way).
    """
    client = controller_ctx.new_client("deployment-controller")
    factory = controller_ctx.informer_factory
    try:
        dc = deployment_controller.new_deployment_controller(
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
        dc.start_event_recording()  # Run's first lines; then the driver runs its loops
        return dc.steps()

    return new_controller_loop(run, controller_name, steps)
