"""Port of k8s.io/apimachinery/pkg/util/strategicpatch/patch.go, the side that applies patches.

A strategic merge patch is a JSON merge patch that knows the schema: maps
merge key by key and `null` deletes, like RFC 7386, but lists tagged
`patchStrategy: merge` merge item by item on their merge key (containers by
`name`), and directives (`$patch`, `$retainKeys`, `$setElementOrder/<f>`,
`$deleteFromPrimitiveList/<f>`) say what plain JSON cannot. This is what
kube-apiserver runs for `application/strategic-merge-patch+json`
(StrategicMergeMapPatch, i.e. `mergeMap` with MergeParallelList and
IgnoreUnmatchedNulls set); minikcm.apiserver.patch supplies the schema per kind.

Start reading at: strategic_merge_map_patch_using_lookup_patch_meta, then
merge_map and merge_slice.

Not ported: patch creation (CreateTwoWayMergePatch, CreateThreeWayMergePatch,
all the diff functions), MergeStrategicMergeMapPatchUsingLookupPatchMeta,
conflict detection, sortMergeListsByName and the byte-slice entry points.
Differs from Go:
- Inputs are never mutated: both documents are deep-copied first.
- Patch keys are processed in sorted order (Go: random map order, same result).
- Numbers keep their JSON type (int or float) instead of Go's float64; scalar
  equality still treats 1 and 1.0 as equal and `true` as different from 1.
- normalize_slice_order sorts by position in the order list (Go: SliceStable
  with a partial comparator; the same result, as every item is found there).
- Go's slice aliasing, which upstream's ordering depends on, is replayed
  explicitly by go_aliased_server_order.
- With MergeParallelList off (merging two patches, client side only) the
  directives are kept without upstream's consistency checks.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from minikcm.apimachinery import mergepatch as mp
from minikcm.apimachinery.strategicpatch.meta import LookupPatchMeta

DIRECTIVE_MARKER = "$patch"
DELETE_DIRECTIVE = "delete"
REPLACE_DIRECTIVE = "replace"
MERGE_DIRECTIVE = "merge"
RETAIN_KEYS_STRATEGY = "retainKeys"
DELETE_FROM_PRIMITIVE_LIST_DIRECTIVE_PREFIX = "$deleteFromPrimitiveList"
RETAIN_KEYS_DIRECTIVE = "$" + RETAIN_KEYS_STRATEGY
SET_ELEMENT_ORDER_DIRECTIVE_PREFIX = "$setElementOrder"


JSONMap = dict[str, Any]
"""Port of JSONMap (patch.go): a decoded JSON object."""
JSONList = list[Any]
"""A decoded JSON array (Go: []interface{})."""


@dataclass(frozen=True)
class MergeOptions:
    """Port of MergeOptions (patch.go). The server always sets both flags."""

    merge_parallel_list: bool = True
    """Apply `$deleteFromPrimitiveList` and `$setElementOrder` lists instead of keeping them."""
    ignore_unmatched_nulls: bool = True
    """Drop a `null` for a key the original does not have, instead of keeping it."""


SERVER_MERGE_OPTIONS = MergeOptions(merge_parallel_list=True, ignore_unmatched_nulls=True)


def strategic_merge_map_patch_using_lookup_patch_meta(
    original: JSONMap, patch: JSONMap, schema: LookupPatchMeta
) -> JSONMap:
    """Port of StrategicMergeMapPatchUsingLookupPatchMeta (patch.go): apply `patch` to `original`.

    Returns a new document. Differs from Go: works on deep copies, so neither
    argument is changed.

    Raises:
        PatchError: when a document is not a JSON object or the patch is malformed.
    """
    if not isinstance(original, dict) or not isinstance(patch, dict):
        raise mp.PatchError(mp.ERR_BAD_JSON_DOC)
    return merge_map(copy.deepcopy(original), copy.deepcopy(patch), schema, SERVER_MERGE_OPTIONS)


def values_equal(a: Any, b: Any) -> bool:
    """Go's `==` on two decoded JSON scalars: equal kind and equal value."""
    return mp.value_kind(a) == mp.value_kind(b) and a == b


# --- list ordering -------------------------------------------------------------------


