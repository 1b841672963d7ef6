"""The fuzzer's `linalg` feature (test/fuzz/linalg.py): what it draws."""
from __future__ import annotations

import re
import sys
from pathlib import Path

FUZZ_DIR = Path(__file__).resolve().parents[2] / "fuzz"
sys.path.insert(0, str(FUZZ_DIR))

import generate  # noqa: E402
import linalg  # noqa: E402

SEEDS = range(20_000, 20_400)


def test_about_one_program_in_eight_draws_it():
    drawn = [s for s in SEEDS if linalg.draws(s)]
    assert 30 <= len(drawn) <= 70


def test_programs_that_do_not_draw_it_are_unchanged():
    features = generate.Features()
    for seed in [s for s in SEEDS if not linalg.draws(s)][:20]:
        assert generate.generate(seed, features).text == \
            generate.generate(seed, features.without(["linalg"])).text


def test_drawn_programs_hold_each_form(context):
    seen = set()
    for seed in [s for s in SEEDS if linalg.draws(s)]:
        text = generate.generate(seed).text
        generate.parse_module(text, context)  # (verifies)
        seen |= set(re.findall(r"type = (FFT|IFFT|RFFT|IRFFT)", text))
        seen |= set(re.findall(r"stablehlo\.(cholesky)", text))
        seen |= set(re.findall(r"lower = (true|false)", text))
        seen |= set(re.findall(r"left_side = (true|false)", text))
        seen |= set(re.findall(r"transpose (NO_TRANSPOSE|TRANSPOSE|ADJOINT)", text))
    assert seen == {"FFT", "IFFT", "RFFT", "IRFFT", "cholesky", "true", "false",
                    "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}


def test_a_sharded_transformed_dim_is_drawn():
    """An fft's transformed dim other than 0 is now and then constrained onto a mesh
    axis: shardpy gathers it just before the fft (the layout XLA:CPU's fft once failed
    on: python/shardpy/ir/cpu_fft_layouts.py)."""
    found = 0
    for seed in [s for s in SEEDS if linalg.draws(s)]:
        text = generate.generate(seed).text
        for m in re.finditer(r"(%\w+) = sdy\.sharding_constraint %\w+ <@\w+, \[(.*)\]> : "
                             r"tensor<[0-9x]+xf32>\n\s*%\w+ = stablehlo\.fft \1, "
                             r"type = \w+, length = \[([0-9, ]+)\]", text):
            dims = m.group(2).split(", ")
            transformed = range(len(dims) - len(m.group(3).split(", ")), len(dims))
            if any('"' in dims[d] for d in transformed if d > 0):
                found += 1
    assert found >= 1
