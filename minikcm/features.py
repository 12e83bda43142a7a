"""Port of the feature gates minikcm reads: k8s.io/component-base/featuregate, in small,
with the defaults of pkg/features/kube_features.go and client-go's features at v1.36.3.

A feature gate is a named switch with a default that depends on the feature's
maturity (alpha off, beta usually on, GA on and often locked). Controllers ask
`DEFAULT_FEATURE_GATE.enabled(name)` at the point where upstream asks
`utilfeature.DefaultFeatureGate.Enabled(features.X)`; tests flip a gate for one
test with `set_feature_gate_during_test`.

The defaults are those of pkg/features/kube_features.go and client-go's
features/known_features.go, as listed in shared/reference/upstream-map.md,
section A.4 (entries up to 1.36).

Start reading at: FeatureGate.enabled, then DEFAULT_FEATURE_GATE.

Not ported: emulation versions and versioned specs (one spec per gate: its
1.36 state), the `--feature-gates` flag parsing of `Set` (use set_from_map),
metrics, `DeepCopy`, `Add` after first use checks, `KnownFeatures` help text.
Differs from Go:
- One gate holds both the kube gates and the client-go gates (upstream has
  utilfeature.DefaultFeatureGate and client-go's features.FeatureGates()).
- `enabled` on an unknown name raises KeyError (Go panics).
- `reset` and `set_feature_gate_during_test` (a context manager standing in for
  component-base/featuregate/testing.SetFeatureGateDuringTest) are for tests.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

ALPHA = "ALPHA"
"""Port of featuregate.Alpha: off by default, may change or vanish."""
BETA = "BETA"
"""Port of featuregate.Beta: usually on by default."""
GA = "GA"
"""Port of featuregate.GA: on; usually locked so it can no longer be turned off."""


@dataclass(frozen=True)
class FeatureSpec:
    """Port of featuregate.FeatureSpec: a gate's default, maturity and lock."""

    default: bool
    pre_release: str = BETA
    lock_to_default: bool = False
    """True: setting the gate to anything but `default` is refused."""


# --- the gates minikcm reads (names as upstream spells them) ---------------------------------------

# client-go (staging/src/k8s.io/client-go/features/known_features.go)
IN_ORDER_INFORMERS = "InOrderInformers"
"""Informers use RealFIFO instead of DeltaFIFO. GA, locked on in 1.36."""
ATOMIC_FIFO = "AtomicFIFO"
"""RealFIFO hands out Replace and resync as atomic batches. Beta, on."""
UNLOCK_WHILE_PROCESSING_FIFO = "UnlockWhileProcessingFIFO"
"""RealFIFO releases its lock while the handler runs. Beta, on."""
IN_ORDER_INFORMERS_BATCH_PROCESS = "InOrderInformersBatchProcess"
"""Informers process popped deltas in batches. Beta, on."""
WATCH_LIST_CLIENT = "WatchListClient"
"""Reflectors try a streaming list first. Beta, on."""
INFORMER_RESOURCE_VERSION = "InformerResourceVersion"
"""Stores remember the newest resourceVersion they saw. GA."""

# kube (pkg/features/kube_features.go)
DEPLOYMENT_REPLICA_SET_TERMINATING_REPLICAS = "DeploymentReplicaSetTerminatingReplicas"
"""`status.terminatingReplicas` on ReplicaSets and Deployments. Beta, on."""
STALE_CONTROLLER_CONSISTENCY_REPLICA_SET = "StaleControllerConsistencyReplicaSet"
"""The ReplicaSet controller waits until its caches show its own writes. Beta, on (new in 1.36)."""
STALE_CONTROLLER_CONSISTENCY_STATEFUL_SET = "StaleControllerConsistencyStatefulSet"
"""The StatefulSet controller waits until its caches show its own writes. Beta, on (new in 1.36)."""
STALE_CONTROLLER_CONSISTENCY_JOB = "StaleControllerConsistencyJob"
"""As above, for the Job controller (not ported). Beta, on."""
STALE_CONTROLLER_CONSISTENCY_DAEMON_SET = "StaleControllerConsistencyDaemonSet"
"""As above, for the DaemonSet controller (not ported). Beta, on."""
STATEFUL_SET_SEMANTIC_REVISION_COMPARISON = "StatefulSetSemanticRevisionComparison"
"""StatefulSet revisions are compared semantically, not byte for byte. Beta, on."""
MAX_UNAVAILABLE_STATEFUL_SET = "MaxUnavailableStatefulSet"
"""`rollingUpdate.maxUnavailable` on StatefulSets. Beta, off by default."""
POD_DELETION_COST = "PodDeletionCost"
"""The pod-deletion-cost annotation orders scale-down. Beta, on."""
LOGARITHMIC_SCALE_DOWN = "LogarithmicScaleDown"
"""Scale-down compares pod ages in log2 buckets. GA, locked on."""
COORDINATED_LEADER_ELECTION = "CoordinatedLeaderElection"
"""LeaseCandidate-based leader election (not ported). Beta, off."""