def validate_merge_key_in_lists(merge_key: str, *lists: JSONList) -> None:
    """Port of validateMergeKeyInLists (patch.go): every item is a map that has the merge key."""
    for lst in lists:
        for item in lst:
            if not isinstance(item, dict):
                raise mp.err_bad_arg_type(mp.MAP_TYPE, item)
            if merge_key not in item:
                raise mp.err_no_merge_key(item, merge_key)


def normalize_element_order(
    patch: JSONList, server_only: JSONList, patch_order: JSONList, server_order: JSONList, merge_key: str, kind: str
) -> JSONList:
    """Port of normalizeElementOrder (patch.go): sort both sides by their order lists, then interleave them."""
    patch = normalize_slice_order(patch, patch_order, merge_key, kind)
    server_only = normalize_slice_order(server_only, server_order, merge_key, kind)
    return merge_sorted_slice(server_only, patch, server_order, merge_key, kind)


def merge_sorted_slice(left: JSONList, right: JSONList, server_order: JSONList, merge_key: str, kind: str) -> JSONList:
    """Port of mergeSortedSlice (patch.go).

    Walks both lists like a merge step of merge sort: a `left` (server-only)
    item is emitted before the current `right` (patch) item only when both
    are in the live list and the left one comes first there. Example: live
    [a, b, c], left [b], right [c, a] (the patch's order): `b` is before `c`
    in the live list, so the result is [b, c, a].
    """

    def left_first(l_item: Any, r_item: Any) -> bool:
        li = index(server_order, l_item, merge_key, kind)
        ri = index(server_order, r_item, merge_key, kind)
        return li >= 0 and ri >= 0 and li < ri  # Go: less() found both, and l comes first

    i = j = 0
    out: JSONList = []
    for _ in range(len(left) + len(right)):
        if j >= len(right) or (i < len(left) and left_first(left[i], right[j])):
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out


def index(lst: JSONList, val_to_look_up: Any, merge_key: str, kind: str) -> int:
    """Port of index (patch.go): position of the item (by merge key for maps) in `lst`, or -1."""

    def get_val(item: Any) -> Any:
        if kind == "map":
            return item.get(merge_key) if isinstance(item, dict) else None
        return item

    wanted = get_val(val_to_look_up)
    for i, v in enumerate(lst):
        if values_equal(wanted, get_val(v)):
            return i
    return -1


def extract_to_delete_items(lst: JSONList) -> tuple[JSONList, JSONList]:
    """Port of extractToDeleteItems (patch.go): split items into (kept, marked `$patch: delete`)."""
    non_delete: JSONList = []
    to_delete: JSONList = []
    for v in lst:
        if not isinstance(v, dict):
            raise mp.err_bad_arg_type(mp.MAP_TYPE, v)
        if v.get(DIRECTIVE_MARKER) == DELETE_DIRECTIVE:
            to_delete.append(v)
        else:
            non_delete.append(v)
    return non_delete, to_delete


def normalize_slice_order(to_sort: JSONList, order: JSONList, merge_key: str, kind: str) -> JSONList:
    """Port of normalizeSliceOrder (patch.go): sort `to_sort` by position in `order`; deletions go last."""
    to_delete: JSONList = []
    if kind == "map":
        validate_merge_key_in_lists(merge_key, to_sort, order)
        to_sort, to_delete = extract_to_delete_items(to_sort)
    positions = [index(order, item, merge_key, kind) for item in to_sort]
    if all(p >= 0 for p in positions):
        to_sort = [item for _, item in sorted(zip(positions, to_sort), key=lambda pair: pair[0])]
    return to_sort + to_delete


# --- merging -------------------------------------------------------------------------


def handle_directive_in_merge_map(directive: Any, patch: JSONMap) -> JSONMap:
    """Port of handleDirectiveInMergeMap (patch.go): `$patch: replace` or `$patch: delete` on a map."""
    if directive == REPLACE_DIRECTIVE:
        # The map becomes the patch itself, minus the directive.
        del patch[DIRECTIVE_MARKER]
        return patch
    if directive == DELETE_DIRECTIVE:
        return {}
    raise mp.err_bad_patch_type(directive, patch)


def contains_directive_marker(item: Any) -> bool:
    """Port of containsDirectiveMarker (patch.go)."""
    return isinstance(item, dict) and DIRECTIVE_MARKER in item


