"""The `second_mesh` feature: values crossing onto a second mesh and back.

A program that draws it (about 1 in 7, from an RNG of its own: programs that do not
draw it are the same as without the feature) gets `sdy.mesh @mesh2`, one of
  * the same axes, the devices in another order (a permutation),
  * the mesh without its last axis (a subset of the devices, possibly reordered),
  * the same axis sizes under other names (an alias),
and some of its boundaries put values on @mesh2:
  * @main results get a sharding on @mesh2;
  * callee results get a sharding on @mesh2, and every call of that callee an open
    sharding on @mesh for that result (the call's result crosses back, as in issue 20);
  * optimization_barriers, calls, while loops, case and if ops of @main get their
    results on @mesh2 (`sdy.sharding`), followed by an optimization_barrier back onto
    @mesh with open dims (so that their users, on @mesh, mix no meshes).
The generated text is rewritten line by line (the generator's layout: one op per line;
a line ending in `{` opens a region, one starting with `}` closes one).
"""
from __future__ import annotations

import random
import re

from fuzz_text import int_list

PROBABILITY = 1 / 7
_TYPE = re.compile(r"tensor<([^>]*)>")
_RESULT = re.compile(r"^(\s*)(%[\w]+)(:\d+)? = (.*)$")


def rank_of(tensor_type: str) -> int:
    inner = _TYPE.fullmatch(tensor_type.strip()).group(1)
    return inner.count("x")


def split_types(text: str) -> list[str]:
    """`tensor<2xf32>, tensor<i32>` or `(tensor<..>, ..)` -> the tensor types."""
    return ["tensor<" + t + ">" for t in _TYPE.findall(text)]


class SecondMesh:
    def __init__(self, gen, rng: random.Random):
        self.gen = gen
        self.rng = rng
        self.axes, self.device_ids = self._draw()

    def _draw(self):
        rng = self.rng
        axes = list(self.gen.mesh)
        ids = self.gen.device_ids
        kinds = ["permutation", "alias"] + (["subset"] if len(axes) >= 2 else [])
        kind = rng.choice(kinds)
        if kind == "alias":
            return [(f"{n}{n}", s) for n, s in axes], ids
        if kind == "subset":
            axes = axes[:-1]
        size = 1
        for _, s in axes:
            size *= s
        new = list(range(size))
        rng.shuffle(new)
        return axes, (None if new == sorted(new) else new)

    def declaration(self) -> str:
        axes = ", ".join(f'"{n}"={s}' for n, s in self.axes)
        ids = f", device_ids={int_list(self.device_ids)}" if self.device_ids else ""
        return f"  sdy.mesh @mesh2 = <[{axes}]{ids}>"

    def sharding(self, tensor_type: str) -> str:
        """A random sharding on @mesh2 that divides the shape (`<@mesh2, [...]>`)."""
        inner = _TYPE.fullmatch(tensor_type.strip()).group(1)
        shape = [int(n) for n in inner.split("x")[:-1]]
        free = [(n, s) for n, s in self.axes if s > 1]
        self.rng.shuffle(free)
        dims = []
        for n in shape:
            axes = []
            if free and self.rng.random() < 0.6 and n % free[0][1] == 0:
                axes.append(f'"{free.pop(0)[0]}"')
            dims.append("{" + ", ".join(axes) + "}")
        return "<@mesh2, [" + ", ".join(dims) + "]>"

    @staticmethod
    def open_on_mesh(tensor_type: str) -> str:
        return "<@mesh, [" + ", ".join(["{?}"] * rank_of(tensor_type)) + "]>"

    def per_value(self, types: list[str]) -> str:
        return "#sdy.sharding_per_value<[" + ", ".join(self.sharding(t) for t in types) + "]>"


def apply(text: str, gen) -> str:
    """`text` (a generated program) with the second mesh, or as it is where the
    program does not draw it."""
    rng = random.Random(f"second_mesh:{gen.seed}")
    if rng.random() >= PROBABILITY or all(s == 1 for _, s in gen.mesh):
        return text
    second = SecondMesh(gen, rng)
    lines = text.split("\n")
    out: list[str] = []
    callees = _retarget_callee_results(lines, second, rng)
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("  sdy.mesh @mesh ="):
            out += [line, second.declaration()]
        elif line.startswith("  func.func public @main"):
            out.append(_main_results(line, second, rng))
        else:
            m = _RESULT.match(line)
            if m and len(m.group(1)) == 4 and rng.random() < 0.5:
                end = _op_end(lines, i)
                if end is not None and _crossing(lines, i, end, second, out, callees):
                    i = end + 1
                    continue
            if m and " func.call @" in line:
                line = _annotate_call(line, callees)
            out.append(line)
        i += 1
    return "\n".join(out)


def _op_end(lines: list[str], start: int) -> int | None:
    """The last line of the op starting at `start` (the same line without regions)."""
    line = lines[start]
    body = _RESULT.match(line).group(4)
    if not (body.startswith(("stablehlo.while", '"stablehlo.case"', '"stablehlo.if"'))):
        return start
    depth = 1 if line.endswith("{") else 0  # (a while opens its first region below)
    for j in range(start + 1, len(lines)):
        text = lines[j].strip()
        if text.startswith("}"):
            depth -= 1
            if depth == 0 and not text.endswith("{"):
                return j
        if text.endswith("{"):
            depth += 1
    return None


