"""From a propagated global module to the per-device module: shardpy-choose-shardings
(choose_shardings.py: the propagated shardings chosen again for the whole program by
estimated time), shardpy-insert-reshards (insert_reshards.py: how each op is computed on
shards, plan_choice.py ranked by plan_costs.py, and the reshards that makes necessary),
shardpy-reshard-to-collectives (reshard_to_collectives.py, with the reshard planner:
shardings -> collective steps) and shardpy-to-local (to_local.py: local shapes, per-op
lowerings; collectives.py: sdy -> stablehlo collectives).

May import: shardpy.ir, shardpy.sharding, shardpy.lowering, shardpy.ops, shardpy.explain (recording only).
"""
