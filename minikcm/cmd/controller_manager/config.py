"""Port of cmd/kube-controller-manager/app/config/config.go, with the component-config types it carries.

`Config` is what the options turn into once flags are parsed and checked: the
component configuration (every tunable of every controller), the clientset,
and the event recorder. `run` takes the `CompletedConfig` that
`Config.complete` returns. Upstream keeps the component-configuration
structs in other packages; the slices we use live here too, so that options
and the controller manager share one definition.

The 1.36 fields EventBroadcaster and ControllerShutdownTimeout follow their
uses in controllermanager.go; the component-config types follow
k8s.io/controller-manager and k8s.io/component-base config/types.go.

Start reading at: KubeControllerManagerConfiguration, then Config.

Not ported: SecureServing, Authentication, Authorization, LoopbackClientConfig,
ComponentGlobalsRegistry, Flagz (minikcm serves no HTTP from the controller
manager); every component-config field of the controllers minikcm does not
port; ClientConnection's content type, QPS and burst; Debugging;
leader migration.
Differs from Go:
- `kubeconfig` is the path of the kubeconfig file, not a parsed rest.Config.
- `CompletedConfig` is a subclass carrying the same values instead of a struct
  embedding a pointer; Complete has nothing to fill in once authorization is gone.
- Durations are float seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from minikcm.apimachinery.schema import GroupResource
from minikcm.clock import Seconds

if TYPE_CHECKING:
    from minikcm.client.interface import Interface
    from minikcm.tools.leaderelection.resourcelock.interface import EventRecorder


# --- k8s.io/component-base/config/types.go --------------------------------------------


@dataclass
class LeaderElectionConfiguration:
    """Port of LeaderElectionConfiguration (component-base/config/types.go).

    The `--leader-elect*` flags. The three durations must nest as
    leaderelection.new_leader_elector requires: lease_duration >
    renew_deadline > 1.2 x retry_period.
    """

    leader_elect: bool = False
    """Run an election and act only while leading (off: act at once)."""
    lease_duration: Seconds = 0.0
    """How long followers wait, after the last change they saw, before taking over."""
    renew_deadline: Seconds = 0.0
    """How long the leader keeps retrying a failed renewal before it stops leading."""
    retry_period: Seconds = 0.0
    """Time between attempts to acquire or renew."""
    resource_lock: str = ""
    """Kind of lock object; only "leases" is left."""
    resource_name: str = ""
    """Name of the Lease."""
    resource_namespace: str = ""
    """Namespace of the Lease."""


@dataclass
class ClientConnectionConfiguration:
    """Port of ClientConnectionConfiguration (component-base/config/types.go), kubeconfig only."""

    kubeconfig: str = ""
    """Path of the kubeconfig file naming the API server and the credentials."""


# --- k8s.io/controller-manager/config/types.go ----------------------------------------


@dataclass
class GenericControllerManagerConfiguration:
    """Port of GenericControllerManagerConfiguration (controller-manager/config/types.go).

    `controllers` holds `--controllers` entries: `*` (all controllers that are
    on by default), `name` (turn one on) and `-name` (turn one off); for a
    given name the first entry that mentions it decides.
    """

    min_resync_period: Seconds = 0.0
    """Informers resync every min_resync_period x [1, 2) (a fresh random factor per factory)."""
    client_connection: ClientConnectionConfiguration = field(default_factory=ClientConnectionConfiguration)
    controller_start_interval: Seconds = 0.0
    """Each controller starts after a random wait in [interval, 2 x interval)."""
    leader_election: LeaderElectionConfiguration = field(default_factory=LeaderElectionConfiguration)
    controllers: list[str] = field(default_factory=list)
    """Which controllers to run (see the class docstring)."""


# --- pkg/controller/<kind>/config/types.go and pkg/controller/apis/config/types.go ----------


@dataclass
class DeploymentControllerConfiguration:
    """Port of DeploymentControllerConfiguration (pkg/controller/deployment/config/types.go)."""

    concurrent_deployment_syncs: int = 0
    """Number of worker threads syncing Deployments."""


@dataclass
class ReplicaSetControllerConfiguration:
    """Port of ReplicaSetControllerConfiguration (pkg/controller/replicaset/config/types.go)."""

    concurrent_rs_syncs: int = 0
    """Number of worker threads syncing ReplicaSets."""


@dataclass
class StatefulSetControllerConfiguration:
    """Port of StatefulSetControllerConfiguration (pkg/controller/statefulset/config/types.go)."""

    concurrent_stateful_set_syncs: int = 0
    """Number of worker threads syncing StatefulSets."""


@dataclass
class GarbageCollectorControllerConfiguration:
    """Port of GarbageCollectorControllerConfiguration (pkg/controller/garbagecollector/config/types.go)."""

    enable_garbage_collector: bool = False
    """Run the garbage collector at all (must match the API server's setting)."""
    concurrent_gc_syncs: int = 0
    """Number of garbage collector workers."""
    gc_ignored_resources: list[GroupResource] = field(default_factory=list)
    """Resources the garbage collector never looks at (events)."""


@dataclass
class KubeControllerManagerConfiguration:
    """Port of KubeControllerManagerConfiguration (pkg/controller/apis/config/types.go).

    The settings of the whole controller manager: the generic part and one
    section per controller. Only the sections of the controllers minikcm ports
    are kept.
    """

    generic: GenericControllerManagerConfiguration = field(default_factory=GenericControllerManagerConfiguration)
    deployment_controller: DeploymentControllerConfiguration = field(default_factory=DeploymentControllerConfiguration)
    replica_set_controller: ReplicaSetControllerConfiguration = field(default_factory=ReplicaSetControllerConfiguration)
    stateful_set_controller: StatefulSetControllerConfiguration = field(
        default_factory=StatefulSetControllerConfiguration)
    garbage_collector_controller: GarbageCollectorControllerConfiguration = field(
        default_factory=GarbageCollectorControllerConfiguration)


# --- cmd/kube-controller-manager/app/config/config.go --------------------------------------


@dataclass
class Config:
    """Port of Config (app/config/config.go): everything `run` needs, built by the options.

    `client` is the shared clientset (in-process or REST). `event_broadcaster`
    and `event_recorder` come from minikcm.tools.record (None in a Config
    built by hand: then no events are recorded).
    """

    component_config: KubeControllerManagerConfiguration = field(default_factory=KubeControllerManagerConfiguration)
    client: Interface | None = None
    """The clientset every controller and the leader election talk through."""
    kubeconfig: str = ""
    """Path of the kubeconfig the client was built from ("" for an injected client)."""
    event_broadcaster: Any = None
    """Port of EventBroadcaster (minikcm.tools.record); `run` starts and shuts it down."""
    event_recorder: EventRecorder | None = None
    """Port of EventRecorder (component "kube-controller-manager"), used by the Lease lock."""
    controller_shutdown_timeout: Seconds = 0.0
    """How long run_controllers waits for controllers to return after stop; 0 waits forever."""

    def complete(self) -> CompletedConfig:
        """Port of Config.Complete: the same settings, as the type `run` accepts."""
        return CompletedConfig(**vars(self))  # shares the same values, as Go's embedded pointer does


@dataclass
class CompletedConfig(Config):
    """Port of CompletedConfig (app/config/config.go): a Config that went through `complete`."""
