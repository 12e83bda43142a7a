"""Exercise overview/resync_period: write minikcm.cmd.controller_manager.controllermanager.resync_period.

Go twin: ResyncPeriod in cmd/kube-controller-manager/app/controllermanager.go
(Kubernetes v1.36.3).
Check it: minikcm exercises check overview

The checker puts your function in place of resync_period in the running port
(create_controller_context calls it for the shared informer factory and for
every controller), runs a table with fixed random draws, then a startup run
with --min-resync-period=30m.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from minikcm.clock import Seconds
from minikcm.cmd.controller_manager.config import CompletedConfig


def resync_period(c: CompletedConfig, rng: random.Random | None = None) -> Callable[[], Seconds]:
    """Port of ResyncPeriod (controllermanager.go).

    Returns a function giving a new period each call: min_resync_period times a
    random factor in [1, 2), so that informers of different controllers do
    not relist in lock step. With the 12 h default: between 12 h and 24 h.
    """
    # Hints:
    # - Return a function; every call of it draws a new factor in [1, 2).
    # - Draw with rng.random() when an rng is given, else random.random().
    # - The base is c.component_config.generic.min_resync_period (seconds).
    raise NotImplementedError("exercise: write resync_period")
