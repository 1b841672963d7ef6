"""shardpy.jit: jax.jit with shardpy as the SPMD partitioner.

    f = shardpy.jit(loss_and_grads, in_shardings=(x_sharding, w_sharding))
    loss, grads = f(x, w)            # jax.Arrays in and out, NamedShardings on the outputs
    lowered = f.lower(x, w)          # arrays or jax.ShapeDtypeStructs with shardings
    lowered.as_text()                # JAX's global module; per_device=True: shardpy's
    compiled = lowered.compile()     # XLA's executable: as_text(), cost_analysis(),
    compiled(x, w)                   # memory_analysis(), input/output_shardings, report

How: JAX lowers `fun` to StableHLO + sdy exactly as jax.jit would; shardpy partitions it
into a per-device module; a JAX primitive whose lowering inlines that module runs it
inside a fully manual `jax.shard_map` over the mesh (over one refining them all where
the program uses several: meshes.py), so the result composes with the rest of JAX
(inside an outer jax.jit, next to ordinary ops). Programs are cached by
abstract signature: a second call with the same shapes, dtypes and shardings reuses the
partitioned program. With JAX's persistent compilation cache on, partitions are kept
beside it for later processes (partition_cache.py).
"""
from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..ir import jaxlib_bridge
from ..ir.shard_map_executor import shard_map_executor
from ..ir.callbacks import CUSTOM_PARTITIONING
from .boundary import (compile_args, key_impl, partition_module, results_named_as_jax,
                       wrap_keys)
from . import fast_path, meshes
from .arguments import (TRANSFORMED, abstract_key, int_tuple, leaf_aval, name_tuple, path_name,
                        positional_names, signature_of, static_name)
from .partition_cache import cached_partition

PARTITION_PIPELINE = "builtin.module(shardpy-partition)"
# shardpy-partition with jax.experimental.custom_partitioning ops partitioned by their
# rules once the shardings are chosen (partition/custom_partitioning.py).
CUSTOM_PARTITIONING_PIPELINE = (
    "builtin.module(shardpy-import,shardpy-propagate,shardpy-choose-shardings,"
    "shardpy-custom-partitioning,shardpy-insert-reshards,shardpy-reshard-to-collectives,"
    "shardpy-to-local,shardpy-combine-collectives)")


@dataclass
class Lowered:
    """What shardpy.jit made of one call signature (jax.stages.Lowered's counterpart)."""

    global_module: str       # JAX's StableHLO + sdy, as jax.jit(...).lower(...).as_text(
                             # debug_info=True) (what shardpy partitions)
    partitioned_module: str  # shardpy's per-device module
    report: dict             # collectives (count, bytes per device) of the per-device module
    in_specs: tuple = ()
    out_specs: tuple = ()
    _program: Any = field(default=None, repr=False, compare=False)
    _jax_lowered: Any = field(default=None, repr=False, compare=False)
    _pass_pipeline: str = field(default=PARTITION_PIPELINE, repr=False, compare=False)

    def explain(self, show: bool = True) -> list:
        """Why each collective of the per-device program is there: one record per
        collective (explain.collectives.Record; `.to_json()` is the --explain-json
        record), most expensive first, each naming the op that needed it at its line
        of your source, the layouts before and after with their origins, and the
        alternatives weighed. `show`: also print them as a table, with the values
        gathered whole and ops computed replicated (what would avoid them). Partitions
        again with recording on (the first call did not record: it costs nothing)."""
        from ..explain.collectives import format_table
        from ..explain.warnings import find_warnings
        from .boundary import explain_module

        records, recorder = explain_module(self.global_module, self._pass_pipeline)
        if show:
            print(format_table(records))
            for warning in find_warnings(recorder):  # (gathered whole, computed replicated)
                print(warning.line())
        return records

    def as_text(self, dialect: str | None = None, *, debug_info: bool = False,
                per_device: bool = False) -> str:
        """The module as text: JAX's global StableHLO with its shardings (exactly what
        jax.jit(...).lower(...).as_text(debug_info=...) prints), or with `per_device`
        shardpy's per-device module (with the source locations it kept). `dialect`:
        "stablehlo" (the only one there is)."""
        if dialect not in (None, "stablehlo"):
            raise ValueError(f"shardpy.jit: no {dialect!r} text of a lowered program; "
                             f"dialect='stablehlo' is the one there is")
        if per_device:
            return self.partitioned_module
        if debug_info or self._jax_lowered is None:
            return self.global_module
        return self._jax_lowered.as_text()

    def compile(self) -> "Compiled":
        """XLA's executable of the per-device program (compiled once, then kept)."""
        program = self._program
        if program.compiled is None:
            program.compiled = Compiled(self, program)
        return program.compiled


