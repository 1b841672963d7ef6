"""Plan the collectives that take a value from one sharding to another: the plan
makers' candidates (reshard_makers.py) ranked by time, then bytes, then the largest
buffer on the way (rank_key; without a model, bytes first), and remembered.

    plan_reshard([{"x"}, {"y"}], [{"y"}, {"x"}], ...)   on mesh <["x"=2, "y"=4]>
      -> all_to_all "y":(2)2 dim 1 -> 0, then collective_permute   (regrouped_plan)

Between two meshes (different axes or device order; the name of the mesh symbol does
not matter), a plan goes through a bridge: a layout X on the source mesh and a layout
Y on the target mesh with the same number of shards per dim and nothing partial. It
plans src -> X on the source mesh, then one cross-mesh collective_permute step X -> Y
(each target device receives the block it holds under Y from a device holding it
under X: device_groups.permute_rounds; no pair moves data where the devices keep their
blocks, e.g. meshes differing only in axis names: a relabel), then Y -> dst on the
target mesh. Bridges tried: the target's layout (its axes renamed onto the source
mesh where both meshes have the same axis sizes), the source's layout (renamed onto
the target mesh likewise), both layouts as they are (where their shard counts agree),
and replicated on both meshes (always possible). A target mesh larger than the source
mesh (devices outside it hold no data) takes more than one round of sends.
"""
from __future__ import annotations

import math
from dataclasses import replace

from ..sharding import axis_algebra as aa
from ..sharding.device_groups import permute_rounds
from ..sharding.model import AxisRef, TensorSharding
from .reshard_makers import (general_plan, last_resort_plan, permute_plan, regrouped_plan,
                             through_cleared_axes)
from .reshard_steps import (Plan, ReshardError, Step, from_pieces, local_bytes,
                            step_bytes)


_PLANS: dict = {}  # plan_reshard's answers (plans are never changed once made)
_MAX_PLANS = 65536


def plan_reshard(src: TensorSharding, dst: TensorSharding, shape, element_bytes: int = 4,
                 num_devices: int | None = None, model=None) -> Plan:
    """The cheapest plan found from `src` to `dst` for a value of global `shape`: the
    fastest by `model` (a CollectiveTimeModel), then the fewest bytes per device, then
    the smallest buffer on the way; without a model, bytes first.
    `num_devices`: how many devices the program runs on (what the empty mesh `<[]>`
    covers; default: the larger of the two meshes). Answers are remembered: the
    whole-program choice asks for the same pairs thousands of times."""
    key = (src, dst, tuple(shape), element_bytes, num_devices, model_key(model))
    found = _PLANS.get(key)
    if found is None:
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.clear()
        try:
            found = _PLANS[key] = _plan_reshard(src, dst, shape, element_bytes, num_devices,
                                                model)
        except ReshardError as err:
            _PLANS[key] = err
            raise
    if isinstance(found, ReshardError):
        raise ReshardError(str(found))
    return found


_MODELS: dict = {}  # id -> model: kept alive so that the id in a memo key stays its own


def model_key(model):
    """A memo key for `model`: its id (the model kept alive), None without one."""
    if model is None:
        return None
    _MODELS.setdefault(id(model), model)
    return id(model)


def nanoseconds(seconds: float):
    """Estimated times compare in whole nanoseconds, so that plans of the same
    collectives tie (whatever order their sums were added in) and bytes decide."""
    return round(seconds * 1e9) if seconds != math.inf else seconds


def rank_key(plan: Plan, model, peak: int = 0) -> tuple:
    """How plans compare: (nanoseconds by `model`, bytes, peak); no model: bytes first."""
    if model is None:
        return (plan.cost, peak)
    return (nanoseconds(plan.time(model)), plan.cost, peak)


