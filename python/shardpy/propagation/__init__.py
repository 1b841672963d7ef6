"""shardpy-propagate: every value gets a sharding (Shardy's propagation semantics),
with the per-op factor strategies and the dropping of maximal shardings.

  propagate.py   the pass's algorithm: propagate_module and the worklist (start here)
  prescan.py     rewrites before building: call-graph flattening, constant splitting
  build.py       the module into a graph; structural ops (loops, calls...) as edges
  graph.py       the graph: slots, nodes, interned shardings
  strategies.py  propagation across one op in factor space (basic, aggressive)
  unreduced.py   partial values kept partial where the user wants them
  write_back.py  the final shardings into the module
  maximal.py     maximal shardings dropped before propagation
  rule_cache.py, speed.py   what makes it fast (rule lookup per op signature, ...)

May import: shardpy.ir, shardpy.sharding, shardpy.ops, shardpy.explain (recording only).
"""
