"""Running modules through PjRt: per-device programs on a mesh's devices, global
programs on one device, host arrays (inputs, outputs, comparison) and statistics of the
collectives a program holds.

May import: shardpy.ir, shardpy.sharding, shardpy.gspmd (XLA's executables state their
shardings in GSPMD form).
"""
