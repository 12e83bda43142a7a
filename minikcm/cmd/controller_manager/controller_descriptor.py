"""Port of cmd/kube-controller-manager/app/controller_descriptor.go (with controller_utils.go and k8s.io/controller-manager controller/interfaces.go).

The registry of controllers. Each `ControllerDescriptor` names a controller
and says how to build it: its constructor, its aliases for `--controllers`,
the feature gates it needs, and whether it is off unless asked for. The
controller manager builds the enabled ones (`build_controllers`) and runs
what they return: anything with `name()` and `run(stop)` (`Controller`).
`new_controller_loop` turns a plain run function into such a Controller.

minikcm registers every controller kube-controller-manager has at v1.36.3, so
that names, aliases and `--controllers` checks behave as upstream. Four are
ported (PORTED_CONTROLLERS); minikcm leaves the others out by design, and
their constructors refuse with NotPortedError.

The registry follows a copy of controller_descriptor.go from just after the
1.36 cut, without its one extra registration (the pod checkpoint controller,
which the 1.36 tests do not know).

Start reading at: ControllerDescriptor.build_controller.

Not ported: Debuggable and HealthCheckable (interfaces.go: no HTTP server), the
logger naming in BuildController, the descriptors' real constructors for the
controllers we do not port.
Differs from Go:
- Go's map from name to descriptor is a dict; every list this module returns
  is sorted, and callers iterate in sorted order (Go ranges in random order).
- The fields whose Go names clash with Go's accessor methods are renamed:
  `controller_name` (Go: name), `disabled_by_default`, `cloud_provider_controller`,
  `special_handling`; the methods keep Go's names (`name()`, `is_disabled_by_default()`, ...).
- Constructors take `(controller_context, controller_name)`; there is no ctx.
- Feature gates are read from minikcm.features.DEFAULT_FEATURE_GATE, which
  knows every gate a descriptor names (Go: utilfeature.DefaultFeatureGate).
- A ControllerLoop may carry `steps`, so that the deterministic driver can run
  the controller without threads (no Go twin).
- NewControllerDescriptors, KnownControllers, ControllerAliases and
  ControllersDisabledByDefault are in controllermanager.py: the registry calls
  the descriptor functions of apps.py and core.py, which import this module,
  so it cannot live here without an import cycle.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from minikcm import features
from minikcm.cmd.controller_manager import names

if TYPE_CHECKING:
    from minikcm.cmd.controller_manager.controllermanager import ControllerContext
    from minikcm.driver import Step

logger = logging.getLogger(__name__)

PORTED_CONTROLLERS: tuple[str, ...] = (
    names.DEPLOYMENT_CONTROLLER,
    names.GARBAGE_COLLECTOR_CONTROLLER,
    names.REPLICA_SET_CONTROLLER,
    names.STATEFUL_SET_CONTROLLER,
)
"""No upstream twin: the controllers minikcm ports (sorted)."""


class NotPortedError(NotImplementedError):
    """No upstream twin: raised by the constructor of a controller minikcm does not port.

    minikcm ports four of kube-controller-manager's controllers (PORTED_CONTROLLERS)
    and leaves the others out by design; their descriptors stay so that names,
    aliases and `--controllers` behave as upstream's. The message lists what
    minikcm ports.
    """

    def __init__(self, controller_name: str) -> None:
        self.controller_name = controller_name
        ported = ", ".join(PORTED_CONTROLLERS)
        super().__init__(f"controller {controller_name!r} is not ported by minikcm; ported: {ported}")


# --- controller/interfaces.go and controller_descriptor.go: the Controller interface ------


class Controller(Protocol):
    """Port of Controller (controller_descriptor.go), which extends controller.Interface (interfaces.go).

    `name()` is the canonical controller name. `run(stop)` runs the control
    loop until `stop` is set and returns only after every thread it started
    has finished.
    """

    def name(self) -> str:
        """Port of Controller.Name (controller_descriptor.go)."""

    def run(self, stop: threading.Event) -> None:
        """Port of Controller.Run (controller_descriptor.go)."""


class SteppedController(Protocol):
    """No upstream twin: a Controller that can also run as driver steps (deterministic mode).

    `steps(stop)` returns the controller's loops as steps; they do nothing
    once `stop` is set (the controller manager also removes them then).
    """

    def name(self) -> str: ...

    def run(self, stop: threading.Event) -> None: ...

    def steps(self, stop: threading.Event) -> list[Step]: ...


ControllerConstructor = Callable[["ControllerContext", str], "Controller | None"]
"""Port of ControllerConstructor: builds a controller; None means "disabled, skip it"."""

RunFunc = Callable[[threading.Event], None]
"""Port of runFunc (controller_utils.go): a loop that runs until its stop event is set."""

StepsFunc = Callable[[threading.Event], "list[Step]"]
"""No upstream twin: the same loop as driver steps."""


# --- controller_utils.go ---------------------------------------------------------------


def concurrent_run(*rx: RunFunc) -> RunFunc:
    """Port of concurrentRun (controller_utils.go): one run function that runs several side by side.

    The result starts each function in its own thread and returns once all
    of them have returned (Go: runFuncSlice.Run with a WaitGroup).
    """

    def run_all(stop: threading.Event) -> None:
        threads = [threading.Thread(name=f"controller/part-{i}", target=fn, args=(stop,), daemon=True)
                   for i, fn in enumerate(rx)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()  # Go: wg.Wait

    return run_all


class ControllerLoop:
    """Port of controllerLoop (controller_utils.go): a run function with a name is a Controller.

    `steps_fn`, when given, lets the deterministic driver run the same
    controller as steps (no Go twin).
    """

    def __init__(self, run_fn: RunFunc, controller_name: str, steps_fn: StepsFunc | None = None) -> None:
        self.controller_name = controller_name
        self.run_fn = run_fn
        self.steps_fn = steps_fn

    def name(self) -> str:
        """Port of controllerLoop.Name."""
        return self.controller_name

    def run(self, stop: threading.Event) -> None:
        """Port of controllerLoop.Run: call the run function. Blocks until it returns."""
        self.run_fn(stop)

    def steps(self, stop: threading.Event) -> list[Step]:
        """No upstream twin: the loop as driver steps.

        Raises:
            RuntimeError: the controller was built without steps, so a
                deterministic run cannot drive it.
        """
        if self.steps_fn is None:
            raise RuntimeError(f"controller {self.controller_name!r} has no steps; it can only run in threaded mode")
        return self.steps_fn(stop)

    def __repr__(self) -> str:
        return f"ControllerLoop({self.controller_name!r}, steps={self.steps_fn is not None})"


def new_controller_loop(run: RunFunc, controller_name: str, steps: StepsFunc | None = None) -> ControllerLoop:
    """Port of newControllerLoop (controller_utils.go). `steps` is minikcm's addition (deterministic mode)."""
    return ControllerLoop(run, controller_name, steps)


