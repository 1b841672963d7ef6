"""Speed machinery of shardpy-propagate that is not about rules (for those see
rule_cache.py), kept here so that the algorithm in propagate.py reads plainly.

Why any of it: propagation runs on modules of tens of thousands of ops (bench/README.md,
"Timing"), where Python's per-object and per-call costs dominate. Nothing here changes
a result: each trick only skips work whose outcome is known.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from operator import attrgetter
from typing import Iterator


# A dict.get default that no cached value can be (None is a cached "no rule").
_MISSING = object()

# Shared by every node without views (never written to): one empty dict instead of one
# per node.
_NO_VIEWS: dict = {}


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block (as it was before, afterwards).

    The graph is hundreds of thousands of small objects without cycles: the cyclic
    garbage collector would only walk them again and again while they are built."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


# Node categories whose visits move the same factors the same ways at every level (all
# factors both ways, or as a propagation barrier allows): one memo entry serves every
# level, and a settled such node need not be visited again at the next level.
LEVEL_FREE = frozenset({"pass_through", "barrier"})
# Categories that move nothing at level 0 (only pass-through and forward-only ops do,
# and of those only the ones no operand of which is shared: NodeMasks' `shared`).
_IDLE_AT_LEVEL_0 = ("other", "broadcast")


class NodeMasks:
    """Per-node flags of a graph's nodes, one byte each (0 or 1), built once for the
    worklist, so that the start of each level combines them with one bitwise operation
    on ints (byte i of the big-endian bytes is node i) instead of one test per node."""

    def __init__(self, nodes: list, irregular: list[int], shared: bytes | None = None):
        """`shared`: per node, 1 where an operand with several uses defers it to level 1
        (Propagator._shared_operands); None: no node is deferred."""
        n = len(nodes)
        # (map over C functions: no Python frame per node)
        categories = list(map(attrgetter("category"), nodes))
        self.level_free = bytes(map(LEVEL_FREE.__contains__, categories))
        plain = bytearray(b"\x01") * n
        for index in irregular:
            plain[index] = 0
        self.plain = bytes(plain)  # no views, every slot a tensor: visited inline
        self._inert_bits = int.from_bytes(bytes(map(attrgetter("inert"), nodes)), "big")
        idle0 = bytes(map(_IDLE_AT_LEVEL_0.__contains__, categories))
        if shared is not None:
            idle0 = bytes(a | b for a, b in zip(idle0, shared))
        self.idle0 = idle0  # per node: moves nothing at level 0
        self._idle0_bits = int.from_bytes(idle0, "big")
        self._ones_bits = int.from_bytes(b"\x01" * n, "big")  # every node

    def in_worklist(self, level: int | None) -> bytes:
        """Per node, 1 where a level's worklist holds it at the start, in program order
        (as Shardy's greedy driver holds every op): all but inert nodes and, at level 0,
        the nodes that move nothing there. Settled level-free nodes are held too, though
        their visits are skipped while settled (their last visit changed nothing and no
        slot of theirs changed since): held, a change next to one leaves it in its place
        instead of putting it on top, and the order of visits is Shardy's."""
        left_out = self._inert_bits | (self._idle0_bits if level == 0 else 0)
        return (self._ones_bits ^ left_out).to_bytes(len(self.plain), "big")
