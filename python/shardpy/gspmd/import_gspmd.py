"""GSPMD annotations in a module -> sdy (the work behind the `shardpy-import` pass).

What PyTorch/XLA and JAX without Shardy emit, and what it becomes:

  mhlo.sharding on func arguments/results   -> sdy.sharding
  mhlo.sharding on an op (tuple: per result) -> sdy.sharding = #sdy.sharding_per_value<...>
  custom_call @Sharding                     -> sdy.sharding_constraint (backend_config
                                               `unspecified_dims=[..]`: those dims open)
  @Sharding -> @SPMDFullToShardShape ... @Sharding{manual} -> @SPMDShardToFullShape
                                            -> sdy.manual_computation over the manual axes
  custom_call -> tuple<...> read by get_tuple_elements (XLA's TopK, as HLO import
  writes it)                                -> one custom_call of several results, the
                                               tuple sharding one per result

Every string is parsed once (gspmd.parse_gspmd); one MeshPlan over all of them gives
the `sdy.mesh` ops. `{manual}` values get no sharding (the manual computation says it),
and shardings inside manual code keep only their free axes.
"""
from __future__ import annotations

from dataclasses import replace

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from ..ir.diagnostics import ShardpyError
from ..ir.layout import num_partitions
from .batch_norm import EXPANDED, expand_batch_norms
from .codec import GspmdSharding, MeshPlan, Tiling, parse_gspmd
from .manual import (FULL_TO_SHARD, SHARD_TO_FULL, SHARDING_TARGET, Site, build_manual,
                           call_target, value_rank)
from ..sharding.inlined_meshes import MeshLifter
from ..ir.utils import erase_op_forwarding_operands, tensor_shape
from ..sharding.sdy_codec import ShardingCodec, encode_mesh
from ..sharding.model import ShardingError, TensorSharding

GSPMD_ATTR = "mhlo.sharding"
SDY_ATTR = "sdy.sharding"
FRONTEND_ATTR = "mhlo.frontend_attributes"
UNSPECIFIED_DIMS = "unspecified_dims="


