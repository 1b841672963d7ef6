"""Repeat calls of shardpy.jit dispatched by jax.jit's own C++ path.

shardpy.jit's Python path (frontend/jit.py `Jitted._call`) binds the arguments,
flattens them, keys the call by each leaf's shape, dtype and sharding, finds the
program and calls its executor (a jax.jit of the per-device program). That is ~1 us of
Python per leaf on every call, and the executable runs slower after it: a program of
42 leaves took 1,380 us a call where jax.jit's took 1,232 us (8 CPU devices, blocking
loop). Here every call goes first to a jaxlib `pjit` function object, what jax.jit is
made of. Its C++ computes the call's signature (static arguments, tree, and per leaf
dtype, shape, weak type, sharding, committed) and where an earlier call had the same
signature runs that call's executable itself, as jax.jit does on a hit:

    call --C++ signature--> hit:  executable of the per-device program, outputs unflattened
                            miss: shardpy.jit's Python path (partitions, or finds the
                                  program in its cache), runs it, and hands back what a
                                  hit needs (`hit_data`)

The data is jax's own MeshExecutableFastpathData, made of the executor's compiled
executable (the same one the Python path ran: jax caches it) and the user-level output
tree. None (the C++ keeps calling the Python path for that signature) where the path
does more than run the executable on the call's own leaves: typed keys in or out,
tracers, ordered effects, or leaves that are not the call's in jax's order (a keyword
argument bound to a positional parameter, a default filled in). An uncommitted donated
argument, which the Python path places first, the C++ places itself (as jax.jit).

Like ir/jaxlib_bridge.py it reaches into jax beyond its public API and is pinned to
jax/jaxlib 0.10.2; where those names are missing, shardpy.jit keeps its Python path.
"""
from __future__ import annotations

from typing import Callable

from .arguments import positional_names


def dispatch_for(jitted):
    """`jitted`'s calls through the C++ (None: its Python path, `jitted._call`, only).
    A miss runs the Python path and returns what a hit of its signature needs."""
    names = positional_names(jitted._signature)
    static_names = tuple(names[i] for i in jitted.static_argnums
                         if i < len(names)) + tuple(jitted.static_kwnames)

    def miss(*args, **kwargs):
        outputs, program, leaves = jitted._call(args, kwargs)
        return outputs, (None if program is None else hit_data(
            args, kwargs, jitted.static_argnums, static_names, program, leaves, outputs))

    def eager(*args, **kwargs):
        return jitted._call(args, kwargs)[0]
    return make_dispatch(jitted.__name__, jitted.static_argnums, static_names,
                         jitted.donate_argnums, eager, miss)


def make_dispatch(name: str, static_argnums: tuple, static_argnames: tuple,
                  donate_argnums: tuple, eager: Callable, miss: Callable):
    """A jaxlib pjit function object calling `miss(*args, **kwargs) -> (outputs, hit data
    or None)` on a signature it has not seen, `eager` under jax.disable_jit (jax.jit
    calls the function itself there; shardpy.jit's Python path decides). None where
    this jax has no such object."""
    try:
        from jax._src import tree_util
        from jax._src.interpreters import pxla
        from jax._src.lib import _jax
    except ImportError:
        return None
    if not all(hasattr(x, n) for x, n in ((_jax, "pjit"), (_jax, "PjitFunctionCache"),
                                          (pxla, "JitGlobalCppCacheKeys"),
                                          (pxla, "cc_shard_arg"),
                                          (pxla, "MeshExecutableFastpathData"))):
        return None

    def cache_miss(*args, **kwargs):
        outputs, data = miss(*args, **kwargs)
        return outputs, data, False  # (no profile-guided recompile to ask for)

    eager.__name__ = name
    # A cache of this jit's own: the global ones are keyed by the function, and the
    # user's function under jax.jit must never find shardpy's executables.
    try:
        key = pxla.JitGlobalCppCacheKeys(donate_argnums=tuple(donate_argnums) or None)
        return _jax.pjit(name, eager, cache_miss, tuple(static_argnums),
                         tuple(static_argnames), key, tree_util.dispatch_registry,
                         pxla.cc_shard_arg, _jax.PjitFunctionCache())
    except TypeError:  # (another jaxlib's signature: the Python path only)
        return None


def hit_data(raw_args: tuple, raw_kwargs: dict, static_argnums, static_argnames,
             program, leaves, outputs):
    """What the C++ needs to run a later call of this signature without Python:
    jax's MeshExecutableFastpathData, or None where the Python path must keep
    running it (see the module docstring). `leaves`: the dynamic leaves the Python
    path keyed the call by; `outputs`: its result, as the user gets it."""
    import jax
    from jax._src import tree_util
    from jax._src.interpreters import pxla

    if program.in_keys or program.out_keys:
        return None
    dynamic = tuple(a for i, a in enumerate(raw_args) if i not in static_argnums)
    keywords = {k: v for k, v in raw_kwargs.items() if k not in static_argnames}
    call_leaves = tree_util.dispatch_registry.flatten((dynamic, keywords), None)[0]
    # The C++ passes the call's leaves in this order (positional, then keywords by
    # name): they must be the very leaves the program was run on.
    if len(call_leaves) != len(leaves) or any(a is not b for a, b in zip(call_leaves, leaves)):
        return None
    if any(isinstance(x, jax.core.Tracer) for x in leaves):
        return None
    kept = tuple(range(len(leaves))) if program.kept is None else program.kept
    taken = [leaves[i] for i in kept]
    for i, sharding in program.place_donated:
        x = taken[i]
        if isinstance(x, jax.Array) and not x.committed:
            # The Python path placed it first (frontend/jit.py _execute); on a hit
            # the C++ moves an uncommitted argument onto the executable's sharding
            # itself, as jax.jit does: the same copy, donated.
            taken[i] = jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=sharding)
    compiled = program.executor.lower(*taken).compile()  # (jax's cache: the one just run)
    executable = compiled._executable
    if (not isinstance(executable, pxla.MeshExecutable)
            or not isinstance(executable.unsafe_call, pxla.ExecuteReplicated)
            or executable.unsafe_call.ordered_effects
            or executable.unsafe_call.has_unordered_effects
            or compiled._params.const_args):
        return None
    out_flat, out_tree = tree_util.dispatch_registry.flatten(outputs, None)
    if (len(out_flat) != len(executable._out_shardings)
            or not all(isinstance(x, jax.Array) and not isinstance(x, jax.core.Tracer)
                       for x in out_flat)):
        return None
    # Which of the call's leaves the executable takes: the program's kept leaves, less
    # those the executor's own jit dropped (zero-element ones).
    inner = executable._kept_var_idx
    takes = [False] * len(leaves)
    for j, i in enumerate(kept):
        takes[i] = j in inner
    if sum(takes) != len(executable._in_shardings):
        return None
    return pxla.MeshExecutableFastpathData(
        executable.xla_executable, out_tree, list(executable._in_shardings),
        executable._out_shardings, [x.aval for x in out_flat],
        [x._committed for x in out_flat], takes, executable._dispatch_in_layouts, [])
