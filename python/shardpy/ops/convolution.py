"""Convolution: windows over spatial dims (permutation factors, computed on shards with
halos: lowering/windowed/convolution.py), contracted input features and window positions
(reduction factors: partial sums, as for a dot).
"""
from __future__ import annotations

from math import prod

from jaxlib.mlir.dialects import stablehlo as hlo

from ..lowering.windowed import convolution as lowering
from ..sharding.op_rule import RuleBuilder
from .attrs import PERMUTE, REDUCTION, int_or
from .dot import sum_combine
from .entry import ONE_SIDE, LocalOp, MultiplyAdds, OpFamily


def convolution(op, b: RuleBuilder):
    """Batch: lhs and result. Each spatial lhs dim is cut into a number-of-windows factor
    (shared with the result; a permutation, as windows overlap at shard edges) and a
    window-size factor (shared with the kernel; reduced), the larger one major. Input
    features are contracted with the kernel's; output features come from the kernel.
    Feature groups split lhs and kernel-output features into (group, per-group) factors;
    batch groups split lhs batch and kernel-output features the same way."""
    dn = hlo.ConvDimensionNumbers(op.attributes["dimension_numbers"])
    lhs, rhs = b.operand_shapes
    out = b.result_shapes[0]
    feature_groups = int_or(op, "feature_group_count", 1)
    batch_groups = int_or(op, "batch_group_count", 1)
    in_batch, in_feature = dn.input_batch_dimension, dn.input_feature_dimension
    k_in, k_out = dn.kernel_input_feature_dimension, dn.kernel_output_feature_dimension
    out_batch, out_feature = dn.output_batch_dimension, dn.output_feature_dimension

    if batch_groups > 1:
        b.factor(batch_groups, {0: in_batch, 1: k_out}, {0: out_feature})
    b.factor(out[out_batch], {0: in_batch}, {0: out_batch})
    for l, k, o in zip(dn.input_spatial_dimensions, dn.kernel_spatial_dimensions,
                       dn.output_spatial_dimensions):
        left = lhs[l]  # what the lhs dim still has to give out
        windows = (out[o], {0: l}, {0: o}, PERMUTE)
        window = (rhs[k], {0: l, 1: k}, {}, REDUCTION)
        for size, operands, results, kind in ((windows, window) if out[o] >= rhs[k]
                                              else (window, windows)):
            size = min(left, size)
            if size > 1:
                b.factor(size, operands, results, kind)
                left //= size
    if feature_groups > 1:
        b.factor(feature_groups, {0: in_feature, 1: k_out}, {0: out_feature})
    b.factor(rhs[k_in], {0: in_feature, 1: k_in}, kind=REDUCTION)
    b.factor(out[out_feature] // (batch_groups * feature_groups), {1: k_out},
             {0: out_feature})


def convolution_multiply_adds(op, operands, results) -> MultiplyAdds:
    """Per output element, the kernel's (local) input features times its window; the
    rate is looked up by output features per feature group and that contraction."""
    dn = hlo.ConvDimensionNumbers(op.attributes["dimension_numbers"])
    kernel, out = operands[1], results[0]
    contraction = kernel[dn.kernel_input_feature_dimension] * prod(
        kernel[d] for d in dn.kernel_spatial_dimensions)
    features = max(1, out[dn.output_feature_dimension]
                   // (int_or(op, "feature_group_count", 1) * int_or(op, "batch_group_count", 1)))
    return MultiplyAdds(prod(out) * contraction, "convolution", features, contraction)


FAMILIES = (
    OpFamily(("stablehlo.convolution",), rule=convolution, linear=ONE_SIDE,
             local=LocalOp(sum_combine, True, lowering.lower_convolution,
                           lowering.convolution_cost, lowering.convolution_windowed),
             multiply_adds=convolution_multiply_adds),
)
