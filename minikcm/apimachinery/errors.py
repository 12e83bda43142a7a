"""Port of k8s.io/apimachinery/pkg/api/errors (errors.go).

Every API call that fails raises one exception type, `StatusError`, carrying the
Kubernetes `Status` object the server sends (as a wire dict). The embedded API
server builds these with the `new_*` constructors; callers test them with the
`is_*` predicates, exactly as upstream controllers do (`if errors.is_not_found(err)`).

    Exception
     +-- StatusError                 one class; the Status's `reason` tells the cases apart
     |     reason NotFound (404), AlreadyExists (409), Conflict (409), Invalid (422),
     |     Gone / Expired (410), TooManyRequests (429), BadRequest (400),
     |     Unauthorized (401), Forbidden (403), MethodNotAllowed (405),
     |     InternalError (500), ServerTimeout (500), ServiceUnavailable (503),
     |     Timeout (504), RequestEntityTooLarge (413), ...
     +-- UnexpectedObjectError       from_object was handed something that is not a Status

Start reading at: StatusError, then new_not_found and is_not_found.

Not ported: DebugError, ErrorReporter / NewClientErrorReporter (the REST client's
stream decoder is not ported), the deprecated NewServerTimeoutForKind twin is kept
only because it is one line.
Differs from Go:
- The Status is a wire dict (camelCase keys, empty fields left out as Go's
  `omitempty` does), not a struct; `StatusError.status()` returns it.
- "Wrapped errors" are Python exception chains: the predicates follow
  `__cause__` (``raise Wrapper(...) from status_error``) the way Go's `errors.As`
  follows `%w`.
- Go's `error` parameters (`new_conflict(..., err)`) accept any exception or a
  plain string; only its text is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kubernetes.client import V1Status

from minikcm.apimachinery.schema import GroupKind, GroupResource

# --- metav1 StatusReason / CauseType values (types.go in apis/meta/v1) --------------

STATUS_SUCCESS = "Success"
STATUS_FAILURE = "Failure"

STATUS_REASON_UNKNOWN = ""
STATUS_REASON_UNAUTHORIZED = "Unauthorized"
STATUS_REASON_FORBIDDEN = "Forbidden"
STATUS_REASON_NOT_FOUND = "NotFound"
STATUS_REASON_ALREADY_EXISTS = "AlreadyExists"
STATUS_REASON_CONFLICT = "Conflict"
STATUS_REASON_GONE = "Gone"
STATUS_REASON_INVALID = "Invalid"
STATUS_REASON_SERVER_TIMEOUT = "ServerTimeout"
STATUS_REASON_STORE_READ_ERROR = "StorageReadError"
STATUS_REASON_TIMEOUT = "Timeout"
STATUS_REASON_TOO_MANY_REQUESTS = "TooManyRequests"
STATUS_REASON_BAD_REQUEST = "BadRequest"
STATUS_REASON_METHOD_NOT_ALLOWED = "MethodNotAllowed"
STATUS_REASON_NOT_ACCEPTABLE = "NotAcceptable"
STATUS_REASON_REQUEST_ENTITY_TOO_LARGE = "RequestEntityTooLarge"
STATUS_REASON_UNSUPPORTED_MEDIA_TYPE = "UnsupportedMediaType"
STATUS_REASON_INTERNAL_ERROR = "InternalError"
STATUS_REASON_EXPIRED = "Expired"
STATUS_REASON_SERVICE_UNAVAILABLE = "ServiceUnavailable"

CAUSE_TYPE_UNEXPECTED_SERVER_RESPONSE = "UnexpectedServerResponse"
CAUSE_TYPE_RESOURCE_VERSION_TOO_LARGE = "ResourceVersionTooLarge"

KNOWN_REASONS = frozenset({
    STATUS_REASON_UNAUTHORIZED, STATUS_REASON_FORBIDDEN, STATUS_REASON_NOT_FOUND,
    STATUS_REASON_ALREADY_EXISTS, STATUS_REASON_CONFLICT, STATUS_REASON_GONE,
    STATUS_REASON_INVALID, STATUS_REASON_SERVER_TIMEOUT, STATUS_REASON_STORE_READ_ERROR,
    STATUS_REASON_TIMEOUT, STATUS_REASON_TOO_MANY_REQUESTS, STATUS_REASON_BAD_REQUEST,
    STATUS_REASON_METHOD_NOT_ALLOWED, STATUS_REASON_NOT_ACCEPTABLE,
    STATUS_REASON_REQUEST_ENTITY_TOO_LARGE, STATUS_REASON_UNSUPPORTED_MEDIA_TYPE,
    STATUS_REASON_INTERNAL_ERROR, STATUS_REASON_EXPIRED, STATUS_REASON_SERVICE_UNAVAILABLE,
})
"""Port of knownReasons (pkg/api/errors/errors.go): for other reasons predicates check the code."""


# --- the error types ------------------------------------------------------------------


class StatusError(Exception):
    """Port of StatusError (pkg/api/errors/errors.go).

    An API failure described by a Status.

    `err_status` is the Status wire dict (`kind`, `apiVersion`, `metadata`, `status`,
    `message`, `reason`, `details`, `code`), the exact body the server sends;
    `str(err)` is its message. The dict belongs to the error: copy it before
    changing it.
    """

    def __init__(self, err_status: dict[str, Any]) -> None:
        super().__init__(err_status.get("message", ""))
        self.err_status = err_status
        """The Status wire dict (Go: ErrStatus)."""

    def __str__(self) -> str:
        """Port of StatusError.Error (pkg/api/errors/errors.go). The Status message."""
        return str(self.err_status.get("message", ""))

    def status(self) -> dict[str, Any]:
        """Port of StatusError.Status (pkg/api/errors/errors.go). The Status wire dict."""
        return self.err_status

    @property
    def reason(self) -> str:
        """The Status reason ("" when unknown)."""
        return str(self.err_status.get("reason", ""))

    @property
    def code(self) -> int:
        """The HTTP code of the Status (0 when unset)."""
        return int(self.err_status.get("code", 0))

    def __repr__(self) -> str:
        return f"StatusError(code={self.code}, reason={self.reason!r}, message={str(self)!r})"


class UnexpectedObjectError(Exception):
    """Port of UnexpectedObjectError (pkg/api/errors/errors.go).

    from_object got an object that is not a Status.
    """

    def __init__(self, obj: Any) -> None:
        super().__init__(f"unexpected object: {obj!r}")
        self.object = obj


def _status(code: int, reason: str, message: str,
            details: dict[str, Any] | None = None) -> dict[str, Any]:
    """Build a Failure Status wire dict, leaving out empty fields as Go's omitempty does."""
    status: dict[str, Any] = {"kind": "Status", "apiVersion": "v1", "metadata": {},
                              "status": STATUS_FAILURE}
    if message:
        status["message"] = message
    if reason:
        status["reason"] = reason
    if details is not None:
        status["details"] = {k: v for k, v in details.items() if v not in ("", 0, None, [])}
    if code:
        status["code"] = code
    return status


