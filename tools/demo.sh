#!/usr/bin/env bash
# The demo: a real JAX-lowered module (a transformer block, forward + backward,
# DP x TP on a 2x4 mesh) on 8 CPU host devices. Installs what it needs first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
cd "$SHARDPY_ROOT"
example=examples/transformer_block_fwd_bwd_mesh2x4.mlir

if shardpy-opt --list-passes | grep -q -- '--shardpy-partition'; then
  echo "== partitioned by shardpy, run on 8 CPU devices, checked against one device"
  shardpy-run "$example" --devices 8 --check --stats --benchmark 20
else
  echo "== (the partitioner, shardpy-partition, is not built yet: running the global"
  echo "    program on one device through PjRt, with IR statistics)"
  shardpy-run "$example" --devices 8 --reference --stats --benchmark 20
  echo "== a hand-partitioned per-device program on 4 of the devices, checked against numpy"
  tmp="$(mktemp -d)"
  python - "$tmp" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(1)
x = rng.standard_normal((8, 16)).astype(np.float32)
w = rng.standard_normal((16, 6)).astype(np.float32)
np.savez(f"{sys.argv[1]}/in.npz", arg0=x, arg1=w)
np.savez(f"{sys.argv[1]}/out.npz", out0=x @ w, out1=x @ w, out2=np.arange(4, dtype=np.uint32))
PY
  shardpy-run test/Run/per_device_matmul.mlir --inputs "$tmp/in.npz" --expected "$tmp/out.npz"
  rm -rf "$tmp"
fi
