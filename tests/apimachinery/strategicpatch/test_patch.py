"""Tests for minikcm.apimachinery.strategicpatch.patch (port of pkg/util/strategicpatch/patch_test.go).

The MERGE_ITEM_* tables carry the apply-side cases of upstream's
pkg/util/strategicpatch/patch_test.go at v0.36.3: each upstream case applies its
two-way patch to `original` (expecting `modified`, or `twoWayResult`) and its
three-way patch to `current` (expecting `result`); ids name the upstream case
and which of the two applications the row is. They run against MergeItemSchema,
our stand-in for upstream's MergeItem struct tags.
"""

from __future__ import annotations

import copy

import pytest

from minikcm.apimachinery.mergepatch import PatchError
from minikcm.apimachinery.strategicpatch import (
    NO_PATCH_META,
    PatchMeta,
    strategic_merge_map_patch_using_lookup_patch_meta,
)


class MergeItemSchema:
    """A LookupPatchMeta mirroring the struct tags of upstream's test type MergeItem."""

    MERGE = ("merge",)
    FIELDS = {
        "MergeItem": {
            "mergingList": (MERGE, "name", "MergeItem"),
            "nonMergingList": ((), "", "MergeItem"),
            "mergingIntList": (MERGE, "", None),
            "nonMergingIntList": ((), "", None),
            "mergeItemPtr": (MERGE, "name", "MergeItem"),
            "simpleMap": ((), "", None),
            "replacingItem": (("replace",), "", None),
            "retainKeysMap": (("retainKeys",), "", "RetainKeysMergeItem"),
            "retainKeysMergingList": (("merge", "retainKeys"), "name", "MergeItem"),
        },
        "RetainKeysMergeItem": {
            "simpleMap": ((), "", None),
            "mergingIntList": (MERGE, "", None),
            "mergingList": (MERGE, "name", "MergeItem"),
            "nonMergingList": ((), "", "MergeItem"),
        },
    }

    def __init__(self, type_name: str = "MergeItem") -> None:
        self.type_name = type_name

    def lookup_patch_metadata_for_struct(self, key):
        return self._lookup(key)

    def lookup_patch_metadata_for_slice(self, key):
        return self._lookup(key)

    def name(self):
        return self.type_name

    def _lookup(self, key):
        entry = self.FIELDS.get(self.type_name, {}).get(key)
        if entry is None:
            return MergeItemSchema("leaf"), NO_PATCH_META
        strategies, merge_key, sub = entry
        return MergeItemSchema(sub or "leaf"), PatchMeta(strategies, merge_key)


def apply_merge_item(original, patch):
    return strategic_merge_map_patch_using_lookup_patch_meta(original, patch, MergeItemSchema())


