"""Tests for minikcm.apimachinery.strategicpatch.meta (PatchMetaFromTable, our stand-in for PatchMetaFromStruct)."""

from __future__ import annotations

from minikcm.apimachinery.strategicpatch import NO_PATCH_META, PatchMeta, PatchMetaFromTable

TABLE = {
    "spec.containers": PatchMeta(("merge",), "name"),
    "spec.containers.ports": PatchMeta(("merge",), "containerPort"),
}


def test_lookup_walks_the_path():
    root = PatchMetaFromTable("Pod", TABLE)
    spec, spec_meta = root.lookup_patch_metadata_for_struct("spec")
    assert spec_meta == NO_PATCH_META
    containers, containers_meta = spec.lookup_patch_metadata_for_slice("containers")
    assert containers_meta.get_patch_strategies() == ("merge",)
    assert containers_meta.get_patch_merge_key() == "name"
    # List items add no path segment: a container's ports are spec.containers.ports.
    _, ports_meta = containers.lookup_patch_metadata_for_slice("ports")
    assert ports_meta.get_patch_merge_key() == "containerPort"
    _, env_meta = containers.lookup_patch_metadata_for_slice("env")
    assert env_meta == NO_PATCH_META
    assert root.name() == "Pod"
