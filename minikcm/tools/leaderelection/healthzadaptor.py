"""Port of k8s.io/client-go/tools/leaderelection/healthzadaptor.go.

A health check for a process that runs leader election. The health endpoint is
usually set up before the elector exists, so the adaptor starts empty and the
elector is plugged in later (`run_or_die` does it through the config's
`watch_dog`). It reports unhealthy only for a leader that has gone too long
without renewing, so that whatever watches the health check restarts it.

Start reading at: HealthzAdaptor.check, then LeaderElector.check.

Not ported: the HTTP request parameter has no use and is optional.
Differs from Go: `check` raises instead of returning an error.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from minikcm.clock import Seconds

if TYPE_CHECKING:
    from minikcm.tools.leaderelection.leaderelection import LeaderElector


class HealthzAdaptor:
    """Port of HealthzAdaptor (healthzadaptor.go): a health check that waits for its elector.

    Healthy while no elector is set. `timeout` is how long past the lease
    expiry a leader may go without renewing before the check fails.
    Thread: any; `_lock` guards `le`.
    """

    def __init__(self, timeout: Seconds) -> None:
        self._lock = threading.Lock()  # Go: pointerLock; guards le
        self.le: LeaderElector | None = None
        self.timeout = timeout

    def name(self) -> str:
        """Port of HealthzAdaptor.Name: the name this check is listed under."""
        return "leaderElection"

    def check(self, req: object = None) -> None:
        """Port of HealthzAdaptor.Check (healthzadaptor.go).

        Raises:
            RuntimeError: we lead but our lease ran out more than `timeout` ago.
        """
        with self._lock:
            if self.le is None:
                return
            self.le.check(self.timeout)

    def set_leader_election(self, le: LeaderElector) -> None:
        """Port of HealthzAdaptor.SetLeaderElection: plug in the elector to watch."""
        with self._lock:
            self.le = le

    def __repr__(self) -> str:
        return f"HealthzAdaptor(timeout={self.timeout}, elector={'set' if self.le is not None else 'unset'})"


def new_leader_healthz_adaptor(timeout: Seconds) -> HealthzAdaptor:
    """Port of NewLeaderHealthzAdaptor (healthzadaptor.go).

    `timeout` is the grace past lease expiry: checks within it still pass.
    """
    return HealthzAdaptor(timeout)
