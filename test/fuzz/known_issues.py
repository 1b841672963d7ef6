"""Open partitioner bugs the fuzzer found, and the generator features that avoid them.

`run_fuzz.py --disable known` and test/python/test_fuzz_partition.py leave these
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
values also made unreduced (unreduced_results).

An entry reads:
    "feature": (("test/Regressions/fuzz_<bug>.mlir", ...), "what goes wrong"),
"""

# generator feature -> (regression tests, what goes wrong)
KNOWN: dict[str, tuple[tuple[str, ...], str]] = {}

DISABLED = tuple(KNOWN)
