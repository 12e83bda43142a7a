"""Port of cmd/kube-controller-manager/app/core.go: the garbage collector, and the other core descriptors as metadata.

core.go registers about thirty controllers. minikcm ports one of them, the
garbage collector (a simplified one, minikcm.controller.garbagecollector).
The others are left out by design; every other descriptor keeps upstream's
name, aliases, gates and default state, with a constructor that refuses
with NotPortedError. The three cloud-provider descriptors keep upstream's
constructor, which only logs and builds nothing.

Start reading at: new_garbage_collector_controller.

Not ported: every controller of this file but the garbage collector; the
GC's discovery-driven Sync loop, metadata client and REST mapper (the
simplified collector watches the kinds minikcm serves); the CIDR helpers.
Differs from Go:
- new_garbage_collector_controller calls
  minikcm.controller.garbagecollector.garbagecollector.new_garbage_collector(client,
  informer_factory, ignored_resources): the simplified collector builds its
  own graph from the shared informers (Go: NewComposedGarbageCollector with the
  context's GraphBuilder).
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

from minikcm import features
from minikcm.cmd.controller_manager import names
from minikcm.cmd.controller_manager.controller_descriptor import (
    Controller,
    ControllerDescriptor,
    not_ported_descriptor,
)
from minikcm.controller.garbagecollector import garbagecollector

if TYPE_CHECKING:
    from minikcm.cmd.controller_manager.controllermanager import ControllerContext
    from minikcm.driver import Step

logger = logging.getLogger(__name__)

def new_service_lb_controller_descriptor() -> ControllerDescriptor:
    """Port of newServiceLBControllerDescriptor: a cloud-provider controller, never started."""
    return ControllerDescriptor(
        controller_name=names.SERVICE_LB_CONTROLLER,
        aliases=["service"],
        constructor=new_service_lb_controller,
        cloud_provider_controller=True,
    )


def new_service_lb_controller(controller_ctx: ControllerContext, controller_name: str) -> Controller | None:
    """Port of the service-lb constructor (core.go): no cloud provider in kube-controller-manager (KEP-2395)."""
    logger.warning("service-controller is set, but kube-controller-manager has no cloud provider (KEP-2395); "
                   "not configuring the service controller")
    return None


def new_node_ipam_controller_descriptor() -> ControllerDescriptor:
    """Port of newNodeIpamControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.NODE_IPAM_CONTROLLER, ["nodeipam"])


def new_node_lifecycle_controller_descriptor() -> ControllerDescriptor:
    """Port of newNodeLifecycleControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.NODE_LIFECYCLE_CONTROLLER, ["nodelifecycle"])


def new_taint_eviction_controller_descriptor() -> ControllerDescriptor:
    """Port of newTaintEvictionControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.TAINT_EVICTION_CONTROLLER,
                                 required_feature_gates=[features.SEPARATE_TAINT_EVICTION_CONTROLLER])


def new_device_taint_eviction_controller_descriptor() -> ControllerDescriptor:
    """Port of newDeviceTaintEvictionControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.DEVICE_TAINT_EVICTION_CONTROLLER,
                                 required_feature_gates=[features.DYNAMIC_RESOURCE_ALLOCATION,
                                                         features.DRA_DEVICE_TAINTS])


def new_cloud_node_lifecycle_controller_descriptor() -> ControllerDescriptor:
    """Port of newCloudNodeLifecycleControllerDescriptor: a cloud-provider controller, never started."""
    return ControllerDescriptor(
        controller_name=names.CLOUD_NODE_LIFECYCLE_CONTROLLER,
        aliases=["cloud-node-lifecycle"],
        constructor=new_cloud_node_lifecycle_controller,
        cloud_provider_controller=True,
    )


def new_cloud_node_lifecycle_controller(controller_ctx: ControllerContext, controller_name: str) -> Controller | None:
    """Port of the cloud-node-lifecycle constructor (core.go): logs and builds nothing."""
    logger.warning("node-controller is set, but kube-controller-manager has no cloud provider (KEP-2395); "
                   "not configuring the node lifecycle controller")
    return None


def new_node_route_controller_descriptor() -> ControllerDescriptor:
    """Port of newNodeRouteControllerDescriptor: a cloud-provider controller, never started."""
    return ControllerDescriptor(
        controller_name=names.NODE_ROUTE_CONTROLLER,
        aliases=["route"],
        constructor=new_node_route_controller,
        cloud_provider_controller=True,
    )


def new_node_route_controller(controller_ctx: ControllerContext, controller_name: str) -> Controller | None:
    """Port of the node-route constructor (core.go): logs and builds nothing."""
    logger.warning("configure-cloud-routes is set, but kube-controller-manager has no cloud provider (KEP-2395); "
                   "not configuring cloud provider routes")
    return None


def new_persistent_volume_binder_controller_descriptor() -> ControllerDescriptor:
    """Port of newPersistentVolumeBinderControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.PERSISTENT_VOLUME_BINDER_CONTROLLER, ["persistentvolume-binder"])


