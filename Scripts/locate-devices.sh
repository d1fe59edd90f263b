#!/usr/bin/env bash
# Times `indoorpos locate` (default options) on venues with many phones and prints a table of wall
# time, CPU time (user + system) and peak memory (GNU time). Inputs from Scripts/make-device-batch.py,
# rows in time order across devices, over one hour:
#   one-sample  N phones heard once each;
#   visits      D phones heard for 2 s each (64 samples).
#   crowd       10,000 phones heard for 3 s each (100 samples): 1,000,000 samples.
# Each batch runs with --jobs 1 and --jobs J (default: the machine's cores); the table gives both
# and the speed-up, and the script fails if the two outputs differ.
# Usage: Scripts/locate-devices.sh [N] [D]   (default 1000000 and 10000)
# Needs a release build (swift build -c release --product indoorpos); INDOORPOS=path measures
# another binary (JOBS= empty: without --jobs, for a binary that has none), OUT=folder keeps the
# outputs there (to compare two binaries with cmp).
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
python3 Scripts/make-device-batch.py 10000 100 3600 "$WORK/crowd" >/dev/null
JOBS=${JOBS-$(nproc)}
echo "| batch | jobs | wall (s) | CPU (s) | peak memory (MB) | positions | speed-up |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
status=0
for batch in one-sample visits crowd; do
    case $batch in
        one-sample) label="$N phones heard once" ;;
        visits) label="$D phones x 64 samples" ;;
        crowd) label="10000 phones x 100 samples" ;;
    esac
    single=""
    for jobs in 1 $JOBS; do
        [ -n "$JOBS" ] || jobs=""
        /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$BIN" locate --plan "$WORK/$batch/plan.json" \
            --rssi "$WORK/$batch/rssi.csv" --output "$OUT/$batch-fixes-$jobs.csv" --quiet ${jobs:+--jobs $jobs}
        read -r wall user system kb <"$WORK/time"
        rows=$(($(wc -l <"$OUT/$batch-fixes-$jobs.csv") - 1))
        speedup=$([ -n "$single" ] && awk -v a="$single" -v b="$wall" 'BEGIN { printf "%.2f x", a / b }' || echo "")
        awk -v l="$label" -v j="${jobs:--}" -v w="$wall" -v u="$user" -v s="$system" -v k="$kb" -v r="$rows" -v x="$speedup" \
            'BEGIN { printf "| %s | %s | %.2f | %.2f | %.0f | %d | %s |\n", l, j, w, u + s, k / 1000, r, x }'
        if [ -z "$single" ]; then single=$wall; first="$OUT/$batch-fixes-$jobs.csv"; continue; fi
        cmp -s "$first" "$OUT/$batch-fixes-$jobs.csv" || { echo "locate-devices: --jobs $jobs output differs from --jobs 1" >&2; status=1; }
        [ -n "$jobs" ] || break
    done
done
exit $status