def candidate_plans(src: TensorSharding, dst: TensorSharding, shape, element_bytes: int
                    ) -> list[Plan]:
    """The plans the planner weighs between two shardings of one mesh (the general
    sequence of collectives, and a collective_permute or regrouping where one
    applies); empty when none applies (the last resort is left)."""
    candidates = [general_plan(src, dst, shape, element_bytes)
                  if aa.chain(src.all_axes() + dst.all_axes(), src.mesh.axes)
                  else through_cleared_axes(src, dst, shape, element_bytes)]
    permute = permute_plan(src, dst, shape, element_bytes)
    if permute is not None:
        candidates.append(permute)
    else:
        candidates.append(regrouped_plan(src, dst, shape, element_bytes))
    return [p for p in candidates if p is not None]


def _plan_reshard(src: TensorSharding, dst: TensorSharding, shape, element_bytes: int,
                  num_devices: int | None, model=None) -> Plan:
    if src.rank != dst.rank:
        raise ReshardError(f"rank mismatch: {src} -> {dst}")
    if not same_mesh(src, dst):
        return _cross_mesh_plan(src, dst, shape, element_bytes, num_devices, model)
    key = (src, dst, _shape_key(src, dst, shape))
    known = _SHAPED.get(key)
    if known is None:
        valid = candidate_plans(src, dst, shape, element_bytes)
        if len(_SHAPED) >= _MAX_PLANS:
            _SHAPED.clear()
        _SHAPED[key] = [p.steps for p in valid]
    else:  # the same steps, their bytes for this shape
        valid = [Plan(_costed(steps, src, shape, element_bytes)) for steps in known]
    if valid:
        # Time (or bytes), then the largest buffer a plan makes (a gather then slice
        # moves as much as a collective_permute of the same shards, with a whole dim in
        # between).
        return min(valid, key=lambda p: rank_key(p, model,
                                                 _peak_bytes(p, src, shape, element_bytes)))
    return last_resort_plan(src, dst, shape, element_bytes)


# (src, dst, _shape_key) -> the steps of each plan candidate_plans weighs: between two
# layouts of one mesh, the plans' steps depend on the shape only through _shape_key; their
# bytes are costed again for each shape (_costed). Values of a model have a few layouts
# and many shapes (a layer's activations, its weights, their gradients).
_SHAPED: dict = {}


def _shape_key(src: TensorSharding, dst: TensorSharding, shape) -> tuple:
    """What of `shape` the plans between `src` and `dst` (one mesh) depend on, per dim:
    -1 where neither shards it (no step does), 0 where the mesh's size divides it (so
    does every shard count of its: each step's blocks are even), else its size (padded
    shards: which gathers and slices line up, padding.exact_step)."""
    n = src.mesh.size
    return tuple(-1 if not (a.axes or b.axes) else 0 if size % n == 0 else size
                 for size, a, b in zip(shape, src.dims, dst.dims))


def costed_pair(src: TensorSharding, dst: TensorSharding, shape, element_bytes: int):
    """(src, dst, shape, element_bytes) of a pair on one mesh without the dims neither
    side shards, their elements folded into the element bytes: no step touches such a
    dim, so every plan's bytes, time and peak are the same, and pairs that differ only
    there share one plan. For callers that read only a plan's cost (its steps are of the
    smaller rank). The pair as it is when every dim is sharded, or the meshes differ.

    e.g. [{"x"}, {}, {}] -> [{}, {}, {"y"}] of 8x64x128 f32 is planned as
         [{"x"}, {}] -> [{}, {"y"}] of 8x128 with 256-byte elements"""
    kept = kept_dims(src, dst)
    if len(kept) == len(src.dims):
        return src, dst, shape, element_bytes
    element_bytes *= math.prod(n for d, n in enumerate(shape) if d not in kept)
    return (replace(src, dims=tuple(src.dims[d] for d in kept)),
            replace(dst, dims=tuple(dst.dims[d] for d in kept)),
            tuple(shape[d] for d in kept), element_bytes)


