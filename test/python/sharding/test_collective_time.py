"""shardpy.sharding.collective_time: the cost-weighted bytes of a collective, the time
model latency + bytes / bandwidth, its least squares fit and its JSON profiles."""
from __future__ import annotations

import json

import pytest

from shardpy.ir.diagnostics import ShardpyError
from shardpy.sharding import collective_time as ct
from shardpy.sharding.collective_time import (
    CollectiveFit, CollectiveTimeModel, ConvolutionRates, collective_cost_bytes,
    fit_latency_bandwidth, load_profile)


def model() -> CollectiveTimeModel:
    fits = {kind: {2: CollectiveFit(10e-6, 1e9), 8: CollectiveFit(40e-6, 0.25e9)}
            for kind in ct.KINDS}
    return CollectiveTimeModel(fits, platform="cpu", device_kind="cpu", device_count=8,
                               jax_version="0.10.2", date="2025-01-01T00:00:00Z",
                               machine="test", command="test")


# ------------------------------------------------------------------------ bytes


@pytest.mark.parametrize("kind, n, operand, result, expected", [
    ("all_reduce", 4, 1000, 1000, 1500),
    ("all_gather", 4, 250, 1000, 750),
    ("reduce_scatter", 4, 1000, 250, 750),
    ("all_to_all", 4, 1000, 1000, 750),
    ("collective_permute", 4, 1000, 1000, 1000),
    ("collective_broadcast", 4, 1000, 1000, 1000),
    ("all_reduce", 1, 1000, 1000, 0),
])
def test_cost_bytes(kind, n, operand, result, expected):
    assert collective_cost_bytes(kind, n, operand, result) == expected


# ------------------------------------------------------------------------ the model


def test_time_is_latency_at_zero_bytes_and_linear_in_bytes():
    m = model()
    for kind in ct.KINDS:
        assert m.time(kind, 2, 0) == pytest.approx(10e-6)
        slope = (m.time(kind, 2, 3e6) - m.time(kind, 2, 1e6)) / 2e6
        assert slope == pytest.approx(1 / 1e9)
        assert m.time(kind, 8, 1e6) == pytest.approx(40e-6 + 1e6 / 0.25e9)


def test_group_sizes_between_and_outside_the_measured_ones():
    m = model()
    # 4 is halfway between 2 and 8 in log2: latency and seconds per byte halfway
    assert m.time("all_reduce", 4, 0) == pytest.approx(25e-6)
    assert m.time("all_reduce", 4, 1e9) == pytest.approx(25e-6 + (1 + 4) / 2)
    assert m.time("all_reduce", 16, 1e6) == m.time("all_reduce", 8, 1e6)  # nearest
    assert m.time("all_reduce", 1, 1e6) == 0.0  # a group of one moves nothing


def test_collective_time_costs_operand_and_result_bytes():
    m = model()
    assert m.collective_time("all_gather", 8, 1000, 8000) == m.time("all_gather", 8, 7000)


def test_unknown_kind_and_kind_missing_from_profile():
    with pytest.raises(ShardpyError, match="unknown collective kind 'broadcast'"):
        model().time("broadcast", 2, 1)
    partial = CollectiveTimeModel({"all_gather": {2: CollectiveFit(1e-6, 1e9)}})
    with pytest.raises(ShardpyError, match="no fit for 'all_reduce'"):
        partial.time("all_reduce", 2, 1)


# ------------------------------------------------------------------------ the fit


def test_fit_recovers_latency_and_bandwidth():
    latency, bandwidth = 25e-6, 3e9
    points = [(b, latency + b / bandwidth) for b in (1e3, 1e4, 1e5, 1e6, 1e7)]
    fit = fit_latency_bandwidth(points)
    assert fit.latency_s == pytest.approx(latency, rel=1e-9)
    assert fit.bandwidth_bytes_per_s == pytest.approx(bandwidth, rel=1e-9)
    assert fit.max_rel_residual < 1e-9
    assert fit.points == tuple(points)


def test_fit_with_noise_reports_its_residual():
    points = [(1e3, 20e-6 * 1.1), (1e5, (20e-6 + 1e5 / 2e9) * 0.95),
              (1e7, (20e-6 + 1e7 / 2e9) * 1.02)]
    fit = fit_latency_bandwidth(points)
    assert fit.bandwidth_bytes_per_s == pytest.approx(2e9, rel=0.1)
    assert 0.01 < fit.max_rel_residual < 0.2


def test_fit_clamps_a_negative_latency():
    fit = fit_latency_bandwidth([(1e3, 1e-7), (1e6, 1e-3), (2e6, 2.1e-3)])
    assert fit.latency_s == 0.0 and fit.bandwidth_bytes_per_s > 0


@pytest.mark.parametrize("points", [[(1e3, 1e-5)], [(1e3, 1e-3), (1e6, 1e-5)],
                                    [(1e3, 0.0), (1e6, 1e-3)]])
def test_fit_rejects_points_it_cannot_fit(points):
    with pytest.raises(ShardpyError):
        fit_latency_bandwidth(points)


# ------------------------------------------------------------------------ compute

RATES = ConvolutionRates((1, 16), (9, 144), ((1e8, 1e9), (1e9, 1e11)))


