"""Port of cmd/kube-controller-manager/app/controllermanager.go (helper.go and client_builder.go have modules of their own).

How kube-controller-manager starts. `run` (Go: Run, here the methods of
`ControllerManager`) joins the leader election on the
`kube-system/kube-controller-manager` Lease; only while this process leads
does it build the controller context and the enabled controllers, start the
informers and run each controller. When leadership is lost the controllers
stop and `run` returns: the process is expected to exit and be restarted.
With `--leader-elect=false` the same work starts at once. On a driven clock
`steps()` hands the same Run to the driver (deterministic.py adds the driver
and the controllers' start steps).

Start reading at: ControllerManager.run, then start_leading, build_controllers and run_controllers.

Not ported: NewControllerManagerCommand (cobra; minikcm.cli has the command),
configz, the HTTP server with healthz, metrics and debug handlers, flagz and
statusz, WaitForAPIServer, the service-account token controller and the
dynamic (service-account) client builder, the metadata informer factory, the
REST mapper and its reset loop, the GC GraphBuilder in the context, leader
migration, coordinated leader election (LeaseCandidate), readCA,
filteredControllerDescriptors, the periodic "still waiting" log of RunControllers.
Differs from Go:
- Go ranges over the descriptor map in random order; build_controllers goes
  in sorted name order.
- A controller that minikcm does not port is skipped, with one log line, when
  only `*` enabled it; named explicitly in --controllers, it fails the start
  with NotPortedError.
- The lock is built from the shared clientset (Go: NewFromKubeconfig, a client
  with the renew deadline as timeout).
- `clock`, `rng` (resync and start jitter, identity) and `identity` are
  injected; the informer factory and the descriptor registry may be too.
- Losing leadership makes `run` return, as in Go, after logging
  "leaderelection lost/stopped"; the caller decides to exit.
"""

from __future__ import annotations

import functools
import logging
import random
import socket
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from minikcm.apimachinery import wait
from minikcm.apimachinery.field import Aggregate
from minikcm.clock import Clock, Seconds, or_real
from minikcm.cmd.controller_manager import apps, core, names
from minikcm.cmd.controller_manager.config import CompletedConfig, KubeControllerManagerConfiguration
from minikcm.cmd.controller_manager import controller_descriptor as cd
from minikcm.cmd.controller_manager.client_builder import ControllerClientBuilder, SimpleControllerClientBuilder
from minikcm.cmd.controller_manager.controller_descriptor import Controller, ControllerDescriptor, NotPortedError
from minikcm.cmd.controller_manager.helper import is_controller_enabled
from minikcm.tools.leaderelection import resourcelock
from minikcm.tools.leaderelection.healthzadaptor import HealthzAdaptor, new_leader_healthz_adaptor
from minikcm.driver import Step
from minikcm.tools.leaderelection.leaderelection import (
    LeaderCallbacks,
    LeaderElectionConfig,
    LeaderElector,
    new_leader_elector,
    run_or_die,
)

if TYPE_CHECKING:
    from minikcm.client.interface import Interface

logger = logging.getLogger(__name__)

CONTROLLER_START_JITTER = 1.0
"""Port of ControllerStartJitter: each controller waits ControllerStartInterval x [1, 2) before it starts."""
KUBE_CONTROLLER_MANAGER = "kube-controller-manager"
"""Port of kubeControllerManager: the component name (lease, events, informer name)."""
LEADER_HEALTHZ_TIMEOUT: Seconds = 20.0
"""How long past the lease a stuck leader may go before its health check fails (Go: inline 20s)."""

DescriptorsFunc = Callable[[], dict[str, ControllerDescriptor]]
InformerFactoryFunc = Callable[["Interface", Seconds], Any]


