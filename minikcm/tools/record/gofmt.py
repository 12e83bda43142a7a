"""No upstream twin: Go's fmt verbs, as the event recorder's messages need them.

Controllers pass Go format strings to `EventRecorder.eventf` ("Scaled up
replica set %s to %d"), and StartLogging prints an ObjectReference with `%#v`.
`go_sprintf` renders the verbs those use (%v, %s, %d, %q, %%) the way Go's fmt
does, error texts included, so events and logs read as upstream's do.

Start reading at: go_sprintf.
"""

from __future__ import annotations

import re
from typing import Any

from kubernetes.client import V1ObjectReference

from minikcm.apimachinery.field import go_format_float, go_quote


def object_reference_go_string(ref: V1ObjectReference | None) -> str:
    """Go's `%#v` of a v1.ObjectReference, fields in Go's order, as StartLogging prints it."""
    ref = ref or V1ObjectReference()
    fields = [("Kind", ref.kind), ("Namespace", ref.namespace), ("Name", ref.name), ("UID", ref.uid),
              ("APIVersion", ref.api_version), ("ResourceVersion", ref.resource_version),
              ("FieldPath", ref.field_path)]
    return "v1.ObjectReference{" + ", ".join(f"{k}:{go_quote(v or '')}" for k, v in fields) + "}"


_VERB = re.compile(r"%(-?)(\d*)([vsdq%])")


def go_sprintf(format_: str, *args: Any) -> str:
    """Go's fmt.Sprintf for the verbs event messages use: %v, %s, %d, %q and %%.

    A width (`%5d`, `%-8s`) pads as in Go. Go's error texts are kept: a missing
    argument prints `%!d(MISSING)`, a wrong type `%!d(string=abc)`, leftovers
    `%!(EXTRA int=1)`. Other verbs are left as they are.
    Example: go_sprintf("Scaled up %s to %d", "web-5d", 3) == "Scaled up web-5d to 3".
    """
    out: list[str] = []
    pos = used = 0
    for m in _VERB.finditer(format_):
        out.append(format_[pos:m.start()])
        pos = m.end()
        left, width, verb = m.groups()
        if verb == "%":
            out.append("%")
            continue
        if used >= len(args):
            out.append(f"%!{verb}(MISSING)")
            continue
        arg = args[used]
        used += 1
        if verb == "d" and not (isinstance(arg, int) and not isinstance(arg, bool)):
            text = f"%!d({go_type_name(arg)}={go_value_string(arg)})"
        elif verb == "q":
            text = go_quote(arg if isinstance(arg, str) else go_value_string(arg))
        else:
            text = go_value_string(arg)
        out.append(text.ljust(int(width)) if left else text.rjust(int(width or 0)))
    out.append(format_[pos:])
    if used < len(args):
        out.append("%!(EXTRA " + ", ".join(f"{go_type_name(a)}={go_value_string(a)}" for a in args[used:]) + ")")
    return "".join(out)


def go_value_string(v: Any) -> str:
    """Go's `%v` of a Python value: None is `<nil>`, booleans `true`/`false`, lists `[a b]`,
    dicts `map[k:v]` with sorted keys, floats Go's shortest form; anything else its str()."""
    if v is None:
        return "<nil>"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return go_format_float(v)
    if isinstance(v, (list, tuple)):
        return "[" + " ".join(go_value_string(x) for x in v) + "]"
    if isinstance(v, dict):
        return "map[" + " ".join(f"{go_value_string(k)}:{go_value_string(v[k])}" for k in sorted(v)) + "]"
    return str(v)


def go_type_name(v: Any) -> str:
    """The Go type name Sprintf's error texts show for a Python value."""
    names = {bool: "bool", int: "int", float: "float64", str: "string", type(None): "<nil>"}
    return names.get(type(v), type(v).__name__)
