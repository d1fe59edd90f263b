#!/usr/bin/env bash
# Builds one libFuzzer target of Fuzz/ (with -sanitize=fuzzer,address) and runs it for SECONDS.
#   Scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]
#   Scripts/fuzz.sh list                      # the targets
# The committed seeds are in Fuzz/Corpus/TARGET; what the run finds goes to
# Fuzz/.build/corpus/TARGET, and a crashing or hanging input to Fuzz/.build/artifacts/TARGET/
# (turn it into a regression test, and add it to the seeds). Prints libFuzzer's final stats
# (number of executions, coverage); exit status non-zero when an input broke a promise.
set -euo pipefail
cd "$(dirname "$0")/.."
targets="FuzzFloorPlan FuzzRSSICSV FuzzCSVFile FuzzCalibrationCSV FuzzCalibrationJSON FuzzRegions FuzzSolver FuzzTracker FuzzTrackerBank FuzzEngine"
if [[ "${1:-}" == list ]]; then echo "$targets" | tr ' ' '\n'; exit 0; fi
target=${1:?usage: Scripts/fuzz.sh TARGET SECONDS [libFuzzer options...] (Scripts/fuzz.sh list)}
seconds=${2:?usage: Scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]}
shift 2
[[ " $targets " == *" $target "* ]] || { echo "fuzz.sh: unknown target '$target'; one of: $targets" >&2; exit 2; }
if [[ $target == FuzzRegions && ! -d Sources/Monitoring ]]; then
    echo "fuzz.sh: FuzzRegions needs the Monitoring module (Sources/Monitoring), which this checkout lacks" >&2; exit 2
fi
bash Scripts/ensure-lapack.sh >/dev/null
flags=(--package-path Fuzz -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -g)
swift build "${flags[@]}" --product "$target"
binary="$(swift build "${flags[@]}" --show-bin-path)/$target"
work="Fuzz/.build/corpus/$target"
artifacts="Fuzz/.build/artifacts/$target"
mkdir -p "$work" "$artifacts" "Fuzz/Corpus/$target"
echo "fuzz.sh: $target for $seconds s (seeds Fuzz/Corpus/$target, corpus $work, crashes $artifacts/)" >&2
# Swift's own crash backtracer and ASan's stack checks get in each other's way; let libFuzzer
# report crashes (with ASan's symbolised stack) instead.
export SWIFT_BACKTRACE=enable=no
exec nice -n 19 "$binary" -max_total_time="$seconds" -timeout=10 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$@" "$work" "Fuzz/Corpus/$target"
