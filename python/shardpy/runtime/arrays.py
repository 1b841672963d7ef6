"""Host arrays at a program's boundary: dtypes, inputs (.npz or seeded), comparison."""
from __future__ import annotations

import os
import zipfile
from contextlib import contextmanager
from dataclasses import dataclass
from math import prod
from pathlib import Path
from typing import Sequence

import numpy as np
from jaxlib.mlir import ir

from ..ir.diagnostics import ShardpyError
from ..ir.types import numpy_dtype


@dataclass(frozen=True)
class TensorType:
    """A ranked tensor type as plain Python: global or local shape plus numpy dtype."""

    shape: tuple[int, ...]
    dtype: np.dtype
    element: str  # MLIR spelling of the element type, e.g. "f32"

    def with_shape(self, shape: tuple[int, ...]) -> "TensorType":
        return TensorType(tuple(shape), self.dtype, self.element)

    def __str__(self) -> str:
        return "tensor<" + "".join(f"{n}x" for n in self.shape) + self.element + ">"


def tensor_type(value_type: ir.Type, what: str, loc: ir.Location | None) -> TensorType:
    """Convert a boundary type; anything but a static ranked tensor is an error."""
    if not isinstance(value_type, ir.RankedTensorType):
        raise ShardpyError(f"{what} has type {value_type}; only ranked tensors can cross "
                           f"the program boundary", loc)
    ranked = ir.RankedTensorType(value_type)
    if not ranked.has_static_shape:
        raise ShardpyError(f"{what} has dynamic shape {value_type}", loc)
    dtype = numpy_dtype(ranked.element_type)
    if dtype is None:
        raise ShardpyError(f"{what} has element type {ranked.element_type}, which shardpy "
                           f"cannot pass in or out of a program (no numpy dtype for it)", loc)
    return TensorType(tuple(ranked.shape), dtype, str(ranked.element_type))


# Random values are drawn this many elements at a time and cast into the argument's own
# array: a float32 argument costs its size plus one float64 chunk, not a whole float64
# copy. The chunks continue one stream, so the values are those of a single draw.
_DRAW_CHUNK = 1 << 20


def random_inputs(types: Sequence[TensorType], seed: int) -> list[np.ndarray]:
    """Deterministic inputs: normal floats, small signed ints, fair booleans."""
    rng = np.random.default_rng(seed)
    arrays = []
    for i, t in enumerate(types):
        with host_allocation(f"arg{i}", t):
            check_host_memory(f"arg{i}", t)
            out = np.empty(t.shape, t.dtype)
        flat = out.reshape(-1)  # a view: filled in place
        for part, draw in _draws(t, rng):
            _draw(part(flat), draw)
        arrays.append(out)
    return arrays


def _draws(t: TensorType, rng):
    """(part of the flat array, draw) in the order random_inputs fills them."""
    whole = (lambda flat: flat)
    if t.dtype == np.bool_:
        return [(whole, lambda n: rng.random(n) < 0.5)]
    if np.issubdtype(t.dtype, np.unsignedinteger):
        return [(whole, lambda n: rng.integers(0, 16, n))]
    if np.issubdtype(t.dtype, np.integer):
        return [(whole, lambda n: rng.integers(-8, 8, n))]
    if np.issubdtype(t.dtype, np.complexfloating):  # all real parts first, as
        return [(lambda flat: flat.real, rng.standard_normal),  # (normal + 1j * normal)
                (lambda flat: flat.imag, rng.standard_normal)]  # drew them
    return [(whole, rng.standard_normal)]


def _draw(flat: np.ndarray, draw) -> None:
    for start in range(0, flat.size, _DRAW_CHUNK):
        stop = min(start + _DRAW_CHUNK, flat.size)
        flat[start:stop] = draw(stop - start)


