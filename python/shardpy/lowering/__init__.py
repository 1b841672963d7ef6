"""How ops compute on their shards: the per-op lowering hooks shardpy-to-local calls
(through the op registry), halo exchanges for windowed ops, padding masks for uneven
dims, and reducer analysis of op bodies.

May import: shardpy.ir, shardpy.sharding.
"""
