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

An op with side effects placed on one device (jax.debug.print, io_callback: JAX places
Python callbacks on device 0; pure_callback too) runs there only, as under XLA's
partitioner: computed replicated, every device would print. It goes into a fully manual
computation over the program's mesh, under a conditional on the partition id, and each
result it has users for is gathered from all devices and device k's row taken (exact for
every type; callback results are small):

before:
    %r = stablehlo.custom_call @xla_ffi_python_cpu_callback(%x) {has_side_effect = true,
        sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>}
after:
    %r = sdy.manual_computation(%x) in_shardings=[<@mesh, [{}]>]
            out_shardings=[<@mesh, []>] manual_axes={"x", "y"} (%a: tensor<4xf32>) {
      %on = stablehlo.compare EQ, %pid, %c0 : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
      %v = "stablehlo.if"(%on) ({
        %c = stablehlo.custom_call @xla_ffi_python_cpu_callback(%a) {has_side_effect ...}
        stablehlo.return %c
      }, { stablehlo.return %zero })
      %g = "stablehlo.all_gather"(%v1) ... replica_groups = dense<[[0, ..., 7]]> -> 8 x ...
      sdy.return (row 0 of %g)
    }
"""
from __future__ import annotations

from functools import partial

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy, stablehlo

from ..ir import callbacks
from ..ir.diagnostics import warning
from ..ir.utils import collect_ops, erase_op_forwarding_operands, zeros
from ..sharding.sdy_codec import SHARDING_ATTR, module_meshes
from .collectives import first_free_channel


def drop_maximal_shardings(module: ir.Operation) -> None:
    meshes = module_meshes(module)
    maximal = {name: mesh.device_ids[0] for name, mesh in meshes.items() if mesh.is_maximal}
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

    # (No mesh of several devices: the program runs on one, where it is placed.)
    several = any(not m.is_maximal and m.size > 1 for m in meshes.values())

    def warn(op: ir.Operation) -> None:
        if not several:
            return
        func = op if op.name == "func.func" else _enclosing_func(op)
        key = str(func.location) if func is not None else ""
        if key not in warned:
            warned.add(key)
            warning(op.location, "a maximal sharding (the value on one device) is computed "
                                 "replicated: every device computes the whole value")

    ops = collect_ops(module)
    # Only partition_id differs between devices: without one, nothing to read as device k.
    reads_id = any(op.name == "stablehlo.partition_id" for op in ops)
    channels = _Channels(ops)
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
            if devices and _side_effects(op):
                on = _mesh_holding(meshes, devices[0])
                if on is not None and _runs_on_device(op, devices[0], *on, channels):
                    continue
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


def _side_effects(op: ir.Operation) -> bool:
    """Would running `op` on every device do something more than once? Python callbacks
    (pure ones too: JAX calls them once) and custom calls marked with side effects."""
    if op.name != "stablehlo.custom_call":
        return False
    marked = "has_side_effect" in op.attributes and ir.BoolAttr(
        op.attributes["has_side_effect"]).value
    return marked or callbacks.is_python_callback(op)


def _mesh_holding(meshes: dict, device: int):
    """(name, mesh) of the largest mesh of several devices holding `device`, else None."""
    found = None
    for name, mesh in meshes.items():
        if mesh.is_maximal or mesh.is_empty or device not in mesh.devices:
            continue
        if found is None or mesh.size > found[1].size:
            found = (name, mesh)
    return found


class _Channels:
    """Channel handles not used in the module yet (looked up on the first one taken:
    most modules with maximal shardings have no op with side effects)."""

    def __init__(self, ops):
        self._ops, self.next = ops, None

    def take(self) -> ir.Attribute:
        if self.next is None:
            self.next = first_free_channel([(None, self._ops,
                                             [op.name for op in self._ops])])
        self.next += 1
        return stablehlo.ChannelHandle.get(self.next - 1, 1)


def _runs_on_device(op: ir.Operation, device: int, mesh_name: str, mesh,
                    channels: _Channels) -> bool:
    """Put `op` on `device` alone: inside a manual computation over every axis of `mesh`,
    under `partition_id == device`; its used results gathered and device's row taken.
    False (nothing changed) where its operands or results are not all tensors (a token
    cannot cross into a manual computation)."""
    types = [v.type for v in list(op.operands) + list(op.results)]
    if not all(isinstance(t, ir.RankedTensorType) for t in types):
        if all(isinstance(t, ir.RankedTensorType) or stablehlo.TokenType.isinstance(t)
               for t in types):
            _runs_on_device_with_tokens(op, device, mesh_name, mesh, channels)
            return True
        return False
    used = [r for r in op.results if len(list(r.uses))]
    group = sorted(mesh.devices)
    row = group.index(device)
    whole = partial(_whole, mesh_name)

    with op.location, ir.InsertionPoint(op):
        manual = sdy.ManualComputationOp(
            [r.type for r in used], list(op.operands),
            sdy.TensorShardingPerValueAttr.get([whole(v.type.rank) for v in op.operands]),
            sdy.TensorShardingPerValueAttr.get([whole(r.type.rank) for r in used]),
            sdy.ManualAxesAttr.get([ir.StringAttr.get(a) for a in mesh.axis_names]))
        body = manual.regions[0].blocks.append(*[v.type for v in op.operands])
    with op.location, ir.InsertionPoint(body):
        branch, then_block, else_block = _on_device(device, op)
        sdy.ReturnOp([_row_of(branch.results[r.result_number], group, row, channels)
                      for r in used])
    with op.location, ir.InsertionPoint(else_block):
        stablehlo.ReturnOp([zeros(r.type) for r in op.results])
    for r, result in zip(used, manual.results):
        r.replace_all_uses_with(result)
    with op.location, ir.InsertionPoint(then_block):
        done = stablehlo.ReturnOp(list(op.results))
    op.move_before(done)
    for i, arg in enumerate(body.arguments):
        op.operands[i] = arg
    del op.attributes[SHARDING_ATTR]
    return True


def _runs_on_device_with_tokens(op: ir.Operation, device: int, mesh_name: str, mesh,
                                channels: _Channels) -> None:
    """_runs_on_device for an op that threads tokens (an ordered io_callback: tokens
    cannot cross into a manual computation): the conditional on the partition id in the
    global program, each token result the op's token operand of the same rank elsewhere,
    and only the used tensor results gathered in a manual computation.

    before:
        %t1, %r = stablehlo.custom_call @cb(%t0, %x) {has_side_effect = true, <@maximal_0>}
    after:
        %t1, %v = "stablehlo.if"(%on_0) ({ %a, %b = custom_call @cb(%t0, %x) ... },
                                           { stablehlo.return %t0, %zero })
        %r = sdy.manual_computation(%v) ... { all_gather, device 0's row }
    """
    group = sorted(mesh.devices)
    row = group.index(device)
    token_operands = [v for v in op.operands if stablehlo.TokenType.isinstance(v.type)]
    with op.location, ir.InsertionPoint(op):
        # Its operands made whole here, on every device: gathered inside the conditional,
        # device k alone would enter the collective (the others wait forever).
        for i, v in enumerate(list(op.operands)):
            if isinstance(v.type, ir.RankedTensorType):
                op.operands[i] = sdy.ReshardOp(v, _whole(mesh_name, v.type.rank)).result
        branch, then_block, else_block = _on_device(device, op)
    with op.location, ir.InsertionPoint(else_block):
        passed, elsewhere = iter(token_operands), []
        for r in op.results:
            if stablehlo.TokenType.isinstance(r.type):
                elsewhere.append(next(passed, None) or stablehlo.AfterAllOp([]).result)
            else:
                elsewhere.append(zeros(r.type))
        stablehlo.ReturnOp(elsewhere)
    used = [r for r in op.results if not stablehlo.TokenType.isinstance(r.type)
            and len(list(r.uses))]
    results = {r.result_number: branch.results[r.result_number] for r in op.results}
    if used:
        with op.location, ir.InsertionPoint(op):
            manual = sdy.ManualComputationOp(
                [r.type for r in used], [results[r.result_number] for r in used],
                sdy.TensorShardingPerValueAttr.get([_whole(mesh_name, r.type.rank)
                                                    for r in used]),
                sdy.TensorShardingPerValueAttr.get([_whole(mesh_name, r.type.rank)
                                                    for r in used]),
                sdy.ManualAxesAttr.get([ir.StringAttr.get(a) for a in mesh.axis_names]))
            body = manual.regions[0].blocks.append(*[r.type for r in used])
        with op.location, ir.InsertionPoint(body):
            sdy.ReturnOp([_row_of(a, group, row, channels) for a in body.arguments])
        for r, new in zip(used, manual.results):
            results[r.result_number] = new
    for r in list(op.results):
        r.replace_all_uses_with(results[r.result_number])
    with op.location, ir.InsertionPoint(then_block):
        done = stablehlo.ReturnOp(list(op.results))
    op.move_before(done)
    del op.attributes[SHARDING_ATTR]


def _on_device(device: int, op: ir.Operation):
    """(an `if` on partition_id == device with `op`'s result types, its then block, its
    else block), at the current insertion point."""
    on = stablehlo.CompareOp(
        stablehlo.PartitionIdOp().result, _device_constant(device),
        stablehlo.ComparisonDirectionAttr.get("EQ")).result
    branch = stablehlo.IfOp([r.type for r in op.results], on)
    return branch, branch.true_branch.blocks.append(), branch.false_branch.blocks.append()


def _whole(mesh_name: str, rank: int) -> ir.Attribute:
    return sdy.TensorShardingAttr.get(
        mesh_name, [sdy.DimensionShardingAttr.get([], True) for _ in range(rank)])


def _row_of(value: ir.Value, group: list, row: int, channels: _Channels) -> ir.Value:
    """In manual code: `value` as the device at position `row` of `group` has it (every
    device's gathered, that row taken: exact for every type)."""
    t = ir.RankedTensorType(value.type)
    one = ir.RankedTensorType.get([1] + list(t.shape), t.element_type)
    gathered = ir.RankedTensorType.get([len(group)] + list(t.shape), t.element_type)
    rows = stablehlo.AllGatherOp(
        [gathered], [stablehlo.ReshapeOp(one, value).result], 0,
        ir.DenseElementsAttr.get(np.array([group], dtype=np.int64)),
        channel_handle=channels.take(), use_global_device_ids=True).results[0]
    mine = stablehlo.SliceOp(rows, [row] + [0] * t.rank, [row + 1] + list(t.shape),
                             [1] * (t.rank + 1)).result
    return stablehlo.ReshapeOp(t, mine).result


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
