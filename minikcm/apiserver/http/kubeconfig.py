"""No upstream twin. Writing the kubeconfig a user (or a script) points kubectl at.

The file names one cluster (server URL and CA data), one user (the bearer
token) and one context with namespace `default`, as client-go's clientcmd
reads it. It holds a credential, so it is written with mode 0600, and
atomically (a temporary file in the same directory, fsync, rename): a script
waiting for the file never reads half of it, and `serve` writes it only after
the server has answered, so the file's appearance means "ready".

A restarted server removes the previous kubeconfig before it binds
(`remove_stale`): with `--port 0` the old file names a port nobody serves, and
a script waiting for the file must not read it.

Start reading at: write_kubeconfig, then wait_ready.
"""

from __future__ import annotations

import base64
import http.client
import os
import secrets
import ssl
from pathlib import Path
from typing import Any

import yaml

from minikcm.clock import Clock

NAME = "minikcm"


def build_kubeconfig(server_url: str, ca_pem: bytes, token: str, name: str = NAME,
                     namespace: str = "default") -> dict[str, Any]:
    """The kubeconfig document (client-go's clientcmd v1 Config)."""
    user = f"{name}-admin"
    return {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": name, "cluster": {
            "server": server_url,
            "certificate-authority-data": base64.b64encode(ca_pem).decode("ascii")}}],
        "users": [{"name": user, "user": {"token": token}}],
        "contexts": [{"name": name, "context": {"cluster": name, "user": user, "namespace": namespace}}],
        "current-context": name,
        "preferences": {},
    }


def write_kubeconfig(path: Path, config: dict[str, Any]) -> Path:
    """Write `config` to `path` atomically with mode 0600; returns the path.

    Creates the parent directory (mode 0700) when missing.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    data = yaml.safe_dump(config, sort_keys=False).encode("utf-8")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)
    return path


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # some platforms cannot open directories; the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass  # fsync on a directory is best effort (not supported everywhere)
    finally:
        os.close(fd)


def remove_stale(path: Path) -> None:
    """Remove a kubeconfig left by a previous run (it names a server that is gone); absent is fine."""
    try:
        Path(path).unlink()
    except FileNotFoundError:
        pass


def client_host(bound: str) -> str:
    """The address clients should use for a bind address (wildcards become loopback)."""
    if bound in ("0.0.0.0", ""):
        return "127.0.0.1"
    if bound == "::":
        return "::1"
    return bound


def server_url(host: str, port: int) -> str:
    return f"https://[{host}]:{port}" if ":" in host else f"https://{host}:{port}"


def wait_ready(host: str, port: int, token: str, context: ssl.SSLContext, clock: Clock,
               timeout: float = 10.0) -> None:
    """Block until `GET /readyz` answers 200 over TLS with the token (or raise after `timeout`).

    Raises:
        RuntimeError: the server did not answer in time.
    """
    started = clock.now()
    last: Exception | None = None
    while clock.since(started) < timeout:
        conn = http.client.HTTPSConnection(host, port, context=context, timeout=2.0)
        try:
            conn.request("GET", "/readyz", headers={"Authorization": f"Bearer {token}"})
            response = conn.getresponse()
            response.read()
            if response.status == 200:
                return
            last = RuntimeError(f"/readyz answered {response.status}")
        except OSError as err:
            last = err
        finally:
            conn.close()
        clock.sleep(0.05)
    raise RuntimeError(f"the API server at {server_url(host, port)} did not become ready: {last}")
