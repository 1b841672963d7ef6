"""Relations between axis refs of one mesh: prefix, containment, overlap, merging.

An axis ref covers a multiplicative interval of its axis: the full axis "x" (size n)
covers [1, n), the sub-axis "x":(m)k covers [m, m*k). Two refs of the same axis:
  * overlap      when their intervals intersect,
  * a prefixOf b when they start together and a ends first (or at the same place),
  * a contains b when b's interval lies inside a's.
Sub-axes "x":(1)2 and "x":(2)2 are consecutive and merge into "x" (when x has size 4).

Sub-axes of one axis may come from different decompositions of it: on "x"=6,
"x":(1)2 is the major digit of 6 = 2*3 (coordinate // 3) and "x":(3)2 the minor digit
of 6 = 3*2 (coordinate % 2). Their intervals [1, 2) and [3, 6) do not intersect, yet
the two digits are not independent (devices 0 and 2 agree on both), so one tensor
cannot be sharded on both. Two refs *coexist* when the end points of both intervals
divide each other in order (they then lie in one decomposition, as Shardy requires);
refs that overlap or do not coexist *conflict*.

All functions take the mesh's axis sizes (`Mesh.axis_sizes`) and are memoised: meshes
have few axes, so propagation asks the same questions many times.
"""
from __future__ import annotations

from functools import lru_cache

from .model import AxisRef

Sizes = tuple[tuple[str, int], ...]  # hashable form of Mesh.axes


def _size_of(sizes: Sizes, name: str) -> int:
    for axis, size in sizes:
        if axis == name:
            return size
    raise KeyError(name)


def span(ref: AxisRef, sizes: Sizes) -> tuple[int, int]:
    if ref.sub is None:
        return 1, _size_of(sizes, ref.name)
    return ref.sub[0], ref.sub[0] * ref.sub[1]