# --- controller_descriptor.go: the registry (see the module docstring) --------------------


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
    register(cd.new_service_account_token_controller_descriptor())

    register(core.new_endpoints_controller_descriptor())
    register(cd.new_endpoint_slice_controller_descriptor())
    register(cd.new_endpoint_slice_mirroring_controller_descriptor())
    register(core.new_replication_controller_descriptor())
    register(core.new_pod_garbage_collector_controller_descriptor())
    register(core.new_resource_quota_controller_descriptor())
    register(core.new_namespace_controller_descriptor())
    register(core.new_service_account_controller_descriptor())
    register(core.new_garbage_collector_controller_descriptor())
    register(apps.new_daemon_set_controller_descriptor())
    register(cd.new_job_controller_descriptor())
    register(apps.new_deployment_controller_descriptor())
    register(apps.new_replica_set_controller_descriptor())
    register(cd.new_horizontal_pod_autoscaler_controller_descriptor())
    register(cd.new_disruption_controller_descriptor())
    register(apps.new_stateful_set_controller_descriptor())
    register(cd.new_cron_job_controller_descriptor())
    register(cd.new_certificate_signing_request_signing_controller_descriptor())
    register(cd.new_certificate_signing_request_approving_controller_descriptor())
    register(cd.new_certificate_signing_request_cleaner_controller_descriptor())
    register(cd.new_pod_certificate_request_cleaner_controller_descriptor())
    register(core.new_ttl_controller_descriptor())
    register(cd.new_bootstrap_signer_controller_descriptor())
    register(cd.new_token_cleaner_controller_descriptor())
    register(core.new_node_ipam_controller_descriptor())
    register(core.new_node_lifecycle_controller_descriptor())

    register(core.new_service_lb_controller_descriptor())  # cloud provider controller
    register(core.new_node_route_controller_descriptor())  # cloud provider controller
    register(core.new_cloud_node_lifecycle_controller_descriptor())  # cloud provider controller

    register(core.new_persistent_volume_binder_controller_descriptor())
    register(core.new_persistent_volume_attach_detach_controller_descriptor())
    register(core.new_persistent_volume_expander_controller_descriptor())
    register(cd.new_cluster_role_aggregation_controller_descriptor())
    register(core.new_persistent_volume_claim_protection_controller_descriptor())
    register(core.new_persistent_volume_protection_controller_descriptor())
    register(core.new_volume_attributes_class_protection_controller_descriptor())
    register(core.new_ttl_after_finished_controller_descriptor())
    register(cd.new_root_ca_certificate_publisher_controller_descriptor())
    register(cd.new_kube_apiserver_signer_cluster_trust_bundle_publisher_descriptor())
    register(core.new_ephemeral_volume_controller_descriptor())

    # feature gated
    register(core.new_storage_version_garbage_collector_controller_descriptor())
    register(core.new_resource_claim_controller_descriptor())
    register(core.new_device_taint_eviction_controller_descriptor())
    register(core.new_legacy_service_account_token_cleaner_controller_descriptor())
    register(cd.new_validating_admission_policy_status_controller_descriptor())
    register(core.new_taint_eviction_controller_descriptor())
    register(cd.new_service_cidrs_controller_descriptor())
    register(cd.new_storage_version_migrator_controller_descriptor())
    register(core.new_selinux_warning_controller_descriptor())

    for alias in sorted(aliases):
        if alias in controllers:
            raise RuntimeError(f'alias "{alias}" conflicts with a controller name')
    return controllers


# --- controllermanager.go ---------------------------------------------------------------


def resync_period(c: CompletedConfig, rng: random.Random | None = None) -> Callable[[], Seconds]:
    """Port of ResyncPeriod (controllermanager.go).

    Returns a function giving a new period each call: min_resync_period times a
    random factor in [1, 2), so that informers of different controllers do
    not relist in lock step. With the 12 h default: between 12 h and 24 h.
    """
    draw = rng.random if rng is not None else random.random

    def period() -> Seconds:
        factor = draw() + 1
        return c.component_config.generic.min_resync_period * factor

    return period


