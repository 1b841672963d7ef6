"""stablehlo.batch_norm_inference, batch_norm_training and batch_norm_grad (what
PyTorch/XLA lowers BatchNorm and LayerNorm to): one factor for the feature dim
(`feature_index`), shared by the operand, every per-feature vector (scale, offset,
mean, variance, their gradients) and the result; one factor per other dim of the
operand and its same-shaped values.

  inference  every element needs only its own feature's numbers: all factors pass
             through, so any dim may stay sharded.
  training,  the batch statistics (and their gradients) reduce over every dim but the
  grad       feature dim: those factors need replication here (whole on each device),
             the feature dim passes through. Computed on feature shards, exactly.

DIFFERS FROM NATIVE: jaxlib's Shardy has the inference rule (the same as here) and none
for training and grad (propagation stops there, and XLA computes them replicated).

With the batch sharded, the partition pipeline does not reach these rules for training
and grad: shardpy-import writes them out first as reductions and elementwise math
(gspmd/batch_norm.py), whose batch sums are finished across the batch shards by
all_reduces. The rules serve shardpy-propagate on its own (and show-rules).

before (x sharded on its feature dim, scale/offset on theirs):
    %y, %m, %v = "stablehlo.batch_norm_training"(%x, %s, %o) {feature_index = 1}
        : (tensor<8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (...)
after (per device, features on "x"=4):
    %y, %m, %v = "stablehlo.batch_norm_training"(%x, %s, %o) {feature_index = 1}
        : (tensor<8x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (...)
"""
from __future__ import annotations

from ..sharding.op_rule import RuleBuilder
from .attrs import PASS, REPLICATE, int_or
from .entry import LocalOp, OpFamily


def _rule(kind):
    """The rule of a batch-norm op whose non-feature dims are of `kind`: operands and
    results of the operand's rank take every factor; rank-1 ones the feature factor."""

    def rule(op, b: RuleBuilder):
        shape = b.operand_shapes[0]
        feature = int_or(op, "feature_index", len(shape) - 1)
        full_in = [i for i, s in enumerate(b.operand_shapes) if len(s) == len(shape)]
        full_out = [i for i, s in enumerate(b.result_shapes) if len(s) == len(shape)]
        vec_in = [i for i, s in enumerate(b.operand_shapes) if len(s) == 1 and i not in full_in]
        vec_out = [i for i, s in enumerate(b.result_shapes) if len(s) == 1
                   and i not in full_out]
        for d, size in enumerate(shape):
            if d == feature:
                b.factor(size, {i: d for i in full_in} | {i: 0 for i in vec_in},
                         {i: d for i in full_out} | {i: 0 for i in vec_out}, PASS)
            else:
                b.factor(size, {i: d for i in full_in}, {i: d for i in full_out}, kind)
    return rule


FAMILIES = (
    OpFamily(("stablehlo.batch_norm_inference",), rule=_rule(PASS), local=LocalOp()),
    OpFamily(("stablehlo.batch_norm_training", "stablehlo.batch_norm_grad"),
             rule=_rule(REPLICATE), local=LocalOp()),
)
