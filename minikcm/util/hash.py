"""Port of pkg/util/hash/hash.go (k8s.io/kubernetes/pkg/util/hash), with the FNV-1a hash it is fed.

DeepHashObject feeds a printout of an object to a hash; ComputeHash
(controller_utils) and the ReplicaSet names of a Deployment rest on it.

Not ported: nothing (hash.go has only DeepHashObject).
Differs from Go: Go feeds spew's `%#v` printout, tied to Go's type definitions; we feed the
canonical JSON of the wire form (keys sorted, no spaces, UTF-8; bytes as they are). Stable
across runs and machines, but not Go's hash. Fnv32a stands in for Go's standard library
hash/fnv New32a, which Python does not have.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from minikcm.apimachinery.convert import to_wire


class Fnv32a:
    """Port of hash/fnv New32a (Go standard library): the 32-bit FNV-1a hash."""

    OFFSET_BASIS = 2166136261
    PRIME = 16777619

    def __init__(self) -> None:
        self.state = self.OFFSET_BASIS

    def reset(self) -> None:
        self.state = self.OFFSET_BASIS

    def write(self, data: bytes) -> None:
        h = self.state
        for byte in data:
            h = ((h ^ byte) * self.PRIME) & 0xFFFFFFFF
        self.state = h

    def sum32(self) -> int:
        return self.state


def deep_hash_object(hasher: Fnv32a, obj: Any) -> None:
    """Port of DeepHashObject (pkg/util/hash/hash.go): reset `hasher` and feed it a printout of `obj`."""
    hasher.reset()
    if isinstance(obj, bytes):
        hasher.write(obj)
        return
    wire = to_wire(obj) if isinstance(obj, BaseModel) else obj
    hasher.write(json.dumps(wire, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
