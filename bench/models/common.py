"""What a model program of the benchmark is (issue 14): a train or inference step written
with flax.nnx and optax, the mesh it runs on and its sharded inputs.

Every module in bench/models/ that defines programs exposes `PROGRAMS: list[ModelProgram]`;
bench/models/run.py runs each one under `jax.jit` and `shardpy.jit` on the same inputs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass(frozen=True)
class ModelProgram:
    """One benchmark program.

    name        e.g. "gpt_dp_tp_mesh2x4": model, parallelism, mesh
    mesh_shape  e.g. (2, 4); axis_names e.g. ("data", "model")
    build       build(mesh) -> (step, args): a pure function of arrays/pytrees (no
                Python state: nnx models are split into graphdef + state outside it) and
                its example arguments, already placed on `mesh` with NamedShardings (what
                a user would pass). The step is jitted by the runner, so it must not be
                jitted already.
    donate      argument indices the step may donate (its updated params/opt state)
    description one line for the table: what the program does and how it is sharded
    """

    name: str
    mesh_shape: tuple[int, ...]
    axis_names: tuple[str, ...]
    build: Callable[[Any], tuple[Callable, tuple]]
    donate: tuple[int, ...] = ()
    description: str = ""
    tags: tuple[str, ...] = field(default=())
