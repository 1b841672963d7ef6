"""Open partitioner bugs the fuzzer found, and the generator features that avoid them.

`run_fuzz.py --disable known` and test/python/test_fuzz_partition.py leave these
features out, so that the bounded batch stays green and still catches new bugs. When a
bug is fixed (its regression test under test/Regressions/ passes: remove its XFAIL),
delete its entry here so the fuzzer covers those programs again.
"""

# feature -> (regression test, what goes wrong)
KNOWN = {
    "scalar_args": (
        "test/Regressions/fuzz_scalar_argument.mlir",
        "runtime.split_global cannot split a rank-0 argument on several devices "
        "(TypeError: 'numpy.float32' object does not support item assignment)"),
    "unreduced_results": (
        "test/Regressions/fuzz_unreduced_result_of_replicated_value.mlir",
        "a value that is not partial returned with unreduced={...}: reshard-to-collectives "
        "emits nothing, every device keeps the whole value, the sum is N times too large"),
    "sub_axes": (
        "test/Regressions/fuzz_reduce_unreduced_sub_axes_not_merged.mlir",
        "a reduce over dims sharded on \"x\":(1)2 and \"x\":(2)2 gets "
        "unreduced={\"x\":(1)2, \"x\":(2)2}, which the sdy verifier rejects"),
    "unsharded_callee_args": (
        "test/Regressions/fuzz_call_operand_not_resharded.mlir",
        "an op left unsharded by propagation is computed sharded by insert-reshards and "
        "passed, still sharded, to a callee whose argument is unsharded: "
        "'func.call' op operand type mismatch"),
    "small_permuted_dims": (
        "test/Regressions/fuzz_uneven_sharding_after_slice.mlir",
        "propagation carries a dim's sharding through slice/pad/concatenate onto a dim it "
        "does not divide; shardpy-to-local: 'uneven shards are not partitioned yet'"),
    "mixed_reducers": (
        "test/Regressions/fuzz_reduce_plan_cache_ignores_body.mlir",
        "insert-reshards caches plans by op name, types and attributes: a min-reduce "
        "reuses the plan of an add-reduce of the same types and is all-reduced as a sum"),
}

DISABLED = tuple(KNOWN)
