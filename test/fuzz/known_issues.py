"""Open partitioner bugs the fuzzer found, and the generator features that avoid them.

`run_fuzz.py --disable known` and test/python/test_fuzz_partition.py leave these
features out, so that the bounded batch stays green and still catches new bugs. When a
bug is fixed (its regression test under test/Regressions/ passes: remove its XFAIL),
delete its entry here so that the fuzzer covers those programs again.

Fixed so far (regression tests kept, entries removed): rank-0 arguments in shardpy-run
(scalar_args), replicated values returned unreduced (unreduced_results), unmerged
unreduced sub-axes of reduce/dot results, call operands not resharded to unsharded
callee arguments (unsharded_callee_args), uneven shardings from propagation through
slice/pad/concatenate (small_permuted_dims), insert-reshards plans shared between
reduces with different bodies (mixed_reducers).
"""

# generator feature -> (regression tests, what goes wrong)
KNOWN: dict[str, tuple[tuple[str, ...], str]] = {
    "sub_axes": (
        ("test/Regressions/fuzz_all_reduce_over_sub_axis_lowered_whole_axis.mlir",
         "test/Regressions/fuzz_replicated_to_unreduced_sub_axes_not_merged.mlir"),
        "shardpy-to-local lowers `sdy.all_reduce {\"x\":(2)2}` over all of \"x\" (wrong "
        "result); reshard-to-collectives' replicated_to_unreduced gets "
        "unreduced={\"x\":(1)2, \"x\":(2)2} (verifier error)"),
}

DISABLED = tuple(KNOWN)
