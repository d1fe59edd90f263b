#!/usr/bin/env bash
# Zone figures on real data: danis-office's walks with the bundled office plan's three bays
# (west, centre, east: the same room, Docs/Examples/office-plan.json) drawn on the data set's plan,
# located with the plan's values and with --self-calibrate, scored by Scripts/reference/zones.py
# against the truth (used only to score) next to a plain point-in-polygon rule and its 3-fix
# debounce. kolakowski-flat has no zones: its plan and shared/data/README.md do not give the flat's rooms.
#   Scripts/Research/zones-real.sh [OUTPUT_DIR]      (BIN=path/to/indoorpos to pick the binary)
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-.build/zones-real}"
mkdir -p "$out"
BIN="${BIN:-$(bash Scripts/release-bin.sh)}"
data=../shared/data/danis-office
python3 - "$data/plan.json" Docs/Examples/office-plan.json "$out/danis-zones.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
zones = [z for f in json.load(open(sys.argv[2]))["floors"] for z in f.get("zones", [])]
plan["floors"][0]["zones"] = zones
json.dump(plan, open(sys.argv[3], "w"), indent=1)
PY
echo "| run | rule | held | entries caught (±10 s) | median latency | false entries | changes (true) | two at once |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for run in plan self; do
    flags=()
    [ "$run" = self ] && flags=(--self-calibrate)
    "$BIN" locate --plan "$out/danis-zones.json" --rssi "$data/tracks_rssi.csv" --quiet --output "$out/$run.csv" "${flags[@]}"
    "$BIN" monitor --plan "$out/danis-zones.json" --rssi "$data/tracks_rssi.csv" --output "$out/$run-events.csv" "${flags[@]}" 2>/dev/null
    python3 Scripts/reference/zones.py "$out/danis-zones.json" "$out/$run.csv" "$data/tracks_truth.csv" \
        --events "$out/$run-events.csv" --markdown "danis-office, $run" | tail -n +3
done
