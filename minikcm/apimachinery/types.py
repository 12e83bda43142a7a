"""Port of k8s.io/apimachinery/pkg/types (patch.go, namespacedname.go, uid.go).

Names that travel with API calls: the patch content types and the
namespace/name pair that work queues carry.

Not ported: NodeName.
"""

from __future__ import annotations

from dataclasses import dataclass

UID = str
"""Port of UID: a unique id, a plain string here."""

PatchType = str
"""Port of PatchType: the HTTP content type of a patch body."""

JSON_PATCH_TYPE: PatchType = "application/json-patch+json"
MERGE_PATCH_TYPE: PatchType = "application/merge-patch+json"
STRATEGIC_MERGE_PATCH_TYPE: PatchType = "application/strategic-merge-patch+json"
APPLY_PATCH_TYPE: PatchType = "application/apply-patch+yaml"
APPLY_CBOR_PATCH_TYPE: PatchType = "application/apply-patch+cbor"

PATCH_TYPES = (JSON_PATCH_TYPE, MERGE_PATCH_TYPE, STRATEGIC_MERGE_PATCH_TYPE, APPLY_PATCH_TYPE)

SEPARATOR = "/"


@dataclass(frozen=True, order=True)
class NamespacedName:
    """Port of NamespacedName; `str()` gives `namespace/name`, or `name` when cluster-scoped."""

    namespace: str
    name: str

    def __str__(self) -> str:
        return f"{self.namespace}{SEPARATOR}{self.name}" if self.namespace else self.name
