"""shardpy.jit against jax.jit: same outputs, composing with the rest of JAX."""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import shardpy  # noqa: E402


def named(mesh, *spec):
    return NamedSharding(mesh, P(*spec))


def mlp(x, w1, w2):
    return jax.nn.relu(x @ w1) @ w2


def arrays(mesh, x_spec, w1_spec, w2_spec, seed=0):
    rng = np.random.default_rng(seed)
    x = jax.device_put(rng.standard_normal((16, 32), np.float32), named(mesh, *x_spec))
    w1 = jax.device_put(rng.standard_normal((32, 64), np.float32), named(mesh, *w1_spec))
    w2 = jax.device_put(rng.standard_normal((64, 32), np.float32), named(mesh, *w2_spec))
    return x, w1, w2


LAYOUTS = {  # the #2 examples: DP, FSDP, TP, Megatron on the 2x4 mesh
    "dp": ((("data", "model"), None), (None, None), (None, None)),
    "fsdp": (("data", None), ("data", None), ("data", None)),
    "tp": (("data", None), (None, "model"), (None, None)),
    "megatron": (("data", None), (None, "model"), ("model", None)),
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_matches_jax_jit(mesh, layout):
    x, w1, w2 = arrays(mesh, *LAYOUTS[layout])
    shardings = tuple(a.sharding for a in (x, w1, w2))
    ours = shardpy.jit(mlp, in_shardings=shardings, out_shardings=shardings[0])(x, w1, w2)
    theirs = jax.jit(mlp, in_shardings=shardings, out_shardings=shardings[0])(x, w1, w2)
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-5, atol=1e-4)
    assert ours.sharding == theirs.sharding


def test_outputs_carry_named_shardings(mesh):
    x, w1, w2 = arrays(mesh, *LAYOUTS["megatron"])
    out = shardpy.jit(mlp, out_shardings=named(mesh, "data", None))(x, w1, w2)
    assert isinstance(out.sharding, NamedSharding)
    assert out.sharding.spec == P("data", None)


def test_nested_in_an_outer_jit_with_other_ops(mesh):
    x, w1, w2 = arrays(mesh, *LAYOUTS["tp"])
    inner = shardpy.jit(mlp)

    @jax.jit
    def outer(x, w1, w2):
        return jnp.sum(jnp.tanh(inner(x * 2.0, w1, w2)) ** 2) + 1.0

    reference = jnp.sum(jnp.tanh(jax.jit(mlp)(x * 2.0, w1, w2)) ** 2) + 1.0
    np.testing.assert_allclose(float(outer(x, w1, w2)), float(reference), rtol=1e-5)


def test_nested_in_an_outer_jit_whose_bf16_dot_reads_a_gathered_result(mesh):
    """The inner program all_gathers x along its last dim; on CPU a standalone
    executor moves that to dim 0 (ir/cpu_collective_dims.py), but inside a caller's
    jit the result meets a bf16 x bf16 = f32 dot the module cannot see, which XLA:CPU
    then refuses ("Unsupported element type for DotThunk::Execute"): traced calls get
    an executor that leaves the collectives as they are."""
    x = jax.device_put(jnp.ones((64, 128), jnp.bfloat16), named(mesh, "data", "model"))
    w = jax.device_put(jnp.ones((128, 32), jnp.bfloat16), named(mesh))

    def gathered(x):
        return jax.lax.with_sharding_constraint(jnp.tanh(x), named(mesh, "data", None))

    def outer_of(inner):
        return jax.jit(lambda x, w: jax.lax.dot_general(
            inner(x), w, (((1,), (0,)), ((), ())), preferred_element_type=jnp.float32))

    given = named(mesh, "data", "model")
    inner, theirs = (jit(gathered, in_shardings=given) for jit in (shardpy.jit, jax.jit))
    ours = outer_of(inner)(x, w)
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(outer_of(theirs)(x, w)))
    assert inner(x).sharding == theirs(x).sharding  # and called on arrays


def test_nested_in_an_outer_jit_with_the_mesh_only_in_a_constraint(mesh):
    """Traced into a caller's jit with no sharded argument (the mesh only in the
    function's with_sharding_constraint): staged as jax.jit stages it, not "no mesh"."""
    x = jax.device_put(jnp.ones((64, 128)), named(mesh, "data", "model"))

    def inner(x):
        return jax.lax.with_sharding_constraint(jnp.tanh(x), named(mesh, "data", None))

    ours = jax.jit(lambda x: shardpy.jit(inner)(x) * 2)(x)
    theirs = jax.jit(lambda x: jax.jit(inner)(x) * 2)(x)
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
    assert ours.sharding == theirs.sharding


@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2"])
def test_float8_arguments_and_results(mesh, dtype):
    """8-bit floats cross shardpy.jit's boundary as jax.jit's (they were refused: no
    numpy dtype known for f8E4M3FN)."""
    rng = np.random.default_rng(0)
    x = jax.device_put(jnp.asarray(rng.standard_normal((16, 32))).astype(dtype),
                       named(mesh, "data", "model"))

    def f(x):
        wide = jax.lax.dot_general(x, x, (((1,), (1,)), ((), ())),
                                   preferred_element_type=jnp.float32)
        return wide, (x.astype(jnp.float32) * 2).astype(x.dtype)

    ours, theirs = shardpy.jit(f)(x), jax.jit(f)(x)
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype and a.sharding == b.sharding
        np.testing.assert_allclose(np.asarray(a, np.float32), np.asarray(b, np.float32),
                                   rtol=1e-6)


