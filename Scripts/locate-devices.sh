#!/usr/bin/env bash
# Times `indoorpos locate` (default options) on venues with many phones and prints a table of wall
# time, CPU time (user + system) and peak memory (GNU time). Inputs from Scripts/make-device-batch.py,
# rows in time order across devices, over one hour:
#   one-sample  N phones heard once each;
#   visits      D phones heard for 2 s each (64 samples).
# Usage: Scripts/locate-devices.sh [N] [D]   (default 1000000 and 10000)
# Needs a release build (swift build -c release --product indoorpos); INDOORPOS=path measures
# another binary, OUT=folder keeps the outputs there (to compare two binaries with cmp).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${INDOORPOS:-.build/release/indoorpos}
[ -x "$BIN" ] || { echo "locate-devices: $BIN not found; run swift build -c release --product indoorpos" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "locate-devices: /usr/bin/time (GNU time) is needed" >&2; exit 1; }
N=${1:-1000000}
D=${2:-10000}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
OUT=${OUT:-$WORK}
mkdir -p "$OUT"
python3 Scripts/make-device-batch.py "$N" 1 3600 "$WORK/one-sample" >/dev/null
python3 Scripts/make-device-batch.py "$D" 64 3600 "$WORK/visits" >/dev/null
echo "| batch | wall (s) | CPU (s) | peak memory (MB) | positions |"
echo "| --- | ---: | ---: | ---: | ---: |"
for batch in one-sample visits; do
    /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$BIN" locate --plan "$WORK/$batch/plan.json" \
        --rssi "$WORK/$batch/rssi.csv" --output "$OUT/$batch-fixes.csv" --quiet
    read -r wall user system kb <"$WORK/time"
    rows=$(($(wc -l <"$OUT/$batch-fixes.csv") - 1))
    label=$([ "$batch" = one-sample ] && echo "$N phones heard once" || echo "$D phones x 64 samples")
    awk -v l="$label" -v w="$wall" -v u="$user" -v s="$system" -v k="$kb" -v r="$rows" \
        'BEGIN { printf "| %s | %.2f | %.2f | %.0f | %d |\n", l, w, u + s, k / 1000, r }'
done
