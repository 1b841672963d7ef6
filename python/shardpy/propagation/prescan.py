"""The module rewrites of shardpy-propagate before its graph is built, and the one walk
of the module that finds what they need:

  * flatten_call_graph: every call site gets its own callee, so a function called with
    different shardings can be sharded differently per call;
  * split_constants: every use of a constant expression gets its own copy, so one
    constant feeding differently sharded users is not pulled between them;
  * fold_tuple_reads: an element read out of a `stablehlo.tuple` is the value put in
    (HLO converted to StableHLO keeps tuple/get_tuple_element pairs; a sharding on a
    tuple of several elements is not an sdy sharding).

Prescan finds calls, sharding groups and constant candidates in one walk, and records
the ops the graph builder (build.py) will visit, in its order: every call into the MLIR
bindings makes Python objects, so the module is walked once per rewrite, not once per
step (bench/README.md, "Timing").
"""
from __future__ import annotations

from typing import Iterator

from jaxlib.mlir import ir

from ..ir.utils import collect_ops, unique_symbol
from ..sharding.sdy_codec import SHARDING_ATTR
from .build import CONSTANT_SHAPERS, CONSTANT_SOURCES, descended
from .graph import Graph
from .speed import _MISSING

TUPLE_READ = "stablehlo.get_tuple_element"


class Prescan:
    """The ops the steps before building look for, found in one walk of the module:
    calls (flatten_call_graph), sharding groups (build_graph), constant sources and
    shapers (split_constants), each list in program order.

    With `record_ops`, also `ops` and their `names`: every op the graph builder visits, in
    the order it visits them (the ops of every func body and of the regions it descends
    into, each followed by what is nested in it), so that building reads each op's name
    once and makes no Python object per op a second time. The builder checks that the
    list matches the blocks it walks (see build._BlockOps)."""

    WANTED = frozenset({"func.call", "sdy.sharding_group", TUPLE_READ}) | CONSTANT_SOURCES \
        | CONSTANT_SHAPERS

    def __init__(self, module: ir.Operation, record_ops: bool = False):
        self.calls: list[ir.Operation] = []
        self.groups: list[ir.Operation] = []
        self.tuple_reads: list[ir.Operation] = []  # stablehlo.get_tuple_element ops
        self.constants: list[tuple[ir.Operation, str]] = []  # (op, name)
        # With record_ops: those of `constants` the builder does not visit (in regions
        # it does not descend into, e.g. a reduce body)
        self.nested_constants: list[tuple[ir.Operation, str]] = []
        self.ops: list[ir.Operation] | None = [] if record_ops else None
        self.names: list[str] | None = [] if record_ops else None  # (two lists: no
        #   tuple per op to make and free)
        wanted, calls, groups, constants, reads = self.WANTED, self.calls, self.groups, \
            self.constants, self.tuple_reads
        advance, skip = ir.WalkResult.ADVANCE, ir.WalkResult.SKIP
        pre_order = ir.WalkOrder.PRE_ORDER

        def find(op: ir.Operation) -> ir.WalkResult:
            name = op.name
            if name in wanted:
                if name == "func.call":
                    calls.append(op)
                elif name == "sdy.sharding_group":
                    groups.append(op)
                elif name == TUPLE_READ:
                    reads.append(op)
                else:
                    constants.append((op, name))
            return advance

        if not record_ops:
            module.walk(find, walk_order=pre_order)
            return
        record, record_name = self.ops.append, self.names.append
        # Per op name: None nothing to do, a list to add the op to, or `find` where it
        # has regions the builder does not descend into (asked of the first op of each
        # name; an op of that name with regions after all only makes the list disagree
        # with the blocks, which the builder notices).
        actions: dict[str, object] = {}

        def visit(op: ir.Operation) -> ir.WalkResult:
            name = op.name
            record(op)
            record_name(name)
            action = actions.get(name, _MISSING)
            if action is _MISSING:
                action = actions[name] = (
                    find if not descended(name) and len(op.regions)
                    else calls if name == "func.call" else groups
                    if name == "sdy.sharding_group" else reads if name == TUPLE_READ
                    else constants if name in wanted else None)
            if action is None:
                return advance
            if action is constants:
                constants.append((op, name))
                return advance
            if action is not find:
                action.append(op)
                return advance
            found = len(constants)
            op.walk(find, walk_order=pre_order)  # e.g. a reduce and its body:
            self.nested_constants.extend(constants[found:])  # searched, not recorded
            return skip

        for top in module.regions[0].blocks[0].operations:
            top.operation.walk(visit, walk_order=pre_order)

    def recorded(self) -> Iterator[tuple[ir.Operation, str]]:
        """(op, name) of the recorded ops (see record_ops), in order."""
        return zip(self.ops, self.names)


def fold_tuple_reads(reads: list[ir.Operation]) -> bool:
    """Each get_tuple_element of a stablehlo.tuple replaced by the element put in, and
    tuples left unread erased; True if any was. (Tuples that leave the function or go
    into a call stay: a located error of sdy's verifier names them.)

    before:  %t = stablehlo.tuple %a, %b : tuple<tensor<8x16xf32>, tensor<16xf32>>
             %x = stablehlo.get_tuple_element %t[0] : (...) -> tensor<8x16xf32>
             %y = stablehlo.sine %x : tensor<8x16xf32>
    after:   %y = stablehlo.sine %a : tensor<8x16xf32>"""
    tuples = []  # the tuples read from, once per read
    for read in reads:
        source = read.operands[0].owner
        if isinstance(source, ir.Block):
            continue  # a block argument of tuple type
        source = source.operation
        if source.name != "stablehlo.tuple":
            continue
        index = ir.IntegerAttr(read.attributes["index"]).value
        read.results[0].replace_all_uses_with(source.operands[index])
        read.erase()
        tuples.append(source)
    for source in dict.fromkeys(tuples):
        if all(not list(r.uses) for r in source.results):
            source.erase()
    return bool(tuples)