def test_value_and_grad_is_partitioned_whole(mesh):
    x, w1, w2 = arrays(mesh, *LAYOUTS["megatron"])

    def loss(w1, w2, x):
        return jnp.mean(mlp(x, w1, w2) ** 2)

    ours = shardpy.jit(jax.value_and_grad(loss, argnums=(0, 1)))
    (l_ours, (g1, g2)) = ours(w1, w2, x)
    (l_ref, (r1, r2)) = jax.jit(jax.value_and_grad(loss, argnums=(0, 1)))(w1, w2, x)
    np.testing.assert_allclose(float(l_ours), float(l_ref), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(g1), np.asarray(r1), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.asarray(g2), np.asarray(r2), rtol=1e-4, atol=1e-4)
    report = ours.lower(w1, w2, x).report
    assert report["collectives"]["all_reduce"]["count"] >= 1


def test_scan_inside(mesh):
    def f(ws, x):
        h, _ = jax.lax.scan(lambda h, w: (jnp.tanh(h @ w), None), x, ws)
        return jnp.sum(h ** 2)

    rng = np.random.default_rng(1)
    ws = jax.device_put(rng.standard_normal((4, 32, 32), np.float32) * 0.2,
                        named(mesh, None, None, "model"))
    x = jax.device_put(rng.standard_normal((16, 32), np.float32), named(mesh, "data", None))
    (l_ours, g_ours) = shardpy.jit(jax.value_and_grad(f))(ws, x)
    (l_ref, g_ref) = jax.jit(jax.value_and_grad(f))(ws, x)
    np.testing.assert_allclose(float(l_ours), float(l_ref), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(g_ours), np.asarray(g_ref), rtol=1e-4, atol=1e-4)


def _grad_through_relu(put, rand):
    args = (put(rand(32, 8), "model", None), put(rand(16, 32), None, "model"),
            put(rand(8, 16), "data", "model"), put(rand(8, 8), "data", "model"))
    return jax.grad(lambda w2, w1, x, y: jnp.sum((jax.nn.relu(x @ w1) @ w2 - y) ** 2)), args


def _grad_through_clip(put, rand):
    args = put(rand(16, 32) / 11, None, "model"), put(rand(8, 16), "data", "model")
    return jax.grad(lambda w, x: jnp.sum(jnp.clip(x @ w, -0.1, 0.1))), args


@pytest.mark.parametrize("program", [_grad_through_relu, _grad_through_clip])
def test_weight_gradient_laid_out_as_jax_jit(mesh, program):
    """relu and clip lower to func.calls, whose results feed the weight gradient's dot
    along with a smaller operand that is sharded on "model" too. Shardy visits a
    callee's ops at its call site, so the call's result is sharded before that dot and,
    the larger operand, gives the gradient "model"; shardpy visited callee bodies after
    the caller and gave it the smaller operand's factor (P('model', None) transposed)."""
    rng = np.random.default_rng(2)

    def rand(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    f, args = program(lambda a, *spec: jax.device_put(a, named(mesh, *spec)), rand)
    ours, theirs = shardpy.jit(f)(*args), jax.jit(f)(*args)
    assert ours.sharding == theirs.sharding, (ours.sharding.spec, theirs.sharding.spec)
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-4, atol=1e-4)


def test_second_call_with_the_same_signature_reuses_the_program(mesh):
    x, w1, w2 = arrays(mesh, *LAYOUTS["dp"])
    f = shardpy.jit(mlp)
    f(x, w1, w2)
    f(x + 1.0, w1, w2)
    assert len(f._cache) == 1
    f(x[:8], w1, w2)  # a new shape: a new program
    assert len(f._cache) == 2


def test_static_and_donated_arguments(mesh):
    x, w1, w2 = arrays(mesh, *LAYOUTS["dp"])

    def scaled(x, w1, w2, factor):
        return mlp(x, w1, w2) * factor

    f = shardpy.jit(scaled, static_argnums=3, donate_argnums=0)
    expected = np.asarray(jax.jit(mlp)(x, w1, w2)) * 3.0
    out = f(x, w1, w2, 3.0)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-5, atol=1e-4)



def test_donated_uncommitted_arguments(mesh):
    """Donated arrays made on the default device (optax's adafactor state comes out of
    tx.init so) that the program shards: JAX aliases each with a result of the same
    per-device shape, read off the argument's sharding, so they are placed first (they
    were aliased as whole arrays with a replicated result: XLA rejected the sizes), at
    a call and at compile()."""
    w = jax.device_put(jnp.arange(64.0), named(mesh, ("data", "model")))
    r = jax.device_put(jnp.arange(64.0), named(mesh))

    def f(w, r, a, b):
        return a + w, b + r  # a sharded like w, b replicated like r

    def fresh():
        return jnp.ones(64), jnp.ones(64)  # uncommitted

    expected = jax.jit(f, donate_argnums=(2, 3))(w, r, *fresh())
    g = shardpy.jit(f, donate_argnums=(2, 3))
    compiled = g.lower(w, r, *fresh()).compile()
    for out in (g(w, r, *fresh()), compiled(w, r, *fresh())):
        for ours, theirs in zip(out, expected):
            np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
            assert ours.sharding == theirs.sharding

def test_lower_exposes_both_modules_and_the_report(mesh):
    x, w1, w2 = arrays(mesh, *LAYOUTS["megatron"])
    lowered = shardpy.jit(mlp, out_shardings=named(mesh, "data", None)).lower(x, w1, w2)
    assert "sdy.mesh" in lowered.global_module
    assert "stablehlo.all_reduce" in lowered.partitioned_module
    assert lowered.report["collectives"]["all_reduce"]["count"] == 1


