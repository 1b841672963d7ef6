"""Manual computations whose free axes split a manual part unevenly: one layout on
both sides of the boundary.

A dim of a manual computation's operand or result that its manual axes split evenly
and its free axes then unevenly has two layouts: as a global sharding (tiles of
ceil(n / all axes), the last ones padding) and as the manual code reads it (the manual
axes split n evenly, then the free axes split each part, with padding in every part).
With 4 rows on "a","b","c" ("a" manual), the global sharding puts the rows on the
devices with "a" = 0 and padding on the others, while the body on "a" = 1 expects
rows 2-3 (fuzz seed 7075 of the 10k run of 2026-11-27: read as the first, a wrong
answer). Both the partitioner (partition/regions.py) and the GSPMD export (which has no
way to write the second) first make the boundary even here.
"""
from __future__ import annotations

from dataclasses import replace

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from .model import TensorSharding
from .state import ShardingState, manual_axes, without_axes


def uneven_free_dims(shape, sharding: TensorSharding, manual) -> list[int]:
    """The dims of a value of global `shape` that `sharding`'s `manual` axes split
    evenly and its free axes then unevenly."""
    mesh = sharding.mesh
    found = []
    for d, (n, dim) in enumerate(zip(shape, sharding.dims)):
        m = f = 1
        for ref in dim.axes:
            if ref.name in manual:
                m *= ref.size(mesh)
            else:
                f *= ref.size(mesh)
        if m > 1 and f > 1 and n % (m * f):
            found.append(d)
    return found


def even_manual_layouts(op: ir.Operation, codec, ins: list | None = None,
                        outs: list | None = None, state: ShardingState | None = None
                        ) -> tuple[list, list]:
    """Cross manual computation `op`'s boundary with its free axes off the dims where
    they split a manual part unevenly, so that the global and the manual layout agree;
    the free axes are put back inside the body (operands) and outside it (results) by
    reshards, which lay the value out in the frame each side reads. `ins`, `outs`: the
    in/out shardings decoded, where the caller has them; returned as they now are.
    `state`, where given, learns the new values' shardings.

    before (4 rows; "a" manual, "b" free: "a" gives 2 rows per part, "b" splits each):
        %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a", "b"}, {}]>]
                 out_shardings=[<@mesh, [{"a", "b"}, {}]>] manual_axes={"a"} (%a: tensor<2x...>) {
          ...uses of %a...
          sdy.return %2
        }
        ...uses of %1...
    after:
        %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a"}, {}]>]
                 out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%a: tensor<2x...>) {
          %r = sdy.reshard %a <@mesh, [{"b"}, {}]>
          ...uses of %r...
          sdy.return %2
        }
        %3 = sdy.reshard %1 <@mesh, [{"a", "b"}, {}]>
        ...uses of %3...
    """
    manual = manual_axes(op)
    body = op.regions[0].blocks[0]

    def decoded(key: str) -> list:
        return [codec.decode(attr, op.location)
                for attr in sdy.TensorShardingPerValueAttr(op.attributes[key]).shardings]

    def even(key: str, globals_, values, layouts, insertion_point, frame) -> list:
        """Each value of `values` whose global form (`globals_`) has an uneven dim: its
        boundary sharding made even (the `key` attribute rewritten), and the reshard
        that puts the free axes back (at `insertion_point`, in the layout `frame`
        gives) taking its place."""
        new = list(layouts)
        for i, (value, sharding) in enumerate(zip(values, layouts)):
            if not isinstance(globals_[i].type, ir.RankedTensorType):
                continue  # (a token JAX threads through shard_map for ordered effects)
            dims = uneven_free_dims(globals_[i].type.shape, sharding, manual)
            if not dims:
                continue
            new[i] = replace(sharding, dims=tuple(
                replace(dim, axes=tuple(a for a in dim.axes if a.name in manual))
                if d in dims else dim for d, dim in enumerate(sharding.dims)))
            with op.location, insertion_point():
                reshard = sdy.ReshardOp(value, codec.encode(frame(sharding)))
            value.replace_all_uses_except(reshard.result, reshard.operation)
            if state is not None:  # (a new op may sit where an erased one was cached)
                state.remember(reshard.result, frame(sharding))
                state.forget(value)
        if new != list(layouts):
            op.attributes[key] = sdy.TensorShardingPerValueAttr.get(
                [codec.encode(s) for s in new])
        return new

    return (even("in_shardings", op.operands, list(body.arguments),
                 decoded("in_shardings") if ins is None else ins,
                 lambda: ir.InsertionPoint.at_block_begin(body),
                 lambda s: without_axes(s, manual)),  # the body's (local) frame
            even("out_shardings", op.results, list(op.results),
                 decoded("out_shardings") if outs is None else outs,
                 lambda: ir.InsertionPoint.after(op), lambda s: s))