@dataclass
class ControllerContext:
    """Port of ControllerContext (controllermanager.go): what every controller constructor is given.

    `informers_started` is set once all controllers are built and the shared
    informers are running; controllers that start informers of their own wait
    for it.
    """

    client_builder: ControllerClientBuilder
    informer_factory: Any
    """The shared informer factory (minikcm.informers); controllers take their informers from it."""
    component_config: KubeControllerManagerConfiguration
    informers_started: threading.Event = field(default_factory=threading.Event)
    resync_period: Callable[[], Seconds] = field(default=lambda: 0.0)
    """A new, randomised resync period each call (create_controller_context sets it)."""
    clock: Clock | None = None
    """No Go twin: the clock controllers should use (None: the real one)."""
    rng: random.Random | None = None
    """No Go twin: the random source for jitter."""

    def is_controller_enabled(self, controller_descriptor: ControllerDescriptor) -> bool:
        """Port of ControllerContext.IsControllerEnabled: is_controller_enabled over --controllers."""
        disabled: set[str] = set()
        if controller_descriptor.is_disabled_by_default():
            disabled.add(controller_descriptor.name())
        return is_controller_enabled(controller_descriptor.name(), disabled,
                                     self.component_config.generic.controllers)

    def is_controller_explicitly_enabled(self, controller_descriptor: ControllerDescriptor) -> bool:
        """No upstream twin: enabled because --controllers names it (not only through `*`)."""
        return (self.is_controller_enabled(controller_descriptor)
                and controller_descriptor.name() in self.component_config.generic.controllers)

    def new_client(self, name: str) -> Interface:
        """Port of ControllerContext.NewClient: the client for the controller called `name`.

        Raises: RuntimeError `failed to create Kubernetes client for "name": ...`.
        """
        try:
            return self.client_builder.client(name)
        except Exception as err:  # Go wraps the builder's error
            raise RuntimeError(f"failed to create Kubernetes client for {name!r}: {err}") from err


def trim_managed_fields(obj: Any) -> Any:
    """Port of the `trim` transform of CreateControllerContext: cached objects drop metadata.managedFields.

    The controllers never read them and they are often the largest part of an
    object. Anything without metadata (a deletion tombstone) passes unchanged.
    """
    metadata = getattr(obj, "metadata", None)  # Go: meta.Accessor, which fails for non-objects
    if metadata is not None and getattr(metadata, "managed_fields", None) is not None:
        metadata.managed_fields = None
    return obj


def new_shared_informers(client: Interface, default_resync: Seconds, clock: Clock | None,
                         rng: random.Random | None) -> Any:
    """Port of the NewSharedInformerFactoryWithOptions call of CreateControllerContext.

    With the managedFields trim as transform; `clock` (whose `driven` mark
    chooses steps or threads) and `rng` go to minikcm's factory (no Go twin).
    """
    from minikcm.informers import new_shared_informer_factory_with_options

    return new_shared_informer_factory_with_options(
        client, default_resync, transform=trim_managed_fields, clock=clock, rng=rng)


def create_controller_context(s: CompletedConfig, root_client_builder: ControllerClientBuilder,
                              client_builder: ControllerClientBuilder, stop: threading.Event,
                              clock: Clock | None = None, rng: random.Random | None = None,
                              new_informer_factory: InformerFactoryFunc | None = None) -> ControllerContext:
    """Port of CreateControllerContext (controllermanager.go).

    Builds the shared informer factory on the root client ("shared-informers")
    with one randomised resync period and the managedFields trim, and the
    context every constructor gets. `stop` ends what the context starts (Go:
    ctx); nothing is started here. `new_informer_factory(client, resync)`
    replaces minikcm.informers' factory (tests). A driven `clock` makes that
    factory hand out steps instead of starting threads.
    Differs from Go: no metadata informers, REST mapper, API server health
    wait or GC graph builder (see the module docstring).
    """
    try:
        versioned_client = root_client_builder.client("shared-informers")
    except Exception as err:
        raise RuntimeError(f"failed to create Kubernetes client for \"shared-informers\": {err}") from err
    default_resync = resync_period(s, rng)()
    if new_informer_factory is not None:
        shared_informers = new_informer_factory(versioned_client, default_resync)
    else:
        shared_informers = new_shared_informers(versioned_client, default_resync, clock, rng)
    return ControllerContext(client_builder=client_builder, informer_factory=shared_informers,
                             component_config=s.component_config, informers_started=threading.Event(),
                             resync_period=resync_period(s, rng), clock=clock, rng=rng)


