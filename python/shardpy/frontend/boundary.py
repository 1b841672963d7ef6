"""What crosses shardpy.jit's program boundary: JAX's module partitioned into the
per-device one, the shard_map specs of its arguments and results (named as jax.jit
names them), uneven dims padded around it, and typed PRNG keys, which cross as their
key data and are wrapped again on the way out."""
from __future__ import annotations

from jaxlib.mlir import ir

from ..ir import jaxlib_bridge
from ..ir.diagnostics import DiagnosticEngine
from ..ir.utils import filter_signature_attrs, public_main
from ..sharding.sdy_codec import module_meshes
from ..pipeline import Pipeline, PipelineOptions


# Typed PRNG keys (jax.random.key, nnx.Rngs' state) cross the program boundary as their
# key data: JAX's lowered module has tensor<...x2xui32> where the key array has its
# own rank, and the per-device program runs on that data. Keys go in as data and come
# out wrapped again with the impl JAX's lowering gives each output.
def key_impl(dtype):
    """The PRNG impl of a typed key dtype (key<fry>...), else None."""
    import jax

    try:
        if jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key):
            return dtype._impl  # (KeyTy's impl: what wrap_key_data takes)
    except TypeError:
        pass
    return None


def compile_args(lowered) -> dict:
    """What JAX's lowering hands its compiler (kept arguments, input shardings and
    avals...): jax.stages.Lowered keeps it on a private attribute; {} where a JAX
    has none."""
    lowering = getattr(lowered, "_lowering", None)
    return getattr(lowering, "compile_args", None) or {}


def results_named_as_jax(lowered, out_specs, opened, out_ranks) -> tuple:
    """The result specs written as jax.jit writes them: a result given an out_sharding
    has that sharding's own spec (P() stays P(), not P(None)); results JAX left
    unspecified, as pxla's maybe_recover_user_shardings names them: where the program's
    first argument has a NamedSharding of its user's and a result has its rank and
    layout, that argument's own spec; else the spec the compiler's choice reads as,
    without trailing Nones (written so already)."""
    import jax

    args = compile_args(lowered)
    given = args.get("out_shardings") or ()
    specs = list(out_specs)
    for i, spec in enumerate(specs):
        user = given[i] if i < len(given) and i not in opened else None
        if isinstance(user, jax.sharding.NamedSharding) and i < len(out_ranks) and \
                _spec_entries(user.spec, out_ranks[i]) == _spec_entries(spec, out_ranks[i]):
            specs[i] = user.spec
    shardings, avals = args.get("in_shardings"), args.get("global_in_avals")
    if not opened or not shardings or not avals or not isinstance(
            shardings[0], jax.sharding.NamedSharding):
        return tuple(specs)
    orig, rank = shardings[0], len(avals[0].shape)
    mine = _spec_entries(orig.spec, rank)
    return tuple(orig.spec if i in opened and i < len(out_ranks) and out_ranks[i] == rank
                 and _spec_entries(spec, rank) == mine else spec
                 for i, spec in enumerate(specs))


def _spec_entries(spec, rank: int) -> tuple:
    entries = [e if isinstance(e, tuple) else (e,) if e is not None else ()
               for e in tuple(spec)]
    return tuple(entries + [()] * (rank - len(entries)))


_WRAPPERS: dict = {}


def wrap_keys(data, impl):
    """Key data wrapped as typed keys, laid out as the data is (its last dim, the key's
    words, is whole): wrap_key_data alone would return them replicated."""
    import functools

    import jax

    sharding = getattr(data, "sharding", None)
    target = None
    if isinstance(sharding, jax.sharding.NamedSharding):
        spec = tuple(sharding.spec) + (None,) * (data.ndim - len(sharding.spec))
        target = jax.sharding.NamedSharding(sharding.mesh,
                                            jax.sharding.PartitionSpec(*spec[:-1]))
    key = (str(impl), target)
    wrapper = _WRAPPERS.get(key)
    if wrapper is None:
        wrapper = _WRAPPERS[key] = jax.jit(
            functools.partial(jax.random.wrap_key_data, impl=impl), out_shardings=target)
    return wrapper(data)


_CONTEXT: list = []


def _context():
    if not _CONTEXT:
        _CONTEXT.append(jaxlib_bridge.make_context())
    return _CONTEXT[0]


def explain_module(global_text: str, pipeline_text: str):
    """Lowered.explain: JAX's module partitioned again with a Recorder active; the
    records of its collectives (explain/collectives.py) and the recorder."""
    from ..explain import recording
    from ..explain.report import explain

    context = _context()
    engine = DiagnosticEngine("<shardpy.jit>")
    with engine.capturing(context):
        module = ir.Module.parse(global_text, context=context)
        _open_unspecified_results(module)
        with recording() as recorder:
            _run_pipeline(module, pipeline_text, context, engine)
        return explain(module.operation, recorder), recorder


