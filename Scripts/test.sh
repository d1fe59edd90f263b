#!/usr/bin/env bash
# Runs the whole test suite, installing LAPACK/BLAS first when they are missing:
# the Python reference pipelines' tests (when python3 has numpy and scipy), then every Swift test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-lapack.sh
if command -v python3 >/dev/null 2>&1 && python3 -c "import numpy, scipy" 2>/dev/null; then
    python3 -m unittest discover -s Scripts/reference -p 'test_*.py'
else
    echo "test.sh: skipping the Python reference tests (python3 with numpy and scipy not found)" >&2
fi
swift build --build-tests "$@"
swift test --skip-build "$@"
