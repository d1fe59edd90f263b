#!/usr/bin/env bash
# Makes the pictures of Docs/Evidence/Accuracy.md and the README (Docs/Images/): for each real data set,
# the causal track of `indoorpos locate` over the floor plan with its 1-sigma ellipses and the
# true track (`indoorpos render`), for danis-office also the track written three seconds late
# (`locate --lag 3`; the README's picture is the same with `--self-calibrate`: no survey), and the error CDF of IndoorPositioning (causal and smoothed)
# against the two reference pipelines (`indoorpos evaluate --cdf`); a PNG of the office picture
# for the README (needs rsvg-convert, Debian package librsvg2-bin).
#   usage: Scripts/Research/make-pictures.sh [WORK_DIR]   (default: .build/pictures)
# Needs the shared data at ../shared/data (or DATA=...) and python3 with numpy and scipy for
# the reference pipelines.
set -euo pipefail
cd "$(dirname "$0")/../.."
work="${1:-.build/pictures}"
data="${DATA:-../shared/data}"
images=Docs/Images
mkdir -p "$work" "$images"
bash Scripts/ensure-lapack.sh
swift build --product indoorpos >&2
bin="$(swift build --show-bin-path)/indoorpos"
ref=Scripts/reference

for set in danis-office kolakowski-flat; do
    rssi=tracks_rssi.csv truth=tracks_truth.csv device=()
    if [ "$set" = kolakowski-flat ]; then
        rssi=robot_rssi.csv truth=robot_truth.csv
    else
        device=(--device straight_05)   # one of the nine walks, so that the picture stays readable
    fi
    "$bin" calibrate --samples "$data/$set/calibration.csv" --output "$work/$set-calibration.json" 2>/dev/null
    for mode in causal rts lag; do
        flags=()
        [ "$mode" = rts ] && flags=(--smooth)
        [ "$mode" = lag ] && flags=(--lag 3)
        "$bin" locate --plan "$data/$set/plan.json" --rssi "$data/$set/$rssi" \
            --calibration "$work/$set-calibration.json" --skip-bad-rows --quiet "${flags[@]}" \
            --output "$work/$set-$mode.csv"
    done
    python3 "$ref/calibrate.py" "$data/$set/calibration.csv" --output "$work/$set-ref-calibration.json" 2>/dev/null
    for pipeline in common ml-kalman; do
        python3 "$ref/pipelines.py" --plan "$data/$set/plan.json" --rssi "$data/$set/$rssi" \
            --calibration "$work/$set-ref-calibration.json" --pipeline "$pipeline" --epoch 1 \
            --skip-bad-rows --output "$work/$set-$pipeline.csv" 2>/dev/null
    done
    "$bin" render --plan "$data/$set/plan.json" --fixes "$work/$set-causal.csv" \
        --truth "$data/$set/$truth" "${device[@]}" --output "$images/$set-track.svg"
    if [ "$set" = danis-office ]; then
        # The same walk as a live app draws it three seconds late (--lag 3), survey-calibrated.
        "$bin" render --plan "$data/$set/plan.json" --fixes "$work/$set-lag.csv" \
            --truth "$data/$set/$truth" "${device[@]}" --output "$images/$set-lag.svg"
        # The README's picture: three seconds late with no survey, the models learned from the
        # nine walks' own readings (--self-calibrate; no truth).
        "$bin" locate --plan "$data/$set/plan.json" --rssi "$data/$set/$rssi" --self-calibrate \
            --skip-bad-rows --quiet --lag 3 --output "$work/$set-self-lag.csv"
        "$bin" render --plan "$data/$set/plan.json" --fixes "$work/$set-self-lag.csv" \
            --truth "$data/$set/$truth" "${device[@]}" --output "$images/$set-self-lag.svg"
    fi
    "$bin" evaluate --truth "$data/$set/$truth" \
        --fixes "$work/$set-causal.csv" --label "IndoorPositioning (causal)" \
        --fixes "$work/$set-rts.csv" --label "IndoorPositioning (RTS)" \
        --fixes "$work/$set-common.csv" --label "common" \
        --fixes "$work/$set-ml-kalman.csv" --label "ml-kalman" \
        --format markdown --cdf "$images/$set-cdf.svg" 2>/dev/null
done
if command -v rsvg-convert >/dev/null 2>&1; then
    rsvg-convert --width 640 "$images/danis-office-track.svg" -o "$images/danis-office-track.png"
    rsvg-convert --width 640 "$images/danis-office-self-lag.svg" -o "$images/danis-office-self-lag.png"
else
    echo "make-pictures.sh: rsvg-convert not found (apt-get install librsvg2-bin); the PNG is not updated" >&2
fi
ls -l "$images"