def _run_pipeline(module, pipeline_text: str, context, engine) -> None:
    """The partition pipeline over JAX's module; its diagnostics as one ValueError."""
    ok = Pipeline(pipeline_text, context, PipelineOptions(verify_each=False)).run(
        module, engine)
    if not ok:
        messages = "; ".join(d.render() for d in engine.diagnostics)
        raise ValueError(f"shardpy.jit: partitioning failed: {messages}")
    engine.flush()


def partition_module(global_text: str, pipeline_text: str):
    """Partition JAX's module; returns the per-device text prepared for inlining, the
    shard_map specs of its arguments and results (each on its value's own mesh), local
    result avals, the report and the boundary's uneven dims ((global shape, padded
    shape) per argument and result: shard_map needs whole shards, so those values are
    padded and sliced around it), the results opened for propagation, the tokens, and
    (each argument's mesh symbol, each result's, {symbol: model.Mesh})."""
    from ..runtime import executor as runtime
    from ..runtime import stats

    context = _context()
    engine = DiagnosticEngine("<shardpy.jit>")
    with engine.capturing(context):
        module = ir.Module.parse(global_text, context=context)
        # JAX's ordered effects thread tokens through @main, ahead of the arrays: they
        # stay in the per-device module (the executor passes JAX's), not in the specs.
        tokens = _leading_tokens(module)
        opened = {i - tokens[1] for i in _open_unspecified_results(module)}
        global_sig = runtime.signature(module.operation, tokens=True)
        _run_pipeline(module, pipeline_text, context, engine)
        op = module.operation
        signature = runtime.signature(op, tokens=True)
        fixed = {i: _expressible(signature.results[i].sharding) for i in opened}
        fixed = {i + tokens[1]: s for i, s in fixed.items() if s is not None}
        if fixed:
            # A result left to propagation came out on sub-axes, which no PartitionSpec
            # (nor jax.jit's output) expresses: again, with that result laid out on the
            # whole axes it had (rare: a second partition of the module).
            module = ir.Module.parse(global_text, context=context)
            opened = {i - tokens[1] for i in _open_unspecified_results(module, fixed)}
            _run_pipeline(module, pipeline_text, context, engine)
            op = module.operation
            signature = runtime.signature(op, tokens=True)
        # (A maximal mesh alone, where JAX placed a callback on device 0, shards nothing;
        # nor does the empty mesh of a program on one device, num_partitions = 1.)
        defs = module_meshes(op)
        sharded = any(not mesh.is_maximal and not mesh.is_empty for mesh in defs.values())
        # Each boundary value's mesh symbol (jax.jit may use several meshes: meshes.py).
        meshes = tuple(tuple(_mesh_symbol(v.sharding, defs) for v in values)
                       for values in (signature.args, signature.results)) + (defs,)
        report = stats.module_stats(op).to_json()
        in_specs = tuple(_spec(v.sharding, v.name) for v in signature.args)
        out_specs = tuple(_spec(v.sharding, v.name, trim=i in opened)
                          for i, v in enumerate(signature.results))
        local_outs = tuple((v.type.shape, v.type.dtype) for v in signature.results)
        padded = tuple(tuple(_padding(g, v) for g, v in zip(global_sig_values, values))
                       for global_sig_values, values in ((global_sig.args, signature.args),
                                                         (global_sig.results,
                                                          signature.results)))
        with context:
            for inner in list(op.regions[0].blocks[0].operations):
                inner = inner.operation
                if inner.name == "sdy.mesh":
                    inner.erase()
                elif inner.name == "func.func":
                    filter_signature_attrs(inner, lambda n: n.startswith("sdy.")
                                           or n.startswith("jax.") or n.startswith("tf."))
        text = str(module)
    return (text, in_specs, out_specs, local_outs, report, sharded, padded, opened, tokens,
            meshes)


def _mesh_symbol(sharding, defs: dict):
    """The symbol of `sharding`'s mesh (a mesh written inline gets one in `defs`)."""
    if sharding is None:
        return None
    name = sharding.mesh_name or f"inline{sharding.mesh.axes}"
    defs.setdefault(name, sharding.mesh)
    return name


def _leading_tokens(module) -> tuple[int, int]:
    """How many `!stablehlo.token` arguments and results @main starts with (JAX's ordered
    effects, one each); a token anywhere else is refused."""
    from jaxlib.mlir.dialects import stablehlo

    main = public_main(module.operation)  # (the entry runtime.signature reads)
    if main is None:
        return 0, 0
    ftype = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value)
    counts = []
    for types in (ftype.inputs, ftype.results):
        flags = [stablehlo.TokenType.isinstance(t) for t in types]
        n = flags.index(False) if False in flags else len(flags)
        if any(flags[n:]):
            raise ValueError("shardpy.jit: @main has a token after its arrays; JAX puts "
                             "the tokens of ordered effects first")
        counts.append(n)
    return counts[0], counts[1]


