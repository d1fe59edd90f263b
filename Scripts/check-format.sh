#!/usr/bin/env bash
# Checks that the Swift sources are formatted as swift-format (shipped with the Swift 6
# toolchain as `swift format`) formats them with the committed .swift-format configuration:
# 4-space indentation, 120 columns, ordered imports. Lint-only rules are off; the check is that
# formatting the tree changes nothing.
#   Scripts/check-format.sh          # check (exit 0: formatted; 1: files to format, listed)
#   Scripts/check-format.sh fix      # format the tree in place
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Benchmarks/Package.swift Benchmarks/Ranging Benchmarks/Tracking
       Benchmarks/Trilateration Benchmarks/Pipeline Benchmarks/Support Benchmarks/AllocationCheck
       Benchmarks/TrackerAllocationCheck Fuzz/Package.swift Fuzz/Sources Docs/Examples)
if ! swift format --version >/dev/null 2>&1; then
    echo "check-format.sh: 'swift format' is missing; it ships with Swift 6 toolchains (swift.org/install)" >&2
    exit 2
fi
if [ "${1:-}" = fix ]; then
    swift format --configuration .swift-format --in-place --recursive --parallel "${paths[@]}"
    echo "check-format.sh: formatted ${paths[*]}"
    exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for p in "${paths[@]}"; do
    mkdir -p "$work/$(dirname "$p")"
    cp -R "$p" "$work/$p"
done
cp .swift-format "$work/"
(cd "$work" && swift format --configuration .swift-format --in-place --recursive --parallel "${paths[@]}")
changed=0
while IFS= read -r -d '' file; do
    if ! cmp -s "$file" "$work/$file"; then
        echo "check-format.sh: not formatted: $file" >&2
        changed=1
    fi
done < <(find "${paths[@]}" -name '*.swift' -print0)
if [ "$changed" -ne 0 ]; then
    echo "check-format.sh: run 'bash Scripts/check-format.sh fix' (swift format, .swift-format) and commit" >&2
    exit 1
fi
echo "check-format.sh: $(find "${paths[@]}" -name '*.swift' | wc -l | tr -d ' ') Swift files are formatted"