# Gates that controller descriptors require (cmd/kube-controller-manager/app). None of
# these controllers is ported: the value only decides whether `*` reports one as gated
# off or as not ported. APIServerIdentity and StorageVersionAPI are generic apiserver
# gates that kube_features.go lists too.
API_SERVER_IDENTITY = "APIServerIdentity"
"""Identity leases for API servers (storageversion-garbage-collector-controller). Beta, on."""
CLUSTER_TRUST_BUNDLE = "ClusterTrustBundle"
"""ClusterTrustBundle objects (kube-apiserver-serving-clustertrustbundle-publisher-controller). Beta, off."""
DRA_DEVICE_TAINTS = "DRADeviceTaints"
"""Taints on DRA devices (device-taint-eviction-controller). Beta, on (since 1.36)."""
DYNAMIC_RESOURCE_ALLOCATION = "DynamicResourceAllocation"
"""Dynamic resource allocation (resourceclaim-controller). GA, locked on."""
MULTI_CIDR_SERVICE_ALLOCATOR = "MultiCIDRServiceAllocator"
"""ServiceCIDR and IPAddress objects (service-cidr-controller). GA, locked on."""
POD_CERTIFICATE_REQUEST = "PodCertificateRequest"
"""PodCertificateRequest objects (podcertificaterequest-cleaner-controller). Beta, off."""
SELINUX_CHANGE_POLICY = "SELinuxChangePolicy"
"""SELinux change policy (selinux-warning-controller). GA, locked on (since 1.36)."""
SEPARATE_TAINT_EVICTION_CONTROLLER = "SeparateTaintEvictionController"
"""Taint eviction runs as its own controller (taint-eviction-controller). GA, locked on."""
STORAGE_VERSION_API = "StorageVersionAPI"
"""StorageVersion objects (storageversion-garbage-collector-controller). Alpha, off."""
VOLUME_ATTRIBUTES_CLASS = "VolumeAttributesClass"
"""VolumeAttributesClass objects (volumeattributesclass-protection-controller). GA, locked on (since 1.36)."""

DEFAULT_FEATURE_SPECS: dict[str, FeatureSpec] = {
    IN_ORDER_INFORMERS: FeatureSpec(True, GA, lock_to_default=True),
    ATOMIC_FIFO: FeatureSpec(True, BETA),
    UNLOCK_WHILE_PROCESSING_FIFO: FeatureSpec(True, BETA),
    IN_ORDER_INFORMERS_BATCH_PROCESS: FeatureSpec(True, BETA),
    WATCH_LIST_CLIENT: FeatureSpec(True, BETA),
    INFORMER_RESOURCE_VERSION: FeatureSpec(True, GA),
    DEPLOYMENT_REPLICA_SET_TERMINATING_REPLICAS: FeatureSpec(True, BETA),
    STALE_CONTROLLER_CONSISTENCY_REPLICA_SET: FeatureSpec(True, BETA),
    STALE_CONTROLLER_CONSISTENCY_STATEFUL_SET: FeatureSpec(True, BETA),
    STALE_CONTROLLER_CONSISTENCY_JOB: FeatureSpec(True, BETA),
    STALE_CONTROLLER_CONSISTENCY_DAEMON_SET: FeatureSpec(True, BETA),
    STATEFUL_SET_SEMANTIC_REVISION_COMPARISON: FeatureSpec(True, BETA),
    MAX_UNAVAILABLE_STATEFUL_SET: FeatureSpec(False, BETA),
    POD_DELETION_COST: FeatureSpec(True, BETA),
    LOGARITHMIC_SCALE_DOWN: FeatureSpec(True, GA, lock_to_default=True),
    COORDINATED_LEADER_ELECTION: FeatureSpec(False, BETA),
    API_SERVER_IDENTITY: FeatureSpec(True, BETA),
    CLUSTER_TRUST_BUNDLE: FeatureSpec(False, BETA),
    DRA_DEVICE_TAINTS: FeatureSpec(True, BETA),
    DYNAMIC_RESOURCE_ALLOCATION: FeatureSpec(True, GA, lock_to_default=True),
    MULTI_CIDR_SERVICE_ALLOCATOR: FeatureSpec(True, GA, lock_to_default=True),
    POD_CERTIFICATE_REQUEST: FeatureSpec(False, BETA),
    SELINUX_CHANGE_POLICY: FeatureSpec(True, GA, lock_to_default=True),
    SEPARATE_TAINT_EVICTION_CONTROLLER: FeatureSpec(True, GA, lock_to_default=True),
    STORAGE_VERSION_API: FeatureSpec(False, ALPHA),
    VOLUME_ATTRIBUTES_CLASS: FeatureSpec(True, GA, lock_to_default=True),
}
"""The 1.36 state of every gate minikcm reads (shared/reference/upstream-map.md, A.4, and
the gates the controller descriptors name, from kube_features.go)."""