class GspmdImporter:
    """Imports one module's GSPMD annotations (see the module docstring)."""

    def __init__(self, module: ir.Operation):
        self.module = module
        self._parsed: dict[tuple[str, tuple[int, ...]], list[Tiling]] = {}
        self.sites: list[Site] = []
        self.signatures: list[tuple[ir.Operation, str, int, str, list[Tiling]]] = []
        self.plan: MeshPlan | None = None
        self.codec = ShardingCodec({})
        self.lifter = MeshLifter(module)
        self.batch_norms: list[ir.Operation] = []  # written out last (batch_norm.py)

    # -- collecting -----------------------------------------------------------------
    def _parse(self, text: str, ranks: tuple[int, ...], loc: ir.Location) -> list[Tiling]:
        key = (text, ranks)
        if key not in self._parsed:
            try:
                parsed = parse_gspmd(text, ranks[0] if len(ranks) == 1 else ranks)
            except ShardingError as err:
                raise ShardpyError(str(err), loc) from None
            self._parsed[key] = parsed if isinstance(parsed, list) else [parsed]
        return self._parsed[key]

    def collect(self) -> bool:
        """Find every GSPMD annotation; False when there is none (nothing to do).
        The same walk lifts inlined sdy meshes to symbols (MeshLifter).

        One walk that only asks each op for its `mhlo.sharding` (~0.6 us an op), so
        modules without GSPMD annotations cost next to nothing.
        """
        found: list[ir.Operation] = []
        tupled: list[ir.Operation] = []
        batch_norms = self.batch_norms
        lifter = self.lifter

        def visit(op: ir.Operation) -> ir.WalkResult:
            attrs = op.attributes
            name = op.name
            if name == "stablehlo.custom_call" and len(op.results) == 1 and \
                    isinstance(op.results[0].type, ir.TupleType):
                tupled.append(op)
            elif name in EXPANDED:
                batch_norms.append(op)
            if GSPMD_ATTR in attrs:
                found.append(op)
            # inlined sdy meshes -> symbols, in the same walk (MeshLifter.visit inlined)
            if SDY_ATTR in attrs:
                lifter.replace(op, attrs, SDY_ATTR)
            elif name.startswith("sdy."):
                lifter.visit_sdy_op(op, attrs)
            return ir.WalkResult.ADVANCE

        self.module.walk(visit)
        lifter.finish()
        for op in tupled:
            # (compared before they are erased: the op and its get_tuple_elements,
            # whose shardings the tuple sharding repeats)
            readers = [use.owner for use in op.results[0].uses]
            at = [i for i, f in enumerate(found) if f == op]
            gone = [i for i, f in enumerate(found) if any(f == r for r in readers)]
            untupled = untuple_results(op, readers)
            if untupled is not None:
                for i in at:
                    found[i] = untupled
                found = [f for i, f in enumerate(found) if i not in gone]
        for op in found:
            text = ir.StringAttr(op.attributes[GSPMD_ATTR]).value
            ranks = tuple(value_rank(r.type) for r in op.results) or (0,)
            self.sites.append(Site(op, text, self._parse(text, ranks, op.location)))
        for op in self.module.regions[0].blocks[0].operations:
            if op.operation.name == "func.func":
                self._collect_signature(op.operation)
        return bool(self.sites or self.signatures)

    def _collect_signature(self, func_op: ir.Operation) -> None:
        ftype = ir.FunctionType(ir.TypeAttr(func_op.attributes["function_type"]).value)
        for key, types in (("arg_attrs", ftype.inputs), ("res_attrs", ftype.results)):
            if key not in func_op.attributes:
                continue
            for i, attrs in enumerate(ir.ArrayAttr(func_op.attributes[key])):
                attrs = ir.DictAttr(attrs)
                if GSPMD_ATTR in attrs:
                    text = ir.StringAttr(attrs[GSPMD_ATTR]).value
                    loc = self._signature_loc(func_op, key, i)
                    tilings = self._parse(text, (value_rank(types[i]),), loc)
                    if len(tilings) != 1:
                        raise ShardpyError(f"tuple sharding '{text}' on a single value", loc)
                    self.signatures.append((func_op, key, i, text, tilings))

    @staticmethod
    def _signature_loc(func_op: ir.Operation, key: str, index: int) -> ir.Location:
        if key == "arg_attrs" and len(func_op.regions[0].blocks):
            return func_op.regions[0].blocks[0].arguments[index].location
        return func_op.location

    # -- running --------------------------------------------------------------------
    def run(self) -> None:
        self._run()
        if self.batch_norms:  # (their GSPMD shardings converted first, where they had any)
            expand_batch_norms(self.module, self.batch_norms)

    def _run(self) -> None:
        if not self.collect():
            return
        tilings = [t for site in self.sites for t in site.tilings]
        tilings += [t for *_, ts in self.signatures for t in ts]
        taken = {ir.StringAttr(op.attributes["sym_name"]).value
                 for op in self.module.regions[0].blocks[0].operations
                 if "sym_name" in op.attributes}
        try:
            self.plan = MeshPlan(tilings, taken, num_partitions(self.module))
        except ShardingError as err:
            raise ShardpyError(str(err), self.module.location) from None
        self._add_meshes()
        build_manual(self)
        for site in self.sites:
            if not site.done:
                self._import_site(site)
        self._import_signatures()

    def _add_meshes(self) -> None:
        body = self.module.regions[0].blocks[0]
        anchor = None
        for op in body.operations:
            if op.operation.name != "sdy.mesh":
                anchor = op.operation
                break
        ip = ir.InsertionPoint(anchor) if anchor is not None else ir.InsertionPoint(body)
        for name, mesh in self.plan.meshes:
            sdy.MeshOp(name, encode_mesh(mesh), ip=ip)
        self.codec = ShardingCodec(dict(self.plan.meshes))

    def express(self, tiling: Tiling, loc: ir.Location, on: str | None = None) -> GspmdSharding:
        imported = self.plan.express(tiling, on)
        if imported.sharding is not None:
            try:
                imported.sharding.validate()
            except ShardingError as err:
                raise ShardpyError(f"sharding '{tiling.text}' cannot be expressed: {err}",
                                   loc) from None
        return imported

    # -- ops ------------------------------------------------------------------------
    def _import_site(self, site: Site) -> None:
        op = site.op
        target = call_target(op)
        if target == SHARDING_TARGET:
            self._import_sharding_call(site)
            return
        if target in (FULL_TO_SHARD, SHARD_TO_FULL):
            raise ShardpyError(f"custom_call @{target} without its partner: manual code needs "
                               f"@{FULL_TO_SHARD} on the way in and @{SHARD_TO_FULL} on the way "
                               f"out", op.location)
        if len(site.tilings) != len(op.results):
            raise ShardpyError(f"sharding '{site.text}' has {len(site.tilings)} element(s) for "
                               f"{len(op.results)} result(s)", op.location)
        imported = [self.express(t, op.location) for t in site.tilings]
        known = [g.sharding for g in imported if g.sharding is not None]
        del op.attributes[GSPMD_ATTR]
        _drop_sdy_frontend_attrs(op)
        if not known:
            return  # every result is manual: the enclosing manual computation says it all
        # A manual result among sharded ones: open dims, i.e. no constraint on it.
        shardings = [g.sharding or TensorSharding.replicated_on(
            known[0].mesh, value_rank(r.type), known[0].mesh_name, closed=False)
            for g, r in zip(imported, op.results)]
        op.attributes[SDY_ATTR] = sdy.TensorShardingPerValueAttr.get(
            [self._encode(s, op, r.type) for s, r in zip(shardings, op.results)])

    def _encode(self, sharding: TensorSharding, op: ir.Operation, value_type) -> ir.Attribute:
        if sharding.mesh.is_maximal:  # sdy writes maximal shardings without dims
            return self.codec.encode(replace(sharding, dims=()))
        shape = tensor_shape(value_type)
        if shape is not None:
            try:
                sharding.validate(shape)
            except ShardingError as err:
                raise ShardpyError(f"imported sharding {sharding} does not fit {value_type}: "
                                   f"{err}", op.location) from None
        return self.codec.encode(sharding)

    def _import_sharding_call(self, site: Site) -> None:
        op = site.op
        (tiling,) = site.tilings
        imported = self.express(tiling, op.location)
        sharding = imported.sharding
        if sharding is None:  # {manual}: the value is per-device code's; nothing to say
            erase_op_forwarding_operands(op)
            return
        open_dims = _unspecified_dims(op)
        if open_dims:
            sharding = replace(sharding, dims=tuple(
                replace(d, closed=False) if i in open_dims else d
                for i, d in enumerate(sharding.dims)))
        if not any(d.axes or d.closed for d in sharding.dims) and sharding.rank:
            erase_op_forwarding_operands(op)  # all dims open and empty: no information
            return
        with op.location, ir.InsertionPoint(op):
            constraint = sdy.ShardingConstraintOp(
                op.operands[0], self._encode(sharding, op, op.results[0].type))
        op.results[0].replace_all_uses_with(constraint.result)
        op.erase()

    # -- manual computations -----------------------------------------------------------
    # -- signatures -----------------------------------------------------------------
    def _import_signatures(self) -> None:
        funcs: list[ir.Operation] = []  # by identity: ops hash by their contents
        for func_op, *_ in self.signatures:
            if not any(func_op == f for f in funcs):
                funcs.append(func_op)
        for func_op in funcs:
            entries = [(key, index, tilings) for f, key, index, _, tilings in self.signatures
                       if f == func_op]
            ftype = ir.FunctionType(ir.TypeAttr(func_op.attributes["function_type"]).value)
            for key in ("arg_attrs", "res_attrs"):
                mine = {i: ts for k, i, ts in entries if k == key}
                if not mine:
                    continue
                types = ftype.inputs if key == "arg_attrs" else ftype.results
                dicts = []
                for i, attrs in enumerate(ir.ArrayAttr(func_op.attributes[key])):
                    kept = {a.name: a.attr for a in ir.DictAttr(attrs) if a.name != GSPMD_ATTR}
                    if i in mine:
                        _drop_sdy_frontend_entries(kept)
                        loc = self._signature_loc(func_op, key, i)
                        sharding = self.express(mine[i][0], loc).sharding
                        if sharding is not None:
                            kept[SDY_ATTR] = self._encode(sharding, func_op, types[i])
                    dicts.append(ir.DictAttr.get(kept))
                func_op.attributes[key] = ir.ArrayAttr.get(dicts)