def _details(group: str = "", kind: str = "", name: str = "", retry_after_seconds: int = 0,
             causes: list[dict[str, str]] | None = None) -> dict[str, Any]:
    return {"name": name, "group": group, "kind": kind, "causes": causes or [],
            "retryAfterSeconds": retry_after_seconds}


def _text(err: BaseException | str) -> str:
    return err if isinstance(err, str) else str(err)


def has_status_cause(err: BaseException | None, name: str) -> bool:
    """Port of HasStatusCause (pkg/api/errors/errors.go).

    Whether the error's details list a cause of type `name`.
    """
    return status_cause(err, name)[1]


def status_cause(err: BaseException | None, name: str) -> tuple[dict[str, str], bool]:
    """Port of StatusCause (pkg/api/errors/errors.go).

    The first cause whose type (wire key `reason`) is `name`.
    """
    status_error = _as_status_error(err)
    if status_error is not None:
        for cause in status_error.err_status.get("details", {}).get("causes", []):
            if cause.get("reason", "") == name:
                return cause, True
    return {}, False


def from_object(obj: Any) -> Exception:
    """Port of FromObject (pkg/api/errors/errors.go).

    Turn a Status received as an object into a StatusError.

    Accepts a Status wire dict or a `V1Status` model. Anything else (including a
    dict whose kind is not Status or whose apiVersion is not v1) gives an
    UnexpectedObjectError. Returns the error; the caller raises it.
    """
    if isinstance(obj, dict):
        if obj.get("kind") == "Status" and obj.get("apiVersion") in ("v1", "meta.k8s.io/v1"):
            return StatusError(obj)
        return UnexpectedObjectError(obj)
    if isinstance(obj, V1Status):
        wire = obj.model_dump(by_alias=True, exclude_none=True, mode="json")
        wire.setdefault("kind", "Status")
        wire.setdefault("apiVersion", "v1")
        return StatusError(wire)
    return UnexpectedObjectError(obj)


