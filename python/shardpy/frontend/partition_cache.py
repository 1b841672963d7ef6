"""shardpy.jit's partitions kept beside JAX's persistent compilation cache.

With JAX's persistent cache on (`jax_compilation_cache_dir` set, as users set it so that
a restarted program does not compile again), jax.jit's first call in a new process
lowers and loads its executable from disk. shardpy.jit's would still partition again,
and partitioning then dominates the call (gpt_dp_tp_mesh2x4: ~2 s of partitioning
against ~1.5 s for jax.jit's whole first call). So a partition is kept in the same
directory, under a key of everything it depends on, and read back instead of made
again; XLA's compile of the per-device program then hits JAX's own cache.

    key   sha256 of: JAX's global module text (without locations), the pass pipeline,
          the collective time profile the passes rank by (SHARDPY_COST_PROFILE's file;
          the shipped ones are source), the source of shardpy itself (every .py and
          .json of its packages) and the jax and jaxlib versions. Any change to one is
          another key: a stale partition is never read.
    kept  only partitions that took at least JAX's
          `jax_persistent_cache_min_compile_time_secs` (as JAX keeps compiles), written
          whole to a temporary file and renamed, so a reader sees all of one or none.
    read  an entry that cannot be read (truncated, another pickle protocol) is
          partitioned again and written anew. A partition read back prints none of the
          warnings its making printed (as a compile JAX reads back prints none of
          XLA's).
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import pickle
import tempfile
import time
from pathlib import Path
from typing import Callable

PREFIX = "shardpy-partition-"
_SOURCE_DIGEST: list[str] = []  # computed once per process


def cached_partition(global_text: str, pipeline_text: str, partition: Callable,
                     plain_text: Callable[[], str] | None = None):
    """partition(global_text, pipeline_text), or what an earlier process kept of it.
    `plain_text()`: the module without its locations, what the key is made of where
    given (as JAX strips them from its own key: a partition does not depend on them,
    and an edit above the jitted function moves every line number)."""
    directory, min_seconds = _cache_directory()
    if directory is None:
        return partition(global_text, pipeline_text)
    keyed = plain_text() if plain_text is not None else global_text
    path = directory / f"{PREFIX}{cache_key(keyed, pipeline_text)}.pkl"
    try:
        with open(path, "rb") as file:
            return pickle.load(file)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ValueError,
            TypeError, ImportError, IndexError):
        pass  # not kept yet, or unreadable: made again below
    start = time.perf_counter()
    result = partition(global_text, pipeline_text)
    if time.perf_counter() - start >= min_seconds:
        _store(path, result)
    return result


def cache_key(global_text: str, pipeline_text: str) -> str:
    import jax
    import jaxlib

    from ..sharding.collective_time import PROFILE_ENV

    digest = hashlib.sha256()
    for part in (global_text, pipeline_text, _source_digest(), jax.__version__,
                 jaxlib.__version__):
        digest.update(part.encode())
        digest.update(b"\0")
    profile = os.environ.get(PROFILE_ENV)  # (the shipped profiles are in the source)
    if profile:
        digest.update(profile.encode())
        try:
            digest.update(Path(profile).read_bytes())
        except OSError:
            digest.update(b"unreadable")  # (the pipeline will say so)
    return digest.hexdigest()


def _cache_directory() -> tuple[Path | None, float]:
    """JAX's persistent cache directory where the cache is on, and its minimum compile
    time; (None, 0) where it is off."""
    import jax

    config = jax.config
    directory = getattr(config, "jax_compilation_cache_dir", None)
    if not directory or not getattr(config, "jax_enable_compilation_cache", True):
        return None, 0.0
    if "://" in str(directory):  # a remote store (gs://...): JAX's own file system layer
        return None, 0.0
    return Path(directory), float(getattr(config, "jax_persistent_cache_min_compile_time_secs",
                                          1.0))


def _source_digest() -> str:
    """sha256 of every .py and .json file of shardpy's packages (passes and tools
    included): a partition made by other code is never read back."""
    if not _SOURCE_DIGEST:
        digest = hashlib.sha256()
        roots = [Path(__file__).resolve().parents[1]]  # shardpy's own package
        for name in ("shardpy.passes", "shardpy.tools"):  # (mapped from passes/, tools/)
            spec = importlib.util.find_spec(name)  # where they are: read, not imported
            if spec is not None:
                roots += map(Path, spec.submodule_search_locations or ())
        for root in roots:
            for path in sorted(p for pattern in ("*.py", "*.json")
                               for p in root.rglob(pattern)):
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
        _SOURCE_DIGEST.append(digest.hexdigest())
    return _SOURCE_DIGEST[0]


def _store(path: Path, result) -> None:
    """Written whole, then renamed into place; a cache that cannot be written is no
    error (the next process partitions again)."""
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-" + PREFIX)
        with os.fdopen(handle, "wb") as file:
            pickle.dump(result, file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