# --- controller_descriptor.go ----------------------------------------------------------


@dataclass
class ControllerDescriptor:
    """Port of ControllerDescriptor (controller_descriptor.go): static facts about one controller.

    Invariants (checked by new_controller_descriptors): the name is non-empty
    and unique, there is a constructor, and no alias is used twice or equals
    a controller name. Aliases exist for backward compatibility: an old
    name stays an alias forever once a canonical name changes.
    """

    controller_name: str
    """Canonical name, e.g. "deployment-controller" (Go: name)."""
    constructor: ControllerConstructor | None
    required_feature_gates: list[str] = field(default_factory=list)
    """Gates that must all be on, or the controller is skipped."""
    aliases: list[str] = field(default_factory=list)
    """Other names `--controllers` accepts, e.g. "deployment"."""
    disabled_by_default: bool = False
    """Not started by `*`; only when named (Go: isDisabledByDefault)."""
    cloud_provider_controller: bool = False
    """Registered for its name only; kube-controller-manager never starts it (Go: isCloudProviderController)."""
    special_handling: bool = False
    """Built outside the generic loop (the service-account token controller) (Go: requiresSpecialHandling)."""

    def name(self) -> str:
        """Port of ControllerDescriptor.Name."""
        return self.controller_name

    def get_controller_constructor(self) -> ControllerConstructor | None:
        """Port of ControllerDescriptor.GetControllerConstructor."""
        return self.constructor

    def get_required_feature_gates(self) -> list[str]:
        """Port of ControllerDescriptor.GetRequiredFeatureGates: a copy."""
        return list(self.required_feature_gates)

    def get_aliases(self) -> list[str]:
        """Port of ControllerDescriptor.GetAliases: a copy."""
        return list(self.aliases)

    def is_disabled_by_default(self) -> bool:
        """Port of ControllerDescriptor.IsDisabledByDefault."""
        return self.disabled_by_default

    def is_cloud_provider_controller(self) -> bool:
        """Port of ControllerDescriptor.IsCloudProviderController."""
        return self.cloud_provider_controller

    def requires_special_handling(self) -> bool:
        """Port of ControllerDescriptor.RequiresSpecialHandling."""
        return self.special_handling

    def build_controller(self, controller_ctx: ControllerContext) -> Controller | None:
        """Port of ControllerDescriptor.BuildController (controller_descriptor.go).

        Returns None (skip it) when a required feature gate is off or the
        controller belongs to a cloud provider; otherwise whatever the
        constructor returns, which may itself be None.

        Raises: whatever the constructor raises (NotPortedError for
        controllers minikcm does not build); KeyError for a gate that
        minikcm.features does not know (Go panics).
        """
        controller_name = self.name()
        for gate in self.get_required_feature_gates():
            if not features.DEFAULT_FEATURE_GATE.enabled(gate):
                logger.info("controller %s is disabled by a feature gate (requires %s)",
                            controller_name, ", ".join(self.get_required_feature_gates()))
                return None
        if self.is_cloud_provider_controller():
            logger.info("skipping cloud provider controller %s", controller_name)
            return None
        constructor = self.get_controller_constructor()
        assert constructor is not None, "new_controller_descriptors checks every descriptor has one"
        return constructor(controller_ctx, controller_name)

    def __repr__(self) -> str:
        return f"ControllerDescriptor({self.controller_name!r}, aliases={self.aliases})"