# --- constructors ------------------------------------------------------------------


def new_not_found(qualified_resource: GroupResource, name: str) -> StatusError:
    """Port of NewNotFound (pkg/api/errors/errors.go). 404, `deployments.apps "web" not found`."""
    return StatusError(_status(
        404, STATUS_REASON_NOT_FOUND, f'{qualified_resource} "{name}" not found',
        _details(qualified_resource.group, qualified_resource.resource, name)))


def new_already_exists(qualified_resource: GroupResource, name: str) -> StatusError:
    """Port of NewAlreadyExists (pkg/api/errors/errors.go). 409 with reason AlreadyExists."""
    return StatusError(_status(
        409, STATUS_REASON_ALREADY_EXISTS, f'{qualified_resource} "{name}" already exists',
        _details(qualified_resource.group, qualified_resource.resource, name)))


def new_generate_name_conflict(qualified_resource: GroupResource, name: str,
                               retry_after_seconds: int) -> StatusError:
    """Port of NewGenerateNameConflict (pkg/api/errors/errors.go).

    The server's generated name was taken.
    """
    message = (f'{qualified_resource} "{name}" already exists, the server was not able to '
               "generate a unique name for the object")
    return StatusError(_status(
        409, STATUS_REASON_ALREADY_EXISTS, message,
        _details(qualified_resource.group, qualified_resource.resource, name,
                 retry_after_seconds)))


def new_unauthorized(reason: str) -> StatusError:
    """Port of NewUnauthorized (pkg/api/errors/errors.go).

    401; an empty reason reads "not authorized".
    """
    return StatusError(_status(401, STATUS_REASON_UNAUTHORIZED, reason or "not authorized"))


def new_forbidden(qualified_resource: GroupResource, name: str,
                  err: BaseException | str) -> StatusError:
    """Port of NewForbidden (pkg/api/errors/errors.go).

    403; the message names the resource (and object) when known.
    """
    if not qualified_resource.group and not qualified_resource.resource:
        message = f"forbidden: {_text(err)}"
    elif not name:
        message = f"{qualified_resource} is forbidden: {_text(err)}"
    else:
        message = f'{qualified_resource} "{name}" is forbidden: {_text(err)}'
    return StatusError(_status(
        403, STATUS_REASON_FORBIDDEN, message,
        _details(qualified_resource.group, qualified_resource.resource, name)))


def new_conflict(qualified_resource: GroupResource, name: str,
                 err: BaseException | str) -> StatusError:
    """Port of NewConflict (pkg/api/errors/errors.go).

    409, `Operation cannot be fulfilled on <resource> "<name>": <err>`.
    """
    message = f'Operation cannot be fulfilled on {qualified_resource} "{name}": {_text(err)}'
    return StatusError(_status(
        409, STATUS_REASON_CONFLICT, message,
        _details(qualified_resource.group, qualified_resource.resource, name)))


def new_apply_conflict(causes: list[dict[str, str]], message: str) -> StatusError:
    """Port of NewApplyConflict (pkg/api/errors/errors.go).

    409 listing the conflicting fields of a server-side apply.
    """
    return StatusError(_status(409, STATUS_REASON_CONFLICT, message, _details(causes=causes)))


