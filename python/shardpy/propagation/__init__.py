"""shardpy-propagate: every value gets a sharding (Shardy's propagation semantics),
with the per-op factor strategies and the dropping of maximal shardings.

May import: shardpy.ir, shardpy.sharding, shardpy.ops.
"""
