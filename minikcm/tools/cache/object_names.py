"""Port of k8s.io/client-go/tools/cache/object-names.go (hyphen becomes underscore).

`ObjectName` is the structured form of a cache key: a namespace and a name whose
string form is exactly what `meta_namespace_key_func` produces. Work queues and
sync handlers pass keys around; this type packs and unpacks them.

Start reading at: ObjectName.__str__, then parse_object_name.

Not ported: nothing.
Differs from Go: `NewObjectName` is both the class and `new_object_name`.
"""

from __future__ import annotations

from dataclasses import dataclass

from minikcm.apimachinery.types import NamespacedName
from minikcm.tools.cache.store_base import split_meta_namespace_key


@dataclass(frozen=True, order=True)
class ObjectName:
    """Port of ObjectName (object-names.go): a reference to an object of some kind known from context."""

    namespace: str
    name: str

    def parts(self) -> tuple[str, str]:
        """Port of ObjectName.Parts: `(namespace, name)`, the inverse of the constructor."""
        return self.namespace, self.name

    def __str__(self) -> str:
        """Port of ObjectName.String: `namespace/name`, or `name` when the namespace is empty.

        This is the cache key format. It is not `NamespacedName`'s format, which
        keeps the slash even for an empty namespace in Go.
        """
        if self.namespace:
            return self.namespace + "/" + self.name
        return self.name

    def as_namespaced_name(self) -> NamespacedName:
        """Port of ObjectName.AsNamespacedName: the same pair as a `NamespacedName`."""
        return NamespacedName(namespace=self.namespace, name=self.name)


def new_object_name(namespace: str, name: str) -> ObjectName:
    """Port of NewObjectName (object-names.go)."""
    return ObjectName(namespace=namespace, name=name)


def parse_object_name(s: str) -> ObjectName:
    """Port of ParseObjectName (object-names.go): read a cache key back into its parts.

    Raises:
        ValueError: `s` has more than one slash.
    """
    namespace, name = split_meta_namespace_key(s)
    return ObjectName(namespace=namespace, name=name)


def namespaced_name_as_object_name(nn: NamespacedName) -> ObjectName:
    """Port of NamespacedNameAsObjectName (object-names.go)."""
    return new_object_name(nn.namespace, nn.name)
