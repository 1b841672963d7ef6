"""How shardpy.jit reads a call's arguments: each leaf's part of the cache key (what
decides its program), a leaf as the executor takes it, argument numbers and names as
jax.jit takes them, and a leaf's path as the user wrote it (for errors)."""
from __future__ import annotations

from typing import Sequence

from ..ir import jaxlib_bridge
from .boundary import key_impl


def signature_of(fun):
    import inspect

    try:
        return inspect.signature(fun)
    except (TypeError, ValueError):
        return None


def int_tuple(value) -> tuple[int, ...]:
    if value is None:
        return ()
    if isinstance(value, int):
        return (value,)
    return tuple(value)


def path_name(index: int | None, path, names: Sequence[str] = ()) -> str:
    """A dynamic leaf's path as jax.jit names it in its errors: the parameter's name
    (`names`: the function's positional parameters) and the path into it, e.g.
    y['a'][0]; args[i]... past the named parameters (*args); a keyword-only argument
    (index None) by its keyword."""
    import jax

    rest = tuple(path[1:]) if path else ()
    if index is None:  # {keyword: value}, the last dynamic argument
        key = getattr(rest[0], "key", None) if rest else None
        return (str(key) + jax.tree_util.keystr(rest[1:]) if key is not None
                else "kwargs" + jax.tree_util.keystr(rest))
    head = names[index] if index < len(names) else f"args[{index}]"
    return head + jax.tree_util.keystr(rest)


def positional_names(signature) -> list[str]:
    """The names of a function's positional parameters (none for an unreadable
    signature, None)."""
    import inspect

    if signature is None:
        return []
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in signature.parameters.values() if p.kind in kinds]


def static_name(signature, i) -> str:
    """A static argument by its parameter's name (`i`: its position, or its keyword)."""
    if isinstance(i, str):
        return i
    names = positional_names(signature)
    return names[i] if i < len(names) else f"args[{i}]"


def name_tuple(names) -> tuple[str, ...]:
    return (names,) if isinstance(names, str) else tuple(names or ())


def leaf_aval(leaf):
    """A leaf as the executor takes it, as a jax.ShapeDtypeStruct (with its sharding
    where it has one): a typed PRNG key as its key data (uint32, one more dim)."""
    import jax
    import numpy as np

    if isinstance(leaf, (jax.ShapeDtypeStruct, jax.Array)) and not isinstance(
            leaf, jax.core.Tracer):
        sharding = getattr(leaf, "sharding", None)
        if not isinstance(sharding, jax.sharding.NamedSharding):
            sharding = None  # (an array on one device moves where the program runs)
        if key_impl(leaf.dtype) is not None:
            data = jax.eval_shape(jax.random.key_data, jax.ShapeDtypeStruct(leaf.shape,
                                                                            leaf.dtype))
            return jax.ShapeDtypeStruct(data.shape, data.dtype, sharding=sharding)
        return jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=sharding)
    array = np.asarray(leaf) if not isinstance(leaf, jax.core.Tracer) else leaf
    return jax.ShapeDtypeStruct(array.shape, array.dtype)


TRANSFORMED = ("transformed",)  # a cache key part: see abstract_key


def abstract_key(leaf, where: str = "an argument"):
    """A leaf's part of the cache key: what decides its program (kind, shape, dtype,
    sharding)."""
    import jax
    import numpy as np

    if isinstance(leaf, jax.core.Tracer):
        # Tracers of staging (an outer jax.jit, shard_map, a scan body) are arguments
        # like any; those of a transformation (JVP, batching) make the call jax.jit's.
        if not jaxlib_bridge.is_staging_tracer(leaf):
            return TRANSFORMED
        aval = leaf.aval
        return ("tracer", aval.shape, aval.dtype, str(getattr(aval, "sharding", "")))
    if isinstance(leaf, jax.Array):
        return (leaf.shape, leaf.dtype, leaf.sharding)
    if isinstance(leaf, (np.ndarray, np.generic, bool, int, float, complex)):
        array = np.asarray(leaf)
        return ("host", array.shape, array.dtype)
    if isinstance(leaf, jax.ShapeDtypeStruct):
        return ("abstract", leaf.shape, leaf.dtype, leaf.sharding)
    raise TypeError(f"shardpy.jit: {where} is a {type(leaf).__name__}, not an array; mark "
                    f"the argument static with static_argnums")
