#!/usr/bin/env bash
# Self-calibration from traffic on both real data sets: every beacon's path-loss model is learned
# from the unlabeled RSSI (`indoorpos calibrate --from-traffic`), then the walk or drive is located
# with it. The truth files are used only to score (Scripts/reference/evaluate.py), never to learn.
# Rows:
#   danis-office, learned on the same file (what `locate --self-calibrate` does in one run);
#   danis-office, leave one track out (learn on 8 tracks, locate the 9th; pooled over the 9);
#   kolakowski-flat, learned on survey_rssi.csv (a different recording), robot drive located;
#   kolakowski-flat, learned on the robot file itself;
# Where the learning traffic had several devices, the location runs take the device-offset prior
# their spread supports (as `locate --self-calibrate` does; the calibrate summary prints it);
# then, with ROUNDS=1 (default: the stopping rule), the same rows round by round (--tolerance 0).
#   usage: Scripts/Research/self-calibration.sh [OUTPUT_DIR]      (default: .build/self-calibration)
# Needs python3 with numpy (evaluate.py) and the shared data at ../shared/data (or DATA=…).
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-.build/self-calibration}"
data="${DATA:-../shared/data}"
mkdir -p "$out"
bash Scripts/ensure-lapack.sh
swift build -c release --product indoorpos >&2
bin="$(swift build -c release --show-bin-path)/indoorpos"
score() { python3 Scripts/reference/evaluate.py "$1" "$2" --markdown "$3" 2>/dev/null; }
locate_both() {  # plan rssi calibration prefix [summary of the calibrate run]
    # The device-offset prior the learning traffic's devices support, as its summary gives it
    # (what `locate --self-calibrate` uses; none when the traffic had one device).
    local prior=()
    if [ -n "${5:-}" ]; then
        local sigma; sigma=$(grep -o 'with a [0-9.]*-dB offset prior' "$5" | grep -o '[0-9.]*' || true)
        [ -n "$sigma" ] && prior=(--device-offset-sigma "$sigma")
    fi
    "$bin" locate --plan "$1" --rssi "$2" --calibration "$3" --skip-bad-rows --quiet ${prior[@]+"${prior[@]}"} --output "$4-causal.csv" 2>/dev/null
    "$bin" locate --plan "$1" --rssi "$2" --calibration "$3" --skip-bad-rows --quiet ${prior[@]+"${prior[@]}"} --smooth --output "$4-smoothed.csv" 2>/dev/null
}
rows() {  # label rounds-options
    local label="$1"; shift
    local d="$data/danis-office" k="$data/kolakowski-flat"
    "$bin" calibrate --from-traffic --plan "$d/plan.json" --rssi "$d/tracks_rssi.csv" --skip-bad-rows "$@" \
        --output "$out/danis-same.json" 2>"$out/danis-same.log"
    locate_both "$d/plan.json" "$d/tracks_rssi.csv" "$out/danis-same.json" "$out/danis-same" "$out/danis-same.log"
    for mode in causal smoothed; do score "$out/danis-same-$mode.csv" "$d/tracks_truth.csv" "danis-office, same file, $mode$label"; done
    # Leave one track out.
    local tracks; tracks=$(tail -n +2 "$d/tracks_rssi.csv" | cut -d, -f2 | sort -u)
    rm -f "$out/danis-loto-causal.csv" "$out/danis-loto-smoothed.csv"
    for track in $tracks; do
        awk -F, -v t="$track" 'NR == 1 || $2 != t' "$d/tracks_rssi.csv" > "$out/loto-learn.csv"
        awk -F, -v t="$track" 'NR == 1 || $2 == t' "$d/tracks_rssi.csv" > "$out/loto-locate.csv"
        "$bin" calibrate --from-traffic --plan "$d/plan.json" --rssi "$out/loto-learn.csv" --skip-bad-rows "$@" \
            --output "$out/loto.json" 2>"$out/loto.log"
        locate_both "$d/plan.json" "$out/loto-locate.csv" "$out/loto.json" "$out/loto-one" "$out/loto.log"
        for mode in causal smoothed; do
            if [ -f "$out/danis-loto-$mode.csv" ]; then tail -n +2 "$out/loto-one-$mode.csv" >> "$out/danis-loto-$mode.csv"
            else cp "$out/loto-one-$mode.csv" "$out/danis-loto-$mode.csv"; fi
        done
    done
    for mode in causal smoothed; do score "$out/danis-loto-$mode.csv" "$d/tracks_truth.csv" "danis-office, leave one track out, $mode$label"; done
    "$bin" calibrate --from-traffic --plan "$k/plan.json" --rssi "$k/survey_rssi.csv" --skip-bad-rows "$@" \
        --output "$out/kola-survey.json" 2>"$out/kola-survey.log"
    locate_both "$k/plan.json" "$k/robot_rssi.csv" "$out/kola-survey.json" "$out/kola-survey" "$out/kola-survey.log"
    for mode in causal smoothed; do score "$out/kola-survey-$mode.csv" "$k/robot_truth.csv" "kolakowski-flat, learned on the survey walk, $mode$label"; done
    "$bin" calibrate --from-traffic --plan "$k/plan.json" --rssi "$k/robot_rssi.csv" --skip-bad-rows "$@" \
        --output "$out/kola-robot.json" 2>"$out/kola-robot.log"
    locate_both "$k/plan.json" "$k/robot_rssi.csv" "$out/kola-robot.json" "$out/kola-robot" "$out/kola-robot.log"
    for mode in causal smoothed; do score "$out/kola-robot-$mode.csv" "$k/robot_truth.csv" "kolakowski-flat, learned on the robot file, $mode$label"; done
}
echo "| run | RMSE (m) | median (m) | P90 (m) | honesty | fixes |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
rows ""
if [ "${ROUNDS:-0}" = 1 ]; then
    for r in 1 2 3 4 5 6 8; do rows ", $r rounds" --rounds "$r" --tolerance 0; done
fi