@dataclass(frozen=True)
class RandomInputs:
    """random_inputs(types, seed) not yet drawn: `blocks` draws the same stream once and
    keeps only the blocks asked for, so one process of several holds its devices'
    blocks, never a whole argument; `whole()` is random_inputs itself."""

    types: tuple[TensorType, ...]
    seed: int

    def whole(self) -> list[np.ndarray]:
        return random_inputs(self.types, self.seed)

    def blocks(self, wanted: Sequence[Sequence[tuple[slice, ...]]]) -> list["Blocks"]:
        """Per argument, the blocks `wanted[i]` (tuples of slices of its shape)."""
        rng = np.random.default_rng(self.seed)
        out = []
        for t, slices_list in zip(self.types, wanted):
            unique = list(dict.fromkeys(tuple((s.start, s.stop) for s in sl)
                                        for sl in slices_list))
            pieces = {key: np.empty(tuple(b - a for a, b in key), t.dtype) for key in unique}
            # Flat indices of each block, in C order: increasing, so each chunk of the
            # stream lands in one run of them (searchsorted).
            where = {key: np.ravel_multi_index(np.indices(pieces[key].shape).reshape(
                len(key), -1) + np.array([a for a, _ in key]).reshape(-1, 1), t.shape)
                if key else np.zeros(1, np.int64) for key in unique}
            size = int(np.prod(t.shape))
            for part, draw in _draws(t, rng):
                for start in range(0, size, _DRAW_CHUNK):
                    stop = min(start + _DRAW_CHUNK, size)
                    chunk = draw(stop - start)
                    for key, index in where.items():
                        lo, hi = np.searchsorted(index, [start, stop])
                        if hi > lo:
                            part(pieces[key].reshape(-1))[lo:hi] = chunk[index[lo:hi] - start]
            out.append(Blocks(t.shape, t.dtype, pieces))
        return out


@dataclass(frozen=True)
class Blocks:
    """Some blocks of an array, indexed as the array would be (by their slices)."""

    shape: tuple[int, ...]
    dtype: np.dtype
    pieces: dict

    def __getitem__(self, slices) -> np.ndarray:
        return self.pieces[tuple((s.start, s.stop) for s in slices)]


# --------------------------------------------------------------------------- host memory


def host_memory_bytes() -> int | None:
    """This machine's physical memory, or its container's limit where lower (None when
    neither is known)."""
    limits = []
    try:
        limits.append(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        pass
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            text = Path(path).read_text().strip()
        except OSError:
            continue
        if text.isdigit():
            limits.append(int(text))
    return min(limits) if limits else None


def format_bytes(count: int) -> str:
    for unit, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count} bytes"


def _too_large(name: str, t: TensorType, needed: int, what: str) -> ShardpyError:
    own = prod(t.shape) * t.dtype.itemsize
    held = f"; {what} take {needed} bytes, {format_bytes(needed)}," if what else ""
    limit = host_memory_bytes()
    memory = f"this machine's {format_bytes(limit)} of memory" if limit else "memory"
    hint = ("; run the module with smaller shapes (inputs, random or from --inputs, have "
            "the argument's global shape)" if name.startswith("arg")
            else "; run the module with smaller shapes")
    return ShardpyError(
        f"{name} ({t}, {prod(t.shape)} {t.dtype} elements: {own} bytes, "
        f"{format_bytes(own)}{held}) does not fit in {memory}{hint}")


def check_host_memory(name: str, t: TensorType, needed: int | None = None,
                      what: str = "") -> None:
    """Refuse, before allocating, a host array that cannot fit: `needed` bytes (default:
    one array of type `t`); `what` says what holds them when that is not the array
    itself (e.g. per-device blocks). `name`: argN (an argument) or outN."""
    needed = prod(t.shape) * t.dtype.itemsize if needed is None else needed
    limit = host_memory_bytes()
    if limit is not None and needed > limit:
        raise _too_large(name, t, needed, what)


@contextmanager
def host_allocation(name: str, t: TensorType, needed: int | None = None, what: str = ""):
    """MemoryError inside (the check above passed, but the memory is in use) as the
    same one-line error."""
    try:
        yield
    except MemoryError:
        needed = prod(t.shape) * t.dtype.itemsize if needed is None else needed
        raise _too_large(name, t, needed, what) from None


# The .npz convention for dtypes numpy has no type of its own (bfloat16, the float8s:
# ml_dtypes' types, which jax uses). np.savez writes such an array as raw bytes (dtype
# `|V2` for bfloat16) and forgets which type it was. shardpy-run writes the array's bits
# as the unsigned integers of its width under its name, with a string entry
# "<name>.dtype" naming the type (e.g. out0 = uint16 bits, "out0.dtype" = "bfloat16"),
# and reads back that form, the raw bytes np.savez makes (the argument's type says what
# they are), or any float array whose values the argument's type holds exactly.
DTYPE_TAG = ".dtype"


