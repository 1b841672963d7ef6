"""What the partitioner decided and why, recorded while it runs (`--explain`, issue 18).

Nothing is recorded unless a Recorder is active (`recording`): the passes ask
`current()` and skip their explanation work when it is None, so a partition without
`--explain` runs the code it ran before.

While one is active:
  * shardpy-propagate keeps, per value, which op last changed its sharding and at which
    level of the hierarchy (`note_propagation`): the origin chain of a sharding;
  * shardpy-insert-reshards tags the location of every reshard and all_reduce it makes
    with a reason (`tag`): the op that needed it, the operand or result, the sharding
    the value had and the one the op needed, with their origins;
  * shardpy-to-local tags the ops whose lowering makes collectives of its own (halo
    exchanges, the all_reduce finishing a max over sharded dims, ...);
  * shardpy-combine-collectives gives a combined collective the locations of all it
    combines.

A tag is a name location around the op's own, `loc("shardpy.why:7"(<op's loc>))`:
locations are what every pass carries over from an op to the ops it becomes, so the
tag reaches the per-device collectives. explain/collectives.py reads the tags off the
per-device module and removes them (`strip_tags`): the module is the same as without
`--explain`.
"""
from __future__ import annotations

import os
import sysconfig
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

from jaxlib.mlir import ir

from ..ir.diagnostics import file_position
from ..ir.utils import public_main

TAG = "shardpy.why:"
FUSED = TAG + "fused"  # several ops' locations made one (fused_location): not the op's own
MAX_CHAIN = 12  # origin steps shown (a chain through a whole layer stack is long)

_ACTIVE: list["Recorder"] = []


def current() -> "Recorder | None":
    """The active Recorder, or None (the common case: nothing to record)."""
    return _ACTIVE[-1] if _ACTIVE else None


@contextmanager
def recording(recorder: "Recorder | None" = None) -> Iterator["Recorder"]:
    recorder = recorder or Recorder()
    _ACTIVE.append(recorder)
    try:
        yield recorder
    finally:
        _ACTIVE.pop()


def where(loc: ir.Location | None) -> str:
    """`loc` as the user's file:line:col, or "unknown": tags and names unwrapped, and of
    a call stack (JAX's `callsite(callee at caller)` locations) the innermost frame that
    is not library code (site-packages, the Python installation): the line in the
    user's model that called flax's Linear rather than the line inside it."""
    if loc is None:
        return "unknown"
    stack = frames(loc)
    found = next((f for f in stack if not _library(f[0])), stack[0] if stack else None) \
        if stack else file_position(loc)
    if found is None:
        return "unknown"
    file, line, col = found
    if file == "-" and _ACTIVE and _ACTIVE[-1].buffer_name:
        file = _ACTIVE[-1].buffer_name  # (the parser names its buffer "-")
    return f"{file}:{line}:{col}"


def frames(loc: ir.Location) -> list[tuple[str, int, int]]:
    """The (file, line, col) frames of `loc`, innermost first: one for a plain
    location, the callee-to-caller chain of a call site (the first member's of a
    fusion)."""
    typeid = loc.typeid
    if typeid == ir.NameLoc.static_typeid:
        return frames(ir.NameLoc(loc).child_loc)
    if typeid == ir.CallSiteLoc.static_typeid:
        site = ir.CallSiteLoc(loc)
        return frames(site.callee) + frames(site.caller)
    if typeid == ir.FusedLoc.static_typeid:
        for inner in ir.FusedLoc(loc).locations:
            found = frames(inner)
            if found:
                return found
        return []
    found = file_position(loc)
    return [found] if found else []


_LIBRARY_ROOTS = tuple({os.path.realpath(p) + os.sep for p in (
    sysconfig.get_paths().get("stdlib"), sysconfig.get_paths().get("platstdlib")) if p})


def _library(file: str) -> bool:
    """Installed packages and the standard library: not the user's code."""
    return ("site-packages" + os.sep in file or "dist-packages" + os.sep in file
            or file.startswith(_LIBRARY_ROOTS))


