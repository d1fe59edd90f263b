#!/usr/bin/env bash
# Checks the benchmarks' allocation counts against the thresholds committed under
# Benchmarks/Thresholds (mallocCountTotal only: wall clock is too noisy on shared machines to
# gate on). Runs every benchmark of the nested Benchmarks package in release mode.
#   usage: Scripts/check-benchmark-thresholds.sh            # check (exit 0 = within thresholds)
#          Scripts/check-benchmark-thresholds.sh update     # record new thresholds
#   extra arguments go to `swift package benchmark` (e.g. --target TrackingBenchmarks)
# Exit status: 0 within the thresholds (or better: it says so, to lower them), 2 a threshold
# was exceeded (an allocation was added), other values: the run failed.
set -uo pipefail
cd "$(dirname "$0")/../Benchmarks"
bash ../Scripts/ensure-lapack.sh
if [ "${1:-}" = update ]; then
    shift
    swift package --allow-writing-to-package-directory benchmark thresholds update --path Thresholds "$@" || exit $?
    # Keep only the allocation counts in the committed files.
    python3 - <<'PY'
import glob, json
for path in glob.glob("Thresholds/*.json"):
    with open(path) as f:
        values = json.load(f)
    with open(path, "w") as f:
        json.dump({"mallocCountTotal": values.get("mallocCountTotal", 0)}, f, indent=2, sort_keys=True)
        f.write("\n")
PY
    exit 0
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
swift package benchmark thresholds check --path Thresholds "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# `swift package` exits 1 for every plugin failure; the plugin names the reason.
if grep -q "benchmarkThresholdRegression\|is WORSE than the defined thresholds" "$log"; then
    echo "check-benchmark-thresholds: FAILED: a benchmark allocates more than its threshold (see the table above)" >&2
    exit 2
elif grep -q "benchmarkThresholdImprovement\|is BETTER than the defined thresholds" "$log"; then
    echo "check-benchmark-thresholds: fewer allocations than the thresholds: run '$0 update' to lower them"
    exit 0
elif [ "$status" -eq 0 ]; then
    echo "check-benchmark-thresholds: every benchmark is within its allocation threshold"
    exit 0
fi
echo "check-benchmark-thresholds: the benchmark run failed (status $status)" >&2
exit "$status"
