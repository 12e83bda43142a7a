"""No upstream twin. The decisions of a DELETE, after rest/delete.go and the GC half of store.go.

A delete does not always remove the object. Three things can hold it back, and
upstream decides each with a small function that this module mirrors:

- graceful deletion (pods): `before_delete` stamps deletionTimestamp and
  deletionGracePeriodSeconds; the kubelet finishes the delete later;
- finalizers: an object with finalizers is only marked (`mark_as_deleting`)
  and disappears when the last finalizer is removed by an update;
- the propagation policy: Foreground adds the `foregroundDeletion` finalizer and
  Orphan the `orphan` finalizer for the garbage collector
  (`deletion_finalizers_for_garbage_collection`).

`minikcm.apiserver.registry.Registry.delete` strings them together exactly in
upstream's order (Store.Delete, then updateForGracefulDeletionAndFinalizers).

Start reading at: before_delete, then deletion_finalizers_for_garbage_collection.

Differs from upstream: functions work on wire dicts and take the delete options
as a `DeleteRequest` whose grace period they may rewrite (Go mutates the
DeleteOptions it is given for the same purpose); the deprecated
orphanDependents option is not supported.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from minikcm.apimachinery import errors, field, meta
from minikcm.apimachinery.schema import GroupKind, GroupResource, resource_info
from minikcm.apiserver.strategy import GC_ORPHAN_DEPENDENTS, GC_UNSUPPORTED, STRATEGIES, check_graceful_delete

PROPAGATION_POLICIES = (meta.DELETE_PROPAGATION_FOREGROUND, meta.DELETE_PROPAGATION_BACKGROUND,
                        meta.DELETE_PROPAGATION_ORPHAN)


@dataclass
class DeleteRequest:
    """The options of one DELETE (Go: metav1.DeleteOptions), rewritten as the decision proceeds."""

    grace_period_seconds: int | None = None
    uid: str | None = None
    """Precondition: the object must still have this uid."""
    resource_version: str | None = None
    """Precondition: the object must still be at this resourceVersion."""
    propagation_policy: str | None = None
    dry_run: bool = False


def format_time(t: datetime) -> str:
    """A metav1.Time on the wire: RFC 3339 in UTC, whole seconds (`2026-01-01T00:00:00Z`)."""
    return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(s: str) -> datetime:
    """Read a metav1.Time written by `format_time` (or any RFC 3339 time)."""
    return datetime.fromisoformat(s.replace("Z", "+00:00"))


def validate_delete_options(request: DeleteRequest) -> None:
    """Port of ValidateDeleteOptions (apimachinery/pkg/apis/meta/v1/validation/validation.go).

    The propagation policy must be a known one.

    Raises:
        StatusError: 422 Invalid on the DeleteOptions kind.
    """
    policy = request.propagation_policy
    if policy is not None and policy not in PROPAGATION_POLICIES:
        err = field.not_supported(field.new_path("propagationPolicy"), policy,
                                  [*PROPAGATION_POLICIES, "nil"])
        raise errors.new_invalid(GroupKind("meta.k8s.io", "DeleteOptions"), "", [err])


def check_preconditions(resource: str, obj: dict[str, Any], request: DeleteRequest) -> None:
    """The precondition half of rest.BeforeDelete: uid and resourceVersion must still match.

    Raises:
        StatusError: 409 Conflict, named by kind as upstream does (`Pod "web-0"`).
    """
    info = resource_info(resource)
    m = obj.get("metadata") or {}
    qualified = GroupResource(info.group, info.kind)
    if request.uid is not None and request.uid != m.get("uid", ""):
        raise errors.new_conflict(qualified, m.get("name", ""), (
            f"the UID in the precondition ({request.uid}) does not match the UID in record "
            f"({m.get('uid', '')}). The object might have been deleted and then recreated"))
    if request.resource_version is not None and request.resource_version != m.get("resourceVersion", ""):
        raise errors.new_conflict(qualified, m.get("name", ""), (
            f"the ResourceVersion in the precondition ({request.resource_version}) does not match "
            f"the ResourceVersion in record ({m.get('resourceVersion', '')}). "
            "The object might have been modified"))


def before_delete(resource: str, obj: dict[str, Any], request: DeleteRequest,
                  now: datetime) -> tuple[bool, bool]:
    """Port of rest.BeforeDelete (apiserver/pkg/registry/rest/delete.go).

    Returns (graceful, graceful_pending), may change `obj`.

    graceful: the object should now be marked with deletionTimestamp =
    now + grace period (done here) instead of removed. graceful_pending: it was
    already marked with a period no longer than the one asked for, so nothing
    changes. A shorter period on an already-marked object moves its deletion
    time earlier (never into the past).

    Worked example: a scheduled pod with terminationGracePeriodSeconds 30 is
    deleted at 12:00:00: deletionTimestamp 12:00:30, period 30, graceful. The
    kubelet's final delete with period 0 at 12:00:05 moves the timestamp to
    12:00:05 (30 - 30 + 0 would be 12:00:00, in the past), period 0, graceful,
    and the registry then removes it.

    Raises:
        StatusError: Conflict when a precondition fails.
    """
    check_preconditions(resource, obj, request)
    m = obj.setdefault("metadata", {})
    if request.grace_period_seconds is not None and request.grace_period_seconds < 0:
        request.grace_period_seconds = 1  # negative periods mean "as soon as possible"
    if m.get("deletionGracePeriodSeconds") is not None and m["deletionGracePeriodSeconds"] < 0:
        m["deletionGracePeriodSeconds"] = 1
    if not STRATEGIES[resource].graceful_delete:
        return False, False
    if m.get("deletionTimestamp"):
        current = m.get("deletionGracePeriodSeconds")
        if not current:
            return False, False  # marked without a period: delete right away
        if request.grace_period_seconds is None:
            request.grace_period_seconds = current
            return False, True
        period = request.grace_period_seconds
        if period >= current:
            return False, True  # only a shorter period may be asked for
        moved = parse_time(m["deletionTimestamp"]) - timedelta(seconds=current) + timedelta(seconds=period)
        if moved < now:
            moved = now
            if period != 0:
                period = 1
        m["deletionTimestamp"] = format_time(moved)
        m["deletionGracePeriodSeconds"] = period
        return True, False
    grace = check_graceful_delete(resource, obj, request.grace_period_seconds)
    if grace is None:
        return False, False
    request.grace_period_seconds = grace
    m["deletionTimestamp"] = format_time(now + timedelta(seconds=grace))
    m["deletionGracePeriodSeconds"] = grace
    if (m.get("generation") or 0) > 0:
        m["generation"] += 1
    return True, False


def should_orphan_dependents(resource: str, obj: dict[str, Any], request: DeleteRequest) -> bool:
    """Port of shouldOrphanDependents (apiserver/pkg/registry/generic/registry/store.go).

    Option first, then existing finalizers, then the default.
    """
    policy = STRATEGIES[resource].gc_policy
    if policy == GC_UNSUPPORTED:
        return False
    if request.propagation_policy == meta.DELETE_PROPAGATION_ORPHAN:
        return True
    if request.propagation_policy in (meta.DELETE_PROPAGATION_BACKGROUND,
                                      meta.DELETE_PROPAGATION_FOREGROUND):
        return False
    for f in (obj.get("metadata") or {}).get("finalizers") or []:
        if f == meta.FINALIZER_ORPHAN_DEPENDENTS:
            return True
        if f == meta.FINALIZER_DELETE_DEPENDENTS:
            return False
    return policy == GC_ORPHAN_DEPENDENTS


def should_delete_dependents(resource: str, obj: dict[str, Any], request: DeleteRequest) -> bool:
    """Port of shouldDeleteDependents (apiserver/pkg/registry/generic/registry/store.go).

    Whether the foregroundDeletion finalizer belongs on `obj`.
    """
    if STRATEGIES[resource].gc_policy == GC_UNSUPPORTED:
        return False
    if request.propagation_policy == meta.DELETE_PROPAGATION_FOREGROUND:
        return True
    if request.propagation_policy in (meta.DELETE_PROPAGATION_BACKGROUND,
                                      meta.DELETE_PROPAGATION_ORPHAN):
        return False
    for f in (obj.get("metadata") or {}).get("finalizers") or []:
        if f == meta.FINALIZER_DELETE_DEPENDENTS:
            return True
        if f == meta.FINALIZER_ORPHAN_DEPENDENTS:
            return False
    return False


def deletion_finalizers_for_garbage_collection(resource: str, obj: dict[str, Any],
                                               request: DeleteRequest) -> tuple[bool, list[str]]:
    """Port of deletionFinalizersForGarbageCollection (apiserver/pkg/registry/generic/registry/store.go).

    (changed, finalizers) for the GC.

    Both GC finalizers are taken out, then `orphan` and/or `foregroundDeletion`
    are put back as the policy says; `changed` is False when the set is the same.
    """
    old = list((obj.get("metadata") or {}).get("finalizers") or [])
    gc_finalizers = (meta.FINALIZER_ORPHAN_DEPENDENTS, meta.FINALIZER_DELETE_DEPENDENTS)
    new = [f for f in old if f not in gc_finalizers]
    if should_orphan_dependents(resource, obj, request):
        new.append(meta.FINALIZER_ORPHAN_DEPENDENTS)
    if should_delete_dependents(resource, obj, request):
        new.append(meta.FINALIZER_DELETE_DEPENDENTS)
    if set(old) == set(new):
        return False, old
    return True, new


def mark_as_deleting(obj: dict[str, Any], now: datetime) -> None:
    """Port of markAsDeleting (apiserver/pkg/registry/generic/registry/store.go).

    DeletionTimestamp now (unless earlier), grace period 0.

    The first mark bumps metadata.generation, so controllers see a new
    generation when deletion starts.
    """
    m = obj.setdefault("metadata", {})
    if not m.get("deletionTimestamp") and (m.get("generation") or 0) > 0:
        m["generation"] += 1
    existing = m.get("deletionTimestamp")
    if not existing or parse_time(existing) > now:
        m["deletionTimestamp"] = format_time(now)
    m["deletionGracePeriodSeconds"] = 0


def should_delete_during_update(new: dict[str, Any], old: dict[str, Any]) -> bool:
    """Port of ShouldDeleteDuringUpdate (apiserver/pkg/registry/generic/registry/store.go).

    The update removed the last finalizer of a marked object.

    True when `new` has no finalizers, `old` has a deletionTimestamp, and old's
    grace period is 0 or unset (a graceful pod waits for its kubelet instead).
    """
    if (new.get("metadata") or {}).get("finalizers"):
        return False
    old_meta = old.get("metadata") or {}
    if not old_meta.get("deletionTimestamp"):
        return False
    return not old_meta.get("deletionGracePeriodSeconds")


def finalize_delete(resource: str, obj: dict[str, Any]) -> dict[str, Any]:
    """Port of Store.finalizeDelete (apiserver/pkg/registry/generic/registry/store.go).

    The DELETE response once the object is gone.

    Pods and namespaces answer with the object; the others with a Success
    Status naming it (whose details.kind holds the resource, as upstream's does).
    """
    if STRATEGIES[resource].return_deleted_object:
        return obj
    info = resource_info(resource)
    m = obj.get("metadata") or {}
    details = {k: v for k, v in (("name", m.get("name", "")), ("group", info.group),
                                 ("kind", resource), ("uid", m.get("uid", ""))) if v}
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
            "details": details}


def namespace_deletion_finalizers(obj: dict[str, Any], request: DeleteRequest) -> list[str]:
    """Port of shouldHaveOrphanFinalizer / shouldHaveDeleteDependentsFinalizer for namespaces.

    The namespace's own rule: an explicit policy decides both GC finalizers,
    otherwise the ones already present stay.
    """
    current = list((obj.get("metadata") or {}).get("finalizers") or [])
    policy = request.propagation_policy
    wanted = {
        meta.FINALIZER_ORPHAN_DEPENDENTS: (policy == meta.DELETE_PROPAGATION_ORPHAN
                                           if policy is not None
                                           else meta.FINALIZER_ORPHAN_DEPENDENTS in current),
        meta.FINALIZER_DELETE_DEPENDENTS: (policy == meta.DELETE_PROPAGATION_FOREGROUND
                                           if policy is not None
                                           else meta.FINALIZER_DELETE_DEPENDENTS in current),
    }
    out = [f for f in current if f not in wanted or wanted[f]]
    for f in sorted(wanted):
        if wanted[f] and f not in out:
            out.append(f)
    return out
