#!/usr/bin/env bash
# Reproduces every reference row of Docs/Accuracy.md: calibrates from each data set's own
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

run() {   # data-set rssi truth calibration-label epoch pipeline [extra pipeline args...]
    local set="$1" rssi="$2" truth="$3" cal="$4" epoch="$5" pipeline="$6"
    shift 6
    local calargs=()
    [ "$cal" = calibrated ] && calargs=(--calibration "$out/$set-calibration.json")
    local fixes="$out/$set-$pipeline-$cal-$epoch.csv"
    python3 "$ref/pipelines.py" --plan "$data/$set/plan.json" --rssi "$data/$set/$rssi" \
        "${calargs[@]}" --pipeline "$pipeline" --epoch "$epoch" --skip-bad-rows \
        --output "$fixes" "$@" 2>/dev/null
    python3 "$ref/evaluate.py" "$fixes" "$data/$set/$truth" \
        --markdown "$set $pipeline, $cal, epoch $epoch s" 2>/dev/null
}

for set in danis-office kolakowski-flat; do
    python3 "$ref/calibrate.py" "$data/$set/calibration.csv" --output "$out/$set-calibration.json"
done

echo "| run | RMSE (m) | median (m) | P90 (m) | honesty | fixes |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for cal in calibrated uncalibrated; do
    for epoch in 1 2; do
        for pipeline in common ml-kalman; do
            run danis-office tracks_rssi.csv tracks_truth.csv "$cal" "$epoch" "$pipeline"
            run kolakowski-flat robot_rssi.csv robot_truth.csv "$cal" "$epoch" "$pipeline"
        done
    done
done
