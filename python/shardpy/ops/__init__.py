"""The op registry: one OpFamily entry per op family holds everything op-specific that
propagation, insert-reshards and to-local consult.

  entry.py      the entry type: OpFamily (names, rule and its caching category, `local`:
                a LocalOp saying how the ops compute on shards and which lowering hook
                fixes them up, `flow`: a structural op's data flow, and the traits that
                were op-name sets in the stages), LocalOp, Flow
  registry.py   the entries indexed by op name: family(name), entry_for(op),
                ops_with(predicate), and the tables the stages import (RULES, rule_for,
                WITHOUT_RULE, LOCAL_OPS, local_entry, SOURCE_OPS)
  attrs.py      what the rule functions share (factor kinds, attribute readers)
  one module per family, holding its rule functions and its entries: elementwise,
  shape, dot, convolution, reduce, windowed, indexing, sort, linalg, collectives,
  custom_call, sources, structural

"How is gather partitioned?": registry.family("stablehlo.gather") is the entry in
indexing.py: its rule (gather, same file), `local.combine` (a partial sum over a sharded
indexed dim), `local.lower` (lowering/indexing/gather.py's lower_gather) and `local.padding`;
registry.py's docstring walks through it.

Which stage reads which entry field (each stage derives its op-name sets and its
structural handler table from the registry once at import):

  propagation      rule, caching (RULES, handed in by passes/propagate.py; read by
                   rule_cache.py); flow.kind (build.py's structural handlers); source,
                   constant_shaper (build.py, prescan.py); pass_through, forward_only
                   (rule_cache.py); unreduced_preserving, linear (unreduced.py)
  insert-reshards  rule (RULES, from passes/insert_reshards.py); local (plan_cache.py);
                   flow.kind, program_regions, inlined_by (regions.py); source
                   (insert_reshards.py, layouts.py); linear (partition/unreduced.py,
                   plan_choice.py); fallback_reason (fallback.py)
  to-local         local (lower, padding, applies); source; collective_lowering,
                   xla_splits_all_to_all, channel (partition/collectives.py);
                   sharding_attr, collective, xla_folds_dynamic_slice,
                   xla_moves_dynamic_slice, flow (operands_to_args, inlined_by)
                   (to_local.py)
  show-rules       rule, caching (RULES, WITHOUT_RULE), structural (passes/show_rules.py)

sharding/state.py (below ops) reads the sdy ops' result sharding attributes from its
own table, RESULT_SHARDING_ATTR, which the entries' `sharding_attr` and `collective`
are built from.

May import: shardpy.ir, shardpy.sharding, shardpy.lowering (the entries point at their
lowering hooks).
"""
