"""Host memory at shardpy-run's boundary (issue 19, item 4): sizes are checked before
allocating, a MemoryError that gets past the check is the same one-line error, and
random inputs are drawn without a float64 copy of the whole argument."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from shardpy.runtime import arrays
from shardpy.runtime.arrays import TensorType, check_host_memory, random_inputs
from shardpy.cli import run_tool
from shardpy.ir.diagnostics import ShardpyError

F32 = np.dtype(np.float32)


def tt(shape, dtype=F32) -> TensorType:
    return TensorType(tuple(shape), np.dtype(dtype), "t")


def whole_draws(types, seed):
    """What random_inputs drew before it drew in chunks (one call per argument, cast)."""
    rng = np.random.default_rng(seed)
    out = []
    for t in types:
        if t.dtype == np.bool_:
            out.append(rng.random(t.shape) < 0.5)
        elif np.issubdtype(t.dtype, np.unsignedinteger):
            out.append(rng.integers(0, 16, t.shape).astype(t.dtype))
        elif np.issubdtype(t.dtype, np.integer):
            out.append(rng.integers(-8, 8, t.shape).astype(t.dtype))
        elif np.issubdtype(t.dtype, np.complexfloating):
            out.append((rng.standard_normal(t.shape) + 1j * rng.standard_normal(t.shape))
                       .astype(t.dtype))
        else:
            out.append(rng.standard_normal(t.shape).astype(t.dtype))
    return out


@pytest.mark.parametrize("chunk", [7, 1000, 1 << 20])
def test_chunked_draws_keep_the_values_of_whole_draws(monkeypatch, chunk):
    monkeypatch.setattr(arrays, "_DRAW_CHUNK", chunk)
    types = [tt(s, d) for d in (np.float32, np.float64, np.float16, ml_dtypes.bfloat16,
                                np.int8, np.int32, np.uint8, np.bool_, np.complex64)
             for s in ((3, 5), (), (0, 4), (1500, 7))]
    for got, want in zip(random_inputs(types, 3), whole_draws(types, 3)):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)


def test_too_large_argument_is_refused_before_allocating(monkeypatch):
    monkeypatch.setattr(arrays, "host_memory_bytes", lambda: 1 << 30)
    allocated, empty = [], np.empty

    def recording_empty(shape, dtype):
        allocated.append(shape)
        return empty(shape, dtype)

    monkeypatch.setattr(arrays.np, "empty", recording_empty)
    with pytest.raises(ShardpyError) as err:
        random_inputs([tt((4,)), tt((1 << 20, 512))], 0)
    assert str(err.value) == (
        "arg1 (tensor<1048576x512xt>, 536870912 float32 elements: 2147483648 bytes, "
        "2 GiB) does not fit in this machine's 1 GiB of memory; run the module with "
        "smaller shapes (inputs, random or from --inputs, have the argument's global shape)")
    assert (4,) in allocated and (1 << 20, 512) not in allocated


def test_blocks_on_devices_are_counted(monkeypatch):
    monkeypatch.setattr(arrays, "host_memory_bytes", lambda: 1 << 30)
    check_host_memory("out0", tt((1 << 20, 64)))  # 256 MiB fits
    with pytest.raises(ShardpyError, match=r"^out0 \(.*256 MiB; its blocks on 8 devices "
                                           r"take 2147483648 bytes, 2 GiB,\) does not fit"):
        check_host_memory("out0", tt((1 << 20, 64)), 8 << 28, "its blocks on 8 devices")


def test_memory_error_while_allocating_is_the_same_error(monkeypatch):
    def no_memory(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(arrays.np, "empty", no_memory)
    with pytest.raises(ShardpyError, match=r"^arg0 \(tensor<8x8xt>, 64 float32 elements: "
                                           r"256 bytes, 256 bytes\) does not fit"):
        random_inputs([tt((8, 8))], 0)


def test_tools_report_a_stray_memory_error_in_one_line(capsys):
    def body(argv):
        raise MemoryError("Unable to allocate 7.28 TiB")

    assert run_tool("shardpy-run", body, []) == 1
    err = capsys.readouterr().err
    assert err == ("shardpy-run: error: ran out of host memory (Unable to allocate 7.28 "
                   "TiB); run with smaller shapes\n")


def test_host_memory_is_known_here():
    assert arrays.host_memory_bytes() > 0


# --------------------------------------------------------------------------- bf16 (issue 15)
BF16 = np.dtype(ml_dtypes.bfloat16)


def test_narrow_floats_are_floats_with_their_own_tolerances():
    assert arrays.is_floating(BF16) and arrays.is_floating(np.dtype(np.float16))
    assert not arrays.is_floating(np.dtype(np.int32)) and not arrays.is_floating(
        np.dtype(np.bool_))
    assert arrays.default_tolerances(F32) == (1e-4, 1e-5)
    assert arrays.default_tolerances(BF16) == (0.0625, 0.0078125)
    assert arrays.default_tolerances(np.dtype(np.float16)) == (8 * 2.0 ** -10, 2.0 ** -10)


def test_bf16_outputs_compare_as_floats():
    want = np.linspace(-4, 4, 64).astype(BF16)
    ulp = (want.astype(np.float32) * np.float32(1 + 2 ** -8)).astype(BF16)  # last bits
    assert arrays.compare("out0", ulp, want).ok
    wrong = (want.astype(np.float32) * 0.5).astype(BF16)  # half of a two-way sum
    c = arrays.compare("out0", wrong, want)
    assert not c.ok and "differ by more than 0.0078125 + 0.0625" in c.detail
    # ints stay exact
    assert not arrays.compare("out0", np.array([1, 2]), np.array([1, 3])).ok


def test_npz_round_trip_of_tagged_bits_and_raw_records(tmp_path):
    x = np.arange(6, dtype=np.float32).reshape(2, 3).astype(BF16)
    arrays.save_outputs(tmp_path / "o.npz", [x, np.ones(2, np.float32)])
    with np.load(tmp_path / "o.npz") as archive:
        assert archive["out0"].dtype == np.uint16 and str(archive["out0.dtype"]) == "bfloat16"
        back = arrays.read_npz(archive, "out0")
        assert back.dtype == BF16 and np.array_equal(back, x)
        assert arrays.read_npz(archive, "out1").dtype == np.float32
    np.savez(tmp_path / "raw.npz", arg0=x)  # what np.savez does with an ml_dtypes array
    loaded = arrays.load_inputs(tmp_path / "raw.npz", [TensorType((2, 3), BF16, "bf16")])
    assert loaded[0].dtype == BF16 and np.array_equal(loaded[0], x)


def test_random_blocks_are_the_slices_of_random_inputs(monkeypatch):
    """RandomInputs.blocks draws random_inputs' stream once, keeping only the blocks
    asked for (what one process of several places): the same values, chunk borders
    anywhere (a tiny chunk here), scalars, complex parts, empty arrays."""
    monkeypatch.setattr(arrays, "_DRAW_CHUNK", 7)
    types = (TensorType((4, 6), np.dtype("float32"), "f32"),
             TensorType((), np.dtype("int32"), "i32"),
             TensorType((3, 5), np.dtype("complex64"), "complex<f32>"),
             TensorType((2, 0), np.dtype("float32"), "f32"),
             TensorType((5,), np.dtype("bool"), "i1"))
    wanted = [[(slice(1, 3), slice(2, 6)), (slice(0, 4), slice(0, 1))], [()],
              [(slice(0, 3), slice(1, 4))], [(slice(0, 2), slice(0, 0))], [(slice(1, 4),)]]
    whole = random_inputs(types, 3)
    blocks = arrays.RandomInputs(types, 3).blocks(wanted)
    for slices_list, got, array in zip(wanted, blocks, whole):
        for slices in slices_list:
            np.testing.assert_array_equal(got[slices], array[slices])


def test_a_part_compares_on_the_whole_outputs_scale():
    """One process of several compares its part of an output; the relative tolerance
    scales with the whole output's largest magnitude (agreed over the processes), so
    a part of small values is judged as one process would judge it."""
    whole = np.array([1000.0, 1.0, 2.0], np.float32)
    part, off = whole[1:], whole[1:] + np.float32(0.05)
    assert arrays.magnitude(whole) == 1000.0
    assert not arrays.compare("out0", off, part).ok  # 0.05 > 1e-5 + 1e-4 * 2
    assert arrays.compare("out0", off, part, scale=arrays.magnitude(whole)).ok
    assert arrays.magnitude(np.array([np.inf, -3.0, np.nan])) == 3.0
    assert arrays.magnitude(np.array([3 + 4j])) == 5.0
    assert arrays.magnitude(np.array([7, -9])) == 0.0  # integers compare exactly
