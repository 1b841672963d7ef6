"""Read and write the sharding of any value of a propagated module.

Where Shardy keeps a value's sharding:
  op result            the op's `sdy.sharding` (#sdy.sharding_per_value, one per result);
                       `sharding` of sdy.sharding_constraint / sdy.reshard; `out_sharding`
                       of sdy collectives; `out_shardings` of sdy.manual_computation
  func argument        `sdy.sharding` in the func's arg_attrs (results: res_attrs)
  while body/cond arg  the while op's result sharding of the same index
  manual body arg      the manual computation's in_sharding without its manual axes
Values nobody sharded are replicated (None here).
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from .sdy_codec import SHARDING_ATTR, ShardingCodec
from .model import DimSharding, TensorSharding

# Where Shardy's own ops keep their results' shardings instead of `sdy.sharding` (the
# docstring's list). A fact of the sdy dialect, like SHARDING_ATTR, and this module sits
# below the op registry (shardpy.ops), which it cannot ask: so it is defined here, once,
# and the registry's entries for these ops take their `sharding_attr` (and the sdy
# collectives' names) from it (ops/structural.py, ops/collectives.py).
SDY_COLLECTIVES = ("sdy.all_gather", "sdy.all_slice", "sdy.all_to_all",
                   "sdy.collective_permute", "sdy.all_reduce", "sdy.reduce_scatter",
                   "sdy.replicated_to_unreduced")
RESULT_SHARDING_ATTR = {"sdy.sharding_constraint": "sharding", "sdy.reshard": "sharding",
                        **dict.fromkeys(SDY_COLLECTIVES, "out_sharding"),
                        "sdy.manual_computation": "out_shardings"}  # (one per result)

_UNREAD = object()  # not read yet (None means replicated)


def manual_axes(op: ir.Operation) -> frozenset[str]:
    attr = sdy.ManualAxesAttr(op.attributes["manual_axes"])
    return frozenset(attr[i] for i in range(len(attr)))


def manual_axes_around(op: ir.Operation) -> tuple[str, ...]:
    """The manual axes of the manual computations `op` is nested in, outermost last
    (shardpy-to-local asks while the bodies are still nested: it inlines a body after
    lowering it)."""
    axes = []
    parent = op.parent
    while parent is not None and parent.name != "func.func":
        if parent.name == "sdy.manual_computation":
            axes += sorted(manual_axes(parent))
        parent = parent.parent
    return tuple(axes)


def without_axes(sharding: TensorSharding, axes: frozenset[str]) -> TensorSharding:
    dims = tuple(DimSharding(tuple(a for a in d.axes if a.name not in axes), d.closed)
                 for d in sharding.dims)
    return TensorSharding(sharding.mesh, dims,
                          tuple(a for a in sharding.replicated if a.name not in axes),
                          tuple(a for a in sharding.unreduced if a.name not in axes),
                          sharding.mesh_name)


def add_axes_back(local: TensorSharding, old_global: TensorSharding | None,
                  axes: frozenset[str]) -> TensorSharding:
    """A local (view) sharding with the manual axes of `old_global` put back (major-most)."""
    if old_global is None:
        return local
    dims = []
    for local_dim, old_dim in zip(local.dims, old_global.dims):
        manual = tuple(a for a in old_dim.axes if a.name in axes)
        dims.append(DimSharding(manual + local_dim.axes, local_dim.closed, local_dim.priority))
    return TensorSharding(old_global.mesh, tuple(dims), old_global.replicated,
                          old_global.unreduced, old_global.mesh_name)


class ShardingState:
    """Shardings of a module's values, decoded once, cached per value."""

    def __init__(self, module: ir.Operation):
        self.module = module
        self.codec = ShardingCodec.for_module(module)
        self._cache: dict[ir.Value, TensorSharding | None] = {}
        self._signatures: dict[tuple[str, str], list] = {}  # (func, args|results) -> list
        self._per_value: dict[ir.Attribute, tuple] = {}  # sdy.sharding attr -> decoded
        # ids of result shardings -> (the shardings, their sdy.sharding attribute)
        self._encoded_per_value: dict[tuple, tuple] = {}

    # -- reading ----------------------------------------------------------------------
    def of(self, value: ir.Value) -> TensorSharding | None:
        sharding = self._cache.get(value, _UNREAD)
        if sharding is _UNREAD:
            sharding = self._cache[value] = self._read(value)
        return sharding

    def shardings_of(self, values: list[ir.Value]) -> list[TensorSharding | None]:
        """[self.of(v) for v in values], without a method call per value."""
        cache = self._cache
        found = []
        for value in values:
            sharding = cache.get(value, _UNREAD)
            if sharding is _UNREAD:
                sharding = cache[value] = self._read(value)
            found.append(sharding)
        return found

    def results_of(self, op: ir.Operation, results, name: str | None = None
                   ) -> list[TensorSharding | None]:
        """The shardings of `results` (all of `op`'s results), reading the op's
        attribute once (the hot path of the partitioning passes), remembered.
        `name`: op.name, where the caller has read it."""
        found = self.decode_results(op, results, name)
        cache = self._cache
        for result, sharding in zip(results, found):
            cache[result] = sharding
        return found

    def decode_results(self, op: ir.Operation, results, name: str | None = None
                       ) -> list[TensorSharding | None]:
        """The shardings of `results` (all of `op`'s results) as the IR has them, one
        decoding per distinct attribute. (For ops other than sdy's, the attribute is
        what `set_results` and `write` keep up to date.)"""
        if (op.name if name is None else name) in RESULT_SHARDING_ATTR:
            return [self.of(r) for r in results]
        attrs = op.attributes
        if SHARDING_ATTR not in attrs:  # (not try/except: a missing key raises slowly)
            return [None] * len(results)
        return list(self._decode_per_value(attrs[SHARDING_ATTR], op))

    def _decode_per_value(self, attr: ir.Attribute, op: ir.Operation) -> tuple:
        """`op`'s #sdy.sharding_per_value decoded, once per distinct attribute (the op's
        location, for errors, read only then)."""
        found = self._per_value.get(attr)
        if found is None:
            loc = op.location
            found = self._per_value[attr] = tuple(
                self.codec.decode(a, loc)
                for a in sdy.TensorShardingPerValueAttr(attr).shardings)
        return found

    def _read(self, value: ir.Value) -> TensorSharding | None:
        if isinstance(value, ir.OpResult):
            return self.result_sharding(value.owner.operation, value.result_number)
        arg = ir.BlockArgument(value)
        parent = arg.owner.owner  # the op owning the region holding the block
        if parent is None:
            return None
        parent = parent.operation
        name = parent.name
        index = arg.arg_number
        if name == "func.func":
            return self.func_arg_sharding(parent, index)
        if name == "stablehlo.while":
            return self.result_sharding(parent, index)
        if name == "sdy.manual_computation":
            ins = sdy.TensorShardingPerValueAttr(parent.attributes["in_shardings"]).shardings
            return without_axes(self.codec.decode(ins[index], parent.location),
                                manual_axes(parent))
        return None

    def result_sharding(self, op: ir.Operation, index: int) -> TensorSharding | None:
        attrs = op.attributes
        where = RESULT_SHARDING_ATTR.get(op.name)
        if where == "out_shardings":
            outs = sdy.TensorShardingPerValueAttr(attrs[where]).shardings
            return self.codec.decode(outs[index], op.location)
        if where is not None:
            return self.codec.decode(attrs[where], op.location)
        if SHARDING_ATTR in attrs:
            return self._decode_per_value(attrs[SHARDING_ATTR], op)[index]
        return None

    def func_arg_sharding(self, func_op, index: int) -> TensorSharding | None:
        return self._signature(func_op, "args")[index]

    def func_result_sharding(self, func_op, index: int) -> TensorSharding | None:
        return self._signature(func_op, "results")[index]

    def _signature(self, func_op, which: str) -> list:
        key = (ir.StringAttr(func_op.attributes["sym_name"]).value, which)
        found = self._signatures.get(key)
        if found is None:
            found = (self.codec.func_arg_shardings(func_op) if which == "args"
                     else self.codec.func_result_shardings(func_op))
            self._signatures[key] = found
        return found

    # -- writing ----------------------------------------------------------------------
    def set_results(self, op: ir.Operation, shardings: list[TensorSharding | None]) -> None:
        """Write the shardings of all of `op`'s results (None: replicated on the mesh of
        the others)."""
        template = next((s for s in shardings if s is not None), None)
        key = tuple(map(id, shardings))
        known = self._encoded_per_value.get(key) if None not in shardings else None
        if known is not None and all(a is b for a, b in zip(known[0], shardings)):
            op.attributes[SHARDING_ATTR] = known[1]  # encoded before: one attribute each
        elif template is None:
            if SHARDING_ATTR in op.attributes:
                del op.attributes[SHARDING_ATTR]
        else:
            attrs = []
            for result, sharding in zip(op.results, shardings):
                if sharding is None:
                    rank = len(result.type.shape) if isinstance(result.type,
                                                                ir.RankedTensorType) else 0
                    sharding = TensorSharding.replicated_on(template.mesh, rank,
                                                            template.mesh_name)
                attrs.append(self.codec.encode(sharding))
            attr = op.attributes[SHARDING_ATTR] = sdy.TensorShardingPerValueAttr.get(attrs)
            if None not in shardings:  # (the shardings kept: their ids are the key)
                self._encoded_per_value[key] = (tuple(shardings), attr)
        for result, sharding in zip(op.results, shardings):
            self._cache[result] = sharding

    def write(self, value: ir.Value, sharding: TensorSharding) -> None:
        """Give `value` this sharding in the IR (an op result, a func argument, or a
        while's block argument: the while's result of that index, which sdy reads for
        the argument and the result alike)."""
        if isinstance(value, ir.OpResult):
            op = value.owner.operation
            shardings = [self.of(r) for r in op.results]
            shardings[value.result_number] = sharding
            self.set_results(op, shardings)
            return
        arg = ir.BlockArgument(value)
        parent = arg.owner.owner.operation
        if parent.name == "stablehlo.while":
            self.write(parent.results[arg.arg_number], sharding)
            for region in parent.regions:
                self._cache[region.blocks[0].arguments[arg.arg_number]] = sharding
            return
        if parent.name != "func.func":
            raise ValueError(f"cannot attach a sharding to an argument of {parent.name}")
        self._write_signature(parent, "arg_attrs", arg.arg_number, len(arg.owner.arguments),
                              sharding)
        self._cache[value] = sharding

    def write_func_result(self, func_op: ir.Operation, index: int,
                          sharding: TensorSharding) -> None:
        """Give result `index` of `func_op` this sharding (its res_attrs)."""
        count = len(ir.FunctionType(ir.TypeAttr(func_op.attributes["function_type"]).value)
                    .results)
        self._write_signature(func_op, "res_attrs", index, count, sharding)

    def _write_signature(self, func_op, key: str, index: int, count: int,
                         sharding: TensorSharding) -> None:
        old = (list(ir.ArrayAttr(func_op.attributes[key])) if key in func_op.attributes
               else [ir.DictAttr.get({}) for _ in range(count)])
        entries = {a.name: a.attr for a in ir.DictAttr(old[index])}
        entries[SHARDING_ATTR] = self.codec.encode(sharding)
        old[index] = ir.DictAttr.get(entries)
        func_op.attributes[key] = ir.ArrayAttr.get(old)
        self._signatures.clear()

    def remember(self, value: ir.Value, sharding: TensorSharding | None) -> None:
        self._cache[value] = sharding

    def forget(self, value: ir.Value) -> None:
        self._cache.pop(value, None)


def replicated_like(sharding: TensorSharding) -> TensorSharding:
    return TensorSharding.replicated_on(sharding.mesh, sharding.rank, sharding.mesh_name)
