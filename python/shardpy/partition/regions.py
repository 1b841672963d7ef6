"""Ops with regions and terminators in shardpy-insert-reshards: the program's structure.

`program_ops` walks a program in order, descending into the regions that hold program
data flow (STRUCTURAL_REGION_OPS) and not into per-element computations (reduce
bodies, sort comparators...). _STRUCTURAL_HANDLERS says what the pass does at each
structural op instead of placing it by a sharding rule: values crossing a region's,
a call's or a function's boundary are resharded to what the other side has (whole,
where it is unannotated), branch predicates and loop conditions made whole on every
device, sharding constraints turned into reshards, barriers and groups dropped. An
sdy.named_computation is inlined first (inline_named_computation).

Each handler takes the pass (insert_reshards.ExplicitReshards), the op and its
function. Which ops are structural, and of which kind, it asks the op registry
(shardpy.ops: the entries' Flow: `kind`, `program_regions`, `inlined_by`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from .. import explain
from ..ir.diagnostics import ShardpyError
from ..ir.utils import collect_ops, erase_op_forwarding_operands, inline_region_before
from ..ops.collectives import STABLEHLO_COLLECTIVES, cross_partition
from ..ops.entry import (BRANCHES, CALL, CARRY, CONSTRAINT, EDGE, FUNCTION_RETURN, GROUP,
                         INSERT_RESHARDS, LOOP, MANUAL, NAMED, PROPAGATION_BARRIER,
                         REGION_RETURN)
from ..ops.registry import by_flow_kind, family, ops_with
from ..sharding.device_groups import groups_of
from ..sharding.manual_layout import even_manual_layouts
from ..sharding.sdy_codec import SHARDING_ATTR
from ..sharding.state import add_axes_back, manual_axes, without_axes
from .plan_cache import HAS_REGIONS, region_count_fixed

if TYPE_CHECKING:
    from .insert_reshards import ExplicitReshards

# Regions of these ops hold program data flow (walked); other regions are per-element
# computations (reduce bodies...) and are left alone.
STRUCTURAL_REGION_OPS = ops_with(lambda e: e.flow is not None and e.flow.program_regions)
# Region ops this pass inlines first (named computations: inline_named_computation).
_INLINED_HERE = ops_with(lambda e: e.flow is not None
                         and e.flow.inlined_by == INSERT_RESHARDS)
# sdy.data_flow_edge: dropped first (sink_data_flow_edges).
EDGE_OPS = ops_with(lambda e: e.flow is not None and e.flow.kind == EDGE)
# The Flow.kind of each structural op (a region return asks its parent's).
_KIND = {name: family(name).flow.kind
         for name in ops_with(lambda e: e.flow is not None)}


def program_ops(root: ir.Operation, computations: list | None = None,
                named: list | None = None, edges: list | None = None) -> list[ir.Operation]:
    """Ops of `root`'s regions in program order, descending only into structural ops.
    `computations`, where given, gets the other ops that hold regions (reduce bodies,
    sort comparators...); `named` the sdy.named_computations; `edges` the
    sdy.data_flow_edges."""
    found: list[ir.Operation] = []
    has_regions = HAS_REGIONS

    def visit(op: ir.Operation):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    inner = inner.operation
                    found.append(inner)
                    name = inner.name
                    if edges is not None and name in EDGE_OPS:
                        edges.append(inner)
                    if name in STRUCTURAL_REGION_OPS:
                        if named is not None and name in _INLINED_HERE:
                            named.append(inner)
                        visit(inner)
                    elif computations is not None:
                        regions = has_regions.get(name)
                        if regions is None:
                            regions = has_regions[name] = region_count_fixed(inner)
                        if regions is not False:  # True, or unknown for this name: ask
                            if regions or len(inner.regions):
                                computations.append(inner)

    visit(root)
    return found


def sink_data_flow_edges(edges: list[ir.Operation], codec) -> None:
    """Drop the sdy.data_flow_edges (as Shardy's sink-data-flow-edges does before its
    partitioner): each one's result becomes its operand again. Propagation wrote every
    edge's sharding onto its target's owner as well (a region op's result shardings),
    except a manual computation's in/out_shardings, which take it here (a body
    argument's edge holds the local sharding: the manual axes go back in).

    before:
        %1:2 = stablehlo.optimization_barrier {sdy.sharding = ...} %0, %arg1
        %2 = sdy.data_flow_edge %1#0 sharding=<@mesh, [{"a"}, {}]>
        return %2
    after:
        %1:2 = stablehlo.optimization_barrier {sdy.sharding = ...} %0, %arg1
        return %1#0
    """
    for op in edges:
        if "sharding" in op.attributes:
            _sink_into_manual(op.operands[0], op.attributes["sharding"], codec)
        erase_op_forwarding_operands(op)


def _sink_into_manual(target: ir.Value, sharding: ir.Attribute, codec) -> None:
    if isinstance(target, ir.OpResult):
        owner, index, key = target.owner.operation, target.result_number, "out_shardings"
    else:
        arg = ir.BlockArgument(target)
        owner, index, key = arg.owner.owner, arg.arg_number, "in_shardings"
        if owner is None:
            return
        owner = owner.operation
    if owner.name != "sdy.manual_computation":
        return
    per_value = list(sdy.TensorShardingPerValueAttr(owner.attributes[key]).shardings)
    if key == "in_shardings":
        old = codec.decode(per_value[index], owner.location)
        sharding = codec.encode(add_axes_back(codec.decode(sharding, owner.location), old,
                                              manual_axes(owner)))
    per_value[index] = sharding
    owner.attributes[key] = sdy.TensorShardingPerValueAttr.get(per_value)


def inline_named_computation(op: ir.Operation) -> None:
    """An sdy.named_computation is a call inlined (Shardy's export makes it a
    func.call): its body goes in its place, operands pass through sdy.reshards to
    `in_shardings` and returned values to `out_shardings` (or, without them, to the
    results' propagated shardings), so values crossing its boundary onto another
    mesh are moved like any reshard (the walk then meets these reshards).

    before:
        %1 = sdy.named_computation<"f">(%0) in_shardings=[<@m2, [{"d"}, {}]>]
                 out_shardings=[<@m2, [{}, {}]>] (%arg1: tensor<8x16xf32>) {
          %2 = stablehlo.sine %arg1 ...
          sdy.return %2 : tensor<8x16xf32>
        } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    after:
        %r = sdy.reshard %0 <@m2, [{"d"}, {}]> : tensor<8x16xf32>
        %2 = stablehlo.sine %r ...
        %1 = sdy.reshard %2 <@m2, [{}, {}]> : tensor<8x16xf32>
    """
    attrs = op.attributes
    ins = list(sdy.TensorShardingPerValueAttr(attrs["in_shardings"]).shardings) \
        if "in_shardings" in attrs else None
    if "out_shardings" in attrs:
        outs = list(sdy.TensorShardingPerValueAttr(attrs["out_shardings"]).shardings)
    elif SHARDING_ATTR in attrs:
        outs = list(sdy.TensorShardingPerValueAttr(attrs[SHARDING_ATTR]).shardings)
    else:
        outs = None
    with op.location:
        if ins is not None:
            for i, sharding in enumerate(ins):
                with ir.InsertionPoint(op):
                    op.operands[i] = sdy.ReshardOp(op.operands[i], sharding).result
        if outs is not None:
            for result, sharding in zip(op.results, outs):
                with ir.InsertionPoint.after(op):
                    reshard = sdy.ReshardOp(result, sharding)
                result.replace_all_uses_except(reshard.result, reshard.operation)
    inline_region_before(op)


def drop_layout_ops_in_computations(computations: list[ir.Operation]) -> None:
    """Sharding annotations inside per-element computations (JAX puts constraints in
    some reduction bodies) say nothing about program values: drop them.
    `computations`: the non-structural ops with regions (program_ops)."""
    for computation in computations:
        for op in collect_ops(computation):
            kind = _KIND.get(op.name)
            if kind not in (CONSTRAINT, PROPAGATION_BARRIER, GROUP):
                continue
            if kind != GROUP:
                op.results[0].replace_all_uses_with(op.operands[0])
            op.erase()


# -- _STRUCTURAL_HANDLERS: ctx is the pass (ExplicitReshards) ---------------------------
def _func_return(ctx: ExplicitReshards, op: ir.Operation, func: ir.Operation) -> None:
    for i in range(len(op.operands)):
        ctx.reshard_to_whole_or(op, i, ctx.state.func_result_sharding(func, i))


def _carried(ctx: ExplicitReshards, op: ir.Operation, func: ir.Operation) -> None:
    """while, optimization_barrier: operand i becomes result i."""
    for i in range(len(op.operands)):
        ctx.reshard_to_whole_or(op, i, ctx.state.of(op.results[i]))


def _manual_computation(ctx: ExplicitReshards, op: ir.Operation,
                        func: ir.Operation) -> None:
    ins = sdy.TensorShardingPerValueAttr(op.attributes["in_shardings"]).shardings
    shardings = [ctx.state.codec.decode(attr, op.location) for attr in ins]
    outs = [ctx.state.codec.decode(attr, op.location) for attr in
            sdy.TensorShardingPerValueAttr(op.attributes["out_shardings"]).shardings]
    shardings, outs = even_manual_layouts(op, ctx.state.codec, shardings, outs, ctx.state)
    for i, sharding in enumerate(shardings):
        ctx.reshard_operand(op, i, sharding)
    if shardings:
        check_manual_collectives(op, shardings[0].mesh)


def check_manual_collectives(op: ir.Operation, mesh) -> None:
    """A collective in partially manual code (some mesh axes stay free) may only group
    devices of one manual subgroup: devices that agree along every free axis. XLA's
    partitioner rejects any other ("manual all-reduce across devices that belong to
    different manual subgroups"), and so does shardpy, with the devices and the axis."""
    free = [name for name in mesh.axis_names if name not in manual_axes(op)]
    if not free:
        return
    for inner in collect_ops(op):
        if inner.name not in STABLEHLO_COLLECTIVES or "replica_groups" not in \
                inner.attributes or not cross_partition(inner):
            continue
        for devices in groups_of(inner.attributes["replica_groups"]) or ():
            for device in devices[1:]:
                for axis in free:
                    if mesh.coordinates(device)[axis] != mesh.coordinates(devices[0])[axis]:
                        raise ShardpyError(
                            f"manual '{inner.name}' across devices that belong to different "
                            f"manual subgroups: devices {devices[0]} and {device} of one "
                            f"replica group differ along the free (non-manual) axis "
                            f"\"{axis}\" (XLA's partitioner rejects it too)", inner.location)


def _propagation_barrier(ctx: ExplicitReshards, op: ir.Operation,
                         func: ir.Operation) -> None:
    op.results[0].replace_all_uses_with(op.operands[0])
    op.erase()


def _sharding_group(ctx: ExplicitReshards, op: ir.Operation,
                    func: ir.Operation) -> None:
    op.erase()


def _branch(ctx: ExplicitReshards, op: ir.Operation, func: ir.Operation) -> None:
    # Every device must take the same branch: the index / predicate whole (a
    # partial sum is finished first). Branch values at their returns.
    ctx.reshard_operand(op, 0, None)


def _region_return(ctx: ExplicitReshards, op: ir.Operation,
                   func: ir.Operation | None = None) -> None:
    parent = op.parent.operation if op.parent is not None else None
    if parent is None:
        return
    kind = _KIND.get(parent.name)
    if kind in (LOOP, BRANCHES, NAMED):
        if kind == LOOP and _region_index(parent, op) == 0:
            ctx.reshard_operand(op, 0, None)  # the predicate whole on every device
            return
        for i in range(len(op.operands)):
            ctx.reshard_to_whole_or(op, i, ctx.state.of(parent.results[i]))
    elif kind == MANUAL:
        outs = sdy.TensorShardingPerValueAttr(parent.attributes["out_shardings"]).shardings
        manual = manual_axes(parent)
        for i, attr in enumerate(outs):
            target = without_axes(ctx.state.codec.decode(attr, parent.location), manual)
            ctx.reshard_operand(op, i, target)


def _call(ctx: ExplicitReshards, op: ir.Operation, func: ir.Operation | None = None
          ) -> None:
    callee = ctx.funcs.get(ir.FlatSymbolRefAttr(op.attributes["callee"]).value)
    if callee is None:
        return
    for i, operand in enumerate(op.operands):
        target = ctx.state.func_arg_sharding(callee, i)
        current = ctx.state.of(operand)
        if target is None and current is not None:  # the callee takes whole values
            target = ctx.everywhere(current)
        ctx.reshard_operand(op, i, target)
    produced = [ctx.state.func_result_sharding(callee, i) for i in range(len(op.results))]
    wanted = [ctx.state.of(r) for r in op.results]
    ctx.state.set_results(op, produced)
    for result, have, want in zip(op.results, produced, wanted):
        ctx.reshard_result(op, result, have, want)


def _constraint_to_reshard(ctx: ExplicitReshards, op: ir.Operation,
                           func: ir.Operation | None = None) -> None:
    sharding = ctx.state.of(op.results[0])
    loc = op.location
    recorder = explain.current()
    if recorder is not None:  # --explain: the program's own constraint
        loc = recorder.tag(loc, explain.operand_reason(
            recorder, op, 0, op.operands[0], ctx.state.of(op.operands[0]), sharding))
    with loc, ir.InsertionPoint(op):
        reshard = sdy.ReshardOp(op.operands[0], ctx.state.codec.encode(sharding))
    ctx.reshards.append(reshard.operation)
    op.results[0].replace_all_uses_with(reshard.result)
    ctx.state.remember(reshard.result, sharding)
    op.erase()


def _region_index(parent: ir.Operation, terminator: ir.Operation) -> int:
    region = terminator.block.region
    for i, candidate in enumerate(parent.regions):
        if candidate == region:
            return i
    return -1


# Flow.kind -> how ExplicitReshards treats the op (kinds not here: sdy.reshard, left for
# later passes; sdy.mesh; named computations, inlined before; everything else is an op
# with a rule: ExplicitReshards.compute_op), and the same by op name for the per-op
# dispatch. Plain functions, not closures over the instance: a cycle would keep every
# value the pass touched alive until the next garbage collection, and later passes walk
# a slower module meanwhile.
_STRUCTURAL_BY_KIND = {
    FUNCTION_RETURN: _func_return,
    REGION_RETURN: _region_return,
    CONSTRAINT: _constraint_to_reshard,
    PROPAGATION_BARRIER: _propagation_barrier,
    GROUP: _sharding_group,
    LOOP: _carried,
    CARRY: _carried,
    MANUAL: _manual_computation,
    CALL: _call,
    BRANCHES: _branch,
}
_STRUCTURAL_HANDLERS = by_flow_kind(_STRUCTURAL_BY_KIND)
