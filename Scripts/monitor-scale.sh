#!/usr/bin/env bash
# Times `indoorpos monitor` on the bundled office sample with N generated regions and prints a
# table of wall time and peak memory (GNU time). Two kinds of region set:
#   circles  N circles of radius 1.5 m on a 20 × 17 grid over the office,
#            {"id": "r<i>", "circle": {"x": i % 20, "y": (i / 20) % 17, "radius": 1.5, "level": 0}}
#   beacons  N beacon conditions, a mix of exact identities (half), UUID + major (a quarter) and
#            UUID only (a quarter), spread so that each beacon of the office matches a few dozen.
# Usage: Scripts/monitor-scale.sh [N ...]   (default 100 1000 5000 20000 100000)
# Needs a release build (swift build -c release --product indoorpos).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${INDOORPOS:-.build/release/indoorpos}
[ -x "$BIN" ] || { echo "monitor-scale: $BIN not found; run swift build -c release --product indoorpos" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "monitor-scale: /usr/bin/time (GNU time) is needed" >&2; exit 1; }
COUNTS=("$@")
[ ${#COUNTS[@]} -gt 0 ] || COUNTS=(100 1000 5000 20000 100000)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

make_regions() { # kind n file
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys, uuid
kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
office = "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C"
regions = []
for i in range(n):
    if kind == "circles":
        regions.append({"id": f"r{i}", "circle": {"x": i % 20, "y": (i // 20) % 17, "radius": 1.5, "level": 0}})
    elif i % 4 < 2:
        regions.append({"id": f"r{i}", "beacon": {"uuid": office, "major": (i // 200) % 50, "minor": i % 200}})
    elif i % 4 == 2:
        regions.append({"id": f"r{i}", "beacon": {"uuid": office, "major": (i // 4) % 1000}})
    else:
        u = office if (i // 4) % 1000 == 0 else str(uuid.UUID(int=i * 2654435761 % (1 << 128)))
        regions.append({"id": f"r{i}", "beacon": {"uuid": u.upper()}})
json.dump({"regions": regions}, open(path, "w"))
PY
}

printf '| regions | kind | time (s) | max memory (MB) | events |\n| ---: | --- | ---: | ---: | ---: |\n'
for kind in circles beacons; do
    for n in "${COUNTS[@]}"; do
        make_regions "$kind" "$n" "$WORK/regions.json"
        /usr/bin/time -v "$BIN" monitor --plan Docs/Examples/office-plan.json --regions "$WORK/regions.json" \
            --rssi Docs/Examples/office-rssi.csv --output "$WORK/events.csv" 2>"$WORK/time.txt" >/dev/null \
            || { cat "$WORK/time.txt" >&2; exit 1; }
        wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f", s}' "$WORK/time.txt")
        rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$WORK/time.txt")
        events=$(($(wc -l <"$WORK/events.csv") - 1))
        printf '| %s | %s | %s | %s | %s |\n' "$n" "$kind" "$wall" "$rss" "$events"
        rm -f "$WORK/events.csv"
    done
done
