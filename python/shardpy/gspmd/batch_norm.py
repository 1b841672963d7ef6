"""Batch norm with a sharded batch: stablehlo.batch_norm_training and batch_norm_grad
(PyTorch/XLA's BatchNorm and LayerNorm) written out as the reductions and elementwise
math they stand for, as XLA's own batch-norm expander writes them before it compiles.

Their batch statistics reduce over every dim but the feature dim. Written out, those are
plain `stablehlo.reduce`s, whose rules and lowering shardpy already has: over a sharded
batch each device sums its rows and an all_reduce finishes the sums, so the batch may
stay sharded (the op itself would need it whole); a sharded feature dim stays sharded.
shardpy-import does this (before propagation), each op becoming a call of a private
function of its own types, which propagation and partitioning treat like any call.

before:
    %y, %mean, %var = "stablehlo.batch_norm_training"(%x, %scale, %offset)
        {epsilon = 1.0e-05 : f32, feature_index = 1 : i64}
        : (tensor<8x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (...)
after:
    %0:3 = call @shardpy_batch_norm_training_0(%x, %scale, %offset) : ...
    func.func private @shardpy_batch_norm_training_0(%x: tensor<8x4xf32>, ...) {
      %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0]
      ...   mean = sum / n, c = x - mean, var = sum(c * c) / n,
      ...   y = c * (scale * rsqrt(var + epsilon)) + offset
    }

The variance is summed around the mean (two passes, two all_reduces one after the
other), not as E[x * x] - mean * mean (XLA's expander: one pass): where the mean is
large against the spread, that difference cancels in f32 once sums are split across
devices (fuzz seed 9990121: a batch_norm_grad 24x further from float64 than the
one-device program). bf16 and f16 (and f8) batch norms are written out in f32 between
converts, as XLA:CPU computes them on one device: in the op's own type the sums, rounded
to 8 bits for the all_reduce, lose the rest (_WIDENED).

batch_norm_grad, with c = x - mean and r = rsqrt(var + epsilon), per feature:
grad_offset = sum(dy), grad_scale = sum(dy * c) * r, and
grad_x = scale * r / n * (n * dy - grad_offset - c * r * grad_scale).
(batch_norm_inference needs nothing of the kind: every element reads only its own
feature's numbers, so any dim may stay sharded as the op stands.)
"""
from __future__ import annotations

from math import prod

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import func

from ..ir.diagnostics import ShardpyError
from ..ir.utils import unique_symbol

EXPANDED = ("stablehlo.batch_norm_training", "stablehlo.batch_norm_grad")


def expand_batch_norms(module: ir.Operation, ops: list[ir.Operation]) -> None:
    """Replace each batch_norm_training / batch_norm_grad in `ops` by a call of a private
    function computing the same (the module docstring); the op's shardings go to the
    call."""
    body = module.regions[0].blocks[0]
    taken = {ir.StringAttr(op.attributes["sym_name"]).value for op in body.operations
             if "sym_name" in op.attributes}
    for op in ops:
        name = unique_symbol(f"shardpy_{op.name.split('.')[-1]}", taken)
        text = _function_text(op, name)
        with op.context, op.location:
            try:
                parsed = ir.Module.parse(text)
            except ir.MLIRError as err:  # (a type the text does not cover)
                raise ShardpyError(f"cannot write out '{op.name}' for a sharded batch: "
                                   f"{err}", op.location) from None
            callee = parsed.body.operations[0].operation.clone(ip=ir.InsertionPoint(body))
            callee.attributes["sym_visibility"] = ir.StringAttr.get("private")
            call = func.CallOp([r.type for r in op.results], ir.FlatSymbolRefAttr.get(name),
                               list(op.operands), ip=ir.InsertionPoint(op))
        for key in ("sdy.sharding", "mhlo.sharding"):
            if key in op.attributes:
                call.attributes[key] = op.attributes[key]
        for old, new in zip(op.results, call.results):
            old.replace_all_uses_with(new)
        op.erase()


# Element types whose batch statistics are computed in f32: in bf16, each device's
# partial sums are rounded to 8 bits for the all_reduce (fuzz seed 6428 with bf16: the
# one-pass E[x*x] - mean*mean then cancelled to a negative variance, a whole feature NaN
# where the one-device program, which XLA:CPU computes in f32, is finite; XLA's own
# partitioner gives the NaN too). The all_reduces then carry f32 per-feature sums: a
# few bytes more, the one-device program's accuracy.
_WIDENED = ("bf16", "f16")


def _compute_element(element: str) -> str:
    return "f32" if element in _WIDENED or element.startswith("f8") else element


