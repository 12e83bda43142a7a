"""Tests of minikcm.apimachinery.internalversion: the table of TestValidateListOptions
(pkg/apis/meta/internalversion/validation/validation_test.go) and SetListOptionsDefaults."""

from __future__ import annotations

import pytest

from minikcm.apimachinery import errors
from minikcm.apimachinery.internalversion import (
    defaulted_and_validated,
    set_list_options_defaults,
    validate_list_options,
)
from minikcm.apimachinery.meta import ListOptions

NOT_OLDER = "NotOlderThan"

# (name, options, WatchList gate on, the errors as Error.Error() prints them)
VALIDATE_CASES = [
    ("valid-default", ListOptions(), False, []),
    ("valid-resourceversionmatch-exact",
     ListOptions(resource_version="1", resource_version_match="Exact"), False, []),
    ("invalid-resourceversionmatch-exact",
     ListOptions(resource_version="0", resource_version_match="Exact"), False,
     ['resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"']),
    ("valid-resourceversionmatch-notolderthan",
     ListOptions(resource_version="0", resource_version_match=NOT_OLDER), False, []),
    ("invalid-resourceversionmatch",
     ListOptions(resource_version="0", resource_version_match="foo"), False,
     ['resourceVersionMatch: Unsupported value: "foo": supported values: "Exact", "NotOlderThan", ""']),
    ("list-sendInitialEvents-forbidden", ListOptions(send_initial_events=True), False,
     ["sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list"]),
    ("valid-watch-default", ListOptions(watch=True), False, []),
    ("valid-watch-sendInitialEvents-on",
     ListOptions(watch=True, send_initial_events=True, resource_version_match=NOT_OLDER,
                 allow_watch_bookmarks=True), True, []),
    ("valid-watch-sendInitialEvents-off",
     ListOptions(watch=True, send_initial_events=False, resource_version_match=NOT_OLDER,
                 allow_watch_bookmarks=True), True, []),
    ("watch-resourceversionmatch-without-sendInitialEvents-forbidden",
     ListOptions(watch=True, resource_version_match=NOT_OLDER), False,
     ["resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless "
      "sendInitialEvents is provided"]),
    ("watch-sendInitialEvents-without-resourceversionmatch-forbidden",
     ListOptions(watch=True, send_initial_events=True), False,
     ["resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch "
      "to NotOlderThan",
      "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the "
      "WatchList feature gate is enabled"]),
    ("watch-sendInitialEvents-with-exact-resourceversionmatch-forbidden",
     ListOptions(watch=True, send_initial_events=True, resource_version_match="Exact",
                 allow_watch_bookmarks=True), True,
     ["resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch "
      "to NotOlderThan",
      'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"']),
    ("watch-sendInitialEvents-on-with-empty-resourceversionmatch-forbidden",
     ListOptions(watch=True, send_initial_events=True), False,
     ["resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch "
      "to NotOlderThan",
      "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the "
      "WatchList feature gate is enabled"]),
    ("watch-sendInitialEvents-off-with-empty-resourceversionmatch-forbidden",
     ListOptions(watch=True, send_initial_events=False), False,
     ["resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch "
      "to NotOlderThan",
      "sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the "
      "WatchList feature gate is enabled"]),
    ("watch-sendInitialEvents-with-incorrect-resourceversionmatch-forbidden",
     ListOptions(watch=True, send_initial_events=True, resource_version_match="incorrect",
                 allow_watch_bookmarks=True), True,
     ["resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch "
      "to NotOlderThan",
      'resourceVersionMatch: Unsupported value: "incorrect": supported values: "NotOlderThan"']),
    # Bookmarks are not required: resourceVersion=0 asked for the initial state long before.
    ("watch-sendInitialEvents-no-allowWatchBookmark",
     ListOptions(watch=True, send_initial_events=True, resource_version_match=NOT_OLDER), True, []),
    ("watch-sendInitialEvents-no-watchlist-fg-disabled",
     ListOptions(watch=True, send_initial_events=True, resource_version_match=NOT_OLDER,
                 allow_watch_bookmarks=True), False,
     ["sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the "
      "WatchList feature gate is enabled"]),
    ("watch-sendInitialEvents-with-continue",
     ListOptions(watch=True, send_initial_events=True, resource_version_match=NOT_OLDER,
                 allow_watch_bookmarks=True, continue_="123"), True,
     ["resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided"]),
    # Not in upstream's table; the list-side branches it leaves out.
    ("list-resourceversionmatch-without-resourceversion",
     ListOptions(resource_version_match=NOT_OLDER), True,
     ["resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion "
      "is provided"]),
    ("list-resourceversionmatch-with-continue",
     ListOptions(resource_version="5", resource_version_match="Exact", continue_="x"), True,
     ["resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided"]),
]


@pytest.mark.parametrize("opts, enabled, want",
                         [pytest.param(o, e, w, id=n) for n, o, e, w in VALIDATE_CASES])
def test_validate_list_options(opts, enabled, want):
    assert [e.error() for e in validate_list_options(opts, enabled)] == want


# (name, options before, gate, (sendInitialEvents, resourceVersionMatch) after)
DEFAULT_CASES = [
    ("watch-from-empty", ListOptions(watch=True), True, (True, NOT_OLDER)),
    ("watch-from-zero", ListOptions(watch=True, resource_version="0"), True, (True, NOT_OLDER)),
    ("watch-from-version", ListOptions(watch=True, resource_version="7"), True, (None, "")),
    ("gate-off", ListOptions(watch=True), False, (None, "")),
    ("list", ListOptions(), True, (None, "")),
    ("explicit-false-kept", ListOptions(watch=True, send_initial_events=False), True, (False, "")),
    ("match-set", ListOptions(watch=True, resource_version_match="Exact"), True, (None, "Exact")),
]


@pytest.mark.parametrize("opts, enabled, want",
                         [pytest.param(o, e, w, id=n) for n, o, e, w in DEFAULT_CASES])
def test_set_list_options_defaults(opts, enabled, want):
    set_list_options_defaults(opts, enabled)
    assert (opts.send_initial_events, opts.resource_version_match) == want


def test_invalid_options_are_a_422_on_list_options():
    with pytest.raises(errors.StatusError) as info:
        defaulted_and_validated(ListOptions(send_initial_events=True), True)
    status = info.value.status()
    assert status["code"] == 422 and status["reason"] == "Invalid"
    assert status["details"]["group"] == "meta.k8s.io" and status["details"]["kind"] == "ListOptions"
    assert status["details"]["causes"] == [{"reason": "FieldValueForbidden",
                                            "message": "Forbidden: sendInitialEvents is forbidden for list",
                                            "field": "sendInitialEvents"}]
    assert status["message"] == ('ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: '
                                 'Forbidden: sendInitialEvents is forbidden for list')
