"""Randomized property test: gather, scatter, dynamic_slice and dynamic_update_slice
partitioned on random meshes and shardings compute what the unpartitioned program does.

Each case is a small module built from a seeded random description (operand dims in
random roles, random shardings of the arguments and results, index values spread so
that many are out of range on both sides: gather/dynamic_slice clamp them, scatter
skips them). It is partitioned with shardpy-partition, run on the mesh's CPU devices
and compared with the one-device reference (test/fuzz/run_fuzz.py's Runner: the same
comparison as `shardpy-run --check`). The op under test must be computed on shards
(no "computed replicated" warning).

Index values come from i32 arguments (spread as value * a + b) converted in the module
to the case's index type (i16, ui8, ui32, i64, ui64...: negative values become huge
unsigned ones, which gather clamps and scatter skips). Chained dynamic slices clamp
their own starts: XLA folds dynamic_slice(dynamic_slice(x, a), b) with one clamp, so
the one-device reference itself is wrong for out-of-range starts there.
SHARDPY_INDEXING_CASES=N runs N cases per op kind (default 40).

A failure names its case; reproduce with
    python test/python/lowering/test_indexing.py SEED > case.mlir
    shardpy-run case.mlir --check
"""
from __future__ import annotations

import os
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

FUZZ_DIR = Path(__file__).resolve().parents[2] / "fuzz"
sys.path.insert(0, str(FUZZ_DIR))

MESHES = [(("x", 8),), (("x", 2), ("y", 4)), (("x", 4), ("y", 2)), (("x", 2), ("y", 2))]
KINDS = ("gather", "scatter", "dynamic_slice", "dynamic_update_slice")
CASES_PER_KIND = int(os.environ.get("SHARDPY_INDEXING_CASES", "40"))  # per op kind
INDEX_TYPES = ("i32", "i32", "i32", "i64", "ui32", "i16", "ui8", "ui64")


@dataclass
class Case:
    seed: int
    kind: str
    text: str


def _type(shape, element="f32") -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{element}>"


class _Gen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.mesh = self.r.choice(MESHES)
        self.lines: list[str] = []
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"%v{self.count}"

    def sharding(self, rank: int, p: float = 0.5) -> str:
        """A random sharding: each mesh axis on one random dim (or nowhere)."""
        dims = [[] for _ in range(rank)]
        for name, _ in self.mesh:
            if rank and self.r.random() < p:
                dims[self.r.randrange(rank)].append(name)
        self.r.shuffle(dims)
        order = [n for n, _ in self.mesh]
        text = ", ".join("{" + ", ".join(f'"{a}"' for a in sorted(d, key=order.index)) + "}"
                         for d in dims)
        return f"#sdy.sharding<@mesh, [{text}]>"

    def arg_attr(self, rank: int) -> str:
        if self.r.random() < 0.2:
            return ""
        return f" {{sdy.sharding = {self.sharding(rank)}}}"

    def spread_indices(self, value: str, shape, element="i32") -> str:
        """value * a + b in i32 (many indices out of range, on both sides), converted
        to the index type `element` (negative values become huge unsigned ones)."""
        a, b = self.r.choice([(1, 0), (2, 3), (3, -2), (5, 1), (5, -14)])
        t = _type(shape, "i32")
        ca, cb, m, s = self.fresh(), self.fresh(), self.fresh(), self.fresh()
        self.lines += [f"{ca} = stablehlo.constant dense<{a}> : {t}",
                       f"{cb} = stablehlo.constant dense<{b}> : {t}",
                       f"{m} = stablehlo.multiply {value}, {ca} : {t}",
                       f"{s} = stablehlo.add {m}, {cb} : {t}"]
        if element == "i32":
            return s
        c = self.fresh()
        self.lines.append(f"{c} = stablehlo.convert {s} : ({t}) -> {_type(shape, element)}")
        return c

    def clamp(self, value: str, low: int, high: int, element: str) -> str:
        t = _type([], element)
        lo, hi, out = self.fresh(), self.fresh(), self.fresh()
        self.lines += [f"{lo} = stablehlo.constant dense<{low}> : {t}",
                       f"{hi} = stablehlo.constant dense<{high}> : {t}",
                       f"{out} = stablehlo.clamp {lo}, {value}, {hi} : {t}"]
        return out

    def module(self, args, result_type: str, result_rank: int) -> str:
        mesh = ", ".join(f'"{n}"={s}' for n, s in self.mesh)
        sig = ", ".join(f"{name}: {t}{attr}" for name, t, attr in args)
        res = result_type
        if self.r.random() < 0.5:
            res += f" {{sdy.sharding = {self.sharding(result_rank)}}}"
        body = "\n    ".join(self.lines)
        return (f"sdy.mesh @mesh = <[{mesh}]>\n"
                f"func.func public @main({sig}) -> ({res}) {{\n    {body}\n  }}\n")


