"""No upstream twin. The body of `minikcm apiserver`: serve the API, and nothing else, until stopped.

`minikcm.cli` parses the flags and calls `run`. It builds the embedded
APIServer (persistent when `--data-dir` is given), runs the server's timed
steps (bookmarks, watch timeouts, namespace cleanup) in a thread, starts the
HTTPS front with `serve`, prints where it is, and waits for Ctrl-C or SIGTERM;
then it shuts everything down within a few seconds.

Start reading at: run.
"""

from __future__ import annotations

import inspect
import shlex
import sys
import threading
from pathlib import Path
from typing import Any, TextIO

from minikcm.apiserver.http.server import BindRefused, ServerHandle, serve
from minikcm.apiserver.server import APIServer
from minikcm.signals import setup_signal_handler

STOP_POLL_SECONDS = 0.5


class DataDirUnsupported(RuntimeError):
    """`--data-dir` was given but this APIServer has no persistence."""


def new_api_server(data_dir: str | Path | None) -> APIServer:
    """An in-memory APIServer, or a persistent one in `data_dir` when the build supports it.

    Raises:
        DataDirUnsupported: `data_dir` given, but APIServer takes no `data_dir`.
    """
    if data_dir is None:
        return APIServer()
    if "data_dir" not in inspect.signature(APIServer).parameters:
        raise DataDirUnsupported(
            "--data-dir needs the API server's SQLite persistence, which this build does not "
            "have yet; run without --data-dir to keep state in memory")
    factory: Any = APIServer  # the parameter is checked above; keep the type checker out of it
    api: APIServer = factory(data_dir=str(data_dir))
    return api


def close_api(api: APIServer) -> None:
    """Release the APIServer's data directory, when this build has persistence (APIServer.close)."""
    close = getattr(api, "close", None)
    if close is not None:
        close()


def print_banner(handle: ServerHandle, out: TextIO) -> None:
    """Where the server is and how to use it (address, kubeconfig, the export line)."""
    path = str(handle.kubeconfig_path)
    print(f"minikcm apiserver listening on {handle.url}", file=out)
    print(f"kubeconfig: {path}", file=out)
    print(f"export KUBECONFIG={shlex.quote(path)}", file=out)
    out.flush()


def run(port: int = 0, kubeconfig: str | None = None, data_dir: str | None = None,
        bind_address: str = "127.0.0.1", allow_non_loopback: bool = False,
        out: TextIO | None = None, err: TextIO | None = None,
        stop: threading.Event | None = None) -> int:
    """Serve until `stop` is set (by Ctrl-C or SIGTERM when run from the main thread).

    Returns the process exit code: 0 after a clean stop, 2 for refused flags,
    1 when the port cannot be bound.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        api = new_api_server(data_dir)
    except DataDirUnsupported as e:
        print(f"error: {e}", file=err)
        return 2
    steps_stop = threading.Event()
    steps = threading.Thread(name="apiserver/steps", target=api.run, args=(steps_stop,), daemon=True)
    steps.start()
    try:
        handle = serve(api, port=port, bind_address=bind_address,
                       allow_non_loopback=allow_non_loopback, kubeconfig_path=kubeconfig,
                       data_dir=data_dir)
    except BindRefused as e:
        print(f"error: {e}", file=err)
        steps_stop.set()
        close_api(api)
        return 2
    except OSError as e:
        print(f"error: cannot listen on {bind_address}:{port}: {e}", file=err)
        steps_stop.set()
        close_api(api)
        return 1
    stop = stop or threading.Event()
    restore = setup_signal_handler(stop)
    try:
        print_banner(handle, out)
        while not stop.wait(STOP_POLL_SECONDS):
            pass
    except KeyboardInterrupt:
        pass  # Ctrl-C before our handler was installed, or outside the main thread: stop anyway
    finally:
        handle.shutdown()
        steps_stop.set()
        steps.join(STOP_POLL_SECONDS * 4)
        close_api(api)
        restore()
    print("minikcm apiserver stopped", file=out)
    return 0
