"""Tests for minikcm.util.workqueue.parallelizer (port of util/workqueue/parallelizer_test.go)."""

from __future__ import annotations

import threading

import pytest

from minikcm.util import workqueue
from minikcm.util.workqueue.parallelizer import ceil_div

PARALLELIZE_UNTIL_CASES = [
    #            pieces workers chunk_size
    pytest.param(1000,  10,     1,   id="pieces:1000,workers:10,chunkSize:1"),
    pytest.param(1000,  10,     10,  id="pieces:1000,workers:10,chunkSize:10"),
    pytest.param(1000,  10,     100, id="pieces:1000,workers:10,chunkSize:100"),
    pytest.param(999,   10,     13,  id="pieces:999,workers:10,chunkSize:13"),
]


@pytest.mark.threaded
@pytest.mark.parametrize("pieces, workers, chunk_size", PARALLELIZE_UNTIL_CASES)
def test_parallelize_until(pieces, workers, chunk_size):
    """Port of TestParallelizeUntil (util/workqueue/parallelizer_test.go): every piece is done exactly once."""
    seen = [0] * pieces
    lock = threading.Lock()

    def piece(p: int) -> None:
        with lock:
            seen[p] += 1

    workqueue.parallelize_until(None, workers, pieces, piece, chunk_size=chunk_size)
    assert seen == [1] * pieces


@pytest.mark.parametrize("pieces, workers, chunk_size", PARALLELIZE_UNTIL_CASES)
def test_parallelize_until_inline_order(pieces, workers, chunk_size):
    order: list[int] = []
    workqueue.parallelize_until(None, workers, pieces, order.append, chunk_size=chunk_size, inline=True)
    assert order == list(range(pieces))


def test_parallelize_until_stops():
    stop = threading.Event()
    done: list[int] = []

    def piece(p: int) -> None:
        done.append(p)
        if p == 5:
            stop.set()

    workqueue.parallelize_until(stop, 3, 20, piece, chunk_size=4, inline=True)
    assert done == [0, 1, 2, 3, 4, 5]


def test_parallelize_until_nothing_to_do():
    workqueue.parallelize_until(None, 4, 0, lambda p: pytest.fail("no pieces"))


@pytest.mark.parametrize("a, b, want", [
    pytest.param(10, 4, 3, id="rounds-up"),
    pytest.param(8, 4, 2, id="exact"),
    pytest.param(1, 13, 1, id="smaller-than-chunk"),
])
def test_ceil_div(a, b, want):
    assert ceil_div(a, b) == want
