"""What a collective costs: bytes each device sends, and the time that takes.

Bytes (`collective_cost_bytes`; S = bytes of the full per-device buffer the collective
is defined over, n = replica group size):
    all_reduce          2(n-1)/n * S   (S = operand)
    all_gather          (n-1)/n * S    (S = result, the gathered buffer)
    reduce_scatter      (n-1)/n * S    (S = operand)
    all_to_all          (n-1)/n * S    (S = operand)
    collective_permute  S              (S = operand)
    collective_broadcast S             (S = operand)
These are the cost-weighted bytes of shardpy.runtime.stats (IR statistics) and of
shardpy.runtime.hlo_collectives (XLA's HLO), so both sides of a comparison are costed alike.

Time (`CollectiveTimeModel.time`): per collective kind and group size,
    time = latency + bytes / bandwidth        (bytes: the cost-weighted bytes above)
with latency (s) and bandwidth (cost-weighted bytes/s) calibrated on the platform by
`python bench/calibrate_collectives.py`, which times each kind at a range of sizes and
fits the two constants by least squares (`fit_latency_bandwidth`). A group size that was
not measured takes latency and seconds-per-byte interpolated linearly in log2(group
size) between the measured ones around it, or those of the nearest measured size
outside their range. A group of one device costs nothing.

Profiles are JSON files, one per platform; `profiles/<platform>.json` ships with
shardpy where one was measured, and `load_profile` picks it (an explicit path, or the
SHARDPY_COST_PROFILE environment variable, overrides). Schema (version 1):

    {
      "schema": 1,
      "platform": "cpu",                       # jax platform: cpu, gpu, tpu
      "device_kind": "cpu",                    # jax.devices()[0].device_kind
      "device_count": 8,                       # devices of the mesh measured on
      "jax_version": "0.10.2",
      "date": "2025-01-31T12:00:00Z",          # when measured (UTC)
      "machine": "...",                        # the host: CPU model, cores, OS
      "command": "bench/calibrate_collectives.py --platform cpu",
      "collectives": {                         # kind -> group size -> fit
        "all_gather": {
          "2": {"latency_s": 2.1e-05,          # time at 0 bytes
                "bandwidth_bytes_per_s": 3.2e9,  # cost-weighted bytes per second
                "max_rel_residual": 0.12,      # max |fit - measured| / measured
                "points": [[bytes, seconds], ...]},  # the medians fitted
          ...},
        ...},                                  # all_reduce, reduce_scatter,
                                               # all_to_all, collective_permute
      "compute": {                             # optional: one device, all busy
        "memory_bytes_per_s": 1.1e9,           # elementwise f32 bytes read + written
        "flops_per_s": 8.0e9,                  # f32 matmul
        "compares_per_s": 1.0e7,               # f32 sort: elements x log2(sorted dim)
        "convolution": {                       # optional: f32 convolutions' rates
          "features": [1, 4, 16, 64, 256],     # output features (per feature group)
          "contraction": [9, 36, 144, 576, 2304],  # multiply-adds per output element
          "multiply_adds_per_s": [[...], ...]}}  # [features][contraction]
    }

Compute (`CollectiveTimeModel.compute_time`): an op's local bytes read and written over
the memory rate, its flops over the flop rate, or its comparisons (a sort, a top-k:
OpFamily.compares) over the compare rate, whichever is longest; what
shardpy-choose-shardings adds to the collectives a plan makes (a full-size partial
product costs its bytes here before its reduce_scatter costs them again).
A convolution's multiply-adds (`convolution_time`) run at a rate that depends on its
shape far more than a matmul's: XLA:CPU computes a 1-feature convolution at ~1/300 of
the rate of a 64-feature one. The profile holds the rates measured on a grid of output
features by multiply-adds per output (input features x window); between grid points
the rate is interpolated in log-log space, outside it clamped. Without that grid, a
convolution runs at the matmul rate.

May import: shardpy.ir (this module needs nothing but numpy, but for reading collective
ops: collective_cost).
"""
from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..ir.diagnostics import ShardpyError
from ..ir.types import tensor_bytes
from .device_groups import group_size_of

