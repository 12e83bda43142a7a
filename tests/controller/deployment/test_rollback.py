"""Tests for minikcm.controller.deployment.rollback.

Upstream has no rollback_test.go (TestReentrantRollback, in
test_deployment_controller.py, covers the entry). These are ours: the
annotation round trip and each way a rollback ends.
"""

from __future__ import annotations

import queue

import pytest
from kubernetes.client import V1DeploymentStatus

from minikcm.client.testing import UpdateAction
from minikcm.controller.deployment.rollback import RollbackConfig, get_rollback_to, set_rollback_to
from minikcm.controller.deployment.util import deployment_util as util
from minikcm.tools.record import FakeRecorder

from .fixtures import new_deployment, new_replica_set, zero_controller

GET_ROLLBACK_TO_CASES = [
    pytest.param(None, None, id="no-annotation"),
    pytest.param("", None, id="empty"),
    pytest.param("0", RollbackConfig(0), id="previous-revision"),
    pytest.param("7", RollbackConfig(7), id="revision-7"),
    pytest.param("seven", None, id="not-a-number-is-ignored"),
]


@pytest.mark.parametrize("annotation, want", GET_ROLLBACK_TO_CASES)
def test_get_rollback_to(annotation, want):
    d = new_deployment("foo", 1, selector={"foo": "bar"})
    if annotation is not None:
        d.metadata.annotations[util.DEPRECATED_ROLLBACK_TO] = annotation
    assert get_rollback_to(d) == want


def test_set_rollback_to_round_trip():
    d = new_deployment("foo", 1, selector={"foo": "bar"})
    d.metadata.annotations = None
    set_rollback_to(d, RollbackConfig(3))
    assert d.metadata.annotations == {util.DEPRECATED_ROLLBACK_TO: "3"}
    set_rollback_to(d, None)
    assert d.metadata.annotations == {}


def setup(rollback_to: str, old_grace: int | None = 5):
    dc, client = zero_controller()
    dc.event_recorder = FakeRecorder(queue.Queue())
    d = new_deployment("foo", 1, selector={"foo": "bar"})
    d.status = V1DeploymentStatus()
    d.metadata.annotations = {util.REVISION_ANNOTATION: "2", util.DEPRECATED_ROLLBACK_TO: rollback_to}
    old = new_replica_set(d, "foo-old", 0)
    old.metadata.annotations = {util.REVISION_ANNOTATION: "1", "kubernetes.io/change-cause": "create"}
    old.spec.template.spec.termination_grace_period_seconds = old_grace
    new = new_replica_set(d, "foo-new", 1)
    new.metadata.annotations = {util.REVISION_ANNOTATION: "2"}
    return dc, client, d, [old, new]


def deployment_updates(client):
    return [a.get_object() for a in client.fake.actions()
            if isinstance(a, UpdateAction) and a.get_resource().resource == "deployments" and not a.get_subresource()]


def test_rollback_to_previous_revision_copies_template_and_annotations():
    dc, client, d, rs_list = setup("0")
    dc.rollback(d, rs_list)
    (updated,) = deployment_updates(client)
    assert updated.spec.template.spec.termination_grace_period_seconds == 5
    assert updated.metadata.annotations.get("kubernetes.io/change-cause") == "create"
    assert util.DEPRECATED_ROLLBACK_TO not in updated.metadata.annotations
    assert dc.event_recorder.drain() == ['Normal DeploymentRollback Rolled back deployment "foo" to revision 1']


def test_rollback_to_unknown_revision_gives_up():
    dc, client, d, rs_list = setup("9")
    dc.rollback(d, rs_list)
    (updated,) = deployment_updates(client)
    assert util.DEPRECATED_ROLLBACK_TO not in updated.metadata.annotations
    assert updated.spec.template.spec.termination_grace_period_seconds is None
    assert dc.event_recorder.drain() == [
        "Warning DeploymentRollbackRevisionNotFound Unable to find the revision to rollback to."]


def test_rollback_to_same_template_warns():
    dc, client, d, rs_list = setup("2")
    dc.rollback(d, rs_list)
    assert len(deployment_updates(client)) == 1
    assert dc.event_recorder.drain() == [
        'Warning DeploymentRollbackTemplateUnchanged The rollback revision contains the same template as current '
        'deployment "foo"']


def test_rollback_without_earlier_revision():
    dc, client, d, rs_list = setup("0")
    rs_list = rs_list[1:]  # only the current revision exists
    dc.rollback(d, rs_list)
    assert len(deployment_updates(client)) == 1
    assert dc.event_recorder.drain() == ["Warning DeploymentRollbackRevisionNotFound Unable to find last revision."]
