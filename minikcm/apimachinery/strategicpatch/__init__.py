"""Port of k8s.io/apimachinery/pkg/util/strategicpatch: applying strategic merge patches.

The PATCH flavour `kubectl apply`, `kubectl set image` and the Python client
send. patch.go (the merge) is `patch.py`, meta.go (the schema lookup) is
`meta.py`; the errors are in minikcm.apimachinery.mergepatch. The embedded API
server (minikcm.apiserver.patch) supplies a schema per kind and calls
`strategic_merge_map_patch_using_lookup_patch_meta`.
"""

from minikcm.apimachinery.strategicpatch.meta import NO_PATCH_META, LookupPatchMeta, PatchMeta, PatchMetaFromTable
from minikcm.apimachinery.strategicpatch.patch import (
    DELETE_DIRECTIVE,
    DELETE_FROM_PRIMITIVE_LIST_DIRECTIVE_PREFIX,
    DIRECTIVE_MARKER,
    MERGE_DIRECTIVE,
    REPLACE_DIRECTIVE,
    RETAIN_KEYS_DIRECTIVE,
    RETAIN_KEYS_STRATEGY,
    SET_ELEMENT_ORDER_DIRECTIVE_PREFIX,
    MergeOptions,
    strategic_merge_map_patch_using_lookup_patch_meta,
)

__all__ = [
    "DELETE_DIRECTIVE",
    "DELETE_FROM_PRIMITIVE_LIST_DIRECTIVE_PREFIX",
    "DIRECTIVE_MARKER",
    "MERGE_DIRECTIVE",
    "NO_PATCH_META",
    "REPLACE_DIRECTIVE",
    "RETAIN_KEYS_DIRECTIVE",
    "RETAIN_KEYS_STRATEGY",
    "SET_ELEMENT_ORDER_DIRECTIVE_PREFIX",
    "LookupPatchMeta",
    "MergeOptions",
    "PatchMeta",
    "PatchMetaFromTable",
    "strategic_merge_map_patch_using_lookup_patch_meta",
]
