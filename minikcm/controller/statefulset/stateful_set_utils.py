"""Port of pkg/controller/statefulset/stateful_set_utils.go.

The vocabulary of the StatefulSet controller: a pod's identity is its name
`<set>-<ordinal>`, its storage the claims `<template>-<set>-<ordinal>` made from
`volumeClaimTemplates`, its revision the `controller-revision-hash` label.
Everything here is a pure function of a set and its pods (plus the claims'
owner references for the retention policy), so stateful_set_control and
stateful_pod_control read as decisions, not bookkeeping.

Reconstructed from copies older than the pin (the 1.32 claim-ownership
helpers, getStartOrdinal without its gate); the 1.35 changes (the `now`
argument of is_running_and_available, is_unavailable) follow upstream's 1.35
patches.

Start reading at: new_versioned_stateful_set_pod, then get_patch and apply_revision,
then is_claim_owner_up_to_date.

Design notes: the revision patch. A revision stores
`{"spec":{"template":{...,"$patch":"replace"}}}`: applied to any set as a
strategic merge patch it swaps in the saved template whole. Go builds it by
encoding the set and keeping the template, so the bytes show what Go's encoder
emits. get_patch rebuilds that from the wire form and adds the fields Go
always writes for a pod template: `metadata` and `spec` even when empty, and
`resources: {}` on every container (a struct field without a pointer). With
those, revisions created here have the names upstream would give them.

Not ported: the patchCodec (the wire form stands in for it), contextual logging.
Differs from Go:
- CONTROLLER_KIND and POD_KIND (Go: stateful_set.go) live here so that every
  module of the package can import them without an import cycle.
- get_patch returns the decoded patch (a dict; see history.raw_data for its
  bytes) instead of bytes, and apply_revision applies it without a schema:
  the patch replaces the template whole, so no list needs a merge key.
- Go's map iterations (claims per template name, in get_persistent_volume_claims
  and update_storage) run in sorted template-name order.
- The pod-index label is always set (the PodIndexLabel gate is GA and gone).
- Sort types have `less(i, j)`; sort with sort_pods_by.
"""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable
from typing import Any

from kubernetes.client import (
    V1ControllerRevision,
    V1OwnerReference,
    V1PersistentVolumeClaim,
    V1PersistentVolumeClaimVolumeSource,
    V1Pod,
    V1StatefulSet,
    V1StatefulSetPersistentVolumeClaimRetentionPolicy,
    V1StatefulSetStatus,
    V1Volume,
)

from minikcm.api.pod import util as podutil
from minikcm.apimachinery import intstr
from minikcm.apimachinery.convert import deep_copy, from_wire, object_meta, to_wire
from minikcm.apimachinery.meta import new_controller_ref
from minikcm.apimachinery.schema import GroupVersionKind
from minikcm.apimachinery.strategicpatch import PatchMetaFromTable, strategic_merge_map_patch_using_lookup_patch_meta
from minikcm.controller import controller_utils
from minikcm.controller.history import controller_history as history

log = logging.getLogger(__name__)

CONTROLLER_KIND = GroupVersionKind("apps", "v1", "StatefulSet")
"""Port of controllerKind (stateful_set.go): the kind in the controller references this controller writes."""
POD_KIND = GroupVersionKind("", "v1", "Pod")
"""Port of podKind (stateful_set.go): the kind of the pod owner references on claims."""

STATEFUL_SET_POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name"
"""Go: apps.StatefulSetPodNameLabel; lets a Service select one member."""
STATEFUL_SET_REVISION_LABEL = "controller-revision-hash"
"""Go: apps.StatefulSetRevisionLabel: the name of the ControllerRevision a pod was made from."""
POD_INDEX_LABEL = "apps.kubernetes.io/pod-index"
"""Go: apps.PodIndexLabel: the pod's ordinal as a label."""

