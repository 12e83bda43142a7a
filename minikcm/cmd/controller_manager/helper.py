"""Port of k8s.io/controller-manager/app/helper.go: how `--controllers` is read.

Start reading at: is_controller_enabled.

Not ported: the rest of helper.go (WaitForAPIServer, the base handler, the
handler chain; minikcm has no controller-manager HTTP server).
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
    has_star = False
    for ctrl in controllers:
        if ctrl == name:
            return True
        if ctrl == "-" + name:
            return False
        if ctrl == "*":
            has_star = True
    # No explicit choice for this name.
    if not has_star:
        return False  # nothing on by default
    return name not in disabled_by_default_controllers
