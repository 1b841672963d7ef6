"""shardpy-opt plus test-only passes that break the IR on purpose (for no_verify_each.mlir).

    %python %S/Inputs/shardpy_opt_with_test_passes.py IN.mlir --test-erase-returns ...
"""
import sys
from dataclasses import dataclass

from shardpy.ir.utils import collect_ops
from shardpy.pass_registry import register_pass
from shardpy.tools.shardpy_opt import main


@register_pass("test-erase-returns")
@dataclass(frozen=True)
class TestEraseReturns:
    """Test only: erase every func.return, leaving blocks without a terminator."""

    def run(self, module) -> None:
        for op in collect_ops(module):
            if op.name == "func.return":
                op.erase()


if __name__ == "__main__":
    sys.exit(main())
