"""Every collective of a per-device module with why it is there (`--explain`).

`explain_module` reads the per-device module shardpy-to-local (and
shardpy-combine-collectives) left while a Recorder was active: for each stablehlo
collective, its kind, the mesh axes its groups span, the bytes each device sends
(shardpy.sharding.collective_time's cost model, as IR statistics count them), the time
the platform's profile estimates for it, and the reasons tagged on its location: the op
that needed it with the user's file:line, the sharding the value had and the one the op
needed, where each came from, and the alternatives the reshard planner weighed. Then it
removes the tags, leaving the module as a run without --explain leaves it.

A record (`Record.to_json`, one per collective, sorted by estimated time, then bytes):

    {"kind": "all_reduce", "axes": ["model"], "group_size": 4, "bytes": 4096.0,
     "seconds": 2.1e-05, "op": "stablehlo.dot_general", "loc": "mlp.py:12:8",
     "why": "result", "from_sharding": "<@mesh, [{}, {}], unreduced={\"model\"}>",
     "to_sharding": "<@mesh, [{}, {}]>",
     "origin": {"from": [...], "to": [...]}, "alternatives": [...],
     "collective_loc": "...", "reasons": [...]}

`why`: "operand" (the op needed an operand laid out otherwise), "result" (the op
computed its result otherwise than its users want: partial sums to reduce, most
often), "lowering" (the op's own lowering exchanges data: halos, a max over sharded
dims), "program" (a collective the input already had: manual code).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from jaxlib.mlir import ir

from ..ir.utils import collect_ops
from ..sharding.collective_time import COLLECTIVES, collective_cost, group_size
from ..sharding.device_groups import groups_of, replica_groups
from ..sharding.model import AxisRef
from ..sharding.sdy_codec import module_meshes
from .recorder import Recorder, members, strip_tags, tag_ids, untagged, where

STABLEHLO_KINDS = {name: kind for name, kind in COLLECTIVES.items()
                   if name.startswith("stablehlo.")}


@dataclass
class Record:
    kind: str
    axes: list[str]
    group_size: int
    bytes: float
    seconds: float | None
    op: str
    loc: str
    why: str
    from_sharding: str = ""
    to_sharding: str = ""
    origin: dict = field(default_factory=dict)
    alternatives: list = field(default_factory=list)  # the reshard plans weighed
    collective_loc: str = ""
    reasons: list = field(default_factory=list)  # all of them (a combined collective)
    placements: list = field(default_factory=list)  # the op's placements weighed

    def to_json(self) -> dict:
        return {"kind": self.kind, "axes": self.axes, "group_size": self.group_size,
                "bytes": self.bytes, "seconds": self.seconds, "op": self.op,
                "loc": self.loc, "why": self.why, "from_sharding": self.from_sharding,
                "to_sharding": self.to_sharding, "origin": self.origin,
                "alternatives": self.alternatives, "placements": self.placements,
                "collective_loc": self.collective_loc, "reasons": self.reasons}


def explain_module(module: ir.Operation, recorder: Recorder, model=None) -> list[Record]:
    """The records of every collective in `module` (per-device), most expensive first;
    the module's tags are removed."""
    meshes = [m for m in module_meshes(module).values() if not m.is_maximal and m.axes]
    records = []
    for op in collect_ops(module):
        kind = STABLEHLO_KINDS.get(op.name)
        if kind is None:
            continue
        records.append(_record(op, kind, recorder, meshes, model))
    strip_tags(module)
    records.sort(key=lambda r: (-(r.seconds or 0.0), -r.bytes, r.loc))
    return records


def _record(op: ir.Operation, kind: str, recorder: Recorder, meshes, model) -> Record:
    loc = op.location
    found = _first_reasons(loc, recorder)
    reasons = [_public(r) for r in found]
    group = _group_size(op)
    cost = collective_cost(op)
    seconds = model.time(kind, max(group, 2), cost) if model is not None and cost else (
        0.0 if model is not None else None)
    axes = _axes(op, meshes)
    main = reasons[0] if reasons else None
    if main is None:
        own = untagged(loc)
        main = {"why": "program", "op": op.name, "loc": where(own),
                "from_sharding": "", "to_sharding": "",
                "origin": {"from": [], "to": []}}
    alternatives = list(found[0].get("alternatives", [])) if found else []
    return Record(kind, axes, group, cost, seconds, main["op"], main["loc"], main["why"],
                  main.get("from_sharding", ""), main.get("to_sharding", ""),
                  main.get("origin", {}), alternatives, where(untagged(loc)), reasons,
                  main.get("placements", []))


def _first_reasons(loc: ir.Location, recorder: Recorder) -> list[dict]:
    """Per fused member, its outermost tag's reason (the pass that made the op last);
    one reason for an unfused location."""
    parts = members(loc)
    if len(parts) > 1:
        out = []
        for inner in parts:
            out.extend(_first_reasons(inner, recorder))
        return out
    ids = tag_ids(loc)
    return [recorder.reasons[ids[0]]] if ids and ids[0] < len(recorder.reasons) else []


def _public(reason: dict) -> dict:
    return {k: v for k, v in reason.items() if not k.startswith("_")}


def _group_size(op: ir.Operation) -> int:
    """A collective_permute moves data between pairs: a group of 2 for its time."""
    return 2 if op.name == "stablehlo.collective_permute" else group_size(op)