def build_controllers(
    controller_ctx: ControllerContext, controller_descriptors: dict[str, ControllerDescriptor]
) -> list[Controller]:
    """Port of BuildControllers (controllermanager.go): build every enabled controller, start none.

    The service-account token controller (when present) is built first; then
    every other descriptor in name order, skipping those that need special
    handling or that --controllers leaves off. A constructor may return None
    ("skip me"). minikcm addition: a NotPortedError from a controller that
    only `*` enabled is collected and logged once; for a controller named in
    --controllers it is raised.

    Raises: the first constructor error (the controller manager must not
    start half its controllers).
    """
    controllers: list[Controller] = []
    not_ported: list[str] = []

    def build_controller(controller_desc: ControllerDescriptor) -> None:
        controller_name = controller_desc.name()
        try:
            ctrl = controller_desc.build_controller(controller_ctx)
        except NotPortedError:
            if controller_ctx.is_controller_explicitly_enabled(controller_desc):
                logger.error("controller %s was asked for but is not ported", controller_name)
                raise
            not_ported.append(controller_name)
            return
        except Exception:
            logger.exception("error initializing controller %s", controller_name)
            raise
        if ctrl is None:
            logger.info("skipping controller %s", controller_name)
            return
        controllers.append(ctrl)

    # The service-account token controller always comes first (Go: it mints tokens for the rest).
    sa_token_descriptor = controller_descriptors.get(names.SERVICE_ACCOUNT_TOKEN_CONTROLLER)
    if sa_token_descriptor is not None:
        build_controller(sa_token_descriptor)

    for name in sorted(controller_descriptors):  # Go: map order
        controller_desc = controller_descriptors[name]
        if controller_desc.requires_special_handling():
            continue
        if not controller_ctx.is_controller_enabled(controller_desc):
            logger.info("controller %s is disabled", name)
            continue
        build_controller(controller_desc)
    if not_ported:
        logger.info("skipping %d controllers that minikcm does not port: %s", len(not_ported), ", ".join(not_ported))
    return controllers


def run_controllers(controller_ctx: ControllerContext, controllers: list[Controller],
                    controller_start_jitter_max_factor: float, shutdown_timeout: Seconds,
                    stop: threading.Event) -> bool:
    """Port of RunControllers (controllermanager.go): run every controller until `stop`, then wait for them.

    Each controller gets a thread (`controllers/run-<n>`) that first sleeps a
    jittered ControllerStartInterval, then calls `run(stop)`. Once `stop` is
    set we wait up to `shutdown_timeout` (0: forever) for all of them to
    return. Returns True when they all returned, False on timeout (the
    stragglers keep running, as Go's goroutines would). ControllerManager's
    steps schedule the same jittered starts on a driven clock.

    Blocks: until all controllers returned, or `stop` plus the timeout.
    """
    clock = or_real(controller_ctx.clock)
    start_interval = controller_ctx.component_config.generic.controller_start_interval
    running: set[str] = set()  # Go: runningControllers; set.add/discard are atomic here
    group = wait.Group(name="controllers/run")  # Go: wg

    def run_one(controller: Controller) -> None:
        # Go sleeps without watching ctx here: unblocking early makes tests flaky.
        clock.sleep(wait.jitter(start_interval, controller_start_jitter_max_factor, controller_ctx.rng))
        logger.debug("controller %s starting", controller.name())
        running.add(controller.name())
        try:
            controller.run(stop)
        finally:
            logger.debug("controller %s terminated", controller.name())
            running.discard(controller.name())

    terminated = threading.Event()  # Go: terminatedCh
    wake = threading.Event()  # Go: the select over ctx.Done and terminatedCh

    def run_all() -> None:
        for controller in controllers:
            group.start(functools.partial(run_one, controller))
        group.wait()
        logger.info("all controllers terminated")
        terminated.set()
        wake.set()

    helpers = wait.Group(name="controllers/wait")
    helpers.start(run_all)
    helpers.start(lambda: (stop.wait(), wake.set()))
    wake.wait()
    if terminated.is_set():
        return True
    if shutdown_timeout <= 0:  # Go: no timeout, wait for terminatedCh
        terminated.wait()
        return True
    if clock.sleep(shutdown_timeout, terminated):
        return True  # woken early: all controllers returned
    logger.info("controller shutdown timeout (%ss) reached; still running: %s", shutdown_timeout, sorted(running))
    return False


