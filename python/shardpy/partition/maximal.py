"""Maximal shardings (`<@maximal_mesh_k, []>`, GSPMD's `{maximal device=k}`): the whole
value on device k only.

Propagation keeps such shardings as Shardy does: nothing moves between a maximal mesh
and any other, so they neither spread nor take other shardings. The partitioner then
computes such values on every device (replicated): the numbers are the same, only the
placement differs, and every device that needs the value has it. The first partition
pass (shardpy-choose-shardings or shardpy-insert-reshards) drops the shardings, with one
warning per function, so the value is replicated (a func result is returned whole).

The numbers are the same only if every device computes what device k would. The one
value that differs between devices in a global program is `partition_id`: an op placed
on device k reads it as k (the constant), and so does every op between the two (their
copies, made for this op alone: other users still read their own device's id).

before (device 1 of 4):
    %pid = stablehlo.partition_id : tensor<ui32>
    %c = stablehlo.convert %pid {sdy.sharding = #sdy.sharding_per_value<[<@one, []>]>}
after:
    %pid = stablehlo.partition_id : tensor<ui32>
    %k = stablehlo.constant dense<1> : tensor<ui32>
    %c = stablehlo.convert %k
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy, stablehlo

from ..ir.diagnostics import warning
from ..ir.utils import collect_ops, erase_op_forwarding_operands
from ..sharding.sdy_codec import SHARDING_ATTR, module_meshes


def drop_maximal_shardings(module: ir.Operation) -> None:
    maximal = {name: mesh.device_ids[0] for name, mesh in module_meshes(module).items()
               if mesh.is_maximal}
    if not maximal:
        return

    def device_of(attr: ir.Attribute):
        """The device of a sharding on a maximal mesh, else None."""
        ref = sdy.TensorShardingAttr(attr).mesh_or_ref
        if sdy.MeshAttr.isinstance(ref):
            return None
        return maximal.get(ir.FlatSymbolRefAttr(ref).value)

    def on_maximal(attr: ir.Attribute) -> bool:
        return device_of(attr) is not None

    warned: set[str] = set()

    def warn(op: ir.Operation) -> None:
        func = op if op.name == "func.func" else _enclosing_func(op)
        key = str(func.location) if func is not None else ""
        if key not in warned:
            warned.add(key)
            warning(op.location, "a maximal sharding (the value on one device) is computed "
                                 "replicated: every device computes the whole value")

    ops = collect_ops(module)
    # Only partition_id differs between devices: without one, nothing to read as device k.
    reads_id = any(op.name == "stablehlo.partition_id" for op in ops)
    for op in ops:
        name = op.name
        if name == "func.func":
            if _drop_from_signature(op, on_maximal):
                warn(op)
        elif name == "sdy.sharding_constraint" and on_maximal(op.attributes["sharding"]):
            warn(op)
            if reads_id:
                _read_on_device(op, device_of(op.attributes["sharding"]), on_maximal)
            erase_op_forwarding_operands(op)
        elif SHARDING_ATTR in op.attributes:
            per_value = sdy.TensorShardingPerValueAttr(op.attributes[SHARDING_ATTR]).shardings
            devices = [d for d in map(device_of, per_value) if d is not None]
            if devices:
                warn(op)
                del op.attributes[SHARDING_ATTR]
                if name == "stablehlo.partition_id":
                    with op.location, ir.InsertionPoint(op):
                        k = _device_constant(devices[0])
                    op.results[0].replace_all_uses_with(k)
                    op.erase()
                elif reads_id:
                    _read_on_device(op, devices[0], on_maximal)


_MAX_DEPTH = 64  # ops between partition_id and the op placed on one device, at most


def _device_constant(device: int) -> ir.Value:
    ui32 = ir.IntegerType.get_unsigned(32)
    return stablehlo.ConstantOp(ir.DenseElementsAttr.get_splat(
        ir.RankedTensorType.get([], ui32), ir.IntegerAttr.get(ui32, device))).result


def _read_on_device(op: ir.Operation, device: int, on_maximal) -> None:
    """Make `op` read, for every operand computed from partition_id, the value device
    `device` has: the chain from partition_id to the operand copied before `op` with
    the constant `device` in its place (ops without regions; others stay as they are).
    A copy keeps its original's sharding unless that is maximal (dropped, as here)."""
    made: dict = {}  # value -> its value on `device` (None: the same everywhere)

    def on_device(value, depth: int):
        if value in made:
            return made[value]
        found = None
        owner = value.owner if isinstance(value, ir.OpResult) else None
        if owner is not None and depth < _MAX_DEPTH:
            owner = owner.operation
            if owner.name == "stablehlo.partition_id":
                with op.location, ir.InsertionPoint(op):
                    found = _device_constant(device)
            elif not len(owner.regions):
                inputs = [on_device(v, depth + 1) for v in owner.operands]
                if any(v is not None for v in inputs):
                    copy = owner.clone(ip=ir.InsertionPoint(op))
                    if SHARDING_ATTR in copy.attributes and any(
                            on_maximal(a) for a in sdy.TensorShardingPerValueAttr(
                                copy.attributes[SHARDING_ATTR]).shardings):
                        del copy.attributes[SHARDING_ATTR]
                    for i, v in enumerate(inputs):
                        if v is not None:
                            copy.operands[i] = v
                    found = copy.results[value.result_number]
        made[value] = found
        return found

    for i, operand in enumerate(list(op.operands)):
        replacement = on_device(operand, 0)
        if replacement is not None:
            op.operands[i] = replacement


def _drop_from_signature(func_op, on_maximal) -> bool:
    """Remove maximal argument/result shardings; were there any?"""
    dropped = False
    for key in ("arg_attrs", "res_attrs"):
        if key not in func_op.attributes:
            continue
        dicts = []
        changed = False
        for attrs in ir.ArrayAttr(func_op.attributes[key]):
            attrs = ir.DictAttr(attrs)
            kept = {a.name: a.attr for a in attrs
                    if not (a.name == SHARDING_ATTR and on_maximal(a.attr))}
            changed |= len(kept) != len(attrs)
            dicts.append(ir.DictAttr.get(kept))
        if changed:
            func_op.attributes[key] = ir.ArrayAttr.get(dicts)
            dropped = True
    return dropped


def _enclosing_func(op: ir.Operation):
    current = op.parent
    while current is not None and current.name != "func.func":
        current = current.parent
    return current
