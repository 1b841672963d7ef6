"""The op registry (shardpy.ops) reproduces every op-name set and dispatch table the
stages use today, so that replacing those sets by registry queries changes nothing; and
its structural ops' data-flow descriptions (Flow) agree with the IR they describe.
"""
from __future__ import annotations

import pytest
from jaxlib.mlir import ir

from shardpy.lowering.reducers import scatter_reducer
from shardpy.ops import registry
from shardpy.ops.elementwise import CHLO_ELEMENTWISE, elementwise
from shardpy.ops.entry import ALL_OPERANDS, INSERT_RESHARDS, ONE_SIDE, PROPAGATE, \
    SINGLE_OPERAND
from shardpy.ops.registry import (LOCAL_OPS, RULES, SOURCE_OPS, WITHOUT_RULE, family,
                                  ops_with, rule_for)
from shardpy.sharding.op_rule import FactorKind

# ---------------------------------------------------------------------------------------
# The old op-name sets, imported from the stage modules that use them today. When the
# stages are split or switched to registry queries, repoint (or drop) these imports.
from shardpy.lowering.reducers import (IDEMPOTENT_REDUCERS, SCATTER_REDUCERS,
                                       SELF_COMBINING_REDUCERS, SUM_REDUCERS)
from shardpy.partition.collectives import (_CHANNEL_OPS, COLLECTIVES,
                                           SPLIT_BY_XLA_BEFORE_ALL_TO_ALL)
from shardpy.partition.fallback import FALLBACK_REASONS
from shardpy.partition.regions import STRUCTURAL_REGION_OPS, _STRUCTURAL_HANDLERS
from shardpy.partition.to_local import (_FOLDED_THROUGH, _INDEXING_OPS, _REGION_ARG_OPS,
                                        _SHARDED_ELSEWHERE, _SPECIAL)
from shardpy.partition.unreduced import (LINEAR_ALL_OPERANDS, LINEAR_ONE_SIDE,
                                         LINEAR_SINGLE_OPERAND)
from shardpy.propagation.build import (_STRUCTURAL, CONSTANT_SHAPERS, CONSTANT_SOURCES,
                                       STRUCTURAL_OPS)
from shardpy.propagation.rule_cache import FORWARD_ONLY_OPS, PASS_THROUGH_OPS
from shardpy.propagation.unreduced import UNREDUCED_PRESERVING_OPS
from shardpy.sharding.state import (_SHARDINGS_ELSEWHERE, COLLECTIVE_OPS,
                                    SINGLE_SHARDING_ATTR)

# The sets of the modules the registry replaced (ops/rules.py, ops/local.py at commit
# 820b633), as they were (CHLO_ELEMENTWISE moved to ops/elementwise.py unchanged).
OLD_ELEMENTWISE = (
    "stablehlo.abs", "stablehlo.cbrt", "stablehlo.ceil", "stablehlo.count_leading_zeros",
    "stablehlo.convert", "stablehlo.cosine", "stablehlo.exponential",
    "stablehlo.exponential_minus_one", "stablehlo.floor", "stablehlo.imag",
    "stablehlo.is_finite", "stablehlo.log", "stablehlo.log_plus_one", "stablehlo.logistic",
    "stablehlo.negate", "stablehlo.not", "stablehlo.popcnt", "stablehlo.real",
    "stablehlo.reduce_precision", "stablehlo.round_nearest_afz",
    "stablehlo.round_nearest_even", "stablehlo.rsqrt", "stablehlo.sign", "stablehlo.sine",
    "stablehlo.sqrt", "stablehlo.tan", "stablehlo.tanh",
    "stablehlo.add", "stablehlo.and", "stablehlo.atan2", "stablehlo.compare",
    "stablehlo.complex", "stablehlo.divide", "stablehlo.maximum", "stablehlo.minimum",
    "stablehlo.multiply", "stablehlo.or", "stablehlo.power", "stablehlo.remainder",
    "stablehlo.shift_left", "stablehlo.shift_right_arithmetic",
    "stablehlo.shift_right_logical", "stablehlo.subtract", "stablehlo.xor",
    "stablehlo.select", "stablehlo.clamp",
    "stablehlo.all_reduce", "stablehlo.collective_permute",
    "stablehlo.collective_broadcast", "stablehlo.cross-replica-sum",
    "sdy.sharding_constraint",
)
OLD_WITHOUT_RULE = frozenset({
    "stablehlo.constant", "stablehlo.iota", "stablehlo.partition_id",
    "stablehlo.replica_id", "stablehlo.create_token", "stablehlo.after_all",
    "chlo.constant", "chlo.constant_like", "sdy.constant",
    "stablehlo.get_tuple_element", "stablehlo.tuple", "stablehlo.infeed",
    "stablehlo.outfeed", "stablehlo.send", "stablehlo.recv",
})
OLD_RULES_BY_ATTRIBUTES = frozenset({  # caching "attributes"
    "chlo.top_k", "stablehlo.all_gather", "stablehlo.all_to_all",
    "stablehlo.bitcast_convert", "stablehlo.broadcast_in_dim", "stablehlo.cholesky",
    "stablehlo.convolution", "stablehlo.dot", "stablehlo.dot_general",
    "stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice", "stablehlo.fft",
    "stablehlo.gather", "stablehlo.pad", "stablehlo.reduce", "stablehlo.reduce_scatter",
    "stablehlo.reduce_window", "stablehlo.reshape", "stablehlo.reverse",
    "stablehlo.rng_bit_generator", "stablehlo.select_and_scatter", "stablehlo.slice",
    "stablehlo.sort", "stablehlo.transpose", "stablehlo.triangular_solve",
})
OLD_RULES_READING_IR = frozenset({"stablehlo.concatenate", "stablehlo.custom_call",
                                  "stablehlo.scatter"})
