"""Randomized property tests: sort, top_k, argmax/argmin and while loops with sharded
carries, partitioned by shardpy and run on 8 CPU devices, equal to the unpartitioned
program on one device, exactly.

Each case is a small module made from a seed: random shapes, a random sharding of the
operand over a 2x4 or 2x2x2 mesh (the selected dim sharded or not), a random sharding
of the results, and inputs full of ties (a handful of values, +-0, +-inf, NaNs of both
signs; small integers), so that the order among equal keys, the leftmost NaN and the
lowest index of a tie are all exercised. A case also fails if shardpy computes one of
these ops replicated (a "computed replicated" warning): they all have a local form.

    pytest test/python/lowering/test_select.py -k top_k
"""
from __future__ import annotations

import random

import numpy as np
import pytest

MESHES = {
    "x2_y4": (("x", 2), ("y", 4)),
    "a2_b2_c2": (("a", 2), ("b", 2), ("c", 2)),
}
FLOATS = np.array([-np.inf, -2.0, -1.0, -0.0, 0.0, 1.0, 2.0, np.inf], np.float32)
CASES = 16  # per family


# --------------------------------------------------------------------------- shardings


def _mesh_line(name: str) -> str:
    axes = ", ".join(f'"{a}"={n}' for a, n in MESHES[name])
    return f"sdy.mesh @{name} = <[{axes}]>"


def _random_dims(rng: random.Random, mesh: str, shape, must=None, never=()):
    """Axes per dim: each mesh axis goes to a random dim that it divides (or nowhere);
    `must`: a dim that gets at least one axis when one divides it."""
    dims = [[] for _ in shape]
    left = list(shape)
    axes = list(MESHES[mesh])
    rng.shuffle(axes)
    for i, (axis, size) in enumerate(axes):
        choices = [d for d in range(len(shape)) if left[d] % size == 0 and d not in never]
        if not choices:
            continue
        if must is not None and i == 0 and must in choices:
            d = must
        elif rng.random() < 0.25:
            continue
        else:
            d = rng.choice(choices)
        dims[d].append(axis)
        left[d] //= size
    return dims


def _attr(mesh: str, dims) -> str:
    inner = ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}" for d in dims)
    return f"#sdy.sharding<@{mesh}, [{inner}]>"