def test_lowered_and_compiled_mirror_jax_stages(mesh):
    """Lowered.as_text() is JAX's global module (per_device=True: shardpy's), compile()
    gives XLA's executable with jax.stages.Compiled's API, lowering needs no arrays
    (ShapeDtypeStructs with shardings), and the report counts collectives before and
    after XLA's optimizations."""
    x, w1, w2 = arrays(mesh, *LAYOUTS["megatron"])
    abstract = [jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=a.sharding)
                for a in (x, w1, w2)]
    f = shardpy.jit(mlp, out_shardings=named(mesh, "data", None))
    lowered = f.lower(*abstract)
    theirs = jax.jit(mlp, out_shardings=named(mesh, "data", None)).lower(*abstract)
    assert lowered.as_text() == theirs.as_text()
    assert lowered.as_text(debug_info=True) == lowered.global_module
    assert "sdy.mesh" in lowered.as_text() and "sdy.mesh" in theirs.as_text()
    assert "stablehlo.all_reduce" in lowered.as_text(per_device=True)
    with pytest.raises(ValueError, match="dialect='stablehlo'"):
        lowered.as_text(dialect="hlo")
    compiled = lowered.compile()
    assert isinstance(compiled, shardpy.Compiled) and lowered.compile() is compiled
    assert "all-reduce" in compiled.as_text()
    reference = theirs.compile()
    assert compiled.cost_analysis()["flops"] > 0
    assert compiled.memory_analysis().argument_size_in_bytes == \
        reference.memory_analysis().argument_size_in_bytes
    args_shardings, kwargs_shardings = compiled.input_shardings
    assert kwargs_shardings == {} and len(args_shardings) == 3
    assert [s.spec for s in args_shardings] == [a.sharding.spec for a in (x, w1, w2)]
    assert compiled.output_shardings == named(mesh, "data", None)
    out = compiled(x, w1, w2)
    np.testing.assert_allclose(np.asarray(out), np.asarray(jax.jit(mlp)(x, w1, w2)),
                               rtol=1e-5, atol=1e-4)
    report = compiled.report
    assert report["before_xla"]["all_reduce"]["count"] == 1
    assert report["after_xla"]["all_reduce"]["count"] >= 1


def test_compile_takes_an_uncommitted_array(mesh):
    """An array made on the default device (an optimizer's step count) beside sharded
    ones: it moves where the program runs, at compile() as at a call."""
    x, w1, w2 = arrays(mesh, *LAYOUTS["fsdp"])
    step = jnp.int32(3)
    f = shardpy.jit(lambda x, w1, w2, n: mlp(x, w1, w2) * n)
    compiled = f.lower(x, w1, w2, step).compile()
    np.testing.assert_allclose(np.asarray(compiled(x, w1, w2, step)),
                               np.asarray(f(x, w1, w2, step)), rtol=1e-6)


def test_static_and_donated_arguments_by_name(mesh):
    """static_argnames / donate_argnames resolve to positions as in jax.jit, and keyword
    arguments (defaults filled in) reach the same cached program as positional ones."""
    x, w1, w2 = arrays(mesh, *LAYOUTS["fsdp"])

    def scaled(x, w1, w2, factor=2.0):
        return mlp(x, w1, w2) * factor

    f = shardpy.jit(scaled, static_argnames="factor", donate_argnames=("x",))
    g = jax.jit(scaled, static_argnames="factor", donate_argnames=("x",))
    assert f.static_argnums == (3,) and f.donate_argnums == (0,)
    for kwargs in ({}, {"factor": 3.0}):
        ours = f(jnp.copy(x), w1, w2, **kwargs)
        theirs = g(jnp.copy(x), w1, w2, **kwargs)
        np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-5,
                                   atol=1e-4)
    f(jnp.copy(x), w1=w1, w2=w2, factor=3.0)
    assert len(f._cache) == 2  # (factor 2.0 by default, 3.0 by position and by name)
    with pytest.raises(ValueError, match="no positional parameter of that name"):
        shardpy.jit(scaled, static_argnames="scale")


def test_keyword_only_arguments_dynamic_and_static(mesh):
    """Keyword-only parameters are arguments like the others (dynamic: part of the
    program, in key order, as jax flattens them; named static: part of the cache key)."""
    x, w1, w2 = arrays(mesh, *LAYOUTS["megatron"])

    def layer(x, *, w1, w2, act="relu", scale):
        h = x @ w1
        h = jax.nn.relu(h) if act == "relu" else jnp.tanh(h)
        return (h @ w2) * scale

    f = shardpy.jit(layer, static_argnames="act")
    g = jax.jit(layer, static_argnames="act")
    for act in ("relu", "tanh"):
        ours = f(x, w1=w1, w2=w2, act=act, scale=jnp.float32(0.5))
        theirs = g(x, w1=w1, w2=w2, act=act, scale=jnp.float32(0.5))
        np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-5,
                                   atol=1e-4)
        assert ours.sharding == theirs.sharding
    assert len(f._cache) == 2
    compiled = f.lower(x, w2=w2, w1=w1, scale=jnp.float32(0.5)).compile()
    np.testing.assert_allclose(
        np.asarray(compiled(x, w1=w1, w2=w2, scale=jnp.float32(0.5))),
        np.asarray(g(x, w1=w1, w2=w2, scale=jnp.float32(0.5))), rtol=1e-5, atol=1e-4)
    with pytest.raises(TypeError, match="w1 is a str"):  # (jax.jit: "at path w1")
        f(x, w1="w1", w2=w2, scale=1.0)