RETAIN = "Retain"
"""Go: apps.RetainPersistentVolumeClaimRetentionPolicyType."""
DELETE = "Delete"
"""Go: apps.DeletePersistentVolumeClaimRetentionPolicyType."""
PARALLEL_POD_MANAGEMENT = "Parallel"
"""Go: apps.ParallelPodManagement."""
ORDERED_READY_POD_MANAGEMENT = "OrderedReady"
"""Go: apps.OrderedReadyPodManagement."""
ROLLING_UPDATE_STRATEGY = "RollingUpdate"
"""Go: apps.RollingUpdateStatefulSetStrategyType."""
ON_DELETE_STRATEGY = "OnDelete"
"""Go: apps.OnDeleteStatefulSetStrategyType."""


def _name(obj: Any) -> str:
    return object_meta(obj).name or ""


def _uid(obj: Any) -> str:
    return object_meta(obj).uid or ""


class OverlappingStatefulSets:
    """Port of overlappingStatefulSets: oldest first, names breaking ties."""

    def __init__(self, sets: list[V1StatefulSet]) -> None:
        self.sets = sets

    def __len__(self) -> int:
        return len(self.sets)

    def less(self, i: int, j: int) -> bool:
        a, b = self.sets[i].metadata, self.sets[j].metadata
        if a.creation_timestamp == b.creation_timestamp:
            return (a.name or "") < (b.name or "")
        if a.creation_timestamp is None or b.creation_timestamp is None:
            return a.creation_timestamp is None  # Go: a zero time is before every other
        return a.creation_timestamp < b.creation_timestamp


STATEFUL_POD_REGEX = re.compile(r"(.*)-([0-9]+)$")
"""Port of statefulPodRegex: `<parent>-<ordinal>`; the parent may itself contain dashes."""


def get_parent_name_and_ordinal(pod: V1Pod) -> tuple[str, int]:
    """Port of getParentNameAndOrdinal: ("web", 3) for pod "web-3"; ("", -1) when the name has no ordinal.

    An ordinal too large for int32 gives the parent with ordinal -1, as Go.
    """
    m = STATEFUL_POD_REGEX.search(_name(pod))
    if m is None:
        return "", -1
    value = int(m.group(2))
    return m.group(1), value if value < 2**31 else -1


def get_parent_name(pod: V1Pod) -> str:
    """Port of getParentName."""
    return get_parent_name_and_ordinal(pod)[0]


def get_ordinal(pod: V1Pod) -> int:
    """Port of getOrdinal: the pod's ordinal, -1 when it has none."""
    return get_parent_name_and_ordinal(pod)[1]


def get_start_ordinal(set_: V1StatefulSet) -> int:
    """Port of getStartOrdinal: `spec.ordinals.start`, or 0 (the StatefulSetStartOrdinal gate is GA and gone)."""
    if set_.spec.ordinals is not None:
        return set_.spec.ordinals.start or 0
    return 0


def get_end_ordinal(set_: V1StatefulSet) -> int:
    """Port of getEndOrdinal: the last ordinal a member may have (inclusive): start + replicas - 1."""
    return get_start_ordinal(set_) + (set_.spec.replicas or 0) - 1


def pod_in_ordinal_range(pod: V1Pod, set_: V1StatefulSet) -> bool:
    """Port of podInOrdinalRange: start <= ordinal <= end."""
    ordinal = get_ordinal(pod)
    return get_start_ordinal(set_) <= ordinal <= get_end_ordinal(set_)


def get_pod_name(set_: V1StatefulSet, ordinal: int) -> str:
    """Port of getPodName: `<set>-<ordinal>`."""
    return f"{_name(set_)}-{ordinal}"


def get_persistent_volume_claim_name(set_: V1StatefulSet, claim: V1PersistentVolumeClaim, ordinal: int) -> str:
    """Port of getPersistentVolumeClaimName: `<template>-<set>-<ordinal>`, e.g. `data-web-0`."""
    return f"{_name(claim)}-{_name(set_)}-{ordinal}"


def is_member_of(set_: V1StatefulSet, pod: V1Pod) -> bool:
    """Port of isMemberOf: the pod's name says it belongs to this set."""
    return get_parent_name(pod) == _name(set_)


def identity_matches(set_: V1StatefulSet, pod: V1Pod) -> bool:
    """Port of identityMatches: name, namespace and pod-name label fit a member of `set_`."""
    parent, ordinal = get_parent_name_and_ordinal(pod)
    return (ordinal >= 0 and _name(set_) == parent and _name(pod) == get_pod_name(set_, ordinal)
            and pod.metadata.namespace == set_.metadata.namespace
            and (pod.metadata.labels or {}).get(STATEFUL_SET_POD_NAME_LABEL) == _name(pod))


