"""Port of pkg/controller/controller_ref_manager.go (k8s.io/kubernetes/pkg/controller).

ControllerRef adoption and release. A controller "claims" the objects its
selector matches: it adopts orphans (patches its own controller reference
onto them), keeps what it already owns, and releases owned objects whose
labels no longer match (patches its reference away). Objects owned by
another controller are left alone. The ReplicaSet controller claims pods,
the Deployment controller ReplicaSets, the StatefulSet controller pods and
ControllerRevisions.

Start reading at: BaseControllerRefManager.claim_object, then
PodControllerRefManager.adopt_pod and owner_ref_controller_patch.

Not ported: contextual logging (log lines go to the module logger).
Differs from Go:
- can_adopt_func, adopt and release raise instead of returning an error;
  can_adopt remembers the first outcome (Go: sync.Once) and raises it again.
- claim_pods / claim_replica_sets / claim_controller_revisions raise a
  field.Aggregate of the per-object errors (Go returns the claimed list and the
  aggregate; callers only use the list when the error is nil).
- Errors Go builds with fmt.Errorf("...: %v", err) are RuntimeErrors whose cause
  is not chained, so apierrors predicates do not see through them, as in Go.
- Patch bodies are built as Go's encoding/json would: struct field order, map
  keys sorted, no spaces, and <, >, & escaped as \\u003c, \\u003e, \\u0026.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

from kubernetes.client import V1ControllerRevision, V1Pod, V1ReplicaSet

from minikcm.apimachinery import errors, labels
from minikcm.apimachinery.convert import object_meta
from minikcm.apimachinery.field import Aggregate
from minikcm.apimachinery.meta import get_controller_of_no_copy
from minikcm.apimachinery.schema import GroupVersionKind
from minikcm.apimachinery.types import UID
from minikcm.controller.controller_utils import (
    ControllerRevisionControlInterface,
    PodControlInterface,
    RSControlInterface,
)

log = logging.getLogger(__name__)

CanAdoptFunc = Callable[[], None]
"""A check run before the first adoption; it raises to forbid adoptions (Go: func(ctx) error)."""


class BaseControllerRefManager:
    """Port of BaseControllerRefManager: the claim rules shared by every kind of dependent.

    `controller` is the owner object (a model); `selector` decides which
    objects it wants.
    """

    def __init__(self, controller: Any, selector: labels.Selector, can_adopt_func: CanAdoptFunc | None = None) -> None:
        self.controller = controller
        self.selector = selector
        self.can_adopt_func = can_adopt_func
        """Expensive check (a live GET of the owner) run at most once, before the first adoption."""
        self.can_adopt_err: Exception | None = None
        self._can_adopt_once = threading.Lock()  # Go: sync.Once
        self._can_adopt_done = False

    def can_adopt(self) -> None:
        """Port of BaseControllerRefManager.CanAdopt: run can_adopt_func once; re-raise its error ever after.

        A manager lives for one sync pass; a new pass makes a new manager and
        so checks again.
        """
        with self._can_adopt_once:
            if not self._can_adopt_done:
                self._can_adopt_done = True
                if self.can_adopt_func is not None:
                    try:
                        self.can_adopt_func()
                    except Exception as err:  # remembered and raised to every adopter
                        self.can_adopt_err = err
        if self.can_adopt_err is not None:
            raise self.can_adopt_err

    def claim_object(self, obj: Any, match: Callable[[Any], bool],
                     adopt: Callable[[Any], None], release: Callable[[Any], None]) -> bool:
        """Port of BaseControllerRefManager.ClaimObject: take, keep or let go of one object.

        Returns whether the controller owns `obj` afterwards:
        - owned by another controller: False, untouched;
        - owned by us and matching: True (even while we are being deleted);
        - owned by us, not matching: released (unless we are being deleted), False;
        - orphan, matching, same namespace, neither side being deleted: adopted, True;
        - any other orphan: False.
        A NotFound from adopt or release means the object is gone: False, no error.

        Raises:
            Exception: adopt or release failed otherwise; the caller retries later.
        """
        meta = object_meta(obj)
        owner = object_meta(self.controller)
        controller_ref = get_controller_of_no_copy(obj)
        if controller_ref is not None:
            if controller_ref.uid != (owner.uid or ""):
                return False  # owned by someone else
            if match(obj):
                return True  # claiming what we own needs no action, so it is fine while being deleted
            if owner.deletion_timestamp is not None:
                return False
            try:
                release(obj)
            except Exception as err:
                if errors.is_not_found(err):
                    return False  # already gone
                raise
            return False
        # An orphan.
        if owner.deletion_timestamp is not None or not match(obj):
            return False
        if meta.deletion_timestamp is not None:
            return False
        if owner.namespace and owner.namespace != meta.namespace:
            return False
        try:
            adopt(obj)
        except Exception as err:
            if errors.is_not_found(err):
                return False  # already gone
            raise
        return True


def _claim_all(manager: BaseControllerRefManager, objs: list[Any], match: Callable[[Any], bool],
               adopt: Callable[[Any], None], release: Callable[[Any], None]) -> list[Any]:
    # The loop ClaimPods, ClaimReplicaSets and ClaimControllerRevisions share in Go.
    claimed: list[Any] = []
    errlist: list[Exception] = []
    for obj in objs:
        try:
            ok = manager.claim_object(obj, match, adopt, release)
        except Exception as err:  # collected, as Go's errlist
            errlist.append(err)
            continue
        if ok:
            claimed.append(obj)
    if errlist:
        raise Aggregate(errlist)
    return claimed


class PodControllerRefManager(BaseControllerRefManager):
    """Port of PodControllerRefManager: claims pods through a PodControlInterface.

    `finalizers`, when given, are added on adoption and removed on release.
    """

    def __init__(self, pod_control: PodControlInterface, controller: Any, selector: labels.Selector,
                 controller_kind: GroupVersionKind, can_adopt: CanAdoptFunc | None, *finalizers: str) -> None:
        super().__init__(controller, selector, can_adopt)
        self.controller_kind = controller_kind
        self.pod_control = pod_control
        self.finalizers = list(finalizers)

    def claim_pods(self, pods: list[V1Pod], *filters: Callable[[V1Pod], bool]) -> list[V1Pod]:
        """Port of PodControllerRefManager.ClaimPods: the pods this controller owns after claiming.

        A pod matches when the selector matches its labels and every filter
        accepts it (filters run only on pods the selector matched).

        Raises:
            Aggregate: of every adoption or release that failed.
        """

        def match(pod: V1Pod) -> bool:
            # Go wraps the labels in labels.Set, a free type conversion; a copy here would cost a dict per pod.
            if not self.selector.matches(pod.metadata.labels or {}):
                return False
            for f in filters:
                if not f(pod):
                    return False
            return True

        return _claim_all(self, pods, match, self.adopt_pod, self.release_pod)

    def adopt_pod(self, pod: V1Pod) -> None:
        """Port of PodControllerRefManager.AdoptPod: patch our controller reference onto `pod`.

        The patch carries the pod's UID, so it fails instead of adopting a new
        pod that took the same name; the API server rejects it if the pod
        already has a controller.
        """
        try:
            self.can_adopt()
        except Exception as err:
            raise RuntimeError(f"can't adopt Pod {pod.metadata.namespace}/{pod.metadata.name} "
                               f"({pod.metadata.uid}): {err}")  # noqa: B904 - Go %v, not %w
        data = owner_ref_controller_patch(self.controller, self.controller_kind, pod.metadata.uid or "",
                                          *self.finalizers)
        self.pod_control.patch_pod(pod.metadata.namespace or "", pod.metadata.name or "", data)

    def release_pod(self, pod: V1Pod) -> None:
        """Port of PodControllerRefManager.ReleasePod: patch our reference off `pod`.

        NotFound (pod gone) and Invalid (no such reference, or a new pod under
        the same name, caught by the UID precondition) are ignored.
        """
        log.info("Patching pod %s/%s to remove its controllerRef to %s %s",
                 pod.metadata.namespace, pod.metadata.name, self.controller_kind, object_meta(self.controller).name)
        data = generate_delete_owner_ref_strategic_merge_bytes(
            pod.metadata.uid or "", [object_meta(self.controller).uid or ""], *self.finalizers)
        try:
            self.pod_control.patch_pod(pod.metadata.namespace or "", pod.metadata.name or "", data)
        except Exception as err:
            if errors.is_not_found(err) or errors.is_invalid(err):
                return
            raise


def new_pod_controller_ref_manager(pod_control: PodControlInterface, controller: Any, selector: labels.Selector,
                                   controller_kind: GroupVersionKind, can_adopt: CanAdoptFunc | None,
                                   *finalizers: str) -> PodControllerRefManager:
    """Port of NewPodControllerRefManager.

    `can_adopt` runs at most once, and only if an adoption is attempted; make
    a new manager for each sync pass to check again.
    """
    return PodControllerRefManager(pod_control, controller, selector, controller_kind, can_adopt, *finalizers)


class ReplicaSetControllerRefManager(BaseControllerRefManager):
    """Port of ReplicaSetControllerRefManager: claims ReplicaSets (the Deployment controller's)."""

    def __init__(self, rs_control: RSControlInterface, controller: Any, selector: labels.Selector,
                 controller_kind: GroupVersionKind, can_adopt: CanAdoptFunc | None) -> None:
        super().__init__(controller, selector, can_adopt)
        self.controller_kind = controller_kind
        self.rs_control = rs_control

    def claim_replica_sets(self, sets: list[V1ReplicaSet]) -> list[V1ReplicaSet]:
        """Port of ReplicaSetControllerRefManager.ClaimReplicaSets: as claim_pods, by labels only."""

        def match(obj: Any) -> bool:
            return self.selector.matches(labels.Set(object_meta(obj).labels or {}))

        return _claim_all(self, sets, match, self.adopt_replica_set, self.release_replica_set)

    def adopt_replica_set(self, rs: V1ReplicaSet) -> None:
        """Port of ReplicaSetControllerRefManager.AdoptReplicaSet."""
        try:
            self.can_adopt()
        except Exception as err:
            raise RuntimeError(f"can't adopt ReplicaSet {rs.metadata.namespace}/{rs.metadata.name} "
                               f"({rs.metadata.uid}): {err}")  # noqa: B904 - Go %v, not %w
        data = owner_ref_controller_patch(self.controller, self.controller_kind, rs.metadata.uid or "")
        self.rs_control.patch_replica_set(rs.metadata.namespace or "", rs.metadata.name or "", data)

    def release_replica_set(self, replica_set: V1ReplicaSet) -> None:
        """Port of ReplicaSetControllerRefManager.ReleaseReplicaSet; NotFound and Invalid are ignored."""
        log.info("Patching ReplicaSet %s/%s to remove its controllerRef to %s %s", replica_set.metadata.namespace,
                 replica_set.metadata.name, self.controller_kind, object_meta(self.controller).name)
        data = generate_delete_owner_ref_strategic_merge_bytes(
            replica_set.metadata.uid or "", [object_meta(self.controller).uid or ""])
        try:
            self.rs_control.patch_replica_set(replica_set.metadata.namespace or "", replica_set.metadata.name or "",
                                              data)
        except Exception as err:
            if errors.is_not_found(err) or errors.is_invalid(err):
                return
            raise


def new_replica_set_controller_ref_manager(rs_control: RSControlInterface, controller: Any,
                                           selector: labels.Selector, controller_kind: GroupVersionKind,
                                           can_adopt: CanAdoptFunc | None) -> ReplicaSetControllerRefManager:
    """Port of NewReplicaSetControllerRefManager."""
    return ReplicaSetControllerRefManager(rs_control, controller, selector, controller_kind, can_adopt)


def recheck_deletion_timestamp(get_object: Callable[[], Any]) -> CanAdoptFunc:
    """Port of RecheckDeletionTimestamp: a can-adopt check that re-reads the owner.

    The cached owner may be stale; `get_object` should read it live (a quorum
    GET). If the fresh copy is being deleted, adoption is refused, so a
    controller never adopts pods in the instant before its own deletion.
    """

    def can_adopt() -> None:
        try:
            obj = get_object()
        except Exception as err:
            raise RuntimeError(f"can't recheck DeletionTimestamp: {err}")  # noqa: B904 - Go %v, not %w
        meta = object_meta(obj)
        if meta.deletion_timestamp is not None:
            raise RuntimeError(f"{meta.namespace}/{meta.name} has just been deleted at {meta.deletion_timestamp}")

    return can_adopt


class ControllerRevisionControllerRefManager(BaseControllerRefManager):
    """Port of ControllerRevisionControllerRefManager: claims ControllerRevisions (history)."""

    def __init__(self, cr_control: ControllerRevisionControlInterface, controller: Any, selector: labels.Selector,
                 controller_kind: GroupVersionKind, can_adopt: CanAdoptFunc | None) -> None:
        super().__init__(controller, selector, can_adopt)
        self.controller_kind = controller_kind
        self.cr_control = cr_control

    def claim_controller_revisions(self, histories: list[V1ControllerRevision]) -> list[V1ControllerRevision]:
        """Port of ControllerRevisionControllerRefManager.ClaimControllerRevisions: by labels only."""

        def match(obj: Any) -> bool:
            return self.selector.matches(labels.Set(object_meta(obj).labels or {}))

        return _claim_all(self, histories, match, self.adopt_controller_revision, self.release_controller_revision)

    def adopt_controller_revision(self, history: V1ControllerRevision) -> None:
        """Port of ControllerRevisionControllerRefManager.AdoptControllerRevision."""
        try:
            self.can_adopt()
        except Exception as err:
            raise RuntimeError(f"can't adopt ControllerRevision {history.metadata.namespace}/{history.metadata.name} "
                               f"({history.metadata.uid}): {err}")  # noqa: B904 - Go %v, not %w
        data = owner_ref_controller_patch(self.controller, self.controller_kind, history.metadata.uid or "")
        self.cr_control.patch_controller_revision(history.metadata.namespace or "", history.metadata.name or "", data)

    def release_controller_revision(self, history: V1ControllerRevision) -> None:
        """Port of ControllerRevisionControllerRefManager.ReleaseControllerRevision.

        NotFound and Invalid are ignored, as for pods.
        """
        log.info("Patching ControllerRevision %s/%s to remove its controllerRef to %s %s", history.metadata.namespace,
                 history.metadata.name, self.controller_kind, object_meta(self.controller).name)
        data = generate_delete_owner_ref_strategic_merge_bytes(
            history.metadata.uid or "", [object_meta(self.controller).uid or ""])
        try:
            self.cr_control.patch_controller_revision(history.metadata.namespace or "", history.metadata.name or "",
                                                      data)
        except Exception as err:
            if errors.is_not_found(err) or errors.is_invalid(err):
                return
            raise


def new_controller_revision_controller_ref_manager(
    cr_control: ControllerRevisionControlInterface, controller: Any, selector: labels.Selector,
    controller_kind: GroupVersionKind, can_adopt: CanAdoptFunc | None,
) -> ControllerRevisionControllerRefManager:
    """Port of NewControllerRevisionControllerRefManager."""
    return ControllerRevisionControllerRefManager(cr_control, controller, selector, controller_kind, can_adopt)


# --- patch bodies ---------------------------------------------------------------------------


def go_json_marshal(value: Any) -> bytes:
    """Go's json.Marshal for plain dicts, lists and scalars: compact, HTML-safe escaping.

    Key order is the dict's insertion order; build dicts in Go's struct
    field order, and sort the keys of what Go holds in a map.
    """
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                    ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text.encode("utf-8")


def owner_ref_controller_patch(controller: Any, controller_kind: GroupVersionKind, uid: UID,
                               *finalizers: str) -> bytes:
    """Port of ownerRefControllerPatch: the strategic merge patch that adopts an object.

    For a ReplicaSet "web-5d4f" (uid u-rs) adopting pod uid u-pod:
    {"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet",
    "name":"web-5d4f","uid":"u-rs","controller":true,"blockOwnerDeletion":true}],
    "uid":"u-pod"}} (one line). The object's own uid is a precondition: the
    server refuses the patch if the object under that name has another uid.
    ownerReferences merge by uid, so other owners are kept. Finalizers, if
    any, follow as "finalizers":[...].
    """
    owner = object_meta(controller)
    meta: dict[str, Any] = {
        "ownerReferences": [{
            "apiVersion": controller_kind.group_version(),
            "kind": controller_kind.kind,
            "name": owner.name or "",
            "uid": owner.uid or "",
            "controller": True,
            "blockOwnerDeletion": True,
        }],
        "uid": uid,
    }
    if finalizers:
        meta["finalizers"] = list(finalizers)  # Go: omitempty
    return go_json_marshal({"metadata": meta})


def generate_delete_owner_ref_strategic_merge_bytes(dependent_uid: UID, owner_uids: list[UID],
                                                    *finalizers: str) -> bytes:
    """Port of GenerateDeleteOwnerRefStrategicMergeBytes: the patch that releases an object.

    {"metadata":{"uid":"u-pod","ownerReferences":[{"$patch":"delete","uid":"u-rs"}]}}
    removes the owner reference with uid u-rs (the `$patch: delete` directive
    of strategic merge), with the object's uid as precondition; finalizers to
    drop follow as "$deleteFromPrimitiveList/finalizers":[...]. With no owner
    uids, ownerReferences is null, as Go marshals a nil slice.
    """
    owner_references = [owner_reference(u, "delete") for u in owner_uids] or None
    meta: dict[str, Any] = {"uid": dependent_uid, "ownerReferences": owner_references}
    if finalizers:
        meta["$deleteFromPrimitiveList/finalizers"] = list(finalizers)  # Go: omitempty
    return go_json_marshal({"metadata": meta})


def owner_reference(uid: UID, patch_type: str) -> dict[str, str]:
    """Port of ownerReference: one patch directive for the owner reference with `uid` (keys sorted, as a Go map)."""
    return {"$patch": patch_type, "uid": uid}
