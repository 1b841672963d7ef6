#!/usr/bin/env bash
# The whole test suite: lit (FileCheck and executable tests) and pytest unit tests.
# Installs what it needs first (tools/bootstrap.sh). Extra arguments go to lit.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
cd "$SHARDPY_ROOT"
status=0
lit -sv --timeout 600 test "$@" || status=1
python -m pytest -q test/python || status=1
exit $status