def storage_matches(set_: V1StatefulSet, pod: V1Pod) -> bool:
    """Port of storageMatches: every claim template is mounted as the pod's own claim."""
    ordinal = get_ordinal(pod)
    if ordinal < 0:
        return False
    volumes = {v.name: v for v in (pod.spec.volumes or [])}
    for claim in set_.spec.volume_claim_templates or []:
        volume = volumes.get(_name(claim))
        if (volume is None or volume.persistent_volume_claim is None
                or volume.persistent_volume_claim.claim_name != get_persistent_volume_claim_name(set_, claim, ordinal)):
            return False
    return True


def get_persistent_volume_claim_retention_policy(set_: V1StatefulSet) -> V1StatefulSetPersistentVolumeClaimRetentionPolicy:
    """Port of getPersistentVolumeClaimRetentionPolicy: the set's policy, Retain/Retain when it has none."""
    policy = set_.spec.persistent_volume_claim_retention_policy
    if policy is None:
        return V1StatefulSetPersistentVolumeClaimRetentionPolicy(when_deleted=RETAIN, when_scaled=RETAIN)
    return policy


def matches_ref(ref: V1OwnerReference, obj: Any, gvk: GroupVersionKind) -> bool:
    """Port of matchesRef: the reference names `obj` (same name and kind); the uid is not compared."""
    return gvk.group_version() == ref.api_version and gvk.kind == ref.kind and ref.name == _name(obj)


def has_unexpected_controller(claim: V1PersistentVolumeClaim, set_: V1StatefulSet, pod: V1Pod) -> bool:
    """Port of hasUnexpectedController: someone other than this set or pod controls the claim.

    Only asked when the policy deletes claims (with Retain/Retain, other
    controllers are nobody's business). A reference to the set or pod with
    the right name but another uid (a former incarnation) counts as unexpected
    too: such claims are left to the garbage collector.
    """
    policy = get_persistent_volume_claim_retention_policy(set_)
    if policy.when_scaled == RETAIN and policy.when_deleted == RETAIN:
        return False
    for ref in claim.metadata.owner_references or []:
        if matches_ref(ref, set_, CONTROLLER_KIND):
            if ref.uid != _uid(set_):
                return True
            continue  # this is us
        if matches_ref(ref, pod, POD_KIND):
            if ref.uid != _uid(pod):
                return True
            continue  # this is us
        if ref.controller:
            return True  # another controller
    return False


def has_non_controller_owner(claim: V1PersistentVolumeClaim, set_: V1StatefulSet, pod: V1Pod) -> bool:
    """Port of hasNonControllerOwner: the set or the pod owns the claim without being its controller."""
    return any(ref.uid in (_uid(set_), _uid(pod)) and not ref.controller
               for ref in claim.metadata.owner_references or [])


def remove_refs(refs: list[V1OwnerReference],
                predicate: Callable[[V1OwnerReference], bool]) -> list[V1OwnerReference]:
    """Port of removeRefs: `refs` without those matching `predicate` (a new list)."""
    return [ref for ref in refs if not predicate(ref)]