def new_gone(message: str) -> StatusError:
    """Port of NewGone (pkg/api/errors/errors.go).

    410 with reason Gone; deprecated upstream in favour of new_resource_expired.
    """
    return StatusError(_status(410, STATUS_REASON_GONE, message))


def new_resource_expired(message: str) -> StatusError:
    """Port of NewResourceExpired (pkg/api/errors/errors.go).

    410 with reason Expired, the "too old resource version" error.
    """
    return StatusError(_status(410, STATUS_REASON_EXPIRED, message))


def _error_type(err: Any) -> str:
    # field.ErrorType may be a str constant or an Enum; the wire wants its string.
    value = getattr(err.type, "value", err.type)
    return str(value)


def _aggregate_message(errs: Sequence[Any]) -> str:
    """The text of Go's `errs.ToAggregate()`: duplicates dropped, brackets when several remain.

    One distinct error prints bare (`a: Required value`); several print as
    `[a: Required value, b: Invalid value: ...]`.
    """
    seen: list[str] = []
    for err in errs:
        text = str(err)
        if text not in seen:
            seen.append(text)
    if len(seen) == 1:
        return seen[0]
    return "[" + ", ".join(seen) + "]"


def new_invalid(qualified_kind: GroupKind, name: str, errs: Sequence[Any] | None) -> StatusError:
    """Port of NewInvalid (pkg/api/errors/errors.go). 422 with one cause per field error.

    `errs` are `field.Error`s. The message is `<Kind.group> "<name>" is invalid: <errors>`
    where one error prints bare and several print as a bracketed, comma-separated
    list (upstream's aggregate); with no errors it ends after "is invalid".
    """
    errs = list(errs or [])
    causes = [{"reason": _error_type(e), "message": e.error_body(), "field": e.field} for e in errs]
    message = f'{qualified_kind} "{name}" is invalid'
    if errs:
        message += f": {_aggregate_message(errs)}"
    return StatusError(_status(
        422, STATUS_REASON_INVALID, message,
        _details(qualified_kind.group, qualified_kind.kind, name, causes=causes)))


def new_bad_request(reason: str) -> StatusError:
    """Port of NewBadRequest (pkg/api/errors/errors.go). 400 with `reason` as the message."""
    return StatusError(_status(400, STATUS_REASON_BAD_REQUEST, reason))


def new_too_many_requests(message: str, retry_after_seconds: int) -> StatusError:
    """Port of NewTooManyRequests (pkg/api/errors/errors.go).

    429 asking the client to come back after a delay.
    """
    return StatusError(_status(429, STATUS_REASON_TOO_MANY_REQUESTS, message,
                               _details(retry_after_seconds=retry_after_seconds)))


def new_service_unavailable(reason: str) -> StatusError:
    """Port of NewServiceUnavailable (pkg/api/errors/errors.go). 503."""
    return StatusError(_status(503, STATUS_REASON_SERVICE_UNAVAILABLE, reason))


def new_method_not_supported(qualified_resource: GroupResource, action: str) -> StatusError:
    """Port of NewMethodNotSupported (pkg/api/errors/errors.go).

    405, `<action> is not supported on resources of kind "<r>"`.
    """
    return StatusError(_status(
        405, STATUS_REASON_METHOD_NOT_ALLOWED,
        f'{action} is not supported on resources of kind "{qualified_resource}"',
        _details(qualified_resource.group, qualified_resource.resource)))


def new_server_timeout(qualified_resource: GroupResource, operation: str,
                       retry_after_seconds: int) -> StatusError:
    """Port of NewServerTimeout (pkg/api/errors/errors.go).

    500 with reason ServerTimeout; the client should retry.
    """
    message = (f"The {operation} operation against {qualified_resource} could not be completed "
               "at this time, please try again.")
    return StatusError(_status(
        500, STATUS_REASON_SERVER_TIMEOUT, message,
        _details(qualified_resource.group, qualified_resource.resource, operation,
                 retry_after_seconds)))


