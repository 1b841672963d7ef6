"""convolution on sharded spatial dims: input halos for an output sharded like the
input, or the input window of each kernel shard's taps (a partial sum) for a kernel
sharded like the input.
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from ..halo import Window, sliding_window
from ...sharding.op_rule import FactorKind
from .common import (Analysis, Halo, per_shard, shape_of, lowered, ints, padding_of,
                     padding_attr, bools, same_axes, cost_from, apply_halos, cannot_lower)


def convolution_windowed(op, rule) -> frozenset[int]:
    """Permutation factors (windows along spatial dims) and the window factors the
    kernel's spatial dims share with the input."""
    dn = stablehlo.ConvDimensionNumbers(op.attributes["dimension_numbers"])
    kernel = rule.operands[1]
    found = set(rule.factors_of(FactorKind.PERMUTATION))
    for k in dn.kernel_spatial_dimensions:
        found |= set(kernel[k])
    return frozenset(found)


def _analyse_convolution(op, operands, results) -> Analysis | None:
    lhs, rhs, out = operands[0], operands[1], results[0]
    dn = stablehlo.ConvDimensionNumbers(op.attributes["dimension_numbers"])
    spatial = len(dn.input_spatial_dimensions)
    strides = ints(op, "window_strides", [1] * spatial)
    padding = padding_of(op, spatial)
    lhs_dilation = ints(op, "lhs_dilation", [1] * spatial)
    rhs_dilation = ints(op, "rhs_dilation", [1] * spatial)
    reversal = bools(op, "window_reversal", spatial)
    analysis = Analysis(attrs={"padding": list(padding)})
    for i, (l, k, o) in enumerate(zip(dn.input_spatial_dimensions,
                                      dn.kernel_spatial_dimensions,
                                      dn.output_spatial_dimensions)):
        nl, nk, no = lhs.shards(l), rhs.shards(k), out.shards(o)
        if nl == nk == no == 1:
            continue
        N, K, Nout = lhs.shape[l], rhs.shape[k], out.shape[o]
        if nk == 1 and nl == no and same_axes(lhs, l, out, o):
            # Output windows sharded like the input: halos.
            sw = sliding_window(nl, N, Nout, K, strides[i], rhs_dilation[i], padding[i][0],
                                lhs_dilation[i])
            if sw is None:
                return None
            analysis.add(Halo(0, l, sw.window))
            analysis.attrs["padding"][i] = (sw.pad_low, sw.pad_high)
        elif no == 1 and nl == nk and same_axes(lhs, l, rhs, k) and lhs_dilation[i] == 1 \
                and not reversal[i]:
            # Kernel taps sharded like the input: each device sums its taps' products
            # over the input they read (a partial sum over the dim's axes).
            n = nl
            T, L = per_shard(K, n), per_shard(N, n)
            size = (Nout - 1) * strides[i] + (T - 1) * rhs_dilation[i] + 1
            analysis.add(Halo(0, l, Window.affine(
                n, L, -padding[i][0], T * rhs_dilation[i], size)))
            analysis.attrs["padding"][i] = (0, 0)
        else:
            return None
    return analysis


def lower_convolution(lw, op) -> None:
    operands, results = lowered(lw, op)
    analysis = _analyse_convolution(op, operands, results)
    if analysis is None:
        raise cannot_lower(op)
    if analysis.halos:
        with op.location, ir.InsertionPoint(op):
            op.operands[0] = apply_halos(lw, op, analysis, operands)[0]
    if analysis.attrs["padding"] != padding_of(op, len(analysis.attrs["padding"])):
        op.attributes["padding"] = padding_attr(analysis.attrs["padding"])
    # Group counts of the local conv, from local shapes: feature groups split the
    # input features into (group, per-group) with the group major, so the local
    # count is local input features / local kernel input features; batch groups the
    # same way on the input batch and the output batch.
    dn = stablehlo.ConvDimensionNumbers(op.attributes["dimension_numbers"])
    lhs_local = shape_of(op.operands[0].type)
    rhs_local = shape_of(op.operands[1].type)
    lw.shrink_results(op)
    out_local = shape_of(op.results[0].type)
    i64 = ir.IntegerType.get_signless(64)
    if ir.IntegerAttr(op.attributes["feature_group_count"]).value > 1:
        op.attributes["feature_group_count"] = ir.IntegerAttr.get(
            i64, lhs_local[dn.input_feature_dimension]
            // rhs_local[dn.kernel_input_feature_dimension])
    if ir.IntegerAttr(op.attributes["batch_group_count"]).value > 1:
        op.attributes["batch_group_count"] = ir.IntegerAttr.get(
            i64, lhs_local[dn.input_batch_dimension] // out_local[dn.output_batch_dimension])


convolution_cost = cost_from(_analyse_convolution)