def is_claim_owner_up_to_date(claim: V1PersistentVolumeClaim, set_: V1StatefulSet, pod: V1Pod) -> bool:
    """Port of isClaimOwnerUpToDate: the claim's owner references fit the retention policy.

    Claims held by a stale reference or by a foreign controller are declared
    up to date so they are never touched (unless our own references must be
    scrubbed from them). Otherwise the wanted owners are:

        whenScaled  whenDeleted  owner references
        Retain      Retain       none
        Retain      Delete       the set
        Delete      Retain       the pod, once it is condemned (outside the ordinal range)
        Delete      Delete       the pod once condemned, the set until then
    """
    if has_stale_owner_ref(claim, set_, CONTROLLER_KIND) or has_stale_owner_ref(claim, pod, POD_KIND):
        return True  # managed by a former incarnation: hands off
    if has_unexpected_controller(claim, set_, pod):
        return not (has_owner_ref(claim, set_) or has_owner_ref(claim, pod))
    if has_non_controller_owner(claim, set_, pod):
        return False
    policy = get_persistent_volume_claim_retention_policy(set_)
    scaled, deleted = policy.when_scaled, policy.when_deleted
    if (scaled, deleted) not in ((RETAIN, RETAIN), (RETAIN, DELETE), (DELETE, RETAIN), (DELETE, DELETE)):
        log.error("Unknown policy %s, treating as Retain", policy)
        scaled, deleted = RETAIN, RETAIN
    if scaled == RETAIN and deleted == RETAIN:
        return not (has_owner_ref(claim, set_) or has_owner_ref(claim, pod))
    if scaled == RETAIN and deleted == DELETE:
        return has_owner_ref(claim, set_) and not has_owner_ref(claim, pod)
    pod_scaled_down = not pod_in_ordinal_range(pod, set_)
    if scaled == DELETE and deleted == RETAIN:
        return not has_owner_ref(claim, set_) and pod_scaled_down == has_owner_ref(claim, pod)
    # Delete/Delete: a condemned pod's claim belongs to the pod only, a member's to the set only.
    return pod_scaled_down != has_owner_ref(claim, set_) and pod_scaled_down == has_owner_ref(claim, pod)


def update_claim_owner_ref_for_set_and_pod(claim: V1PersistentVolumeClaim, set_: V1StatefulSet, pod: V1Pod) -> None:
    """Port of updateClaimOwnerRefForSetAndPod: rewrite the claim's references to fit the policy.

    Our references to the set and pod are scrubbed first; then, unless a
    foreign controller holds the claim, the wanted one (see
    is_claim_owner_up_to_date) is added as a controller reference, so the
    garbage collector deletes the claim together with its owner.
    `claim` must be the caller's own copy.
    """
    refs = list(claim.metadata.owner_references or [])
    unexpected_controller = has_unexpected_controller(claim, set_, pod)
    refs = remove_refs(refs, lambda ref: matches_ref(ref, set_, CONTROLLER_KIND) or matches_ref(ref, pod, POD_KIND))
    if not unexpected_controller:
        policy = get_persistent_volume_claim_retention_policy(set_)
        pod_scaled_down = not pod_in_ordinal_range(pod, set_)
        if policy.when_scaled == RETAIN and policy.when_deleted == DELETE:
            refs = add_controller_ref(refs, set_, CONTROLLER_KIND)
        elif policy.when_scaled == DELETE and policy.when_deleted == RETAIN:
            if pod_scaled_down:
                refs = add_controller_ref(refs, pod, POD_KIND)
        elif policy.when_scaled == DELETE and policy.when_deleted == DELETE:
            refs = add_controller_ref(refs, pod if pod_scaled_down else set_,
                                      POD_KIND if pod_scaled_down else CONTROLLER_KIND)
        elif not (policy.when_scaled == RETAIN and policy.when_deleted == RETAIN):
            log.error("Unknown policy %s, treating as Retain", policy)
    claim.metadata.owner_references = refs or None


def has_owner_ref(target: Any, owner: Any) -> bool:
    """Port of hasOwnerRef: `target` references `owner`'s uid (controller or not)."""
    return any(ref.uid == _uid(owner) for ref in object_meta(target).owner_references or [])


def has_stale_owner_ref(target: V1PersistentVolumeClaim, obj: Any, gvk: GroupVersionKind) -> bool:
    """Port of hasStaleOwnerRef: the first reference naming `obj` carries another uid."""
    for ref in target.metadata.owner_references or []:
        if matches_ref(ref, obj, gvk):
            return ref.uid != _uid(obj)
    return False


def add_controller_ref(refs: list[V1OwnerReference], owner: Any, gvk: GroupVersionKind) -> list[V1OwnerReference]:
    """Port of addControllerRef: `refs` plus a controller reference to `owner`, unless one exists."""
    if any(ref.uid == _uid(owner) for ref in refs):
        return refs  # refs were scrubbed first, so an existing one is already right
    return [*refs, new_controller_ref(owner, gvk)]


