"""Unit tests for decoding/encoding `#sdy.sharding` attributes (python/shardpy/sharding/sdy_codec.py)."""
from __future__ import annotations

import pytest
from jaxlib.mlir import ir

from shardpy.ir.diagnostics import ShardpyError
from shardpy.sharding.sdy_codec import (ShardingCodec, decode_axis, decode_mesh, encode_axis,
                               encode_mesh, module_meshes)
from shardpy.sharding.model import AxisRef, DimSharding, Mesh, TensorSharding

MODULE = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @m8 = <["x"=8]>
sdy.mesh @perm = <["a"=2, "b"=2], device_ids=[3, 1, 2, 0]>
sdy.mesh @maximal = <[], device_ids=[3]>
sdy.mesh @empty = <[]>
func.func @main(
    %a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y", ?}p2]>},
    %b: tensor<8xf32>,
    %c: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m8, [{"x":(1)2}, {"x":(2)4}]>},
    %d: tensor<f32> {sdy.sharding = #sdy.sharding<@maximal, []>},
    %e: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@perm, [{"b"}, {}], replicated={"a"}>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}], unreduced={"x"}>},
        tensor<8xf32>) {
  return %a, %b : tensor<8x16xf32>, tensor<8xf32>
}
"""

MESHES = {
    "mesh": Mesh((("x", 2), ("y", 4))),
    "m8": Mesh((("x", 8),)),
    "xyz": Mesh((("x", 2), ("y", 2), ("z", 2))),
    "big": Mesh((("x", 4), ("y", 4), ("z", 2))),
}


@pytest.fixture
def module(ctx):
    return ir.Module.parse(MODULE)


@pytest.fixture
def main_func(module):
    return [op for op in module.body.operations if op.operation.name == "func.func"][0]


def parse(text: str) -> ir.Attribute:
    return ir.Attribute.parse(text)


# =========================================================================== meshes


def test_module_meshes_decodes_every_mesh_symbol(module):
    assert module_meshes(module.operation) == {
        "mesh": Mesh((("x", 2), ("y", 4))),
        "m8": Mesh((("x", 8),)),
        "perm": Mesh((("a", 2), ("b", 2)), (3, 1, 2, 0)),
        "maximal": Mesh((), (3,)),
        "empty": Mesh(),
    }


def test_module_meshes_of_module_without_meshes_is_empty(ctx):
    assert module_meshes(ir.Module.parse("func.func @f() { return }").operation) == {}


def test_decode_mesh_maximal(ctx):
    mesh = decode_mesh(parse("#sdy.mesh<[], device_ids=[5]>"))
    assert mesh.is_maximal and mesh.device_ids == (5,)


@pytest.mark.parametrize("text", [
    '#sdy.mesh<["x"=2, "y"=4]>',
    '#sdy.mesh<["a"=4], device_ids=[3, 2, 1, 0]>',
    "#sdy.mesh<[], device_ids=[3]>",
    "#sdy.mesh<[]>",
])
def test_mesh_round_trip(ctx, text):
    attr = parse(text)
    assert encode_mesh(decode_mesh(attr)) == attr


def test_encode_mesh_drops_iota_device_ids(ctx):
    assert encode_mesh(Mesh((("x", 4),), (0, 1, 2, 3))) == parse('#sdy.mesh<["x"=4]>')


@pytest.mark.parametrize("text,ref", [
    ('#sdy<axis_ref"x">', AxisRef("x")),
    ('#sdy<axis_ref"x":(2)4>', AxisRef("x", (2, 4))),
])
def test_axis_ref_decode_and_encode(ctx, text, ref):
    attr = parse(text)
    assert decode_axis(attr) == ref
    assert encode_axis(ref) == attr


# =========================================================================== func signatures


def test_func_arg_shardings_decode_values(module, main_func):
    codec = ShardingCodec.for_module(module.operation)
    args = codec.func_arg_shardings(main_func)
    mesh = Mesh((("x", 2), ("y", 4)))
    assert args[0] == TensorSharding(
        mesh, (DimSharding((AxisRef("x"),)), DimSharding((AxisRef("y"),), False, 2)),
        mesh_name="mesh")


def test_func_arg_without_sharding_decodes_to_none(module, main_func):
    args = ShardingCodec.for_module(module.operation).func_arg_shardings(main_func)
    assert len(args) == 5
    assert args[1] is None


def test_func_arg_sub_axes_decode(module, main_func):
    s = ShardingCodec.for_module(module.operation).func_arg_shardings(main_func)[2]
    assert s.mesh_name == "m8"
    assert [d.axes for d in s.dims] == [(AxisRef("x", (1, 2)),), (AxisRef("x", (2, 4)),)]
    assert s.local_shape((16, 8)) == (8, 2)


def test_func_arg_on_maximal_mesh_decodes(module, main_func):
    s = ShardingCodec.for_module(module.operation).func_arg_shardings(main_func)[3]
    assert s.mesh == Mesh((), (3,)) and s.mesh.is_maximal
    assert s.rank == 0


def test_func_arg_on_mesh_with_device_ids_decodes(module, main_func):
    s = ShardingCodec.for_module(module.operation).func_arg_shardings(main_func)[4]
    assert s.mesh.device_ids == (3, 1, 2, 0)
    assert s.replicated == (AxisRef("a"),)
    # device 1 sits at mesh position 1: a=0, b=1 -> second half of dim 0
    assert s.device_slices((4, 4), 1) == (slice(2, 4), slice(0, 4))


def test_func_result_shardings_decode_values(module, main_func):
    results = ShardingCodec.for_module(module.operation).func_result_shardings(main_func)
    assert results[1] is None
    assert results[0] == TensorSharding(
        Mesh((("x", 2), ("y", 4))), (DimSharding(), DimSharding((AxisRef("y"),))),
        unreduced=(AxisRef("x"),), mesh_name="mesh")


def test_func_without_arg_attrs_gives_all_none(ctx):
    module = ir.Module.parse("""
      func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> { return %a : tensor<2xf32> }""")
    func = list(module.body.operations)[0]
    codec = ShardingCodec.for_module(module.operation)
    assert codec.func_arg_shardings(func) == [None]
    assert codec.func_result_shardings(func) == [None]


def _set_arg_sharding(func, text: str) -> None:
    """Attach a sharding to arg 0 without the verifier (which would reject bad ones)."""
    attr = parse(text)
    func.attributes["arg_attrs"] = ir.ArrayAttr.get(
        [ir.DictAttr.get({"sdy.sharding": attr}), ir.DictAttr.get({})])


BARE = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @f(%a: tensor<8x16xf32>, %b: tensor<4xf32>) -> tensor<8x16xf32> {
  return %a : tensor<8x16xf32>
}
"""


