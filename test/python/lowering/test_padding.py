"""Randomized property test: uneven dims (a dim its axes do not divide, e.g. 10 over 4)
partitioned by shardpy, run on up to 8 CPU devices and compared with the unpartitioned
program on one device, exactly.

Each case is a small module made from a seed: a random mesh of 1 to 3 axes (up to 8
devices, sizes 2, 3, 4, 8), random dim sizes that mostly do not divide (1, 2, 3, 5, 6, 7,
9, 10, 11, 13), random shardings of the arguments, constraints and results (every axis
on a random dim, or nowhere, divisible or not), and one family of ops: elementwise,
reshape/transpose,
reduce (sum/max/min), argmax/argmin, dot_general (contracting and free dims), reshards
between shardings, gather (embedding rows), dynamic_slice, scatter (add/max), sort,
windowed ops (reverse, slice, pad, concatenate, reduce_window, convolution).
Values are small integers (as floats), so sums in any order are exact; index inputs
run past both ends of the operand. Devices holding the same shard must agree (the
padding never leaks into a real element).

    pytest test/python/lowering/test_padding.py -k dot
"""
from __future__ import annotations

import os
import random

import numpy as np
import pytest
from test_select import _arg_reduce_body, _check, runner  # noqa: F401

MESHES = [(("x", 4),), (("x", 3),), (("x", 8),), (("x", 2), ("y", 4)), (("x", 4), ("y", 2)),
          (("x", 3), ("y", 2)), (("x", 2), ("y", 3)), (("a", 2), ("b", 2), ("c", 2))]
SIZES = (1, 2, 3, 5, 6, 7, 9, 10, 11, 13)
CASES = int(os.environ.get("SHARDPY_UNEVEN_CASES", "16"))  # per family


