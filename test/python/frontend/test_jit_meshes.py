"""Programs on several meshes over the same devices (jax.jit allows them: arguments on
a (2, 4) mesh and an (8,) one, out_shardings on a (4, 2) one, a constraint, nested jit
or shard_map on another). shardpy.jit refused every such call ("needs one mesh") or
named a result's spec on the wrong mesh ("Resource axis: c ... not found"); the
boundary now crosses them on one mesh that refines them all (frontend/meshes.py),
meshes of Explicit axes (jax.make_mesh's default) among them. Every case: the same
values as jax.jit, and the same output shardings where jax.jit keeps the layout
propagation gives (XLA re-lays out some results itself: below)."""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import shardpy  # noqa: E402

CASES: dict = {}
# Results whose layout jax.jit returns otherwise than propagation leaves it. XLA takes
# Shardy's result shardings and then lays out some results itself: a result propagation
# puts on a second mesh comes back whole (an all_gather XLA adds: donated_on_other_mesh,
# minor_axis_first), others on another mesh or spec (dot_across_meshes,
# cond_branch_on_other_mesh, shard_map_on_other_mesh). shardpy.jit returns propagation's
# layout, which native Shardy's propagation gives too. scan_constraint_on_other_mesh:
# native Shardy puts the loop on the constraint's mesh, shardpy's propagation on the
# argument's (a difference of visiting order, values equal). Only values are compared.
XLA_RELAYS = {"dot_across_meshes", "cond_branch_on_other_mesh", "scan_constraint_on_other_mesh",
              "shard_map_on_other_mesh", "donated_on_other_mesh", "minor_axis_first"}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


@case
def out_shardings_on_other_mesh(m, put, rand):
    x = put(rand(8, 16), m.a, "data", "model")
    return (lambda x: jnp.sin(x) @ jnp.ones((16, 8))), (x,), dict(
        out_shardings=NamedSharding(m.b, P("c", "d")))


@case
def minor_axis_first(m, put, rand):
    # (4, 2)'s minor axis on dim 0: (shardpy_2, (shardpy_0, shardpy_1)) on the refined mesh.
    x = put(rand(8, 16), m.b, "d", "c")
    y = put(rand(8, 16), m.a, "data", "model")
    return (lambda x, y: (x + 1, x * y, y - 2)), (x, y), {}


@case
def dot_across_meshes(m, put, rand):
    x = put(rand(8, 16), m.a, "data", "model")
    y = put(rand(16, 8), m.c, "e")
    return (lambda x, y: (x @ y, x.T + y)), (x, y), {}


@case
def nested_jit_on_other_mesh(m, put, rand):
    inner = jax.jit(lambda z: jnp.tanh(z) * 3, in_shardings=NamedSharding(m.c, P("e")),
                    out_shardings=NamedSharding(m.b, P(None, "c")))
    return (lambda x: inner(x * 2).sum(1)), (put(rand(8, 16), m.a, "data", "model"),), {}


@case
def shard_map_on_other_mesh(m, put, rand):
    summed = jax.shard_map(lambda z: jax.lax.psum(z, "e"), mesh=m.c, in_specs=P("e"),
                           out_specs=P())
    return (lambda x: summed(jnp.cos(x)) + 1), (put(rand(8, 16), m.a, "data", "model"),), {}


@case
def cond_branch_on_other_mesh(m, put, rand):
    def f(x, p):
        return jax.lax.cond(p > 0, lambda z: jax.lax.with_sharding_constraint(
            z * 2, NamedSharding(m.b, P("c"))), lambda z: z + 1, x)
    return f, (put(rand(8, 16), m.a, "data", "model"), np.float32(1.0)), {}


@case
def scan_constraint_on_other_mesh(m, put, rand):
    def f(x):
        def body(c, _):
            c = jax.lax.with_sharding_constraint(jnp.sin(c) + 1, NamedSharding(m.c, P(None, "e")))
            return c, c.sum()
        return jax.lax.scan(body, x, None, length=3)
    return f, (put(rand(8, 16), m.a, "data", "model"),), {}


@case
def grad_through_two_meshes(m, put, rand):
    def loss(w, x):
        h = jax.lax.with_sharding_constraint(jnp.tanh(x @ w), NamedSharding(m.b, P("c", "d")))
        return (h * h).sum()
    return (jax.grad(loss), (put(rand(16, 8), m.c, "e"), put(rand(8, 16), m.a, "data")),
            dict(out_shardings=NamedSharding(m.b, P(None, "d"))))


@case
def donated_on_other_mesh(m, put, rand):
    return ((lambda x, y: (x * 2, y + x.sum())),
            (put(rand(8, 16), m.b, "c", "d"), put(rand(8, 16), m.a, "data", "model")),
            dict(donate_argnums=(0,)))


class _Meshes:
    def __init__(self, mesh):
        devices = mesh.devices.reshape(-1)
        self.a = mesh
        self.b = Mesh(devices.reshape(4, 2), ("c", "d"))
        self.c = Mesh(devices.reshape(8), ("e",))