def merge_key_value_equal(left: Any, right: Any, merge_key: str) -> bool:
    """Port of mergeKeyValueEqual (patch.go): same scalar, or maps with the same merge-key value."""
    if not merge_key:
        return values_equal(left, right)
    if not isinstance(left, dict):
        raise mp.err_bad_arg_type(mp.MAP_TYPE, left)
    if not isinstance(right, dict):
        raise mp.err_bad_arg_type(mp.MAP_TYPE, right)
    if merge_key not in left:
        raise mp.err_no_merge_key(left, merge_key)
    if merge_key not in right:
        raise mp.err_no_merge_key(right, merge_key)
    return values_equal(left[merge_key], right[merge_key])


def extract_key(s: str, prefix: str) -> str:
    """Port of extractKey (patch.go): `$setElementOrder/containers` -> `containers`."""
    head, sep, rest = s.partition("/")
    if not sep or head != prefix:
        if prefix == DELETE_FROM_PRIMITIVE_LIST_DIRECTIVE_PREFIX:
            raise mp.PatchError(mp.ERR_BAD_PATCH_FORMAT_FOR_PRIMITIVE_LIST)
        if prefix == SET_ELEMENT_ORDER_DIRECTIVE_PREFIX:
            raise mp.PatchError(mp.ERR_BAD_PATCH_FORMAT_FOR_SET_ELEMENT_ORDER_LIST)
        raise mp.PatchError(f"fail to find unknown prefix {prefix!r} in {s}")
    return rest


def validate_patch_with_set_order_list(patch_list: Any, set_order_list: Any, merge_key: str) -> None:
    """Port of validatePatchWithSetOrderList (patch.go).

    The patch list's items (deletions aside) must appear in `$setElementOrder`
    and in the same relative order.
    """
    if not isinstance(set_order_list, list) or not isinstance(patch_list, list):
        raise mp.PatchError(mp.ERR_BAD_PATCH_FORMAT_FOR_SET_ELEMENT_ORDER_LIST)
    if not set_order_list or not patch_list:
        return
    non_delete = extract_to_delete_items(patch_list)[0] if merge_key else patch_list
    patch_index = set_order_index = 0
    while patch_index < len(non_delete) and set_order_index < len(set_order_list):
        if contains_directive_marker(non_delete[patch_index]):
            patch_index += 1
            continue
        if merge_key_value_equal(non_delete[patch_index], set_order_list[set_order_index], merge_key):
            patch_index += 1
        set_order_index += 1
    if patch_index < len(non_delete) and set_order_index >= len(set_order_list):
        raise mp.PatchError(
            f"The order in patch list:\n{mp.go_value(patch_list)}\n doesn't match "
            f"{SET_ELEMENT_ORDER_DIRECTIVE_PREFIX} list:\n{mp.go_value(set_order_list)}\n"
        )


def preprocess_deletion_list_for_merging(
    key: str, original: JSONMap, patch_val: Any, merge_deletion_list: bool
) -> tuple[bool, bool, str]:
    """Port of preprocessDeletionListForMerging (patch.go).

    Returns (skip_processing, is_delete_list, key_without_prefix) for a
    `$deleteFromPrimitiveList/<field>` key; (False, False, "") otherwise.
    """
    if key.startswith(DELETE_FROM_PRIMITIVE_LIST_DIRECTIVE_PREFIX):
        if not merge_deletion_list:
            original[key] = patch_val
            return True, False, ""
        return False, True, extract_key(key, DELETE_FROM_PRIMITIVE_LIST_DIRECTIVE_PREFIX)
    return False, False, ""


def apply_retain_keys_directive(original: JSONMap, patch: JSONMap, options: MergeOptions) -> None:
    """Port of applyRetainKeysDirective (patch.go).

    With `$retainKeys: [a, b]` in the patch, every key of `original` not in
    the list is cleared, and every non-null key of the patch must be listed.
    """
    if RETAIN_KEYS_DIRECTIVE not in patch:
        return
    retain_keys = patch.pop(RETAIN_KEYS_DIRECTIVE)
    if not options.merge_parallel_list:
        original.setdefault(RETAIN_KEYS_DIRECTIVE, retain_keys)  # merging two patches: keep it
        return
    if not isinstance(retain_keys, list):
        raise mp.PatchError(mp.ERR_BAD_PATCH_FORMAT_FOR_RETAIN_KEYS)
    keep = set(str(k) for k in retain_keys if isinstance(k, str))
    for k, v in patch.items():
        directive = k.startswith((DELETE_FROM_PRIMITIVE_LIST_DIRECTIVE_PREFIX, SET_ELEMENT_ORDER_DIRECTIVE_PREFIX))
        if v is not None and not directive and k not in keep:
            raise mp.PatchError(mp.ERR_BAD_PATCH_FORMAT_FOR_RETAIN_KEYS)
    for k in list(original):
        if k not in keep:
            del original[k]


