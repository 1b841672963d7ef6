"""shardpy-combine-collectives: independent reduce_scatters over the same devices, as one.

Every collective costs a latency (a rendezvous of all its devices) besides its bytes.
A backward pass under FSDP ends in one reduce_scatter per gradient (37 in a two-layer
GPT), none of which reads another. XLA combines independent all-reduces itself, but on
CPU not reduce_scatters, whose StableHLO op takes one operand. This pass, on the
per-device module shardpy-to-local leaves, packs a block's independent reduce_scatters
of one element type, reducer and replica groups into one: each operand laid out as
[group, rest] (its scattered dim first: shard k's part is row k), concatenated along
`rest`, scattered along the leading dim, and each result sliced back out. It moves the
same bytes and pays one latency instead of many.

  independent  no member reads another's result, directly or through other ops (nor
               through ops nested in regions that capture values of the block)
  placement    the combined op goes where the group's last member was; ops that read an
               earlier member's result and stood before it move after it, in order
               (they cannot feed a member: the members are independent)
  limit        a group holds at most MAX_BYTES of operands (the packed buffer is a
               copy of them all, live at once)

before (per device, group [0..3]):
    %a = "stablehlo.reduce_scatter"(%ga) <{scatter_dimension = 0 ...}> : (tensor<64x8xf32>) -> tensor<16x8xf32>
    %b = "stablehlo.reduce_scatter"(%gb) <{scatter_dimension = 1 ...}> : (tensor<8x32xf32>) -> tensor<8x8xf32>
after:
    %0 = stablehlo.reshape %ga : (tensor<64x8xf32>) -> tensor<4x128xf32>
    %1 = stablehlo.transpose %gb, dims = [1, 0] : (tensor<8x32xf32>) -> tensor<32x8xf32>
    %2 = stablehlo.reshape %1 : (tensor<32x8xf32>) -> tensor<4x64xf32>
    %3 = stablehlo.concatenate %0, %2, dim = 1 : (tensor<4x128xf32>, tensor<4x64xf32>) -> tensor<4x192xf32>
    %4 = "stablehlo.reduce_scatter"(%3) <{scatter_dimension = 0 ...}> : (tensor<4x192xf32>) -> tensor<1x192xf32>
    %5 = stablehlo.slice %4 [0:1, 0:128] ... reshape -> tensor<16x8xf32>        (%a)
    %6 = stablehlo.slice %4 [0:1, 128:192] ... reshape, transpose -> tensor<8x8xf32> (%b)
"""
from __future__ import annotations

from math import prod

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from .. import explain
from ..ir.types import element_bytes
from ..ir.utils import reducer_region
from ..sharding.device_groups import group_size_of

MAX_BYTES = 64 << 20  # of operands per combined reduce_scatter


def combine_reduce_scatters(module: ir.Operation, max_bytes: int = MAX_BYTES) -> int:
    """Combine the independent reduce_scatters of every block of `module`; the number
    of reduce_scatters removed."""
    removed = 0
    for block in _blocks_with_several(module):
        while True:  # one group at a time: a rewrite moves ops, so look again
            gone = _combine_in_block(block, max_bytes)
            if not gone:
                break
            removed += gone
    return removed


# Ops whose blocks may hold reduce_scatters (function bodies, loop bodies, branches);
# the regions of others are computations on scalars (reducers, comparators).
_HOLDERS = frozenset({"func.func", "stablehlo.while", "stablehlo.case", "stablehlo.if"})
_REDUCE_SCATTER = "stablehlo.reduce_scatter"


def _blocks_with_several(module: ir.Operation) -> list:
    """The blocks holding two reduce_scatters or more (one look at each op's name)."""
    found, todo = [], [module]
    while todo:
        op = todo.pop()
        for region in op.regions:
            for block in region.blocks:
                count = 0
                for inner in block.operations:
                    name = inner.operation.name
                    if name == _REDUCE_SCATTER:
                        count += 1
                    elif name in _HOLDERS or name == "builtin.module":
                        todo.append(inner.operation)
                if count > 1:
                    found.append(block)
    return found


def _key(op: ir.Operation):
    """What members of one combined reduce_scatter share, or None where this one cannot
    join any: element type, replica groups, device-id mode, reducer."""
    operand_type = op.operands[0].type
    if not isinstance(operand_type, ir.RankedTensorType) or not operand_type.has_static_shape:
        return None
    body = op.regions[0].blocks[0]
    inner = [o.operation for o in body.operations]
    if len(inner) != 2 or len(inner[0].operands) != 2 or \
            list(inner[0].operands) != list(body.arguments):
        return None  # only `return f(%a, %b)` reducers are recognized
    attrs = op.attributes
    return (str(operand_type.element_type), attrs["replica_groups"],
            "use_global_device_ids" in attrs, inner[0].name)


def _group_size(op: ir.Operation) -> int:
    return group_size_of(op.attributes["replica_groups"])


