"""`shardpy.jit`: a drop-in for `jax.jit` that lowers with JAX, partitions with shardpy
and runs the per-device program.

May import: every library package and shardpy.pipeline.
"""
