"""Indexing ops: gather, scatter, dynamic_slice, dynamic_update_slice. Indexed dims are
read at runtime offsets: a gather or dynamic_slice on a sharded indexed dim reads what
its shard holds (zeros elsewhere) and the partial results are summed; a scatter updates
the rows its shard holds (lowering/indexing/). XLA:CPU folds these ops with a
dynamic_slice they read: to-local shields their operand.
"""
from __future__ import annotations

from jaxlib.mlir.dialects import stablehlo as hlo

from ..lowering import padding as pad
from ..lowering.indexing import dynamic_slice as dynamic_slice_lowering
from ..lowering.indexing import gather as gather_lowering
from ..lowering.indexing import scatter as scatter_lowering
from ..lowering.reducers import scatter_reducer
from ..sharding.op_rule import FactorKind, RuleBuilder
from .attrs import PASS, REDUCTION, REPLICATE, across
from .entry import LocalOp, OpFamily


def dynamic_slice(op, b: RuleBuilder):
    """Unsliced dims: pass-through. A sliced dim starts at a runtime offset: it must be
    whole, and propagation may not carry a sharding across it (blocked). Shardy sizes
    that factor like the operand dim, on the result too."""
    src, dst = b.operand_shapes[0], b.result_shapes[0]
    for d, size in enumerate(src):
        if size == dst[d]:
            across(b, d, size)
        else:
            across(b, d, size, REPLICATE, blocked=True)


def dynamic_update_slice(op, b: RuleBuilder):
    """Dims the update covers fully: one factor for operand, update and result. Partly
    updated dims: operand and result stay sharded alike (each shard updates what falls
    in it), the update has its own factor and must be whole."""
    operand, update = b.operand_shapes[0], b.operand_shapes[1]
    for d, size in enumerate(operand):
        if size == update[d]:
            b.factor(size, {0: d, 1: d}, {0: d})
        else:
            b.factor(size, {0: d}, {0: d})
            b.factor(update[d], {1: d}, kind=REPLICATE)


def _gather_scatter(b: RuleBuilder, add, *, scatter: bool, operand, slices, indices,
                    index_vector_dim: int, offset_dims, collapsed_dims, operand_batching,
                    indices_batching, batch_kind: FactorKind = PASS) -> None:
    """Factors shared by gather and scatter. `slices` is the gather result / scatter
    update; `add(operand_dim, indices_dim, slices_dim, size, kind, blocked)` adds one
    factor (a dim of None: not in that tensor). `batch_kind` is the kind of batch dims
    that only indices and slices have."""
    offset_dims, collapsed_dims = set(offset_dims), list(collapsed_dims)
    skipped = set(collapsed_dims) | set(operand_batching)
    operand_dim = 0
    batch_pos = 0
    for s, size in enumerate(slices):
        if s in offset_dims:
            # A window dim: walks the operand dims that are neither collapsed nor batch.
            while operand_dim in skipped:
                operand_dim += 1
            full = operand[operand_dim]
            if full == size:
                add(operand_dim, None, s, size, PASS, False)
            elif scatter:
                # A partial window: operand and update dims must each be whole.
                add(operand_dim, None, None, full, REPLICATE, False)
                add(None, None, s, size, REPLICATE, False)
            elif size == 1:
                # One element per window: keep the operand dim sharded, all-reduce after.
                add(operand_dim, None, None, full, REDUCTION, False)
                add(None, None, s, size, REPLICATE, False)
            else:
                add(operand_dim, None, s, full, REPLICATE, True)
            operand_dim += 1
        else:
            # A batch dim of the indices (skipping the index vector dim).
            indices_dim = batch_pos if batch_pos < index_vector_dim else batch_pos + 1
            batch_pos += 1
            if indices_dim in indices_batching:
                explicit = operand_batching[list(indices_batching).index(indices_dim)]
                add(explicit, indices_dim, s, size, PASS, False)
            else:
                add(None, indices_dim, s, size, batch_kind, False)
    for d in collapsed_dims:
        # Gather: a shard holds some of the indexed rows; the others give zeros, so the
        # result is all-reduced. Scatter: each shard updates the rows it holds.
        add(d, None, None, operand[d], PASS if scatter else REDUCTION, False)
    if index_vector_dim < len(indices):
        add(None, index_vector_dim, None, indices[index_vector_dim], REPLICATE, False)