# --- descriptors of upstream files minikcm does not port ---------------------------------
#
# Each keeps upstream's name, aliases, gates and default state; its constructor
# says the controller is not ported. The Go file each comes from is named.


def not_ported_constructor(controller_ctx: ControllerContext, controller_name: str) -> Controller | None:
    """No upstream twin: the constructor of every controller minikcm does not port.

    Raises:
        NotPortedError: always, naming the controller and what minikcm ports.
    """
    raise NotPortedError(controller_name)


def not_ported_descriptor(name: str, aliases: Sequence[str] = (), required_feature_gates: Sequence[str] = (),
                          disabled_by_default: bool = False, special_handling: bool = False) -> ControllerDescriptor:
    """No upstream twin: a descriptor with upstream's metadata and not_ported_constructor."""
    return ControllerDescriptor(
        controller_name=name,
        constructor=not_ported_constructor,
        required_feature_gates=list(required_feature_gates),
        aliases=list(aliases),
        disabled_by_default=disabled_by_default,
        special_handling=special_handling,
    )


def new_service_account_token_controller_descriptor() -> ControllerDescriptor:
    """Port of newServiceAccountTokenControllerDescriptor: built first, outside the generic loop."""
    return ControllerDescriptor(
        controller_name=names.SERVICE_ACCOUNT_TOKEN_CONTROLLER,
        aliases=["serviceaccount-token"],
        constructor=new_service_account_token_controller,
        special_handling=True,
    )


def new_service_account_token_controller(controller_ctx: ControllerContext, controller_name: str) -> Controller | None:
    """Port of newServiceAccountTokenController for the case minikcm always is in: no private key.

    Upstream builds nothing unless --service-account-private-key-file is set;
    minikcm has no such flag (the token controller is not ported), so this
    always logs and returns None.
    """
    logger.info("controller %s is disabled because there is no private key", controller_name)
    return None


def new_endpoint_slice_controller_descriptor() -> ControllerDescriptor:
    """Port of newEndpointSliceControllerDescriptor (discovery.go); not ported."""
    return not_ported_descriptor(names.ENDPOINT_SLICE_CONTROLLER, ["endpointslice"])


def new_endpoint_slice_mirroring_controller_descriptor() -> ControllerDescriptor:
    """Port of newEndpointSliceMirroringControllerDescriptor (discovery.go); not ported."""
    return not_ported_descriptor(names.ENDPOINT_SLICE_MIRRORING_CONTROLLER, ["endpointslicemirroring"])


def new_job_controller_descriptor() -> ControllerDescriptor:
    """Port of newJobControllerDescriptor (batch.go); not ported."""
    return not_ported_descriptor(names.JOB_CONTROLLER, ["job"])


def new_cron_job_controller_descriptor() -> ControllerDescriptor:
    """Port of newCronJobControllerDescriptor (batch.go); not ported."""
    return not_ported_descriptor(names.CRON_JOB_CONTROLLER, ["cronjob"])


def new_horizontal_pod_autoscaler_controller_descriptor() -> ControllerDescriptor:
    """Port of newHorizontalPodAutoscalerControllerDescriptor (autoscaling.go); not ported."""
    return not_ported_descriptor(names.HORIZONTAL_POD_AUTOSCALER_CONTROLLER, ["horizontalpodautoscaling"])


