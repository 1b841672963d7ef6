"""The op registry (shardpy.ops) reproduces every op-name set and dispatch table the
stages had before they asked it (frozen copies below), and the stages' sets and tables,
now registry queries, are those sets: the switch changed nothing. Its structural ops'
data-flow descriptions (Flow) agree with the IR they describe.
"""
from __future__ import annotations

import pytest
from jaxlib.mlir import ir

from shardpy.lowering.reducers import (IDEMPOTENT_REDUCERS, SCATTER_REDUCERS,
                                       SELF_COMBINING_REDUCERS, SUM_REDUCERS,
                                       scatter_reducer)
from shardpy.ops import registry
from shardpy.ops.elementwise import CHLO_ELEMENTWISE, elementwise
from shardpy.ops.entry import ALL_OPERANDS, INSERT_RESHARDS, ONE_SIDE, SINGLE_OPERAND
from shardpy.ops.registry import (LOCAL_OPS, RULES, SOURCE_OPS, WITHOUT_RULE, family,
                                  ops_with, rule_for)
from shardpy.partition import collectives, regions, to_local
from shardpy.partition import unreduced as partition_unreduced
from shardpy.passes.show_rules import is_structural
from shardpy.propagation import build, rule_cache
from shardpy.propagation import unreduced as propagation_unreduced
from shardpy.sharding.op_rule import FactorKind
from shardpy.sharding.state import RESULT_SHARDING_ATTR, SDY_COLLECTIVES

# ---------------------------------------------------------------------------------------
# The op-name sets and dispatch tables the stages had before they asked the registry, as
# they were at commit 25c0b9c (propagation, partition, sharding/state.py).
_OLD_PROPAGATE_HANDLERS = {  # propagation/build.py's _STRUCTURAL: op -> handler
    "func.return": "<lambda>", "stablehlo.return": "<lambda>", "sdy.return": "<lambda>",
    "sdy.mesh": "<lambda>", "stablehlo.while": "_build_while",
    "stablehlo.case": "_build_branches", "stablehlo.if": "_build_branches",
    "stablehlo.optimization_barrier": "_build_optimization_barrier",
    "func.call": "_build_call", "sdy.sharding_constraint": "_build_constraint",
    "sdy.reshard": "_build_reshard", "sdy.propagation_barrier": "_build_barrier",
    "sdy.sharding_group": "_build_group", "sdy.named_computation": "_build_named",
    "sdy.manual_computation": "_build_manual",
    "sdy.data_flow_edge": "_build_data_flow_edge",  # added since (issue 16)
}
_OLD_INSERT_RESHARDS_HANDLERS = {  # partition/regions.py's _STRUCTURAL_HANDLERS
    "func.return": "_func_return", "stablehlo.return": "_region_return",
    "sdy.return": "_region_return", "sdy.sharding_constraint": "_constraint_to_reshard",
    "sdy.propagation_barrier": "_propagation_barrier",
    "sdy.sharding_group": "_sharding_group", "stablehlo.while": "_carried",
    "stablehlo.optimization_barrier": "_carried",
    "sdy.manual_computation": "_manual_computation", "func.call": "_call",
    "stablehlo.case": "_branch", "stablehlo.if": "_branch",
}
STRUCTURAL_OPS = frozenset({  # propagation/build.py (unused there)
    "func.func", "func.return", "func.call", "stablehlo.return", "sdy.return",
    "stablehlo.while", "stablehlo.case", "stablehlo.if", "stablehlo.optimization_barrier",
    "sdy.manual_computation", "sdy.named_computation", "sdy.sharding_constraint",
    "sdy.reshard", "sdy.sharding_group", "sdy.propagation_barrier", "sdy.mesh",
    "sdy.data_flow_edge",  # added since (issue 16)
})
CONSTANT_SOURCES = frozenset({"stablehlo.constant", "stablehlo.iota"})
CONSTANT_SHAPERS = frozenset({"stablehlo.broadcast_in_dim", "stablehlo.reshape",
                              "stablehlo.convert", "stablehlo.transpose"})
PASS_THROUGH_OPS = frozenset({"stablehlo.reshape", "stablehlo.transpose"})
FORWARD_ONLY_OPS = frozenset({"stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice"})
UNREDUCED_PRESERVING_OPS = frozenset({
    "stablehlo.transpose", "stablehlo.reshape", "stablehlo.negate", "stablehlo.copy",
    "sdy.sharding_constraint",
})
_PARTIAL_SUMS = frozenset({"stablehlo.add", "stablehlo.subtract"})  # _partial_axes' tuple
STRUCTURAL_REGION_OPS = frozenset({"func.func", "stablehlo.while", "stablehlo.case",
                                   "stablehlo.if", "sdy.manual_computation",
                                   "sdy.named_computation"})
