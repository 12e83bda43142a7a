"""Tests for minikcm.apimachinery.field (ports of pkg/util/validation/field errors_test.go, path_test.go)."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import field
from minikcm.apimachinery.field import (
    OMIT_VALUE,
    Error,
    ErrorList,
    new_path,
)

# --- errors_test.go -----------------------------------------------------------

MAKE_FUNCS_CASES = [
    pytest.param(lambda: field.invalid(new_path("f"), "v", "d"), field.ERROR_TYPE_INVALID, id="invalid"),
    pytest.param(lambda: field.not_supported(new_path("f"), "v", None), field.ERROR_TYPE_NOT_SUPPORTED, id="not-supported"),
    pytest.param(lambda: field.duplicate(new_path("f"), "v"), field.ERROR_TYPE_DUPLICATE, id="duplicate"),
    pytest.param(lambda: field.not_found(new_path("f"), "v"), field.ERROR_TYPE_NOT_FOUND, id="not-found"),
    pytest.param(lambda: field.required(new_path("f"), "d"), field.ERROR_TYPE_REQUIRED, id="required"),
    pytest.param(lambda: field.internal_error(new_path("f"), ValueError("e")), field.ERROR_TYPE_INTERNAL, id="internal"),
    pytest.param(lambda: field.forbidden(new_path("f"), "d"), field.ERROR_TYPE_FORBIDDEN, id="forbidden"),
    pytest.param(lambda: field.too_long(new_path("f"), "v", 3), field.ERROR_TYPE_TOO_LONG, id="too-long"),
    pytest.param(lambda: field.too_many(new_path("f"), 3, 2), field.ERROR_TYPE_TOO_MANY, id="too-many"),
    pytest.param(lambda: field.type_invalid(new_path("f"), "v", "d"), field.ERROR_TYPE_TYPE_INVALID, id="type-invalid"),
]


@pytest.mark.parametrize("make, expected", MAKE_FUNCS_CASES)
def test_make_funcs(make, expected):
    """Port of TestMakeFuncs (pkg/util/validation/field/errors_test.go); rows beyond upstream's six are ours."""
    assert make().type == expected


def test_error_type_values_match_upstream():
    # The wire values end up in Status causes; clients compare them as strings.
    assert [
        field.ERROR_TYPE_NOT_FOUND,
        field.ERROR_TYPE_REQUIRED,
        field.ERROR_TYPE_DUPLICATE,
        field.ERROR_TYPE_INVALID,
        field.ERROR_TYPE_NOT_SUPPORTED,
        field.ERROR_TYPE_FORBIDDEN,
        field.ERROR_TYPE_TOO_LONG,
        field.ERROR_TYPE_TOO_MANY,
        field.ERROR_TYPE_INTERNAL,
        field.ERROR_TYPE_TYPE_INVALID,
    ] == [
        "FieldValueNotFound",
        "FieldValueRequired",
        "FieldValueDuplicate",
        "FieldValueInvalid",
        "FieldValueNotSupported",
        "FieldValueForbidden",
        "FieldValueTooLong",
        "FieldValueTooMany",
        "InternalError",
        "FieldValueTypeInvalid",
    ]


TO_AGGREGATE_CASES = [
    pytest.param(ErrorList(), 0, id="empty"),
    pytest.param(ErrorList([field.invalid(new_path("f"), "v", "d")]), 1, id="one"),
    pytest.param(
        ErrorList([field.invalid(new_path("f"), "v", "d"), field.invalid(new_path("f"), "v", "d")]),
        1,
        id="duplicate-message-dropped",
    ),
    pytest.param(
        ErrorList([field.invalid(new_path("f"), "v", "d"), field.internal_error(new_path(""), ValueError("e"))]),
        2,
        id="two-distinct",
    ),
]


@pytest.mark.parametrize("errs, want", TO_AGGREGATE_CASES)
def test_to_aggregate(errs, want):
    """Port of TestToAggregate (pkg/util/validation/field/errors_test.go)."""
    agg = errs.to_aggregate()
    if want == 0:
        assert agg is None
    else:
        assert agg is not None
        assert len(agg.errors()) == want


def test_to_aggregate_message():
    # utilerrors.aggregate prints one error plainly and several in brackets.
    one = ErrorList([field.required(new_path("spec", "selector"), "")])
    two = ErrorList([field.required(new_path("a"), ""), field.forbidden(new_path("b"), "no")])
    assert str(one.to_aggregate()) == "spec.selector: Required value"
    assert str(two.to_aggregate()) == "[a: Required value, b: Forbidden: no]"


def test_err_list_filter():
    """Port of TestErrListFilter (pkg/util/validation/field/errors_test.go)."""
    errs = ErrorList(
        [
            field.invalid(new_path("test.field"), "", ""),
            field.invalid(new_path("field.test"), "", ""),
            field.duplicate(new_path("test"), "value"),
        ]
    )
    assert len(errs.filter(field.new_error_type_matcher(field.ERROR_TYPE_DUPLICATE))) == 2
    assert len(errs.filter(field.new_error_type_matcher(field.ERROR_TYPE_INVALID))) == 1