KINDS = ("all_gather", "all_reduce", "reduce_scatter", "all_to_all", "collective_permute")
PLATFORMS = ("cpu", "gpu", "tpu")
SCHEMA = 1
PROFILE_ENV = "SHARDPY_COST_PROFILE"
PROFILES_DIR = Path(__file__).resolve().parent / "profiles"
CALIBRATE_COMMAND = "python bench/calibrate_collectives.py"
# Per device with 8 host devices on a 2-core x86 host (elementwise f32 read+write bytes,
# f32 matmul flops), when a profile has no "compute" section.
DEFAULT_MEMORY_BYTES_PER_S = 1.0e9
DEFAULT_FLOPS_PER_S = 8.0e9
# Sorting f32 rows along a dim of 16 to 256 with all 8 devices busy: 0.6e7 to 1.1e7
# elements x log2(dim) per second per device (XLA:CPU's comparator sort).
DEFAULT_COMPARES_PER_S = 1.0e7


def collective_cost_bytes(kind: str, group_size: int, operand_bytes: float,
                          result_bytes: float) -> float:
    """The cost model above for one collective of `kind` (without the "stablehlo."
    prefix): bytes each device sends."""
    if kind in ("collective_permute", "collective_broadcast"):
        return float(operand_bytes)
    n = group_size
    if n <= 1:
        return 0.0
    if kind == "all_reduce":
        return 2 * (n - 1) / n * operand_bytes
    if kind == "all_gather":
        return (n - 1) / n * result_bytes
    return (n - 1) / n * operand_bytes


@dataclass(frozen=True)
class CollectiveFit:
    """time = latency_s + bytes / bandwidth for one (kind, group size)."""
    latency_s: float
    bandwidth_bytes_per_s: float
    max_rel_residual: float = 0.0
    points: tuple[tuple[float, float], ...] = ()  # (cost-weighted bytes, seconds)

    def time(self, bytes_per_device: float) -> float:
        return self.latency_s + bytes_per_device / self.bandwidth_bytes_per_s


def fit_latency_bandwidth(points) -> CollectiveFit:
    """Least squares fit of seconds = latency + bytes / bandwidth to (bytes, seconds)
    points. Each row is weighted by 1/seconds, so the fit minimizes relative error and
    the small sizes (which fix the latency) count as much as the large ones (which fix
    the bandwidth). A negative latency (noise at small sizes) is clamped to 0 and the
    slope refitted alone."""
    pts = [(float(b), float(t)) for b, t in points]
    if len({b for b, _ in pts}) < 2 or any(t <= 0 for _, t in pts):
        raise ShardpyError("a latency/bandwidth fit needs positive times at two or more "
                           f"sizes, got {pts}")
    nbytes = np.array([b for b, _ in pts])
    secs = np.array([t for _, t in pts])
    weight = 1.0 / secs
    design = np.stack([np.ones_like(nbytes), nbytes], axis=1) * weight[:, None]
    (latency, per_byte), *_ = np.linalg.lstsq(design, secs * weight, rcond=None)
    if latency < 0:
        latency = 0.0
        per_byte = float(np.sum(nbytes * weight * weight * secs)
                         / np.sum((nbytes * weight) ** 2))
    if per_byte <= 0:
        raise ShardpyError("time does not grow with bytes in the points fitted "
                           f"(slope {per_byte:.3g} s/byte): {pts}")
    fitted = latency + per_byte * nbytes
    residual = float(np.max(np.abs(fitted - secs) / secs))
    return CollectiveFit(float(latency), float(1.0 / per_byte), residual, tuple(pts))


