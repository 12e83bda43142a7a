"""Tests for minikcm.apimachinery.errors (port of pkg/api/errors/errors_test.go)."""

from __future__ import annotations

import pytest
from kubernetes.client import V1Status

from minikcm.apimachinery import errors, field
from minikcm.apimachinery.errors import StatusError
from minikcm.apimachinery.schema import GroupKind, GroupResource


def resource(name: str) -> GroupResource:
    return GroupResource("", name)


def kind(name: str) -> GroupKind:
    return GroupKind("", name)


def bare(reason: str = "", code: int = 0, details: dict | None = None) -> StatusError:
    """A StatusError with only the given fields set (Go: a StatusError literal)."""
    status: dict = {"kind": "Status", "apiVersion": "v1", "metadata": {}}
    if reason:
        status["reason"] = reason
    if code:
        status["code"] = code
    if details is not None:
        status["details"] = details
    return StatusError(status)


def wrapped(err: BaseException | None, times: int = 1) -> BaseException:
    """Python's `fmt.Errorf("...: %w", err)`: a RuntimeError whose __cause__ is `err`."""
    for i in range(times):
        outer = RuntimeError(f"wrapping {i}: {err}")
        outer.__cause__ = err
        err = outer
    assert err is not None
    return err


def test_error_new():
    """Port of TestErrorNew (errors_test.go)."""
    err = errors.new_already_exists(resource("tests"), "1")
    assert errors.is_already_exists(err)
    for predicate in (errors.is_conflict, errors.is_not_found, errors.is_invalid,
                      errors.is_bad_request, errors.is_forbidden, errors.is_server_timeout,
                      errors.is_method_not_supported):
        assert not predicate(err), predicate.__name__

    assert errors.is_conflict(errors.new_conflict(resource("tests"), "2", "message"))
    assert errors.is_not_found(errors.new_not_found(resource("tests"), "3"))
    assert errors.is_invalid(errors.new_invalid(kind("Test"), "2", None))
    assert errors.is_bad_request(errors.new_bad_request("reason"))
    assert errors.is_forbidden(errors.new_forbidden(resource("tests"), "2", "reason"))
    assert errors.is_unauthorized(errors.new_unauthorized("reason"))
    assert errors.is_server_timeout(errors.new_server_timeout(resource("tests"), "reason", 0))
    assert errors.is_method_not_supported(errors.new_method_not_supported(resource("foos"), "delete"))

    assert errors.is_already_exists(errors.new_generate_name_conflict(resource("tests"), "3", 1))
    assert errors.suggests_client_delay(errors.new_generate_name_conflict(resource("tests"), "3", 1)) == (1, True)


SUGGESTS_CLIENT_DELAY_CASES = [
    pytest.param(errors.new_server_timeout(resource("tests"), "doing something", 10), (10, True),
                 id="server-timeout-10"),
    pytest.param(errors.new_server_timeout(resource("tests"), "doing something", 0), (0, True),
                 id="server-timeout-0-still-asks"),
    pytest.param(errors.new_timeout_error("test reason", 10), (10, True), id="timeout"),
    pytest.param(errors.new_too_many_requests("doing something", 10), (10, True), id="too-many-10"),
    pytest.param(errors.new_too_many_requests("doing something", 1), (1, True), id="too-many-1"),
    pytest.param(errors.new_generic_server_response(429, "GET", resource("tests"), "test",
                                                    "doing something", 10, True),
                 (10, True), id="generic-429"),
    pytest.param(errors.new_generic_server_response(500, "GET", resource("tests"), "test",
                                                    "doing something", 10, True),
                 (10, True), id="generic-500"),
    pytest.param(errors.new_generic_server_response(429, "GET", resource("tests"), "test",
                                                    "doing something", 0, True),
                 (0, False), id="generic-429-no-delay"),
]


@pytest.mark.parametrize("err, want", SUGGESTS_CLIENT_DELAY_CASES)
def test_error_new_suggests_client_delay(err, want):
    """Port of the SuggestsClientDelay half of TestErrorNew (errors_test.go)."""
    assert errors.suggests_client_delay(err) == want


