"""The fuzzer's `linalg` feature (test/fuzz/linalg.py): what it draws, and how it keeps
clear of the XLA:CPU fft layout bug (known_issues: fft_of_gathered_minor_dims)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

FUZZ_DIR = Path(__file__).resolve().parents[2] / "fuzz"
sys.path.insert(0, str(FUZZ_DIR))

import generate  # noqa: E402
import known_issues  # noqa: E402
import linalg  # noqa: E402
import manual  # noqa: E402

SEEDS = range(20_000, 20_400)
SAFE = generate.Features.from_spec(known_issues.DISABLED)


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
    """With every feature on, an fft's transformed dim other than 0 is now and then
    constrained onto a mesh axis (what XLA:CPU fails on, and shardpy gathers)."""
    found = 0
    for seed in [s for s in SEEDS if linalg.draws(s)]:
        text = generate.generate(seed).text
        for m in re.finditer(r"= sdy\.sharding_constraint (%\w+) <@mesh, \[(.*)\]> : "
                             r"tensor<([0-9x]+)xf32>\n.*stablehlo\.fft \1?", text):
            dims = m.group(2).split(", ")
            if any('"' in d for d in dims[1:]):
                found += 1
    assert found >= 1


def test_without_the_known_issue_ffts_read_arguments_laid_out_on_dim_0():
    """Known issues off: each fft section reads a new argument sharded on dim 0 at most,
    its other dims closed; its results are returned laid out the same way."""
    checked = 0
    for seed in [s for s in SEEDS if linalg.draws(s)]:
        program = generate.generate(seed, SAFE)
        text = program.text
        for fft in re.finditer(r"(%\w+) = stablehlo\.tanh (%arg\d+) : .*\n"
                               r"\s*%\w+ = stablehlo\.(?:fft|sine) \1\b", text):
            arg = fft.group(2)
            sharding = re.search(re.escape(arg) + r": tensor<[^>]*> \{sdy\.sharding = "
                                 r"#sdy\.sharding<@\w+, \[(.*?)\]>", text)
            if sharding is None:  # (bare manual programs drop every @main sharding)
                assert manual.draws(seed) and manual.bare(seed), (seed, arg)
                continue
            assert all(d == "{}" for d in sharding.group(1).split(", ")[1:]), (seed, arg)
            checked += 1
    assert checked >= 10
