"""shardpy: an SPMD sharding compiler for StableHLO + Shardy, on jaxlib's MLIR bindings."""

__version__ = "0.1.0"
