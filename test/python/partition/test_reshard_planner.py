"""The reshard planner (reshard_planner.py, its plan makers in reshard_makers.py, their
steps in reshard_steps.py): cheapest plans on canonical cases, and every plan executed.

`simulate` runs a plan on per-device numpy arrays with exactly the collective semantics
shardpy-to-local lowers to (replica groups from shardpy.sharding.device_groups, all_gather
concatenating in group order, all_to_all splitting/concatenating in group order, ...).
The property test checks, for many random meshes and sharding pairs, that the plan turns
the source layout of a random global array into the target layout.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from shardpy.sharding.device_groups import group_index, permute_rounds, replica_groups
from shardpy.partition.reshard_makers import regrouped_plan
from shardpy.partition.reshard_planner import plan_reshard
from shardpy.partition.reshard_steps import ReshardError
from shardpy.sharding.model import AxisRef, DimSharding, Mesh, TensorSharding


def sharding(mesh, *dims, unreduced=()):
    def ref(a):
        return a if isinstance(a, AxisRef) else AxisRef(a)

    return TensorSharding(mesh, tuple(DimSharding(tuple(map(ref, d))) for d in dims),
                          unreduced=tuple(map(ref, unreduced)), mesh_name="mesh")


MESH_X2_Y4 = Mesh((("x", 2), ("y", 4)))
MESH_X8 = Mesh((("x", 8),))


# --------------------------------------------------------------------------- simulator


def layout(array, s: TensorSharding, rng) -> dict[int, np.ndarray]:
    """Per-device arrays holding `array` in layout `s`. Unreduced: random partials per
    position along the unreduced axes (replicas of a partial hold the same values)."""
    out = {}
    partials: dict = {}  # shard index -> {unreduced index: partial}
    count = 1
    for a in s.unreduced:
        count *= a.size(s.mesh)
    for device in s.mesh.devices:
        piece = array[s.device_slices(array.shape, device)].astype(np.float64)
        if s.unreduced:
            parts = partials.get(s.shard_index(device))
            if parts is None:
                random_parts = [rng.standard_normal(piece.shape) for _ in range(count - 1)]
                parts = random_parts + [piece - sum(random_parts)]
                partials[s.shard_index(device)] = parts
            piece = parts[_flat(s, device)]
        out[device] = piece
    return out


def _flat(s: TensorSharding, device: int) -> int:
    index = 0
    for ref, coordinate in zip(s.unreduced, s.unreduced_index(device)):
        index = index * ref.size(s.mesh) + coordinate
    return index


def simulate(plan, src: TensorSharding, locals_: dict[int, np.ndarray]):
    current = src
    for step in plan.steps:
        mesh = current.mesh
        new = {}
        if step.kind == "all_reduce":
            for group in replica_groups(mesh, step.axes):
                total = sum(locals_[d] for d in group)
                for d in group:
                    new[d] = total
        elif step.kind == "all_gather":
            new = dict(locals_)
            for dim, axes in enumerate(step.dim_axes):
                if not axes:
                    continue
                gathered = {}
                for group in replica_groups(mesh, axes):
                    whole = np.concatenate([new[d] for d in group], axis=dim)
                    for d in group:
                        gathered[d] = whole
                new = gathered
        elif step.kind in ("all_slice", "reduce_scatter"):
            new = dict(locals_)
            for dim, axes in enumerate(step.dim_axes):
                if not axes:
                    continue
                if step.kind == "reduce_scatter":
                    summed = {}
                    for group in replica_groups(mesh, axes):
                        total = sum(new[d] for d in group)
                        for d in group:
                            summed[d] = total
                    new = summed
                n = int(np.prod([a.size(mesh) for a in axes]))
                sliced = {}
                for d, x in new.items():
                    size = x.shape[dim] // n
                    i = group_index(mesh, axes, d)
                    index = [slice(None)] * x.ndim
                    index[dim] = slice(i * size, (i + 1) * size)
                    sliced[d] = x[tuple(index)]
                new = sliced
        elif step.kind == "all_to_all":
            for group in replica_groups(mesh, step.axes):
                n = len(group)
                chunks = {d: np.split(locals_[d], n, axis=step.tgt_dim) for d in group}
                for j, d in enumerate(group):
                    new[d] = np.concatenate([chunks[src][j] for src in group],
                                            axis=step.src_dim)
        elif step.kind == "collective_permute":
            new = permute(current, step.result, locals_)
        elif step.kind == "replicated_to_unreduced":
            for d, x in locals_.items():
                new[d] = x if group_index(mesh, step.axes, d) == 0 else np.zeros_like(x)
        else:
            raise AssertionError(step.kind)
        locals_ = new
        current = step.result
    return locals_


def permute(src, dst, locals_):
    """A collective_permute step (on one mesh or between two): the rounds of pairs
    shardpy-to-local sends, each checked as collective_permute requires (one buffer
    sent and one received per device and round) and for its content (the sender holds
    the block the receiver needs); a device gets its buffer from the round serving it."""
    rounds = permute_rounds(src, dst)
    new = {}
    for i, pairs in enumerate(rounds):
        senders = [s for s, _ in pairs]
        receivers = [r for _, r in pairs]
        assert len(set(senders)) == len(senders) and len(set(receivers)) == len(receivers)
        for sender, receiver in pairs:
            assert src.shard_index(sender) == dst.shard_index(receiver)
            assert receiver not in new
            new[receiver] = locals_[sender]
    assert sorted(new) == sorted(dst.mesh.devices)
    return new


def check_plan(src, dst, shape, seed=0, plan=None):
    """Run `plan` (default: the planner's) on a random array laid out as `src` and check
    every device ends up with its part of `dst`."""
    rng = np.random.default_rng(seed)
    array = rng.standard_normal(shape)
    plan = plan if plan is not None else plan_reshard(src, dst, shape)
    if plan.steps:
        assert plan.steps[-1].result.mesh == dst.mesh
    for before, step in zip([src] + [s.result for s in plan.steps], plan.steps):
        # Only a collective_permute step changes meshes.
        assert step.kind == "collective_permute" or step.result.mesh == before.mesh
    out = simulate(plan, src, layout(array, src, rng))
    want = layout(array, dst, rng) if not dst.unreduced else None
    for d in dst.mesh.devices:
        if want is not None:
            np.testing.assert_allclose(out[d], want[d], err_msg=f"device {d}")
    if dst.unreduced:  # partial results: sums over the unreduced groups give the array
        for device in dst.mesh.devices:
            group = next(g for g in replica_groups(dst.mesh, dst.unreduced) if device in g)
            total = sum(out[d] for d in group)
            np.testing.assert_allclose(total, array[dst.device_slices(shape, device)])
    return plan


# --------------------------------------------------------------------------- canonical plans


def kinds(plan):
    return [s.kind for s in plan.steps]


def test_same_sharding_needs_nothing():
    s = sharding(MESH_X2_Y4, ["x"], [])
    assert kinds(check_plan(s, s, (8, 8))) == []


def test_dropping_an_axis_is_one_all_gather():
    plan = check_plan(sharding(MESH_X2_Y4, ["x", "y"], []), sharding(MESH_X2_Y4, ["x"], []),
                      (16, 8))
    assert kinds(plan) == ["all_gather"]
    assert plan.steps[0].dim_axes == ((AxisRef("y"),), ())


def test_adding_an_axis_is_a_local_slice():
    plan = check_plan(sharding(MESH_X2_Y4, [], []), sharding(MESH_X2_Y4, [], ["y"]), (8, 8))
    assert kinds(plan) == ["all_slice"] and plan.cost == 0


def test_moving_an_axis_between_dims_is_all_to_all():
    plan = check_plan(sharding(MESH_X2_Y4, ["y"], []), sharding(MESH_X2_Y4, [], ["y"]), (8, 8))
    assert kinds(plan) == ["all_to_all"]


def test_swapping_axes_is_a_collective_permute():
    plan = check_plan(sharding(MESH_X8, [AxisRef("x", (1, 2))], [AxisRef("x", (2, 4))]),
                      sharding(MESH_X8, [AxisRef("x", (4, 2))], [AxisRef("x", (1, 4))]),
                      (8, 8))
    assert kinds(plan) in (["collective_permute"],)


def test_swapping_axes_of_different_sizes_is_all_to_all_then_permute():
    # x=2 and y=4 trade dims: the minor half of "y" joins dim 0 (4 x 2 shards, as the
    # target has), then each shard goes to its device. Gathering both and slicing
    # moved 7/8 of the whole array per device (224 B here) against 48 B.
    src = sharding(MESH_X2_Y4, ["x"], ["y"])
    dst = sharding(MESH_X2_Y4, ["y"], ["x"])
    plan = check_plan(src, dst, (8, 8))
    assert kinds(plan) == ["all_to_all", "collective_permute"]
    assert plan.steps[0].axes == (AxisRef("y", (2, 2)),)
    assert plan.cost == pytest.approx(0.5 * 32 + 32)


def test_a_swap_is_ranked_by_time_gathered_small_regrouped_large():
    # By the shipped cpu profile: an all_to_all and a collective_permute take ~0.4 ms of
    # latency, one all_gather ~0.1-0.3 ms. On an 8x8 array the gather is faster; on a
    # 1024x1024 one the 3.5 MiB it moves per device take longer than the regrouping's
    # 0.75 MiB. Bytes alone (no model) regroup at any size.
    from shardpy.sharding.collective_time import load_profile

    model = load_profile("cpu")
    src = sharding(MESH_X2_Y4, ["x"], ["y"])
    dst = sharding(MESH_X2_Y4, ["y"], ["x"])
    small = plan_reshard(src, dst, (8, 8), model=model)
    assert "all_to_all" not in kinds(small) and "all_gather" in kinds(small)
    assert small.time(model) < plan_reshard(src, dst, (8, 8)).time(model)
    large = plan_reshard(src, dst, (1024, 1024), model=model)
    assert kinds(large) == ["all_to_all", "collective_permute"]
    assert kinds(plan_reshard(src, dst, (8, 8))) == ["all_to_all", "collective_permute"]


def test_regrouping_splits_the_surplus_of_one_dim_over_several():
    # 8 shards on dim 0 become 2 x 4: the surplus leaves dim 0 minor-most first.
    src = sharding(MESH_X2_Y4, ["x", "y"], [], [])
    dst = sharding(MESH_X2_Y4, [], ["x"], ["y"])
    plan = check_plan(src, dst, (8, 8, 8))
    assert "all_gather" not in kinds(plan)


@pytest.mark.parametrize("seed", range(60))
def test_random_regroupings_reach_the_target_and_beat_gathering(seed):
    # The same refs placed on other dims: as many shards in all, so the regrouped
    # plan (moves, then a permute) applies wherever its sizes divide.
    rng = random.Random(seed)
    mesh = rng.choice(MESHES)
    rank = rng.randint(2, 3)
    src = random_sharding(mesh, rng, rank, allow_unreduced=False)
    refs = src.all_axes()
    dims = [[] for _ in range(rank)]
    for ref in refs:
        dims[rng.randrange(rank)].append(ref)
    for d in dims:
        rng.shuffle(d)
    dst = TensorSharding(mesh, tuple(DimSharding(tuple(d)) for d in dims), mesh_name="mesh")
    shape = tuple(8 * rng.choice([1, 2]) for _ in range(rank))
    plan = check_plan(src, dst, shape, seed)
    regrouped = regrouped_plan(src, dst, shape, 4)
    if regrouped is not None:  # run on its own too, even where another plan won
        check_plan(src, dst, shape, seed, regrouped)
        assert "all_gather" not in kinds(plan) and plan.cost <= regrouped.cost


def test_device_order_change_is_a_collective_permute():
    plan = check_plan(sharding(MESH_X2_Y4, ["x", "y"], []), sharding(MESH_X2_Y4, ["y", "x"], []),
                      (16, 4))
    assert kinds(plan) == ["collective_permute"]


def test_unreduced_to_replicated_is_all_reduce():
    plan = check_plan(sharding(MESH_X2_Y4, ["x"], [], unreduced=["y"]),
                      sharding(MESH_X2_Y4, ["x"], []), (8, 8))
    assert kinds(plan) == ["all_reduce"]


def test_unreduced_to_sharded_is_reduce_scatter():
    plan = check_plan(sharding(MESH_X2_Y4, ["x"], [], unreduced=["y"]),
                      sharding(MESH_X2_Y4, ["x"], ["y"]), (8, 8))
    assert kinds(plan) == ["reduce_scatter"]


def test_replicated_to_unreduced_is_local():
    plan = check_plan(sharding(MESH_X2_Y4, ["x"], []),
                      sharding(MESH_X2_Y4, ["x"], [], unreduced=["y"]), (8, 8))
    assert kinds(plan) == ["replicated_to_unreduced"] and plan.cost == 0


def test_sub_axis_prefix_is_a_partial_gather():
    plan = check_plan(sharding(MESH_X8, ["x"], []), sharding(MESH_X8, [AxisRef("x", (1, 2))], []),
                      (16, 4))
    assert kinds(plan) == ["all_gather"]
    assert plan.steps[0].dim_axes[0] == (AxisRef("x", (2, 4)),)


def test_costs_follow_the_model():
    # all_gather of "y" (n=4) to a [4, 8] f32 local buffer of 128 bytes: 3/4 * 128.
    plan = plan_reshard(sharding(MESH_X2_Y4, ["x", "y"], []), sharding(MESH_X2_Y4, ["x"], []),
                        (8, 8))
    assert plan.cost == pytest.approx(0.75 * 4 * 8 * 4)
    # 4 rows over "x","y" (8 shards of 1: x=0 holds all 4) do not line up with 4 over
    # "x" (2 + 2): gathered whole (all 8 devices: 7/8 of a [4, 8] buffer), then sliced.
    plan = plan_reshard(sharding(MESH_X2_Y4, ["x", "y"], []), sharding(MESH_X2_Y4, ["x"], []),
                        (4, 8))
    assert [s.kind for s in plan.steps] == ["all_gather", "all_slice"]
    assert plan.cost == pytest.approx(7 / 8 * 4 * 8 * 4)
    # all_reduce over "y" (n=4) of a [4, 8] local buffer: 2 * 3/4 * 128.
    plan = plan_reshard(sharding(MESH_X2_Y4, [], [], unreduced=["y"]),
                        sharding(MESH_X2_Y4, [], []), (4, 8))
    assert plan.cost == pytest.approx(2 * 0.75 * 4 * 8 * 4)


# --------------------------------------------------------------------------- property


def random_sharding(mesh, rng: random.Random, rank: int, allow_unreduced: bool):
    refs = []
    for name, size in mesh.axes:
        if size >= 4 and rng.random() < 0.4:
            refs += [AxisRef(name, (1, 2)), AxisRef(name, (2, size // 2))]
        else:
            refs.append(AxisRef(name))
    return placed(refs, mesh, rng, rank, allow_unreduced, (0.5, 0.65))


def placed(refs, mesh, rng, rank, allow_unreduced, odds) -> TensorSharding:
    """`refs` shuffled, each on a random dim (below odds[0]), partial (below odds[1]) or
    unused."""
    rng.shuffle(refs)
    dims = [[] for _ in range(rank)]
    unreduced = []
    for ref in refs:
        choice = rng.random()
        if choice < odds[0]:
            dims[rng.randrange(rank)].append(ref)
        elif choice < odds[1] and allow_unreduced:
            unreduced.append(ref)
    return TensorSharding(mesh, tuple(DimSharding(tuple(d)) for d in dims),
                          unreduced=tuple(unreduced), mesh_name="mesh")


MESHES = [MESH_X2_Y4, MESH_X8, Mesh((("a", 2), ("b", 2), ("c", 2))),
          Mesh((("x", 4), ("y", 2)), (7, 6, 5, 4, 3, 2, 1, 0)), Mesh((("x", 2), ("y", 4)), (0, 4, 1, 5, 2, 6, 3, 7))]


@pytest.mark.parametrize("seed", range(200))
def test_random_plans_reach_the_target_layout(seed):
    rng = random.Random(seed)
    mesh = rng.choice(MESHES)
    rank = rng.randint(1, 3)
    src = random_sharding(mesh, rng, rank, allow_unreduced=True)
    dst = random_sharding(mesh, rng, rank, allow_unreduced=False)
    keep = [a for a in src.unreduced if rng.random() < 0.3]
    used = [a for d in dst.dims for a in d.axes] + keep
    spare = [AxisRef(n) for n, _ in mesh.axes
             if not any(u.name == n for u in used + list(src.unreduced))]
    keep += [a for a in spare if rng.random() < 0.3]  # partial values made from whole ones
    candidate = TensorSharding(mesh, dst.dims, unreduced=tuple(keep), mesh_name="mesh")
    try:
        candidate.validate()
        dst = candidate
    except ValueError:  # a kept partial axis overlaps an axis the target shards on
        pass
    shape = tuple(8 * rng.choice([1, 2]) for _ in range(rank))
    check_plan(src, dst, shape, seed)


def _random_pair(seed):
    """(rng, mesh, rank, src, dst, model) of a random pair of one mesh: even or odd
    (sub-axes of several decompositions) meshes, partial sources; costed by bytes on
    even seeds, by the cpu time model on odd ones."""
    from shardpy.sharding.collective_time import load_profile

    rng = random.Random(seed)
    mesh = rng.choice(MESHES + ODD_MESHES)
    rank = rng.randint(1, 3)
    make = random_sharding if mesh in MESHES else random_decomposed_sharding
    src = make(mesh, rng, rank, allow_unreduced=True)
    dst = make(mesh, rng, rank, allow_unreduced=rng.random() < 0.3)
    return rng, mesh, rank, src, dst, load_profile("cpu") if seed % 2 else None


@pytest.mark.parametrize("seed", range(60))
def test_plans_reused_across_shapes_are_the_plans_made_for_each(seed):
    # The planner keeps a pair's plan steps per _shape_key and costs them again for each
    # shape: the same plans, bytes and times, as planning from nothing for that shape
    # (even, uneven and size-1 dims; by bytes and by the cpu time model).
    from shardpy.partition import reshard_planner as rp

    rng, mesh, rank, src, dst, model = _random_pair(seed)
    shapes = [tuple(rng.choice([1, 2, 3, 6, 8, 12, 24, 40]) * rng.choice([1, 8])
                    for _ in range(rank)) for _ in range(6)]

    def plans(reuse: bool):
        out = []
        rp._SHAPED.clear()
        for shape in shapes:
            rp._PLANS.clear()
            if not reuse:
                rp._SHAPED.clear()
            try:
                plan = rp.plan_reshard(src, dst, shape, 2, model=model)
            except ReshardError as err:
                out.append(str(err))
                continue
            out.append((plan.last_resort, plan.steps, plan.time(model) if model else 0))
        return out

    assert plans(reuse=True) == plans(reuse=False)


@pytest.mark.parametrize("seed", range(60))
def test_costed_pairs_cost_what_the_whole_pair_costs(seed):
    # costed_pair drops the dims neither side shards (their elements folded into the
    # element bytes): the plan found for the smaller pair has the whole pair's bytes,
    # time, peak and collectives (even, uneven, size-1 and empty dims; by bytes and by
    # the cpu time model), so the choice may cost moves by it.
    from shardpy.partition import reshard_planner as rp

    rng, mesh, rank, src, dst, model = _random_pair(seed)
    shape = [rng.choice([1, 2, 3, 6, 8, 12, 24, 40]) * rng.choice([1, 8]) for _ in range(rank)]
    src_dims, dst_dims = list(src.dims), list(dst.dims)
    for _ in range(rng.randint(1, 2)):  # dims neither side shards, anywhere
        at = rng.randint(0, len(shape))
        src_dims.insert(at, DimSharding())
        dst_dims.insert(at, DimSharding())
        shape.insert(at, rng.choice([0, 1, 3, 5, 64]))
    src = TensorSharding(mesh, tuple(src_dims), unreduced=src.unreduced, mesh_name="mesh")
    dst = TensorSharding(mesh, tuple(dst_dims), unreduced=dst.unreduced, mesh_name="mesh")
    shape = tuple(shape)
    reduced = rp.costed_pair(src, dst, shape, 2)
    assert reduced[0].rank == reduced[1].rank == len(reduced[2]) < len(shape)

    def costs(pair):
        rp._PLANS.clear()
        rp._SHAPED.clear()
        try:
            plan = rp.plan_reshard(*pair, model=model)
        except ReshardError as err:
            return str(err)
        return (plan.last_resort, plan.cost, plan.time(model) if model else 0,
                rp._peak_bytes(plan, pair[0], pair[2], pair[3]),
                [(s.kind, s.group, s.cost) for s in plan.steps])

    assert costs(reduced) == costs((src, dst, shape, 2))


# --------------------------------------------------------------------------- issue 19
# Sub-axes of different decompositions of one axis: on "a"=6, "a":(1)2 is the major
# digit of 2*3 and "a":(3)2 the minor digit of 3*2. No finer sub-axes express both.

MESH_A6 = Mesh((("a", 6),))


def test_sub_axes_of_two_decompositions_go_through_the_whole_axis():
    # The wrong answer: dim 0 on "a":(1)2 to dim 1 on "a":(3)2.
    src = sharding(MESH_A6, [AxisRef("a", (1, 2))], [])
    dst = sharding(MESH_A6, [], [AxisRef("a", (3, 2))])
    plan = plan_reshard(src, dst, (4, 6))
    assert [s.kind for s in plan.steps] == ["all_gather", "all_slice"]
    check_plan(src, dst, (4, 6), 0)


def test_sub_axes_that_overlap_across_decompositions_make_no_size_one_sub_axis():
    # "a":(1)3 and "a":(2)3 overlap on [2, 3): refining them made "a":(2)1.
    src = sharding(MESH_A6, [AxisRef("a", (1, 3))], [])
    dst = sharding(MESH_A6, [], [AxisRef("a", (2, 3))])
    plan = plan_reshard(src, dst, (6, 6))
    for step in plan.steps:
        step.result.validate((6, 6))
    check_plan(src, dst, (6, 6), 0)


def test_same_shard_counts_in_two_decompositions_are_one_collective_permute():
    src = sharding(MESH_A6, [AxisRef("a", (1, 2))], [])
    dst = sharding(MESH_A6, [AxisRef("a", (3, 2))], [])
    plan = plan_reshard(src, dst, (6, 6))
    assert [s.kind for s in plan.steps] == ["collective_permute"]
    check_plan(src, dst, (6, 6), 0)


def test_partial_sums_over_another_decomposition_are_summed_first():
    src = sharding(MESH_A6, [], [], unreduced=[AxisRef("a", (1, 2))])
    dst = sharding(MESH_A6, [AxisRef("a", (3, 2))], [])
    plan = plan_reshard(src, dst, (6, 6))
    for step in plan.steps:
        step.result.validate((6, 6))
    check_plan(src, dst, (6, 6), 0)


def _decomposition_refs(name, size, rng):
    """The pieces of one random decomposition of an axis: a chain of divisors from 1 to
    size, each step a sub-axis (or the whole axis)."""
    points = [1]
    while points[-1] < size:
        rest = size // points[-1]
        factor = rng.choice([f for f in range(2, rest + 1) if rest % f == 0])
        points.append(points[-1] * factor)
    return [AxisRef(name) if (lo, hi) == (1, size) else AxisRef(name, (lo, hi // lo))
            for lo, hi in zip(points, points[1:])]


def random_decomposed_sharding(mesh, rng, rank, allow_unreduced):
    """Each axis split by a random decomposition; each piece on a random dim, partial
    (unreduced) or unused. Two calls give sub-axes of different decompositions."""
    refs = [r for name, size in mesh.axes for r in _decomposition_refs(name, size, rng)]
    s = placed(refs, mesh, rng, rank, allow_unreduced, (0.55, 0.7))
    from shardpy.partition.layouts import plain  # merges consecutive sub-axes, as sdy wants

    return plain(s, s.dims, s.unreduced)


ODD_MESHES = [Mesh((("a", 6),)), Mesh((("a", 12),)), Mesh((("a", 30),)),
              Mesh((("a", 6), ("b", 2))), Mesh((("a", 10),), (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)),
              Mesh((("a", 2), ("b", 18)))]


@pytest.mark.parametrize("seed", range(300))
def test_plans_between_decompositions_reach_the_target_layout(seed):
    rng = random.Random(seed)
    mesh = rng.choice(ODD_MESHES)
    rank = rng.randint(1, 3)
    src = random_decomposed_sharding(mesh, rng, rank, allow_unreduced=True)
    dst = random_decomposed_sharding(mesh, rng, rank, allow_unreduced=rng.random() < 0.3)
    src.validate()
    dst.validate()
    shape = (mesh.size,) * rank  # the simulator takes even shards
    plan = plan_reshard(src, dst, shape)
    for step in plan.steps:
        step.result.validate(shape)  # every intermediate layout is one sdy accepts
    check_plan(src, dst, shape, seed)


# --------------------------------------------------------------------------- between meshes


def on(mesh, name, *dims, unreduced=()):
    s = sharding(mesh, *dims, unreduced=unreduced)
    return TensorSharding(s.mesh, s.dims, unreduced=s.unreduced, mesh_name=name)


MESH_D2_T4 = Mesh((("d", 2), ("t", 4)))
MESH_D2 = Mesh((("d", 2),))
MESH_R3_C2 = Mesh((("r", 3), ("c", 2)))
MESH_R3_C2_REVERSED = Mesh((("r", 3), ("c", 2)), (5, 4, 3, 2, 1, 0))


def test_subset_mesh_with_as_many_shards_is_one_permute():
    # Issue 20: rows 4..7 live on devices 4..7 of @m8, but on device 1 of @m2.
    plan = check_plan(on(MESH_D2_T4, "m8", ["d"], []), on(MESH_D2, "m2", ["d"], []), (8, 16))
    assert kinds(plan) == ["collective_permute"]
    assert permute_rounds(on(MESH_D2_T4, "m8", ["d"], []), on(MESH_D2, "m2", ["d"], [])) \
        == [((0, 0), (4, 1))]


def test_device_order_is_one_permute():
    # Issue 21: the same axes, devices in reverse order.
    src, dst = on(MESH_R3_C2, "plain", ["r"], []), on(MESH_R3_C2_REVERSED, "reversed", ["r"], [])
    plan = check_plan(src, dst, (12, 4))
    assert kinds(plan) == ["collective_permute"] and plan.cost == 4 * 4 * 4
    assert all(len(r) == 6 for r in permute_rounds(src, dst))


def test_axis_names_only_is_a_relabel():
    plan = check_plan(on(MESH_X2_Y4, "a", ["x"], ["y"]),
                      on(Mesh((("p", 2), ("q", 4))), "b", ["p"], ["q"]), (8, 8))
    assert kinds(plan) == ["collective_permute"] and plan.cost == 0


def test_same_mesh_under_two_names_needs_nothing():
    assert kinds(check_plan(on(MESH_X2_Y4, "a", ["x"], []), on(MESH_X2_Y4, "b", ["x"], []),
                            (8, 8))) == []


def test_partial_values_are_reduced_before_crossing():
    plan = check_plan(on(MESH_X2_Y4, "a", ["x"], [], unreduced=["y"]),
                      on(MESH_D2, "b", [], ["d"]), (8, 8))
    assert kinds(plan)[0] in ("all_reduce", "reduce_scatter")
    assert plan.steps[-1].result.mesh == MESH_D2


def test_larger_target_mesh_takes_rounds():
    src, dst = on(MESH_D2, "m2", [], []), on(MESH_X2_Y4, "m8", [], [])
    rounds = permute_rounds(src, dst)
    assert rounds[0] == ((0, 0), (1, 1)) and len(rounds) == 4
    check_plan(src, dst, (8, 8))
    check_plan(on(MESH_D2, "m2", ["d"], []), on(MESH_X2_Y4, "m8", ["y"], ["x"]), (8, 8))


def test_empty_mesh_is_every_device():
    empty = TensorSharding.replicated_on(Mesh(), 2, "empty")
    rounds = permute_rounds(empty, on(MESH_X2_Y4, "a", [], []), 8)
    assert len(rounds) == 1 and all(s == r for s, r in rounds[0])  # nothing moves
    rounds = permute_rounds(on(MESH_D2, "b", [], []), empty, 8)
    assert sorted(r for pairs in rounds for _, r in pairs) == list(range(8))


CROSS_MESHES = [MESH_X2_Y4, Mesh((("x", 2), ("y", 4)), (7, 6, 5, 4, 3, 2, 1, 0)),
                Mesh((("p", 2), ("q", 4))), Mesh((("a", 4), ("b", 2)), (0, 4, 1, 5, 2, 6, 3, 7)),
                MESH_X8, Mesh((("x", 2), ("y", 2))), MESH_D2, Mesh((("z", 4),), (3, 1, 2, 0))]


@pytest.mark.parametrize("seed", range(200))
def test_random_cross_mesh_plans_reach_the_target_layout(seed):
    rng = random.Random(seed)
    src_mesh, dst_mesh = rng.sample(CROSS_MESHES, 2)
    rank = rng.randint(1, 3)
    src = random_sharding(src_mesh, rng, rank, allow_unreduced=True)
    dst = random_sharding(dst_mesh, rng, rank, allow_unreduced=rng.random() < 0.3)
    src = TensorSharding(src.mesh, src.dims, unreduced=src.unreduced, mesh_name="src")
    dst = TensorSharding(dst.mesh, dst.dims, unreduced=dst.unreduced, mesh_name="dst")
    shape = tuple(8 * rng.choice([1, 2]) for _ in range(rank))
    check_plan(src, dst, shape, seed)
