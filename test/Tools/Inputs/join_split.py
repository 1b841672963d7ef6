"""Concatenate MLIR files into one `--split-input-file` input (one chunk per file).

Prints `// FILE: <name>` at the top of each chunk, so a failing chunk can be told apart.
"""
import sys
from pathlib import Path

paths = sys.argv[1:]
if not paths:
    sys.exit("join_split.py: no input files (did the glob match nothing?)")
chunks = [f"// FILE: {Path(p).name}\n{Path(p).read_text()}" for p in paths]
sys.stdout.write("\n// -----\n".join(chunks))
print(f"joined {len(paths)} files", file=sys.stderr)
