"""The 2x4 ("data", "model") mesh of Auto axes the shardpy.jit tests run on."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def mesh():
    jax = pytest.importorskip("jax")
    from jax.sharding import AxisType

    if len(jax.devices()) < 8:
        pytest.skip("needs 8 CPU devices (XLA_FLAGS set in conftest before jax started)")
    return jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