def _sizes(r: random.Random, n: int) -> list[int]:
    return [r.choice([8, 16]) for _ in range(n)]


def gather_case(seed: int) -> str:
    g = _Gen(seed)
    r = g.r
    rank = r.choice([2, 3])
    shape = _sizes(r, rank)
    roles = [r.choice(["collapsed", "collapsed", "full", "window1", "part", "batching",
                       "noindex"]) for _ in range(rank)]
    if all(x in ("full", "noindex", "batching") for x in roles):
        roles[0] = "collapsed"
    slice_sizes, collapsed, start_map, operand_batching = [], [], [], []
    for d, role in enumerate(roles):
        size = {"collapsed": 1, "noindex": 1, "window1": 1, "batching": 1,
                "full": shape[d], "part": max(1, shape[d] // 2 - 1)}[role]
        slice_sizes.append(size)
        if role in ("collapsed", "noindex"):
            collapsed.append(d)
        if role in ("collapsed", "window1", "part") or (role == "full" and r.random() < 0.3):
            start_map.append(d)
        if role == "batching":
            operand_batching.append(d)
    r.shuffle(start_map)
    k = len(start_map)
    # Indices: batch dims, explicit batching dims, the index vector dim.
    batch = [r.choice([4, 8]) for _ in range(r.choice([1, 2]))]
    idims = [("b", s, None) for s in batch] + [("e", shape[d], d) for d in operand_batching]
    r.shuffle(idims)
    implicit = k == 1 and r.random() < 0.3
    ivd = len(idims) if implicit else r.randrange(len(idims) + 1)
    if not implicit:
        idims.insert(ivd, ("v", k, None))
    ishape = [s for _, s, _ in idims]
    # operand_batching_dims[j] pairs with the indices dim holding that operand dim.
    indices_batching = [next(i for i, e in enumerate(idims) if e[0] == "e" and e[2] == d)
                        for d in operand_batching]
    # Result: indices batch dims (all but ivd) in order, offset dims at random places.
    offset_sizes = [slice_sizes[d] for d in range(rank)
                    if d not in collapsed and d not in operand_batching]
    batch_sizes = [s for t, s, _ in idims if t != "v"]
    out_rank = len(offset_sizes) + len(batch_sizes)
    offset_dims = sorted(r.sample(range(out_rank), len(offset_sizes)))
    out, oi, bi = [], iter(offset_sizes), iter(batch_sizes)
    for i in range(out_rank):
        out.append(next(oi) if i in offset_dims else next(bi))
    element = r.choice(["f32", "f32", "f32", "i32"])
    index = r.choice(INDEX_TYPES)
    optype, itype = _type(shape, element), _type(ishape, "i32")
    idx = g.spread_indices("%a1", ishape, index)
    res = g.fresh()
    dn = (f"offset_dims = {offset_dims}, collapsed_slice_dims = {collapsed}, "
          f"operand_batching_dims = {operand_batching}, "
          f"start_indices_batching_dims = {indices_batching}, start_index_map = {start_map}, "
          f"index_vector_dim = {ivd}")
    sorted_ = r.choice(["true", "false"])
    g.lines.append(
        f'{res} = "stablehlo.gather"(%a0, {idx}) <{{dimension_numbers = #stablehlo.gather<{dn}>, '
        f'indices_are_sorted = {sorted_}, slice_sizes = array<i64: {", ".join(map(str, slice_sizes))}>}}> '
        f": ({optype}, {_type(ishape, index)}) -> {_type(out, element)}")
    g.lines.append(f"return {res} : {_type(out, element)}")
    return g.module([("%a0", optype, g.arg_attr(rank)),
                     ("%a1", itype, g.arg_attr(len(ishape)))], _type(out, element), len(out))


SCATTER_BODIES = ("add", "add", "maximum", "minimum", "multiply", "replace")


def scatter_case(seed: int) -> str:
    g = _Gen(seed)
    r = g.r
    rank = r.choice([2, 3])
    shape = _sizes(r, rank)
    body = r.choice(SCATTER_BODIES)
    roles = [r.choice(["inserted", "inserted", "full", "part", "batching", "noindex"])
             for _ in range(rank)]
    if all(x in ("full", "noindex", "batching") for x in roles):
        roles[0] = "inserted"
    window, inserted, to_operand, input_batching = [], [], [], []
    for d, role in enumerate(roles):
        if role in ("inserted", "noindex"):
            inserted.append(d)
        elif role == "batching":
            input_batching.append(d)
        else:
            window.append(shape[d] if role == "full" else max(1, shape[d] // 2 - 1))
        if role in ("inserted", "part") or (role == "full" and r.random() < 0.3):
            to_operand.append(d)
    r.shuffle(to_operand)
    k = len(to_operand)
    batch = [r.choice([4, 8]) for _ in range(r.choice([1, 2]))]
    if body == "replace":
        batch = [r.choice([4, 8])]  # indices from an iota: unique
    idims = [("b", s, None) for s in batch] + [("e", shape[d], d) for d in input_batching]
    r.shuffle(idims)
    implicit = k == 1 and r.random() < 0.3
    ivd = len(idims) if implicit else r.randrange(len(idims) + 1)
    if not implicit:
        idims.insert(ivd, ("v", k, None))
    ishape = [s for _, s, _ in idims]
    indices_batching = [next(i for i, e in enumerate(idims) if e[0] == "e" and e[2] == d)
                        for d in input_batching]
    batch_sizes = [s for t, s, _ in idims if t != "v"]
    up_rank = len(window) + len(batch_sizes)
    window_dims = sorted(r.sample(range(up_rank), len(window)))
    ushape, wi, bi = [], iter(window), iter(batch_sizes)
    for i in range(up_rank):
        ushape.append(next(wi) if i in window_dims else next(bi))
    element = "f32"
    index = r.choice(INDEX_TYPES)
    optype, itype, utype = _type(shape), _type(ishape, "i32"), _type(ushape)
    if body == "replace":
        # Unique indices: an iota along the one batch dim, spread out of range.
        b_dim = next(i for i, e in enumerate(idims) if e[0] == "b")
        iota = g.fresh()
        g.lines.append(f"{iota} = stablehlo.iota dim = {b_dim} : {itype}")
        idx = g.spread_indices(iota, ishape, index)
        unique = "true"
    else:
        idx = g.spread_indices("%a1", ishape, index)
        unique = "false"
    res = g.fresh()
    dn = (f"update_window_dims = {window_dims}, inserted_window_dims = {inserted}, "
          f"input_batching_dims = {input_batching}, "
          f"scatter_indices_batching_dims = {indices_batching}, "
          f"scatter_dims_to_operand_dims = {to_operand}, index_vector_dim = {ivd}")
    scalar = _type([])
    combine = "%rhs" if body == "replace" else "%c"
    op_line = "" if body == "replace" else \
        f"%c = stablehlo.{body} %lhs, %rhs : {scalar}\n      "
    g.lines.append(
        f'{res} = "stablehlo.scatter"(%a0, {idx}, %a2) <{{indices_are_sorted = false, '
        f"scatter_dimension_numbers = #stablehlo.scatter<{dn}>, unique_indices = {unique}}}> ({{\n"
        f"    ^bb0(%lhs: {scalar}, %rhs: {scalar}):\n      {op_line}"
        f"stablehlo.return {combine} : {scalar}\n    }}) : ({optype}, {_type(ishape, index)}, {utype}) -> {optype}")
    g.lines.append(f"return {res} : {optype}")
    args = [("%a0", optype, g.arg_attr(rank)), ("%a1", itype, g.arg_attr(len(ishape))),
            ("%a2", utype, g.arg_attr(len(ushape)))]
    return g.module(args, optype, rank)


def _start_scalars(g: _Gen, count: int, index: str) -> list[str]:
    """Start indices from scalar arguments %s<i>, spread out of range."""
    return [g.spread_indices(f"%s{i}", [], index) for i in range(count)]


def dynamic_slice_case(seed: int) -> str:
    g = _Gen(seed)
    r = g.r
    rank = r.choice([1, 2, 3])
    shape = _sizes(r, rank)
    sizes = [r.choice([1, 2, s // 2, s - 3, s]) for s in shape]
    index = r.choice(INDEX_TYPES)
    starts = _start_scalars(g, rank, index)
    chain = r.random() < 0.3
    if chain:
        # XLA (jaxlib 0.10.2) folds dynamic_slice(dynamic_slice(x, a), b) into one
        # dynamic_slice with one clamp, wrong where `a` or `b` is out of range: the
        # reference would be wrong, so this program clamps them itself.
        starts = [g.clamp(st, 0, n - k, index) for st, n, k in zip(starts, shape, sizes)]
    optype, rtype = _type(shape), _type(sizes)
    res = g.fresh()
    g.lines.append(f"{res} = stablehlo.dynamic_slice %a0, {', '.join(starts)}, "
                   f"sizes = [{', '.join(map(str, sizes))}] : "
                   f"({optype}, {', '.join([_type([], index)] * rank)}) -> {rtype}")
    if chain:
        # A slice of the slice (at starts in range for it: see above).
        inner = [max(1, s // 2) for s in sizes]
        starts = [g.clamp(st, 0, n - k, index) for st, n, k in zip(starts, sizes, inner)]
        again = g.fresh()
        g.lines.append(f"{again} = stablehlo.dynamic_slice {res}, {', '.join(starts)}, "
                       f"sizes = [{', '.join(map(str, inner))}] : "
                       f"({rtype}, {', '.join([_type([], index)] * rank)}) -> {_type(inner)}")
        res, rtype, sizes = again, _type(inner), inner
    g.lines.append(f"return {res} : {rtype}")
    scalars = [(f"%s{i}", "tensor<i32>", "") for i in range(rank)]
    return g.module([("%a0", optype, g.arg_attr(rank))] + scalars, rtype, rank)


def dynamic_update_slice_case(seed: int) -> str:
    g = _Gen(seed)
    r = g.r
    rank = r.choice([1, 2, 3])
    shape = _sizes(r, rank)
    sizes = [r.choice([1, 2, s // 2, s - 3, s]) for s in shape]
    index = r.choice(INDEX_TYPES)
    starts = _start_scalars(g, rank, index)
    optype, utype = _type(shape), _type(sizes)
    res = g.fresh()
    g.lines.append(f"{res} = stablehlo.dynamic_update_slice %a0, %a1, {', '.join(starts)} : "
                   f"({optype}, {utype}, {', '.join([_type([], index)] * rank)}) -> {optype}")
    g.lines.append(f"return {res} : {optype}")
    scalars = [(f"%s{i}", "tensor<i32>", "") for i in range(rank)]
    return g.module([("%a0", optype, g.arg_attr(rank)), ("%a1", utype, g.arg_attr(rank))]
                    + scalars, optype, rank)


GENERATORS = {"gather": gather_case, "scatter": scatter_case,
              "dynamic_slice": dynamic_slice_case,
              "dynamic_update_slice": dynamic_update_slice_case}


def case(seed: int) -> Case:
    kind = KINDS[seed % len(KINDS)]
    return Case(seed, kind, GENERATORS[kind](seed))


@pytest.fixture(scope="module")
def runner():
    import run_fuzz

    return run_fuzz.Runner()


@pytest.mark.parametrize("seed", range(len(KINDS) * CASES_PER_KIND))
def test_indexing_partition(seed, runner):
    c = case(seed)
    outcome = runner.run_text(c.text, seed)
    replicated = [w for w in outcome.warnings if "computed replicated" in w]
    assert outcome.status == "pass", (
        f"{c.kind} case {seed}: {outcome.status}\n{outcome.detail[:2000]}\n{c.text}")
    assert not replicated, f"{c.kind} case {seed}: {replicated}\n{c.text}"


if __name__ == "__main__":
    print(case(int(sys.argv[1])).text)