def _unspecified_dims(op: ir.Operation) -> set[int]:
    """Dims JAX left to propagation: backend_config = "unspecified_dims=[0,1]"."""
    if "backend_config" not in op.attributes:
        return set()
    config = op.attributes["backend_config"]
    if not isinstance(config, ir.StringAttr):
        return set()
    text = ir.StringAttr(config).value
    if not text.startswith(UNSPECIFIED_DIMS):
        return set()
    items = text[len(UNSPECIFIED_DIMS):].strip().strip("[]").split(",")
    return {int(item) for item in items if item.strip().isdigit()}


def _drop_sdy_frontend_entries(attrs: dict) -> None:
    """XLA's Shardy round-trip keeps shardings in frontend attributes (`xla.sdy.*`);
    once the GSPMD sharding is imported they are stale."""
    if FRONTEND_ATTR not in attrs:
        return
    kept = {a.name: a.attr for a in ir.DictAttr(attrs[FRONTEND_ATTR])
            if not a.name.startswith("xla.sdy.")}
    if kept:
        attrs[FRONTEND_ATTR] = ir.DictAttr.get(kept)
    else:
        del attrs[FRONTEND_ATTR]


def _drop_sdy_frontend_attrs(op: ir.Operation) -> None:
    if FRONTEND_ATTR not in op.attributes:
        return
    attrs = {FRONTEND_ATTR: op.attributes[FRONTEND_ATTR]}
    _drop_sdy_frontend_entries(attrs)
    if FRONTEND_ATTR in attrs:
        op.attributes[FRONTEND_ATTR] = attrs[FRONTEND_ATTR]
    else:
        del op.attributes[FRONTEND_ATTR]




