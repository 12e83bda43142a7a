"""Port of pkg/controller/deployment/rollback.go.

Reconstructed from a recent copy of rollback.go, checked against other recent
quotations for rollback's signature: it reads the target with getRollbackTo itself.

Rollback to an earlier revision, the server-side way older clients asked for
it: apps/v1 has no spec.rollbackTo, so a request arrives as the annotation
`deprecated.deployment.rollback.to: "<revision>"` ("0" means the previous
revision). The controller finds the ReplicaSet of that revision, copies its
pod template (and its annotations) into the Deployment, and removes the
annotation in the same update. The next sync sees a changed template and rolls
out as usual; the old ReplicaSet becomes the new one again and gets a new
revision number. (Today's `kubectl rollout undo` patches the template itself.)

Start reading at: RollbackMixin.rollback, then rollback_to_template.

Not ported: contextual logging.
Differs from Go: extensions.RollbackConfig is the small dataclass RollbackConfig;
get_rollback_to and set_rollback_to are module functions, as in Go.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kubernetes.client import V1Deployment, V1ReplicaSet

from minikcm.apimachinery import intstr
from minikcm.apimachinery.field import go_quote
from minikcm.apimachinery.meta import UpdateOptions
from minikcm.controller.deployment.util import deployment_util as util
from minikcm.tools import record

if TYPE_CHECKING:
    from minikcm.controller.deployment.deployment_controller import DeploymentController

logger = logging.getLogger(__name__)


@dataclass
class RollbackConfig:
    """Port of extensions/v1beta1 RollbackConfig: the revision to roll back to (0: the previous one)."""

    revision: int = 0


class RollbackMixin:
    """Port of the DeploymentController methods of rollback.go."""

    def rollback(self: DeploymentController, d: V1Deployment, rs_list: list[V1ReplicaSet]) -> None:
        """Port of DeploymentController.rollback: roll back to the requested revision, then drop the request.

        Revision 0 means the last one before the current (util.last_revision);
        when there is none, or no ReplicaSet has the requested revision, a
        DeploymentRollbackRevisionNotFound warning is emitted. In every case
        the rollback annotation is removed, so the request runs once.
        """
        new_rs, all_old_rss = self.get_all_replica_sets_and_sync_revision(d, rs_list, True)
        all_rss: list[V1ReplicaSet | None] = [*all_old_rss, new_rs]
        rollback_to = get_rollback_to(d)
        if rollback_to is None:
            raise RuntimeError("rollback called without a rollback request on the Deployment")
        # Revision 0: the previous revision.
        if rollback_to.revision == 0:
            rollback_to.revision = util.last_revision([rs for rs in all_rss if rs is not None])
            if rollback_to.revision == 0:
                self.emit_rollback_warning_event(d, util.ROLLBACK_REVISION_NOT_FOUND, "Unable to find last revision.")
                self.update_deployment_and_clear_rollback_to(d)  # give up the rollback
                return
        for rs in all_rss:
            if rs is None:
                continue
            try:
                v = util.revision(rs)
            except ValueError as err:
                logger.debug("Unable to extract revision from deployment's replica set %s: %s", rs.metadata.name, err)
                continue
            if v == rollback_to.revision:
                logger.debug("Found replica set %s with desired revision %d", rs.metadata.name, v)
                # Copy the template; the revision moves on in the next getAllReplicaSetsAndSyncRevision.
                performed_rollback = self.rollback_to_template(d, rs)
                if performed_rollback:
                    self.emit_rollback_normal_event(
                        d, f"Rolled back deployment {go_quote(d.metadata.name or '')} to revision "
                           f"{rollback_to.revision}")
                return
        self.emit_rollback_warning_event(d, util.ROLLBACK_REVISION_NOT_FOUND,
                                         "Unable to find the revision to rollback to.")
        self.update_deployment_and_clear_rollback_to(d)  # give up the rollback

    def rollback_to_template(self: DeploymentController, d: V1Deployment, rs: V1ReplicaSet) -> bool:
        """Port of DeploymentController.rollbackToTemplate.

        When `rs` runs another template than `d`, copy its template and its
        annotations into `d` (the annotations too: "change-cause" should follow
        the template back, or the reused ReplicaSet would get the current
        change-cause). Either way the rollback request is removed in the same
        update.

        Returns:
            Whether the template changed.
        Raises:
            StatusError: the Deployment update failed (after the template was
                changed in `d`; Go returns (true, err) there).
        """
        performed_rollback = False
        if not util.equal_ignore_hash(d.spec.template, rs.spec.template):
            logger.debug("Rolling back deployment %s/%s to old template spec", d.metadata.namespace, d.metadata.name)
            util.set_from_replica_set_template(d, rs.spec.template)
            util.set_deployment_annotations_to(d, rs)
            performed_rollback = True
        else:
            logger.debug("Rolling back to a revision that contains the same template as current deployment %s/%s, "
                         "skipping rollback...", d.metadata.namespace, d.metadata.name)
            event_msg = (f"The rollback revision contains the same template as current deployment "
                         f"{go_quote(d.metadata.name or '')}")
            self.emit_rollback_warning_event(d, util.ROLLBACK_TEMPLATE_UNCHANGED, event_msg)
        self.update_deployment_and_clear_rollback_to(d)
        return performed_rollback

    def emit_rollback_warning_event(self: DeploymentController, d: V1Deployment, reason: str, message: str) -> None:
        """Port of DeploymentController.emitRollbackWarningEvent: a Warning event on the Deployment."""
        self.event_recorder.eventf(d, record.EVENT_TYPE_WARNING, reason, message)

    def emit_rollback_normal_event(self: DeploymentController, d: V1Deployment, message: str) -> None:
        """Port of DeploymentController.emitRollbackNormalEvent: a DeploymentRollback Normal event."""
        self.event_recorder.eventf(d, record.EVENT_TYPE_NORMAL, util.ROLLBACK_DONE, message)

    def update_deployment_and_clear_rollback_to(self: DeploymentController, d: V1Deployment) -> None:
        """Port of DeploymentController.updateDeploymentAndClearRollbackTo.

        Removes the rollback request and writes the Deployment (the whole
        object: the caller may have changed its template for the rollback).
        """
        logger.debug("Cleans up rollbackTo of deployment %s/%s", d.metadata.namespace, d.metadata.name)
        set_rollback_to(d, None)
        self.client.apps_v1().deployments(d.metadata.namespace or "").update(d, UpdateOptions())


def get_rollback_to(d: V1Deployment) -> RollbackConfig | None:
    """Port of getRollbackTo (rollback.go): the rollback request carried by the annotation, or None.

    An annotation that is not a decimal integer is ignored (None).
    """
    revision = (d.metadata.annotations or {}).get(util.DEPRECATED_ROLLBACK_TO, "")
    if revision == "":
        return None
    try:
        revision64 = intstr.parse_int(revision, 64)
    except ValueError:
        return None  # an invalid request is ignored
    return RollbackConfig(revision=revision64)


def set_rollback_to(d: V1Deployment, rollback_to: RollbackConfig | None) -> None:
    """Port of setRollbackTo (rollback.go): write (or, with None, remove) the rollback annotation."""
    if rollback_to is None:
        if d.metadata.annotations is not None:
            d.metadata.annotations.pop(util.DEPRECATED_ROLLBACK_TO, None)
        return
    if d.metadata.annotations is None:
        d.metadata.annotations = {}
    d.metadata.annotations[util.DEPRECATED_ROLLBACK_TO] = str(rollback_to.revision)
