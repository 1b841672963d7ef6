"""Propagation across one op, in factor space (the core step of shardy-style propagation).

1. project:   each operand/result sharding -> per-factor shardings
              (sharding.factors.project);
2. propagate: per factor, find the axes every tensor can agree on and extend tensors
              whose axes are a strict prefix of them (`propagate_basic`), or resolve
              conflicts between factors by preferring factors whose source tensor is
              larger (`propagate_aggressive`);
3. unproject: per-factor shardings -> dimension shardings again (sharding.factors.unproject).

Tensors are operands then results, in rule order. Shardings only ever grow: a tensor's
axes along a factor are replaced only by a list they are a strict prefix of.
"""
from __future__ import annotations

from math import gcd
from typing import Callable, Sequence

from ..sharding import axis_algebra as aa
from ..sharding.factors import Direction, FactorSharding, TensorFactors
from ..sharding.op_rule import FactorKind, OpRule


# --------------------------------------------------------------------------- compatibility


def _compatible_pair(old: list, new: tuple, can_expand: bool, sizes) -> tuple[list, bool]:
    """Merge one more tensor's axes into the running compatible major axes."""
    result = []
    i = 0
    n_old, n_new = len(old), len(new)
    while i < n_old and i < n_new:
        a, b = old[i], new[i]
        i += 1
        if a.name != b.name:
            return result, False
        if a.sub == b.sub:
            result.append(b)
            continue
        if aa.prefix_of(b, a, sizes):
            if i < n_new:
                result.append(b)
                return result, False
            result.append(a)
        elif aa.prefix_of(a, b, sizes):
            if not can_expand or i < n_old:
                result.append(a)
                return result, False
            result.append(b)
        else:
            return result, False
    result.extend(old[i:])
    if can_expand:
        result.extend(new[i:])
    return result, can_expand


def compatible_major_axes(tensors: Sequence[TensorFactors], num_operands: int, factor: int,
                          direction: Direction, sizes) -> list:
    """Axes along `factor` that agree with every tensor, ignoring other conflicts."""
    if direction == Direction.NONE:
        return []
    operands, results = tensors[:num_operands], tensors[num_operands:]
    first, second = (results, operands) if direction == Direction.BACKWARD else (operands, results)
    axes: list = []
    can_expand = True
    for t in first:
        fs = t.factors.get(factor)
        if fs is not None:
            axes, can_expand = _compatible_pair(axes, fs.axes, can_expand, sizes)
    if direction != Direction.BOTH:
        can_expand = False
    for t in second:
        fs = t.factors.get(factor)
        if fs is not None:
            axes, can_expand = _compatible_pair(axes, fs.axes, can_expand, sizes)
    return axes


def _no_conflict_across_factors(ref, tensor: TensorFactors, factor: int, sizes):
    for other, fs in tensor.factors.items():
        if other != factor:
            ref = aa.prefix_without_overlap_all(ref, fs.overflow, sizes)
            ref = aa.prefix_without_overlap_all(ref, fs.axes, sizes)
            if ref is None:
                return None
    return ref


