"""Shared fixtures for shardpy's Python unit tests."""
from __future__ import annotations

import os

# Tests that run programs (shardpy.jit, the fuzzer) need 8 CPU devices; XLA reads this
# when jax first starts, so it is set before any test module imports jax.
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import pytest  # noqa: E402

from shardpy.ir.jaxlib_bridge import make_context


@pytest.fixture(scope="session")
def context():
    """One MLIR context (stablehlo, sdy, func, chlo, mhlo) shared by the whole session."""
    return make_context()


@pytest.fixture
def ctx(context):
    """The shared context, entered: attributes and modules parse into it by default."""
    with context:
        yield context