def _combine_in_block(block: ir.Block, max_bytes: int) -> int:
    ops = [o.operation for o in block.operations]
    at = [i for i, op in enumerate(ops) if op.name == _REDUCE_SCATTER]
    if len(at) < 2:
        return 0
    # Only the ops from the first reduce_scatter to the last can read one and be read by
    # a later one (the dependences that matter, and the readers that may move).
    first, last = at[0], at[-1]
    producer = {}
    for i in range(first, last + 1):
        for r in ops[i].results:
            producer[r] = i
    # ancestors[i]: bit k set when op i reads (transitively) reduce_scatter number k
    ancestors = [0] * len(ops)
    members_at: list[int] = []  # position of reduce_scatter k
    for i in range(first, last + 1):
        op = ops[i]
        found = 0
        for value in _read_values(op):
            j = producer.get(value)
            if j is not None and j < i:
                found |= ancestors[j]
        if op.name == _REDUCE_SCATTER:
            found |= 1 << len(members_at)
            members_at.append(i)
        ancestors[i] = found
    if len(members_at) < 2:
        return 0

    groups: list[list[int]] = []  # reduce_scatter numbers
    open_by_key: dict = {}
    for k, i in enumerate(members_at):
        key = _key(ops[i])
        if key is None:
            continue
        size = _bytes(ops[i].operands[0].type)
        own = ancestors[i] & ~(1 << k)
        placed = False
        for g in open_by_key.get(key, []):
            mask, total = g[1], g[2]
            if own & mask or total + size > max_bytes:
                continue
            g[0].append(k)
            g[1] |= 1 << k
            g[2] += size
            placed = True
            break
        if not placed:
            entry = [[k], 1 << k, size]
            open_by_key.setdefault(key, []).append(entry)
            groups.append(entry)
    for members, mask, _ in groups:
        if len(members) > 1:
            _rewrite(ops, [members_at[k] for k in members], ancestors,
                     mask & ~(1 << members[-1]))
            return len(members) - 1
    return 0


def _read_values(op: ir.Operation):
    """The values `op` reads: its operands and those its regions capture."""
    yield from op.operands
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield from _read_values(inner.operation)


def _bytes(value_type) -> int:
    return prod(value_type.shape) * element_bytes(value_type.element_type)


def _rewrite(ops: list, positions: list[int], ancestors: list[int], earlier: int) -> None:
    """Replace the reduce_scatters at `positions` (ascending) of the block's `ops` by one
    placed at the last of them; `earlier`: the bits of all members but the last (ops
    before the last that read them move after the combined op)."""
    last = ops[positions[-1]]
    first = ops[positions[0]]
    n = _group_size(first)
    rows = []  # per member: (its op, permutation or None, its shape as packed, m)
    loc = last.location
    if explain.current() is not None:  # --explain: every member's reasons
        loc = explain.recorder.fused_location([ops[p].location for p in positions])
    with loc, ir.InsertionPoint(last):
        packed = []
        for p in positions:
            op = ops[p]
            value = op.operands[0]
            shape = list(value.type.shape)
            element = value.type.element_type
            dim = ir.IntegerAttr(op.attributes["scatter_dimension"]).value
            perm = None
            if dim != 0:
                perm = [dim] + [d for d in range(len(shape)) if d != dim]
                shape = [shape[d] for d in perm]
                value = stablehlo.TransposeOp(value, perm).result
            m = prod(shape) // n
            value = stablehlo.ReshapeOp(ir.RankedTensorType.get([n, m], element), value).result
            packed.append(value)
            rows.append((op, perm, shape, m))
        element = packed[0].type.element_type
        total = sum(r[3] for r in rows)
        joined = stablehlo.ConcatenateOp(packed, 1).result
        combined = stablehlo.ReduceScatterOp(
            ir.RankedTensorType.get([1, total], element), joined, 0,
            first.attributes["replica_groups"],
            channel_handle=first.attributes["channel_handle"]
            if "channel_handle" in first.attributes else None,
            use_global_device_ids=True if "use_global_device_ids" in first.attributes
            else None)
        reducer_region(combined.operation.regions[0], element,
                       first.regions[0].blocks[0].operations[0].operation.name)
        start = 0
        replaced = []
        for op, perm, shape, m in rows:
            piece = stablehlo.SliceOp(combined.result, [0, start], [1, start + m], [1, 1]).result
            start += m
            local = [shape[0] // n] + shape[1:]
            piece = stablehlo.ReshapeOp(ir.RankedTensorType.get(local, element), piece).result
            if perm is not None:
                inverse = [perm.index(d) for d in range(len(perm))]
                piece = stablehlo.TransposeOp(piece, inverse).result
            replaced.append((op, piece))
    tail = replaced[-1][1].owner.operation
    # Readers of earlier members that stood before the last one follow the combined op.
    members = set(positions)
    movers = [ops[i] for i in range(positions[0] + 1, positions[-1])
              if ancestors[i] & earlier and i not in members]
    for op, piece in replaced:
        op.results[0].replace_all_uses_with(piece)
    for op, _ in replaced:
        op.erase()
    for op in movers:
        op.move_after(tail)
        tail = op

