"""What a reshard plan is made of: steps, each one sdy collective with the sharding it
leaves behind, and what each step costs.

  all_reduce(axes)                sum partial values over unreduced axes
  reduce_scatter(dim axes)        all_reduce + all_slice fused: partial values summed and
                                  split along dims in one collective
  all_to_all(axes, src -> tgt)    move the minor-most axes of one dim to the end of another
  collective_permute              same shard shape, different devices: send whole shards
  all_slice(dim axes)             keep the part of a replicated dim this device owns (local)
  all_gather(dim axes)            undo the minor-most sharding axes of a dim
  replicated_to_unreduced(axes)   a whole value made partial: kept on the first device
                                  along the axes, zero on the others (local)

Cost model, bytes sent per device (S = the per-device buffer the collective works on,
n = devices in one group): all_reduce 2(n-1)/n*S; all_gather, reduce_scatter, all_to_all
(n-1)/n*S; collective_permute S; all_slice 0 (step_bytes). A plan's time is its steps'
under the platform's CollectiveTimeModel (Plan.time: each collective's latency + bytes /
bandwidth; local steps are free).

Plans are made by reshard_makers.py and chosen by reshard_planner.py.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..sharding import axis_algebra as aa
from ..sharding.model import AxisRef, DimSharding, TensorSharding


@dataclass(frozen=True)
class Step:
    kind: str  # all_reduce | reduce_scatter | all_to_all | collective_permute | all_slice |
    #            all_gather | replicated_to_unreduced
    result: TensorSharding  # the value's sharding after this step
    dim_axes: tuple[tuple[AxisRef, ...], ...] = ()  # per dim: gathered/sliced/scattered axes
    axes: tuple[AxisRef, ...] = ()  # all_reduce axes; all_to_all axes
    src_dim: int = -1  # all_to_all
    tgt_dim: int = -1
    cost: float = 0.0  # bytes per device
    group: int = 0  # devices in one replica group (0: a local step, or one device pair)


@dataclass
class Plan:
    steps: list[Step] = field(default_factory=list)
    last_resort: bool = False

    @property
    def cost(self) -> float:
        return sum(s.cost for s in self.steps)

    def time(self, model) -> float:
        """Seconds the plan's collectives take by `model` (a CollectiveTimeModel:
        latency + bytes / bandwidth per kind and group size); local steps are free."""
        total = 0.0
        for step in self.steps:
            if step.kind in TIMED_KINDS and step.cost > 0:
                total += model.time(step.kind, max(step.group, 2), step.cost)
        return total


# Steps that move data between devices (all_slice and replicated_to_unreduced are local).
TIMED_KINDS = frozenset({"all_reduce", "all_gather", "reduce_scatter", "all_to_all",
                         "collective_permute"})


class ReshardError(ValueError):
    pass


def local_bytes(sharding: TensorSharding, shape, element_bytes: int) -> int:
    return math.prod(sharding.local_shape(shape)) * element_bytes


def from_pieces(sharding: TensorSharding, dims: list[list[AxisRef]], unreduced) -> TensorSharding:
    """A sharding from (sub-axis) pieces, merged back the way sdy wants them."""
    sizes = sharding.mesh.axes
    new_dims = []
    for d, axes in zip(sharding.dims, dims):
        new_dims.append(DimSharding(tuple(aa.merge_consecutive(axes, sizes)), True))
    order = {name: i for i, name in enumerate(sharding.mesh.axis_names)}
    partial = aa.merge_consecutive(
        sorted(unreduced, key=lambda a: (order.get(a.name, 0), aa.span(a, sizes))), sizes)
    return TensorSharding(sharding.mesh, tuple(new_dims), (), tuple(partial),
                          sharding.mesh_name)


def _pieces(axes, cuts: dict[str, set[int]], sizes) -> list[AxisRef]:
    """Split every ref at the given multiplicative cut points of its axis."""
    out = []
    for ref in axes:
        lo, hi = aa.span(ref, sizes)
        points = sorted(p for p in cuts.get(ref.name, ()) if lo < p < hi)
        for a, b in zip([lo] + points, points + [hi]):
            out.append(aa.from_span(ref.name, a, b, sizes))
    return out


def refine(src_dims, dst_dims, unreduced_src, unreduced_dst, sizes):
    """Express both shardings in the finest common sub-axes, so that comparing lists of
    refs is exact (e.g. "x" against "x":(1)2 becomes "x":(1)2,"x":(2)2 against "x":(1)2)."""
    cuts: dict[str, set[int]] = {}
    for ref in [a for d in src_dims + dst_dims for a in d] + list(unreduced_src) + list(
            unreduced_dst):
        lo, hi = aa.span(ref, sizes)
        cuts.setdefault(ref.name, set()).update((lo, hi))
    return ([_pieces(d, cuts, sizes) for d in src_dims],
            [_pieces(d, cuts, sizes) for d in dst_dims],
            _pieces(unreduced_src, cuts, sizes), _pieces(unreduced_dst, cuts, sizes))


def common_prefix(a: list, b: list) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


def step_bytes(kind: str, n: int, before: int, after: int) -> float:
    """Bytes per device of one collective over groups of `n` devices, of a buffer of
    `before` bytes (`after`: its size after the step): all_reduce 2(n-1)/n of it,
    all_gather (n-1)/n of the result, reduce_scatter and all_to_all (n-1)/n of the
    input; nothing for local steps (all_slice, replicated_to_unreduced)."""
    if kind == "all_reduce":
        return 2 * (n - 1) / n * before
    if kind == "all_gather":
        return (n - 1) / n * after
    if kind in ("reduce_scatter", "all_to_all"):
        return (n - 1) / n * before
    return 0.0
