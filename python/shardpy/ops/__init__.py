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

May import: shardpy.ir, shardpy.sharding, shardpy.lowering (the entries point at their
lowering hooks).
"""
