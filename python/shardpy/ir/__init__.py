"""IR plumbing shared by every stage: the MLIR context and jaxlib bridge, reading and
writing modules (MLIR text, bytecode, HLO text), diagnostics with source locations,
element types as numpy sees them, and small walking/building helpers.

May import: nothing else of shardpy (the bottom layer).
"""