# fmt: off
MERGE_ITEM_CASES = [
    #            original, patch, expected
    pytest.param({'mergingIntList': [1, 2]}, {'mergingIntList': [2, 3]}, {'mergingIntList': [1, 2, 3]}, id='unique-scalars-when-merging-lists'),
    pytest.param({'simpleMap': {'key1': 1, 'key2': 1}}, {'simpleMap': {'$patch': 'delete'}}, {'simpleMap': {}}, id='delete-map-from-nested-map'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2}]}, {'mergingList': [{'$patch': 'replace'}]}, {'mergingList': []}, id='delete-all-items-from-merging-list'),
    pytest.param({'mergingList': []}, {'mergingList': []}, {'mergingList': []}, id='merge-empty-merging-lists'),
    pytest.param({'name': 1, 'value': 1}, {'$patch': 'replace'}, {}, id='delete-all-keys-from-map'),
    pytest.param({'name': 1, 'value': 1}, {'other': 'a', '$patch': 'replace'}, {'other': 'a'}, id='add-key-and-delete-all-keys-from-map'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 1}, {'name': 2, 'value': 'a'}, {'name': 3}, {'name': 3}]}, {'mergingList': [{'name': 1, '$patch': 'delete'}, {'name': 3, '$patch': 'delete'}]}, {'mergingList': [{'name': 2, 'value': 'a'}]}, id='delete-all-duplicate-entries-in-a-merging-list'),
    pytest.param({'retainKeysMap': {'name': 'foo'}}, {'retainKeysMap': {'value': 'bar'}}, {'retainKeysMap': {'name': 'foo', 'value': 'bar'}}, id='retainkeys-map-can-add-a-field-when-no-retainkeys-directive-present'),
    pytest.param({'retainKeysMap': {'name': 'foo', 'value': 'a'}}, {'retainKeysMap': {'value': 'b'}}, {'retainKeysMap': {'name': 'foo', 'value': 'b'}}, id='retainkeys-map-can-change-a-field-when-no-retainkeys-directive-present'),
    pytest.param({'retainKeysMap': {'name': 'foo', 'value': 'a'}}, {'retainKeysMap': {'value': None}}, {'retainKeysMap': {'name': 'foo'}}, id='retainkeys-map-can-delete-a-field-when-no-retainkeys-directive-present'),
    pytest.param({'retainKeysMap': {'name': 'foo', 'value': 'a'}}, {'retainKeysMap': {}}, {'retainKeysMap': {'name': 'foo', 'value': 'a'}}, id='retainkeys-map-merge-an-empty-map'),
    pytest.param({'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo'}]}, {'retainKeysMergingList': [{'name': 'foo', 'value': 'a'}]}, {'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo', 'value': 'a'}]}, id='retainkeys-list-can-add-a-field-when-no-retainkeys-directive-present'),
    pytest.param({'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo', 'value': 'a'}]}, {'retainKeysMergingList': [{'name': 'foo', 'value': 'b'}]}, {'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo', 'value': 'b'}]}, id='retainkeys-list-can-change-a-field-when-no-retainkeys-directive-present'),
    pytest.param({'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo', 'value': 'a'}]}, {'retainKeysMergingList': [{'name': 'foo', 'value': None}]}, {'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo'}]}, id='retainkeys-list-can-delete-a-field-when-no-retainkeys-directive-present'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2, 'value': 'b'}, {'name': 3}]}, {'mergingList': [{'name': 3, 'value': 'c'}, {'name': 1, 'value': 'a'}, {'name': 2, 'other': 'x'}]}, {'mergingList': [{'name': 3, 'value': 'c'}, {'name': 1, 'value': 'a'}, {'name': 2, 'value': 'b', 'other': 'x'}]}, id='preserve-the-order-from-the-patch-in-a-merging-list'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2, 'value': 'b'}, {'name': 3}]}, {'mergingList': [{'name': 3, 'value': 'c'}, {'name': 1, 'value': 'a'}]}, {'mergingList': [{'name': 2, 'value': 'b'}, {'name': 3, 'value': 'c'}, {'name': 1, 'value': 'a'}]}, id='preserve-the-order-from-the-patch-in-a-merging-list-2'),
    pytest.param({'mergingIntList': [1, 2, 3]}, {'mergingIntList': [3, 1, 2]}, {'mergingIntList': [3, 1, 2]}, id='preserve-the-order-from-the-patch-in-a-merging-int-list'),
    pytest.param({'mergingIntList': [1, 2, 3]}, {'mergingIntList': [3, 1]}, {'mergingIntList': [2, 3, 1]}, id='preserve-the-order-from-the-patch-in-a-merging-int-list-2'),
    pytest.param({}, {'name': 1, 'value': 1}, {'name': 1, 'value': 1}, id='nil-original/two-way'),
    pytest.param({'name': 1, 'other': 'a'}, {'value': 1}, {'name': 1, 'value': 1, 'other': 'a'}, id='nil-original/three-way'),
    pytest.param({'name': 1}, {}, {'name': 1}, id='nil-patch/two-way'),
    pytest.param({'name': 1}, {}, {'name': 1}, id='nil-patch/three-way'),
    pytest.param({'name': 1}, {'value': 1}, {'name': 1, 'value': 1}, id='add-field-to-map/two-way'),
    pytest.param({'name': 1, 'other': 'a'}, {'value': 1}, {'name': 1, 'value': 1, 'other': 'a'}, id='add-field-to-map/three-way'),
    pytest.param({'name': 1}, {'value': 1}, {'name': 1, 'value': 1}, id='add-field-to-map-with-conflict/two-way'),
    pytest.param({'name': 'a', 'other': 'a'}, {'name': 1, 'value': 1}, {'name': 1, 'value': 1, 'other': 'a'}, id='add-field-to-map-with-conflict/three-way'),
    pytest.param({'name': 1}, {'name': None, 'value': 1}, {'value': 1}, id='add-field-and-delete-field-from-map/two-way'),
    pytest.param({'name': 1, 'other': 'a'}, {'name': None, 'value': 1}, {'value': 1, 'other': 'a'}, id='add-field-and-delete-field-from-map/three-way'),
    pytest.param({'name': 1}, {'name': None, 'value': 1}, {'value': 1}, id='add-field-and-delete-field-from-map-with-conflict/two-way'),
    pytest.param({'name': 'a', 'other': 'a'}, {'name': None, 'value': 1}, {'value': 1, 'other': 'a'}, id='add-field-and-delete-field-from-map-with-conflict/three-way'),
    pytest.param({'simpleMap': {'key1': 1, 'key2': 1}}, {'simpleMap': {'key2': None}}, {'simpleMap': {'key1': 1}}, id='delete-field-from-nested-map/two-way'),
    pytest.param({'simpleMap': {'key1': 1, 'key2': 1, 'other': 'a'}}, {'simpleMap': {'key2': None}}, {'simpleMap': {'key1': 1, 'other': 'a'}}, id='delete-field-from-nested-map/three-way'),
    pytest.param({'simpleMap': {'key1': 1, 'key2': 1}}, {'simpleMap': {'key2': None}}, {'simpleMap': {'key1': 1}}, id='delete-field-from-nested-map-with-conflict/two-way'),
    pytest.param({'simpleMap': {'key1': 'a', 'key2': 1, 'other': 'a'}}, {'simpleMap': {'key1': 1, 'key2': None}}, {'simpleMap': {'key1': 1, 'other': 'a'}}, id='delete-field-from-nested-map-with-conflict/three-way'),
    pytest.param({'name': 1, 'value': 1}, {'name': None, 'value': None}, {}, id='delete-all-fields-from-map/two-way'),
    pytest.param({'name': 1, 'value': 1, 'other': 'a'}, {'name': None, 'value': None}, {'other': 'a'}, id='delete-all-fields-from-map/three-way'),
    pytest.param({'name': 1, 'value': 1}, {'name': None, 'value': None}, {}, id='delete-all-fields-from-map-with-conflict/two-way'),
    pytest.param({'name': 1, 'value': 'a', 'other': 'a'}, {'name': None, 'value': None}, {'other': 'a'}, id='delete-all-fields-from-map-with-conflict/three-way'),
    pytest.param({'name': 1, 'value': 1}, {'name': None, 'value': None, 'other': 'a'}, {'other': 'a'}, id='add-field-and-delete-all-fields-from-map/two-way'),
    pytest.param({'name': 1, 'value': 1, 'other': 'a'}, {'name': None, 'value': None}, {'other': 'a'}, id='add-field-and-delete-all-fields-from-map/three-way'),
    pytest.param({'name': 1, 'value': 1}, {'name': None, 'value': None, 'other': 'a'}, {'other': 'a'}, id='add-field-and-delete-all-fields-from-map-with-conflict/two-way'),
    pytest.param({'name': 1, 'value': 1, 'other': 'b'}, {'name': None, 'value': None, 'other': 'a'}, {'other': 'a'}, id='add-field-and-delete-all-fields-from-map-with-conflict/three-way'),
    pytest.param({'nonMergingIntList': [1, 2]}, {'nonMergingIntList': [2, 3]}, {'nonMergingIntList': [2, 3]}, id='replace-list-of-scalars/two-way'),
    pytest.param({'nonMergingIntList': [1, 2]}, {'nonMergingIntList': [2, 3]}, {'nonMergingIntList': [2, 3]}, id='replace-list-of-scalars/three-way'),
    pytest.param({'nonMergingIntList': [1, 2]}, {'nonMergingIntList': [2, 3]}, {'nonMergingIntList': [2, 3]}, id='replace-list-of-scalars-with-conflict/two-way'),
    pytest.param({'nonMergingIntList': [1, 4]}, {'nonMergingIntList': [2, 3]}, {'nonMergingIntList': [2, 3]}, id='replace-list-of-scalars-with-conflict/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2}]}, {'mergingList': [{'name': 1, '$patch': 'delete'}, {'name': 2, '$patch': 'delete'}]}, {'mergingList': []}, id='delete-all-maps-from-merging-list/two-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2}]}, {'mergingList': [{'name': 1, '$patch': 'delete'}, {'name': 2, '$patch': 'delete'}]}, {'mergingList': []}, id='delete-all-maps-from-merging-list/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2}]}, {'mergingList': [{'name': 1, '$patch': 'delete'}, {'name': 2, '$patch': 'delete'}]}, {'mergingList': []}, id='delete-all-maps-from-merging-list-with-conflict/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a'}, {'name': 2, 'other': 'b'}]}, {'mergingList': [{'name': 1, '$patch': 'delete'}, {'name': 2, '$patch': 'delete'}]}, {'mergingList': []}, id='delete-all-maps-from-merging-list-with-conflict/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2}]}, {'mergingList': [{'name': 1, '$patch': 'delete'}, {'name': 2, '$patch': 'delete'}]}, {'mergingList': []}, id='delete-all-maps-from-empty-merging-list/two-way'),
    pytest.param({'mergingList': []}, {'mergingList': [{'name': 1, '$patch': 'delete'}, {'name': 2, '$patch': 'delete'}]}, {'mergingList': []}, id='delete-all-maps-from-empty-merging-list/three-way'),
    pytest.param({'mergingList': []}, {}, {'mergingList': []}, id='merge-empty-merging-lists/two-way'),
    pytest.param({'mergingList': []}, {}, {'mergingList': []}, id='merge-empty-merging-lists/three-way'),
    pytest.param({'name': 2}, {'name': 1, 'value': 1, 'other': None}, {'name': 1, 'value': 1}, id='defined-null-values-should-propagate-overwrite-current-fields-with-conflict/two-way'),
    pytest.param({'name': 'a', 'other': 'a'}, {'name': 1, 'value': 1, 'other': None}, {'name': 1, 'value': 1}, id='defined-null-values-should-propagate-overwrite-current-fields-with-conflict/three-way'),
    pytest.param({'name': 'original-name', 'value': 'original-value'}, {'name': 'modified-name', 'value': None}, {'name': 'modified-name'}, id='defined-null-values-should-propagate-removing-original-fields/two-way'),
    pytest.param({'name': 'original-name', 'value': 'original-value', 'other': 'current-other'}, {'name': 'modified-name', 'value': None}, {'name': 'modified-name', 'other': 'current-other'}, id='defined-null-values-should-propagate-removing-original-fields/three-way'),
    pytest.param({'name': 'a', 'retainKeysMap': {'name': 'foo'}}, {}, {'name': 'a', 'retainKeysMap': {'name': 'foo'}}, id='nil-patch-with-retainkeys-map/two-way'),
    pytest.param({'name': 'a', 'value': 'b', 'retainKeysMap': {'name': 'foo'}}, {}, {'name': 'a', 'value': 'b', 'retainKeysMap': {'name': 'foo'}}, id='nil-patch-with-retainkeys-map/three-way'),
    pytest.param({'name': 'a', 'retainKeysMap': {'name': 'foo'}}, {'value': 'b'}, {'name': 'a', 'value': 'b', 'retainKeysMap': {'name': 'foo'}}, id='retainkeys-map-with-no-change-should-not-be-present/two-way'),
    pytest.param({'name': 'a', 'other': 'c', 'retainKeysMap': {'name': 'foo'}}, {'value': 'b'}, {'name': 'a', 'value': 'b', 'other': 'c', 'retainKeysMap': {'name': 'foo'}}, id='retainkeys-map-with-no-change-should-not-be-present/three-way'),
    pytest.param({'name': 'hi'}, {'mergingList': [{'name': 'hello'}, {'$patch': 'delete', 'name': 'doesntexist'}]}, {'name': 'hi', 'mergingList': [{'name': 'hello'}]}, id='nested-patch-merge-with-empty-list/two-way'),
    pytest.param({'name': 'hi', 'mergingList': [{'name': 'hello2'}]}, {'$setElementOrder/mergingList': [{'name': 'hello'}, {'name': 'doesntexist'}], 'mergingList': [{'name': 'hello'}]}, {'name': 'hi', 'mergingList': [{'name': 'hello'}, {'name': 'hello2'}]}, id='nested-patch-merge-with-empty-list/three-way'),
    pytest.param({'mergingIntList': [1, 2, 3]}, {'$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3]}, {'mergingIntList': [1, 2]}, id='delete-items-in-lists-of-scalars/two-way'),
    pytest.param({'mergingIntList': [1, 2, 3, 4]}, {'$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3]}, {'mergingIntList': [1, 2, 4]}, id='delete-items-in-lists-of-scalars/three-way'),
    pytest.param({'mergingIntList': [1, 2, 3, 3]}, {'$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3]}, {'mergingIntList': [1, 2]}, id='delete-all-duplicate-items-in-lists-of-scalars/two-way'),
    pytest.param({'mergingIntList': [1, 2, 3, 3, 4]}, {'$setElementOrder/mergingIntList': [1, 2], '$deleteFromPrimitiveList/mergingIntList': [3]}, {'mergingIntList': [1, 2, 4]}, id='delete-all-duplicate-items-in-lists-of-scalars/three-way'),
    pytest.param({'mergingIntList': [1, 2, 3]}, {'$setElementOrder/mergingIntList': [1, 2, 4], '$deleteFromPrimitiveList/mergingIntList': [3], 'mergingIntList': [4]}, {'mergingIntList': [1, 2, 4]}, id='add-and-delete-items-in-lists-of-scalars/two-way'),
    pytest.param({'mergingIntList': [1, 2, 3, 4]}, {'$setElementOrder/mergingIntList': [1, 2, 4], '$deleteFromPrimitiveList/mergingIntList': [3]}, {'mergingIntList': [1, 2, 4]}, id='add-and-delete-items-in-lists-of-scalars/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2, 'value': 2}]}, {'$setElementOrder/mergingList': [{'name': 4}, {'name': 1}, {'name': 2}, {'name': 3}], 'mergingList': [{'name': 4, 'value': 4}, {'name': 3, 'value': 3}]}, {'mergingList': [{'name': 4, 'value': 4}, {'name': 1}, {'name': 2, 'value': 2}, {'name': 3, 'value': 3}]}, id='merge-lists-of-maps/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}]}, {'$setElementOrder/mergingList': [{'name': 4}, {'name': 1}, {'name': 2}, {'name': 3}], 'mergingList': [{'name': 4, 'value': 4}, {'name': 3, 'value': 3}]}, {'mergingList': [{'name': 4, 'value': 4}, {'name': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}, {'name': 3, 'value': 3}]}, id='merge-lists-of-maps/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2, 'value': 2}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'mergingList': [{'name': 1, 'value': 1}]}, {'mergingList': [{'name': 1, 'value': 1}, {'name': 2, 'value': 2}]}, id='add-field-to-map-in-merging-list/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'mergingList': [{'name': 1, 'value': 1}]}, {'mergingList': [{'name': 1, 'value': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}]}, id='add-field-to-map-in-merging-list/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2, 'value': 2}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'mergingList': [{'name': 1, 'value': 1}]}, {'mergingList': [{'name': 1, 'value': 1}, {'name': 2, 'value': 2}]}, id='add-field-to-map-in-merging-list/two-way-2'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'mergingList': [{'name': 1, 'value': 1}]}, {'mergingList': [{'name': 1, 'value': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}]}, id='add-field-to-map-in-merging-list/three-way-2'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2, 'value': 2}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'mergingList': [{'name': 1, 'value': 1}]}, {'mergingList': [{'name': 1, 'value': 1}, {'name': 2, 'value': 2}]}, id='add-duplicate-field-to-map-in-merging-list/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'value': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}]}, {}, {'mergingList': [{'name': 1, 'value': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}]}, id='add-duplicate-field-to-map-in-merging-list/three-way'),
    pytest.param({'mergingList': [{'name': 1, 'value': 1}, {'name': 2, 'value': 2}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'mergingList': [{'name': 1, 'value': 'a'}]}, {'mergingList': [{'name': 1, 'value': 'a'}, {'name': 2, 'value': 2}]}, id='replace-map-field-value-in-merging-list/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'value': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'mergingList': [{'name': 1, 'value': 'a'}]}, {'mergingList': [{'name': 1, 'value': 'a', 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}]}, id='replace-map-field-value-in-merging-list/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2}]}, {'$setElementOrder/mergingList': [{'name': 2}], 'mergingList': [{'name': 1, '$patch': 'delete'}]}, {'mergingList': [{'name': 2}]}, id='delete-map-from-merging-list/two-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2, 'other': 'b'}]}, {'$setElementOrder/mergingList': [{'name': 2}], 'mergingList': [{'name': 1, '$patch': 'delete'}]}, {'mergingList': [{'name': 2, 'other': 'b'}]}, id='delete-map-from-merging-list/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2}]}, {'$setElementOrder/mergingList': [{'name': 2}], 'mergingList': [{'name': 1, '$patch': 'delete'}]}, {'mergingList': [{'name': 2}]}, id='delete-missing-map-from-merging-list/two-way'),
    pytest.param({'mergingList': [{'name': 2, 'other': 'b'}]}, {'$setElementOrder/mergingList': [{'name': 2}], 'mergingList': [{'name': 1, '$patch': 'delete'}]}, {'mergingList': [{'name': 2, 'other': 'b'}]}, id='delete-missing-map-from-merging-list/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 3}], 'mergingList': [{'name': 3}, {'name': 1, '$patch': 'delete'}]}, {'mergingList': [{'name': 2}, {'name': 3}]}, id='add-map-and-delete-map-from-merging-list/two-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2, 'other': 'b'}, {'name': 4, 'other': 'c'}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 3}], 'mergingList': [{'name': 3}, {'name': 1, '$patch': 'delete'}]}, {'mergingList': [{'name': 2, 'other': 'b'}, {'name': 4, 'other': 'c'}, {'name': 3}]}, id='add-map-and-delete-map-from-merging-list/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 3}], 'mergingList': [{'name': 3}, {'name': 1, '$patch': 'delete'}]}, {'mergingList': [{'name': 2}, {'name': 3}]}, id='add-map-and-delete-map-from-merging-list-with-conflict/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a'}, {'name': 4, 'other': 'c'}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 3}], 'mergingList': [{'name': 2}, {'name': 3}, {'name': 1, '$patch': 'delete'}]}, {'mergingList': [{'name': 4, 'other': 'c'}, {'name': 2}, {'name': 3}]}, id='add-map-and-delete-map-from-merging-list-with-conflict/three-way'),
    pytest.param({'mergingList': [{'name': 1, 'value': 1}, {'name': 2, 'value': 2}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'mergingList': [{'name': 1, 'value': None}]}, {'mergingList': [{'name': 1}, {'name': 2, 'value': 2}]}, id='delete-field-from-map-in-merging-list/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'value': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'mergingList': [{'name': 1, 'value': None}]}, {'mergingList': [{'name': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}]}, id='delete-field-from-map-in-merging-list/three-way'),
    pytest.param({'mergingList': [{'name': 1, 'nonMergingList': [{'name': 1}, {'name': 2, 'value': 2}]}, {'name': 2}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'mergingList': [{'name': 1, 'nonMergingList': [{'name': 1, 'value': 1}]}]}, {'mergingList': [{'name': 1, 'nonMergingList': [{'name': 1, 'value': 1}]}, {'name': 2}]}, id='replace-non-merging-list-nested-in-merging-list/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a', 'nonMergingList': [{'name': 1}, {'name': 2, 'value': 2}]}, {'name': 2, 'other': 'b'}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'mergingList': [{'name': 1, 'nonMergingList': [{'name': 1, 'value': 1}]}]}, {'mergingList': [{'name': 1, 'other': 'a', 'nonMergingList': [{'name': 1, 'value': 1}]}, {'name': 2, 'other': 'b'}]}, id='replace-non-merging-list-nested-in-merging-list/three-way'),
    pytest.param({'mergingList': [{'name': 1, 'mergingList': [{'name': 1}, {'name': 2, 'value': 2}]}, {'name': 2}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'mergingList': [{'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'name': 1, 'mergingList': [{'name': 1, 'value': 1}]}]}, {'mergingList': [{'name': 1, 'mergingList': [{'name': 1, 'value': 1}, {'name': 2, 'value': 2}]}, {'name': 2}]}, id='add-field-to-map-in-merging-list-nested-in-merging-list/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a', 'mergingList': [{'name': 1}, {'name': 2, 'value': 2}]}, {'name': 2, 'other': 'b'}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'mergingList': [{'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}], 'name': 1, 'mergingList': [{'name': 1, 'value': 1}]}]}, {'mergingList': [{'name': 1, 'other': 'a', 'mergingList': [{'name': 1, 'value': 1}, {'name': 2, 'value': 2}]}, {'name': 2, 'other': 'b'}]}, id='add-field-to-map-in-merging-list-nested-in-merging-list/three-way'),
    pytest.param({'mergeItemPtr': [{'name': 1}]}, {'$setElementOrder/mergeItemPtr': [{'name': 1}, {'name': 2}], 'mergeItemPtr': [{'name': 2}]}, {'mergeItemPtr': [{'name': 1}, {'name': 2}]}, id='add-map-to-merging-list-by-pointer/two-way'),
    pytest.param({'mergeItemPtr': [{'name': 1, 'other': 'a'}, {'name': 3}]}, {'$setElementOrder/mergeItemPtr': [{'name': 1}, {'name': 2}], 'mergeItemPtr': [{'name': 2}]}, {'mergeItemPtr': [{'name': 1, 'other': 'a'}, {'name': 2}, {'name': 3}]}, id='add-map-to-merging-list-by-pointer/three-way'),
    pytest.param({'mergingIntList': [1, 2]}, {'$setElementOrder/mergingIntList': [1, 2, 3], 'mergingIntList': [3]}, {'mergingIntList': [1, 2, 3]}, id='merge-lists-of-scalars/two-way'),
    pytest.param({'mergingIntList': [1, 2, 4]}, {'$setElementOrder/mergingIntList': [1, 2, 3], 'mergingIntList': [3]}, {'mergingIntList': [1, 2, 3, 4]}, id='merge-lists-of-scalars/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2, 'value': 2}]}, {'$setElementOrder/mergingList': [{'name': 3}, {'name': 1}, {'name': 2}], 'mergingList': [{'name': 3, 'value': 3}]}, {'mergingList': [{'name': 3, 'value': 3}, {'name': 1}, {'name': 2, 'value': 2}]}, id='add-an-item-in-a-list-and-preserve-order/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}]}, {'$setElementOrder/mergingList': [{'name': 3}, {'name': 1}, {'name': 2}], 'mergingList': [{'name': 3, 'value': 3}]}, {'mergingList': [{'name': 3, 'value': 3}, {'name': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}]}, id='add-an-item-in-a-list-and-preserve-order/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 3, 'value': 3}, {'name': 2, 'value': 2}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 1}], 'mergingList': [{'name': 3, '$patch': 'delete'}]}, {'mergingList': [{'name': 2, 'value': 2}, {'name': 1}]}, id='delete-an-item-in-a-list-and-preserve-order/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}, {'name': 3, 'value': 3}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 1}], 'mergingList': [{'name': 3, '$patch': 'delete'}]}, {'mergingList': [{'name': 2, 'value': 2, 'other': 'b'}, {'name': 1, 'other': 'a'}]}, id='delete-an-item-in-a-list-and-preserve-order/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 3, 'value': 3}, {'name': 2, 'value': 2}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 3}, {'name': 1}], 'mergingList': [{'name': 3, 'value': 'x'}]}, {'mergingList': [{'name': 2, 'value': 2}, {'name': 3, 'value': 'x'}, {'name': 1}]}, id='change-an-item-in-a-list-and-preserve-order/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a'}, {'name': 2, 'value': 2, 'other': 'b'}, {'name': 3, 'value': 3}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 3}, {'name': 1}], 'mergingList': [{'name': 3, 'value': 'x'}]}, {'mergingList': [{'name': 2, 'value': 2, 'other': 'b'}, {'name': 3, 'value': 'x'}, {'name': 1, 'other': 'a'}]}, id='change-an-item-in-a-list-and-preserve-order/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 3, 'value': 3}, {'name': 4, 'value': 4}, {'name': 2, 'value': 2}]}, {'$setElementOrder/mergingList': [{'name': 4}, {'name': 2}, {'name': 3}, {'name': 1}]}, {'mergingList': [{'name': 4, 'value': 4}, {'name': 2, 'value': 2}, {'name': 3, 'value': 3}, {'name': 1}]}, id='set-elements-order-in-a-list/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a'}, {'name': 3, 'value': 3}, {'name': 4, 'value': 4}, {'name': 2, 'value': 2}]}, {'$setElementOrder/mergingList': [{'name': 4}, {'name': 2}, {'name': 3}, {'name': 1}]}, {'mergingList': [{'name': 4, 'value': 4}, {'name': 2, 'value': 2}, {'name': 3, 'value': 3}, {'name': 1, 'other': 'a'}]}, id='set-elements-order-in-a-list/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 3, 'value': 3}, {'name': 4, 'value': 4}, {'name': 2, 'value': 2}]}, {'$setElementOrder/mergingList': [{'name': 4}, {'name': 2}, {'name': 3}, {'name': 1}]}, {'mergingList': [{'name': 4, 'value': 4}, {'name': 2, 'value': 2}, {'name': 3, 'value': 3}, {'name': 1}]}, id='set-elements-order-in-a-list-with-server-only-items/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a'}, {'name': 3, 'value': 3}, {'name': 4, 'value': 4}, {'name': 2, 'value': 2}, {'name': 9}]}, {'$setElementOrder/mergingList': [{'name': 4}, {'name': 2}, {'name': 3}, {'name': 1}]}, {'mergingList': [{'name': 4, 'value': 4}, {'name': 2, 'value': 2}, {'name': 3, 'value': 3}, {'name': 1, 'other': 'a'}, {'name': 9}]}, id='set-elements-order-in-a-list-with-server-only-items/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2, 'value': 2}, {'name': 3, 'value': 3}, {'name': 4, 'value': 4}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 1}, {'name': 4}, {'name': 3}]}, {'mergingList': [{'name': 2, 'value': 2}, {'name': 1}, {'name': 4, 'value': 4}, {'name': 3, 'value': 3}]}, id='set-elements-order-in-a-list-with-server-only-items-2/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a'}, {'name': 2, 'value': 2}, {'name': 9}, {'name': 3, 'value': 3}, {'name': 4, 'value': 4}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 1}, {'name': 4}, {'name': 3}]}, {'mergingList': [{'name': 2, 'value': 2}, {'name': 1, 'other': 'a'}, {'name': 9}, {'name': 4, 'value': 4}, {'name': 3, 'value': 3}]}, id='set-elements-order-in-a-list-with-server-only-items-2/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2, 'value': 2}, {'name': 3, 'value': 3}, {'name': 4, 'value': 4}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 1}, {'name': 4}, {'name': 3}]}, {'mergingList': [{'name': 2, 'value': 2}, {'name': 1}, {'name': 4, 'value': 4}, {'name': 3, 'value': 3}]}, id='set-elements-order-in-a-list-with-server-only-items-3/two-way'),
    pytest.param({'mergingList': [{'name': 1, 'other': 'a'}, {'name': 2, 'value': 2}, {'name': 7}, {'name': 9}, {'name': 8}, {'name': 3, 'value': 3}, {'name': 4, 'value': 4}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 1}, {'name': 4}, {'name': 3}]}, {'mergingList': [{'name': 2, 'value': 2}, {'name': 1, 'other': 'a'}, {'name': 7}, {'name': 9}, {'name': 8}, {'name': 4, 'value': 4}, {'name': 3, 'value': 3}]}, id='set-elements-order-in-a-list-with-server-only-items-3/three-way'),
    pytest.param({'mergingIntList': [1, 2]}, {'$setElementOrder/mergingIntList': [3, 1, 2], 'mergingIntList': [3]}, {'mergingIntList': [3, 1, 2]}, id='add-an-item-in-a-int-list-and-preserve-order/two-way'),
    pytest.param({'mergingIntList': [1, 2]}, {'$setElementOrder/mergingIntList': [3, 1, 2], 'mergingIntList': [3]}, {'mergingIntList': [3, 1, 2]}, id='add-an-item-in-a-int-list-and-preserve-order/three-way'),
    pytest.param({'mergingIntList': [1, 3, 4, 2]}, {'$setElementOrder/mergingIntList': [4, 2, 3, 1]}, {'mergingIntList': [4, 2, 3, 1]}, id='set-elements-order-in-a-int-list-with-server-only-items/two-way'),
    pytest.param({'mergingIntList': [1, 3, 4, 2, 9]}, {'$setElementOrder/mergingIntList': [4, 2, 3, 1]}, {'mergingIntList': [4, 2, 3, 1, 9]}, id='set-elements-order-in-a-int-list-with-server-only-items/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2, 'value': 'dup1'}, {'name': 3}, {'name': 2, 'value': 'dup2'}, {'name': 4}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 1}, {'name': 4}, {'name': 3}, {'name': 2}]}, {'mergingList': [{'name': 2, 'value': 'dup1'}, {'name': 2, 'value': 'dup2'}, {'name': 1}, {'name': 4}, {'name': 3}]}, id='behavior-of-set-element-order-for-a-merging-list-with-duplicate/two-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 2, 'value': 'dup1'}, {'name': 3}, {'name': 2, 'value': 'dup2'}, {'name': 4}]}, {'$setElementOrder/mergingList': [{'name': 2}, {'name': 1}, {'name': 4}, {'name': 3}, {'name': 2}]}, {'mergingList': [{'name': 2, 'value': 'dup1'}, {'name': 2, 'value': 'dup2'}, {'name': 1}, {'name': 4}, {'name': 3}]}, id='behavior-of-set-element-order-for-a-merging-list-with-duplicate/three-way'),
    pytest.param({'mergingIntList': [1, 2, 3, 2, 4]}, {'$setElementOrder/mergingIntList': [2, 1, 4, 3, 2]}, {'mergingIntList': [2, 2, 1, 4, 3]}, id='behavior-of-set-element-order-for-a-merging-int-list-with-duplicate/two-way'),
    pytest.param({'mergingIntList': [1, 2, 3, 2, 4]}, {'$setElementOrder/mergingIntList': [2, 1, 4, 3, 2]}, {'mergingIntList': [2, 2, 1, 4, 3]}, id='behavior-of-set-element-order-for-a-merging-int-list-with-duplicate/three-way'),
    pytest.param({}, {'retainKeysMap': {'other': 'bar'}}, {'retainKeysMap': {'other': 'bar'}}, id='retainkeys-map-should-clear-defaulted-field/two-way'),
    pytest.param({'retainKeysMap': {'value': 'foo'}}, {'retainKeysMap': {'$retainKeys': ['other'], 'other': 'bar'}}, {'retainKeysMap': {'other': 'bar'}}, id='retainkeys-map-should-clear-defaulted-field/three-way'),
    pytest.param({'retainKeysMap': {'name': 'foo'}}, {'retainKeysMap': {'$retainKeys': ['name', 'value'], 'value': 'bar'}}, {'retainKeysMap': {'name': 'foo', 'value': 'bar'}}, id='retainkeys-map-adds-a-field-and-clear-a-field/two-way'),
    pytest.param({'retainKeysMap': {'name': 'foo', 'other': 'a'}}, {'retainKeysMap': {'$retainKeys': ['name', 'value'], 'value': 'bar'}}, {'retainKeysMap': {'name': 'foo', 'value': 'bar'}}, id='retainkeys-map-adds-a-field-and-clear-a-field/three-way'),
    pytest.param({'retainKeysMap': {'name': 'foo', 'value': 'bar'}}, {'retainKeysMap': {'$retainKeys': ['name'], 'value': None}}, {'retainKeysMap': {'name': 'foo'}}, id='retainkeys-map-deletes-a-field-and-clears-a-field/two-way'),
    pytest.param({'retainKeysMap': {'name': 'foo', 'value': 'bar', 'other': 'a'}}, {'retainKeysMap': {'$retainKeys': ['name'], 'value': None}}, {'retainKeysMap': {'name': 'foo'}}, id='retainkeys-map-deletes-a-field-and-clears-a-field/three-way'),
    pytest.param({'retainKeysMap': {'name': 'foo', 'value': 'bar', 'nonMergingList': [{'name': 'a'}, {'name': 'b'}]}}, {'retainKeysMap': {'$retainKeys': ['name', 'nonMergingList', 'value'], 'nonMergingList': [{'name': 'a'}, {'name': 'c'}, {'name': 'b'}]}}, {'retainKeysMap': {'name': 'foo', 'value': 'bar', 'nonMergingList': [{'name': 'a'}, {'name': 'c'}, {'name': 'b'}]}}, id='retainkeys-map-replaces-non-merging-list/two-way'),
    pytest.param({'retainKeysMap': {'name': 'foo', 'value': 'bar', 'nonMergingList': [{'name': 'a'}, {'name': 'b'}]}}, {'retainKeysMap': {'$retainKeys': ['name', 'nonMergingList', 'value'], 'nonMergingList': [{'name': 'a'}, {'name': 'c'}, {'name': 'b'}]}}, {'retainKeysMap': {'name': 'foo', 'value': 'bar', 'nonMergingList': [{'name': 'a'}, {'name': 'c'}, {'name': 'b'}]}}, id='retainkeys-map-replaces-non-merging-list/three-way'),
    pytest.param({'retainKeysMap': {'name': 'foo', 'mergingList': [{'name': 'a'}, {'name': 'b'}]}}, {'retainKeysMap': {'$retainKeys': ['mergingList', 'name'], '$setElementOrder/mergingList': [{'name': 'a'}, {'name': 'b'}, {'name': 'c'}], 'mergingList': [{'name': 'c'}]}}, {'retainKeysMap': {'name': 'foo', 'mergingList': [{'name': 'a'}, {'name': 'b'}, {'name': 'c'}]}}, id='retainkeys-map-adds-an-item-in-nested-merging-list/two-way'),
    pytest.param({'retainKeysMap': {'name': 'foo', 'mergingList': [{'name': 'a'}, {'name': 'b'}, {'name': 'x'}]}}, {'retainKeysMap': {'$retainKeys': ['mergingList', 'name'], '$setElementOrder/mergingList': [{'name': 'a'}, {'name': 'b'}, {'name': 'c'}], 'mergingList': [{'name': 'c'}]}}, {'retainKeysMap': {'name': 'foo', 'mergingList': [{'name': 'a'}, {'name': 'b'}, {'name': 'c'}, {'name': 'x'}]}}, id='retainkeys-map-adds-an-item-in-nested-merging-list/three-way'),
    pytest.param({'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo', 'value': 'a'}]}, {}, {'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo', 'value': 'a'}]}, id='retainkeys-list-of-maps-clears-a-field/two-way'),
    pytest.param({'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo', 'value': 'a', 'other': 'x'}]}, {'$setElementOrder/retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo'}], 'retainKeysMergingList': [{'$retainKeys': ['name', 'value'], 'name': 'foo'}]}, {'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo', 'value': 'a'}]}, id='retainkeys-list-of-maps-clears-a-field/three-way'),
    pytest.param({'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo'}]}, {'$setElementOrder/retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo'}], 'retainKeysMergingList': [{'$retainKeys': ['name', 'value'], 'name': 'foo', 'value': 'a'}]}, {'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo', 'value': 'a'}]}, id='retainkeys-list-of-maps-adds-a-field-and-clear-a-field/two-way'),
    pytest.param({'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo', 'other': 'x'}]}, {'$setElementOrder/retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo'}], 'retainKeysMergingList': [{'$retainKeys': ['name', 'value'], 'name': 'foo', 'value': 'a'}]}, {'retainKeysMergingList': [{'name': 'bar'}, {'name': 'foo', 'value': 'a'}]}, id='retainkeys-list-of-maps-adds-a-field-and-clear-a-field/three-way'),
    pytest.param({'mergingList': [{'name': 'a', 'value': 'a'}, {'name': 'b', 'value': 'b'}], 'mergeItemPtr': [{'name': 'c', 'value': 'c'}, {'name': 'd', 'value': 'd'}]}, {'$setElementOrder/mergingList': [{'name': 'b'}], '$setElementOrder/mergeItemPtr': [{'name': 'd'}, {'name': 'c'}], 'mergingList': [{'$patch': 'delete', 'name': 'a'}]}, {'mergingList': [{'name': 'b', 'value': 'b'}], 'mergeItemPtr': [{'name': 'd', 'value': 'd'}, {'name': 'c', 'value': 'c'}]}, id='delete-and-reorder-in-one-list-reorder-in-another/two-way'),
    pytest.param({'mergingList': [{'name': 'a', 'value': 'a'}, {'name': 'b', 'value': 'b'}], 'mergeItemPtr': [{'name': 'c', 'value': 'c'}, {'name': 'd', 'value': 'd'}]}, {'$setElementOrder/mergingList': [{'name': 'b'}], '$setElementOrder/mergeItemPtr': [{'name': 'd'}, {'name': 'c'}], 'mergingList': [{'$patch': 'delete', 'name': 'a'}]}, {'mergingList': [{'name': 'b', 'value': 'b'}], 'mergeItemPtr': [{'name': 'd', 'value': 'd'}, {'name': 'c', 'value': 'c'}]}, id='delete-and-reorder-in-one-list-reorder-in-another/three-way'),
    pytest.param({'mergingList': [{'name': 1}, {'name': 3}]}, {'$setElementOrder/mergingList': [{'name': 3}, {'name': 2}, {'name': 1}], 'mergingList': [{'name': 3, 'value': 3}, {'name': 1, 'value': 1}]}, {'mergingList': [{'name': 3, 'value': 3}, {'name': 1, 'value': 1}]}, id='setelementorder-contains-item-that-is-not-present-in-the-list-to-be-merged'),
    pytest.param({'mergingIntList': [1, 3]}, {'$setElementOrder/mergingIntList': [3, 2, 1]}, {'mergingIntList': [3, 1]}, id='setelementorder-contains-item-that-is-not-present-in-the-int-list-to-be-merged'),
    pytest.param({'mergingIntList': [1, 2]}, {'$deleteFromPrimitiveList/mergingIntList': [3]}, {'mergingIntList': [1, 2]}, id='deletefromprimitivelist-of-nonexistent-item-in-primitive-list-should-not-add-the-item-to-the-list'),
    pytest.param({'mergingIntList': None}, {'$deleteFromPrimitiveList/mergingIntList': [3]}, {'mergingIntList': None}, id='deletefromprimitivelist-on-empty-primitive-list-should-not-add-the-item-to-the-list'),
    pytest.param({'foo': ['bar']}, {'$deleteFromPrimitiveList/mergingIntList': [3]}, {'foo': ['bar']}, id='deletefromprimitivelist-on-nonexistent-primitive-list-should-not-add-the-primitive-list'),
    pytest.param({'mergingIntList': [1, 2, 3]}, {'$deleteFromPrimitiveList/mergingIntList': [2]}, {'mergingIntList': [1, 3]}, id='deletefromprimitivelist-should-delete-item-from-a-list-with-merge-patch-strategy'),
    pytest.param({'nonMergingIntList': [1, 2, 3]}, {'$deleteFromPrimitiveList/nonMergingIntList': [2]}, {'nonMergingIntList': [1, 3]}, id='deletefromprimitivelist-should-delete-item-from-a-list-without-merge-patch-strategy'),]

