"""The reasons the passes attach to what they make (recorder.Recorder.tag), one dict each.

Keys read by explain/collectives.py: `why` (operand, result, lowering), `op` and `loc`
(the op that needed it), `from_sharding` / `to_sharding` (the value's layout and the
one needed), `origin` ({"from": [...], "to": [...]}, lists of recorder.Step as JSON),
and, private (underscored, not written out), what alternatives are computed from.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from ..ir.types import element_bytes
from .recorder import Recorder, Step, where

# Ops whose operand sharding is the program's own wish (not a placement shardpy chose).
_ANNOTATED_USERS = {
    "func.return": "the function's result sharding",
    "sdy.sharding_constraint": "a sharding constraint",
    "sdy.reshard": "an explicit reshard in the program",
    "sdy.manual_computation": "the manual computation's in_shardings",
}


def _sharding_text(sharding) -> str:
    return str(sharding) if sharding is not None else "replicated (unannotated)"


def _shape(value: ir.Value) -> tuple[list[int], int]:
    t = value.type
    if not isinstance(t, ir.RankedTensorType):
        try:
            t = ir.RankedTensorType(t)
        except ValueError:
            return [], 0
    return list(t.shape), element_bytes(t.element_type)


def operand_reason(recorder: Recorder, op: ir.Operation, index: int, value: ir.Value,
                   have, want) -> dict:
    """`op` needs operand `index` (`value`, laid out `have`) laid out `want`."""
    shape, ebytes = _shape(value)
    wanted_by = _ANNOTATED_USERS.get(op.name)
    to = [Step("needed", op.name, where(op.location), _sharding_text(want),
               note=wanted_by or "the placement chosen for this op (fastest estimated plan)")]
    return {"why": "operand", "op": op.name, "loc": where(op.location), "index": index,
            "from_sharding": _sharding_text(have), "to_sharding": _sharding_text(want),
            "origin": {"from": [s.to_json() for s in recorder.origin_of(value)],
                       "to": [s.to_json() for s in to]},
            "_have": have, "_want": want, "_shape": shape, "_ebytes": ebytes}


def result_reason(recorder: Recorder, op: ir.Operation, result: ir.Value, have, want) -> dict:
    """`op` computes `result` laid out `have` (e.g. partial sums of a sharded
    contraction); its users, or its annotation, want `want`."""
    shape, ebytes = _shape(result)
    number = result.result_number if isinstance(result, ir.OpResult) else 0
    made = [Step("computed", op.name, where(op.location), _sharding_text(have),
                 note="the placement chosen for this op (fastest estimated plan)")]
    partial = getattr(have, "unreduced", ())
    return {"why": "result", "op": op.name, "loc": where(op.location), "index": number,
            "partial": bool(partial),
            "from_sharding": _sharding_text(have), "to_sharding": _sharding_text(want),
            "origin": {"from": [s.to_json() for s in made],
                       "to": [s.to_json() for s in recorder.origin_of(result)]},
            "_have": have, "_want": want, "_shape": shape, "_ebytes": ebytes}


def lowering_reason(recorder: Recorder, op: ir.Operation, operand_shardings,
                    result_shardings) -> dict:
    """Collectives `op`'s own lowering makes (a halo exchange for a window over a
    sharded dim, the all_reduce that finishes a max over sharded dims, ...)."""
    first = next((s for s in operand_shardings if s is not None), None)
    out = next((s for s in result_shardings if s is not None), None)
    return {"why": "lowering", "op": op.name, "loc": where(op.location), "index": -1,
            "from_sharding": _sharding_text(first), "to_sharding": _sharding_text(out),
            "origin": {"from": [], "to": []}}


def note_placements(reasons: list[dict], plan, weighed: list) -> None:
    """Give the conversions one op's placement made (`reasons`) the placements
    plan_choice weighed for that op (`weighed`: (rank key, OpPlan) pairs), fastest
    first, the chosen one marked: the alternatives behind the op's need."""
    seen, placements = set(), []
    for key, candidate in sorted(weighed, key=lambda pair: pair[0]):
        operands = [_sharding_text(s) if s is not None else "as it is"
                    for s in candidate.operands]
        results = [_sharding_text(s) for s in candidate.results]
        text = (tuple(operands), tuple(results))
        if text in seen:
            continue
        seen.add(text)
        timed = len(key) == 4  # (nanoseconds, bytes, work, exchanges); else bytes first
        seconds = key[0] / 1e9 if timed else None
        placements.append({
            "operands": operands, "results": results,
            "bytes": float(key[1] if timed else key[0]),
            "seconds": seconds if seconds is None or seconds != float("inf") else None,
            "chosen": list(candidate.operands) == list(plan.operands)
            and list(candidate.results) == list(plan.results)})
    for reason in reasons:
        reason["placements"] = placements


def note_reshard_plans(reason: dict, chosen, weighed: list, model, keys: list) -> None:
    """Give a conversion's reason the plans the reshard planner weighed (`weighed`,
    ranked by `keys`: time, then bytes), fastest first, the one taken marked."""
    out = []
    for key, plan in sorted(zip(keys, weighed), key=lambda pair: pair[0]):
        entry = {"steps": [s.kind for s in plan.steps if s.kind], "bytes": plan.cost,
                 "seconds": plan.time(model) if model is not None else None,
                 "chosen": [s.kind for s in plan.steps] == [s.kind for s in chosen.steps]
                 and plan.cost == chosen.cost}
        if not any(e["steps"] == entry["steps"] and e["bytes"] == entry["bytes"]
                   for e in out):
            out.append(entry)
    if not any(e["chosen"] for e in out):  # (a plan the candidates do not hold: last resort)
        out.insert(0, {"steps": [s.kind for s in chosen.steps if s.kind],
                       "bytes": chosen.cost,
                       "seconds": chosen.time(model) if model is not None else None,
                       "chosen": True})
    reason["alternatives"] = out


def note_fallback(reasons: list[dict], why: str) -> None:
    """The conversions made for an op computed replicated: say so where they say what
    the op needed."""
    for reason in reasons:
        for step in reason["origin"]["to" if reason["why"] == "operand" else "from"]:
            step["note"] = f"computed replicated: {why}"
