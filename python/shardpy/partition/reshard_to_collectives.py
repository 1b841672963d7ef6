"""shardpy-reshard-to-collectives: replace each sdy.reshard by the collectives it needs.

Each sdy.reshard becomes the steps of the reshard planner's cheapest plan
(shardpy.partition.reshard_planner: by estimated time, then bytes per device), one sdy
collective per step, each carrying the sharding it leaves behind; a reshard that needs nothing
disappears, and a plan that had to fall back to "gather everything, then slice" is
reported as a warning. Between two meshes whose axes differ the cross-mesh step stays
an sdy.reshard for shardpy-to-local (before/after IR: passes/reshard_to_collectives.py).
"""
from __future__ import annotations

from dataclasses import replace

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from .. import explain
from ..ir.diagnostics import ShardpyError, warning
from ..ir.types import element_bytes
from ..sharding import axis_algebra as aa
from ..sharding.model import TensorSharding
from ..sharding.sdy_codec import encode_all_to_all_params, encode_axis_list, encode_axis_lists
from ..sharding.state import ShardingState
from .layouts import plain, replicated
from .regions import program_ops
from .reshard_planner import candidate_plans, plan_reshard, rank_key, same_mesh
from .reshard_steps import ReshardError, Step


def lower_reshards(module: ir.Operation, model=None) -> None:
    """Every sdy.reshard of `module`'s functions -> sdy collectives, by the plan the
    reshard planner finds fastest under `model` (a CollectiveTimeModel; None: the one
    moving the fewest bytes)."""
    state = ShardingState(module)
    for func in [op.operation for op in module.regions[0].blocks[0].operations
                 if op.operation.name == "func.func"]:
        for op in program_ops(func):
            if op.name == "sdy.reshard":
                _lower(op, state, model)


def _lower(op: ir.Operation, state: ShardingState, model=None) -> None:
    value = op.operands[0]
    if not isinstance(value.type, ir.RankedTensorType):
        # A token (JAX threads one through shard_map for ordered effects): every device
        # holds its own; nothing to move.
        op.results[0].replace_all_uses_with(value)
        op.erase()
        return
    target = state.of(op.results[0])
    source = state.of(value)
    if source is None:
        # sdy's verifier wants collectives' operands sharded: say "replicated" explicitly
        # (a while's block argument included: its while may carry no sharding at all),
        # on the program's devices, where an unannotated value lives: the target's mesh
        # may be a subset of them (written there, an argument would reach only those
        # devices and the others compute from zeros).
        source = replicated(_program_mesh(state, target), target.rank)
        try:
            state.write(value, source)
        except ValueError as err:
            raise ShardpyError(str(err), op.location) from None
    value_type = value.type
    try:
        plan = plan_reshard(source, target, tuple(value_type.shape),
                            element_bytes(value_type.element_type), model=model)
    except ReshardError as err:
        raise ShardpyError(str(err), op.location) from None
    if plan.last_resort:
        warning(op.location, f"resharding {source} to {target} gathers the whole value "
                             f"and slices it again (no cheaper sequence found)")
    recorder = explain.current()
    if recorder is not None:  # --explain: the plans weighed for this reshard
        reasons = recorder.reasons_of(op.location)
        if reasons and same_mesh(source, target):
            shape = tuple(value_type.shape)
            size = element_bytes(value_type.element_type)
            weighed = candidate_plans(source, target, shape, size)
            explain.note_reshard_plans(reasons[0], plan, weighed, model,
                                       [rank_key(p, model) for p in weighed])
    current, sharding = value, source
    with op.location, ir.InsertionPoint(op):
        for step in plan.steps:
            current = _emit(step, current, sharding, state)
            sharding = step.result
    op.results[0].replace_all_uses_with(current)
    op.erase()


def _program_mesh(state: ShardingState, target):
    """`target`, or where its mesh is smaller than the program's largest mesh (all its
    devices: insert_reshards' home of unannotated values), a sharding on that one."""
    meshes = [(name, m) for name, m in state.codec.meshes.items() if not m.is_maximal]
    if not meshes:
        return target
    name, mesh = max(meshes, key=lambda nm: nm[1].size)  # (the first of the largest)
    if mesh.size <= target.mesh.size:
        return target
    return TensorSharding.replicated_on(mesh, target.rank, name)


def _merged(per_dim, sizes):
    return [aa.merge_consecutive(axes, sizes) for axes in per_dim]


def _emit(step: Step, value: ir.Value, source, state: ShardingState) -> ir.Value:
    """The op for one step of a plan, taking `value` (sharded `source`) to step.result."""
    codec = state.codec
    result = plain(step.result, step.result.dims, step.result.unreduced)
    if result.mesh_name != source.mesh_name and same_mesh(source, result):
        # One mesh under two symbols (an alias): sdy's collectives keep their operand's
        # mesh symbol, and data is placed alike on both (fuzz seed 1108564).
        result = replace(result, mesh_name=source.mesh_name)
    out = codec.encode(result)
    if not same_mesh(source, result) and (step.kind != "collective_permute"
                                          or source.mesh.axes != result.mesh.axes):
        # Blocks moved to another mesh whose axes differ (other names or sizes, a
        # subset of the devices): sdy's collectives stay on one mesh's axes, so this
        # step stays an sdy.reshard between the meshes, which shardpy-to-local lowers
        # like a collective_permute (no data moves where every device keeps its block).
        assert step.kind == "collective_permute", step.kind
        new = sdy.ReshardOp(value, out)
        state.remember(new.result, result)
        return new.result
    sizes = result.mesh.axes
    if step.kind == "all_reduce":
        new = sdy.AllReduceOp(value, encode_axis_list(_merged([step.axes], sizes)[0]), out)
    elif step.kind == "all_gather":
        new = sdy.AllGatherOp(value, encode_axis_lists(_merged(step.dim_axes, sizes)), out)
    elif step.kind == "all_slice":
        new = sdy.AllSliceOp(value, encode_axis_lists(_merged(step.dim_axes, sizes)), out)
    elif step.kind == "reduce_scatter":
        new = sdy.ReduceScatterOp(value, encode_axis_lists(_merged(step.dim_axes, sizes)), out)
    elif step.kind == "all_to_all":
        new = sdy.AllToAllOp(value, encode_all_to_all_params(
            [(step.axes, step.src_dim, step.tgt_dim)]), out)
    elif step.kind == "collective_permute":
        new = sdy.CollectivePermuteOp(value, out)
    elif step.kind == "replicated_to_unreduced":
        new = sdy.ReplicatedToUnreducedOp(value, encode_axis_list(
            _merged([step.axes], sizes)[0]), out)
    else:
        raise AssertionError(step.kind)
    state.remember(new.result, result)
    return new.result
