"""Collectives of an XLA-compiled program, read from its optimized HLO, costed like
`shardpy.runtime.stats` costs shardpy's.

What comes from jaxlib's HLO bindings (through `shardpy.ir.jaxlib_bridge.hlo_instructions`):
every instruction of every computation of the executable's optimized HLO modules (while
bodies included), with its opcode and its operands. The bindings expose no shapes or
attributes, so this reader parses two things out of one instruction's own text
(`HloInstruction.to_string()`, one line):

  * a result shape: `%x = f32[8,64]{1,0} all-gather(...)` or a tuple
    `(f32[], f32[64,32]{1,0}, /*index=5*/...)`: every `TYPE[d0,d1,...]` in it;
  * the replica-group size, from `replica_groups=` in any of the forms XLA prints:
    `{{0,1,2,3},{4,5,6,7}}` (explicit), `[2,4]<=[8]` / `[4,2]<=[2,4]T(1,0)` (iota:
    groups x size), `mesh['axis_0'=2,'axis_1'=4] {'axis_1'}` (mesh axes; the product of
    the named axes' sizes, `'a':(k)m` sub-axes count m), `{}` (every partition).

Nothing else is parsed. Cost model (bytes each device sends; S per device, n = group
size), python/shardpy/sharding/collective_time.py's, with S taken from the operands:
    all-reduce 2(n-1)/n*S        S = operands
    all-gather (n-1)/n*S         S = the gathered result = n * operands
    reduce-scatter, all-to-all (n-1)/n*S   S = operands
    collective-permute, collective-broadcast  S = (first) operand
A `*-start` op is counted, its `*-done` is not; an async-wrapped collective is found in
its wrapped computation. Static counts: a collective in a loop body counts once.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..sharding.collective_time import collective_cost_bytes
from .arrays import format_bytes

# HloOpcode name -> the kind shardpy.runtime.stats uses
OPCODES = {
    "kAllReduce": "all_reduce", "kAllReduceStart": "all_reduce",
    "kAllGather": "all_gather", "kAllGatherStart": "all_gather",
    "kReduceScatter": "reduce_scatter",
    "kAllToAll": "all_to_all", "kRaggedAllToAll": "all_to_all",
    "kCollectivePermute": "collective_permute", "kCollectivePermuteStart": "collective_permute",
    "kCollectiveBroadcast": "collective_broadcast",
}

ELEMENT_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2,
                 "s32": 4, "u32": 4, "f32": 4, "s64": 8, "u64": 8, "f64": 8, "c64": 8,
                 "c128": 16, "token": 0}

_ARRAY = re.compile(r"\b([a-z][a-z0-9]*)\[([^\]]*)\]")
_HEAD = re.compile(r"^\s*(?:ROOT\s+)?%?[^\s=]+\s*=\s*")


@dataclass(frozen=True)
class ArrayShape:
    element: str
    dims: tuple[int, ...]

    @property
    def elements(self) -> int:
        count = 1
        for d in self.dims:
            count *= d
        return count

    @property
    def bytes(self) -> int:
        return self.elements * element_bytes(self.element)


def element_bytes(element: str) -> int:
    if element in ELEMENT_BYTES:
        return ELEMENT_BYTES[element]
    if element.startswith(("f8", "f4", "s4", "u4", "s2", "u2", "s1", "u1")):
        return 1  # sub-byte and 8-bit floats: at least one byte, as shardpy.runtime.stats counts
    raise ValueError(f"unknown HLO element type '{element}'")


def result_shapes(text: str) -> list[ArrayShape]:
    """The arrays of an instruction's result shape (one, or a tuple's elements)."""
    head = _HEAD.match(text)
    if head is None:
        raise ValueError(f"not an HLO instruction: {text[:80]!r}")
    rest = text[head.end():]
    if rest.startswith("("):  # tuple: up to the matching parenthesis
        depth = 0
        for i, c in enumerate(rest):
            depth += c == "("
            depth -= c == ")"
            if depth == 0:
                shape_text = rest[:i + 1]
                break
        else:
            raise ValueError(f"unbalanced tuple shape: {text[:80]!r}")
    else:
        shape_text = rest.split(None, 1)[0]
    shapes = []
    for element, dims in _ARRAY.findall(shape_text):
        sizes = tuple(int(d.lstrip("<=")) for d in dims.split(",") if d)
        shapes.append(ArrayShape(element, sizes))
    return shapes


def group_size(text: str, num_partitions: int) -> int:
    """Devices in one replica group of a collective's `replica_groups=`."""
    at = text.find("replica_groups=")
    if at < 0:
        return num_partitions
    groups = text[at + len("replica_groups="):]
    if groups.startswith("mesh["):
        sizes = dict((name, int(size)) for name, size in
                     re.findall(r"'([^']+)'=(\d+)", groups[:groups.index("]") + 1]))
        named = re.search(r"\{([^{}]*)\}", groups[groups.index("]"):])
        if named is None:
            raise ValueError(f"cannot read mesh replica groups: {groups[:80]!r}")
        n = 1
        for name, sub in re.findall(r"'([^']+)'(?::\(\d+\)(\d+))?", named.group(1)):
            n *= int(sub) if sub else sizes[name]
        return n
    iota = re.match(r"\[(\d+),(\d+)\]<=", groups)
    if iota:
        return int(iota.group(2))
    explicit = re.match(r"\{\{([\d,]*)\}", groups)
    if explicit:
        return len([d for d in explicit.group(1).split(",") if d])
    if groups.startswith("{}"):
        return num_partitions
    raise ValueError(f"cannot read replica groups: {groups[:80]!r}")


