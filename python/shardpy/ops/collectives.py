"""Collectives: the stablehlo ones a program may already hold (rules: shape-keeping ones
are elementwise, gathering / scattering / all-to-all dims must be whole; they carry
channel handles) and the sdy ones shardpy-reshard-to-collectives makes (no rule: their
result sharding is their `out_sharding`; shardpy-to-local lowers them).
"""
from __future__ import annotations

from ..sharding.op_rule import RuleBuilder
from ..sharding.state import RESULT_SHARDING_ATTR, SDY_COLLECTIVES
from .attrs import REPLICATE, int_attr
from .elementwise import elementwise
from .entry import OpFamily


def _gathering_collective(dim_attr: str):
    """all_gather / reduce_scatter: the gathered or scattered dim differs in size
    between operands and results; each side has its own factor there, and both must be
    whole. The other dims pass through."""

    def rule(op, b: RuleBuilder):
        dim = int_attr(op, dim_attr)
        n = len(b.result_shapes)
        src, dst = b.operand_shapes[0], b.result_shapes[0]
        for d, size in enumerate(src):
            operands = {i: d for i in range(n)}
            if d == dim:
                b.factor(size, operands, kind=REPLICATE)
                b.factor(dst[d], results=operands, kind=REPLICATE)
            else:
                b.factor(size, operands, operands)

    rule.__name__ = rule.__qualname__ = f"collective_on_{dim_attr}"
    return rule


def all_to_all(op, b: RuleBuilder):
    """The split and concat dims change size: operands and results have a factor of
    their own there, and all must be whole. The other dims pass through."""
    moved = {int_attr(op, "split_dimension"), int_attr(op, "concat_dimension")}
    n = len(b.result_shapes)
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    for d, size in enumerate(src):
        tensors = {i: d for i in range(n)}
        if d in moved:
            b.factor(size, tensors, kind=REPLICATE)
            b.factor(dst[d], results=tensors, kind=REPLICATE)
        else:
            b.factor(size, tensors, tensors)


# The stablehlo collectives (their entries below).
STABLEHLO_COLLECTIVES = frozenset({
    "stablehlo.all_gather", "stablehlo.reduce_scatter", "stablehlo.all_to_all",
    "stablehlo.all_reduce", "stablehlo.collective_permute",
    "stablehlo.collective_broadcast"})


def cross_partition(op) -> bool:
    """Does this stablehlo collective talk across partitions (a channel handle, or
    global device ids), rather than across replicas only?"""
    attrs = op.attributes
    return "channel_handle" in attrs or "use_global_device_ids" in attrs


def in_manual_code(op) -> bool:
    """Is `op` inside an sdy.manual_computation (per-device code)?"""
    parent = op.parent
    while parent is not None:
        if parent.name == "sdy.manual_computation":
            return True
        if parent.name == "func.func":
            return False
        parent = parent.parent
    return False


def _global_or(rule):
    """The rule of a collective in manual code, where it works on each device's own
    data. Outside manual code a cross-partition collective works on whole values, as in
    XLA (which partitions a replicated one as is, each device contributing its whole
    copy, and rejects a sharded one): every dim of every tensor stays whole, so the
    partitioner gathers its operands and runs it unchanged on every device."""

    def chosen(op, b: RuleBuilder):
        if cross_partition(op) and not in_manual_code(op):
            for i, shape in enumerate(b.operand_shapes):
                for d, size in enumerate(shape):
                    b.factor(size, operands={i: d}, kind=REPLICATE)
            for i, shape in enumerate(b.result_shapes):
                for d, size in enumerate(shape):
                    b.factor(size, results={i: d}, kind=REPLICATE)
            return None
        return rule(op, b)

    chosen.__name__ = chosen.__qualname__ = rule.__name__
    return chosen


FAMILIES = (
    # (caching "ir": the rule asks whether the op is in manual code)
    OpFamily(("stablehlo.all_gather",),
             rule=_global_or(_gathering_collective("all_gather_dim")), caching="ir",
             channel=True),
    OpFamily(("stablehlo.reduce_scatter",),
             rule=_global_or(_gathering_collective("scatter_dimension")), caching="ir",
             channel=True),
    OpFamily(("stablehlo.all_to_all",), rule=_global_or(all_to_all), caching="ir",
             channel=True),
    # Collectives that keep the shape: each element stays where it is.
    OpFamily(("stablehlo.all_reduce", "stablehlo.collective_permute",
              "stablehlo.collective_broadcast"), rule=_global_or(elementwise), caching="ir",
             channel=True),
    OpFamily(("stablehlo.cross-replica-sum",), rule=elementwise, caching="shapes"),
    # (their names and result attribute: sharding/state.py, which reads them)
    OpFamily(SDY_COLLECTIVES, collective=True,
             sharding_attr=RESULT_SHARDING_ATTR[SDY_COLLECTIVES[0]], collective_lowering=True),
)
