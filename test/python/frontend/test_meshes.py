"""frontend/meshes.py: one shard_map mesh refining the meshes of a program's boundary."""
from __future__ import annotations

import pytest

jax = pytest.importorskip("jax")
from jax.sharding import PartitionSpec as P  # noqa: E402

from shardpy.frontend import meshes  # noqa: E402
from shardpy.sharding.model import Mesh  # noqa: E402

A = Mesh((("a", 2), ("b", 4)))
B = Mesh((("c", 4), ("d", 2)))
C = Mesh((("e", 8),))


def test_the_docstring_example(mesh):
    refined = meshes.refine(mesh, {"mesh": A, "mesh_0": B})
    assert refined.mesh.shape_tuple == (("shardpy_0", 2), ("shardpy_1", 2), ("shardpy_2", 2))
    assert list(refined.mesh.devices.flat) == list(mesh.devices.flat)
    assert refined.axes["mesh"] == {"a": ("shardpy_0",), "b": ("shardpy_1", "shardpy_2")}
    assert refined.axes["mesh_0"] == {"c": ("shardpy_0", "shardpy_1"), "d": ("shardpy_2",)}
    assert refined.spec("mesh_0", P("c", "d")) == P(("shardpy_0", "shardpy_1"), "shardpy_2")
    assert refined.spec("mesh_0", P("d", None, "c")) == P("shardpy_2", None,
                                                          ("shardpy_0", "shardpy_1"))
    assert refined.spec("mesh", P(("a", "b"))) == P(("shardpy_0", "shardpy_1", "shardpy_2"))
    # A value on no mesh of several devices names no refined axis.
    assert refined.spec(None, P()) == P()


def test_one_mesh_needs_no_refinement(mesh):
    assert meshes.refine(mesh, {"mesh": A}) is None
    assert meshes.refine(mesh, {"mesh": A, "mesh_1": Mesh((("a", 2), ("b", 4)))}) is None


def test_three_meshes(mesh):
    refined = meshes.refine(mesh, {"m": A, "n": B, "o": C})
    assert refined.axes["o"] == {"e": ("shardpy_0", "shardpy_1", "shardpy_2")}


def test_meshes_that_do_not_nest(mesh):
    six = jax.sharding.Mesh(mesh.devices.reshape(-1)[:6].reshape(2, 3), ("p", "q"))
    with pytest.raises(ValueError, match=r"strides \[1, 2, 3, 6\]"):
        meshes.refine(six, {"m": Mesh((("p", 2), ("q", 3))), "n": Mesh((("r", 3), ("s", 2)))})


def test_a_mesh_in_another_order_is_refused(mesh):
    reversed_ids = Mesh((("c", 4), ("d", 2)), tuple(range(7, -1, -1)))
    with pytest.raises(ValueError, match="not over the program's 8 devices in their order"):
        meshes.refine(mesh, {"m": A, "n": reversed_ids})


def test_results_are_named_on_the_users_mesh(mesh):
    found = [mesh]
    assert meshes.named_mesh(Mesh((("data", 2), ("model", 4))), found, mesh) is mesh
    made = meshes.named_mesh(B, found, mesh)
    assert made.shape_tuple == (("c", 4), ("d", 2))
    assert list(made.devices.flat) == list(mesh.devices.flat)
