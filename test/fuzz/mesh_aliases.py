"""The `mesh_aliases` feature: shardings that name @mesh by another name, or no mesh.

A program that draws it (about 1 in 8, from an RNG of its own: programs that do not
draw it are the same as without the feature) declares

    sdy.mesh @alias = <(@mesh's axes, device_ids)>      the same mesh, another name
    sdy.mesh @empty = <[]>                              the empty mesh

and, after every other rewrite of the text (second_mesh.py looks for "<@mesh," and must
still find them), names @alias instead of @mesh in some lines' shardings, and writes
some shardings that say "replicated" on @empty: a value on `<@empty, [{}, {}]>` is
replicated on whatever mesh its users are on. Shardy treats both as @mesh; so must
shardpy (an op then reads values "of two meshes" that are one). The shardings of
manual computations keep @mesh (their manual axes are @mesh's).
"""
from __future__ import annotations

import random
import re

PROBABILITY = 1 / 8
ALIAS = "alias"
EMPTY = "empty"
_REPLICATED = re.compile(r"<@mesh, \[(\{\}(, \{\})*)?\]>")


def draws(seed: int) -> bool:
    return random.Random(f"mesh_aliases {seed}").random() < PROBABILITY


def apply(text: str, gen) -> str:
    """`text` with the aliases, or as it is where the program does not draw them."""
    if not draws(gen.seed):
        return text
    rng = random.Random(f"mesh_aliases body {gen.seed}")
    out = []
    for line in text.split("\n"):
        if line.startswith("  sdy.mesh @mesh ="):
            out += [line, line.replace("@mesh =", f"@{ALIAS} =", 1),
                    f"  sdy.mesh @{EMPTY} = <[]>"]
            continue
        if "<@mesh, [" not in line or "manual_computation" in line:
            out.append(line)
            continue
        if line.count("<@mesh, [") == 1 and _REPLICATED.search(line) and rng.random() < 0.5:
            line = _REPLICATED.sub(lambda m: m.group(0).replace("@mesh", f"@{EMPTY}"), line)
        elif rng.random() < 0.4:
            line = line.replace("<@mesh, [", f"<@{ALIAS}, [")
        out.append(line)
    return "\n".join(out)
