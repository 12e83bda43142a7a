"""Port of the generic validation helpers of k8s.io/apimachinery.

Four upstream places share the last path element `validation`, so they share
this module (PORTING.md section 2):

- pkg/util/validation/validation.go and pkg/api/validate/content (dns.go,
  kube.go, errors.go): string checks that return messages (`is_dns1123_label`,
  `is_qualified_name`, `is_valid_label_value`, ...);
- pkg/api/validation (generic.go, objectmeta.go): name checks and
  `validate_object_meta` / `validate_object_meta_update`;
- pkg/apis/meta/v1/validation/validation.go: labels and label selectors.

Docstrings name them for short as util/validation, content/<file>.go,
generic.go, objectmeta.go and meta/v1/validation.

The embedded API server's per-kind validation (minikcm.apiserver.validation)
builds on these. Objects are wire dicts, so ObjectMeta is the `metadata` dict.

Start reading at: validate_object_meta, then validate_object_meta_update.

Not ported: managedFields validation, the `...WithOpts` variants, field
selectors, delete/create/patch options validation, IP and CIDR checks,
wildcard and domain-prefixed names.
Differs from Go:
- Go ranges over label and annotation maps in random order; we go in sorted
  key order, so error lists are stable.
- validate_object_meta accepts an empty name when generateName is set: our
  server names the object after validating it, upstream before.
- apiequality.Semantic.DeepEqual is approximated on wire values by
  semantic_deep_equal (missing keys and zero values compare equal).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from minikcm.apimachinery import field
from minikcm.apimachinery.field import ErrorList, Path

# --- error message builders (util/validation and api/validate/content) --------------------


def max_len_error(length: int) -> str:
    """Port of MaxLenError (util/validation): counts characters."""
    return f"must be no more than {length} characters"


def content_max_len_error(length: int) -> str:
    """Port of content.MaxLenError (content/errors.go): counts bytes."""
    return f"must be no more than {length} bytes"


def regex_error(msg: str, fmt: str, *examples: str) -> str:
    """Port of RegexError (util/validation): the message, examples and the regex used."""
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    quoted = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {quoted}regex used for validation is '{fmt}')"


def empty_error() -> str:
    """Port of EmptyError (util/validation)."""
    return "must be non-empty"


def inclusive_range_error(lo: int, hi: int) -> str:
    """Port of InclusiveRangeError (util/validation)."""
    return f"must be between {lo} and {hi}, inclusive"


# --- DNS names ----------------------------------------------------------------------------

DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_LABEL_ERR_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
    "and must start and end with an alphanumeric character"
)
DNS1123_LABEL_MAX_LENGTH = 63
DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*"
DNS1123_SUBDOMAIN_ERROR_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character"
)
DNS1123_SUBDOMAIN_MAX_LENGTH = 253
DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?"
DNS1035_LABEL_ERR_MSG = (
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', "
    "start with an alphabetic character, and end with an alphanumeric character"
)
DNS1035_LABEL_MAX_LENGTH = 63

_DNS1123_LABEL = re.compile(DNS1123_LABEL_FMT)
_DNS1123_SUBDOMAIN = re.compile(DNS1123_SUBDOMAIN_FMT)
_DNS1035_LABEL = re.compile(DNS1035_LABEL_FMT)


def is_dns1123_label(value: str) -> list[str]:
    """Port of IsDNS1123Label (util/validation): a lower-case RFC 1123 label of at most 63 characters.

    A value that would be a valid subdomain gets the shorter message
    "must not contain dots".
    """
    errs: list[str] = []
    if len(value.encode()) > DNS1123_LABEL_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_LABEL_MAX_LENGTH))
    if not _DNS1123_LABEL.fullmatch(value):
        if _DNS1123_SUBDOMAIN.fullmatch(value):
            errs.append("must not contain dots")
        else:
            errs.append(regex_error(DNS1123_LABEL_ERR_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"))
    return errs


def is_dns1123_subdomain(value: str) -> list[str]:
    """Port of IsDNS1123Subdomain (util/validation): dot-separated labels, at most 253 characters."""
    return _is_dns1123_subdomain(value, max_len_error)


def content_is_dns1123_subdomain(value: str) -> list[str]:
    """Port of content.IsDNS1123Subdomain (content/dns.go): the same check, length counted in bytes."""
    return _is_dns1123_subdomain(value, content_max_len_error)


def _is_dns1123_subdomain(value: str, too_long: Callable[[int], str]) -> list[str]:
    errs: list[str] = []
    if len(value.encode()) > DNS1123_SUBDOMAIN_MAX_LENGTH:
        errs.append(too_long(DNS1123_SUBDOMAIN_MAX_LENGTH))
    if not _DNS1123_SUBDOMAIN.fullmatch(value):
        errs.append(regex_error(DNS1123_SUBDOMAIN_ERROR_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def is_dns1035_label(value: str) -> list[str]:
    """Port of IsDNS1035Label (util/validation): like a DNS-1123 label, but starting with a letter."""
    errs: list[str] = []
    if len(value.encode()) > DNS1035_LABEL_MAX_LENGTH:
        errs.append(max_len_error(DNS1035_LABEL_MAX_LENGTH))
    if not _DNS1035_LABEL.fullmatch(value):
        errs.append(regex_error(DNS1035_LABEL_ERR_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123"))
    return errs


# --- label keys and values (api/validate/content/kube.go) -----------------------------------

LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
LABEL_KEY_ERR_MSG = (
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
)
LABEL_KEY_MAX_LENGTH = 63
LABEL_VALUE_FMT = "(" + LABEL_KEY_FMT + ")?"
LABEL_VALUE_ERR_MSG = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character"
)
LABEL_VALUE_MAX_LENGTH = 63

_LABEL_KEY = re.compile(LABEL_KEY_FMT)
_LABEL_VALUE = re.compile(LABEL_VALUE_FMT)


def is_qualified_name(value: str) -> list[str]:
    """Port of IsQualifiedName (content/kube.go, as IsLabelKey): `[prefix/]name`.

    The name part is at most 63 characters of [A-Za-z0-9_.-] starting and
    ending alphanumeric; the optional prefix is a DNS-1123 subdomain.
    """
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part " + empty_error())
        else:
            errs.extend("prefix part " + m for m in content_is_dns1123_subdomain(prefix))
    else:
        return [
            "a valid label key "
            + regex_error(LABEL_KEY_ERR_MSG, LABEL_KEY_FMT, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errs.append("name part " + empty_error())
    elif len(name) > LABEL_KEY_MAX_LENGTH:
        errs.append("name part " + content_max_len_error(LABEL_KEY_MAX_LENGTH))
    if not _LABEL_KEY.fullmatch(name):
        errs.append("name part " + regex_error(LABEL_KEY_ERR_MSG, LABEL_KEY_FMT, "MyName", "my.name", "123-abc"))
    return errs


def is_valid_label_value(value: str) -> list[str]:
    """Port of IsValidLabelValue (content/kube.go, as IsLabelValue): empty, or at most 63 label characters."""
    errs: list[str] = []
    if len(value) > LABEL_VALUE_MAX_LENGTH:
        errs.append(content_max_len_error(LABEL_VALUE_MAX_LENGTH))
    if not _LABEL_VALUE.fullmatch(value):
        errs.append(regex_error(LABEL_VALUE_ERR_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errs


# --- ports, percentages, environment variables (util/validation) -----------------------------

_PORT_NAME_CHARSET = re.compile("[-a-z0-9]+")
_PORT_NAME_ONE_LETTER = re.compile("[a-z]")
PERCENT_FMT = "[0-9]+%"
PERCENT_ERR_MSG = "a valid percent string must be a numeric string followed by an ending '%'"
_PERCENT = re.compile(PERCENT_FMT)
ENV_VAR_NAME_FMT = "[-._a-zA-Z][-._a-zA-Z0-9]*"
ENV_VAR_NAME_FMT_ERR_MSG = (
    "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', "
    "and must not start with a digit"
)
_ENV_VAR_NAME = re.compile(ENV_VAR_NAME_FMT)


def is_valid_port_num(port: int) -> list[str]:
    """Port of IsValidPortNum (util/validation): 1 to 65535."""
    if 1 <= port <= 65535:
        return []
    return [inclusive_range_error(1, 65535)]


def is_valid_port_name(port: str) -> list[str]:
    """Port of IsValidPortName (util/validation): an IANA_SVC_NAME (at most 15 of [-a-z0-9], one letter, ...)."""
    errs: list[str] = []
    if len(port) > 15:
        errs.append(max_len_error(15))
    if not _PORT_NAME_CHARSET.fullmatch(port):
        errs.append("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
    if not _PORT_NAME_ONE_LETTER.search(port):
        errs.append("must contain at least one letter (a-z)")
    if "--" in port:
        errs.append("must not contain consecutive hyphens")
    if port and (port[0] == "-" or port[-1] == "-"):
        errs.append("must not begin or end with a hyphen")
    return errs


def is_valid_percent(percent: str) -> list[str]:
    """Port of IsValidPercent (util/validation): digits followed by '%'."""
    if not _PERCENT.fullmatch(percent):
        return [regex_error(PERCENT_ERR_MSG, PERCENT_FMT, "1%", "93%")]
    return []


def is_env_var_name(value: str) -> list[str]:
    """Port of IsEnvVarName (util/validation): a C-like identifier that may also hold '-' and '.'."""
    errs: list[str] = []
    if not _ENV_VAR_NAME.fullmatch(value):
        errs.append(regex_error(ENV_VAR_NAME_FMT_ERR_MSG, ENV_VAR_NAME_FMT, "my.env-name", "MY_ENV.NAME", "MyEnvName1"))
    errs.extend(has_ch_dir_prefix(value))
    return errs


def has_ch_dir_prefix(value: str) -> list[str]:
    """Port of hasChDirPrefix (util/validation): refuse ".", ".." and a leading ".."."""
    if value == ".":
        return ["must not be '.'"]
    if value == "..":
        return ["must not be '..'"]
    if value.startswith(".."):
        return ["must not start with '..'"]
    return []


# --- names (api/validation/generic.go) ------------------------------------------------------

IS_NEGATIVE_ERROR_MSG = "must be greater than or equal to 0"

ValidateNameFunc = Callable[[str, bool], list[str]]
"""Port of ValidateNameFunc (generic.go): (name, is_prefix) -> messages."""


def mask_trailing_dash(name: str) -> str:
    """Port of maskTrailingDash (generic.go): a generateName prefix may end in '-'."""
    if len(name) > 1 and name.endswith("-"):
        return name[:-2] + "a"
    return name


def name_is_dns_subdomain(name: str, prefix: bool) -> list[str]:
    """Port of NameIsDNSSubdomain (generic.go)."""
    return is_dns1123_subdomain(mask_trailing_dash(name) if prefix else name)


def name_is_dns_label(name: str, prefix: bool) -> list[str]:
    """Port of NameIsDNSLabel (generic.go)."""
    return is_dns1123_label(mask_trailing_dash(name) if prefix else name)


def name_is_dns1035_label(name: str, prefix: bool) -> list[str]:
    """Port of NameIsDNS1035Label (generic.go)."""
    return is_dns1035_label(mask_trailing_dash(name) if prefix else name)


validate_namespace_name = name_is_dns_label
"""Port of ValidateNamespaceName (generic.go)."""


def validate_nonnegative_field(value: int, fld_path: Path) -> ErrorList:
    """Port of ValidateNonnegativeField (generic.go): `value` must be >= 0."""
    errs = ErrorList()
    if value < 0:
        errs.append(field.invalid(fld_path, value, IS_NEGATIVE_ERROR_MSG).with_origin("minimum"))
    return errs


# --- object meta (api/validation/objectmeta.go) ----------------------------------------------

FIELD_IMMUTABLE_ERROR_MSG = "field is immutable"
TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * (1 << 10)
FINALIZER_ORPHAN_DEPENDENTS = "orphan"
FINALIZER_DELETE_DEPENDENTS = "foregroundDeletion"


def validate_annotations(annotations: dict[str, str] | None, fld_path: Path) -> ErrorList:
    """Port of ValidateAnnotations (objectmeta.go): qualified-name keys (case-insensitive), 256 KiB in total."""
    errs = ErrorList()
    annotations = annotations or {}
    for k in sorted(annotations):
        for msg in is_qualified_name(k.lower()):
            errs.append(field.invalid(fld_path, k, msg))
    total = sum(len(k.encode()) + len(str(v).encode()) for k, v in annotations.items())
    if total > TOTAL_ANNOTATION_SIZE_LIMIT_B:
        errs.append(field.too_long(fld_path, "", TOTAL_ANNOTATION_SIZE_LIMIT_B))
    return errs


def validate_owner_references(owner_references: list[dict[str, Any]] | None, fld_path: Path) -> ErrorList:
    """Port of ValidateOwnerReferences (objectmeta.go): each reference complete, at most one controller."""
    errs = ErrorList()
    first_controller = ""
    for ref in owner_references or []:
        errs.extend(validate_owner_reference(ref, fld_path))
        if ref.get("controller"):
            current = f"{ref.get('kind', '')}/{ref.get('name', '')}"
            if first_controller:
                errs.append(
                    field.invalid(
                        fld_path,
                        owner_references,
                        'Only one reference can have Controller set to true. Found "true" in references '
                        f"for {first_controller} and {current}",
                    )
                )
            else:
                first_controller = current
    return errs


def validate_owner_reference(ref: dict[str, Any], fld_path: Path) -> ErrorList:
    """Port of validateOwnerReference (objectmeta.go): apiVersion with a version, kind, name and uid set."""
    errs = ErrorList()
    api_version = ref.get("apiVersion") or ""
    version = api_version.rsplit("/", 1)[-1] if api_version else ""
    if not version:
        errs.append(field.invalid(fld_path.child("apiVersion"), api_version, "version must not be empty"))
    kind = ref.get("kind") or ""
    if not kind:
        errs.append(field.invalid(fld_path.child("kind"), kind, "must not be empty"))
    if not ref.get("name"):
        errs.append(field.invalid(fld_path.child("name"), ref.get("name") or "", "must not be empty"))
    if not ref.get("uid"):
        errs.append(field.invalid(fld_path.child("uid"), ref.get("uid") or "", "must not be empty"))
    if api_version == "v1" and kind == "Event":
        errs.append(field.invalid(fld_path, ref, "/v1, Kind=Event is disallowed from being an owner"))
    return errs


def validate_finalizers(finalizers: list[str] | None, fld_path: Path) -> ErrorList:
    """Port of ValidateFinalizers (objectmeta.go): qualified names; orphan and foregroundDeletion exclusive."""
    errs = ErrorList()
    finalizers = finalizers or []
    for finalizer in finalizers:
        for msg in is_qualified_name(finalizer):
            errs.append(field.invalid(fld_path, finalizer, msg))
    if FINALIZER_ORPHAN_DEPENDENTS in finalizers and FINALIZER_DELETE_DEPENDENTS in finalizers:
        errs.append(
            field.invalid(
                fld_path,
                finalizers,
                f"finalizer {FINALIZER_ORPHAN_DEPENDENTS} and {FINALIZER_DELETE_DEPENDENTS} cannot be both set",
            )
        )
    return errs


def validate_immutable_field(new_val: Any, old_val: Any, fld_path: Path) -> ErrorList:
    """Port of ValidateImmutableField (objectmeta.go): `new_val` must equal `old_val` (semantically)."""
    errs = ErrorList()
    if not semantic_deep_equal(old_val, new_val):
        errs.append(field.invalid(fld_path, new_val, FIELD_IMMUTABLE_ERROR_MSG))
    return errs


def semantic_deep_equal(a: Any, b: Any) -> bool:
    """Stands in for apiequality.Semantic.DeepEqual (k8s.io/apimachinery/pkg/api/equality) on wire values.

    A Go struct always holds every field, so a key missing from a wire dict
    means the zero value; and Semantic.DeepEqual treats nil and empty slices
    and maps alike. So keys whose value is None, "", 0, False, {} or [] are
    ignored on both sides before comparing.
    """
    return bool(_drop_zero_values(a) == _drop_zero_values(b))


def _drop_zero_values(v: Any) -> Any:
    if isinstance(v, dict):
        out = {k: _drop_zero_values(x) for k, x in v.items()}
        return {k: x for k, x in out.items() if not _is_zero(x)}
    if isinstance(v, list):
        return [_drop_zero_values(x) for x in v]
    return v


def _is_zero(v: Any) -> bool:
    return v is None or v is False or (not isinstance(v, bool) and v in (0, "")) or v == {} or v == []


def validate_object_meta(
    meta: dict[str, Any] | None, requires_namespace: bool, name_fn: ValidateNameFunc, fld_path: Path
) -> ErrorList:
    """Port of ValidateObjectMeta / ValidateObjectMetaAccessor (objectmeta.go).

    Name (or generateName) valid per `name_fn`; namespace required for
    namespaced kinds and forbidden for cluster-scoped ones; generation not
    negative; labels, annotations, owner references and finalizers valid.

    Differs from Go: an empty name with a generateName is accepted (the
    server generates the name after validating; upstream generates it before).
    """
    meta = meta or {}
    errs = ErrorList()
    generate_name = meta.get("generateName") or ""
    name = meta.get("name") or ""
    if generate_name:
        for msg in name_fn(generate_name, True):
            errs.append(field.invalid(fld_path.child("generateName"), generate_name, msg))
    if not name:
        if not generate_name:
            errs.append(field.required(fld_path.child("name"), "name or generateName is required"))
    else:
        for msg in name_fn(name, False):
            errs.append(field.invalid(fld_path.child("name"), name, msg))

    namespace = meta.get("namespace") or ""
    if requires_namespace:
        if not namespace:
            errs.append(field.required(fld_path.child("namespace"), ""))
        else:
            for msg in validate_namespace_name(namespace, False):
                errs.append(field.invalid(fld_path.child("namespace"), namespace, msg))
    elif namespace:
        errs.append(field.forbidden(fld_path.child("namespace"), "not allowed on this type"))

    errs.extend(validate_nonnegative_field(meta.get("generation") or 0, fld_path.child("generation")))
    errs.extend(validate_labels(meta.get("labels"), fld_path.child("labels")))
    errs.extend(validate_annotations(meta.get("annotations"), fld_path.child("annotations")))
    errs.extend(validate_owner_references(meta.get("ownerReferences"), fld_path.child("ownerReferences")))
    errs.extend(validate_finalizers(meta.get("finalizers"), fld_path.child("finalizers")))
    return errs


def validate_object_meta_update(
    new_meta: dict[str, Any] | None, old_meta: dict[str, Any] | None, fld_path: Path
) -> ErrorList:
    """Port of ValidateObjectMetaUpdate / ValidateObjectMetaAccessorUpdate (objectmeta.go).

    No new finalizers once deletion started; resourceVersion set (the caller
    fills it in for unconditional updates, as upstream's store does);
    generation not decremented; name, namespace, uid, creationTimestamp,
    deletionTimestamp and deletionGracePeriodSeconds unchanged; labels,
    annotations and owner references valid.
    """
    new_meta = new_meta or {}
    old_meta = old_meta or {}
    errs = ErrorList()
    if old_meta.get("deletionTimestamp") is not None:
        extra = sorted(set(new_meta.get("finalizers") or []) - set(old_meta.get("finalizers") or []))
        if extra:
            listed = "[]string{" + ", ".join(field.go_quote(f) for f in extra) + "}"
            errs.append(
                field.forbidden(
                    fld_path.child("finalizers"),
                    f"no new finalizers can be added if the object is being deleted, found new finalizers {listed}",
                )
            )
    resource_version = new_meta.get("resourceVersion") or ""
    if not resource_version:
        errs.append(
            field.invalid(fld_path.child("resourceVersion"), resource_version, "must be specified for an update")
        )
    if (new_meta.get("generation") or 0) < (old_meta.get("generation") or 0):
        errs.append(
            field.invalid(fld_path.child("generation"), new_meta.get("generation") or 0, "must not be decremented")
        )
    for key, zero in (
        ("name", ""),
        ("namespace", ""),
        ("uid", ""),
        ("creationTimestamp", None),
        ("deletionTimestamp", None),
        ("deletionGracePeriodSeconds", None),
    ):
        new_value = new_meta.get(key) if new_meta.get(key) is not None else zero
        old_value = old_meta.get(key) if old_meta.get(key) is not None else zero
        errs.extend(validate_immutable_field(new_value, old_value, fld_path.child(key)))
    errs.extend(validate_labels(new_meta.get("labels"), fld_path.child("labels")))
    errs.extend(validate_annotations(new_meta.get("annotations"), fld_path.child("annotations")))
    errs.extend(validate_owner_references(new_meta.get("ownerReferences"), fld_path.child("ownerReferences")))
    return errs


# --- labels and selectors (apis/meta/v1/validation/validation.go) ------------------------------

LABEL_SELECTOR_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")


def validate_label_name(label_name: str, fld_path: Path) -> ErrorList:
    """Port of ValidateLabelName (meta/v1/validation): a qualified name."""
    return ErrorList(field.invalid(fld_path, label_name, msg) for msg in is_qualified_name(label_name))


def validate_labels(labels: dict[str, str] | None, fld_path: Path) -> ErrorList:
    """Port of ValidateLabels (meta/v1/validation): qualified-name keys and valid label values."""
    errs = ErrorList()
    labels = labels or {}
    for k in sorted(labels):
        errs.extend(validate_label_name(k, fld_path))
        value = labels[k] if isinstance(labels[k], str) else str(labels[k])
        for msg in is_valid_label_value(value):
            errs.append(field.invalid(fld_path, value, msg))
    return errs


def validate_label_selector(
    ps: dict[str, Any] | None, fld_path: Path, allow_invalid_label_value: bool = False
) -> ErrorList:
    """Port of ValidateLabelSelector (meta/v1/validation): matchLabels and each matchExpressions requirement."""
    errs = ErrorList()
    if ps is None:
        return errs
    errs.extend(validate_labels(ps.get("matchLabels"), fld_path.child("matchLabels")))
    for i, expr in enumerate(ps.get("matchExpressions") or []):
        errs.extend(
            validate_label_selector_requirement(
                expr, fld_path.child("matchExpressions").index(i), allow_invalid_label_value
            )
        )
    return errs


def validate_label_selector_requirement(
    sr: dict[str, Any], fld_path: Path, allow_invalid_label_value: bool = False
) -> ErrorList:
    """Port of ValidateLabelSelectorRequirement (meta/v1/validation): operator known, values as the operator needs."""
    errs = ErrorList()
    operator = sr.get("operator") or ""
    values = sr.get("values") or []
    if operator in ("In", "NotIn"):
        if not values:
            errs.append(
                field.required(fld_path.child("values"), "must be specified when `operator` is 'In' or 'NotIn'")
            )
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            errs.append(
                field.forbidden(
                    fld_path.child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
                )
            )
    else:
        errs.append(field.invalid(fld_path.child("operator"), operator, "not a valid selector operator"))
    errs.extend(validate_label_name(sr.get("key") or "", fld_path.child("key")))
    if not allow_invalid_label_value:
        for i, value in enumerate(values):
            for msg in is_valid_label_value(value):
                errs.append(field.invalid(fld_path.child("values").index(i), value, msg))
    return errs