def _axes(op: ir.Operation, meshes) -> list[str]:
    """The mesh axes the collective's groups span (the first mesh whose axes explain
    them); for a collective_permute, the axes along which its pairs move data."""
    if op.name == "stablehlo.collective_permute":
        pairs = [tuple(p) for p in _pairs(op)]
        for mesh in meshes:
            if not all(a in mesh.devices and b in mesh.devices for a, b in pairs):
                continue
            moved = set()
            for a, b in pairs:
                ca, cb = mesh.coordinates(a), mesh.coordinates(b)
                moved |= {name for name in mesh.axis_names if ca[name] != cb[name]}
            return [name for name in mesh.axis_names if name in moved]
        return []
    if "replica_groups" not in op.attributes:
        return []
    groups = groups_of(op.attributes["replica_groups"])
    if not groups:
        return []
    wanted = {frozenset(g) for g in groups}
    for mesh in meshes:
        refs = _axis_refs(mesh)
        for k in range(1, min(len(refs), 3) + 1):
            for subset in combinations(refs, k):
                if any(a.overlaps(b, mesh) for a, b in combinations(subset, 2)):
                    continue
                if mesh.size % len(groups[0]) or \
                        {frozenset(g) for g in replica_groups(mesh, subset)} != wanted:
                    continue
                return [str(ref).replace('"', "") for ref in subset]
    return [f"{len(groups[0])} devices"]


def _axis_refs(mesh) -> list[AxisRef]:
    """The mesh's axes, then their sub-axes (a collective over part of an axis)."""
    whole = [AxisRef(name) for name, size in mesh.axes if size > 1]
    parts = []
    for name, size in mesh.axes:
        for pre in range(1, size):
            if size % pre:
                continue
            for part in range(2, size // pre + 1):
                if (size // pre) % part == 0 and (pre, part) != (1, size):
                    parts.append(AxisRef(name, (pre, part)))
    return whole + parts


def _pairs(op: ir.Operation):
    dense = ir.DenseIntElementsAttr(op.attributes["source_target_pairs"])
    values = list(dense)
    return [values[i:i + 2] for i in range(0, len(values), 2)]


def format_table(records: list[Record], limit: int | None = None) -> str:
    """The records as a table (one line each), with the origins below each line."""
    if not records:
        return "no collectives: every op computes on its own shards"
    total_bytes = sum(r.bytes for r in records)
    total_s = sum(r.seconds or 0.0 for r in records)
    lines = [f"{len(records)} collective(s), {_bytes(total_bytes)} per device"
             + (f", ~{total_s * 1e6:.1f} us estimated" if any(
                 r.seconds is not None for r in records) else "")]
    shown = records if limit is None else records[:limit]
    for i, r in enumerate(shown, 1):
        est = f"{r.seconds * 1e6:8.1f} us" if r.seconds is not None else "       -   "
        axes = ",".join(r.axes) or "-"
        lines.append(f"{i:3}. {r.kind:<18} axes {axes:<12} {_bytes(r.bytes):>10}  {est}  "
                     f"{_why(r)}")
        if r.from_sharding or r.to_sharding:
            lines.append(f"       layout: {r.from_sharding} -> {r.to_sharding}")
        for side, label in (("from", "had it from"), ("to", "needed by")):
            steps = r.origin.get(side) or []
            if steps:
                chain = " <- ".join(_step(s) for s in steps[:4])
                more = f" <- ... ({len(steps) - 4} more)" if len(steps) > 4 else ""
                lines.append(f"       {label}: {chain}{more}")
        if len(r.alternatives) > 1:
            alts = "; ".join(
                f"{'+'.join(a['steps']) or 'nothing'} {_bytes(a['bytes'])}"
                + (f" {a['seconds'] * 1e6:.1f} us" if a.get("seconds") is not None else "")
                for a in r.alternatives)
            lines.append(f"       weighed: {alts}")
        if len(r.placements) > 1:
            lines.append(f"       placements of {r.op} weighed ({len(r.placements)}):")
            for p in r.placements[:4]:
                cost = _bytes(p["bytes"]) + (f" {p['seconds'] * 1e6:.1f} us"
                                             if p.get("seconds") is not None else "")
                mark = "chosen " if p["chosen"] else "       "
                lines.append(f"         {mark}{cost}: operands {', '.join(p['operands'])}"
                             f" -> results {', '.join(p['results'])}")
        if len(r.reasons) > 1:
            lines.append(f"       combines {len(r.reasons)} collectives: "
                         + ", ".join(f"{x['op']} at {x['loc']}" for x in r.reasons[1:]))
    if limit is not None and len(records) > limit:
        lines.append(f"  ... {len(records) - limit} more (--explain-json for all)")
    return "\n".join(lines)


def _why(r: Record) -> str:
    if r.why == "operand":
        return f"operand of {r.op} at {r.loc}"
    if r.why == "result":
        return f"result of {r.op} at {r.loc}"
    if r.why == "lowering":
        return f"made by the lowering of {r.op} at {r.loc}"
    return f"in the program as written at {r.loc}"


def _step(s: dict) -> str:
    what = s.get("op") or "?"
    extra = "; ".join(x for x in (s.get("level"), s.get("note")) if x)
    extra = f" [{extra}]" if extra else ""
    return f"{s['how']} {what} at {s['loc']}{extra}" if s.get("loc") else \
        f"{s['how']} {what}{extra}"


def _bytes(n: float) -> str:
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} B"
