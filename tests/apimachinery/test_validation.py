"""Tests for minikcm.apimachinery.validation.

Ports of k8s.io/apimachinery pkg/util/validation/validation_test.go,
pkg/api/validation/{generic,objectmeta}_test.go and
pkg/apis/meta/v1/validation/validation_test.go at v0.36.3.
"""

from __future__ import annotations

import pytest

from minikcm.apimachinery import validation as v
from minikcm.apimachinery.field import new_path

# --- util/validation/validation_test.go ------------------------------------------------

DNS1123_LABEL_GOOD = ["a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2", "a" * 63]
DNS1123_LABEL_BAD = [
    "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a", "a_b", "1_", "_1", "1_2",
    ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ", " a", "a b", "1 ", " 1", "1 2", "a" * 64,
]


@pytest.mark.parametrize("value", DNS1123_LABEL_GOOD)
def test_is_dns1123_label_good(value):
    """Port of TestIsDNS1123Label (good values)."""
    assert v.is_dns1123_label(value) == []


@pytest.mark.parametrize("value", DNS1123_LABEL_BAD)
def test_is_dns1123_label_bad(value):
    """Port of TestIsDNS1123Label (bad values)."""
    assert v.is_dns1123_label(value) != []


DNS1123_SUBDOMAIN_GOOD = DNS1123_LABEL_GOOD + [
    "a.a", "ab.a", "abc.a", "a1.a", "a-1.a", "a--1--2--b.a", "a.1", "0.a", "1-a.a", "0.1", "1--a--b--2.1",
    "a.b.c.d.e", "aa.bb.cc.dd.ee", "1.2.3.4.5", "11.22.33.44.55", "a" * 253,
]
DNS1123_SUBDOMAIN_BAD = [
    "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_", "_a", "a_b", "1_", "_1", "1_2",
    ".", "a.", ".a", "a..b", "1.", ".1", "1..2", " ", "a ", " a", "a b", "1 ", " 1", "1 2", "A.a", "aB.a", "ab.A",
    "A1.a", "a1.A", "A.1", "aB.1", "A1.1", "1A.1", "0.A", "01.A", "012.A", "1A.a", "1a.A", "A.B.C.D.E",
    "AA.BB.CC.DD.EE", "a.B.c.d.e", "aa.bB.cc.dd.ee", "a@b", "a,b", "a_b", "a;b", "a:b", "a%b", "a?b", "a$b", "a" * 254,
]


@pytest.mark.parametrize("value", DNS1123_SUBDOMAIN_GOOD)
def test_is_dns1123_subdomain_good(value):
    """Port of TestIsDNS1123Subdomain (good values)."""
    assert v.is_dns1123_subdomain(value) == []


@pytest.mark.parametrize("value", DNS1123_SUBDOMAIN_BAD)
def test_is_dns1123_subdomain_bad(value):
    """Port of TestIsDNS1123Subdomain (bad values)."""
    assert v.is_dns1123_subdomain(value) != []


@pytest.mark.parametrize("value", ["a", "ab", "abc", "a1", "a-1", "a--1--2--b", "a" * 63])
def test_is_dns1035_label_good(value):
    """Port of TestIsDNS1035Label (good values)."""
    assert v.is_dns1035_label(value) == []


@pytest.mark.parametrize("value", ["0", "01", "1a", "1-a", "", "A", "aBc", "-", "a-", "-a", "a_b", "a.b", "a b", "a" * 64])
def test_is_dns1035_label_bad(value):
    """Port of TestIsDNS1035Label (bad values)."""
    assert v.is_dns1035_label(value) != []


def test_dns_messages_are_upstreams():
    assert v.is_dns1123_label("a.b") == ["must not contain dots"]
    assert v.is_dns1123_label("A") == [
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
        "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
        "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"  # Go's RegexError really leaves two spaces before "or"
    ]
    assert v.is_dns1123_subdomain("a" * 254)[0] == "must be no more than 253 characters"


