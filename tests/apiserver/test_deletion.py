"""Tests for minikcm.apiserver.deletion: grace periods, GC finalizers, marking."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from minikcm.apimachinery import errors
from minikcm.apiserver.deletion import (DeleteRequest, before_delete,
                                        deletion_finalizers_for_garbage_collection, finalize_delete,
                                        format_time, mark_as_deleting, namespace_deletion_finalizers,
                                        parse_time, should_delete_during_update)

NOW = datetime(2026, 1, 1, 12, 0, 0, tzinfo=timezone.utc)


def scheduled_pod(**meta) -> dict:
    return {"metadata": {"name": "p", "uid": "u", "resourceVersion": "5", "generation": 1, **meta},
            "spec": {"nodeName": "n", "terminationGracePeriodSeconds": 30}}


def test_time_round_trip():
    assert format_time(NOW) == "2026-01-01T12:00:00Z"
    assert parse_time("2026-01-01T12:00:00Z") == NOW


def test_first_graceful_delete_marks_and_bumps_generation():
    pod, request = scheduled_pod(), DeleteRequest()
    assert before_delete("pods", pod, request, NOW) == (True, False)
    assert pod["metadata"]["deletionTimestamp"] == "2026-01-01T12:00:30Z"
    assert pod["metadata"]["deletionGracePeriodSeconds"] == 30
    assert pod["metadata"]["generation"] == 2 and request.grace_period_seconds == 30


SHORTEN_CASES = [
    pytest.param(None, (False, True), "2026-01-01T12:00:30Z", 30, id="no-period-is-pending"),
    pytest.param(60, (False, True), "2026-01-01T12:00:30Z", 30, id="longer-is-pending"),
    pytest.param(10, (True, False), "2026-01-01T12:00:10Z", 10, id="shorter-moves-earlier"),
    pytest.param(0, (True, False), "2026-01-01T12:00:05Z", 0, id="zero-never-in-the-past"),
]


@pytest.mark.parametrize("period, want, timestamp, grace", SHORTEN_CASES)
def test_marked_pod_may_only_shorten(period, want, timestamp, grace):
    pod = scheduled_pod(deletionTimestamp="2026-01-01T12:00:30Z", deletionGracePeriodSeconds=30)
    later = NOW.replace(second=5)
    assert before_delete("pods", pod, DeleteRequest(grace_period_seconds=period), later) == want
    assert pod["metadata"]["deletionTimestamp"] == timestamp
    assert pod["metadata"]["deletionGracePeriodSeconds"] == grace
    assert pod["metadata"]["generation"] == 1  # only the first mark bumps it


def test_shortening_past_the_end_keeps_a_graceful_second():
    pod = scheduled_pod(deletionTimestamp="2026-01-01T12:00:30Z", deletionGracePeriodSeconds=30)
    before_delete("pods", pod, DeleteRequest(grace_period_seconds=3), NOW.replace(second=40))
    assert pod["metadata"]["deletionGracePeriodSeconds"] == 1
    assert pod["metadata"]["deletionTimestamp"] == "2026-01-01T12:00:40Z"


def test_preconditions_are_checked_first():
    with pytest.raises(errors.StatusError) as info:
        before_delete("pods", scheduled_pod(), DeleteRequest(uid="x"), NOW)
    assert str(info.value).startswith('Operation cannot be fulfilled on Pod "p": the UID in the precondition (x)')


GC_CASES = [
    pytest.param([], None, False, [], id="background-by-default"),
    pytest.param([], "Foreground", True, ["foregroundDeletion"], id="foreground"),
    pytest.param([], "Orphan", True, ["orphan"], id="orphan"),
    pytest.param(["orphan"], None, False, ["orphan"], id="existing-orphan-stays"),
    pytest.param(["orphan"], "Background", True, [], id="explicit-background-clears"),
    pytest.param(["x", "orphan"], "Foreground", True, ["x", "foregroundDeletion"], id="switch-policy"),
]


@pytest.mark.parametrize("finalizers, policy, changed, want", GC_CASES)
def test_deletion_finalizers_for_garbage_collection(finalizers, policy, changed, want):
    obj = {"metadata": {"finalizers": finalizers}}
    got = deletion_finalizers_for_garbage_collection("deployments", obj,
                                                     DeleteRequest(propagation_policy=policy))
    assert got == (changed, want)


def test_mark_as_deleting():
    obj = {"metadata": {"generation": 3}}
    mark_as_deleting(obj, NOW)
    assert obj["metadata"] == {"generation": 4, "deletionTimestamp": "2026-01-01T12:00:00Z",
                               "deletionGracePeriodSeconds": 0}
    mark_as_deleting(obj, NOW.replace(minute=5))
    assert obj["metadata"]["generation"] == 4  # the earlier timestamp and generation stay
    assert obj["metadata"]["deletionTimestamp"] == "2026-01-01T12:00:00Z"


DELETE_DURING_UPDATE_CASES = [
    pytest.param([], {"deletionTimestamp": "t", "deletionGracePeriodSeconds": 0}, True, id="last-removed"),
    pytest.param(["x"], {"deletionTimestamp": "t"}, False, id="finalizers-left"),
    pytest.param([], {}, False, id="not-being-deleted"),
    pytest.param([], {"deletionTimestamp": "t", "deletionGracePeriodSeconds": 30}, False,
                 id="graceful-pod-waits"),
]


@pytest.mark.parametrize("finalizers, old_meta, want", DELETE_DURING_UPDATE_CASES)
def test_should_delete_during_update(finalizers, old_meta, want):
    new = {"metadata": {"finalizers": finalizers}}
    assert should_delete_during_update(new, {"metadata": old_meta}) is want


def test_finalize_delete():
    obj = {"kind": "Pod", "metadata": {"name": "p", "uid": "u"}}
    assert finalize_delete("pods", obj) is obj
    assert finalize_delete("replicasets", obj)["details"] == {"name": "p", "group": "apps",
                                                              "kind": "replicasets", "uid": "u"}


@pytest.mark.parametrize("current, policy, want", [
    pytest.param([], None, [], id="default-keeps-none"),
    pytest.param(["orphan"], None, ["orphan"], id="default-keeps-existing"),
    pytest.param([], "Foreground", ["foregroundDeletion"], id="foreground"),
    pytest.param(["orphan"], "Background", [], id="background-clears"),
])
def test_namespace_deletion_finalizers(current, policy, want):
    obj = {"metadata": {"finalizers": current}}
    assert namespace_deletion_finalizers(obj, DeleteRequest(propagation_policy=policy)) == want