@pytest.mark.parametrize("keep_unused", [False, True])
@pytest.mark.filterwarnings("ignore:Some donated buffers were not usable")  # (jax's, kept)
def test_unused_arguments_as_jax_jit_keeps_them(mesh, keep_unused):
    """Without keep_unused (jax.jit's default) an argument the function never reads is
    dropped from the program, even when donated; input_shardings say None for it, as
    jax's do."""
    x, w1, w2 = arrays(mesh, *LAYOUTS["fsdp"])

    def first_layer(x, w1, w2):
        return x @ w1

    f = shardpy.jit(first_layer, donate_argnums=(2,), keep_unused=keep_unused)
    g = jax.jit(first_layer, donate_argnums=(2,), keep_unused=keep_unused)
    lowered = f.lower(x, w1, w2)
    theirs_lowered = g.lower(x, w1, w2)
    main = lowered.as_text().split("func.func public @main(")[1].split(") ->")[0]
    assert ("%arg2" in main) == keep_unused
    assert lowered.as_text() == theirs_lowered.as_text()
    ours = f(x, w1, jnp.copy(w2))
    theirs = g(x, w1, jnp.copy(w2))
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-5, atol=1e-4)
    compiled = lowered.compile()
    assert compiled.input_shardings == theirs_lowered.compile().input_shardings
    np.testing.assert_allclose(np.asarray(compiled(x, w1, w2)), np.asarray(theirs),
                               rtol=1e-5, atol=1e-4)


def dropout_step(state, x):
    """A dropout layer's forward and a new key, with the key inside a pytree."""
    key, rest = jax.random.split(state["key"])
    keep = jax.random.bernoulli(key, 0.75, x.shape)
    return {"key": rest, "step": state["step"] + 1}, jnp.where(keep, x / 0.75, 0.0)


def test_typed_keys_in_and_out_match_jax_jit(mesh):
    """Typed PRNG keys (jax.random.key) in a pytree, in and out, replicated or sharded:
    the same bits as jax.jit draws, and keys come back typed."""
    x, _, _ = arrays(mesh, *LAYOUTS["fsdp"])
    state = {"key": jax.random.key(3), "step": jnp.int32(0)}
    ours, theirs = shardpy.jit(dropout_step)(state, x), jax.jit(dropout_step)(state, x)
    assert ours[0]["key"].dtype == theirs[0]["key"].dtype
    np.testing.assert_array_equal(jax.random.key_data(ours[0]["key"]),
                                  jax.random.key_data(theirs[0]["key"]))
    np.testing.assert_array_equal(np.asarray(ours[1]), np.asarray(theirs[1]))
    assert ours[1].sharding == theirs[1].sharding
    # one key per batch shard, sharded like the batch
    keys = jax.device_put(jax.random.split(jax.random.key(5), 16), named(mesh, "data"))

    def per_row(keys, x):
        bits = jax.vmap(lambda k: jax.random.uniform(k, (x.shape[1],)))(keys)
        return jax.vmap(lambda k: jax.random.fold_in(k, 1))(keys), x * bits

    ours, theirs = shardpy.jit(per_row)(keys, x), jax.jit(per_row)(keys, x)
    np.testing.assert_array_equal(jax.random.key_data(ours[0]),
                                  jax.random.key_data(theirs[0]))
    np.testing.assert_allclose(np.asarray(ours[1]), np.asarray(theirs[1]), rtol=1e-6)
    assert ours[1].sharding == theirs[1].sharding  # an unspecified result, chosen alike
    # (The new keys: JAX constrains key data to <@empty_mesh, [{?}, {}]>, an open
    # sharding on the empty mesh, which shardpy does not fill in yet (issue 16), so they
    # come back whole where jax.jit's are sharded like the batch.)
    assert ours[0].dtype == theirs[0].dtype


def test_nnx_dropout_train_step_matches_jax_jit(mesh):
    nnx = pytest.importorskip("flax.nnx")
    optax = pytest.importorskip("optax")

    class Net(nnx.Module):
        def __init__(self, rngs):
            self.linear = nnx.Linear(32, 32, rngs=rngs)
            self.dropout = nnx.Dropout(0.25, rngs=rngs)

        def __call__(self, x):
            return self.dropout(self.linear(x))

    def make():
        model = Net(nnx.Rngs(params=0, dropout=1))
        return model, nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)

    def train_step(graphdef, state, x):
        model, optimizer = nnx.merge(graphdef, state)
        loss, grads = nnx.value_and_grad(lambda m: jnp.mean(m(x) ** 2))(model)
        optimizer.update(model, grads)
        return loss, nnx.state((model, optimizer))

    x, _, _ = arrays(mesh, *LAYOUTS["fsdp"])
    results = []
    for jit in (jax.jit, shardpy.jit):
        graphdef, state = nnx.split(make())
        step = jit(train_step, static_argnums=0)
        losses = []
        for _ in range(2):
            loss, state = step(graphdef, state, x)
            losses.append(float(loss))
        results.append((losses, state))
    (jax_losses, jax_state), (our_losses, our_state) = results
    np.testing.assert_allclose(our_losses, jax_losses, rtol=1e-5)
    for a, b in zip(jax.tree_util.tree_leaves(jax_state), jax.tree_util.tree_leaves(our_state)):
        if jax.dtypes.issubdtype(a.dtype, jax.dtypes.prng_key):
            a, b = jax.random.key_data(a), jax.random.key_data(b)
        np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=1e-5, atol=1e-6)


