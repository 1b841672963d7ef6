"""Emitters of the issue-6 ops for the fuzz generator (a mixin of generate.FuncBuilder).

Each `op_<kind>_random` writes one op (plus the small ops JAX writes around it) in the
form JAX lowers to (jnp.take / .at[].add / lax.dynamic_slice / jnp.sort / lax.top_k /
jnp.argmax / lax.reduce_window / jnp.cumsum / max-pool gradients / lax.conv_general_dilated
/ jnp.flip / lax.fori_loop and scans / lax.cond and lax.switch / optimization_barrier /
jax.random bits / a LAPACK custom call with its sdy.sharding_rule) and returns the last
value it added to the pool, or None when the pool has nothing it fits.

Numbers stay comparable between the partitioned and the one-device run:
  * sort keys, top_k and argmax operands and select_and_scatter operands are exact
    values (no reassociated sums): a rounding difference cannot reorder them; ties are
    fine (stable sorts, lowest index first in top_k and argmax, first in a window);
  * results that sum in an order the partitioner may change (scatter-add of f32 with
    repeated indices, add windows, overlapping select_and_scatter windows, convolutions,
    the Cholesky factor) are inexact;
  * while carries keep the bound of their initial value (the body's results are
    clamped to it), so any trip count keeps magnitudes tame;
  * reduce_window never makes a window of padding only (its init would be the value).
"""
from __future__ import annotations

import math

import complex_reductions
import scan_inputs
from fuzz_text import (MAX_ELEMS, Value, dense, fmt_float, infinity, int_list,
                       potrf_target, ttype)

MAX_REGION_OPS = 5  # random ops in one while body / case branch


def _body(kind: str, dtype: str, names) -> list[str]:
    """Lines of a one-reducer region ({^bb0(a, b): r = kind(a, b)}); 'replace' returns b."""
    a, b, r = names
    t = ttype((), dtype)
    lines = [f"^bb0({a}: {t}, {b}: {t}):"]
    if kind == "replace":
        lines.append(f"  stablehlo.return {b} : {t}")
    else:
        lines += [f"  {r} = stablehlo.{kind} {a}, {b} : {t}", f"  stablehlo.return {r} : {t}"]
    return lines


def _identity(kind: str, dtype: str) -> str:
    if dtype == "f32":
        return {"add": "0.000000e+00", "multiply": "1.000000e+00",
                "maximum": infinity(negative=True), "minimum": infinity()}[kind]
    return {"add": "0", "maximum": "-2147483648", "minimum": "2147483647"}[kind]


def _window_out(n, w, s, lo, hi, base=1, wdil=1) -> int:
    """Size of a windowed dim (reduce_window / convolution / select_and_scatter)."""
    padded = ((n - 1) * base + 1 if n else 0) + lo + hi
    span = (w - 1) * wdil + 1
    return (padded - span) // s + 1 if padded >= span else 0