def new_server_timeout_for_kind(qualified_kind: GroupKind, operation: str,
                                retry_after_seconds: int) -> StatusError:
    """Port of NewServerTimeoutForKind (pkg/api/errors/errors.go).

    New_server_timeout with the kind in the resource slot.
    """
    return new_server_timeout(GroupResource(qualified_kind.group, qualified_kind.kind),
                              operation, retry_after_seconds)


def new_internal_error(err: BaseException | str) -> StatusError:
    """Port of NewInternalError (pkg/api/errors/errors.go).

    500, `Internal error occurred: <err>`.
    """
    text = _text(err)
    return StatusError(_status(500, STATUS_REASON_INTERNAL_ERROR,
                               f"Internal error occurred: {text}",
                               _details(causes=[{"message": text}])))


def new_timeout_error(message: str, retry_after_seconds: int) -> StatusError:
    """Port of NewTimeoutError (pkg/api/errors/errors.go).

    504, `Timeout: <message>`; the operation may still finish.
    """
    return StatusError(_status(504, STATUS_REASON_TIMEOUT, f"Timeout: {message}",
                               _details(retry_after_seconds=retry_after_seconds)))


def new_too_many_requests_error(message: str) -> StatusError:
    """Port of NewTooManyRequestsError (pkg/api/errors/errors.go).

    429, `Too many requests: <message>`.
    """
    return StatusError(_status(429, STATUS_REASON_TOO_MANY_REQUESTS,
                               f"Too many requests: {message}"))


def new_request_entity_too_large_error(message: str) -> StatusError:
    """Port of NewRequestEntityTooLargeError (pkg/api/errors/errors.go).

    413, `Request entity too large: <message>`.
    """
    return StatusError(_status(413, STATUS_REASON_REQUEST_ENTITY_TOO_LARGE,
                               f"Request entity too large: {message}"))


_GENERIC_REASONS: dict[int, tuple[str, str]] = {
    404: (STATUS_REASON_NOT_FOUND, "the server could not find the requested resource"),
    400: (STATUS_REASON_BAD_REQUEST, "the server rejected our request for an unknown reason"),
    401: (STATUS_REASON_UNAUTHORIZED, "the server has asked for the client to provide credentials"),
    405: (STATUS_REASON_METHOD_NOT_ALLOWED,
          "the server does not allow this method on the requested resource"),
    422: (STATUS_REASON_INVALID, "the server rejected our request due to an error in our request"),
    503: (STATUS_REASON_SERVICE_UNAVAILABLE, "the server is currently unable to handle the request"),
    504: (STATUS_REASON_TIMEOUT, "the server was unable to return a response in the time "
          "allotted, but may still be processing the request"),
    429: (STATUS_REASON_TOO_MANY_REQUESTS,
          "the server has received too many requests and has asked us to try again later"),
}


def new_generic_server_response(code: int, verb: str, qualified_resource: GroupResource,
                                name: str, server_message: str, retry_after_seconds: int,
                                is_unexpected_response: bool) -> StatusError:
    """Port of NewGenericServerResponse (pkg/api/errors/errors.go).

    A Status for a response that carried none.

    Picks the reason from the HTTP code (409 on POST is AlreadyExists, otherwise
    Conflict) and appends `(<verb> <resource> [<name>])` when the resource is known.
    """
    reason = STATUS_REASON_UNKNOWN
    message = f"the server responded with the status code {code} but did not return more information"
    if code == 409:
        reason = STATUS_REASON_ALREADY_EXISTS if verb == "POST" else STATUS_REASON_CONFLICT
        message = "the server reported a conflict"
    elif code in _GENERIC_REASONS:
        reason, message = _GENERIC_REASONS[code]
    elif code == 403:
        reason, message = STATUS_REASON_FORBIDDEN, server_message
    elif code == 406:
        reason = STATUS_REASON_NOT_ACCEPTABLE
        message = server_message
        if not server_message or server_message == "unknown":
            message = "the server was unable to respond with a content type that the client supports"
    elif code == 415:
        reason, message = STATUS_REASON_UNSUPPORTED_MEDIA_TYPE, server_message
    elif code >= 500:
        reason = STATUS_REASON_INTERNAL_ERROR
        message = (f'an error on the server ("{server_message}") has prevented the request '
                   "from succeeding")
    has_resource = bool(qualified_resource.group or qualified_resource.resource)
    if has_resource and name:
        message = f"{message} ({verb.lower()} {qualified_resource} {name})"
    elif has_resource:
        message = f"{message} ({verb.lower()} {qualified_resource})"
    causes = None
    if is_unexpected_response:
        causes = [{"reason": CAUSE_TYPE_UNEXPECTED_SERVER_RESPONSE, "message": server_message}]
    return StatusError(_status(
        code, reason, message,
        _details(qualified_resource.group, qualified_resource.resource, name,
                 retry_after_seconds, causes)))