def test_non_array_argument_is_a_type_error_naming_its_path(mesh):
    # Named as jax.jit names them ("... passed to the function at path meta['name']"):
    # by parameter, then the path into it; past the named parameters, by position.
    x, _, _ = arrays(mesh, *LAYOUTS["dp"])
    with pytest.raises(TypeError, match=r"shardpy.jit: meta\['name'\] is a str"):
        shardpy.jit(lambda a, meta: a)(x, {"name": "hello"})
    with pytest.raises(TypeError, match=r"shardpy.jit: args\[2\] is a str"):
        shardpy.jit(lambda a, *rest: a)(x, x, "hello")


def test_unhashable_static_argument_is_a_value_error_as_in_jax(mesh):
    x, _, _ = arrays(mesh, *LAYOUTS["dp"])
    f = lambda a, sizes: a * len(sizes)  # noqa: E731
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        jax.jit(f, static_argnums=1)(x, [1, 2])
    with pytest.raises(ValueError, match="static argument sizes of type list is not hashable"):
        shardpy.jit(f, static_argnums=1)(x, [1, 2])


def test_shardings_on_two_meshes_as_jax_jit(mesh):
    # Two meshes over the same devices, even with the same axis names in other sizes
    # (shardpy.jit refused them before: "needs one mesh"; test_jit_meshes.py has more).
    other = jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
    shardings = (named(mesh, "data", None), named(other, None, "model"), named(mesh, None, None))
    x, w1, w2 = (jax.device_put(np.asarray(a), s)
                 for a, s in zip(arrays(mesh, *LAYOUTS["dp"]), shardings))
    out = named(other, "data", None)
    ours = shardpy.jit(mlp, in_shardings=shardings, out_shardings=out)(x, w1, w2)
    theirs = jax.jit(mlp, in_shardings=shardings, out_shardings=out)(x, w1, w2)
    assert ours.sharding == theirs.sharding == out
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-4, atol=1e-4)


def test_spec_naming_a_missing_axis_is_a_value_error(mesh):
    x, w1, w2 = arrays(mesh, *LAYOUTS["dp"])
    with jax.set_mesh(mesh):
        with pytest.raises(ValueError, match="nope"):
            shardpy.jit(mlp, in_shardings=(P("nope"), P(), P()))(x, w1, w2)


def test_partition_specs_with_the_ambient_mesh_and_pytrees(mesh):
    x, w1, w2 = arrays(mesh, *LAYOUTS["megatron"])

    def f(x, params):
        return mlp(x, params["w1"], params["w2"])

    with jax.set_mesh(mesh):
        shardings = (P("data", None), {"w1": P(None, "model"), "w2": P("model", None)})
        out = shardpy.jit(f, in_shardings=shardings, out_shardings=P("data", None))(
            x, {"w1": w1, "w2": w2})
    np.testing.assert_allclose(np.asarray(out), np.asarray(jax.jit(mlp)(x, w1, w2)),
                               rtol=1e-5, atol=1e-4)
    assert out.sharding.spec == P("data", None)


def test_out_shardings_come_back_as_given(mesh):
    # jax.jit returns a result given an out_sharding with that sharding's own spec:
    # P() for a rank-1 result stayed P() there and read P(None) here, not == (a
    # program with no arguments, its mesh from out_shardings alone).
    given = (named(mesh), named(mesh, "data"), named(mesh, None, "model", None))

    def f():
        return jnp.ones((4,)), jnp.arange(128.0).reshape(8, 16), jnp.zeros((2, 8, 4))

    ours = shardpy.jit(f, out_shardings=given)()
    theirs = jax.jit(f, out_shardings=given)()
    for o, t, g in zip(ours, theirs, given):
        assert o.sharding == t.sharding == g
        np.testing.assert_array_equal(np.asarray(o), np.asarray(t))


def test_explicit_axis_mesh_and_unsharded_inputs():
    if len(jax.devices()) < 8:
        pytest.skip("needs 8 CPU devices")
    mesh = jax.make_mesh((2, 4), ("data", "model"),
                         axis_types=(AxisType.Explicit,) * 2)
    rng = np.random.default_rng(3)
    x, w1, w2 = (jnp.asarray(rng.standard_normal(s, np.float32))
                 for s in ((16, 32), (32, 64), (64, 32)))
    f = shardpy.jit(mlp, in_shardings=(named(mesh, "data", None), named(mesh, None, "model"),
                                       named(mesh, "model", None)))
    np.testing.assert_allclose(np.asarray(f(x, w1, w2)), np.asarray(mlp(x, w1, w2)),
                               rtol=1e-5, atol=1e-4)


def test_uneven_dims_at_the_boundary(mesh):
    """10 rows over "model"=4 and 5 columns over "data"=2 (padded shards inside): the
    per-device @main takes and returns padded shards, which shard_map cannot split, so
    shardpy.jit pads the arguments before it and slices the results after it."""
    rng = np.random.default_rng(5)
    x = jnp.asarray(rng.standard_normal((10, 5), np.float32))
    w = jnp.asarray(rng.standard_normal((5, 7), np.float32))

    def f(x, w):
        x = jax.lax.with_sharding_constraint(jnp.tanh(x), named(mesh, "model", "data"))
        y = jax.lax.with_sharding_constraint(x @ w, named(mesh, "model", None))
        return y, jnp.sum(x, axis=0)

    jitted = shardpy.jit(f, in_shardings=(named(mesh), named(mesh)))
    lowered = jitted.lower(x, w)
    assert "tensor<3x" in lowered.partitioned_module  # 10 over 4: shards of 3
    got = jitted(x, w)
    want = jax.jit(f)(x, w)
    for g, e in zip(got, want):
        assert g.shape == e.shape
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=1e-5, atol=1e-5)


