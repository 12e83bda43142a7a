"""Port of k8s.io/apimachinery/pkg/util/mergepatch/errors.go.

The errors the strategic merge patch code raises, with upstream's messages,
plus the helpers that print decoded JSON values the way Go's `%v` and
reflect type names would, so the messages read the same.

Start reading at: PatchError.

Not ported: ErrPreconditionFailed and ErrConflict (patch creation and conflict
detection are not ported), util.go (ToYAMLOrError, RequireKeyUnchanged, ...).
Differs from Go: every error is one exception type, PatchError(ValueError);
upstream's sentinel errors become message constants (ERR_*).
"""

from __future__ import annotations

from typing import Any

ERR_BAD_JSON_DOC = "invalid JSON document"
ERR_NO_LIST_OF_LISTS = "lists of lists are not supported"
ERR_BAD_PATCH_FORMAT_FOR_PRIMITIVE_LIST = "invalid patch format of primitive list"
ERR_BAD_PATCH_FORMAT_FOR_RETAIN_KEYS = "invalid patch format of retainKeys"
ERR_BAD_PATCH_FORMAT_FOR_SET_ELEMENT_ORDER_LIST = "invalid patch format of setElementOrder list"
ERR_PATCH_CONTENT_NOT_MATCH_RETAIN_KEYS = "patch content doesn't match retainKeys list"
ERR_UNSUPPORTED_STRATEGIC_MERGE_PATCH_FORMAT = "strategic merge patch format is not supported"


class PatchError(ValueError):
    """A patch that cannot be applied: malformed JSON, a bad directive, a missing merge key, ...

    The API server answers it with a 4xx Status; the message says what is
    wrong with the patch.
    """


def err_no_merge_key(m: dict[str, Any], k: str) -> PatchError:
    """Port of ErrNoMergeKey (errors.go): a list item lacks the list's merge key."""
    return PatchError(f"map: {go_value(m)} does not contain declared merge key: {k}")


def err_bad_arg_type(expected: str, actual: Any) -> PatchError:
    """Port of ErrBadArgType (errors.go); `expected` is the Go type name ("map[string]interface {}")."""
    return PatchError(f"expected a {expected}, but received a {go_type_name(actual)}")


def err_bad_patch_type(t: Any, m: dict[str, Any]) -> PatchError:
    """Port of ErrBadPatchType (errors.go): an unknown `$patch` directive."""
    return PatchError(f"unknown patch type: {go_value(t)} in map: {go_value(m)}")


MAP_TYPE = "map[string]interface {}"
SLICE_TYPE = "[]interface {}"


def value_kind(v: Any) -> str:
    """The Go reflect kind a decoded JSON value would have: map, slice, string, float64, bool or nil."""
    if v is None:
        return "nil"
    if isinstance(v, dict):
        return "map"
    if isinstance(v, list):
        return "slice"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "float64"
    if isinstance(v, str):
        return "string"
    return type(v).__name__


def go_type_name(v: Any) -> str:
    """The Go type name a decoded JSON value would have, for error messages."""
    names = {"map": "map[string]interface {}", "slice": "[]interface {}", "nil": "<nil>"}
    kind = value_kind(v)
    return names.get(kind, kind)


def go_value(v: Any) -> str:
    """Go's `%v` of a decoded JSON value (maps print as `map[k:v]` with sorted keys)."""
    if v is None:
        return "<nil>"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, dict):
        return "map[" + " ".join(f"{k}:{go_value(v[k])}" for k in sorted(v)) + "]"
    if isinstance(v, list):
        return "[" + " ".join(go_value(x) for x in v) + "]"
    return str(v)
