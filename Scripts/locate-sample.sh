#!/usr/bin/env bash
# The main job: positions from the bundled sample RSSI batch (Docs/Examples), printed as fixes
# CSV on standard output. Installs LAPACK/BLAS first when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-lapack.sh
# The same build as Scripts/test.sh's (Scripts/release-bin.sh), so neither command rebuilds the other's.
bin="$(bash Scripts/release-bin.sh)"
"$bin" locate \
    --plan Docs/Examples/office-plan.json \
    --rssi Docs/Examples/office-rssi.csv \
    --calibration Docs/Examples/office-calibration.json "$@"
