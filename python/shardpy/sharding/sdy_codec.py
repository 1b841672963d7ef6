"""Decode sdy attributes into the sharding model and encode them back.

A `ShardingCodec` belongs to one module: it knows the module's `sdy.mesh` symbols and
caches both directions (MLIR uniques attributes, so equal shardings share one attribute
and decode once). Errors carry the location the caller passes in.
"""
from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from ..ir.diagnostics import ShardpyError
from .model import AxisRef, DimSharding, Mesh, ShardingError, TensorSharding

SHARDING_ATTR = "sdy.sharding"
MESH_OP = "sdy.mesh"


def decode_mesh(attr: ir.Attribute) -> Mesh:
    mesh = sdy.MeshAttr(attr)
    axes = tuple((a.name, a.size) for a in map(sdy.MeshAxisAttr, mesh.axes))
    return Mesh(axes, tuple(mesh.device_ids))


def encode_mesh(mesh: Mesh) -> ir.Attribute:
    return sdy.MeshAttr.get([sdy.MeshAxisAttr.get(n, s) for n, s in mesh.axes],
                            list(mesh.device_ids))


def decode_axis(attr: ir.Attribute) -> AxisRef:
    ref = sdy.AxisRefAttr(attr)
    info = ref.sub_axis_info
    if info is None:
        return AxisRef(ref.name)
    info = sdy.SubAxisInfoAttr(info)
    return AxisRef(ref.name, (info.pre_size, info.size))


def encode_axis(ref: AxisRef) -> ir.Attribute:
    info = sdy.SubAxisInfoAttr.get(*ref.sub) if ref.sub else None
    return sdy.AxisRefAttr.get(ref.name, info)


def module_meshes(module: ir.Operation) -> dict[str, Mesh]:
    """The `sdy.mesh` symbols declared at the top of `module`."""
    meshes = {}
    for op in module.regions[0].blocks[0].operations:
        if op.operation.name == MESH_OP:
            name = ir.StringAttr(op.attributes["sym_name"]).value
            try:
                meshes[name] = decode_mesh(op.attributes["mesh"])
                meshes[name].validate()
            except ShardingError as err:
                raise ShardpyError(f"invalid mesh @{name}: {err}", op.location) from None
    return meshes


