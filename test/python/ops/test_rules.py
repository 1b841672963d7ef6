"""Our rule table against Shardy's own (`sdy-populate-op-sharding-rules`, as jaxlib ships it).

Corpus: every examples/*.mlir, the ShowRules lit tests and their Inputs/, and one module
per op family generated here with varied shapes and attributes (seeded, so the same
every run). For each module, we compute our rule for every op, run the native pass on
the same module, and compare op by op (walk order) in canonical form. The only
differences allowed are the documented ones in shardpy.ops, listed in DIFFERENCES; each
must show up in the corpus, so the list cannot go stale.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from jaxlib.mlir import ir

from shardpy.ir.diagnostics import DiagnosticEngine
from shardpy.ops.collectives import cross_partition, in_manual_code
from shardpy.ops.elementwise import CHLO_ELEMENTWISE, elementwise
from shardpy.ops.registry import RULES, WITHOUT_RULE, rule_for
from shardpy.pipeline import Pipeline
from shardpy.sharding.op_rule import RULE_ATTR, FactorKind, OpRule, RuleBuilder

ROOT = Path(__file__).resolve().parents[3]
NATIVE = "builtin.module(sdy-populate-op-sharding-rules)"


# --------------------------------------------------------------------------- differences


def _native_has_no_chlo_rules(op, ours: OpRule | None) -> OpRule | None:
    """Native knows no chlo op (ops.elementwise.CHLO_ELEMENTWISE, chlo.top_k)."""
    return None


def _native_pad_ignores_shifts(op, ours: OpRule) -> OpRule:
    """Native makes a padded dim a permutation only when its size changes; a shift
    (low -k, high +k) stays pass-through there."""
    src, dst = [tuple(t.type.shape) for t in (op.operands[0], op.results[0])]
    kinds = list(ours.kinds)
    for d, (factor,) in enumerate(ours.operands[0]):
        if src[d] == dst[d]:
            kinds[factor] = FactorKind.PASS_THROUGH
    return OpRule(ours.factor_sizes, ours.operands, ours.results, tuple(kinds),
                  ours.blocked, ours.is_custom)


def _native_source_windows_whole(op, ours: OpRule) -> OpRule:
    """Native gives a select_and_scatter's source its own need-replication factor on
    each windowed dim (ours: the operand's permutation factor)."""
    source = tuple(op.operands[1].type.shape)
    sizes, kinds = list(ours.factor_sizes), list(ours.kinds)
    mapping = []
    for d, (factor,) in enumerate(ours.operands[1]):
        if kinds[factor] is FactorKind.PERMUTATION:
            sizes.append(source[d])
            kinds.append(FactorKind.NEED_REPLICATION)
            factor = len(sizes) - 1
        mapping.append((factor,))
    operands = (ours.operands[0], tuple(mapping)) + ours.operands[2:]
    return OpRule(tuple(sizes), operands, ours.results, tuple(kinds), ours.blocked,
                  ours.is_custom)


def _native_top_k_keeps_whole_dim(op, ours: OpRule) -> OpRule:
    """Native's top-k rule (custom_call @mhlo.topk) makes the last dim pass-through when
    k is its whole size (ours: need-replication and blocked at any k, its values being
    reordered; test/Regressions/fuzz_top_k_of_whole_dim_sharded.mlir)."""
    target = ir.StringAttr(op.attributes["call_target_name"]).value
    src, dst = [tuple(t.type.shape) for t in (op.operands[0], op.results[0])]
    if target != "mhlo.topk" or not src or src[-1] != dst[-1]:
        return ours
    (factor,) = ours.operands[0][-1]
    kinds = list(ours.kinds)
    kinds[factor] = FactorKind.PASS_THROUGH
    return OpRule(ours.factor_sizes, ours.operands, ours.results, tuple(kinds),
                  ours.blocked - {factor}, ours.is_custom)


def _native_has_no_rule_for_empty_reshape(op, ours: OpRule) -> OpRule | None:
    """Native gives the reshape of an empty tensor no rule (and, unlike other ops
    without one, no warning); ours keeps every dim whole (need-replication): the same
    effect, and shardpy warns only about ops it cannot shard."""
    return None if 0 in tuple(op.operands[0].type.shape) else ours


def _native_keeps_collectives_pointwise(op, ours: OpRule) -> OpRule:
    """Native gives the shape-keeping collectives the pointwise rule wherever they are;
    ours keeps every dim whole for a cross-partition one outside sdy.manual_computation
    (it works on whole values there, as in XLA: test/Partition/
    global_cross_partition_collectives.mlir). A GSPMD module before shardpy-import has
    its manual regions as custom calls, so its collectives count as outside."""
    if not cross_partition(op) or in_manual_code(op):
        return ours
    builder = RuleBuilder([tuple(v.type.shape) for v in op.operands],
                          [tuple(r.type.shape) for r in op.results])
    elementwise(op, builder)
    return builder.build()


DIFFERENCES = {
    **dict.fromkeys(CHLO_ELEMENTWISE + ("chlo.top_k",), _native_has_no_chlo_rules),
    "stablehlo.reshape": _native_has_no_rule_for_empty_reshape,
    **dict.fromkeys(("stablehlo.all_reduce", "stablehlo.collective_permute",
                     "stablehlo.collective_broadcast"), _native_keeps_collectives_pointwise),
    "stablehlo.pad": _native_pad_ignores_shifts,
    "stablehlo.select_and_scatter": _native_source_windows_whole,
    "stablehlo.custom_call": _native_top_k_keeps_whole_dim,
}
"""op name -> (op, our rule) -> the rule native is expected to give instead."""


def _canonical(rule: OpRule | None):
    return None if rule is None else rule.canonical()


# --------------------------------------------------------------------------- generated corpus

SIZES = (1, 2, 3, 4, 6, 8, 12, 16)


def _t(shape, element="f32") -> str:
    return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{element}>"


def _module(lines: list[str], args: list[str]) -> str:
    return ("func.func @f(" + ", ".join(args) + ") {\n" + "\n".join(lines)
            + "\n  return\n}\n")


def _factorization(rng: random.Random, total: int) -> list[int]:
    dims = []
    while total > 1:
        d = rng.choice([x for x in range(2, total + 1) if total % x == 0])
        dims.append(d)
        total //= d
        if rng.random() < 0.15:
            dims.append(1)
    rng.shuffle(dims)
    return dims


def gen_reshape(rng):
    args, lines = [], []
    for n, total in enumerate(rng.choice((1, 6, 12, 24, 30, 36, 48, 64, 72, 90, 96, 120,
                                          210, 360, 720, 1024)) for _ in range(120)):
        src, dst = _factorization(rng, total), _factorization(rng, total)
        if rng.random() < 0.2:
            dst.insert(rng.randrange(len(dst) + 1), 1)
        args.append(f"%a{n}: {_t(src)}")
        lines.append(f"  %{n} = stablehlo.reshape %a{n} : ({_t(src)}) -> {_t(dst)}")
    return _module(lines, args)


def gen_broadcast_in_dim(rng):
    args, lines = [], []
    for n in range(60):
        src = [rng.choice(SIZES) for _ in range(rng.randrange(4))]
        rank = len(src) + rng.randrange(3)
        where = rng.sample(range(rank), len(src))
        dst = [rng.choice(SIZES) for _ in range(rank)]
        for d, out in enumerate(where):
            dst[out] = src[d] if src[d] != 1 else rng.choice((1, 5))
        args.append(f"%a{n}: {_t(src)}")
        lines.append(f"  %{n} = stablehlo.broadcast_in_dim %a{n}, dims = {where} : "
                     f"({_t(src)}) -> {_t(dst)}")
    return _module(lines, args)


def gen_transpose_and_reverse(rng):
    args, lines = [], []
    for n in range(30):
        src = [rng.choice(SIZES) for _ in range(rng.randrange(1, 5))]
        perm = rng.sample(range(len(src)), len(src))
        rev = sorted(rng.sample(range(len(src)), rng.randrange(len(src) + 1)))
        args.append(f"%a{n}: {_t(src)}")
        lines.append(f"  %t{n} = stablehlo.transpose %a{n}, dims = {perm} : ({_t(src)}) -> "
                     f"{_t([src[d] for d in perm])}")
        lines.append(f"  %r{n} = stablehlo.reverse %a{n}, dims = {rev} : {_t(src)}")
    return _module(lines, args)


def gen_dot_general(rng):
    args, lines = [], []
    for n in range(40):
        batch = [rng.choice(SIZES) for _ in range(rng.randrange(3))]
        contract = [rng.choice(SIZES) for _ in range(rng.randrange(3))]
        lfree = [rng.choice(SIZES) for _ in range(rng.randrange(3))]
        rfree = [rng.choice(SIZES) for _ in range(rng.randrange(3))]

        def place(free):
            kinds = [("b", i) for i in range(len(batch))] + \
                    [("c", i) for i in range(len(contract))] + [("f", i) for i in range(len(free))]
            rng.shuffle(kinds)
            shape = [{"b": batch, "c": contract, "f": free}[k][i] for k, i in kinds]
            return shape, kinds

        lhs, lk = place(lfree)
        rhs, rk = place(rfree)
        pos = lambda kinds, kind: [kinds.index((kind, i)) for i in range(  # noqa: E731
            len(batch) if kind == "b" else len(contract))]
        out = batch + [s for s, (k, _) in zip(lhs, lk) if k == "f"] + \
            [s for s, (k, _) in zip(rhs, rk) if k == "f"]
        args += [f"%l{n}: {_t(lhs)}", f"%r{n}: {_t(rhs)}"]
        lines.append(
            f"  %{n} = stablehlo.dot_general %l{n}, %r{n}, batching_dims = {pos(lk, 'b')} x "
            f"{pos(rk, 'b')}, contracting_dims = {pos(lk, 'c')} x {pos(rk, 'c')} : "
            f"({_t(lhs)}, {_t(rhs)}) -> {_t(out)}")
    return _module(lines, args)


def gen_reduce(rng):
    args = ["%s: tensor<f32>", "%z: tensor<i32>"]
    lines = []
    for n in range(30):
        src = [rng.choice(SIZES) for _ in range(rng.randrange(1, 5))]
        dims = sorted(rng.sample(range(len(src)), rng.randrange(len(src) + 1)))
        out = [s for d, s in enumerate(src) if d not in dims]
        args += [f"%a{n}: {_t(src)}", f"%i{n}: {_t(src, 'i32')}"]
        if rng.random() < 0.5:
            lines.append(f"  %{n} = stablehlo.reduce(%a{n} init: %s) applies stablehlo.add "
                         f"across dimensions = {dims} : ({_t(src)}, tensor<f32>) -> {_t(out)}")
        else:
            lines += [
                f"  %{n}:2 = stablehlo.reduce(%a{n} init: %s), (%i{n} init: %z) across "
                f"dimensions = {dims} : ({_t(src)}, {_t(src, 'i32')}, tensor<f32>, "
                f"tensor<i32>) -> ({_t(out)}, {_t(out, 'i32')})",
                "    reducer(%p: tensor<f32>, %q: tensor<f32>) (%pi: tensor<i32>, %qi: tensor<i32>) {",
                "      %m = stablehlo.maximum %p, %q : tensor<f32>",
                "      %mi = stablehlo.minimum %pi, %qi : tensor<i32>",
                "      stablehlo.return %m, %mi : tensor<f32>, tensor<i32>",
                "    }"]
    return _module(lines, args)


def _window(rng, src, dilations: bool):
    cfg = []
    for size in src:
        while True:
            w, s = rng.choice((1, 1, 2, 3)), rng.choice((1, 1, 2))
            lo, hi = rng.choice((0, 0, 1)), rng.choice((0, 0, 1, 2))
            bd, wd = (rng.choice((1, 1, 2)), rng.choice((1, 1, 2))) if dilations else (1, 1)
            span = (size - 1) * bd + 1 + lo + hi - ((w - 1) * wd + 1)
            if span >= 0:
                cfg.append((w, s, lo, hi, bd, wd, span // s + 1))
                break
    return cfg


def _window_attrs(cfg, dilations: bool) -> str:
    col = lambda i: ", ".join(str(c[i]) for c in cfg)  # noqa: E731
    pad = ", ".join(f"[{c[2]}, {c[3]}]" for c in cfg)
    attrs = (f"window_dimensions = array<i64: {col(0)}>, window_strides = array<i64: "
             f"{col(1)}>, padding = dense<[{pad}]> : tensor<{len(cfg)}x2xi64>")
    if dilations:
        attrs += f", base_dilations = array<i64: {col(4)}>, window_dilations = array<i64: {col(5)}>"
    return attrs


def gen_windows(rng):
    args = ["%s: tensor<f32>"]
    lines = []
    body = ["    ^bb0(%p: tensor<f32>, %q: tensor<f32>):",
            "      %m = stablehlo.maximum %p, %q : tensor<f32>",
            "      stablehlo.return %m : tensor<f32>"]
    for n in range(30):
        src = [rng.choice(SIZES[1:]) for _ in range(rng.randrange(1, 4))]
        args.append(f"%a{n}: {_t(src)}")
        cfg = _window(rng, src, dilations=True)
        out = [c[6] for c in cfg]
        lines += [f'  %w{n} = "stablehlo.reduce_window"(%a{n}, %s) ({{', *body,
                  f"  }}) {{{_window_attrs(cfg, True)}}} : ({_t(src)}, tensor<f32>) -> {_t(out)}"]
        cfg = _window(rng, src, dilations=False)
        source = [c[6] for c in cfg]
        args.append(f"%src{n}: {_t(source)}")
        lines += [f'  %ss{n} = "stablehlo.select_and_scatter"(%a{n}, %src{n}, %s) ({{',
                  "    ^bb0(%p: tensor<f32>, %q: tensor<f32>):",
                  "      %c = stablehlo.compare GE, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>",
                  "      stablehlo.return %c : tensor<i1>",
                  "  }, {",
                  "    ^bb0(%p: tensor<f32>, %q: tensor<f32>):",
                  "      %m = stablehlo.add %p, %q : tensor<f32>",
                  "      stablehlo.return %m : tensor<f32>",
                  f"  }}) {{{_window_attrs(cfg, False)}}} : ({_t(src)}, {_t(source)}, "
                  f"tensor<f32>) -> {_t(src)}"]
    return _module(lines, args)


def gen_slicing(rng):
    args = ["%s: tensor<f32>", "%i: tensor<i32>"]
    lines = []
    for n in range(30):
        src = [rng.choice(SIZES[1:]) for _ in range(rng.randrange(1, 4))]
        args.append(f"%a{n}: {_t(src)}")
        starts = [rng.randrange(s) for s in src]
        limits = [rng.randrange(b + 1, s + 1) for b, s in zip(starts, src)]
        strides = [rng.choice((1, 1, 2)) for _ in src]
        sliced = [-(-(lim - b) // st) for b, lim, st in zip(starts, limits, strides)]
        spec = ", ".join(f"{b}:{lim}:{st}" for b, lim, st in zip(starts, limits, strides))
        lines.append(f"  %s{n} = stablehlo.slice %a{n} [{spec}] : ({_t(src)}) -> {_t(sliced)}")
        low = [rng.choice((-1, 0, 0, 1, 2)) for _ in src]
        high = [rng.choice((-1, 0, 0, 1)) if rng.random() < 0.8 else -low[d]
                for d in range(len(src))]
        interior = [rng.choice((0, 0, 1)) for _ in src]
        padded = [s + lo + hi + (s - 1) * it for s, lo, hi, it in zip(src, low, high, interior)]
        if min(padded) > 0:
            lines.append(f"  %p{n} = stablehlo.pad %a{n}, %s, low = {low}, high = {high}, "
                         f"interior = {interior} : ({_t(src)}, tensor<f32>) -> {_t(padded)}")
        sizes = [rng.randrange(1, s + 1) for s in src]
        idx = ", ".join(["%i"] * len(src))
        lines.append(f"  %d{n} = stablehlo.dynamic_slice %a{n}, {idx}, sizes = {sizes} : "
                     f"({_t(src)}, {', '.join(['tensor<i32>'] * len(src))}) -> {_t(sizes)}")
        args.append(f"%u{n}: {_t(sizes)}")
        lines.append(f"  %e{n} = stablehlo.dynamic_update_slice %a{n}, %u{n}, {idx} : "
                     f"({_t(src)}, {_t(sizes)}, {', '.join(['tensor<i32>'] * len(src))}) -> "
                     f"{_t(src)}")
        # concat of slices of %a (a roll), of %a and its slices, or of unrelated arrays
        dim = rng.randrange(len(src))
        if src[dim] > 1:
            cut = rng.randrange(1, src[dim])
            lo_spec = ", ".join(f"0:{cut}" if d == dim else f"0:{s}" for d, s in enumerate(src))
            hi_spec = ", ".join(f"{cut}:{s}" if d == dim else f"0:{s}" for d, s in enumerate(src))
            lo_t = _t([cut if d == dim else s for d, s in enumerate(src)])
            hi_t = _t([s - cut if d == dim else s for d, s in enumerate(src)])
            lines += [f"  %lo{n} = stablehlo.slice %a{n} [{lo_spec}] : ({_t(src)}) -> {lo_t}",
                      f"  %hi{n} = stablehlo.slice %a{n} [{hi_spec}] : ({_t(src)}) -> {hi_t}"]
            pieces = rng.choice(([("%hi", hi_t), ("%lo", lo_t)],
                                 [("%lo", lo_t), ("%a", _t(src))],
                                 [("%a", _t(src)), ("%a", _t(src))],
                                 [("%lo", lo_t), ("%b", None)]))
            if pieces[-1][0] == "%b":
                args.append(f"%b{n}: {_t(src)}")
                pieces[-1] = ("%b", _t(src))
            total = sum(int(t[7:-1].split("x")[dim]) for _, t in pieces)
            out = _t([total if d == dim else s for d, s in enumerate(src)])
            lines.append(f"  %c{n} = stablehlo.concatenate "
                         f"{', '.join(v + str(n) for v, _ in pieces)}, dim = {dim} : "
                         f"({', '.join(t for _, t in pieces)}) -> {out}")
    return _module(lines, args)


def gen_convolution(rng):
    args, lines = [], []
    for n in range(40):
        spatial = rng.randrange(1, 3)
        fgc, bgc = rng.choice(((1, 1), (1, 1), (2, 1), (1, 2)))
        batch, in_f, out_f = rng.choice((2, 4)) * bgc, rng.choice((2, 4)) * fgc, \
            rng.choice((2, 6)) * fgc * bgc
        win = [rng.choice((1, 2, 3, 5, 12)) for _ in range(spatial)]
        size = [rng.choice((5, 8, 12, 16)) for _ in range(spatial)]
        stride = [rng.choice((1, 1, 2, 3)) for _ in range(spatial)]
        pads = [(rng.choice((0, 1, 2)), rng.choice((0, 1, 2))) for _ in range(spatial)]
        lhs_dil = [rng.choice((1, 1, 1, 2)) for _ in range(spatial)]
        rhs_dil = [rng.choice((1, 1, 1, 2)) for _ in range(spatial)]
        out_sp = []
        for s, k, st, (lo, hi), ld, rd in zip(size, win, stride, pads, lhs_dil, rhs_dil):
            span = (s - 1) * ld + 1 + lo + hi - ((k - 1) * rd + 1)
            out_sp.append(max(span, -1) // st + 1 if span >= 0 else 0)
        if min(out_sp) <= 0:
            continue
        # random layouts: positions of b/f/spatial in lhs, o/i/spatial in kernel and out
        lhs_l, ker_l, out_l = (rng.sample(["b", "f", *map(str, range(spatial))], spatial + 2),
                               rng.sample(["o", "i", *map(str, range(spatial))], spatial + 2),
                               rng.sample(["b", "f", *map(str, range(spatial))], spatial + 2))
        dims = {"b": batch, "f": in_f}
        lhs = [dims[c] if c in dims else size[int(c)] for c in lhs_l]
        ker = [{"o": out_f, "i": in_f // fgc}.get(c) or win[int(c)] for c in ker_l]
        out = [{"b": batch // bgc, "f": out_f}.get(c) or out_sp[int(c)] for c in out_l]
        args += [f"%l{n}: {_t(lhs)}", f"%k{n}: {_t(ker)}"]
        window = (f"stride = {stride}, pad = [{', '.join(f'[{lo}, {hi}]' for lo, hi in pads)}]"
                  f", lhs_dilate = {lhs_dil}, rhs_dilate = {rhs_dil}")
        lines.append(
            f"  %{n} = stablehlo.convolution(%l{n}, %k{n}) dim_numbers = "
            f"[{', '.join(lhs_l)}]x[{', '.join(ker_l)}]->[{', '.join(out_l)}], window = "
            f"{{{window}}} {{batch_group_count = {bgc} : i64, feature_group_count = {fgc} : "
            f"i64}} : ({_t(lhs)}, {_t(ker)}) -> {_t(out)}")
    return _module(lines, args)


def gen_sort_fft(rng):
    args, lines = [], []
    for n in range(16):
        src = [rng.choice((1, 1, 4, 8)) for _ in range(rng.randrange(1, 4))]
        dim = rng.randrange(len(src))
        args.append(f"%a{n}: {_t(src)}")
        lines += [f'  %s{n} = "stablehlo.sort"(%a{n}) <{{dimension = {dim} : i64}}> ({{',
                  "    ^bb0(%p: tensor<f32>, %q: tensor<f32>):",
                  "      %c = stablehlo.compare LT, %p, %q : (tensor<f32>, tensor<f32>) -> tensor<i1>",
                  "      stablehlo.return %c : tensor<i1>",
                  f"  }}) : ({_t(src)}) -> {_t(src)}"]
        shape = [rng.choice((2, 4, 8, 16)) for _ in range(rng.randrange(1, 4))]
        k = rng.randrange(1, len(shape) + 1)
        length = shape[-k:]
        kind = rng.choice(("FFT", "IFFT", "RFFT", "IRFFT"))
        src_t, dst_t = _t(shape, "complex<f32>"), _t(shape, "complex<f32>")
        if kind == "RFFT":
            src_t, dst_t = _t(shape), _t(shape[:-1] + [shape[-1] // 2 + 1], "complex<f32>")
        elif kind == "IRFFT":
            length = length[:-1] + [2 * (shape[-1] - 1)]
            dst_t = _t(shape[:-1] + [length[-1]])
        args.append(f"%c{n}: {src_t}")
        lines.append(f"  %f{n} = stablehlo.fft %c{n}, type = {kind}, length = {length} : "
                     f"({src_t}) -> {dst_t}")
    return _module(lines, args)


GENERATED = {f.__name__[4:]: f for f in (
    gen_reshape, gen_broadcast_in_dim, gen_transpose_and_reverse, gen_dot_general,
    gen_reduce, gen_windows, gen_slicing, gen_convolution, gen_sort_fft)}


def corpus():
    for path in sorted(ROOT.glob("examples/*.mlir")):
        yield f"examples/{path.name}", path.read_text()
    for path in sorted((ROOT / "test/ShowRules").glob("**/*.mlir")):
        yield str(path.relative_to(ROOT / "test")), path.read_text()
    for name, gen in GENERATED.items():
        yield f"generated/{name}", gen(random.Random(name))


# --------------------------------------------------------------------------- tests

SEEN_DIFFERENCES: set[str] = set()


def _ops(module: ir.Module) -> list[ir.Operation]:
    found = []
    module.operation.walk(lambda op: (found.append(op), ir.WalkResult.ADVANCE)[1],
                          walk_order=ir.WalkOrder.PRE_ORDER)
    return found


@pytest.mark.parametrize("name, text", [pytest.param(n, t, id=n) for n, t in corpus()])
def test_agrees_with_native(context, name, text):
    with context, ir.Location.unknown():
        module = ir.Module.parse(text)
        ours = [rule_for(op, RULES) for op in _ops(module)]
        engine = DiagnosticEngine()
        with engine.capturing(context):  # native warns about ops it does not know
            assert Pipeline(NATIVE, context).run(module, engine), engine.diagnostics
        ops = _ops(module)
        assert len(ops) == len(ours)
        for op, rule in zip(ops, ours):
            native = OpRule.from_attr(op.attributes[RULE_ATTR]) \
                if RULE_ATTR in op.attributes else None
            expected = rule
            if op.name in DIFFERENCES and rule is not None:
                expected = DIFFERENCES[op.name](op, rule)
                if _canonical(expected) != _canonical(rule):
                    SEEN_DIFFERENCES.add(op.name)
            assert _canonical(expected) == _canonical(native), (
                f"{name}: {op.name} at {op.location}\n  ours:   "
                f"{rule.to_attr() if rule else None}\n  native: "
                f"{op.attributes[RULE_ATTR] if native else None}")


def test_every_difference_is_exercised():
    """Runs after the agreement tests (same module, file order): every documented
    difference must occur in the corpus."""
    assert {"stablehlo.pad", "chlo.erf", "chlo.top_k", "stablehlo.custom_call"} <= \
        SEEN_DIFFERENCES


def test_table_names_registered_ops(context):
    """A typo in an op name would silently leave the op without a rule."""
    unknown = [n for n in RULES.functions if not context.is_registered_operation(n)]
    assert not unknown


def test_rule_free_ops_have_no_rule(context):
    with context:
        module = ir.Module.parse("""
          func.func @f() -> tensor<4xf32> {
            %0 = stablehlo.constant dense<1.0> : tensor<4xf32>
            %1 = stablehlo.iota dim = 0 : tensor<4xf32>
            return %1 : tensor<4xf32>
          }""")
        ops = [op for op in _ops(module) if op.name in WITHOUT_RULE]
        assert len(ops) == 2 and all(rule_for(op, RULES) is None for op in ops)


def test_elementwise_rules_are_shared_per_shape(context):
    with context:
        module = ir.Module.parse("""
          func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
            %0 = stablehlo.add %a, %a : tensor<4x8xf32>
            %1 = stablehlo.multiply %0, %a : tensor<4x8xf32>
            return %1 : tensor<4x8xf32>
          }""")
        add, mul = [op for op in _ops(module) if op.name in ("stablehlo.add",
                                                              "stablehlo.multiply")]
        assert rule_for(add, RULES) is rule_for(mul, RULES)
        assert str(rule_for(add, RULES).to_attr()) == \
            "#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=8}>"
