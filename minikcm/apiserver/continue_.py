"""Port of k8s.io/apiserver/pkg/storage/continue.go: the continue tokens of paged lists.

A continue token is base64url (no padding) of the JSON object
`{"v": "meta.k8s.io/v1", "rv": <list resourceVersion>, "start": <key>}`, where
`start` is the key to resume at, relative to the list's key prefix (for a
list in one namespace: the object name; across namespaces: `namespace/name`),
followed by a NUL byte so that it sorts just after the last key returned.
`decode_continue` refuses anything else with upstream's reasons; the list
handler answers them with 400 "invalid continue token: ..." (storage
ValidateListOptions, watch_cache.go waitUntilFreshAndList).

An rv of -1 is valid: it is what the 410 answer to an expired token carries
(etcd3/errors.go handleCompactedErrorForPaging) and means "continue at the
latest version". An rv of 0 is not.

Start reading at: decode_continue.

Differs from upstream: the key prefix is "" (our keys are `namespace/name`
already relative to the resource), so `decode_continue` returns the cleaned
start key without a prefix. JSON syntax errors are worded as Go's
encoding/json words the common ones (empty or truncated input, a bad first
character); rarer syntax errors keep that form with Go's general wording.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from minikcm.apimachinery import errors

ERR_INVALID_START_RV = "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"
"""Port of ErrInvalidStartRV."""
ERR_EMPTY_START_KEY = "continue key is not valid: encoded start key empty (version meta.k8s.io/v1)"
"""Port of ErrEmptyStartKey."""
ERR_GENERIC_INVALID_KEY = "continue key is not valid"
"""Port of ErrGenericInvalidKey."""
ERR_UNRECOGNIZED_ENCODED_VERSION = "continue key is not valid: server does not recognize this encoded version"
"""Port of ErrUnrecognizedEncodedVersion."""

_API_VERSION = "meta.k8s.io/v1"
_URL_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1


class ContinueError(ValueError):
    """A token DecodeContinue refuses; `kind` is the ERR_* it wraps, str() the full message."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def go_path_clean(p: str) -> str:
    """Port of path.Clean (Go's path package) for the slash-separated start keys.

    The shortest equivalent path: repeated slashes become one, `.` elements
    go, `..` removes the element before it (at the root it is dropped), and
    a trailing slash goes (except for the root itself).
    """
    if p == "":
        return "."
    rooted = p.startswith("/")
    parts: list[str] = []
    for seg in p.split("/"):
        if seg in ("", "."):
            continue
        if seg == "..":
            if parts and parts[-1] != "..":
                parts.pop()
            elif not rooted:
                parts.append("..")
            continue
        parts.append(seg)
    out = "/".join(parts)
    if rooted:
        return "/" + out
    return out or "."


def raw_url_b64decode(value: str) -> bytes:
    """Port of base64.RawURLEncoding.DecodeString: base64url without padding, CR and LF skipped.

    Raises:
        ValueError: "illegal base64 data at input byte N", N as Go counts it.
    """
    kept: list[tuple[int, str]] = [(i, c) for i, c in enumerate(value.encode("utf-8").decode("latin-1"))
                                   if c not in "\r\n"]
    for i, c in kept:
        if c not in _URL_ALPHABET:
            raise ValueError(f"illegal base64 data at input byte {i}")
    if len(kept) % 4 == 1:  # one lone character cannot make a byte
        raise ValueError(f"illegal base64 data at input byte {kept[-1][0]}")
    text = "".join(c for _, c in kept)
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _json_syntax_message(data: bytes, err: json.JSONDecodeError) -> str:
    """Go encoding/json's wording for the syntax errors a broken token usually has."""
    text = data.decode("utf-8", "replace")
    if err.pos >= len(text.rstrip()):
        return "unexpected end of JSON input"
    ch = text[err.pos]
    if not text[:err.pos].strip():
        return f"invalid character {_go_quote_char(ch)} looking for beginning of value"
    return f"invalid character {_go_quote_char(ch)} after top-level value" \
        if err.msg == "Extra data" else f"invalid character {_go_quote_char(ch)} in JSON value"


def _go_quote_char(ch: str) -> str:
    """Go's quoteChar in encoding/json: 'x', with \\' and \\" escaped and others as Go %q."""
    if ch == "'":
        return "'\\''"
    if ch == '"':
        return "'\"'"
    if ch.isprintable():
        return f"'{ch}'"
    return json.dumps(ch)


def _json_kind(value: Any) -> str:
    """The JSON kind name Go's UnmarshalTypeError prints ("string", "number", "object", ...)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float, _Number)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


class _Number(str):
    """A JSON number that is not an integer, kept as its text (Go prints it in the error)."""


_FIELDS = (("v", str, "string"), ("rv", int, "int64"), ("start", str, "string"))
"""continueToken's JSON fields: name, Python type, Go type."""


