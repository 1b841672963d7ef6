"""sdy shardings in a module -> GSPMD annotations (the work behind `shardpy-export-gspmd`).

The inverse of import_gspmd, for tools downstream that still read GSPMD:

  sdy.sharding on func arguments/results    -> mhlo.sharding
  sdy.sharding on an op                     -> mhlo.sharding (a tuple for several results)
  sdy.sharding_constraint, sdy.reshard      -> custom_call @Sharding (open dims listed in
                                               backend_config "unspecified_dims=[..]")
  sdy.manual_computation                    -> @Sharding + @SPMDFullToShardShape per operand,
                                               the body inlined, @Sharding{manual} +
                                               @SPMDShardToFullShape per result
  sdy.mesh                                  -> erased

GSPMD cannot say everything sdy can: priorities and open dimensions of func and op
shardings are dropped (GSPMD shardings are closed), and unreduced axes or other sdy
ops (collectives, sharding groups, barriers) are errors at their location.
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy, stablehlo

from ..ir.diagnostics import ShardpyError
from .codec import export_gspmd, export_gspmd_tuple
from ..ir.utils import collect_ops
from ..sharding.manual_layout import even_manual_layouts
from ..sharding.sdy_codec import SHARDING_ATTR, ShardingCodec
from ..sharding.model import ShardingError, TensorSharding

GSPMD_ATTR = "mhlo.sharding"
LAYOUT_OPS = ("sdy.sharding_constraint", "sdy.reshard")


class GspmdExporter:
    def __init__(self, module: ir.Operation):
        self.module = module
        self.codec = ShardingCodec.for_module(module)
        self._strings: dict[tuple[ir.Attribute, frozenset[str]], str] = {}
        self._manual_of: dict[ir.Operation, frozenset[str]] = {}

    def text(self, attr: ir.Attribute, loc: ir.Location, manual=frozenset()) -> str:
        """The GSPMD string of one `#sdy.sharding` (cached: equal attributes are one)."""
        key = (attr, manual)
        if key not in self._strings:
            sharding = self.codec.decode(attr, loc)
            try:
                self._strings[key] = export_gspmd(sharding, manual)
            except ShardingError as err:
                raise ShardpyError(f"cannot export {sharding} to GSPMD: {err}", loc) from None
        return self._strings[key]

    def manual_axes(self, op: ir.Operation) -> frozenset[str]:
        """Axes made manual by the manual computations around `op`."""
        parent = op.parent
        if parent is None or parent.name == "builtin.module":
            return frozenset()
        parent = parent.operation
        if parent not in self._manual_of:
            axes = self.manual_axes(parent)
            if parent.name == "sdy.manual_computation":
                attr = sdy.ManualAxesAttr(parent.attributes["manual_axes"])
                axes = axes | {attr[i] for i in range(len(attr))}
            self._manual_of[parent] = axes
        return self._manual_of[parent]

    def run(self) -> None:
        ops = collect_ops(self.module)
        manual_ops = [op for op in ops if op.name == "sdy.manual_computation"]
        if manual_ops:
            # GSPMD has one layout for a manual boundary, the global sharding's: free axes
            # that split a manual part unevenly come off the boundary first (their
            # reshards are exported with the rest).
            for op in manual_ops:
                even_manual_layouts(op, self.codec)
            ops = collect_ops(self.module)
        manual_ops = []
        for op in ops:
            name = op.name
            if name == "func.func":
                self._export_signature(op)
            elif name in LAYOUT_OPS:
                self._export_layout_op(op)
                continue
            elif name == "sdy.manual_computation":
                manual_ops.append(op)
            elif name.startswith("sdy.") and name not in ("sdy.mesh", "sdy.return"):
                raise ShardpyError(f"'{name}' has no GSPMD form; export before the "
                                   f"partitioner turns reshards into collectives", op.location)
            if SHARDING_ATTR in op.attributes:
                self._export_op_sharding(op)
        for op in reversed(manual_ops):  # innermost first: its context is still there
            self._export_manual(op)
        for op in list(self.module.regions[0].blocks[0].operations):
            if op.operation.name == "sdy.mesh":
                op.operation.erase()

    # -- pieces ---------------------------------------------------------------------
    def _export_signature(self, func_op: ir.Operation) -> None:
        for key in ("arg_attrs", "res_attrs"):
            if key not in func_op.attributes:
                continue
            dicts = []
            for attrs in ir.ArrayAttr(func_op.attributes[key]):
                entries = {a.name: a.attr for a in ir.DictAttr(attrs)}
                if SHARDING_ATTR in entries:
                    text = self.text(entries.pop(SHARDING_ATTR), func_op.location)
                    entries[GSPMD_ATTR] = ir.StringAttr.get(text)
                dicts.append(ir.DictAttr.get(entries))
            func_op.attributes[key] = ir.ArrayAttr.get(dicts)

    def _export_op_sharding(self, op: ir.Operation) -> None:
        manual = self.manual_axes(op)
        per_value = sdy.TensorShardingPerValueAttr(op.attributes[SHARDING_ATTR]).shardings
        texts = [self.text(a, op.location, manual) for a in per_value]
        del op.attributes[SHARDING_ATTR]
        op.attributes[GSPMD_ATTR] = ir.StringAttr.get(
            texts[0] if len(texts) == 1 else export_gspmd_tuple(texts))

    def _sharding_call(self, value: ir.Value, text: str, result_type=None,
                       target: str = "Sharding", open_dims=()) -> ir.Value:
        config = f"unspecified_dims=[{','.join(map(str, open_dims))}]" if open_dims else ""
        call = stablehlo.CustomCallOp([result_type or value.type], [value], target,
                                      backend_config=ir.StringAttr.get(config))
        call.attributes[GSPMD_ATTR] = ir.StringAttr.get(text)
        return call.results[0]

    def _export_layout_op(self, op: ir.Operation) -> None:
        attr = op.attributes["sharding"]
        manual = self.manual_axes(op)
        sharding = self.codec.decode(attr, op.location)
        open_dims = [i for i, d in enumerate(sharding.dims) if not d.closed]
        with op.location, ir.InsertionPoint(op):
            value = self._sharding_call(op.operands[0], self.text(attr, op.location, manual),
                                        open_dims=open_dims)
        op.results[0].replace_all_uses_with(value)
        op.erase()

    def _marker(self, sharding: TensorSharding, manual: frozenset[str], loc) -> dict:
        """How a manual value is marked: every manual axis in a manual subgroup, and in
        a partly manual region the dims open (as JAX writes them)."""
        local = TensorSharding.replicated_on(sharding.mesh, sharding.rank, sharding.mesh_name)
        try:
            text = export_gspmd(local, manual)
        except ShardingError as err:
            raise ShardpyError(f"cannot export the manual axes {sorted(manual)}: {err}",
                               loc) from None
        fully = text == export_gspmd(local, sharding.mesh.axis_names)
        return {"text": text, "open_dims": () if fully else range(sharding.rank)}

    def _export_manual(self, op: ir.Operation) -> None:
        outer = self.manual_axes(op)
        attr = sdy.ManualAxesAttr(op.attributes["manual_axes"])
        manual = outer | {attr[i] for i in range(len(attr))}
        ins = sdy.TensorShardingPerValueAttr(op.attributes["in_shardings"]).shardings
        outs = sdy.TensorShardingPerValueAttr(op.attributes["out_shardings"]).shardings
        body = op.regions[0].blocks[0]
        ret = body.operations[len(body.operations) - 1].operation
        with op.location, ir.InsertionPoint(op):
            for operand, arg, attr in zip(op.operands, body.arguments, ins):
                sharding = self.codec.decode(attr, op.location)
                value = self._sharding_call(operand, self.text(attr, op.location, outer))
                value = self._sharding_call(value, result_type=arg.type,
                                            target="SPMDFullToShardShape",
                                            **self._marker(sharding, manual, op.location))
                arg.replace_all_uses_with(value)
            for inner in list(body.operations):
                if inner.operation != ret:
                    inner.operation.move_before(op)
            for result, value, attr in zip(op.results, ret.operands, outs):
                sharding = self.codec.decode(attr, op.location)
                value = self._sharding_call(value, **self._marker(sharding, manual,
                                                                  op.location))
                value = self._sharding_call(value, self.text(attr, op.location, outer),
                                            result.type, "SPMDShardToFullShape")
                result.replace_all_uses_with(value)
        op.erase()


def export_module(module: ir.Operation) -> None:
    GspmdExporter(module).run()
