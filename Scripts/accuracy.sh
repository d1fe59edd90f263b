#!/usr/bin/env bash
# Reproduces the IndoorPositioning rows of Docs/Accuracy.md: calibrates each real data set
# from its own calibration file with `indoorpos calibrate` (plain least squares, the same fit
# as the reference pipelines' calibrate.py), locates its test walks with `indoorpos locate`
# (causal Kalman tracking, then the RTS smoother; each with the calibrated σ and with a
# single-sample σ of 7 dB) and scores them with evaluate.py.
#   usage: Scripts/accuracy.sh [OUTPUT_DIR] [extra locate options…]   (default: .build/accuracy)
# Needs python3 (evaluate.py uses numpy) and the shared data at ../shared/data (or DATA=…).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/accuracy}"
shift || true
data="${DATA:-../shared/data}"
mkdir -p "$out"
bash Scripts/ensure-lapack.sh
swift build -c release --product indoorpos >&2
bin="$(swift build -c release --show-bin-path)/indoorpos"

for set in danis-office kolakowski-flat; do
    rssi=tracks_rssi.csv truth=tracks_truth.csv
    [ "$set" = kolakowski-flat ] && rssi=robot_rssi.csv truth=robot_truth.csv
    "$bin" calibrate --samples "$data/$set/calibration.csv" --output "$out/$set-calibration.json" 2>/dev/null
    echo
    echo "### $set"
    echo
    echo "| run | RMSE (m) | median (m) | P90 (m) | honesty | fixes |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: |"
    for sigma in calibrated 7; do
        for mode in causal rts; do
            flags=()
            [ "$mode" = rts ] && flags+=(--smooth)
            [ "$sigma" != calibrated ] && flags+=(--sample-sigma "$sigma")
            fixes="$out/$set-$mode-$sigma.csv"
            "$bin" locate --plan "$data/$set/plan.json" --rssi "$data/$set/$rssi" \
                --calibration "$out/$set-calibration.json" --skip-bad-rows --quiet \
                "${flags[@]}" "$@" --output "$fixes" 2>/dev/null
            label="IndoorPositioning ($mode, σ $sigma)"
            [ "$sigma" != calibrated ] && label="IndoorPositioning ($mode, σ $sigma dB)"
            python3 Scripts/reference/evaluate.py "$fixes" "$data/$set/$truth" --markdown "$label" 2>/dev/null
        done
    done
done
