"""Random programs of one windowed op on sharded dims, for the halo-exchange property
test (test/python/lowering/test_windowed.py) and by hand:

    python test/fuzz/windowed.py --seed 7            # print program 7
    python test/fuzz/windowed.py --seed 7 > p.mlir && shardpy-run p.mlir --check

Ops: pad (low/high negative to positive, interior), slice (start, limit, stride),
reverse, concatenate of slices of one array (a roll: the permutation case),
reduce_window (max/add/min; windows, strides, padding, base and window dilation; the
cumulative patterns JAX emits for cumsum/cumprod/cummax/cummin, both directions),
select_and_scatter (max-pool gradient: GE select, add scatter, windows, strides,
padding) and convolution (1-2 spatial dims; strides, padding, lhs/rhs dilation,
feature or batch groups; forward and weight-gradient shapes). Dims are sized so that
mesh axes often divide them, and arguments (sometimes results) get random shardings
over a random mesh of 8 devices: sharded windowed dims are what is being tested.
"""
from __future__ import annotations

import argparse
import random
import sys

MESHES = ([("x", 2), ("y", 4)], [("x", 8)], [("x", 2), ("y", 2), ("z", 2)], [("x", 4), ("y", 2)])


def ttype(shape, dtype="f32") -> str:
    return "tensor<" + "".join(f"{n}x" for n in shape) + dtype + ">"


def ilist(xs) -> str:
    return "[" + ", ".join(str(int(x)) for x in xs) + "]"


def arr(xs) -> str:
    return "array<i64: " + ", ".join(str(int(x)) for x in xs) + ">"