def merge_patch_into_original(
    original: JSONMap, patch: JSONMap, schema: LookupPatchMeta, options: MergeOptions
) -> None:
    """Port of mergePatchIntoOriginal (patch.go): merge each list that has a `$setElementOrder/<field>`.

    Order of the result: `$setElementOrder`, then the patch's, then the live
    list's. Both keys leave `patch`, so merge_map's main loop skips them.
    """
    for key in sorted(k for k in patch if k.startswith(SET_ELEMENT_ORDER_DIRECTIVE_PREFIX)):
        set_element_order = patch.pop(key)
        if not options.merge_parallel_list:
            original.setdefault(key, set_element_order)  # merging two patches: keep it
        if not isinstance(set_element_order, list):
            raise mp.err_bad_arg_type(mp.SLICE_TYPE, set_element_order)
        original_key = extract_key(key, SET_ELEMENT_ORDER_DIRECTIVE_PREFIX)
        found_original = original_key in original
        found_patch = original_key in patch
        original_list: JSONList = []
        patch_list: JSONList = []
        if found_original:
            if not isinstance(original[original_key], list):
                raise mp.err_bad_arg_type(mp.SLICE_TYPE, original[original_key])
            original_list = original[original_key]
        if found_patch:
            if not isinstance(patch[original_key], list):
                raise mp.err_bad_arg_type(mp.SLICE_TYPE, patch[original_key])
            patch_list = patch[original_key]
        subschema, patch_meta = schema.lookup_patch_metadata_for_slice(original_key)
        _, patch_strategy = extract_retain_keys_patch_strategy(patch_meta.get_patch_strategies())
        merge_key = patch_meta.get_patch_merge_key()
        validate_patch_with_set_order_list(patch_list, set_element_order, merge_key)

        if found_original and not found_patch:
            merged = original_list  # no change to the list's contents
        elif not found_original and found_patch:
            merged = remove_directives(patch_list)[0]
        elif found_original and found_patch:
            merged = merge_slice_handler(
                original_list, patch_list, subschema, patch_strategy, merge_key, False, options
            )
        else:
            continue

        # Split into items the order list names and items only the server has, then order them.
        if not merge_key:
            patch_items, server_only = partition_primitives_by_present_in_list(merged, set_element_order)
        else:
            patch_items, server_only = partition_maps_by_present_in_list(merged, set_element_order, merge_key)
        kind = slice_element_type(original_list, patch_list)
        server_order = original_list
        if found_original and found_patch and merge_key and patch_strategy == MERGE_DIRECTIVE:
            server_order = go_aliased_server_order(original_list, patch_list, merge_key)
        original[original_key] = normalize_element_order(
            patch_items, server_only, set_element_order, server_order, merge_key, kind
        )
        patch.pop(original_key, None)


def go_aliased_server_order(original: JSONList, patch: JSONList, merge_key: str) -> JSONList:
    """What Go's `originalFieldValue` slice holds after merge_slice has run on it.

    Tricky: upstream orders the merged list against the live list after
    mergeSlice edited that list's backing array in place: `$patch: delete`
    shifts later items left (Go's `append(s[:i], s[i+1:]...)`) and items
    appended after a deletion land in the freed slots. kubectl-apply results
    depend on this, so we replay it. The server's live lists come from
    runtime.DefaultUnstructuredConverter with capacity == length, so an
    append that does not fit goes to a new array and is not seen.

    Example: live [a, b, c], delete `a`, add `d`: [b, c, c], then [b, c, d].
    """
    backing, length, capacity = list(original), len(original), len(original)
    directives = [item for item in patch if isinstance(item, dict) and DIRECTIVE_MARKER in item]
    for item in directives:
        if item[DIRECTIVE_MARKER] == DELETE_DIRECTIVE and merge_key in item:
            _, i, found = find_map_in_slice_based_on_key_value(backing[:length], merge_key, item[merge_key])
            while found:
                backing[i : length - 1] = backing[i + 1 : length]  # the tail slot keeps its old value
                length -= 1
                _, i, found = find_map_in_slice_based_on_key_value(backing[:length], merge_key, item[merge_key])
    if any(item[DIRECTIVE_MARKER] == REPLACE_DIRECTIVE for item in directives):  # merged into a fresh list
        return backing
    for item in patch:
        if not isinstance(item, dict) or DIRECTIVE_MARKER in item or merge_key not in item:
            continue
        if find_map_in_slice_based_on_key_value(backing[:length], merge_key, item[merge_key])[2]:
            continue  # merged in place: same merge-key value at the same slot
        if length >= capacity:
            break  # Go reallocates; later appends go to a new array
        backing[length] = item
        length += 1
    return backing