@pytest.mark.parametrize("port, ok", [(1, True), (2, True), (1000, True), (65535, True), (0, False), (-1, False), (65536, False)])
def test_is_valid_port_num(port, ok):
    """Port of TestIsValidPortNum."""
    assert (v.is_valid_port_num(port) == []) is ok


@pytest.mark.parametrize(
    "name, ok",
    [("telnet", True), ("re-mail-ck", True), ("pop3", True), ("a", True), ("a-1", True), ("1-a", True),
     ("a-1-b-2-c", True), ("1-a-2-b-3", True), ("longerthan15characters", False), ("", False), ("a" * 16, False),
     ("12345", False), ("1-2-3-4", False), ("-begin", False), ("end-", False), ("two--hyphens", False), ("whois++", False)],
)
def test_is_valid_port_name(name, ok):
    """Port of TestIsValidPortName."""
    assert (v.is_valid_port_name(name) == []) is ok


QUALIFIED_NAME_GOOD = [
    "simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple", "now-with-dashes/simple",
    "now-with-dashes/now-with-dashes", "now.with.dots/simple", "now-with.dashes-and.dots/simple", "1-num.2-num/3-num",
    "1234/5678", "1.2.3.4/5678", "Uppercase_Is_OK_123", "example.com/Uppercase_Is_OK_123", "requests.storage-foo",
    "a" * 63, "a" * 253 + "/" + "b" * 63,
]
QUALIFIED_NAME_BAD = [
    "nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-", "only/one/slash", "Example.com/abc",
    "example_com/abc", "example.com/", "/simple", "a" * 64, "a" * 254 + "/abc",
]


@pytest.mark.parametrize("value", QUALIFIED_NAME_GOOD)
def test_is_qualified_name_good(value):
    """Port of TestIsQualifiedName (success cases)."""
    assert v.is_qualified_name(value) == []


@pytest.mark.parametrize("value", QUALIFIED_NAME_BAD)
def test_is_qualified_name_bad(value):
    """Port of TestIsQualifiedName (error cases)."""
    assert v.is_qualified_name(value) != []


@pytest.mark.parametrize("value", ["simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", "a" * 63, ""])
def test_is_valid_label_value_good(value):
    """Port of TestIsValidLabelValue (success cases)."""
    assert v.is_valid_label_value(value) == []


@pytest.mark.parametrize(
    "value",
    ["nospecialchars%^=@", "Tama-nui-te-rā.is.Māori.sun", "\\backslashes\\are\\bad", "-starts-with-dash",
     "ends-with-dash-", ".starts.with.dot", "ends.with.dot.", "a" * 64],
)
def test_is_valid_label_value_bad(value):
    """Port of TestIsValidLabelValue (error cases)."""
    assert v.is_valid_label_value(value) != []


@pytest.mark.parametrize(
    "value, ok",
    [("0%", True), ("00000%", True), ("1%", True), ("01%", True), ("99%", True), ("100%", True), ("101%", True),
     ("", False), ("0", False), ("100", False), ("0.0%", False), ("99.9%", False), ("hundred", False),
     (" 1%", False), ("1% ", False), ("-0%", False), ("-1%", False), ("+1%", False)],
)
def test_is_valid_percent(value, ok):
    """Port of TestIsValidPercent."""
    assert (v.is_valid_percent(value) == []) is ok


# --- api/validation/generic_test.go ------------------------------------------------------

MASK_TRAILING_DASH_CASES = [
    pytest.param("", "", id="empty string"),
    pytest.param("-", "-", id="only a single dash"),
    pytest.param("-foo", "-foo", id="has leading dash"),
    pytest.param("-foo-", "-foa", id="has both leading and trailing dashes"),
    pytest.param("b-", "a", id="has trailing dash"),
    pytest.param("ab", "ab", id="has neither leading nor trailing dashes"),
]


@pytest.mark.parametrize("before, after", MASK_TRAILING_DASH_CASES)
def test_mask_trailing_dash(before, after):
    """Port of TestMaskTrailingDash (pkg/api/validation/generic_test.go)."""
    assert v.mask_trailing_dash(before) == after