LINEAR_ALL_OPERANDS = frozenset({"stablehlo.add", "stablehlo.subtract",
                                 "stablehlo.concatenate"})
LINEAR_SINGLE_OPERAND = frozenset({"stablehlo.negate", "stablehlo.transpose",
                                   "stablehlo.reshape", "stablehlo.broadcast_in_dim",
                                   "stablehlo.copy", "stablehlo.reverse", "stablehlo.slice"})
LINEAR_ONE_SIDE = frozenset({"stablehlo.multiply", "stablehlo.dot_general", "stablehlo.dot",
                             "stablehlo.convolution"})
FALLBACK_REASONS = {
    "stablehlo.rng_bit_generator": "its bits depend on the whole output shape, so every "
                                   "device generates all of them and keeps its shard",
}
COLLECTIVES = ("sdy.all_gather", "sdy.all_slice", "sdy.all_to_all", "sdy.all_reduce",
               "sdy.reduce_scatter", "sdy.collective_permute", "sdy.replicated_to_unreduced",
               "sdy.reshard")
SPLIT_BY_XLA_BEFORE_ALL_TO_ALL = frozenset({"stablehlo.concatenate", "stablehlo.pad"})
_CHANNEL_OPS = frozenset({"stablehlo.all_gather", "stablehlo.all_reduce",
                          "stablehlo.reduce_scatter", "stablehlo.all_to_all",
                          "stablehlo.collective_permute", "stablehlo.collective_broadcast",
                          "stablehlo.send", "stablehlo.recv"})
_INDEXING_OPS = frozenset({"stablehlo.gather", "stablehlo.dynamic_slice",
                           "stablehlo.scatter"})
_FOLDED_THROUGH = frozenset({"stablehlo.reshape", "stablehlo.transpose",
                             "stablehlo.broadcast_in_dim", "stablehlo.convert"})
SINGLE_SHARDING_ATTR = {"sdy.sharding_constraint": "sharding", "sdy.reshard": "sharding"}
_SHARDED_ELSEWHERE = frozenset(SINGLE_SHARDING_ATTR) | {"sdy.manual_computation"}
_REGION_ARG_OPS = frozenset({"stablehlo.while", "sdy.manual_computation"})
_SPECIAL = frozenset(COLLECTIVES) | _SHARDED_ELSEWHERE | _INDEXING_OPS | _REGION_ARG_OPS
COLLECTIVE_OPS = frozenset({"sdy.all_gather", "sdy.all_slice", "sdy.all_to_all",
                            "sdy.collective_permute", "sdy.all_reduce", "sdy.reduce_scatter",
                            "sdy.replicated_to_unreduced"})
_SHARDINGS_ELSEWHERE = frozenset(SINGLE_SHARDING_ATTR) | COLLECTIVE_OPS | {
    "sdy.manual_computation"}
_SHOW_RULES_STRUCTURAL = frozenset({  # passes/show_rules.py's STRUCTURAL_OPS
    "builtin.module", "stablehlo.while", "stablehlo.case", "stablehlo.if",
    "stablehlo.optimization_barrier",
})

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
# Families added since (each with its own tests): ops/batch_norm.py.
BATCH_NORM = frozenset({"stablehlo.batch_norm_inference", "stablehlo.batch_norm_training",
                        "stablehlo.batch_norm_grad"})
# Changed since (issue 16): the stablehlo collectives read whether they are in manual
# code (outside it a cross-partition one works on whole values): caching "ir", and the
# shape-keeping ones wrap the elementwise rule.
# Computed on their batch shards since (ops/linalg.py; was: computed replicated).
LINALG = frozenset({"stablehlo.fft", "stablehlo.cholesky", "stablehlo.triangular_solve"})
SHAPE_KEEPING_COLLECTIVES = frozenset({"stablehlo.all_reduce", "stablehlo.collective_permute",
                                       "stablehlo.collective_broadcast"})
STABLEHLO_COLLECTIVES = SHAPE_KEEPING_COLLECTIVES | {
    "stablehlo.all_gather", "stablehlo.reduce_scatter", "stablehlo.all_to_all"}
# ---------------------------------------------------------------------------------------


def _flow(predicate):
    return ops_with(lambda e: e.flow is not None and predicate(e.flow))


