"""Port of k8s.io/apimachinery/pkg/util/strategicpatch/meta.go.

How the merge learns, field by field, whether a list merges (and on which
key) or is replaced: a LookupPatchMeta answers for each field name and hands
back the schema of that field's value, so the merge walks the object and the
schema together.

Start reading at: PatchMetaFromTable.

Not ported: PatchMetaFromStruct (Go struct tags through reflection) and the
OpenAPI v2/v3 lookups.
Differs from Go: PatchMetaFromTable, our stand-in for PatchMetaFromStruct,
reads a table keyed by dotted field paths from the object root (what Go reads
from `patchStrategy`/`patchMergeKey` tags). A field missing from the table has
no strategy; upstream's struct lookup would instead fail for a field the Go
type does not have.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class PatchMeta:
    """Port of PatchMeta (meta.go): how one field is patched.

    `patch_strategies` is empty (maps merge, lists replace), `("merge",)`,
    `("replace",)`, `("retainKeys",)` or `("merge", "retainKeys")`;
    `patch_merge_key` names the key that identifies list items ("name").
    """

    patch_strategies: tuple[str, ...] = ()
    patch_merge_key: str = ""

    def get_patch_strategies(self) -> tuple[str, ...]:
        """Port of PatchMeta.GetPatchStrategies (meta.go)."""
        return self.patch_strategies

    def get_patch_merge_key(self) -> str:
        """Port of PatchMeta.GetPatchMergeKey (meta.go)."""
        return self.patch_merge_key


NO_PATCH_META = PatchMeta()


class LookupPatchMeta(Protocol):
    """Port of LookupPatchMeta (meta.go): the schema the merge walks down with."""

    def lookup_patch_metadata_for_struct(self, key: str) -> tuple[LookupPatchMeta, PatchMeta]:
        """The sub-schema and patch metadata of map-valued field `key`."""
        ...

    def lookup_patch_metadata_for_slice(self, key: str) -> tuple[LookupPatchMeta, PatchMeta]:
        """The sub-schema (of the list's items) and patch metadata of list field `key`."""
        ...

    def name(self) -> str:
        """A name for error messages (Go: the type name)."""
        ...


class PatchMetaFromTable:
    """A LookupPatchMeta that reads a table keyed by dotted field paths.

    Stands in for upstream's PatchMetaFromStruct. List items do not add a path
    segment: the env list of the first container of a Deployment is
    `spec.template.spec.containers.env`.
    """

    def __init__(self, type_name: str, table: dict[str, PatchMeta], path: str = "") -> None:
        self.type_name = type_name
        self.table = table
        self.path = path  # dotted path of the value this schema describes; "" at the root

    def lookup_patch_metadata_for_struct(self, key: str) -> tuple[PatchMetaFromTable, PatchMeta]:
        """Port of PatchMetaFromStruct.LookupPatchMetadataForStruct (meta.go), over the table."""
        return self._lookup(key)

    def lookup_patch_metadata_for_slice(self, key: str) -> tuple[PatchMetaFromTable, PatchMeta]:
        """Port of PatchMetaFromStruct.LookupPatchMetadataForSlice (meta.go), over the table."""
        return self._lookup(key)

    def name(self) -> str:
        """Port of PatchMetaFromStruct.Name (meta.go)."""
        return self.type_name

    def _lookup(self, key: str) -> tuple[PatchMetaFromTable, PatchMeta]:
        child = f"{self.path}.{key}" if self.path else key
        return PatchMetaFromTable(self.type_name, self.table, child), self.table.get(child, NO_PATCH_META)