# --- api/validation/objectmeta_test.go ----------------------------------------------------


def _custom_name(name: str, prefix: bool) -> list[str]:
    return [] if name == "test" else ["wrong value"]


CUSTOM_NAME_CASES = [
    pytest.param({"name": "test"}, 0, id="valid name, empty generateName"),
    pytest.param({"name": "test", "generateName": "test"}, 0, id="valid name and generateName"),
    pytest.param({"name": "invalid"}, 1, id="invalid name, empty generateName"),
    pytest.param({"name": "invalid", "generateName": "test"}, 1, id="invalid name, valid generateName"),
    pytest.param({"name": "invalid", "generateName": "invalid"}, 2, id="invalid name, invalid generateName"),
]


@pytest.mark.parametrize("meta, n_errs", CUSTOM_NAME_CASES)
def test_validate_object_meta_custom_name(meta, n_errs):
    """Port of TestValidateObjectMetaCustomName."""
    errs = v.validate_object_meta(meta, False, _custom_name, new_path("field"))
    assert len(errs) == n_errs
    assert all("wrong value" in str(e) for e in errs)


def test_validate_object_meta_namespaces():
    """Port of TestValidateObjectMetaNamespaces."""
    errs = v.validate_object_meta({"name": "test", "namespace": "foo.bar"}, True, v.name_is_dns_subdomain, new_path("field"))
    assert len(errs) == 1
    assert 'Invalid value: "foo.bar"' in str(errs[0])
    errs = v.validate_object_meta({"name": "test", "namespace": "A" * 64}, True, v.name_is_dns_subdomain, new_path("field"))
    assert len(errs) == 2
    assert all("Invalid value" in str(e) for e in errs)


def _ref(kind: str, uid: str, controller: bool | None = None, api_version: str = "customresourceVersion") -> dict:
    ref = {"apiVersion": api_version, "kind": kind, "name": "name", "uid": uid}
    if controller is not None:
        ref["controller"] = controller
    return ref


OWNER_REFERENCE_CASES = [
    pytest.param([_ref("customresourceKind", "1")], "", id="simple success - third party extension"),
    pytest.param([_ref("Event", "1", api_version="v1")], "is disallowed from being an owner", id="event as owner"),
    pytest.param(
        [_ref("customresourceKind", "1", False), _ref("customresourceKind", "2", True), _ref("customresourceKind", "3", False), _ref("customresourceKind", "4")],
        "",
        id="one reference with controller set",
    ),
    pytest.param(
        [_ref("customresourceKind1", "1", False), _ref("customresourceKind2", "2", True), _ref("customresourceKind3", "3", True), _ref("customresourceKind4", "4")],
        'Only one reference can have Controller set to true. Found "true" in references for customresourceKind2/name and customresourceKind3/name',
        id="two references with controller set",
    ),
    pytest.param([{"apiVersion": "apps", "kind": "", "name": "", "uid": ""}], "must not be empty", id="ours-empty-fields"),
]


@pytest.mark.parametrize("refs, message", OWNER_REFERENCE_CASES)
def test_validate_object_meta_owner_references(refs, message):
    """Port of TestValidateObjectMetaOwnerReferences."""
    errs = v.validate_object_meta({"name": "test", "namespace": "test", "ownerReferences": refs}, True, v.name_is_dns_subdomain, new_path("field"))
    if not message:
        assert errs == []
    else:
        assert errs and message in str(errs[0])


def test_validate_object_meta_update_ignores_creation_timestamp():
    """Port of TestValidateObjectMetaUpdateIgnoresCreationTimestamp (each change is one error)."""
    t10, t11 = "1970-01-01T00:00:10Z", "1970-01-01T00:00:11Z"
    for new, old in (({}, {"creationTimestamp": t10}), ({"creationTimestamp": t10}, {}), ({"creationTimestamp": t10}, {"creationTimestamp": t11})):
        errs = v.validate_object_meta_update({"name": "test", "resourceVersion": "1", **new}, {"name": "test", "resourceVersion": "1", **old}, new_path("field"))
        assert len(errs) == 1


