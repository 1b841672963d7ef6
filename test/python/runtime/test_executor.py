"""Size-zero dims in the host runtime (python/shardpy/runtime/executor.py, arrays.py;
issue 19, item 3): blocks, splitting and assembling global arrays, random inputs.

The partitioned programs themselves are checked by execution in
test/Partition/zero_size_*.mlir; these pin the pieces those rely on."""
from __future__ import annotations

import numpy as np
import pytest

from shardpy.runtime import executor as runtime
from shardpy.runtime.arrays import TensorType, random_inputs
from shardpy.sharding.model import AxisRef, DimSharding, Mesh, TensorSharding

MESH = Mesh((("x", 2), ("y", 2)))


def sharding(*dims):
    return TensorSharding(MESH, tuple(DimSharding(tuple(AxisRef(a) for a in d), True)
                                      for d in dims), (), (), "mesh")


@pytest.mark.parametrize("local", [(0,), (2, 0), (0, 3), (4, 0, 2)])
def test_blocks_round_trip_with_an_empty_dim(local):
    rows = np.zeros((4, *local), np.float32)
    stacked = runtime.to_blocks(rows)
    assert stacked.shape == (4 * local[0], *local[1:])
    assert runtime.from_blocks(stacked, local, 4).shape == rows.shape


@pytest.mark.parametrize("dims,local", [((("x",), ()), (4, 0)),
                                        (((), ("y",)), (8, 0)),
                                        (((), ()), (8, 0)),
                                        ((("y",), ("x",)), (4, 0))])
def test_split_and_assemble_empty_arrays(dims, local):
    s = sharding(*dims)
    array = np.zeros((8, 0), np.float32)
    assert s.local_shape(array.shape) == local
    rows = runtime.split_global(array, s, local, 4)
    assert rows.shape == (4, *local)
    assembled = runtime.assemble_global(rows, s, array.shape)
    assert assembled.array.shape == (8, 0) and assembled.replica_divergence == 0.0


def test_random_inputs_with_empty_dims():
    types = [TensorType((8, 0), np.dtype(np.float32), "f32"),
             TensorType((0,), np.dtype(np.int32), "i32"),
             TensorType((0, 3), np.dtype(np.bool_), "i1")]
    for t, a in zip(types, random_inputs(types, 0)):
        assert a.shape == t.shape and a.dtype == t.dtype
