"""Port of k8s.io/apimachinery/pkg/labels: label sets and the selectors that match them.

Controllers, listers and the API server pick objects by their labels: a
controller's `spec.selector` becomes a `Selector`, and a lister keeps the
objects whose labels it matches. Go code imports the package as a unit
(`labels.Everything()`), and so do we: `from minikcm.apimachinery import labels`.

One module per upstream file: `labels.py` (labels.go: the label `Set`) and
`selector.py` (selector.go: requirements, selectors, the selector parser). The
operator spellings are in `minikcm.apimachinery.selection` (pkg/selection).

Start reading at: selector.parse, then selector.Requirement.matches.
"""

from minikcm.apimachinery.labels.selector import (
    Requirement,
    RequirementError,
    Selector,
    SelectorParseError,
    everything,
    matches_nothing,
    new_requirement,
    new_selector,
    nothing,
    parse,
    parse_to_requirements,
    selector_from_set,
)
from minikcm.apimachinery.labels.labels import Labels, Set, format_labels

__all__ = [
    # labels.go
    "Labels",
    "Set",
    "format_labels",
    # selector.go
    "Selector",
    "everything",
    "nothing",
    "matches_nothing",
    "new_selector",
    "Requirement",
    "new_requirement",
    "parse",
    "parse_to_requirements",
    "selector_from_set",
    "RequirementError",
    "SelectorParseError",
]
