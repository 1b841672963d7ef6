#!/usr/bin/env bash
# The demo: a real JAX-lowered module (a transformer block, forward + backward,
# data x tensor parallel on a 2x4 mesh) partitioned by shardpy, run on 8 CPU host
# devices through PjRt and checked against the unpartitioned program on one device.
# Installs what it needs first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
cd "$SHARDPY_ROOT"
example=examples/transformer_block_fwd_bwd_mesh2x4.mlir

echo "== $example: partitioned by shardpy, run on 8 CPU devices, checked against 1 device"
shardpy-run "$example" --devices 8 --check --stats --benchmark 20  # --stats: IR and collectives
