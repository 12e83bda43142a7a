"""No upstream twin. Applying a PATCH body to the current object, after endpoints/handlers/patch.go.

A PATCH is a read, a patch and an update. The server reads the current object
(or Scale) under the store lock, `apply_patch` computes the patched object, and
the registry's update path takes it from there, so defaulting, validation,
optimistic concurrency and generation work as for a PUT. Four patch types:

- JSON merge patch (RFC 7386, `merge_patch` below): maps merge, `null` deletes;
- JSON patch (RFC 6902), through the `jsonpatch` library;
- strategic merge patch, through `minikcm.apiserver.patch`;
- server-side apply (`application/apply-patch+yaml`), simplified: the applied
  configuration is strategic-merged onto the live object, or becomes the object
  when none exists.

Start reading at: apply_patch.

Not ported: managedFields and field ownership (so apply never reports a
conflict and `force` changes nothing), strict field validation, the
maximum-operations limit of JSON patch, CBOR apply.
"""

from __future__ import annotations

import json
from typing import Any

import jsonpatch
import jsonpointer
import yaml

from minikcm.apimachinery import errors, field, types
from minikcm.apimachinery.schema import GroupKind, GroupResource
from minikcm.apiserver import nulls
from minikcm.apiserver.patch import ERR_NO_LIST_OF_LISTS, PatchError, apply_strategic_merge_patch


def validate_patch_options(patch_type: str, field_manager: str, force: bool) -> None:
    """Port of ValidatePatchOptions (apimachinery/pkg/apis/meta/v1/validation/validation.go).

    Apply needs a field manager; force is for apply only.

    Raises:
        StatusError: 415 for an unknown patch type, 422 on PatchOptions otherwise.
    """
    if patch_type not in types.PATCH_TYPES:
        raise errors.new_generic_server_response(
            415, "PATCH", GroupResource("", ""), "",
            "the body of the request was in an unknown format - accepted media types include: "
            f"{', '.join(types.PATCH_TYPES)}", 0, False)
    errs: list[field.Error] = []
    if patch_type == types.APPLY_PATCH_TYPE:
        if not field_manager:
            errs.append(field.required(field.new_path("fieldManager"), "is required for apply patch"))
    elif force:
        errs.append(field.forbidden(field.new_path("force"), "may not be specified for non-apply patch"))
    if errs:
        raise errors.new_invalid(GroupKind("meta.k8s.io", "PatchOptions"), "", errs)


def decode_body(patch_type: str, body: Any) -> Any:
    """Parse a PATCH body (bytes or str; parsed JSON passes through). Apply bodies may be YAML.

    Raises:
        StatusError: BadRequest when the body does not parse.
    """
    if isinstance(body, (bytes, bytearray)):
        try:
            body = body.decode("utf-8")
        except UnicodeDecodeError as err:
            raise errors.new_bad_request(f"the request body is not valid UTF-8: {err}") from None
    if not isinstance(body, str):
        return body
    try:
        if patch_type == types.APPLY_PATCH_TYPE:
            return yaml.safe_load(body)
        return json.loads(body)
    except (json.JSONDecodeError, yaml.YAMLError) as err:
        prefix = "error decoding YAML" if patch_type == types.APPLY_PATCH_TYPE else "error decoding patch"
        raise errors.new_bad_request(f"{prefix}: {err}") from err


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON merge patch (Go: jsonpatch.MergePatch): a new value, inputs unchanged.

    A map patch merges key by key, `null` removes a key, anything else replaces.

    >>> merge_patch({"a": 1, "b": {"c": 2}}, {"b": {"c": None, "d": 3}})
    {'a': 1, 'b': {'d': 3}}
    """
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def _json_patch(current: dict[str, Any], patch: Any) -> Any:
    if not isinstance(patch, list):
        raise errors.new_bad_request("json: cannot unmarshal object into Go value of type jsonpatch.Patch")
    try:
        ops = jsonpatch.JsonPatch(patch)
    except (jsonpatch.InvalidJsonPatch, TypeError) as err:
        raise errors.new_bad_request(str(err)) from err
    except jsonpointer.JsonPointerException as err:  # Go finds a bad path only when applying: 422
        raise errors.new_generic_server_response(
            422, "", GroupResource("", ""), "", str(err), 0, False) from err
    try:
        return ops.apply(current)
    except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException, KeyError,
            IndexError, TypeError, AttributeError, ValueError) as err:
        raise errors.new_generic_server_response(
            422, "", GroupResource("", ""), "", str(err), 0, False) from err


def _strategic_merge_patch(current: dict[str, Any], patch: Any, kind: str) -> dict[str, Any]:
    """Port of strategicPatchObject (apiserver/pkg/endpoints/handlers/patch.go).

    With interpretStrategicMergePatchError: malformed patches are 400, list-of-list ones 422.
    """
    if not isinstance(patch, dict):
        raise errors.new_bad_request("invalid JSON document")
    try:
        return apply_strategic_merge_patch(current, patch, kind)
    except PatchError as err:
        if str(err).startswith(ERR_NO_LIST_OF_LISTS):
            raise errors.new_generic_server_response(
                422, "", GroupResource("", ""), "", str(err), 0, False) from err
        raise errors.new_bad_request(str(err)) from err


def apply_patch(patch_type: str, current: dict[str, Any], patch: Any, kind: str,
                model: str = "") -> dict[str, Any]:
    """Port of patcher.applyPatch (apiserver/pkg/endpoints/handlers/patch.go).

    The patched object, ready for the update path.

    `current` is not changed. `kind` picks the strategic-merge schema (for the
    scale subresource it is "Scale"). With `model` (the client model class
    name), the result is decoded into that type as Go decodes the patched JSON
    (minikcm.apiserver.nulls.type_error).

    Raises:
        StatusError: BadRequest for a malformed patch, 422 for one that cannot
            apply, that does not yield an object, or whose result does not
            decode (a wrong JSON type, a bad quantity: Invalid on `patch`).
    """
    if patch_type == types.MERGE_PATCH_TYPE:
        result = merge_patch(current, patch)
    elif patch_type == types.JSON_PATCH_TYPE:
        result = _json_patch(current, patch)
    else:  # strategic merge, and server-side apply (simplified, see the module docstring)
        result = _strategic_merge_patch(current, patch, kind)
    if not isinstance(result, dict):
        raise errors.new_invalid(GroupKind("", ""), "", [field.invalid(
            field.new_path("patch"), json.dumps(result), "the patched document is not an object")])
    if model:
        reason = nulls.type_error(result, model)
        if reason:
            shown = json.dumps(patch, separators=(",", ":"), sort_keys=True)
            raise errors.new_invalid(GroupKind("", ""), "", [field.invalid(field.new_path("patch"), shown, reason)])
    return result