class Compiled:
    """XLA's executable of shardpy's per-device program, as jax.stages.Compiled: call it
    with the dynamic arguments (static ones are part of the program); `as_text()` is
    XLA's optimized per-device HLO; `report` counts the collectives before XLA's
    optimizations (shardpy's module) and after them (the executable)."""

    def __init__(self, lowered: Lowered, program: "_Program"):
        self.lowered = lowered
        self._program = program
        self._executable = program.executor.lower(*program.in_avals).compile()
        self._report = None

    def __call__(self, *args, **kwargs):
        import jax

        leaves, tree = jax.tree_util.tree_flatten(list(args) + ([kwargs] if kwargs else []))
        if tree != self._program.in_tree:
            raise TypeError(f"shardpy.jit: the compiled program takes arguments structured "
                            f"as {self._program.in_tree}, got {tree}")
        return _execute(self._executable, leaves, self._program)

    def as_text(self) -> str:
        return self._executable.as_text()

    def cost_analysis(self):
        return self._executable.cost_analysis()

    def memory_analysis(self):
        return self._executable.memory_analysis()

    def runtime_executable(self):
        """The PjRt loaded executable (as jax.stages.Compiled's)."""
        return self._executable.runtime_executable()

    @property
    def input_shardings(self):
        """(the dynamic arguments' shardings as the arguments nest, {}), as jax's."""
        import jax

        flat = list(self._executable.input_shardings[0])
        kept = self._program.kept
        if kept is not None:  # arguments the program does not read: None, as jax's
            by_leaf = dict(zip(kept, flat))
            flat = [by_leaf.get(i) for i in range(self._program.in_tree.num_leaves)]
        args = jax.tree_util.tree_unflatten(self._program.in_tree, flat)
        return tuple(args), {}

    @property
    def output_shardings(self):
        import jax

        flat = self._executable.output_shardings
        return jax.tree_util.tree_unflatten(self._program.out_tree, list(flat))

    @property
    def report(self) -> dict:
        """{"before_xla": the per-device module's collectives (what Lowered.report
        has), "after_xla": the executable's, after XLA's combiners and simplifiers}:
        per kind, count and bytes per device (static: a loop body counts once)."""
        if self._report is None:
            from ..runtime import hlo_collectives

            found = hlo_collectives.read_collectives(
                jaxlib_bridge.hlo_instructions(jaxlib_bridge.loaded_executable(
                    self._executable), hlo_collectives.OPCODES), self._program.devices)
            self._report = {"before_xla": self.lowered.report.get("collectives", {}),
                            "after_xla": found.by_kind()}
        return self._report


class Traced:
    """What shardpy.jit(f).trace(*args) returns (jax.stages.Traced's counterpart): JAX's
    jaxpr, argument and output info; lower() partitions with shardpy."""

    def __init__(self, jitted: "Jitted", args: tuple, kwargs: dict, traced):
        self._jitted, self._args, self._kwargs, self._traced = jitted, args, kwargs, traced
        self.jaxpr = traced.jaxpr
        self.out_info = traced.out_info
        self.args_info = traced.args_info
        self.fun_name = traced.fun_name

    def lower(self) -> Lowered:
        return self._jitted.lower(*self._args, **self._kwargs)


