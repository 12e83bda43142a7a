"""No upstream twin. Turning request bodies into JSON values, safely, after apimachinery's serializers.

kube-apiserver decodes bodies with its JSON and YAML serializers
(apimachinery/pkg/runtime/serializer/json, sigs.k8s.io/json, sigs.k8s.io/yaml).
This module does the same job for the HTTP front: it picks the decoder by
Content-Type, refuses what cannot be decoded with a 400 `Status` (never a 500),
and records duplicate keys, which strict field validation reports.

Start reading at: decode_body.

Design notes: the YAML loader is PyYAML's safe loader with two changes: it
keeps timestamps as strings (YAML 1.1 would turn `2024-01-01` into a date,
which is not JSON), and it refuses documents whose aliases expand to more than
MAX_YAML_NODES nodes (a "billion laughs" body is a few hundred bytes). JSON
`NaN`/`Infinity` are refused as Go's decoder refuses them. Nesting deeper than
Python's recursion limit is a 400, as is a number too long to convert.

Differs from upstream: no CBOR bodies, and no protobuf bodies here (415
UnsupportedMediaType): protobuf needs the type the endpoint expects, so the
REST handler decodes those itself with `minikcm.apiserver.http.protobuf`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import yaml

from minikcm.apimachinery import errors
from minikcm.apimachinery.schema import GroupResource

JSON = "application/json"
YAML = "application/yaml"
SUPPORTED_BODY_TYPES = (JSON, YAML, "application/yaml", "text/yaml")

MAX_YAML_NODES = 1_000_000
"""Expanded node count above which a YAML body is refused (alias bombs)."""


@dataclass
class Decoded:
    """A decoded body: the value, plus the duplicate keys seen (as field paths)."""

    value: Any
    duplicates: list[str] = field(default_factory=list)


def media_type(content_type: str | None) -> str:
    """`application/json; charset=utf-8` -> `application/json` (lower case, no parameters)."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def bad_request(message: str) -> errors.StatusError:
    return errors.new_bad_request(message)


def unsupported_media_type(content_type: str) -> errors.StatusError:
    """415, as the apiserver answers a body type it has no decoder for."""
    return errors.new_generic_server_response(
        415, "", GroupResource("", ""), "",
        f"the body of the request was in an unknown format - accepted media types include: "
        f"{JSON}, {YAML}", 0, False)


def decode_body(body: bytes, content_type: str | None) -> Decoded:
    """Decode a request body by its Content-Type (JSON when none is given).

    Raises:
        StatusError: 400 for bodies that do not decode, 415 for other media types.
    """
    kind = media_type(content_type) or JSON
    if kind == JSON or kind.endswith("+json"):
        return decode_json(body)
    if kind in (YAML, "text/yaml", "application/x-yaml") or kind.endswith("+yaml"):
        return decode_yaml(body)
    raise unsupported_media_type(kind)


def _text(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as err:
        raise bad_request(f"the request body is not valid UTF-8: {err}") from None


def decode_json(body: bytes) -> Decoded:
    """Parse JSON, recording duplicate object keys by path.

    Raises:
        StatusError: 400 `couldn't get version/kind; json parse error: ...`.
    """
    text = _text(body)
    tracker = _DuplicateTracker()
    try:
        value = json.loads(text, object_pairs_hook=tracker.hook, parse_constant=_refuse_constant)
    except (json.JSONDecodeError, ValueError, RecursionError) as err:
        raise bad_request(f"couldn't get version/kind; json parse error: {_short(err)}") from None
    return Decoded(value, tracker.paths(value))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"invalid character '{name[0]}' looking for beginning of value")


def _short(err: BaseException) -> str:
    if isinstance(err, RecursionError):
        return "exceeded max depth"
    return str(err)