def test_func_arg_unknown_mesh_error_has_func_location(ctx):
    module = ir.Module.parse(BARE)
    func = list(module.body.operations)[1]
    _set_arg_sharding(func, '#sdy.sharding<@nomesh, [{"x"}, {}]>')
    with pytest.raises(ShardpyError, match="unknown mesh @nomesh") as err:
        ShardingCodec.for_module(module.operation).func_arg_shardings(func)
    assert err.value.location is not None
    assert str(err.value.location) == str(func.location)


def test_func_arg_axis_not_in_mesh_is_validated_against_arg_type(ctx):
    module = ir.Module.parse(BARE)
    func = list(module.body.operations)[1]
    _set_arg_sharding(func, '#sdy.sharding<@mesh, [{"q"}, {}]>')
    with pytest.raises(ShardpyError, match='unknown axis "q"') as err:
        ShardingCodec.for_module(module.operation).func_arg_shardings(func)
    assert err.value.location is not None


def test_func_arg_rank_mismatch_is_validated_against_arg_type(ctx):
    module = ir.Module.parse(BARE)
    func = list(module.body.operations)[1]
    _set_arg_sharding(func, '#sdy.sharding<@mesh, [{"x"}]>')
    with pytest.raises(ShardpyError, match="rank 2"):
        ShardingCodec.for_module(module.operation).func_arg_shardings(func)