def new_persistent_volume_attach_detach_controller_descriptor() -> ControllerDescriptor:
    """Port of newPersistentVolumeAttachDetachControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.PERSISTENT_VOLUME_ATTACH_DETACH_CONTROLLER, ["attachdetach"])


def new_persistent_volume_expander_controller_descriptor() -> ControllerDescriptor:
    """Port of newPersistentVolumeExpanderControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.PERSISTENT_VOLUME_EXPANDER_CONTROLLER, ["persistentvolume-expander"])


def new_ephemeral_volume_controller_descriptor() -> ControllerDescriptor:
    """Port of newEphemeralVolumeControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.EPHEMERAL_VOLUME_CONTROLLER, ["ephemeral-volume"])


def new_resource_claim_controller_descriptor() -> ControllerDescriptor:
    """Port of newResourceClaimControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.RESOURCE_CLAIM_CONTROLLER, ["resource-claim-controller"],
                                 required_feature_gates=[features.DYNAMIC_RESOURCE_ALLOCATION])


def new_endpoints_controller_descriptor() -> ControllerDescriptor:
    """Port of newEndpointsControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.ENDPOINTS_CONTROLLER, ["endpoint"])


def new_replication_controller_descriptor() -> ControllerDescriptor:
    """Port of newReplicationControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.REPLICATION_CONTROLLER_CONTROLLER, ["replicationcontroller"])


def new_pod_garbage_collector_controller_descriptor() -> ControllerDescriptor:
    """Port of newPodGarbageCollectorControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.POD_GARBAGE_COLLECTOR_CONTROLLER, ["podgc"])


def new_resource_quota_controller_descriptor() -> ControllerDescriptor:
    """Port of newResourceQuotaControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.RESOURCE_QUOTA_CONTROLLER, ["resourcequota"])


def new_namespace_controller_descriptor() -> ControllerDescriptor:
    """Port of newNamespaceControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.NAMESPACE_CONTROLLER, ["namespace"])


def new_service_account_controller_descriptor() -> ControllerDescriptor:
    """Port of newServiceAccountControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.SERVICE_ACCOUNT_CONTROLLER, ["serviceaccount"])


def new_ttl_controller_descriptor() -> ControllerDescriptor:
    """Port of newTTLControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.TTL_CONTROLLER, ["ttl"])


def new_garbage_collector_controller_descriptor() -> ControllerDescriptor:
    """Port of newGarbageCollectorControllerDescriptor (core.go)."""
    return ControllerDescriptor(
        controller_name=names.GARBAGE_COLLECTOR_CONTROLLER,
        aliases=["garbagecollector"],
        constructor=new_garbage_collector_controller,
    )


class GarbageCollectorController:
    """Port of garbageCollectorController (core.go): the collector as a named Controller.

    `run` runs the collector with --concurrent-gc-syncs workers until stop.
    Differs from Go: no periodic discovery Sync beside it (see the module docstring).
    """

    def __init__(self, garbage_collector: Any, controller_name: str, workers: int) -> None:
        self.garbage_collector = garbage_collector
        self.controller_name = controller_name
        self.workers = workers

    def name(self) -> str:
        """Port of garbageCollectorController.Name."""
        return self.controller_name

    def run(self, stop: threading.Event) -> None:
        """Port of garbageCollectorController.Run. Blocks until `stop` is set and the workers are done."""
        self.garbage_collector.run(self.workers, stop)

    def steps(self, stop: threading.Event) -> list[Step]:
        """No upstream twin: the collector's loops as driver steps."""
        self.garbage_collector.start_event_recording()  # Run's first lines; then the driver runs its loops
        return self.garbage_collector.steps()

    def __repr__(self) -> str:
        return f"GarbageCollectorController({self.controller_name!r}, workers={self.workers})"


