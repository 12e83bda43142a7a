"""No upstream twin. Field validation (`?fieldValidation=Strict|Warn|Ignore`) and type checks of bodies.

kube-apiserver decodes a body into its Go type. Fields the type does not have
are unknown: with `Strict` the request fails with a "strict decoding error",
with `Warn` (the default) the server answers with a `Warning:` header for each,
with `Ignore` it drops them silently; in all three cases they are never stored.
A value of the wrong JSON type (a string where an integer belongs) always fails.
The embedded APIServer stores wire dicts and checks neither, so the HTTP front
does it here, against the type tree of `minikcm.apiserver.http.schemas`, before
the APIServer sees the body:

- create and update bodies (endpoints/handlers/create.go, update.go): errors are
  400 `<Kind> in version "<v>" cannot be handled as a <Kind>: <reason>`;
- merge, strategic-merge and apply patches (endpoints/handlers/patch.go): errors
  are 422 Invalid on the field `patch`; `$`-directives of strategic merge
  patches (`$patch`, `$setElementOrder/...`, `$retainKeys`, ...) are allowed;
- JSON patches: each operation's path and value are checked against the type.

The pruning also normalises numbers in resource.Quantity fields to strings
(`cpu: 1` -> `"1"`), as decoding into a Quantity does.

Start reading at: validate_object, validate_patch.

Differs from upstream: a merge or strategic patch is checked as written, not
after it is applied (an unknown field can only come from the patch, since the
stored object has none); duplicate keys are found in JSON bodies only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field as dataclass_field
from decimal import Decimal
from typing import Any

from minikcm.apimachinery import errors, field, types
from minikcm.apimachinery.schema import GroupKind
from minikcm.apiserver.http import schemas
from minikcm.apiserver.http.schemas import FieldType

STRICT = "Strict"
WARN = "Warn"
IGNORE = "Ignore"
DIRECTIVES = ("", IGNORE, STRICT, WARN)


def parse_directive(value: str | None, options_kind: str) -> str:
    """Port of fieldValidation (apiserver/pkg/endpoints/handlers/rest.go), plus its validation.

    "" means Warn, as upstream defaults it.

    Raises:
        StatusError: 422 on `<options_kind>.meta.k8s.io` for any other value.
    """
    value = value or ""
    if value not in DIRECTIVES:
        err = field.not_supported(field.new_path("fieldValidation"), value, list(DIRECTIVES))
        raise errors.new_invalid(GroupKind("meta.k8s.io", options_kind), "", [err])
    return value or WARN


@dataclass
class Findings:
    """What one walk over a body found."""

    strict: list[str] = dataclass_field(default_factory=list)
    """Strict decoding errors: `unknown field "spec.foo"`, `duplicate field "x"`."""
    type_errors: list[str] = dataclass_field(default_factory=list)
    """Go decoding errors: `json: cannot unmarshal string into Go struct field ...`."""


_JSON_TYPE = {str: "string", bool: "bool", int: "number", float: "number", list: "array",
              dict: "object"}


def _json_type(value: Any) -> str:
    return _JSON_TYPE.get(type(value), "value")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


class _Walker:
    """One walk: prunes unknown fields into `findings`, returns the cleaned value."""

    def __init__(self, patch: bool) -> None:
        self.patch = patch
        self.findings = Findings()

    def value(self, value: Any, ftype: FieldType, path: str, owner: str) -> Any:
        if value is None:
            return None  # Go: null decodes to the zero value; in patches it deletes
        kind = ftype.kind
        if kind == schemas.MODEL:
            return self.model(value, ftype.model, path, owner)
        if kind == schemas.LIST:
            if not isinstance(value, list):
                return self.mismatch(value, ftype, path, owner)
            assert ftype.item is not None
            return [self.value(v, ftype.item, f"{path}[{i}]", owner) for i, v in enumerate(value)]
        if kind == schemas.MAP:
            if not isinstance(value, dict):
                return self.mismatch(value, ftype, path, owner)
            assert ftype.item is not None
            return {k: self.value(v, ftype.item, _join(path, k), owner) for k, v in value.items()}
        return self.scalar(value, ftype, path, owner)

    def model(self, value: Any, name: str, path: str, owner: str) -> Any:
        schema = schemas.model_schema(name)
        if not isinstance(value, dict):
            return self.mismatch(value, FieldType(schemas.MODEL, model=schema.go_name), path, owner)
        out: dict[str, Any] = {}
        for key, item in value.items():
            if self.patch and key.startswith("$"):
                out[key] = item  # strategic merge patch directive
            elif key in schema.fields:
                out[key] = self.value(item, schema.fields[key], _join(path, key), schema.go_name)
            else:
                self.findings.strict.append(f'unknown field "{_join(path, key)}"')
        return out

    def scalar(self, value: Any, ftype: FieldType, path: str, owner: str) -> Any:
        kind = ftype.kind
        if kind == schemas.ANY:
            return value
        if kind == schemas.QUANTITY and isinstance(value, (int, float)) and not isinstance(value, bool):
            return format_quantity(value)
        ok = {
            schemas.STRING: isinstance(value, str),
            schemas.DATETIME: isinstance(value, str),
            schemas.QUANTITY: isinstance(value, str),
            schemas.BOOLEAN: isinstance(value, bool),
            schemas.INTEGER: isinstance(value, int) and not isinstance(value, bool),
            schemas.INT_OR_STRING: isinstance(value, (int, str)) and not isinstance(value, bool),
        }.get(kind, True)
        return value if ok else self.mismatch(value, ftype, path, owner)

    def mismatch(self, value: Any, ftype: FieldType, path: str, owner: str) -> Any:
        where = f"Go struct field {owner}.{path}" if owner else "Go value"
        self.findings.type_errors.append(
            f"json: cannot unmarshal {_json_type(value)} into {where} of type {ftype}")
        return None


def format_quantity(number: int | float) -> str:
    """The canonical string of a numeric resource.Quantity: 1 -> "1", 0.5 -> "500m", 1.25 -> "1250m"."""
    if isinstance(number, int) or float(number).is_integer():
        return str(int(number))
    milli = Decimal(repr(number)) * 1000
    if milli == milli.to_integral_value():
        return f"{int(milli)}m"
    return format(Decimal(repr(number)).normalize(), "f")


def walk_object(value: Any, model: str, patch: bool = False) -> tuple[Any, Findings]:
    """Prune `value` against `model`; returns the cleaned value and what was found."""
    walker = _Walker(patch)
    return walker.value(value, FieldType(schemas.MODEL, model=model), "", ""), walker.findings


def strict_message(strict: list[str]) -> str:
    """Port of StrictDecodingError.Error (apimachinery/pkg/runtime/error.go)."""
    return "strict decoding error: " + ", ".join(strict)


# --- create and update --------------------------------------------------------------------


@dataclass
class Checked:
    """A body after field validation: the value to send on, and the warnings for the client."""

    value: Any
    warnings: list[str] = dataclass_field(default_factory=list)


def validate_object(body: Any, model: str, kind: str, version: str, directive: str,
                    duplicates: list[str] | None = None) -> Checked:
    """Field validation of a create or update body (see the module docstring).

    Raises:
        StatusError: 400 for a body that is not an object, a wrong type, or
            (Strict) unknown and duplicate fields.
    """
    if not isinstance(body, dict):
        raise errors.new_bad_request(
            f"the object provided is unrecognized (must be of type {kind}): "
            f"json: cannot unmarshal {_json_type(body)} into Go value of type {kind}")
    body_kind = body.get("kind") if isinstance(body.get("kind"), str) and body.get("kind") else kind
    value, found = walk_object(body, model)
    found.strict[:0] = [f'duplicate field "{d}"' for d in duplicates or []]

    def cannot_handle(reason: str) -> errors.StatusError:
        return errors.new_bad_request(
            f'{body_kind} in version "{version}" cannot be handled as a {kind}: {reason}')

    if found.type_errors:
        raise cannot_handle(found.type_errors[0])
    if found.strict and directive == STRICT:
        raise cannot_handle(strict_message(found.strict))
    return Checked(value, found.strict if directive == WARN else [])


# --- patches ------------------------------------------------------------------------------


def _patch_invalid(patch: Any, detail: str) -> errors.StatusError:
    shown = json.dumps(patch, separators=(",", ":"), sort_keys=True)
    return errors.new_invalid(GroupKind("", ""), "", [field.invalid(field.new_path("patch"), shown, detail)])


def validate_patch(patch: Any, patch_type: str, model: str, directive: str,
                   duplicates: list[str] | None = None) -> Checked:
    """Field validation of a PATCH body (see the module docstring).

    Bodies of the wrong overall shape (a JSON patch that is not a list, ...)
    pass through unchanged: the patcher rejects them with its own message.

    Raises:
        StatusError: 422 Invalid on `patch` for wrong types, and (Strict) for
            unknown or duplicate fields.
    """
    if patch_type == types.JSON_PATCH_TYPE:
        if not isinstance(patch, list):
            return Checked(patch)
        value, found = _walk_json_patch(patch, model)
    elif isinstance(patch, dict):
        value, found = walk_object(patch, model, patch=patch_type != types.MERGE_PATCH_TYPE)
    else:
        return Checked(patch)
    found.strict[:0] = [f'duplicate field "{d}"' for d in duplicates or []]
    if found.type_errors:
        raise _patch_invalid(patch, found.type_errors[0])
    if found.strict and directive == STRICT:
        raise _patch_invalid(patch, strict_message(found.strict))
    return Checked(value, found.strict if directive == WARN else [])


_WRITING_OPS = ("add", "replace", "copy", "move")


def _walk_json_patch(ops: list[Any], model: str) -> tuple[list[Any], Findings]:
    """Check each JSON patch operation: its target path must exist in the type, its value fit it.

    An add/replace/copy/move to an unknown field is dropped (as decoding
    would drop the field it creates); other operations pass unchanged.
    """
    walker = _Walker(patch=False)
    kept: list[Any] = []
    for op in ops:
        if not (isinstance(op, dict) and isinstance(op.get("path"), str)):
            kept.append(op)
            continue
        ftype, dotted, owner, unknown = resolve_pointer(op["path"], model)
        if unknown:
            walker.findings.strict.append(f'unknown field "{unknown}"')
            if op.get("op") in _WRITING_OPS:
                continue
            kept.append(op)
            continue
        if "value" in op and ftype is not None and op.get("op") in ("add", "replace", "test"):
            op = dict(op, value=walker.value(op["value"], ftype, dotted, owner))
        kept.append(op)
    return kept, walker.findings


def resolve_pointer(pointer: str, model: str) -> tuple[FieldType | None, str, str, str]:
    """Follow a JSON pointer through the type tree.

    Returns (type at the pointer or None when untyped, dotted path, owning Go
    struct, dotted path of the first unknown field or "").
    """
    ftype: FieldType | None = FieldType(schemas.MODEL, model=model)
    dotted, owner = "", ""
    tokens = pointer.split("/")[1:] if pointer.startswith("/") else []
    for raw in tokens:
        token = raw.replace("~1", "/").replace("~0", "~")
        if ftype is None or ftype.kind in (schemas.ANY, schemas.INT_OR_STRING):
            return None, dotted, owner, ""
        if ftype.kind == schemas.MODEL:
            schema = schemas.model_schema(ftype.model)
            if token not in schema.fields:
                return None, dotted, owner, _join(dotted, token)
            owner, ftype, dotted = schema.go_name, schema.fields[token], _join(dotted, token)
        elif ftype.kind == schemas.LIST:
            ftype, dotted = ftype.item, f"{dotted}[{token}]"
        elif ftype.kind == schemas.MAP:
            ftype, dotted = ftype.item, _join(dotted, token)
        else:
            return None, dotted, owner, ""
    return ftype, dotted, owner, ""
