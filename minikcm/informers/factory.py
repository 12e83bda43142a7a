"""Port of k8s.io/client-go/informers/factory.go, with the generated typed informers it hands out.

A controller manager runs many controllers that read the same resources. The
factory makes sure each resource has one shared informer (one list, one
watch, one cache), however many controllers ask for it: `informer_for` keys
informers by object class. Controllers reach them through group accessors
(`factory.apps().v1().deployments()`), each returning a typed informer with
`informer()` and `lister()`. `start` runs every informer asked for so far;
`wait_for_cache_sync` waits for their first lists.

Start reading at: SharedInformerFactory.informer_for, then ResourceInformer.informer,
then SharedInformerFactory.start.

Not ported: every group and resource other than apps/v1 deployments,
replicasets, statefulsets, controllerrevisions; core/v1 pods,
persistentvolumeclaims, events, namespaces; coordination/v1 leases.
Also `ForResource` and generic informers, `WithInformerName` and informer
identity, `StartWithContext` / `WaitForCacheSyncWithContext`, the per-kind
constructors `New<Kind>Informer` / `NewFiltered<Kind>Informer` (use
`new_informer_for_kind`).
Differs from Go:
- The generated files informers/<group>/<version>/<kind>.go and interface.go,
  and informers/internalinterfaces, are folded in here: one generic
  `ResourceInformer` parameterized by a `Kind` (model, client accessor,
  lister constructor) replaces the per-kind structs.
- Go's functional options (`WithNamespace`, `WithTweakListOptions`,
  `WithCustomResyncConfig`, `WithTransform`) are keyword arguments of
  new_shared_informer_factory_with_options.
- The factory also passes its clock and random source to every informer (no
  upstream twin). On a driven clock (`clock.driven`) `start` starts informers
  without threads and `steps()` hands their steps to the driver; otherwise each
  informer's `run` thread loops over the very same steps.
- Go's map of informers is walked in a fixed order: by informer name
  (`apps/v1/deployments` before `v1/pods`).
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from kubernetes.client import (
    CoreV1Event,
    V1ControllerRevision,
    V1Deployment,
    V1Lease,
    V1Namespace,
    V1Node,
    V1PersistentVolumeClaim,
    V1Pod,
    V1ReplicaSet,
    V1StatefulSet,
)

from minikcm.apimachinery import watch
from minikcm.apimachinery.meta import ListOptions
from minikcm.clock import Clock, RealClock, Seconds
from minikcm.client.interface import Interface
from minikcm.informers import listers
from minikcm.driver import Step
from minikcm.tools.cache.delta_fifo import TransformFunc
from minikcm.tools.cache.index import NAMESPACE_INDEX, Indexers, meta_namespace_index_func
from minikcm.tools.cache.listwatch import ListWatch, ResourceClient, to_list_watcher_with_watch_list_semantics
from minikcm.tools.cache.shared_informer import (
    SharedIndexInformerImpl,
    SharedIndexInformerOptions,
    new_shared_index_informer_with_options,
    wait_for,
)

logger = logging.getLogger(__name__)

L = TypeVar("L")
"""The typed lister of a kind (listers.DeploymentLister, ...)."""

NAMESPACE_ALL = ""
"""Port of metav1.NamespaceAll."""

# --- informers/internalinterfaces/factory_interfaces.go ------------------------------------

TweakListOptionsFunc = Callable[[ListOptions], None]
"""Port of TweakListOptionsFunc: changes the options of every list and watch (selectors, ...)."""

NewInformerFunc = Callable[[Interface, Seconds], SharedIndexInformerImpl]
"""Port of NewInformerFunc: makes the informer for informer_for when none exists yet."""


@dataclass
class InformerOptions:
    """Port of InformerOptions (informers/internalinterfaces/factory_interfaces.go)."""

    resync_period: Seconds = 0.0
    indexers: Indexers = field(default_factory=dict)
    tweak_list_options: TweakListOptionsFunc | None = None
    clock: Clock | None = None
    """No upstream twin: the informer's clock."""
    rng: random.Random | None = field(default=None, repr=False)
    """No upstream twin: the informer's seeded random source."""