def create_client_builders(c: CompletedConfig) -> tuple[ControllerClientBuilder, ControllerClientBuilder]:
    """Port of createClientBuilders: (client builder, root client builder), both the simple one here.

    Differs from Go: --use-service-account-credentials is not ported, so both
    builders hand out the controller manager's own client.
    """
    if c.client is None:
        raise RuntimeError("the controller manager config has no client")
    root_client_builder = SimpleControllerClientBuilder(c.client)
    return root_client_builder, root_client_builder


def new_leader_election_config(c: CompletedConfig, lock_identity: str, election_checker: HealthzAdaptor | None,
                               resource_lock: str, lease_name: str, callbacks: LeaderCallbacks) -> LeaderElectionConfig:
    """Port of the first half of leaderElectAndRun: the Lease lock and the election config.

    Raises:
        RuntimeError: "error creating lock: ..." (Go logs it and exits 1).
    """
    le = c.component_config.generic.leader_election
    assert c.client is not None, "create_client_builders checks the client first"
    try:
        rl = resourcelock.new(resource_lock, le.resource_namespace, lease_name, c.client.coordination_v1(),
                              resourcelock.ResourceLockConfig(identity=lock_identity, event_recorder=c.event_recorder))
    except ValueError as err:
        raise RuntimeError(f"error creating lock: {err}") from err
    return LeaderElectionConfig(lock=rl, lease_duration=le.lease_duration, renew_deadline=le.renew_deadline,
                                retry_period=le.retry_period, callbacks=callbacks, watch_dog=election_checker,
                                name=lease_name, coordinated=False)  # Go: the CoordinatedLeaderElection gate, off


def leader_elect_and_run(c: CompletedConfig, lock_identity: str, election_checker: HealthzAdaptor | None,
                         resource_lock: str, lease_name: str, callbacks: LeaderCallbacks, stop: threading.Event,
                         clock: Clock | None = None, rng: random.Random | None = None) -> None:
    """Port of leaderElectAndRun (controllermanager.go): join the election and run the callbacks.

    Blocks: until `stop` is set or leadership is lost (leaderelection.run_or_die).
    """
    config = new_leader_election_config(c, lock_identity, election_checker, resource_lock, lease_name, callbacks)
    run_or_die(config, stop, clock=clock, rng=rng)


def new_identity(rng: random.Random | None = None) -> str:
    """Port of the identity in Run: the host name, "_", and a fresh UUID.

    The UUID keeps two processes on one host apart. With `rng` the UUID is
    drawn from it (deterministic runs); otherwise uuid4.
    """
    uid = uuid.UUID(int=rng.getrandbits(128), version=4) if rng is not None else uuid.uuid4()
    return f"{socket.gethostname()}_{uid}"


def run(c: CompletedConfig, stop: threading.Event, identity: str | None = None, clock: Clock | None = None,
        rng: random.Random | None = None, new_descriptors: DescriptorsFunc = new_controller_descriptors,
        new_informer_factory: InformerFactoryFunc | None = None) -> None:
    """Port of Run (controllermanager.go): the whole controller manager, threaded; see ControllerManager.run."""
    ControllerManager(c, identity, clock, rng, new_descriptors, new_informer_factory).run(stop)


NEW, CAMPAIGNING, RUNNING, STOPPED = "new", "campaigning", "running", "stopped"


