"""Port of k8s.io/apimachinery/pkg/labels/labels.go.

A label `Set` is the `metadata.labels` map of an object, with the few helpers
controllers use on it: printing (`a=1,b=2`), comparing, merging, and turning it
into the selector that matches exactly those labels (`Set.as_selector`). The
selectors themselves live in selector.py.

Start reading at: Set, then Set.as_selector.

Differs from Go:
- `Labels` is any `Mapping[str, str]` (or None, read as no labels) rather than an
  interface with Has/Get/Lookup; `Set` is a `dict` subclass that adds them.
- convert_selector_to_labels_map raises (ValueError, or RequirementError for an
  invalid key or value) instead of returning an error; Go's
  `opts ...field.PathOption` is one optional `path: field.Path | None`.
"""

from __future__ import annotations

from collections.abc import Mapping

from minikcm.apimachinery import field
from minikcm.apimachinery.labels.selector import (
    RequirementError,
    Selector,
    selector_from_set,
    selector_from_validated_set,
    validate_label_key,
    validate_label_value,
    validated_selector_from_set,
)

Labels = Mapping[str, str]
"""Port of Labels (labels.go): anything that maps label keys to values."""


class Set(dict[str, str]):
    """Port of Set (labels.go): a map of label key to value.

    A real `dict`; `get(label)` returns "" for a missing key (Go's zero value).
    """

    def __str__(self) -> str:
        """Port of Set.String: sorted `k=v` pairs joined by ",", which parse reads back."""
        return ",".join(sorted(f"{k}={v}" for k, v in self.items()))

    def has(self, label: str) -> bool:
        """Port of Set.Has."""
        return label in self

    def get(self, label: str, default: str = "") -> str:  # type: ignore[override]
        """Port of Set.Get: the value, or "" when absent."""
        return super().get(label, default)

    def lookup(self, label: str) -> tuple[str, bool]:
        """Port of Set.Lookup: (value, present)."""
        if label in self:
            return self[label], True
        return "", False

    def as_selector(self) -> Selector:
        """Port of Set.AsSelector: no validation (the server rejects bad values)."""
        return selector_from_set(self)

    def as_validated_selector(self) -> Selector:
        """Port of Set.AsValidatedSelector. Raises RequirementError for an invalid pair."""
        return validated_selector_from_set(self)

    def as_selector_pre_validated(self) -> Selector:
        """Port of Set.AsSelectorPreValidated: trusts the set, copies it into requirements."""
        return selector_from_validated_set(self)


def format_labels(label_map: Mapping[str, str] | None) -> str:
    """Port of FormatLabels (labels.go): `a=1,b=2`, or "<none>" for no labels."""
    return str(Set(label_map or {})) or "<none>"


def conflicts(labels1: Mapping[str, str], labels2: Mapping[str, str]) -> bool:
    """Port of Conflicts (labels.go): True when some key is in both with different values."""
    small, big = (labels2, labels1) if len(labels2) < len(labels1) else (labels1, labels2)
    return any(k in big and big[k] != v for k, v in small.items())


def merge(labels1: Mapping[str, str], labels2: Mapping[str, str]) -> Set:
    """Port of Merge (labels.go): the union; on a shared key `labels2` wins."""
    merged = Set(labels1)
    merged.update(labels2)
    return merged


def equals(labels1: Mapping[str, str] | None, labels2: Mapping[str, str] | None) -> bool:
    """Port of Equals (labels.go): same keys with same values (None equals empty)."""
    return dict(labels1 or {}) == dict(labels2 or {})


def convert_selector_to_labels_map(selector: str, path: field.Path | None = None) -> Set:
    """Port of ConvertSelectorToLabelsMap (labels.go).

    Reads the old `k=v,k2=v2` form (only single "=" terms, spaces trimmed) into
    a Set, validating keys and values. `x`, `x!=y`, `x==y` and `x in (y)` are errors.

    Raises:
        ValueError: for a term that is not exactly one "=" split, or an invalid
            key or value (RequirementError).
    """
    labels_map = Set()
    if not selector:
        return labels_map
    for label in selector.split(","):
        parts = label.split("=")
        if len(parts) != 2:
            raise ValueError(f"invalid selector: {_go_list(parts)}")
        key = parts[0].strip()
        if (err := validate_label_key(key, path)) is not None:
            raise RequirementError([err])
        value = parts[1].strip()
        if (err := validate_label_value(key, value, path)) is not None:
            raise RequirementError([err])
        labels_map[key] = value
    return labels_map


def _go_list(items: list[str]) -> str:
    # How Go's %s prints a []string: [a b c].
    return "[" + " ".join(items) + "]"