@dataclass
class Collective:
    kind: str
    group_size: int
    operand_bytes: int
    result: list[ArrayShape]  # per-device result arrays (all-gather: the gathered ones)
    cost: float
    text: str


@dataclass
class HloCollectives:
    collectives: list[Collective] = field(default_factory=list)

    def by_kind(self) -> dict[str, dict]:
        out: dict[str, dict] = {}
        for c in self.collectives:
            entry = out.setdefault(c.kind, {"count": 0, "bytes_per_device": 0.0})
            entry["count"] += 1
            entry["bytes_per_device"] += c.cost
        return dict(sorted(out.items()))

    @property
    def total_bytes(self) -> float:
        return sum(c.cost for c in self.collectives)

    def summary(self) -> str:
        """e.g. "3 (1 all_gather, 2 all_reduce) / 5.8 KiB": count, kinds, bytes/device."""
        if not self.collectives:
            return "none"
        kinds = ", ".join(f"{e['count']} {k}" for k, e in self.by_kind().items())
        return f"{len(self.collectives)} ({kinds}) / {format_bytes(round(self.total_bytes))}"

    def gathered(self) -> list[ArrayShape]:
        """Per-device results of every all-gather and all-reduce (tensors made whole)."""
        return [s for c in self.collectives if c.kind in ("all_gather", "all_reduce")
                for s in c.result]


def read_collectives(instructions, num_partitions: int) -> HloCollectives:
    """`instructions`: (opcode name, text, operand texts) as jaxlib_bridge.hlo_instructions
    yields them."""
    found = HloCollectives()
    for opcode, text, operand_texts in instructions:
        kind = OPCODES.get(opcode)
        if kind is None:
            continue
        operands = [s for t in operand_texts for s in result_shapes(t)]
        if kind in ("collective_permute", "collective_broadcast"):
            operands = result_shapes(operand_texts[0]) if operand_texts else []
            n = 0
        else:
            n = group_size(text, num_partitions)
        operand_bytes = sum(s.bytes for s in operands)
        result = result_shapes(text)
        if kind == "all_gather":
            result = result[-len(operands):] if opcode == "kAllGatherStart" else result
        cost = collective_cost_bytes(kind, n, operand_bytes,
                                     sum(s.bytes for s in result) if kind == "all_gather"
                                     else operand_bytes)
        found.collectives.append(Collective(kind, n, operand_bytes, result, cost, text))
    return found
