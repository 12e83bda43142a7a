"""Port of cmd/kube-controller-manager/app/controller_descriptor.go (with controller_utils.go and k8s.io/controller-manager controller/interfaces.go).

The registry of controllers. Each `ControllerDescriptor` names a controller
and says how to build it: its constructor, its aliases for `--controllers`,
the feature gates it needs, and whether it is off unless asked for. The
controller manager builds the enabled ones (`build_controllers`) and runs
what they return: anything with `name()` and `run(stop)` (`Controller`).
`new_controller_loop` turns a plain run function into such a Controller.

minikcm registers every controller kube-controller-manager has at v1.36.3, so
that names, aliases and `--controllers` checks behave as upstream. Only four
are ported (PORTED_CONTROLLERS); the constructor of any other raises
NotPortedError, and so do the constructors of the four until their packages
exist.

Read at: controller_descriptor.go at k/k commit
0158d1b41c0296239adbbe5bc925fa635befd14d (a copy from after the 1.36 cut; its
one extra registration, the pod checkpoint controller, is left out because the
2e0908106e4420a601e50d6edfd41475de87a3e1 tests do not know it);
controller_utils.go at 81810de635aa13aa0a32992f6def3aa9d6025ebc;
controller-manager v0.36.3 controller/interfaces.go. Descriptor data of the
controllers we do not port: core.go at 2e09 (in core.py); the other files from
the copies named there. Upstream:
https://github.com/kubernetes/kubernetes/blob/v1.36.3/cmd/kube-controller-manager/app/controller_descriptor.go

Start reading at: ControllerDescriptor.build_controller, then new_controller_descriptors.

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
- NewControllerDescriptors panics on a bad registration; we raise RuntimeError.
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
    """No upstream twin: raised by the constructor of a controller minikcm cannot build.

    Either minikcm does not port the controller at all, or it does but the
    package is not written yet (`missing_module` names it). The message always
    lists what minikcm ports.
    """

    def __init__(self, controller_name: str, missing_module: str = "") -> None:
        self.controller_name = controller_name
        self.missing_module = missing_module
        ported = ", ".join(PORTED_CONTROLLERS)
        if missing_module:
            message = (f"controller {controller_name!r} is not yet ported: {missing_module} does not exist yet; "
                       f"ported: {ported}")
        else:
            message = f"controller {controller_name!r} is not ported by minikcm; ported: {ported}"
        super().__init__(message)


def raise_not_yet_ported(err: ImportError, controller_name: str, module: str) -> None:
    """No upstream twin: turn "the controller's module is missing" into NotPortedError.

    Called from a constructor's `except ImportError` around its lazy import.
    Raises NotPortedError when `err` is about `module` (or a package above it):
    the module, or the function we import from it, is not written yet.
    Returns for any other import error, which the caller then re-raises: a
    bug inside an existing module must not pass for "not ported".
    """
    missing = err.name or ""
    if missing and (module == missing or module.startswith(missing + ".")):
        raise NotPortedError(controller_name, missing_module=module) from err


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


def known_controllers() -> list[str]:
    """Port of KnownControllers: every registered controller name, sorted."""
    return sorted(new_controller_descriptors())


def controller_aliases() -> dict[str, str]:
    """Port of ControllerAliases: alias -> canonical name, for every registered controller."""
    aliases: dict[str, str] = {}
    descriptors = new_controller_descriptors()
    for name in sorted(descriptors):
        for alias in descriptors[name].get_aliases():
            aliases[alias] = name
    return aliases


def controllers_disabled_by_default() -> list[str]:
    """Port of ControllersDisabledByDefault: names `*` leaves off, sorted."""
    descriptors = new_controller_descriptors()
    return sorted(name for name, d in descriptors.items() if d.is_disabled_by_default())


def new_controller_descriptors() -> dict[str, ControllerDescriptor]:
    """Port of NewControllerDescriptors (controller_descriptor.go): the registry, freshly built.

    Registers every controller kube-controller-manager knows, in upstream's
    order, checking each registration: a name, a constructor, no duplicate
    name or alias, and (at the end) no alias equal to a controller name.
    Each call returns new descriptor objects, so a test may change one.

    Raises:
        RuntimeError: a broken registration (Go panics).
    """
    # Imported here because apps.py and core.py import this module (Go: one package).
    from minikcm.cmd.controller_manager import apps, core

    controllers: dict[str, ControllerDescriptor] = {}
    aliases: set[str] = set()

    def register(controller_desc: ControllerDescriptor | None) -> None:
        if controller_desc is None:
            raise RuntimeError("received nil controller for a registration")
        name = controller_desc.name()
        if not name:
            raise RuntimeError("received controller without a name for a registration")
        if name in controllers:
            raise RuntimeError(f'controller name "{name}" was registered twice')
        if controller_desc.get_controller_constructor() is None:
            raise RuntimeError(f'controller "{name}" does not have a constructor specified')
        for alias in controller_desc.get_aliases():
            if alias in aliases:
                raise RuntimeError(f'controller "{name}" has a duplicate alias "{alias}"')
            aliases.add(alias)
        controllers[name] = controller_desc

    # The service-account token controller is special: built first, outside the loop.
    register(new_service_account_token_controller_descriptor())

    register(core.new_endpoints_controller_descriptor())
    register(new_endpoint_slice_controller_descriptor())
    register(new_endpoint_slice_mirroring_controller_descriptor())
    register(core.new_replication_controller_descriptor())
    register(core.new_pod_garbage_collector_controller_descriptor())
    register(core.new_resource_quota_controller_descriptor())
    register(core.new_namespace_controller_descriptor())
    register(core.new_service_account_controller_descriptor())
    register(core.new_garbage_collector_controller_descriptor())
    register(apps.new_daemon_set_controller_descriptor())
    register(new_job_controller_descriptor())
    register(apps.new_deployment_controller_descriptor())
    register(apps.new_replica_set_controller_descriptor())
    register(new_horizontal_pod_autoscaler_controller_descriptor())
    register(new_disruption_controller_descriptor())
    register(apps.new_stateful_set_controller_descriptor())
    register(new_cron_job_controller_descriptor())
    register(new_certificate_signing_request_signing_controller_descriptor())
    register(new_certificate_signing_request_approving_controller_descriptor())
    register(new_certificate_signing_request_cleaner_controller_descriptor())
    register(new_pod_certificate_request_cleaner_controller_descriptor())
    register(core.new_ttl_controller_descriptor())
    register(new_bootstrap_signer_controller_descriptor())
    register(new_token_cleaner_controller_descriptor())
    register(core.new_node_ipam_controller_descriptor())
    register(core.new_node_lifecycle_controller_descriptor())

    register(core.new_service_lb_controller_descriptor())  # cloud provider controller
    register(core.new_node_route_controller_descriptor())  # cloud provider controller
    register(core.new_cloud_node_lifecycle_controller_descriptor())  # cloud provider controller

    register(core.new_persistent_volume_binder_controller_descriptor())
    register(core.new_persistent_volume_attach_detach_controller_descriptor())
    register(core.new_persistent_volume_expander_controller_descriptor())
    register(new_cluster_role_aggregation_controller_descriptor())
    register(core.new_persistent_volume_claim_protection_controller_descriptor())
    register(core.new_persistent_volume_protection_controller_descriptor())
    register(core.new_volume_attributes_class_protection_controller_descriptor())
    register(core.new_ttl_after_finished_controller_descriptor())
    register(new_root_ca_certificate_publisher_controller_descriptor())
    register(new_kube_apiserver_signer_cluster_trust_bundle_publisher_descriptor())
    register(core.new_ephemeral_volume_controller_descriptor())

    # feature gated
    register(core.new_storage_version_garbage_collector_controller_descriptor())
    register(core.new_resource_claim_controller_descriptor())
    register(core.new_device_taint_eviction_controller_descriptor())
    register(core.new_legacy_service_account_token_cleaner_controller_descriptor())
    register(new_validating_admission_policy_status_controller_descriptor())
    register(core.new_taint_eviction_controller_descriptor())
    register(new_service_cidrs_controller_descriptor())
    register(new_storage_version_migrator_controller_descriptor())
    register(core.new_selinux_warning_controller_descriptor())

    for alias in sorted(aliases):
        if alias in controllers:
            raise RuntimeError(f'alias "{alias}" conflicts with a controller name')
    return controllers


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
