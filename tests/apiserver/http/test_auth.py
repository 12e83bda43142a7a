"""Tests for minikcm.apiserver.http.auth: bearer token parsing and checking."""

from __future__ import annotations

import os
import stat

import pytest

from minikcm.apiserver.http import auth

BEARER_CASES = [
    pytest.param("Bearer abc", "abc", id="bearer"),
    pytest.param("bearer abc", "abc", id="scheme-any-case"),
    pytest.param("  Bearer abc  ", "abc", id="surrounding-space"),
    pytest.param("Bearer abc def", "abc", id="extra-part-ignored"),
    pytest.param("Bearer ", None, id="empty-token"),
    pytest.param("Bearer", None, id="no-token"),
    pytest.param("Basic YTpi", None, id="basic"),
    pytest.param("", None, id="empty-header"),
    pytest.param(None, None, id="no-header"),
]


@pytest.mark.parametrize("header, want", BEARER_CASES)
def test_bearer_token(header, want):
    """Cases after BearerToken.AuthenticateRequest (apiserver/pkg/authentication/request/bearertoken)."""
    assert auth.bearer_token(header) == want


AUTHENTICATE_CASES = [
    pytest.param("Bearer s3cret", True, id="right"),
    pytest.param("Bearer s3cre", False, id="prefix"),
    pytest.param("Bearer s3cret2", False, id="longer"),
    pytest.param("Bearer S3CRET", False, id="case-matters"),
    pytest.param(None, False, id="missing"),
]


@pytest.mark.parametrize("header, want", AUTHENTICATE_CASES)
def test_authenticate(header, want):
    assert auth.authenticate(header, "s3cret") is want


def test_unauthorized_status():
    status = auth.unauthorized().status()
    assert (status["code"], status["reason"], status["message"]) == (401, "Unauthorized", "Unauthorized")


def test_new_tokens_are_long_and_different():
    tokens = {auth.new_token() for _ in range(10)}
    assert len(tokens) == 10 and all(len(t) >= 43 for t in tokens)


def test_token_file_is_created_private_and_reused(tmp_path):
    path = tmp_path / "pki" / "token"
    first = auth.load_or_create_token(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert auth.load_or_create_token(path) == first
