#!/usr/bin/env bash
# Reproduces the IndoorPositioning rows of Docs/Evidence/Accuracy.md on both real data sets:
# - "plan defaults": `indoorpos locate` with only the plan (no calibration: the first try of a
#   new user), causal and smoothed (--smooth);
# - "calibrated": with a per-beacon calibration made by `indoorpos calibrate` from the set's
#   own calibration file (plain least squares, the same fit as the reference calibrate.py);
# - each also with the device offset held at 0 dB (--device-offset 0), to show what the offset
#   estimate gives or costs.
# - the weighted centroid (Scripts/reference/pipelines.py --pipeline centroid: the three strongest
#   beacons per 1-s window, weights in linear power, no model values, no filter): the peer to beat;
# - uji-geo (single scans, no survey): the centroid and the plan-values runs only.
# Scores with Scripts/reference/evaluate.py and prints Markdown table rows, then per set the
# steadiness of each run (Scripts/Research/steadiness.py: median fix-to-fix step against the true step
# over the same second, and the drawn path's length over the true path's).
#   usage: Scripts/Research/accuracy.sh [OUTPUT_DIR] [extra locate options…]   (default: .build/accuracy)
# Needs python3 with numpy (evaluate.py) and the shared data at ../shared/data (or DATA=…);
# BIN=… names the indoorpos binary to measure (default: a release build of this checkout).
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-.build/accuracy}"
shift || true
data="${DATA:-../shared/data}"
mkdir -p "$out"
bash Scripts/ensure-lapack.sh
# BIN=path/to/indoorpos runs that binary instead (to compare two builds on the same tables).
if [ -n "${BIN:-}" ]; then
    bin="$BIN"
else
    bin="$(bash Scripts/release-bin.sh)"
fi

for set in danis-office kolakowski-flat uji-geo; do
    rssi=tracks_rssi.csv truth=tracks_truth.csv models_list="plan calibrated"
    [ "$set" = kolakowski-flat ] && rssi=robot_rssi.csv truth=robot_truth.csv
    [ "$set" = uji-geo ] && rssi=rssi.csv truth=truth.csv models_list=plan
    [ -f "$data/$set/calibration.csv" ] &&
        "$bin" calibrate --samples "$data/$set/calibration.csv" --output "$out/$set-calibration.json" 2>/dev/null
    echo
    echo "### $set"
    echo
    echo "| run | RMSE (m) | median (m) | P90 (m) | honesty | fixes |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: |"
    python3 Scripts/reference/pipelines.py --plan "$data/$set/plan.json" --rssi "$data/$set/$rssi" \
        --pipeline centroid --skip-bad-rows --output "$out/$set-centroid.csv" 2>/dev/null
    python3 Scripts/reference/evaluate.py "$out/$set-centroid.csv" "$data/$set/$truth" \
        --markdown "weighted centroid (3 strongest, linear power)" 2>/dev/null
    steadiness=""
    for models in $models_list; do
        for offset in estimated fixed; do
            for mode in causal smoothed; do
                flags=()
                [ "$models" = calibrated ] && flags+=(--calibration "$out/$set-calibration.json")
                [ "$offset" = fixed ] && flags+=(--device-offset 0)
                [ "$mode" = smoothed ] && flags+=(--smooth)
                fixes="$out/$set-$models-$offset-$mode.csv"
                "$bin" locate --plan "$data/$set/plan.json" --rssi "$data/$set/$rssi" --skip-bad-rows --quiet \
                    ${flags[@]+"${flags[@]}"} "$@" --output "$fixes" 2>/dev/null
                label="IndoorPositioning, $models, $mode"
                [ "$offset" = fixed ] && label="$label, offset held at 0 dB"
                python3 Scripts/reference/evaluate.py "$fixes" "$data/$set/$truth" --markdown "$label" 2>/dev/null
                steadiness+="$(python3 Scripts/Research/steadiness.py "$fixes" "$data/$set/$truth" --markdown "$label" 2>/dev/null || true)"$'\n'
            done
        done
    done
    echo
    echo "| run | median step (m) | true median step (m) | path-length ratio | steps |"
    echo "| --- | ---: | ---: | ---: | ---: |"
    printf '%s' "$steadiness"
done
