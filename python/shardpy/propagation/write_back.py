"""Writing the propagated shardings back into the module, once, at the end, the way
Shardy writes them: ops get `sdy.sharding` (per value), func arguments and results their
`sdy.sharding` attributes, sharding constraints / reshards their `sharding`, manual
computations their `in_shardings` / `out_shardings`.

Speed: equal shardings are one object (interned), so each distinct sharding, and each
distinct list of result shardings, is encoded into an attribute once (Writer).
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from ..sharding.model import DimSharding, TensorSharding
from ..sharding.sdy_codec import SHARDING_ATTR
from .graph import Graph


def _closed(sharding: TensorSharding, close: bool) -> TensorSharding:
    if not close or all(d.closed and d.priority is None for d in sharding.dims):
        return sharding
    return TensorSharding(sharding.mesh, tuple(DimSharding(d.axes, True) for d in sharding.dims),
                          sharding.replicated, sharding.unreduced, sharding.mesh_name)


class Writer:
    """Encodes final shardings: once per distinct sharding (they are interned, so the
    object identity is the key) and once per distinct list of result shardings."""

    def __init__(self, g: Graph, close: bool):
        self.g = g
        self.close = close
        self._attrs: dict[int, ir.Attribute] = {}
        self._per_value: dict[tuple, ir.Attribute] = {}

    def attr(self, slot: int) -> ir.Attribute | None:
        if slot < 0:
            return None
        sharding = self.g.shardings[slot]
        if sharding is None:
            return None
        attr = self._attrs.get(id(sharding))
        if attr is None:
            attr = self._attrs[id(sharding)] = self.g.codec.encode(_closed(sharding, self.close))
        return attr

    def per_value(self, slots: list[int]) -> ir.Attribute | None:
        shardings = self.g.shardings
        # A value nothing reached is filled in replicated at its own rank: the rank is
        # part of the key.
        key = tuple(-1 if s < 0 else id(shardings[s]) if shardings[s] is not None
                    else -2 - len(self.g.shapes[s]) for s in slots)
        if key in self._per_value:
            return self._per_value[key]
        attrs = [self.attr(s) for s in slots]
        result = None
        if any(a is not None for a in attrs):
            template = next(shardings[s] for s, a in zip(slots, attrs) if a is not None)
            filled = []
            for slot, attr in zip(slots, attrs):
                if attr is None:  # a result nothing reached: replicated on the same mesh
                    rank = len(self.g.shapes[slot]) if slot >= 0 else 0
                    attr = self.g.codec.encode(TensorSharding.replicated_on(
                        template.mesh, rank, template.mesh_name, closed=self.close))
                filled.append(attr)
            result = sdy.TensorShardingPerValueAttr.get(filled)
        self._per_value[key] = result
        return result


def write_results(writer: Writer, op: ir.Operation, slots: list[int]) -> None:
    attr = writer.per_value(slots)
    if attr is not None:
        op.attributes[SHARDING_ATTR] = attr


def write_sharding_attr(writer: Writer, op: ir.Operation, slot: int) -> None:
    attr = writer.attr(slot)
    if attr is not None:
        op.attributes["sharding"] = attr


def write_func(writer: Writer, func_op, arg_slots: list[int], result_slots: list[int]
                ) -> None:
    # (old dict, id(sharding attr)) -> the new dict: arguments mostly repeat a few dicts
    # (most of them empty), so each distinct pair is rebuilt once.
    rebuilt: dict[tuple[ir.Attribute, int], ir.Attribute] = {}
    for key, slots in (("arg_attrs", arg_slots), ("res_attrs", result_slots)):
        attrs = [writer.attr(s) for s in slots]
        if not any(a is not None for a in attrs):
            continue
        old = list(ir.ArrayAttr(func_op.attributes[key])) if key in func_op.attributes \
            else [ir.DictAttr.get({})] * len(slots)
        new = []
        for old_dict, attr in zip(old, attrs):
            if attr is None:
                new.append(old_dict)  # rebuilt from its own entries it would be the same
                continue
            entry = rebuilt.get((old_dict, id(attr)))
            if entry is None:
                entries = {a.name: a.attr for a in ir.DictAttr(old_dict)}
                entries[SHARDING_ATTR] = attr
                entry = rebuilt[(old_dict, id(attr))] = ir.DictAttr.get(entries)
            new.append(entry)
        func_op.attributes[key] = ir.ArrayAttr.get(new)


def write_manual(writer: Writer, op: ir.Operation, in_slots: list[int], out_slots: list[int],
                  manual: frozenset[str]) -> None:
    for key, slots in (("in_shardings", in_slots), ("out_shardings", out_slots)):
        old = sdy.TensorShardingPerValueAttr(op.attributes[key]).shardings
        new = [writer.attr(s) or o for s, o in zip(slots, old)]
        op.attributes[key] = sdy.TensorShardingPerValueAttr.get(new)


def write_back(g: Graph, close: bool = True) -> None:
    writer = Writer(g, close)
    shardings = g.shardings
    one_result: dict[int, ir.Attribute] = {}  # id(sharding) -> its per-value attribute
    for op, slots in g.result_writes:
        if len(slots) == 1:  # most ops: writer.per_value(slots), cached more cheaply
            slot = slots[0]
            sharding = shardings[slot] if slot >= 0 else None
            if sharding is None:
                continue
            attr = one_result.get(id(sharding))
            if attr is None:
                attr = one_result[id(sharding)] = writer.per_value(slots)
        else:
            attr = writer.per_value(slots)
            if attr is None:
                continue
        op.attributes[SHARDING_ATTR] = attr
    for write in g.writers:
        write(writer)