def test_error_origin():
    """Port of TestErrorOrigin (pkg/util/validation/field/errors_test.go)."""
    err = field.invalid(new_path("field"), "value", "detail")
    same = err.with_origin("origin1")
    assert same is err
    assert err.origin == "origin1"


def test_error_list_origin():
    """Port of TestErrorListOrigin (pkg/util/validation/field/errors_test.go)."""
    errs = ErrorList(
        [
            field.invalid(new_path("field1"), "value1", "detail1"),
            field.invalid(new_path("field2"), "value2", "detail2"),
            field.required(new_path("field3"), "detail3"),
        ]
    )
    assert errs.with_origin("origin1") is errs
    assert all(e.origin == "origin1" for e in errs)


def _raw(type_: str, bad_value: object) -> Error:
    return Error(type_, "path.to.field", bad_value, "the details")


ERROR_FORMATTING_CASES = [
    pytest.param(_raw(field.ERROR_TYPE_REQUIRED, "the value"), "path.to.field: Required value: the details", id="required"),
    pytest.param(field.required(new_path("path.to.field"), "the details"), "path.to.field: Required value: the details", id="required-func"),
    pytest.param(_raw(field.ERROR_TYPE_FORBIDDEN, "the value"), "path.to.field: Forbidden: the details", id="forbidden"),
    pytest.param(field.forbidden(new_path("path.to.field"), "the details"), "path.to.field: Forbidden: the details", id="forbidden-func"),
    pytest.param(_raw(field.ERROR_TYPE_TOO_LONG, "the value"), "path.to.field: Too long: the details", id="too-long"),
    pytest.param(field.too_long(new_path("path.to.field"), "the value", 1), "path.to.field: Too long: may not be more than 1 byte", id="too-long-func-1"),
    pytest.param(field.too_long(new_path("path.to.field"), "the value", 2), "path.to.field: Too long: may not be more than 2 bytes", id="too-long-func-2"),
    pytest.param(field.too_long(new_path("path.to.field"), "the value", -1), "path.to.field: Too long: value is too long", id="too-long-func-negative"),
    pytest.param(_raw(field.ERROR_TYPE_TOO_MANY, "the value"), 'path.to.field: Too many: "the value": the details', id="too-many"),
    pytest.param(field.too_many(new_path("path.to.field"), 2, 1), "path.to.field: Too many: 2: must have at most 1 item", id="too-many-func-2-1"),
    pytest.param(field.too_many(new_path("path.to.field"), 3, 2), "path.to.field: Too many: 3: must have at most 2 items", id="too-many-func-3-2"),
    pytest.param(field.too_many(new_path("path.to.field"), 2, -1), "path.to.field: Too many: 2: has too many items", id="too-many-func-2-negative"),
    pytest.param(field.too_many(new_path("path.to.field"), -1, 1), "path.to.field: Too many: must have at most 1 item", id="too-many-func-unknown-count"),
    pytest.param(_raw(field.ERROR_TYPE_INTERNAL, "the value"), "path.to.field: Internal error: the details", id="internal-error"),
    pytest.param(field.internal_error(new_path("path.to.field"), ValueError("the error")), "path.to.field: Internal error: the error", id="internal-error-func"),
    pytest.param(_raw(field.ERROR_TYPE_INVALID, "the value"), 'path.to.field: Invalid value: "the value": the details', id="invalid-string"),
    pytest.param(_raw(field.ERROR_TYPE_INVALID, -42), "path.to.field: Invalid value: -42: the details", id="invalid-int"),
    pytest.param(_raw(field.ERROR_TYPE_INVALID, True), "path.to.field: Invalid value: true: the details", id="invalid-bool"),
    # Upstream marshals a Go struct in field order; a wire dict prints with sorted keys.
    pytest.param(
        _raw(field.ERROR_TYPE_INVALID, {"stringField": "stringval", "intField": 9376, "boolField": True}),
        'path.to.field: Invalid value: {"boolField":true,"intField":9376,"stringField":"stringval"}: the details',
        id="invalid-struct-as-dict",
    ),
    pytest.param(_raw(field.ERROR_TYPE_INVALID, ["one", "two", "three"]), 'path.to.field: Invalid value: ["one","two","three"]: the details', id="invalid-list"),
    pytest.param(_raw(field.ERROR_TYPE_INVALID, {"one": 1, "two": 2, "three": 3}), 'path.to.field: Invalid value: {"one":1,"three":3,"two":2}: the details', id="invalid-map"),
    pytest.param(_raw(field.ERROR_TYPE_INVALID, OMIT_VALUE), "path.to.field: Invalid value: the details", id="invalid-omit-value"),
    pytest.param(_raw(field.ERROR_TYPE_INVALID, None), "path.to.field: Invalid value: null: the details", id="invalid-untyped-nil"),
    pytest.param(field.invalid(new_path("path.to.field"), "the value", "the details"), 'path.to.field: Invalid value: "the value": the details', id="invalid-func"),
    pytest.param(_raw(field.ERROR_TYPE_NOT_FOUND, "the value"), 'path.to.field: Not found: "the value": the details', id="not-found"),
    pytest.param(_raw(field.ERROR_TYPE_NOT_SUPPORTED, "the value"), 'path.to.field: Unsupported value: "the value": the details', id="not-supported"),
    pytest.param(
        field.not_supported(new_path("path.to.field"), "the value", ["val1", "val2"]),
        'path.to.field: Unsupported value: "the value": supported values: "val1", "val2"',
        id="not-supported-func",
    ),
    pytest.param(_raw(field.ERROR_TYPE_DUPLICATE, "the value"), 'path.to.field: Duplicate value: "the value": the details', id="duplicate"),
    pytest.param(field.duplicate(new_path("path.to.field"), "the value"), 'path.to.field: Duplicate value: "the value"', id="duplicate-func"),
    pytest.param(_raw(field.ERROR_TYPE_TYPE_INVALID, "the value"), 'path.to.field: Invalid value: "the value": the details', id="type-invalid"),
    pytest.param(field.type_invalid(new_path("path.to.field"), "the value", "the details"), 'path.to.field: Invalid value: "the value": the details', id="type-invalid-func"),
    pytest.param(
        _raw("not real", "the value"),
        'path.to.field: Internal error: unhandled error code: <unknown error "not real">: please report this: the details',
        id="unknown-error-type",
    ),
    # Ours: Go's %v for floats and json.Marshal's HTML escaping.
    pytest.param(_raw(field.ERROR_TYPE_INVALID, 2.0), "path.to.field: Invalid value: 2: the details", id="invalid-integral-float"),
    pytest.param(_raw(field.ERROR_TYPE_INVALID, {"a": "<b>&"}), 'path.to.field: Invalid value: {"a":"\\u003cb\\u003e\\u0026"}: the details', id="invalid-map-html-escaped"),
]


