"""Port of k8s.io/apimachinery/pkg/util/validation/field (errors.go, path.go).

The vocabulary of API validation. A `Path` names a field inside an object
(`spec.template.spec.containers[0].image`); an `Error` says what is wrong there
and prints exactly as kube-apiserver prints it, so `kubectl` users see the same
`spec.replicas: Invalid value: -1: must be greater than or equal to 0` from
minikcm. The embedded API server's defaulting and validation
(`minikcm.apiserver.validation`) build `ErrorList`s of these; the server turns
a non-empty list into a 422 Invalid Status.

Start reading at: Error.error_body, then the constructors (invalid, required, ...).

Not ported: the declarative-validation bookkeeping on Error (Origin matching in
tests, CoveredByDeclarative, FromImperative, the alpha/beta stability levels and
the ErrorList methods that filter on them), ErrorMatcher (error_matcher.go),
the PathOption helpers (WithPath/ToPath), TooLongMaxLength (deprecated).
Differs from Go:
- ErrorType values are plain strings (module constants ERROR_TYPE_*); Go's
  ErrorType.String is `error_type_string`.
- `Path.idx` holds what Go calls `index` (the subscript text), because `index`
  is also the name of the method that builds a subscripted path.
- Bad values are JSON wire values (dict, list[Any], str, int, float, bool, None).
  Go renders structs with `json.Marshal` in struct field order; a wire dict has
  no such order, so dicts are rendered with sorted keys (which is what Go does
  for maps). `error_body` reproduces Go's `%v`, `%q` and `json.Marshal` output
  for these types, including the escaping of `<`, `>` and `&`.
- `ErrorList.to_aggregate` returns an `Aggregate` exception (Go:
  utilerrors.Aggregate) or None.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

# --- path.go ------------------------------------------------------------------


class Path:
    """Port of Path (path.go).

    One step of a field path, linked to its parent. A step is either a field
    name (`spec`) or a subscript of the previous step (`[0]`, `[key]`).
    Paths are immutable in practice: `child`, `index` and `key` return new
    steps that point back at this one, so one parent can be shared by many
    children.
    """

    __slots__ = ("name", "idx", "parent")

    def __init__(self, name: str = "", idx: str = "", parent: Path | None = None) -> None:
        self.name = name
        """The field name of this step, or "" when the step is a subscript."""
        self.idx = idx
        """The subscript text (list index or map key) when `name` is "" (Go: index)."""
        self.parent = parent
        """The previous step, or None at the root."""

    def root(self) -> Path:
        """Port of Path.Root (path.go): the first step of this path."""
        p = self
        while p.parent is not None:
            p = p.parent
        return p

    def child(self, name: str, *more_names: str) -> Path:
        """Port of Path.Child (path.go): the path one or more field names below this one."""
        r = new_path(name, *more_names)
        r.root().parent = self
        return r

    def index(self, index: int) -> Path:
        """Port of Path.Index (path.go): this path subscripted by a list index (`[3]`)."""
        return Path(idx=str(index), parent=self)

    def key(self, key: str) -> Path:
        """Port of Path.Key (path.go): this path subscripted by a map key (`[app]`)."""
        return Path(idx=key, parent=self)

    def __str__(self) -> str:
        """Port of Path.String (path.go): `a.b[0].c[key]`."""
        elems: list[Path] = []
        p: Path | None = self
        while p is not None:
            elems.append(p)
            p = p.parent
        out: list[str] = []
        for step in reversed(elems):
            if step.parent is not None and step.name:
                out.append(".")
            out.append(step.name if step.name else f"[{step.idx}]")
        return "".join(out)

    def __repr__(self) -> str:
        return f"Path({str(self)!r})"


def new_path(name: str, *more_names: str) -> Path:
    """Port of NewPath (path.go).

    Builds a root path from one or more field names:
    `new_path("spec", "template")` prints `spec.template`.
    """
    r = Path(name=name)
    for another in more_names:
        r = Path(name=another, parent=r)
    return r


# --- errors.go: types ------------------------------------------------------------

ErrorType = str
"""Port of ErrorType (errors.go): a machine-readable reason; one of the ERROR_TYPE_* values."""

ERROR_TYPE_NOT_FOUND: ErrorType = "FieldValueNotFound"
ERROR_TYPE_REQUIRED: ErrorType = "FieldValueRequired"
ERROR_TYPE_DUPLICATE: ErrorType = "FieldValueDuplicate"
ERROR_TYPE_INVALID: ErrorType = "FieldValueInvalid"
ERROR_TYPE_NOT_SUPPORTED: ErrorType = "FieldValueNotSupported"
ERROR_TYPE_FORBIDDEN: ErrorType = "FieldValueForbidden"
ERROR_TYPE_TOO_LONG: ErrorType = "FieldValueTooLong"
ERROR_TYPE_TOO_MANY: ErrorType = "FieldValueTooMany"
ERROR_TYPE_TOO_FEW: ErrorType = "FieldValueTooFew"
ERROR_TYPE_INTERNAL: ErrorType = "InternalError"
ERROR_TYPE_TYPE_INVALID: ErrorType = "FieldValueTypeInvalid"
ERROR_TYPE_TOO_SHORT: ErrorType = "FieldValueTooShort"

_TYPE_STRINGS = {
    ERROR_TYPE_NOT_FOUND: "Not found",
    ERROR_TYPE_REQUIRED: "Required value",
    ERROR_TYPE_DUPLICATE: "Duplicate value",
    ERROR_TYPE_INVALID: "Invalid value",
    ERROR_TYPE_NOT_SUPPORTED: "Unsupported value",
    ERROR_TYPE_FORBIDDEN: "Forbidden",
    ERROR_TYPE_TOO_LONG: "Too long",
    ERROR_TYPE_TOO_MANY: "Too many",
    ERROR_TYPE_TOO_FEW: "Too few",
    ERROR_TYPE_INTERNAL: "Internal error",
    ERROR_TYPE_TYPE_INVALID: "Invalid value",
    ERROR_TYPE_TOO_SHORT: "Too short",
}


def error_type_string(t: ErrorType) -> str:
    """Port of ErrorType.String (errors.go): the human phrase for an error type ("Invalid value")."""
    known = _TYPE_STRINGS.get(t)
    if known is not None:
        return known
    return f"<unknown error {go_quote(t)}>"


class OmitValueType:
    """Port of OmitValueType (errors.go): a bad value that must not be printed at all."""

    def __repr__(self) -> str:
        return "OMIT_VALUE"


OMIT_VALUE = OmitValueType()
"""Port of omitValue (errors.go): `error_body` prints only the type phrase and detail."""

# Types whose message shows just the phrase and the detail, never the value.
_VALUELESS_TYPES = (
    ERROR_TYPE_REQUIRED,
    ERROR_TYPE_FORBIDDEN,
    ERROR_TYPE_TOO_LONG,
    ERROR_TYPE_TOO_SHORT,
    ERROR_TYPE_INTERNAL,
)
# Types whose message shows the bad value between phrase and detail.
_VALUED_TYPES = (
    ERROR_TYPE_INVALID,
    ERROR_TYPE_TYPE_INVALID,
    ERROR_TYPE_NOT_SUPPORTED,
    ERROR_TYPE_NOT_FOUND,
    ERROR_TYPE_DUPLICATE,
    ERROR_TYPE_TOO_MANY,
    ERROR_TYPE_TOO_FEW,
)


@dataclass
class Error:
    """Port of Error (errors.go).

    One field-level validation failure. `field` is the printed path,
    `bad_value` the offending value (a JSON wire value, an exception for
    internal errors, or OMIT_VALUE), `detail` an optional explanation.
    `str(err)` is the exact line kube-apiserver puts in a 422 response.
    """

    type: ErrorType
    field: str
    bad_value: Any = None
    detail: str = ""
    origin: str = ""
    """Which validation rule produced the error (upstream uses it in tests only)."""

    def error(self) -> str:
        """Port of Error.Error (errors.go): `<field>: <error_body>`."""
        return f"{self.field}: {self.error_body()}"

    def __str__(self) -> str:
        return self.error()

    def error_body(self) -> str:
        """Port of Error.ErrorBody (errors.go): the message without the field path.

        Required/Forbidden/TooLong/TooShort/Internal print only their phrase;
        the others also print the bad value: numbers and booleans as Go's `%v`,
        strings quoted as Go's `%q`, anything else as compact JSON. An unknown
        type prints as an internal error naming it.
        """
        if self.type in _VALUELESS_TYPES:
            s = error_type_string(self.type)
        elif self.type in _VALUED_TYPES:
            if self.bad_value is OMIT_VALUE:
                s = error_type_string(self.type)
            else:
                s = f"{error_type_string(self.type)}: {format_bad_value(self.bad_value)}"
        else:
            unhandled = f"unhandled error code: {error_type_string(self.type)}: please report this"
            s = internal_error(None, ValueError(unhandled)).error_body()
        if self.detail:
            s += f": {self.detail}"
        return s

    def with_origin(self, origin: str) -> Error:
        """Port of Error.WithOrigin (errors.go): record which rule produced the error; returns self."""
        self.origin = origin
        return self


# --- value rendering (Go's fmt and encoding/json, for wire values) -------------------


def format_bad_value(value: Any) -> str:
    """Render a bad value the way ErrorBody does: `%v` for scalars, `%q` for strings, JSON else."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_format_float(value)
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, BaseException):
        # Go marshals an error value as `{}` (no exported fields).
        return "{}"
    try:
        return go_json(value)
    except TypeError:
        return str(value)  # Go: fall back to the Stringer, then %#v