def _empty_dims(x, y, z):
    """Size-zero dims through the ops JAX programs use on them (issue 19, item 3)."""
    return (x.sum(axis=1),                        # sum over nothing: zeros
            jnp.max(x, axis=1, initial=-1.0),     # max over nothing: the initial value
            x.reshape(0, 4),                      # (8, 0) -> (0, 4)
            x @ y,                                # zero contracting dim: zeros (8, 4)
            jnp.concatenate([x, z], axis=1),      # an empty operand
            z[:, 2:2].T,                          # slice to size zero, transpose
            jnp.broadcast_to(x[None], (3, 8, 0)) * 2.0,
            jnp.exp(x).sum())


@pytest.mark.parametrize("x_spec", [("data", None), (None, "model"), ()])
def test_size_zero_dims_match_jax_jit(mesh, x_spec):
    """jnp.zeros((8, 0)) sharded on its non-empty dim, on its empty dim, or replicated:
    the same values and shapes as jax.jit (empty values do not cross the shard_map,
    whose manual body XLA would otherwise reject)."""
    x = jax.device_put(jnp.zeros((8, 0), jnp.float32), named(mesh, *x_spec))
    y = jax.device_put(jnp.zeros((0, 4), jnp.float32), named(mesh, None, "model"))
    z = jax.device_put(jnp.arange(32, dtype=jnp.float32).reshape(8, 4),
                       named(mesh, "data", "model"))
    shardings = (x.sharding, y.sharding, z.sharding)
    got = shardpy.jit(_empty_dims, in_shardings=shardings)(x, y, z)
    want = jax.jit(_empty_dims, in_shardings=shardings)(x, y, z)
    for g, e in zip(got, want):
        assert g.shape == e.shape and g.dtype == e.dtype
        np.testing.assert_array_equal(np.asarray(g), np.asarray(e))
    assert np.all(np.asarray(got[1]) == -1.0) and not np.asarray(got[3]).any()


@pytest.mark.parametrize("axis,reverse", [(0, False), (1, False), (1, True)])
def test_associative_scan_over_sharded_dims(mesh, axis, reverse):
    """lax.associative_scan splits a dim into odd and even elements down to one, then
    slices that one to nothing with a stride: on a sharded dim such a slice crashed
    shardpy-to-local (test/Regressions/empty_strided_slice_of_sharded_dim.mlir)."""
    data = np.random.default_rng(3).standard_normal((8, 16)).astype(np.float32)
    x = jax.device_put(data, named(mesh, "data", "model"))

    def f(v):
        return (jax.lax.associative_scan(jnp.add, v, axis=axis, reverse=reverse),
                jax.lax.associative_scan(jnp.maximum, v, axis=axis, reverse=reverse))

    for ours, theirs in zip(shardpy.jit(f)(x), jax.jit(f)(x)):
        np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-5,
                                   atol=1e-5)
        assert ours.sharding == theirs.sharding


def _model(x, w):
    return jnp.tanh(x @ w)


@pytest.mark.parametrize("how", ["grad", "vmap", "jvp", "jit_of_grad", "shardpy_of_grad",
                                 "value_and_grad_in_scan"])
def test_composes_with_transformations_outside(mesh, how):
    """jax.grad, jax.vmap, jax.jvp applied to a shardpy.jit function, directly or under
    an outer jit, as they apply to a jax.jit one (they raised "Differentiation rule for
    'shardpy_per_device' not implemented" / "Batching rule ... not implemented")."""
    rng = np.random.default_rng(5)
    x = jax.device_put(rng.standard_normal((8, 16), np.float32), named(mesh, "data", None))
    w = jax.device_put(rng.standard_normal((16, 8), np.float32), named(mesh, None, "model"))

    def outputs(jit):
        model = jit(_model)

        def loss(w):
            return (model(x, w) ** 2).sum()
        if how == "grad":
            return jax.grad(loss)(w)
        if how == "vmap":
            return jax.vmap(model, in_axes=(None, 0))(x, jnp.stack([w, 2 * w]))
        if how == "jvp":
            return jax.jvp(lambda w: model(x, w), (w,), (jnp.ones_like(w),))
        if how == "jit_of_grad":
            return jax.jit(jax.grad(loss))(w)
        if how == "shardpy_of_grad":
            return shardpy.jit(jax.grad(loss))(w)

        def step(w, _):
            value, g = jax.value_and_grad(loss)(w)
            return w - 0.1 * g, value
        return jax.lax.scan(step, w, None, length=2)

    for ours, theirs in zip(jax.tree_util.tree_leaves(outputs(shardpy.jit)),
                            jax.tree_util.tree_leaves(outputs(jax.jit)), strict=True):
        np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-5,
                                   atol=1e-5)


def test_lower_under_a_transformation_says_what_to_do(mesh):
    x = jax.device_put(np.ones((8, 16), np.float32), named(mesh, "data", None))
    f = shardpy.jit(lambda v: (v ** 2).sum())

    def probe(v):
        f.lower(v)
        return v.sum()
    with pytest.raises(ValueError, match=r"lower the transformed function instead"):
        jax.grad(probe)(x)