def is_floating(dtype: np.dtype) -> bool:
    """Floating point, numpy's own types or ml_dtypes' (bfloat16, float8...), which
    numpy's type hierarchy does not count as inexact."""
    if np.issubdtype(dtype, np.inexact):
        return True
    import ml_dtypes  # ships with jaxlib

    try:
        ml_dtypes.finfo(dtype)
    except (TypeError, ValueError):
        return False
    return True


def default_tolerances(dtype: np.dtype) -> tuple[float, float]:
    """(rtol, atol) for comparing outputs of `dtype` (see `compare`): at least 1e-4
    and 1e-5, and for narrow floats 8 and 1 units of the type's precision (bfloat16:
    0.0625, 0.0078): enough for sums taken in another order, rounded at every partial
    sum; a wrong partition is off by the values' own size."""
    if not is_floating(dtype) or np.issubdtype(dtype, np.complexfloating):
        return 1e-4, 1e-5
    import ml_dtypes

    eps = float(ml_dtypes.finfo(dtype).eps)
    return max(1e-4, 8 * eps), max(1e-5, eps)


def _unsigned_of(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"uint{dtype.itemsize * 8}")


def read_npz(archive, key: str, want: np.dtype | None = None) -> np.ndarray:
    """Array `key` of an opened .npz in the dtype it was written in: tagged bits
    ("<key>.dtype") and, where `want` names a type numpy has no type for, raw bytes of
    its width read as that type."""
    array = archive[key]
    tag = key + DTYPE_TAG
    if tag in archive.files:
        import ml_dtypes  # noqa: F401  (registers its dtypes by name with numpy)

        dtype = np.dtype(str(archive[tag]))
        if array.dtype == _unsigned_of(dtype):
            return array.view(dtype)
    if want is not None and array.dtype.kind == "V" and array.dtype.itemsize == \
            want.itemsize and not array.dtype.fields:
        return array.view(want)
    return array


# What np.load raises on a file that is not an .npz: missing or unreadable (OSError),
# not an archive or pickled (ValueError, BadZipFile), empty (EOFError).
NPZ_ERRORS = (OSError, ValueError, EOFError, zipfile.BadZipFile)


def _said(err: BaseException) -> str:
    if isinstance(err, OSError):
        return str(err)
    return f"not an .npz archive (numpy: {err or type(err).__name__})"


def open_npz(path: Path, what: str):
    """np.load of an .npz, or one clear error naming `what` it was to hold."""
    try:
        return np.load(path, allow_pickle=False)
    except NPZ_ERRORS as err:
        raise ShardpyError(f"cannot read {what} from '{path}': {_said(err)}") from None


def load_inputs(path: Path, types: Sequence[TensorType], lazy: bool = False
                ) -> list[np.ndarray]:
    """Arrays `arg0, arg1, ...` from an .npz, checked against the argument types.
    `lazy`: arrays stored uncompressed (np.savez) and already of their argument's type
    are mapped from the file, not read: slicing one reads only that slice (each of
    several processes takes only its devices' blocks)."""
    mapped = mapped_members(path) if lazy else {}
    with open_npz(path, "inputs") as archive:
        expected = [f"arg{i}" for i in range(len(types))]
        extra = sorted(set(archive.files) - set(expected)
                       - {k + DTYPE_TAG for k in expected})
        if extra:
            raise ShardpyError(f"'{path}' has array(s) {', '.join(extra)} but the program "
                               f"takes {len(types)} argument(s) ({', '.join(expected) or 'none'})")
        arrays = []
        for key, t in zip(expected, types):
            if key not in archive.files:
                raise ShardpyError(f"'{path}' has no array '{key}' ({t})")
            array = read_member(archive, mapped, key, t)
            if array.shape == t.shape and array.dtype != t.dtype and is_floating(
                    array.dtype) and is_floating(t.dtype):
                array = _exactly_as(key, array, t)
            if array.shape != t.shape or array.dtype != t.dtype:
                raise ShardpyError(
                    f"input '{key}' does not match the argument type {t}: expected "
                    f"{t.dtype}{list(t.shape)}, got {array.dtype}{list(array.shape)}")
            arrays.append(array)
    return arrays


def read_member(archive, mapped: dict, key: str, want: TensorType | None = None
                ) -> np.ndarray:
    """Array `key` of an open .npz: its memory map from `mapped` (mapped_members) where
    it is stored as it is read (no dtype tag) and, given `want`, already of that type;
    else read whole (read_npz)."""
    found = mapped.get(key)
    if found is not None and key + DTYPE_TAG not in archive.files and (
            want is None or (found.shape == want.shape and found.dtype == want.dtype)):
        return found
    return read_npz(archive, key, want.dtype if want is not None else None)


def mapped_members(path: Path) -> dict[str, np.ndarray]:
    """The uncompressed .npy members of an .npz, memory-mapped (read-only) by name."""
    out: dict[str, np.ndarray] = {}
    try:
        with zipfile.ZipFile(path) as archive, open(path, "rb") as raw:
            for info in archive.infolist():
                if info.compress_type != zipfile.ZIP_STORED or \
                        not info.filename.endswith(".npy"):
                    continue
                raw.seek(info.header_offset)
                local = raw.read(30)  # the local file header: its name and extra lengths
                start = info.header_offset + 30 + int.from_bytes(local[26:28], "little") \
                    + int.from_bytes(local[28:30], "little")
                raw.seek(start)
                version = np.lib.format.read_magic(raw)
                read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                        else np.lib.format.read_array_header_2_0)
                shape, fortran, dtype = read(raw)
                if dtype.hasobject or fortran:
                    continue
                out[info.filename[:-4]] = np.memmap(path, dtype, "r", raw.tell(), shape)
    except NPZ_ERRORS:
        return {}  # open_npz says what is wrong with the file
    return out


def _exactly_as(key: str, array: np.ndarray, t: TensorType) -> np.ndarray:
    """A float array in the argument's float type, where that holds every value
    exactly (e.g. float32 values that are bfloat16 numbers); else an error."""
    cast = array.astype(t.dtype)
    back = cast.astype(array.dtype)
    same = (back == array) | (np.isnan(back.astype(np.float64)) & np.isnan(
        array.astype(np.float64)))
    if not bool(np.all(same)):
        bad = int((~same).sum())
        raise ShardpyError(
            f"input '{key}' is {array.dtype} but the argument is {t}: {bad} of {array.size} "
            f"values would be rounded; store them as {t.dtype} (the .npz convention: "
            f"python/shardpy/runtime/arrays.py)")
    return cast


def npz_shapes(path: Path, count: int) -> list[tuple[int, ...] | None]:
    """Shapes of arg0..arg{count-1} in an .npz (None where absent)."""
    with open_npz(path, "inputs") as archive:
        return [archive[f"arg{i}"].shape if f"arg{i}" in archive.files else None
                for i in range(count)]


def save_outputs(path: Path, arrays: Sequence[np.ndarray]) -> None:
    """out0, out1, ... to an .npz; types numpy has none of as tagged bits (DTYPE_TAG)."""
    entries = {}
    for i, a in enumerate(arrays):
        if a.dtype.kind == "V" or (not np.issubdtype(a.dtype, np.number)
                                   and a.dtype != np.bool_):
            entries[f"out{i}"] = a.view(_unsigned_of(a.dtype))
            entries[f"out{i}{DTYPE_TAG}"] = np.array(a.dtype.name)
        else:
            entries[f"out{i}"] = a
    np.savez(path, **entries)


@dataclass(frozen=True)
class Comparison:
    name: str
    max_abs_error: float
    ok: bool
    detail: str = ""

    def line(self) -> str:
        verdict = "ok" if self.ok else "MISMATCH"
        extra = f" ({self.detail})" if self.detail else ""
        return f"{self.name}: max abs error {self.max_abs_error:.3g} {verdict}{extra}"


def magnitude(expected: np.ndarray) -> float:
    """The largest finite |element| (0 for none): what compare's rtol scales."""
    if not is_floating(expected.dtype):
        return 0.0
    e = expected.astype(np.complex128 if np.iscomplexobj(expected) else np.float64)
    finite = np.abs(e[np.isfinite(e)])
    return float(finite.max()) if finite.size else 0.0


