"""shardpy.runtime.hlo_collectives: the collectives of an XLA executable read from its
optimized HLO, on every text form XLA prints, costed like shardpy's own."""
from __future__ import annotations

import pytest

from shardpy.runtime import hlo_collectives as hc


def test_result_shapes_array_and_tuple():
    shapes = hc.result_shapes("%all-gather = f32[32,64]{1,0} all-gather(%param.1), "
                              "channel_id=1, dimensions={0}")
    assert shapes == [hc.ArrayShape("f32", (32, 64))]
    tuple_text = ("%all-reduce.3 = (f32[], f32[64,32]{1,0}, /*index=5*/s32[8]{0}) "
                  "all-reduce(%a, %b, %c), channel_id=1, replica_groups={}")
    assert [s.bytes for s in hc.result_shapes(tuple_text)] == [4, 8192, 32]
    assert hc.result_shapes("ROOT %x = pred[2,3]{1,0} all-reduce(%y)")[0].bytes == 6


@pytest.mark.parametrize("groups, size", [
    ("{{0,1,2,3},{4,5,6,7}}", 4),
    ("{{0,4},{1,5},{2,6},{3,7}}", 2),
    ("[2,4]<=[8]", 4),
    ("[4,2]<=[2,4]T(1,0)", 2),
    ("mesh['axis_0'=8,'axis_1'=1] {'axis_0'}", 8),
    ("mesh['axis_0'=2,'axis_1'=4] {'axis_1'}", 4),
    ("mesh['axis_0'=2,'axis_1'=4] {'axis_0','axis_1'}", 8),
    ("mesh['axis_0'=4,'axis_1'=1,'axis_2'=2], device_ids=([2,4]T(1,0)) {'axis_0'}", 4),
    ("mesh['axis_0'=8] {'axis_0':(2)4}", 4),
    ("{}", 8),
])
def test_group_size_forms(groups, size):
    text = f"%ar = f32[8]{{0}} all-reduce(%x), channel_id=1, replica_groups={groups}, " \
           f"use_global_device_ids=true, to_apply=%add"
    assert hc.group_size(text, 8) == size


def test_costs_match_the_cost_model():
    ar = ("kAllReduce", "%ar = f32[16,32]{1,0} all-reduce(%x), replica_groups=[1,8]<=[8]",
          ["%x = f32[16,32]{1,0} fusion(%p)"])
    ag = ("kAllGather", "%ag = f32[32,64]{1,0} all-gather(%w), replica_groups=[1,8]<=[8], "
                        "dimensions={0}", ["%w = f32[4,64]{1,0} parameter(1)"])
    cp = ("kCollectivePermute", "%cp = f32[8,64]{1,0} collective-permute(%y), "
                                "source_target_pairs={{0,1},{1,0}}", ["%y = f32[8,64]{1,0} copy(%z)"])
    other = ("kAdd", "%a = f32[] add(%b, %c)", [])
    found = hc.read_collectives([ar, ag, cp, other], 8)
    assert [c.kind for c in found.collectives] == ["all_reduce", "all_gather",
                                                  "collective_permute"]
    assert [c.cost for c in found.collectives] == [2 * 7 / 8 * 2048, 7 / 8 * 8192, 2048]
    assert found.by_kind()["all_gather"] == {"count": 1, "bytes_per_device": 7 / 8 * 8192}
    assert found.gathered() == [hc.ArrayShape("f32", (16, 32)), hc.ArrayShape("f32", (32, 64))]
