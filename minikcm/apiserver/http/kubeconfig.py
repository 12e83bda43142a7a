"""No upstream twin. Writing the kubeconfig a user (or a script) points kubectl at.

The file names one cluster (server URL and CA data), one user (the bearer
token) and one context with namespace `default`, as client-go's clientcmd
reads it. It holds a credential, so it is written with mode 0600, and
atomically (a temporary file in the same directory, fsync, rename): a script
waiting for the file never reads half of it, and `serve` writes it only after
the server has answered, so the file's appearance means "ready".

Start reading at: write_kubeconfig.
"""

from __future__ import annotations

import base64
import os
import secrets
from pathlib import Path
from typing import Any

import yaml

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
