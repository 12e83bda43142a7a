"""Tests for minikcm.apiserver.continue_: continue_test.go's table (Test_decodeContinue), then
the token shapes a client may send that upstream's table leaves out."""

from __future__ import annotations

import base64
import json

import pytest

from minikcm.apimachinery import errors
from minikcm.apiserver.continue_ import (
    ERR_EMPTY_START_KEY,
    ERR_GENERIC_INVALID_KEY,
    ERR_INVALID_START_RV,
    ERR_UNRECOGNIZED_ENCODED_VERSION,
    ContinueError,
    decode_continue,
    encode_continue,
    go_path_clean,
    new_invalid_continue_error,
    prepare_continue_token,
)


def token_of(version: str, rv: int, key: str) -> str:
    """encodeContinueOrDie of the upstream test: the JSON, base64url without padding."""
    raw = json.dumps({"v": version, "rv": rv, "start": key}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


# (name, token, key prefix, start key wanted, rv wanted, error kind wanted)
DECODE_CASES = [
    ("valid", token_of("meta.k8s.io/v1", 1, "key"), "/test/", "/test/key", 1, None),
    ("root path", token_of("meta.k8s.io/v1", 1, "/"), "/test/", "/test/", 1, None),
    ("empty version", token_of("", 1, "key"), "/test/", "", 0, ERR_UNRECOGNIZED_ENCODED_VERSION),
    ("invalid version", token_of("v1", 1, "key"), "/test/", "", 0, ERR_UNRECOGNIZED_ENCODED_VERSION),
    ("invalid RV", token_of("meta.k8s.io/v1", 0, "key"), "/test/", "", 0, ERR_INVALID_START_RV),
    ("no start Key", token_of("meta.k8s.io/v1", 1, ""), "/test/", "", 0, ERR_EMPTY_START_KEY),
    ("path traversal - parent", token_of("meta.k8s.io/v1", 1, "../key"), "/test/", "", 0,
     ERR_GENERIC_INVALID_KEY),
    ("path traversal - local", token_of("meta.k8s.io/v1", 1, "./key"), "/test/", "", 0,
     ERR_GENERIC_INVALID_KEY),
    ("path traversal - double parent", token_of("meta.k8s.io/v1", 1, "./../key"), "/test/", "", 0,
     ERR_GENERIC_INVALID_KEY),
    ("path traversal - after parent", token_of("meta.k8s.io/v1", 1, "key/../.."), "/test/", "", 0,
     ERR_GENERIC_INVALID_KEY),
    # Beyond upstream's table.
    ("rv -1 continues at the latest version", token_of("meta.k8s.io/v1", -1, "default/a\x00"), "",
     "default/a\x00", -1, None),
    ("doubled slash", token_of("meta.k8s.io/v1", 1, "a//b"), "", "", 0, ERR_GENERIC_INVALID_KEY),
    ("trailing slash", token_of("meta.k8s.io/v1", 1, "a/"), "", "", 0, ERR_GENERIC_INVALID_KEY),
]


@pytest.mark.parametrize("token, prefix, want_key, want_rv, want_err",
                         [pytest.param(t, p, k, r, e, id=n) for n, t, p, k, r, e in DECODE_CASES])
def test_decode_continue(token, prefix, want_key, want_rv, want_err):
    if want_err is None:
        assert decode_continue(token, prefix) == (want_key, want_rv)
        return
    with pytest.raises(ContinueError) as info:
        decode_continue(token, prefix)
    assert info.value.kind == want_err


def raw(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


# (name, token, the whole message after "invalid continue token: ")
MESSAGE_CASES = [
    ("rv 0", token_of("meta.k8s.io/v1", 0, "a"),
     "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"),
    ("empty start", token_of("meta.k8s.io/v1", 5, ""),
     "continue key is not valid: encoded start key empty (version meta.k8s.io/v1)"),
    ("unknown version", token_of("v1", 5, "a"),
     "continue key is not valid: server does not recognize this encoded version v1"),
    ("no version", raw('{"rv":5,"start":"a"}'),
     "continue key is not valid: server does not recognize this encoded version "),
    ("unclean start", token_of("meta.k8s.io/v1", 5, "a/../b"), "continue key is not valid: a/../b"),
    ("not base64", "not-a-token!", "continue key is not valid: illegal base64 data at input byte 11"),
    ("padded", raw("{}") + "=", "continue key is not valid: illegal base64 data at input byte 3"),
    ("lone last character", "e30xx", "continue key is not valid: illegal base64 data at input byte 4"),
    ("not json", raw("hello"),
     "continue key is not valid: invalid character 'h' looking for beginning of value"),
    ("truncated json", raw('{"v":'), "continue key is not valid: unexpected end of JSON input"),
    ("empty", "", "continue key is not valid: unexpected end of JSON input"),
    ("rv is a string", raw('{"v":"meta.k8s.io/v1","rv":"5","start":"a"}'),
     "continue key is not valid: json: cannot unmarshal string into Go struct field "
     "continueToken.rv of type int64"),
    ("rv is a fraction", raw('{"v":"meta.k8s.io/v1","rv":1.5,"start":"a"}'),
     "continue key is not valid: json: cannot unmarshal number 1.5 into Go struct field "
     "continueToken.rv of type int64"),
    ("a list", raw("[]"),
     "continue key is not valid: json: cannot unmarshal array into Go value of type storage.continueToken"),
]


@pytest.mark.parametrize("token, message", [pytest.param(t, m, id=n) for n, t, m in MESSAGE_CASES])
def test_bad_tokens_are_a_400_with_decode_continues_reason(token, message):
    with pytest.raises(ContinueError) as info:
        decode_continue(token)
    status = new_invalid_continue_error(info.value).status()
    assert (status["code"], status["reason"]) == (400, "BadRequest")
    assert status["message"] == "invalid continue token: " + message


def test_json_field_names_match_without_regard_to_case_as_go_does():
    assert decode_continue(raw('{"V":"meta.k8s.io/v1","RV":3,"Start":"a","extra":1}')) == ("a", 3)


def test_encode_round_trip_and_prefix():
    token = encode_continue("/test/default/a\x00", "/test/", 12)
    assert "=" not in token
    assert decode_continue(token, "/test/") == ("/test/default/a\x00", 12)
    with pytest.raises(ValueError, match="the key and key prefix do not match"):
        encode_continue("/other/a", "/test/", 12)


CLEAN_CASES = [("/", "/"), ("/a/b", "/a/b"), ("//a", "/a"), ("/a/./b", "/a/b"), ("/a/../..", "/"),
               ("/../a", "/a"), ("/a/", "/a"), ("", "."), ("a/..", "."), ("../a", "../a")]


@pytest.mark.parametrize("path, want", CLEAN_CASES)
def test_go_path_clean(path, want):
    assert go_path_clean(path) == want


def test_prepare_continue_token():
    assert prepare_continue_token("ns/b", "", 7, 5, False, 2, True) == ("", None)
    token, remaining = prepare_continue_token("ns/b", "", 7, 5, True, 2, True)
    assert decode_continue(token) == ("ns/b\x00", 7) and remaining == 3
    assert prepare_continue_token("ns/b", "", 7, 5, True, 2, False)[1] is None  # selectors: no count


def test_status_error_carries_the_bad_request():
    assert errors.is_bad_request(new_invalid_continue_error(ContinueError("k", "m")))
