"""No upstream twin. JSON `null` inside lists and maps, read the way decoding into Go types reads it.

kube-apiserver decodes every request body into its Go struct (sigs.k8s.io/json,
a strict variant of encoding/json) before defaulting and validation see it. A
`null` that stands for a whole element of a slice, or for one value of a map,
cannot stay null there: the decoder makes room for the element and leaves it
at its Go zero value. So `"containers": [null]` reaches validation as one
empty container and is refused with 422 Invalid naming the element
(`spec.containers[0].name: Required value`), `"args": [null]` is stored as
`[""]`, `"ownerReferences": [null]` fails on the empty reference's apiVersion,
kind, name and uid, and `"labels": {"a": null}` becomes the label `a=""`.

The embedded server keeps wire dicts instead of Go structs, so without this
step a null element travelled on into defaulting and validation, which read
every element as a dict or a string, and the write failed with an unexpected
exception (a 500 over HTTP). `zero_null_items` turns such nulls into the zero
value of the element type, found in the same type tree the HTTP front uses for
field validation (`minikcm.apiserver.http.schemas`, built from the official
client's models). The registry calls it on its private copy of every create,
update, patch result and seeded object, before defaulting, so a refused write
fails before anything is stored.

Start reading at: zero_null_items.

Differs from Go: a null *field* of an object (`"spec": null`, `"image": null`)
is left as it is: every reader here already treats a missing or null field as
Go's zero value or nil pointer. Elements whose Go zero value encodes as null
(a nested list or map, a timestamp, a free-form object) stay null, as the Go
object would encode them.
"""

from __future__ import annotations

from typing import Any

from minikcm.apiserver.http import schemas
from minikcm.apiserver.http.schemas import FieldType

_ZERO: dict[str, Any] = {
    schemas.STRING: "",
    schemas.INTEGER: 0,
    schemas.BOOLEAN: False,
    schemas.QUANTITY: "0",
    schemas.INT_OR_STRING: 0,
}
"""Zero values of scalar kinds, as a Go zero value encodes. Kinds not listed encode as null."""


def zero_of(ftype: FieldType) -> Any:
    """The wire form of the Go zero value of `ftype`: `{}` for a struct, "" for a string, ...

    A nested list or map, a timestamp and a free-form value have none other than
    null (a nil slice, nil map, zero metav1.Time and empty RawExtension all encode
    as null), so they get None.
    """
    if ftype.kind == schemas.MODEL:
        return {}
    return _ZERO.get(ftype.kind)


def zero_null_items(obj: Any, model: str) -> None:
    """Replace, in place, every null list element and map value of `obj` by its Go zero value.

    `obj` is a wire dict of the client model class named `model` (for example
    "V1Pod"). Every depth is visited: list elements inside lists of structs,
    struct fields inside list elements, and so on. Fields the model does not
    know, and values of the wrong JSON type, are left alone (the HTTP front
    refuses those earlier; in process they are not looked at).
    """
    _visit(obj, FieldType(schemas.MODEL, model=model))


def _visit(value: Any, ftype: FieldType) -> None:
    if value is None:
        return
    if ftype.kind == schemas.MODEL:
        if not isinstance(value, dict):
            return
        fields = schemas.model_schema(ftype.model).fields
        for key, item in value.items():
            if key in fields:
                _visit(item, fields[key])
    elif ftype.kind == schemas.LIST and isinstance(value, list):
        assert ftype.item is not None
        for i, item in enumerate(value):
            if item is None:
                value[i] = item = zero_of(ftype.item)
            _visit(item, ftype.item)
    elif ftype.kind == schemas.MAP and isinstance(value, dict):
        assert ftype.item is not None
        for key, item in value.items():
            if item is None:
                value[key] = item = zero_of(ftype.item)
            _visit(item, ftype.item)
