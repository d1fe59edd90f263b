#!/usr/bin/env bash
# The main job: positions from the bundled sample RSSI batch (Docs/Examples), printed as fixes
# CSV on standard output. Installs LAPACK/BLAS first when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/ensure-lapack.sh
swift build -c release --product indoorpos >&2
"$(swift build -c release --show-bin-path)/indoorpos" locate \
    --plan Docs/Examples/office-plan.json \
    --rssi Docs/Examples/office-rssi.csv \
    --calibration Docs/Examples/office-calibration.json "$@"