MERGE_ITEM_ERROR_CASES = [
    #            original, patch, expected error substring
    pytest.param({'mergingList': [{'name': 1}, {'name': 3}, {'name': 2}]}, {'$setElementOrder/mergingList': [{'name': 1}, {'name': 2}, {'name': 3}], 'mergingList': [{'name': 3, 'value': 3}, {'name': 1, 'value': 1}]}, "doesn't match", id='should-check-if-order-in-setelementorder-and-patch-list-match'),
    pytest.param({'mergingIntList': [1, 3, 2]}, {'$setElementOrder/mergingIntList': [1, 2, 3], 'mergingIntList': [3, 1]}, "doesn't match", id='setelementorder-contains-item-that-is-not-present-in-the-int-list-to-be-merged'),
    pytest.param({'mergingList': [{'name': 1, 'value': 'a'}]}, {'mergingList': [{'value': 'b'}]}, 'does not contain declared merge key', id='missing-merge-key-should-error-out'),
]
# fmt: on


@pytest.mark.parametrize("original, patch, expected", MERGE_ITEM_CASES)
def test_strategic_merge_patch(original, patch, expected):
    """Port of TestStrategicMergePatch and TestCustomStrategicMergePatch (patch_test.go), apply side."""
    before = (copy.deepcopy(original), copy.deepcopy(patch))
    assert apply_merge_item(original, patch) == expected
    assert (original, patch) == before  # inputs are never mutated