def _function_text(op: ir.Operation, name: str) -> str:
    x = ir.RankedTensorType(op.operands[0].type)
    shape, given = list(x.shape), str(x.element_type)
    element = _compute_element(given)
    feature = ir.IntegerAttr(op.attributes["feature_index"]).value
    epsilon = ir.FloatAttr(op.attributes["epsilon"]).value
    reduced = [d for d in range(len(shape)) if d != feature]
    count = prod(shape[d] for d in reduced)
    full = f"tensor<{'x'.join(map(str, shape))}x{element}>"
    vec = f"tensor<{shape[feature]}x{element}>"
    scalar = f"tensor<{element}>"
    dims = ", ".join(map(str, reduced))

    def typed(t: str, e: str) -> str:
        return t.replace(f"x{element}>", f"x{e}>")

    def signature(args, results) -> tuple[str, str]:
        """(the function's head: its arguments in the op's element type, converted to
        the computing one where they differ; its tail: the results converted back,
        returned)."""
        widened = element != given
        params = ", ".join(f"%{a}_in: {typed(t, given)}" if widened else f"%{a}: {t}"
                           for a, t in args)
        returned = ", ".join(typed(t, given) for _, t in results)
        head = f"func.func @{name}({params}) -> ({returned}) {{\n"
        tail, names = "", [f"%{r}" for r, _ in results]
        if widened:
            head += "".join(f"  %{a} = stablehlo.convert %{a}_in : ({typed(t, given)}) -> "
                            f"{t}\n" for a, t in args)
            tail = "".join(f"  %{r}_out = stablehlo.convert %{r} : ({t}) -> "
                           f"{typed(t, given)}\n" for r, t in results)
            names = [f"%{r}_out" for r, _ in results]
        return head, tail + f"  return {', '.join(names)} : {returned}\n}}\n"

    def reduce(value: str, result: str) -> str:
        return (f"  %{result} = stablehlo.reduce(%{value} init: %zero) applies stablehlo.add "
                f"across dimensions = [{dims}] : ({full}, {scalar}) -> {vec}\n")

    def bcast(value: str, result: str) -> str:
        return (f"  %{result} = stablehlo.broadcast_in_dim %{value}, dims = [{feature}] : "
                f"({vec}) -> {full}\n")

    constants = (f"  %zero = stablehlo.constant dense<0.0> : {scalar}\n"
                 f"  %n = stablehlo.constant dense<{float(count):.1f}> : {vec}\n"
                 f"  %eps = stablehlo.constant dense<{epsilon:.9e}> : {vec}\n")
    if op.name == "stablehlo.batch_norm_training":
        head, tail = signature([("x", full), ("scale", vec), ("offset", vec)],
                               [("y", full), ("mean", vec), ("var", vec)])
        return (head + constants
                + reduce("x", "sum")
                + f"  %mean = stablehlo.divide %sum, %n : {vec}\n"
                + bcast("mean", "mean_b")
                + f"  %c = stablehlo.subtract %x, %mean_b : {full}\n"
                + f"  %sq = stablehlo.multiply %c, %c : {full}\n"
                + reduce("sq", "sumsq")
                + f"  %var = stablehlo.divide %sumsq, %n : {vec}\n"
                + f"  %ve = stablehlo.add %var, %eps : {vec}\n"
                + f"  %r = stablehlo.rsqrt %ve : {vec}\n"
                + f"  %f = stablehlo.multiply %scale, %r : {vec}\n"
                + bcast("f", "f_b") + bcast("offset", "offset_b")
                + f"  %y0 = stablehlo.multiply %c, %f_b : {full}\n"
                + f"  %y = stablehlo.add %y0, %offset_b : {full}\n"
                + tail)
    head, tail = signature([("x", full), ("scale", vec), ("mean", vec), ("var", vec),
                            ("dy", full)], [("dx", full), ("gscale", vec), ("goffset", vec)])
    return (head + constants
            + f"  %ve = stablehlo.add %var, %eps : {vec}\n"
            + f"  %r = stablehlo.rsqrt %ve : {vec}\n"
            + bcast("mean", "mean_b")
            + f"  %c = stablehlo.subtract %x, %mean_b : {full}\n"
            + reduce("dy", "goffset")
            + f"  %dyc = stablehlo.multiply %dy, %c : {full}\n"
            + reduce("dyc", "sdyc")
            + f"  %gscale = stablehlo.multiply %sdyc, %r : {vec}\n"
            + f"  %rg = stablehlo.multiply %r, %gscale : {vec}\n"
            + f"  %sr = stablehlo.multiply %scale, %r : {vec}\n"
            + f"  %k = stablehlo.divide %sr, %n : {vec}\n"
            + bcast("n", "n_b") + bcast("goffset", "goffset_b") + bcast("rg", "rg_b")
            + bcast("k", "k_b")
            + f"  %ndy = stablehlo.multiply %dy, %n_b : {full}\n"
            + f"  %t0 = stablehlo.subtract %ndy, %goffset_b : {full}\n"
            + f"  %crg = stablehlo.multiply %c, %rg_b : {full}\n"
            + f"  %t1 = stablehlo.subtract %t0, %crg : {full}\n"
            + f"  %dx = stablehlo.multiply %t1, %k_b : {full}\n"
            + tail)