FINALIZERS_UPDATE_CASES = [
    pytest.param(["x/a"], ["x/a", "y/b"], True, "y/b", id="invalid adding finalizers"),
    pytest.param(["x/a"], ["x/b"], True, "x/b", id="invalid changing finalizers"),
    pytest.param(["x/a", "y/b"], ["x/a"], True, "", id="valid removing finalizers"),
    pytest.param(["x/a"], ["x/a", "y/b"], False, "", id="valid adding finalizers for objects not being deleted"),
]


@pytest.mark.parametrize("old, new, deleting, expected", FINALIZERS_UPDATE_CASES)
def test_validate_finalizers_update(old, new, deleting, expected):
    """Port of TestValidateFinalizersUpdate."""
    deletion = {"deletionTimestamp": "1970-01-01T00:00:00Z"} if deleting else {}
    errs = v.validate_object_meta_update(
        {"name": "test", "resourceVersion": "1", "finalizers": new, **deletion},
        {"name": "test", "resourceVersion": "1", "finalizers": old, **deletion},
        new_path("field"),
    )
    if expected:
        assert expected in str(errs.to_aggregate())
        assert "no new finalizers can be added if the object is being deleted" in str(errs.to_aggregate())
    else:
        assert errs == []


def test_validate_finalizers_prevent_conflicting_finalizers():
    """Port of TestValidateFinalizersPreventConflictingFinalizers."""
    errs = v.validate_object_meta({"name": "test", "finalizers": ["orphan", "foregroundDeletion"]}, False, v.name_is_dns_subdomain, new_path("field"))
    assert "cannot be both set" in str(errs.to_aggregate())


NOW, LATER = "1970-01-01T00:16:40Z", "1970-01-01T00:33:20Z"
DELETION_FIELD_CASES = [
    pytest.param({}, {}, [], id="valid without deletion fields"),
    pytest.param({"deletionTimestamp": NOW, "deletionGracePeriodSeconds": 30}, {"deletionTimestamp": NOW, "deletionGracePeriodSeconds": 30}, [], id="valid with deletion fields"),
    pytest.param({}, {"deletionTimestamp": NOW}, [f'field.deletionTimestamp: Invalid value: "{NOW}": field is immutable'], id="invalid set deletionTimestamp"),
    pytest.param({"deletionTimestamp": NOW}, {}, ["field.deletionTimestamp: Invalid value: null: field is immutable"], id="invalid clear deletionTimestamp"),
    pytest.param({"deletionTimestamp": NOW}, {"deletionTimestamp": LATER}, [f'field.deletionTimestamp: Invalid value: "{LATER}": field is immutable'], id="invalid change deletionTimestamp"),
    pytest.param({}, {"deletionGracePeriodSeconds": 30}, ["field.deletionGracePeriodSeconds: Invalid value: 30: field is immutable"], id="invalid set deletionGracePeriodSeconds"),
    pytest.param({"deletionGracePeriodSeconds": 30}, {}, ["field.deletionGracePeriodSeconds: Invalid value: null: field is immutable"], id="invalid clear deletionGracePeriodSeconds"),
    pytest.param({"deletionGracePeriodSeconds": 30}, {"deletionGracePeriodSeconds": 40}, ["field.deletionGracePeriodSeconds: Invalid value: 40: field is immutable"], id="invalid change deletionGracePeriodSeconds"),
]


@pytest.mark.parametrize("old, new, expected", DELETION_FIELD_CASES)
def test_validate_object_meta_update_prevents_deletion_field_mutation(old, new, expected):
    """Port of TestValidateObjectMetaUpdatePreventsDeletionFieldMutation."""
    errs = v.validate_object_meta_update({"name": "test", "resourceVersion": "1", **new}, {"name": "test", "resourceVersion": "1", **old}, new_path("field"))
    assert [str(e) for e in errs] == expected


