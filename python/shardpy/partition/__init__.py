"""From a propagated global module to the per-device module: shardpy-insert-reshards
(how each op is computed on shards, and the reshards that makes necessary), the reshard
planner (shardings -> collective steps) and shardpy-to-local (local shapes, collectives
and per-op lowerings).

May import: shardpy.ir, shardpy.sharding, shardpy.lowering, shardpy.ops.
"""