def kept_dims(src: TensorSharding, dst: TensorSharding) -> list[int]:
    """The dims costed_pair keeps of a pair: those either side shards (every dim where
    the meshes differ)."""
    if not same_mesh(src, dst):
        return list(range(len(src.dims)))
    return [d for d, (a, b) in enumerate(zip(src.dims, dst.dims)) if a.axes or b.axes]


def _costed(steps, src: TensorSharding, shape, element_bytes: int) -> list[Step]:
    """`steps` (one plan's, from `src`) with each step's bytes per device for `shape`:
    the cost model of the module docstring, on the buffer before the step (all_reduce,
    reduce_scatter, all_to_all, collective_permute) or after it (all_gather), as each
    plan maker computes it."""
    out = []
    before = local_bytes(src, shape, element_bytes)
    for step in steps:
        after = local_bytes(step.result, shape, element_bytes)
        cost = float(before) if step.kind == "collective_permute" else step_bytes(
            step.kind, step.group, before, after)
        out.append(replace(step, cost=cost))
        before = after
    return out


def _peak_bytes(plan: Plan, src: TensorSharding, shape, element_bytes: int) -> int:
    return max([local_bytes(src, shape, element_bytes)]
               + [local_bytes(s.result, shape, element_bytes) for s in plan.steps])


# --------------------------------------------------------------------------- between meshes


def same_mesh(a: TensorSharding, b: TensorSharding) -> bool:
    """Do `a` and `b` lie on meshes with the same axes and device order (the mesh
    symbols' names do not matter: data is placed alike)?"""
    return a.mesh is b.mesh or a.mesh == b.mesh


def _renamed(sharding: TensorSharding, onto: TensorSharding) -> TensorSharding | None:
    """`sharding`'s dims (nothing partial) on `onto`'s mesh, axis i of its mesh read as
    axis i of the other; None unless both meshes have the same axis sizes in order."""
    sizes_from = [size for _, size in sharding.mesh.axes]
    if sizes_from != [size for _, size in onto.mesh.axes]:
        return None
    names = {a: b for a, b in zip(sharding.mesh.axis_names, onto.mesh.axis_names)}
    dims = [[AxisRef(names[ref.name], ref.sub) for ref in d.axes] for d in sharding.dims]
    return from_pieces(onto, dims, ())


def _bridges(src: TensorSharding, dst: TensorSharding):
    """(X on src's mesh, Y on dst's mesh) pairs: equal shards per dim, nothing partial."""
    src_whole = from_pieces(src, [list(d.axes) for d in src.dims], ())
    dst_whole = from_pieces(dst, [list(d.axes) for d in dst.dims], ())
    target_on_source = _renamed(dst_whole, src)
    if target_on_source is not None:
        yield target_on_source, dst_whole
        yield src_whole, _renamed(src_whole, dst)
    if all(src.dim_shards(i) == dst.dim_shards(i) for i in range(src.rank)):
        yield src_whole, dst_whole
    yield from_pieces(src, [[] for _ in src.dims], ()), from_pieces(dst, [[] for _ in dst.dims], ())


def _cross_mesh_plan(src, dst, shape, element_bytes, num_devices, model=None) -> Plan:
    devices = num_devices or max(src.mesh.size, dst.mesh.size)
    best = None
    for x, y in _bridges(src, dst):
        before = plan_reshard(src, x, shape, element_bytes, model=model)
        after = plan_reshard(y, dst, shape, element_bytes, model=model)
        moving = [r for r in permute_rounds(x, y, devices) if any(s != t for s, t in r)]
        cross = Step("collective_permute", y,
                     cost=float(len(moving) * local_bytes(x, shape, element_bytes)))
        plan = Plan(before.steps + [cross] + after.steps,
                    before.last_resort or after.last_resort)
        if best is None or rank_key(plan, model) < rank_key(best, model):
            best = plan
    return best