@pytest.mark.parametrize("where", ["out_shardings", "device_put"])
def test_results_offloaded_to_host_memory(mesh, where):
    """A result in pinned host memory (out_shardings with memory_kind="pinned_host", or a
    jax.device_put to it in the program) comes back there, as from jax.jit (it came back
    in device memory: the executor's out_shardings had no memory kind)."""
    x = jax.device_put(np.arange(128, dtype=np.float32).reshape(8, 16),
                       named(mesh, "data", "model"))
    host = NamedSharding(mesh, P("data", None), memory_kind="pinned_host")

    def f(a):
        if where == "out_shardings":
            return a * 2, a + 1
        h = jax.device_put(a * 2, host)
        return h, jax.device_put(h, host.with_memory_kind("device")) + 1

    kw = {"out_shardings": (host, named(mesh, "data", None))} if where == "out_shardings" \
        else {}
    ours, theirs = shardpy.jit(f, **kw)(x), jax.jit(f, **kw)(x)
    for o, t in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(np.asarray(o), np.asarray(t))
        assert o.sharding == t.sharding
    assert ours[0].sharding.memory_kind == "pinned_host"


def _custom_ops():
    """custom_partitioning ops as libraries write them: (name, op, argument specs)."""
    from jax.experimental.custom_partitioning import custom_partitioning

    @custom_partitioning
    def row_fft(x):
        return jnp.fft.fft(x).real

    def row_spec(mesh_, sharding):
        spec = tuple(sharding.spec) + (None,)
        return NamedSharding(mesh_, P(spec[0], None))

    def fft_partition(mesh_, args, result):
        # Rows stay where they are; each device needs whole rows.
        s = row_spec(mesh_, args[0].sharding)
        return mesh_, lambda x: jnp.fft.fft(x).real, s, (s,)
    row_fft.def_partition(partition=fft_partition,
                          infer_sharding_from_operands=lambda m, a, r: row_spec(
                              m, a[0].sharding),
                          sharding_rule="b n -> b n")

    @custom_partitioning
    def rowsum_and_scale(x, s):
        return x.sum(1), x * s

    def rowsum_partition(mesh_, args, result):
        # Rows and columns stay; the row sums are finished by a psum inside the rule.
        spec = tuple(args[0].sharding.spec) + (None, None)
        row, col = spec[0], spec[1]

        def lower(x, s):
            total = x.sum(1)
            return (jax.lax.psum(total, col) if col is not None else total), x * s
        both = NamedSharding(mesh_, P(row, col))
        return mesh_, lower, (NamedSharding(mesh_, P(row)), both), (both,
                                                                  NamedSharding(mesh_, P()))
    rowsum_and_scale.def_partition(
        partition=rowsum_partition,
        infer_sharding_from_operands=lambda m, a, r: (
            NamedSharding(m, P((tuple(a[0].sharding.spec) + (None,))[0])), a[0].sharding),
        sharding_rule="i j, -> i, i j")
    return {
        "fft": (lambda a: row_fft(a) + 1, ("data", "model")),
        "fft_of_sum": (lambda a: row_fft(a * 2).sum(0), (None, "model")),
        "psum_in_rule": (lambda a: rowsum_and_scale(jnp.tanh(a), jnp.float32(3)),
                         ("data", "model")),
        "psum_rows_whole": (lambda a: rowsum_and_scale(a, jnp.float32(-1)), (None, "model")),
    }


@pytest.mark.parametrize("name", ["fft", "fft_of_sum", "psum_in_rule", "psum_rows_whole"])
def test_custom_partitioning_by_its_rule(mesh, name):
    """jax.experimental.custom_partitioning ops outside shard_map are partitioned by the
    rule they register, as XLA does: operands resharded to what it wants, its per-shard
    computation (psums included) on every device, results from its sharding. Before,
    the op was left in the per-device program and XLA failed calling the rule
    (JaxRuntimeError INTERNAL)."""
    fun, spec = _custom_ops()[name]
    data = np.random.default_rng(11).standard_normal((8, 16)).astype(np.float32)
    x = jax.device_put(data, named(mesh, *spec))
    ours, theirs = shardpy.jit(fun)(x), jax.jit(fun)(x)
    for o, t in zip(jax.tree_util.tree_leaves(ours), jax.tree_util.tree_leaves(theirs),
                    strict=True):
        np.testing.assert_allclose(np.asarray(o), np.asarray(t), rtol=1e-5, atol=1e-4)
        assert o.sharding == t.sharding
    lowered = shardpy.jit(fun).lower(x)
    assert "CustomSPMDPartitioning" not in lowered.partitioned_module
    assert "@custom_partitioned" in lowered.partitioned_module


_LAYOUTS = [(), ("data",), ("model",), ("data", "model"), ("model", "data"),
            (("data", "model"),), (None, "model"), (None, ("model", "data"))]


@pytest.mark.parametrize("seed", range(16))
def test_custom_partitioning_drawn_programs(mesh, seed):
    """Drawn: the input's layout, which custom op, and what reads its results (a matmul,
    a transpose, a reduction over either dim); outputs and shardings as jax.jit's."""
    rng = np.random.default_rng(seed)
    ops = _custom_ops()
    name = sorted(ops)[rng.integers(len(ops))]
    fun = ops[name][0]
    reader = ("matmul", "transpose", "sum0", "sum1")[rng.integers(4)]

    def program(a):
        out = fun(jnp.sin(a))
        first = jax.tree_util.tree_leaves(out)[0]
        if first.ndim == 1:
            first = a * first[:, None] if first.shape[0] == a.shape[0] else a * first
        if reader == "matmul":
            return first @ a.T, out
        if reader == "transpose":
            return first.T * 2, out
        return first.sum(0 if reader == "sum0" else 1), out

    data = rng.standard_normal((8, 16)).astype(np.float32)
    x = jax.device_put(data, named(mesh, *_LAYOUTS[rng.integers(len(_LAYOUTS))]))
    ours, theirs = shardpy.jit(program)(x), jax.jit(program)(x)
    for o, t in zip(jax.tree_util.tree_leaves(ours), jax.tree_util.tree_leaves(theirs),
                    strict=True):
        np.testing.assert_allclose(np.asarray(o), np.asarray(t), rtol=1e-4, atol=1e-4)
        assert o.sharding == t.sharding