NEW_INVALID_CASES = [
    pytest.param(field.duplicate(field.new_path("field[0].name"), "bar"), "FieldValueDuplicate",
                 'Kind "name" is invalid: field[0].name: Duplicate value: "bar"', id="duplicate"),
    pytest.param(field.invalid(field.new_path("field[0].name"), "bar", "detail"), "FieldValueInvalid",
                 'Kind "name" is invalid: field[0].name: Invalid value: "bar": detail', id="invalid"),
    pytest.param(field.not_found(field.new_path("field[0].name"), "bar"), "FieldValueNotFound",
                 'Kind "name" is invalid: field[0].name: Not found: "bar"', id="not-found"),
    pytest.param(field.not_supported(field.new_path("field[0].name"), "bar", None),
                 "FieldValueNotSupported",
                 'Kind "name" is invalid: field[0].name: Unsupported value: "bar"', id="not-supported"),
    pytest.param(field.required(field.new_path("field[0].name"), ""), "FieldValueRequired",
                 'Kind "name" is invalid: field[0].name: Required value', id="required"),
]


@pytest.mark.parametrize("err, cause_type, message", NEW_INVALID_CASES)
def test_new_invalid(err, cause_type, message):
    """Port of TestNewInvalid (errors_test.go)."""
    status = errors.new_invalid(kind("Kind"), "name", [err]).status()
    assert status["code"] == 422 and status["reason"] == errors.STATUS_REASON_INVALID
    assert status["details"] == {"kind": "Kind", "name": "name", "causes": [
        {"reason": cause_type, "message": err.error_body(), "field": "field[0].name"}]}
    assert status["message"] == message


def test_new_invalid_no_errors():
    """Port of TestNewInvalid's nil row: no causes, and the message ends after "is invalid"."""
    status = errors.new_invalid(kind("Kind"), "name", []).status()
    assert status["message"] == 'Kind "name" is invalid'
    assert status["details"] == {"kind": "Kind", "name": "name"}


def test_new_invalid_several_errors_are_bracketed_and_deduplicated():
    """Upstream aggregates: one error prints bare, several as `[a, b]`, repeats once."""
    path = field.new_path("spec", "replicas")
    one = field.invalid(path, -1, "must be greater than or equal to 0")
    other = field.required(field.new_path("spec", "selector"), "")
    err = errors.new_invalid(GroupKind("apps", "Deployment"), "web", [one, other, one])
    assert str(err) == ('Deployment.apps "web" is invalid: [spec.replicas: Invalid value: -1: '
                        "must be greater than or equal to 0, spec.selector: Required value]")
    assert len(err.status()["details"]["causes"]) == 3


MESSAGE_CASES = [
    pytest.param(errors.new_not_found(GroupResource("apps", "deployments"), "web"),
                 'deployments.apps "web" not found', 404, id="not-found"),
    pytest.param(errors.new_already_exists(resource("pods"), "p"), 'pods "p" already exists', 409,
                 id="already-exists"),
    pytest.param(errors.new_conflict(GroupResource("apps", "deployments"), "web",
                                     "the object has been modified; please apply your changes to "
                                     "the latest version and try again"),
                 'Operation cannot be fulfilled on deployments.apps "web": the object has been '
                 "modified; please apply your changes to the latest version and try again", 409,
                 id="conflict"),
    pytest.param(errors.new_resource_expired("too old resource version: 1 (5)"),
                 "too old resource version: 1 (5)", 410, id="expired"),
    pytest.param(errors.new_gone("gone"), "gone", 410, id="gone"),
    pytest.param(errors.new_forbidden(GroupResource("", ""), "", "no"), "forbidden: no", 403,
                 id="forbidden-no-resource"),
    pytest.param(errors.new_forbidden(resource("pods"), "", "no"), "pods is forbidden: no", 403,
                 id="forbidden-no-name"),
    pytest.param(errors.new_unauthorized(""), "not authorized", 401, id="unauthorized-default"),
    pytest.param(errors.new_internal_error(ValueError("boom")), "Internal error occurred: boom", 500,
                 id="internal"),
    pytest.param(errors.new_timeout_error("slow", 1), "Timeout: slow", 504, id="timeout"),
    pytest.param(errors.new_too_many_requests_error("slow down"), "Too many requests: slow down", 429,
                 id="too-many-requests-error"),
    pytest.param(errors.new_request_entity_too_large_error("big"), "Request entity too large: big",
                 413, id="too-large"),
    pytest.param(errors.new_service_unavailable("later"), "later", 503, id="unavailable"),
    pytest.param(errors.new_method_not_supported(resource("foos"), "delete"),
                 'delete is not supported on resources of kind "foos"', 405, id="method"),
    pytest.param(errors.new_generic_server_response(404, "GET", resource("pods"), "p", "", 0, False),
                 "the server could not find the requested resource (get pods p)", 404,
                 id="generic-not-found"),
    pytest.param(errors.new_generic_server_response(409, "POST", resource("pods"), "", "", 0, False),
                 "the server reported a conflict (post pods)", 409, id="generic-post-conflict"),
]


