"""shardpy: an SPMD sharding compiler for StableHLO + Shardy, on jaxlib's MLIR bindings."""

__version__ = "0.1.0"


from .frontend.jit import Jitted, Lowered, jit  # noqa: E402,F401  (jax is imported lazily)
