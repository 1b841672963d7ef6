"""Small IR helpers over jaxlib's MLIR bindings, shared by passes."""
from __future__ import annotations

from typing import Callable

import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from .types import numpy_dtype


def collect_ops(root: ir.Operation) -> list[ir.Operation]:
    """Every op nested under `root` (not `root` itself), parents before children.

    A snapshot: callers may erase or move ops while iterating over it.
    """
    found: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        found.append(op)
        return ir.WalkResult.ADVANCE

    root.walk(visit, walk_order=ir.WalkOrder.PRE_ORDER)
    return found[1:]


def erase_op_forwarding_operands(op: ir.Operation) -> None:
    """Replace result i by operand i and erase `op` (for identity-like ops)."""
    for result, operand in zip(op.results, op.operands):
        result.replace_all_uses_with(operand)
    op.erase()


def unique_symbol(base: str, taken: set[str]) -> str:
    """`base_0`, `base_1`, ...: the first not in `taken` (which it is added to)."""
    k = 0
    while f"{base}_{k}" in taken:
        k += 1
    taken.add(f"{base}_{k}")
    return f"{base}_{k}"


def drop_data_flow_edges(root: ir.Operation) -> None:
    """Replace every sdy.data_flow_edge under `root` by its operand (Shardy's import,
    which XLA runs on what it compiles, makes its own)."""
    for op in collect_ops(root):
        if op.name == "sdy.data_flow_edge":
            erase_op_forwarding_operands(op)


def inline_region_before(op: ir.Operation) -> None:
    """Inline `op`'s single-block region before it: block args <- operands,
    terminator operands -> results (sdy.named_computation and friends)."""
    block = op.regions[0].blocks[0]
    for arg, operand in zip(block.arguments, op.operands):
        arg.replace_all_uses_with(operand)
    terminator = None
    for inner in list(block.operations):
        if inner.operation.name in ("sdy.return", "stablehlo.return", "func.return"):
            terminator = inner
            continue
        inner.operation.move_before(op)
    if terminator is not None:
        for result, value in zip(op.results, terminator.operands):
            result.replace_all_uses_with(value)
    op.erase()


def filter_signature_attrs(func_op: ir.Operation, drop: Callable[[str], bool]) -> None:
    """Remove argument/result attributes whose names satisfy `drop`."""
    for key in ("arg_attrs", "res_attrs"):
        if key not in func_op.attributes:
            continue
        dicts = []
        for attrs in ir.ArrayAttr(func_op.attributes[key]):
            attrs = ir.DictAttr(attrs)
            kept = {a.name: a.attr for a in attrs if not drop(a.name)}
            dicts.append(ir.DictAttr.get(kept))
        func_op.attributes[key] = ir.ArrayAttr.get(dicts)


def tensor_shape(value_type: ir.Type) -> tuple[int, ...] | None:
    if isinstance(value_type, ir.RankedTensorType):
        return tuple(ir.RankedTensorType(value_type).shape)
    return None


def public_main(module: ir.Operation, name: str = "main"):
    """The module's entry function (`@main`, else its only public func)."""
    public = []
    for op in module.regions[0].blocks[0].operations:
        if op.operation.name != "func.func":
            continue
        sym = ir.StringAttr(op.attributes["sym_name"]).value
        if sym == name:
            return op
        visibility = op.attributes["sym_visibility"] if "sym_visibility" in op.attributes else None
        if visibility is None or ir.StringAttr(visibility).value == "public":
            public.append(op)
    return public[0] if len(public) == 1 else None


# --------------------------------------------------------------------------- building


def after(op: ir.Operation) -> ir.InsertionPoint:
    """An insertion point right after `op`."""
    block = op.block
    found = False
    for candidate in block.operations:
        if found:
            return ir.InsertionPoint(candidate.operation)
        if candidate.operation == op:
            found = True
    return ir.InsertionPoint(block)


def chain_readers(new: ir.Value, old: ir.Value) -> list[ir.Operation]:
    """The ops of the chain that makes `new` from `old` which read `old` itself (what a
    caller leaves out when it gives `old`'s other users `new`)."""
    found, seen, todo = [], set(), [new]
    while todo:
        value = todo.pop()
        if value == old or not isinstance(value, ir.OpResult):
            continue
        op = value.owner.operation
        if op in seen:
            continue
        seen.add(op)
        if any(operand == old for operand in op.operands):
            found.append(op)
        todo.extend(op.operands)
    return found


def zero_attr(element_type: ir.Type) -> ir.Attribute:
    if isinstance(element_type, ir.FloatType):
        return ir.FloatAttr.get(element_type, 0.0)
    return ir.IntegerAttr.get(element_type, 0)


def zeros(value_type: ir.RankedTensorType) -> ir.Value:
    """A stablehlo.constant of zeros of `value_type` (integer, float or complex)."""
    element = value_type.element_type
    if isinstance(element, ir.ComplexType):  # (no scalar attribute for a complex zero)
        return stablehlo.ConstantOp(ir.DenseElementsAttr.get(  # a 0-d array: a splat
            np.zeros((), numpy_dtype(element)), type=value_type)).result
    return stablehlo.ConstantOp(ir.DenseElementsAttr.get_splat(
        value_type, zero_attr(element))).result


def complex_splat(attr: ir.Attribute) -> complex | None:
    """The number a splat of complex elements holds (numpy reads such an attribute as
    an object array of the attribute itself), else None."""
    dense = ir.DenseElementsAttr(attr)
    if not dense.is_splat:
        return None
    parts = dense.get_splat_value()  # an ArrayAttr [real, imag]
    if not (isinstance(parts, ir.ArrayAttr) and len(parts) == 2
            and all(isinstance(p, ir.FloatAttr) for p in parts)):
        return None
    return complex(ir.FloatAttr(parts[0]).value, ir.FloatAttr(parts[1]).value)


def complex_scalar_attr(element_type: ir.Type, number) -> ir.Attribute:
    """A tensor<complex<...>> attribute holding `number`."""
    return ir.DenseElementsAttr.get(np.array(number, numpy_dtype(element_type)),
                                    type=ir.RankedTensorType.get([], element_type))


def const_i32(value: int) -> ir.Value:
    return stablehlo.ConstantOp(ir.DenseElementsAttr.get(np.array(value, dtype=np.int32))).result


def reducer_region(region: ir.Region, element_type: ir.Type, reducer: str) -> None:
    """Fill `region` with `^bb0(%a, %b): return reducer(%a, %b)` on scalars (at the
    current location; made with Operation.create: collectives need thousands)."""
    scalar = ir.RankedTensorType.get([], element_type)
    block = region.blocks.append(scalar, scalar)
    at = ir.InsertionPoint(block)
    combined = ir.Operation.create(reducer, results=[scalar],
                                   operands=list(block.arguments), ip=at).result
    ir.Operation.create("stablehlo.return", operands=[combined], ip=at)