def untuple_results(op: ir.Operation, readers: list) -> ir.Operation | None:
    """`op` (one result of tuple type, read by `readers`: get_tuple_element ops) as one
    op of the tuple's element types, its readers replaced by its results; the new op, or
    None where something else reads the tuple (left as it is).

    before:
        %0 = stablehlo.custom_call @TopK(%x) {mhlo.sharding = "{{...}, {...}}"}
            : (tensor<4x16xf32>) -> tuple<tensor<4x2xf32>, tensor<4x2xi32>>
        %1 = stablehlo.get_tuple_element %0[0] : (...) -> tensor<4x2xf32>
    after:
        %0:2 = stablehlo.custom_call @TopK(%x) {mhlo.sharding = "{{...}, {...}}"}
            : (tensor<4x16xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
    """
    result = op.results[0]
    if not readers or any(r.name != "stablehlo.get_tuple_element" for r in readers):
        return None
    element_types = [ir.TupleType(result.type).get_type(i)
                     for i in range(ir.TupleType(result.type).num_types)]
    if any(isinstance(t, ir.TupleType) for t in element_types):
        return None  # nested tuples: not a form HLO import writes for custom calls
    # (`xla_shape`, HLO's layout of the tuple, would describe a tuple no longer there)
    new = ir.Operation.create(
        op.name, results=element_types, operands=list(op.operands),
        attributes={name: op.attributes[name] for name in op.attributes
                    if name != "xla_shape"}, loc=op.location, ip=ir.InsertionPoint(op))
    for reader in readers:
        reader = reader.operation if hasattr(reader, "operation") else reader
        index = ir.IntegerAttr(reader.attributes["index"]).value
        reader.results[0].replace_all_uses_with(new.results[index])
        reader.erase()
    op.erase()
    return new


def import_module(module: ir.Operation) -> None:
    """Lift inlined sdy meshes to symbols (shardpy.sharding.inlined_meshes) and import every
    GSPMD annotation of `module` (nothing happens without either)."""
    GspmdImporter(module).run()

