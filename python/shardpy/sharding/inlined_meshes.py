"""Inlined meshes -> named `sdy.mesh` symbols (part of `shardpy-import`).

A sharding may spell its mesh inline (`#sdy.sharding<mesh<["x"=2]>, ...>`). Shardy's
import lifts such meshes to symbols; shardpy does the same, so that every value's mesh
has a name and equal meshes are one symbol: an inlined mesh reuses a declared
`sdy.mesh` with the same axes and device ids, else gets a new one, named as Shardy
names them (`mesh`, `mesh_0`, `mesh_1`, ...; `maximal_mesh_<k>` for a maximal mesh
`<[], device_ids=[k]>`), declared after the module's other meshes.

before:
    sdy.mesh @mesh = <["d"=2, "t"=4]>
    func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<mesh<["d"=2, "t"=4]>, [{"d"}, {}]>}) ... {
      %0 = stablehlo.sine %a {sdy.sharding = #sdy.sharding_per_value<[<mesh<["d"=2, "t"=2]>, [{"d"}, {"t"}]>]>} ...
after:
    sdy.mesh @mesh = <["d"=2, "t"=4]>
    sdy.mesh @mesh_0 = <["d"=2, "t"=2]>
    func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}) ... {
      %0 = stablehlo.sine %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh_0, [{"d"}, {"t"}]>]>} ...
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from ..ir.diagnostics import ShardpyError
from .sdy_codec import MESH_OP, decode_mesh, encode_mesh, module_meshes
from .model import Mesh, ShardingError

# Attributes of sdy ops that hold shardings: sharding_constraint's and reshard's
# `sharding`, collectives' `out_sharding`, manual and named computations' `in_shardings`
# and `out_shardings`. (Other ops: sdy.sharding, per value; function signatures'
# arg_attrs / res_attrs: MeshLifter.finish.)
SDY_OP_SHARDING_ATTRS = ("sharding", "out_sharding", "in_shardings", "out_shardings")
_SAME = object()  # MeshLifter.lifted: the attribute has no inlined mesh


class MeshLifter:
    def __init__(self, module: ir.Operation):
        self.module = module
        # name -> Mesh, declared ones first, and the first name of each mesh: read
        # when the first inlined mesh shows up
        self.meshes: dict[str, Mesh] | None = None
        self.by_mesh: dict[Mesh, str] = {}
        # attribute -> the same without inlined meshes (_SAME when it has none)
        self.lifted: dict[ir.Attribute, ir.Attribute] = {}
        self.new: list[tuple[str, ir.Attribute]] = []  # symbols to declare

    def visit(self, op: ir.Operation, attrs) -> None:
        """Lift the inlined meshes of one op's shardings (`attrs`: its attributes).
        Called for every op of the module, by the walk shardpy-import makes anyway
        (which inlines this test: the walk's cost is per op)."""
        if "sdy.sharding" in attrs:
            self.replace(op, attrs, "sdy.sharding")
        elif op.name.startswith("sdy."):
            self.visit_sdy_op(op, attrs)

    def visit_sdy_op(self, op: ir.Operation, attrs) -> None:
        for key in SDY_OP_SHARDING_ATTRS:
            if key in attrs:
                self.replace(op, attrs, key)

    def replace(self, op: ir.Operation, attrs, key: str) -> None:
        """attrs[key] with its inlined meshes lifted."""
        old = attrs[key]
        new = self.lifted.get(old)
        if new is None:
            self._lift(old, op)
            new = self.lifted[old]
        if new is not _SAME:
            attrs[key] = new

    def finish(self) -> None:
        """Lift the meshes of function signatures, declare the new mesh symbols (after
        the module's other meshes)."""
        module = self.module
        body = module.regions[0].blocks[0]
        last_mesh = None
        for op in body.operations:
            op = op.operation
            name = op.name
            if name == MESH_OP:
                last_mesh = op
            elif name == "func.func":
                attrs = op.attributes
                for key in ("arg_attrs", "res_attrs"):
                    if key in attrs:
                        self.replace(op, attrs, key)
        if not self.new:
            return
        with module.location:
            for name, mesh_attr in self.new:
                point = (ir.InsertionPoint.after(last_mesh) if last_mesh is not None
                         else ir.InsertionPoint.at_block_begin(body))
                with point:
                    last_mesh = sdy.MeshOp(name, mesh_attr)
        self.new.clear()

    def _lift(self, attr: ir.Attribute, op: ir.Operation) -> ir.Attribute:
        """`attr` with its inlined meshes lifted (`attr` itself when it has none)."""
        found = self.lifted.get(attr)
        if found is None:
            new = self._lift_uncached(attr, op)
            found = self.lifted[attr] = _SAME if new == attr else new
        return attr if found is _SAME else found

    def _lift_uncached(self, attr: ir.Attribute, op: ir.Operation) -> ir.Attribute:
        if sdy.TensorShardingAttr.isinstance(attr):
            sharding = sdy.TensorShardingAttr(attr)
            mesh = sharding.mesh_or_ref
            if not sdy.MeshAttr.isinstance(mesh):
                return attr
            return sdy.TensorShardingAttr.get(
                self._symbol(mesh, op), list(sharding.dimension_shardings),
                list(sharding.replicated_axes), list(sharding.unreduced_axes))
        if sdy.TensorShardingPerValueAttr.isinstance(attr):
            shardings = list(sdy.TensorShardingPerValueAttr(attr).shardings)
            lifted = [self._lift(s, op) for s in shardings]
            if all(a == b for a, b in zip(lifted, shardings)):
                return attr
            return sdy.TensorShardingPerValueAttr.get(lifted)
        if isinstance(attr, ir.ArrayAttr):  # a function's arg_attrs / res_attrs
            entries = list(attr)
            lifted = [self._lift(e, op) for e in entries]
            if all(a == b for a, b in zip(lifted, entries)):
                return attr
            return ir.ArrayAttr.get(lifted)
        if isinstance(attr, ir.DictAttr) and "sdy.sharding" in attr:
            old = attr["sdy.sharding"]
            new = self._lift(old, op)
            if new == old:
                return attr
            entries = {a.name: a.attr for a in attr}
            entries["sdy.sharding"] = new
            return ir.DictAttr.get(entries)
        return attr

    def _symbol(self, mesh_attr: ir.Attribute, op: ir.Operation) -> str:
        """The name of the `sdy.mesh` for an inlined mesh (declared here if new)."""
        mesh = decode_mesh(mesh_attr)
        try:
            mesh.validate()
        except ShardingError as err:
            raise ShardpyError(f"invalid mesh {mesh}: {err}", op.location) from None
        if self.meshes is None:
            self.meshes = module_meshes(self.module)
            for name, declared in self.meshes.items():
                self.by_mesh.setdefault(declared, name)
        name = self.by_mesh.get(mesh)
        if name is None:
            base = f"maximal_mesh_{mesh.device_ids[0]}" if mesh.is_maximal else "mesh"
            name, i = base, 0
            while name in self.meshes:
                name, i = f"{base}_{i}", i + 1
            self.meshes[name] = mesh
            self.by_mesh[mesh] = name
            self.new.append((name, encode_mesh(mesh)))
        return name


def lift_inlined_meshes(module: ir.Operation) -> None:
    """Give every inlined mesh of `module` a symbol (see the module docstring), in a
    walk of its own (shardpy-import lifts them in the walk it makes anyway)."""
    lifter = MeshLifter(module)

    def visit(op: ir.Operation) -> ir.WalkResult:
        lifter.visit(op, op.attributes)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    lifter.finish()