def partition_primitives_by_present_in_list(original: JSONList, partition_by: JSONList) -> tuple[JSONList, JSONList]:
    """Port of partitionPrimitivesByPresentInList (patch.go): (items in `partition_by`, the rest)."""
    present: JSONList = []
    server_only: JSONList = []
    for v in original:
        if any(values_equal(v, p) for p in partition_by):
            present.append(v)
        else:
            server_only.append(v)
    return present, server_only


def partition_maps_by_present_in_list(
    original: JSONList, partition_by: JSONList, merge_key: str
) -> tuple[JSONList, JSONList]:
    """Port of partitionMapsByPresentInList (patch.go): the same, matching maps on the merge key."""
    present: JSONList = []
    server_only: JSONList = []
    for v in original:
        if not isinstance(v, dict):
            raise mp.err_bad_arg_type(mp.MAP_TYPE, v)
        if merge_key not in v:
            raise mp.err_no_merge_key(v, merge_key)
        found = find_map_in_slice_based_on_key_value(partition_by, merge_key, v[merge_key])[2]
        (present if found else server_only).append(v)
    return present, server_only


def remove_directives(obj: Any) -> tuple[Any, bool]:
    """Port of removeDirectives (patch.go): strip directive maps from a value taken from the patch.

    Returns (value, keep); keep is False when the value itself is a directive map.
    """
    if isinstance(obj, dict):
        if DIRECTIVE_MARKER in obj:
            return None, False
        for k in list(obj):
            value, keep = remove_directives(obj[k])
            if keep:
                obj[k] = value
            else:
                del obj[k]
        return obj, True
    if isinstance(obj, list):
        out = []
        for v in obj:
            value, keep = remove_directives(v)
            if keep:
                out.append(value)
        return out, True
    return obj, True


def merge_map(original: JSONMap | None, patch: JSONMap, schema: LookupPatchMeta, options: MergeOptions) -> JSONMap:
    """Port of mergeMap (patch.go): merge `patch` into `original` and return it.

    Mutates both arguments (callers pass copies). Per patch key:
    `null` deletes; a key the original lacks, or a value of another JSON
    type, is taken from the patch (directives stripped); two maps merge
    recursively (or are replaced under the `replace` strategy); two lists go
    to merge_slice_handler; scalars are replaced.
    """
    if DIRECTIVE_MARKER in patch:
        return handle_directive_in_merge_map(patch[DIRECTIVE_MARKER], patch)
    if original is None:
        original = {}
    apply_retain_keys_directive(original, patch, options)
    merge_patch_into_original(original, patch, schema, options)

    for k in sorted(patch):
        patch_v = patch[k]
        skip, is_delete_list, no_prefix_key = preprocess_deletion_list_for_merging(
            k, original, patch_v, options.merge_parallel_list
        )
        if skip:
            continue
        if no_prefix_key:
            k = no_prefix_key

        if patch_v is None:
            original.pop(k, None)
            if options.ignore_unmatched_nulls:
                continue

        if k not in original or mp.value_kind(original[k]) != mp.value_kind(patch_v):
            if not is_delete_list:
                _take_patch_value(original, k, patch_v, options)
            continue

        kind = mp.value_kind(original[k])
        if kind == "map":
            subschema, patch_meta = schema.lookup_patch_metadata_for_struct(k)
            _, strategy = extract_retain_keys_patch_strategy(patch_meta.get_patch_strategies())
            original[k] = merge_map_handler(original[k], patch_v, subschema, strategy, options)
        elif kind == "slice":
            subschema, patch_meta = schema.lookup_patch_metadata_for_slice(k)
            _, strategy = extract_retain_keys_patch_strategy(patch_meta.get_patch_strategies())
            original[k] = merge_slice_handler(
                original[k], patch_v, subschema, strategy, patch_meta.get_patch_merge_key(), is_delete_list, options
            )
        else:
            value, keep = remove_directives(patch_v)
            if keep:
                original[k] = value
            else:
                del original[k]
    return original