def test_convolution_rate_at_the_grid_points_and_between_them_in_log_space():
    assert RATES.rate(1, 9) == pytest.approx(1e8)
    assert RATES.rate(16, 144) == pytest.approx(1e11)
    # Halfway in log2 along one axis: the geometric mean of its two ends.
    assert RATES.rate(4, 9) == pytest.approx((1e8 * 1e9) ** 0.5)
    assert RATES.rate(4, 36) == pytest.approx((1e8 * 1e9 * 1e9 * 1e11) ** 0.25)


def test_convolution_rate_is_clamped_outside_the_grid():
    assert RATES.rate(1, 1) == pytest.approx(1e8)
    assert RATES.rate(1024, 1e6) == pytest.approx(1e11)
    assert RATES.rate(1024, 9) == pytest.approx(1e9)


def test_convolution_time_at_the_measured_rate_else_the_matmul_rate():
    m = model()
    assert m.convolution_time(1e6, 1, 9) == pytest.approx(2e6 / m.flops_per_s)
    m.convolution = RATES
    assert m.convolution_time(1e6, 1, 9) == pytest.approx(1e6 / 1e8)
    assert m.convolution_time(1e6, 16, 144) == pytest.approx(1e6 / 1e11)


def test_shipped_cpu_profile_has_convolution_rates():
    # XLA:CPU convolves 1-feature images far slower than 64-feature ones, per
    # multiply-add: the reason the rates are measured by shape.
    m = CollectiveTimeModel.load(ct.default_profile_path("cpu"))
    assert m.convolution is not None
    assert m.convolution.rate(64, 576) > 20 * m.convolution.rate(1, 9)


# ------------------------------------------------------------------------ profiles


def test_profile_round_trip(tmp_path):
    m = model()
    m.fits["all_gather"][2] = fit_latency_bandwidth([(1e3, 1e-5), (1e6, 2e-4)])
    path = tmp_path / "p.json"
    m.save(path)
    loaded = CollectiveTimeModel.load(path)
    assert loaded == m and loaded.source == str(path)
    assert json.loads(path.read_text())["collectives"]["all_gather"]["2"]["points"] == [
        [1e3, 1e-5], [1e6, 2e-4]]
    m.convolution = RATES
    m.save(path)
    assert CollectiveTimeModel.load(path) == m
    assert "[100000000.0, 1000000000.0]" in path.read_text()  # a grid row on one line


def test_loader_picks_the_platform_profile_or_an_override(tmp_path, monkeypatch):
    monkeypatch.delenv(ct.PROFILE_ENV, raising=False)
    monkeypatch.setattr(ct, "PROFILES_DIR", tmp_path)
    model().save(tmp_path / "cpu.json")
    assert load_profile("cpu").source == str(tmp_path / "cpu.json")
    other = tmp_path / "other.json"
    model().save(other)
    assert load_profile("cpu", path=other).source == str(other)
    monkeypatch.setenv(ct.PROFILE_ENV, str(other))
    assert load_profile("gpu").source == str(other)


def test_shipped_cpu_profile_loads():
    m = CollectiveTimeModel.load(ct.default_profile_path("cpu"))
    assert m.platform == "cpu" and set(m.fits) == set(ct.KINDS)
    assert all(set(by_size) == {2, 4, 8} for by_size in m.fits.values())


def test_loader_errors(tmp_path, monkeypatch):
    monkeypatch.delenv(ct.PROFILE_ENV, raising=False)
    with pytest.raises(ShardpyError, match="unknown platform 'npu'"):
        load_profile("npu")
    monkeypatch.setattr(ct, "PROFILES_DIR", tmp_path)
    with pytest.raises(ShardpyError, match="no collective time profile for platform 'gpu'"
                                           ".*calibrate_collectives.py --platform gpu"):
        load_profile("gpu")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ShardpyError, match="bad collective time profile .*bad.json"):
        load_profile("cpu", path=bad)
    with pytest.raises(ShardpyError, match="bad collective time profile .*missing.json"):
        load_profile("cpu", path=tmp_path / "missing.json")


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.update(schema=2), "schema 2"),
    (lambda d: d.pop("collectives"), "missing 'collectives'"),
    (lambda d: d["collectives"].update(broadcast={}), "unknown collective kind"),
    (lambda d: d["collectives"]["all_gather"]["2"].update(bandwidth_bytes_per_s=0),
     "bandwidth 0"),
    (lambda d: d["collectives"]["all_gather"]["2"].pop("latency_s"), "missing 'latency_s'"),
    (lambda d: d["collectives"]["all_gather"].update(x={}), "invalid literal"),
    (lambda d: d["compute"].update(convolution={"features": [4, 1], "contraction": [9],
                                                "multiply_adds_per_s": [[1.0], [1.0]]}),
     "not ascending"),
    (lambda d: d["compute"].update(convolution={"features": [1], "contraction": [9],
                                                "multiply_adds_per_s": [[0.0]]}),
     "positive rates"),
    (lambda d: d["compute"].update(convolution={"features": [1], "contraction": [9]}),
     "missing 'multiply_adds_per_s'"),
])
def test_bad_profile_contents(tmp_path, edit, message):
    data = model().to_json()
    edit(data)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ShardpyError, match=f"bad collective time profile .*{message}"):
        CollectiveTimeModel.load(path)
