"""Places a user can act on (issue 18, item 4): values gathered whole, and ops computed
replicated, each once, with its source line, the reason, and the sharding change that
would avoid it (where there is one).

Read from what the passes recorded (recorder.Recorder): the conversions
shardpy-insert-reshards made (a value whose layout had sharded dims, needed whole) and
the ops it computed replicated (`fallbacks`: no way to compute on shards).
"""
from __future__ import annotations

from dataclasses import dataclass

from .recorder import Recorder


@dataclass
class Warning:
    kind: str       # "gathered whole" | "computed replicated"
    op: str
    loc: str
    reason: str
    suggestion: str

    def to_json(self) -> dict:
        return {"kind": self.kind, "op": self.op, "loc": self.loc, "message": self.reason,
                "suggestion": self.suggestion}

    def line(self) -> str:
        return f"  {self.loc}: {self.kind}: {self.op}: {self.reason}\n" \
               f"      to avoid it: {self.suggestion}"


def _sharded_dims(sharding) -> bool:
    return sharding is not None and any(d.axes for d in sharding.dims)


def _whole(sharding) -> bool:
    return sharding is None or (not any(d.axes for d in sharding.dims)
                                and not sharding.unreduced)


def find_warnings(recorder: Recorder) -> list[Warning]:
    out, seen = [], set()
    fallback_at = {(f["op"], f["loc"]): f for f in recorder.fallbacks}
    for reason in recorder.reasons:
        have, want = reason.get("_have"), reason.get("_want")
        if reason.get("why") not in ("operand", "result") or not _sharded_dims(have) \
                or not _whole(want):
            continue
        key = (reason["op"], reason["loc"], reason["why"], reason.get("index"))
        if key in seen:
            continue
        seen.add(key)
        side = (f"operand {reason['index']}" if reason["why"] == "operand"
                else f"result {reason['index']}")
        out.append(Warning("gathered whole", reason["op"], reason["loc"],
                           f"{side}, laid out {have}, is gathered whole on every device",
                           _suggestion(reason, have, fallback_at)))
    for f in recorder.fallbacks:
        out.append(Warning("computed replicated", f["op"], f["loc"],
                           f"computed whole on every device: {f['reason']}",
                           f"none at this op ({f['op']} has no way to compute on shards): "
                           f"keep the values it reads replicated where they are made, so "
                           f"that nothing sharded is gathered for it, or compute it on "
                           f"smaller data"))
    return out


def _suggestion(reason: dict, have, fallback_at) -> str:
    op, index = reason["op"], reason.get("index")
    if op == "func.return":
        return (f"declare result {index} of the function sharded as {have} (its "
                f"out_shardings / sdy.sharding) instead of replicated")
    if op == "sdy.sharding_constraint":
        return f"constrain it to {have} instead of replicated, or drop the constraint"
    if (op, reason["loc"]) in fallback_at:
        return (f"none at this op ({op} is computed replicated): make the value "
                f"replicated where it is made, or avoid {op} on sharded data")
    placements = reason.get("placements") or []
    chosen = next((p for p in placements if p["chosen"]), None)
    keeping = [p for p in placements if not p["chosen"] and reason["why"] == "operand"
               and index is not None and index < len(p["operands"])
               and p["operands"][index] not in ("as it is",)
               and "{}" not in p["operands"][index].replace("{}, ", "")]
    keeping = [p for p in keeping if p["operands"][index] != (chosen or {}).get(
        "operands", [None] * (index + 1))[index]]
    if keeping:
        best = keeping[0]
        cost = _cost(best)
        return (f"a placement of {op} keeping it sharded (operands "
                f"{', '.join(best['operands'])} -> results {', '.join(best['results'])}, "
                f"{cost}) was estimated slower than the one chosen ({_cost(chosen)}); "
                f"to make it the layout used, constrain {op}'s result to "
                f"{best['results'][0]} (jax.lax.with_sharding_constraint)")
    axes = sorted({str(a) for d in have.dims for a in d.axes})
    return (f"no placement of {op} weighed keeps it sharded (its axes {', '.join(axes)} "
            f"serve another operand's dim of {op}, or {op} needs this dim whole): shard "
            f"it along a dim that {op} keeps in its result, or leave those axes free "
            f"for it")


def _cost(placement) -> str:
    if not placement:
        return "?"
    if placement.get("seconds") is not None:
        return f"{placement['seconds'] * 1e6:.1f} us"
    return f"{placement['bytes']:.0f} B"