OLD_LOCAL_OPS = frozenset({
    "chlo.top_k", "stablehlo.broadcast_in_dim", "stablehlo.clamp", "stablehlo.compare",
    "stablehlo.concatenate", "stablehlo.constant", "stablehlo.convert",
    "stablehlo.convolution", "stablehlo.custom_call", "stablehlo.dot",
    "stablehlo.dot_general", "stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice",
    "stablehlo.gather", "stablehlo.iota", "stablehlo.pad", "stablehlo.reduce",
    "stablehlo.reduce_window", "stablehlo.reshape", "stablehlo.reverse",
    "stablehlo.scatter", "stablehlo.select", "stablehlo.select_and_scatter",
    "stablehlo.slice", "stablehlo.sort", "stablehlo.transpose",
})
OLD_LOCAL_PERMUTATION = frozenset({
    "stablehlo.pad", "stablehlo.slice", "stablehlo.reverse", "stablehlo.concatenate",
    "stablehlo.reduce_window", "stablehlo.select_and_scatter", "stablehlo.convolution"})
OLD_SOURCE_OPS = frozenset({"stablehlo.constant", "stablehlo.iota"})
# ---------------------------------------------------------------------------------------


def _flow(predicate):
    return ops_with(lambda e: e.flow is not None and predicate(e.flow))