def _crossing(lines, start, end, second: SecondMesh, out: list[str], callees) -> bool:
    """The op of lines[start..end] with its results on @mesh2, and a barrier back onto
    @mesh under the op's old result name; False (nothing emitted) for other ops."""
    m = _RESULT.match(lines[start])
    indent, name, count, body = m.groups()
    first, last = lines[start], lines[end]
    if name in second.gen.top_k_refs and not second.gen.features.top_k_through_barrier:
        return False  # (the barrier back over top_k's results: known_issues' XLA abort)
    if body.startswith("stablehlo.optimization_barrier "):
        types = split_types(body.rsplit(" : ", 1)[1])
        first = first.replace("stablehlo.optimization_barrier ",
                              f"stablehlo.optimization_barrier {{sdy.sharding = "
                              f"{second.per_value(types)}}} ", 1)
    elif body.startswith("func.call @"):
        if "sdy.sharding" in body:
            return False
        types = split_types(body.rsplit(") -> ", 1)[1])
        callee = body[len("func.call @"):body.index("(")]
        if callee in callees:
            return False  # its results already cross (_retarget_callee_results)
        before, after = first.rsplit(" : (", 1)
        first = f"{before} {{sdy.sharding = {second.per_value(types)}}} : ({after}"
    elif body.startswith("stablehlo.while("):
        if " attributes " in body or _captures(lines[start:end + 1]) or any(
                "<@mesh," in line for line in lines[start + 1:end]):
            return False  # (a body mixing carried values on @mesh2 with captured or
            #              constrained ones on @mesh is the "different meshes" error)
        types = split_types(body.rsplit(") : ", 1)[1])
        first = f"{first} attributes {{sdy.sharding = {second.per_value(types)}}}"
    elif body.startswith(('"stablehlo.case"', '"stablehlo.if"')):
        if not last.startswith("    }) : (") or "sdy.sharding" in last:
            return False
        types = split_types(last.rsplit(") -> ", 1)[1])
        last = last.replace("    }) : (", f"    }}) {{sdy.sharding = "
                                           f"{second.per_value(types)}}} : (", 1)
    else:
        return False
    crossed = f"{name}_m2"
    first = first.replace(f"{indent}{name}{count or ''} = ", f"{indent}{crossed}{count or ''} = ", 1)
    out.append(first)
    out += lines[start + 1:end]
    if end > start:
        out.append(last)
    n = len(types)
    operands = ", ".join(f"{crossed}#{k}" for k in range(n)) if count else crossed
    back = "#sdy.sharding_per_value<[" + ", ".join(second.open_on_mesh(t) for t in types) + "]>"
    out.append(f"{indent}{name}{count or ''} = stablehlo.optimization_barrier "
               f"{{sdy.sharding = {back}}} {operands} : {', '.join(types)}")
    return True


def _captures(op_lines: list[str]) -> bool:
    """Does the region op of `op_lines` use values defined outside it (other than its
    operands)?"""
    header = op_lines[0].split(" = ", 1)[1]
    defined = set(re.findall(r"(%\w+) = ", header))  # a while's block arguments
    inner = "\n".join(op_lines[1:])
    defined |= set(re.findall(r"(%\w+)(?::\d+)? = ", inner))
    used = set(re.findall(r"%\w+", inner))
    return bool(used - defined)


def _main_results(line: str, second: SecondMesh, rng: random.Random) -> str:
    """@main's signature with some results' shardings on @mesh2."""
    head, results = line.split(") -> (", 1)
    results, tail = results.rsplit(") {", 1)
    parts = _split_top(results)
    for k, part in enumerate(parts):
        if rng.random() < 0.5:
            tensor_type = part.split(" {", 1)[0].strip()
            parts[k] = f"{tensor_type} {{sdy.sharding = #sdy.sharding{second.sharding(tensor_type)}}}"
    return f"{head}) -> ({', '.join(parts)}) {{{tail}"


def _retarget_callee_results(lines: list[str], second: SecondMesh, rng) -> dict:
    """Some callees' results onto @mesh2 (in place); callee name -> its result types."""
    callees = {}
    for k, line in enumerate(lines):
        if line.startswith("  func.func private @") and rng.random() < 0.5:
            name = line[len("  func.func private @"):line.index("(")]
            head, results = line.split(") -> (", 1)
            results, tail = results.rsplit(") {", 1)
            parts = _split_top(results)
            types = [p.split(" {", 1)[0].strip() for p in parts]
            parts = [f"{t} {{sdy.sharding = #sdy.sharding{second.sharding(t)}}}" for t in types]
            lines[k] = f"{head}) -> ({', '.join(parts)}) {{{tail}"
            callees[name] = types
    return callees


def _annotate_call(line: str, callees: dict) -> str:
    """A call of a callee whose results are on @mesh2: its results open on @mesh."""
    body = _RESULT.match(line).group(4)
    callee = body[len("func.call @"):body.index("(")] if body.startswith("func.call @") else None
    if callee not in callees or "sdy.sharding" in body:
        return line
    shardings = "#sdy.sharding_per_value<[" + ", ".join(
        SecondMesh.open_on_mesh(t) for t in callees[callee]) + "]>"
    before, after = line.rsplit(" : (", 1)
    return f"{before} {{sdy.sharding = {shardings}}} : ({after}"


def _split_top(text: str) -> list[str]:
    """Split at commas outside <>, {}, ()."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "<{(":
            depth += 1
        elif ch in ">})":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts
