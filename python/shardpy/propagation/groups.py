"""Sharding groups whose members arrive with different shardings (Shardy's sharding
group sync, before propagation).

Every member of a group (`sdy.sharding_group %v group_id=N`: jax.shard_alike) ends with
one sharding. When the members already carry different ones (say, each was constrained
differently), that cannot hold as given. As Shardy does, the group is then not an
error: a warning names it, and every member gets an open sharding constraint right
after it, which takes the member's place in the group and in its other uses.
Propagation then settles one sharding for the constraints (the first member it reaches
wins), while each original keeps its own; the partitioner reshards between them.

before:
    func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
                 %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>})
      sdy.sharding_group %a group_id=0 : tensor<8x8xf32>
      sdy.sharding_group %b group_id=0 : tensor<8x8xf32>
after (warning: the initial operand shardings on the sharding groups of groupID: 0 ...):
      %0 = sdy.sharding_constraint %b <@mesh, [{?}, {?}]> : tensor<8x8xf32>
      %1 = sdy.sharding_constraint %a <@mesh, [{?}, {?}]> : tensor<8x8xf32>
      sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
      sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from ..ir.diagnostics import warning
from ..sharding.model import DimSharding, TensorSharding
from ..sharding.state import ShardingState
from .graph import says_nothing


def reconcile_sharding_groups(module: ir.Operation, group_ops: list[ir.Operation]) -> bool:
    """Give the members of each group with conflicting shardings open constraints (see
    the module docstring). True if it changed the module."""
    members: dict[int, list[ir.Value]] = {}
    for op in group_ops:
        group = ir.IntegerAttr(op.attributes["group_id"]).value
        values = members.setdefault(group, [])
        if not any(op.operands[0] == v for v in values):
            values.append(op.operands[0])
    state = ShardingState(module)
    changed = False
    for group, values in sorted(members.items()):
        found = _conflict(state, values)
        if found is None:
            continue
        warning(_owner(values[0]).location,
                f"The initial operand shardings on the sharding groups of groupID: {group} "
                f"do not match: each member gets an open sharding constraint, and "
                f"propagation gives those one sharding (members constrained differently, "
                f"e.g. values put in one group by jax.shard_alike)")
        open_like = state.codec.encode(_fully_open(found))
        for value in values:
            _constrain_after(value, open_like)
        changed = True
    return changed


def _conflict(state: ShardingState, values: list[ir.Value]) -> TensorSharding | None:
    """The first member sharding that counts, if another one differs from it (members
    without a sharding, or with one that says nothing, do not count: Graph.seed lets
    those take the group's); else None."""
    if len(values) < 2:
        return None
    found = None
    for value in values:
        sharding = state.of(value)
        if sharding is None or says_nothing(sharding):
            continue
        if found is None:
            found = sharding
        elif sharding != found:
            return found
    return None


def _fully_open(sharding: TensorSharding) -> TensorSharding:
    return TensorSharding(sharding.mesh, tuple(DimSharding((), False) for _ in sharding.dims),
                          (), (), sharding.mesh_name)


def _owner(value: ir.Value) -> ir.Operation:
    """The op defining `value`, or for a block argument the op owning its block."""
    if isinstance(value, ir.OpResult):
        return value.owner.operation
    return ir.BlockArgument(value).owner.owner.operation


def _constrain_after(value: ir.Value, sharding: ir.Attribute) -> None:
    """`sdy.sharding_constraint %value <sharding>` right after `value` is defined, in
    place of `value` everywhere else."""
    if isinstance(value, ir.OpResult):
        owner = value.owner.operation
        with owner.location, ir.InsertionPoint(owner):
            constraint = sdy.ShardingConstraintOp(value, sharding)
        constraint.operation.move_after(owner)
    else:
        block = ir.BlockArgument(value).owner
        with _owner(value).location, ir.InsertionPoint.at_block_begin(block):
            constraint = sdy.ShardingConstraintOp(value, sharding)
    result = constraint.result
    value.replace_all_uses_except(result, constraint.operation)