def compare(name: str, actual: np.ndarray, expected: np.ndarray, rtol: float | None = None,
            atol: float | None = None, scale: float | None = None) -> Comparison:
    """Integers and booleans exactly; floats (bfloat16 and float16 too) within atol +
    rtol * max|expected| (NaN equals NaN, an infinity equals itself); None: the dtype's
    default_tolerances. `scale`: the max|expected| to use instead (the whole output's,
    where `expected` is one process's part of it).

    The relative part is scaled by the output's largest magnitude, not each element's:
    a partitioned program sums in a different order, and an element that is the small
    difference of large terms carries rounding error of the terms' size. A wrong
    partitioning (a missing reduction, a misplaced shard) is off by the values' size."""
    if actual.shape != expected.shape or actual.dtype != expected.dtype:
        return Comparison(name, float("inf"), False,
                          f"got {actual.dtype}{list(actual.shape)}, expected "
                          f"{expected.dtype}{list(expected.shape)}")
    if actual.size == 0:
        return Comparison(name, 0.0, True)
    default_rtol, default_atol = default_tolerances(expected.dtype)
    rtol = default_rtol if rtol is None else rtol
    atol = default_atol if atol is None else atol
    exact = not is_floating(expected.dtype)
    a = actual.astype(np.complex128 if np.iscomplexobj(actual) else np.float64)
    e = expected.astype(a.dtype)
    with np.errstate(invalid="ignore"):
        diff = np.abs(a - e)
    both_nan = np.isnan(a) & np.isnan(e) if not exact else np.zeros(a.shape, bool)
    diff = np.where(both_nan | (a == e), 0.0, diff)  # equal infinities differ by 0
    diff = np.where(np.isnan(diff), np.inf, diff)
    max_error = float(diff.max())
    if exact:
        return Comparison(name, max_error, bool(np.array_equal(actual, expected)))
    if scale is None:
        scale = magnitude(expected)
    within = diff <= atol + rtol * scale
    bad = int((~within).sum())
    return Comparison(name, max_error, bad == 0,
                      f"{bad} of {diff.size} elements differ by more than "
                      f"{atol:g} + {rtol:g} * {scale:.3g}" if bad else "")


# -- judging float32 results against a float64 run ---------------------------------------
# Two float32 programs that sum in different orders (partitioned and not) round
# differently, and an output that is the small difference of large terms carries
# rounding error of the terms' size in both: fixed tolerances cannot tell that noise
# from a bug. The same program run in float64 can: a result is judged right when it is
# about as close to the float64 result as the reference's float32 result is. A missing
# reduction or a misplaced shard is off by the values' size, far beyond that.

# The partitioned result may be this many times further from float64 than the
# reference float32 result (one device's, or jax.jit's: both round, in other orders).
ROUNDING_FACTOR = 4.0


@dataclass
class Judgement:
    """One output's verdict and the line that says why."""

    ok: bool
    line: str


def float64_judgeable(partitioned: np.ndarray, reference: np.ndarray) -> bool:
    """Whether a failed comparison of this output may be judged in float64: real floats
    of any width (bf16 and f16 too: ml_dtypes' types are not numpy's np.floating) of the
    same shape and dtype, all finite (NaN/inf differences, integer, boolean and complex
    outputs and shape mismatches stay failures)."""
    if partitioned.shape != reference.shape or partitioned.dtype != reference.dtype or \
            not is_floating(reference.dtype) or np.iscomplexobj(reference):
        return False
    return bool(np.isfinite(partitioned.astype(np.float64)).all()
                and np.isfinite(reference.astype(np.float64)).all())


def judge_in_float64(name: str, partitioned: np.ndarray, reference: np.ndarray,
                     exact: np.ndarray, rtol: float, atol: float,
                     reference_is: str = "one-device") -> Judgement:
    """Pass `name` when the partitioned result is within the tolerances of the float64
    result, or at most ROUNDING_FACTOR times as far from it as the float32 reference
    (`reference_is`: what made it, for the line) is."""
    if not float64_judgeable(partitioned, reference) or exact.shape != reference.shape \
            or not np.issubdtype(exact.dtype, np.floating) or not np.isfinite(exact).all():
        return Judgement(False, f"{name}: no float64 judgement (not finite floats of "
                                f"one shape)")
    exact = exact.astype(np.float64)
    err_part = max_error(partitioned, exact)
    err_ref = max_error(reference, exact)
    scale = float(np.abs(exact).max()) if exact.size else 0.0
    errors = (f"partitioned error {err_part:.2g}, {reference_is} error {err_ref:.2g} "
              f"against float64")
    width = np.dtype(reference.dtype).name  # float32, bfloat16, float16...
    if err_part <= atol + rtol * scale or err_part <= ROUNDING_FACTOR * err_ref:
        return Judgement(True, f"{name}: within {width} rounding: {errors}")
    return Judgement(False, f"{name}: beyond {width} rounding: {errors}")


def max_error(actual: np.ndarray, exact: np.ndarray) -> float:
    """The largest |actual - exact| (exact: float64), 0 for no elements."""
    if actual.size == 0:
        return 0.0
    return float(np.abs(actual.astype(np.float64) - exact).max())
