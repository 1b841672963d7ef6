"""shardpy's passes, one module each. Importing this package registers them all.

Pipeline order (DESIGN.md): shardpy-import -> shardpy-propagate ->
shardpy-insert-reshards -> shardpy-reshard-to-collectives -> shardpy-to-local
(named together as shardpy-partition). Utility passes: shardpy-strip-shardings.
"""
from . import strip_shardings  # noqa: F401
from . import propagate  # noqa: F401
from . import show_rules  # noqa: F401
