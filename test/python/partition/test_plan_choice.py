"""plan_choice's compute estimate: what memory an op's local computation touches."""
from __future__ import annotations

from jaxlib.mlir import ir

from shardpy.partition.plan_choice import OpPlan, compute_time
from shardpy.sharding.collective_time import load_profile
from shardpy.sharding.model import AxisRef, DimSharding, Mesh, TensorSharding

MESH = Mesh((("data", 2), ("model", 4)))
MODEL = load_profile("cpu")

# An embedding lookup (the gather of JAX's `table[ids]`) and a KV-cache update.
PROGRAM = """
func.func @f(%table: tensor<512x256xf32>, %ids: tensor<8x1xi32>, %cache: tensor<64x256xf32>,
             %row: tensor<1x256xf32>, %i: tensor<i32>) -> (tensor<8x256xf32>, tensor<64x256xf32>) {
  %rows = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 256>}> : (tensor<512x256xf32>, tensor<8x1xi32>) -> tensor<8x256xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %new = stablehlo.dynamic_update_slice %cache, %row, %i, %c0 : (tensor<64x256xf32>, tensor<1x256xf32>, tensor<i32>, tensor<i32>) -> tensor<64x256xf32>
  return %rows, %new : tensor<8x256xf32>, tensor<64x256xf32>
}
"""


def sharding(*dims):
    return TensorSharding(MESH, tuple(DimSharding(tuple(AxisRef(a) for a in d)) for d in dims),
                          mesh_name="mesh")


def ops(ctx):
    module = ir.Module.parse(PROGRAM, ctx)
    body = module.body.operations[0].regions[0].blocks[0]
    return module, {op.name: op for op in body.operations}


def test_a_gather_reads_the_rows_it_writes_not_its_whole_table(ctx):
    module, found = ops(ctx)
    gather = found["stablehlo.gather"]
    replicated_table = OpPlan([sharding([], []), sharding([], [])], [sharding([], [])])
    sharded_table = OpPlan([sharding([], ["model"]), sharding([], [])],
                           [sharding([], ["model"])])
    # 8 rows of 256 f32 read and written, and 8 ids: never the 512 KiB table.
    whole = compute_time(gather, replicated_table, MODEL)
    assert whole == MODEL.compute_time(2 * 8 * 256 * 4 + 8 * 4)
    # Sharding the table's columns shrinks only the rows each device reads.
    assert compute_time(gather, sharded_table, MODEL) == MODEL.compute_time(
        2 * 8 * 64 * 4 + 8 * 4)


def test_an_update_in_place_touches_the_update_not_the_buffer(ctx):
    module, found = ops(ctx)
    update = found["stablehlo.dynamic_update_slice"]
    plan = OpPlan([sharding([], []), sharding([], []), None, None], [sharding([], [])])
    # the 1x256 row and the two scalar indices, each read and written once
    assert compute_time(update, plan, MODEL) == MODEL.compute_time(2 * (256 * 4 + 4 + 4))
