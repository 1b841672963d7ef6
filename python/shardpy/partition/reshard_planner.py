"""Plan the collectives that take a value from one sharding to another.

Given the current and the wanted `TensorSharding` of one value (same mesh), produce a
sequence of steps, each one sdy collective with the sharding it leaves behind:

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
(n-1)/n*S; collective_permute S; all_slice 0. Plans are ranked by their time under the
platform's CollectiveTimeModel (each collective's latency + bytes / bandwidth), then by
bytes, then by the largest buffer on the way (rank_key); without a model, bytes first.

Order of a plan: reduce (scattering where the target slices along reduced axes), move
axes between dims with all_to_all, slice dims that have nothing to gather, gather, slice
the rest. A permutation of equally shaped shards is one collective_permute when that is
cheaper. When no sequence exists (sub-axes that cannot be aligned), the last resort is
to gather everything and slice; callers report it.

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

Uneven dims (padded shards, shardpy.lowering.padding): a dim is gathered, sliced, scattered or
moved by all_to_all between two sharded layouts only where their blocks line up
(padding.exact_step); otherwise it is gathered whole first and sliced from there (the
lowering trims and pads a whole dim). A collective_permute moves whole padded shards,
which is exact as shard i covers the same elements whichever device holds it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from ..sharding import axis_algebra as aa
from ..sharding.device_groups import permute_rounds
from ..lowering.padding import exact_step
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


def _with(sharding: TensorSharding, dims: list[list[AxisRef]], unreduced) -> TensorSharding:
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


def _common_prefix(a: list, b: list) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


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
    candidates = [_general_plan(src, dst, shape, element_bytes)
                  if aa.chain(src.all_axes() + dst.all_axes(), src.mesh.axes)
                  else _through_cleared_axes(src, dst, shape, element_bytes)]
    permute = _permute_plan(src, dst, shape, element_bytes)
    if permute is not None:
        candidates.append(permute)
    else:
        candidates.append(_regrouped_plan(src, dst, shape, element_bytes))
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
    return _last_resort(src, dst, shape, element_bytes)


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
    kept = [d for d, (a, b) in enumerate(zip(src.dims, dst.dims)) if a.axes or b.axes]
    if len(kept) == len(src.dims) or not same_mesh(src, dst):
        return src, dst, shape, element_bytes
    for d in range(len(shape)):
        if not (src.dims[d].axes or dst.dims[d].axes):
            element_bytes *= shape[d]
    return (replace(src, dims=tuple(src.dims[d] for d in kept)),
            replace(dst, dims=tuple(dst.dims[d] for d in kept)),
            tuple(shape[d] for d in kept), element_bytes)


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


def _peak_bytes(plan: Plan, src: TensorSharding, shape, element_bytes: int) -> int:
    return max([local_bytes(src, shape, element_bytes)]
               + [local_bytes(s.result, shape, element_bytes) for s in plan.steps])


def _permute_plan(src, dst, shape, element_bytes) -> Plan | None:
    """Same shard shape and the same partial axes: one collective_permute."""
    if set(src.unreduced) != set(dst.unreduced):
        return None
    if any(src.dim_shards(i) != dst.dim_shards(i) for i in range(src.rank)):
        return None
    if all(s.axes == d.axes for s, d in zip(src.dims, dst.dims)):
        return Plan()
    result = _with(dst, [list(d.axes) for d in dst.dims], dst.unreduced)
    return Plan([Step("collective_permute", result,
                      cost=float(local_bytes(src, shape, element_bytes)))])


def _regrouped_plan(src, dst, shape, element_bytes) -> Plan | None:
    """Axes moved between dims (all_to_all) until every dim has as many shards as the
    target's, then one collective_permute onto the target's devices: what a swap of
    two axes between dims takes without gathering either. On mesh <["x"=2, "y"=4]>:

      [{"x"}, {"y"}]  --all_to_all "y":(2)2 dim 1 -> 0-->  [{"x", "y":(2)2}, {"y":(1)2}]
                      --collective_permute-->            [{"y"}, {"x"}]

    The surplus of a dim (its shards over the target's) comes off its minor-most axes,
    split into sub-axes where only a part must go; dims short of shards take them in
    the order they came off. None where the shard counts cannot be matched that way
    (other total, sizes with no common factor, decompositions that do not chain) or
    partial axes differ."""
    if set(src.unreduced) != set(dst.unreduced):
        return None
    rank = src.rank
    want = [dst.dim_shards(d) for d in range(rank)]
    have = [src.dim_shards(d) for d in range(rank)]
    if have == want or math.prod(have) != math.prod(want):
        return None
    sizes = src.mesh.axes
    dims = [list(d.axes) for d in src.dims]
    pool: list[AxisRef] = []
    for d in range(rank):
        surplus = have[d] // math.gcd(have[d], want[d])
        while surplus > 1:
            ref = dims[d].pop()
            lo, hi = aa.span(ref, sizes)
            part = math.gcd(hi // lo, surplus)
            if part == 1:
                return None
            if part < hi // lo:  # keep the major part, move the minor one
                dims[d].append(aa.from_span(ref.name, lo, hi // part, sizes))
                ref = aa.from_span(ref.name, hi // part, hi, sizes)
            pool.append(ref)
            surplus //= part
    for e in range(rank):
        short = want[e] // aa.axes_size(dims[e], sizes) if want[e] % aa.axes_size(
            dims[e], sizes) == 0 else 0
        while short > 1 and pool:
            ref = pool[0]
            lo, hi = aa.span(ref, sizes)
            part = math.gcd(hi // lo, short)
            if part == 1:
                return None
            if part < hi // lo:  # the major part here, the minor part stays in the pool
                pool[0] = aa.from_span(ref.name, lo * part, hi, sizes)
                ref = aa.from_span(ref.name, lo, lo * part, sizes)
            else:
                pool.pop(0)
            dims[e].append(ref)
            short //= part
    if pool or [aa.axes_size(d, sizes) for d in dims] != want:
        return None
    if not aa.chain([a for d in dims for a in d] + list(src.unreduced), sizes):
        return None
    middle = _with(src, dims, src.unreduced)
    first = _general_plan(src, middle, shape, element_bytes)
    last = _permute_plan(middle, dst, shape, element_bytes)
    if first is None or last is None:
        return None
    return Plan(first.steps + last.steps)


def _through_cleared_axes(src, dst, shape, element_bytes) -> Plan | None:
    """A plan between shardings whose sub-axes lie in different decompositions of an
    axis ("a":(1)2 against "a":(3)2 on "a"=6): no finer sub-axes express both, so the
    source first gives up (gathers or sums) every ref of such an axis, along with the
    axes after it in its dim, and the target is planned from there. One example, on
    mesh <["a"=6]>:

      [{"a":(1)2}, {}]  --all_gather-->  [{}, {}]  --all_slice-->  [{}, {"a":(3)2}]
    """
    sizes = src.mesh.axes
    src_refs, dst_refs = src.all_axes(), dst.all_axes()
    clashing = {a.name for a in src_refs for b in dst_refs
                if a.name == b.name and not aa.chain([a, b], sizes)}
    if not clashing:  # each of src and dst is a chain on its own, and so are their pairs
        clashing = {a.name for a in src_refs + dst_refs}
    dims = []
    for d in src.dims:
        kept = list(d.axes)
        for i, ref in enumerate(kept):
            if ref.name in clashing:
                del kept[i:]
                break
        dims.append(kept)
    unreduced = [a for a in src.unreduced if a.name not in clashing]
    middle = _with(src, dims, unreduced)
    first = _general_plan(src, middle, shape, element_bytes)
    second = _general_plan(middle, dst, shape, element_bytes)
    if first is None or second is None:
        return None
    return Plan(first.steps + second.steps)


def _general_plan(src, dst, shape, element_bytes) -> Plan | None:
    sizes = src.mesh.axes
    size_of = aa.size
    cur, tgt, unreduced, want_unreduced = refine(
        [list(d.axes) for d in src.dims], [list(d.axes) for d in dst.dims],
        list(src.unreduced), list(dst.unreduced), sizes)
    plan = Plan()
    rank = len(cur)

    def current() -> TensorSharding:
        return _with(src, cur, unreduced)

    def add(kind, **kw) -> None:
        before = current_bytes()
        apply = kw.pop("apply")
        apply()
        now = current()
        after = current_bytes()
        n = kw.pop("group")
        plan.steps.append(Step(kind, now, cost=step_bytes(kind, n, before, after), group=n,
                               **kw))

    def current_bytes() -> int:
        # local_bytes(current()): the shards per dim are the products of its pieces
        total = element_bytes
        for size, axes in zip(shape, cur):
            shards = 1
            for ref in axes:
                shards *= size_of(ref, sizes)
            total *= -(-size // shards)
        return total

    def prefix(d: int) -> int:
        return _common_prefix(cur[d], tgt[d])

    def exact(d: int, axes_a, axes_b) -> bool:
        """Blocks of dim d line up between these two axis lists (padded shards)."""
        return exact_step(shape[d], aa.axes_size(axes_a, sizes), aa.axes_size(axes_b, sizes))

    def keep(d: int) -> int:
        """How many of dim d's axes stay while it is gathered and sliced: the common
        prefix, shortened until both steps line up (0: gathered whole)."""
        p = prefix(d)
        while p and not (exact(d, cur[d], cur[d][:p]) and exact(d, tgt[d], cur[d][:p])):
            p -= 1
        return p

    # 1. Partial sums the target does not keep: reduce, scattering along target dims
    #    whose next wanted axes are exactly (a prefix run of) the reduced axes.
    reduce = [a for a in unreduced if a not in want_unreduced]
    if reduce:
        scatter = [[] for _ in range(rank)]
        for d in range(rank):
            p = prefix(d)
            if len(cur[d]) != p:
                continue
            for ref in tgt[d][p:]:
                if ref in reduce and not any(ref in s for s in scatter) and \
                        exact(d, cur[d] + scatter[d] + [ref], cur[d]):
                    scatter[d].append(ref)
                else:
                    break
        scattered = [a for s in scatter for a in s]
        rest = [a for a in reduce if a not in scattered]
        if rest:
            def do_reduce(rest=rest):
                for a in rest:
                    unreduced.remove(a)
            add("all_reduce", apply=do_reduce, axes=tuple(rest),
                group=aa.axes_size(rest, sizes))
        if scattered:
            def do_scatter():
                for d in range(rank):
                    for a in scatter[d]:
                        unreduced.remove(a)
                        cur[d].append(a)
            add("reduce_scatter", apply=do_scatter,
                dim_axes=tuple(tuple(s) for s in scatter),
                group=aa.axes_size(scattered, sizes))

    # 2. Move axes between dims: the minor-most surplus axis of dim d is the next
    #    wanted axis of dim e (whose own axes are all wanted).
    moved = True
    while moved:
        moved = False
        for d in range(rank):
            if len(cur[d]) <= prefix(d):
                continue
            axis = cur[d][-1]
            for e in range(rank):
                if e == d or len(cur[e]) != prefix(e) or len(tgt[e]) <= len(cur[e]):
                    continue
                if tgt[e][len(cur[e])] != axis:
                    continue
                if not (exact(e, cur[e] + [axis], cur[e]) and exact(d, cur[d], cur[d][:-1])):
                    continue  # blocks of uneven dims would not line up: gather/slice

                def do_move(d=d, e=e, axis=axis):
                    cur[d].pop()
                    cur[e].append(axis)
                add("all_to_all", apply=do_move, axes=(axis,), src_dim=d, tgt_dim=e,
                    group=aa.size(axis, sizes))
                moved = True
                break

    def slice_where(ready) -> None:
        dims = [[] for _ in range(rank)]
        for d in range(rank):
            if not ready(d):
                continue
            p = prefix(d)
            if len(cur[d]) != p:
                continue
            used = {a for dd in cur for a in dd} | set(unreduced)
            for ref in tgt[d][p:]:
                if ref in used or any(aa.conflicts(ref, u, sizes) for u in used):
                    break
                if not exact(d, cur[d] + dims[d] + [ref], cur[d]):
                    break
                dims[d].append(ref)
                used.add(ref)
        if any(dims):
            def do_slice():
                for d in range(rank):
                    cur[d].extend(dims[d])
            add("all_slice", apply=do_slice, dim_axes=tuple(tuple(x) for x in dims), group=1)

    # 3. Slice first where nothing needs gathering (smaller buffers for the gathers).
    keeps = [keep(d) for d in range(rank)]
    gather_dims = {d for d in range(rank) if len(cur[d]) > keeps[d]}
    slice_where(lambda d: d not in gather_dims)
    # 4. Gather every surplus axis (uneven dims whose blocks do not line up: all).
    keeps = [keep(d) for d in range(rank)]
    gather = [cur[d][keeps[d]:] for d in range(rank)]
    if any(gather):
        def do_gather():
            for d in range(rank):
                del cur[d][keeps[d]:]
        add("all_gather", apply=do_gather, dim_axes=tuple(tuple(g) for g in gather),
            group=aa.axes_size([a for g in gather for a in g], sizes))
    # 5. Slice what is left to add.
    slice_where(lambda d: True)
    # 6. Partial values the target wants from a whole value: zero all but one copy.
    partial = [a for a in want_unreduced if a not in unreduced]
    if partial and not any(a in d or any(aa.conflicts(a, b, sizes) for b in d)
                           for d in cur for a in partial):
        def do_partial():
            unreduced.extend(partial)
        add("replicated_to_unreduced", apply=do_partial, axes=tuple(partial), group=1)
    if cur != tgt or sorted(map(str, unreduced)) != sorted(map(str, want_unreduced)):
        return None
    return plan


def _last_resort(src, dst, shape, element_bytes) -> Plan:
    """Gather (and reduce) everything, then slice to the target."""
    plan = Plan(last_resort=True)
    sizes = src.mesh.axes
    cur = src
    if src.unreduced:
        rest = [a for a in src.unreduced if a not in dst.unreduced]
        n = aa.axes_size(rest, sizes)
        after = _with(src, [list(d.axes) for d in src.dims],
                      [a for a in src.unreduced if a in dst.unreduced])
        before = local_bytes(cur, shape, element_bytes)
        plan.steps.append(Step("all_reduce", after, axes=tuple(rest), group=n,
                               cost=step_bytes("all_reduce", n, before, 0)))
        cur = after
    gathered = [tuple(d.axes) for d in cur.dims]
    if any(gathered):
        full = _with(src, [[] for _ in cur.dims], cur.unreduced)
        n = aa.axes_size([a for g in gathered for a in g], sizes)
        whole = local_bytes(full, shape, element_bytes)
        plan.steps.append(Step("all_gather", full, dim_axes=tuple(gathered), group=n,
                               cost=step_bytes("all_gather", n, 0, whole)))
        cur = full
    if any(d.axes for d in dst.dims):
        plan.steps.append(Step("all_slice", _with(dst, [list(d.axes) for d in dst.dims],
                                                  cur.unreduced),
                               dim_axes=tuple(tuple(d.axes) for d in dst.dims)))
    return plan


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
    return _with(onto, dims, ())


def _bridges(src: TensorSharding, dst: TensorSharding):
    """(X on src's mesh, Y on dst's mesh) pairs: equal shards per dim, nothing partial."""
    src_whole = _with(src, [list(d.axes) for d in src.dims], ())
    dst_whole = _with(dst, [list(d.axes) for d in dst.dims], ())
    target_on_source = _renamed(dst_whole, src)
    if target_on_source is not None:
        yield target_on_source, dst_whole
        yield src_whole, _renamed(src_whole, dst)
    if all(src.dim_shards(i) == dst.dim_shards(i) for i in range(src.rank)):
        yield src_whole, dst_whole
    yield _with(src, [[] for _ in src.dims], ()), _with(dst, [[] for _ in dst.dims], ())


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