def get_persistent_volume_claims(set_: V1StatefulSet, pod: V1Pod) -> dict[str, V1PersistentVolumeClaim]:
    """Port of getPersistentVolumeClaims: template name -> the claim this pod should have.

    Each is a copy of its template named for the pod's ordinal, in the set's
    namespace, with the set's selector labels added to the template's.
    """
    ordinal = get_ordinal(pod)
    selector_labels = dict((set_.spec.selector.match_labels if set_.spec.selector else None) or {})
    claims: dict[str, V1PersistentVolumeClaim] = {}
    for template in set_.spec.volume_claim_templates or []:
        claim = deep_copy(template)
        claim.metadata.name = get_persistent_volume_claim_name(set_, template, ordinal)
        claim.metadata.namespace = set_.metadata.namespace
        claim.metadata.labels = {**(claim.metadata.labels or {}), **selector_labels}
        claims[_name(template)] = claim
    return claims


def update_storage(set_: V1StatefulSet, pod: V1Pod) -> None:
    """Port of updateStorage: mount the pod's claims, replacing same-named volumes, keeping the rest."""
    current = pod.spec.volumes or []
    claims = get_persistent_volume_claims(set_, pod)
    new_volumes = [V1Volume(name=name, persistent_volume_claim=V1PersistentVolumeClaimVolumeSource(
        claim_name=claims[name].metadata.name, read_only=False)) for name in sorted(claims)]
    new_volumes += [v for v in current if v.name not in claims]
    pod.spec.volumes = new_volumes


def init_identity(set_: V1StatefulSet, pod: V1Pod) -> None:
    """Port of initIdentity: update_identity, plus hostname and subdomain (set once, at creation)."""
    update_identity(set_, pod)
    pod.spec.hostname = pod.metadata.name
    pod.spec.subdomain = set_.spec.service_name or None


def update_identity(set_: V1StatefulSet, pod: V1Pod) -> None:
    """Port of updateIdentity: name, namespace, pod-name and pod-index labels from the ordinal."""
    ordinal = get_ordinal(pod)
    pod.metadata.name = get_pod_name(set_, ordinal)
    pod.metadata.namespace = set_.metadata.namespace
    pod.metadata.labels = {**(pod.metadata.labels or {}), STATEFUL_SET_POD_NAME_LABEL: pod.metadata.name,
                           POD_INDEX_LABEL: str(ordinal)}


def is_running_and_ready(pod: V1Pod) -> bool:
    """Port of isRunningAndReady: phase Running and condition Ready."""
    return _phase(pod) == "Running" and podutil.is_pod_ready(pod)


def is_running_and_available(pod: V1Pod, min_ready_seconds: int, now: Any) -> bool:
    """Port of isRunningAndAvailable: ready for at least `min_ready_seconds` at `now`."""
    return podutil.is_pod_available(pod, min_ready_seconds, now)


def is_unavailable(pod: V1Pod, min_ready_seconds: int, now: Any) -> bool:
    """Port of isUnavailable (1.35): not available at `now`, or being deleted (maxUnavailable's count)."""
    return not is_running_and_available(pod, min_ready_seconds, now) or is_terminating(pod)


def _phase(pod: V1Pod) -> str:
    return (pod.status.phase if pod.status else None) or ""


def is_created(pod: V1Pod) -> bool:
    """Port of isCreated: the API server has it (the status has a phase); a planned pod has none."""
    return _phase(pod) != ""


def is_pending(pod: V1Pod) -> bool:
    """Port of isPending."""
    return _phase(pod) == "Pending"


def is_failed(pod: V1Pod) -> bool:
    """Port of isFailed."""
    return _phase(pod) == "Failed"


def is_succeeded(pod: V1Pod) -> bool:
    """Port of isSucceeded."""
    return _phase(pod) == "Succeeded"


def is_terminating(pod: V1Pod) -> bool:
    """Port of isTerminating: deletionTimestamp is set."""
    return pod.metadata.deletion_timestamp is not None


def is_healthy(pod: V1Pod) -> bool:
    """Port of isHealthy: running, ready and not being deleted."""
    return is_running_and_ready(pod) and not is_terminating(pod)


def allows_burst(set_: V1StatefulSet) -> bool:
    """Port of allowsBurst: podManagementPolicy Parallel (pods need not wait for each other)."""
    return set_.spec.pod_management_policy == PARALLEL_POD_MANAGEMENT


