#!/usr/bin/env bash
# Reproduces every reference row of Docs/Evidence/Accuracy.md: calibrates from each data set's own
# calibration file, runs both pipelines (calibrated and with the plan's defaults, epochs 1 s
# and 2 s) and prints one Markdown table row per run.
#   usage: Scripts/reference/run-all.sh [OUTPUT_DIR]   (default: .build/reference)
# Needs python3 with numpy and scipy, and the shared data at ../shared/data (beside the repo).
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-.build/reference}"
data="${DATA:-../shared/data}"
mkdir -p "$out"
ref=Scripts/reference

run() {   # data-set calibration-label epoch pipeline filter
    local set="$1" cal="$2" epoch="$3" pipeline="$4" filter="$5"
    local rssi=tracks_rssi.csv truth=tracks_truth.csv
    [ "$set" = kolakowski-flat ] && rssi=robot_rssi.csv truth=robot_truth.csv
    local calargs=()
    [ "$cal" = calibrated ] && calargs=(--calibration "$out/$set-calibration.json")
    local fixes="$out/$set-$pipeline-$cal-$epoch-$filter.csv"
    python3 "$ref/pipelines.py" --plan "$data/$set/plan.json" --rssi "$data/$set/$rssi" \
        "${calargs[@]}" --pipeline "$pipeline" --epoch "$epoch" --filter "$filter" \
        --skip-bad-rows --output "$fixes" 2>/dev/null
    local label="$pipeline, $cal, epoch $epoch s"
    [ "$filter" = none ] && label="$label, no filter"
    python3 "$ref/evaluate.py" "$fixes" "$data/$set/$truth" --markdown "$label" 2>/dev/null
}

for set in danis-office kolakowski-flat; do
    python3 "$ref/calibrate.py" "$data/$set/calibration.csv" --output "$out/$set-calibration.json"
    echo
    echo "### $set"
    echo
    echo "| run | RMSE (m) | median (m) | P90 (m) | honesty | fixes |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: |"
    for cal in calibrated uncalibrated; do
        for epoch in 1 2; do
            for pipeline in common ml-kalman; do
                run "$set" "$cal" "$epoch" "$pipeline" kalman
            done
        done
    done
    for pipeline in common ml-kalman; do
        run "$set" calibrated 1 "$pipeline" none
    done
done