@pytest.mark.parametrize("err, message, code", MESSAGE_CASES)
def test_messages_and_codes_match_upstream(err, message, code):
    """Each constructor's message format and HTTP code, as errors.go writes them."""
    assert str(err) == message
    assert err.status()["code"] == code
    assert err.status()["status"] == "Failure"
    assert err.status()["kind"] == "Status" and err.status()["apiVersion"] == "v1"


def test_generic_post_conflict_is_already_exists():
    """NewGenericServerResponse: a 409 answering a POST means AlreadyExists, else Conflict."""
    post = errors.new_generic_server_response(409, "POST", resource("pods"), "", "", 0, False)
    put = errors.new_generic_server_response(409, "PUT", resource("pods"), "", "", 0, False)
    assert errors.is_already_exists(post) and not errors.is_conflict(post)
    assert errors.is_conflict(put)


def test_reason_for_error():
    """Port of TestReasonForError (errors_test.go)."""
    assert errors.reason_for_error(None) == errors.STATUS_REASON_UNKNOWN


FROM_OBJECT_CASES = [
    pytest.param({"kind": "Status", "apiVersion": "v1", "message": "foobar"}, "foobar",
                 id="status-dict"),
    pytest.param(V1Status(message="foobar", code=404, reason="NotFound"), "foobar", id="v1status-model"),
    pytest.param({"kind": "Status", "apiVersion": "meta.k8s.io/v1", "message": "x"}, "x",
                 id="meta-group-status"),
]


@pytest.mark.parametrize("obj, message", FROM_OBJECT_CASES)
def test_from_object(obj, message):
    """Port of TestFromObject (errors_test.go): a Status becomes a StatusError."""
    err = errors.from_object(obj)
    assert isinstance(err, StatusError)
    assert str(err) == message


def test_from_object_keeps_model_fields():
    err = errors.from_object(V1Status(message="gone", code=410, reason="Expired"))
    assert errors.is_resource_expired(err) and err.code == 410


@pytest.mark.parametrize("obj", [
    pytest.param({"kind": "Pod", "apiVersion": "v1"}, id="other-kind"),
    pytest.param({"kind": "Status", "apiVersion": "v2"}, id="other-version"),
    pytest.param(object(), id="not-a-status"),
])
def test_from_object_unexpected(obj):
    """Port of TestFromObject's TestType row: anything else is an UnexpectedObjectError."""
    err = errors.from_object(obj)
    assert isinstance(err, errors.UnexpectedObjectError)
    assert str(err).startswith("unexpected object: ")
    assert errors.is_unexpected_object_error(err)


REASON_WRAPPED_CASES = [
    pytest.param(bare(errors.STATUS_REASON_UNAUTHORIZED), errors.STATUS_REASON_UNAUTHORIZED,
                 id="Direct match"),
    pytest.param(ValueError("some other error"), errors.STATUS_REASON_UNKNOWN, id="No match"),
    pytest.param(wrapped(bare(errors.STATUS_REASON_ALREADY_EXISTS), 2),
                 errors.STATUS_REASON_ALREADY_EXISTS, id="Nested match"),
    pytest.param(wrapped(ValueError("hello"), 2), errors.STATUS_REASON_UNKNOWN, id="Nested, no match"),
    pytest.param(None, errors.STATUS_REASON_UNKNOWN, id="Nil"),
]