@pytest.mark.parametrize("original, patch, message", MERGE_ITEM_ERROR_CASES)
def test_strategic_merge_patch_errors(original, patch, message):
    """Port of the ExpectedError rows of customStrategicMergePatchRawTestCases (patch_test.go)."""
    with pytest.raises(PatchError, match=message):
        apply_merge_item(original, patch)


MALFORMED_PATCH_CASES = [
    pytest.param({}, {"$patch": "bogus"}, "unknown patch type: bogus", id="unknown-map-directive"),
    pytest.param({"mergingList": [{"name": 1}]}, {"mergingList": [{"name": 1, "$patch": "bogus"}]}, "unknown patch type", id="unknown-list-directive"),
    pytest.param({"mergingList": [{"name": 1}]}, {"mergingList": [{"$patch": "merge"}]}, "merging lists cannot yet be specified", id="merge-directive-in-list"),
    pytest.param({"mergingList": [{"name": 1}]}, {"mergingList": [{"$patch": "delete"}]}, "does not contain declared merge key: name", id="delete-without-merge-key"),
    pytest.param({"mergingIntList": [1]}, {"mergingIntList": [[2]]}, "list element types are not identical", id="mixed-element-types"),
    pytest.param({"mergingIntList": [[1]]}, {"mergingIntList": [[2]]}, "lists of lists are not supported", id="list-of-lists"),
    pytest.param({"a": 1}, {"$retainKeys": "a"}, "invalid patch format of retainKeys", id="retain-keys-not-a-list"),
    pytest.param({"a": 1}, {"$retainKeys": ["a"], "b": 2}, "invalid patch format of retainKeys", id="retain-keys-missing-patched-key"),
    pytest.param({"mergingList": [{"name": 1}]}, {"$setElementOrder/mergingList": "x"}, "expected a \\[\\]interface", id="set-element-order-not-a-list"),
    pytest.param({"mergingList": [{"name": 1}]}, {"mergingList": [{"value": 1}]}, "does not contain declared merge key", id="missing-merge-key"),
    pytest.param({"nonMergingList": [{"name": 1}]}, {"$deleteFromPrimitiveListnonMergingList": [1]}, "invalid patch format of primitive list", id="delete-from-primitive-list-without-slash"),
]


@pytest.mark.parametrize("original, patch, message", MALFORMED_PATCH_CASES)
def test_malformed_strategic_merge_patch(original, patch, message):
    with pytest.raises(PatchError, match=message):
        apply_merge_item(original, patch)