@pytest.mark.parametrize("name", sorted(CASES))
def test_program_on_several_meshes(mesh, name):
    rng = np.random.default_rng(0)
    meshes = _Meshes(mesh)

    def rand(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    def put(array, on, *spec):
        return jax.device_put(array, NamedSharding(on, P(*spec)))

    fun, args, options = CASES[name](meshes, put, rand)
    fresh = [jax.device_put(np.asarray(a), a.sharding) if isinstance(a, jax.Array) else a
             for a in args]  # (donation)
    theirs = jax.jit(fun, **options)(*fresh)
    ours = shardpy.jit(fun, **options)(*args)
    their_leaves, our_leaves = jax.tree_util.tree_leaves(theirs), jax.tree_util.tree_leaves(ours)
    assert len(our_leaves) == len(their_leaves)
    for k, (t, o) in enumerate(zip(their_leaves, our_leaves)):
        if name not in XLA_RELAYS:
            assert o.sharding == t.sharding, f"output {k}: {o.sharding} vs jax.jit's {t.sharding}"
        np.testing.assert_allclose(np.asarray(o), np.asarray(t), rtol=1e-4, atol=1e-4,
                                   err_msg=f"output {k}")


def test_meshes_that_do_not_nest_are_refused(mesh):
    # (2, 3) and (3, 2) over six devices: strides 1, 3, 6 and 1, 2, 6; no mesh refines both.
    devices = mesh.devices.reshape(-1)[:6]
    first = Mesh(devices.reshape(2, 3), ("p", "q"))
    second = Mesh(devices.reshape(3, 2), ("r", "s"))
    x = jax.device_put(np.ones((6, 12), np.float32), NamedSharding(first, P("p", "q")))
    with pytest.raises(ValueError, match="no one mesh refines"):
        shardpy.jit(jnp.sin, out_shardings=NamedSharding(second, P("r", "s")))(x)


def test_compiled_shardings_on_each_mesh(mesh):
    meshes = _Meshes(mesh)
    x = jax.device_put(np.ones((8, 16), np.float32), NamedSharding(mesh, P("data", "model")))
    out = NamedSharding(meshes.b, P("c", "d"))
    compiled = shardpy.jit(lambda x: x * 2, out_shardings=out).lower(x).compile()
    assert compiled.input_shardings[0][0] == x.sharding
    assert compiled.output_shardings == out


_SHAPES = {"a": ((2, 4), ("data", "model")), "b": ((4, 2), ("c", "d")), "c": ((8,), ("e",)),
           "d": ((2, 2, 2), ("x", "y", "z"))}


def _draw_spec(rng, names, rank):
    """A PartitionSpec of `rank` dims using some of `names` (each once)."""
    names = list(names)
    rng.shuffle(names)
    entries = [[] for _ in range(rank)]
    for name in names[:rng.integers(0, len(names) + 1)]:
        entries[rng.integers(rank)].append(name)
    return P(*[None if not e else e[0] if len(e) == 1 else tuple(e) for e in entries])


@pytest.mark.parametrize("seed", range(16))
def test_drawn_programs_on_several_meshes(mesh, seed):
    """Arguments, a constraint and out_shardings on meshes drawn from (2, 4), (4, 2),
    (8,) and (2, 2, 2) over the same devices; an elementwise op, a dot, a transpose, a
    reduction between them: the values jax.jit gives."""
    rng = np.random.default_rng(7100 + seed)
    devices = mesh.devices.reshape(-1)
    made = {k: Mesh(devices.reshape(shape), names) for k, (shape, names) in _SHAPES.items()}

    def sharding(rank):
        key = "abcd"[rng.integers(4)]
        return NamedSharding(made[key], _draw_spec(rng, made[key].axis_names, rank))

    x = jax.device_put(rng.standard_normal((8, 16)).astype(np.float32), sharding(2))
    w = jax.device_put(rng.standard_normal((16, 8)).astype(np.float32), sharding(2))
    inner, outer = sharding(2), (sharding(2), sharding(1))

    def f(x, w):
        h = jax.lax.with_sharding_constraint(jnp.tanh(x @ w) + x[:, :8], inner)
        return h.T * 2, (h * h).sum(0)

    _same_as_jax_jit(f, outer, x, w)


def _same_as_jax_jit(f, outer, *args):
    """shardpy.jit(f) gives jax.jit(f)'s values and output shardings."""
    theirs = jax.jit(f, out_shardings=outer)(*args)
    ours = shardpy.jit(f, out_shardings=outer)(*args)
    for k, (t, o) in enumerate(zip(theirs, ours)):
        assert o.sharding == t.sharding, f"output {k}"
        np.testing.assert_allclose(np.asarray(o), np.asarray(t), rtol=1e-4, atol=1e-4,
                                   err_msg=f"output {k}")


def test_one_boundary_mesh_other_than_the_first_found(mesh):
    # The first mesh found is an argument's that the program does not read (dropped:
    # keep_unused is False): the shard_map runs on the mesh the boundary has.
    meshes = _Meshes(mesh)
    x = jax.device_put(np.ones((8, 16), np.float32), NamedSharding(mesh, P("data", "model")))
    y = jax.device_put(np.arange(128, dtype=np.float32).reshape(8, 16),
                       NamedSharding(meshes.b, P("c", "d")))
    ours = shardpy.jit(lambda x, y: y * 2)(x, y)
    assert ours.sharding == jax.jit(lambda x, y: y * 2)(x, y).sharding
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(y) * 2)