# old set -> the registry query that gives it back
QUERIES = [
    # propagation
    ("STRUCTURAL_OPS", STRUCTURAL_OPS, ops_with(lambda e: e.structural)),
    ("_STRUCTURAL", frozenset(_STRUCTURAL), _flow(lambda f: PROPAGATE in f.stages)),
    ("PASS_THROUGH_OPS", PASS_THROUGH_OPS, ops_with(lambda e: e.pass_through)),
    ("FORWARD_ONLY_OPS", FORWARD_ONLY_OPS, ops_with(lambda e: e.forward_only)),
    ("CONSTANT_SOURCES", CONSTANT_SOURCES, ops_with(lambda e: e.source)),
    ("CONSTANT_SHAPERS", CONSTANT_SHAPERS, ops_with(lambda e: e.constant_shaper)),
    ("UNREDUCED_PRESERVING_OPS", UNREDUCED_PRESERVING_OPS,
     ops_with(lambda e: e.unreduced_preserving)),
    # insert-reshards
    ("STRUCTURAL_REGION_OPS", STRUCTURAL_REGION_OPS, _flow(lambda f: f.program_regions)),
    ("_STRUCTURAL_HANDLERS", frozenset(_STRUCTURAL_HANDLERS),
     _flow(lambda f: INSERT_RESHARDS in f.stages)),
    ("LINEAR_ALL_OPERANDS", LINEAR_ALL_OPERANDS,
     ops_with(lambda e: e.linear == ALL_OPERANDS)),
    ("LINEAR_SINGLE_OPERAND", LINEAR_SINGLE_OPERAND,
     ops_with(lambda e: e.linear == SINGLE_OPERAND)),
    ("LINEAR_ONE_SIDE", LINEAR_ONE_SIDE, ops_with(lambda e: e.linear == ONE_SIDE)),
    ("FALLBACK_REASONS", frozenset(FALLBACK_REASONS),
     ops_with(lambda e: e.fallback_reason is not None)),
    # to-local
    ("COLLECTIVES", frozenset(COLLECTIVES), ops_with(lambda e: e.collective_lowering)),
    ("SPLIT_BY_XLA_BEFORE_ALL_TO_ALL", SPLIT_BY_XLA_BEFORE_ALL_TO_ALL,
     ops_with(lambda e: e.xla_splits_all_to_all)),
    ("_INDEXING_OPS", _INDEXING_OPS, ops_with(lambda e: e.xla_folds_dynamic_slice)),
    ("_FOLDED_THROUGH", _FOLDED_THROUGH, ops_with(lambda e: e.xla_moves_dynamic_slice)),
    ("_SHARDED_ELSEWHERE", _SHARDED_ELSEWHERE,
     ops_with(lambda e: e.sharding_attr is not None and not e.collective)),
    ("_REGION_ARG_OPS", _REGION_ARG_OPS,
     _flow(lambda f: f.operands_to_args and f.inlined_by != INSERT_RESHARDS)),
    ("_SPECIAL", _SPECIAL, ops_with(
        lambda e: e.collective_lowering or e.xla_folds_dynamic_slice
        or (e.sharding_attr is not None and not e.collective)
        or (e.flow is not None and e.flow.operands_to_args
            and e.flow.inlined_by != INSERT_RESHARDS))),
    ("_CHANNEL_OPS", _CHANNEL_OPS, ops_with(lambda e: e.channel)),
    # sharding state
    ("SINGLE_SHARDING_ATTR", frozenset(SINGLE_SHARDING_ATTR),
     ops_with(lambda e: e.sharding_attr == "sharding")),
    ("COLLECTIVE_OPS", COLLECTIVE_OPS, ops_with(lambda e: e.collective)),
    ("_SHARDINGS_ELSEWHERE", _SHARDINGS_ELSEWHERE,
     ops_with(lambda e: e.sharding_attr is not None)),
    # the dissolved ops/rules.py and ops/local.py
    ("ELEMENTWISE", frozenset(OLD_ELEMENTWISE),
     ops_with(lambda e: e.rule is elementwise) - frozenset(CHLO_ELEMENTWISE)),
    ("WITHOUT_RULE", OLD_WITHOUT_RULE, WITHOUT_RULE),
    ("RULES (shapes)", frozenset(OLD_ELEMENTWISE + CHLO_ELEMENTWISE),
     ops_with(lambda e: e.rule is not None and e.caching == "shapes")),
    ("RULES (attributes)", OLD_RULES_BY_ATTRIBUTES,
     ops_with(lambda e: e.rule is not None and e.caching == "attributes")),
    ("RULES (ir)", OLD_RULES_READING_IR,
     ops_with(lambda e: e.rule is not None and e.caching == "ir")),
    ("LOCAL_OPS", OLD_LOCAL_OPS, ops_with(lambda e: e.local is not None)),
    ("LOCAL_OPS (permutation)", OLD_LOCAL_PERMUTATION,
     ops_with(lambda e: e.local is not None and e.local.permutation)),
    ("SOURCE_OPS", OLD_SOURCE_OPS, SOURCE_OPS),
]


@pytest.mark.parametrize("old, query", [pytest.param(o, q, id=n) for n, o, q in QUERIES])
def test_registry_reproduces_old_set(old, query):
    assert frozenset(old) == query


def test_tables_built_from_entries():
    assert frozenset(RULES.functions) == ops_with(lambda e: e.rule is not None)
    for name in RULES.functions:
        assert RULES.functions[name] is family(name).rule
        assert RULES.caching(name) == family(name).caching
    assert LOCAL_OPS == {n: family(n).local for n in ops_with(lambda e: e.local)}
    assert SINGLE_SHARDING_ATTR == {n: family(n).sharding_attr
                                    for n in ops_with(lambda e: e.sharding_attr
                                                      == "sharding")}
    assert {n: family(n).fallback_reason for n in FALLBACK_REASONS} == FALLBACK_REASONS


def test_reducers_are_elementwise_entries():
    """The reducer sets stay in lowering/reducers.py (the lowering reads reduction bodies
    and sits below ops); each reducer is an elementwise op of the registry."""
    assert SCATTER_REDUCERS == SUM_REDUCERS | SELF_COMBINING_REDUCERS
    assert IDEMPOTENT_REDUCERS < SELF_COMBINING_REDUCERS
    for name in SCATTER_REDUCERS:
        assert family(name).rule is elementwise


def test_every_name_has_one_entry():
    names = [n for e in registry.FAMILIES for n in e.names]
    assert len(names) == len(set(names))


_SCATTER = """
  func.func @f(%x: tensor<8x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>)
      -> tensor<8x4xf32> {
    %0 = "stablehlo.scatter"(%x, %i, %u) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %r = BODY : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
        inserted_window_dims = [0], scatter_dims_to_operand_dims = [0],
        index_vector_dim = 1>} : (tensor<8x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>)
        -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }"""