# --- predicates ------------------------------------------------------------------


def _as_status_error(err: BaseException | None) -> StatusError | None:
    """Go's `errors.As(err, &status)`: the first StatusError along the `__cause__` chain."""
    seen = 0
    while err is not None and seen < 100:
        if isinstance(err, StatusError):
            return err
        err = err.__cause__
        seen += 1
    return None


def reason_for_error(err: BaseException | None) -> str:
    """Port of ReasonForError (pkg/api/errors/errors.go).

    The Status reason, or "" (Unknown) for anything else.
    """
    status_error = _as_status_error(err)
    return status_error.reason if status_error is not None else STATUS_REASON_UNKNOWN


def reason_and_code_for_error(err: BaseException | None) -> tuple[str, int]:
    """Port of reasonAndCodeForError (pkg/api/errors/errors.go)."""
    status_error = _as_status_error(err)
    if status_error is None:
        return STATUS_REASON_UNKNOWN, 0
    return status_error.reason, status_error.code


def _matches(err: BaseException | None, reason: str, code: int) -> bool:
    """The shared rule of most predicates: the reason matches, or it is unknown and the code does."""
    got_reason, got_code = reason_and_code_for_error(err)
    if got_reason == reason:
        return True
    return got_reason not in KNOWN_REASONS and got_code == code


def is_not_found(err: BaseException | None) -> bool:
    """Port of IsNotFound (pkg/api/errors/errors.go)."""
    return _matches(err, STATUS_REASON_NOT_FOUND, 404)


def is_already_exists(err: BaseException | None) -> bool:
    """Port of IsAlreadyExists (pkg/api/errors/errors.go). Reason only."""
    return reason_for_error(err) == STATUS_REASON_ALREADY_EXISTS


def is_conflict(err: BaseException | None) -> bool:
    """Port of IsConflict (pkg/api/errors/errors.go)."""
    return _matches(err, STATUS_REASON_CONFLICT, 409)


def is_invalid(err: BaseException | None) -> bool:
    """Port of IsInvalid (pkg/api/errors/errors.go)."""
    return _matches(err, STATUS_REASON_INVALID, 422)


def is_gone(err: BaseException | None) -> bool:
    """Port of IsGone (pkg/api/errors/errors.go). Reason Gone, or unknown with code 410."""
    return _matches(err, STATUS_REASON_GONE, 410)


def is_resource_expired(err: BaseException | None) -> bool:
    """Port of IsResourceExpired (pkg/api/errors/errors.go). Reason Expired only."""
    return reason_for_error(err) == STATUS_REASON_EXPIRED


def is_not_acceptable(err: BaseException | None) -> bool:
    """Port of IsNotAcceptable (pkg/api/errors/errors.go)."""
    return _matches(err, STATUS_REASON_NOT_ACCEPTABLE, 406)


def is_unsupported_media_type(err: BaseException | None) -> bool:
    """Port of IsUnsupportedMediaType (pkg/api/errors/errors.go)."""
    return _matches(err, STATUS_REASON_UNSUPPORTED_MEDIA_TYPE, 415)


