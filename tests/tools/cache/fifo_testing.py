"""Test helpers shared by the FIFO test modules (ports of the helpers in fifo_test.go and delta_fifo_test.go).

Upstream keeps List/Get on FIFO and DeltaFIFO only in its test files; here they
are functions (and a FIFO subclass) in this module for the same reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from minikcm.tools.cache.delta_fifo import DeletedFinalStateUnknown, DeltaFIFO, Deltas, copy_deltas
from minikcm.tools.cache.fifo import FIFO, ErrFIFOClosed
from minikcm.tools.cache.store import KeyErr


@dataclass
class FifoObj:
    """Port of testFifoObject (fifo_test.go)."""

    name: str
    val: Any = None


def mk_fifo_obj(name: str, val: Any = None) -> FifoObj:
    """Port of mkFifoObj (fifo_test.go)."""
    return FifoObj(name, val)


def fifo_obj_key_func(obj: Any) -> str:
    """Port of testFifoObjectKeyFunc (fifo_test.go)."""
    if not isinstance(obj, FifoObj):
        raise TypeError(f"not a FifoObj: {obj!r}")
    return obj.name


def pop(queue: Any) -> Any:
    """Port of Pop (fifo_test.go): pop one item and return it; None once the queue is closed."""
    result: list[Any] = []

    def keep(obj: Any, is_in_initial_list: bool) -> None:
        result.append(obj)

    try:
        queue.pop(keep)
    except ErrFIFOClosed:
        return None
    return result[0]


def pop2(queue: Any) -> tuple[Any, bool]:
    """Port of pop2 (delta_fifo_test.go): the popped item and its is_in_initial_list flag."""
    result: list[tuple[Any, bool]] = []

    def keep(obj: Any, is_in_initial_list: bool) -> None:
        result.append((obj, is_in_initial_list))

    queue.pop(keep)
    return result[0]


class LiteralListerGetter:
    """Port of literalListerGetter (delta_fifo_test.go): known objects from a function returning FifoObjs."""

    def __init__(self, fn: Callable[[], list[FifoObj]]) -> None:
        self.fn = fn

    def list_keys(self) -> list[str]:
        return [obj.name for obj in self.fn()]

    def get_by_key(self, key: str) -> tuple[Any, bool]:
        for obj in self.fn():
            if obj.name == key:
                return obj, True
        return None, False


def literal(*objs: FifoObj) -> LiteralListerGetter:
    """Known objects that are always exactly `objs`."""
    return LiteralListerGetter(lambda: list(objs))


class TestingFIFO(FIFO):
    """FIFO plus the read methods fifo_test.go defines on it (List, ListKeys, Get, GetByKey, ...)."""

    __test__ = False  # not a test class

    def list(self) -> list[Any]:
        with self.lock:
            return [self.items[k] for k in sorted(self.items)]

    def list_keys(self) -> list[str]:
        with self.lock:
            return sorted(self.items)

    def last_store_sync_resource_version(self) -> str:
        return ""

    def bookmark(self, rv: str) -> None:
        pass

    def get(self, obj: Any) -> tuple[Any, bool]:
        try:
            key = self.key_func(obj)
        except Exception as err:
            raise KeyErr(obj, err) from err
        return self.get_by_key(key)

    def get_by_key(self, key: str) -> tuple[Any, bool]:
        with self.lock:
            if key in self.items:
                return self.items[key], True
            return None, False


def delta_fifo_list(f: DeltaFIFO) -> list[Any]:
    """Port of DeltaFIFO.list (delta_fifo_test.go): the newest object of each key, in key order."""
    with f.lock:
        return [f.items[k].newest().object for k in sorted(f.items)]  # type: ignore[union-attr]


def delta_fifo_list_keys(f: DeltaFIFO) -> list[str]:
    """Port of DeltaFIFO.listKeys (delta_fifo_test.go): the queued keys, in queue order."""
    with f.lock:
        return list(f.queue)


def delta_fifo_get(f: DeltaFIFO, obj: Any) -> tuple[Deltas | None, bool]:
    """Port of DeltaFIFO.get (delta_fifo_test.go): a copy of the object's deltas."""
    key = f.key_of(obj)
    with f.lock:
        if key in f.items:
            return copy_deltas(f.items[key]), True
        return None, False


@dataclass
class RvAndXfrm:
    """Port of rvAndXfrm (delta_fifo_test.go): a version and a count of transformer runs."""

    rv: int
    xfrm: int = 0


def counting_transformer(obj: Any) -> Any:
    """The transformer of TestDeltaFIFO_transformer: counts runs; tombstones must hold a once-transformed object."""
    if isinstance(obj, DeletedFinalStateUnknown):
        if obj.obj.val.xfrm != 1:
            raise ValueError(f"object has been transformed wrong number of times: {obj!r}")
        return obj
    if not hasattr(obj, "val"):
        raise ValueError(f"unexpected object: {obj!r}")
    obj.val.xfrm += 1
    return obj
