"""What a per-device module goes through before XLA:CPU compiles it (shardpy.jit's
executor, shardpy-run's Executor); never in the partitioner, whose output stays
platform-neutral:

  cpu_slices.offsets_through_case   a combined reduce_scatter's pieces read at offsets
                                    XLA cannot fold (its compile time)
  cpu_fft_layouts.fft_layouts_pinned  every fft's operand and result in the default
                                    layout, which XLA:CPU's fft thunk needs
  cpu_complex_sums.complex_sums_on_pairs  complex summing all_reduces / reduce_scatters
                                    on (real, imag) pairs (XLA aborts on a broadcast
                                    complex constant's; after offsets_through_case,
                                    whose pieces the pair's two slices are not)
  cpu_collective_dims.collectives_on_dim0  all_gathers and reduce_scatters along a minor
                                    dim moved to dim 0 (XLA:CPU's are several times
                                    slower along minor dims)
"""
from __future__ import annotations

from jaxlib.mlir import ir

from .cpu_collective_dims import collectives_on_dim0
from .cpu_complex_sums import complex_sums_on_pairs
from .cpu_fft_layouts import fft_layouts_pinned
from .cpu_slices import offsets_through_case


def prepare_for_xla_cpu(module: ir.Operation, move_collectives: bool = True) -> None:
    """`move_collectives=False` where the module's results meet code it does not hold
    (a caller's jit, whose bf16 dots collectives_on_dim0 cannot look for)."""
    offsets_through_case(module)
    fft_layouts_pinned(module)
    complex_sums_on_pairs(module)
    if move_collectives:
        collectives_on_dim0(module)