def _unmarshal_token(data: bytes) -> tuple[str, int, str]:
    """json.Unmarshal into continueToken: case-insensitive keys, null leaves the zero value."""
    try:
        doc = json.loads(data, parse_float=_Number, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        raise ValueError(_json_syntax_message(data, err)) from None
    except UnicodeDecodeError:
        raise ValueError("invalid character in string literal") from None
    if doc is None:
        return "", 0, ""
    if not isinstance(doc, dict):
        raise ValueError(f"json: cannot unmarshal {_json_kind(doc)} into Go value of type storage.continueToken")
    got: dict[str, Any] = {"v": "", "rv": 0, "start": ""}
    first_error = ""
    for key, value in doc.items():
        for name, kind, go_type in _FIELDS:
            if key.lower() != name.lower() or value is None:
                continue
            ok = (isinstance(value, str) and not isinstance(value, _Number)) if kind is str else (
                isinstance(value, int) and not isinstance(value, bool) and _INT64_MIN <= value <= _INT64_MAX)
            if ok:
                got[name] = value
            elif not first_error:
                shown = _json_kind(value)
                if kind is int and shown == "number":
                    shown = f"number {value}"
                first_error = (f"json: cannot unmarshal {shown} into Go struct field "
                               f"continueToken.{name} of type {go_type}")
    if first_error:
        raise ValueError(first_error)
    return got["v"], got["rv"], got["start"]


def _reject_constant(name: str) -> Any:
    raise json.JSONDecodeError("Expecting value", name, 0)


def decode_continue(continue_value: str, key_prefix: str = "") -> tuple[str, int]:
    """Port of DecodeContinue (apiserver/pkg/storage/continue.go).

    (start key, resourceVersion) of a continue token. The start key comes back
    behind `key_prefix`; it must be a clean path (no `..`, `.` or doubled
    slashes), which keeps a crafted token from reaching outside the list.

    Raises:
        ContinueError: with upstream's message for bad base64 or JSON, an
            unknown version, rv 0, an empty start key or an unclean one.
    """
    try:
        data = raw_url_b64decode(continue_value)
    except ValueError as err:
        raise ContinueError(ERR_GENERIC_INVALID_KEY, f"{ERR_GENERIC_INVALID_KEY}: {err}") from None
    try:
        api_version, rv, start = _unmarshal_token(data)
    except ValueError as err:
        raise ContinueError(ERR_GENERIC_INVALID_KEY, f"{ERR_GENERIC_INVALID_KEY}: {err}") from None
    if api_version != _API_VERSION:
        raise ContinueError(ERR_UNRECOGNIZED_ENCODED_VERSION,
                            f"{ERR_UNRECOGNIZED_ENCODED_VERSION} {api_version}")
    if rv == 0:
        raise ContinueError(ERR_INVALID_START_RV, ERR_INVALID_START_RV)
    if not start:
        raise ContinueError(ERR_EMPTY_START_KEY, ERR_EMPTY_START_KEY)
    key = start if start.startswith("/") else "/" + start
    cleaned = go_path_clean(key)
    if cleaned != key:
        raise ContinueError(ERR_GENERIC_INVALID_KEY, f"{ERR_GENERIC_INVALID_KEY}: {start}")
    return key_prefix + cleaned[1:], rv


def encode_continue(key: str, key_prefix: str, resource_version: int) -> str:
    """Port of EncodeContinue (apiserver/pkg/storage/continue.go).

    The token resuming at `key` (which must start with `key_prefix`; the
    prefix is left out of the token) at `resource_version`.

    Raises:
        ValueError: `key` does not start with `key_prefix`.
    """
    if key_prefix and not key.startswith(key_prefix):
        raise ValueError("unable to encode next field: the key and key prefix do not match")
    raw = json.dumps({"v": _API_VERSION, "rv": resource_version, "start": key[len(key_prefix):]},
                     separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(raw.encode("utf-8")).decode().rstrip("=")


def prepare_continue_token(key_last_item: str, key_prefix: str, resource_version: int, items_count: int,
                           has_more_items: bool, limit: int, predicate_empty: bool) -> tuple[str, int | None]:
    """Port of PrepareContinueToken (apiserver/pkg/storage/continue.go).

    (continue token, remainingItemCount) for a page: a token resuming just
    after `key_last_item` when more items follow, else ""; the remaining
    count only without selectors, since with them the stored count includes
    objects that would not match.
    """
    if not has_more_items:
        return "", None
    token = encode_continue(key_last_item + "\x00", key_prefix, resource_version)
    return token, (items_count - limit) if predicate_empty else None


def new_invalid_continue_error(err: ContinueError) -> errors.StatusError:
    """The 400 a bad token gets (storage.ValidateListOptions and the watch cache's list)."""
    return errors.new_bad_request(f"invalid continue token: {err}")