@pytest.mark.parametrize("body, reducer", [
    ("stablehlo.add %a, %b", "stablehlo.add"),
    ("stablehlo.maximum %b, %a", "stablehlo.maximum"),
    ("stablehlo.subtract %a, %b", None),
    ("stablehlo.add %b, %b", None),
])
def test_one_scatter_predicate_for_rule_and_lowering(context, body, reducer):
    """The scatter rule's batch dim is a reduction exactly where the lowering's
    scatter_reducer finds one reducer (the same function)."""
    with context, ir.Location.unknown():
        module = ir.Module.parse(_SCATTER.replace("BODY", body))
        op = next(o.operation for o in module.body.operations[0].regions[0].blocks[0]
                  .operations if o.operation.name == "stablehlo.scatter")
        assert scatter_reducer(op) == reducer
        kinds = set(rule_for(op, RULES).kinds)
        assert (FactorKind.REDUCTION in kinds) == (reducer is not None)


_FLOWS = """
  func.func private @callee(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
  func.func @f(%x: tensor<4xf32>, %i: tensor<i32>, %p: tensor<i1>) -> tensor<4xf32> {
    %w:2 = stablehlo.while(%a = %x, %n = %i) : tensor<4xf32>, tensor<i32>
      cond {
        %c = stablehlo.compare LT, %n, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %c : tensor<i1>
      } do {
        stablehlo.return %a, %n : tensor<4xf32>, tensor<i32>
      }
    %c = "stablehlo.case"(%i) ({
      stablehlo.return %x : tensor<4xf32>
    }, {
      stablehlo.return %w#0 : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    %f = "stablehlo.if"(%p) ({
      stablehlo.return %c : tensor<4xf32>
    }, {
      stablehlo.return %x : tensor<4xf32>
    }) : (tensor<i1>) -> tensor<4xf32>
    %b:2 = stablehlo.optimization_barrier %f, %i : tensor<4xf32>, tensor<i32>
    %n = sdy.named_computation<"g">(%b#0) (%arg: tensor<4xf32>) {
      sdy.return %arg : tensor<4xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %q = sdy.propagation_barrier %n allowed_direction=NONE : tensor<4xf32>
    %k = func.call @callee(%q) : (tensor<4xf32>) -> tensor<4xf32>
    return %k : tensor<4xf32>
  }"""


def test_flows_pair_values_of_one_type(context):
    """Where a Flow says values flow i to i, they have one type (the description names
    the right operands, arguments and results)."""
    with context, ir.Location.unknown():
        module = ir.Module.parse(_FLOWS)
        seen = set()
        funcs = {ir.StringAttr(f.attributes["sym_name"]).value: f
                 for f in module.body.operations}

        def types(values):
            return [v.type for v in values]

        def visit(op):
            op = op.operation
            flow = family(op.name).flow if family(op.name) else None
            if flow is not None:
                seen.add(op.name)
                results = types(op.results)
                if flow.operands_to_results:
                    assert types(op.operands) == results
                bodies = [r.blocks[0] for r in op.regions]
                if flow.operands_to_args:
                    for block in bodies:
                        assert types(block.arguments) == types(op.operands)
                # (a while's cond returns its predicate: only the body returns values)
                returning = bodies[-1:] if op.name == "stablehlo.while" else bodies
                for block in returning:
                    returned = types(list(block.operations)[-1].operands)
                    if flow.returns_to_results:
                        assert returned == results
                    if flow.returns_to_args:
                        assert returned == types(block.arguments)
                if flow.to_callee:
                    callee = funcs[ir.FlatSymbolRefAttr(op.attributes["callee"]).value]
                    signature = ir.FunctionType(ir.TypeAttr(
                        callee.attributes["function_type"]).value)
                    assert types(op.operands) == list(signature.inputs)
                    assert results == list(signature.results)
                if flow.to_parent:
                    parent = op.parent
                    if parent.name == "func.func":
                        signature = ir.FunctionType(ir.TypeAttr(
                            parent.attributes["function_type"]).value)
                        assert types(op.operands) == list(signature.results)
                    elif parent.name != "stablehlo.while":  # (cond returns the predicate)
                        assert types(op.operands) == types(parent.results)
            for region in op.regions:
                for block in region.blocks:
                    for inner in block.operations:
                        visit(inner)

        visit(module.operation)
        assert seen >= {"func.func", "func.call", "func.return", "stablehlo.return",
                        "sdy.return", "stablehlo.while", "stablehlo.case", "stablehlo.if",
                        "stablehlo.optimization_barrier", "sdy.named_computation",
                        "sdy.propagation_barrier"}