def set_pod_revision(pod: V1Pod, revision: str) -> None:
    """Port of setPodRevision: set the controller-revision-hash label."""
    pod.metadata.labels = {**(pod.metadata.labels or {}), STATEFUL_SET_REVISION_LABEL: revision}


def get_pod_revision(pod: V1Pod) -> str:
    """Port of getPodRevision: the controller-revision-hash label, "" when absent."""
    return (pod.metadata.labels or {}).get(STATEFUL_SET_REVISION_LABEL, "")


def new_stateful_set_pod(set_: V1StatefulSet, ordinal: int) -> V1Pod:
    """Port of newStatefulSetPod: the member `ordinal` from the set's template, not yet created."""
    pod = controller_utils.get_pod_from_template(set_.spec.template, set_, new_controller_ref(set_, CONTROLLER_KIND))
    pod.metadata.name = get_pod_name(set_, ordinal)
    init_identity(set_, pod)
    update_storage(set_, pod)
    return pod


def new_versioned_stateful_set_pod(current_set: V1StatefulSet, update_set: V1StatefulSet, current_revision: str,
                                   update_revision: str, ordinal: int) -> V1Pod:
    """Port of newVersionedStatefulSetPod: a new member at the revision its ordinal calls for.

    Below the partition (start + partition) a member keeps the current
    revision; from the partition up it gets the update revision. Without a
    rollingUpdate block, the first `status.currentReplicas` ordinals stay
    current. Example: start 0, partition 2 -> ordinals 0 and 1 current, 2.. update.
    (The grouping of the condition, (RollingUpdate and no block and below
    currentReplicas) or (a block and below the partition), is upstream's.)
    """
    strategy = current_set.spec.update_strategy
    rolling = strategy.rolling_update if strategy else None
    start = get_start_ordinal(current_set)
    current_replicas = (current_set.status.current_replicas if current_set.status else None) or 0
    if ((strategy is not None and strategy.type == ROLLING_UPDATE_STRATEGY and rolling is None
         and ordinal < start + current_replicas)
            or (rolling is not None and ordinal < start + (rolling.partition or 0))):
        pod = new_stateful_set_pod(current_set, ordinal)
        set_pod_revision(pod, current_revision)
        return pod
    pod = new_stateful_set_pod(update_set, ordinal)
    set_pod_revision(pod, update_revision)
    return pod


def _go_encoded_template(template: dict[str, Any]) -> dict[str, Any]:
    # The fields Go's encoder writes for a pod template even when they are empty.
    template.setdefault("metadata", {})
    spec = template.setdefault("spec", {})
    for key in ("initContainers", "containers", "ephemeralContainers"):
        for container in spec.get(key) or []:
            container.setdefault("resources", {})
    return template


def get_patch(set_: V1StatefulSet) -> dict[str, Any]:
    """Port of getPatch: the revision data that restores `set_`'s pod template.

    `{"spec": {"template": {<the template>, "$patch": "replace"}}}`: only the
    template is saved, so a later change elsewhere (replicas, the update
    strategy) never makes a new revision.
    """
    template = _go_encoded_template(to_wire(set_.spec.template))
    template["$patch"] = "replace"
    return {"spec": {"template": template}}


def new_revision(set_: V1StatefulSet, revision: int, collision_count: int | None) -> V1ControllerRevision:
    """Port of newRevision: a ControllerRevision of the set's current template (not yet created).

    Labels are the template's (so the set's selector finds it), annotations the set's.
    """
    cr = history.new_controller_revision(set_, CONTROLLER_KIND, set_.spec.template.metadata.labels
                                         if set_.spec.template.metadata else None,
                                         get_patch(set_), revision, collision_count)
    cr.metadata.annotations = {**(cr.metadata.annotations or {}), **(set_.metadata.annotations or {})}
    return cr