@dataclass(frozen=True)
class ConvolutionRates:
    """Measured convolution rates: multiply_adds_per_s[i][j] for features[i] output
    features and contraction[j] multiply-adds per output element (both ascending)."""
    features: tuple[int, ...]
    contraction: tuple[int, ...]
    multiply_adds_per_s: tuple[tuple[float, ...], ...]

    def rate(self, features: float, contraction: float) -> float:
        """Multiply-adds per second, bilinear in log2 of both coordinates over the log
        of the rate (rates span orders of magnitude), clamped to the grid."""
        (i, wi), (j, wj) = (_bracket(self.features, features),
                            _bracket(self.contraction, contraction))
        r = self.multiply_adds_per_s
        logs = [[math.log(r[a][b]) for b in (j, j + 1 if wj else j)]
                for a in (i, i + 1 if wi else i)]
        low = (1 - wj) * logs[0][0] + wj * logs[0][1]
        high = (1 - wj) * logs[1][0] + wj * logs[1][1]
        return math.exp((1 - wi) * low + wi * high)

    def to_json(self) -> dict:
        return {"features": list(self.features), "contraction": list(self.contraction),
                "multiply_adds_per_s": [list(row) for row in self.multiply_adds_per_s]}

    @classmethod
    def from_json(cls, data) -> ConvolutionRates:
        rates = cls(tuple(int(f) for f in data["features"]),
                    tuple(int(k) for k in data["contraction"]),
                    tuple(tuple(float(v) for v in row)
                          for row in data["multiply_adds_per_s"]))
        for axis in (rates.features, rates.contraction):
            if not axis or axis[0] < 1 or list(axis) != sorted(set(axis)):
                raise ValueError(f"convolution grid {list(axis)}: not ascending sizes")
        if (len(rates.multiply_adds_per_s) != len(rates.features)
                or any(len(row) != len(rates.contraction)
                       or not all(0 < v < math.inf for v in row)
                       for row in rates.multiply_adds_per_s)):
            raise ValueError("convolution rates: not a features x contraction grid of "
                             "positive rates")
        return rates


def _bracket(axis: tuple[int, ...], x: float) -> tuple[int, float]:
    """(i, w): x lies between axis[i] and axis[i + 1] at weight w in log2 space (w = 0
    at or outside the ends)."""
    if x <= axis[0]:
        return 0, 0.0
    for i in range(len(axis) - 1):
        if x < axis[i + 1]:
            return i, (math.log2(x) - math.log2(axis[i])) / (
                math.log2(axis[i + 1]) - math.log2(axis[i]))
    return len(axis) - 1, 0.0