def test_several_meshes_under_a_context_mesh(mesh):
    # jax.set_mesh(a) around a program whose results go to another mesh: the executor's
    # shard_map (on the refined mesh) is traced under its own abstract mesh.
    meshes = _Meshes(mesh)
    x = jax.device_put(np.arange(128, dtype=np.float32).reshape(8, 16),
                       NamedSharding(mesh, P("data", "model")))
    out = NamedSharding(meshes.b, P("c", "d"))
    with jax.set_mesh(mesh):
        ours = shardpy.jit(lambda x: jnp.sin(x) * 2, out_shardings=out)(x)
        theirs = jax.jit(lambda x: jnp.sin(x) * 2, out_shardings=out)(x)
    assert ours.sharding == theirs.sharding == out
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-6)


def _kinds_drawn(rng):
    """Per mesh of _SHAPES, its axes all Explicit or all Auto (drawn; "a" Explicit)."""
    from jax.sharding import AxisType

    return {k: (AxisType.Explicit if k == "a" or rng.integers(2) else AxisType.Auto,)
            * len(shape) for k, (shape, _) in _SHAPES.items()}


@pytest.mark.parametrize("seed", range(8))
def test_drawn_programs_on_meshes_of_explicit_axes(mesh, seed):
    """jax.make_mesh's meshes have Explicit axes (jax 0.10): programs moving values
    between several such meshes by jax.sharding.reshard (and meshes of Auto axes beside
    them, drawn) run under shardpy.jit with jax.jit's values and shardings. The executor's
    refined mesh then has Explicit axes, arguments cross onto it and results back onto
    their own meshes by reshard (shardpy.jit refused these before)."""
    rng = np.random.default_rng(7300 + seed)
    devices = mesh.devices.reshape(-1)
    kinds = _kinds_drawn(rng) if seed % 2 else {
        k: (jax.sharding.AxisType.Explicit,) * len(shape) for k, (shape, _) in _SHAPES.items()}
    made = {k: Mesh(devices.reshape(shape), names, axis_types=kinds[k])
            for k, (shape, names) in _SHAPES.items()}
    explicit = [k for k in made if kinds[k][0] == jax.sharding.AxisType.Explicit]

    def sharding(keys):
        key = keys[rng.integers(len(keys))]
        return NamedSharding(made[key], _draw_spec(rng, made[key].axis_names, 2))

    x = jax.device_put(rng.standard_normal((8, 16)).astype(np.float32), sharding("abcd"))
    # (jax.sharding.reshard names Explicit axes only: w's mesh and `inner` are Explicit)
    w = jax.device_put(rng.standard_normal((16, 8)).astype(np.float32), sharding(explicit))
    inner = sharding(explicit)
    outer = (sharding("abcd"), NamedSharding(made["c"], P(None)))
    whole_w = NamedSharding(w.sharding.mesh, P())

    def f(x, w):
        h = jnp.tanh(jnp.matmul(jax.sharding.reshard(x, whole_w), w, out_sharding=whole_w))
        h = jax.sharding.reshard(h, inner) + jax.sharding.reshard(x[:, :8] * 1.0, inner)
        return h.T * 2, (h * h).sum(0)

    _same_as_jax_jit(f, outer, x, w)


def test_explicit_and_auto_meshes_side_by_side(mesh):
    # An argument on a make_mesh-style (Explicit) mesh, another on an Auto one: each
    # result comes back on its own mesh, typed as jax.jit types it.
    devices = mesh.devices.reshape(-1)
    first = Mesh(devices.reshape(2, 4), ("a", "b"),
                 axis_types=(jax.sharding.AxisType.Explicit,) * 2)
    second = Mesh(devices.reshape(8), ("d",), axis_types=(jax.sharding.AxisType.Auto,))
    x = jax.device_put(np.arange(64, dtype=np.float32).reshape(8, 8),
                       NamedSharding(first, P("a", "b")))
    y = jax.device_put(np.ones((8, 8), np.float32), NamedSharding(second, P("d")))

    def f(x, y):
        return jnp.sin(x), y * 2 + 1

    theirs, ours = jax.jit(f)(x, y), shardpy.jit(f)(x, y)
    for t, o in zip(theirs, ours):
        assert o.sharding == t.sharding
        np.testing.assert_allclose(np.asarray(o), np.asarray(t), rtol=1e-6)
