"""Port of k8s.io/apimachinery/pkg/apis/meta/internalversion (defaults.go, validation/validation.go).

What the API server does to a list or watch request's ListOptions before it
touches storage: `set_list_options_defaults` turns a plain watch from ""/"0"
into a watch-list request when the WatchList feature is on, and
`validate_list_options` refuses the combinations of resourceVersion,
resourceVersionMatch, continue and sendInitialEvents that have no meaning. The
handler answers any error with 422 Invalid on kind `ListOptions` of group
`meta.k8s.io` (`new_list_options_invalid`).

Start reading at: validate_list_options.

Not ported: the internal ListOptions type itself (the versioned
`minikcm.apimachinery.meta.ListOptions` is used, with `watch` set for a
watch), its conversion functions and deep copies.
"""

from __future__ import annotations

from minikcm.apimachinery import errors, field
from minikcm.apimachinery.meta import (
    RESOURCE_VERSION_MATCH_EXACT,
    RESOURCE_VERSION_MATCH_NOT_OLDER_THAN,
    ListOptions,
)
from minikcm.apimachinery.schema import GroupKind

META_GROUP_NAME = "meta.k8s.io"
"""Port of metav1.GroupName: the group the options kinds belong to."""


def set_list_options_defaults(obj: ListOptions, is_watch_list_feature_enabled: bool) -> None:
    """Port of SetListOptionsDefaults (pkg/apis/meta/internalversion/defaults.go).

    With the WatchList feature on, a watch that asks for no sendInitialEvents
    and no resourceVersionMatch and starts from "" or "0" (the old way of
    asking for the current state followed by changes) is rewritten in place
    into the explicit form: sendInitialEvents=true, resourceVersionMatch
    NotOlderThan. Lists and watches from a given version are left alone.
    """
    if not is_watch_list_feature_enabled:
        return
    if obj.send_initial_events is not None or obj.resource_version_match:
        return
    legacy = obj.resource_version in ("", "0")
    if obj.watch and legacy:
        obj.send_initial_events = True
        obj.resource_version_match = RESOURCE_VERSION_MATCH_NOT_OLDER_THAN


def validate_list_options(options: ListOptions, is_watch_list_feature_enabled: bool) -> list[field.Error]:
    """Port of ValidateListOptions (pkg/apis/meta/internalversion/validation/validation.go).

    The field errors of a list's options (a watch's go to
    `validate_watch_options`). resourceVersionMatch needs a resourceVersion,
    cannot be combined with continue, must be Exact or NotOlderThan, and Exact
    makes no sense at "0"; sendInitialEvents belongs to watches only.
    """
    if options.watch:
        return validate_watch_options(options, is_watch_list_feature_enabled)
    all_errs: list[field.Error] = []
    match = options.resource_version_match
    if match:
        path = field.new_path("resourceVersionMatch")
        if not options.resource_version:
            all_errs.append(field.forbidden(
                path, "resourceVersionMatch is forbidden unless resourceVersion is provided"))
        if options.continue_:
            all_errs.append(field.forbidden(
                path, "resourceVersionMatch is forbidden when continue is provided"))
        if match not in (RESOURCE_VERSION_MATCH_EXACT, RESOURCE_VERSION_MATCH_NOT_OLDER_THAN):
            all_errs.append(field.not_supported(
                path, match,
                [RESOURCE_VERSION_MATCH_EXACT, RESOURCE_VERSION_MATCH_NOT_OLDER_THAN, ""]))
        if match == RESOURCE_VERSION_MATCH_EXACT and options.resource_version == "0":
            all_errs.append(field.forbidden(
                path, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'))
    if options.send_initial_events is not None:
        all_errs.append(field.forbidden(field.new_path("sendInitialEvents"),
                                        "sendInitialEvents is forbidden for list"))
    return all_errs


def validate_watch_options(options: ListOptions, is_watch_list_feature_enabled: bool) -> list[field.Error]:
    """Port of validateWatchOptions (pkg/apis/meta/internalversion/validation/validation.go).

    A watch may carry sendInitialEvents only together with
    resourceVersionMatch=NotOlderThan and only while the WatchList feature is
    on; resourceVersionMatch in turn needs sendInitialEvents, may only be
    NotOlderThan, and cannot be combined with continue. allowWatchBookmarks is
    deliberately not required: older clients asked for the initial state with
    resourceVersion "0" and must keep working.
    """
    all_errs: list[field.Error] = []
    match = options.resource_version_match
    path = field.new_path("resourceVersionMatch")
    if options.send_initial_events is not None:
        if match != RESOURCE_VERSION_MATCH_NOT_OLDER_THAN:
            all_errs.append(field.forbidden(
                path, "sendInitialEvents requires setting resourceVersionMatch to "
                      f"{RESOURCE_VERSION_MATCH_NOT_OLDER_THAN}"))
        if not is_watch_list_feature_enabled:
            all_errs.append(field.forbidden(
                field.new_path("sendInitialEvents"),
                "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"))
    if match:
        if options.send_initial_events is None:
            all_errs.append(field.forbidden(
                path, "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"))
        if match != RESOURCE_VERSION_MATCH_NOT_OLDER_THAN:
            all_errs.append(field.not_supported(path, match, [RESOURCE_VERSION_MATCH_NOT_OLDER_THAN]))
        if options.continue_:
            all_errs.append(field.forbidden(
                path, "resourceVersionMatch is forbidden when continue is provided"))
    return all_errs


def new_list_options_invalid(errs: list[field.Error]) -> errors.StatusError:
    """The handler's answer to invalid ListOptions (listOpts in endpoints/handlers/get.go).

    422 Invalid on `ListOptions.meta.k8s.io` with no name, one cause per error.
    """
    return errors.new_invalid(GroupKind(META_GROUP_NAME, "ListOptions"), "", errs)


def defaulted_and_validated(options: ListOptions, is_watch_list_feature_enabled: bool) -> ListOptions:
    """Default `options` (in place), validate them, and return them; the two steps of listOpts in order.

    Raises:
        StatusError: 422 Invalid on ListOptions.meta.k8s.io naming each bad field.
    """
    set_list_options_defaults(options, is_watch_list_feature_enabled)
    errs = validate_list_options(options, is_watch_list_feature_enabled)
    if errs:
        raise new_list_options_invalid(errs)
    return options
