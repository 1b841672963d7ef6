"""shardpy.jit's executor: a per-device module run on every device of a mesh by JAX.

A JAX primitive stands for "run this per-device module": its lowering inlines the
module (jax.interpreters.mlir.merge_mlir_modules) and calls its main. Bound inside a
fully manual jax.shard_map, it runs once per device with local arrays; the jitted
function around it lays the global arrays out as the module's @main wants them, pads
uneven dims, and names the results as shardpy laid them out. Like jaxlib_bridge, it
reaches into jax beyond its public API (the primitive's lowering) and is pinned to
jax/jaxlib 0.10.2.
"""
from __future__ import annotations

import contextlib
from math import prod

from jaxlib.mlir import ir

from . import callbacks
from .jaxlib_bridge import has_elements
from .xla_cpu import prepare_for_xla_cpu

_PER_DEVICE_PRIMITIVE: list = []


def _per_device_primitive():
    if _PER_DEVICE_PRIMITIVE:
        return _PER_DEVICE_PRIMITIVE[0]
    from jax.extend.core import Primitive
    from jax.interpreters import mlir as jax_mlir
    from jaxlib.mlir.dialects import func as func_dialect

    primitive = Primitive("shardpy_per_device")
    primitive.multiple_results = True
    # JAX's ordered effects of the program (io_callback(..., ordered=True)): JAX threads
    # a token per effect through the primitive, the per-device @main's leading tokens.
    primitive.def_effectful_abstract_eval(
        lambda *args, out_avals, module_text, host_callbacks, token_effects, standalone: (
            out_avals, set(token_effects)))

    def lower(ctx, *args, out_avals, module_text, host_callbacks, token_effects,
              standalone):
        source = ir.Module.parse(module_text, context=ctx.module_context.context)
        if host_callbacks:  # the user's jax.debug.print, pure_callback...: XLA calls them
            module_context = ctx.module_context

            def add(callback) -> int:
                module_context.add_host_callback(callback)
                return len(module_context.host_callbacks) - 1
            callbacks.rebind(source.operation, host_callbacks, add)
        if set(ctx.module_context.platforms) == {"cpu"}:
            # Inside a caller's program (not standalone) the results may meet that
            # program's bf16 dots, which the module cannot see (ir/xla_cpu.py).
            prepare_for_xla_cpu(source.operation, move_collectives=standalone)
        name = jax_mlir.merge_mlir_modules(ctx.module_context.module, "shardpy_per_device",
                                           source)
        types = [ir.RankedTensorType.get(a.shape, jax_mlir.dtype_to_ir_type(a.dtype))
                 for a in out_avals]
        tokens = [ctx.tokens_in.get(effect) for effect in token_effects]
        call = func_dialect.CallOp([t.type for t in tokens] + types,
                                   ir.FlatSymbolRefAttr.get(name), tokens + list(args))
        results = list(call.results)
        if token_effects:
            ctx.set_tokens_out(ctx.tokens_in.update_tokens(jax_mlir.TokenSet(
                dict(zip(token_effects, results[:len(tokens)])))))
        return results[len(tokens):]

    jax_mlir.register_lowering(primitive, lower)
    _PER_DEVICE_PRIMITIVE.append(primitive)
    return primitive