def gather(op, b: RuleBuilder):
    """Operand dims, indices batch dims and result dims, related through the gather
    dimension numbers (see _gather_scatter)."""
    dn = hlo.GatherDimensionNumbers(op.attributes["dimension_numbers"])

    def add(operand_dim, indices_dim, result_dim, size, kind, blocked):
        operands = {}
        if operand_dim is not None:
            operands[0] = operand_dim
        if indices_dim is not None:
            operands[1] = indices_dim
        b.factor(size, operands, {} if result_dim is None else {0: result_dim}, kind,
                 blocked)

    _gather_scatter(
        b, add, scatter=False, operand=b.operand_shapes[0], slices=b.result_shapes[0],
        indices=b.operand_shapes[1], index_vector_dim=dn.index_vector_dim,
        offset_dims=dn.offset_dims, collapsed_dims=dn.collapsed_slice_dims,
        operand_batching=dn.operand_batching_dims,
        indices_batching=dn.start_indices_batching_dims)


def scatter(op, b: RuleBuilder):
    """Like gather with the roles turned round: the inputs and results take the operand
    dims, the updates the slice dims (see _gather_scatter). Batch dims that only indices
    and updates have are a reduction when the update computation is a reducer (updates
    from several shards are all-reduced: scatter_reducer, the lowering's test too), else
    they must be whole."""
    dn = hlo.ScatterDimensionNumbers(op.attributes["scatter_dimension_numbers"])
    n = len(b.result_shapes)

    def add(input_dim, indices_dim, update_dim, size, kind, blocked):
        operands = {}
        if input_dim is not None:
            operands.update({i: input_dim for i in range(n)})
        if indices_dim is not None:
            operands[n] = indices_dim
        if update_dim is not None:
            operands.update({n + 1 + i: update_dim for i in range(n)})
        results = {} if input_dim is None else {i: input_dim for i in range(n)}
        b.factor(size, operands, results, kind, blocked)

    _gather_scatter(
        b, add, scatter=True, operand=b.operand_shapes[0], slices=b.operand_shapes[n + 1],
        indices=b.operand_shapes[n], index_vector_dim=dn.index_vector_dim,
        offset_dims=dn.update_window_dims, collapsed_dims=dn.inserted_window_dims,
        operand_batching=dn.input_batching_dims,
        indices_batching=dn.scatter_indices_batching_dims,
        batch_kind=REDUCTION if scatter_reducer(op) is not None else REPLICATE)


FAMILIES = (
    OpFamily(("stablehlo.gather",), rule=gather, xla_folds_dynamic_slice=True,
             touches="result",
             local=LocalOp(gather_lowering.gather_combine, False,
                           gather_lowering.lower_gather, padding=pad.reads_no_padding)),
    # Its rule reads the update computation: caching "ir".
    OpFamily(("stablehlo.scatter",), rule=scatter, caching="ir",
             xla_folds_dynamic_slice=True, touches="in place",
             local=LocalOp(scatter_lowering.scatter_combine, False,
                           scatter_lowering.lower_scatter,
                           counted_once=scatter_lowering.scatter_counted_once,
                           padding=pad.scatter_padding)),
    OpFamily(("stablehlo.dynamic_slice",), rule=dynamic_slice, forward_only=True,
             xla_folds_dynamic_slice=True, touches="result",
             local=LocalOp(dynamic_slice_lowering.dynamic_slice_combine, False,
                           dynamic_slice_lowering.lower_dynamic_slice,
                           rule=dynamic_slice_lowering.dynamic_slice_rule,
                           whole_too=True, padding=pad.reads_no_padding)),
    OpFamily(("stablehlo.dynamic_update_slice",), rule=dynamic_update_slice,
             forward_only=True, touches="in place",
             local=LocalOp(None, False, dynamic_slice_lowering.lower_dynamic_update_slice)),
)
