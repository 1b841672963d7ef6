"""Ops that make data rather than compute it from operands: constants and iota (built
per device in any sharding), ids, tokens, tuples and host IO (no rule by design, as in
Shardy: nothing to relate their results to), and rng_bit_generator.
"""
from __future__ import annotations

from ..lowering import basic
from ..sharding.op_rule import RuleBuilder
from .attrs import REPLICATE
from .entry import LocalOp, OpFamily


def without_rule(op, b: RuleBuilder):
    """No rule (see WITHOUT_RULE)."""
    return False


def rng_bit_generator(op, b: RuleBuilder):
    """The state (operand and first result) must be whole and no sharding may flow
    between them (blocked); the generated bits have free factors of their own."""
    for d, size in enumerate(b.operand_shapes[0]):
        b.factor(size, {0: d}, {0: d}, REPLICATE, blocked=True)
    for d, size in enumerate(b.result_shapes[1]):
        b.factor(size, results={1: d})


_NO_RULE = dict(rule=without_rule, caching="never")

FAMILIES = (
    # Sources: no operand to relate the result to; users shard the result. Constants and
    # iotas are also copied per use by propagation and built per device by to-local.
    OpFamily(("stablehlo.constant",), source=True,
             local=LocalOp(None, False, basic.lower_constant), **_NO_RULE),
    OpFamily(("stablehlo.iota",), source=True,
             local=LocalOp(None, False, basic.lower_iota), **_NO_RULE),
    OpFamily(("stablehlo.partition_id", "stablehlo.replica_id", "stablehlo.create_token",
              "stablehlo.after_all", "chlo.constant", "chlo.constant_like",
              "sdy.constant"), **_NO_RULE),
    # Tuples and host/token IO: nothing to shard along.
    OpFamily(("stablehlo.get_tuple_element", "stablehlo.tuple", "stablehlo.infeed",
              "stablehlo.outfeed"), **_NO_RULE),
    OpFamily(("stablehlo.send", "stablehlo.recv"), channel=True, **_NO_RULE),
    # The bits rng_bit_generator returns are a function of the state and of the whole
    # output shape (StableHLO leaves the algorithm's use of the shape to the
    # implementation): no device can make just its part of the global array.
    OpFamily(("stablehlo.rng_bit_generator",), rule=rng_bit_generator,
             fallback_reason="its bits depend on the whole output shape, so every "
                             "device generates all of them and keeps its shard"),
)
