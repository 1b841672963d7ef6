"""GSPMD manual regions -> sdy.manual_computation (part of `shardpy-import`).

PyTorch/XLA's manual sharding and JAX's shard_map without Shardy mark per-device code
with a pair of custom calls per value:

    %g = @Sharding(%x) {S_in}  ->  %l = @SPMDFullToShardShape(%g) {manual}   (global -> local)
    ... per-device ops on %l ...
    %m = @Sharding(%r) {manual}  ->  %y = @SPMDShardToFullShape(%m) {S_out}  (local -> global)

The ops that depend on an entry's result, up to the exits, form one region (entries
and exits connected through them share it). Each region becomes one
`sdy.manual_computation` with in_shardings S_in, out_shardings S_out and manual axes
from the entries' shardings (`{manual}`: every mesh axis; `last_tile_dims={manual,..}`:
the manual subgroup's). Values the region reads from outside come in as replicated
operands (constants are cloned in).

Ops hash by their contents in these bindings, so no set or dict keyed by op outlives a
rewrite here: sites are found by identity (==), sets are built and read before IR moves.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from ..ir.diagnostics import ShardpyError
from .codec import MANUAL, Tiling
from ..ir.utils import collect_ops, tensor_shape
from ..sharding.model import TensorSharding

SHARDING_TARGET = "Sharding"
FULL_TO_SHARD = "SPMDFullToShardShape"
SHARD_TO_FULL = "SPMDShardToFullShape"


def call_target(op: ir.Operation) -> str | None:
    if op.name != "stablehlo.custom_call":
        return None
    return ir.StringAttr(op.attributes["call_target_name"]).value


def value_rank(value_type: ir.Type) -> int:
    shape = tensor_shape(value_type)
    return len(shape) if shape is not None else 0


def _ancestors(op: ir.Operation):
    """`op`, then the ops enclosing it (the module excluded)."""
    while op is not None and op.name != "builtin.module":
        yield op
        parent = op.parent
        op = parent.operation if parent is not None else None


def _block_ancestor(op: ir.Operation, block: ir.Block) -> ir.Operation | None:
    """`op` or the op enclosing it that sits directly in `block` (None: not under it)."""
    return next((a for a in _ancestors(op) if a.block == block), None)


def _inside(op: ir.Operation, ancestor: ir.Operation) -> bool:
    return any(a == ancestor for a in _ancestors(op))


def _defining_op(value: ir.Value) -> ir.Operation | None:
    if isinstance(value.owner, ir.Block):
        owner = value.owner.owner
        return owner.operation if owner is not None else None
    return value.owner.operation



@dataclass
class Site:
    """One annotated op: its sharding string parsed once per result."""

    op: ir.Operation
    text: str
    tilings: list[Tiling]
    done: bool = False  # consumed by a manual computation (the op may be erased)



def build_manual(importer) -> None:
    """Turn every FullToShard/ShardToFull region of `importer`'s module into an
    sdy.manual_computation; the sites it consumes are marked done. `importer` gives
    `sites`, `plan`, `codec` and `express(tiling, loc, on)`."""
    calls = [site for site in importer.sites if call_target(site.op) in
             (SHARDING_TARGET, FULL_TO_SHARD, SHARD_TO_FULL)]
    entries = [site.op for site in calls if call_target(site.op) == FULL_TO_SHARD]
    blocks: list[ir.Block] = []
    for op in entries:
        if not any(op.block == b for b in blocks):
            blocks.append(op.block)
    for block in blocks:
        for cluster in _manual_clusters(block, [e for e in entries if e.block == block]):
            _ManualBuilder(importer, block, cluster, calls).build()


@dataclass
class _Cluster:
    """One manual region of a block: its entries, exits and the ops between (block order)."""

    entries: list[ir.Operation]
    exits: list[ir.Operation]
    body: list[ir.Operation]


def _manual_clusters(block: ir.Block, entries: list[ir.Operation]) -> list[_Cluster]:
    """Ops that depend on a FullToShard result, up to the ShardToFull ops, grouped into
    connected regions (one manual computation each)."""
    parent: dict[ir.Operation, ir.Operation] = {}

    def find(op):
        while parent[op] != op:
            parent[op] = parent[parent[op]]
            op = parent[op]
        return op

    def union(a, b):
        parent.setdefault(a, a)
        parent.setdefault(b, b)
        parent[find(a)] = find(b)

    body: set[ir.Operation] = set()
    exits: set[ir.Operation] = set()
    for entry in entries:
        parent.setdefault(entry, entry)
        work = [entry]
        seen = {entry}
        while work:
            op = work.pop()
            for result in op.results:
                for use in result.uses:
                    user = _block_ancestor(use.owner.operation, block)
                    if user is None or user in seen:
                        continue
                    seen.add(user)
                    target = call_target(user)
                    if target == SHARD_TO_FULL:
                        exits.add(user)
                        union(user, entry)
                        continue
                    if target == FULL_TO_SHARD:
                        raise ShardpyError("nested manual regions (@SPMDFullToShardShape of a "
                                           "manual value) are not supported", user.location)
                    if user.name in ("func.return", "stablehlo.return", "sdy.return"):
                        raise ShardpyError(
                            f"a manual value (from @{FULL_TO_SHARD}) leaves the function "
                            f"without @{SHARD_TO_FULL}", user.location)
                    body.add(user)
                    union(user, entry)
                    work.append(user)
    clusters: dict[ir.Operation, _Cluster] = {}
    for op in block.operations:
        op = op.operation
        if op not in parent:
            continue
        cluster = clusters.setdefault(find(op), _Cluster([], [], []))
        if op in exits:
            cluster.exits.append(op)
        elif op in body:
            cluster.body.append(op)
        else:
            cluster.entries.append(op)
    return list(clusters.values())


class _ManualBuilder:
    """Builds one sdy.manual_computation from a cluster."""

    def __init__(self, importer, block: ir.Block, cluster: _Cluster,
                 calls: list[Site]):
        self.imp = importer
        self.block = block
        self.cluster = cluster
        self.calls = calls
        self.loc = cluster.entries[0].location

    def _site(self, op: ir.Operation) -> Site | None:
        return next((site for site in self.calls if site.op == op), None)

    def _tiling(self, op: ir.Operation) -> Tiling:
        (tiling,) = self._site(op).tilings
        return tiling

    def _outer_global(self, value: ir.Value):
        """(tiling, location, the @Sharding call or None) giving a manual input `value`
        its global layout: a @Sharding custom call on it (folded into the region where
        only entries read it), else the sharding its definer carries: an op's (a copy
        annotated with it), or the function argument's (PyTorch/XLA's
        enable_manual_sharding on a parameter). None where nothing says."""
        op = _defining_op(value)
        if op is None:
            return None
        if isinstance(value.owner, ir.Block):
            if op.name == "func.func" and value.owner == op.regions[0].blocks[0]:
                for func_op, key, index, _, tilings in self.imp.signatures:
                    if key == "arg_attrs" and index == value.arg_number and func_op == op:
                        return tilings[0], value.location, None
            return None
        if call_target(op) == SHARDING_TARGET and self._site(op) is not None:
            return self._tiling(op), op.location, op
        site = next((s for s in self.imp.sites if not s.done and s.op == op), None)
        if site is not None and value.result_number < len(site.tilings):
            tiling = site.tilings[value.result_number]
            if tiling.kind != "manual":
                return tiling, op.location, None
        return None

    def build(self) -> None:
        c = self.cluster
        if not c.exits:
            self._erase_dead()
            return
        # Global shardings: what the @Sharding call before each entry says, and the exits'.
        in_globals = []  # (tiling, location, @Sharding call or None) per entry
        for entry in c.entries:
            found = self._outer_global(entry.operands[0])
            if found is None:
                raise ShardpyError(f"@{FULL_TO_SHARD} needs the global layout of its operand: "
                                   f"a @Sharding custom call on it, or a sharding on the op "
                                   f"or argument that makes it", entry.location)
            in_globals.append(found)
        globals_ = [t for t, _, _ in in_globals] + [self._tiling(x) for x in c.exits]
        mesh_name = self._mesh_name(globals_ + [self._tiling(e) for e in c.entries])
        manual = self._manual_axes(mesh_name)
        in_shardings = [self._global(t, loc, mesh_name, manual) for t, loc, _ in in_globals]
        out_shardings = [self._global(self._tiling(x), x.location, mesh_name, manual)
                         for x in c.exits]

        # The body returns what reached each exit; a @Sharding{manual} call on the way
        # stays in the body and is dropped with the other {manual} shardings.
        returned = [x.operands[0] for x in c.exits]
        operands = []
        folded = []
        for entry, (_, _, call) in zip(c.entries, in_globals):
            if call is None:  # the layout is the operand's own
                operands.append(entry.operands[0])
                continue
            # the @Sharding call is folded in when the entry is its only user
            users = {_block_ancestor(u.owner.operation, self.block) for u in call.results[0].uses}
            if users <= set(c.entries):
                operands.append(call.operands[0])
                if call not in folded:
                    folded.append(call)
            else:
                operands.append(call.results[0])
        self._check_local_types(c.entries, in_shardings, manual, "operand")
        self._check_local_types(c.exits, out_shardings, manual, "result", exits=True)

        captured = self._captured()
        mesh = self.imp.plan.mesh_named(mesh_name)
        for value in captured:  # whole (replicated) values from outside: more operands
            operands.append(value)
            in_shardings.append(
                TensorSharding.replicated_on(mesh, value_rank(value.type), mesh_name))

        codec = self.imp.codec
        with self.loc, ir.InsertionPoint(c.exits[0]):
            mc = sdy.ManualComputationOp(
                [x.results[0].type for x in c.exits], operands,
                sdy.TensorShardingPerValueAttr.get([codec.encode(s) for s in in_shardings]),
                sdy.TensorShardingPerValueAttr.get([codec.encode(s) for s in out_shardings]),
                sdy.ManualAxesAttr.get([ir.StringAttr.get(a) for a in manual]))
            arg_types = [e.results[0].type for e in c.entries] + [v.type for v in captured]
            body = mc.regions[0].blocks.append(*arg_types)
        with self.loc, ir.InsertionPoint(body):
            ret = sdy.ReturnOp(returned)
        for op in c.body:
            op.move_before(ret)
        args = list(body.arguments)
        for entry, arg in zip(c.entries, args):
            entry.results[0].replace_all_uses_with(arg)
        mc_op = mc.operation
        for value, arg in zip(captured, args[len(c.entries):]):
            for use in list(value.uses):
                owner = use.owner.operation
                if owner != mc_op and _inside(owner, mc_op):
                    owner.operands[use.operand_number] = arg
        for x, result in zip(c.exits, mc.results):
            x.results[0].replace_all_uses_with(result)
        self._place(mc_op, operands)
        for op in c.exits + c.entries + folded:
            self._site(op).done = True
            op.erase()

    # -- pieces ---------------------------------------------------------------------
    def _erase_dead(self) -> None:
        """A region with no exit computes nothing the program uses (every use of its
        values is inside it: a return is rejected when the regions are found), as when
        a manual input is never read on the way to a result. XLA drops such code; so
        does this, unless an op in it has side effects (then it is an error)."""
        c = self.cluster
        for op in c.body:
            for inner in [op] + collect_ops(op):
                if inner.name == "stablehlo.custom_call" and "has_side_effect" in \
                        inner.attributes and ir.BoolAttr(
                            inner.attributes["has_side_effect"]).value:
                    raise ShardpyError(
                        f"@{FULL_TO_SHARD} without a matching @{SHARD_TO_FULL}: the manual "
                        f"code never returns to global values, and this op in it has side "
                        f"effects", inner.location)
        for site in self.imp.sites:
            if any(site.op == op for op in c.entries + c.body):
                site.done = True
        # Erased from the last in block order back: each op's users are gone by then.
        ops = sorted(c.entries + c.body, key=functools.cmp_to_key(
            lambda a, b: -1 if a.is_before_in_block(b) else (0 if a == b else 1)))
        for op in reversed(ops):
            op.erase()

    def _mesh_name(self, tilings: list[Tiling]) -> str:
        names = []
        for t in tilings:
            if t.kind in ("tiled", "maximal"):
                sharding = self.imp.plan.express(t).sharding
                if sharding is not None and sharding.mesh_name not in names:
                    names.append(sharding.mesh_name)
        if len(names) > 1:
            raise ShardpyError("the shardings around this manual region lie on different "
                               "meshes (" + ", ".join("@" + n for n in names) + "); one manual "
                               "computation needs one mesh", self.loc)
        if names:
            return names[0]
        default = self.imp.plan.default_mesh()
        return default[0]

    def _manual_axes(self, mesh_name: str) -> tuple[str, ...]:
        """The axes every entry is manual over (`{manual}`: all of the mesh's)."""
        mesh = self.imp.plan.mesh_named(mesh_name)
        found = None
        for entry in self.cluster.entries:
            tiling = self._tiling(entry)
            if tiling.kind == "manual":
                axes = set(mesh.axis_names)
            elif tiling.kind == "tiled" and MANUAL in tiling.subgroups:
                axes = set(self.imp.plan.express(tiling).manual_axes)
            else:
                raise ShardpyError(f"@{FULL_TO_SHARD} has sharding '{tiling.text}', which is "
                                   f"not manual", entry.location)
            if found is not None and axes != found:
                raise ShardpyError("the inputs of this manual region are manual over "
                                   "different axes", entry.location)
            found = axes
        return tuple(a for a in mesh.axis_names if a in found)

    def _global(self, tiling: Tiling, loc: ir.Location, mesh_name: str,
                manual) -> TensorSharding:
        imported = self.imp.express(tiling, loc, on=mesh_name)
        if imported.sharding is None or imported.manual_axes:
            raise ShardpyError(f"the global side of a manual region needs a global sharding, "
                               f"not '{tiling.text}'", loc)
        for i, d in enumerate(imported.sharding.dims):
            names = [a.name for a in d.axes]
            k = sum(1 for n in names if n in manual)
            if any(n in manual for n in names[k:]):
                raise ShardpyError(f"sharding '{tiling.text}' shards dimension {i} on a free "
                                   f"axis before a manual one; sdy.manual_computation needs the "
                                   f"manual axes major-most", loc)
        return imported.sharding

    def _check_local_types(self, ops, shardings, manual, what: str, exits: bool = False) -> None:
        for op, sharding in zip(ops, shardings):
            global_type = op.results[0].type if exits else op.operands[0].type
            local_type = op.operands[0].type if exits else op.results[0].type
            shape = tensor_shape(global_type)
            local = tensor_shape(local_type)
            if shape is None or local is None:
                continue
            expected = []
            for size, d in zip(shape, sharding.dims):
                shards = 1
                for ref in d.axes:
                    if ref.name in manual:
                        shards *= ref.size(sharding.mesh)
                expected.append(-(-size // shards))
            if tuple(expected) != local:
                raise ShardpyError(
                    f"manual {what} {global_type} with sharding {sharding} over manual axes "
                    f"{list(manual)} has local shape {expected}, but the custom call says "
                    f"{local_type}", op.location)

    def _from_inside(self, value: ir.Value, body_set: set[ir.Operation]) -> bool:
        """Is `value` defined by the region (its ops, their regions, or an entry)?"""
        definer = _defining_op(value)
        if isinstance(value.owner, ir.Block) and value.owner == self.block:
            return False  # an argument of the block the region sits in
        anc = _block_ancestor(definer, self.block) if definer is not None else None
        return anc is not None and (anc in body_set or anc in self.cluster.entries)

    def _captured(self) -> list[ir.Value]:
        """Values the body uses but does not define. Constants are cloned into the body
        (cheaper than an operand); the rest become operands, replicated."""
        body_set = set(self.cluster.body)  # read only: rewriting ops changes their hashes
        outside: list[ir.Value] = []
        for op in self.cluster.body:
            for inner in [op] + collect_ops(op):
                for value in inner.operands:
                    if not self._from_inside(value, body_set) and value not in outside:
                        definer = _defining_op(value)
                        anc = _block_ancestor(definer, self.block) if definer else None
                        if anc is not None and anc in self.cluster.exits:
                            raise ShardpyError("this manual region uses one of its own "
                                               "results", inner.location)
                        outside.append(value)
        users = [[use for use in value.uses
                  if _block_ancestor(use.owner.operation, self.block) in body_set]
                 for value in outside]
        captured = []
        for value, uses in zip(outside, users):
            definer = _defining_op(value)
            if definer is None or definer.name != "stablehlo.constant":
                captured.append(value)
                continue
            clone = definer.clone(ip=ir.InsertionPoint(self.cluster.body[0])).operation
            self.cluster.body.insert(0, clone)
            for use in uses:
                use.owner.operation.operands[use.operand_number] = clone.results[0]
            if not list(value.uses):
                definer.erase()
        return captured

    def _place(self, mc: ir.Operation, operands: list[ir.Value]) -> None:
        """Put the manual computation after everything it reads, then check that
        everything reading its results comes later."""
        anchor = None
        for value in operands:
            definer = _defining_op(value)
            anc = _block_ancestor(definer, self.block) if definer is not None else None
            if isinstance(value.owner, ir.Block) and value.owner == self.block:
                anc = None
            if anc is not None and (anchor is None or anchor.is_before_in_block(anc)):
                anchor = anc
        if anchor is not None:
            mc.move_after(anchor)
        elif self.block.operations[0].operation != mc:
            mc.move_before(self.block.operations[0].operation)
        for result in mc.results:
            for use in result.uses:
                user = _block_ancestor(use.owner.operation, self.block)
                if user is not None and user.is_before_in_block(mc):
                    raise ShardpyError("the manual region's results are used before all its "
                                       "inputs exist; it cannot become one manual computation",
                                       user.location)