def shard_map_executor(module_text: str, mesh, in_specs, out_specs, local_outs, donate=(),
                       padded=((), ()), host_callbacks=(), out_memory_kinds=(),
                       ordered_effects=(), out_named=None, standalone=True):
    """A jitted function of global jax.Arrays running `module_text` on every device.
    `padded`: per argument and result, None or (global shape, padded shape): uneven
    dims, which shard_map cannot split, padded with zeros before it and sliced after.
    `host_callbacks`: the list of Python callbacks of the lowering that made the module
    (its callback calls name them by index; ir/callbacks.py). `out_memory_kinds`: per
    result, the memory it is returned in (None: the device's), as JAX's lowering has it
    (out_shardings with memory_kind="pinned_host": offloaded results). `out_named`:
    per result (jax Mesh, PartitionSpec, that Mesh's axes all Explicit) it is returned
    as, where not `mesh` and `out_specs` (several meshes: frontend/meshes.py).
    `standalone`: the executor is its own program (called on arrays, not traced into a
    caller's jit)."""
    import jax
    import jax.numpy as jnp

    pad_in, pad_out = padded

    primitive = _per_device_primitive()
    out_avals = tuple(jax.core.ShapedArray(tuple(shape), dtype) for shape, dtype in local_outs)

    def per_device(*xs):
        return tuple(primitive.bind(*xs, out_avals=out_avals, module_text=module_text,
                                    host_callbacks=tuple(host_callbacks),
                                    token_effects=tuple(ordered_effects),
                                    standalone=standalone))

    if mesh is None:  # nothing is sharded: the program runs whole where it is called
        return jax.jit(per_device, donate_argnums=tuple(donate))
    # Values without elements stay out of the shard_map (zeros where they are used):
    # XLA folds a zero-element argument of the manual body into a constant and then
    # rejects a body call that none of the manual region's arguments reach.
    crossing_out = [i for i, (shape, _) in enumerate(local_outs) if has_elements(shape)]
    explicit = any(t == jax.sharding.AxisType.Explicit for t in mesh.axis_types)

    def mapped(*placed):
        crossing_in = [i for i, x in enumerate(placed) if has_elements(x.shape)]
        empty_in = {i: (_local_shape(x.shape, in_specs[i], mesh), x.dtype)
                    for i, x in enumerate(placed) if i not in crossing_in}

        def body(*xs):
            # The zeros are made here: ones from outside would be captured as arguments.
            given = iter(xs)
            full = [jnp.zeros(*empty_in[i]) if i in empty_in else next(given)
                    for i in range(len(placed))]
            outs = per_device(*full)
            return tuple(outs[i] for i in crossing_out)

        outs = [None] * len(local_outs)
        if crossing_out:
            # Under a context mesh (jax.set_mesh) that is not the shard_map's (a program
            # of several meshes runs on one refining them), the shard_map is traced
            # under its own: jax requires the two to agree.
            context = jax.sharding.get_abstract_mesh()
            own = mesh.abstract_mesh
            scope = (jax.sharding.use_abstract_mesh(own)
                     if not context.empty and context != own else contextlib.nullcontext())
            with scope:
                got = jax.shard_map(body, mesh=mesh,
                                    in_specs=tuple(in_specs[i] for i in crossing_in),
                                    out_specs=tuple(out_specs[i] for i in crossing_out),
                                    check_vma=False)(*[placed[i] for i in crossing_in])
            for i, out in zip(crossing_out, got):
                outs[i] = out
        for i, (shape, dtype) in enumerate(local_outs):
            if outs[i] is None:
                full = tuple(n * _spec_shards(out_specs[i], d, mesh)
                             for d, n in enumerate(shape))
                outs[i] = _constrained(jnp.zeros(full, dtype), mesh, out_specs[i],
                                       explicit)
        return outs

    def run(*xs):
        # Arguments arrive laid out however the caller had them; the program wants the
        # layout shardpy chose for @main (explicit-sharding meshes need jax.reshard).
        placed = []
        for i, (x, spec) in enumerate(zip(xs, in_specs)):
            if i < len(pad_in) and pad_in[i] is not None:
                shape, full = pad_in[i]
                x = jnp.pad(x, [(0, f - n) for n, f in zip(shape, full)])
            placed.append(_constrained(x, mesh, spec, explicit))
        outs = list(mapped(*placed))
        if explicit and out_named:  # typed on the refined mesh: onto each result's own
            outs = [_constrained(x, typed, spec, True)
                    for x, (_, spec, typed) in zip(outs, out_named)]
        for i, pair in enumerate(pad_out):
            if pair is not None:
                outs[i] = outs[i][tuple(slice(0, n) for n in pair[0])]
        return tuple(outs)

    if any(pair is not None for pair in pad_out):  # uneven results: XLA lays them out
        return jax.jit(run, donate_argnums=tuple(donate))
    # The results as shardpy laid them out, with the specs it gives (under Auto axes XLA
    # would otherwise pick the jit's output layouts and write their specs its own way).
    kinds = tuple(out_memory_kinds) + (None,) * (len(out_specs) - len(out_memory_kinds))
    named = [n[:2] for n in out_named] if out_named else [(mesh, s) for s in out_specs]
    out_shardings = tuple(jax.sharding.NamedSharding(m, spec, memory_kind=kind)
                          for (m, spec), kind in zip(named, kinds))
    return _compiled_by_gspmd(
        jax.jit(run, donate_argnums=tuple(donate), out_shardings=out_shardings), standalone,
        host_callbacks)


