"""Tests for the helpers of minikcm.apiserver.apps_validation (the rules themselves: test_validation.py)."""

from __future__ import annotations

import pytest

from minikcm.apiserver import apps_validation as apps
from minikcm.apimachinery.field import new_path

INT_OR_PERCENT_CASES = [
    pytest.param(0, [], id="zero"),
    pytest.param(3, [], id="positive-int"),
    pytest.param("25%", [], id="percent"),
    pytest.param("0%", [], id="zero-percent"),
    pytest.param(-1, ["p: Invalid value: -1: must be greater than or equal to 0"], id="negative-int"),
    pytest.param("-1%", ["p: Invalid value: \"-1%\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"], id="negative-percent"),
    pytest.param("5", ["p: Invalid value: \"5\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"], id="numeric-string"),
    pytest.param(None, ["p: Invalid value: null: must be an integer or percentage (e.g '5%%')"], id="null"),
]


@pytest.mark.parametrize("value, expected", INT_OR_PERCENT_CASES)
def test_validate_positive_int_or_percent(value, expected):
    """ValidatePositiveIntOrPercent (pkg/apis/apps/validation/validation.go); cases are ours."""
    assert [str(e) for e in apps.validate_positive_int_or_percent(value, new_path("p"))] == expected


@pytest.mark.parametrize(
    "value, want",
    [pytest.param("30%", 30, id="percent"), pytest.param(4, 4, id="int"), pytest.param("a%", 0, id="bad-percent"), pytest.param("7", 7, id="numeric-string")],
)
def test_get_int_or_percent_value(value, want):
    """getIntOrPercentValue: the percentage, else IntValue (0 for a non-number)."""
    assert apps.get_int_or_percent_value(value) == want


@pytest.mark.parametrize("value, ok", [("100%", True), ("101%", False), (500, True), ("x%", True)], ids=["100", "101", "int", "not-a-percent"])
def test_is_not_more_than_100_percent(value, ok):
    assert (apps.is_not_more_than_100_percent(value, new_path("p")) == []) is ok


def test_label_selector_as_selector():
    nothing = apps.label_selector_as_selector(None)
    everything = apps.label_selector_as_selector({})
    app_web = apps.label_selector_as_selector({"matchLabels": {"app": "web"}})
    assert not nothing.empty() and not nothing.matches({"app": "web"})
    assert everything.empty() and everything.matches({})
    assert app_web.matches({"app": "web", "x": "y"}) and not app_web.matches({"app": "api"})
    with pytest.raises(ValueError):
        apps.label_selector_as_selector({"matchExpressions": [{"key": "a", "operator": "In"}]})
    with pytest.raises(ValueError):
        apps.label_selector_as_selector({"matchLabels": {"a": "not valid!"}})


def test_validate_rolling_update_stateful_set_allows_missing_max_unavailable():
    assert apps.validate_rolling_update_stateful_set({"partition": 0}, new_path("r")) == []
    errs = apps.validate_rolling_update_stateful_set({"partition": 0, "maxUnavailable": "0%"}, new_path("r"))
    assert [str(e) for e in errs] == ['r.maxUnavailable: Invalid value: "0%": cannot be 0']


@pytest.mark.parametrize("limit, expected", [
    pytest.param(None, [], id="unset"),
    pytest.param(0, [], id="zero-is-valid"),
    pytest.param(10, [], id="ten"),
    pytest.param(-1, ["spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0"],
                 id="negative"),
])
def test_stateful_set_revision_history_limit_is_non_negative(server, limit, expected):
    """ValidateStatefulSetSpec: revisionHistoryLimit, when set, must not be negative (a 422 changes nothing)."""
    from minikcm.apimachinery import errors

    from .builders import stateful_set

    obj = stateful_set()
    if limit is not None:
        obj["spec"]["revisionHistoryLimit"] = limit
    if not expected:
        server.create("statefulsets", "default", obj)
        return
    with pytest.raises(errors.StatusError) as err:
        server.create("statefulsets", "default", obj)
    assert [c["message"] for c in err.value.status()["details"]["causes"]] == [
        e.split(": ", 1)[1] for e in expected]
    assert server.list("statefulsets", "default")["items"] == []