GENERATION_CASES = [
    pytest.param(5, 4, ["field.generation: Invalid value: 4: must not be decremented"], id="invalid generation change - decremented"),
    pytest.param(1, 2, [], id="valid generation change - incremented by one"),
    pytest.param(5, 5, [], id="valid generation field - not updated"),
]


@pytest.mark.parametrize("old, new, expected", GENERATION_CASES)
def test_object_meta_generation_update(old, new, expected):
    """Port of TestObjectMetaGenerationUpdate."""
    errs = v.validate_object_meta_update({"name": "test", "resourceVersion": "1", "generation": new}, {"name": "test", "resourceVersion": "1", "generation": old}, new_path("field"))
    assert [str(e) for e in errs] == expected


def test_validate_object_meta_update_requires_resource_version_and_same_identity():
    errs = v.validate_object_meta_update({"name": "b", "namespace": "y", "uid": "2"}, {"name": "a", "namespace": "x", "uid": "1", "resourceVersion": "5"}, new_path("metadata"))
    assert [str(e) for e in errs] == [
        'metadata.resourceVersion: Invalid value: "": must be specified for an update',
        'metadata.name: Invalid value: "b": field is immutable',
        'metadata.namespace: Invalid value: "y": field is immutable',
        'metadata.uid: Invalid value: "2": field is immutable',
    ]


def test_validate_object_meta_trims_trailing_dash():
    """Port of TestValidateObjectMetaTrimsTrailingDash."""
    assert v.validate_object_meta({"name": "test", "generateName": "foo-"}, False, v.name_is_dns_subdomain, new_path("field")) == []


def test_validate_object_meta_generate_name_without_name():
    # The server names the object after validation, so a generateName alone is enough.
    assert v.validate_object_meta({"generateName": "web-"}, False, v.name_is_dns_subdomain, new_path("field")) == []
    errs = v.validate_object_meta({}, False, v.name_is_dns_subdomain, new_path("metadata"))
    assert [str(e) for e in errs] == ["metadata.name: Required value: name or generateName is required"]


def test_validate_object_meta_namespace_rules():
    errs = v.validate_object_meta({"name": "n"}, True, v.name_is_dns_subdomain, new_path("metadata"))
    assert [str(e) for e in errs] == ["metadata.namespace: Required value"]
    errs = v.validate_object_meta({"name": "n", "namespace": "x"}, False, v.name_is_dns_label, new_path("metadata"))
    assert [str(e) for e in errs] == ["metadata.namespace: Forbidden: not allowed on this type"]


