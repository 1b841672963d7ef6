"""The ways of resharding one value between two shardings of one mesh, one plan maker
each (steps: reshard_steps.py); reshard_planner.py weighs the plans they make.

  general_plan          reduce (scattering where the target slices along reduced axes),
                        move axes between dims with all_to_all, slice dims that have
                        nothing to gather, gather, slice the rest
  permute_plan          equally shaped shards on other devices: one collective_permute
  regrouped_plan        axes moved between dims until the shard counts match, then one
                        collective_permute (a swap of two axes without gathering either)
  through_cleared_axes  sub-axes of different decompositions of one axis: give them up,
                        then plan the target from there
  last_resort_plan      gather (and reduce) everything, then slice; callers report it

Each returns None where its sequence does not apply. Uneven dims (padded shards,
shardpy.lowering.padding): a dim is gathered, sliced, scattered or moved by all_to_all
between two sharded layouts only where their blocks line up (padding.exact_step);
otherwise it is gathered whole first and sliced from there (the lowering trims and pads a
whole dim). A collective_permute moves whole padded shards, which is exact as shard i
covers the same elements whichever device holds it.
"""
from __future__ import annotations

import math

from ..lowering.padding import exact_step
from ..sharding import axis_algebra as aa
from ..sharding.model import AxisRef, TensorSharding
from .reshard_steps import (Plan, Step, common_prefix, from_pieces, local_bytes, refine,
                            step_bytes)


def permute_plan(src, dst, shape, element_bytes) -> Plan | None:
    """Same shard shape and the same partial axes: one collective_permute."""
    if set(src.unreduced) != set(dst.unreduced):
        return None
    if any(src.dim_shards(i) != dst.dim_shards(i) for i in range(src.rank)):
        return None
    if all(s.axes == d.axes for s, d in zip(src.dims, dst.dims)):
        return Plan()
    result = from_pieces(dst, [list(d.axes) for d in dst.dims], dst.unreduced)
    return Plan([Step("collective_permute", result,
                      cost=float(local_bytes(src, shape, element_bytes)))])


def regrouped_plan(src, dst, shape, element_bytes) -> Plan | None:
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
    return _by_way_of(from_pieces(src, dims, src.unreduced), src, dst, shape, element_bytes,
                      then=permute_plan)


def through_cleared_axes(src, dst, shape, element_bytes) -> Plan | None:
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
    return _by_way_of(from_pieces(src, dims, unreduced), src, dst, shape, element_bytes,
                      then=general_plan)


def _by_way_of(middle, src, dst, shape, element_bytes, then) -> Plan | None:
    """general_plan from `src` to `middle`, then `then`'s plan on to `dst`; None unless
    both apply."""
    first = general_plan(src, middle, shape, element_bytes)
    second = then(middle, dst, shape, element_bytes)
    if first is None or second is None:
        return None
    return Plan(first.steps + second.steps)


def general_plan(src, dst, shape, element_bytes) -> Plan | None:
    sizes = src.mesh.axes
    size_of = aa.size
    cur, tgt, unreduced, want_unreduced = refine(
        [list(d.axes) for d in src.dims], [list(d.axes) for d in dst.dims],
        list(src.unreduced), list(dst.unreduced), sizes)
    plan = Plan()
    rank = len(cur)

    def current() -> TensorSharding:
        return from_pieces(src, cur, unreduced)

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
        return common_prefix(cur[d], tgt[d])

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


def last_resort_plan(src, dst, shape, element_bytes) -> Plan:
    """Gather (and reduce) everything, then slice to the target."""
    plan = Plan(last_resort=True)
    sizes = src.mesh.axes
    cur = src
    if src.unreduced:
        rest = [a for a in src.unreduced if a not in dst.unreduced]
        n = aa.axes_size(rest, sizes)
        after = from_pieces(src, [list(d.axes) for d in src.dims],
                      [a for a in src.unreduced if a in dst.unreduced])
        before = local_bytes(cur, shape, element_bytes)
        plan.steps.append(Step("all_reduce", after, axes=tuple(rest), group=n,
                               cost=step_bytes("all_reduce", n, before, 0)))
        cur = after
    gathered = [tuple(d.axes) for d in cur.dims]
    if any(gathered):
        full = from_pieces(src, [[] for _ in cur.dims], cur.unreduced)
        n = aa.axes_size([a for g in gathered for a in g], sizes)
        whole = local_bytes(full, shape, element_bytes)
        plan.steps.append(Step("all_gather", full, dim_axes=tuple(gathered), group=n,
                               cost=step_bytes("all_gather", n, 0, whole)))
        cur = full
    if any(d.axes for d in dst.dims):
        plan.steps.append(Step("all_slice", from_pieces(dst, [list(d.axes) for d in dst.dims],
                                                  cur.unreduced),
                               dim_axes=tuple(tuple(d.axes) for d in dst.dims)))
    return plan
