"""The reference a partitioned run is checked against, where it is XLA's partitioner.

Programs with per-device code (manual computations) have no one-device form; their
reference is XLA's own partitioner on the global program (Executor.run_global_by_xla).
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy, stablehlo

from ..ir import jaxlib_bridge
from ..ir.layout import (GSPMD_LAYOUT_TARGETS, LAYOUT_ONLY_OPS, custom_call_target,
                         is_sharding_attr)
from ..ir.utils import (collect_ops, erase_op_forwarding_operands, filter_signature_attrs,
                        inline_region_before, public_main, zeros)
from ..sharding.model import TensorSharding
from ..sharding.sdy_codec import ShardingCodec


def fence_manual_code(module: ir.Operation) -> None:
    """The global program as XLA's partitioner should run it for a reference (programs
    with manual computations have no one-device form): every layout outside manual
    computations dropped, and each manual computation's operands and results behind
    closed replicated constraints. XLA then only slices values into the manual code and
    gathers them out; everything else it computes replicated, as one device would.
    (Left to propagate, it partitions the rest its own way: another program, with bugs
    of its own, e.g. a scatter whose 2 indices are split over 4 devices comes out
    wrong on XLA:CPU.) Bodies of manual computations stay as they are.

    before:
        %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
        %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x"}]>] ...
    after:
        %0 = stablehlo.negate %arg0
        %c = sdy.sharding_constraint %0 <@mesh, [{}]>
        %1 = sdy.manual_computation(%c) in_shardings=[<@mesh, [{"x"}]>] ...
        %2 = sdy.sharding_constraint %1 <@mesh, [{}]>
    """
    codec = ShardingCodec.for_module(module)

    def replicated(attr: ir.Attribute, value: ir.Value) -> ir.Attribute:
        sharding = codec.decode(attr)
        return codec.encode(TensorSharding.replicated_on(
            sharding.mesh, len(ir.RankedTensorType(value.type).shape), sharding.mesh_name))

    def fence(op: ir.Operation) -> None:
        ins = sdy.TensorShardingPerValueAttr(op.attributes["in_shardings"]).shardings
        outs = sdy.TensorShardingPerValueAttr(op.attributes["out_shardings"]).shardings
        with op.location, ir.InsertionPoint(op):
            for i, attr in enumerate(ins):
                value = op.operands[i]
                op.operands[i] = sdy.ShardingConstraintOp(value, replicated(attr, value)).result
        for result, attr in zip(op.results, outs):
            with op.location, ir.InsertionPoint(op):
                constraint = sdy.ShardingConstraintOp(result, replicated(attr, result))
            constraint.operation.move_after(op)
            result.replace_all_uses_except(constraint.result, constraint.operation)

    def visit(block: ir.Block) -> None:
        for op in list(block.operations):
            op = op.operation
            if op.name == "sdy.manual_computation":
                fence(op)
                continue
            if op.name == "sdy.named_computation":
                inline_region_before(op)
                continue
            target = custom_call_target(op)
            if op.name in LAYOUT_ONLY_OPS or target in GSPMD_LAYOUT_TARGETS:
                erase_op_forwarding_operands(op)
                continue
            if op.name == "sdy.sharding_group":
                op.erase()
                continue
            for attr in list(op.attributes):
                if is_sharding_attr(attr):
                    del op.attributes[attr]
            if op.name == "func.func":
                filter_signature_attrs(op, is_sharding_attr)
            for region in op.regions:
                for inner in region.blocks:
                    visit(inner)

    # Named computations first (their bodies land in the block being walked).
    while any(op.name == "sdy.named_computation" for op in collect_ops(module)):
        inline_region_before(next(op for op in collect_ops(module)
                                  if op.name == "sdy.named_computation"))
    visit(module.regions[0].blocks[0])


def prepare_xla_reference(module: ir.Operation, main: ir.Operation) -> bool:
    """Make `module` (a copy) the global program XLA's partitioner runs as the
    reference: sdy modules fenced (fence_manual_code); every argument and result of
    `main` replicated, also those without a sharding (XLA would otherwise choose one
    for them). Whether the module is GSPMD (mhlo.sharding, no meshes: XLA's GSPMD
    partitioner runs it, as PyTorch/XLA and pre-Shardy JAX did) rather than sdy."""
    codec = ShardingCodec.for_module(module)
    gspmd = not codec.meshes
    if gspmd:
        replicated = ir.StringAttr.get(jaxlib_bridge.gspmd_simple("replicated"))
    else:
        fence_manual_code(module)
        mesh_name, mesh = next(iter(codec.meshes.items()))
    ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    for key, types in (("arg_attrs", ftype.inputs), ("res_attrs", ftype.results)):
        old = (list(ir.ArrayAttr(main.attributes[key])) if key in main.attributes
               else [ir.DictAttr.get({}) for _ in types])
        new = []
        for attrs, value_type in zip(old, types):
            entries = {a.name: a.attr for a in ir.DictAttr(attrs)}
            if gspmd:
                entries["mhlo.sharding"] = replicated
            else:
                rank = len(value_type.shape) if isinstance(value_type, ir.RankedTensorType) \
                    else 0
                entries["sdy.sharding"] = codec.encode(
                    TensorSharding.replicated_on(mesh, rank, mesh_name))
            new.append(ir.DictAttr.get(entries))
        main.attributes[key] = ir.ArrayAttr.get(new)
    return gspmd


def pad_boundary(module: ir.Module, global_sig, shardings) -> None:
    """Give the entry function a boundary padded to whole shards, where `shardings`
    (TensorShardings: the arguments', then the results' of `global_sig`, an
    executor.Signature) split a dim unevenly: the entry becomes a private
    callee and a new entry slices each padded argument to its shape and pads each
    result with zeros. Device d's block of the padded value is then its block of the
    unpadded one followed by zeros, as shardpy's per-device rows hold it.

        func.func @main(%a: tensor<6xf32>) -> tensor<6xf32>        // 4 shards
      becomes
        func.func private @shardpy_unpadded_main(%a: tensor<6xf32>) -> tensor<6xf32>
        func.func @main(%p: tensor<8xf32>) -> tensor<8xf32> {
          %a = stablehlo.slice %p [0:6]
          %r = func.call @shardpy_unpadded_main(%a)
          %q = stablehlo.pad %r, 0, low = [0], high = [2], interior = [0]
          return %q
        }
    """
    from jaxlib.mlir.dialects import func

    values = global_sig.args + global_sig.results
    padded = [tuple(s.dim_shards(i) * n for i, n in enumerate(s.local_shape(v.type.shape)))
              for v, s in zip(values, shardings)]
    if all(p == v.type.shape for p, v in zip(padded, values)):
        return
    entry = public_main(module.operation)
    count = len(global_sig.args)
    with module.context, entry.location:
        name = ir.StringAttr(entry.attributes["sym_name"]).value
        ir.SymbolTable.set_symbol_name(entry, UNPADDED_MAIN)
        entry.attributes["sym_visibility"] = ir.StringAttr.get("private")
        for key in ("arg_attrs", "res_attrs"):  # (the new entry's, set by the caller)
            if key in entry.attributes:
                del entry.attributes[key]
        ftype = ir.FunctionType(ir.TypeAttr(entry.attributes["function_type"]).value)

        def typed(t, shape):
            return ir.RankedTensorType.get(shape, ir.RankedTensorType(t).element_type)

        new = func.FuncOp(name, ir.FunctionType.get(
            [typed(t, p) for t, p in zip(ftype.inputs, padded[:count])],
            [typed(t, p) for t, p in zip(ftype.results, padded[count:])]),
            ip=ir.InsertionPoint(module.body))
        block = new.add_entry_block()
        with ir.InsertionPoint(block):
            operands = [_fit(a, v.type.shape) for a, v in zip(block.arguments,
                                                               global_sig.args)]
            call = func.CallOp(list(ftype.results), ir.FlatSymbolRefAttr.get(UNPADDED_MAIN),
                               operands)
            func.ReturnOp([_fit(r, p) for r, p in zip(call.results, padded[count:])])


UNPADDED_MAIN = "shardpy_unpadded_main"


def _fit(value: ir.Value, shape) -> ir.Value:
    """`value` sliced (to a smaller shape) or padded at the end with zeros (to a larger)."""
    value_type = ir.RankedTensorType(value.type)
    have, shape = list(value_type.shape), list(shape)
    if have == shape:
        return value
    rank = len(shape)
    if all(s <= h for s, h in zip(shape, have)):
        return stablehlo.SliceOp(value, [0] * rank, shape, [1] * rank).result
    element = value_type.element_type
    zero = zeros(ir.RankedTensorType.get([], element))
    return stablehlo.PadOp(value, zero, [0] * rank, [s - h for s, h in zip(shape, have)],
                           [0] * rank, results=[ir.RankedTensorType.get(shape, element)]).result
