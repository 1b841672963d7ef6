"""Ops shardpy-insert-reshards cannot compute on shards: computed whole, with a warning.

An op is computed on shards where its op registry entry has `local` (shardpy.ops) or it is pointwise (and
it has a sharding rule). Any other op gets every operand replicated and is computed
whole on every device, its result sliced again where users want it sharded: correct,
never wrong, and reported once per op name, with the reason its op registry entry gives
(`fallback_reason`) or the default.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from ..ir.callbacks import is_python_callback
from ..ir.diagnostics import warning
from ..ops.registry import family
from ..sharding.op_rule import FactorKind, OpRule, shape_of
from ..sharding.model import TensorSharding
from .layouts import replicated

FALLBACK_DEFAULT = "its operands are gathered on every device and its result sliced"


def computed_on_shards(rule: OpRule | None, entry) -> bool:
    """Has the op (its rule, its LOCAL_OPS entry or None) a way to compute on shards?"""
    return rule is not None and (entry is not None or _pointwise(rule))


def _pointwise(rule: OpRule) -> bool:
    tensors = rule.operands + rule.results
    return bool(tensors) and all(t == tensors[0] for t in tensors) and all(
        k is FactorKind.PASS_THROUGH for k in rule.kinds)


def replicated_operands_and_results(op: ir.Operation, template: TensorSharding
                                    ) -> tuple[list[TensorSharding], list[TensorSharding]]:
    """Every operand and result replicated on the op's mesh (`template`'s)."""
    ranks_in = [len(shape_of(v.type)) for v in op.operands]
    ranks_out = [len(shape_of(r.type)) for r in op.results]
    return ([replicated(template, r) for r in ranks_in],
            [replicated(template, r) for r in ranks_out])


def fallback_reason(name: str) -> str:
    """Why an op of this name is computed replicated (its registry entry's words)."""
    entry = family(name)
    reason = entry.fallback_reason if entry is not None else None
    return reason or FALLBACK_DEFAULT


def warn_computed_replicated(op: ir.Operation, name: str, warned: set[str]) -> None:
    """The warning for an op computed replicated, once per op name (`warned`); none for
    a Python callback (JAX places it on one device, where it runs: maximal.py)."""
    if name not in warned and not is_python_callback(op):
        warned.add(name)
        warning(op.location, f"'{name}' is computed replicated: " + fallback_reason(name))
