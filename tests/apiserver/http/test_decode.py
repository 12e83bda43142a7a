"""Tests for minikcm.apiserver.http.decode: request bodies to JSON values, with 400s for bad ones."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import errors
from minikcm.apiserver.http.decode import decode_body, decode_json, decode_yaml, media_type

DECODE_CASES = [
    pytest.param(b'{"a": 1}', "application/json", {"a": 1}, id="json"),
    pytest.param(b'{"a": 1}', "application/json; charset=utf-8", {"a": 1}, id="json-with-charset"),
    pytest.param(b'{"a": 1}', None, {"a": 1}, id="json-by-default"),
    pytest.param(b"a: 1\nb: [x, y]\n", "application/yaml", {"a": 1, "b": ["x", "y"]}, id="yaml"),
    pytest.param(b"when: 2024-01-01\n", "application/yaml", {"when": "2024-01-01"}, id="yaml-dates-stay-strings"),
    pytest.param(b"1: one\ntrue: yes\n", "application/yaml", {"1": "one", "true": True}, id="yaml-scalar-keys"),
    pytest.param(b'{"a": 1}', "application/merge-patch+json", {"a": 1}, id="json-suffix"),
    pytest.param(b"", "application/yaml", None, id="empty-yaml"),
]


@pytest.mark.parametrize("raw, content_type, want", DECODE_CASES)
def test_decode_body(raw, content_type, want):
    assert decode_body(raw, content_type).value == want


def test_duplicate_keys_are_recorded_by_path():
    decoded = decode_json(b'{"spec": {"replicas": 1, "replicas": 2}, "items": [{"x": 1, "x": 2}]}')
    assert decoded.value == {"spec": {"replicas": 2}, "items": [{"x": 2}]}
    assert decoded.duplicates == ["spec.replicas", "items[0].x"]


def alias_bomb(levels: int = 9) -> bytes:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines).encode()


BAD_CASES = [
    pytest.param(b"{", "application/json", "json parse error", id="truncated-json"),
    pytest.param(b"[NaN]", "application/json", "json parse error", id="json-nan"),
    pytest.param(b"[" * 100_000, "application/json", "exceeded max depth", id="json-too-deep"),
    pytest.param(b"\xff", "application/json", "not valid UTF-8", id="not-utf8"),
    pytest.param(b"a: [", "application/yaml", "error converting YAML to JSON", id="broken-yaml"),
    pytest.param(b"a: 1\n---\nb: 2\n", "application/yaml", "single document", id="two-documents"),
    pytest.param(b"a: !!binary aGVsbG8=", "application/yaml", "unsupported value at a", id="yaml-bytes"),
    pytest.param(b"a: .nan", "application/yaml", "unsupported value at a", id="yaml-nan"),
    pytest.param(alias_bomb(), "application/yaml", "excessive aliasing", id="billion-laughs"),
    pytest.param(b"a: !!python/object:os.system x", "application/yaml", "error converting", id="python-tag"),
]


@pytest.mark.parametrize("raw, content_type, message", BAD_CASES)
def test_bad_bodies_are_400(raw, content_type, message):
    with pytest.raises(errors.StatusError) as caught:
        decode_body(raw, content_type)
    assert caught.value.code == 400 and message in str(caught.value)


def test_unknown_media_type_is_415():
    with pytest.raises(errors.StatusError) as caught:
        decode_body(b"\x0a", "application/vnd.kubernetes.protobuf")
    assert caught.value.code == 415


def test_small_alias_use_is_fine():
    assert decode_yaml(b"base: &b {x: 1}\nother: *b\n").value == {"base": {"x": 1}, "other": {"x": 1}}


def test_media_type():
    assert media_type("Application/JSON; charset=utf-8") == "application/json"
    assert media_type(None) == ""


def test_apply_bodies_are_json_or_yaml():
    from minikcm.apiserver.http.decode import decode_json_or_yaml

    assert decode_json_or_yaml(b'{"a": 1, "a": 2}').duplicates == ["a"]
    assert decode_json_or_yaml(b"a: 1\n").value == {"a": 1}
    with pytest.raises(errors.StatusError) as caught:
        decode_json_or_yaml(b"a: [")
    assert "error converting YAML to JSON" in str(caught.value)