def _take_patch_value(original: JSONMap, k: str, patch_v: Any, options: MergeOptions) -> None:
    # The branch of mergeMap for a key the original lacks or holds with another type.
    if options.ignore_unmatched_nulls:
        discard_null_values_from_patch(patch_v)
    value, keep = remove_directives(patch_v)
    if keep:
        original[k] = value
    else:
        original.pop(k, None)


def discard_null_values_from_patch(patch_v: Any) -> None:
    """Port of discardNullValuesFromPatch (patch.go): drop `null` map values, recursively."""
    if isinstance(patch_v, dict):
        for k in list(patch_v):
            if patch_v[k] is None:
                del patch_v[k]
            else:
                discard_null_values_from_patch(patch_v[k])
    elif isinstance(patch_v, list):
        for v in patch_v:
            discard_null_values_from_patch(v)


def merge_map_handler(
    original: Any, patch: Any, schema: LookupPatchMeta, field_patch_strategy: str, options: MergeOptions
) -> JSONMap:
    """Port of mergeMapHandler (patch.go): merge two maps unless the field's strategy is `replace`."""
    if not isinstance(original, dict):
        raise mp.err_bad_arg_type(mp.MAP_TYPE, original)
    if not isinstance(patch, dict):
        raise mp.err_bad_arg_type(mp.MAP_TYPE, patch)
    if field_patch_strategy != REPLACE_DIRECTIVE:
        return merge_map(original, patch, schema, options)
    return patch


def merge_slice_handler(
    original: Any,
    patch: Any,
    schema: LookupPatchMeta,
    field_patch_strategy: str,
    field_patch_merge_key: str,
    is_delete_list: bool,
    options: MergeOptions,
) -> JSONList:
    """Port of mergeSliceHandler (patch.go): merge two lists under the `merge` strategy, else replace."""
    if not isinstance(original, list):
        raise mp.err_bad_arg_type(mp.SLICE_TYPE, original)
    if not isinstance(patch, list):
        raise mp.err_bad_arg_type(mp.SLICE_TYPE, patch)
    if field_patch_strategy == MERGE_DIRECTIVE or is_delete_list:
        return merge_slice(original, patch, schema, field_patch_merge_key, options, is_delete_list)
    return patch


def merge_slice(
    original: JSONList,
    patch: JSONList,
    schema: LookupPatchMeta,
    merge_key: str,
    options: MergeOptions,
    is_delete_list: bool,
) -> JSONList:
    """Port of mergeSlice (patch.go).

    Lists of scalars become the union of both (or the original minus the
    patch for a `$deleteFromPrimitiveList`); lists of maps merge item by item
    on `merge_key`, honouring `$patch: delete` and `$patch: replace` items.
    The result keeps the patch's order and slots live-only items in where
    they sat in the live list.
    """
    if not original and not patch:
        return original
    kind = slice_element_type(original, patch)
    server_order = list(original)
    if kind != "map":
        if options.merge_parallel_list and is_delete_list:
            return delete_from_slice(original, patch)
        merged = deduplicate_scalars(original + patch)
    else:
        if not merge_key:
            raise mp.PatchError(f"cannot merge lists without merge key for {schema.name()}")
        original, patch = merge_slice_with_special_elements(original, patch, merge_key)
        server_order = list(original)
        merged = merge_slice_without_special_elements(original, patch, merge_key, schema, options)

    if not merge_key:
        patch_items, server_only = partition_primitives_by_present_in_list(merged, patch)
    else:
        patch_items, server_only = partition_maps_by_present_in_list(merged, patch, merge_key)
    return normalize_element_order(patch_items, server_only, patch, server_order, merge_key, kind)


