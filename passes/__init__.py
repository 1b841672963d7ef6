"""shardpy's passes, one module each. Importing this package registers them all.

Pipeline order (DESIGN.md): shardpy-import -> shardpy-propagate ->
shardpy-choose-shardings -> shardpy-insert-reshards -> shardpy-reshard-to-collectives ->
shardpy-to-local -> shardpy-combine-collectives (named together as shardpy-partition). Utility passes: shardpy-strip-shardings,
shardpy-export-gspmd.
"""
from . import import_gspmd  # noqa: F401
from . import export_gspmd  # noqa: F401
from . import strip_shardings  # noqa: F401
from . import propagate  # noqa: F401
from . import show_rules  # noqa: F401
from . import choose_shardings  # noqa: F401
from . import insert_reshards  # noqa: F401
from . import reshard_to_collectives  # noqa: F401
from . import to_local  # noqa: F401
from . import combine_collectives  # noqa: F401
from . import custom_partitioning  # noqa: F401

from shardpy.pass_registry import register_pipeline  # noqa: E402

register_pipeline(
    "shardpy-partition",
    "shardpy-import,shardpy-propagate,shardpy-choose-shardings,shardpy-insert-reshards,shardpy-reshard-to-collectives,shardpy-to-local,shardpy-combine-collectives",
    "the whole SPMD partitioner: global module in, per-device module out")