def _no_conflict_within_factor(ref, tensor: TensorFactors, fs: FactorSharding,
                               prev_size: int, factor_size: int, sizes):
    ref = aa.prefix_without_overlap_all(ref, tensor.blocked_axes, sizes)
    if ref is None:
        return None
    for existing in fs.axes:
        if aa.contains(existing, ref, sizes):
            return ref
    if not fs.closed and not fs.overflow:
        if fs.minor_most:
            return ref
        if factor_size % prev_size == 0:
            size = aa.size(ref, sizes)
            common = gcd(factor_size // prev_size, size)
            if common == size:
                return ref
            if common != 1:
                return aa.sub_prefix(ref, common, sizes)
    if fs.axes and aa.prefix_of(fs.axes[-1], ref, sizes):
        return fs.axes[-1]
    return None


def _truncate(axes: list, fix: Callable, sizes) -> list:
    """Cut `axes` at the first axis `fix` rejects or shortens (keeping the shortened one)."""
    prev = 1
    for i, ref in enumerate(axes):
        new = fix(ref, prev)
        if new is None:
            return axes[:i]
        if new != ref:
            return axes[:i] + [new]
        prev *= aa.size(new, sizes)
    return axes


def _expand(fs: FactorSharding | None, new: list, sizes) -> bool:
    if fs is None:
        return False
    new_t = tuple(new)
    if aa.prefix_status(fs.axes, new_t, sizes) != "strict":
        return False
    fs.axes = new_t
    return True


# --------------------------------------------------------------------------- strategies


def propagate_basic(tensors: list[TensorFactors], num_operands: int, rule: OpRule,
                    direction_of: Callable[[int], Direction], sizes,
                    elementwise: bool = False) -> list[bool]:
    """Extend every tensor along each factor by the axes all tensors agree on.
    Returns, per tensor, whether it changed."""
    changed = [False] * len(tensors)
    for f, factor_size in enumerate(rule.factor_sizes):
        axes = compatible_major_axes(tensors, num_operands, f, direction_of(f), sizes)
        if not axes:
            continue

        def fix(ref, prev, f=f, factor_size=factor_size):
            for t in tensors:
                ref = _no_conflict_across_factors(ref, t, f, sizes)
                if ref is None:
                    return None
                fs = t.factors.get(f)
                if fs is not None:
                    ref = _no_conflict_within_factor(ref, t, fs, prev, factor_size, sizes)
                    if ref is None:
                        return None
            return ref

        axes = _truncate(axes, fix, sizes)
        for i, t in enumerate(tensors):
            if _expand(t.factors.get(f), axes, sizes):
                changed[i] = True
    return changed


def propagate_aggressive(tensors: list[TensorFactors], num_operands: int, rule: OpRule,
                         direction_of: Callable[[int], Direction], sizes,
                         elementwise: bool = False) -> list[bool]:
    """Like basic, but a conflict between factors in one tensor is settled in favour of
    the factor whose source tensor is largest (then lowest tensor index, then factor)."""
    changed = [False] * len(tensors)
    sizes_of = rule.factor_sizes
    directions = [direction_of(f) for f in range(len(sizes_of))]
    axes_per_factor = [compatible_major_axes(tensors, num_operands, f, directions[f], sizes)
                       for f in range(len(sizes_of))]
    if not any(axes_per_factor):
        return changed

    source = [(-1, -1)] * len(sizes_of)  # (tensor size, tensor index) per factor
    for index, t in enumerate(tensors):
        tensor_size = 1
        for f in t.factors:
            tensor_size *= sizes_of[f]
        for f, fs in t.factors.items():
            wanted = axes_per_factor[f]
            if wanted and aa.prefix_status(tuple(wanted), fs.axes, sizes) != "none" \
                    and tensor_size > source[f][0]:
                source[f] = (tensor_size, index)
    # Larger source tensor first; for elementwise ops the more sharded factor next (the
    # conflict then keeps the most devices busy); then lower source index, lower factor.
    sharded = ([aa.axes_size(axes_per_factor[f], sizes) for f in range(len(sizes_of))]
               if elementwise else [0] * len(sizes_of))
    order = sorted(range(len(sizes_of)),
                   key=lambda f: (-source[f][0], -sharded[f], source[f][1], f))

    def propagated(f: int, t: TensorFactors) -> list:
        fs = t.factors.get(f)
        if fs is None or not axes_per_factor[f]:
            return []
        new = _truncate(list(axes_per_factor[f]),
                        lambda ref, prev: _no_conflict_within_factor(
                            ref, t, fs, prev, sizes_of[f], sizes), sizes)
        if aa.prefix_status(fs.axes, tuple(new), sizes) != "strict":
            return []
        return _truncate(new, lambda ref, prev: _no_conflict_across_factors(ref, t, f, sizes),
                         sizes)

    results = range(num_operands, len(tensors))
    for f in order:
        direction = directions[f]
        if direction != Direction.BACKWARD:
            for i in results:
                new = propagated(f, tensors[i])
                if new and _expand(tensors[i].factors.get(f), new, sizes):
                    changed[i] = True
        if direction != Direction.FORWARD:
            for i in range(num_operands):
                new = propagated(f, tensors[i])
                if not new:
                    continue
                if elementwise:
                    # No sideways propagation between operands of elementwise ops: an
                    # operand only gets what a result has (avoids gathering both inputs).
                    for r in results:
                        rfs = tensors[r].factors.get(f)
                        if rfs is not None and aa.prefix_status(rfs.axes, tuple(new),
                                                                sizes) == "strict":
                            new = list(rfs.axes)
                if _expand(tensors[i].factors.get(f), new, sizes):
                    changed[i] = True
    return changed


STRATEGIES = {"basic": propagate_basic, "aggressive": propagate_aggressive}


def pass_through_factors(rule: OpRule) -> list[bool]:
    return [k is FactorKind.PASS_THROUGH and f not in rule.blocked
            for f, k in enumerate(rule.kinds)]
