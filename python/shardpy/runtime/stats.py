"""IR statistics: op counts and collectives with their cost in bytes per device
(bytes each device sends: the cost model of shardpy.sharding.collective_time,
`collective_cost_bytes`). Counts are static: a collective inside a loop body counts once.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from jaxlib.mlir import ir

from ..ir.utils import collect_ops
from ..sharding.collective_time import COLLECTIVES, collective_cost  # noqa: F401 (re-exported)

@dataclass
class CollectiveStats:
    count: int = 0
    bytes_per_device: float = 0.0


@dataclass
class ModuleStats:
    ops: Counter = field(default_factory=Counter)
    collectives: dict[str, CollectiveStats] = field(default_factory=dict)

    @property
    def total_ops(self) -> int:
        return sum(self.ops.values())

    @property
    def total_collective_bytes(self) -> float:
        return sum(c.bytes_per_device for c in self.collectives.values())

    def to_json(self) -> dict:
        return {
            "ops": self.total_ops,
            "ops_by_name": dict(sorted(self.ops.items())),
            "collectives": {k: {"count": v.count, "bytes_per_device": v.bytes_per_device}
                            for k, v in sorted(self.collectives.items())},
            "collective_bytes_per_device": self.total_collective_bytes,
        }

    def summary(self) -> str:
        lines = [f"ops: {self.total_ops} ({len(self.ops)} kinds)"]
        if not self.collectives:
            lines.append("collectives: none")
        for kind, c in sorted(self.collectives.items()):
            lines.append(f"  {kind}: {c.count} ({c.bytes_per_device:.0f} bytes/device)")
        return "\n".join(lines)


def module_stats(module: ir.Operation) -> ModuleStats:
    stats = ModuleStats()
    for op in collect_ops(module):
        name = op.name
        stats.ops[name] += 1
        kind = COLLECTIVES.get(name)
        if kind:
            entry = stats.collectives.setdefault(kind, CollectiveStats())
            entry.count += 1
            entry.bytes_per_device += collective_cost(op)
    return stats
