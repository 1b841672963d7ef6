"""The fuzzer's `mixed` feature (test/fuzz/mixed.py): what it draws (the XLA:CPU bug
that keeps it off the values the `nans` feature put NaN into: test_xla_cpu_bugs.py)."""
from __future__ import annotations

import sys
from pathlib import Path

FUZZ_DIR = Path(__file__).resolve().parents[2] / "fuzz"
sys.path.insert(0, str(FUZZ_DIR))

import generate  # noqa: E402
import mixed  # noqa: E402

SEEDS = range(9_000_000, 9_000_400)


def test_about_one_program_in_eight_draws_it():
    drawn = [s for s in SEEDS if mixed.draws(s)]
    assert 30 <= len(drawn) <= 70


def test_programs_that_do_not_draw_it_are_unchanged():
    features = generate.Features()
    for seed in [s for s in SEEDS if not mixed.draws(s)][:20]:
        assert generate.generate(seed, features).text == \
            generate.generate(seed, features.without(["mixed"])).text


def test_drawn_programs_hold_each_form(context):
    seen = set()
    for seed in [s for s in SEEDS if mixed.draws(s)]:
        text = generate.generate(seed).text
        generate.parse_module(text, context)  # (verifies)
        for line in text.splitlines():
            if "xbf16>" in line or "xf16>" in line:
                if "stablehlo.dot_general" in line and "xf32>" in line.split("->")[-1]:
                    seen.add("dot")
                elif "applies stablehlo.add" in line:
                    seen.add("sum")
                elif "applies stablehlo.maximum" in line:
                    seen.add("max")
                elif "stablehlo.multiply" in line:
                    seen.add("square")
                if "xf16>" in line:
                    seen.add("f16")
    assert seen == {"dot", "sum", "max", "square", "f16"}


def test_no_mixed_values_in_bf16_programs():
    features = generate.Features().with_(["bf16"])
    for seed in [s for s in SEEDS if mixed.draws(s)][:10]:
        assert "xf16>" not in generate.generate(seed, features).text
