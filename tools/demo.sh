#!/usr/bin/env bash
# The demo: a real JAX-lowered module (a transformer block, forward + backward,
# data x tensor parallel on a 2x4 mesh) partitioned by shardpy, run on 8 CPU host
# devices through PjRt and checked against the unpartitioned program on one device,
# then compared with XLA's own partitioner on the same module.
# Installs what it needs first.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
cd "$SHARDPY_ROOT"
example=examples/transformer_block_fwd_bwd_mesh2x4.mlir

echo "== $example: partitioned by shardpy, run on 8 CPU devices, checked against 1 device"
echo "   and against XLA's own partitioning of the same module"
# --stats: IR and collectives; --against-xla: XLA's partitioner side by side (outputs,
# collectives after XLA's passes, peak memory, step time over 20 alternating runs)
shardpy-run "$example" --devices 8 --stats --against-xla --benchmark 20