@pytest.mark.parametrize("err, reason", REASON_WRAPPED_CASES)
def test_reason_for_error_supports_wrapped_errors(err, reason):
    """Port of TestReasonForErrorSupportsWrappedErrors (errors_test.go)."""
    assert errors.reason_for_error(err) == reason


def _code_or_reason_cases(reason: str, code: int) -> list:
    return [
        pytest.param(bare(reason), True, id="Direct match via status reason"),
        pytest.param(bare(code=code), True, id="Direct match via status code"),
        pytest.param(bare(), False, id="No match"),
        pytest.param(wrapped(bare(reason)), True, id="Nested match via status reason"),
        pytest.param(wrapped(bare(code=code)), True, id="Nested match via status code"),
        pytest.param(wrapped(bare(code=404)), False, id="Nested,no match"),
        pytest.param(None, False, id="Nil"),
    ]


@pytest.mark.parametrize("err, want", _code_or_reason_cases(errors.STATUS_REASON_TOO_MANY_REQUESTS, 429))
def test_is_too_many_requests_supports_wrapped_errors(err, want):
    """Port of TestIsTooManyRequestsSupportsWrappedErrors (errors_test.go)."""
    assert errors.is_too_many_requests(err) is want


@pytest.mark.parametrize("err, want",
                         _code_or_reason_cases(errors.STATUS_REASON_REQUEST_ENTITY_TOO_LARGE, 413))
def test_is_request_entity_too_large_error_supports_wrapped_errors(err, want):
    """Port of TestIsRequestEntityTooLargeErrorSupportsWrappedErrors (errors_test.go)."""
    assert errors.is_request_entity_too_large_error(err) is want


def _unexpected_server_err() -> StatusError:
    return bare(details={"causes": [{"reason": errors.CAUSE_TYPE_UNEXPECTED_SERVER_RESPONSE}]})


@pytest.mark.parametrize("err, want", [
    pytest.param(_unexpected_server_err(), True, id="Direct match"),
    pytest.param(ValueError("some other error"), False, id="No match"),
    pytest.param(wrapped(_unexpected_server_err()), True, id="Nested match"),
    pytest.param(wrapped(ValueError("hello"), 2), False, id="Nested, no match"),
    pytest.param(None, False, id="Nil"),
])
def test_is_unexpected_server_error(err, want):
    """Port of TestIsUnexpectedServerError (errors_test.go)."""
    assert errors.is_unexpected_server_error(err) is want


@pytest.mark.parametrize("err, want", [
    pytest.param(errors.UnexpectedObjectError(None), True, id="Direct match"),
    pytest.param(ValueError("some other error"), False, id="No match"),
    pytest.param(wrapped(errors.UnexpectedObjectError(None)), True, id="Nested match"),
    pytest.param(wrapped(ValueError("hello"), 2), False, id="Nested, no match"),
    pytest.param(None, False, id="Nil"),
])
def test_is_unexpected_object_error(err, want):
    """Port of TestIsUnexpectedObjectError (errors_test.go)."""
    assert errors.is_unexpected_object_error(err) is want


def _server_timeout_err() -> StatusError:
    return bare(errors.STATUS_REASON_SERVER_TIMEOUT, details={})


@pytest.mark.parametrize("err, want", [
    pytest.param(_server_timeout_err(), True, id="Direct match"),
    pytest.param(ValueError("some other error"), False, id="No match"),
    pytest.param(wrapped(_server_timeout_err()), True, id="Nested match"),
    pytest.param(wrapped(ValueError("hello"), 2), False, id="Nested, no match"),
    pytest.param(None, False, id="Nil"),
])
def test_suggests_client_delay_supports_wrapping(err, want):
    """Port of TestSuggestsClientDelaySupportsWrapping (errors_test.go)."""
    assert errors.suggests_client_delay(err)[1] is want