class _GspmdJit:
    """A standalone executor's jax.jit, traced, lowered and compiled with XLA's GSPMD
    partitioner instead of Shardy (jax's `jax_use_shardy_partitioner` off around it):
    the program is partitioned already, one fully manual shard_map with its inputs and
    outputs laid out, and XLA's Shardy pipeline (import, propagation, export, then the
    SPMD partitioner) finds nothing to do in it but costs 3-10% of XLA's compile of
    the model programs (gpt_dp_tp 1.68 -> 1.56 s, gpt_fsdp_8l 4.03 -> 3.63 s;
    bench/README.md); GSPMD's partitioner passes over the manual region. The flag is
    part of jax's jit key, so calls, lower() and compile() all run under it (else jax
    would lower and compile the executor again, with Shardy)."""

    def __init__(self, jitted):
        self._jitted = jitted

    def __call__(self, *args):
        with _gspmd():
            return self._jitted(*args)

    def lower(self, *args):
        with _gspmd():
            return _GspmdLowered(self._jitted.lower(*args))


class _GspmdLowered:
    def __init__(self, lowered):
        self._lowered = lowered

    def compile(self, *args, **kwargs):
        with _gspmd():
            return self._lowered.compile(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._lowered, name)


def _gspmd():
    from jax._src import config

    return config.use_shardy_partitioner(False)


def _compiled_by_gspmd(jitted, standalone: bool, host_callbacks):
    """`jitted` under _GspmdJit where it is its own program (traced into a caller's
    jit, it is lowered and compiled with the caller's) and calls no Python callback
    (GSPMD places a callback's maximal sharding inside the manual region by a full
    rematerialization, and runs it on the wrong devices). Only where the results'
    shardings are given: where XLA lays them out (nothing sharded, uneven results),
    Shardy's propagation must choose them, as under jax.jit."""
    return _GspmdJit(jitted) if standalone and not host_callbacks else jitted


def _constrained(x, mesh, spec, explicit: bool):
    """`x` laid out by `spec` on `mesh` (explicit-sharding meshes need jax.reshard)."""
    import jax

    target = jax.sharding.NamedSharding(mesh, spec)
    return jax.reshard(x, target) if explicit else jax.lax.with_sharding_constraint(x, target)


def _spec_shards(spec, dim: int, mesh) -> int:
    """Shards of `dim` under a PartitionSpec entry (None, an axis, or a tuple of axes)."""
    entry = spec[dim] if dim < len(spec) else None
    if entry is None:
        return 1
    names = entry if isinstance(entry, tuple) else (entry,)
    return prod(mesh.shape[name] for name in names)


def _local_shape(shape, spec, mesh) -> tuple[int, ...]:
    """A device's block of a (whole-shard) global shape under `spec`."""
    return tuple(n // _spec_shards(spec, d, mesh) for d, n in enumerate(shape))