@dataclass
class _Program:
    lowered: Lowered
    executor: Callable
    out_tree: Any
    num_dynamic: int
    in_tree: Any = None
    in_avals: tuple = ()  # the dynamic leaves as jax.ShapeDtypeStructs (for compile)
    devices: int = 1
    compiled: Any = None
    out_key_impls: tuple = ()  # per output leaf: its PRNG impl where it is a typed key
    in_keys: tuple = ()  # the (kept) dynamic leaves that are typed keys
    out_keys: bool = False  # any output a typed key
    kept: tuple | None = None  # the dynamic leaves the program takes (None: all of them)
    # (kept leaf, NamedSharding) per donated leaf: where it is placed when it arrives
    # uncommitted (see _execute).
    place_donated: tuple = ()
    # The executor for calls traced into a caller's jit (made on the first such call):
    # its per-device module is prepared for XLA:CPU without seeing the caller's code.
    make_executor: Callable | None = None
    _traced_executor: Callable | None = None

    def executor_for(self, leaves) -> Callable:
        if self.make_executor is None or not any(map(jaxlib_bridge.is_staging_tracer,
                                                     leaves)):
            return self.executor
        if self._traced_executor is None:
            self._traced_executor = self.make_executor(standalone=False)
        return self._traced_executor


class Jitted:
    def __init__(self, fun: Callable, in_shardings=None, out_shardings=None,
                 static_argnums: int | Sequence[int] = (), donate_argnums: int | Sequence[int] = (),
                 pass_pipeline: str = PARTITION_PIPELINE, static_argnames=(),
                 donate_argnames=(), keep_unused: bool = False):
        self.fun = fun
        self.keep_unused = keep_unused
        self.in_shardings = in_shardings
        self.out_shardings = out_shardings
        self._signature = signature_of(fun)
        self.static_argnums = tuple(sorted(set(int_tuple(static_argnums)) | set(
            self._positions(static_argnames, "static_argnames", keyword_only=True))))
        # Keyword-only parameters named static (jax.jit keeps them out of the program too).
        self.static_kwnames = tuple(n for n in name_tuple(static_argnames)
                                    if n in self._keyword_only())
        self.donate_argnums = tuple(sorted(set(int_tuple(donate_argnums)) | set(
            self._positions(donate_argnames, "donate_argnames"))))
        self.pass_pipeline = pass_pipeline
        self._cache: dict = {}
        self._lock = threading.Lock()
        self.__name__ = getattr(fun, "__name__", "fun")
        self.__doc__ = getattr(fun, "__doc__", None)
        self.__wrapped__ = fun
        # Calls go through jax.jit's C++ dispatch; a signature it has not run yet
        # comes back to the Python path, _call (fast_path.py).
        self._fast = fast_path.dispatch_for(self)

    # -- public ----------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if self._fast is not None:
            try:
                return self._fast(*args, **kwargs)
            except ValueError as err:  # (the Python path's error names the argument)
                if "Non-hashable static" not in str(err):
                    raise
        return self._call(args, kwargs)[0]

    def _call(self, args, kwargs):
        """The Python path: (the result, the program that made it or None, its leaves)."""
        args, kw = self._positional(args, kwargs)
        leaves, program = self._program(args, kw)
        if program is None:
            # Under jax.grad, jax.vmap, jax.jvp... applied outside: the transformation
            # must see the function, not an opaque per-device program, so the call is
            # staged as jax.jit stages it (an outer shardpy.jit then partitions it with
            # the rest; eagerly, XLA does). shardpy.jit(jax.grad(f)) partitions the
            # gradient itself.
            return self._as_jax_jit()(*args, **kw), None, leaves
        return _execute(program.executor_for(leaves), leaves, program), program, leaves

    def _as_jax_jit(self):
        import jax

        found = getattr(self, "_jax_jit", None)
        if found is None:
            found = self._jax_jit = jax.jit(
                self.fun, in_shardings=self.in_shardings, out_shardings=self.out_shardings,
                static_argnums=self.static_argnums, static_argnames=self.static_kwnames,
                donate_argnums=self.donate_argnums, keep_unused=self.keep_unused)
        return found

    def trace(self, *args, **kwargs) -> "Traced":
        """jax.jit(...).trace's counterpart: the jaxpr and signature JAX traces; its
        lower() is shardpy's."""
        return Traced(self, args, kwargs, self._as_jax_jit().trace(*args, **kwargs))

    def eval_shape(self, *args, **kwargs):
        """The outputs' shapes, dtypes and shardings, as jax.jit(...).eval_shape gives
        them (shardpy.jit's outputs carry the same shardings)."""
        return self._as_jax_jit().eval_shape(*args, **kwargs)

    def clear_cache(self) -> None:
        """Forget the programs made for earlier signatures (as jax.jit's clear_cache)."""
        with self._lock:
            self._cache.clear()
            if self._fast is not None:
                self._fast._clear_cache()
        found = getattr(self, "_jax_jit", None)
        if found is not None:
            found.clear_cache()

    def lower(self, *args, **kwargs) -> Lowered:
        args, kw = self._positional(args, kwargs)
        program = self._program(args, kw)[1]
        if program is None:
            raise ValueError("shardpy.jit: lower() got tracers of a transformation (jax.grad, "
                             "jax.vmap...); lower the transformed function instead, e.g. "
                             "shardpy.jit(jax.grad(f)).lower(x)")
        return program.lowered

    def _dynamic(self, args: tuple, kw: dict) -> list:
        """The arguments the program takes: the positional ones not static, then the
        keyword-only ones not static (as one dict: their leaves in key order, as jax
        flattens keyword arguments)."""
        dynamic = [a for i, a in enumerate(args) if i not in self.static_argnums]
        rest = {k: v for k, v in kw.items() if k not in self.static_kwnames}
        return dynamic + [rest] if rest else dynamic

    # -- arguments by name ---------------------------------------------------------------
    def _positions(self, names, what: str, keyword_only: bool = False) -> list[int]:
        """Positions of the parameters `names` (a str or several), as jax.jit resolves
        static_argnames and donate_argnames (`keyword_only`: keyword-only parameters
        may be named too; they have no position)."""
        names = name_tuple(names)
        if not names:
            return []
        params = self._positional_parameters(what)
        allowed = self._keyword_only() if keyword_only else ()
        missing = [n for n in names if n not in params and n not in allowed]
        if missing:
            raise ValueError(f"shardpy.jit: {what} names {', '.join(missing)}, but "
                             f"{getattr(self.fun, '__name__', 'the function')} has no "
                             f"positional parameter of that name (shardpy.jit passes "
                             f"arguments by position)")
        return [params.index(n) for n in names if n in params]

    def _keyword_only(self) -> list[str]:
        import inspect

        if self._signature is None:
            return []
        return [p.name for p in self._signature.parameters.values()
                if p.kind == inspect.Parameter.KEYWORD_ONLY]

    def _positional_parameters(self, what: str) -> list[str]:
        if self._signature is None:
            raise ValueError(f"shardpy.jit: {what} needs the function's signature, which "
                             f"inspect cannot read")
        return positional_names(self._signature)

    def _positional(self, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        """(positional arguments, keyword-only ones): keyword arguments moved to their
        positions (defaults filled in before them), so that statics, donation and the
        cache key see one form of every call."""
        if not kwargs and not self.static_kwnames:
            return args, {}
        if self._signature is None:
            raise TypeError("shardpy.jit: keyword arguments need the function's signature, "
                            "which inspect cannot read")
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as err:
            raise TypeError(f"shardpy.jit: {err}") from None
        bound.apply_defaults()
        return tuple(bound.args), dict(bound.kwargs)

    # -- compile -------------------------------------------------------------------------
    def _program(self, args, kw) -> tuple[list, _Program]:
        """(the dynamic leaves, the program for their signature: cached, else made)."""
        key, leaves = self._key(args, kw)
        if TRANSFORMED in key[2]:  # (see __call__)
            return leaves, None
        program = self._cache.get(key)
        if program is None:
            with self._lock:
                program = self._cache.get(key)
                if program is None:
                    program = self._compile(args, kw)
                    self._cache[key] = program
        return leaves, program

    def _key(self, args, kw):
        """(the cache key of a call: static arguments, the dynamic ones' tree and each
        leaf's abstract signature; the dynamic leaves). Paid on every call: one flatten
        and one cheap tuple per leaf (paths only for an error message)."""
        import jax

        static = tuple((i, arg) for i, arg in enumerate(args) if i in self.static_argnums)
        static += tuple((k, kw[k]) for k in self.static_kwnames if k in kw)
        if static:
            for i, arg in static:
                try:
                    hash(arg)
                except TypeError as err:
                    # (ValueError, as jax.jit raises for it)
                    raise ValueError(f"shardpy.jit: static argument {static_name(self._signature, i)} of "
                                     f"type {type(arg).__name__} is not hashable ({err}); "
                                     f"pass a hashable value (a tuple, not a list)") from None
        dynamic = self._dynamic(args, kw)
        leaves, tree = jax.tree_util.tree_flatten(dynamic)
        try:
            signature = tuple(map(abstract_key, leaves))
        except TypeError:
            for path, leaf in jax.tree_util.tree_flatten_with_path(dynamic)[0]:
                abstract_key(leaf, self._leaf_name(args, path))
            raise
        return (static, tree, signature), leaves

    def _leaf_name(self, args, path) -> str:
        """A dynamic leaf's name in an error, as jax.jit's (arguments.path_name)."""
        return path_name(self._dynamic_index(args, path), path,
                         positional_names(self._signature))

    def _dynamic_index(self, args, path):
        """The argument position a dynamic leaf's path starts in (None: a keyword-only
        argument)."""
        dynamic_positions = [i for i in range(len(args)) if i not in self.static_argnums]
        first = getattr(path[0], "idx", 0)
        return dynamic_positions[first] if first < len(dynamic_positions) else None

    def _compile(self, args, kw) -> _Program | None:
        import jax

        dynamic = self._dynamic(args, kw)
        mesh, found_meshes = self._mesh(args, dynamic)

        def jitted(keep_unused):
            return jax.jit(self.fun, in_shardings=self.in_shardings,
                           out_shardings=self.out_shardings,
                           static_argnums=self.static_argnums,
                           static_argnames=self.static_kwnames,
                           donate_argnums=self.donate_argnums, keep_unused=keep_unused)
        try:
            lowered = jitted(self.keep_unused).lower(*args, **kw)
        except (ValueError, TypeError) as err:
            raise type(err)(f"shardpy.jit: {err}") from None
        leaves, in_tree = jax.tree_util.tree_flatten(dynamic)
        # Without keep_unused, JAX's module drops the arguments the function never reads
        # (as jax.jit's executable does): they are not passed.
        kept = _kept_leaves(lowered, len(leaves))
        if kept is False:  # (a JAX that does not say which: keep them all)
            lowered, kept = jitted(True).lower(*args, **kw), None
        global_text = lowered.as_text(debug_info=True)  # diagnostics point at user code
        pipeline = self.pass_pipeline
        if pipeline == PARTITION_PIPELINE and CUSTOM_PARTITIONING in global_text:
            pipeline = CUSTOM_PARTITIONING_PIPELINE  # (their rules live in this process)
        (per_device, in_specs, out_specs, local_outs, report, sharded, padded, opened,
         tokens, boundary_meshes) = cached_partition(global_text, pipeline, partition_module,
                                    plain_text=lowered.as_text)
        ordered = tuple(jaxlib_bridge.lowering_compile_args(lowered).get("ordered_effects")
                        or ())
        if tokens != (len(ordered), len(ordered)):
            raise ValueError(f"shardpy.jit: the program threads {tokens[0]} tokens through "
                             f"@main for {len(ordered)} ordered effects")
        out_ranks = [len(info.shape) for info in jax.tree_util.tree_leaves(lowered.out_info)]
        out_specs = results_named_as_jax(lowered, out_specs, opened, out_ranks)
        # A program nothing shards (no mesh anywhere) runs whole on every device.
        if not sharded:
            mesh = None
        elif mesh is None:
            if any(map(jaxlib_bridge.is_staging_tracer, leaves)):
                # Traced into a caller's jit with no sharded argument (the mesh is only
                # in the function's own constraints): staged as jax.jit stages it, and
                # partitioned with the caller's program.
                return None
            raise ValueError("shardpy.jit: no mesh: give NamedShardings, sharded jax.Arrays, "
                             "or set one with jax.set_mesh")
        exec_mesh, exec_in, exec_out, out_named = mesh, in_specs, out_specs, None
        if mesh is not None:  # several meshes: one that refines them runs the shard_map
            exec_mesh, exec_in, exec_out, out_named = meshes.for_executor(
                mesh, found_meshes, boundary_meshes, in_specs, out_specs)
        donated = self._donated_flat(args)
        if kept is not None:
            position = {leaf: k for k, leaf in enumerate(kept)}
            donated = tuple(position[i] for i in donated if i in position)
            leaves = [leaves[i] for i in kept]
        make_executor = functools.partial(
            shard_map_executor,
            per_device, exec_mesh, exec_in, exec_out, local_outs, donate=donated, padded=padded,
            host_callbacks=_host_callbacks(lowered),
            out_memory_kinds=_result_memory_kinds(lowered), ordered_effects=ordered,
            out_named=out_named)
        executor = make_executor()
        place_donated = _donated_placements(donated, exec_mesh, exec_in, padded)
        out_key_impls = tuple(key_impl(info.dtype)
                              for info in jax.tree_util.tree_leaves(lowered.out_info))
        program = _Program(Lowered(global_text, per_device, report, in_specs, out_specs,
                                   _jax_lowered=lowered, _pass_pipeline=pipeline),
                           executor, lowered.out_tree, len(in_specs), in_tree,
                           _placed_avals(leaves, place_donated),
                           mesh.size if mesh is not None else 1,
                           out_key_impls=out_key_impls, kept=kept,
                           in_keys=tuple(i for i, leaf in enumerate(leaves)
                                         if key_impl(getattr(leaf, "dtype", None))),
                           out_keys=any(impl is not None for impl in out_key_impls),
                           place_donated=place_donated, make_executor=make_executor)
        program.lowered._program = program
        return program

    def _donated_flat(self, args) -> tuple[int, ...]:
        import jax

        donated, flat = [], 0
        for i, arg in enumerate(args):
            if i in self.static_argnums:
                continue
            count = len(jax.tree_util.tree_leaves(arg))
            if i in self.donate_argnums:
                donated += range(flat, flat + count)
            flat += count
        return tuple(donated)

    def _mesh(self, args, dynamic):
        """(the concrete mesh: from the shardings given, the arguments, or jax.set_mesh,
        None if there is none; every mesh found, the first first)."""
        import jax

        found = []

        def visit(sharding, where):
            mesh = getattr(sharding, "mesh", None)
            if isinstance(mesh, jax.sharding.Mesh):
                found.append((mesh, where))

        for where, value in (("in_shardings", self.in_shardings),
                             ("out_shardings", self.out_shardings)):
            if value is not None:
                for path, leaf in jax.tree_util.tree_flatten_with_path(
                        value, is_leaf=lambda x: isinstance(x, jax.sharding.Sharding))[0]:
                    visit(leaf, where + jax.tree_util.keystr(path))
        for path, leaf in jax.tree_util.tree_flatten_with_path(dynamic)[0]:
            if isinstance(leaf, jax.Array) and not isinstance(leaf, jax.core.Tracer):
                visit(leaf.sharding, self._leaf_name(args, path))
            elif isinstance(leaf, jax.ShapeDtypeStruct) and leaf.sharding is not None:
                visit(leaf.sharding, self._leaf_name(args, path))
        if not found:
            try:
                ambient = jax.sharding.get_mesh()
            except ValueError:  # inside an outer jit: only the abstract mesh is known
                ambient = None
            if ambient is not None and not ambient.empty:
                return ambient, [ambient]
            return None, []
        # Several meshes: JAX's lowering checks they share one device order, and the
        # boundary maps them onto one (meshes.py).
        return found[0][0], [m for m, _ in found]


def jit(fun: Callable | None = None, *, in_shardings=None, out_shardings=None,
        static_argnums: int | Sequence[int] = (), donate_argnums: int | Sequence[int] = (),
        static_argnames: str | Sequence[str] = (), donate_argnames: str | Sequence[str] = (),
        keep_unused: bool = False):
    """Like jax.jit, partitioned by shardpy. Usable as a decorator with or without
    arguments. As in jax.jit, arguments the function never reads are dropped from the
    program unless `keep_unused`."""
    def make(f):
        return Jitted(f, in_shardings, out_shardings, static_argnums, donate_argnums,
                      static_argnames=static_argnames, donate_argnames=donate_argnames,
                      keep_unused=keep_unused)

    return make if fun is None else make(fun)


# --------------------------------------------------------------------------- helpers


def _result_memory_kinds(lowered) -> tuple:
    """Per result of JAX's @main, the memory kind it is returned in (`mhlo.memory_kind`:
    "pinned_host" for an offloaded result, from out_shardings or a device_put in the
    program), None where not said."""
    from jaxlib.mlir import ir

    module = lowered.compiler_ir("stablehlo")
    for op in module.body.operations:
        op = op.operation
        if op.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == "main":
            if "res_attrs" not in op.attributes:
                return ()
            return tuple(ir.StringAttr(ir.DictAttr(d)["mhlo.memory_kind"]).value
                         if "mhlo.memory_kind" in ir.DictAttr(d) else None
                         for d in ir.ArrayAttr(op.attributes["res_attrs"]))
    return ()


def _host_callbacks(lowered) -> tuple:
    """The Python callbacks (jax.debug.print, pure_callback, io_callback) JAX's lowering
    made, which the module's callback calls name by index (ir/callbacks.py)."""
    return tuple(jaxlib_bridge.lowering_compile_args(lowered).get("host_callbacks") or ())


def _kept_leaves(lowered, count: int):
    """The flat dynamic arguments JAX's lowering kept (jax.jit drops those the function
    does not read unless keep_unused): None when it kept all `count`, False when this
    JAX does not say."""
    kept = compile_args(lowered).get("kept_var_idx")
    if kept is None:
        return False
    if len(kept) == count:
        return None
    return tuple(sorted(kept))


def _execute(run, leaves, program):
    """`run` (the executor, or its compiled executable) on the dynamic leaves, typed
    keys going in as data and coming out typed again, as the function's result tree."""
    import jax

    if program.kept is not None:
        leaves = [leaves[i] for i in program.kept]
    if program.in_keys:
        leaves = list(leaves)
        for i in program.in_keys:
            leaves[i] = jax.random.key_data(leaves[i])
    if program.place_donated:
        # JAX aliases a donated argument with a result of the same per-device shape,
        # which it reads off the argument's sharding; an uncommitted one has none yet,
        # and XLA then lays it out as the program's first constraint says: another
        # per-device shape than JAX assumed (XLA rejects the alias). Placed first.
        leaves = list(leaves)
        for i, sharding in program.place_donated:
            x = leaves[i]
            if isinstance(x, jax.Array) and not x.committed:
                leaves[i] = jax.device_put(x, sharding)
    outputs = run(*leaves)
    if program.out_keys:
        outputs = [wrap_keys(x, impl) if impl is not None else x
                   for x, impl in zip(outputs, program.out_key_impls)]
    return jax.tree_util.tree_unflatten(program.out_tree, outputs)


def _placed_avals(leaves, place_donated) -> tuple:
    """The executor's arguments as jax.ShapeDtypeStructs (compile() lowers it from
    them), a donated uncommitted leaf with the sharding _execute places it on."""
    import jax

    avals = [leaf_aval(leaf) for leaf in leaves]
    for i, sharding in place_donated:
        if avals[i].sharding is None:
            avals[i] = jax.ShapeDtypeStruct(avals[i].shape, avals[i].dtype, sharding=sharding)
    return tuple(avals)


def _donated_placements(donated, mesh, in_specs, padded) -> tuple:
    """(leaf, NamedSharding) for each donated leaf of a program on a mesh: its layout
    in the per-device program (not for a leaf padded to an even shape first)."""
    import jax

    if mesh is None:
        return ()
    pad_in = padded[0]
    return tuple((i, jax.sharding.NamedSharding(mesh, in_specs[i])) for i in donated
                 if not (i < len(pad_in) and pad_in[i] is not None))
