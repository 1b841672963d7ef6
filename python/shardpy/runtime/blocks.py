"""Host-side blocks of a run: global arrays split into per-device rows and back.

Row d of a value is what logical device d holds (zero padded to the local shape);
stacked, rows are the one array a per-device program's wrapper takes and returns.
Split from executor.py so that distributed.py, which assembles one process's rows, and
the executor share them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..sharding.model import TensorSharding
from .arrays import is_floating


@dataclass
class RunResult:
    outputs: list[np.ndarray]
    replica_divergence: list[float] = field(default_factory=list)
    compile_seconds: float = 0.0
    run_seconds: list[float] = field(default_factory=list)
    # Across processes: per output, the elements this process's devices hold (the
    # rest of `outputs` is zero); None: all of them.
    covered: list[np.ndarray] | None = None
    # Across processes: per output, what distributed.gather_to_first needs (this
    # process's rows, the layout, the global shape); None where `outputs` is whole.
    parts: list | None = None


def split_global(array: np.ndarray, sharding: TensorSharding | None, local_shape,
                 num_devices: int, only: Sequence[int] | None = None) -> np.ndarray:
    """[num_devices, *local_shape]: row d is what logical device d holds (zero padded).
    `only`: fill just these devices' rows (one process's, of several; the others stay
    untouched zero pages and `array` is read only where those devices' blocks lie).

    For unreduced axes, the device first along them holds the value and the others
    zeros: partial values that sum to it."""
    rows = np.zeros((num_devices, *local_shape), array.dtype)
    for device in (range(num_devices) if only is None else only):
        slices = (tuple(slice(0, n) for n in array.shape) if sharding is None
                  else sharding.device_slices(array.shape, device))
        if slices is None:
            continue  # not in this value's mesh: holds nothing
        if sharding is not None and any(sharding.unreduced_index(device)):
            continue  # a zero partial
        piece = array[slices]
        rows[(device, *(slice(0, n) for n in piece.shape))] = piece
    return rows


@dataclass
class Assembled:
    array: np.ndarray
    replica_divergence: float  # max |difference| between devices that must agree


def assemble_global(rows: np.ndarray, sharding: TensorSharding | None,
                    global_shape: tuple[int, ...], present=None) -> Assembled:
    """Inverse of split_global: sum unreduced partials, check replicas agree. `present`:
    the devices whose rows are there (one process's, of several); the others' parts of
    the array stay zero."""
    num_devices = rows.shape[0]
    chosen: dict[tuple, tuple[tuple[slice, ...], np.ndarray]] = {}
    divergence = 0.0
    for device in (range(num_devices) if present is None else present):
        if sharding is None:
            slices, key = tuple(slice(0, n) for n in global_shape), ()
        else:
            slices = sharding.device_slices(global_shape, device)
            if slices is None:
                continue
            key = (sharding.shard_index(device), sharding.unreduced_index(device))
        piece = rows[device][tuple(slice(0, s.stop - s.start) for s in slices)]
        if key in chosen:
            divergence = max(divergence, _max_difference(chosen[key][1], piece))
        else:
            chosen[key] = (slices, piece)
    out = np.zeros(global_shape, rows.dtype)
    for slices, piece in chosen.values():
        out[slices] = out[slices] + piece if sharding is not None and sharding.unreduced \
            else piece
    return Assembled(out, divergence)


def _max_difference(a: np.ndarray, b: np.ndarray) -> float:
    if a.size == 0:
        return 0.0
    if not is_floating(a.dtype):  # (bf16 too: numpy does not count it as inexact)
        return 0.0 if np.array_equal(a, b) else float("inf")
    with np.errstate(invalid="ignore"):
        diff = np.abs(a.astype(np.complex128 if np.iscomplexobj(a) else np.float64) - b)
    same = (np.isnan(a) & np.isnan(b)) | (a == b)  # NaN and NaN, inf and inf agree
    return float(np.where(same, 0.0, np.where(np.isnan(diff), np.inf, diff)).max())


def to_blocks(rows: np.ndarray) -> np.ndarray:
    """Host rows [N, L0, L1...] as the stacked array [N*L0, L1...] (scalars: [N])."""
    if rows.ndim < 2:
        return rows
    # No -1: numpy cannot infer a dim when another one is zero (tensor<8x0xf32> rows).
    return rows.reshape(rows.shape[0] * rows.shape[1], *rows.shape[2:])


def from_blocks(stacked: np.ndarray, local_shape: Sequence[int], n: int) -> np.ndarray:
    """The stacked array [N*L0, L1...] back as rows [N, L0, L1...]."""
    return stacked.reshape(n, *local_shape)