def apply_revision(set_: V1StatefulSet, revision: V1ControllerRevision) -> V1StatefulSet:
    """Port of ApplyRevision: a copy of `set_` with the revision's saved template put back.

    The `resources: {}` that get_patch writes is dropped again: decoded into
    Go's struct it is the same as no resources, and so it must be here.

    Raises: PatchError for a revision whose data is not a patch.
    """
    patched = strategic_merge_map_patch_using_lookup_patch_meta(to_wire(set_), revision.data or {},
                                                                PatchMetaFromTable("StatefulSet", {}))
    spec = (patched.get("spec") or {}).get("template", {}).get("spec") or {}
    for key in ("initContainers", "containers", "ephemeralContainers"):
        for container in spec.get(key) or []:
            if container.get("resources") == {}:
                del container["resources"]  # Go: an empty struct is no resources at all
    return from_wire(patched, V1StatefulSet)


def next_revision(revisions: list[V1ControllerRevision]) -> int:
    """Port of nextRevision: 1 for no history, else the last (highest) revision + 1. Expects sorted input."""
    if not revisions:
        return 1
    return (revisions[-1].revision or 0) + 1


def inconsistent_status(set_: V1StatefulSet, status: V1StatefulSetStatus) -> bool:
    """Port of inconsistentStatus: the computed status differs from the stored one (so write it)."""
    old = set_.status or V1StatefulSetStatus(replicas=0)
    return ((status.observed_generation or 0) > (old.observed_generation or 0)
            or (status.replicas or 0) != (old.replicas or 0)
            or (status.current_replicas or 0) != (old.current_replicas or 0)
            or (status.ready_replicas or 0) != (old.ready_replicas or 0)
            or (status.updated_replicas or 0) != (old.updated_replicas or 0)
            or (status.current_revision or "") != (old.current_revision or "")
            or (status.available_replicas or 0) != (old.available_replicas or 0)
            or (status.update_revision or "") != (old.update_revision or ""))


def complete_rolling_update(set_: V1StatefulSet, status: V1StatefulSetStatus) -> None:
    """Port of completeRollingUpdate: once every member is updated and ready, the update revision becomes current.

    Only for RollingUpdate, and only when updated == ready == replicas ==
    spec.replicas; then currentReplicas and currentRevision take the update's.
    """
    replicas = set_.spec.replicas or 0
    strategy = set_.spec.update_strategy
    if (strategy is not None and strategy.type == ROLLING_UPDATE_STRATEGY
            and (status.updated_replicas or 0) == replicas and (status.ready_replicas or 0) == replicas
            and (status.replicas or 0) == replicas):
        status.current_replicas = status.updated_replicas
        status.current_revision = status.update_revision


class AscendingOrdinal:
    """Port of ascendingOrdinal: pods by ordinal, smallest first (pods without one, -1, lead)."""

    def __init__(self, pods: list[V1Pod]) -> None:
        self.pods = pods

    def __len__(self) -> int:
        return len(self.pods)

    def less(self, i: int, j: int) -> bool:
        return get_ordinal(self.pods[i]) < get_ordinal(self.pods[j])


class DescendingOrdinal(AscendingOrdinal):
    """Port of descendingOrdinal: pods by ordinal, largest first (pods without one trail)."""

    def less(self, i: int, j: int) -> bool:
        return get_ordinal(self.pods[i]) > get_ordinal(self.pods[j])


def sort_pods_by(order: AscendingOrdinal | OverlappingStatefulSets) -> None:
    """No upstream twin: sort the list under `order` in place (Go: sort.Sort), stably."""
    items: list[Any] = order.pods if isinstance(order, AscendingOrdinal) else order.sets

    def compare(i: int, j: int) -> int:
        return -1 if order.less(i, j) else (1 if order.less(j, i) else 0)

    keyed = sorted(range(len(items)), key=functools.cmp_to_key(compare))
    items[:] = [items[i] for i in keyed]


def get_stateful_set_max_unavailable(max_unavailable: int | str | None, replica_count: int) -> int:
    """Port of getStatefulSetMaxUnavailable: maxUnavailable as a count, at least 1.

    Unset means 1; a percentage of `replica_count` rounds down, then at least
    1: "10%" of 5 replicas is 0.5 -> 0 -> 1, "50%" of 5 is 2.

    Raises: ValueError for a malformed value.
    """
    value = intstr.get_scaled_value_from_int_or_percent(intstr.value_or_default(max_unavailable, 1),
                                                        replica_count, False)
    return max(value, 1)
