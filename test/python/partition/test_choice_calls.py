"""choice_calls: loops and calls as the whole-program choice and plan costs read them:
trip counts, and which operands are invariant in a loop (hoisted_trips)."""
from __future__ import annotations

from jaxlib.mlir import ir

from shardpy.partition.choice_calls import (
    call_sites, enclosing_loop, hoisted, hoisted_trips, trip_weight)
from shardpy.partition.plan_cache import PlanMemo

# A loop of 4 trips reading: a carry it returns unchanged (%it), one it changes (%acc),
# a value made before the loop (%out), one made in the body (%t), through a call (@f)
# and directly; and an op outside any loop.
LOOP = """
func.func @main(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %out = stablehlo.negate %y : tensor<8xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%it = %x, %i = %c0, %acc = %y) : tensor<4x8xf32>, tensor<i32>, tensor<8xf32>
    cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %row = func.call @f(%it, %i, %acc) : (tensor<4x8xf32>, tensor<i32>, tensor<8xf32>) -> tensor<8xf32>
      %t = stablehlo.tanh %row : tensor<8xf32>
      %u = stablehlo.add %t, %out : tensor<8xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %it, %next, %u : tensor<4x8xf32>, tensor<i32>, tensor<8xf32>
    }
  %done = stablehlo.add %r#2, %out : tensor<8xf32>
  return %done : tensor<8xf32>
}
func.func private @f(%a: tensor<4x8xf32>, %i: tensor<i32>, %acc: tensor<8xf32>) -> tensor<8xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %s = stablehlo.dynamic_slice %a, %i, %c, sizes = [1, 8] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
  %r = stablehlo.reshape %s : (tensor<1x8xf32>) -> tensor<8xf32>
  %m = stablehlo.multiply %r, %acc : tensor<8xf32>
  return %m : tensor<8xf32>
}
"""


def _ops(ctx):
    module = ir.Module.parse(LOOP, ctx)
    found = {}

    def walk(op):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.operations:
                    inner = inner.operation
                    found.setdefault(inner.name, []).append(inner)
                    walk(inner)

    walk(module.operation)
    return module, found


def test_operands_invariant_in_a_loop_are_hoisted_through_calls(ctx):
    module, ops = _ops(ctx)
    sites = call_sites(module.operation)
    assert list(sites) == ["f"]
    slice_op = ops["stablehlo.dynamic_slice"][0]
    loop = enclosing_loop(slice_op, sites)
    assert loop is not None and loop.name == "stablehlo.while"
    # %a is the loop's %it, returned unchanged: a reshard of it runs once in 4 trips;
    # %i changes every trip.
    assert hoisted_trips(slice_op.operands[0], loop, sites) == 4
    assert hoisted_trips(slice_op.operands[1], loop, sites) == 1
    multiply = ops["stablehlo.multiply"][0]
    assert hoisted_trips(multiply.operands[1], loop, sites) == 1  # %acc: a changing carry
    assert hoisted_trips(multiply.operands[0], loop, sites) == 1  # made in the body
    add = [op for op in ops["stablehlo.add"] if op.parent.name == "stablehlo.while"][0]
    assert [hoisted_trips(v, loop, sites) for v in add.operands] == [1, 4]  # %t, %out
    assert trip_weight(slice_op, {"f": (None, sites["f"])}) == 4


def test_outside_loops_and_without_a_memo_nothing_is_hoisted(ctx):
    module, ops = _ops(ctx)
    done = [op for op in ops["stablehlo.add"] if op.parent.name == "func.func"][0]
    assert enclosing_loop(done, call_sites(module.operation)) is None
    assert hoisted(done, list(done.operands), PlanMemo()) is None
    slice_op = ops["stablehlo.dynamic_slice"][0]
    # (%c, a constant made in the callee, is in the loop: remade as a source anyway)
    assert hoisted(slice_op, list(slice_op.operands), PlanMemo()) == (4, 1, 1)
    assert hoisted(slice_op, list(slice_op.operands), None) is None
