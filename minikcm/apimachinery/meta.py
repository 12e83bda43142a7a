"""Port of helpers from k8s.io/apimachinery/pkg/apis/meta/v1 (types.go options, helpers.go, controller_ref.go).

The request option structs every API call takes (ListOptions, DeleteOptions, ...)
and the helpers controllers use on object metadata: label selectors, owner
references, conditions.

Start reading at: label_selector_as_selector, then get_controller_of.

Not ported: TypeMeta/ObjectMeta (the official client models are used instead),
the conversion and defaulting of options, Table types.
Differs from Go: option structs are dataclasses with snake_case fields; Go's
`Continue` is `continue_` because `continue` is a Python keyword.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# --- request options (types.go) -------------------------------------------------

DELETE_PROPAGATION_ORPHAN = "Orphan"
DELETE_PROPAGATION_BACKGROUND = "Background"
DELETE_PROPAGATION_FOREGROUND = "Foreground"

FINALIZER_ORPHAN_DEPENDENTS = "orphan"
FINALIZER_DELETE_DEPENDENTS = "foregroundDeletion"

DRY_RUN_ALL = "All"

RESOURCE_VERSION_MATCH_NOT_OLDER_THAN = "NotOlderThan"
RESOURCE_VERSION_MATCH_EXACT = "Exact"


@dataclass
class ListOptions:
    """Port of ListOptions (also used for watch, as upstream does)."""

    label_selector: str = ""
    field_selector: str = ""
    watch: bool = False
    allow_watch_bookmarks: bool = False
    resource_version: str = ""
    resource_version_match: str = ""
    timeout_seconds: int | None = None
    limit: int = 0
    continue_: str = ""
    send_initial_events: bool | None = None


@dataclass
class GetOptions:
    """Port of GetOptions."""

    resource_version: str = ""


@dataclass
class CreateOptions:
    """Port of CreateOptions."""

    dry_run: list[str] = field(default_factory=list)
    field_manager: str = ""
    field_validation: str = ""


@dataclass
class UpdateOptions:
    """Port of UpdateOptions."""

    dry_run: list[str] = field(default_factory=list)
    field_manager: str = ""
    field_validation: str = ""


@dataclass
class PatchOptions:
    """Port of PatchOptions; `force` only matters for server-side apply."""

    dry_run: list[str] = field(default_factory=list)
    force: bool | None = None
    field_manager: str = ""
    field_validation: str = ""


@dataclass
class Preconditions:
    """Port of Preconditions: a delete only goes ahead when these still match."""

    uid: str | None = None
    resource_version: str | None = None


@dataclass
class DeleteOptions:
    """Port of DeleteOptions."""

    grace_period_seconds: int | None = None
    preconditions: Preconditions | None = None
    propagation_policy: str | None = None
    dry_run: list[str] = field(default_factory=list)


# --- helpers (helpers.go, controller_ref.go, conditions.go) ------------------------