# old set -> what the stage has now (a registry query made at import) and the registry
# query written out
QUERIES = [
    # propagation
    ("STRUCTURAL_OPS", STRUCTURAL_OPS, ops_with(lambda e: e.structural)),
    ("_STRUCTURAL", frozenset(_OLD_PROPAGATE_HANDLERS), frozenset(build._STRUCTURAL)),
    ("PASS_THROUGH_OPS", PASS_THROUGH_OPS, rule_cache.PASS_THROUGH_OPS),
    ("PASS_THROUGH_OPS (query)", PASS_THROUGH_OPS, ops_with(lambda e: e.pass_through)),
    ("FORWARD_ONLY_OPS", FORWARD_ONLY_OPS, rule_cache.FORWARD_ONLY_OPS),
    ("FORWARD_ONLY_OPS (query)", FORWARD_ONLY_OPS, ops_with(lambda e: e.forward_only)),
    ("CONSTANT_SOURCES", CONSTANT_SOURCES, build.CONSTANT_SOURCES),
    ("CONSTANT_SOURCES (query)", CONSTANT_SOURCES, ops_with(lambda e: e.source)),
    ("CONSTANT_SHAPERS", CONSTANT_SHAPERS, build.CONSTANT_SHAPERS),
    ("CONSTANT_SHAPERS (query)", CONSTANT_SHAPERS, ops_with(lambda e: e.constant_shaper)),
    ("UNREDUCED_PRESERVING_OPS", UNREDUCED_PRESERVING_OPS,
     propagation_unreduced.UNREDUCED_PRESERVING_OPS),
    ("UNREDUCED_PRESERVING_OPS (query)", UNREDUCED_PRESERVING_OPS,
     ops_with(lambda e: e.unreduced_preserving)),
    ("_partial_axes' add/subtract", _PARTIAL_SUMS, propagation_unreduced._SUMMING),
    ("_partial_axes' add/subtract (query)", _PARTIAL_SUMS,
     ops_with(lambda e: e.linear == ALL_OPERANDS) - {"stablehlo.concatenate"}),
    # insert-reshards
    ("STRUCTURAL_REGION_OPS", STRUCTURAL_REGION_OPS, regions.STRUCTURAL_REGION_OPS),
    ("STRUCTURAL_REGION_OPS (query)", STRUCTURAL_REGION_OPS,
     _flow(lambda f: f.program_regions)),
    ("_STRUCTURAL_HANDLERS", frozenset(_OLD_INSERT_RESHARDS_HANDLERS),
     frozenset(regions._STRUCTURAL_HANDLERS)),
    ("LINEAR_ALL_OPERANDS", LINEAR_ALL_OPERANDS, partition_unreduced.LINEAR_ALL_OPERANDS),
    ("LINEAR_ALL_OPERANDS (query)", LINEAR_ALL_OPERANDS,
     ops_with(lambda e: e.linear == ALL_OPERANDS)),
    ("LINEAR_SINGLE_OPERAND", LINEAR_SINGLE_OPERAND,
     partition_unreduced.LINEAR_SINGLE_OPERAND),
    ("LINEAR_SINGLE_OPERAND (query)", LINEAR_SINGLE_OPERAND,
     ops_with(lambda e: e.linear == SINGLE_OPERAND)),
    ("LINEAR_ONE_SIDE", LINEAR_ONE_SIDE, partition_unreduced.LINEAR_ONE_SIDE),
    ("LINEAR_ONE_SIDE (query)", LINEAR_ONE_SIDE, ops_with(lambda e: e.linear == ONE_SIDE)),
    ("FALLBACK_REASONS", frozenset(FALLBACK_REASONS),
     ops_with(lambda e: e.fallback_reason is not None)),
    # to-local
    ("COLLECTIVES", frozenset(COLLECTIVES), collectives.COLLECTIVES),
    ("COLLECTIVES (query)", frozenset(COLLECTIVES),
     ops_with(lambda e: e.collective_lowering)),
    ("SPLIT_BY_XLA_BEFORE_ALL_TO_ALL", SPLIT_BY_XLA_BEFORE_ALL_TO_ALL,
     collectives.SPLIT_BY_XLA_BEFORE_ALL_TO_ALL),
    ("_CHANNEL_OPS", _CHANNEL_OPS, collectives._CHANNEL_OPS),
    ("_CHANNEL_OPS (query)", _CHANNEL_OPS, ops_with(lambda e: e.channel)),
    ("_INDEXING_OPS", _INDEXING_OPS, to_local._INDEXING_OPS),
    ("_INDEXING_OPS (query)", _INDEXING_OPS, ops_with(lambda e: e.xla_folds_dynamic_slice)),
    ("_FOLDED_THROUGH", _FOLDED_THROUGH, to_local._FOLDED_THROUGH),
    ("_FOLDED_THROUGH (query)", _FOLDED_THROUGH,
     ops_with(lambda e: e.xla_moves_dynamic_slice)),
    ("_SHARDED_ELSEWHERE", _SHARDED_ELSEWHERE, to_local._SHARDED_ELSEWHERE),
    ("_SHARDED_ELSEWHERE (query)", _SHARDED_ELSEWHERE,
     ops_with(lambda e: e.sharding_attr is not None and not e.collective)),
    ("_REGION_ARG_OPS", _REGION_ARG_OPS, to_local._REGION_ARG_OPS),
    ("_REGION_ARG_OPS (query)", _REGION_ARG_OPS,
     _flow(lambda f: f.operands_to_args and f.inlined_by != INSERT_RESHARDS)),
    ("_SPECIAL", _SPECIAL, to_local._SPECIAL),
    ("to-local's manual_computation check", {"sdy.manual_computation"},
     to_local._INLINED_HERE),
    # sharding state (its own table, RESULT_SHARDING_ATTR, read by the registry entries)
    ("SINGLE_SHARDING_ATTR", frozenset(SINGLE_SHARDING_ATTR),
     ops_with(lambda e: e.sharding_attr == "sharding")),
    ("COLLECTIVE_OPS", COLLECTIVE_OPS, frozenset(SDY_COLLECTIVES)),
    ("COLLECTIVE_OPS (query)", COLLECTIVE_OPS, ops_with(lambda e: e.collective)),
    ("_SHARDINGS_ELSEWHERE", _SHARDINGS_ELSEWHERE, frozenset(RESULT_SHARDING_ATTR)),
    ("_SHARDINGS_ELSEWHERE (query)", _SHARDINGS_ELSEWHERE,
     ops_with(lambda e: e.sharding_attr is not None)),
    # the dissolved ops/rules.py and ops/local.py
    ("ELEMENTWISE", frozenset(OLD_ELEMENTWISE) - SHAPE_KEEPING_COLLECTIVES,
     ops_with(lambda e: e.rule is elementwise) - frozenset(CHLO_ELEMENTWISE)),
    ("WITHOUT_RULE", OLD_WITHOUT_RULE, WITHOUT_RULE),
    ("RULES (shapes)",
     frozenset(OLD_ELEMENTWISE + CHLO_ELEMENTWISE) - SHAPE_KEEPING_COLLECTIVES,
     ops_with(lambda e: e.rule is not None and e.caching == "shapes")),
    ("RULES (attributes)", (OLD_RULES_BY_ATTRIBUTES | BATCH_NORM) - STABLEHLO_COLLECTIVES,
     ops_with(lambda e: e.rule is not None and e.caching == "attributes")),
    ("RULES (ir)", OLD_RULES_READING_IR | STABLEHLO_COLLECTIVES,
     ops_with(lambda e: e.rule is not None and e.caching == "ir")),
    ("LOCAL_OPS", OLD_LOCAL_OPS | BATCH_NORM | LINALG,
     ops_with(lambda e: e.local is not None)),
    ("LOCAL_OPS (permutation)", OLD_LOCAL_PERMUTATION,
     ops_with(lambda e: e.local is not None and e.local.permutation)),
    ("SOURCE_OPS", OLD_SOURCE_OPS, SOURCE_OPS),
]