def is_method_not_supported(err: BaseException | None) -> bool:
    """Port of IsMethodNotSupported (pkg/api/errors/errors.go)."""
    return _matches(err, STATUS_REASON_METHOD_NOT_ALLOWED, 405)


def is_service_unavailable(err: BaseException | None) -> bool:
    """Port of IsServiceUnavailable (pkg/api/errors/errors.go)."""
    return _matches(err, STATUS_REASON_SERVICE_UNAVAILABLE, 503)


def is_bad_request(err: BaseException | None) -> bool:
    """Port of IsBadRequest (pkg/api/errors/errors.go)."""
    return _matches(err, STATUS_REASON_BAD_REQUEST, 400)


def is_unauthorized(err: BaseException | None) -> bool:
    """Port of IsUnauthorized (pkg/api/errors/errors.go)."""
    return _matches(err, STATUS_REASON_UNAUTHORIZED, 401)


def is_forbidden(err: BaseException | None) -> bool:
    """Port of IsForbidden (pkg/api/errors/errors.go)."""
    return _matches(err, STATUS_REASON_FORBIDDEN, 403)


def is_timeout(err: BaseException | None) -> bool:
    """Port of IsTimeout (pkg/api/errors/errors.go). Reason Timeout, or unknown with 504."""
    return _matches(err, STATUS_REASON_TIMEOUT, 504)


def is_server_timeout(err: BaseException | None) -> bool:
    """Port of IsServerTimeout (pkg/api/errors/errors.go).

    Reason only, since no HTTP code means "retry this timeout".
    """
    return reason_for_error(err) == STATUS_REASON_SERVER_TIMEOUT


def is_internal_error(err: BaseException | None) -> bool:
    """Port of IsInternalError (pkg/api/errors/errors.go)."""
    return _matches(err, STATUS_REASON_INTERNAL_ERROR, 500)


def is_too_many_requests(err: BaseException | None) -> bool:
    """Port of IsTooManyRequests (pkg/api/errors/errors.go).

    The reason, or code 429 whatever the reason (older rule kept).
    """
    reason, code = reason_and_code_for_error(err)
    return reason == STATUS_REASON_TOO_MANY_REQUESTS or code == 429


def is_request_entity_too_large_error(err: BaseException | None) -> bool:
    """Port of IsRequestEntityTooLargeError (pkg/api/errors/errors.go).

    The reason, or code 413 whatever the reason.
    """
    reason, code = reason_and_code_for_error(err)
    return reason == STATUS_REASON_REQUEST_ENTITY_TOO_LARGE or code == 413


def is_unexpected_server_error(err: BaseException | None) -> bool:
    """Port of IsUnexpectedServerError (pkg/api/errors/errors.go).

    A cause says the response was not a Status.
    """
    return has_status_cause(err, CAUSE_TYPE_UNEXPECTED_SERVER_RESPONSE)


def is_unexpected_object_error(err: BaseException | None) -> bool:
    """Port of IsUnexpectedObjectError (pkg/api/errors/errors.go). Follows `__cause__` too."""
    seen = 0
    while err is not None and seen < 100:
        if isinstance(err, UnexpectedObjectError):
            return True
        err = err.__cause__
        seen += 1
    return False


def is_store_read_error(err: BaseException | None) -> bool:
    """Port of IsStoreReadError (pkg/api/errors/errors.go)."""
    return reason_for_error(err) == STATUS_REASON_STORE_READ_ERROR


def suggests_client_delay(err: BaseException | None) -> tuple[int, bool]:
    """Port of SuggestsClientDelay (pkg/api/errors/errors.go).

    (seconds, True) when the error asks the client to wait.

    A ServerTimeout always asks (possibly for 0 s); any other Status asks when its
    details carry a positive retryAfterSeconds.
    """
    status_error = _as_status_error(err)
    if status_error is None or "details" not in status_error.err_status:
        return 0, False
    retry_after = int(status_error.err_status["details"].get("retryAfterSeconds", 0))
    if status_error.reason == STATUS_REASON_SERVER_TIMEOUT:
        return retry_after, True
    if retry_after > 0:
        return retry_after, True
    return 0, False
