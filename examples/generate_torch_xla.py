#!/usr/bin/env python3
"""Make the torch_xla_*.hlo examples with a real PyTorch/XLA, and check shardpy on them.

PyTorch/XLA (torch-xla 2.9, SPMD mode, 8 CPU devices) traces each program lazily; the
HLO text of the traced graph is what it hands to XLA's compiler, with the shardings
`xs.mark_sharding` put on tensors (`sharding={devices=...}` on parameters,
`custom_call_target="Sharding"` on intermediate values, `SPMDFullToShardShape` /
`SPMDShardToFullShape` around manual regions). The script writes that HLO to
examples/torch_xla_<name>.hlo, then checks shardpy on it twice:

  1. `shardpy-run FILE --check`: the per-device program shardpy makes runs on the mesh
     and matches the unpartitioned program (random inputs);
  2. `shardpy-run FILE --inputs in.npz --expected torch.npz`: on the very inputs the
     torch program had, shardpy's outputs match what torch-xla itself computed.

    pip install -e '.[torch-xla]'                 # torch 2.9.0 + torch-xla 2.9.0
    python examples/generate_torch_xla.py          # rewrite the .hlo files, check them
    python examples/generate_torch_xla.py --check  # check only: exit 1 if stale or wrong

torch-xla is an optional dependency (the `torch-xla` extra), never a runtime one, and
CI does not install it: CI runs the committed .hlo files (test/Import/run_torch_xla_*).
The graph is taken with torch_xla._XLAC._get_xla_tensors_hlo (the graph of the given
output tensors) and its inputs, in parameter order, with
_get_tensors_xla_device_data_node (the graph's device-data leaves, in the post order
the lowering makes parameters in); step 2 would fail if that order were wrong.

Programs (float32; meshes over the 8 devices as `xs.Mesh(range(8), shape, names)`):

| name | mesh | program | shardings |
|---|---|---|---|
| mlp_train_step_mesh2x4 | data=2, model=4 | Linear(32,64)-ReLU-Linear(64,32), MSE, SGD(lr 0.1) | x, y batch on data; fc1 rows, fc2 columns on model (Megatron) |
| transformer_train_step_mesh2x4 | data=2, model=4 | nn.TransformerEncoderLayer(32, 4 heads, ff 64, dropout 0, no biases), MSE, AdamW | x, target batch on data; in_proj and linear1 rows, out_proj and linear2 columns on model |
| convnet_batchnorm_train_step_mesh8 | data=8 | Conv-BatchNorm-ReLU x2, mean pool, Linear, cross entropy, SGD with momentum | images and labels batch on data; weights replicated; running stats out |
| manual_region_mesh2x4 | data=2, model=4 | x @ w, then per-device code (enable_manual_sharding ... disable_manual_sharding) with an all-reduce over "model", then a global op | x batch on data, w columns on model |
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("PJRT_DEVICE", "CPU")
os.environ.setdefault("CPU_NUM_DEVICES", "8")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # XLA's GSPMD deprecation warning

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
SEED = 0


def _torch():
    try:
        import torch
        import torch_xla
        import torch_xla.distributed.spmd as xs
        import torch_xla.runtime as xr
    except ImportError as e:
        sys.exit(f"generate_torch_xla.py: needs torch and torch-xla ({e}); "
                 "pip install -e '.[torch-xla]'")
    xr.use_spmd()
    return torch, torch_xla, xs


def capture(torch_xla, outputs) -> tuple[str, list[np.ndarray]]:
    """The HLO text of the graph computing `outputs` (lazy tensors) and the values of
    its parameters, in order."""
    hlo = torch_xla._XLAC._get_xla_tensors_hlo(outputs)
    _, leaves = torch_xla._XLAC._get_tensors_xla_device_data_node(outputs)
    return hlo, [leaf.cpu().numpy() for leaf in leaves]


def evaluate(torch_xla, outputs) -> list[np.ndarray]:
    """What torch-xla computes for `outputs` (the graph compiled by XLA's own SPMD
    partitioner and run on the 8 devices)."""
    torch_xla.sync()
    return [t.detach().cpu().numpy() for t in outputs]


def mlp_train_step(torch, torch_xla, xs, device):
    mesh = xs.Mesh(np.arange(8), (2, 4), ("data", "model"))
    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(),
                                torch.nn.Linear(64, 32)).to(device)
    xs.mark_sharding(model[0].weight, mesh, ("model", None))
    xs.mark_sharding(model[0].bias, mesh, ("model",))
    xs.mark_sharding(model[2].weight, mesh, (None, "model"))
    x = torch.randn(16, 32).to(device)
    y = torch.randn(16, 32).to(device)
    xs.mark_sharding(x, mesh, ("data", None))
    xs.mark_sharding(y, mesh, ("data", None))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    return [loss, *model.parameters()]


def transformer_train_step(torch, torch_xla, xs, device):
    mesh = xs.Mesh(np.arange(8), (2, 4), ("data", "model"))
    # Without biases (as in PaLM or Llama): attention's key bias has a gradient of exactly
    # zero (softmax ignores a shift shared by a row of scores), in floats rounding noise,
    # which AdamW's first step divides by its eps into updates of any size in [-lr, lr]:
    # there, one device and torch-xla's own partitioner disagree as much as shardpy does.
    layer = torch.nn.TransformerEncoderLayer(32, 4, dim_feedforward=64, dropout=0.0,
                                             batch_first=True, bias=False).to(device)
    xs.mark_sharding(layer.self_attn.in_proj_weight, mesh, ("model", None))
    xs.mark_sharding(layer.self_attn.out_proj.weight, mesh, (None, "model"))
    xs.mark_sharding(layer.linear1.weight, mesh, ("model", None))
    xs.mark_sharding(layer.linear2.weight, mesh, (None, "model"))
    x = torch.randn(4, 8, 32).to(device)
    target = torch.randn(4, 8, 32).to(device)
    xs.mark_sharding(x, mesh, ("data", None, None))
    xs.mark_sharding(target, mesh, ("data", None, None))
    opt = torch.optim.AdamW(layer.parameters(), lr=1e-3)
    # (not mean(layer(x)**2): the closing LayerNorm makes that ~1 whatever the weights,
    # so their gradients are rounding noise, which AdamW's first step turns into +-lr)
    loss = torch.nn.functional.mse_loss(layer(x), target)
    loss.backward()
    opt.step()
    return [loss, *layer.parameters()]


def convnet_batchnorm_train_step(torch, torch_xla, xs, device):
    mesh = xs.Mesh(np.arange(8), (8,), ("data",))
    nn = torch.nn
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                        nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10)).to(device)
    images = torch.randn(16, 3, 8, 8).to(device)
    labels = torch.randint(0, 10, (16,)).to(device)
    xs.mark_sharding(images, mesh, ("data", None, None, None))
    xs.mark_sharding(labels, mesh, ("data",))
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    loss = nn.functional.cross_entropy(net(images), labels)
    loss.backward()
    opt.step()
    return [loss, *net.parameters(), *net.buffers()]


def manual_region(torch, torch_xla, xs, device):
    import torch_xla.core.xla_model as xm
    mesh = xs.Mesh(np.arange(8), (2, 4), ("data", "model"))
    x = torch.randn(16, 32).to(device)
    w = torch.randn(32, 64).to(device)
    xs.mark_sharding(x, mesh, ("data", None))
    xs.mark_sharding(w, mesh, (None, "model"))
    h = x @ w  # [16, 64] on (data, model)
    spec = ("data", "model")
    local = xs.enable_manual_sharding(h, spec, mesh=mesh).global_tensor  # [8, 16] per device
    # A psum over "model": devices of one "data" row, as the replica groups name them.
    # torch-xla's all-reduce for SPMD manual code (channel_id, use_global_device_ids;
    # xm.all_reduce is a no-op in one SPMD process, and with XLA_ALWAYS_ALLREDUCE its
    # token form crashes XLA's partitioner: "Check failed: !IsManual()").
    groups = [list(range(r * 4, r * 4 + 4)) for r in range(2)]
    local = torch_xla._XLAC._xla_spmd_all_reduce(xm.REDUCE_SUM, torch.tanh(local) * 2.0,
                                                 1.0, groups)
    out = xs.disable_manual_sharding(local, spec, h.shape, mesh=mesh).global_tensor
    return [torch.sin(out) + h]


PROGRAMS = {
    "mlp_train_step_mesh2x4": mlp_train_step,
    "transformer_train_step_mesh2x4": transformer_train_step,
    "convnet_batchnorm_train_step_mesh8": convnet_batchnorm_train_step,
    "manual_region_mesh2x4": manual_region,
}


def make(name: str) -> tuple[str, list[np.ndarray], list[np.ndarray]]:
    """(HLO text, inputs, torch-xla's outputs) of program `name`."""
    torch, torch_xla, xs = _torch()
    torch.manual_seed(SEED)
    device = torch_xla.device()
    outputs = PROGRAMS[name](torch, torch_xla, xs, device)
    hlo, inputs = capture(torch_xla, outputs)
    return hlo, inputs, evaluate(torch_xla, outputs)


def shardpy_run_command() -> list[str]:
    found = shutil.which("shardpy-run")
    if found:
        return [found]
    return [sys.executable, "-m", "shardpy.tools.shardpy_run"]


def check(path: Path, inputs, expected, rtol: float, atol: float) -> list[str]:
    """Run shardpy on `path` both ways (module docstring); the failures, as text."""
    run = shardpy_run_command()
    failures = []
    env = {k: v for k, v in os.environ.items() if k not in ("PJRT_DEVICE", "CPU_NUM_DEVICES")}
    with tempfile.TemporaryDirectory() as tmp:
        ins, outs = Path(tmp) / "in.npz", Path(tmp) / "torch.npz"
        np.savez(ins, **{f"arg{i}": a for i, a in enumerate(inputs)})
        np.savez(outs, **{f"out{i}": a for i, a in enumerate(expected)})
        for what, extra in (("--check (random inputs)", ["--check"]),
                            ("against torch-xla's outputs",
                             ["--inputs", str(ins), "--expected", str(outs),
                              "--rtol", str(rtol), "--atol", str(atol)])):
            done = subprocess.run(run + [str(path), *extra], capture_output=True, text=True,
                                  env=env)
            tail = (done.stdout + done.stderr).strip().splitlines()[-6:]
            status = "ok" if done.returncode == 0 else "FAILED"
            print(f"  shardpy-run {what}: {status}")
            if done.returncode:
                failures.append(f"{path.name}: shardpy-run {what}:\n    " + "\n    ".join(tail))
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="do not write: exit 1 if a file is stale or shardpy fails on it")
    parser.add_argument("--only", nargs="*", choices=sorted(PROGRAMS), default=None)
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-5)
    args = parser.parse_args()
    failures = []
    for name in args.only or PROGRAMS:
        # One program per process: torch-xla's lazy graph and its RNG start clean.
        if len(args.only or PROGRAMS) > 1:
            cmd = [sys.executable, __file__, "--only", name, "--rtol", str(args.rtol),
                   "--atol", str(args.atol)] + (["--check"] if args.check else [])
            if subprocess.run(cmd).returncode:
                failures.append(name)
            continue
        path = HERE / f"torch_xla_{name}.hlo"
        hlo, inputs, expected = make(name)
        print(f"{path.name}: {len(hlo.splitlines())} lines, {len(inputs)} parameters, "
              f"{len(expected)} outputs")
        if args.check:
            if not path.exists() or path.read_text() != hlo:
                failures.append(f"{path.name}: stale or missing (run without --check)")
        else:
            path.write_text(hlo)
        failures += check(path, inputs, expected, args.rtol, args.atol)
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
