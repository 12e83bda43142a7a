"""Exercise overview/is_controller_enabled: write minikcm.cmd.controller_manager.controllermanager.is_controller_enabled.

Go twin: IsControllerEnabled in k8s.io/controller-manager/app/helper.go (v0.36.3),
which reads kube-controller-manager's --controllers flag.
Check it: minikcm exercises check overview

The checker puts your function in place of is_controller_enabled in the
running port, runs upstream's table, then a startup run: a controller manager
started with `--controllers=*,-deployment,bootstrapsigner` wins the election
and builds exactly the controllers that flag asks for.
"""

from __future__ import annotations


def is_controller_enabled(name: str, disabled_by_default_controllers: set[str], controllers: list[str]) -> bool:
    """Port of IsControllerEnabled (controller-manager app/helper.go).

    Reads the --controllers list left to right; the first entry that
    mentions `name` decides (`name` on, `-name` off). With no such entry, a
    `*` anywhere turns on every controller that is not disabled by default;
    without `*` nothing is on. Example: ["*", "-job-controller"] runs all
    default controllers but job-controller.
    """
    # Hints:
    # - Walk `controllers` in order; the first entry that is `name` or `-name` decides.
    # - Remember whether you saw "*" on the way.
    # - No entry named it: without "*" it is off; with "*" it is on unless it is
    #   in disabled_by_default_controllers.
    raise NotImplementedError("exercise: write is_controller_enabled")
