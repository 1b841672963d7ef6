"""Halo windows of size-zero dims (python/shardpy/lowering/halo.py; issue 19, item 3).

The partitioned programs themselves are checked by execution in
test/Partition/zero_size_*.mlir; these pin the geometry those rely on."""
from __future__ import annotations

from shardpy.lowering.halo import Window


def test_empty_window_reads_nothing():
    """A slice to size zero of a dim in 2 shards of 2: no rounds, nothing received."""
    w = Window.affine(2, 2, 2, 0, 0)
    assert w.reads_nothing and w.rounds == () and w.received() == 0
    assert w.buffer_start == 0 and w.offsets == (0, 0)


def test_window_of_an_empty_dim_is_all_padding():
    """Pad of an empty dim in 2 shards to 4 elements: every position is padding."""
    w = Window.affine(2, 0, -1, 2, 2)
    assert w.reads_nothing and w.rounds == () and w.received() == 0 and w.out_of_range
