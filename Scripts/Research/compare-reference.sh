#!/usr/bin/env bash
# Side-by-side speed of `indoorpos locate` and the Python reference pipelines (Scripts/reference)
# on the same simulated batches, in one session: samples per second and the ratios. Prints the
# CPU model and the load (other work on the machine slows every row alike only roughly: run it
# on a quiet machine, or read the CPU-second column).
#   usage: Scripts/Research/compare-reference.sh [SAMPLES_FOR_PYTHON] [SAMPLES_FOR_SWIFT] [OUTPUT_DIR]
#   (defaults 100000, 1000000 and .build/compare)
# Needs python3 with numpy and scipy, GNU time (/usr/bin/time) and LAPACK/BLAS.
set -euo pipefail
cd "$(dirname "$0")/../.."
small="${1:-100000}" large="${2:-1000000}" out="${3:-.build/compare}"
mkdir -p "$out"
bash Scripts/ensure-lapack.sh
bin="$(bash Scripts/release-bin.sh)"
python3 Scripts/make-large-batch.py "$small" "$out/small" >/dev/null
python3 Scripts/make-large-batch.py "$large" "$out/large" >/dev/null

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
echo "load: $(uptime | sed 's/.*load average/load average/')"
echo
echo "| run | samples | wall (s) | CPU (s) | samples/s (wall) | samples/s (CPU) | peak memory (MB) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
declare -A rate
measure() {   # label samples command…
    local label="$1" samples="$2"
    shift 2
    /usr/bin/time -f "%e %U %S %M" -o "$out/time.txt" "$@" >/dev/null 2>"$out/stderr.txt" || {
        cat "$out/stderr.txt" >&2
        return 1
    }
    read -r wall user sys peak < "$out/time.txt"
    local cpu per_wall per_cpu
    cpu=$(python3 -c "print(f'{$user + $sys:.2f}')")
    per_wall=$(python3 -c "print(round($samples / max($wall, 0.01)))")
    per_cpu=$(python3 -c "print(round($samples / max($user + $sys, 0.01)))")
    rate["$label"]=$per_cpu
    echo "| $label | $samples | $wall | $cpu | $per_wall | $per_cpu | $((peak / 1024)) |"
}
ref=Scripts/reference
measure "Python common" "$small" python3 "$ref/pipelines.py" --plan "$out/small/plan.json" \
    --rssi "$out/small/rssi.csv" --pipeline common --output "$out/common.csv"
measure "Python ml-kalman" "$small" python3 "$ref/pipelines.py" --plan "$out/small/plan.json" \
    --rssi "$out/small/rssi.csv" --pipeline ml-kalman --output "$out/ml-kalman.csv"
measure "indoorpos locate" "$small" "$bin" locate --plan "$out/small/plan.json" \
    --rssi "$out/small/rssi.csv" --output "$out/swift-small.csv" --quiet
measure "indoorpos locate (large)" "$large" "$bin" locate --plan "$out/large/plan.json" \
    --rssi "$out/large/rssi.csv" --output "$out/swift-large.csv" --quiet
echo
for python in "Python common" "Python ml-kalman"; do
    echo "indoorpos locate (large) / $python, samples per CPU second: $(python3 -c "print(f'{${rate["indoorpos locate (large)"]} / ${rate[$python]}:.0f}')")×"
done