class Gen:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.mesh = self.rng.choice(MESHES)
        self.sizes = dict(self.mesh)

    # -- shardings ---------------------------------------------------------------------
    def sharding(self, shape, prefer=(), spread: float = 0.6) -> str:
        """A random sharding of `shape`: each axis goes to one dim (or none), dims in
        `prefer` first; only placements that divide the dim are kept."""
        rng = self.rng
        dims = [[] for _ in shape]
        # Axes, sometimes a sub-axis of a size-4 axis ("y":(1)2 or "y":(2)2).
        refs = []
        for name, size in self.mesh:
            if size == 4 and rng.random() < 0.35:
                refs.append((name, rng.choice([(1, 2), (2, 2)]), 2))
            else:
                refs.append((name, None, size))
        rng.shuffle(refs)
        for ref in refs:
            if rng.random() > spread:
                continue
            order = list(prefer) + [d for d in range(len(shape)) if d not in prefer]
            if rng.random() < 0.3:
                rng.shuffle(order)
            for d in order:
                shards = 1
                for a in dims[d]:
                    shards *= a[2]
                if shape[d] % (shards * ref[2]) == 0:
                    dims[d].append(ref)
                    break
        # Axes of a dim in mesh order (either order is valid; mesh order is common).
        index = {n: i for i, (n, _) in enumerate(self.mesh)}
        for d in dims:
            if rng.random() < 0.7:
                d.sort(key=lambda a: index[a[0]])

        def text(ref):
            name, sub, _ = ref
            return f'"{name}"' + (f":({sub[0]}){sub[1]}" if sub else "")

        body = ", ".join("{" + ", ".join(text(a) for a in d) + "}" for d in dims)
        return f"#sdy.sharding<@mesh, [{body}]>"

    def aligned(self, out, high: int, step: int = 1) -> int:
        """Often, a larger `high` padding that makes `out(high)` divide by 4 or 8 (so
        that results can be sharded evenly)."""
        if self.rng.random() < 0.3:
            return high
        mod = self.rng.choice([4, 8])
        for extra in range(0, 8 * step + 1):
            if out(high + extra) > 0 and out(high + extra) % mod == 0:
                return high + extra
        return high

    def size(self, small: bool = False) -> int:
        rng = self.rng
        if small:
            return rng.choice([2, 4, 8])
        return rng.choice([8, 8, 16, 16, 24, 32, 4, 12])

    def module(self, args, results, body: list[str]) -> str:
        mesh = ", ".join(f'"{n}"={s}' for n, s in self.mesh)
        arg_text = ", ".join(f"%a{i}: {t} {{sdy.sharding = {s}}}" if s else f"%a{i}: {t}"
                             for i, (t, s) in enumerate(args))
        res_text = ", ".join(f"{t} {{sdy.sharding = {s}}}" if s else t for t, s in results)
        lines = [f"sdy.mesh @mesh = <[{mesh}]>", "",
                 f"func.func public @main({arg_text}) -> ({res_text}) {{"]
        lines += ["  " + line for line in body]
        lines.append("}")
        return "\n".join(lines) + "\n"

    def result_sharding(self, shape, prefer=()):
        return self.sharding(shape, prefer) if self.rng.random() < 0.5 else None

    # -- ops ---------------------------------------------------------------------------
    def pad(self):
        rng = self.rng
        shape = [self.size() for _ in range(rng.choice([1, 2]))]
        low, high, interior, out = [], [], [], []
        for n in shape:
            p = rng.choice([0, 0, 1, 2])
            lo, hi = rng.randint(-3, 5), rng.randint(-3, 5)
            if rng.random() < 0.25:
                lo = hi = 0
                p = 0
            hi = self.aligned(lambda h: lo + n + (n - 1) * p + h, hi)
            size = lo + n + (n - 1) * p + hi
            if size < 1:
                lo, hi = 0, 0
                size = n + (n - 1) * p
            low.append(lo), high.append(hi), interior.append(p), out.append(size)
        value = rng.choice(["0.0", "1.5", "-2.0"])
        body = [f"%v = stablehlo.constant dense<{value}> : tensor<f32>",
                f"%0 = stablehlo.pad %a0, %v, low = {ilist(low)}, high = {ilist(high)}, "
                f"interior = {ilist(interior)} : ({ttype(shape)}, tensor<f32>) -> {ttype(out)}",
                f"return %0 : {ttype(out)}"]
        moved = [d for d in range(len(shape)) if (low[d], high[d], interior[d]) != (0, 0, 0)]
        return self.module([(ttype(shape), self.sharding(shape, moved))],
                           [(ttype(out), self.result_sharding(out, moved))], body)

    def slice(self):
        rng = self.rng
        shape = [self.size() for _ in range(rng.choice([1, 2]))]
        spec, out = [], []
        for n in shape:
            if rng.random() < 0.25:
                spec.append(f"0:{n}")
                out.append(n)
                continue
            start = rng.randint(0, n - 1)
            limit = rng.randint(start + 1, n)
            stride = rng.choice([1, 1, 2, 3])
            if rng.random() < 0.6:  # a count of elements that shards evenly
                count = rng.choice([c for c in (2, 4, 8) if (c - 1) * stride < n] or [1])
                start = rng.randint(0, n - 1 - (count - 1) * stride)
                limit = start + (count - 1) * stride + 1
            spec.append(f"{start}:{limit}" + (f":{stride}" if stride != 1 else ""))
            out.append(-(-(limit - start) // stride))
        body = [f"%0 = stablehlo.slice %a0 [{', '.join(spec)}] : ({ttype(shape)}) -> {ttype(out)}",
                f"return %0 : {ttype(out)}"]
        return self.module([(ttype(shape), self.sharding(shape))],
                           [(ttype(out), self.result_sharding(out))], body)

    def reverse(self):
        rng = self.rng
        shape = [self.size() for _ in range(rng.choice([1, 2, 3]))]
        dims = sorted(rng.sample(range(len(shape)), rng.randint(1, len(shape))))
        body = [f"%0 = stablehlo.reverse %a0, dims = {ilist(dims)} : {ttype(shape)}",
                f"return %0 : {ttype(shape)}"]
        return self.module([(ttype(shape), self.sharding(shape, dims))],
                           [(ttype(shape), self.result_sharding(shape, dims))], body)

    def concatenate(self):
        """A roll along dim d: concat(x[a:], x[:a]) (pieces are slices of one array)."""
        rng = self.rng
        shape = [self.size() for _ in range(rng.choice([1, 2]))]
        d = rng.randrange(len(shape))
        n = shape[d]
        a = rng.choice([n // 2, n // 4 or 1, rng.randint(1, n - 1)])
        lo = [0] * len(shape)
        first = list(shape)
        first[d] = n - a
        second = list(shape)
        second[d] = a

        def spec(start, limit):
            return ", ".join(f"{start}:{limit}" if i == d else f"0:{s}"
                             for i, s in enumerate(shape))

        body = [f"%0 = stablehlo.slice %a0 [{spec(a, n)}] : ({ttype(shape)}) -> {ttype(first)}",
                f"%1 = stablehlo.slice %a0 [{spec(0, a)}] : ({ttype(shape)}) -> {ttype(second)}",
                f"%2 = stablehlo.concatenate %0, %1, dim = {d} : ({ttype(first)}, "
                f"{ttype(second)}) -> {ttype(shape)}",
                f"return %2 : {ttype(shape)}"]
        del lo
        return self.module([(ttype(shape), self.sharding(shape, [d]))],
                           [(ttype(shape), self.result_sharding(shape, [d]))], body)

    def _body(self, reducer: str) -> list[str]:
        return ["^bb0(%p: tensor<f32>, %q: tensor<f32>):",
                f"  %r = stablehlo.{reducer} %p, %q : tensor<f32>",
                "  stablehlo.return %r : tensor<f32>"]

    def reduce_window(self):
        rng = self.rng
        rank = rng.choice([1, 2, 3])
        shape = [self.size() for _ in range(rank)]
        # Finite inits: a window wholly in padding gives the init, and infinities do
        # not compare equal in the checker.
        reducer, init = rng.choice([("maximum", "-1.0e+30"), ("add", "0.0"),
                                    ("minimum", "1.0e+30")])
        window, stride, base, dil, pad, out = [], [], [], [], [], []
        for n in shape:
            if rng.random() < 0.3:
                w, s, b, wd, lo, hi = 1, 1, 1, 1, 0, 0
            else:
                w, s = rng.choice([1, 2, 3]), rng.choice([1, 1, 2, 3])
                b = rng.choice([1, 1, 1, 2])
                wd = rng.choice([1, 1, 2])
                lo, hi = rng.choice([0, 0, 1, 2]), rng.choice([0, 0, 1, 2])
            span = (w - 1) * wd + 1
            hi = self.aligned(lambda h: (lo + (n - 1) * b + 1 + h - span) // s + 1, hi, s)
            padded = lo + (n - 1) * b + 1 + hi
            if padded < span:
                w, wd = 1, 1
                span = 1
            window.append(w), stride.append(s), base.append(b), dil.append(wd)
            pad.append((lo, hi)), out.append((padded - span) // s + 1)
        windowed = [d for d in range(rank) if (window[d], stride[d], base[d], dil[d],
                                               pad[d]) != (1, 1, 1, 1, (0, 0))]
        return self._reduce_window(shape, out, reducer, init, window, stride, base, dil,
                                   pad, windowed)

    def cumulative(self):
        """JAX's cumsum/cumprod/cummax/cummin: window = dim, padding dim-1 on one side."""
        rng = self.rng
        rank = rng.choice([1, 2])
        shape = [self.size() for _ in range(rank)]
        d = rng.randrange(rank)
        reducer, init = rng.choice([("add", "0.0"), ("multiply", "1.0"),
                                    ("maximum", "0xFF800000"), ("minimum", "0x7F800000")])
        n = shape[d]
        window = [n if i == d else 1 for i in range(rank)]
        reverse = rng.random() < 0.4
        pad = [((0, n - 1) if reverse else (n - 1, 0)) if i == d else (0, 0)
               for i in range(rank)]
        return self._reduce_window(shape, shape, reducer, init, window, [1] * rank,
                                   [1] * rank, [1] * rank, pad, [d])

    def _reduce_window(self, shape, out, reducer, init, window, stride, base, dil, pad,
                       windowed):
        flat = ", ".join(f"[{lo}, {hi}]" for lo, hi in pad)
        body = [f"%init = stablehlo.constant dense<{init}> : tensor<f32>",
                f'%0 = "stablehlo.reduce_window"(%a0, %init) <{{base_dilations = {arr(base)}, '
                f"padding = dense<[{flat}]> : tensor<{len(shape)}x2xi64>, "
                f"window_dilations = {arr(dil)}, window_dimensions = {arr(window)}, "
                f"window_strides = {arr(stride)}}}> ({{"]
        body += ["  " + line for line in self._body(reducer)]
        body += [f"}}) : ({ttype(shape)}, tensor<f32>) -> {ttype(out)}",
                 f"return %0 : {ttype(out)}"]
        return self.module([(ttype(shape), self.sharding(shape, windowed))],
                           [(ttype(out), self.result_sharding(out, windowed))], body)

    def select_and_scatter(self):
        rng = self.rng
        rank = rng.choice([1, 2, 3])
        shape = [self.size() for _ in range(rank)]
        window, stride, pad, src = [], [], [], []
        for n in shape:
            if rng.random() < 0.3:
                w, s, lo, hi = 1, 1, 0, 0
            else:
                w, s = rng.choice([2, 3]), rng.choice([1, 2, 2, 3])
                lo, hi = rng.choice([0, 0, 0, 1]), rng.choice([0, 0, 1])
            hi = self.aligned(lambda h: (lo + n + h - w) // s + 1, hi, s)
            if lo + n + hi < w:
                w, s, lo, hi = 1, 1, 0, 0
            window.append(w), stride.append(s), pad.append((lo, hi))
            src.append((lo + n + hi - w) // s + 1)
        flat = ", ".join(f"[{lo}, {hi}]" for lo, hi in pad)
        direction = rng.choice(["GE", "GE", "GT", "LE"])
        body = ["%zero = stablehlo.constant dense<0.0> : tensor<f32>",
                f'%0 = "stablehlo.select_and_scatter"(%a0, %a1, %zero) <{{padding = '
                f"dense<[{flat}]> : tensor<{rank}x2xi64>, window_dimensions = {arr(window)}, "
                f"window_strides = {arr(stride)}}}> ({{",
                "  ^bb0(%p: tensor<f32>, %q: tensor<f32>):",
                f"    %c = stablehlo.compare {direction}, %p, %q : (tensor<f32>, tensor<f32>) "
                f"-> tensor<i1>",
                "    stablehlo.return %c : tensor<i1>",
                "}, {"]
        body += ["  " + line for line in self._body("add")]
        body += [f"}}) : ({ttype(shape)}, {ttype(src)}, tensor<f32>) -> {ttype(shape)}",
                 f"return %0 : {ttype(shape)}"]
        windowed = [d for d in range(rank) if (window[d], stride[d], pad[d]) != (1, 1, (0, 0))]
        return self.module([(ttype(shape), self.sharding(shape, windowed)),
                            (ttype(src), self.sharding(src, windowed))],
                           [(ttype(shape), self.result_sharding(shape, windowed))], body)

    def convolution(self):
        rng = self.rng
        spatial = rng.choice([1, 2])
        letters = "01"[:spatial]
        weight_grad = rng.random() < 0.25
        batch = rng.choice([2, 4, 8])
        features = rng.choice([2, 4, 8])
        out_features = rng.choice([2, 4, 8])
        groups = 1
        batch_groups = 1
        kind = rng.random()
        if kind < 0.2 and not weight_grad:
            groups = rng.choice([g for g in (2, 4) if features % g == 0])
            out_features = groups * rng.choice([1, 2])
        elif kind < 0.3 and not weight_grad:
            batch_groups = rng.choice([2, 4])
            batch = batch_groups * rng.choice([1, 2])
            out_features = batch_groups * rng.choice([1, 2])
        sizes, kernel, strides, pads, lhs_dil, rhs_dil, outs = [], [], [], [], [], [], []
        for _ in range(spatial):
            n = rng.choice([8, 8, 16, 12, 4])
            if weight_grad:
                k = rng.choice([n, n - 1, n // 2]) if n > 2 else n
                s, lo, hi, ld, rd = 1, rng.choice([0, 1]), rng.choice([0, 1]), 1, 1
            else:
                k = rng.choice([1, 2, 3, 3, 5])
                s = rng.choice([1, 1, 2])
                lo, hi = rng.choice([0, 1, 2]), rng.choice([0, 1, 2])
                ld = rng.choice([1, 1, 1, 2])
                rd = rng.choice([1, 1, 2])
            span = (k - 1) * rd + 1
            if not weight_grad:
                hi = self.aligned(lambda h: (lo + (n - 1) * ld + 1 + h - span) // s + 1, hi, s)
            padded = lo + (n - 1) * ld + 1 + hi
            if padded < span:
                k, rd = 1, 1
                span = 1
            sizes.append(n), kernel.append(k), strides.append(s), pads.append((lo, hi))
            lhs_dil.append(ld), rhs_dil.append(rd), outs.append((padded - span) // s + 1)
        lhs = [batch] + sizes + [features]
        rhs = kernel + [features // groups, out_features]
        out = [batch // batch_groups] + outs + [out_features]
        dn = f"[b, {', '.join(letters)}, f]x[{', '.join(letters)}, i, o]->[b, {', '.join(letters)}, f]"
        window = (f"{{stride = {ilist(strides)}, pad = [{', '.join(f'[{a}, {b}]' for a, b in pads)}], "
                  f"lhs_dilate = {ilist(lhs_dil)}, rhs_dilate = {ilist(rhs_dil)}}}")
        body = [f"%0 = stablehlo.convolution(%a0, %a1) dim_numbers = {dn}, window = {window} "
                f"{{batch_group_count = {batch_groups} : i64, feature_group_count = {groups} : i64}}"
                f" : ({ttype(lhs)}, {ttype(rhs)}) -> {ttype(out)}",
                f"return %0 : {ttype(out)}"]
        spatial_dims = list(range(1, spatial + 1))
        return self.module([(ttype(lhs), self.sharding(lhs, spatial_dims)),
                            (ttype(rhs), self.sharding(rhs, list(range(spatial))
                                                       if weight_grad else [spatial + 1]))],
                           [(ttype(out), self.result_sharding(out, spatial_dims))], body)


OPS = ("pad", "slice", "reverse", "concatenate", "reduce_window", "cumulative",
       "select_and_scatter", "convolution")


def program(seed: int, op: str | None = None) -> tuple[str, str]:
    """(op name, module text) of program `seed` (of op `op`, else a random one)."""
    gen = Gen(seed)
    op = op or gen.rng.choice(OPS)
    return op, getattr(gen, op)()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--op", choices=OPS)
    args = parser.parse_args(argv)
    op, text = program(args.seed, args.op)
    sys.stdout.write(f"// {op}, seed {args.seed}\n" + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