@dataclass
class CollectiveTimeModel:
    """Per kind and measured group size, a `CollectiveFit`; see the module docstring."""
    fits: dict[str, dict[int, CollectiveFit]]
    platform: str = ""
    device_kind: str = ""
    device_count: int = 0
    jax_version: str = ""
    date: str = ""
    machine: str = ""
    command: str = ""
    source: str = field(default="", compare=False)  # the file it was read from
    # Compute on one device while all run at once (the profile's optional "compute"
    # section; defaults: the 2-core cpu host the shipped profile was measured on).
    memory_bytes_per_s: float = DEFAULT_MEMORY_BYTES_PER_S
    flops_per_s: float = DEFAULT_FLOPS_PER_S
    compares_per_s: float = DEFAULT_COMPARES_PER_S
    convolution: ConvolutionRates | None = None

    def compute_time(self, bytes_touched: float, flops: float = 0.0,
                     compares: float = 0.0) -> float:
        """Seconds one device spends reading and writing `bytes_touched`, doing `flops`
        and making `compares` comparisons (each at its measured rate; the slowest one
        bounds the op)."""
        return max(bytes_touched / self.memory_bytes_per_s, flops / self.flops_per_s,
                   compares / self.compares_per_s)

    def convolution_time(self, multiply_adds: float, features: float,
                         contraction: float) -> float:
        """Seconds one device spends on a convolution's `multiply_adds`, with `features`
        output features (per feature group) and `contraction` multiply-adds per output
        element, at the profile's measured rate for that shape (the matmul rate where
        the profile has none)."""
        if self.convolution is None:
            return 2.0 * multiply_adds / self.flops_per_s
        return multiply_adds / self.convolution.rate(features, contraction)

    def _parameters(self, kind: str, group_size: int) -> tuple[float, float]:
        """(latency s, seconds per byte) of `kind` at `group_size`, interpolated."""
        by_size = self.fits.get(kind)
        if not by_size:
            raise ShardpyError(f"collective time profile {self.source or '(in memory)'} "
                               f"has no fit for {kind!r} (it has: "
                               f"{', '.join(sorted(self.fits)) or 'none'})")
        if group_size in by_size:
            fit = by_size[group_size]
            return fit.latency_s, 1.0 / fit.bandwidth_bytes_per_s
        sizes = sorted(by_size)
        below = [n for n in sizes if n < group_size]
        above = [n for n in sizes if n > group_size]
        if not below or not above:
            fit = by_size[above[0] if not below else below[-1]]
            return fit.latency_s, 1.0 / fit.bandwidth_bytes_per_s
        lo, hi = by_size[below[-1]], by_size[above[0]]
        w = ((math.log2(group_size) - math.log2(below[-1]))
             / (math.log2(above[0]) - math.log2(below[-1])))
        return ((1 - w) * lo.latency_s + w * hi.latency_s,
                (1 - w) / lo.bandwidth_bytes_per_s + w / hi.bandwidth_bytes_per_s)

    def time(self, kind: str, group_size: int, bytes_per_device: float) -> float:
        """Seconds for one collective of `kind` over groups of `group_size` devices
        moving `bytes_per_device` cost-weighted bytes (`collective_cost_bytes`)."""
        if kind not in KINDS:
            raise ShardpyError(f"unknown collective kind {kind!r} (known: {', '.join(KINDS)})")
        if group_size <= 1:
            return 0.0
        latency, per_byte = self._parameters(kind, group_size)
        return latency + bytes_per_device * per_byte

    def collective_time(self, kind: str, group_size: int, operand_bytes: float,
                        result_bytes: float) -> float:
        """`time` of a collective given its per-device operand and result bytes."""
        return self.time(kind, group_size,
                         collective_cost_bytes(kind, group_size, operand_bytes, result_bytes))

    # ------------------------------------------------------------------ JSON profile

    def to_json(self) -> dict:
        return {
            "schema": SCHEMA, "platform": self.platform, "device_kind": self.device_kind,
            "device_count": self.device_count, "jax_version": self.jax_version,
            "date": self.date, "machine": self.machine, "command": self.command,
            "compute": {"memory_bytes_per_s": self.memory_bytes_per_s,
                        "flops_per_s": self.flops_per_s,
                        "compares_per_s": self.compares_per_s,
                        **({"convolution": self.convolution.to_json()}
                           if self.convolution is not None else {})},
            "collectives": {
                kind: {str(n): {"latency_s": fit.latency_s,
                                "bandwidth_bytes_per_s": fit.bandwidth_bytes_per_s,
                                "max_rel_residual": fit.max_rel_residual,
                                "points": [list(p) for p in fit.points]}
                       for n, fit in sorted(by_size.items())}
                for kind, by_size in self.fits.items()},
        }

    @classmethod
    def from_json(cls, data, source: str = "") -> CollectiveTimeModel:
        """The model of a parsed profile; any defect is one ShardpyError naming it."""
        where = source or "(in memory)"
        try:
            if data.get("schema") != SCHEMA:
                raise ValueError(f"schema {data.get('schema')!r}, expected {SCHEMA}")
            fits: dict[str, dict[int, CollectiveFit]] = {}
            for kind, by_size in data["collectives"].items():
                if kind not in KINDS:
                    raise ValueError(f"unknown collective kind {kind!r}")
                fits[kind] = {}
                for n, fit in by_size.items():
                    size = int(n)
                    latency = float(fit["latency_s"])
                    bandwidth = float(fit["bandwidth_bytes_per_s"])
                    if size < 2 or not latency >= 0 or not 0 < bandwidth < math.inf:
                        raise ValueError(f"{kind} group {n}: latency {latency}, "
                                         f"bandwidth {bandwidth}")
                    fits[kind][size] = CollectiveFit(
                        latency, bandwidth, float(fit.get("max_rel_residual", 0.0)),
                        tuple((float(b), float(t)) for b, t in fit.get("points", ())))
            meta = {k: data.get(k, "") for k in ("platform", "device_kind", "jax_version",
                                                 "date", "machine", "command")}
            compute = data.get("compute") or {}
            memory = float(compute.get("memory_bytes_per_s", DEFAULT_MEMORY_BYTES_PER_S))
            flops = float(compute.get("flops_per_s", DEFAULT_FLOPS_PER_S))
            compares = float(compute.get("compares_per_s", DEFAULT_COMPARES_PER_S))
            if not (0 < memory < math.inf and 0 < flops < math.inf
                    and 0 < compares < math.inf):
                raise ValueError(f"compute rates {memory} bytes/s, {flops} flops/s, "
                                 f"{compares} compares/s")
            convolution = (ConvolutionRates.from_json(compute["convolution"])
                           if "convolution" in compute else None)
            return cls(fits, device_count=int(data.get("device_count", 0)), source=source,
                       memory_bytes_per_s=memory, flops_per_s=flops,
                       compares_per_s=compares, convolution=convolution,
                       **{k: str(v) for k, v in meta.items()})
        except (AttributeError, KeyError, TypeError, ValueError) as err:
            detail = f"missing {err}" if isinstance(err, KeyError) else str(err)
            raise ShardpyError(f"bad collective time profile {where}: {detail}") from None

    def save(self, path) -> None:
        text = json.dumps(self.to_json(), indent=1)
        # a list of numbers on one line: each (bytes, seconds) point, each grid row
        text = re.sub(r"\[([^\[\]{}\"]*)\]", lambda m: "[" + ", ".join(
            x.strip() for x in m.group(1).split(",")) + "]", text)
        Path(path).write_text(text + "\n")

    @classmethod
    def load(cls, path) -> CollectiveTimeModel:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError) as err:
            raise ShardpyError(f"bad collective time profile {path}: {err}") from None
        return cls.from_json(data, source=str(path))


