#!/usr/bin/env bash
# Checks that `indoorpos locate --jobs N` writes the same bytes for every N: 17 runs (the
# bundled sample with the main options, the three shared data sets of ../shared/data with
# learning, calibration, smoothing and idle release), each with --jobs 1 and with --jobs N
# (default 2), compared with cmp; and, with BASE=path/to/another/indoorpos, the same runs of that
# binary (without --jobs) against --jobs 1.
#   usage: Scripts/check-jobs.sh [N]    (INDOORPOS=binary, default the release build; OUT=dir; DATA=dir)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${1:-2}"
bin="${INDOORPOS:-}"
if [ -z "$bin" ]; then
    bin="$(bash Scripts/release-bin.sh)"
fi
out="${OUT:-.build/check-jobs}"
data="${DATA:-../shared/data}"
mkdir -p "$out"
ex=Docs/Examples
sample=(--plan $ex/office-plan.json --rssi $ex/office-rssi.csv)
danis=(--plan "$data/danis-office/plan.json" --rssi "$data/danis-office/tracks_rssi.csv")
kol=(--plan "$data/kolakowski-flat/plan.json" --rssi "$data/kolakowski-flat/robot_rssi.csv")
uji=(--plan "$data/uji-geo/plan.json" --rssi "$data/uji-geo/rssi.csv")
"$bin" calibrate --robust --samples "$data/danis-office/calibration.csv" >"$out/danis-calibration.json" 2>/dev/null
runs=(
    "sample|${sample[*]}"
    "sample-calibrated|${sample[*]} --calibration $ex/office-calibration.json"
    "sample-lag|${sample[*]} --lag 3 --format jsonl"
    "sample-smooth|${sample[*]} --smooth --covariance"
    "sample-learn|${sample[*]} --learn-online"
    "sample-motion|${sample[*]} --motion-modes --report-motion"
    "sample-raw|${sample[*]} --tracker none"
    "sample-idle|${sample[*]} --idle-release 5"
    "danis|${danis[*]}"
    "danis-self|${danis[*]} --self-calibrate"
    "danis-idle|${danis[*]} --idle-release 60"
    "danis-calibrated|${danis[*]} --calibration $out/danis-calibration.json"
    "danis-smooth|${danis[*]} --smooth"
    "kolakowski|${kol[*]}"
    "kolakowski-raw|${kol[*]} --tracker none"
    "kolakowski-learn|${kol[*]} --learn-online"
    "uji|${uji[*]}"
)
status=0
for run in "${runs[@]}"; do
    name="${run%%|*}"
    read -r -a args <<<"${run#*|}"
    "$bin" locate --quiet "${args[@]}" --jobs 1 >"$out/$name-1.out"
    "$bin" locate --quiet "${args[@]}" --jobs "$jobs" >"$out/$name-$jobs.out"
    verdict="same"
    cmp -s "$out/$name-1.out" "$out/$name-$jobs.out" || { verdict="DIFFERENT"; status=1; }
    line="$name: --jobs 1 and --jobs $jobs $verdict ($(wc -l <"$out/$name-1.out") lines)"
    if [ -n "${BASE:-}" ]; then
        "$BASE" locate --quiet "${args[@]}" >"$out/$name-base.out"
        if cmp -s "$out/$name-1.out" "$out/$name-base.out"; then line="$line; as $BASE"; else line="$line; differs from $BASE"; fi
    fi
    echo "$line"
done
exit $status