ANNOTATION_GOOD = [
    {"simple": "bar"}, {"now-with-dashes": "bar"}, {"1-starts-with-num": "bar"}, {"1234": "bar"}, {"simple/simple": "bar"},
    {"now-with-dashes/simple": "bar"}, {"now.with.dots/simple": "bar"}, {"1.2.3.4/5678": "bar"}, {"UpperCase123": "bar"},
    {"a": "b" * (v.TOTAL_ANNOTATION_SIZE_LIMIT_B - 1)},
    {"a": "b" * (v.TOTAL_ANNOTATION_SIZE_LIMIT_B // 2 - 1), "c": "d" * (v.TOTAL_ANNOTATION_SIZE_LIMIT_B // 2 - 1)},
]


@pytest.mark.parametrize("annotations", ANNOTATION_GOOD)
def test_validate_annotations_good(annotations):
    """Port of TestValidateAnnotations (success cases)."""
    assert v.validate_annotations(annotations, new_path("field")) == []


ANNOTATION_BAD = [
    pytest.param({"nospecialchars^=@": "bar"}, "name part must consist of", id="special-chars"),
    pytest.param({"cantendwithadash-": "bar"}, "name part must consist of", id="trailing-dash"),
    pytest.param({"only/one/slash": "bar"}, "a valid label key must consist of", id="two-slashes"),
    pytest.param({"a" * 254: "bar"}, "must be no more than", id="too-long-key"),
    pytest.param({"a": "b" * v.TOTAL_ANNOTATION_SIZE_LIMIT_B}, "may not be more than 262144 bytes", id="total-size"),
]


@pytest.mark.parametrize("annotations, expect", ANNOTATION_BAD)
def test_validate_annotations_bad(annotations, expect):
    """Port of TestValidateAnnotations (error cases)."""
    errs = v.validate_annotations(annotations, new_path("field"))
    assert len(errs) == 1
    assert expect in str(errs[0])


# --- apis/meta/v1/validation/validation_test.go ----------------------------------------------

LABELS_GOOD = [
    {"simple": "bar"}, {"now-with-dashes": "bar"}, {"1234/5678": "bar"}, {"UpperCaseAreOK123": "bar"}, {"goodvalue": "123_-.BaR"},
]


@pytest.mark.parametrize("labels", LABELS_GOOD)
def test_validate_labels_good(labels):
    """Port of TestValidateLabels (success cases)."""
    assert v.validate_labels(labels, new_path("field")) == []


LABELS_BAD = [
    pytest.param({"nospecialchars^=@": "bar"}, "name part must consist of", id="key-special-chars"),
    pytest.param({"only/one/slash": "bar"}, "a valid label key must consist of", id="key-two-slashes"),
    pytest.param({"a" * 254: "bar"}, "must be no more than", id="key-too-long"),
    pytest.param({"toolongvalue": "a" * 64}, "must be no more than", id="value-too-long"),
    pytest.param({"backslashesinvalue": "some\\bad\\value"}, "a valid label must be an empty string or consist of", id="value-backslashes"),
    pytest.param({"nocommasallowed": "bad,value"}, "a valid label must be an empty string or consist of", id="value-comma"),
]


@pytest.mark.parametrize("labels, expect", LABELS_BAD)
def test_validate_labels_bad(labels, expect):
    """Port of TestValidateLabels (error cases)."""
    errs = v.validate_labels(labels, new_path("field"))
    assert len(errs) == 1
    assert expect in errs[0].detail


LABEL_SELECTOR_CASES = [
    pytest.param({"matchExpressions": [{"key": "key", "operator": "In", "values": ["value"]}]}, "", id="Valid LabelSelector"),
    pytest.param({"matchExpressions": [{"key": "-key", "operator": "In", "values": ["value"]}]}, "name part must consist of alphanumeric characters", id="key name isn't valid"),
    pytest.param({"matchExpressions": [{"key": "key", "operator": "abc", "values": ["value"]}]}, "not a valid selector operator", id="operator isn't valid"),
    pytest.param({"matchExpressions": [{"key": "key", "operator": "In", "values": ["-value"]}]}, "a valid label must be an empty string or consist of", id="value isn't valid"),
    pytest.param({"matchExpressions": [{"key": "key", "operator": "In"}]}, "must be specified when `operator` is 'In' or 'NotIn'", id="ours-in-without-values"),
    pytest.param({"matchExpressions": [{"key": "key", "operator": "Exists", "values": ["x"]}]}, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'", id="ours-exists-with-values"),
]


@pytest.mark.parametrize("selector, message", LABEL_SELECTOR_CASES)
def test_label_selector_match_expression(selector, message):
    """Port of TestLabelSelectorMatchExpression; the last two rows are ours."""
    errs = v.validate_label_selector(selector, new_path("labelSelector"))
    if not message:
        assert errs == []
    else:
        assert len(errs) == 1
        assert message in str(errs[0])


SEMANTIC_CASES = [
    pytest.param({"a": {}}, {}, True, id="empty-map-equals-missing"),
    pytest.param({"a": [], "b": None, "c": "", "d": 0, "e": False}, {}, True, id="zero-values-equal-missing"),
    pytest.param({"a": {"b": 1}}, {"a": {"b": 2}}, False, id="nested-difference"),
    pytest.param([{"a": None}], [{}], True, id="inside-lists"),
    pytest.param(None, 0, False, id="top-level-scalars-compared-as-is"),
]


@pytest.mark.parametrize("a, b, equal", SEMANTIC_CASES)
def test_semantic_deep_equal(a, b, equal):
    assert v.semantic_deep_equal(a, b) is equal
