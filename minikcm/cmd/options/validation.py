"""Port of k8s.io/component-base/config/validation/validation.go (the leader-election part).

Checks a LeaderElectionConfiguration before the controller manager starts, so
a bad `--leader-elect*` flag is refused at once instead of when the election
begins.

Start reading at: validate_leader_election_configuration.

Not ported: ValidateClientConnectionConfiguration, ValidateLoggingConfiguration
(no such flags here).
Differs from Go: errors are a list of ValueError with Go's field-error text;
one rule is added (see validate_leader_election_configuration).
"""

from __future__ import annotations

from minikcm.cmd.controller_manager.config import LeaderElectionConfiguration
from minikcm.cmd.options.duration import format_duration
from minikcm.tools.leaderelection.leaderelection import JITTER_FACTOR


def validate_leader_election_configuration(cc: LeaderElectionConfiguration, fld_path: str) -> list[ValueError]:
    """Port of ValidateLeaderElectionConfiguration (component-base config/validation/validation.go).

    Nothing is checked when leader election is off. Messages are field
    errors as Go prints them (`leaderElection.leaseDuration: Invalid value:
    0s: must be greater than zero`). minikcm adds the rule
    leaderelection.new_leader_elector enforces at start-up:
    renew_deadline > 1.2 x retry_period (the largest jittered retry).
    """
    errs: list[ValueError] = []
    if not cc.leader_elect:
        return errs

    def invalid(child: str, value: float, detail: str) -> ValueError:
        return ValueError(f"{fld_path}.{child}: Invalid value: {format_duration(value)}: {detail}")

    def required(child: str) -> ValueError:
        return ValueError(f"{fld_path}.{child}: Required value")

    if cc.lease_duration <= 0:
        errs.append(invalid("leaseDuration", cc.lease_duration, "must be greater than zero"))
    if cc.renew_deadline <= 0:
        errs.append(invalid("renewDeadline", cc.renew_deadline, "must be greater than zero"))
    if cc.retry_period <= 0:
        errs.append(invalid("retryPeriod", cc.retry_period, "must be greater than zero"))
    if cc.lease_duration <= cc.renew_deadline:
        # Go prints the renew deadline here, as the value that is too large.
        errs.append(invalid("leaseDuration", cc.renew_deadline, "must be greater than `RenewDeadline`"))
    if cc.retry_period > 0 and cc.renew_deadline <= JITTER_FACTOR * cc.retry_period:
        errs.append(invalid("renewDeadline", cc.renew_deadline,
                            f"must be greater than retryPeriod*JitterFactor ({JITTER_FACTOR} x "
                            f"{format_duration(cc.retry_period)})"))
    if not cc.resource_lock:
        errs.append(required("resourceLock"))
    if not cc.resource_namespace:
        errs.append(required("resourceNamespace"))
    if not cc.resource_name:
        errs.append(required("resourceName"))
    return errs