class ShardingCodec:
    def __init__(self, meshes: dict[str, Mesh]):
        self.meshes = meshes
        self._decoded: dict[ir.Attribute, TensorSharding] = {}
        self._encoded: dict[TensorSharding, ir.Attribute] = {}
        self._valid: set[tuple[TensorSharding, tuple]] = set()  # (sharding, shape) checked
        # (sdy.sharding attribute, argument or result type) -> its decoded sharding
        self._per_signature_entry: dict[tuple[ir.Attribute, ir.Type], TensorSharding] = {}

    @staticmethod
    def for_module(module: ir.Operation) -> "ShardingCodec":
        return ShardingCodec(module_meshes(module))

    def decode(self, attr: ir.Attribute, loc: ir.Location | None = None,
               shape: tuple[int, ...] | None = None) -> TensorSharding:
        """Decode (and validate against `shape` when given) one `#sdy.sharding`."""
        sharding = self._decoded.get(attr)
        if sharding is None:
            sharding = self._decode_uncached(attr, loc)
            self._decoded[attr] = sharding
        if shape is not None:
            if sharding.mesh.is_maximal and not sharding.dims and len(shape):
                # `<@maximal_mesh, []>` fits a tensor of any rank: the whole value.
                sharding = TensorSharding.replicated_on(sharding.mesh, len(shape),
                                                        sharding.mesh_name)
            self.check(sharding, shape, loc)
        return sharding

    def check(self, sharding: TensorSharding, shape, loc) -> None:
        key = (sharding, tuple(shape))
        if key in self._valid:
            return
        try:
            sharding.validate(shape)
        except ShardingError as err:
            raise ShardpyError(f"invalid sharding {sharding}: {err}", loc) from None
        self._valid.add(key)

    def _decode_uncached(self, attr: ir.Attribute, loc) -> TensorSharding:
        if not sdy.TensorShardingAttr.isinstance(attr):
            raise ShardpyError(f"expected #sdy.sharding, got {attr}", loc)
        ts = sdy.TensorShardingAttr(attr)
        mesh_or_ref = ts.mesh_or_ref
        if sdy.MeshAttr.isinstance(mesh_or_ref):
            mesh, mesh_name = decode_mesh(mesh_or_ref), None
        else:
            mesh_name = ir.FlatSymbolRefAttr(mesh_or_ref).value
            if mesh_name not in self.meshes:
                known = ", ".join("@" + m for m in self.meshes) or "none"
                raise ShardpyError(f"unknown mesh @{mesh_name} (declared meshes: {known})", loc)
            mesh = self.meshes[mesh_name]
        dims = []
        for d in map(sdy.DimensionShardingAttr, ts.dimension_shardings):
            dims.append(DimSharding(tuple(map(decode_axis, d.axes)), d.is_closed, d.priority))
        return TensorSharding(
            mesh, tuple(dims), tuple(map(decode_axis, ts.replicated_axes)),
            tuple(map(decode_axis, ts.unreduced_axes)), mesh_name)

    def encode(self, sharding: TensorSharding) -> ir.Attribute:
        attr = self._encoded.get(sharding)
        if attr is None:
            mesh = sharding.mesh_name if sharding.mesh_name else encode_mesh(sharding.mesh)
            # (a maximal sharding is written `<@maximal_mesh, []>`, whatever the rank: the
            # verifier allows nothing else)
            dims = [] if sharding.mesh.is_maximal else [
                sdy.DimensionShardingAttr.get([encode_axis(a) for a in d.axes], d.closed,
                                              d.priority) for d in sharding.dims]
            attr = sdy.TensorShardingAttr.get(
                mesh, dims, [encode_axis(a) for a in sharding.replicated],
                [encode_axis(a) for a in sharding.unreduced])
            self._encoded[sharding] = attr
            self._decoded.setdefault(attr, sharding)
        return attr

    # -- func signatures -------------------------------------------------------------
    def func_arg_shardings(self, func_op) -> list[TensorSharding | None]:
        return self._signature_shardings(func_op, "arg_attrs")

    def func_result_shardings(self, func_op) -> list[TensorSharding | None]:
        return self._signature_shardings(func_op, "res_attrs")

    def _signature_shardings(self, func_op, key) -> list[TensorSharding | None]:
        func_attrs = func_op.attributes
        ftype = ir.FunctionType(ir.TypeAttr(func_attrs["function_type"]).value)
        types = list(ftype.inputs if key == "arg_attrs" else ftype.results)
        out: list[TensorSharding | None] = [None] * len(types)
        if key not in func_attrs:
            return out
        loc = None  # read once, where a sharding is new (validation errors point at it)
        for i, attrs in enumerate(ir.ArrayAttr(func_attrs[key])):
            attrs = ir.DictAttr(attrs)
            if SHARDING_ATTR in attrs:
                # Signatures repeat (a layer's weights): decoded and validated once per
                # distinct (sharding, type).
                attr, arg_type = attrs[SHARDING_ATTR], types[i]
                found = self._per_signature_entry.get((attr, arg_type))
                if found is None:
                    loc = loc or func_op.location
                    shape = tuple(arg_type.shape) if isinstance(
                        arg_type, ir.RankedTensorType) else None
                    found = self._per_signature_entry[(attr, arg_type)] = self.decode(
                        attr, loc, shape)
                out[i] = found
        return out


# --------------------------------------------------------------------------- collectives
# jaxlib's sdy bindings have no builders for the collectives' axis-list attributes, so
# these three are made by MLIR's attribute parser from the model's sdy spelling (the
# verifier then checks them against the operand and result shardings).


def _axes_text(axes) -> str:
    return "{" + ", ".join(str(a) for a in axes) + "}"


def encode_axis_list(axes) -> ir.Attribute:
    """`#sdy<axis_ref_list{"x", "y"}>` (sdy.all_reduce's reduction axes)."""
    return ir.Attribute.parse(f"#sdy<axis_ref_list{_axes_text(axes)}>")


def encode_axis_lists(per_dim) -> ir.Attribute:
    """`#sdy<list_of_axis_ref_lists[{}, {"y"}]>` (gathering/slicing/scattering axes)."""
    return ir.Attribute.parse(
        "#sdy<list_of_axis_ref_lists[" + ", ".join(_axes_text(d) for d in per_dim) + "]>")


def encode_all_to_all_params(params) -> ir.Attribute:
    """`#sdy<all_to_all_param_list[{"x"}: 0->1]>` from (axes, src_dim, tgt_dim) triples."""
    return ir.Attribute.parse(
        "#sdy<all_to_all_param_list[" + ", ".join(
            f"{_axes_text(axes)}: {src}->{tgt}" for axes, src, tgt in params) + "]>")
