"""What every shardpy command-line tool shares: one-line errors and exit codes."""
from __future__ import annotations

import os
import sys
import traceback
from typing import Callable

from .ir.diagnostics import DiagnosticEngine, ShardpyError


def run_tool(name: str, body: Callable[[list[str]], int], argv: list[str] | None = None) -> int:
    """Run `body(argv)`; turn every failure into one clear line and a non-zero exit.

    Set SHARDPY_DEBUG=1 to see the Python traceback of internal errors.
    """
    argv = sys.argv[1:] if argv is None else argv
    try:
        return body(argv)
    except ShardpyError as err:
        engine = DiagnosticEngine()
        engine.add_error(err)
        for diag in engine.diagnostics:
            print(f"{name}: {diag.render()}" if diag.pos is None else diag.render(),
                  file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except OSError as err:
        if err.filename is None:
            raise
        # A file the user named cannot be written or read (a missing directory, no
        # permission): their input, not a bug.
        print(f"{name}: error: cannot access '{err.filename}': {err.strerror}",
              file=sys.stderr)
        return 1
    except MemoryError as err:  # what the tools check up front got past them: still no bug
        detail = f" ({err})" if str(err) else ""
        print(f"{name}: error: ran out of host memory{detail}; run with smaller shapes",
              file=sys.stderr)
        return 1
    except Exception as err:  # a shardpy bug: still one line unless asked for more
        if os.environ.get("SHARDPY_DEBUG"):
            traceback.print_exc()
        print(f"{name}: internal error: {type(err).__name__}: {err} "
              f"(set SHARDPY_DEBUG=1 for a traceback)", file=sys.stderr)
        return 2