def split_constants(module: ir.Operation,
                    candidates: list[tuple[ir.Operation, str]] | None = None) -> bool:
    """Give every use of a constant expression its own copy (Shardy's
    constant-or-scalar splitter): constants, iotas, and broadcasts/reshapes/converts/
    transposes of constant expressions or of scalars. Scalars themselves are shared:
    their one layout is replicated. True if it copied any.

    `candidates`: the module's constant sources and shapers as Prescan finds them."""
    if candidates is None:
        candidates = Prescan(module).constants
    ordered = list(_constant_like(candidates, set()))
    copied = False
    for op, value in reversed(ordered):  # users first: their copies become uses of the
        if SHARDING_ATTR in op.attributes or _rank0(value):  # producers
            continue
        uses = iter(value.uses)
        next(uses, None)  # the first use keeps the original
        others = [(use.owner, use.operand_number) for use in uses]
        for owner, index in others:
            clone = op.clone(ip=ir.InsertionPoint(op))
            owner.operands[index] = clone.results[0]
            copied = True
    return copied


def _rank0(value: ir.Value) -> bool:
    """A scalar has one layout only (replicated): its uses need no copies of their own."""
    value_type = value.type
    return isinstance(value_type, ir.RankedTensorType) and value_type.rank == 0


def _constant_like(candidates: list[tuple[ir.Operation, str]], constant_values: set
                   ) -> Iterator[tuple[ir.Operation, ir.Value]]:
    """(op, result) of the candidates that are constant-like: sources, and shapers of
    scalars or of constant-like values (`constant_values`: those known so far; it
    grows). Candidates in program order: operands are classified before users."""
    scalar_types: dict[ir.Type, bool] = {}
    for op, name in candidates:
        if name not in CONSTANT_SOURCES:
            operands = op.operands
            if len(operands) != 1:
                continue
            operand = operands[0]
            operand_type = operand.type
            scalar = scalar_types.get(operand_type)
            if scalar is None:
                scalar = scalar_types[operand_type] = (
                    isinstance(operand_type, ir.RankedTensorType) and operand_type.rank == 0)
            # (each constant-like op has one result: its result is the operand exactly
            # when it produces the operand)
            if not scalar and operand not in constant_values:
                continue
        value = op.results[0]
        constant_values.add(value)
        yield op, value


def constants_shared(g: Graph, nested: list[tuple[ir.Operation, str]]) -> bool | None:
    """Would split_constants copy anything? From the constant-like ops the builder
    classified, plus those nested in regions it does not build (classified here, as
    split_constants does); None where the builder could not tell."""
    if g.constant_like is None:
        return None
    found = [(op, value) for op, value, seeded in g.constant_like if not seeded]
    if nested:
        constant_values = {value for _, value, _ in g.constant_like}
        found += [(op, value) for op, value in _constant_like(nested, constant_values)
                  if SHARDING_ATTR not in op.attributes]
    for op, value in found:
        if _rank0(value):
            continue
        uses = iter(value.uses)
        next(uses, None)
        if next(uses, None) is not None:
            return True
    return False


def flatten_call_graph(module: ir.Operation, calls: list[ir.Operation] | None = None
                       ) -> bool:
    """Give every call site its own callee (cloned as @name_0, @name_1, ...), so a
    function called with different shardings can be sharded differently per call.
    True if it changed the module.

    One sweep per level of call nesting: clones made in a sweep hold calls of their own,
    which the next sweep sees. `calls`: the module's func.call ops as Prescan finds them
    (the first sweep needs no walk of its own).
    """
    block = module.regions[0].blocks[0]
    changed = False
    if calls is not None and not calls:
        return changed
    names = {ir.StringAttr(op.attributes["sym_name"]).value
             for op in block.operations if "sym_name" in op.attributes}
    while True:
        funcs = {ir.StringAttr(op.attributes["sym_name"]).value: op.operation
                 for op in block.operations if op.operation.name == "func.func"}
        seen: set[str] = set()
        pending = []
        if calls is None:
            calls = [op for op in collect_ops(module) if op.name == "func.call"]
        for op in calls:
            callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
            if callee not in funcs:
                continue
            if callee in seen or _is_public(funcs[callee]):
                pending.append((op, callee))  # the first private call site keeps it
            seen.add(callee)
        calls = None
        if not pending:
            return changed
        changed = True
        for op, callee in pending:
            original = funcs[callee]
            new_name = unique_symbol(callee, names)
            following = _next_op(block, original)
            clone = original.clone(ip=ir.InsertionPoint(following) if following is not None
                                   else ir.InsertionPoint(block))
            clone.attributes["sym_name"] = ir.StringAttr.get(new_name)
            clone.attributes["sym_visibility"] = ir.StringAttr.get("private")
            op.attributes["callee"] = ir.FlatSymbolRefAttr.get(new_name)


def _is_public(func_op: ir.Operation) -> bool:
    return ("sym_visibility" not in func_op.attributes
            or ir.StringAttr(func_op.attributes["sym_visibility"]).value == "public")


def _next_op(block: ir.Block, op: ir.Operation):
    found = False
    for candidate in block.operations:
        if found:
            return candidate.operation
        if candidate.operation == op:
            found = True
    return None