def _ttype(shape, element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{element}>"


def _result_attr(rng: random.Random, mesh: str, shape) -> str:
    """A random result sharding (or none: the result comes back whole)."""
    if rng.random() < 0.3:
        return ""
    return f" {{sdy.sharding = {_attr(mesh, _random_dims(rng, mesh, shape))}}}"


# --------------------------------------------------------------------------- programs


def sort_case(seed: int):
    rng = random.Random(seed)
    mesh = rng.choice(sorted(MESHES))
    rank = rng.choice([1, 2, 2, 3])
    shape = [rng.choice([8, 16]) for _ in range(rank)]
    dim = rng.randrange(rank)
    sharded_dim = rng.random() < 0.6
    dims = _random_dims(rng, mesh, shape, must=dim if sharded_dim else None,
                        never=() if sharded_dim else (dim,))
    argsort = rng.random() < 0.5
    direction = rng.choice(["LT", "GT"])
    t = _ttype(shape, "f32")
    ti = _ttype(shape, "i32")
    if argsort:
        body = f"""
  %iota = stablehlo.iota dim = {dim} : {ti}
  %s:2 = "stablehlo.sort"(%a, %iota) <{{dimension = {dim} : i64, is_stable = true}}> ({{
  ^bb0(%l: tensor<f32>, %r: tensor<f32>, %li: tensor<i32>, %ri: tensor<i32>):
    %c = stablehlo.compare {direction}, %l, %r, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }}) : ({t}, {ti}) -> ({t}, {ti})
  return %s#0, %s#1 : {t}, {ti}"""
        results = [(t, shape), (ti, shape)]
    else:
        body = f"""
  %s = "stablehlo.sort"(%a) <{{dimension = {dim} : i64, is_stable = true}}> ({{
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %c = stablehlo.compare {direction}, %l, %r, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }}) : ({t}) -> {t}
  return %s : {t}"""
        results = [(t, shape)]
    return _module(rng, mesh, [(t, shape, dims)], results, body), [("f32", shape)]


def top_k_case(seed: int):
    rng = random.Random(seed)
    mesh = rng.choice(sorted(MESHES))
    rank = rng.choice([1, 2, 2, 3])
    shape = [rng.choice([8, 16]) for _ in range(rank - 1)] + [rng.choice([16, 32, 64])]
    last = rank - 1
    sharded_dim = rng.random() < 0.6
    dims = _random_dims(rng, mesh, shape, must=last if sharded_dim else None,
                        never=() if sharded_dim else (last,))
    shards = 1
    for a in dims[last]:
        shards *= dict(MESHES[mesh])[a]
    k = rng.randint(1, max(1, shape[last] // shards) if rng.random() < 0.7 else shape[last])
    t = _ttype(shape, "f32")
    out = shape[:-1] + [k]
    tv, ti = _ttype(out, "f32"), _ttype(out, "i32")
    body = f"""
  %v, %i = chlo.top_k(%a, k = {k}) : {t} -> ({tv}, {ti})
  return %v, %i : {tv}, {ti}"""
    return _module(rng, mesh, [(t, shape, dims)], [(tv, out), (ti, out)], body), \
        [("f32", shape)]


def _arg_reduce_body(direction: str, element: str, compare_type: str) -> str:
    return f"""
   reducer(%va: tensor<{element}>, %vb: tensor<{element}>) (%ia: tensor<i32>, %ib: tensor<i32>)  {{
    %2 = stablehlo.compare {direction}, %va, %vb, {compare_type} : (tensor<{element}>, tensor<{element}>) -> tensor<i1>
    %3 = stablehlo.compare NE, %va, %va, {compare_type} : (tensor<{element}>, tensor<{element}>) -> tensor<i1>
    %4 = stablehlo.or %2, %3 : tensor<i1>
    %5 = stablehlo.compare EQ, %va, %vb, {compare_type} : (tensor<{element}>, tensor<{element}>) -> tensor<i1>
    %6 = stablehlo.compare LT, %ia, %ib, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %5, %6 : tensor<i1>
    %8 = stablehlo.or %4, %7 : tensor<i1>
    %9 = stablehlo.select %4, %va, %vb : tensor<i1>, tensor<{element}>
    %10 = stablehlo.select %8, %ia, %ib : tensor<i1>, tensor<i32>
    stablehlo.return %9, %10 : tensor<{element}>, tensor<i32>
  }}"""


def argmax_case(seed: int):
    rng = random.Random(seed)
    mesh = rng.choice(sorted(MESHES))
    rank = rng.choice([1, 2, 2, 3])
    shape = [rng.choice([8, 16, 32]) for _ in range(rank)]
    dim = rng.randrange(rank)
    sharded_dim = rng.random() < 0.7
    dims = _random_dims(rng, mesh, shape, must=dim if sharded_dim else None,
                        never=() if sharded_dim else (dim,))
    is_max = rng.random() < 0.5
    element = rng.choice(["f32", "f32", "i32"])
    compare_type = "FLOAT" if element == "f32" else "SIGNED"
    if element == "f32":
        init = "0xFF800000" if is_max else "0x7F800000"
    else:
        init = str(-2**31) if is_max else str(2**31 - 1)
    t = _ttype(shape, element)
    ti = _ttype(shape, "i32")
    out = [s for d, s in enumerate(shape) if d != dim]
    tv, tr = _ttype(out, element), _ttype(out, "i32")
    body = f"""
  %iota = stablehlo.iota dim = {dim} : {ti}
  %init = stablehlo.constant dense<{init}> : tensor<{element}>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%a init: %init), (%iota init: %zero) across dimensions = [{dim}] : ({t}, {ti}, tensor<{element}>, tensor<i32>) -> ({tv}, {tr})
{_arg_reduce_body("GT" if is_max else "LT", element, compare_type)}
  return %r#1, %r#0 : {tr}, {tv}"""
    return _module(rng, mesh, [(t, shape, dims)], [(tr, out), (tv, out)], body), \
        [(element, shape)]


def while_case(seed: int):
    """A loop of 3 steps carrying a sharded h (and a scalar-per-row accumulator):
    h = tanh(h) * w + (sorted h, or h's top-k broadcast, or its argmax) along a random
    dim, so the carries stay sharded and the loop body holds the select ops too."""
    rng = random.Random(seed)
    mesh = rng.choice(sorted(MESHES))
    shape = [rng.choice([8, 16]), rng.choice([16, 32])]
    dims = _random_dims(rng, mesh, shape)
    wdims = _random_dims(rng, mesh, shape)
    t = _ttype(shape, "f32")
    rows = _ttype([shape[0]], "f32")
    inner = rng.choice(["sort", "argmax", "top_k"])
    if inner == "sort":
        step = f"""
      %s = "stablehlo.sort"(%th) <{{dimension = 1 : i64, is_stable = true}}> ({{
      ^bb0(%l: tensor<f32>, %r: tensor<f32>):
        %c = stablehlo.compare LT, %l, %r, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %c : tensor<i1>
      }}) : ({t}) -> {t}
      %m = stablehlo.multiply %s, %w : {t}"""
    elif inner == "top_k":
        step = f"""
      %v, %i = chlo.top_k(%th, k = 1) : {t} -> ({_ttype([shape[0], 1], 'f32')}, {_ttype([shape[0], 1], 'i32')})
      %vb = stablehlo.reshape %v : ({_ttype([shape[0], 1], 'f32')}) -> {rows}
      %b = stablehlo.broadcast_in_dim %vb, dims = [0] : ({rows}) -> {t}
      %m = stablehlo.multiply %b, %w : {t}"""
    else:
        ti = _ttype(shape, "i32")
        step = f"""
      %iota = stablehlo.iota dim = 1 : {ti}
      %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %zero = stablehlo.constant dense<0> : tensor<i32>
      %r:2 = stablehlo.reduce(%th init: %ninf), (%iota init: %zero) across dimensions = [1] : ({t}, {ti}, tensor<f32>, tensor<i32>) -> ({rows}, {_ttype([shape[0]], 'i32')})
{_arg_reduce_body("GT", "f32", "FLOAT")}
      %fi = stablehlo.convert %r#1 : ({_ttype([shape[0]], 'i32')}) -> {rows}
      %b = stablehlo.broadcast_in_dim %fi, dims = [0] : ({rows}) -> {t}
      %m = stablehlo.multiply %b, %w : {t}"""
    body = f"""
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %acc0 = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> {rows}
  %loop:3 = stablehlo.while(%i0 = %c0, %h = %a, %acc = %acc0) : tensor<i32>, {t}, {rows}
    cond {{
      %n = stablehlo.constant dense<3> : tensor<i32>
      %lt = stablehlo.compare LT, %i0, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }} do {{
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i0, %one : tensor<i32>
      %th = stablehlo.tanh %h : {t}{step}
      %h2 = stablehlo.add %th, %m : {t}
      %zz = stablehlo.constant dense<0.0> : tensor<f32>
      %rs = stablehlo.reduce(%h2 init: %zz) applies stablehlo.add across dimensions = [1] : ({t}, tensor<f32>) -> {rows}
      %acc2 = stablehlo.add %acc, %rs : {rows}
      stablehlo.return %next, %h2, %acc2 : tensor<i32>, {t}, {rows}
    }}
  return %loop#1, %loop#2 : {t}, {rows}"""
    args = [(t, shape, dims), (t, shape, wdims)]
    return _module(rng, mesh, args, [(t, shape), (rows, [shape[0]])], body,
                   names=["%a", "%w"]), [("finite", shape), ("finite", shape)]


def _module(rng, mesh, args, results, body, names=("%a",)) -> str:
    params = ", ".join(f"{n}: {t} {{sdy.sharding = {_attr(mesh, d)}}}"
                       for n, (t, _, d) in zip(names, args))
    outs = ", ".join(f"{t}{_result_attr(rng, mesh, s)}" for t, s in results)
    return f"""{_mesh_line(mesh)}

func.func public @main({params}) -> ({outs}) {{{body}
}}
"""


def _inputs(specs, seed: int):
    rng = np.random.default_rng(seed)
    arrays = []
    for element, shape in specs:
        if element == "f32":
            x = rng.choice(FLOATS, size=shape).astype(np.float32)
            nans = rng.random(shape) < 0.05
            signs = np.where(rng.random(shape) < 0.5, 1.0, -1.0).astype(np.float32)
            x[nans] = np.copysign(np.float32(np.nan), signs)[nans]
        elif element == "finite":
            x = rng.choice(FLOATS[1:-1], size=shape).astype(np.float32)
        else:
            x = rng.integers(-2, 3, shape).astype(np.int32)
        arrays.append(x)
    return arrays


# --------------------------------------------------------------------------- running


@pytest.fixture(scope="module")
def runner():
    from shardpy.runtime import executor as runtime
    from shardpy.ir.jaxlib_bridge import make_context
    from shardpy.pipeline import Pipeline

    context = make_context()
    return context, Pipeline("builtin.module(shardpy-partition)", context), \
        runtime.Executor("cpu")


def _check(runner, text: str, inputs, inexact=(), replicated_ok=False) -> None:
    """Partition, run, compare with the reference: exactly (NaN equals NaN, the signs of
    zeros count), or for outputs in `inexact` (sums in another order) within 1e-5.
    `replicated_ok`: ops may be computed replicated (warned)."""
    from jaxlib.mlir import ir

    from shardpy.runtime import arrays
    from shardpy.runtime import executor as runtime
    from shardpy.ir.diagnostics import DiagnosticEngine
    from shardpy.passes.strip_shardings import StripShardings

    context, pipeline, executor = runner
    engine = DiagnosticEngine("case.mlir")
    with engine.capturing(context):
        module = ir.Module.parse(text, context)
        op = module.operation
        sig = runtime.signature(op)
        reference = op.clone()
        ok = pipeline.run(module, engine)
        rendered = [d.render() for d in engine.diagnostics]
        assert ok and not engine.has_errors, "\n".join(rendered) + "\n" + text
        replicated = [d for d in rendered if "computed replicated" in d]
        assert replicated_ok or not replicated, "\n".join(replicated) + "\n" + text
        with context, reference.location:
            StripShardings().run(reference)
        expected = executor.run_global(reference, inputs).outputs
        result = executor.run_per_device(op, sig, inputs)
    for i, (got, want) in enumerate(zip(result.outputs, expected)):
        if i in inexact:
            c = arrays.compare(f"out{i}", got, want, 1e-5, 1e-5)
            assert c.ok, c.line() + "\n" + text
            continue
        same = np.array_equal(got, want, equal_nan=np.issubdtype(want.dtype, np.floating))
        assert same, (f"out{i} differs\n{text}\ninputs: {inputs}\n"
                      f"got:\n{got}\nexpected:\n{want}")
        if np.issubdtype(want.dtype, np.floating):  # +0 and -0 alike, NaN signs aside
            assert np.array_equal(np.signbit(got) | np.isnan(got),
                                  np.signbit(want) | np.isnan(want)), \
                f"out{i}: signs of zeros differ\n{text}"
    for i, divergence in enumerate(result.replica_divergence):
        assert divergence == 0, f"out{i}: devices holding the same shard disagree\n{text}"


@pytest.mark.parametrize("seed", range(CASES))
def test_sort(runner, seed):
    text, specs = sort_case(seed)
    _check(runner, text, _inputs(specs, seed))


@pytest.mark.parametrize("seed", range(CASES))
def test_top_k(runner, seed):
    text, specs = top_k_case(seed)
    _check(runner, text, _inputs(specs, seed))


@pytest.mark.parametrize("seed", range(CASES))
def test_argmax_argmin(runner, seed):
    text, specs = argmax_case(seed)
    _check(runner, text, _inputs(specs, seed))


@pytest.mark.parametrize("seed", range(CASES))
def test_while_with_sharded_carries(runner, seed):
    text, specs = while_case(seed)
    _check(runner, text, _inputs(specs, seed), inexact=(1,))
