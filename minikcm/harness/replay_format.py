"""No upstream twin. The replay file: the JSON shape docs/assets/javascripts/replay.js reads, and its check.

minikcm.harness.replay records a scenario run and builds a replay; this
module says what a replay file is: its version (`FORMAT`), its `SCHEMA`,
the rules `validate` adds beyond the shape (times never go backwards,
indexes point into the function table, at most `MAX_BYTES`), how it is
written (`dumps`: same replay, same bytes) and where the site serves it
(`replay_file_name`).

Start reading at: SCHEMA, then validate.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

FORMAT = 1
"""Version of the trace shape; replay.js refuses other versions."""

MAX_BYTES = 300_000
"""A trace larger than this fails validation (the site ships every one of them)."""


def dumps(replay: Mapping[str, Any]) -> str:
    """The replay as the site ships it: compact, keys sorted, UTF-8 text; same replay, same bytes."""
    return json.dumps(replay, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False) + "\n"


class ReplayShapeError(ValueError):
    """A replay does not have the shape the widget reads; the message says where."""


SCHEMA: dict[str, Any] = {
    "format": int, "scenario": str, "seed": int, "chapter": str, "title": {"zh": str, "en": str},
    "command": str, "end": (int, float), "functions": [{"name": str, "go": str, "upstream": str, "ref": str}],
    "steps": [{"t": (int, float), "name": str, "fn": [int],
               "?brk": [int], "?writes": [list], "?notes": [str], "?diff": dict}],
}
"""The shape, as nested Python: a type, a tuple of types, {key: shape} (a `?key` may be
missing, no other key may appear) or [shape] (a list of items of that shape)."""


def check_shape(value: Any, shape: Any, where: str) -> None:
    """Raise ReplayShapeError unless `value` has `shape` (see SCHEMA)."""
    if isinstance(shape, dict):
        if not isinstance(value, dict):
            raise ReplayShapeError(f"{where}: expected an object, got {type(value).__name__}")
        allowed = {k.lstrip("?") for k in shape}
        extra = sorted(set(value) - allowed)
        if extra:
            raise ReplayShapeError(f"{where}: unexpected key(s) {extra}")
        for key, inner in shape.items():
            bare = key.lstrip("?")
            if bare not in value:
                if key.startswith("?"):
                    continue
                raise ReplayShapeError(f"{where}: missing key {bare!r}")
            check_shape(value[bare], inner, f"{where}.{bare}")
    elif isinstance(shape, list):
        if not isinstance(value, list):
            raise ReplayShapeError(f"{where}: expected a list, got {type(value).__name__}")
        for i, item in enumerate(value):
            check_shape(item, shape[0], f"{where}[{i}]")
    else:
        types_ = shape if isinstance(shape, tuple) else (shape,)
        if isinstance(value, bool) and bool not in types_ or not isinstance(value, types_):
            raise ReplayShapeError(f"{where}: expected {'/'.join(t.__name__ for t in types_)}, "
                                   f"got {type(value).__name__} {value!r:.60}")


def validate(replay: Any, text: str | None = None) -> None:
    """Check `replay` against SCHEMA and the rules the widget relies on.

    Rules beyond the shape: the format is FORMAT; times never go backwards;
    every function index and `brk` points into `functions` with a hit >= 1;
    every write is [verb, resource, name, ok]; the dumped text is at most MAX_BYTES.

    Raises:
        ReplayShapeError: the first problem found, with where it is.
    """
    check_shape(replay, SCHEMA, "replay")
    if replay["format"] != FORMAT:
        raise ReplayShapeError(f"replay.format: {replay['format']} is not {FORMAT}")
    if not replay["steps"]:
        raise ReplayShapeError("replay.steps: empty")
    count, last = len(replay["functions"]), float("-inf")
    for i, step in enumerate(replay["steps"]):
        where = f"replay.steps[{i}]"
        if step["t"] < last:
            raise ReplayShapeError(f"{where}.t: {step['t']} is before the previous step's {last}")
        last = step["t"]
        for j in step["fn"] + step.get("brk", [0, 1])[:1]:
            if not 0 <= j < count:
                raise ReplayShapeError(f"{where}: function index {j} outside functions[0:{count}]")
        if "brk" in step and (len(step["brk"]) != 2 or step["brk"][1] < 1):
            raise ReplayShapeError(f"{where}.brk: expected [function index, hit >= 1], got {step['brk']}")
        for j, write in enumerate(step.get("writes", [])):
            if (len(write) != 4 or not all(isinstance(w, str) for w in write[:3])
                    or not isinstance(write[3], bool)):
                raise ReplayShapeError(f"{where}.writes[{j}]: expected [verb, resource, name, ok], got {write}")
    size = len((text if text is not None else dumps(replay)).encode())
    if size > MAX_BYTES:
        raise ReplayShapeError(f"replay: {size} bytes, more than {MAX_BYTES}; summarise more")


def replay_file_name(name: str, seed: int) -> str:
    """Where the site serves a replay, under assets/replay/."""
    return f"{name}-seed{seed}.json"