def new_garbage_collector_controller(controller_ctx: ControllerContext, controller_name: str) -> Controller | None:
    """Port of newGarbageCollectorController (core.go).

    Returns None when --enable-garbage-collector=false. Client
    "generic-garbage-collector"; workers: --concurrent-gc-syncs.

    Raises:
        RuntimeError: "failed to init the generic garbage collector: ...".
    """
    gc_config = controller_ctx.component_config.garbage_collector_controller
    if not gc_config.enable_garbage_collector:
        return None
    client = controller_ctx.new_client("generic-garbage-collector")
    try:
        garbage_collector = garbagecollector.new_garbage_collector(client, controller_ctx.informer_factory,
                                                                   list(gc_config.gc_ignored_resources))
    except Exception as err:  # Go: the constructor's error, wrapped
        raise RuntimeError(f"failed to init the generic garbage collector: {err}") from err
    return GarbageCollectorController(garbage_collector, controller_name, gc_config.concurrent_gc_syncs)


def new_persistent_volume_claim_protection_controller_descriptor() -> ControllerDescriptor:
    """Port of newPersistentVolumeClaimProtectionControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.PERSISTENT_VOLUME_CLAIM_PROTECTION_CONTROLLER, ["pvc-protection"])


def new_persistent_volume_protection_controller_descriptor() -> ControllerDescriptor:
    """Port of newPersistentVolumeProtectionControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.PERSISTENT_VOLUME_PROTECTION_CONTROLLER, ["pv-protection"])


def new_volume_attributes_class_protection_controller_descriptor() -> ControllerDescriptor:
    """Port of newVolumeAttributesClassProtectionControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.VOLUME_ATTRIBUTES_CLASS_PROTECTION_CONTROLLER,
                                 required_feature_gates=[features.VOLUME_ATTRIBUTES_CLASS])


def new_ttl_after_finished_controller_descriptor() -> ControllerDescriptor:
    """Port of newTTLAfterFinishedControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.TTL_AFTER_FINISHED_CONTROLLER, ["ttl-after-finished"])


def new_legacy_service_account_token_cleaner_controller_descriptor() -> ControllerDescriptor:
    """Port of newLegacyServiceAccountTokenCleanerControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.LEGACY_SERVICE_ACCOUNT_TOKEN_CLEANER_CONTROLLER,
                                 ["legacy-service-account-token-cleaner"])


def new_storage_version_garbage_collector_controller_descriptor() -> ControllerDescriptor:
    """Port of newStorageVersionGarbageCollectorControllerDescriptor (core.go); not ported."""
    return not_ported_descriptor(names.STORAGE_VERSION_GARBAGE_COLLECTOR_CONTROLLER, ["storage-version-gc"],
                                 required_feature_gates=[features.API_SERVER_IDENTITY,
                                                         features.STORAGE_VERSION_API])


def new_selinux_warning_controller_descriptor() -> ControllerDescriptor:
    """Port of newSELinuxWarningControllerDescriptor (core.go): off by default; not ported."""
    return not_ported_descriptor(names.SELINUX_WARNING_CONTROLLER, disabled_by_default=True,
                                 required_feature_gates=[features.SELINUX_CHANGE_POLICY])