@pytest.mark.parametrize("err, expect", ERROR_FORMATTING_CASES)
def test_error_formatting(err, expect):
    """Port of TestErrorFormatting (pkg/util/validation/field/errors_test.go).

    At v0.36.3 this table replaces the older TestErrorUsefulMessage. Rows about
    Go-only types (typed strings, pointers, time.Time, failing marshalers) have
    no wire-value counterpart and are left out.
    """
    assert err.error() == expect
    assert str(err) == expect


def test_error_body_omits_field():
    err = field.invalid(new_path("spec", "replicas"), -1, "must be greater than or equal to 0")
    assert err.error_body() == "Invalid value: -1: must be greater than or equal to 0"
    assert str(err) == "spec.replicas: Invalid value: -1: must be greater than or equal to 0"


# --- path_test.go ---------------------------------------------------------------

PATH_STEPS = [
    pytest.param(lambda p: p, "root", id="root"),
    pytest.param(lambda p: p.child("first"), "root.first", id="child"),
    pytest.param(lambda p: p.child("second"), "root.first.second", id="grandchild"),
    pytest.param(lambda p: p.index(0), "root.first.second[0]", id="index"),
    pytest.param(lambda p: p.child("third"), "root.first.second[0].third", id="child-of-index"),
    pytest.param(lambda p: p.index(93), "root.first.second[0].third[93]", id="index-93"),
    pytest.param(lambda p: p.parent, "root.first.second[0].third", id="parent"),
    pytest.param(lambda p: p.parent, "root.first.second[0]", id="parent-again"),
    pytest.param(lambda p: p.key("key"), "root.first.second[0][key]", id="key"),
]


def test_path():
    """Port of TestPath (pkg/util/validation/field/path_test.go): the steps apply in sequence."""
    root = new_path("root")
    p = root
    for step in PATH_STEPS:
        op, expected = step.values
        p = op(p)
        assert str(p) == expected, step.id
        assert p.root() is root, step.id


def test_path_multi_arg():
    """Port of TestPathMultiArg (pkg/util/validation/field/path_test.go)."""
    steps = [
        (lambda p: p, "root.first"),
        (lambda p: p.child("second", "third"), "root.first.second.third"),
        (lambda p: p.index(0), "root.first.second.third[0]"),
        (lambda p: p.parent, "root.first.second.third"),
        (lambda p: p.parent, "root.first.second"),
        (lambda p: p.parent, "root.first"),
        (lambda p: p.parent, "root"),
    ]
    root = new_path("root", "first")
    p = root
    for op, expected in steps:
        p = op(p)
        assert str(p) == expected
        assert p.root() is root.root()


def test_path_example_from_pod_template():
    p = new_path("spec", "template", "spec").child("containers").index(0).child("image")
    assert str(p) == "spec.template.spec.containers[0].image"
