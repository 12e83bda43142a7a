"""Port of k8s.io/apiserver/pkg/server/signal.go (and signal_posix.go): stop on SIGINT or SIGTERM.

kube-apiserver and kube-controller-manager both stop this way: the first
SIGINT (Ctrl-C) or SIGTERM asks for a clean shutdown, a second one ends the
process at once with exit code 1. `minikcm apiserver`, `minikcm
controller-manager` and `minikcm up` call `setup_signal_handler` with the
`threading.Event` their run waits on.

Start reading at: setup_signal_handler.

Not ported: RequestShutdown, SetupSignalHandler's stop channel (the caller
passes its own event).
Differs from Go:
- Python delivers signals to the main thread only, so off the main thread
  (a test calling the command in a thread) nothing is installed.
- Go allows one call per process (a second panics); here the returned
  function puts the previous handlers back, so in-process tests can call it
  again.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable

SHUTDOWN_SIGNALS = (signal.SIGINT, signal.SIGTERM)
"""Port of shutdownSignals (signal_posix.go): os.Interrupt and SIGTERM."""


def setup_signal_handler(stop: threading.Event) -> Callable[[], None]:
    """Port of SetupSignalContext (signal.go): the first shutdown signal sets `stop`, a second exits with 1.

    Returns a function that restores the handlers found before (a no-op off the main thread).
    """
    if threading.current_thread() is not threading.main_thread():
        return _nothing_to_restore
    previous = {sig: signal.getsignal(sig) for sig in SHUTDOWN_SIGNALS}

    def on_signal(signum: int, frame: object) -> None:
        if stop.is_set():
            os._exit(1)  # second signal: exit directly, as Go's os.Exit(1)
        stop.set()

    for sig in SHUTDOWN_SIGNALS:
        signal.signal(sig, on_signal)

    def restore() -> None:
        for sig, handler in previous.items():
            signal.signal(sig, handler)

    return restore


def _nothing_to_restore() -> None:
    """What setup_signal_handler returns off the main thread, where it installed nothing."""