def _expressible(sharding):
    """None where `sharding` is a PartitionSpec's; else (its mesh name, per dim the whole
    axes it has before its first sub-axis)."""
    if sharding is None or not any(a.sub is not None for d in sharding.dims for a in d.axes):
        return None
    dims = []
    for dim in sharding.dims:
        kept = []
        for ref in dim.axes:
            if ref.sub is not None:
                break
            kept.append(ref.name)
        dims.append(kept)
    return sharding.mesh_name, dims


def _open_unspecified_results(module, fixed: dict | None = None) -> set[int]:
    """Results of @main that JAX left without a sharding (out_shardings unspecified on
    a mesh of Auto axes) get an open one, every dim `{?}`: the partitioner chooses their
    layout by propagation, as Shardy does inside jax.jit (a result without any sharding
    would be made whole). With several meshes of axes (JAX adds an empty one for its
    own constraints) they stay without one, for propagation to give them what is
    returned on its mesh. Returns their indices. `fixed`:
    result index -> (mesh name, axis names per dim): closed, given instead."""
    from jaxlib.mlir.dialects import sdy

    ops = [op.operation for op in module.body.operations]
    meshes = [ir.StringAttr(op.attributes["sym_name"]).value for op in ops
              if op.name == "sdy.mesh" and len(sdy.MeshAttr(op.attributes["mesh"]).axes)]
    main = next((op for op in ops if op.name == "func.func" and ir.StringAttr(
        op.attributes["sym_name"]).value == "main"), None)
    if not meshes or main is None:
        return set()
    # With several meshes (jax.jit allows them over one device order) a result is left
    # without a sharding: propagation gives it what is returned, on whichever mesh, as
    # Shardy does; it is still one JAX left unspecified.
    single = meshes[0] if len(meshes) == 1 else None
    opened = set()
    results = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value).results
    with module.context:
        old = (list(ir.ArrayAttr(main.attributes["res_attrs"])) if "res_attrs" in
               main.attributes else [ir.DictAttr.get({}) for _ in results])
        new = []
        for attrs, result_type in zip(old, results):
            entries = {a.name: a.attr for a in ir.DictAttr(attrs)}
            if "sdy.sharding" not in entries and isinstance(result_type, ir.RankedTensorType):
                rank = ir.RankedTensorType(result_type).rank
                dims = [sdy.DimensionShardingAttr.get([], is_closed=False)
                        for _ in range(rank)]
                mesh = single
                if not all(ir.RankedTensorType(result_type).shape):
                    # No elements: jax.jit returns such a result replicated.
                    dims = [sdy.DimensionShardingAttr.get([], is_closed=True)
                            for _ in range(rank)]
                if fixed and len(new) in fixed:  # (partition_module's second try)
                    mesh, names = fixed[len(new)]
                    dims = [sdy.DimensionShardingAttr.get(
                        [sdy.AxisRefAttr.get(n) for n in axes], is_closed=True)
                        for axes in names]
                if mesh is not None:
                    entries["sdy.sharding"] = sdy.TensorShardingAttr.get(mesh, dims, [], [])
                opened.add(len(new))
            new.append(ir.DictAttr.get(entries))
        main.attributes["res_attrs"] = ir.ArrayAttr.get(new)
    return opened


def _padding(global_value, local_value):
    """(global shape, shape padded to whole shards) of a boundary value, or None when
    its shards divide it (shardpy.lowering.padding: uneven dims are padded to ceil shards)."""
    shape = tuple(global_value.type.shape)
    sharding = local_value.sharding
    padded = tuple(n * (sharding.dim_shards(d) if sharding is not None else 1)
                   for d, n in enumerate(local_value.type.shape))
    return None if padded == shape else (shape, padded)


def _spec(sharding, name: str, trim: bool = False):
    """A PartitionSpec for a boundary sharding (full mesh axes only); `trim`: without
    trailing Nones, as JAX writes the spec of a layout its compiler chose."""
    from jax.sharding import PartitionSpec

    if sharding is None:
        return PartitionSpec()
    if sharding.unreduced:
        raise ValueError(f"shardpy.jit: {name} would leave the program unreduced on "
                         f"{', '.join(map(str, sharding.unreduced))}; shardpy.jit returns "
                         f"whole values only")
    entries = []
    for dim in sharding.dims:
        if any(a.sub is not None for a in dim.axes):
            raise ValueError(f"shardpy.jit: {name} is sharded on a sub-axis ({sharding}), "
                             f"which a PartitionSpec cannot express")
        names = tuple(a.name for a in dim.axes)
        entries.append(None if not names else names[0] if len(names) == 1 else names)
    while trim and entries and entries[-1] is None:
        entries.pop()
    return PartitionSpec(*entries)
