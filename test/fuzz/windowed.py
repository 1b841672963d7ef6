"""Random programs of one windowed op on sharded dims, for the halo-exchange property
test (test/python/lowering/test_windowed.py) and by hand:

    python test/fuzz/windowed.py --seed 7            # print program 7
    python test/fuzz/windowed.py --seed 7 > p.mlir && shardpy-run p.mlir --check

Ops: pad, slice, reverse, concatenate (a roll: slices of one array), reduce_window
(pooling windows), its cumulative form (jnp.cumsum, cumprod and friends, both
directions), select_and_scatter and convolution. The op itself is written by the
fuzzer's one emitter of that op (generate.FuncBuilder's `op_<kind>_random`,
ops_issue6.py) in its richer form (rich=True: what `--enable rich_windowed` draws in
the fuzzer); this driver only chooses what the property test needs around it: a mesh
of 8 devices, operand shapes whose dims the mesh axes often divide, and random
shardings of every argument and (half the time) of the result that only put axes
where they divide the dim, large dims first: sharded windowed dims are what is being
tested.
"""
from __future__ import annotations

import argparse
import sys

import generate
import known_issues

MESHES = ((("x", 2), ("y", 4)), (("x", 8),), (("x", 2), ("y", 2), ("z", 2)),
          (("x", 4), ("y", 2)))
# op -> (FuncBuilder emitter, its arguments, ranks of the operand this driver makes;
# convolution makes its own operands). The emitters' richer forms (rich=True, what
# Features.rich_windowed draws in the fuzzer) put halos where this test needs them.
EMITTERS = {
    "pad": ("op_pad_random", {"rich": True}, (1, 2)),
    "slice": ("op_slice_random", {"rich": True}, (1, 2)),
    "reverse": ("op_reverse_random", {}, (1, 2, 3)),
    "concatenate": ("op_concatenate_random", {"rich": True}, (1, 2)),  # a roll
    "reduce_window": ("op_reduce_window_random", {"form": "pooling", "rich": True}, (1, 2, 3)),
    "cumulative": ("op_reduce_window_random", {"form": "cumulative", "rich": True}, (1, 2)),
    "select_and_scatter": ("op_select_and_scatter_random", {"rich": True}, (1, 2, 3)),
    "convolution": ("op_convolution_random", {"rich": True}, ()),
}
OPS = tuple(EMITTERS)
# Constraints off: the program is the op and its operands (a constraint would reshard
# the result before the one this driver draws). Known issues off, as in
# `run_fuzz.py --disable known`.
FEATURES = generate.Features().without(["constraints", *known_issues.DISABLED])


class OneOpMain(generate.FuncBuilder):
    """@main of the one op: every operand its emitter asks for is a new argument (never
    an iota or a constant), so that all of them get shardings."""

    def value_of(self, shape, dtype: str, *, allow_existing: bool = True):
        return self.new_arg(shape, dtype)


def sharding(gen: generate.Generator, shape, spread: float = 0.6) -> str:
    """A random sharding of `shape`: each axis (sometimes a sub-axis of a size-4 axis)
    goes to one dim, or none; only placements that divide the dim are kept."""
    rng = gen.rng
    dims = [[] for _ in shape]
    refs = []
    for name, size in gen.mesh:
        if size == 4 and rng.random() < 0.35:
            refs.append((name, rng.choice([(1, 2), (2, 2)]), 2))
        else:
            refs.append((name, None, size))
    rng.shuffle(refs)
    order = list(range(len(shape)))
    for ref in refs:
        if rng.random() > spread:
            continue
        rng.shuffle(order)
        if rng.random() < 0.7:  # large dims first: mostly the windowed ones (spatial dims)
            order.sort(key=lambda d: -shape[d])
        for d in order:
            shards = 1
            for a in dims[d]:
                shards *= a[2]
            if shape[d] % (shards * ref[2]) == 0:
                dims[d].append(ref)
                break
    # Axes of a dim in mesh order (either order is valid; mesh order is common).
    index = {n: i for i, (n, _) in enumerate(gen.mesh)}
    for d in dims:
        if rng.random() < 0.7:
            d.sort(key=lambda a: index[a[0]])

    def text(ref):
        name, sub, _ = ref
        return f'"{name}"' + (f":({sub[0]}){sub[1]}" if sub else "")

    body = ", ".join("{" + ", ".join(text(a) for a in d) + "}" for d in dims)
    return f"#sdy.sharding<@mesh, [{body}]>"


def program(seed: int, op: str | None = None) -> tuple[str, str]:
    """(op name, module text) of program `seed` (of op `op`, else a random one)."""
    gen = generate.Generator(seed, FEATURES)
    rng = gen.rng
    gen.mesh = rng.choice(MESHES)
    gen.device_ids = None
    gen.shardings = generate.ShardingMaker(rng, gen.mesh, FEATURES)
    op = op or rng.choice(OPS)
    emitter, kwargs, ranks = EMITTERS[op]
    while True:  # until the emitter finds an operand it fits (it returns None if not)
        main = OneOpMain(gen, "main", is_main=True, max_args=8)
        if ranks:
            shape = [rng.choice([8, 8, 16, 16, 24, 32, 4, 12])
                     for _ in range(rng.choice(ranks))]
            main.new_arg(shape, "f32")
        result = getattr(main, emitter)(**kwargs)
        if result is not None:
            break
    main.args = [(v, sharding(gen, v.shape)) for v, _ in main.args]
    out = sharding(gen, result.shape) if rng.random() < 0.5 else None
    main.finish([result], [out])
    return op, gen.module_text(main, f"{op}, seed {seed}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--op", choices=OPS)
    args = parser.parse_args(argv)
    sys.stdout.write(program(args.seed, args.op)[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
