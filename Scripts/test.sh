#!/usr/bin/env bash
# Runs the whole test suite, installing LAPACK/BLAS first when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-lapack.sh
swift build --build-tests "$@"
swift test --skip-build "$@"