def from_span(name: str, lo: int, hi: int, sizes: Sizes) -> AxisRef:
    if lo == 1 and hi == _size_of(sizes, name):
        return AxisRef(name)
    return AxisRef(name, (lo, hi // lo))


@lru_cache(maxsize=None)
def size(ref: AxisRef, sizes: Sizes) -> int:
    lo, hi = span(ref, sizes)
    return hi // lo


@lru_cache(maxsize=None)
def overlaps(a: AxisRef, b: AxisRef, sizes: Sizes) -> bool:
    if a.name != b.name:
        return False
    lo1, hi1 = span(a, sizes)
    lo2, hi2 = span(b, sizes)
    return max(lo1, lo2) < min(hi1, hi2)


@lru_cache(maxsize=None)
def can_coexist(a: AxisRef, b: AxisRef, sizes: Sizes) -> bool:
    """Do a and b lie in one decomposition of their axis (always, for two axes)? The
    end points of both intervals, sorted, must each divide the next."""
    return a.name != b.name or chain((a, b), sizes)


@lru_cache(maxsize=None)
def conflicts(a: AxisRef, b: AxisRef, sizes: Sizes) -> bool:
    """a and b cannot shard one tensor together: they overlap or do not coexist."""
    return a.name == b.name and (overlaps(a, b, sizes) or not can_coexist(a, b, sizes))


def chain(refs, sizes: Sizes) -> bool:
    """Do all `refs` lie in one decomposition of each of their axes?"""
    points: dict[str, set[int]] = {}
    for ref in refs:
        points.setdefault(ref.name, set()).update(span(ref, sizes))
    for cuts in points.values():
        ordered = sorted(cuts)
        if any(hi % lo for lo, hi in zip(ordered, ordered[1:])):
            return False
    return True


@lru_cache(maxsize=None)
def prefix_of(a: AxisRef, b: AxisRef, sizes: Sizes) -> bool:
    """a is a prefix of b (or equal): same start, a ends no later than b."""
    if a.name != b.name:
        return False
    lo1, hi1 = span(a, sizes)
    lo2, hi2 = span(b, sizes)
    return lo1 == lo2 and hi1 <= hi2 and hi2 % hi1 == 0


@lru_cache(maxsize=None)
def contains(a: AxisRef, b: AxisRef, sizes: Sizes) -> bool:
    if a.name != b.name:
        return False
    lo1, hi1 = span(a, sizes)
    lo2, hi2 = span(b, sizes)
    return lo1 <= lo2 and hi2 <= hi1 and lo2 % lo1 == 0 and hi1 % hi2 == 0


@lru_cache(maxsize=None)
def prefix_without_overlap(a: AxisRef, b: AxisRef, sizes: Sizes) -> AxisRef | None:
    """The largest prefix of `a` that does not conflict with `b` (None if nothing is
    left): neither overlaps it nor lies in another decomposition of the axis."""
    if not conflicts(a, b, sizes):
        return a
    lo1, hi1 = span(a, sizes)
    # Prefixes [lo1, end) of a, largest first: end a multiple of lo1 dividing hi1.
    for end in range(hi1 - 1, lo1, -1):
        if end % lo1 or hi1 % end:
            continue
        prefix = from_span(a.name, lo1, end, sizes)
        if not conflicts(prefix, b, sizes):
            return prefix
    return None


def prefix_without_overlap_all(a: AxisRef | None, others, sizes: Sizes) -> AxisRef | None:
    for b in others:
        if a is None:
            return None
        a = prefix_without_overlap(a, b, sizes)
    return a


@lru_cache(maxsize=None)
def sub_prefix(a: AxisRef, new_size: int, sizes: Sizes) -> AxisRef:
    """The prefix of `a` with `new_size` (which divides size(a))."""
    lo, _ = span(a, sizes)
    return from_span(a.name, lo, lo * new_size, sizes)


@lru_cache(maxsize=None)
def merged(a: AxisRef, b: AxisRef, sizes: Sizes) -> AxisRef | None:
    """a and b as one ref when b directly follows a on the same axis, else None."""
    if a.name != b.name:
        return None
    lo1, hi1 = span(a, sizes)
    lo2, hi2 = span(b, sizes)
    if hi1 != lo2:
        return None
    return from_span(a.name, lo1, hi2, sizes)


def append_or_merge(axes: list[AxisRef], ref: AxisRef, sizes: Sizes) -> None:
    """Append `ref`, merging it into the last ref when they are consecutive sub-axes."""
    if axes:
        joined = merged(axes[-1], ref, sizes)
        if joined is not None:
            axes[-1] = joined
            return
    axes.append(ref)


def merge_consecutive(refs, sizes: Sizes) -> list[AxisRef]:
    """`refs` in their order, each run of consecutive sub-axes of one axis merged into
    one ref (how sdy wants a dim's or an unreduced list's axes written)."""
    out: list[AxisRef] = []
    for ref in refs:
        append_or_merge(out, ref, sizes)
    return out


def axes_size(axes, sizes: Sizes) -> int:
    total = 1
    for ref in axes:
        total *= size(ref, sizes)
    return total


def is_strict_prefix(first: tuple[AxisRef, ...], second: tuple[AxisRef, ...],
                     sizes: Sizes) -> bool:
    """Is the axis list `first` a strict prefix of `second`?"""
    return prefix_status(first, second, sizes) == "strict"


def prefix_status(first, second, sizes: Sizes) -> str:
    """'equal', 'strict' (first is a strict prefix of second) or 'none'."""
    if not first:
        return "equal" if not second else "strict"
    if len(first) > len(second):
        return "none"
    n = len(first)
    for i in range(n - 1):
        if first[i] != second[i]:
            return "none"
    if len(first) == len(second) and first[-1] == second[-1]:
        return "equal"
    if prefix_of(first[n - 1], second[n - 1], sizes):
        return "strict"
    return "none"