class FeatureGate:
    """Port of featureGate (component-base/featuregate/feature_gate.go), without versions.

    Holds the known gates and the values set on top of their defaults.
    Thread: any; `_lock` guards `known` and `enabled_overrides`.
    """

    def __init__(self, specs: Mapping[str, FeatureSpec] | None = None) -> None:
        self._lock = threading.Lock()
        self.known: dict[str, FeatureSpec] = dict(specs or {})
        """Every gate this FeatureGate knows, by name."""
        self.enabled_overrides: dict[str, bool] = {}
        """Values set explicitly (Go: the `enabled` map); a gate not here reads its default."""

    def add(self, features: Mapping[str, FeatureSpec]) -> None:
        """Port of featureGate.Add: make more gates known.

        Raises:
            ValueError: a gate is already known with a different spec.
        """
        with self._lock:
            for name, spec in features.items():
                existing = self.known.get(name)
                if existing is not None and existing != spec:
                    raise ValueError(f"feature gate {name!r} with different spec already exists: {existing}")
                self.known[name] = spec

    def enabled(self, key: str) -> bool:
        """Port of featureGate.Enabled: the gate's value (set, else default).

        Raises:
            KeyError: the gate is unknown (Go panics).
        """
        with self._lock:
            if key in self.enabled_overrides:
                return self.enabled_overrides[key]
            spec = self.known.get(key)
        if spec is None:
            raise KeyError(f"feature {key!r} is not registered in FeatureGate")
        return spec.default

    def set_from_map(self, m: Mapping[str, bool]) -> None:
        """Port of featureGate.SetFromMap: set several gates; nothing changes if one is refused.

        Raises:
            ValueError: an unknown gate, or a locked gate set away from its default.
        """
        with self._lock:
            for name in sorted(m):  # Go: map order; sorted so the first error is stable
                spec = self.known.get(name)
                if spec is None:
                    raise ValueError(f"unrecognized feature gate: {name}")
                if spec.lock_to_default and spec.default != m[name]:
                    raise ValueError(f"cannot set feature gate {name} to {m[name]}, "
                                     f"feature is locked to {spec.default}")
            self.enabled_overrides.update(m)

    def set(self, name: str, value: bool) -> None:
        """No upstream twin: set one gate (Go's Set parses a `name=value,...` flag string)."""
        self.set_from_map({name: value})

    def reset(self) -> None:
        """No upstream twin: forget every explicit value, so each gate reads its default again."""
        with self._lock:
            self.enabled_overrides.clear()

    def known_features(self) -> list[str]:
        """Port of featureGate.KnownFeatures: `name=true|false (MATURITY - default=...)`, sorted."""
        with self._lock:
            return [f"{name}=true|false ({spec.pre_release} - default={str(spec.default).lower()})"
                    for name, spec in sorted(self.known.items())]

    def __repr__(self) -> str:
        return f"FeatureGate(known={len(self.known)}, set={dict(sorted(self.enabled_overrides.items()))})"


DEFAULT_FEATURE_GATE = FeatureGate(DEFAULT_FEATURE_SPECS)
"""Port of utilfeature.DefaultFeatureGate (and client-go's features.FeatureGates()):
the process-wide gate every minikcm component reads at call time."""


@contextmanager
def set_feature_gate_during_test(gate: FeatureGate, name: str, value: bool) -> Iterator[None]:
    """Port of SetFeatureGateDuringTest (component-base/featuregate/testing): `name` is `value` inside the block.

    The gate's previous explicit value (or its absence) comes back on exit.
    """
    with gate._lock:
        had = name in gate.enabled_overrides
        previous = gate.enabled_overrides.get(name)
    gate.set(name, value)
    try:
        yield
    finally:
        with gate._lock:
            if had:
                gate.enabled_overrides[name] = bool(previous)
            else:
                gate.enabled_overrides.pop(name, None)
