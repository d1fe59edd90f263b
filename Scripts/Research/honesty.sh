#!/usr/bin/env bash
# The honesty of the reported radius (share of fixes within their `accuracy`) and the RMSE on the
# shared real sets, causal, at `--lag 3` and smoothed, with the plan's values, a survey
# calibration and models learned from traffic (danis-office and uji-geo: `--self-calibrate`;
# kolakowski-flat: `calibrate --from-traffic` on its survey walk, then the robot drive located):
# the rows of Docs/Evidence/TrackingStudies.md, "The radius and the models' misfit". One Markdown row per run.
#   usage: Scripts/Research/honesty.sh [OUTPUT_DIR] [extra locate options…]   (default: .build/honesty)
# BIN=… names the indoorpos binary (default: this checkout's release build); DATA=… the shared
# data (default ../shared/data). The truth files only score (Scripts/reference/evaluate.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-.build/honesty}"
shift || true
data="${DATA:-../shared/data}"
mkdir -p "$out"
if [ -z "${BIN:-}" ]; then
    BIN="$(bash Scripts/release-bin.sh)"
fi
kol="$data/kolakowski-flat" danis="$data/danis-office"
"$BIN" calibrate --samples "$kol/calibration.csv" --output "$out/kol-cal.json" 2>/dev/null
"$BIN" calibrate --from-traffic --plan "$kol/plan.json" --rssi "$kol/survey_rssi.csv" --output "$out/kol-traffic.json" 2>/dev/null
"$BIN" calibrate --samples "$danis/calibration.csv" --output "$out/danis-cal.json" 2>/dev/null
run() {  # label set rssi truth [locate options…]
    local label=$1 set=$2 rssi=$3 truth=$4
    shift 4
    "$BIN" locate --plan "$data/$set/plan.json" --rssi "$data/$set/$rssi" --skip-bad-rows --quiet "$@" \
        --output "$out/$label.csv" 2>/dev/null
    python3 Scripts/reference/evaluate.py "$out/$label.csv" "$data/$set/$truth" --markdown "$label" 2>/dev/null
}
echo "| run | RMSE (m) | median (m) | P90 (m) | honesty | fixes |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for mode in causal lag smooth; do
    flags=()
    [ "$mode" = lag ] && flags=(--lag 3)
    [ "$mode" = smooth ] && flags=(--smooth)
    flags+=("$@")
    run "danis-plan-$mode" danis-office tracks_rssi.csv tracks_truth.csv "${flags[@]}"
    run "danis-self-$mode" danis-office tracks_rssi.csv tracks_truth.csv --self-calibrate "${flags[@]}"
    run "danis-cal-$mode" danis-office tracks_rssi.csv tracks_truth.csv --calibration "$out/danis-cal.json" "${flags[@]}"
    run "kol-plan-$mode" kolakowski-flat robot_rssi.csv robot_truth.csv "${flags[@]}"
    run "kol-cal-$mode" kolakowski-flat robot_rssi.csv robot_truth.csv --calibration "$out/kol-cal.json" "${flags[@]}"
    run "kol-learned-$mode" kolakowski-flat robot_rssi.csv robot_truth.csv --calibration "$out/kol-traffic.json" "${flags[@]}"
done
run uji-plan-causal uji-geo rssi.csv truth.csv "$@"
run uji-self-causal uji-geo rssi.csv truth.csv --self-calibrate "$@"
