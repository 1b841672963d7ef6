"""Windowed ops on sharded dims: pad, slice, reverse, concatenate, reduce_window,
select_and_scatter, convolution.

Each op has an *analysis* (`_analyse_<op>`, in the op's module): given global shapes
and the shardings insert-reshards chose, what every device needs along each sharded
windowed dim (a halo.Window) and the op's local attributes there — or None when
shardpy cannot compute those shardings on shards (then insert-reshards keeps the dims
whole). The same analysis prices the plan in insert-reshards (`<op>_cost`: the
collectives the lowering makes, kind, group size and bytes per device) and drives the lowering in shardpy-to-local (`lower_<op>`). Dims that are not
sharded, or sharded but not windowed, are left as they are.

  pad          window [k*M - low, +M) of the operand filled with the padding value
               (interior padding: the inputs of the shard's range, padded locally and
               cut at the shard's offset)
  slice        window [start + k*M*stride, +(M-1)*stride+1), sliced locally
  reverse      the mirrored shard (a permutation of shards), reversed locally
  concatenate  each operand's window of the result's shard, chosen per position
  reduce_window
               halos (halo.sliding_window: windows, strides, padding, window and base
               dilation), the local op with padding only where the shard needs it;
               a cumulative reduction (window = dim, padding dim-1 on one side: what
               JAX emits for cumsum/cumprod/cummax/cummin) is a local scan plus the
               combined totals of the shards before (after) it: one all_gather of the
               shards' totals, not a halo of the whole array
  select_and_scatter
               halos of operand and source covering every window that touches the
               shard, the local op on them, the shard's part of its result; positions
               outside the array are filled with a value the select never picks
               (lowest for GE/GT, highest for LE/LT, as XLA's partitioner does)
  convolution  spatial dims: the output sharded like the input (kernel whole): input
               halos, then the local conv with adjusted padding; the kernel's spatial
               dim sharded like the input (output whole; weight gradients): the input
               window each kernel shard's taps read, a partial sum. Batch, feature and
               group dims need no exchange; local feature_group_count and
               batch_group_count follow from local shapes.

Modules, one per op or op group (each holds its ops' analyses, the `lower_<op>`
hooks and the `<op>_cost` functions the op registry (shardpy.ops) points at):

  common.py              placement (Placed), op attributes, the Analysis of a plan,
                         its collectives (cost_from) and its halos (apply_halos)
  pad_slice.py           pad, slice, reverse
  concatenate.py         concatenate, and rolls (concatenated slices of one array)
  reduce_window.py       reduce_window, cumulative reductions (scans)
  select_and_scatter.py  select_and_scatter
  convolution.py         convolution
"""