class Issue6Ops:
    """Mixin of FuncBuilder: needs pick, value_of, tame, add, use, emit, fresh, unary,
    clamp_const, scalar_const, random_shape, nice, random_op and the attributes gen,
    rng, pool, lines, ops, root, depth, is_main."""

    # -- helpers ------------------------------------------------------------------------
    def region(self, block_args: list[Value]):
        """A builder for a while body / case branch nested in this one: its names come
        from the enclosing function; it sees the enclosing values (with
        Features.region_captures) and `block_args`."""
        sub = type(self)(self.gen, self.name, is_main=False, max_args=0)
        sub.root = self.root
        sub.depth = self.depth + 1
        if self.gen.features.region_captures:
            sub.pool = list(self.pool)
        sub.pool += block_args
        return sub

    def fill_region(self, sub, count: int) -> None:
        from generate import REGION_OPS  # noqa: PLC0415 - generate imports this module

        allowed = REGION_OPS & set(self.gen.features.ops)
        guard = 0
        while sub.ops < count and guard < 20:
            sub.random_op(allowed)
            guard += 1

    def embed(self, sub) -> None:
        """Take over a region's lines (indented one more level) and its op count."""
        self.lines += ["  " + line for line in sub.lines]
        self.ops += sub.ops

    def scalar_of(self, v: Value) -> Value:
        """One element of `v` as a rank-0 value (slice + reshape, as JAX writes x[i, j])."""
        if not v.shape:
            return v
        pos = [self.rng.randrange(n) for n in v.shape]
        sl = self.fresh()
        one = ttype([1] * len(v.shape), v.dtype)
        self.emit(f"{sl} = stablehlo.slice {v.ref} [{', '.join(f'{p}:{p + 1}' for p in pos)}] "
                  f": ({v.type}) -> {one}")
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.reshape {sl} : ({one}) -> {ttype((), v.dtype)}")
        self.use(v)
        self.ops += 2
        return Value(ref, (), v.dtype, v.mag, v.exact)

    def index_scalar(self, bound: int, counter: Value | None = None) -> Value:
        """A tensor<i32> start index meant for [0, bound]: a loop counter, a constant or
        an element of an i32 value; out of range now and then with
        Features.out_of_range_indices (else clamped into range)."""
        rng = self.rng
        oor = self.gen.features.out_of_range_indices
        r = rng.random()
        if counter is not None and r < 0.5:
            v = counter
        elif r < 0.6:
            k = rng.randint(0, bound)
            if oor and rng.random() < 0.2:
                k = rng.choice([-3, -1, bound + 1, bound + 5])
            return self.scalar_const(k, "i32")
        else:
            src = self.pick(lambda v: v.dtype == "i32" and v.exact and v.mag <= 1e6
                            and 0 not in v.shape)  # (an element of it)
            if src is None:
                src = self.value_of((self.rng.choice([1, 2, 4, 8]),), "i32")
            v = self.scalar_of(src)
        if not oor:
            v = self.clamp_const(v, 0, bound)
        return v

    def indices(self, shape, bound: int, *, unique: bool = False) -> Value:
        """i32 indices into a dim of size `bound` (runtime values, or distinct constants
        when `unique`: a replacing scatter is defined only for those); clamped into
        range without Features.out_of_range_indices."""
        rng = self.rng
        oor = self.gen.features.out_of_range_indices
        if unique:
            rows = max(1, math.prod(shape[:-1]))
            n = shape[-1]
            pool = list(range(bound)) + ([-2, bound, bound + 3] if oor else [])
            values = []
            for _ in range(rows):
                values += rng.sample(pool, n)
            ref = self.fresh()
            self.emit(f"{ref} = stablehlo.constant dense<{dense(values, shape, 'i32')}> : "
                      f"{ttype(shape, 'i32')}")
            return Value(ref, tuple(shape), "i32",
                         float(max((abs(v) for v in values), default=0)))
        v = self.value_of(shape, "i32")
        if not v.exact:
            v = self.value_of(shape, "i32", allow_existing=False)
        v = self.tame(v)
        if not oor or rng.random() < 0.3:
            v = self.clamp_const(v, 0, bound - 1)
        return v

    def exact_operand(self, min_rank: int = 1):
        return self.pick(lambda v: v.exact and v.dtype in ("f32", "i32")
                         and len(v.shape) >= min_rank)

    # -- gather / scatter ----------------------------------------------------------------
    def _index_plan(self, x: Value):
        """(batch dim or None, indexed dim, number of indices) for a take-like op on x."""
        rng = self.rng
        rank = len(x.shape)
        bd = None
        if self.gen.features.batching_dims and rank >= 2 and rng.random() < 0.3:
            bd = rng.randrange(rank)
        # (An index into an empty dim, or a batch of them, is out of range whatever it is.)
        if bd is not None and x.shape[bd] == 0:
            bd = None
        dims = [i for i in range(rank) if i != bd and x.shape[i] > 0]
        if not dims:
            return None
        d = rng.choice(dims)
        n = rng.choice([1, 2, 4, 8, 16])
        return bd, d, n

    def _take(self, x: Value, unique: bool = False):
        """Indices for a take-like gather/scatter on x, reshaped to [..., 1] as JAX does:
        (batch dim or None, indexed dim, index value, reshaped ref, its type, shape of
        the rows taken (= the updates), their window dims), or None if too large."""
        plan = self._index_plan(x)
        if plan is None:
            return None
        bd, d, n = plan
        if unique:
            n = min(n, x.shape[d])
        rank = len(x.shape)
        if bd is None:
            rows = x.shape[:d] + (n,) + x.shape[d + 1:]
            window = [i for i in range(rank) if i != d]
            ishape = (n, 1)
        else:
            rest = [x.shape[i] for i in range(rank) if i not in (bd, d)]
            rows = (x.shape[bd], n) + tuple(rest)
            window = list(range(2, 2 + len(rest)))
            ishape = (x.shape[bd], n, 1)
        if math.prod(rows) >= MAX_ELEMS:
            return None
        idx = self.indices(ishape[:-1], x.shape[d], unique=unique)
        iref, itype = self.fresh(), ttype(ishape, "i32")
        self.emit(f"{iref} = stablehlo.reshape {idx.ref} : ({idx.type}) -> {itype}")
        return bd, d, idx, iref, itype, tuple(rows), window

    def indexable(self, v: Value) -> bool:
        """May v be the operand of a gather, scatter or dynamic_slice / update (see
        Features.indexed_dynamic_slices)?"""
        return len(v.shape) >= 1 and (self.gen.features.indexed_dynamic_slices
                                      or not v.sliced)

    def op_gather_random(self):
        x = self.pick(self.indexable)
        take = None if x is None else self._take(x)
        if take is None:
            return None
        bd, d, idx, iref, itype, out, offset = take
        batch = "" if bd is None else (f"operand_batching_dims = [{bd}], "
                                       f"start_indices_batching_dims = [0], ")
        sizes = [1 if i in (d, bd) else n for i, n in enumerate(x.shape)]
        dims = (f"offset_dims = {int_list(offset)}, collapsed_slice_dims = [{d}], {batch}"
                f"start_index_map = [{d}], index_vector_dim = {len(out) - len(offset)}")
        ref = self.fresh()
        self.emit(f'{ref} = "stablehlo.gather"({x.ref}, {iref}) <{{dimension_numbers = '
                  f'#stablehlo.gather<{dims}>, indices_are_sorted = false, slice_sizes = '
                  f'array<i64: {", ".join(map(str, sizes))}>}}> : ({x.type}, {itype}) -> '
                  f'{ttype(out, x.dtype)}')
        self.use(x, idx)
        self.ops += 2
        return self.add(Value(ref, out, x.dtype, x.mag, x.exact))

    def op_scatter_random(self):
        rng = self.rng
        x = self.pick(self.indexable)
        if x is None:
            return None
        x = self.tame(x)
        kind = rng.choice(["add", "add", "maximum", "minimum", "replace"])
        unique = kind == "replace"
        take = self._take(x, unique)
        if take is None:
            return None
        bd, d, idx, iref, itype, ushape, window = take
        n = ushape[d] if bd is None else ushape[1]
        batch = "" if bd is None else (f"input_batching_dims = [{bd}], "
                                       f"scatter_indices_batching_dims = [0], ")
        u = self.tame(self.value_of(ushape, x.dtype))
        dims = (f"update_window_dims = {int_list(window)}, inserted_window_dims = [{d}], "
                f"{batch}scatter_dims_to_operand_dims = [{d}], "
                f"index_vector_dim = {len(ushape) - len(window)}")
        uniq = "true" if unique and rng.random() < 0.5 else "false"
        ref = self.fresh()
        body = _body(kind, x.dtype, [self.fresh() for _ in range(3)])
        self.emit(f'{ref} = "stablehlo.scatter"({x.ref}, {iref}, {u.ref}) <{{indices_are_sorted '
                  f'= false, scatter_dimension_numbers = #stablehlo.scatter<{dims}>, '
                  f'unique_indices = {uniq}}}> ({{')
        for line in body:
            self.emit("  " + line)
        self.emit(f"}}) : ({x.type}, {itype}, {ttype(ushape, x.dtype)}) -> "
                  f"{x.type}")
        self.use(x, idx, u)
        self.ops += 2
        if kind == "add":
            mag = x.mag + n * u.mag
        else:
            mag = max(x.mag, u.mag)
        exact = x.exact and u.exact and not (kind == "add" and x.dtype == "f32")
        return self.add(Value(ref, x.shape, x.dtype, mag, exact))

    # -- dynamic slices ------------------------------------------------------------------
    def _window_sizes(self, shape) -> list[int] | None:
        sizes = []
        for n in shape:
            options = [k for k in (1, 2, 4, 8, 16, n // 2) if 1 <= k < n and self.nice(k)]
            sizes.append(self.rng.choice(options) if options and self.rng.random() < 0.6
                         else n)
        return None if list(shape) == sizes else sizes

    def _dynamic_window(self, counter: Value | None):
        """(operand, window sizes, start indices) of a dynamic_slice or update, or None."""
        x = self.pick(lambda v: any(n >= 2 for n in v.shape) and self.indexable(v))
        sizes = None if x is None else self._window_sizes(x.shape)
        if sizes is None:
            return None
        starts = [self.index_scalar(n - k, counter) if k < n else self.scalar_const(0, "i32")
                  for n, k in zip(x.shape, sizes)]
        return x, sizes, starts

    def op_dynamic_slice_random(self, counter: Value | None = None):
        window = self._dynamic_window(counter)
        if window is None:
            return None
        x, sizes, starts = window
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.dynamic_slice {x.ref}, {', '.join(s.ref for s in starts)}, "
                  f"sizes = {int_list(sizes)} : ({x.type}, "
                  f"{', '.join(s.type for s in starts)}) -> {ttype(sizes, x.dtype)}")
        self.use(x, *starts)
        self.ops += 1
        return self.add(Value(ref, tuple(sizes), x.dtype, x.mag, x.exact, sliced=True))

    def op_dynamic_update_slice_random(self, counter: Value | None = None):
        window = self._dynamic_window(counter)
        if window is None:
            return None
        x, sizes, starts = window
        u = self.value_of(sizes, x.dtype)
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.dynamic_update_slice {x.ref}, {u.ref}, "
                  f"{', '.join(s.ref for s in starts)} : ({x.type}, {u.type}, "
                  f"{', '.join(s.type for s in starts)}) -> {x.type}")
        self.use(x, u, *starts)
        self.ops += 1
        return self.add(Value(ref, x.shape, x.dtype, max(x.mag, u.mag), x.exact and u.exact))

    # -- sort, top_k, argmax -------------------------------------------------------------
    def op_sort_random(self):
        rng = self.rng
        x = self.exact_operand()
        if x is None:
            return None
        d = rng.randrange(len(x.shape))
        operands = [x]
        form = rng.choice(["keys", "argsort", "argsort", "payload"])
        if form == "argsort":
            it = self.fresh()
            self.emit(f"{it} = stablehlo.iota dim = {d} : {ttype(x.shape, 'i32')}")
            operands.append(Value(it, x.shape, "i32", float(x.shape[d])))
        elif form == "payload":
            operands.append(self.value_of(x.shape, rng.choice(["f32", "i32"])))
        names = [self.fresh() for _ in range(2 * len(operands) + 1)]
        args = []
        for i, v in enumerate(operands):
            t = ttype((), v.dtype)
            args += [f"{names[2 * i]}: {t}", f"{names[2 * i + 1]}: {t}"]
        direction = rng.choice(["LT", "GT"])
        kind = "TOTALORDER" if x.dtype == "f32" else "SIGNED"
        stable = "true" if len(operands) > 1 or rng.random() < 0.5 else "false"
        lhs, results = self.result_names(len(operands))
        types = ", ".join(v.type for v in operands)
        st = ttype((), x.dtype)
        self.emit(f'{lhs} = "stablehlo.sort"({", ".join(v.ref for v in operands)}) '
                  f'<{{dimension = {d} : i64, is_stable = {stable}}}> ({{')
        self.emit(f"  ^bb0({', '.join(args)}):")
        self.emit(f"    {names[-1]} = stablehlo.compare {direction}, {names[0]}, {names[1]}, "
                  f"{kind} : ({st}, {st}) -> tensor<i1>")
        self.emit(f"    stablehlo.return {names[-1]} : tensor<i1>")
        rtypes = types if len(operands) == 1 else f"({types})"
        self.emit(f"}}) : ({types}) -> {rtypes}")
        self.use(*operands)
        self.ops += 1
        return [self.add(Value(name, v.shape, v.dtype, v.mag, v.exact))
                for name, v in zip(results, operands)][-1]

    def op_top_k_random(self):
        x = self.exact_operand()
        if x is None:
            return None
        n = x.shape[-1]
        ks = [k for k in (1, 2, 4, 8, 16) if k <= n and self.nice(k)] or [0]  # (n = 0)
        k = self.rng.choice(ks)
        out = x.shape[:-1] + (k,)
        ref = self.fresh()
        self.emit(f"{ref}:2 = chlo.top_k({x.ref}, k = {k}) : {x.type} -> "
                  f"({ttype(out, x.dtype)}, {ttype(out, 'i32')})")
        self.use(x)
        self.ops += 1
        self.add(Value(f"{ref}#0", out, x.dtype, x.mag, x.exact, top_k=True))
        return self.add(Value(f"{ref}#1", out, "i32", float(n), True, top_k=True))

    def op_argmax_random(self):
        """jnp.argmax / argmin: a two-operand reduce of (values, iota) with JAX's body
        (NaN wins; equal values: the lower index)."""
        rng = self.rng
        x = self.exact_operand()
        if x is None:
            return None
        d = rng.randrange(len(x.shape))
        direction = rng.choice(["GT", "LT"])
        it = self.fresh()
        self.emit(f"{it} = stablehlo.iota dim = {d} : {ttype(x.shape, 'i32')}")
        f = x.dtype == "f32"
        init = infinity(negative=direction == "GT") if f else (
            "-2147483648" if direction == "GT" else "2147483647")
        c0, c1 = self.fresh(), self.fresh()
        st, it_t = ttype((), x.dtype), ttype((), "i32")
        self.emit(f"{c0} = stablehlo.constant dense<{init}> : {st}")
        self.emit(f"{c1} = stablehlo.constant dense<0> : {it_t}")
        out = tuple(n for i, n in enumerate(x.shape) if i != d)
        a, ai, b, bi = (self.fresh() for _ in range(4))
        t = [self.fresh() for _ in range(9)]
        kind = "FLOAT" if f else "SIGNED"
        ref = self.fresh()
        self.emit(f'{ref}:2 = "stablehlo.reduce"({x.ref}, {it}, {c0}, {c1}) '
                  f'<{{dimensions = array<i64: {d}>}}> ({{')
        self.emit(f"  ^bb0({a}: {st}, {ai}: {it_t}, {b}: {st}, {bi}: {it_t}):")
        body = [f"{t[0]} = stablehlo.compare {direction}, {a}, {b}, {kind} : ({st}, {st}) -> "
                f"tensor<i1>"]
        win = t[0]
        if f:
            body += [f"{t[1]} = stablehlo.compare NE, {a}, {a}, FLOAT : ({st}, {st}) -> "
                     f"tensor<i1>",
                     f"{t[2]} = stablehlo.or {t[0]}, {t[1]} : tensor<i1>"]
            win = t[2]
        body += [f"{t[3]} = stablehlo.compare EQ, {a}, {b}, {kind} : ({st}, {st}) -> tensor<i1>",
                 f"{t[4]} = stablehlo.compare LT, {ai}, {bi}, SIGNED : ({it_t}, {it_t}) -> "
                 f"tensor<i1>",
                 f"{t[5]} = stablehlo.and {t[3]}, {t[4]} : tensor<i1>",
                 f"{t[6]} = stablehlo.or {win}, {t[5]} : tensor<i1>",
                 f"{t[7]} = stablehlo.select {win}, {a}, {b} : tensor<i1>, {st}",
                 f"{t[8]} = stablehlo.select {t[6]}, {ai}, {bi} : tensor<i1>, {it_t}",
                 f"stablehlo.return {t[7]}, {t[8]} : {st}, {it_t}"]
        for line in body:
            self.emit("    " + line)
        self.emit(f"}}) : ({x.type}, {ttype(x.shape, 'i32')}, {st}, {it_t}) -> "
                  f"({ttype(out, x.dtype)}, {ttype(out, 'i32')})")
        self.use(x)
        self.ops += 2
        if rng.random() < 0.5:
            self.add(Value(f"{ref}#0", out, x.dtype, x.mag, x.exact))
        return self.add(Value(f"{ref}#1", out, "i32", float(x.shape[d]), True))

    # -- windows ---------------------------------------------------------------------------
    def op_reduce_window_random(self, form: str | None = None, rich: bool | None = None):
        """lax.reduce_window: a pooling window, or jnp.cumsum's cumulative form; `form`
        ("pooling" or "cumulative") forces one (test/fuzz/windowed.py), else drawn.
        Richer form (rich_form): pooling with strides up to 3, base dilation for every
        reducer and padding up to 2 (windows of padding only give the init: a finite one,
        as infinities do not compare equal in the checker), cumulative products
        (jnp.cumprod)."""
        rng = self.rng
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return None
        rank = len(x.shape)
        kind = rng.choice(["add", "add", "maximum", "minimum"])
        if kind == "add":
            x = self.tame(x)
        rich = self.rich_form(rich)
        for _ in range(10):
            w, s, pads, base, wdil = [1] * rank, [1] * rank, [[0, 0] for _ in x.shape], \
                [1] * rank, [1] * rank
            reducer = kind
            cumulative = rng.random() < 0.4 if form is None else form == "cumulative"
            if cumulative:  # cumsum / cummax (reverse too): jnp.cumsum's form
                d = rng.randrange(rank)
                n = x.shape[d]
                w[d] = n
                pads[d] = [n - 1, 0] if rng.random() < 0.7 else [0, n - 1]
                if n == 0:  # an empty dim: windows of one element (a window is > 0)
                    w[d], pads[d] = 1, [0, 0]
                if rich and x.dtype == "f32" and rng.random() < 0.25 \
                        and max(x.mag, 1.0) ** n <= 1e30:
                    reducer = "multiply"  # jnp.cumprod
            elif rich:  # pooling, wider
                for i, n in enumerate(x.shape):
                    if n == 0 or rng.random() < 0.3:
                        continue
                    w[i], s[i] = rng.choice([1, 2, 3]), rng.choice([1, 1, 2, 3])
                    base[i], wdil[i] = rng.choice([1, 1, 1, 2]), rng.choice([1, 1, 2])
                    lo, hi = rng.choice([0, 0, 1, 2]), rng.choice([0, 0, 1, 2])
                    hi = self.aligned_high(
                        lambda h: _window_out(n, w[i], s[i], lo, h, base[i], wdil[i]), hi, s[i])
                    if _window_out(n, w[i], 1, lo, hi, base[i], wdil[i]) == 0:
                        w[i], wdil[i] = 1, 1
                    pads[i] = [lo, hi]
            else:  # pooling
                for i, n in enumerate(x.shape):
                    if rng.random() < 0.6:
                        w[i] = rng.choice([1, 2, 3])
                        s[i] = rng.choice([1, 1, 2])
                        if rng.random() < 0.1:
                            wdil[i] = 2
                        if kind == "add" and rng.random() < 0.08:
                            base[i] = 2
                        span = (w[i] - 1) * wdil[i] + 1
                        if rng.random() < 0.6:
                            lo = rng.randint(0, span - 1)
                            pads[i] = [lo, rng.randint(0, span - 1)]
                        if n == 0:  # no window of padding only: an empty result dim
                            pads[i] = [0, 0]
            if not self.gen.features.reduce_window_base_dilation and any(
                    b > 1 for b in base) and any(k > 1 and b == 1 for k, b in zip(s, base)):
                base = [1] * rank  # known_issues: XLA:CPU's reduce-window fusion
            out = [_window_out(n, *args) for n, *args in
                   zip(x.shape, w, s, [p[0] for p in pads], [p[1] for p in pads], base, wdil)]
            if all(self.nice(o) or o == n == 0 for o, n in zip(out, x.shape)):
                break
        else:
            return None
        init_text = _identity(reducer, x.dtype)
        mag = x.mag * math.prod(w) if reducer == "add" else x.mag
        if reducer == "multiply":
            mag = max(x.mag, 1.0) ** math.prod(w)
        # Windows of padding (or base dilation holes) only, in the rich form: the init.
        spans = [(k - 1) * d + 1 for k, d in zip(w, wdil)]
        if any(lo >= k or hi >= k or b > 1 for (lo, hi), k, b in zip(pads, spans, base)) \
                and reducer in ("maximum", "minimum"):
            if x.dtype == "f32":
                init_text = fmt_float(-1e30 if reducer == "maximum" else 1e30)
            mag = max(mag, abs(float(init_text)))
        real = None  # the f32 value a complex sum is of
        if reducer == "add" and x.dtype == "f32" and complex_reductions.draw(self):
            real, x = x, complex_reductions.operand(self, x)
            init_text, mag = complex_reductions.ZERO, x.mag * math.prod(w)
        init = self.fresh()
        st = ttype((), x.dtype)
        self.emit(f"{init} = stablehlo.constant dense<{init_text}> : {st}")
        ref = self.fresh()
        pad_text = "[" + ", ".join(f"[{lo}, {hi}]" for lo, hi in pads) + "]"
        self.emit(f'{ref} = "stablehlo.reduce_window"({x.ref}, {init}) <{{base_dilations = '
                  f'array<i64: {", ".join(map(str, base))}>, padding = dense<{pad_text}> : '
                  f'tensor<{rank}x2xi64>, window_dilations = array<i64: '
                  f'{", ".join(map(str, wdil))}>, window_dimensions = array<i64: '
                  f'{", ".join(map(str, w))}>, window_strides = array<i64: '
                  f'{", ".join(map(str, s))}>}}> ({{')
        for line in _body(reducer, x.dtype, [self.fresh() for _ in range(3)]):
            self.emit("  " + line)
        self.emit(f"}}) : ({x.type}, {st}) -> {ttype(out, x.dtype)}")
        self.use(x if real is None else real)
        self.ops += 1
        if real is not None:
            return self.add(complex_reductions.back_to_real(self, ref, out, mag))
        exact = x.exact and (reducer in ("maximum", "minimum") or x.dtype == "i32")
        return self.add(Value(ref, tuple(out), x.dtype, mag, exact))

    def op_select_and_scatter_random(self, rich: bool | None = None):
        """The gradient of a max (min) pool: JAX's form (no padding: JAX pads before).
        Richer form (rich_form): padding, strides up to 3 (apart from the window's), GT
        and LT selects (the last maximum of a window, not the first)."""
        rng = self.rng
        x = self.exact_operand()
        if x is None:
            return None
        rank = len(x.shape)
        rich = self.rich_form(rich)
        for _ in range(10):
            pads = [(0, 0)] * rank
            if rich:
                w, s, pads = self._padded_windows(x.shape)
            else:
                w = [rng.choice([1, 2, 2, 3]) if n >= 2 else 1 for n in x.shape]
                s = [rng.choice([1, k, k]) if k > 1 else 1 for k in w]
            out = [_window_out(n, k, t, lo, hi) for n, k, t, (lo, hi) in zip(x.shape, w, s, pads)]
            if all(self.nice(o) or o == n == 0 for o, n in zip(out, x.shape)) \
                    and w != [1] * rank:
                break
        else:
            return None
        src = self.tame(self.value_of(out, x.dtype))
        init = self.fresh()
        st = ttype((), x.dtype)
        self.emit(f"{init} = stablehlo.constant dense<{_identity('add', x.dtype)}> : {st}")
        direction = rng.choice(["GE", "GE", "GT", "LE", "LT"] if rich else ["GE", "GE", "LE"])
        pad_text = "dense<0>" if not any(map(any, pads)) else \
            "dense<[" + ", ".join(f"[{lo}, {hi}]" for lo, hi in pads) + "]>"
        kind = "FLOAT" if x.dtype == "f32" else "SIGNED"
        a, b, p = self.fresh(), self.fresh(), self.fresh()
        ref = self.fresh()
        self.emit(f'{ref} = "stablehlo.select_and_scatter"({x.ref}, {src.ref}, {init}) '
                  f'<{{padding = {pad_text} : tensor<{rank}x2xi64>, window_dimensions = '
                  f'array<i64: {", ".join(map(str, w))}>, window_strides = array<i64: '
                  f'{", ".join(map(str, s))}>}}> ({{')
        self.emit(f"  ^bb0({a}: {st}, {b}: {st}):")
        self.emit(f"    {p} = stablehlo.compare {direction}, {a}, {b}, {kind} : ({st}, {st}) -> "
                  f"tensor<i1>")
        self.emit(f"    stablehlo.return {p} : tensor<i1>")
        self.emit("}, {")
        for line in _body("add", x.dtype, [self.fresh() for _ in range(3)]):
            self.emit("  " + line)
        self.emit(f"}}) : ({x.type}, {src.type}, {st}) -> {x.type}")
        self.use(x, src)
        self.ops += 1
        overlap = math.prod(-(-k // t) for k, t in zip(w, s))
        exact = src.exact and (x.dtype == "i32" or overlap == 1)
        return self.add(Value(ref, x.shape, x.dtype, src.mag * overlap, exact))

    def _padded_windows(self, shape):
        """(windows, strides, padding) of a rich select_and_scatter: windows of 2-3,
        strides 1-3, padding up to 1 on the low and the high side."""
        rng = self.rng
        w, s, pads = [], [], []
        for n in shape:
            k, t, lo, hi = 1, 1, 0, 0
            if n >= 1 and rng.random() >= 0.3:
                k, t = rng.choice([2, 3]), rng.choice([1, 2, 2, 3])
                lo, hi = rng.choice([0, 0, 0, 1]), rng.choice([0, 0, 1])
                hi = self.aligned_high(lambda h: _window_out(n, k, t, lo, h), hi, t)
                if lo + n + hi < k:
                    k, t, lo, hi = 1, 1, 0, 0
            w.append(k), s.append(t), pads.append((lo, hi))
        return w, s, pads

    def op_convolution_random(self, rich: bool | None = None):
        """lax.conv_general_dilated: 1-2 spatial dims in random layouts, strides, padding,
        dilations, feature and batch groups. Richer form (rich_form): a quarter of them
        in the shapes of a weight gradient (a kernel of nearly the input's size), else
        kernels up to 5, padding up to 2, lhs dilation more often, groups of 4."""
        rng = self.rng
        ns = rng.choice([1, 2])
        if self.rich_form(rich):
            drawn = self._rich_convolution(ns)
        else:
            drawn = self._convolution(ns)
        if drawn is None:
            return None
        batch, cin, cout, spatial, fgc, bgc, k, stride, rdil, ldil, pads, out_sp = drawn
        sp = [str(j) for j in range(ns)]
        lhs_layout = rng.choice([["b", *sp, "f"], ["b", "f", *sp]])
        rhs_layout = rng.choice([[*sp, "i", "o"], ["o", "i", *sp]])
        out_layout = rng.choice([lhs_layout, lhs_layout, ["b", "f", *sp], ["b", *sp, "f"]])

        def shape_of(layout, sizes):
            return tuple(sizes[c] for c in layout)
        lsizes = {"b": batch, "f": cin, **{str(j): spatial[j] for j in range(ns)}}
        rsizes = {"i": cin // fgc, "o": cout, **{str(j): k[j] for j in range(ns)}}
        osizes = {"b": batch // bgc, "f": cout, **{str(j): out_sp[j] for j in range(ns)}}
        lshape, rshape, oshape = (shape_of(lhs_layout, lsizes), shape_of(rhs_layout, rsizes),
                                  shape_of(out_layout, osizes))
        if max(map(math.prod, (lshape, rshape, oshape))) >= MAX_ELEMS:
            return None
        lhs = self.tame(self.value_of(lshape, "f32"))
        rhs = self.tame(self.value_of(rshape, "f32"))
        ref = self.fresh()
        window = (f"stride = {int_list(stride)}, pad = ["
                  + ", ".join(f"[{lo}, {hi}]" for lo, hi in pads)
                  + f"], lhs_dilate = {int_list(ldil)}, rhs_dilate = {int_list(rdil)}")
        self.emit(f"{ref} = stablehlo.convolution({lhs.ref}, {rhs.ref}) dim_numbers = "
                  f"[{', '.join(lhs_layout)}]x[{', '.join(rhs_layout)}]->"
                  f"[{', '.join(out_layout)}], window = {{{window}}} {{batch_group_count = "
                  f"{bgc} : i64, feature_group_count = {fgc} : i64, precision_config = "
                  f"[#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}} : "
                  f"({lhs.type}, {rhs.type}) -> {ttype(oshape, 'f32')}")
        self.use(lhs, rhs)
        self.ops += 1
        mag = lhs.mag * rhs.mag * (cin // fgc) * math.prod(k)
        return self.add(Value(ref, oshape, "f32", mag, False))

    def _convolution(self, ns: int):
        """(batch, cin, cout, spatial sizes, feature groups, batch groups, kernel,
        strides, rhs and lhs dilations, padding, output sizes) of a convolution, or
        None when ten draws gave no nice output."""
        rng = self.rng
        for _ in range(10):
            batch = rng.choice([1, 2, 4, 8])
            cin = rng.choice([1, 2, 4, 8])
            cout = rng.choice([1, 2, 4, 8])
            spatial = [rng.choice([4, 8, 16] if ns == 2 else [4, 8, 16, 32]) for _ in range(ns)]
            fgc = rng.choice([g for g in sorted({1, 2, cin}) if cin % g == 0 and cout % g == 0])
            bgc = 1
            if fgc == 1 and rng.random() < 0.15 and batch % 2 == 0 and cout % 2 == 0:
                bgc = 2
            k = [rng.choice([1, 2, 3]) for _ in range(ns)]
            stride = [rng.choice([1, 1, 2]) for _ in range(ns)]
            rdil = [2 if rng.random() < 0.15 else 1 for _ in range(ns)]
            ldil = [2 if rng.random() < 0.05 else 1 for _ in range(ns)]
            pads = []
            for j in range(ns):
                span = (k[j] - 1) * rdil[j] + 1
                pads.append([rng.randint(0, span - 1), rng.randint(0, span - 1)])
            out_sp = [_window_out(n, kk, st, lo, hi, ld, rd) for n, kk, st, (lo, hi), ld, rd in
                      zip(spatial, k, stride, pads, ldil, rdil)]
            if all(self.nice(o) for o in out_sp):
                return batch, cin, cout, spatial, fgc, bgc, k, stride, rdil, ldil, pads, out_sp
        return None

    def _rich_convolution(self, ns: int):
        """_convolution's numbers in the rich form (test/fuzz/windowed.py's shapes)."""
        rng = self.rng
        for _ in range(10):
            weight_grad = rng.random() < 0.25
            batch, cin, cout = (rng.choice([2, 4, 8]) for _ in range(3))
            fgc = bgc = 1
            kind = rng.random()
            if kind < 0.2 and not weight_grad:
                fgc = rng.choice([g for g in (2, 4) if cin % g == 0])
                cout = fgc * rng.choice([1, 2])
            elif kind < 0.3 and not weight_grad:
                bgc = rng.choice([2, 4])
                batch = bgc * rng.choice([1, 2])
                cout = bgc * rng.choice([1, 2])
            spatial, k, stride, pads, ldil, rdil, out_sp = [], [], [], [], [], [], []
            for _ in range(ns):
                n = rng.choice([8, 8, 16, 12, 4])
                if weight_grad:  # the kernel is (nearly) the input: dW = conv(x, dy)
                    kk = rng.choice([n, n - 1, n // 2])
                    st, lo, hi, ld, rd = 1, rng.choice([0, 1]), rng.choice([0, 1]), 1, 1
                else:
                    kk, st = rng.choice([1, 2, 3, 3, 5]), rng.choice([1, 1, 2])
                    lo, hi = rng.choice([0, 1, 2]), rng.choice([0, 1, 2])
                    ld, rd = rng.choice([1, 1, 1, 2]), rng.choice([1, 1, 2])
                    hi = self.aligned_high(
                        lambda h: _window_out(n, kk, st, lo, h, ld, rd), hi, st)
                if _window_out(n, kk, 1, lo, hi, ld, rd) == 0:
                    kk, rd = 1, 1
                spatial.append(n), k.append(kk), stride.append(st), pads.append([lo, hi])
                ldil.append(ld), rdil.append(rd)
                out_sp.append(_window_out(n, kk, st, lo, hi, ld, rd))
            if all(self.nice(o) for o in out_sp):
                return batch, cin, cout, spatial, fgc, bgc, k, stride, rdil, ldil, pads, out_sp
        return None

    def op_reverse_random(self):
        x = self.pick(lambda v: len(v.shape) >= 1)
        if x is None:
            return None
        rank = len(x.shape)
        dims = sorted(self.rng.sample(range(rank), self.rng.randint(1, rank)))
        ref = self.fresh()
        self.emit(f"{ref} = stablehlo.reverse {x.ref}, dims = {int_list(dims)} : {x.type}")
        self.use(x)
        self.ops += 1
        return self.add(Value(ref, x.shape, x.dtype, x.mag, x.exact, x.contracted))

    # -- control flow ----------------------------------------------------------------------
    def op_while_random(self):
        """lax.fori_loop / lax.scan: an i32 counter to a constant bound and 1-2 carries;
        the body may slice a captured stacked value at the counter (xs[i]) and write
        into a carry at it (ys.at[i].set)."""
        rng = self.rng
        carries = []
        for _ in range(rng.randint(1, 2)):
            v = self.pick(lambda v: v not in carries)
            if v is None:
                break
            carries.append(self.tame(v))
        if not carries:
            return None
        xs = scan_inputs.stacked(self, carries)  # (own RNG) a carry returned unchanged
        if xs is not None:
            carries.append(xs)
        bound = rng.randint(0, 4)
        start = self.scalar_const(0, "i32")
        names = [self.fresh() for _ in range(len(carries) + 1)]
        counter = Value(names[0], (), "i32", float(max(bound, 1)))
        bounds = [max(c.mag, 1.0) for c in carries]
        block = [counter] + [Value(n, c.shape, c.dtype, m, c.exact).marked_as(c)
                             for n, c, m in zip(names[1:], carries, bounds)]
        body = self.region(block)
        if xs is not None:  # lax.scan's step: xs[i] of the unchanged carry
            scan_inputs.step(body, block[-1], counter)
        elif rng.random() < 0.5:  # a scan step: xs[i] / ys.at[i]
            getattr(body, rng.choice(["op_dynamic_slice_random",
                                      "op_dynamic_update_slice_random"]))(counter)
        self.fill_region(body, body.ops + rng.randint(0, MAX_REGION_OPS))
        results = []
        for arg, m in zip(block[1:], bounds):
            if xs is not None and arg is block[-1]:
                results.append(arg)  # the stacked inputs, returned unchanged
                continue
            cands = [v for v in body.pool[::-1] if v.shape == arg.shape
                     and v.dtype == arg.dtype and (v.exact or not arg.exact)]
            v = cands[0] if cands and rng.random() < 0.8 else arg
            if v is arg and rng.random() < 0.8:  # a carry the body changes
                other = body.tame(body.value_of(arg.shape, arg.dtype))
                if other.exact or not arg.exact:
                    v = body.binary(rng.choice(["add", "subtract", "maximum", "minimum"]),
                                    arg, other)
            if v.mag > m:
                hi = m if v.dtype == "f32" else int(m)
                v = body.clamp_const(v, -hi, hi)
            results.append(v)
        one = body.scalar_const(1, "i32")
        nxt = body.fresh()
        body.emit(f"{nxt} = stablehlo.add {counter.ref}, {one.ref} : tensor<i32>")
        types = [v.type for v in block]
        ref = self.fresh()
        lhs = f"{ref}:{len(block)}"
        inits = [start] + carries
        self.emit(f"{lhs} = stablehlo.while("
                  + ", ".join(f"{b.ref} = {v.ref}" for b, v in zip(block, inits))
                  + f") : {', '.join(types)}")
        lim, p = self.fresh(), self.fresh()
        self.emit("  cond {")
        self.emit(f"    {lim} = stablehlo.constant dense<{bound}> : tensor<i32>")
        self.emit(f"    {p} = stablehlo.compare LT, {counter.ref}, {lim}, SIGNED : "
                  f"(tensor<i32>, tensor<i32>) -> tensor<i1>")
        self.emit(f"    stablehlo.return {p} : tensor<i1>")
        self.emit("  } do {")
        self.embed(body)
        self.emit(f"    stablehlo.return {', '.join([nxt] + [v.ref for v in results])} : "
                  f"{', '.join(types)}")
        self.emit("  }")
        self.use(*carries)
        self.ops += 1
        last = None
        for i, (arg, v) in enumerate(zip(block[1:], results), start=1):
            last = self.add(Value(f"{ref}#{i}", arg.shape, arg.dtype, arg.mag, arg.exact)
                            .marked_as(arg, v))
        return last

    def op_case_random(self):
        """lax.cond (a predicate converted to i32, two branches) or lax.switch (an i32
        index, clamped as JAX does, or not: out of range runs the last branch)."""
        rng = self.rng
        n = rng.choice([2, 2, 3])
        if n == 2 and rng.random() < 0.5:
            v = self.pick(lambda v: v.exact and v.dtype in ("f32", "i32")
                          and 0 not in v.shape)  # (an element of it)
            if v is None:
                return None
            s = self.scalar_of(v)
            zero = self.scalar_const(0, s.dtype)
            pred, idx = self.fresh(), self.fresh()
            kind = "FLOAT" if s.dtype == "f32" else "SIGNED"
            self.emit(f"{pred} = stablehlo.compare GT, {s.ref}, {zero.ref}, {kind} : "
                      f"({s.type}, {s.type}) -> tensor<i1>")
            self.emit(f"{idx} = stablehlo.convert {pred} : (tensor<i1>) -> tensor<i32>")
            self.ops += 2
            index = Value(idx, (), "i32", 1.0)
        else:
            index = self.index_scalar(n - 1)
            if self.gen.features.out_of_range_indices and rng.random() < 0.6:
                index = self.clamp_const(index, 0, n - 1)  # jax.lax.switch clamps
        kinds = []
        for _ in range(rng.randint(1, 2)):
            v = self.pick()
            if v is not None:
                kinds.append((v.shape, v.dtype))
        if not kinds:
            return None
        branches, results = [], []
        for _ in range(n):
            sub = self.region([])
            self.fill_region(sub, rng.randint(0, MAX_REGION_OPS - 1))
            results.append([sub.tame(sub.value_of(shape, dtype)) for shape, dtype in kinds])
            branches.append(sub)
        types = [ttype(shape, dtype) for shape, dtype in kinds]
        lhs, names = self.result_names(len(kinds))
        self.emit(f'{lhs} = "stablehlo.case"({index.ref}) ({{')
        for i, (sub, res) in enumerate(zip(branches, results)):
            if i:
                self.emit("}, {")
            self.embed(sub)
            self.emit(f"    stablehlo.return {', '.join(v.ref for v in res)} : {', '.join(types)}")
        rtypes = types[0] if len(kinds) == 1 else f"({', '.join(types)})"
        self.emit(f"}}) : (tensor<i32>) -> {rtypes}")
        self.use(index)
        self.ops += 1
        last = None
        for i, (name, (shape, dtype)) in enumerate(zip(names, kinds)):
            vals = [r[i] for r in results]
            last = self.add(Value(name, shape, dtype, max(v.mag for v in vals),
                                  all(v.exact for v in vals)).marked_as(*vals))
        return last

    def op_optimization_barrier_random(self):
        top_k_ok = self.gen.features.top_k_through_barrier
        values = []
        for _ in range(self.rng.randint(1, 3)):
            v = self.pick(lambda v: v not in values and (top_k_ok or not v.top_k))
            if v is not None:
                values.append(v)
        if not values:
            return None
        lhs, names = self.result_names(len(values))
        self.emit(f"{lhs} = stablehlo.optimization_barrier {', '.join(v.ref for v in values)} : "
                  f"{', '.join(v.type for v in values)}")
        self.use(*values)
        self.ops += 1
        return [self.add(Value(name, v.shape, v.dtype, v.mag, v.exact, v.contracted))
                for name, v in zip(names, values)][-1]

    # -- random bits, custom calls -----------------------------------------------------------
    def op_rng_bit_generator_random(self):
        """Random bits from a ui64 state (an argument of @main, else a constant), masked to
        8 bits and converted, as a jax.random user would."""
        rng = self.rng
        algo, n = rng.choice([("THREE_FRY", 2), ("PHILOX", 2), ("PHILOX", 3)])
        if algo == "THREE_FRY" and not self.gen.features.three_fry_bits:
            algo = "PHILOX"  # same state size (2), same draws from here on
        if self.is_main and self.can_add_arg((n,)):
            state = self.new_arg((n,), "ui64")
            self.pool.remove(state)
        else:
            ref = self.fresh()
            vals = [rng.randint(0, 1000) for _ in range(n)]
            self.emit(f"{ref} = stablehlo.constant dense<{int_list(vals)}> : "
                      f"{ttype((n,), 'ui64')}")
            state = Value(ref, (n,), "ui64", 1000.0)
        shape = self.random_shape()
        bits = ttype(shape, "ui32")
        ref, mask, low = self.fresh(), self.fresh(), self.fresh()
        self.emit(f"{ref}:2 = stablehlo.rng_bit_generator {state.ref}, algorithm = {algo} : "
                  f"({state.type}) -> ({state.type}, {bits})")
        self.emit(f"{mask} = stablehlo.constant dense<255> : {bits}")
        self.emit(f"{low} = stablehlo.and {ref}#1, {mask} : {bits}")
        dtype = rng.choice(["f32", "i32"])
        out = self.fresh()
        self.emit(f"{out} = stablehlo.convert {low} : ({bits}) -> {ttype(shape, dtype)}")
        self.ops += 3
        return self.add(Value(out, shape, dtype, 255.0))

    def spd_batch(self, b: int, n: int) -> str:
        """b positive definite n x n matrices: the Gram matrices of tanh of a value plus
        (n + 1) I (entries at most 2n + 1). Their SSA name; the tanh is counted as an op,
        the caller counts the other three."""
        t = ttype((b, n, n), "f32")
        x = self.unary(self.value_of((b, n, n), "f32"), "tanh")
        gram = self.fresh()
        self.emit(f"{gram} = stablehlo.dot_general {x.ref}, {x.ref}, batching_dims = [0] x [0], "
                  f"contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : ({t}, {t}) "
                  f"-> {t}")
        eye = [float(n + 1) if i == j else 0.0 for i in range(n) for j in range(n)]
        c, cb, spd = self.fresh(), self.fresh(), self.fresh()
        self.emit(f"{c} = stablehlo.constant dense<{dense(eye, (n, n), 'f32')}> : "
                  f"{ttype((n, n), 'f32')}")
        self.emit(f"{cb} = stablehlo.broadcast_in_dim {c}, dims = [1, 2] : "
                  f"({ttype((n, n), 'f32')}) -> {t}")
        self.emit(f"{spd} = stablehlo.add {gram}, {cb} : {t}")
        return spd

    def op_custom_call_random(self):
        """jnp.linalg.cholesky on CPU: @lapack_spotrf_ffi with its sdy.sharding_rule
        (batch dim i; the matrices whole), of an SPD batch x x^T + (n + 1) I."""
        rng = self.rng
        b = rng.choice([1, 2, 4, 8])
        n = rng.choice([2, 4])
        t = ttype((b, n, n), "f32")
        spd = self.spd_batch(b, n)
        ref = self.fresh()
        info = ttype((b,), "i32")
        self.emit(f"{ref}:2 = stablehlo.custom_call @{potrf_target()}({spd}) {{backend_config = "
                  f'"", mhlo.backend_config = {{uplo = 76 : ui8}}, mhlo.frontend_attributes = '
                  f'{{num_batch_dims = "1"}}, operand_layouts = [dense<[1, 2, 0]> : '
                  f"tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<"
                  f"output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], "
                  f"result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : "
                  f"tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->"
                  f"([i, l, m], [i]) {{i={b}, j={n}, k={n}, l={n}, m={n}}}, custom>}} : ({t}) -> "
                  f"({t}, {info})")
        self.ops += 5
        self.add(Value(f"{ref}#1", (b,), "i32", 1.0))
        return self.add(Value(f"{ref}#0", (b, n, n), "f32", float(2 * n + 1), False))
