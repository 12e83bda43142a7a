"""No upstream twin. Bearer-token authentication, after apiserver's static token authenticator.

Every request must carry `Authorization: Bearer <token>` with the one token the
server generated (kube-apiserver's `--token-auth-file` with a single user, in
small). Anything else is a 401 `Status`, before the request is even routed.
kubectl sends the token only over TLS (tooling.md Part 2, Finding 2), which is
why the front is HTTPS.

Start reading at: authenticate.

Design notes: the comparison is constant-time (`hmac.compare_digest`), so the
time a wrong token takes does not tell how much of it was right. The token is
256 random bits from `secrets`; with a data directory it is kept there (mode
0600) so that a restarted server accepts the kubeconfigs it wrote before.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path

from minikcm.apimachinery import errors

TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh random token (URL-safe text, 256 bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def bearer_token(authorization: str | None) -> str | None:
    """Port of the header parsing of BearerToken.AuthenticateRequest (apiserver/.../request/bearertoken).

    The token of `Bearer <token>` (scheme case-insensitive), or None.
    """
    if not authorization:
        return None
    parts = authorization.strip().split(" ", 2)
    if len(parts) < 2 or parts[0].lower() != "bearer" or not parts[1]:
        return None
    return parts[1]


def authenticate(authorization: str | None, token: str) -> bool:
    """Whether the Authorization header carries `token` (constant-time comparison)."""
    given = bearer_token(authorization)
    if given is None:
        return False
    return hmac.compare_digest(given.encode("utf-8"), token.encode("utf-8"))


def unauthorized() -> errors.StatusError:
    """The 401 Status kube-apiserver sends to an unauthenticated request."""
    return errors.new_unauthorized("Unauthorized")


def load_or_create_token(path: Path) -> str:
    """The token kept at `path`, created (mode 0600) on first use; a kept file with a wider mode is narrowed."""
    if path.exists():
        token = path.read_text(encoding="utf-8").strip()
        if token:
            os.chmod(path, 0o600)
            return token
    token = new_token()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token + "\n")
    os.chmod(path, 0o600)
    return token