class _DuplicateTracker:
    """Collects duplicate keys while json builds objects bottom-up, then names them by path.

    The hook sees an object before its parent exists, so each dict with a
    duplicate is remembered by identity and its path found afterwards.
    """

    def __init__(self) -> None:
        self._dups: list[tuple[int, str]] = []

    def hook(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                self._dups.append((id(out), key))
            out[key] = value
        return out

    def paths(self, root: Any) -> list[str]:
        if not self._dups:
            return []
        where: dict[int, str] = {}
        _index_paths(root, "", where)
        return [_join(where.get(owner, ""), key) for owner, key in self._dups]


def _index_paths(value: Any, path: str, where: dict[int, str]) -> None:
    if isinstance(value, dict):
        where[id(value)] = path
        for key, item in value.items():
            _index_paths(item, _join(path, key), where)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _index_paths(item, f"{path}[{i}]", where)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def decode_json_or_yaml(body: bytes) -> Decoded:
    """A body that may be YAML but usually is JSON (apply patches: kubectl sends JSON).

    JSON is tried first (fast, and it finds duplicate keys); YAML only when
    that fails, so a YAML error is the one reported.
    """
    try:
        return decode_json(body)
    except errors.StatusError:
        return decode_yaml(body)


# --- YAML ------------------------------------------------------------------------------


_SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when installed


class _Loader(_SafeLoader):
    """SafeLoader for JSON: no timestamps (`2024-01-01` stays a string), and mapping keys as strings.

    Keys become strings while the mapping is built, as sigs.k8s.io/yaml does
    (`1: a` has key "1", `true: b` key "true"); turning them into strings later
    would be too late, since Python's dict already treats 1 and True as one key.
    """

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[str, Any]:
        self.flatten_mapping(node)  # resolves `<<` merge keys
        mapping: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=deep)
            mapping[_json_key(key, key_node)] = self.construct_object(value_node, deep=deep)
        return mapping


def _json_key(key: Any, node: yaml.Node) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, (str, int, float)):
        return str(key)
    raise yaml.constructor.ConstructorError(None, None, "a mapping key must be a scalar", node.start_mark)


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in _SafeLoader.yaml_implicit_resolvers.items()
}


def _expanded_size(node: yaml.Node, memo: dict[int, int]) -> int:
    """Nodes the document would have with every alias expanded (memoised per node)."""
    key = id(node)
    if key in memo:
        return memo[key]
    memo[key] = 1  # a cycle counts once; YAML cannot build one through SafeLoader anyway
    size = 1
    if isinstance(node, yaml.SequenceNode):
        size += sum(_expanded_size(child, memo) for child in node.value)
    elif isinstance(node, yaml.MappingNode):
        size += sum(_expanded_size(k, memo) + _expanded_size(v, memo) for k, v in node.value)
    memo[key] = min(size, MAX_YAML_NODES + 1)
    return memo[key]


def decode_yaml(body: bytes) -> Decoded:
    """Parse one YAML document into JSON-compatible values.

    Raises:
        StatusError: 400 `error converting YAML to JSON: yaml: ...` for bad YAML,
            several documents, alias bombs, or values JSON cannot hold.
    """
    text = _text(body)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return Decoded(None)
        if _expanded_size(node, {}) > MAX_YAML_NODES:
            raise bad_request("error converting YAML to JSON: yaml: document contains excessive aliasing")
        value = loader.construct_document(node)
    except yaml.YAMLError as err:
        raise bad_request(f"error converting YAML to JSON: yaml: {_one_line(err)}") from None
    except RecursionError:
        raise bad_request("error converting YAML to JSON: yaml: exceeded max depth") from None
    finally:
        loader.dispose()
    try:
        value = _to_json(value, "")
    except _NotJSON as err:
        raise bad_request(f"error converting YAML to JSON: yaml: unsupported value at {err}") from None
    return Decoded(value)


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split())


class _NotJSON(Exception):
    """A YAML value JSON cannot hold; the message is its path."""


def _to_json(value: Any, path: str) -> Any:
    """The JSON form of a YAML value: scalar keys become strings (as sigs.k8s.io/yaml does).

    Raises:
        _NotJSON: for values JSON cannot hold (bytes, sets, NaN, ...), naming their path.
    """
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise _NotJSON(path or "<root>")
        return value
    if isinstance(value, list):
        return [_to_json(item, f"{path}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if isinstance(key, bool):
                key = "true" if key else "false"
            elif isinstance(key, (int, float)):
                key = str(key)
            elif key is None:
                key = "null"
            elif not isinstance(key, str):
                raise _NotJSON(_join(path, str(key)))
            out[key] = _to_json(item, _join(path, key))
        return out
    raise _NotJSON(path or "<root>")
