"""The op registry: per op family, its sharding rule and everything else
op-specific that propagation, insert-reshards and to-local consult.

May import: shardpy.ir, shardpy.sharding, shardpy.lowering (the entries point at their
lowering hooks).
"""
