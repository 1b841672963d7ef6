"""Seeded random StableHLO + sdy programs for fuzzing shardpy's partitioner.

    python test/fuzz/generate.py --seed 42            # print program 42
    python test/fuzz/generate.py --seed 42 --check    # ... and parse it (validates)
    python test/fuzz/generate.py --seed 42 --float64  # the same program in f64

A program is a random DAG of 3-25 ops in `@main` (plus private callees, while bodies
and case branches) over f32 and i32 tensors of any dims (Features.uneven_dims), the
issue-6 ops among them (ops_issue6.py), on one mesh of 1-3 axes and up to 8 devices,
with random shardings on the arguments and results of `@main` (some unsharded, some
open, sub-axes, unreduced results of dot contractions) and `sdy.sharding_constraint`s
on ~20% of the intermediate values.
The text is written by hand in the syntax JAX prints (see examples/*.mlir); every module
is meant to parse and verify (`parse_module` checks it).

The generator keeps the numbers tame so that the partitioned run can be compared with
the one-device run:
  * magnitudes are tracked per value (an upper bound); values that grow too large go
    through tanh (f32) or a clamp (i32) before they are used again;
  * results that depend on reassociated float sums (dot_general, sum reductions) or on
    transcendental functions are "inexact": they never feed a discontinuous op
    (a float compare, an f32 -> i32 convert), where a rounding difference would flip
    the outcome.

`Features` switches kinds of programs off, so that a known, open bug does not hide
others (see known_issues.py).
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import random
import sys
from dataclasses import dataclass, field

from fuzz_text import (FLOAT_LIMIT, INT_LIMIT, MAX_ELEMS, Value, dense, fmt_float,  # noqa: F401
                       floats_printed_as, infinity, int_list, is_nice, ttype)
from ops_issue6 import Issue6Ops
import gradients
import linalg
import mixed
import nans
import batch_norm
import complex_reductions
import groups
import manual
import mesh_aliases
import maximal
import second_mesh

NICE_DIMS = [1, 2, 4, 8, 8, 16, 16, 24, 32, 32, 48, 64]
# With Features.uneven_dims: dims that most mesh axes do not divide (10 over 4, 6 over 4).
UNEVEN_DIMS = [3, 5, 6, 10, 12, 20, 36]
MAX_REGION_DEPTH = 2      # while/case/if nested at most this deep

MESHES = [
    (("x", 8),),
    (("x", 4),),
    (("x", 2),),
    (("x", 2), ("y", 4)),
    (("x", 4), ("y", 2)),
    (("x", 2), ("y", 2)),
    (("a", 2), ("b", 2), ("c", 2)),
    (("a", 2), ("b", 4), ("c", 1)),
]

# With Features.odd_meshes: meshes whose sizes have factors 3 and 5 (issue 19), so that
# one axis splits into sub-axes in several orders ("x":(1)2 and "x":(3)2 on "x"=6).
ODD_MESHES = [
    (("x", 6),),
    (("x", 10),),
    (("x", 12),),
    (("x", 18),),
    (("x", 30),),
    (("x", 6), ("y", 2)),
    (("x", 2), ("y", 6)),
    (("x", 3), ("y", 4)),
]
# Dims that such meshes divide (shapes draw them as well on an odd mesh).
ODD_DIMS = [6, 10, 12, 18, 30, 36, 60]

FLOAT_UNARY = ["negate", "abs", "tanh", "exponential"]
INT_UNARY = ["negate", "abs"]
FLOAT_BINARY = ["add", "subtract", "multiply", "maximum", "minimum"]
INT_BINARY = ["add", "subtract", "multiply", "maximum", "minimum"]
DIRECTIONS = ["EQ", "NE", "GE", "GT", "LE", "LT"]

# Weights of the op kinds in @main. Every kind is a feature of its own: `--disable
# gather` (Features.without) leaves it out.
OP_WEIGHTS = {
    "unary": 10, "binary": 14, "select": 6, "clamp": 4, "convert": 4,
    "broadcast": 7, "transpose": 6, "reshape": 7, "dot": 10, "reduce": 8,
    "iota": 2, "constant": 2, "concatenate": 4, "slice": 5, "pad": 4, "call": 4,
    # issue 6
    "gather": 4, "scatter": 4, "dynamic_slice": 3, "dynamic_update_slice": 3,
    "sort": 3, "top_k": 2, "argmax": 3, "reduce_window": 4, "select_and_scatter": 2,
    "convolution": 3, "reverse": 3, "while": 2, "case": 2, "optimization_barrier": 2,
    "rng_bit_generator": 1, "custom_call": 1,
}
# Ops of private functions (callees) and of while/case/if bodies.
CALLEE_OPS = {"unary", "binary", "select", "clamp", "convert", "broadcast", "transpose",
              "reshape", "dot", "reduce", "slice", "pad", "concatenate",
              "gather", "scatter", "dynamic_slice", "dynamic_update_slice", "sort", "top_k",
              "argmax", "reduce_window", "select_and_scatter", "convolution", "reverse",
              "optimization_barrier"}
REGION_OPS = CALLEE_OPS | {"iota", "constant", "call", "while", "case", "custom_call"}


@dataclass(frozen=True)
class Features:
    """Which kinds of programs the generator makes (all on by default but
    non_identity_init). Turning a feature off changes the programs of every seed."""

    scalar_args: bool = True        # rank-0 arguments of @main
    scalar_results: bool = True     # rank-0 results of @main
    unreduced_results: bool = True
    open_dims: bool = True
    sub_axes: bool = True
    device_ids: bool = True
    constraints: bool = True
    calls: bool = True
    callee_shardings: bool = True   # shardings on private functions' arguments/results
    unsharded_callee_args: bool = True  # off: every callee argument has a sharding
    small_permuted_dims: bool = True    # slice/pad/concatenate dims below 8 that change size
    # Reduces whose init is not the reducer's identity. Off: StableHLO lets an
    # implementation apply the init value any number of times ("implementation-defined
    # schedule"), and XLA does differ between the one-device and the per-device program.
    non_identity_init: bool = False
    mixed_reducers: bool = True     # off: all reduces of a program use one reducer
    # Clamps whose lower bound may exceed the upper one (min(max(x, lo), hi) is defined
    # then too). Off: constant bounds lo < hi only (known_issues: an XLA:CPU bug).
    crossed_clamp_bounds: bool = True
    # Indices of gather/scatter/dynamic_slice/dynamic_update_slice (and case branch
    # indices) outside the operand: clamped (gather, dynamic_*), skipped (scatter),
    # the last branch (case).
    out_of_range_indices: bool = True
    # gather/scatter with explicit operand_batching_dims / input_batching_dims.
    batching_dims: bool = True
    # gather/scatter/dynamic_slice/dynamic_update_slice of a dynamic_slice's result, also
    # through the ops XLA:CPU moves a dynamic_slice across (transpose, broadcast_in_dim,
    # reshapes that only add or drop dims of size 1). Off: XLA:CPU folds such pairs and
    # loses the inner start clamp (known_issues: an XLA bug, the reference is wrong).
    indexed_dynamic_slices: bool = True
    # chlo.top_k results as operands of an optimization_barrier. Off: XLA aborts
    # compiling such a barrier inside a manual computation (known_issues: an XLA bug).
    top_k_through_barrier: bool = True
    # rng_bit_generator with algorithm THREE_FRY. Off: PHILOX in its place (XLA:CPU takes
    # minutes to compile an argmax of float-converted three-fry bits: known_issues).
    three_fry_bits: bool = True
    # reduce_window with base dilation and a stride > 1 on a dim it does not dilate. Off:
    # the base dilation is dropped from such windows (XLA:CPU's YNNPACK reduce-window
    # fusion computes some of them wrong, the one-device reference too: known_issues).
    reduce_window_base_dilation: bool = True
    # while/case/if bodies that use values defined outside them (not only block args).
    region_captures: bool = True
    # Dims not divisible by the axes that shard them (e.g. 10 over "x"=4), in shapes and
    # in the generated shardings (issue 6 item 1). Off: every generated sharding divides
    # its dim and every shape is 1, 2, 4 or a multiple of 8.
    uneven_dims: bool = True
    # Meshes of 6, 10, 12, 18 and 30 devices (ODD_MESHES) now and then, with sub-axes of
    # one axis in different decompositions on different dims and values (issue 19).
    odd_meshes: bool = True
    # Now and then a dim of size zero in a drawn shape (issue 19): every op on empty
    # values, sharded or not.
    zero_dims: bool = True
    # A second mesh (device order, subset, other axis names) that values cross onto and
    # back at @main's results, calls, callee results, barriers, while/case/if results:
    # second_mesh.py (its own RNG: programs that do not draw it stay the same).
    second_mesh: bool = True
    # Floats printed as bf16 (the same programs, no custom_call: LAPACK has no bf16
    # Cholesky), compared with bf16's tolerances; their f64 reference is the same program
    # in f64. A mode of its own (`--enable bf16` for a bf16 run), not a draw: every float
    # of the program is bf16 (1,000 of 1,000 from seed 6000 pass; README.md).
    bf16: bool = False
    # Weight gradients at the end of @main (FSDP's reduce_scatters, some independent,
    # some chained): gradients.py (its own RNG: programs that do not draw it stay the
    # same).
    gradients: bool = True
    # NaN (either sign) put into a float value that a max or min then reduces across
    # devices (the runtime's float all_reduce drops NaN): nans.py (its own RNG: programs
    # that do not draw it stay the same).
    nans: bool = True
    # Mixed precision: a float value taken down to bf16 or f16, a dim sharded, then a
    # dot with an f32 result, a narrow sum or max, or a narrow square across devices:
    # mixed.py (its own RNG: programs that do not draw it stay the same; none with
    # Features.bf16).
    mixed: bool = True
    # stablehlo.fft (RFFT, IRFFT, FFT, IFFT), cholesky and triangular_solve of pool
    # values with a batch or a transformed dim constrained onto a mesh axis: linalg.py
    # (its own RNG: programs that do not draw it stay the same; none with
    # Features.bf16).
    linalg: bool = True
    # Values placed on one device (maximal shardings: constraints, op shardings, @main
    # arguments) and read by ops on @mesh: maximal.py (its own RNG: programs that do
    # not draw it stay the same).
    maximal: bool = True
    # batch_norm_training / _grad / _inference over a feature dim of a pool value, scale
    # and offset new @main arguments: batch_norm.py (its own RNG: programs that do not
    # draw it stay the same).
    batch_norm: bool = True
    # Two or three values of one type in a sharding group, often constrained to
    # different shardings first: groups.py (its own RNG: programs that do not draw it
    # stay the same).
    groups: bool = True
    # Per-device code: a manual computation over some or all of @mesh's axes, its body
    # holding elementwise ops and explicit collectives (all_reduce, all_gather,
    # collective_permute, all_to_all), 1 in 3 of them sent through GSPMD's custom-call
    # form by run_fuzz: manual.py (its own RNG: programs that do not draw it stay the
    # same).
    manual: bool = True
    # Shardings naming @mesh by another name (@alias, the same axes and devices) or
    # saying "replicated" on the empty mesh @empty = <[]>: mesh_aliases.py (its own RNG:
    # programs that do not draw it stay the same).
    mesh_aliases: bool = True
    # A sum or a sum over windows (cumsum's form too) of an f32 value taken complex,
    # read back as real + imag: complex_reductions.py (its own RNG: programs that do not
    # draw it stay the same; none with Features.bf16).
    complex_reductions: bool = True
    # lax.scan's form: a stacked value carried through a while unchanged, sliced at the
    # counter each step (scan_inputs.py; its own RNG).
    scan_inputs: bool = True
    # Not a program feature: 1 seed in 3 (seed % 3 == 2) is partitioned with its plans
    # ranked by bytes (BYTES_RANKED_PROFILE, a profile in which nothing takes time), so
    # the lowerings the cpu profile takes only for large shards (halo exchanges,
    # all_to_alls around sorts, masked and split shards) stay drawn at fuzz sizes.
    bytes_ranked: bool = True
    # Not a program feature: 1 seed in 5 (seed % 5 == 4) gets Shardy's sdy.data_flow_edge
    # ops (native sdy-add-data-flow-edges) before shardpy-partition, as modules carry them
    # after Shardy's import: propagation reads and writes them, the partitioner sinks them.
    data_flow_edges: bool = True
    # The richer forms of the windowed ops' emitters, drawn half the time (see
    # FuncBuilder.rich_form): pad with interior 2 and low/high from -3 to 5, slices of
    # stride 3, rolls (a concatenate of two slices of one value), pooling windows with
    # strides 3, base dilation and windows of padding only, cumulative products,
    # padded select_and_scatter with GT/LT selects, convolutions of weight-gradient
    # shapes and wider windows. Off by default (the programs of every seed stay as they
    # were); test/fuzz/windowed.py asks for them always.
    rich_windowed: bool = False
    ops: tuple[str, ...] = tuple(OP_WEIGHTS)

    def may_stand_for(self, v: Value, a: Value) -> bool:
        """May `v` be passed for a callee argument made for `a`? Not where `v` has a mark
        of an avoided known issue that `a` lacks: the callee may use its argument in a
        way that mark rules out."""
        return ((self.indexed_dynamic_slices or a.sliced or not v.sliced)
                and (self.top_k_through_barrier or a.top_k or not v.top_k))

    @classmethod
    def from_spec(cls, names) -> "Features":
        """The defaults without the features and op kinds of `names`, and with those
        written `+name` (e.g. `+uneven_dims`): the form run_fuzz passes to workers."""
        names = [n.strip() for n in names if n.strip()]
        on = [n[1:] for n in names if n.startswith("+")]
        return cls().without([n for n in names if not n.startswith("+")]).with_(on)

    def without(self, names) -> "Features":
        """Turn features off and leave op kinds out."""
        return self._switched(names, False)

    def with_(self, names) -> "Features":
        """Turn features on (e.g. uneven_dims, non_identity_init) and op kinds back in."""
        return self._switched(names, True)

    def _switched(self, names, on: bool) -> "Features":
        changes = {}
        ops = [o for o in self.ops]
        for name in names:
            name = name.strip()
            if not name:
                continue
            if name in OP_WEIGHTS:
                ops = [o for o in ops if o != name] + ([name] if on else [])
            elif name in {f.name for f in dataclasses.fields(self)} and name != "ops":
                changes[name] = on
            else:
                raise ValueError(f"unknown feature '{name}'")
        return dataclasses.replace(self, ops=tuple(ops), **changes)


# --------------------------------------------------------------------------- shardings


class ShardingMaker:
    def __init__(self, rng: random.Random, mesh, features: Features):
        self.rng = rng
        self.mesh = mesh  # ((name, size), ...)
        self.features = features

    def axis_choices(self, name: str, size: int):
        """(text, size, (pre, k) or None) of ways to use axis `name`: whole, or a sub-axis
        now and then."""
        out = [(f'"{name}"', size, None)]
        if self.features.sub_axes and size >= 4 and self.rng.random() < 0.25:
            pre, k = self.rng.choice(sub_axes(size))
            out = [(f'"{name}":({pre}){k}', k, (pre, k))]
        return out

    def another_sub_axis(self, name: str, size: int, taken):
        """A sub-axis of `name` that can shard the same tensor as the sub-axes `taken`
        ((pre, k) pairs): not overlapping them and in one decomposition with them. On
        "x"=6 after "x":(1)2 that is "x":(2)3 (never "x":(3)2, the minor digit of 3*2).
        None now and then, or when there is none."""
        if not taken or any(t is None for t in taken) or self.rng.random() < 0.5:
            return None
        options = [(pre, k) for pre, k in sub_axes(size)
                   if all(fits_with(pre, k, t) for t in taken)]
        if not options:
            return None
        pre, k = self.rng.choice(options)
        return f'"{name}":({pre}){k}', k, (pre, k)

    def random(self, shape, *, allow_open: bool = True, unreduced: frozenset = frozenset(),
               shard_prob: float = 0.55) -> str:
        """`<@mesh, [...]>` text: valid (no axis twice, sizes divide the dims)."""
        rng = self.rng
        free = [(n, s) for n, s in self.mesh if s > 1]
        rng.shuffle(free)
        dims = []
        used: dict[str, list] = {}  # axis name -> the (pre, k) of its refs (None: whole)
        for n in shape:
            axes = []
            total = 1
            if rng.random() < shard_prob:
                want = 1 if rng.random() < 0.75 else 2
                for name, size in list(free):
                    if len(axes) >= want:
                        break
                    if name in unreduced:
                        continue
                    if name in used:
                        if not (self.features.odd_meshes and self.features.sub_axes):
                            continue
                        choice = self.another_sub_axis(name, size, used[name])
                        if choice is None:
                            continue
                    else:
                        choice = self.axis_choices(name, size)[0]
                    text, k, sub = choice
                    if n % (total * k) and not (self.features.uneven_dims and n >= 2
                                                and rng.random() < 0.6):
                        continue
                    axes.append(text)
                    used.setdefault(name, []).append(sub)
                    total *= k
            is_open = allow_open and self.features.open_dims and rng.random() < 0.2
            parts = axes + (["?"] if is_open else [])
            dims.append("{" + ", ".join(parts) + "}")
        text = "<@mesh, [" + ", ".join(dims) + "]"
        if unreduced:
            names = [n for n, _ in self.mesh if n in unreduced]
            text += ", unreduced={" + ", ".join(f'"{n}"' for n in names) + "}"
        return text + ">"

    def attr(self, shape, **kw) -> str:
        return "#sdy.sharding" + self.random(shape, **kw)


def sub_axes(size: int) -> list[tuple[int, int]]:
    """Every sub-axis (pre, k) of an axis of `size`: k > 1, pre * k divides size, not the
    whole axis; ordered by (pre, k)."""
    return [(pre, end // pre) for pre in range(1, size) for end in range(pre * 2, size + 1)
            if size % end == 0 and end % pre == 0 and (pre, end) != (1, size)]


def fits_with(pre: int, k: int, other: tuple[int, int]) -> bool:
    """Can sub-axes (pre)k and `other` of one axis shard one tensor together? They must
    not overlap, and the ends of both, sorted, must divide each other in turn."""
    lo, hi = other[0], other[0] * other[1]
    points = sorted({pre, pre * k, lo, hi})
    return max(pre, lo) >= min(pre * k, hi) and all(
        b % a == 0 for a, b in zip(points, points[1:]))


# --------------------------------------------------------------------------- functions


class FuncBuilder(Issue6Ops):
    """One function's body: a pool of values and the lines that define them."""

    def __init__(self, gen: "Generator", name: str, *, is_main: bool, max_args: int):
        self.gen = gen
        self.rng = gen.rng
        self.name = name
        self.is_main = is_main
        self.max_args = max_args
        self.args: list[tuple[Value, str | None]] = []  # value, sharding attr text
        self.lines: list[str] = []
        self.pool: list[Value] = []
        self.counter = 0
        self.ops = 0
        self.root = self    # the function builder whose SSA names a region shares
        self.depth = 0      # while/case regions this builder is nested in

    def nice(self, n: int) -> bool:
        """A dim the generator may make: any positive one with Features.uneven_dims,
        else 1, 2, 4 or a multiple of 8 (see is_nice)."""
        return n >= 1 if self.gen.features.uneven_dims else is_nice(n)

    def rich_form(self, rich: bool | None) -> bool:
        """Does a windowed op's emitter draw its richer form? `rich` says so where given
        (test/fuzz/windowed.py); else half the time with Features.rich_windowed, and
        without drawing a number when it is off (programs stay as they were)."""
        if rich is not None:
            return rich
        return self.gen.features.rich_windowed and self.rng.random() < 0.5

    def aligned_high(self, out, high: int, step: int = 1) -> int:
        """Often (rich forms), a larger `high` padding that makes `out(high)` divide by 4
        or 8, so that the result can be sharded evenly."""
        if self.rng.random() < 0.3:
            return high
        mod = self.rng.choice([4, 8])
        for extra in range(0, 8 * step + 1):
            if out(high + extra) > 0 and out(high + extra) % mod == 0:
                return high + extra
        return high

    # -- values ---------------------------------------------------------------------
    def fresh(self) -> str:
        """A new SSA name, unique in the function (regions share their function's)."""
        self.root.counter += 1
        return f"%v{self.root.counter}"

    def result_names(self, n: int) -> tuple[str, list[str]]:
        """(`%v7` or `%v7:n`, the names of the n results: `%v7` or `%v7#0` ...)."""
        ref = self.fresh()
        if n == 1:
            return ref, [ref]
        return f"{ref}:{n}", [f"{ref}#{i}" for i in range(n)]

    def emit(self, text: str) -> None:
        self.lines.append("    " + text)

    def add(self, value: Value, *, constrain: bool = True) -> Value:
        """Put a new value in the pool (maybe behind a sharding constraint)."""
        gen = self.gen
        if constrain and gen.features.constraints and self.rng.random() < 0.2:
            ref = self.fresh()
            sharding = gen.shardings.random(value.shape, shard_prob=0.6)
            self.emit(f"{ref} = sdy.sharding_constraint {value.ref} {sharding} : {value.type}")
            value = dataclasses.replace(value, ref=ref)
        self.pool.append(value)
        return value

    def use(self, *values: Value) -> None:
        for v in values:
            v.uses += 1
            for p in self.pool:
                if p.ref == v.ref:
                    p.uses = v.uses

    def new_arg(self, shape, dtype: str) -> Value:
        i = len(self.args)
        mag = 5.0 if dtype == "f32" else 8.0
        value = Value(f"%arg{i}", tuple(shape), dtype, mag)
        sharding = None
        if self.is_main:
            if shape or self.gen.features.scalar_args:
                if self.rng.random() < 0.8:
                    sharding = self.gen.shardings.attr(shape)
        self.args.append((value, sharding))
        self.pool.append(value)
        return value

    def can_add_arg(self, shape) -> bool:
        if len(self.args) >= self.max_args:
            return False
        if not shape and self.is_main and not self.gen.features.scalar_args:
            return False
        return True

    def pick(self, pred=lambda v: True, fresh_bias: bool = True) -> Value | None:
        candidates = [v for v in self.pool if pred(v)]
        if not candidates:
            return None
        weights = []
        for i, v in enumerate(candidates):
            w = 1.0 + (2.0 * i / len(candidates) if fresh_bias else 0.0)
            if v.uses == 0:
                w *= 2.5
            weights.append(w)
        return self.rng.choices(candidates, weights)[0]

    def value_of(self, shape, dtype: str, *, allow_existing: bool = True) -> Value:
        """A value of this type: an existing one, a new argument or a new source op."""
        shape = tuple(shape)
        rng = self.rng
        if allow_existing and rng.random() < 0.6:
            found = self.pick(lambda v: v.shape == shape and v.dtype == dtype)
            if found is not None:
                return self.tame(found)
        r = rng.random()
        if r < 0.65 and self.can_add_arg(shape):
            return self.new_arg(shape, dtype)
        if r < 0.8:
            return self.op_iota(shape, dtype)
        return self.op_constant(shape, dtype)

    def tame(self, v: Value) -> Value:
        """`v`, squashed into a small range first if its bound is large."""
        limit = FLOAT_LIMIT if v.dtype == "f32" else INT_LIMIT
        if v.mag <= limit:
            return v
        if v.dtype == "f32":
            return self.unary(v, "tanh")
        return self.clamp_const(v, -8, 8)

    # -- emitters --------------------------------------------------------------------
    def through_tuple(self, x: Value, rng: random.Random) -> Value:
        """`x` put into a stablehlo.tuple with another value and read back (what HLO
        converted to StableHLO keeps of tuple-shaped values; propagation once put a
        sharding on the tuple op, which sdy rejects). Its own stream, and the read
        stays out of the pool (the op it feeds uses `x`): the main stream draws as it
        did, so every other program stays as it was."""
        others = [v for v in self.pool if v is not x]
        members = [x] + ([rng.choice(others)] if others else [])
        rng.shuffle(members)
        tuple_type = f"tuple<{', '.join(v.type for v in members)}>"
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.tuple {', '.join(v.ref for v in members)} : {tuple_type}")
        read = self.fresh()
        self.emit(f"{read} = stablehlo.get_tuple_element {ref}[{members.index(x)}] : "
                  f"({tuple_type}) -> {x.type}")
        self.use(x)
        return Value(read, x.shape, x.dtype, x.mag, x.exact, x.contracted).marked_as(x)

    def unary(self, x: Value, op: str) -> Value:
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.{op} {x.ref} : {x.type}")
        self.use(x)
        self.ops += 1
        mag = {"tanh": 1.0, "exponential": math.exp(min(x.mag, 80.0))}.get(op, x.mag)
        exact = x.exact and op not in ("tanh", "exponential")
        return self.add(Value(ref, x.shape, x.dtype, mag, exact))

    def clamp_const(self, x: Value, lo, hi) -> Value:
        lo_v = self.scalar_const(lo, x.dtype)
        hi_v = self.scalar_const(hi, x.dtype)
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.clamp {lo_v.ref}, {x.ref}, {hi_v.ref} : "
                  f"({lo_v.type}, {x.type}, {hi_v.type}) -> {x.type}")
        self.use(x)
        self.ops += 1
        return self.add(Value(ref, x.shape, x.dtype, max(abs(lo), abs(hi)), x.exact))

    def scalar_const(self, value, dtype: str) -> Value:
        ref = self.fresh()
        text = fmt_float(value) if dtype == "f32" else str(int(value))
        self.emit(f"{ref} = stablehlo.constant dense<{text}> : {ttype((), dtype)}")
        return Value(ref, (), dtype, abs(value))

    # -- random ops --------------------------------------------------------------------
    def random_op(self, allowed) -> None:
        kinds = [k for k in OP_WEIGHTS if k in allowed]
        if self.depth >= MAX_REGION_DEPTH:
            kinds = [k for k in kinds if k not in ("while", "case")]
        if not kinds:
            return
        for _ in range(20):
            kind = self.rng.choices(kinds, [OP_WEIGHTS[k] for k in kinds])[0]
            if getattr(self, f"op_{kind}_random")() is not None:
                return

    def op_unary_random(self):
        x = self.pick()
        if x is None:
            return None
        tuples = self.gen.tuple_rng
        if tuples.random() < 0.04:
            x = self.through_tuple(x, tuples)
        ops = FLOAT_UNARY if x.dtype == "f32" else INT_UNARY
        op = self.rng.choice(ops)
        if op == "exponential" and x.mag > 4:
            x = self.unary(x, "tanh")
        return self.unary(self.tame(x), op)

    def op_binary_random(self):
        x = self.pick()
        if x is None:
            return None
        x = self.tame(x)
        y = self.tame(self.value_of(x.shape, x.dtype))
        op = self.rng.choice(FLOAT_BINARY if x.dtype == "f32" else INT_BINARY)
        if self.rng.random() < 0.5:
            x, y = y, x
        return self.binary(op, x, y)

    def binary(self, op: str, x: Value, y: Value) -> Value:
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.{op} {x.ref}, {y.ref} : {x.type}")
        self.use(x, y)
        self.ops += 1
        mag = x.mag * y.mag if op == "multiply" else (
            x.mag + y.mag if op in ("add", "subtract") else max(x.mag, y.mag))
        # (NaN from nans.py carries through: mixed.py skips values marked so.)
        return self.add(Value(ref, x.shape, x.dtype, mag, x.exact and y.exact,
                              nan=x.nan or y.nan))

    def op_select_random(self):
        # The predicate compares exact values only: a rounding difference must not flip it.
        a = self.pick(lambda v: v.exact and v.dtype in ("f32", "i32"))
        if a is None:
            return None
        b = self.value_of(a.shape, a.dtype)
        if not b.exact:
            b = self.value_of(a.shape, a.dtype, allow_existing=False)
        direction = self.rng.choice(DIRECTIONS)
        kind = "FLOAT" if a.dtype == "f32" else "SIGNED"
        pred = self.fresh()
        pred_type = ttype(a.shape, "i1")
        self.emit(f"{pred} = stablehlo.compare {direction}, {a.ref}, {b.ref}, {kind} : "
                  f"({a.type}, {b.type}) -> {pred_type}")
        self.use(a, b)
        self.ops += 1
        dtype = self.rng.choice(["f32", "i32"])
        t = self.value_of(a.shape, dtype)
        f = self.value_of(a.shape, dtype)
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.select {pred}, {t.ref}, {f.ref} : {pred_type}, {t.type}")
        self.use(t, f)
        self.ops += 1
        return self.add(Value(ref, a.shape, dtype, max(t.mag, f.mag), t.exact and f.exact))

    def op_clamp_random(self):
        x = self.pick()
        if x is None:
            return None
        x = self.tame(x)
        crossed = self.gen.features.crossed_clamp_bounds
        if self.rng.random() < 0.5 or not crossed:
            lo, hi = (-1.5, 2.0) if x.dtype == "f32" else (-3, 5)
            if self.rng.random() < 0.2 and crossed:
                lo, hi = hi, lo  # min(max(x, lo), hi) is defined for lo > hi too
            return self.clamp_const(x, lo, hi)
        lo_v = self.tame(self.value_of(x.shape, x.dtype))
        hi_v = self.tame(self.value_of(x.shape, x.dtype))
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.clamp {lo_v.ref}, {x.ref}, {hi_v.ref} : {x.type}")
        self.use(x, lo_v, hi_v)
        self.ops += 1
        return self.add(Value(ref, x.shape, x.dtype, max(x.mag, lo_v.mag, hi_v.mag),
                              x.exact and lo_v.exact and hi_v.exact))

    def op_convert_random(self):
        x = self.pick(lambda v: v.dtype == "i32" or (v.exact and v.mag < 1e6))
        if x is None:
            return None
        out = "f32" if x.dtype == "i32" else "i32"
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.convert {x.ref} : ({x.type}) -> {ttype(x.shape, out)}")
        self.use(x)
        self.ops += 1
        return self.add(Value(ref, x.shape, out, x.mag + 1, x.exact))

    def op_broadcast_random(self):
        rng = self.rng
        x = self.pick(lambda v: len(v.shape) < 4)
        if x is None:
            return None
        extra = rng.randint(0 if any(n == 1 for n in x.shape) else 1, min(2, 4 - len(x.shape)))
        rank = len(x.shape) + extra
        mapping = sorted(rng.sample(range(rank), len(x.shape)))
        out = [0] * rank
        for i, d in enumerate(mapping):
            n = x.shape[i]
            out[d] = rng.choice([2, 4, 8, 16]) if n == 1 and rng.random() < 0.7 else n
        for d in range(rank):
            if d not in mapping:
                out[d] = rng.choice([1, 2, 4, 8, 8, 16])
        if math.prod(out) >= MAX_ELEMS or tuple(out) == x.shape:
            return None
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.broadcast_in_dim {x.ref}, dims = {int_list(mapping)} : "
                  f"({x.type}) -> {ttype(out, x.dtype)}")
        self.use(x)
        self.ops += 1
        return self.add(Value(ref, tuple(out), x.dtype, x.mag, x.exact, x.contracted,
                              sliced=x.sliced))

    def op_transpose_random(self):
        x = self.pick(lambda v: len(v.shape) >= 2)
        if x is None:
            return None
        perm = list(range(len(x.shape)))
        while perm == sorted(perm):
            self.rng.shuffle(perm)
        out = tuple(x.shape[p] for p in perm)
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.transpose {x.ref}, dims = {int_list(perm)} : "
                  f"({x.type}) -> {ttype(out, x.dtype)}")
        self.use(x)
        self.ops += 1
        return self.add(Value(ref, out, x.dtype, x.mag, x.exact, x.contracted,
                              sliced=x.sliced))

    def op_reshape_random(self):
        rng = self.rng
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return None
        shape = list(x.shape)
        choice = rng.random()
        if choice < 0.4:  # split a dim
            dims = [i for i, n in enumerate(shape) if n >= 4] if len(shape) < 4 else []
            if not dims:
                return None
            d = rng.choice(dims)
            n = shape[d]
            divisors = [k for k in (2, 4, 8) if n % k == 0 and k < n and self.nice(n // k)]
            if not divisors:
                return None
            k = rng.choice(divisors)
            shape[d:d + 1] = [k, n // k] if rng.random() < 0.5 else [n // k, k]
        elif choice < 0.75:  # merge adjacent dims
            if len(shape) < 2:
                return None
            d = rng.randrange(len(shape) - 1)
            shape[d:d + 2] = [shape[d] * shape[d + 1]]
        elif choice < 0.85:  # insert a size-1 dim
            if len(shape) >= 4:
                return None
            shape.insert(rng.randint(0, len(shape)), 1)
        elif choice < 0.93:  # drop size-1 dims
            if 1 not in shape:
                return None
            shape = [n for n in shape if n != 1]
        else:  # flatten
            shape = [math.prod(shape)]
        if tuple(shape) == x.shape:
            return None
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.reshape {x.ref} : ({x.type}) -> {ttype(shape, x.dtype)}")
        self.use(x)
        self.ops += 1
        only_unit_dims = [n for n in shape if n != 1] == [n for n in x.shape if n != 1]
        return self.add(Value(ref, tuple(shape), x.dtype, x.mag, x.exact, x.contracted,
                              sliced=x.sliced and only_unit_dims))

    def op_dot_random(self):
        rng = self.rng
        x = self.pick(lambda v: v.dtype == "f32" and len(v.shape) >= 1)
        if x is None:
            return None
        x = self.tame(x)
        rank = len(x.shape)
        roles = [rng.choices(["batch", "contract", "free"], [1, 3, 2])[0] for _ in range(rank)]
        if "contract" not in roles and rng.random() < 0.85:
            roles[rng.randrange(rank)] = "contract"
        lb = [i for i, r in enumerate(roles) if r == "batch"]
        lc = [i for i, r in enumerate(roles) if r == "contract"]
        lf = [i for i, r in enumerate(roles) if r == "free"]
        rf_sizes = [rng.choice([1, 2, 4, 8, 16, 32]) for _ in range(rng.randint(0, 2))]
        # rhs dims: batch (in order), contracting (in lhs order), free; then shuffled.
        rhs_dims = ([("b", j) for j in range(len(lb))] + [("c", j) for j in range(len(lc))]
                    + [("f", j) for j in range(len(rf_sizes))])
        rng.shuffle(rhs_dims)
        # Result dims: batch, lhs free, rhs free (each in its operand's order).
        out_shape = ([x.shape[i] for i in lb] + [x.shape[i] for i in lf]
                     + [rf_sizes[j] for kind, j in rhs_dims if kind == "f"])
        if len(out_shape) > 4 or math.prod(out_shape) >= MAX_ELEMS:
            return None
        rhs_shape = []
        for kind, j in rhs_dims:
            rhs_shape.append(x.shape[lb[j]] if kind == "b" else
                             x.shape[lc[j]] if kind == "c" else rf_sizes[j])
        if math.prod(rhs_shape) >= MAX_ELEMS:
            return None
        rb = [rhs_dims.index(("b", j)) for j in range(len(lb))]
        rc = [rhs_dims.index(("c", j)) for j in range(len(lc))]
        y = self.tame(self.value_of(rhs_shape, "f32"))
        contracted = frozenset()
        # Now and then shard the contraction explicitly, so that the result is partial.
        if lc and rng.random() < 0.3:
            x, y, contracted = self.shard_contraction(x, y, lc, rc)
        ref = self.fresh()
        dims = ""
        if lb:
            dims += f"batching_dims = {int_list(lb)} x {int_list(rb)}, "
        dims += f"contracting_dims = {int_list(lc)} x {int_list(rc)}, "
        self.emit(f"{ref} = stablehlo.dot_general {x.ref}, {y.ref}, {dims}"
                  f"precision = [DEFAULT, DEFAULT] : ({x.type}, {y.type}) -> "
                  f"{ttype(out_shape, 'f32')}")
        self.use(x, y)
        self.ops += 1
        k = math.prod(x.shape[i] for i in lc) if lc else 1
        return self.add(Value(ref, tuple(out_shape), "f32", x.mag * y.mag * k, False,
                              contracted))

    def shard_contraction(self, x: Value, y: Value, lc, rc):
        """Constrain x and y to shard one contracting dim on one axis (others open)."""
        rng = self.rng
        j = rng.randrange(len(lc))
        size = x.shape[lc[j]]
        axes = [(n, s) for n, s in self.gen.mesh if s > 1
                and (size % s == 0 or self.gen.features.uneven_dims)]
        if not axes:
            return x, y, frozenset()
        name, _ = rng.choice(axes)
        out = []
        for v, dim in ((x, lc[j]), (y, rc[j])):
            dims = ", ".join(f'{{"{name}"}}' if d == dim else "{?}" for d in range(len(v.shape)))
            ref = self.fresh()
            self.emit(f"{ref} = sdy.sharding_constraint {v.ref} <@mesh, [{dims}]> : {v.type}")
            nv = dataclasses.replace(v, ref=ref, uses=0)
            self.pool.append(nv)
            out.append(nv)
        return out[0], out[1], frozenset([name])

    def op_reduce_random(self):
        rng = self.rng
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return None
        rank = len(x.shape)
        dims = sorted(rng.sample(range(rank), rng.randint(1, min(rank, 3))))
        kind = rng.choice(["add", "add", "maximum", "minimum"])
        if not self.gen.features.mixed_reducers:
            kind = self.gen.reducer
        if kind == "add":
            x = self.tame(x)
        init = 0.0
        if x.dtype == "f32":
            init_text = {"add": "0.000000e+00", "maximum": infinity(negative=True),
                         "minimum": infinity()}[kind]
        else:
            init_text = {"add": "0", "maximum": "-2147483648", "minimum": "2147483647"}[kind]
        if self.gen.features.non_identity_init and rng.random() < 0.08:
            init = 1.0
            init_text = "1.000000e+00" if x.dtype == "f32" else "1"
        real = None  # the f32 value a complex sum is of
        if kind == "add" and init == 0.0 and x.dtype == "f32" and complex_reductions.draw(self):
            real, x = x, complex_reductions.operand(self, x)
            init_text = complex_reductions.ZERO
        c = self.fresh()
        self.emit(f"{c} = stablehlo.constant dense<{init_text}> : {ttype((), x.dtype)}")
        out = tuple(n for i, n in enumerate(x.shape) if i not in dims)
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.reduce({x.ref} init: {c}) applies stablehlo.{kind} "
                  f"across dimensions = {int_list(dims)} : ({x.type}, {ttype((), x.dtype)}) "
                  f"-> {ttype(out, x.dtype)}")
        self.use(x if real is None else real)
        self.ops += 1
        n = math.prod(x.shape[d] for d in dims)
        mag = x.mag * n + abs(init) if kind == "add" else max(x.mag, abs(init))
        if real is not None:
            return self.add(complex_reductions.back_to_real(self, ref, out, mag))
        exact = x.exact and (kind != "add" or x.dtype == "i32")
        contracted = x.contracted if kind == "add" else frozenset()
        return self.add(Value(ref, out, x.dtype, mag, exact, contracted))

    def random_shape(self, max_rank: int = 3) -> tuple[int, ...]:
        for _ in range(50):
            rank = self.rng.randint(1, max_rank)
            dims = NICE_DIMS + UNEVEN_DIMS if self.gen.features.uneven_dims else NICE_DIMS
            if self.gen.mesh in ODD_MESHES:
                dims = dims + ODD_DIMS
            shape = tuple(self.rng.choice(dims) for _ in range(rank))
            if self.gen.features.zero_dims and self.gen.zero_rng.random() < 0.03:
                # A dim of size zero (issue 19): its own stream, as odd meshes.
                shape = tuple(0 if i == rank - 1 else n for i, n in enumerate(shape))
            if math.prod(shape) < MAX_ELEMS:
                return shape
        return (8,)

    def op_iota(self, shape, dtype: str) -> Value:
        shape = tuple(shape)
        if not shape:
            return self.op_constant(shape, dtype)
        dim = self.rng.randrange(len(shape))
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.iota dim = {dim} : {ttype(shape, dtype)}")
        self.ops += 1
        return self.add(Value(ref, shape, dtype, float(shape[dim])))

    def op_iota_random(self):
        return self.op_iota(self.random_shape(), self.rng.choice(["f32", "i32"]))

    def op_constant(self, shape, dtype: str) -> Value:
        shape = tuple(shape)
        rng = self.rng
        n = math.prod(shape)
        ref = self.fresh()
        if n <= 256 and rng.random() < 0.6:
            if dtype == "f32":
                values = [rng.randint(-16, 16) / 4 for _ in range(n)]
            else:
                values = [rng.randint(-8, 8) for _ in range(n)]
            literal = dense(values, shape, dtype)
            mag = max((abs(v) for v in values), default=0)
        else:
            v = rng.randint(-8, 8) / 2 if dtype == "f32" else rng.randint(-8, 8)
            literal = fmt_float(v) if dtype == "f32" else str(v)
            mag = abs(v)
        self.emit(f"{ref} = stablehlo.constant dense<{literal}> : {ttype(shape, dtype)}")
        self.ops += 1
        return self.add(Value(ref, shape, dtype, float(mag)))

    def op_constant_random(self):
        return self.op_constant(self.random_shape(), self.rng.choice(["f32", "i32"]))

    def op_concatenate_random(self, rich: bool | None = None):
        """stablehlo.concatenate of a value and others (new or from the pool) to a nice
        size; richer form (rich_form): a roll, concat(x[a:], x[:a]) (jnp.roll's form)."""
        rng = self.rng
        if self.rich_form(rich):
            return self.roll()
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return None
        d = rng.randrange(len(x.shape))
        n = x.shape[d]
        # Sizes of the other parts, so that the total is a nice dim again.
        options = [[n], [2 * n], [n, n], [n, 2 * n], [8], [16], [8, 8], [1, 1, 2], [1], [2],
                   [4], [8, 16]]
        small = self.gen.features.small_permuted_dims
        options = [o for o in options if self.nice(n + sum(o))
                   and math.prod(x.shape[:d] + x.shape[d + 1:]) * (n + sum(o)) < MAX_ELEMS
                   and (small or all(k % 8 == 0 for k in o + [n]))]
        if not options:
            return None
        parts = [x]
        for size in rng.choice(options):
            shape = list(x.shape)
            shape[d] = size
            parts.append(self.value_of(shape, x.dtype))
        total = sum(p.shape[d] for p in parts)
        rng.shuffle(parts)
        out = list(x.shape)
        out[d] = total
        ref = self.fresh()
        refs = ", ".join(p.ref for p in parts)
        types = ", ".join(p.type for p in parts)
        self.emit(f"{ref} = stablehlo.concatenate {refs}, dim = {d} : ({types}) -> "
                  f"{ttype(out, x.dtype)}")
        self.use(*parts)
        self.ops += 1
        return self.add(Value(ref, tuple(out), x.dtype, max(p.mag for p in parts),
                              all(p.exact for p in parts)))

    def roll(self):
        """jnp.roll along one dim: the concatenate of two slices of one value."""
        rng = self.rng
        small = self.gen.features.small_permuted_dims
        def rollable(n):  # (without small_permuted_dims: pieces of multiples of 8)
            return n >= 2 if small else n >= 16 and n % 8 == 0

        x = self.pick(lambda v: any(rollable(n) for n in v.shape))
        if x is None:
            return None
        d = rng.choice([i for i, n in enumerate(x.shape) if rollable(n)])
        n = x.shape[d]
        a = rng.choice([n // 2, n // 4 or 1, rng.randint(1, n - 1)])
        if not small:
            a = 8 * rng.randint(1, n // 8 - 1)
        pieces = []
        for start, limit in ((a, n), (0, a)):
            shape = list(x.shape)
            shape[d] = limit - start
            spec = ", ".join(f"{start}:{limit}" if i == d else f"0:{k}"
                             for i, k in enumerate(x.shape))
            ref = self.fresh()
            self.emit(f"{ref} = stablehlo.slice {x.ref} [{spec}] : ({x.type}) -> "
                      f"{ttype(shape, x.dtype)}")
            pieces.append((ref, ttype(shape, x.dtype)))
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.concatenate {pieces[0][0]}, {pieces[1][0]}, dim = {d} : "
                  f"({pieces[0][1]}, {pieces[1][1]}) -> {x.type}")
        self.use(x)
        self.ops += 3
        return self.add(Value(ref, x.shape, x.dtype, x.mag, x.exact, x.contracted))

    def op_slice_random(self, rich: bool | None = None):
        """stablehlo.slice to nice sizes (stride 2 now and then); richer form
        (rich_form): any start and limit, strides up to 3, counts of 2, 4 or 8 often."""
        rng = self.rng
        x = self.pick(lambda v: any(n >= 2 for n in v.shape))
        if x is None:
            return None
        starts, limits, strides, out = [], [], [], []
        changed = False
        small = self.gen.features.small_permuted_dims
        rich = self.rich_form(rich)
        for n in x.shape:
            sizes = [k for k in (1, 2, 4, 8, 16, n // 2) if 1 <= k < n and self.nice(k)
                     and (small or k % 8 == 0)]
            if rich and n >= 2 and rng.random() < 0.75:
                start = rng.randint(0, n - 1)
                limit = rng.randint(start + 1, n)
                stride = rng.choice([1, 1, 2, 3])
                if rng.random() < 0.6:  # a count of elements that shards evenly
                    count = rng.choice([c for c in (2, 4, 8) if (c - 1) * stride < n] or [1])
                    start = rng.randint(0, n - 1 - (count - 1) * stride)
                    limit = start + (count - 1) * stride + 1
                size = -(-(limit - start) // stride)
                if self.nice(size) and (small or size % 8 == 0 and n % 8 == 0):
                    starts.append(start)
                    limits.append(limit)
                    strides.append(stride)
                    out.append(size)
                    changed = changed or size != n
                    continue
            if not rich and n >= 2 and sizes and rng.random() < 0.6:
                size = rng.choice(sizes)
                start = rng.randint(0, n - size)
                stride = 1
                if rng.random() < 0.2 and start + 2 * (size - 1) + 1 <= n:
                    stride = 2
                starts.append(start)
                limits.append(start + stride * (size - 1) + 1)
                strides.append(stride)
                out.append(size)
                changed = True
            else:
                starts.append(0)
                limits.append(n)
                strides.append(1)
                out.append(n)
        empty = self.gen.empty_slice_rng
        if self.gen.features.zero_dims and empty.random() < 0.05:
            # A dim sliced to nothing from a non-empty one (start == limit, any stride:
            # what associative_scan's odd/even split makes of one element): its own
            # stream, as zero dims. Sharded, its halo window was negative (issue of
            # 2026-11-28: a crash in shardpy-to-local).
            dims = [d for d, n in enumerate(x.shape) if n >= 1]
            d = empty.choice(dims)
            starts[d] = limits[d] = empty.randint(0, x.shape[d])
            strides[d] = empty.choice([1, 2, 3])
            out[d] = 0
            changed = True
        if not changed:
            return None
        spec = ", ".join(f"{s}:{l}" + (f":{t}" if t != 1 else "")
                         for s, l, t in zip(starts, limits, strides))
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.slice {x.ref} [{spec}] : ({x.type}) -> "
                  f"{ttype(out, x.dtype)}")
        self.use(x)
        self.ops += 1
        return self.add(Value(ref, tuple(out), x.dtype, x.mag, x.exact, x.contracted))

    def op_pad_random(self, rich: bool | None = None):
        """stablehlo.pad to nice sizes (low/high, negative too; interior 1 now and then);
        richer form (rich_form): interior up to 2, low/high from -3 to 5, a high padding
        that makes the size divide by 4 or 8 often."""
        rng = self.rng
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return None
        low, high, interior, out = [], [], [], []
        small = self.gen.features.small_permuted_dims
        rich = self.rich_form(rich)
        for n in x.shape:
            lo = hi = it = 0
            if rich and n >= 1 and rng.random() < 0.75:
                it = rng.choice([0, 0, 1, 2])
                base = n + (n - 1) * it
                lo = rng.randint(-3, 5)
                hi = self.aligned_high(lambda h: lo + base + h, rng.randint(-3, 5))
                size = lo + base + hi
                if size < 1 or not self.nice(size) or not (small or n % 8 == size % 8 == 0):
                    lo, hi, it = 0, 0, 0
            elif not rich and rng.random() < 0.6 and (small or n % 8 == 0):
                it = 1 if rng.random() < 0.15 and n <= 16 else 0
                base = n + it * max(n - 1, 0)  # an empty dim stays empty inside
                # A nice result size; low/high (negative: cropping) make up the rest.
                sizes = [t for t in [1, 2, 4] + list(range(8, base + 17, 8))
                         if abs(t - base) <= 16 and (small or t % 8 == 0)]
                t = rng.choice(sizes)
                extra = t - base
                lo = rng.randint(min(0, extra) - (1 if n >= 4 else 0),
                                 max(0, extra) + (1 if n >= 4 else 0))
                hi = extra - lo
                cropped = min(lo, hi) <= -n if n else min(lo, hi) < 0  # (empty: none)
                if cropped or lo + hi + base != t:
                    lo, hi, it = 0, 0, 0
            size = n + lo + hi + it * max(n - 1, 0)
            low.append(lo)
            high.append(hi)
            interior.append(it)
            out.append(size)
        # (A rich pad may keep the size: low -2 and high 2 shift the values.)
        unchanged = not any(low + high + interior) if rich else tuple(out) == x.shape
        if unchanged or math.prod(out) >= MAX_ELEMS:
            return None
        pad_value = rng.choice([0.0, 1.0, -2.5]) if x.dtype == "f32" else rng.choice([0, 3])
        c = self.scalar_const(pad_value, x.dtype)
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.pad {x.ref}, {c.ref}, low = {int_list(low)}, "
                  f"high = {int_list(high)}, interior = {int_list(interior)} : "
                  f"({x.type}, {c.type}) -> {ttype(out, x.dtype)}")
        self.use(x)
        self.ops += 1
        return self.add(Value(ref, tuple(out), x.dtype, max(x.mag, abs(pad_value)), x.exact))

    def op_call_random(self):
        gen = self.gen
        if not self.is_main or not gen.features.calls:
            return None
        rng = self.rng
        # Call an existing callee again when the pool has values of its argument types.
        for callee in gen.callees:
            if rng.random() < 0.5:
                operands = []
                for a, _ in callee.args:
                    v = self.pick(lambda v, a=a: v.shape == a.shape and v.dtype == a.dtype
                                  and v.mag <= a.mag and (v.exact or not a.exact)
                                  and gen.features.may_stand_for(v, a)
                                  and v not in operands)
                    if v is None:
                        break
                    operands.append(v)
                else:
                    return self.call(callee, operands)
        n = rng.randint(1, 2)
        operands = []
        for _ in range(n):
            v = self.pick(lambda v: v not in operands)
            if v is None:
                break
            operands.append(self.tame(v))
        if not operands:
            return None
        callee = gen.make_callee(operands)
        return self.call(callee, operands)

    def call(self, callee: "FuncBuilder", operands: list[Value]):
        results = callee.results
        types = ", ".join(v.type for v in results)
        lhs, names = self.result_names(len(results))
        rtypes = types if len(results) == 1 else f"({types})"
        self.emit(f"{lhs} = func.call @{callee.name}({', '.join(v.ref for v in operands)}) : "
                  f"({', '.join(v.type for v in operands)}) -> {rtypes}")
        self.use(*operands)
        self.ops += 1
        # Operands are within the bounds the callee was built for (see op_call_random).
        last = None
        for name, r in zip(names, results):
            exact = r.exact and all(o.exact for o in operands)
            last = self.add(Value(name, r.shape, r.dtype, r.mag, exact).marked_as(r),
                            constrain=False)
        return last

    # -- text --------------------------------------------------------------------------
    def finish(self, results: list[Value], result_shardings: list[str | None]) -> None:
        self.results = results
        self.result_shardings = result_shardings

    def text(self) -> str:
        visibility = "public" if self.is_main else "private"
        args = []
        for v, sharding in self.args:
            attr = f" {{sdy.sharding = {sharding}}}" if sharding else ""
            args.append(f"{v.ref}: {v.type}{attr}")
        res = []
        for v, sharding in zip(self.results, self.result_shardings):
            res.append(v.type + (f" {{sdy.sharding = {sharding}}}" if sharding else ""))
        lines = [f"  func.func {visibility} @{self.name}({', '.join(args)}) -> "
                 f"({', '.join(res)}) {{"]
        lines += self.lines
        lines.append(f"    return {', '.join(v.ref for v in self.results)} : "
                     f"{', '.join(v.type for v in self.results)}")
        lines.append("  }")
        return "\n".join(lines)


# --------------------------------------------------------------------------- programs


@dataclass
class Program:
    seed: int
    text: str
    mesh: tuple
    num_ops: int
    features: Features = field(default_factory=Features)


class Generator:
    def __init__(self, seed: int, features: Features | None = None):
        self.seed = seed
        self.rng = random.Random(seed)
        self.zero_rng = random.Random(f"zero {seed}")
        self.empty_slice_rng = random.Random(f"empty slice {seed}")
        self.tuple_rng = random.Random(f"tuple {seed}")
        self.features = features or Features()
        self.callees: list[FuncBuilder] = []
        self.reducer = self.rng.choice(["add", "maximum", "minimum"])

    def make_mesh(self):
        rng = self.rng
        self.mesh = rng.choice(MESHES)
        # Its own stream, so that programs drawing no odd mesh stay as they were.
        if self.features.odd_meshes and random.Random(f"odd {self.seed}").random() < 0.15:
            self.mesh = random.Random(f"odd mesh {self.seed}").choice(ODD_MESHES)
        size = math.prod(s for _, s in self.mesh)
        self.device_ids = None
        if self.features.device_ids and size > 1 and rng.random() < 0.25:
            ids = list(range(size))
            while ids == sorted(ids):
                rng.shuffle(ids)
            self.device_ids = ids
        self.shardings = ShardingMaker(rng, self.mesh, self.features)

    def mesh_text(self) -> str:
        axes = ", ".join(f'"{n}"={s}' for n, s in self.mesh)
        ids = f", device_ids={int_list(self.device_ids)}" if self.device_ids else ""
        return f"  sdy.mesh @mesh = <[{axes}]{ids}>"

    def generate(self) -> Program:
        rng = self.rng
        self.make_mesh()
        main = FuncBuilder(self, "main", is_main=True, max_args=6)
        for _ in range(rng.randint(1, 3)):
            shape = main.random_shape()
            if self.features.scalar_args and rng.random() < 0.08:
                shape = ()
            main.new_arg(shape, "f32" if rng.random() < 0.75 else "i32")
        target = rng.randint(3, 25)
        allowed = set(self.features.ops)
        guard = 0
        while main.ops < target and guard < 200:
            main.random_op(allowed)
            guard += 1
        if self.features.gradients:
            gradients.add(main, self.seed)
        if self.features.nans:
            nans.add(main, self.seed)
        if self.features.batch_norm:
            batch_norm.add(main, self.seed)
        if self.features.groups:
            groups.add(main, self.seed)
        bare = self.features.manual and manual.add(main, self.seed) and \
            manual.bare(self.seed)
        placed = self.features.maximal and maximal.add(main, self.seed)
        if self.features.mixed:
            mixed.add(main, self.seed)
        if self.features.linalg:
            linalg.add(main, self.seed)
        results = self.pick_results(main)
        shardings = []
        for v in results:
            shardings.append(self.result_sharding(v))
        if bare:  # (the draws above made all the same: the other programs stay as they were)
            main.args = [(v, None) for v, _ in main.args]
            shardings = [None] * len(shardings)
        main.finish(results, shardings)
        text = self.module_text(main, f"fuzz program, seed {self.seed}")
        # Ops of @main with a result chlo.top_k made (second_mesh puts no barrier after
        # them without Features.top_k_through_barrier).
        self.top_k_refs = {v.ref.split("#")[0] for v in main.pool if v.top_k}
        if placed:
            mesh = self.mesh_text()
            text = text.replace(mesh + "\n", mesh + "\n" + maximal.declaration(self) + "\n", 1)
        if self.features.second_mesh:
            text = second_mesh.apply(text, self)
        if self.features.mesh_aliases:
            text = mesh_aliases.apply(text, self)
        return Program(self.seed, text, self.mesh, main.ops, self.features)

    def module_text(self, main: FuncBuilder, comment: str) -> str:
        """The module: `// comment`, the mesh, @main (finished) and the callees."""
        body = [self.mesh_text(), main.text()] + [c.text() for c in self.callees]
        size = math.prod(s for _, s in self.mesh)
        return (f"// {comment}\n"
                f"module @fuzz attributes {{mhlo.num_partitions = {size} : i32, "
                f"mhlo.num_replicas = 1 : i32}} {{\n" + "\n".join(body) + "\n}\n")

    def pick_results(self, fb: FuncBuilder, limit: int = 4) -> list[Value]:
        ok = (lambda v: True) if (fb.is_main is False or self.features.scalar_results) \
            else (lambda v: len(v.shape) > 0)
        sinks = [v for v in fb.pool if v.uses == 0 and not v.ref.startswith("%arg") and ok(v)]
        results = sinks[-limit:]
        if not results:
            cands = [v for v in fb.pool if ok(v)] or fb.pool
            results = [cands[-1]]
        elif self.rng.random() < 0.2:
            extra = self.rng.choice(fb.pool)
            if ok(extra) and extra not in results:
                results.append(extra)
        return results

    def result_sharding(self, v: Value) -> str | None:
        rng = self.rng
        if rng.random() < 0.25:
            return None
        unreduced = frozenset()
        if v.contracted and self.features.unreduced_results and rng.random() < 0.6:
            unreduced = v.contracted
        return self.shardings.attr(v.shape, unreduced=unreduced)

    def make_callee(self, operands: list[Value]) -> FuncBuilder:
        rng = self.rng
        name = f"callee{len(self.callees)}"
        fb = FuncBuilder(self, name, is_main=False, max_args=len(operands))
        with_shardings = self.features.callee_shardings and rng.random() < 0.25
        for v in operands:
            arg = fb.new_arg(v.shape, v.dtype).marked_as(v)
            arg.mag = v.mag
            arg.exact = v.exact
            sharded = (with_shardings and rng.random() < 0.6) or \
                not self.features.unsharded_callee_args
            fb.args[-1] = (arg, self.shardings.attr(v.shape) if sharded else None)
        allowed = CALLEE_OPS & set(self.features.ops)
        target = rng.randint(1, 5)
        guard = 0
        while fb.ops < target and guard < 50:
            fb.random_op(allowed)
            guard += 1
        results = self.pick_results(fb, limit=2)
        shardings = [self.shardings.attr(v.shape) if with_shardings and rng.random() < 0.5
                     else None for v in results]
        fb.finish(results, shardings)
        self.callees.append(fb)
        return fb


def generate(seed: int, features: Features | None = None, float_text: str = "f32"
             ) -> Program:
    """Program `seed`; float_text="f64" prints the same program (the same random
    choices) with f64 in place of its float type (f32, or bf16 with Features.bf16):
    run_fuzz's exact reference."""
    features = features or Features()
    if features.bf16:
        # (LAPACK has no bf16 Cholesky: no custom_call in such programs, f64 or not)
        features = features.without(["custom_call"])
        if float_text == "f32":
            float_text = "bf16"
    with floats_printed_as(float_text):
        return Generator(seed, features).generate()


def parse_module(text: str, context=None):
    """Parse (and verify) a generated module; raises on invalid text."""
    from jaxlib.mlir import ir

    from shardpy.ir.jaxlib_bridge import make_context

    context = context or make_context()
    return ir.Module.parse(text, context)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--check", action="store_true", help="parse and verify the module")
    p.add_argument("--float64", action="store_true",
                   help="print float values as f64 (run_fuzz's exact reference)")
    p.add_argument("--disable", default="", help="comma-separated features or op kinds")
    p.add_argument("--enable", default="", help="comma-separated features to turn on "
                                                "(e.g. uneven_dims)")
    args = p.parse_args(argv)
    features = Features.from_spec(args.disable.split(",")
                                  + ["+" + n for n in args.enable.split(",") if n])
    program = generate(args.seed, features, "f64" if args.float64 else "f32")
    sys.stdout.write(program.text)
    if args.check:
        parse_module(program.text)
        print(f"// parsed: {program.num_ops} ops", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
