"""jax.experimental.custom_partitioning ops, partitioned by their own rule.

JAX lowers such an op (outside shard_map) to a custom call naming, by its backend_config,
a rule registered in the lowering process; XLA's partitioner calls the rule with the
operands' and result's shardings, and the rule answers the shardings it wants for the
operands, the one its result comes out with, and the per-shard computation. This does
the same with the shardings propagation and the whole-program choice gave: the op
becomes a fully manual computation whose in/out shardings are the rule's answer (the
reshards into and out of it are insert-reshards' to plan, as for any manual
computation) and whose body calls the per-shard computation, merged into the module.
Only a process that lowered the program has the rules (shardpy.jit runs this pass; a
module read from a file is refused: ir/callbacks.py).

before (propagated; the rule keeps rows on "x" and wants columns whole):
    %r = stablehlo.custom_call @CustomSPMDPartitioning(%a) {backend_config = "1396...",
        sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>,
        sdy.sharding_rule = ...} : (tensor<8x16xf32>) -> tensor<8x16xf32>
after:
    %r = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>]
            out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"}
            (%l: tensor<4x16xf32>) {
      %0 = func.call @custom_partitioned(%l) : (tensor<4x16xf32>) -> tensor<4x16xf32>
      sdy.return %0
    }
    func.func private @custom_partitioned(...)   // the rule's per-shard computation
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import func, sdy

from ..ir import callbacks, jaxlib_bridge
from ..ir.diagnostics import ShardpyError
from ..ir.types import numpy_dtype
from ..ir.utils import collect_ops
from ..sharding.model import AxisRef, DimSharding, Mesh, TensorSharding
from ..sharding.sdy_codec import encode_mesh
from ..sharding.state import ShardingState


def partition_custom_ops(module: ir.Operation) -> int:
    """Rewrite every custom_partitioning op of `module`; how many there were."""
    ops = [op for op in collect_ops(module) if op.name == "stablehlo.custom_call"
           and ir.StringAttr(op.attributes["call_target_name"]).value
           == callbacks.CUSTOM_PARTITIONING]
    if not ops:
        return 0
    state = ShardingState(module)
    for op in ops:
        _partition(module, op, state)
    return len(ops)


def _rule(op: ir.Operation):
    """(the partition entry point, the key, the rule's info) of the rule the op's
    backend_config names in this process."""
    key = ir.StringAttr(op.attributes["backend_config"]).value.encode()
    found = jaxlib_bridge.custom_partitioning_rule(key)
    if found is None:
        raise ShardpyError(callbacks.NOT_PARTITIONED + " (its rule is not registered in "
                           "this process)", op.location)
    return found[0], key, found[1]


def _partition(module: ir.Operation, op: ir.Operation, state: ShardingState) -> None:
    from jaxlib import xla_client as xc

    partition, key, info = _rule(op)
    operands, results = list(op.operands), list(op.results)
    have_in = state.shardings_of(operands)
    have_out = [state.of(r) for r in results]
    template = next((s for s in have_out + have_in if s is not None and s.mesh_name), None)
    if template is None:  # all replicated: on the program's mesh of the rule's axes
        template = _replicated_on_rule_mesh(module, info.mesh, state)
    mesh = info.mesh
    if tuple(mesh.axis_names) != template.mesh.axis_names:
        raise ShardpyError(f"the custom_partitioning rule's mesh {tuple(mesh.axis_names)} is "
                           f"not the program's {template.mesh.axis_names}", op.location)

    def hlo(sharding, rank):
        """The rule's view of a sharding: full mesh axes only (a sub-axis, a partial
        value: whole, which insert-reshards then provides)."""
        entries = []
        for dim in (sharding.dims if sharding is not None else ()):
            names = [a.name for a in dim.axes]
            if any(a.sub is not None for a in dim.axes) or (
                    sharding is not None and sharding.unreduced):
                return jaxlib_bridge.hlo_sharding(mesh, (), rank)
            entries.append(tuple(names) if len(names) > 1 else names[0] if names else None)
        return jaxlib_bridge.hlo_sharding(mesh, tuple(entries), rank)

    def shape(value):
        t = ir.RankedTensorType(value.type)
        dtype = numpy_dtype(t.element_type)
        if dtype is None:
            raise ShardpyError(f"a custom_partitioning op on {t.element_type}, which numpy "
                               f"has no type for", op.location)
        return xc.Shape.array_shape(dtype, tuple(t.shape))

    arg_shapes = [shape(v) for v in operands]
    arg_hlo = [hlo(s, len(v.type.shape)) for s, v in zip(have_in, operands)]
    out_shapes = [shape(r) for r in results]
    out_hlo = [hlo(s, len(r.type.shape)) for s, r in zip(have_out, results)]
    if len(results) == 1:
        result_shape, result_hlo = out_shapes[0], out_hlo[0]
    else:
        result_shape = xc.Shape.tuple_shape(out_shapes)
        result_hlo = xc.HloSharding.tuple_sharding(result_shape, out_hlo)
    try:
        bytecode, want_in, made = partition(
            arg_shapes, arg_hlo, result_shape, result_hlo, key)
    except Exception as err:  # the user's rule raised: its message, at the op
        raise ShardpyError(f"the custom_partitioning rule failed: {type(err).__name__}: "
                           f"{err}", op.location) from None
    made = made.tuple_elements() if len(results) > 1 else [made]
    want_in = [_sharding(info, h, len(v.type.shape), template)
               for h, v in zip(want_in, operands)]
    made = [_sharding(info, h, len(r.type.shape), template) for h, r in zip(made, results)]

    body_module = ir.Module.parse(bytes(bytecode), context=module.context)
    name = jaxlib_bridge.merge_module(module, body_module, "custom_partitioned")
    callee_type = ir.FunctionType(ir.TypeAttr(
        ir.SymbolTable(module)[name].attributes["function_type"]).value)
    arg_types, result_types = list(callee_type.inputs), list(callee_type.results)
    codec = state.codec
    with op.location, ir.InsertionPoint(op):
        manual = sdy.ManualComputationOp(
            [r.type for r in results], operands,
            sdy.TensorShardingPerValueAttr.get([codec.encode(s) for s in want_in]),
            sdy.TensorShardingPerValueAttr.get([codec.encode(s) for s in made]),
            sdy.ManualAxesAttr.get([ir.StringAttr.get(a) for a in template.mesh.axis_names]))
        block = manual.regions[0].blocks.append(*arg_types)
    with op.location, ir.InsertionPoint(block):
        call = func.CallOp(result_types, ir.FlatSymbolRefAttr.get(name), list(block.arguments))
        sdy.ReturnOp(list(call.results))
    for r, new in zip(results, manual.results):
        r.replace_all_uses_with(new)
    op.erase()


def _replicated_on_rule_mesh(module: ir.Operation, mesh, state: ShardingState
                             ) -> TensorSharding:
    """A rank-0 replicated sharding on the module's mesh with the rule's axes (declared
    here if the module has none: nothing else in it is sharded)."""
    axes = tuple((str(n), int(k)) for n, k in mesh.shape.items())
    for name, declared in state.codec.meshes.items():
        if not declared.is_maximal and declared.axes == axes:
            return TensorSharding(declared, (), mesh_name=name)
    declared = Mesh(axes)
    name = "custom_partitioning_mesh"
    body = module.regions[0].blocks[0]
    with module.location if hasattr(module, "location") else ir.Location.unknown(), \
            ir.InsertionPoint.at_block_begin(body):
        sdy.MeshOp(name, encode_mesh(declared))
    state.codec.meshes[name] = declared
    return TensorSharding(declared, (), mesh_name=name)


def _sharding(info, hlo_sharding, rank: int, template: TensorSharding) -> TensorSharding:
    """The rule's answer on the program's mesh."""
    named = info.to_mesh_pspec_sharding(hlo_sharding, rank)
    spec = getattr(named, "spec", None)
    if spec is None:
        raise ShardpyError("the custom_partitioning rule answered a sharding that is not "
                           f"a mesh's ({hlo_sharding})")
    entries = list(spec) + [None] * (rank - len(spec))
    dims = tuple(DimSharding(tuple(AxisRef(n) for n in (
        e if isinstance(e, tuple) else (e,) if e is not None else ()))) for e in entries)
    return TensorSharding(template.mesh, dims, mesh_name=template.mesh_name)