def merge_slice_with_special_elements(original: JSONList, patch: JSONList, merge_key: str) -> tuple[JSONList, JSONList]:
    """Port of mergeSliceWithSpecialElements (patch.go): apply `$patch` items of a list of maps.

    `{name: x, $patch: delete}` removes every x; `{$patch: replace}` makes the
    rest of the patch the list. Returns (original, patch without these items).
    """
    without_special: JSONList = []
    replace = False
    for v in patch:
        if not isinstance(v, dict):
            raise mp.err_bad_arg_type(mp.MAP_TYPE, v)
        if DIRECTIVE_MARKER not in v:
            without_special.append(v)
            continue
        patch_type = v[DIRECTIVE_MARKER]
        if patch_type == DELETE_DIRECTIVE:
            if merge_key not in v:
                raise mp.err_no_merge_key(v, merge_key)
            original = delete_matching_entries(original, merge_key, v[merge_key])
        elif patch_type == REPLACE_DIRECTIVE:
            replace = True  # keep scanning, to drop any other directive items
        elif patch_type == MERGE_DIRECTIVE:
            raise mp.PatchError("merging lists cannot yet be specified in the patch")
        else:
            raise mp.err_bad_patch_type(patch_type, v)
    if replace:
        return without_special, []
    return original, without_special


def delete_matching_entries(original: JSONList, merge_key: str, merge_value: Any) -> JSONList:
    """Port of deleteMatchingEntries (patch.go): drop every map whose merge key equals `merge_value`."""
    if any(not isinstance(v, dict) for v in original):
        raise mp.PatchError("value for key is not a map")
    return [v for v in original if not (merge_key in v and values_equal(v[merge_key], merge_value))]


def merge_slice_without_special_elements(
    original: JSONList, patch: JSONList, merge_key: str, schema: LookupPatchMeta, options: MergeOptions
) -> JSONList:
    """Port of mergeSliceWithoutSpecialElements (patch.go): merge matching items, append new ones."""
    original = list(original)
    for v in patch:
        if merge_key not in v:
            raise mp.err_no_merge_key(v, merge_key)
        original_map, position, found = find_map_in_slice_based_on_key_value(original, merge_key, v[merge_key])
        if found:
            original[position] = merge_map(original_map, v, schema, options)
        else:
            original.append(v)
    return original


def delete_from_slice(current: JSONList, to_delete: JSONList) -> JSONList:
    """Port of deleteFromSlice (patch.go): `current` without the values in `to_delete`."""
    return [v for v in current if not any(values_equal(v, d) for d in to_delete)]


def find_map_in_slice_based_on_key_value(m: JSONList, key: str, value: Any) -> tuple[JSONMap | None, int, bool]:
    """Port of findMapInSliceBasedOnKeyValue (patch.go): (item, position, found) of the first match."""
    for i, v in enumerate(m):
        if not isinstance(v, dict):
            raise mp.PatchError(f"value for key {i} is not a map")
        if key in v and values_equal(v[key], value):
            return v, i, True
    return None, 0, False


def deduplicate_scalars(s: JSONList) -> JSONList:
    """Port of deduplicateScalars (patch.go): drop repeated values, keeping the first of each.

    Differs from Go: Go's in-place algorithm moves the last item into each
    removed slot; the order is re-established by the caller either way.
    """
    out: JSONList = []
    for v in s:
        if not any(values_equal(v, seen) for seen in out):
            out.append(v)
    return out


def slice_element_type(*slices: Iterable[Any]) -> str:
    """Port of sliceElementType (patch.go): the one kind shared by every item of the lists.

    Raises:
        PatchError: for lists of lists, mixed kinds, or no items at all.
    """
    prev: str | None = None
    for s in slices:
        for v in s:
            current = mp.value_kind(v)
            if prev is None:
                prev = current
                if prev == "slice":
                    raise mp.PatchError(mp.ERR_NO_LIST_OF_LISTS)
            elif prev != current:
                raise mp.PatchError(f"list element types are not identical: {mp.go_value([list(x) for x in slices])}")
    if prev is None:
        raise mp.PatchError("no elements in any of the given slices")
    return prev


def extract_retain_keys_patch_strategy(strategies: tuple[str, ...]) -> tuple[bool, str]:
    """Port of extractRetainKeysPatchStrategy (patch.go): (has retainKeys, the other strategy).

    Allowed: no strategy, one strategy, or retainKeys together with one other.
    """
    others = [s for s in strategies if s != RETAIN_KEYS_STRATEGY]
    if len(strategies) <= 1 or (len(strategies) == 2 and len(others) == 1):
        return len(others) < len(strategies), others[0] if others else ""
    raise mp.PatchError(f"unexpected patch strategy: {list(strategies)}")
