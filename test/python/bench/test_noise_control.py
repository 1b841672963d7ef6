"""bench/noise_control.py: paired ratios, the A/A verdict, and two executables compared as
multisets of instructions."""
from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "bench"))

import noise_control as control  # noqa: E402

JAX = """HloModule jit_step

%region (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %add.1 = f32[] add(%a, %b)
}

ENTRY %main (p: f32[8,128]) -> f32[8,128] {
  %p = f32[8,128]{1,0} parameter(0), metadata={op_name="x"}
  %all-reduce = f32[8,128]{1,0} all-reduce(%p), replica_groups={{0,1}}, to_apply=%region
  ROOT %multiply.3 = f32[8,128]{1,0} multiply(%all-reduce, %all-reduce)
}
"""


def test_the_same_program_under_other_names_and_layouts_differs_in_nothing():
    renamed = (JAX.replace("%multiply.3", "%multiply.9").replace("{1,0}", "{0,1}")
               .replace('op_name="x"', 'op_name="y"'))
    diff = control.instruction_difference(JAX, renamed)
    assert diff == {"reference_only": 0, "shardpy_only": 0, "reference_total": 6,
                    "shardpy_total": 6}
    assert control.fmt_difference(diff) == "0 of 6 (same program)"


def test_an_instruction_of_another_shape_or_opcode_counts_on_both_sides():
    other = JAX.replace("ROOT %multiply.3 = f32[8,128]{1,0} multiply",
                        "ROOT %add.7 = f32[8,128]{1,0} add")
    diff = control.instruction_difference(JAX, other)
    assert (diff["reference_only"], diff["shardpy_only"]) == (1, 1)
    assert control.fmt_difference(diff) == "1 / 1 of 6"


def test_the_verdict_tests_the_round_ratios_against_the_a_a():
    aa = [1.00, 0.97, 1.03, 0.99, 1.02, 0.98, 1.01, 1.00, 0.96, 1.04]
    assert control.verdict([r - 0.10 for r in aa], aa)[0] == "faster"
    assert control.verdict([r + 0.10 for r in aa], aa)[0] == "slower"
    same, p = control.verdict([r + 0.005 for r in aa], aa)
    assert same == "within noise" and p > control.ALPHA
    assert control.verdict([0.9] * 3, aa) == (None, None)  # too few rounds


def test_paired_ratios_are_round_by_round_and_need_four_rounds():
    assert control.paired_ratios([10, 10, 10], [9, 9, 9]) is None
    paired = control.paired_ratios([10, 20, 10, 20], [9, 18, 11, 22])
    assert paired["count"] == 4 and paired["median"] == 1.0  # 0.9, 0.9, 1.1, 1.1
    assert paired["q1"] < 1.0 < paired["q3"]


def test_the_verdict_line_names_the_programs_not_faster():
    rows = [{"program": "a", "verdict": "faster"}, {"program": "b", "verdict": "within noise"},
            {"program": "c", "verdict": None}]
    line = control.verdict_line(rows)
    assert "Mann-Whitney" in line and line.endswith("faster 1; within noise 1 (b); slower 0")