# =========================================================================== round trip

ROUND_TRIP = [
    '#sdy.sharding<@mesh, [{"x"}, {"y"}]>',
    '#sdy.sharding<@mesh, [{"y", "x"}, {}]>',
    '#sdy.sharding<@mesh, [{"x", ?}, {?}]>',
    '#sdy.sharding<@mesh, [{"x", ?}p1, {}], replicated={"y"}>',
    '#sdy.sharding<@mesh, [{?}p0, {"y"}p3]>',
    '#sdy.sharding<@mesh, [{}, {}]>',
    '#sdy.sharding<@mesh, []>',
    '#sdy.sharding<@mesh, [], replicated={"x", "y"}>',
    '#sdy.sharding<@mesh, [{}], unreduced={"x"}>',
    '#sdy.sharding<@xyz, [{"x", ?}p1, {}], replicated={"y"}, unreduced={"z"}>',
    '#sdy.sharding<@m8, [{"x":(1)2}, {"x":(2)4}]>',
    '#sdy.sharding<@m8, [{"x":(4)2, "x":(1)2}, {?}]>',
    '#sdy.sharding<@m8, [{"x":(2)2}], replicated={"x":(1)2}, unreduced={"x":(4)2}>',
    '#sdy.sharding<@big, [{"y":(2)2, "x"}, {"z", ?}p2], replicated={"y":(1)2}>',
    '#sdy.sharding<mesh<["a"=4], device_ids=[3, 2, 1, 0]>, [{"a"}]>',
    '#sdy.sharding<mesh<["a"=2, "b"=3]>, [{"b"}, {"a", ?}]>',
    '#sdy.sharding<mesh<[], device_ids=[3]>, []>',  # (maximal: no dims, whatever the rank)
    '#sdy.sharding<mesh<[]>, [{}]>',
    '#sdy.sharding<mesh<[]>, []>',
]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_encode_decode_round_trip(ctx, text):
    attr = parse(text)
    decoded = ShardingCodec(MESHES).decode(attr)
    assert ShardingCodec(MESHES).encode(decoded) == attr


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_decoded_str_matches_attribute_text(ctx, text):
    attr = parse(text)
    assert "#sdy.sharding" + str(ShardingCodec(MESHES).decode(attr)) == str(attr)


def test_decode_of_full_example_gives_model_values(ctx):
    s = ShardingCodec(MESHES).decode(
        parse('#sdy.sharding<@xyz, [{"x", ?}p1, {}], replicated={"y"}, unreduced={"z"}>'))
    assert s == TensorSharding(
        MESHES["xyz"], (DimSharding((AxisRef("x"),), False, 1), DimSharding()),
        (AxisRef("y"),), (AxisRef("z"),), "xyz")


def test_decode_inlined_mesh_has_no_mesh_name(ctx):
    s = ShardingCodec({}).decode(
        parse('#sdy.sharding<mesh<["a"=4], device_ids=[3, 2, 1, 0]>, [{"a"}]>'))
    assert s.mesh_name is None
    assert s.mesh == Mesh((("a", 4),), (3, 2, 1, 0))


def test_decode_inlined_iota_device_ids_are_dropped(ctx):
    s = ShardingCodec({}).decode(
        parse('#sdy.sharding<mesh<["a"=4], device_ids=[0, 1, 2, 3]>, [{"a"}]>'))
    assert s.mesh == Mesh((("a", 4),)) and s.mesh.device_ids == ()


def test_decode_absent_priority_is_none(ctx):
    s = ShardingCodec(MESHES).decode(parse('#sdy.sharding<@mesh, [{"x"}, {"y"}p0]>'))
    assert [d.priority for d in s.dims] == [None, 0]