@pytest.mark.parametrize("program", ["grouped_conv_gradient", "reshape_splits_an_axis"])
def test_results_propagation_puts_on_sub_axes(mesh, program):
    """A result without out_shardings is laid out by propagation, which may put it on
    sub-axes (y=4 split 2x2 over two dims): no PartitionSpec expresses that, and
    shardpy.jit raised "out0 is sharded on a sub-axis". Such a result is now laid out
    on the whole axes it has before its first sub-axis (partition_module partitions
    again), as jax.jit's comes out."""
    rng = np.random.default_rng(2)
    if program == "grouped_conv_gradient":
        x = jax.device_put(rng.standard_normal((8, 6, 6, 4), np.float32),
                           named(mesh, "data", None, None, "model"))

        def f(x):
            return jax.grad(lambda w: jax.lax.conv_general_dilated(
                x, w, (1, 1), "SAME", feature_group_count=2,
                dimension_numbers=("NHWC", "HWIO", "NHWC")).sum())(
                    jnp.ones((3, 3, 2, 8), jnp.float32))
    else:
        x = jax.device_put(rng.standard_normal((8, 16), np.float32),
                           named(mesh, "data", "model"))

        def f(x):
            return jnp.tanh(x).reshape(8, 2, 8) * 2
    ours, theirs = shardpy.jit(f)(x), jax.jit(f)(x)
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-5, atol=1e-4)
    assert ours.sharding == theirs.sharding


def test_results_without_elements_come_out_replicated(mesh):
    """A result with no elements and no out_shardings: jax.jit returns it replicated
    (shardpy.jit returned the layout propagation gave it, P('data', None))."""
    e = jax.device_put(np.zeros((8, 0), np.float32), named(mesh, "data", None))
    x = jax.device_put(np.ones((8, 16), np.float32), named(mesh, "data", "model"))

    def f(e, x):
        return e * 3, x.sum() * 2, jnp.zeros((0, 4)) + 1, x * 2

    for ours, theirs in zip(shardpy.jit(f)(e, x), jax.jit(f)(e, x), strict=True):
        np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
        assert ours.sharding == theirs.sharding


@pytest.mark.parametrize("layout", ["single_device", "permuted", "subset", "three_axes",
                                    "six_devices", "one_device_mesh"])
def test_device_layouts(mesh, layout):
    """Arguments on one device (jax.jit runs there: shardpy.jit said "no mesh", the
    program's only mesh being JAX's empty one), on a mesh with its devices in another
    order, on some of the devices, on three axes, on six devices, on a mesh of one."""
    from jax.sharding import AxisType, Mesh

    devices = np.array(jax.devices())
    auto = (AxisType.Auto,) * 3
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((8, 12), np.float32), rng.standard_normal((12, 6), np.float32)
    if layout == "single_device":
        args = jax.device_put(a, devices[5]), jax.device_put(b, devices[5])
    else:
        m, specs = {
            "permuted": (Mesh(devices[[3, 1, 7, 5, 0, 2, 6, 4]].reshape(2, 4), ("x", "y"),
                              axis_types=auto[:2]), (("x", "y"), ("y", None))),
            "subset": (Mesh(devices[4:8].reshape(2, 2), ("x", "y"), axis_types=auto[:2]),
                       (("x", "y"), ("y", None))),
            "three_axes": (jax.make_mesh((2, 2, 2), ("a", "b", "c"), axis_types=auto),
                           ((("a", "c"), "b"), ("b", "c"))),
            "six_devices": (Mesh(devices[:6].reshape(2, 3), ("x", "y"), axis_types=auto[:2]),
                            (("x", "y"), ("y", None))),
            "one_device_mesh": (Mesh(devices[2:3].reshape(1, 1), ("x", "y"),
                                     axis_types=auto[:2]), (("x", "y"), ("y", None))),
        }[layout]
        args = (jax.device_put(a, NamedSharding(m, P(*specs[0]))),
                jax.device_put(b, NamedSharding(m, P(*specs[1]))))

    def f(a, b):
        return jnp.tanh(a @ b).sum(0), a * 2
    for ours, theirs in zip(shardpy.jit(f)(*args), jax.jit(f)(*args), strict=True):
        np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-5, atol=1e-5)
        assert ours.sharding == theirs.sharding


def test_jax_jit_attributes(mesh):
    """trace(), eval_shape(), clear_cache() and __wrapped__, as jax.jit's object has
    them (they were missing)."""
    x = jax.device_put(np.arange(32, dtype=np.float32).reshape(8, 4), named(mesh, "data", None))

    def f(v):
        return jnp.tanh(v) @ v.T

    ours, theirs = shardpy.jit(f), jax.jit(f)
    assert ours.__wrapped__ is f
    shape = ours.eval_shape(x)
    assert (shape.shape, shape.dtype) == (theirs.eval_shape(x).shape, np.float32)
    traced = ours.trace(x)
    assert str(traced.jaxpr) == str(theirs.trace(x).jaxpr)
    lowered = traced.lower()
    assert "shardpy.per_device" in lowered.partitioned_module
    np.testing.assert_allclose(np.asarray(lowered.compile()(x)), np.asarray(theirs(x)),
                               rtol=1e-5)
    ours(x)
    ours.clear_cache()
    assert not ours._cache
    np.testing.assert_allclose(np.asarray(ours(x)), np.asarray(theirs(x)), rtol=1e-5)