def go_quote(s: str) -> str:
    """Port of strconv.Quote (strconv/quote.go): a double-quoted Go string literal (Go's `%q`).

    Printable characters, including non-ASCII letters, stay as they are;
    quotes and backslashes are escaped, control characters use Go's short
    escapes (`\\n`, `\\t`, ...) or `\\xNN`, other unprintable runes `\\uNNNN`.
    """
    short = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}
    out = ['"']
    for ch in s:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch in short:
            out.append(short[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        elif not ch.isprintable() and ch != " ":
            code = ord(ch)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def go_format_float(f: float) -> str:
    """Go's `%v` for a float64: shortest digits, exponent form below 1e-4 or from 1e21 up.

    For example 2.5 -> "2.5", 100.0 -> "100", 1e-05 -> "1e-05", 1e21 -> "1e+21".
    """
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    if f == 0:
        return "0"
    d = Decimal(repr(f)).normalize()  # the shortest digits that round-trip
    exponent = d.adjusted()
    if -4 <= exponent < 21:
        return format(d, "f")
    sign, digits, _ = d.as_tuple()
    text = "".join(str(x) for x in digits)
    mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
    exp_sign = "-" if exponent < 0 else "+"
    return f"{'-' if sign else ''}{mantissa}e{exp_sign}{abs(exponent):02d}"


def go_json(value: Any) -> str:
    """Compact JSON as Go's json.Marshal writes it for wire values.

    Object keys are sorted, there is no whitespace, and `<`, `>`, `&`,
    U+2028 and U+2029 are escaped as `\\u003c` and so on.

    Raises:
        TypeError: for a value that is not a JSON wire value.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _go_json_float(value)
    if isinstance(value, str):
        return _go_json_string(value)
    if isinstance(value, dict):
        items = (f"{_go_json_string(str(k))}:{go_json(value[k])}" for k in sorted(value, key=str))
        return "{" + ",".join(items) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(go_json(v) for v in value) + "]"
    raise TypeError(f"cannot render {type(value).__name__} as JSON")


def _go_json_float(f: float) -> str:
    # encoding/json: integral values print without a fraction; exponent form
    # outside [1e-6, 1e21) with a cleaned-up exponent (e-7, not e-07).
    if f.is_integer() and abs(f) < 1e21:
        return str(int(f))
    text = repr(f)
    if "e" in text:
        mantissa, _, exp = text.partition("e")
        sign = "-" if exp.startswith("-") else "+"
        return f"{mantissa}e{sign}{exp.lstrip('+-').lstrip('0') or '0'}"
    return text


def _go_json_string(s: str) -> str:
    out = ['"']
    for ch in s:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif code < 0x20 or ch in "<>&" or code in (0x2028, 0x2029):
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# --- errors.go: constructors -------------------------------------------------------


def type_invalid(field: Path | None, value: Any, detail: str) -> Error:
    """Port of TypeInvalid (errors.go): the value does not have the schema's type."""
    return Error(ERROR_TYPE_TYPE_INVALID, _path_string(field), value, detail)


def not_found(field: Path | None, value: Any) -> Error:
    """Port of NotFound (errors.go): a referenced value (a volume name, ...) does not exist."""
    return Error(ERROR_TYPE_NOT_FOUND, _path_string(field), value)


def required(field: Path | None, detail: str) -> Error:
    """Port of Required (errors.go): a value that must be set is empty or missing."""
    return Error(ERROR_TYPE_REQUIRED, _path_string(field), "", detail)


def duplicate(field: Path | None, value: Any) -> Error:
    """Port of Duplicate (errors.go): a value that must be unique appears twice."""
    return Error(ERROR_TYPE_DUPLICATE, _path_string(field), value)


def invalid(field: Path | None, value: Any, detail: str) -> Error:
    """Port of Invalid (errors.go): a malformed value (bad format, out of range, ...)."""
    return Error(ERROR_TYPE_INVALID, _path_string(field), value, detail)


def not_supported(field: Path | None, value: Any, valid_values: Iterable[object] | None) -> Error:
    """Port of NotSupported (errors.go): a value outside an enumeration.

    The detail lists the allowed values, each quoted:
    `supported values: "Always", "Never"`.
    """
    quoted = [go_quote(str(v)) for v in (valid_values or [])]
    detail = "supported values: " + ", ".join(quoted) if quoted else ""
    return Error(ERROR_TYPE_NOT_SUPPORTED, _path_string(field), value, detail)


def forbidden(field: Path | None, detail: str) -> Error:
    """Port of Forbidden (errors.go): a well-formed value that is not allowed here."""
    return Error(ERROR_TYPE_FORBIDDEN, _path_string(field), "", detail)


def too_long(field: Path | None, value: Any, max_length: int) -> Error:
    """Port of TooLong (errors.go): a value longer than `max_length` bytes; the value is not shown."""
    del value  # upstream ignores it too
    if max_length >= 0:
        unit = "byte" if max_length == 1 else "bytes"
        msg = f"may not be more than {max_length} {unit}"
    else:
        msg = "value is too long"
    return Error(ERROR_TYPE_TOO_LONG, _path_string(field), "<value omitted>", msg)


def too_long_characters(field: Path | None, value: str, max_length: int) -> Error:
    """Port of TooLongCharacters (errors.go): like too_long, counting characters instead of bytes."""
    del value
    if max_length >= 0:
        unit = "character" if max_length == 1 else "characters"
        msg = f"may not be more than {max_length} {unit}"
    else:
        msg = "value is too long"
    return Error(ERROR_TYPE_TOO_LONG, _path_string(field), "<value omitted>", msg)


def too_many(field: Path | None, actual_quantity: int, max_quantity: int) -> Error:
    """Port of TooMany (errors.go): a list with more than `max_quantity` items.

    A negative `actual_quantity` means "unknown": the count is left out.
    """
    if max_quantity >= 0:
        unit = "item" if max_quantity == 1 else "items"
        msg = f"must have at most {max_quantity} {unit}"
    else:
        msg = "has too many items"
    actual: Any = actual_quantity if actual_quantity >= 0 else OMIT_VALUE
    return Error(ERROR_TYPE_TOO_MANY, _path_string(field), actual, msg)


def too_few(field: Path | None, actual_quantity: int, min_quantity: int) -> Error:
    """Port of TooFew (errors.go): a list with fewer than `min_quantity` items."""
    if min_quantity >= 0:
        unit = "item" if min_quantity == 1 else "items"
        msg = f"must have at least {min_quantity} {unit}"
    else:
        msg = "has too few items"
    return Error(ERROR_TYPE_TOO_FEW, _path_string(field), actual_quantity, msg)


def too_short(field: Path | None, value: str, min_length: int) -> Error:
    """Port of TooShort (errors.go): a string shorter than `min_length` characters."""
    if min_length >= 0:
        unit = "character" if min_length == 1 else "characters"
        msg = f"must be at least {min_length} {unit}"
    else:
        msg = "value is too short"
    return Error(ERROR_TYPE_TOO_SHORT, _path_string(field), value, msg)


def internal_error(field: Path | None, err: BaseException) -> Error:
    """Port of InternalError (errors.go): a failure that is not the user's input's fault."""
    return Error(ERROR_TYPE_INTERNAL, _path_string(field), err, str(err))


def _path_string(field: Path | None) -> str:
    # Go: (*Path)(nil).String() prints "<nil>".
    return "<nil>" if field is None else str(field)


# --- errors.go: ErrorList ------------------------------------------------------------


class Aggregate(Exception):
    """Port of utilerrors.Aggregate (k8s.io/apimachinery/pkg/util/errors/errors.go).

    Several errors raised as one. The message is the single error's message,
    or `[msg1, msg2]` with repeated messages shown once.
    """

    def __init__(self, errs: list[Any]) -> None:
        self.errs = list(errs)
        super().__init__(self._message())

    def errors(self) -> list[Any]:
        """Port of Aggregate.Errors (pkg/util/errors): the errors inside, in order."""
        return list(self.errs)

    def _message(self) -> str:
        if len(self.errs) == 1:
            return str(self.errs[0])
        seen: list[str] = []
        for err in self.errs:
            msg = str(err)
            if msg not in seen:
                seen.append(msg)
        if len(seen) == 1:
            return seen[0]
        return "[" + ", ".join(seen) + "]"


Matcher = Callable[[Any], bool]
"""Port of utilerrors.Matcher (pkg/util/errors): True when an error matches."""


def new_error_type_matcher(t: ErrorType) -> Matcher:
    """Port of NewErrorTypeMatcher (errors.go): matches field Errors of type `t`."""

    def matches(err: Any) -> bool:
        return isinstance(err, Error) and err.type == t

    return matches


class ErrorList(list[Error]):
    """Port of ErrorList (errors.go): the errors found while validating one object, in order."""

    def to_aggregate(self) -> Aggregate | None:
        """Port of ErrorList.ToAggregate (errors.go): one Aggregate, or None when empty.

        Errors whose message repeats an earlier one are dropped.
        """
        if not self:
            return None
        seen: set[str] = set()
        errs: list[Error] = []
        for err in self:
            msg = str(err)
            if msg in seen:
                continue
            seen.add(msg)
            errs.append(err)
        return Aggregate(errs)

    def filter(self, *fns: Matcher) -> ErrorList:
        """Port of ErrorList.Filter (errors.go): the errors (deduplicated) that match none of `fns`."""
        agg = self.to_aggregate()
        if agg is None:
            return ErrorList()
        return ErrorList(e for e in agg.errors() if not any(fn(e) for fn in fns))

    def with_origin(self, origin: str) -> ErrorList:
        """Port of ErrorList.WithOrigin (errors.go): set the origin of every error; returns self."""
        for err in self:
            err.origin = origin
        return self

    def prefix_detail(self, prefix: str) -> ErrorList:
        """Port of ErrorList.PrefixDetail (errors.go): prepend `prefix` to every detail; returns self."""
        for err in self:
            err.detail = prefix + err.detail
        return self
