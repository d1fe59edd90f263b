#!/usr/bin/env bash
# Times `indoorpos monitor` with many devices and prints a table of wall time and peak memory
# (GNU time). Inputs are made from the bundled office sample:
#   one-sample  N devices of one sample each (the sample file's rows in turn, renamed p0, p1, …),
#               with the bundled office regions;
#   walks       D devices of 30 consecutive samples each (from random places in the sample file,
#               renamed d0, d1, …) with R circles of radius 0.5–2 m scattered over the office.
# Usage: Scripts/monitor-devices.sh [N] [R D]   (default 300000, and 100000 1000)
# Needs a release build (swift build -c release --product indoorpos); INDOORPOS=path measures
# another binary.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${INDOORPOS:-.build/release/indoorpos}
[ -x "$BIN" ] || { echo "monitor-devices: $BIN not found; run swift build -c release --product indoorpos" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "monitor-devices: /usr/bin/time (GNU time) is needed" >&2; exit 1; }
N=${1:-300000}
R=${2:-100000}
D=${3:-1000}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 - "$N" "$R" "$D" "$WORK" <<'PY'
import json, random, sys
n, r, d, work = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
random.seed(1)
lines = open("Docs/Examples/office-rssi.csv").read().replace("\r\n", "\n").splitlines()
header, rows = lines[0], [line.split(",") for line in lines[1:] if line]
with open(f"{work}/one-sample.csv", "w") as out:
    out.write(header + "\n")
    for i in range(n):
        row = list(rows[i % len(rows)]); row[1] = f"p{i}"; out.write(",".join(row) + "\n")
with open(f"{work}/walks.csv", "w") as out:
    out.write(header + "\n")
    for i in range(d):
        start = random.randrange(0, len(rows) - 30)
        for row in rows[start:start + 30]:
            row = list(row); row[1] = f"d{i}"; out.write(",".join(row) + "\n")
circles = [{"id": f"c{i}", "circle": {"x": round(random.uniform(0, 20), 2), "y": round(random.uniform(0, 15), 2),
            "radius": round(random.uniform(0.5, 2), 2), "level": 0}} for i in range(r)]
json.dump({"regions": circles}, open(f"{work}/circles.json", "w"))
PY
run() { # label regions rssi
    /usr/bin/time -v "$BIN" monitor --plan Docs/Examples/office-plan.json --regions "$2" --rssi "$3" \
        --output "$WORK/events.csv" 2>"$WORK/time.txt" >/dev/null || { cat "$WORK/time.txt" >&2; exit 1; }
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f", s}' "$WORK/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$WORK/time.txt")
    printf '| %s | %s | %s | %s |\n' "$1" "$wall" "$rss" "$(($(wc -l <"$WORK/events.csv") - 1))"
}
printf '| input | time (s) | max memory (MB) | events |\n| --- | ---: | ---: | ---: |\n'
run "$N one-sample devices, 6 office regions" Docs/Examples/office-regions.json "$WORK/one-sample.csv"
run "$D devices × 30 samples, $R circles" "$WORK/circles.json" "$WORK/walks.csv"