# --- the generated per-kind informers (informers/<group>/<version>/<kind>.go) --------------


def apps_v1_deployments(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.apps_v1().deployments(namespace)`: the typed client the generated informer calls."""
    return client.apps_v1().deployments(namespace)


def apps_v1_replica_sets(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.apps_v1().replica_sets(namespace)`: the typed client the generated informer calls."""
    return client.apps_v1().replica_sets(namespace)


def apps_v1_stateful_sets(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.apps_v1().stateful_sets(namespace)`: the typed client the generated informer calls."""
    return client.apps_v1().stateful_sets(namespace)


def apps_v1_controller_revisions(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.apps_v1().controller_revisions(namespace)`: the typed client the generated informer calls."""
    return client.apps_v1().controller_revisions(namespace)


def core_v1_pods(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.core_v1().pods(namespace)`: the typed client the generated informer calls."""
    return client.core_v1().pods(namespace)


def core_v1_persistent_volume_claims(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.core_v1().persistent_volume_claims(namespace)`: the typed client the generated informer calls."""
    return client.core_v1().persistent_volume_claims(namespace)


def core_v1_events(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.core_v1().events(namespace)`: the typed client the generated informer calls."""
    return client.core_v1().events(namespace)


def core_v1_namespaces(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.core_v1().namespaces()`: the typed client the generated informer calls."""
    return client.core_v1().namespaces()  # cluster-scoped: the namespace is ignored


def core_v1_nodes(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.core_v1().nodes()`: the typed client the generated informer calls."""
    return client.core_v1().nodes()  # cluster-scoped: the namespace is ignored


def coordination_v1_leases(client: Interface, namespace: str) -> ResourceClient:
    """No upstream twin. `client.coordination_v1().leases(namespace)`: the typed client the generated informer calls."""
    return client.coordination_v1().leases(namespace)


@dataclass(frozen=True)
class Kind(Generic[L]):
    """No upstream twin. What the generated code of one kind knows: its model, client and lister."""

    model: type
    """The object class; the factory's key for the kind's informer (Go: reflect.TypeOf)."""
    client_for: Callable[[Interface, str], ResourceClient]
    """The typed client of the kind in a namespace."""
    new_lister: Callable[[Any], L]
    """The kind's New<Kind>Lister."""


DEPLOYMENTS = Kind(V1Deployment, apps_v1_deployments, listers.new_deployment_lister)
REPLICA_SETS = Kind(V1ReplicaSet, apps_v1_replica_sets, listers.new_replica_set_lister)
STATEFUL_SETS = Kind(V1StatefulSet, apps_v1_stateful_sets, listers.new_stateful_set_lister)
CONTROLLER_REVISIONS = Kind(V1ControllerRevision, apps_v1_controller_revisions,
                            listers.new_controller_revision_lister)
PODS = Kind(V1Pod, core_v1_pods, listers.new_pod_lister)
PERSISTENT_VOLUME_CLAIMS = Kind(V1PersistentVolumeClaim, core_v1_persistent_volume_claims,
                                listers.new_persistent_volume_claim_lister)
EVENTS = Kind(CoreV1Event, core_v1_events, listers.new_event_lister)
NAMESPACES = Kind(V1Namespace, core_v1_namespaces, listers.new_namespace_lister)
NODES = Kind(V1Node, core_v1_nodes, listers.new_node_lister)
LEASES = Kind(V1Lease, coordination_v1_leases, listers.new_lease_lister)


def new_informer_for_kind(client: Interface, kind: Kind[Any], namespace: str,
                          options: InformerOptions) -> SharedIndexInformerImpl:
    """Port of New<Kind>InformerWithOptions (informers/apps/v1/deployment.go and its siblings).

    A shared index informer over `kind`'s typed client in `namespace` ("" for
    all), whose every list and watch first goes through tweak_list_options.
    Use the factory instead, so informers are shared.
    """
    tweak = options.tweak_list_options

    def list_func(opts: ListOptions) -> Any:
        opts = replace(opts)  # Go: options passed by value
        if tweak is not None:
            tweak(opts)
        return kind.client_for(client, namespace).list(opts)

    def watch_func(opts: ListOptions) -> watch.Interface:
        opts = replace(opts)
        if tweak is not None:
            tweak(opts)
        return kind.client_for(client, namespace).watch(opts)

    return new_shared_index_informer_with_options(
        to_list_watcher_with_watch_list_semantics(ListWatch(list_func=list_func, watch_func=watch_func), client),
        kind.model.model_construct(),  # an empty example
        SharedIndexInformerOptions(resync_period=options.resync_period, indexers=options.indexers,
                                   clock=options.clock, rng=options.rng))


class ResourceInformer(Generic[L]):
    """Port of deploymentInformer & co. (informers/<group>/<version>/<kind>.go): one kind's shared informer and lister.

    Cheap to make; `informer()` asks the factory, so every ResourceInformer
    of a kind returns the same shared informer.
    """

    def __init__(self, factory: SharedInformerFactory, kind: Kind[L], namespace: str,
                 tweak_list_options: TweakListOptionsFunc | None) -> None:
        self.factory = factory
        self.kind = kind
        self.namespace = namespace
        self.tweak_list_options = tweak_list_options

    def __repr__(self) -> str:
        return f"<ResourceInformer {self.kind.model.__name__} namespace={self.namespace!r}>"

    def default_informer(self, client: Interface, resync_period: Seconds) -> SharedIndexInformerImpl:
        """Port of deploymentInformer.defaultInformer: the kind's informer, with the namespace index."""
        return new_informer_for_kind(client, self.kind, self.namespace, InformerOptions(
            resync_period=resync_period, indexers={NAMESPACE_INDEX: meta_namespace_index_func},
            tweak_list_options=self.tweak_list_options, clock=self.factory.clock, rng=self.factory.rng))

    def informer(self) -> SharedIndexInformerImpl:
        """Port of deploymentInformer.Informer: the factory's shared informer for this kind."""
        return self.factory.informer_for(self.kind.model, self.default_informer)

    def lister(self) -> L:
        """Port of deploymentInformer.Lister: a lister over the shared informer's indexer."""
        return self.kind.new_lister(self.informer().get_indexer())


class Group:
    """Port of the group and version interfaces (informers/<group>/interface.go, <group>/<version>/interface.go).

    One class plays every group's `version` struct; the accessors below pick
    the kinds each group serves.
    """

    def __init__(self, factory: SharedInformerFactory, namespace: str,
                 tweak_list_options: TweakListOptionsFunc | None) -> None:
        self.factory = factory
        self.namespace = namespace
        self.tweak_list_options = tweak_list_options

    def v1(self) -> Group:
        """Port of group.V1: the version interface (the same object here)."""
        return self

    def for_kind(self, kind: Kind[L]) -> ResourceInformer[L]:
        """No upstream twin. The typed informer of `kind` (what each generated accessor returns)."""
        return ResourceInformer(self.factory, kind, self.namespace, self.tweak_list_options)

    # apps/v1
    def deployments(self) -> ResourceInformer[listers.DeploymentLister]:
        """Port of version.Deployments (informers/apps/v1/interface.go)."""
        return self.for_kind(DEPLOYMENTS)

    def replica_sets(self) -> ResourceInformer[listers.ReplicaSetLister]:
        """Port of version.ReplicaSets (informers/apps/v1/interface.go)."""
        return self.for_kind(REPLICA_SETS)

    def stateful_sets(self) -> ResourceInformer[listers.StatefulSetLister]:
        """Port of version.StatefulSets (informers/apps/v1/interface.go)."""
        return self.for_kind(STATEFUL_SETS)

    def controller_revisions(self) -> ResourceInformer[listers.ControllerRevisionLister]:
        """Port of version.ControllerRevisions (informers/apps/v1/interface.go)."""
        return self.for_kind(CONTROLLER_REVISIONS)

    # core/v1
    def pods(self) -> ResourceInformer[listers.PodLister]:
        """Port of version.Pods (informers/core/v1/interface.go)."""
        return self.for_kind(PODS)

    def persistent_volume_claims(self) -> ResourceInformer[listers.PersistentVolumeClaimLister]:
        """Port of version.PersistentVolumeClaims (informers/core/v1/interface.go)."""
        return self.for_kind(PERSISTENT_VOLUME_CLAIMS)

    def events(self) -> ResourceInformer[listers.EventLister]:
        """Port of version.Events (informers/core/v1/interface.go)."""
        return self.for_kind(EVENTS)

    def namespaces(self) -> ResourceInformer[listers.NamespaceLister]:
        """Port of version.Namespaces (informers/core/v1/interface.go)."""
        return self.for_kind(NAMESPACES)

    def nodes(self) -> ResourceInformer[listers.NodeLister]:
        """Port of version.Nodes (informers/core/v1/interface.go)."""
        return self.for_kind(NODES)

    # coordination/v1
    def leases(self) -> ResourceInformer[listers.LeaseLister]:
        """Port of version.Leases (informers/coordination/v1/interface.go)."""
        return self.for_kind(LEASES)


# --- informers/factory.go ----------------------------------------------------------------------


class SharedInformerFactory:
    """Port of sharedInformerFactory and the SharedInformerFactory interface (informers/factory.go).

    Locking: `_lock` guards informers, started_informers and shutting_down.
    """

    def __init__(self, client: Interface, default_resync: Seconds, *, namespace: str = NAMESPACE_ALL,
                 tweak_list_options: TweakListOptionsFunc | None = None,
                 custom_resync: dict[type, Seconds] | None = None, transform: TransformFunc | None = None,
                 clock: Clock | None = None, rng: random.Random | None = None) -> None:
        self.client = client
        self.namespace = namespace
        self.tweak_list_options = tweak_list_options
        self._lock = threading.Lock()
        self.default_resync = default_resync
        self.custom_resync: dict[type, Seconds] = dict(custom_resync or {})
        self.transform = transform
        self.informers: dict[type, SharedIndexInformerImpl] = {}
        self.started_informers: dict[type, bool] = {}
        self.threads: list[threading.Thread] = []  # Go: wg
        self.shutting_down = False
        self.clock: Clock = clock or RealClock()
        """No upstream twin: given to every informer."""
        self.rng = rng
        """No upstream twin: given to every informer (watch timeouts, backoff jitter)."""
        self.informer_steps: dict[type, list[Step]] = {}  # driven clock: the steps of started informers

    def __repr__(self) -> str:
        names = sorted(informer.name for informer in self.informers.values())
        return f"<SharedInformerFactory informers={names} started={len(self.started_informers)}>"

    def start(self, stop: threading.Event) -> None:
        """Port of sharedInformerFactory.Start (informers/factory.go): start every informer not started yet.

        Each in a thread named `informer/<name>`, running until `stop` is set;
        on a driven clock no thread: the informers' steps are collected for
        `steps()`. Does nothing once shutdown has begun.
        """
        with self._lock:
            if self.shutting_down:
                return
            for informer_type, informer in self.sorted_informers_locked():
                if self.started_informers.get(informer_type):
                    continue
                if self.clock.driven:
                    self.informer_steps[informer_type] = informer.steps()
                else:
                    thread = threading.Thread(name=f"informer/{informer.name}", target=informer.run,
                                              args=(stop,), daemon=True)
                    self.threads.append(thread)
                    thread.start()
                self.started_informers[informer_type] = True

    def sorted_informers_locked(self) -> list[tuple[type, SharedIndexInformerImpl]]:
        """No upstream twin. The informers in a fixed order: by name. Locking: `_lock` held."""
        return sorted(self.informers.items(), key=lambda item: item[1].name)

    def steps(self) -> list[Step]:
        """No upstream twin. The steps of every started informer, informer by informer, sorted by name.

        Driven clock: call after start(); call again (and add the new
        steps to the driver) after a later start() started more informers.
        """
        with self._lock:
            ordered = [t for t, _ in self.sorted_informers_locked() if t in self.informer_steps]
            return [step for t in ordered for step in self.informer_steps[t]]

    def shutdown(self) -> None:
        """Port of sharedInformerFactory.Shutdown: refuse new starts, wait for every informer thread.

        Blocks: until all informers stopped; the caller must have set their stop event.
        """
        with self._lock:
            self.shutting_down = True
            threads = list(self.threads)
        for thread in threads:
            thread.join()

    def wait_for_cache_sync(self, stop: threading.Event) -> dict[type, bool]:
        """Port of sharedInformerFactory.WaitForCacheSync: wait for every started informer's first list.

        Returns, per object class, whether its informer has synced.
        Blocks: until all have synced or `stop` is set. On a driven clock it
        does not wait (nothing else could run meanwhile): it reports the state
        reached so far; run the driver first.
        """
        with self._lock:
            informers = {t: i for t, i in self.sorted_informers_locked() if self.started_informers.get(t)}
        if not self.clock.driven:
            wait_for(stop, "", *(informer.has_synced_checker() for informer in informers.values()))
        return {t: informer.has_synced() for t, informer in informers.items()}

    def informer_for(self, obj: type, new_func: NewInformerFunc) -> SharedIndexInformerImpl:
        """Port of sharedInformerFactory.InformerFor: the shared informer for class `obj`, made once by `new_func`.

        The resync period is the class's custom one, else the default; the
        factory's transform, if any, is set on the new informer.
        """
        with self._lock:
            informer = self.informers.get(obj)
            if informer is not None:
                return informer
            resync_period = self.custom_resync.get(obj, self.default_resync)
            informer = new_func(self.client, resync_period)
            if self.transform is not None:
                informer.set_transform(self.transform)
            self.informers[obj] = informer
            return informer

    def apps(self) -> Group:
        """Port of sharedInformerFactory.Apps."""
        return Group(self, self.namespace, self.tweak_list_options)

    def core(self) -> Group:
        """Port of sharedInformerFactory.Core."""
        return Group(self, self.namespace, self.tweak_list_options)

    def coordination(self) -> Group:
        """Port of sharedInformerFactory.Coordination."""
        return Group(self, self.namespace, self.tweak_list_options)


def new_shared_informer_factory(client: Interface, default_resync: Seconds) -> SharedInformerFactory:
    """Port of NewSharedInformerFactory (informers/factory.go): informers over every namespace."""
    return new_shared_informer_factory_with_options(client, default_resync)


def new_filtered_shared_informer_factory(client: Interface, default_resync: Seconds, namespace: str,
                                         tweak_list_options: TweakListOptionsFunc | None) -> SharedInformerFactory:
    """Port of NewFilteredSharedInformerFactory (informers/factory.go), deprecated upstream."""
    return new_shared_informer_factory_with_options(client, default_resync, namespace=namespace,
                                                    tweak_list_options=tweak_list_options)


def new_shared_informer_factory_with_options(
    client: Interface, default_resync: Seconds, *, namespace: str = NAMESPACE_ALL,
    tweak_list_options: TweakListOptionsFunc | None = None, custom_resync: dict[type, Seconds] | None = None,
    transform: TransformFunc | None = None, clock: Clock | None = None, rng: random.Random | None = None,
) -> SharedInformerFactory:
    """Port of NewSharedInformerFactoryWithOptions (informers/factory.go).

    Keyword arguments replace Go's options: `namespace` (WithNamespace),
    `tweak_list_options` (WithTweakListOptions), `custom_resync` keyed by
    model class (WithCustomResyncConfig), `transform` (WithTransform); `clock`
    (whose `driven` mark chooses threads or steps) and `rng` have no upstream twin.
    """
    return SharedInformerFactory(client, default_resync, namespace=namespace, tweak_list_options=tweak_list_options,
                                 custom_resync=custom_resync, transform=transform, clock=clock, rng=rng)
