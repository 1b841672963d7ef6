"""The sharding model: meshes, axes and sub-axes (`model`), the sdy attribute codec,
sub-axis algebra, device groups of mesh axes, per-value sharding state in the IR,
Shardy's op sharding rule (`op_rule`: factors and their kinds) and the projection of
tensor shardings onto factors (`factors`), and lifting of inlined meshes.

May import: shardpy.ir.
"""
