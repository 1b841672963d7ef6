"""Shared fixtures for shardpy's Python unit tests."""
from __future__ import annotations

import pytest

from shardpy.jaxlib_bridge import make_context


@pytest.fixture(scope="session")
def context():
    """One MLIR context (stablehlo, sdy, func, chlo, mhlo) shared by the whole session."""
    return make_context()


@pytest.fixture
def ctx(context):
    """The shared context, entered: attributes and modules parse into it by default."""
    with context:
        yield context
