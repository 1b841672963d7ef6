"""What the indexed-op lowerings share: index tensors taken apart into components in a
signed work type (Indices), each device's shard offset along a dim, global sizes of
local values, and the small StableHLO builders they are written with.
"""
from __future__ import annotations

import math

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ...ir.utils import const_i32
from ...sharding.model import TensorSharding


def summable(element_type: ir.Type) -> bool:
    """Can partial values of this type be summed (zeros elsewhere)? Not booleans."""
    if isinstance(element_type, ir.IntegerType):
        return ir.IntegerType(element_type).width > 1
    return isinstance(element_type, (ir.FloatType, ir.ComplexType))


# --------------------------------------------------------------------------- IR helpers


def tensor_type(shape, element_type) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), element_type)


def scalar_of(value, element_type) -> ir.Value:
    t = tensor_type([], element_type)
    if isinstance(element_type, ir.IntegerType):
        attr = ir.IntegerAttr.get(element_type, int(value))
    else:
        attr = ir.FloatAttr.get(element_type, float(value))
    return stablehlo.ConstantOp(ir.DenseElementsAttr.get_splat(t, attr)).result


def splat(value_type: ir.RankedTensorType, attr: ir.Attribute) -> ir.Value:
    return stablehlo.ConstantOp(ir.DenseElementsAttr.get_splat(value_type, attr)).result


def spread(scalar: ir.Value, shape) -> ir.Value:
    """A scalar broadcast to `shape`."""
    if list(shape) == []:
        return scalar
    return stablehlo.BroadcastInDimOp(tensor_type(shape, scalar.type.element_type), scalar,
                                      []).result


def compare(lhs: ir.Value, rhs: ir.Value, direction: str) -> ir.Value:
    return stablehlo.CompareOp(lhs, rhs,
                               stablehlo.ComparisonDirectionAttr.get(direction)).result


def conjoin(a: ir.Value | None, b: ir.Value) -> ir.Value:
    return b if a is None else stablehlo.AndOp(a, b).result


def i32() -> ir.IntegerType:
    return ir.IntegerType.get_signless(32)


def work_type(element_type: ir.Type) -> ir.IntegerType:
    """A signed type holding every index value and dim size exactly: the index type
    itself for signless ints of 32 or 64 bits, else i64."""
    t = ir.IntegerType(element_type)
    if t.is_signless and t.width in (32, 64):
        return t
    return ir.IntegerType.get_signless(64)


def to_work(value: ir.Value, work: ir.IntegerType) -> ir.Value:
    """Index values converted to `work` without changing any value's meaning (huge
    unsigned 64-bit values are first capped at 2^62: still out of range)."""
    t = ir.IntegerType(value.type.element_type)
    if t == work:
        return value
    if t.is_unsigned and t.width == 64:
        cap = spread(scalar_of(2 ** 62, t), value.type.shape)
        value = stablehlo.MinOp(value, cap).result
    return stablehlo.ConvertOp(tensor_type(value.type.shape, work), value).result


def dim_offset(lw, sharding: TensorSharding, dim: int, local_size: int,
                element_type: ir.IntegerType) -> ir.Value:
    """Where this device's shard of `dim` starts (a scalar of `element_type`)."""
    mesh = sharding.mesh
    if mesh.is_empty or mesh.is_maximal:
        offset = const_i32(0)
    else:
        axes = sharding.dims[dim].axes
        offset = lw.shard_scalar(mesh, axes, [k * local_size for k in range(
            math.prod(a.size(mesh) for a in axes))])
    if element_type != i32():
        offset = stablehlo.ConvertOp(tensor_type([], element_type), offset).result
    return offset


def global_size(lw, value: ir.Value, dim: int, sharding: TensorSharding) -> int:
    """The global size of `dim` of the (local) `value`: not local x shards where the
    dim is uneven (padded shards, shardpy.lowering.padding)."""
    shape = lw.global_shape(value)
    if shape is not None:
        return shape[dim]
    return value.type.shape[dim] * sharding.dim_shards(dim)


def set_bool_attr(op: ir.Operation, name: str, value: bool) -> None:
    if name in op.attributes:
        op.attributes[name] = ir.BoolAttr.get(value)


def replace_result(lw, result: ir.Value, new: ir.Value, first_user=None) -> None:
    """Users of `result` take `new`, made from it by a chain of ops starting at
    `first_user` (default: `new`'s own op)."""
    lw.takes_over(new, result)
    result.replace_all_uses_except(new, first_user or new.owner.operation)


# --------------------------------------------------------------------------- indices


class Indices:
    """The components of an index tensor along its index vector dim, in a signed work
    type, so some can be rewritten and the tensor put back together."""

    def __init__(self, indices: ir.Value, index_vector_dim: int):
        self.work = work_type(indices.type.element_type)
        self.value = to_work(indices, self.work)
        self.shape = list(indices.type.shape)
        self.ivd = index_vector_dim
        self.implicit = index_vector_dim >= len(self.shape)
        count = 1 if self.implicit else self.shape[index_vector_dim]
        self.components: list[ir.Value | None] = [None] * count

    @property
    def component_shape(self) -> list[int]:
        if self.implicit:
            return list(self.shape)
        shape = list(self.shape)
        shape[self.ivd] = 1
        return shape

    def get(self, c: int) -> ir.Value:
        if self.components[c] is None:
            if self.implicit or self.shape[self.ivd] == 1:
                self.components[c] = self.value
            else:
                start = [0] * len(self.shape)
                limit = list(self.shape)
                start[self.ivd], limit[self.ivd] = c, c + 1
                self.components[c] = stablehlo.SliceOp(
                    self.value, start, limit, [1] * len(self.shape)).result
        return self.components[c]

    def set(self, c: int, value: ir.Value) -> None:
        self.components[c] = value

    def scalar(self, value: int) -> ir.Value:
        return spread(scalar_of(value, self.work), self.component_shape)

    def joined(self) -> ir.Value:
        if self.implicit:
            return self.components[0] if self.components[0] is not None else self.value
        if all(c is None for c in self.components):
            return self.value
        parts = [self.get(c) for c in range(len(self.components))]
        if len(parts) == 1:
            return parts[0]  # component-shaped is the whole shape
        return stablehlo.ConcatenateOp(parts, self.ivd).result

    def batch_mask(self, mask: ir.Value) -> ir.Value:
        """A component-shaped mask reshaped to the batch dims alone."""
        if self.implicit:
            return mask
        batch = [s for i, s in enumerate(self.shape) if i != self.ivd]
        return stablehlo.ReshapeOp(tensor_type(batch, mask.type.element_type), mask).result