def new_disruption_controller_descriptor() -> ControllerDescriptor:
    """Port of newDisruptionControllerDescriptor (policy.go); not ported."""
    return not_ported_descriptor(names.DISRUPTION_CONTROLLER, ["disruption"])


def new_certificate_signing_request_signing_controller_descriptor() -> ControllerDescriptor:
    """Port of newCertificateSigningRequestSigningControllerDescriptor (certificates.go); not ported."""
    return not_ported_descriptor(names.CERTIFICATE_SIGNING_REQUEST_SIGNING_CONTROLLER, ["csrsigning"])


def new_certificate_signing_request_approving_controller_descriptor() -> ControllerDescriptor:
    """Port of newCertificateSigningRequestApprovingControllerDescriptor (certificates.go); not ported."""
    return not_ported_descriptor(names.CERTIFICATE_SIGNING_REQUEST_APPROVING_CONTROLLER, ["csrapproving"])


def new_certificate_signing_request_cleaner_controller_descriptor() -> ControllerDescriptor:
    """Port of newCertificateSigningRequestCleanerControllerDescriptor (certificates.go); not ported."""
    return not_ported_descriptor(names.CERTIFICATE_SIGNING_REQUEST_CLEANER_CONTROLLER, ["csrcleaner"])


def new_pod_certificate_request_cleaner_controller_descriptor() -> ControllerDescriptor:
    """Port of newPodCertificateRequestCleanerControllerDescriptor (certificates.go); not ported."""
    return not_ported_descriptor(names.POD_CERTIFICATE_REQUEST_CLEANER_CONTROLLER,
                                 required_feature_gates=[features.POD_CERTIFICATE_REQUEST])


def new_bootstrap_signer_controller_descriptor() -> ControllerDescriptor:
    """Port of newBootstrapSignerControllerDescriptor (bootstrap.go): off by default; not ported."""
    return not_ported_descriptor(names.BOOTSTRAP_SIGNER_CONTROLLER, ["bootstrapsigner"], disabled_by_default=True)


def new_token_cleaner_controller_descriptor() -> ControllerDescriptor:
    """Port of newTokenCleanerControllerDescriptor (bootstrap.go): off by default; not ported."""
    return not_ported_descriptor(names.TOKEN_CLEANER_CONTROLLER, ["tokencleaner"], disabled_by_default=True)


def new_cluster_role_aggregation_controller_descriptor() -> ControllerDescriptor:
    """Port of newClusterRoleAggregrationControllerDescriptor (rbac.go); not ported."""
    return not_ported_descriptor(names.CLUSTER_ROLE_AGGREGATION_CONTROLLER, ["clusterrole-aggregation"])


def new_root_ca_certificate_publisher_controller_descriptor() -> ControllerDescriptor:
    """Port of newRootCACertificatePublisherControllerDescriptor (certificates.go); not ported."""
    return not_ported_descriptor(names.ROOT_CA_CERTIFICATE_PUBLISHER_CONTROLLER, ["root-ca-cert-publisher"])


def new_kube_apiserver_signer_cluster_trust_bundle_publisher_descriptor() -> ControllerDescriptor:
    """Port of newKubeAPIServerSignerClusterTrustBundledPublisherDescriptor (certificates.go); not ported."""
    return not_ported_descriptor(names.KUBE_APISERVER_CLUSTER_TRUST_BUNDLE_PUBLISHER_CONTROLLER,
                                 required_feature_gates=[features.CLUSTER_TRUST_BUNDLE])


def new_validating_admission_policy_status_controller_descriptor() -> ControllerDescriptor:
    """Port of newValidatingAdmissionPolicyStatusControllerDescriptor (validatingadmissionpolicystatus.go); not ported."""
    return not_ported_descriptor(names.VALIDATING_ADMISSION_POLICY_STATUS_CONTROLLER)


def new_service_cidrs_controller_descriptor() -> ControllerDescriptor:
    """Port of newServiceCIDRsControllerDescriptor (networking.go); not ported."""
    return not_ported_descriptor(names.SERVICE_CIDR_CONTROLLER,
                                 required_feature_gates=[features.MULTI_CIDR_SERVICE_ALLOCATOR])


def new_storage_version_migrator_controller_descriptor() -> ControllerDescriptor:
    """Port of newStorageVersionMigratorControllerDescriptor (storageversionmigrator.go); not ported.

    Upstream checks its gates inside the constructor, so none are declared here.
    """
    return not_ported_descriptor(names.STORAGE_VERSION_MIGRATOR_CONTROLLER, ["svm"])