@dataclass
class Step:
    """One link of an origin chain: the op (or annotation) that set a sharding."""

    how: str    # "argument", "result", "constraint", "propagated", "priority", ...
    op: str     # the op's name ("" for an argument)
    loc: str    # file:line:col
    sharding: str = ""
    level: str = ""  # the hierarchy level that moved it (propagated steps)
    note: str = ""

    def to_json(self) -> dict:
        out = {"how": self.how, "op": self.op, "loc": self.loc}
        for key in ("sharding", "level", "note"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        return out



@dataclass
class Recorder:
    reasons: list[dict] = field(default_factory=list)
    # From shardpy-propagate: value -> its slot, per slot its origin steps (computed
    # when asked) from the writer of each slot.
    _value_slot: dict = field(default_factory=dict)
    _shapes: list = field(default_factory=list)
    _writers: dict = field(default_factory=dict)   # slot -> (node index, level label)
    _added: dict = field(default_factory=dict)     # slot -> axes its last write added
    _nodes: list = field(default_factory=list)     # node index -> (name, loc, slots)
    _initial: dict = field(default_factory=dict)   # slot -> (how, name, loc, sharding)
    _final: list = field(default_factory=list)     # slot -> final sharding (str)
    _axes: list = field(default_factory=list)      # slot -> set of axis names
    _returns: list = field(default_factory=list)   # func result k -> (returned, result)
    _conflicts: dict = field(default_factory=dict)  # node index -> [(level, text)]
    _labels: list = field(default_factory=list)
    buffer_name: str = ""  # what the input's "-" buffer is called (the tool's input)
    # shardpy-insert-reshards: the global program with its shardings (note_program),
    # and the ops it computed replicated ({op, loc, reason}).
    program: dict = field(default_factory=dict)
    fallbacks: list = field(default_factory=list)

    # -- tags ----------------------------------------------------------------------
    def tag(self, loc: ir.Location, reason: dict) -> ir.Location:
        """`loc` wrapped in a new tag naming `reason` (under loc's context)."""
        reason["id"] = len(self.reasons)
        self.reasons.append(reason)
        with loc.context:
            return ir.Location.name(f"{TAG}{len(self.reasons) - 1}", childLoc=loc)

    def reasons_of(self, loc: ir.Location) -> list[dict]:
        return [self.reasons[i] for i in tag_ids(loc) if i < len(self.reasons)]

    # -- the program, for pictures ----------------------------------------------------
    def note_program(self, module: ir.Operation, state) -> None:
        """The global program as shardpy-insert-reshards leaves it (every value with its
        sharding, the reshards and all_reduces it made tagged with their reasons), as
        plain data: `self.program` (schema: explain/html.py)."""
        meshes = {name: {"axes": [[a, n] for a, n in mesh.axes],
                         "device_ids": list(mesh.device_ids or ())}
                  for name, mesh in state.codec.meshes.items()}
        ids: dict = {}
        nodes: list[dict] = []

        def value_id(value) -> int:
            found = ids.get(value)
            if found is None:
                found = ids[value] = len(ids)
            return found

        def describe(value) -> dict:
            t = value.type
            shape = list(ir.RankedTensorType(t).shape) if isinstance(
                t, ir.RankedTensorType) else []
            element = str(ir.RankedTensorType(t).element_type) if isinstance(
                t, ir.RankedTensorType) else str(t)
            sharding = state.of(value)
            return {"id": value_id(value), "shape": shape, "dtype": element,
                    "sharding": str(sharding) if sharding is not None else "",
                    "mesh": sharding.mesh_name if sharding is not None else "",
                    "dims": [[str(a) for a in d.axes] for d in sharding.dims]
                    if sharding is not None else [],
                    "unreduced": [str(a) for a in sharding.unreduced]
                    if sharding is not None else []}

        def visit_block(block, func: str, depth: int) -> None:
            for arg in block.arguments:
                nodes.append({"id": len(nodes), "op": "argument" if depth == 0 else
                              "block_argument", "loc": where(arg.location), "func": func,
                              "depth": depth, "operands": [], "results": [describe(arg)],
                              "reasons": []})
            for op in block.operations:
                op = op.operation
                nodes.append({"id": len(nodes), "op": op.name, "loc": where(op.location),
                              "func": func, "depth": depth,
                              "operands": [value_id(v) for v in op.operands],
                              "results": [describe(r) for r in op.results],
                              "reasons": tag_ids(op.location)})
                for region in op.regions:
                    for inner in region.blocks:
                        visit_block(inner, func, depth + 1)

        for op in module.regions[0].blocks[0].operations:
            op = op.operation
            if op.name == "func.func":
                name = ir.StringAttr(op.attributes["sym_name"]).value
                for block in op.regions[0].blocks:
                    visit_block(block, name, 0)
        self.program = {"meshes": meshes, "nodes": nodes}

    # -- propagation -----------------------------------------------------------------
    def note_propagation(self, graph, writers: dict, initial: list,
                         conflicts: dict | None = None) -> None:
        """What shardpy-propagate knows once it is done: `writers` (slot -> (node index,
        level label, its sharding after and before that visit; before None: its
        annotation) of the visit that last changed it), `initial` (the slots' shardings
        before propagation: annotations), `conflicts` (node index -> [(level label,
        text)]: factors its tensors disagreed on, and what was kept)."""
        self._conflicts = dict(conflicts or {})
        self._value_slot = dict(graph.value_slot)
        self._shapes = list(graph.shapes)
        # The axes each slot's last write added (what its source must hold).
        self._added = {}
        for slot, (_, _, now, before) in writers.items():
            before = before if before is not None else initial[slot]
            had = {a.name for a in before.all_axes()} if before is not None else set()
            self._added[slot] = {a.name for a in now.all_axes()} - had
        self._writers = {slot: (node, label) for slot, (node, label, _, _) in writers.items()}
        self._nodes = [(node.name, where(_node_loc(node)), tuple(node.slots))
                       for node in graph.nodes]
        self._returns = [(link.returned, link.result) for link in graph.func_links
                         if link.returned >= 0 and link.result >= 0]
        self._final = [str(s) if s is not None else "" for s in graph.shardings]
        self._axes = [{a.name for a in s.all_axes()} if s is not None else set()
                      for s in graph.shardings]
        self._labels = []  # (kind, number, loc, op name, slot): --explain-value's index
        entry = public_main(graph.module)
        entry_block = entry.regions[0].blocks[0] if entry is not None else None
        for value, slot in graph.value_slot.items():
            if isinstance(value, ir.BlockArgument):
                if entry_block is not None and value.owner == entry_block:
                    self._labels.append(("arg", value.arg_number, "", "", slot))
            else:
                self._labels.append(("op", value.result_number,
                                     where(value.owner.location), value.owner.name, slot))
        if entry_block is not None:
            ret = entry_block.operations[len(entry_block.operations) - 1]
            names = _result_names(entry)
            for k, returned in enumerate(ret.operands):
                slot = graph.value_slot.get(returned)
                if slot is not None:
                    self._labels.append(("result", k, "", names.get(k, ""), slot))
        what = {}
        for value, slot in graph.value_slot.items():
            if slot in what:
                continue
            if isinstance(value, ir.BlockArgument):
                what[slot] = (f"argument {value.arg_number}", "")
            else:
                what[slot] = (value.owner.name, where(value.owner.location))
        for k, link in enumerate(graph.func_links):
            if link.result >= 0:
                what.setdefault(link.result, ("a function result's sharding", ""))
        for slot, sharding in enumerate(initial):
            if sharding is not None and slot not in self._writers:
                self._initial[slot] = (str(sharding),) + what.get(slot, ("", ""))

    def values_matching(self, selector: str) -> list[tuple[str, int]]:
        """(description, slot) of the values `selector` names (--explain-value): `argN`
        or `resultN` of the entry function, a result's name as JAX writes it
        (jax.result_info, e.g. `result[1]['w1']`), or a source location `LINE`,
        `FILE:LINE` or `FILE:LINE:COL` (every op result there; FILE matched as a
        suffix)."""
        sel = selector.strip().lstrip("%")
        found = []
        for kind, number, loc, name, slot in self._labels:
            if kind in ("arg", "result") and sel == f"{kind}{number}" or \
                    kind == "result" and name and sel == name:
                named = f" ({name})" if name else ""
                found.append((f"{kind}{number}{named} of the entry function", slot))
            elif kind == "op" and _location_matches(loc, sel):
                found.append((f"result {number} of {name} at {loc}", slot))
        return found

    def describe_value(self, selector: str) -> dict:
        """The sharding of each value `selector` names and the chain that gave it,
        as JSON (`steps`: recorder.Step.to_json, most recent first)."""
        out = []
        for description, slot in self.values_matching(selector):
            out.append({"value": description, "sharding": self._final[slot] or
                        "none (replicated)",
                        "steps": [s.to_json() for s in self._chain(slot)]})
        return {"selector": selector, "values": out}

    def origin_of(self, value: ir.Value) -> list[Step]:
        """How `value` got its sharding: the chain of ops that propagated it, back to
        the annotation it came from (most recent first). Empty when propagation did not
        see the value (made by a later pass)."""
        slot = self._value_slot.get(value)
        if slot is None or tuple(getattr(value.type, "shape", ())) != tuple(
                self._shapes[slot] or ()):
            return []  # (a value made later, possibly where a gone one lived)
        return self._chain(slot)

    def _chain(self, slot: int) -> list[Step]:
        steps: list[Step] = []
        seen = set()
        while slot not in seen and len(steps) < MAX_CHAIN:
            seen.add(slot)
            writer = self._writers.get(slot)
            if writer is None:
                if slot in self._initial:
                    sharding, name, loc = self._initial[slot]
                    steps.append(Step("annotated", name, loc, sharding))
                break
            index, level = writer
            if index < 0:  # a function's result and the value it returns (identity)
                name, loc, slots = "func.return", "", self._returns[-1 - index]
                level = "the function's result sharding"
            else:
                name, loc, slots = self._nodes[index]
            if not steps or (steps[-1].op, steps[-1].loc) != (name, loc):
                steps.append(Step("propagated", name, loc, self._final[slot], level))
                for where_, text in self._conflicts.get(index, [])[:3] if index >= 0 else ():
                    steps[-1].note = (steps[-1].note + "; " if steps[-1].note else "") + \
                        f"conflict resolved at {where_}: {text}"

            # The source: the op's tensor holding most of the axes this write added
            # (else of this one's axes).
            mine = self._added.get(slot) or self._axes[slot]
            candidates = [s for s in slots if s >= 0 and s != slot and s not in seen
                          and self._axes[s] & mine]
            if not candidates:
                break
            source = max(candidates, key=lambda s: len(self._axes[s] & mine))
            slot = source
        return steps


def _result_names(func) -> dict[int, str]:
    """Result index -> its jax.result_info name, for the results that have one."""
    if "res_attrs" not in func.attributes:
        return {}
    names = {}
    for k, attrs in enumerate(ir.ArrayAttr(func.attributes["res_attrs"])):
        entries = ir.DictAttr(attrs)
        if "jax.result_info" in entries:
            names[k] = ir.StringAttr(entries["jax.result_info"]).value
    return names


def _location_matches(loc: str, selector: str) -> bool:
    """`loc` ("file:line:col") is at `selector` (LINE, FILE:LINE or FILE:LINE:COL)."""
    if not loc or loc == "unknown":
        return False
    file, line, col = loc.rsplit(":", 2)
    parts = selector.rsplit(":", 2)
    if len(parts) == 1:
        return parts[0] == line
    if parts[-1].isdigit() and parts[-2].isdigit() and len(parts) == 3:
        return file.endswith(parts[0]) and (line, col) == (parts[1], parts[2])
    return file.endswith(":".join(parts[:-1])) and parts[-1] == line


def _node_loc(node) -> ir.Location | None:
    op = node.op
    if op is None:
        return None
    try:
        return op.location
    except Exception:  # noqa: BLE001 - an edge's op may be a block argument's owner
        return None


def fused_location(locations: list[ir.Location]) -> ir.Location:
    """One location for an op made of several (a combined collective) that keeps every
    member's tags; without tags it is the last member's, as without --explain."""
    context = locations[-1].context
    return ir.Location.name(FUSED, childLoc=ir.Location.fused(locations, context=context),
                            context=context)


def members(loc: ir.Location) -> list[ir.Location]:
    """The member locations of a fused_location (else [loc])."""
    if loc.typeid == ir.NameLoc.static_typeid and ir.NameLoc(loc).name_str == FUSED:
        return list(ir.FusedLoc(ir.NameLoc(loc).child_loc).locations)
    return [loc]


def tag_ids(loc: ir.Location) -> list[int]:
    """The reason indices of the tags in `loc` (several after a fusion)."""
    out: list[int] = []
    _collect(loc, out)
    return out


def _collect(loc: ir.Location, out: list[int]) -> None:
    typeid = loc.typeid
    if typeid == ir.NameLoc.static_typeid:
        named = ir.NameLoc(loc)
        name = named.name_str
        if name.startswith(TAG) and name != FUSED:
            out.append(int(name[len(TAG):]))
        _collect(named.child_loc, out)
    elif typeid == ir.FusedLoc.static_typeid:
        for inner in ir.FusedLoc(loc).locations:
            _collect(inner, out)
    elif typeid == ir.CallSiteLoc.static_typeid:
        _collect(ir.CallSiteLoc(loc).callee, out)


def untagged(loc: ir.Location) -> ir.Location:
    """`loc` without its tags (the location the op had before)."""
    typeid = loc.typeid
    if typeid == ir.NameLoc.static_typeid:
        named = ir.NameLoc(loc)
        if named.name_str == FUSED:
            return untagged(members(loc)[-1])
        child = untagged(named.child_loc)
        if named.name_str.startswith(TAG):
            return child
        return ir.Location.name(named.name_str, childLoc=child, context=loc.context)
    if typeid == ir.FusedLoc.static_typeid:
        inner = [untagged(x) for x in ir.FusedLoc(loc).locations]
        unique = list(dict.fromkeys(inner))
        return unique[0] if len(unique) == 1 else ir.Location.fused(unique, context=loc.context)
    return loc


def strip_tags(module: ir.Operation) -> None:
    """Every op's location without tags: the module as a run without --explain leaves it."""
    def visit(op: ir.Operation) -> None:
        loc = op.location
        if tag_ids(loc) or len(members(loc)) > 1:
            op.location = untagged(loc)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:  # (a reducer's arguments take its location)
                    if tag_ids(arg.location) or len(members(arg.location)) > 1:
                        arg.set_location(untagged(arg.location))
                for inner in block.operations:
                    visit(inner.operation)

    visit(module)