class _Case:
    """One module being written: a mesh, arguments (name, type, sharding, input spec)
    and body lines."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.mesh = self.r.choice(MESHES)
        self.args: list[tuple[str, str, str]] = []
        self.specs: list[tuple[str, list[int], int, int]] = []
        self.lines: list[str] = []

    def sizes(self, n: int) -> list[int]:
        return [self.r.choice(SIZES) for _ in range(n)]

    def sharding(self, rank: int, must=None) -> str:
        """Each mesh axis on a random dim (or nowhere), dividing it or not; `must`: a
        dim that gets the first axis."""
        dims = [[] for _ in range(rank)]
        axes = [a for a, _ in self.mesh]
        self.r.shuffle(axes)
        for i, axis in enumerate(axes):
            if rank == 0:
                break
            if must is not None and i == 0:
                dims[must].append(axis)
            elif self.r.random() < 0.7:
                dims[self.r.randrange(rank)].append(axis)
        inner = ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}" for d in dims)
        return f"#sdy.sharding<@mesh, [{inner}]>"

    def arg(self, shape, element="f32", low=-2, high=2, must=None) -> str:
        name = f"%arg{len(self.args)}"
        attr = "" if self.r.random() < 0.15 else \
            f" {{sdy.sharding = {self.sharding(len(shape), must)}}}"
        self.args.append((name, ttype(shape, element), attr))
        self.specs.append((element, list(shape), low, high))
        return name

    def constraint(self, value: str, shape) -> str:
        name = f"%c{len(self.lines)}"
        self.lines.append(f"{name} = sdy.sharding_constraint {value} "
                          f"{self.sharding(len(shape))[len('#sdy.sharding'):]} : "
                          f"{ttype(shape, 'f32')}")
        return name

    def module(self, results) -> str:
        """`results`: (value, type, rank); each gets a random sharding or none."""
        mesh = ", ".join(f'"{a}"={n}' for a, n in self.mesh)
        params = ", ".join(f"{n}: {t}{a}" for n, t, a in self.args)
        outs = ", ".join(t if self.r.random() < 0.3 else
                         f"{t} {{sdy.sharding = {self.sharding(rank)}}}"
                         for _, t, rank in results)
        body = "\n  ".join(self.lines)
        values = ", ".join(v for v, _, _ in results)
        types = ", ".join(t for _, t, _ in results)
        return (f"sdy.mesh @mesh = <[{mesh}]>\n"
                f"func.func public @main({params}) -> ({outs}) {{\n  {body}\n"
                f"  return {values} : {types}\n}}\n")

    def inputs(self, seed: int) -> list[np.ndarray]:
        rng = np.random.default_rng(seed)
        return [rng.integers(low, high + 1, shape).astype(np.float32 if e == "f32" else np.int32)
                for e, shape, low, high in self.specs]


def ttype(shape, element: str) -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{element}>"


# --------------------------------------------------------------------------- families


def elementwise(c: _Case):
    shape = c.sizes(c.r.choice([1, 2, 3]))
    t = ttype(shape, "f32")
    a, b = c.arg(shape), c.arg(shape)
    c.lines += [f"%0 = stablehlo.multiply {a}, {b} : {t}", f"%1 = stablehlo.abs %0 : {t}",
                f"%2 = stablehlo.add %1, {a} : {t}"]
    return [("%2", t, len(shape))]


def reduce(c: _Case):
    rank = c.r.choice([1, 2, 3])
    shape = c.sizes(rank)
    dims = sorted(c.r.sample(range(rank), c.r.randint(1, rank)))
    a = c.arg(shape, must=c.r.choice(dims))
    reducer, init = c.r.choice([("add", "0.0"), ("maximum", "0xFF800000"),
                                ("minimum", "0x7F800000")])
    out = [s for d, s in enumerate(shape) if d not in dims]
    t, to = ttype(shape, "f32"), ttype(out, "f32")
    c.lines += [f"%init = stablehlo.constant dense<{init}> : tensor<f32>",
                f"%0 = stablehlo.reduce({a} init: %init) applies stablehlo.{reducer} across "
                f"dimensions = {dims} : ({t}, tensor<f32>) -> {to}"]
    return [("%0", to, len(out))]


def argmax(c: _Case):
    rank = c.r.choice([1, 2, 2])
    shape = c.sizes(rank)
    dim = c.r.randrange(rank)
    a = c.arg(shape, must=dim)
    is_max = c.r.random() < 0.5
    t, ti = ttype(shape, "f32"), ttype(shape, "i32")
    out = [s for d, s in enumerate(shape) if d != dim]
    tv, tr = ttype(out, "f32"), ttype(out, "i32")
    init = "0xFF800000" if is_max else "0x7F800000"
    c.lines += [f"%iota = stablehlo.iota dim = {dim} : {ti}",
                f"%init = stablehlo.constant dense<{init}> : tensor<f32>",
                "%zero = stablehlo.constant dense<0> : tensor<i32>",
                f"%r:2 = stablehlo.reduce({a} init: %init), (%iota init: %zero) across "
                f"dimensions = [{dim}] : ({t}, {ti}, tensor<f32>, tensor<i32>) -> ({tv}, {tr})"
                + _arg_reduce_body("GT" if is_max else "LT", "f32", "FLOAT")]
    return [("%r#1", tr, len(out)), ("%r#0", tv, len(out))]


def dot(c: _Case):
    batch = c.r.random() < 0.3
    b, m, k, n = c.sizes(4)
    lhs_shape = ([b] if batch else []) + [m, k]
    rhs_shape = ([b] if batch else []) + [k, n]
    out = ([b] if batch else []) + [m, n]
    lhs = c.arg(lhs_shape, must=len(lhs_shape) - 1 if c.r.random() < 0.5 else None)
    rhs = c.arg(rhs_shape)
    dims = (f"batching_dims = [0] x [0], contracting_dims = [2] x [1]" if batch
            else "contracting_dims = [1] x [0]")
    to = ttype(out, "f32")
    c.lines.append(f"%0 = stablehlo.dot_general {lhs}, {rhs}, {dims} : "
                   f"({ttype(lhs_shape, 'f32')}, {ttype(rhs_shape, 'f32')}) -> {to}")
    return [("%0", to, len(out))]


def reshard(c: _Case):
    shape = c.sizes(c.r.choice([1, 2, 3]))
    t = ttype(shape, "f32")
    a = c.arg(shape)
    c.lines.append(f"%n = stablehlo.negate {a} : {t}")
    first = c.constraint("%n", shape)
    c.lines.append(f"%abs = stablehlo.abs {first} : {t}")
    second = c.constraint("%abs", shape)
    return [(second, t, len(shape)), (first, t, len(shape))]


def gather(c: _Case):
    v, d, b = c.sizes(3)
    table = c.arg([v, d], must=0 if c.r.random() < 0.5 else None)
    ids = c.arg([b, 1], "i32", -2, v + 1)
    out = ttype([b, d], "f32")
    c.lines.append(
        f'%0 = "stablehlo.gather"({table}, {ids}) <{{dimension_numbers = #stablehlo.gather<'
        f"offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], "
        f"index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, {d}>}}>"
        f" : ({ttype([v, d], 'f32')}, {ttype([b, 1], 'i32')}) -> {out}")
    return [("%0", out, 2)]


def dynamic_slice(c: _Case):
    shape = c.sizes(2)
    a = c.arg(shape, must=c.r.randrange(2))
    starts = [c.arg([], "i32", -3, n + 2) for n in shape]
    sizes = [c.r.randint(1, n) for n in shape]
    out = ttype(sizes, "f32")
    c.lines.append(f"%0 = stablehlo.dynamic_slice {a}, {', '.join(starts)}, sizes = {sizes} "
                   f": ({ttype(shape, 'f32')}, tensor<i32>, tensor<i32>) -> {out}")
    return [("%0", out, 2)]


def scatter(c: _Case):
    v, d, b = c.sizes(3)
    operand = c.arg([v, d], must=0 if c.r.random() < 0.5 else None)
    ids = c.arg([b, 1], "i32", -2, v + 1)
    updates = c.arg([b, d])
    reducer = c.r.choice(["add", "maximum"])
    t = ttype([v, d], "f32")
    numbers = ("update_window_dims = [1], inserted_window_dims = [0], "
               "scatter_dims_to_operand_dims = [0], index_vector_dim = 1")
    c.lines.append(f'%0 = "stablehlo.scatter"({operand}, {ids}, {updates}) '
                   f"<{{indices_are_sorted = false, scatter_dimension_numbers = "
                   f"#stablehlo.scatter<{numbers}>, unique_indices = false}}> "
                   + _region(f"stablehlo.{reducer} %l, %r : tensor<f32>")
                   + f" : ({t}, {ttype([b, 1], 'i32')}, {ttype([b, d], 'f32')}) -> {t}")
    return [("%0", t, 2)]


def sort(c: _Case):
    shape = c.sizes(c.r.choice([1, 2]))
    dim = c.r.randrange(len(shape))
    a = c.arg(shape, must=dim if c.r.random() < 0.6 else None)
    t = ttype(shape, "f32")
    c.lines.append(f'%0 = "stablehlo.sort"({a}) <{{dimension = {dim} : i64, is_stable = true}}> '
                   + _region("stablehlo.compare LT, %l, %r, TOTALORDER : "
                             "(tensor<f32>, tensor<f32>) -> tensor<i1>", "i1")
                   + f" : ({t}) -> {t}")
    return [("%0", t, len(shape))]


def reshape(c: _Case):
    """Reshapes merging or splitting dims (compound dims: even only) and transposes."""
    kind = c.r.choice(["merge", "split", "transpose"])
    if kind == "split":
        p, q, m = c.sizes(3)
        shape, out = [p * q, m], [p, q, m]
    else:
        shape = c.sizes(3)
        perm = c.r.sample(range(3), 3)
        out = [shape[0] * shape[1], shape[2]] if kind == "merge" else \
            [shape[d] for d in perm]
    a = c.arg(shape)
    t, to = ttype(shape, "f32"), ttype(out, "f32")
    c.lines.append(f"%0 = stablehlo.transpose {a}, dims = {perm} : ({t}) -> {to}"
                   if kind == "transpose" else f"%0 = stablehlo.reshape {a} : ({t}) -> {to}")
    return [("%0", to, len(out))]


def windowed(c: _Case):
    """An op that moves data along a dim (halo exchanges where even): reverse, slice,
    pad, concatenate, a cumulative sum or a strided window sum, a 1-D convolution."""
    kind = c.r.choice(["reverse", "slice", "pad", "concatenate", "cumsum", "window",
                       "convolution"])
    shape = c.sizes(2)
    n, m = shape
    t = ttype(shape, "f32")
    if kind == "convolution":
        k, o = c.r.choice([1, 3]), c.r.choice(SIZES)
        a = c.arg([n, m, 2], must=c.r.randrange(3))
        w = c.arg([k, 2, o])
        out = ttype([n, m, o], "f32")
        c.lines.append(
            f"%0 = stablehlo.convolution({a}, {w}) dim_numbers = [b, 0, f]x[0, i, o]->"
            f"[b, 0, f], window = {{stride = [1], pad = [[{k // 2}, {k // 2}]]}} "
            f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : "
            f"({ttype([n, m, 2], 'f32')}, {ttype([k, 2, o], 'f32')}) -> {out}")
        return [("%0", out, 3)]
    a = c.arg(shape, must=0)
    c.lines.append("%zero = stablehlo.constant dense<0.0> : tensor<f32>")
    if kind == "reverse":
        c.lines.append(f"%0 = stablehlo.reverse {a}, dims = [0] : {t}")
        return [("%0", t, 2)]
    if kind == "slice":
        lo = c.r.randrange(n)
        hi = c.r.randint(lo + 1, n)
        out = ttype([hi - lo, m], "f32")
        c.lines.append(f"%0 = stablehlo.slice {a} [{lo}:{hi}, 0:{m}] : ({t}) -> {out}")
        return [("%0", out, 2)]
    if kind == "pad":
        lo, hi = c.r.randint(-1, 3), c.r.randint(0, 3)
        out = ttype([n + lo + hi, m], "f32")
        c.lines.append(f"%0 = stablehlo.pad {a}, %zero, low = [{lo}, 0], high = [{hi}, 0], "
                       f"interior = [0, 0] : ({t}, tensor<f32>) -> {out}")
        return [("%0", out, 2)]
    if kind == "concatenate":
        b = c.arg(shape)
        out = ttype([2 * n, m], "f32")
        c.lines.append(f"%0 = stablehlo.concatenate {a}, {b}, dim = 0 : ({t}, {t}) -> {out}")
        return [("%0", out, 2)]
    window, stride, low = (n, 1, n - 1) if kind == "cumsum" else (
        c.r.randint(1, 3), c.r.randint(1, 2), 1)
    rows = (n + low - window) // stride + 1
    out = ttype([rows, m], "f32")
    c.lines.append(
        f'%0 = "stablehlo.reduce_window"({a}, %zero) <{{window_dimensions = array<i64: '
        f"{window}, 1>, window_strides = array<i64: {stride}, 1>, padding = dense<"
        f"[[{low}, 0], [0, 0]]> : tensor<2x2xi64>}}> "
        + _region("stablehlo.add %l, %r : tensor<f32>")
        + f" : ({t}, tensor<f32>) -> {out}")
    return [("%0", out, 2)]


def _region(line: str, result: str = "f32") -> str:
    """A region of two f32 scalars %l, %r returning `%z = line`."""
    return (f"({{\n  ^bb0(%l: tensor<f32>, %r: tensor<f32>):\n    %z = {line}\n"
            f"    stablehlo.return %z : tensor<{result}>\n  }})")


FAMILIES = {f.__name__: f for f in (elementwise, reduce, argmax, dot, reshard, gather,
                                    dynamic_slice, scatter, sort, windowed, reshape)}


def case(family: str, seed: int):
    c = _Case(seed * 101 + len(family))
    results = FAMILIES[family](c)
    return c.module(results), c.inputs(seed)


@pytest.mark.parametrize("seed", range(CASES))
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_uneven(runner, family, seed):  # noqa: F811 - the fixture
    text, inputs = case(family, seed)
    _check(runner, text, inputs, replicated_ok=True)


if __name__ == "__main__":
    import sys

    print(case(sys.argv[1], int(sys.argv[2]))[0])
