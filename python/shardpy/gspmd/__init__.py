"""GSPMD `mhlo.sharding` strings (PyTorch/XLA, JAX without Shardy) and sdy: parsing and
printing them (`codec`), shardpy-import (GSPMD -> sdy, manual regions) and
shardpy-export-gspmd (sdy -> GSPMD).

May import: shardpy.ir, shardpy.sharding.
"""
