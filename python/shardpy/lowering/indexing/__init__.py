"""Indexed ops on local shards: gather, scatter, dynamic_slice, dynamic_update_slice.

Planning (shardpy-insert-reshards, through the op registry, shardpy.ops) and shardpy-to-local
for the four ops whose operands are addressed by runtime indices. Index values stay
global in the program; each device turns them into indices of its own shard.

StableHLO semantics this relies on (and keeps, value for value):
  gather, dynamic_slice, dynamic_update_slice  CLAMP start indices into the operand
      (start in [0, dim - slice size]); the clamp is always applied to the GLOBAL index
      first, then the shard's offset is subtracted, so an out-of-range global index
      reads/writes exactly the row the unpartitioned program does.
  scatter  SKIPS an update window whose start is out of bounds (XLA: the whole window);
      a device owning rows [off, off + n) of a dim shifts the index by -off, so an index
      outside its rows, or outside the operand, is out of its local bounds: skipped.

The cases, by how the operand is sharded:

  gather
    pass-through (offset dim taken whole): slice size becomes the local size
    explicit batching dims (with indices' batching dims sharded alike): as is
    indices' batch dims: each device gathers for its indices
    collapsed dims / size-1 window dims (a REDUCTION factor, e.g. a vocab-sharded
      embedding table): global start clamped to [0, dim-1], shifted by the shard's
      offset, rows outside the shard masked to zero: the result is a partial sum
      (unreduced; an all_reduce follows where a consumer needs it whole). The table
      is never gathered.
  scatter
    pass-through window dims, explicit batching dims: as is
    inserted window dims: each device updates the rows it holds (indices clamped to
      [-1, dim] globally, then shifted: in bounds locally iff in this shard)
    update batch dims (a REDUCTION factor when the body is one reducer): each device
      scatters its updates; the operand's initial value must count once:
        add       the operand is made unreduced on those axes (kept on one device,
                  zero on the others) and the result stays unreduced (summed later)
        max, min, and, or   idempotent: scatter into the operand, then an all_reduce
                  with the same reducer
        multiply  the operand on one device, the identity on the others, then an
                  all_reduce(multiply)
  dynamic_slice
    dims taken whole: local size, start is 0 anyway
    sliced dims: either the operand is all-gathered on that dim and sliced, or each
      device slices its part of the window out of its shard padded with zeros (a
      partial sum of the window, all-reduced or reduce-scattered after): insert-
      reshards weighs both by bytes moved (all_gather of the operand dim vs all_reduce
      of the slice) and takes the cheaper (the slice is cheaper when
      2 * slice < operand dim, e.g. one layer of a stacked weight; a result wanted
      sharded on that dim is reduce-scattered instead, cheaper whenever slice < dim)
  dynamic_update_slice
    dims the update covers: as is; partly updated unsharded dims: as is
    partly updated sharded dims: the update stays whole on every device; each device
      writes the part of the window that falls in its shard (the update shifted to the
      shard's frame, a select where the window covers it)

`indices_are_sorted` / `unique_indices`: slicing indices along batch dims keeps both
true statements (a device's indices are a subsequence, in order, of sorted unique
indices); rewriting index values (clamp + shift, non-strictly monotone per component)
may break both, so both are set to false where indices are rewritten.

Start indices of every dynamic_slice this emits or lowers are in range explicitly
(clamped before the op): XLA (jaxlib 0.10.2, CPU) folds dynamic_slice(dynamic_slice(
x, a), b) into dynamic_slice(x, a + b) with ONE clamp, which is wrong when `a` or `b`
is out of range, and partitioned programs put dynamic slices behind dynamic slices
(all_slice of a result, the shifted update of dynamic_update_slice).

Modules, one per op (each holds the hooks the op registry (shardpy.ops) points at:
`lower_<op>`, how partial results combine, planning rules):

  common.py         index arithmetic on shards: index components in a signed work
                    type (Indices), shard offsets, small IR builders
  gather.py         gather
  scatter.py        scatter (its body's reducer: shardpy.lowering.reducers
                    .scatter_reducer)
  dynamic_slice.py  dynamic_slice, dynamic_update_slice
"""
