#!/usr/bin/env python3
"""Regenerate the GSPMD example modules: JAX 0.10.2 with Shardy switched off.

With `jax_use_shardy_partitioner=False`, JAX lowers shardings the way it did before
Shardy: `mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"` strings on
arguments and results, `stablehlo.custom_call @Sharding` for sharding constraints, and
`@SPMDFullToShardShape` / `@SPMDShardToFullShape` around shard_map bodies. shardpy's
`shardpy-import` pass turns them into sdy (test/Import runs each of them).

    python examples/generate_gspmd.py          # rewrite the gspmd_*.mlir files
    python examples/generate_gspmd.py --check  # exit 1 if a file is stale or missing

The models, shapes and meshes are generate.py's; see README.md for the table. The
hand-written `.hlo` examples next to them are PyTorch/XLA-style HLO text (the seed
notebook's sharded matmul and multiply); the torch_xla_*.hlo ones come from a real
PyTorch/XLA (generate_torch_xla.py).
"""

import functools
import sys

import generate
import jax
from generate import MESH_2X4, arg, lower, mlp_loss_and_grads, mlp_loss_args, mlp_tp

jax.config.update("jax_use_shardy_partitioner", False)

from jax.sharding import PartitionSpec as P  # noqa: E402


def gspmd_mlp_dp_tp():
    """DP x TP MLP: x batch on "data" (replicated over "model"), w1 columns and w2
    rows on "model" (replicated over "data"), a constraint on the hidden activation."""
    mesh = MESH_2X4
    args = (arg(mesh, (16, 32), P("data", None)), arg(mesh, (32, 64), P(None, "model")),
            arg(mesh, (64, 32), P("model", None)))
    fn = functools.partial(mlp_tp, hidden_spec=P("data", "model"))
    return lower(fn, mesh, args, P("data", None))


def gspmd_mlp_dp_tp_fwd_bwd():
    """Loss and gradients of the same MLP; loss and grads partially replicated."""
    mesh = MESH_2X4
    args = mlp_loss_args(mesh, P("data", None), P(None, "model"), P("model", None))
    return lower(mlp_loss_and_grads, mesh, args, (P(), (P(None, "model"), P("model", None))))


def _scaled_psum(block):
    return block * 2.0 + jax.lax.psum(block, "model")


def gspmd_shard_map():
    """A fully manual shard_map (psum over "model") between two automatic ops."""
    mesh = MESH_2X4

    def f(x):
        y = jax.shard_map(_scaled_psum, mesh=mesh, in_specs=P("data", "model"),
                          out_specs=P("data", "model"))(jax.numpy.sin(x))
        return y + 1.0

    return lower(f, mesh, (arg(mesh, (16, 32), P("data", None)),), P("data", None))


def gspmd_shard_map_partial():
    """shard_map manual over "data" only; "model" stays automatic inside."""
    mesh = MESH_2X4

    def body(block, w):
        return jax.nn.relu(block @ w)

    def f(x, w):
        return jax.shard_map(body, mesh=mesh, in_specs=(P("data"), P()), out_specs=P("data"),
                             axis_names={"data"})(x, w)

    args = (arg(mesh, (16, 32), P("data", None)), arg(mesh, (32, 64), P(None, "model")))
    return lower(f, mesh, args, P("data", None))


EXAMPLES = {
    "gspmd_mlp_dp_tp_mesh2x4.mlir": gspmd_mlp_dp_tp,
    "gspmd_mlp_dp_tp_fwd_bwd_mesh2x4.mlir": gspmd_mlp_dp_tp_fwd_bwd,
    "gspmd_shard_map_mesh2x4.mlir": gspmd_shard_map,
    "gspmd_shard_map_partial_mesh2x4.mlir": gspmd_shard_map_partial,
}


if __name__ == "__main__":
    sys.exit(generate.main(EXAMPLES, "examples/generate_gspmd.py", __doc__))