class ControllerManager:
    """Port of Run (controllermanager.go), its locals on an object: one kube-controller-manager process.

    `run(stop)` is Run on threads; deterministic.ControllerManager hands the
    same object to a driver. Both go through the election's callbacks and the
    term's `start_leading` and `end_leading`; only the controllers' jittered
    starts differ: threads that sleep (`run_controllers`) or steps due then.
    `stop` is Run's own context, set by `cancel()` and by a term's end.
    """

    def __init__(self, c: CompletedConfig, identity: str | None = None, clock: Clock | None = None,
                 rng: random.Random | None = None, new_descriptors: DescriptorsFunc = new_controller_descriptors,
                 new_informer_factory: InformerFactoryFunc | None = None) -> None:
        self.c = c
        self.clock: Clock = or_real(clock)
        self.rng = rng
        self.identity = identity if identity is not None else new_identity(rng)
        self.new_descriptors = new_descriptors
        self.new_informer_factory = new_informer_factory
        self.stop = threading.Event()
        self.leading_stop = self.stop  # the leading term's context (Go: startedLeading's ctx)
        self.state = NEW
        self.controller_ctx: ControllerContext | None = None
        self.controllers: list[Controller] = []
        self.errors: list[Exception] = []  # Go: errs (list.append is atomic here: no errsLock)
        self.record: Callable[[str, str], None] | None = None  # e.g. Driver.record, for the trace
        self.elector: LeaderElector | None = None  # built by steps(); run() leaves it to run_or_die
        self.release_on_cancel = False  # no kube-controller-manager flag; shows client-go's option (steps only)
        self.running: list[str] = []  # controllers started as steps and not yet stopped

    def run(self, stop: threading.Event) -> None:
        """Port of Run: the events pipeline, then the leading term behind the election (or at once without it).

        Blocks: until `stop` is set, or leadership is lost.
        Raises: Aggregate, the errors of the term (Go: NewAggregate); RuntimeError, a bad lock or election config.
        """
        wait.Group(name="controller-manager/cancel").start(lambda: (stop.wait(), self.cancel()))  # Go: child ctx
        le = self.begin_run()
        try:
            if not le.leader_elect:  # no leader election: run directly
                self.run_leading(self.stop)
                return
            leader_elect_and_run(self.c, self.identity, new_leader_healthz_adaptor(LEADER_HEALTHZ_TIMEOUT),
                                 le.resource_lock, le.resource_name, self.callbacks(), self.stop, self.clock, self.rng)
        finally:
            self.end_run()
        if self.errors:
            raise Aggregate(self.errors)

    def begin_run(self) -> Any:
        """Port of the start of Run: the events pipeline. Returns the leader election configuration."""
        logger.info("starting %s %s", KUBE_CONTROLLER_MANAGER, self.identity)
        start_events_pipeline(self.c)
        self.state = CAMPAIGNING
        return self.c.component_config.generic.leader_election

    def end_run(self) -> None:
        """Port of Run's deferred EventBroadcaster.Shutdown, at the end of the process."""
        self.state = STOPPED
        shutdown_events_pipeline(self.c)

    def callbacks(self) -> LeaderCallbacks:
        """Port of the LeaderCallbacks Run hands to leaderElectAndRun."""
        return LeaderCallbacks(on_started_leading=self.started_leading, on_stopped_leading=self.stopped_leading)

    def started_leading(self, leading_stop: threading.Event) -> None:
        """Port of startedLeading around OnStartedLeading: run the term (threads: until it ends; steps: until
        it is scheduled); an error goes to errs and cancels."""
        try:
            self.run_leading(leading_stop)
        except Exception as err:  # Go: run's error goes to errs, then the deferred cancel()
            logger.error("error running controllers: %s", err)
            self.errors.append(err)
            self.note("run", f"failed: {err}")
            self.cancel()

    def stopped_leading(self) -> None:
        """Port of Run's OnStoppedLeading."""
        logger.error("leaderelection lost/stopped")
        self.note("leaderelection", "leaderelection lost/stopped")

    def run_leading(self, leading_stop: threading.Event) -> None:
        """Port of Run's local `run`: start the term, run the controllers until `leading_stop`, end the term.

        Raises: RuntimeError "controller shutdown timeout reached".
        """
        self.start_leading(leading_stop)
        try:
            if self.controllers:
                if not run_controllers(self.controller_ctx, self.controllers,  # type: ignore[arg-type]
                                       CONTROLLER_START_JITTER, self.c.controller_shutdown_timeout, leading_stop):
                    raise RuntimeError("controller shutdown timeout reached")
            else:
                leading_stop.wait()
        finally:
            self.end_leading()

    def start_leading(self, leading_stop: threading.Event) -> None:
        """Port of the start of Run's local `run`: context, controllers, informers started, InformersStarted closed."""
        self.leading_stop = leading_stop
        client_builder, root_client_builder = create_client_builders(self.c)
        ctx = create_controller_context(self.c, root_client_builder, client_builder, leading_stop, clock=self.clock,
                                        rng=self.rng, new_informer_factory=self.new_informer_factory)
        self.controller_ctx = ctx
        self.controllers = build_controllers(ctx, self.new_descriptors())
        ctx.informer_factory.start(leading_stop)  # on a driven clock this starts nothing; the factory's steps run
        ctx.informers_started.set()  # Go: close(InformersStarted)
        self.state = RUNNING
        self.note("run", "built controllers: " + (", ".join(c.name() for c in self.controllers) or "none"))

    def end_leading(self) -> None:
        """Port of the end of Run's local `run` (the informers' deferred Shutdown) and of startedLeading's cancel."""
        if self.controller_ctx is not None:
            self.controller_ctx.informer_factory.shutdown()
        self.cancel()

    def cancel(self) -> None:
        """Cancel Run's context (SIGTERM): the election ends at its next step, the term with it."""
        self.stop.set()

    def note(self, step: str, detail: str) -> None:
        """No upstream twin: pass a decision to the driver's trace (when `record` is set)."""
        if self.record is not None:
            self.record(f"controller-manager/{self.identity}/{step}", detail)

    # -- the same Run on a driven clock (no Go twin; deterministic.ControllerManager adds the rest) ----------

    def steps(self) -> list[Step]:
        """No upstream twin: Run's start as driver steps: the events pipeline, then the election's steps (without
        election: a step that runs the term and one that ends Run once cancelled). Names go through `adopt`.

        Raises: RuntimeError for a bad lock or election config (Go: RunOrDie panics).
        """
        le = self.begin_run()
        broadcaster = self.c.event_broadcaster
        events = [self.adopt(s, "events/" + s.name) for s in broadcaster.steps()] if broadcaster else []
        if not le.leader_elect:  # Go: run directly
            return [self.adopt(Step("run", self.run_ready, functools.partial(self.started_leading, self.stop))),
                    self.adopt(Step("shutdown", self.shutdown_ready, self.shutdown)), *events]
        config = new_leader_election_config(self.c, self.identity, None, le.resource_lock, le.resource_name,
                                            self.callbacks())
        config.release_on_cancel = self.release_on_cancel
        try:
            self.elector = new_leader_elector(config, clock=self.clock, rng=self.rng)
        except ValueError as err:
            raise RuntimeError(str(err)) from err
        return [*(self.adopt(s, "leaderelection/" + s.name.rsplit("/", 1)[-1])
                  for s in self.elector.steps(self.stop, record=self.record)), *events]

    def adopt(self, step: Step, name: str | None = None) -> Step:
        """No upstream twin: `step` named under `controller-manager/<identity>/`."""
        return step.renamed(f"controller-manager/{self.identity}/{name or step.name}")

    def run_ready(self) -> bool:
        """No upstream twin: the driven Run's first step may start (campaigning, not cancelled)."""
        return self.state == CAMPAIGNING and not self.stop.is_set()

    def shutdown_ready(self) -> bool:
        """No upstream twin: without election, Run ends once cancelled (or the term failed)."""
        return self.stop.is_set() and self.state != STOPPED

    def shutdown(self) -> None:
        """No upstream twin: the end of the term and of Run on a driven clock (threads: run_leading's `finally`)."""
        self.end_leading()
        if self.running:
            self.note("run", "all controllers terminated")
        self.running = []
        self.end_run()

    def running_controllers(self) -> list[str]:
        """No upstream twin: the controllers this term started, in start order (for reports and tests)."""
        return list(self.running)

    def is_leader(self) -> bool:
        """No upstream twin: this process is running controllers as the Lease's holder."""
        return self.elector is not None and self.state == RUNNING and self.elector.is_leader()


def start_events_pipeline(c: CompletedConfig) -> None:
    """Port of the start of Run: log every event, and record it as an Event object through the client.

    Does nothing when the config has no broadcaster (a Config built by hand).
    """
    if c.event_broadcaster is None:
        logger.debug("no event broadcaster: events are not recorded")
        return
    from minikcm.tools.record import new_event_sink

    assert c.client is not None
    c.event_broadcaster.start_structured_logging(0)
    c.event_broadcaster.start_recording_to_sink(new_event_sink(c.client.core_v1().events("")))


def shutdown_events_pipeline(c: CompletedConfig) -> None:
    """Port of Run's deferred EventBroadcaster.Shutdown."""
    if c.event_broadcaster is not None:
        c.event_broadcaster.shutdown()
