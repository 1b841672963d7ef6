#!/usr/bin/env bash
# Create .venv (if needed) and install shardpy into it, editable, with its test tools.
# Sourced by tools/demo.sh and tools/test.sh; safe to run again (reinstalls only
# when pyproject.toml changed). Needs python3 (>= 3.10) with venv and pip.
set -euo pipefail
SHARDPY_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${SHARDPY_VENV:-$SHARDPY_ROOT/.venv}"
PYTHON="${PYTHON:-python3}"

if [ ! -x "$VENV/bin/python" ]; then
  echo "shardpy: creating $VENV" >&2
  "$PYTHON" -m venv "$VENV"
fi
stamp="$VENV/.shardpy-installed-$(sha1sum "$SHARDPY_ROOT/pyproject.toml" | cut -c1-12)"
if [ ! -f "$stamp" ]; then
  echo "shardpy: installing shardpy and its dependencies into $VENV" >&2
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$SHARDPY_ROOT[test]"
  rm -f "$VENV"/.shardpy-installed-*
  touch "$stamp"
fi
export PATH="$VENV/bin:$PATH"
