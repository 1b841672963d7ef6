"""The sharding model: meshes, axes and sub-axes (`model`), the sdy attribute codec,
sub-axis algebra, device groups of mesh axes, per-value sharding state in the IR,
Shardy's op sharding rule (`op_rule`: factors and their kinds) and the projection of
tensor shardings onto factors (`factors`), lifting of inlined meshes, and what a
collective costs (`collective_time`: cost-weighted bytes, and time from a calibrated
per-platform profile in profiles/).

May import: shardpy.ir.
"""
