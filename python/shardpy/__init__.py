"""shardpy: an SPMD sharding compiler for StableHLO + Shardy, on jaxlib's MLIR bindings."""

__version__ = "0.1.0"


from .frontend.jit import Compiled, Jitted, Lowered, Traced, jit  # noqa: E402  (jax is imported lazily)

# The public Python API; the command-line tools (shardpy-opt, shardpy-run) and the pass
# names (shardpy-partition, ...) are the rest of it.
__all__ = ["Compiled", "Jitted", "Lowered", "Traced", "jit", "__version__"]
