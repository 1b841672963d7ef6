"""Open partitioner bugs the fuzzer found, and the generator features that avoid them.

`run_fuzz.py --disable known` and test/python/fuzz/test_run_fuzz.py leave these
features out, so that the bounded batch stays green and still catches new bugs. When a
bug is fixed (its regression test under test/Regressions/ passes: remove its XFAIL),
delete its entry here so that the fuzzer covers those programs again.

Fixed so far (regression tests test/Regressions/fuzz_*.mlir): rank-0
arguments in shardpy-run (feature scalar_args), replicated values returned unreduced
(unreduced_results), unmerged unreduced sub-axes of reduce/dot results and of
replicated_to_unreduced (sub_axes), call operands not resharded to unsharded callee
arguments (unsharded_callee_args), uneven shardings from propagation through
slice/pad/concatenate (small_permuted_dims), insert-reshards plans shared between
reduces with different bodies (mixed_reducers), sub-axis collectives lowered over whole
axes or reduced twice (sub_axes), all_to_all of a concatenate rejected by XLA:CPU, sub-axes of
values also made unreduced (unreduced_results); issue-6 ops: chlo.top_k with k the whole
dim sharded like its operand, scatters into a dynamic_slice mis-scattered by XLA:CPU
(out-of-shard indices), case branches sharded differently for an unannotated result,
two halves of one axis left unmerged on a dim (sub_axes), collectives on a block
argument of a while that carries no sharding (seed 205108).

Entries may also be bugs of XLA that the fuzzer runs into (their regression tests are
XFAIL and say so).

An entry reads:
    "feature": (("test/Regressions/fuzz_<bug>.mlir", ...), "what goes wrong"),
"""

# generator feature -> (regression tests, what goes wrong)
KNOWN: dict[str, tuple[tuple[str, ...], str]] = {
    "crossed_clamp_bounds": (
        ("test/Regressions/xla_clamp_crossed_bounds_in_manual_computation.mlir",),
        "XLA:CPU bug, not shardpy's: max(clamp(t, t, a), t) with t > a gives a inside a "
        "fully manual computation (the per-device program), t on one device. 1 program "
        "in 10,000."),
    "indexed_dynamic_slices": (
        ("test/Regressions/xla_gather_of_dynamic_slice_folded.mlir",
         "test/Regressions/xla_dynamic_slice_of_dynamic_slice_folded.mlir",
         "test/Regressions/xla_dynamic_slice_of_transposed_dynamic_slice_folded.mlir",
         "test/Regressions/xla_manual_slice_of_dynamic_slice_folded.mlir"),
        "XLA:CPU bug, not shardpy's: gather(dynamic_slice(x)) and "
        "dynamic_slice(dynamic_slice(x)) are folded into one op on x that loses the inner "
        "start clamp (scatter(dynamic_slice(x)) with out-of-bounds indices goes wrong "
        "too), also through a transpose, a broadcast_in_dim or a reshape that adds or "
        "drops size-1 dims between the two; the unpartitioned reference is wrong. Seeds "
        "4665 and 5180 of the first 10,000-program run, 205191 of the last; 1304914 "
        "(a scatter into a callee's dynamic_slice result with indices past its 2 rows: "
        "there the per-device program is the wrong one, on the devices whose indices "
        "are out of bounds, with a correct operand). Also where a manual computation "
        "takes a dynamic_slice's result: XLA's partitioner, the reference for per-device "
        "code, folds its slicing into the dynamic_slice (seed 2739 of the 2026-11-27 "
        "run)."),
    "top_k_through_barrier": (
        ("test/Regressions/xla_top_k_optimization_barrier_in_manual_computation.mlir",),
        "XLA bug, not shardpy's: compiling an optimization_barrier whose operands include "
        "chlo.top_k's results inside a fully manual computation aborts (Check failed: "
        "... cannot be downcasted to HloGetTupleElementInstruction). Seed 102117."),
    "three_fry_bits": (
        ("test/Regressions/xla_argmax_of_three_fry_bits_slow_compile.mlir",),
        "XLA:CPU slowness, not shardpy's: an argmax (two-operand reduce) over float values "
        "made from THREE_FRY rng_bit_generator bits (also through a negate, transpose or "
        "reshape) takes minutes to compile, the one-device reference too (plain jax.jit "
        "of jnp.argmax(bits.astype(float32)) as well); PHILOX bits or int values compile "
        "in a second. Seeds 201301 and 300591 timed out this way."),
    "reduce_window_base_dilation": (
        ("test/Regressions/xla_reduce_window_base_dilation_reference.mlir",),
        "XLA:CPU bug, not shardpy's: a reduce_window with base dilation on one dim, a "
        "stride > 1 on another and padding (4x24x24, base dilation 2 on dim 0, stride 2 "
        "on dim 1) goes to a YNNPACK fusion that computes some windows wrong, reading "
        "garbage (NaN now and then); the one-device reference is wrong, the partitioned "
        "result matches numpy. Plain jax.jit(lax.reduce_window) does it too; "
        "XLA_FLAGS=--xla_cpu_experimental_ynn_fusion_type= does not. Seed 10420 of "
        "test/fuzz/windowed.py --op reduce_window."),
}

DISABLED = tuple(KNOWN)