BY_REASON_AND_CODE_CASES = [
    pytest.param(errors.STATUS_REASON_REQUEST_ENTITY_TOO_LARGE, errors.STATUS_REASON_FORBIDDEN, False,
                 413, errors.is_request_entity_too_large_error, id="IsRequestEntityTooLarge"),
    pytest.param(errors.STATUS_REASON_TOO_MANY_REQUESTS, errors.STATUS_REASON_FORBIDDEN, False, 429,
                 errors.is_too_many_requests, id="TooManyRequests"),
    pytest.param(errors.STATUS_REASON_FORBIDDEN, errors.STATUS_REASON_NOT_FOUND, True, 403,
                 errors.is_forbidden, id="Forbidden"),
    pytest.param(errors.STATUS_REASON_NOT_FOUND, errors.STATUS_REASON_FORBIDDEN, True, 404,
                 errors.is_not_found, id="NotFound"),
    # Beyond upstream's table: the same rule for the other code-aware predicates.
    pytest.param(errors.STATUS_REASON_CONFLICT, errors.STATUS_REASON_NOT_FOUND, True, 409,
                 errors.is_conflict, id="Conflict"),
    pytest.param(errors.STATUS_REASON_INVALID, errors.STATUS_REASON_NOT_FOUND, True, 422,
                 errors.is_invalid, id="Invalid"),
    pytest.param(errors.STATUS_REASON_GONE, errors.STATUS_REASON_EXPIRED, True, 410,
                 errors.is_gone, id="Gone"),
    pytest.param(errors.STATUS_REASON_TIMEOUT, errors.STATUS_REASON_NOT_FOUND, True, 504,
                 errors.is_timeout, id="Timeout"),
    pytest.param(errors.STATUS_REASON_INTERNAL_ERROR, errors.STATUS_REASON_SERVER_TIMEOUT, True, 500,
                 errors.is_internal_error, id="InternalError"),
    pytest.param(errors.STATUS_REASON_SERVICE_UNAVAILABLE, errors.STATUS_REASON_NOT_FOUND, True, 503,
                 errors.is_service_unavailable, id="ServiceUnavailable"),
]


@pytest.mark.parametrize("known, other, other_considered, code, fn", BY_REASON_AND_CODE_CASES)
def test_is_error_types_by_reason_and_code(known, other, other_considered, code, fn):
    """Port of TestIsErrorTypesByReasonAndCode (errors_test.go)."""
    assert fn(bare(known)), "by known reason"
    assert fn(bare(errors.STATUS_REASON_UNKNOWN, code)), "by code and unknown reason"
    if other_considered:
        assert not fn(bare(other, code)), "by code and other known reason"


def test_status_cause_supports_wrapped_errors():
    """Port of TestStatusCauseSupportsWrappedErrors (errors_test.go)."""
    err = bare(details={"causes": [{"reason": "SomeCause"}]})
    cause = err.status()["details"]["causes"][0]
    assert errors.status_cause(None, "SomeCause") == ({}, False)
    assert errors.status_cause(ValueError("boom"), "SomeCause") == ({}, False)
    assert errors.status_cause(err, "Other") == ({}, False)
    assert errors.status_cause(err, "SomeCause") == (cause, True)
    assert errors.status_cause(wrapped(err), "SomeCause") == (cause, True)
    assert errors.status_cause(wrapped(err, 2), "SomeCause") == (cause, True)
    assert errors.has_status_cause(wrapped(err), "SomeCause")


def test_status_error_is_an_exception_with_its_message():
    err = errors.new_not_found(resource("pods"), "p")
    with pytest.raises(StatusError, match='pods "p" not found'):
        raise err
    assert err.reason == "NotFound" and err.code == 404
    assert err.err_status is err.status()
    assert "NotFound" in repr(err)


def test_wire_status_leaves_out_empty_fields():
    """The Status dict is what kube-apiserver sends: empty fields are omitted."""
    status = errors.new_bad_request("bad").status()
    assert status == {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                      "message": "bad", "reason": "BadRequest", "code": 400}
    assert errors.new_not_found(resource("pods"), "p").status()["details"] == {"name": "p", "kind": "pods"}
