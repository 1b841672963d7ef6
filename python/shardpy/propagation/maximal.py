"""Maximal shardings (`<@maximal_mesh_k, []>`, GSPMD's `{maximal device=k}`): the whole
value on device k only.

shardpy computes such values on every device instead (replicated): the numbers are the
same, only the placement differs, and every device that needs the value has it. The
sharding is dropped before propagation, with one warning per function, so the value
is treated as unannotated (a func result with none is returned whole).
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from ..ir.diagnostics import warning
from ..ir.utils import collect_ops, erase_op_forwarding_operands
from ..sharding.sdy_codec import SHARDING_ATTR, module_meshes


def drop_maximal_shardings(module: ir.Operation) -> None:
    maximal = {name for name, mesh in module_meshes(module).items() if mesh.is_maximal}
    if not maximal:
        return

    def on_maximal(attr: ir.Attribute) -> bool:
        ref = sdy.TensorShardingAttr(attr).mesh_or_ref
        return not sdy.MeshAttr.isinstance(ref) and ir.FlatSymbolRefAttr(ref).value in maximal

    warned: set[str] = set()

    def warn(op: ir.Operation) -> None:
        func = op if op.name == "func.func" else _enclosing_func(op)
        key = str(func.location) if func is not None else ""
        if key not in warned:
            warned.add(key)
            warning(op.location, "a maximal sharding (the value on one device) is computed "
                                 "replicated: every device computes the whole value")

    for op in collect_ops(module):
        name = op.name
        if name == "func.func":
            if _drop_from_signature(op, on_maximal):
                warn(op)
        elif name == "sdy.sharding_constraint" and on_maximal(op.attributes["sharding"]):
            warn(op)
            erase_op_forwarding_operands(op)
        elif SHARDING_ATTR in op.attributes:
            per_value = sdy.TensorShardingPerValueAttr(op.attributes[SHARDING_ATTR]).shardings
            if any(on_maximal(a) for a in per_value):
                warn(op)
                del op.attributes[SHARDING_ATTR]


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