def test_encode_python_built_sharding_equals_parsed_text(ctx):
    s = TensorSharding(MESHES["m8"], (DimSharding((AxisRef("x", (2, 2)),), False, 1),
                                      DimSharding()),
                       replicated=(AxisRef("x", (1, 2)),), mesh_name="m8")
    assert ShardingCodec(MESHES).encode(s) == parse(
        '#sdy.sharding<@m8, [{"x":(2)2, ?}p1, {}], replicated={"x":(1)2}>')


def test_decode_is_cached_per_attribute(ctx):
    codec = ShardingCodec(MESHES)
    first = codec.decode(parse('#sdy.sharding<@mesh, [{"x"}]>'))
    assert codec.decode(parse('#sdy.sharding<@mesh, [{"x"}]>')) is first


def test_encode_is_cached_and_feeds_decode_cache(ctx):
    codec = ShardingCodec(MESHES)
    s = TensorSharding(MESHES["mesh"], (DimSharding((AxisRef("y"),)),), mesh_name="mesh")
    attr = codec.encode(s)
    assert codec.encode(s) == attr
    assert codec.decode(attr) is s


def test_cached_decode_still_validates_shape(ctx):
    codec = ShardingCodec(MESHES)
    attr = parse('#sdy.sharding<@mesh, [{"x"}]>')
    codec.decode(attr)
    with pytest.raises(ShardpyError, match="rank 2"):
        codec.decode(attr, ir.Location.unknown(), shape=(4, 4))


# =========================================================================== errors


def test_decode_unknown_mesh_names_mesh_and_keeps_location(ctx):
    loc = ir.Location.file("model.mlir", 7, 3)
    with pytest.raises(ShardpyError) as err:
        ShardingCodec(MESHES).decode(parse('#sdy.sharding<@nomesh, [{"x"}]>'), loc)
    assert "@nomesh" in err.value.message
    assert "@mesh" in err.value.message          # lists the meshes that do exist
    assert err.value.location is not None
    assert str(err.value.location) == str(loc)


def test_decode_unknown_mesh_with_no_meshes_declared(ctx):
    with pytest.raises(ShardpyError, match=r"unknown mesh @mesh \(declared meshes: none\)"):
        ShardingCodec({}).decode(parse('#sdy.sharding<@mesh, [{"x"}]>'), ir.Location.unknown())


def test_decode_axis_not_in_mesh_names_axis_with_shape(ctx):
    loc = ir.Location.file("model.mlir", 2, 9)
    with pytest.raises(ShardpyError) as err:
        ShardingCodec(MESHES).decode(parse('#sdy.sharding<@mesh, [{"q"}, {}]>'), loc, (4, 4))
    assert '"q"' in err.value.message
    assert '"x", "y"' in err.value.message       # lists the mesh's axes
    assert str(err.value.location) == str(loc)


def test_decode_axis_not_in_mesh_without_shape_is_not_validated(ctx):
    # validation is opt-in (pass a shape); plain decode only maps the attribute
    s = ShardingCodec(MESHES).decode(parse('#sdy.sharding<@mesh, [{"q"}]>'))
    assert s.dims[0].axes == (AxisRef("q"),)


def test_decode_axis_used_twice_with_shape(ctx):
    with pytest.raises(ShardpyError, match='axis "x" in dimension 1 is used twice') as err:
        ShardingCodec(MESHES).decode(parse('#sdy.sharding<@mesh, [{"x"}, {"x"}]>'),
                                     ir.Location.unknown(), (4, 4))
    assert err.value.location is not None


def test_decode_non_sharding_attribute_is_an_error(ctx):
    with pytest.raises(ShardpyError, match="expected #sdy.sharding") as err:
        ShardingCodec(MESHES).decode(parse("1 : i32"), ir.Location.unknown())
    assert err.value.location is not None


def test_failed_decode_is_not_cached(ctx):
    codec = ShardingCodec({})
    attr = parse('#sdy.sharding<@mesh, [{"x"}]>')
    with pytest.raises(ShardpyError):
        codec.decode(attr)
    codec.meshes["mesh"] = MESHES["mesh"]
    assert codec.decode(attr).mesh == MESHES["mesh"]
