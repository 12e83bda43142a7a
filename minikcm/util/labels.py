"""Port of pkg/util/labels/labels.go (k8s.io/kubernetes/pkg/util/labels).

Small helpers that add or remove one label on a label map or a label
selector. The Deployment controller uses them to stamp the
`pod-template-hash` label onto a new ReplicaSet's labels, its selector and its
pod template, so that ReplicaSets of one Deployment never select each
other's pods.

Start reading at: clone_selector_and_add_label.

Not ported: nothing.
Differs from Go: selectors are V1LabelSelector models; a None map reads as Go's nil map.
"""

from __future__ import annotations

from kubernetes.client import V1LabelSelector, V1LabelSelectorRequirement


def clone_and_add_label(labels: dict[str, str] | None, label_key: str, label_value: str) -> dict[str, str] | None:
    """Port of CloneAndAddLabel: a new map with `label_key=label_value` added.

    Returns `labels` itself (not a copy) when `label_key` is empty.
    """
    if label_key == "":
        return labels
    new_labels = dict(labels or {})
    new_labels[label_key] = label_value
    return new_labels


def clone_and_remove_label(labels: dict[str, str] | None, label_key: str) -> dict[str, str] | None:
    """Port of CloneAndRemoveLabel: a new map without `label_key`; `labels` itself when the key is empty."""
    if label_key == "":
        return labels
    new_labels = dict(labels or {})
    new_labels.pop(label_key, None)
    return new_labels


def add_label(labels: dict[str, str] | None, label_key: str, label_value: str) -> dict[str, str] | None:
    """Port of AddLabel: set `label_key=label_value` in `labels` (in place) and return it.

    A None map is replaced by a new one, which the caller must keep (as in Go).
    """
    if label_key == "":
        return labels
    if labels is None:
        labels = {}
    labels[label_key] = label_value
    return labels


def clone_selector_and_add_label(selector: V1LabelSelector, label_key: str, label_value: str) -> V1LabelSelector:
    """Port of CloneSelectorAndAddLabel: a copy of `selector` that also requires `label_key=label_value`.

    The copy always has a matchLabels map; its matchExpressions are copied one
    by one (a requirement without values keeps None). Returns `selector`
    itself when `label_key` is empty.
    """
    if label_key == "":
        return selector
    match_labels = dict(selector.match_labels or {})
    match_labels[label_key] = label_value
    match_expressions = None
    if selector.match_expressions is not None:
        match_expressions = [
            V1LabelSelectorRequirement(
                key=me.key,
                operator=me.operator,
                values=list(me.values) if me.values is not None else None,
            )
            for me in selector.match_expressions
        ]
    return V1LabelSelector(match_labels=match_labels, match_expressions=match_expressions)


def add_label_to_selector(selector: V1LabelSelector, label_key: str, label_value: str) -> V1LabelSelector:
    """Port of AddLabelToSelector: add the label to `selector.match_labels` in place; returns `selector`."""
    if label_key == "":
        return selector
    if selector.match_labels is None:
        selector.match_labels = {}
    selector.match_labels[label_key] = label_value
    return selector


def selector_has_label(selector: V1LabelSelector, label_key: str) -> bool:
    """Port of SelectorHasLabel: matchLabels holds a non-empty value for `label_key` (expressions are not consulted)."""
    return len((selector.match_labels or {}).get(label_key, "")) > 0