@pytest.mark.parametrize("old, query", [pytest.param(o, q, id=n) for n, o, q in QUERIES])
def test_registry_reproduces_old_set(old, query):
    assert frozenset(old) == query


@pytest.mark.parametrize("stage, old", [
    pytest.param(build._STRUCTURAL, _OLD_PROPAGATE_HANDLERS, id="propagation"),
    pytest.param(regions._STRUCTURAL_HANDLERS, _OLD_INSERT_RESHARDS_HANDLERS,
                 id="insert-reshards"),
])
def test_structural_dispatch_by_kind_unchanged(stage, old):
    """The handler tables keyed by Flow.kind dispatch every op to the handler its old
    name-keyed table had."""
    assert {name: handler.__name__ for name, handler in stage.items()} == old


def test_tables_built_from_entries():
    assert frozenset(RULES.functions) == ops_with(lambda e: e.rule is not None)
    for name in RULES.functions:
        assert RULES.functions[name] is family(name).rule
        assert RULES.caching(name) == family(name).caching
    assert LOCAL_OPS == {n: family(n).local for n in ops_with(lambda e: e.local)}
    assert RESULT_SHARDING_ATTR == {n: family(n).sharding_attr
                                    for n in ops_with(lambda e: e.sharding_attr)}
    assert {n: a for n, a in RESULT_SHARDING_ATTR.items() if a == "sharding"} \
        == SINGLE_SHARDING_ATTR
    assert {n: family(n).fallback_reason for n in FALLBACK_REASONS} == FALLBACK_REASONS


def test_show_rules_structural_unchanged():
    """show-rules' structural test, now the registry's structural ops, answers as its
    old name set (and prefixes) did for every op the registry knows and a few it
    does not."""
    def old(name):
        return (name in _SHOW_RULES_STRUCTURAL or name.startswith(("func.", "sdy."))
                or name.endswith((".return", ".yield")))
    names = {n for e in registry.FAMILIES for n in e.names} | {
        "builtin.module", "sdy.unknown", "func.unknown", "foo.yield", "foo.return",
        "stablehlo.unknown"}
    for name in sorted(names):
        assert is_structural(name) == old(name), name


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
