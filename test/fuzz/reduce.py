"""Shrink a failing fuzz program while it keeps failing the same way.

    python test/fuzz/reduce.py test/fuzz/failures/seed_4.mlir -o /tmp/small.mlir
    python test/fuzz/reduce.py FILE --status mismatch     # keep any mismatch
    python test/fuzz/reduce.py FILE --match "sub-axes can be merged"
    python test/fuzz/reduce.py FILE --pass-pipeline '<the reproduce line's pipeline>'

"The same way" is the failure class of run_fuzz (status plus the first message with
numbers, types and shardings blanked), or --status / --match. Greedy moves, repeated
until none applies:
  * drop a result of @main;
  * cut an op: its result becomes a new (unsharded) argument of @main;
    (ops inside while bodies and case branches too, nested or not);
  * bypass an op: its result is replaced by an operand of the same type;
  * drop a sharding of an argument or result, or one dim's axes of any sharding;
  * erase dead ops (all at once, or one by one: a failure may live in a dead op) and
    unused arguments of @main (all, or one by one); unused private functions go too. Every candidate is
reparsed and verified before it is run.
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import run_fuzz  # noqa: E402

SHARDING_DIMS = re.compile(r"\{(\"[^{}]*)\}")  # a dim sharding with axes: {"x", ?}


def _funcs(module):
    return {ir_str(op.attributes["sym_name"]): op.operation
            for op in module.body.operations if op.operation.name == "func.func"}


def ir_str(attr) -> str:
    from jaxlib.mlir import ir

    return ir.StringAttr(attr).value


def _top_ops(func):
    return [op.operation for op in func.regions[0].blocks[0].operations]


CONTROL_FLOW = ("stablehlo.while", "stablehlo.case")


def _body_ops(func):
    """The ops of a function body, each followed by those of its while bodies and case
    branches (nested too), terminators left out: what moves may cut, bypass or erase.
    Bodies of reduce, sort, scatter and the like are computations, kept whole."""
    out = []

    def walk(block):
        ops = [op.operation for op in block.operations]
        for op in ops[:-1]:
            out.append(op)
            if op.name in CONTROL_FLOW:
                for region in op.regions:
                    for inner in region.blocks:
                        walk(inner)
    walk(func.regions[0].blocks[0])
    return out


def _attr_list(func, key, count):
    from jaxlib.mlir import ir

    if key in func.attributes:
        return list(ir.ArrayAttr(func.attributes[key]))
    return [ir.DictAttr.get({}) for _ in range(count)]


def _set_attr_list(func, key, values):
    from jaxlib.mlir import ir

    func.attributes[key] = ir.ArrayAttr.get(list(values))


def _update_type(func):
    from jaxlib.mlir import ir

    block = func.regions[0].blocks[0]
    ret = _top_ops(func)[-1]
    func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(
        [a.type for a in block.arguments], [v.type for v in ret.operands]))


def _add_arg(func, value_type):
    from jaxlib.mlir import ir

    block = func.regions[0].blocks[0]
    attrs = _attr_list(func, "arg_attrs", len(block.arguments))
    arg = block.add_argument(value_type, func.location)
    _set_attr_list(func, "arg_attrs", attrs + [ir.DictAttr.get({})])
    _update_type(func)
    return arg


def _without_key(d, key):
    from jaxlib.mlir import ir

    entries = {a.name: a.attr for a in ir.DictAttr(d) if a.name != key}
    return ir.DictAttr.get(entries)


def _dce(module, only=None) -> None:
    """Erase dead ops (all, or only `only` = (func, index)), then unused arguments of
    @main and unused private functions."""
    changed = True
    while changed:
        changed = False
        funcs = _funcs(module)
        for name, func in funcs.items():
            ops = _body_ops(func)
            for k in reversed(range(len(ops))):
                op = ops[k]
                if only is not None and (name, k) != only:
                    continue
                if all(len(list(r.uses)) == 0 for r in op.results):
                    op.erase()
                    changed = only is None
    if only is None:
        _drop_unused_args(module)
    _drop_unused_funcs(module)


def _drop_unused_args(module) -> None:
    main = _funcs(module).get("main")
    if main is None:
        return
    block = main.regions[0].blocks[0]
    attrs = _attr_list(main, "arg_attrs", len(block.arguments))
    for i in reversed(range(len(block.arguments))):
        if len(list(block.arguments[i].uses)) == 0 and len(block.arguments) > 1:
            block.erase_argument(i)
            del attrs[i]
    _set_attr_list(main, "arg_attrs", attrs)
    _update_type(main)


def _drop_unused_funcs(module) -> None:
    changed = True
    while changed:
        changed = False
        funcs = _funcs(module)
        text = str(module)
        for name, func in funcs.items():
            if name != "main" and f"@{name}(" not in text.replace(f"func.func private @{name}(", ""):
                func.erase()
                changed = True
                break


class Moves:
    """Enumerates candidate edits of a module text; each returns new text or None."""

    def __init__(self, context):
        self.context = context

    def parse(self, text):
        from jaxlib.mlir import ir

        return ir.Module.parse(text, self.context)

    def finish(self, module, dce=False) -> str | None:
        from jaxlib.mlir import ir

        with self.context, ir.Location.unknown():
            if dce:
                _dce(module)
            else:
                _drop_unused_funcs(module)
        if not module.operation.verify():
            return None
        return module.operation.get_asm(large_elements_limit=None)

    def list(self, text: str):
        module = self.parse(text)
        funcs = _funcs(module)
        main = funcs["main"]
        moves = [("dce",)]
        ret = _top_ops(main)[-1]
        if len(ret.operands) > 1:
            moves += [("drop_result", i) for i in range(len(ret.operands))]
        for name, func in funcs.items():
            ops = _body_ops(func)
            for k, op in enumerate(ops):
                if all(len(list(r.uses)) == 0 for r in op.results):
                    moves.append(("erase_dead", name, k))
                if op.name in ("stablehlo.constant",):
                    continue
                if name == "main":
                    moves += [("cut", name, k, r) for r in range(len(op.results))]
                if len(op.results) == 1 and any(o.type == op.results[0].type
                                                for o in op.operands):
                    moves.append(("bypass", name, k))
        main_args = main.regions[0].blocks[0].arguments
        moves += [("drop_arg", i) for i in range(len(main_args))
                  if len(list(main_args[i].uses)) == 0 and len(main_args) > 1]
        for name, func in funcs.items():
            n_args = len(func.regions[0].blocks[0].arguments)
            n_res = len(_top_ops(func)[-1].operands)
            moves += [("unshard_arg", name, i) for i in range(n_args)]
            moves += [("unshard_result", name, i) for i in range(n_res)]
        moves += [("clear_dim", m.start()) for m in SHARDING_DIMS.finditer(text)]
        return moves

    def apply(self, text: str, move) -> str | None:
        from jaxlib.mlir import ir
        from jaxlib.mlir.dialects import func as func_d

        kind = move[0]
        if kind == "clear_dim":
            m = SHARDING_DIMS.match(text, move[1])
            if m is None:
                return None
            inner = m.group(1)
            new = "{?}" if "?" in inner else "{}"
            text = text[:m.start()] + new + text[m.end():]
            try:
                module = self.parse(text)
            except ir.MLIRError:
                return None
            return self.finish(module)
        try:
            module = self.parse(text)
        except ir.MLIRError:
            return None
        funcs = _funcs(module)
        if kind == "dce":
            return self.finish(module, dce=True)
        if kind == "erase_dead":
            with self.context, ir.Location.unknown():
                _dce(module, (move[1], move[2]))
            return self.finish(module)
        with self.context, ir.Location.unknown():
            if kind == "drop_arg":
                main = funcs["main"]
                block = main.regions[0].blocks[0]
                attrs = _attr_list(main, "arg_attrs", len(block.arguments))
                block.erase_argument(move[1])
                del attrs[move[1]]
                _set_attr_list(main, "arg_attrs", attrs)
                _update_type(main)
            elif kind == "drop_result":
                main = funcs["main"]
                ret = _top_ops(main)[-1]
                operands = [v for i, v in enumerate(ret.operands) if i != move[1]]
                with ir.InsertionPoint(ret):
                    func_d.ReturnOp(operands)
                ret.erase()
                attrs = _attr_list(main, "res_attrs", len(operands) + 1)
                del attrs[move[1]]
                _set_attr_list(main, "res_attrs", attrs)
                _update_type(main)
            elif kind == "cut":
                _, name, k, r = move
                func = funcs[name]
                op = _body_ops(func)[k]
                result = op.results[r]
                arg = _add_arg(func, result.type)
                result.replace_all_uses_with(arg)
            elif kind == "bypass":
                _, name, k = move
                op = _body_ops(funcs[name])[k]
                result = op.results[0]
                same = [o for o in op.operands if o.type == result.type]
                result.replace_all_uses_with(same[0])
            elif kind in ("unshard_arg", "unshard_result"):
                _, name, i = move
                func = funcs[name]
                key = "arg_attrs" if kind == "unshard_arg" else "res_attrs"
                if key not in func.attributes:
                    return None
                attrs = list(ir.ArrayAttr(func.attributes[key]))
                if "sdy.sharding" not in ir.DictAttr(attrs[i]):
                    return None
                attrs[i] = _without_key(attrs[i], "sdy.sharding")
                _set_attr_list(func, key, attrs)
        return self.finish(module)


def reduce_text(text: str, keeps_failing, context, log=print, budget_s: float = 600.0) -> str:
    moves = Moves(context)
    start = time.monotonic()
    tried = set()
    progress = True
    while progress and time.monotonic() - start < budget_s:
        progress = False
        for move in moves.list(text):
            if time.monotonic() - start > budget_s:
                break
            candidate = moves.apply(text, move)
            if candidate is None or candidate == text or candidate in tried:
                continue
            tried.add(candidate)
            if len(candidate) >= len(text) and move[0] != "unshard_arg":
                continue
            if keeps_failing(candidate):
                log(f"  {move}: {len(text)} -> {len(candidate)} chars")
                text = candidate
                progress = True
                break
    return text


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", type=Path)
    p.add_argument("-o", "--output", type=Path)
    p.add_argument("--status", help="keep this outcome (e.g. mismatch), any message")
    p.add_argument("--match", help="keep failures whose message contains this text")
    p.add_argument("--budget", type=float, default=600.0, help="seconds")
    p.add_argument("--pass-pipeline", default=run_fuzz.PIPELINE,
                   help="partition with this pipeline (a saved failure's reproduce line "
                        "names it where it is not the default)")
    args = p.parse_args(argv)
    runner = run_fuzz.Runner()
    if args.pass_pipeline not in runner.pipelines:
        from shardpy.pipeline import Pipeline

        runner.pipelines[args.pass_pipeline] = Pipeline(args.pass_pipeline, runner.context)
    runner._pipeline = runner.pipelines[args.pass_pipeline]
    text = args.input.read_text()
    first = runner.run_text(text)
    if not first.failed:
        print(f"{args.input}: does not fail ({first.status})")
        return 1
    target = first.signature()
    print(f"reducing: {target}")

    def keeps_failing(candidate: str) -> bool:
        outcome = runner.run_text(candidate)
        if args.status:
            return outcome.status == args.status
        if args.match:
            return outcome.failed and args.match in outcome.detail
        return outcome.signature() == target

    reduced = reduce_text(text, keeps_failing, runner.context, budget_s=args.budget)
    final = runner.run_text(reduced)
    header = f"// {final.status}: " + (final.detail.splitlines() or [""])[0] + "\n"
    if args.output:
        args.output.write_text(header + reduced)
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(header + reduced)
    return 0


if __name__ == "__main__":
    sys.exit(main())
