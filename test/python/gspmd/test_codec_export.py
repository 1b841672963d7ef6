"""GSPMD export (python/shardpy/gspmd/codec.py: export_gspmd) and module-wide mesh planning.

The key property: exporting any sdy sharding (sub-axes, device_ids, manual axes) and
importing the string back lays every device's data out the same way, and keeps the
same devices together in manual groups.
"""
from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from shardpy.gspmd.codec import MeshPlan, export_gspmd, import_gspmd, iota_form, parse_gspmd
from shardpy.sharding.model import AxisRef, DimSharding, Mesh, ShardingError, TensorSharding

EXTENT = 48


def random_sharding(rng: random.Random):
    """A valid sharding on a random mesh, and the axes made manual (a manual
    computation's body); sub-axes split an axis in two."""
    sizes = [rng.choice([1, 2, 2, 3, 4, 6, 8]) for _ in range(rng.randint(1, 3))]
    mesh_axes = tuple((f"m{i}", s) for i, s in enumerate(sizes))
    n = math.prod(sizes)
    mesh = Mesh(mesh_axes, tuple(rng.sample(range(n), n)) if rng.random() < 0.4 else ())
    refs = []
    for name, size in mesh_axes:
        divisors = [d for d in range(2, size) if size % d == 0]
        if divisors and rng.random() < 0.5:
            d = rng.choice(divisors)
            refs += [AxisRef(name, (1, d)), AxisRef(name, (d, size // d))]
        elif size > 1:
            refs.append(AxisRef(name))
    manual = set()
    whole = [name for name, size in mesh_axes if size > 1]
    if len(whole) > 1 and rng.random() < 0.3:
        manual = {rng.choice(whole)}
        refs = [r for r in refs if r.name not in manual]
    rng.shuffle(refs)
    rank = rng.randint(1, 3)
    dims = [[] for _ in range(rank)]
    for ref in refs:
        k = rng.randint(0, rank)  # k == rank: the axis stays unused (replicated)
        if k < rank:
            dims[k].append(ref)
    sharding = TensorSharding(mesh, tuple(DimSharding(tuple(d)) for d in dims))
    sharding.validate()
    return sharding, manual


def manual_groups(mesh: Mesh, axes, n: int) -> list[tuple]:
    coords = [mesh.coordinates(d) for d in range(n)]
    return [tuple(c[a] for a in sorted(axes)) for c in coords]


@pytest.mark.parametrize("seed", range(400))
def test_export_then_import_lays_out_every_device_the_same(seed):
    sharding, manual = random_sharding(random.Random(seed))
    text = export_gspmd(sharding, manual)
    imported = import_gspmd(text, sharding.rank)
    n = sharding.mesh.size
    shape = (EXTENT,) * sharding.rank
    if imported.sharding is None:  # {manual}: nothing sharded, every axis manual
        assert not any(d.axes for d in sharding.dims)
        assert math.prod(sharding.mesh.axis_sizes[a] for a in manual) == n
        return
    for device in range(n):
        assert imported.sharding.device_slices(shape, device) == \
            sharding.device_slices(shape, device), (text, device)
    assert bool(manual) == bool(imported.manual_axes)
    if not manual:
        return
    # Devices that share manual coordinates before share them after (same groups).
    before = manual_groups(sharding.mesh, manual, n)
    after = manual_groups(imported.mesh, imported.manual_axes, n)
    for a, b in itertools.combinations(range(n), 2):
        assert (before[a] == before[b]) == (after[a] == after[b]), (text, a, b)


JAX_STRINGS = [  # what JAX 0.10.2 with Shardy off writes, for shardings on ["x"=2, "y"=4]
    ([("x",), ()], "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"),
    ([(), ("y",)], "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"),
    ([("y",), ()], "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"),
    ([("x",), ("y",)], "{devices=[2,4]<=[8]}"),
    ([("y",), ("x",)], "{devices=[4,2]<=[2,4]T(1,0)}"),
    ([("x", "y"), ()], "{devices=[8,1]<=[8]}"),
    ([(), ()], "{replicated}"),
]


@pytest.mark.parametrize("dims,expected", JAX_STRINGS)
def test_export_writes_what_jax_writes(dims, expected):
    mesh = Mesh((("x", 2), ("y", 4)))
    sharding = TensorSharding(mesh, tuple(DimSharding(tuple(AxisRef(a) for a in d))
                                          for d in dims))
    assert export_gspmd(sharding) == expected


def test_export_of_manual_axes():
    mesh = Mesh((("x", 2), ("y", 4)))
    replicated = TensorSharding.replicated_on(mesh, 2)
    assert export_gspmd(replicated, {"x", "y"}) == "{manual}"
    assert export_gspmd(replicated, {"x"}) == \
        "{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}"


def test_export_of_maximal_and_unreduced():
    maximal = TensorSharding.replicated_on(Mesh((), (5,)), 0)
    assert export_gspmd(maximal) == "{maximal device=5}"
    mesh = Mesh((("x", 2),))
    with pytest.raises(ShardingError, match="unreduced"):
        export_gspmd(TensorSharding(mesh, (DimSharding(),), unreduced=(AxisRef("x"),)))


# --------------------------------------------------------------------------- iota forms


@pytest.mark.parametrize("reshape", [[2, 2], [2, 3], [2, 2, 2], [4, 2], [3, 2, 2], [2, 4, 3]])
def test_iota_form_finds_every_transposed_iota(reshape):
    n = math.prod(reshape)
    for perm in itertools.permutations(range(len(reshape))):
        positions = list(np.arange(n).reshape(reshape).transpose(perm).ravel())
        found = iota_form(positions)
        assert found is not None
        got = np.arange(n).reshape(found[0]).transpose(found[1]).ravel()
        assert list(got) == positions


@pytest.mark.parametrize("positions", [[0, 3, 1, 2], [1, 0, 2, 3], [0, 2, 3, 1]])
def test_iota_form_rejects_other_orders(positions):
    assert iota_form(positions) is None


# --------------------------------------------------------------------------- mesh plans


def plan_of(*texts_and_ranks):
    tilings = [parse_gspmd(t, r) for t, r in texts_and_ranks]
    return MeshPlan(tilings), tilings


def test_one_mesh_refines_every_factorisation():
    plan, tilings = plan_of(("{devices=[8]<=[8]}", 1), ("{devices=[2,4]<=[8]}", 2),
                            ("{devices=[4,2]<=[8]}", 2), ("{devices=[4,2]<=[2,4]T(1,0)}", 2))
    assert plan.meshes == [("mesh", Mesh((("axis_0", 2), ("axis_1", 2), ("axis_2", 2))))]
    assert str(plan.express(tilings[0]).sharding) == '<@mesh, [{"axis_0", "axis_1", "axis_2"}]>'
    assert str(plan.express(tilings[2]).sharding) == '<@mesh, [{"axis_0", "axis_1"}, {"axis_2"}]>'
    assert str(plan.express(tilings[3]).sharding) == '<@mesh, [{"axis_1", "axis_2"}, {"axis_0"}]>'


def test_factorisations_that_do_not_nest_get_two_meshes():
    plan, _ = plan_of(("{devices=[2,3]<=[6]}", 2), ("{devices=[3,2]<=[6]}", 2))
    assert [name for name, _ in plan.meshes] == ["mesh", "mesh_1"]


def test_device_lists_share_a_mesh_with_device_ids():
    plan, tilings = plan_of(("{devices=[2,2]0,3,1,2}", 2), ("{devices=[2,2]0,1,3,2}", 2))
    ((name, mesh),) = plan.meshes
    assert mesh.device_ids == (0, 3, 1, 2)
    assert str(plan.express(tilings[1]).sharding) == '<@mesh, [{"axis_1"}, {"axis_0"}]>'


def test_replicated_and_maximal_meshes():
    plan, tilings = plan_of(("{replicated}", 2), ("{maximal device=1}", 2))
    assert plan.meshes == [("mesh", Mesh()), ("maximal_mesh_1", Mesh((), (1,)))]
    assert plan.express(tilings[0]).sharding.mesh_name == "mesh"


def test_plan_avoids_taken_names():
    tilings = [parse_gspmd("{devices=[2]<=[2]}", 1)]
    assert MeshPlan(tilings, taken={"mesh"}).meshes[0][0] == "mesh_1"