def default_profile_path(platform: str) -> Path:
    return PROFILES_DIR / f"{platform}.json"


def load_profile(platform: str, path=None) -> CollectiveTimeModel:
    """The collective time model for `platform`: from `path` if given, else from the
    file SHARDPY_COST_PROFILE names, else the profile shipped for the platform. No
    profile shipped (gpu, tpu until measured): a ShardpyError that says which command
    writes one."""
    if platform not in PLATFORMS:
        raise ShardpyError(f"unknown platform {platform!r} for a collective time profile "
                           f"(known: {', '.join(PLATFORMS)})")
    path = path or os.environ.get(PROFILE_ENV)
    if path:
        return _loaded(Path(path))
    shipped = default_profile_path(platform)
    if not shipped.exists():
        raise ShardpyError(
            f"no collective time profile for platform {platform!r}: measure one on a "
            f"{platform} machine with `{CALIBRATE_COMMAND} --platform {platform}` (it "
            f"writes {shipped}; with --out FILE, pass FILE or set {PROFILE_ENV}=FILE); "
            f"shipped profiles: "
            f"{', '.join(sorted(p.stem for p in PROFILES_DIR.glob('*.json'))) or 'none'}")
    return _loaded(shipped)


_LOADED: dict = {}  # (path, mtime, size) -> the model read from it


def _loaded(path: Path) -> CollectiveTimeModel:
    """The model in `path`, read once while the file stays as it is: every pass of a
    pipeline then ranks by the same model object, and the reshard planner's memo (keyed
    by it) serves them all."""
    try:
        stat = path.stat()
        key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    except OSError:
        return CollectiveTimeModel.load(path)  # its error names the file
    found = _LOADED.get(key)
    if found is None:
        found = _LOADED[key] = CollectiveTimeModel.load(path)
    return found


# --------------------------------------------------------------------------- ops
# The collectives of a module, by op name (IR statistics, --explain).
COLLECTIVES = {
    "stablehlo.all_reduce": "all_reduce",
    "stablehlo.all_gather": "all_gather",
    "stablehlo.reduce_scatter": "reduce_scatter",
    "stablehlo.all_to_all": "all_to_all",
    "stablehlo.collective_permute": "collective_permute",
    "stablehlo.collective_broadcast": "collective_broadcast",
    "sdy.all_reduce": "sdy.all_reduce",
    "sdy.all_gather": "sdy.all_gather",
    "sdy.all_slice": "sdy.all_slice",
    "sdy.all_to_all": "sdy.all_to_all",
    "sdy.collective_permute": "sdy.collective_permute",
    "sdy.reduce_scatter": "sdy.reduce_scatter",
}


def group_size(op) -> int:
    """Devices in one replica group of a collective op (0 where it has no
    replica_groups: a collective_permute, whose pairs are not groups)."""
    if "replica_groups" not in op.attributes:
        return 0
    return group_size_of(op.attributes["replica_groups"])


def collective_cost(op) -> float:
    """Bytes per device for one stablehlo collective op (0 for sdy ones: not lowered
    yet), by collective_cost_bytes."""
    kind = COLLECTIVES.get(op.name, "")
    if kind.startswith("sdy.") or not kind:
        return 0.0
    operand_bytes = sum(tensor_bytes(v.type) for v in op.operands)
    result_bytes = sum(tensor_bytes(r.type) for r in op.results)
    return collective_cost_bytes(kind, group_size(op), operand_bytes, result_bytes)
